// SPDX-License-Identifier: GPL-2.0
/*
 * The packet layer's own costs: pool allocation and free in bursts of 32 (descriptors and
 * buffers through the per-thread caches), clone and free, the generator port making 64-byte
 * and 1500-byte frames (a template patched with incremental checksums), a generator device
 * feeding a pipe pair (the veth twin) whose peer device receives, and, when root, the same over
 * a real veth pair through afpacket ports (TX ring against sendmmsg, then RX through the
 * TPACKET_V3 ring), in a network namespace of a child process's own. Rates from CPU time (for
 * afpacket the kernel's veth work runs in the sending thread's system time, and is counted).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "io/pipe.h"
#include "io/port.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "bench.h"
#include "netns.h"

static u64 rounds(u64 base)
{
	u64 n = (u64)(base * nb_bench_scale());

	return n ? n : 1;
}

static void bench_pool(void)
{
	struct nb_pkt *pkts[NB_BURST];
	struct nb_bench_clock clk;
	u64 n = rounds(300000);

	nb_bench_start(&clk);
	for (u64 r = 0; r < n; r++) {
		for (int i = 0; i < NB_BURST; i++)
			pkts[i] = nb_pkt_alloc();
		for (int i = 0; i < NB_BURST; i++)
			nb_pkt_free(pkts[i]);
	}
	nb_bench_stop(&clk);
	nb_bench_report("pool alloc+free, bursts of 32", n * NB_BURST, &clk, "pkt/s");

	nb_bench_start(&clk);
	for (u64 r = 0; r < n; r++) {
		for (int i = 0; i < NB_BURST; i++)
			pkts[i] = nb_pkt_alloc();
		for (int i = 0; i < NB_BURST; i++) {
			nb_pkt_free(nb_pkt_clone(pkts[i]));
			nb_pkt_free(pkts[i]);
		}
	}
	nb_bench_stop(&clk);
	nb_bench_report("pool alloc+clone+free+free", n * NB_BURST, &clk, "pkt/s");
}

static void bench_gen_size(const char *words, const char *label)
{
	struct nb_pkt *pkts[NB_BURST];
	struct nb_bench_clock clk;
	struct nb_port *gen;
	u64 n = rounds(100000), made = 0;

	if (nb_port_open_str("gen", words, &gen, NULL))
		return;
	nb_bench_start(&clk);
	for (u64 r = 0; r < n; r++) {
		unsigned int k = nb_port_rx_burst(gen, pkts, NB_BURST);

		for (unsigned int i = 0; i < k; i++)
			nb_pkt_free(pkts[i]);
		made += k;
	}
	nb_bench_stop(&clk);
	nb_bench_report(label, made, &clk, "pps");
	nb_port_close(gen);
}

static void bench_gen_pipe(void)
{
	struct nb_dev *gen, *a, *b;
	struct nb_pkt *pkts[NB_BURST];
	struct nb_bench_clock clk;
	u64 n = rounds(100000), got = 0;

	if (nb_dev_create("bgen", 0, &gen, NULL) || nb_dev_create("bva", 0, &a, NULL) ||
	    nb_dev_create("bvb", 0, &b, NULL) ||
	    nb_dev_attach_port(gen, "gen", "count 0 pkt_size 64", NULL) ||
	    nb_dev_pipe_pair(a, b, NULL)) {
		nb_dev_destroy_all();
		return;
	}
	nb_dev_set_up(gen, true);
	nb_dev_set_up(a, true);
	nb_dev_set_up(b, true);
	nb_bench_start(&clk);
	for (u64 r = 0; r < n; r++) {
		unsigned int k = nb_dev_rx_burst(gen, pkts, NB_BURST);

		nb_dev_tx_burst(a, pkts, k);
		k = nb_dev_rx_burst(b, pkts, NB_BURST);
		for (unsigned int i = 0; i < k; i++)
			nb_pkt_free(pkts[i]);
		got += k;
	}
	nb_bench_stop(&clk);
	nb_bench_report("gen dev rx -> pipe tx -> peer dev rx, 64 B", got, &clk, "pps");
	nb_dev_destroy_all();
}

/* gen -> afpacket tx on veth0; with rx, an afpacket port on veth1 reads them back. */
static void bench_afpacket(const char *tx_words, const char *rx_words, const char *label)
{
	struct nb_port *gen, *tx, *rx = NULL;
	struct nb_pkt *pkts[NB_BURST];
	struct nb_bench_clock clk;
	u64 n = rounds(5000), sent = 0, got = 0;
	struct nb_log log = { 0 };

	if (nb_port_open_str("gen", "count 0 pkt_size 64", &gen, NULL))
		return;
	if (nb_port_open_str("afpacket", tx_words, &tx, &log) ||
	    (rx_words && nb_port_open_str("afpacket", rx_words, &rx, &log))) {
		printf("  %-44s not measured: %s", label, nb_log_text(&log));
		nb_log_free(&log);
		nb_port_close(tx);
		nb_port_close(gen);
		return;
	}
	nb_bench_start(&clk);
	for (u64 r = 0; r < n; r++) {
		unsigned int k = nb_port_rx_burst(gen, pkts, NB_BURST);
		unsigned int done = nb_port_tx_burst(tx, pkts, k);

		for (unsigned int i = done; i < k; i++)
			nb_pkt_free(pkts[i]);
		sent += done;
		while (rx && (k = nb_port_rx_burst(rx, pkts, NB_BURST)) > 0) {
			for (unsigned int i = 0; i < k; i++)
				nb_pkt_free(pkts[i]);
			got += k;
		}
	}
	/* the last, partly filled RX block is handed over after its 1 ms timeout */
	for (int wait = 0; rx && got < sent && wait < 100; wait++) {
		unsigned int k = nb_port_rx_burst(rx, pkts, NB_BURST);

		for (unsigned int i = 0; i < k; i++)
			nb_pkt_free(pkts[i]);
		got += k;
		if (!k)
			usleep(1000);
	}
	nb_bench_stop(&clk);
	nb_bench_report(label, rx ? got : sent, &clk, "pps");
	if (rx && got < sent)
		printf("    (%llu of %llu frames received)\n", (unsigned long long)got,
		       (unsigned long long)sent);
	nb_port_close(rx);
	nb_port_close(tx);
	nb_port_close(gen);
}

/* In a child, in a network namespace of its own: nothing reaches the machine's interfaces. */
static void bench_afpacket_veth(void)
{
	pid_t pid;
	int err;

	if (geteuid() != 0) {
		printf("  afpacket over veth: not measured (needs root)\n");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return;
	if (pid) {
		waitpid(pid, NULL, 0);
		return;
	}
	err = nb_netns_enter();
	if (!err)
		err = nb_veth_pair_up("nbbench0", "nbbench1");
	if (err) {
		printf("  afpacket over veth: not measured: %s\n", strerror(-err));
	} else {
		bench_afpacket("dev nbbench0 tx ring", NULL, "afpacket tx ring -> veth, 64 B");
		bench_afpacket("dev nbbench0 tx sendmmsg", NULL,
			       "afpacket tx sendmmsg -> veth, 64 B");
		bench_afpacket("dev nbbench0 tx ring", "dev nbbench1",
			       "afpacket tx ring -> veth -> afpacket rx ring");
		bench_afpacket("dev nbbench0 tx sendmmsg", "dev nbbench1",
			       "afpacket tx sendmmsg -> veth -> afpacket rx");
	}
	fflush(stdout);
	_exit(0);
}

NB_BENCH(pkt_io, "packet pool, generator port, pipe pair (the veth twin)")
{
	bench_pool();
	bench_gen_size("count 0 pkt_size 64", "gen 64 B UDP frames");
	bench_gen_size("count 0 pkt_size 1500", "gen 1500 B UDP frames");
	bench_gen_size("count 0 pkt_size 64 src_min 10.0.0.1 src_max 10.0.255.255 "
		       "udp_dst_min 1 udp_dst_max 65535", "gen 64 B, 65536 x 65535 flows");
	bench_gen_pipe();
	bench_afpacket_veth();
}
