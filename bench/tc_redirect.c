// SPDX-License-Identifier: GPL-2.0
/*
 * The tc datapath: bursts of 32 64-byte frames through a device's tc ingress hook to a second
 * device whose port is a sink, as the seed set-ups do: bpf_redirect from a direct-action
 * classifier (JIT and interpreter), from act_bpf behind u32, and bpf_clone_redirect with the
 * original dropped; beside them the same frames delivered to the host side with no filter, the
 * cost of the receive path alone. Each variant reports the best of ROUNDS runs.
 *
 * The kernel baseline (kernel_baseline.h): veth pairs c0/c1 and b0/b1 in a namespace of their
 * own, cls_bpf direct-action on c1's ingress with the same bpf_redirect program (to b0), b1
 * counting and dropping what arrives with an XDP program; frames injected into c0 from an
 * AF_PACKET socket. Its twin here is the "-> pipe, peer XDP count" variant: the
 * redirect's target is a pipe (the veth twin) whose peer runs the same counting program. Both
 * sides also run a direct-action program that drops (TC_ACT_SHOT), so that the cost of the
 * redirect beyond receive + classify + free can be compared without the kernel's injection.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <netbpf/dev.h>
#include <netbpf/epoch.h>
#include <netbpf/map.h>
#include <netbpf/percpu.h>
#include <netbpf/pkt.h>
#include <netbpf/port.h>
#include <netbpf/prog.h>
#include <netbpf/tc.h>
#include <netbpf/worker.h>

#include "bench.h"
#include "kernel_baseline.h"
#include "redirect_setup.h"

#define BURSTS 30000
#define ROUNDS 5
/* The kernel's rounds: nb_kb_inject calls per round (NB_KB_INJECT_FRAMES frames each). */
#define KERNEL_SENDS 250
#define KERNEL_ROUNDS 3

#define MOV_IMM(r, v) { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = (r), .imm = (v) }
#define CALL(id)      { .code = BPF_JMP | BPF_CALL, .imm = (id) }
#define EXIT()        { .code = BPF_JMP | BPF_EXIT }

static const u8 frame[64] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };

enum variant { V_NONE, V_DA_DROP, V_DA_REDIRECT, V_U32_ACT_REDIRECT, V_U32_ACT_CLONE };
/* Where redirected frames go: a sink port, or a pipe whose peer device counts them by XDP. */
enum sink { TO_SINK, TO_PIPE_PEER_XDP };

static __attribute__((noreturn)) void die(const char *what)
{
	fprintf(stderr, "tc_redirect bench: %s failed\n", what);
	exit(1);
}

static struct nb_prog *load_insns(enum bpf_prog_type type, const struct bpf_insn *insns,
				  unsigned int cnt, bool interp)
{
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .flags = interp ? NB_PROG_LOAD_INTERP : 0,
	};
	struct nb_prog *prog;

	if (nb_prog_load(type, insns, cnt, &opts, &prog))
		die("program load");
	return prog;
}

static struct nb_prog *load(enum bpf_prog_type type, enum variant v, u32 ifindex, bool interp)
{
	const struct bpf_insn clone_redirect[] = {
		MOV_IMM(2, (s32)ifindex), MOV_IMM(3, 0), CALL(BPF_FUNC_clone_redirect),
		MOV_IMM(0, TC_ACT_SHOT), EXIT(),
	};
	struct bpf_insn insns[NB_KB_MAX_INSNS];

	if (v == V_U32_ACT_CLONE)
		return load_insns(type, clone_redirect, ARRAY_SIZE(clone_redirect), interp);
	if (v == V_DA_DROP)
		return load_insns(type, insns, nb_kb_prog_verdict(insns, TC_ACT_SHOT), interp);
	return load_insns(type, insns, nb_kb_prog_redirect(insns, ifindex), interp);
}

/* Bursts into rx's receive path; the pipe's peer device (may be NULL) is polled after each. */
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
static double run_variant(enum variant v, bool interp, enum sink to, u64 bursts)
{
	static const char *const names[] = {
		[V_NONE] = "no filter: host side",
		[V_DA_DROP] = "bpf da drop (TC_ACT_SHOT)",
		[V_DA_REDIRECT] = "bpf da redirect_xmit",
		[V_U32_ACT_REDIRECT] = "u32 + act bpf redirect_xmit",
		[V_U32_ACT_CLONE] = "u32 + act bpf clone_redirect_xmit drop",
	};
	struct nb_dev *rx = nb_bench_dev("trx0", NULL);
	struct nb_dev *tx = nb_bench_dev("ttx0", to == TO_SINK ? "sink" : NULL);
	struct nb_dev *peer_dev = NULL;
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1 };
	NB_OPTS(nb_tc_bpf_opts, bpf, .direct_action = true);
	NB_OPTS(nb_tc_u32_opts, sel, .classid = 0x10002);
	NB_OPTS(nb_tc_act_bpf_opts, act_bpf);
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "bpf", .control = TC_ACT_SHOT,
					 .has_control = true, .kind_opts = &act_bpf };
	struct nb_map *counter = NULL;
	struct nb_dev_stats_total t;
	struct nb_bench_clock clk;
	const char *engine = "";
	struct nb_prog *prog;
	u64 ops = bursts * NB_BURST, counted = 0, arrived;
	char line[128];

	if (to == TO_PIPE_PEER_XDP) {
		peer_dev = nb_bench_dev("tpeer0", NULL);
		nb_bench_pipe_pair(tx, peer_dev);
		counter = nb_bench_counter_attach(peer_dev);
	}
	if (nb_tc_qdisc_add(rx, NB_TC_QDISC_CLSACT, NULL))
		die("qdisc");
	if (v == V_DA_REDIRECT || v == V_DA_DROP) {
		f.kind = "bpf";
		f.kind_opts = &bpf;
		bpf.prog = load(BPF_PROG_TYPE_SCHED_CLS, v, nb_dev_ifindex(tx), interp);
	} else if (v != V_NONE) {
		f.kind = "u32";
		f.kind_opts = &sel;
		if (nb_tc_u32_match(&sel, NB_TC_U32_SIZE_32, 0, 0, 0, false, NULL))
			die("u32 key");
		act_bpf.prog = load(BPF_PROG_TYPE_SCHED_ACT, v, nb_dev_ifindex(tx), interp);
		f.actions = &act;
		f.action_cnt = 1;
	}
	if (f.kind && nb_tc_filter_add(rx, &f, NULL))
		die("filter");
	prog = v == V_DA_REDIRECT || v == V_DA_DROP ? bpf.prog : act_bpf.prog;
	if (prog)	/* what really ran: the JIT may decline a program */
		engine = nb_prog_is_jited(prog) ? "jit" : interp ? "interp" : "interp (no jit)";
	nb_prog_put(prog);
	drive(rx, peer_dev, bursts / 20 + 1, &clk);	/* warm the pool and the caches */
	for (int round = 0; round < ROUNDS; round++) {
		struct nb_bench_clock c;
		u64 before = counter ? nb_bench_counter_read(counter) : 0;

		drive(rx, peer_dev, bursts, &c);
		if (!round || c.cpu < clk.cpu) {
			clk = c;
			counted = counter ? nb_bench_counter_read(counter) - before : 0;
		}
	}
	nb_dev_stats_read(v == V_NONE ? rx : tx, &t);
	snprintf(line, sizeof(line), "%-40s %-15s",
		 to == TO_SINK ? names[v] : "bpf da redirect -> pipe, peer XDP count", engine);
	nb_bench_report(line, ops, &clk, "pps");
	arrived = v == V_NONE ? t.host_packets : t.tx_packets;
	if (v == V_DA_DROP)
		arrived = ops;	/* nothing goes anywhere */
	if (arrived == 0 || (counter && counted != ops))
		die("no packet arrived");
	nb_map_put(counter);
	nb_dev_destroy_all();
	nb_epoch_barrier();
	return nb_bench_mpps(ops, &clk);
}

/* The kernel's two measurements, taken in alternating rounds of one child. */
enum { K_DROP, K_REDIRECT, K_PATHS };

struct kernel_arg {
	enum nb_kb_inject_mode mode;
	unsigned int sends;	/* of NB_KB_INJECT_FRAMES frames each, per round */
};

/* clsact on ifindex, then cls_bpf in direct-action mode with prog_fd (libbpf's tc attach). */
static int attach_da(struct nb_kb_result *res, unsigned int ifindex, int prog_fd)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, topts, .prog_fd = prog_fd, .handle = 1, .priority = 1);
	int err;

	if (prog_fd < 0)
		return -1;
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST)
		return nb_kb_skip(res, "clsact on ifindex %u: %s", ifindex, strerror(-err));
	err = bpf_tc_attach(&hook, &topts);
	if (err)
		return nb_kb_skip(res, "cls_bpf da on ifindex %u ingress: %s", ifindex,
				  strerror(-err));
	return 0;
}

/*
 * a0 -> a1, whose classifier drops; c0 -> c1, whose classifier redirects to b0; b1 counts.
 * Injected into a0 and c0 in turns, KERNEL_ROUNDS rounds each, the best round of each kept.
 */
static int kernel_tc(void *argp, struct nb_kb_result *res)
{
	const struct kernel_arg *arg = argp;
	struct bpf_insn insns[NB_KB_MAX_INSNS];
	struct nb_kb_injector inj[K_PATHS];
	unsigned int a0, a1, b0, b1, c0, c1;
	int count_fd;

	if (nb_kb_veth_pair(res, "a0", "a1", &a0, &a1) ||
	    nb_kb_veth_pair(res, "b0", "b1", &b0, &b1) ||
	    nb_kb_veth_pair(res, "c0", "c1", &c0, &c1))
		return -1;
	count_fd = nb_kb_xdp_counter(res, b1);
	if (count_fd < 0 ||
	    attach_da(res, a1, nb_kb_prog_load(res, BPF_PROG_TYPE_SCHED_CLS, insns,
					       nb_kb_prog_verdict(insns, TC_ACT_SHOT))) ||
	    attach_da(res, c1, nb_kb_prog_load(res, BPF_PROG_TYPE_SCHED_CLS, insns,
					       nb_kb_prog_redirect(insns, b0))))
		return -1;
	if (nb_kb_injector_open(res, &inj[K_DROP], arg->mode, a0, frame, sizeof(frame)))
		return -1;
	if (nb_kb_injector_open(res, &inj[K_REDIRECT], arg->mode, c0, frame, sizeof(frame)))
		goto out;
	for (int p = 0; p < K_PATHS; p++)
		for (unsigned int i = 0; i < arg->sends / 20 + 1; i++)	/* warm up */
			if (nb_kb_inject(res, &inj[p]) < 0)
				goto out;
	for (int round = 0; round < KERNEL_ROUNDS; round++) {
		for (int p = 0; p < K_PATHS; p++) {
			u64 before = nb_kb_counter_read(count_fd);
			struct nb_bench_clock c;

			nb_bench_start(&c);
			for (unsigned int i = 0; i < arg->sends; i++)
				if (nb_kb_inject(res, &inj[p]) < 0)
					goto out;
			nb_bench_stop(&c);
			if (!round || c.cpu < res[p].clk.cpu) {
				res[p].clk = c;
				res[p].arrived = nb_kb_counter_read(count_fd) - before;
			}
		}
	}
	for (int p = 0; p < K_PATHS; p++)
		res[p].frames = (u64)arg->sends * NB_KB_INJECT_FRAMES;
	res[K_REDIRECT].counted = true;	/* the drop leaves nothing to count */
out:
	nb_kb_injector_close(&inj[K_DROP]);
	nb_kb_injector_close(&inj[K_REDIRECT]);	/* opened, if only to fail: closing is safe */
	return res->skip[0] ? -1 : 0;
}

/* Both kernel measurements with one way of injecting; rates into mpps[K_PATHS] (may be NULL). */
static void run_kernel(enum nb_kb_inject_mode mode, unsigned int sends, double *mpps)
{
	struct kernel_arg arg = { .mode = mode, .sends = sends };
	const char *how = mode == NB_KB_INJECT_TX_RING ? "" : " (sendmmsg)";
	struct nb_kb_result res[K_PATHS];
	char line[128];

	nb_kb_run(kernel_tc, &arg, res, K_PATHS);
	snprintf(line, sizeof(line), "kernel: da drop (TC_ACT_SHOT)%s", how);
	nb_kb_report(line, &res[K_DROP]);
	snprintf(line, sizeof(line), "kernel: da redirect -> veth, peer XDP%s", how);
	nb_kb_report(line, &res[K_REDIRECT]);
	for (int p = 0; p < K_PATHS && mpps; p++)
		mpps[p] = nb_kb_mpps(&res[p]);
}

/* 1 / (1/r - 1/base): the rate of what r does beyond base, from the time per frame. */
static double beyond(double r, double base)
{
	return r > 0 && base > r ? 1 / (1 / r - 1 / base) : 0;
}

NB_BENCH(tc_redirect, "tc ingress to the next device: the seed set-ups, JIT vs interpreter; "
	 "the kernel beside it")
{
	u64 bursts = (u64)(BURSTS * nb_bench_scale());
	unsigned int sends = (unsigned int)(KERNEL_SENDS * nb_bench_scale());
	double nb_drop, nb_redirect, kernel[K_PATHS];

	run_variant(V_NONE, false, TO_SINK, bursts);
	for (int interp = 0; interp < 2; interp++) {
		run_variant(V_DA_REDIRECT, interp, TO_SINK, bursts);
		run_variant(V_U32_ACT_REDIRECT, interp, TO_SINK, bursts);
		run_variant(V_U32_ACT_CLONE, interp, TO_SINK, bursts);
	}
	nb_drop = run_variant(V_DA_DROP, false, TO_SINK, bursts);
	nb_redirect = run_variant(V_DA_REDIRECT, false, TO_PIPE_PEER_XDP, bursts);
	sends = sends ? sends : 1;
	run_kernel(NB_KB_INJECT_TX_RING, sends, kernel);
	run_kernel(NB_KB_INJECT_SENDMMSG, sends, NULL);	/* the other way to inject */
	printf("  (the kernel's frames come from an AF_PACKET socket into veth a0/c0, qdisc "
	       "bypassed, from a TPACKET_V2 ring\n   or by sendmmsg of %u: its rates include that "
	       "injection)\n", NB_KB_MMSG_BATCH);
	nb_kb_table_header();
	nb_kb_table_row("bpf da drop: inject, receive, classify, free", nb_drop, kernel[K_DROP]);
	nb_kb_table_row("bpf da redirect -> veth/pipe, peer XDP counts", nb_redirect,
			kernel[K_REDIRECT]);
	nb_kb_table_row("  the redirect beyond the drop (1/(1/redirect - 1/drop))",
			beyond(nb_redirect, nb_drop), beyond(kernel[K_REDIRECT], kernel[K_DROP]));
}
