// SPDX-License-Identifier: GPL-2.0
/*
 * XDP redirect with the bulk queues on and off: what the patch set "xdp: Introduce bulking
 * for non-map XDP_REDIRECT" buys. A driver loop (the worker's receive and flush) feeds bursts
 * of 32 64-byte frames to a device whose XDP program redirects them, through a devmap
 * (bpf_redirect_map) or by ifindex (bpf_redirect), to a second device. Its port is a sink
 * (transmit costs nothing: the queueing itself is measured) or a pipe end, the veth twin,
 * whose transmit takes the peer's ring lock once per call, as a driver rings its doorbell;
 * the peer device is polled after every burst, its frames delivered to its host side (where
 * they are freed, as the kernel's stack drops a veth's frames not for it) or, in the "peer XDP
 * count" variants, counted and dropped by its XDP program. Frames come
 * from the packet pool, as a driver's receive buffers do. Each variant reports the best of
 * ROUNDS runs.
 *
 * The kernel baseline (kernel_baseline.h) is that last set-up in the running kernel: the same
 * redirect program, driven by BPF_PROG_TEST_RUN in live-frames mode (what xdp-trafficgen
 * transmits with: the kernel's xdp_do_redirect, devmap bulk queues and xdp_do_flush every
 * batch of 64) into veth b0, whose peer b1 runs the same counting program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <netbpf/dev.h>
#include <netbpf/epoch.h>
#include <netbpf/map.h>
#include <netbpf/percpu.h>
#include <netbpf/pkt.h>
#include <netbpf/port.h>
#include <netbpf/prog.h>
#include <netbpf/worker.h>
#include <netbpf/xdp.h>

#include "bench.h"
#include "kernel_baseline.h"
#include "redirect_setup.h"

#define BURSTS 50000
#define ROUNDS 5
/* The kernel's rounds: frames per BPF_PROG_TEST_RUN call, and its batch (the NAPI budget). */
#define KERNEL_FRAMES 2000000
#define KERNEL_ROUNDS 5
#define KERNEL_BATCH 64

static const u8 frame[64] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };

enum sink { TO_SINK, TO_PIPE, TO_PIPE_PEER_XDP };

static __attribute__((noreturn)) void die(const char *what)
{
	fprintf(stderr, "xdp_redirect bench: %s failed\n", what);
	exit(1);
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

/* Bursts through the hook and the flush; the pipe's peer (may be NULL) is polled after each. */
static void drive(struct nb_dev *rx, struct nb_dev *peer_dev, u64 bursts,
		  struct nb_bench_clock *clk)
{
	struct nb_pkt *pkts[NB_BURST];

	nb_epoch_online();
	nb_bench_start(clk);
	for (u64 b = 0; b < bursts; b++) {
		for (unsigned int i = 0; i < NB_BURST; i++)
			pkts[i] = nb_pkt_alloc_data(frame, sizeof(frame));
		nb_worker_rx_burst(rx, pkts, NB_BURST);
		nb_worker_flush();
		while (peer_dev && nb_worker_poll(&peer_dev, 1))
			;
		nb_epoch_quiescent();
	}
	nb_bench_stop(clk);
	nb_epoch_offline();
}

/* One variant; returns its rate (Mpps from CPU time). */
static double run_variant(bool use_map, enum sink to, bool bulk, u64 bursts)
{
	static const char *const sink_names[] = {
		[TO_SINK] = "sink", [TO_PIPE] = "pipe", [TO_PIPE_PEER_XDP] = "pipe, peer XDP count",
	};
	struct nb_dev *rx = nb_bench_dev("brx0", NULL);
	struct nb_dev *tx = nb_bench_dev("btx0", to == TO_SINK ? "sink" : NULL);
	struct nb_dev *peer_dev = NULL;
	struct nb_map_create_opts mopts = { .sz = sizeof(mopts) };
	struct bpf_devmap_val val = { .ifindex = nb_dev_ifindex(tx) };
	struct bpf_insn insns[NB_KB_MAX_INSNS];
	struct nb_map *map = NULL, *counter = NULL;
	struct nb_bench_clock clk;
	struct nb_xdp_stats st;
	struct nb_prog *prog;
	u64 counted = 0;
	char line[128];
	u32 key = 0;

	if (to != TO_SINK) {
		peer_dev = nb_bench_dev("bpeer0", NULL);
		nb_bench_pipe_pair(tx, peer_dev);
		if (to == TO_PIPE_PEER_XDP)
			counter = nb_bench_counter_attach(peer_dev);
	}
	if (use_map) {
		if (nb_map_create(BPF_MAP_TYPE_DEVMAP, 4, sizeof(val), 4, &mopts, &map) ||
		    nb_map_update_elem(map, &key, &val, BPF_ANY))
			die("devmap");
		prog = load(insns, nb_kb_prog_redirect_map(insns, nb_map_id(map)));
	} else {
		prog = load(insns, nb_kb_prog_redirect(insns, nb_dev_ifindex(tx)));
	}
	if (nb_dev_xdp_attach(rx, prog, 0, NULL))
		die("attach");
	nb_prog_put(prog);
	nb_dev_xdp_set_bulk(tx, bulk);
	drive(rx, peer_dev, bursts / 20 + 1, &clk);	/* warm the pool and the caches */
	/* The machine is shared: the best of a few runs is the cost of the code. */
	for (int round = 0; round < ROUNDS; round++) {
		struct nb_bench_clock c;
		u64 before = counter ? nb_bench_counter_read(counter) : 0;

		nb_dev_xdp_stats_reset(tx);
		drive(rx, peer_dev, bursts, &c);
		if (!round || c.cpu < clk.cpu) {
			clk = c;
			counted = counter ? nb_bench_counter_read(counter) - before : 0;
		}
	}
	nb_dev_xdp_stats_read(tx, &st);
	snprintf(line, sizeof(line), "%-12s -> %s bulk %-3s  %2u-frame xmits: %llu",
		 use_map ? "redirect_map" : "redirect", sink_names[to], bulk ? "on" : "off",
		 bulk ? NB_XDP_BULK_SIZE : 1,
		 (unsigned long long)st.flush_sizes[bulk ? NB_XDP_BULK_SIZE : 1]);
	nb_bench_report(line, st.xmit_sent, &clk, "pps");
	if (counter && counted != st.xmit_sent)
		die("counting on the peer");	/* every frame sent must have been counted */
	nb_map_put(counter);
	nb_map_put(map);
	nb_dev_destroy_all();
	nb_epoch_barrier();
	return nb_bench_mpps(st.xmit_sent, &clk);
}

struct kernel_arg {
	bool use_map;
	u32 frames;
};

/*
 * In the measuring child's namespace: a0/a1, where the frames arrive (live frames' ingress
 * device is a1), and b0/b1; the program on "a1" redirects to b0 (by ifindex or devmap
 * entry 0), b1 counts and drops what veth hands it.
 */
static int kernel_xdp_redirect(void *argp, struct nb_kb_result *res)
{
	const struct kernel_arg *arg = argp;
	struct bpf_insn insns[NB_KB_MAX_INSNS];
	struct bpf_devmap_val val = { 0 };
	unsigned int a1, b0, b1;
	int count_fd, map_fd = -1, prog_fd;
	u32 key = 0;

	if (nb_kb_veth_pair(res, "a0", "a1", NULL, &a1) ||
	    nb_kb_veth_pair(res, "b0", "b1", &b0, &b1))
		return -1;
	count_fd = nb_kb_xdp_counter(res, b1);
	if (count_fd < 0)
		return -1;
	val.ifindex = b0;
	if (arg->use_map) {
		map_fd = bpf_map_create(BPF_MAP_TYPE_DEVMAP, "nb_kb_devmap", 4, sizeof(val), 4,
					NULL);
		if (map_fd < 0 || bpf_map_update_elem(map_fd, &key, &val, BPF_ANY))
			return nb_kb_skip(res, "devmap: %m");
		prog_fd = nb_kb_prog_load(res, BPF_PROG_TYPE_XDP, insns,
					  nb_kb_prog_redirect_map(insns, map_fd));
	} else {
		prog_fd = nb_kb_prog_load(res, BPF_PROG_TYPE_XDP, insns,
					  nb_kb_prog_redirect(insns, b0));
	}
	if (prog_fd < 0)
		return -1;

	struct xdp_md ctx = { .data_end = sizeof(frame), .ingress_ifindex = a1 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = sizeof(frame),
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = arg->frames / 20 + 1,
		    .batch_size = KERNEL_BATCH, .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

	if (bpf_prog_test_run_opts(prog_fd, &opts))	/* warm up */
		return nb_kb_skip(res, "BPF_PROG_TEST_RUN in live-frames mode: %m");
	opts.repeat = arg->frames;
	for (int round = 0; round < KERNEL_ROUNDS; round++) {
		u64 before = nb_kb_counter_read(count_fd);
		struct nb_bench_clock c;

		nb_bench_start(&c);
		if (bpf_prog_test_run_opts(prog_fd, &opts))
			return nb_kb_skip(res, "BPF_PROG_TEST_RUN in live-frames mode: %m");
		nb_bench_stop(&c);
		if (!round || c.cpu < res->clk.cpu) {
			res->clk = c;
			res->arrived = nb_kb_counter_read(count_fd) - before;
		}
	}
	res->frames = arg->frames;
	res->counted = true;
	return 0;
}

static double run_kernel(bool use_map, u32 frames)
{
	struct kernel_arg arg = { .use_map = use_map, .frames = frames };
	struct nb_kb_result res;

	nb_kb_run(kernel_xdp_redirect, &arg, &res, 1);
	nb_kb_report(use_map ? "kernel: redirect_map -> veth, peer XDP count" :
			       "kernel: redirect     -> veth, peer XDP count", &res);
	return nb_kb_mpps(&res);
}

NB_BENCH(xdp_redirect, "XDP_REDIRECT through the per-CPU bulk queues, bulking on vs off; "
	 "the kernel beside it")
{
	u64 bursts = (u64)(BURSTS * nb_bench_scale());
	u32 kframes = (u32)(KERNEL_FRAMES * nb_bench_scale());
	double nb[2], kernel[2];

	for (int to = TO_SINK; to <= TO_PIPE; to++) {
		for (int map = 1; map >= 0; map--) {
			run_variant(map, to, true, bursts);
			run_variant(map, to, false, bursts);
		}
	}
	for (int map = 1; map >= 0; map--)
		nb[map] = run_variant(map, TO_PIPE_PEER_XDP, true, bursts);
	for (int map = 1; map >= 0; map--)
		kernel[map] = run_kernel(map, kframes);
	nb_kb_table_header();
	nb_kb_table_row("XDP redirect_map (devmap) -> veth/pipe, peer XDP counts", nb[1],
			kernel[1]);
	nb_kb_table_row("XDP redirect (ifindex)    -> veth/pipe, peer XDP counts", nb[0],
			kernel[0]);
}
