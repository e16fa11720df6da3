// SPDX-License-Identifier: GPL-2.0
/*
 * XDP redirect with the bulk queues on and off: what the patch set "xdp: Introduce bulking
 * for non-map XDP_REDIRECT" buys. A driver loop (the worker's receive and flush) feeds bursts
 * of 32 64-byte frames to a device whose XDP program redirects them, through a devmap
 * (bpf_redirect_map) or by ifindex (bpf_redirect), to a second device. Its port is a sink
 * (transmit costs nothing: the queueing itself is measured) or a pipe end, the veth twin,
 * whose transmit takes the peer's ring lock once per call, as a driver rings its doorbell;
 * the peer's ring is drained after every poll. Frames come from the packet pool, as a
 * driver's receive buffers do. Each variant reports the best of ROUNDS runs.
 */
#include <stdio.h>
#include <stdlib.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "bpf/epoch.h"
#include "bpf/prog.h"
#include "io/pipe.h"
#include "io/port.h"
#include "net/dev.h"
#include "net/pkt.h"
#include "net/worker.h"
#include "net/xdp.h"
#include "bench.h"

#define BURSTS 50000
#define ROUNDS 5

/* r1 = the map with this id (BPF_PSEUDO_MAP_FD ldimm64 carrying a netbpf map id). */
#define LD_MAP_R1(id)                                                                       \
	{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_FD,    \
	  .imm = (s32)(id) },                                                               \
	{ .imm = 0 }
#define MOV_IMM(r, v) { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = (r), .imm = (v) }
#define CALL(id)      { .code = BPF_JMP | BPF_CALL, .imm = (id) }
#define EXIT()        { .code = BPF_JMP | BPF_EXIT }

static const u8 frame[64] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };

static __attribute__((noreturn)) void die(const char *what)
{
	fprintf(stderr, "xdp_redirect bench: %s failed\n", what);
	exit(1);
}

static struct nb_dev *bench_dev(const char *name, const char *kind, struct nb_port **portp)
{
	struct nb_port *port = NULL;
	struct nb_dev *dev;

	if (nb_dev_create(name, 0, &dev, NULL))
		die("device");
	if (kind) {
		if (nb_port_open_str(kind, "", &port, NULL))
			die("port");
		nb_dev_set_port(dev, port);
	}
	if (portp)
		*portp = port;
	nb_dev_set_up(dev, true);
	return dev;
}

static struct nb_prog *load(const struct bpf_insn *insns, unsigned int cnt)
{
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL",
	};
	struct nb_prog *prog;

	if (nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &opts, &prog))
		die("program load");
	return prog;
}

/* Bursts through the hook and the flush; peer (may be NULL) is drained after each poll. */
static void drive(struct nb_dev *rx, struct nb_port *peer, u64 bursts,
		  struct nb_bench_clock *clk)
{
	struct nb_pkt *pkts[NB_BURST];
	unsigned int n;

	nb_epoch_online();
	nb_bench_start(clk);
	for (u64 b = 0; b < bursts; b++) {
		for (unsigned int i = 0; i < NB_BURST; i++) {
			pkts[i] = nb_pkt_alloc_data(frame, sizeof(frame));
			pkts[i]->dev = rx;
		}
		nb_worker_receive_burst(rx, pkts, NB_BURST);
		nb_worker_flush();
		while (peer && (n = nb_port_rx_burst(peer, pkts, NB_BURST)) > 0)
			for (unsigned int i = 0; i < n; i++)
				nb_pkt_free(pkts[i]);
		nb_epoch_quiescent();
	}
	nb_bench_stop(clk);
	nb_epoch_offline();
}

static void run_variant(bool use_map, bool pipe, bool bulk, u64 bursts)
{
	struct nb_port *tx_port, *peer = NULL;
	struct nb_dev *rx = bench_dev("brx0", NULL, NULL);
	struct nb_dev *tx = bench_dev("btx0", pipe ? "pipe" : "sink", &tx_port);
	struct nb_map_create_opts mopts = { .sz = sizeof(mopts) };
	struct bpf_devmap_val val = { .ifindex = tx->ifindex };
	struct nb_bench_clock clk;
	struct nb_map *map = NULL;
	struct nb_xdp_stats st;
	struct nb_prog *prog;
	char line[128];
	u32 key = 0;

	if (pipe) {
		bench_dev("bpeer0", "pipe", &peer);
		if (nb_pipe_connect(tx_port, peer))
			die("pipe connect");
	}
	if (use_map) {
		if (nb_map_create(BPF_MAP_TYPE_DEVMAP, 4, sizeof(val), 4, &mopts, &map) ||
		    nb_map_update_elem(map, &key, &val, BPF_ANY))
			die("devmap");
		const struct bpf_insn insns[] = {
			LD_MAP_R1(nb_map_id(map)), MOV_IMM(2, 0), MOV_IMM(3, 0),
			CALL(BPF_FUNC_redirect_map), EXIT(),
		};
		prog = load(insns, ARRAY_SIZE(insns));
	} else {
		const struct bpf_insn insns[] = {
			MOV_IMM(1, (s32)tx->ifindex), MOV_IMM(2, 0), CALL(BPF_FUNC_redirect), EXIT(),
		};
		prog = load(insns, ARRAY_SIZE(insns));
	}
	if (nb_dev_xdp_attach(rx, prog, 0, NULL))
		die("attach");
	nb_prog_put(prog);
	nb_dev_xdp_set_bulk(tx, bulk);
	drive(rx, peer, bursts / 20 + 1, &clk);	/* warm the pool and the caches */
	/* The machine is shared: the best of a few runs is the cost of the code. */
	for (int round = 0; round < ROUNDS; round++) {
		struct nb_bench_clock c;

		nb_dev_xdp_stats_reset(tx);
		drive(rx, peer, bursts, &c);
		if (!round || c.cpu < clk.cpu)
			clk = c;
	}
	nb_dev_xdp_stats_read(tx, &st);
	snprintf(line, sizeof(line), "%-12s -> %-4s bulk %-3s  %2u-frame xmits: %llu",
		 use_map ? "redirect_map" : "redirect", pipe ? "pipe" : "sink", bulk ? "on" : "off",
		 bulk ? NB_XDP_BULK_SIZE : 1,
		 (unsigned long long)st.flush_sizes[bulk ? NB_XDP_BULK_SIZE : 1]);
	nb_bench_report(line, st.xmit_sent, &clk, "pps");
	nb_map_put(map);
	nb_dev_destroy_all();
	nb_epoch_barrier();
}

NB_BENCH(xdp_redirect, "XDP_REDIRECT through the per-CPU bulk queues, bulking on vs off")
{
	u64 bursts = (u64)(BURSTS * nb_bench_scale());

	for (int pipe = 0; pipe < 2; pipe++) {
		for (int map = 1; map >= 0; map--) {
			run_variant(map, pipe, true, bursts);
			run_variant(map, pipe, false, bursts);
		}
	}
}
