// SPDX-License-Identifier: GPL-2.0
/*
 * The tc datapath: bursts of 32 64-byte frames through a device's tc ingress hook to a second
 * device whose port is a sink, as the seed set-ups do: bpf_redirect from a direct-action
 * classifier (JIT and interpreter), from act_bpf behind u32, and bpf_clone_redirect with the
 * original dropped; beside them the same frames delivered to the host side with no filter, the
 * cost of the receive path alone. Each variant reports the best of ROUNDS runs.
 */
#include <stdio.h>
#include <stdlib.h>

#include <netbpf/prog.h>
#include <netbpf/tc.h>

#include "bpf/epoch.h"
#include "io/port.h"
#include "net/dev.h"
#include "net/pkt.h"
#include "net/worker.h"
#include "bench.h"

#define BURSTS 30000
#define ROUNDS 5

#define MOV_IMM(r, v) { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = (r), .imm = (v) }
#define MOV_REG(d, s) { .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = (d), .src_reg = (s) }
#define CALL(id)      { .code = BPF_JMP | BPF_CALL, .imm = (id) }
#define EXIT()        { .code = BPF_JMP | BPF_EXIT }

static const u8 frame[64] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };

enum variant { V_NONE, V_DA_REDIRECT, V_U32_ACT_REDIRECT, V_U32_ACT_CLONE };

static __attribute__((noreturn)) void die(const char *what)
{
	fprintf(stderr, "tc_redirect bench: %s failed\n", what);
	exit(1);
}

static struct nb_dev *bench_dev(const char *name, const char *kind)
{
	struct nb_port *port;
	struct nb_dev *dev;

	if (nb_dev_create(name, 0, &dev, NULL))
		die("device");
	if (kind) {
		if (nb_port_open_str(kind, "", &port, NULL))
			die("port");
		nb_dev_set_port(dev, port);
	}
	nb_dev_set_up(dev, true);
	return dev;
}

static struct nb_prog *load(enum bpf_prog_type type, u32 ifindex, bool clone, bool interp)
{
	const struct bpf_insn redirect[] = {
		MOV_IMM(1, (s32)ifindex), MOV_IMM(2, 0), CALL(BPF_FUNC_redirect), EXIT(),
	};
	const struct bpf_insn clone_redirect[] = {
		MOV_IMM(2, (s32)ifindex), MOV_IMM(3, 0), CALL(BPF_FUNC_clone_redirect),
		MOV_IMM(0, TC_ACT_SHOT), EXIT(),
	};
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .flags = interp ? NB_PROG_LOAD_INTERP : 0,
	};
	struct nb_prog *prog;

	if (nb_prog_load(type, clone ? clone_redirect : redirect, clone ? 5 : 4, &opts, &prog))
		die("program load");
	return prog;
}

static void drive(struct nb_dev *rx, u64 bursts, struct nb_bench_clock *clk)
{
	struct nb_pkt *pkts[NB_BURST];

	nb_epoch_online();
	nb_bench_start(clk);
	for (u64 b = 0; b < bursts; b++) {
		for (unsigned int i = 0; i < NB_BURST; i++) {
			pkts[i] = nb_pkt_alloc_data(frame, sizeof(frame));
			pkts[i]->dev = rx;
			pkts[i]->skb_iif = rx->ifindex;
			nb_eth_type_trans(pkts[i], rx);
		}
		nb_worker_receive_burst(rx, pkts, NB_BURST);
		nb_worker_flush();
		nb_epoch_quiescent();
	}
	nb_bench_stop(clk);
	nb_epoch_offline();
}

static void run_variant(enum variant v, bool interp, u64 bursts)
{
	static const char *const names[] = {
		[V_NONE] = "no filter: host side",
		[V_DA_REDIRECT] = "bpf da redirect_xmit",
		[V_U32_ACT_REDIRECT] = "u32 + act bpf redirect_xmit",
		[V_U32_ACT_CLONE] = "u32 + act bpf clone_redirect_xmit drop",
	};
	struct nb_dev *rx = bench_dev("trx0", NULL), *tx = bench_dev("ttx0", "sink");
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1 };
	struct nb_tc_action_opts act = { .kind = "bpf", .control = TC_ACT_SHOT,
					 .has_control = true };
	struct nb_dev_stats_total t;
	struct nb_bench_clock clk;
	const char *engine = "";
	struct nb_prog *prog;
	char line[128];

	if (nb_tc_qdisc_add(rx, NB_TC_QDISC_CLSACT, NULL))
		die("qdisc");
	if (v == V_DA_REDIRECT) {
		f.kind = "bpf";
		f.bpf.direct_action = true;
		f.bpf.prog = load(BPF_PROG_TYPE_SCHED_CLS, tx->ifindex, false, interp);
	} else if (v != V_NONE) {
		f.kind = "u32";
		if (nb_tc_u32_match(&f.u32, NB_TC_U32_SIZE_32, 0, 0, 0, false, NULL))
			die("u32 key");
		f.u32.classid = 0x10002;
		act.bpf.prog = load(BPF_PROG_TYPE_SCHED_ACT, tx->ifindex, v == V_U32_ACT_CLONE,
				    interp);
		f.actions = &act;
		f.action_cnt = 1;
	}
	if (f.kind && nb_tc_filter_add(rx, &f, NULL))
		die("filter");
	prog = v == V_DA_REDIRECT ? f.bpf.prog : act.bpf.prog;
	if (prog)	/* what really ran: the JIT may decline a program */
		engine = nb_prog_is_jited(prog) ? "jit" : interp ? "interp" : "interp (no jit)";
	nb_prog_put(prog);
	drive(rx, bursts / 20 + 1, &clk);	/* warm the pool and the caches */
	for (int round = 0; round < ROUNDS; round++) {
		struct nb_bench_clock c;

		drive(rx, bursts, &c);
		if (!round || c.cpu < clk.cpu)
			clk = c;
	}
	nb_dev_stats_read(v == V_NONE ? rx : tx, &t);
	snprintf(line, sizeof(line), "%-40s %-15s", names[v], engine);
	nb_bench_report(line, bursts * NB_BURST, &clk, "pps");
	if ((v == V_NONE ? t.host_packets : t.tx_packets) == 0)
		die("no packet arrived");
	nb_dev_destroy_all();
	nb_epoch_barrier();
}

NB_BENCH(tc_redirect, "tc ingress to the next device: the seed set-ups, JIT vs interpreter")
{
	u64 bursts = (u64)(BURSTS * nb_bench_scale());

	run_variant(V_NONE, false, bursts);
	for (int interp = 0; interp < 2; interp++) {
		run_variant(V_DA_REDIRECT, interp, bursts);
		run_variant(V_U32_ACT_REDIRECT, interp, bursts);
		run_variant(V_U32_ACT_CLONE, interp, bursts);
	}
}
