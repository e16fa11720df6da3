// SPDX-License-Identifier: GPL-2.0
/*
 * The packet layer's own costs: pool allocation and free in bursts of 32 (descriptors and
 * buffers through the per-thread caches), clone and free, the generator port making 64-byte
 * and 1500-byte frames (a template patched with incremental checksums), and a generator device
 * feeding a pipe pair (the veth twin) whose peer device receives. Rates from CPU time.
 */
#include <stdio.h>

#include "io/pipe.h"
#include "io/port.h"
#include "net/dev.h"
#include "net/pkt.h"
#include "bench.h"

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

NB_BENCH(pkt_io, "packet pool, generator port, pipe pair (the veth twin)")
{
	bench_pool();
	bench_gen_size("count 0 pkt_size 64", "gen 64 B UDP frames");
	bench_gen_size("count 0 pkt_size 1500", "gen 1500 B UDP frames");
	bench_gen_size("count 0 pkt_size 64 src_min 10.0.0.1 src_max 10.0.255.255 "
		       "udp_dst_min 1 udp_dst_max 65535", "gen 64 B, 65536 x 65535 flows");
	bench_gen_pipe();
}
