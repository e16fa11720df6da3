// SPDX-License-Identifier: GPL-2.0
/*
 * Actions as act_api runs them: gact verdicts (ok, shot, pipe, reclassify, continue, stolen,
 * trap, jump), act_bpf's mapping of the program's return value, mirred mirror and redirect in
 * both directions with missing, gone and down targets and the nesting limit; per-action
 * counters and the packet accounting.
 */
#include "tc_test.h"

static struct nb_dev *dev_with_qdisc(const char *name)
{
	struct nb_dev *dev = tc_make_dev(name, 0);

	tc_qdisc(dev);
	return dev;
}

/* matchall at pref with the given actions; classid 1:1. */
static struct nb_tc_filter_id add_mall(struct nb_dev *dev, u32 pref,
				       const struct nb_tc_action_opts *acts, unsigned int n)
{
	NB_OPTS(nb_tc_matchall_opts, mall, .classid = 0x10001);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = pref,
				       .kind = "matchall", .kind_opts = &mall,
				       .actions = acts, .action_cnt = n };

	return tc_add(dev, &f);
}

static struct nb_tc_action_opts gact(int control)
{
	return (struct nb_tc_action_opts){ .sz = sizeof(struct nb_tc_action_opts), .kind = "gact",
					   .control = control, .has_control = true };
}

/* "mirred EACTION dev DEV": the action, its options in *m (which must outlive the add). */
static struct nb_tc_action_opts mirred(struct nb_tc_act_mirred_opts *m, int eaction,
				       const struct nb_dev *dev)
{
	*m = (struct nb_tc_act_mirred_opts){ .sz = sizeof(*m), .eaction = eaction,
					     .ifindex = dev->ifindex };
	return (struct nb_tc_action_opts){ .sz = sizeof(struct nb_tc_action_opts),
					   .kind = "mirred", .kind_opts = m };
}

struct gact_case {
	const char *name;
	int controls[3];
	unsigned int n;
	int verdict;
	u32 runs[3];		/* packets each action saw */
};

static const struct gact_case gact_cases[] = {
	{ "tc_act_gact_ok", { TC_ACT_OK }, 1, TC_ACT_OK, { 1 } },
	{ "tc_act_gact_shot", { TC_ACT_SHOT }, 1, TC_ACT_SHOT, { 1 } },
	{ "tc_act_gact_stolen", { TC_ACT_STOLEN }, 1, TC_ACT_STOLEN, { 1 } },
	{ "tc_act_gact_trap", { TC_ACT_TRAP }, 1, TC_ACT_TRAP, { 1 } },
	{ "tc_act_gact_pipe_goes_on", { TC_ACT_PIPE, TC_ACT_SHOT }, 2, TC_ACT_SHOT, { 1, 1 } },
	{ "tc_act_gact_ok_ends_list", { TC_ACT_OK, TC_ACT_SHOT }, 2, TC_ACT_OK, { 1, 0 } },
	/* the last action's pipe is the list's verdict: the hook lets the packet go on */
	{ "tc_act_gact_pipe_last", { TC_ACT_PIPE }, 1, TC_ACT_PIPE, { 1 } },
	/* continue: the filter gives up, the next one (pref 2: ok) decides */
	{ "tc_act_gact_continue", { TC_ACT_UNSPEC, TC_ACT_SHOT }, 2, TC_ACT_OK, { 1, 0 } },
	/* jump 1 from the first action skips the second */
	{ "tc_act_gact_jump", { TC_ACT_JUMP | 1, TC_ACT_SHOT, TC_ACT_STOLEN }, 3, TC_ACT_SHOT,
	  { 1, 1, 0 } },
	/* jump past the list's end: a faulty opcode, the list stops with OK */
	{ "tc_act_gact_jump_too_far", { TC_ACT_JUMP | 5, TC_ACT_SHOT }, 2, TC_ACT_OK, { 1, 0 } },
};

static void run_gact_case(const void *arg)
{
	const struct gact_case *c = arg;
	struct nb_tc_action_opts acts[3];
	struct nb_dev *dev = dev_with_qdisc("eth0");
	struct nb_tc_action_opts ok = gact(TC_ACT_OK);
	struct nb_tc_filter_info info;
	struct nb_tc_filter_id id;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	for (unsigned int i = 0; i < c->n; i++)
		acts[i] = gact(c->controls[i]);
	id = add_mall(dev, 1, acts, c->n);
	add_mall(dev, 2, &ok, 1);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, NULL), c->verdict);
	info = tc_info(dev, &id);
	NB_ASSERT_EQ(info.action_cnt, c->n);
	for (unsigned int i = 0; i < c->n; i++) {
		NB_ASSERT_EQ(info.actions[i].stats.packets, c->runs[i]);
		NB_ASSERT_EQ(info.actions[i].control, c->controls[i]);
	}
	tc_receive(dev, frame, len);
	tc_check_accounting(&dev, 1);
}

static void __attribute__((constructor)) register_gact_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(gact_cases); i++)
		nb_test_register(gact_cases[i].name, run_gact_case, &gact_cases[i]);
}

NB_TEST(tc_act_bad_control)
{
	struct nb_dev *dev = dev_with_qdisc("eth0");
	struct nb_tc_action_opts bad = gact(TC_ACT_VALUE_MAX + 1);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "matchall", .actions = &bad, .action_cnt = 1 };
	struct nb_tc_action_opts unknown = { .sz = sizeof(unknown), .kind = "nat" };
	struct nb_log log = { 0 };

	f.log = &log;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "invalid control");
	f.actions = &unknown;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -ENOENT);
	nb_log_free(&log);
}

struct act_bpf_case {
	const char *name;
	int prog_ret;
	int verdict;
};

/* Default control "drop" (SHOT) for the UNSPEC return; the second action is gact ok. */
static const struct act_bpf_case act_bpf_cases[] = {
	{ "tc_act_bpf_pipe", TC_ACT_PIPE, TC_ACT_OK },
	{ "tc_act_bpf_ok", TC_ACT_OK, TC_ACT_OK },
	{ "tc_act_bpf_shot", TC_ACT_SHOT, TC_ACT_SHOT },
	{ "tc_act_bpf_reclassify", TC_ACT_RECLASSIFY, TC_ACT_SHOT },	/* loops to the limit */
	{ "tc_act_bpf_unspec_default", TC_ACT_UNSPEC, TC_ACT_SHOT },
	{ "tc_act_bpf_stolen_is_unspec", TC_ACT_STOLEN, TC_ACT_OK },	/* filter 2 */
	{ "tc_act_bpf_42_is_unspec", 42, TC_ACT_OK },
};

static void run_act_bpf_case(const void *arg)
{
	const struct act_bpf_case *c = arg;
	struct nb_dev *dev = dev_with_qdisc("eth0");
	NB_OPTS(nb_tc_act_bpf_opts, act_bpf);
	struct nb_tc_action_opts acts[2] = {
		{ .sz = sizeof(acts[0]), .kind = "bpf", .control = TC_ACT_SHOT,
		  .has_control = true, .kind_opts = &act_bpf },
		gact(TC_ACT_OK),
	};
	struct nb_tc_action_opts ok = gact(TC_ACT_OK);
	struct nb_tc_filter_info info;
	struct nb_tc_filter_id id;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	act_bpf.prog = tc_prog_ret(BPF_PROG_TYPE_SCHED_ACT, c->prog_ret);
	id = add_mall(dev, 1, acts, 2);
	add_mall(dev, 2, &ok, 1);
	nb_prog_put(act_bpf.prog);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, NULL), c->verdict);
	info = tc_info(dev, &id);
	NB_ASSERT_EQ(info.actions[1].stats.packets, c->prog_ret == TC_ACT_PIPE ? 1 : 0);
	NB_ASSERT_EQ(info.actions[0].stats.drops, c->prog_ret == TC_ACT_SHOT ? 1 : 0);
}

static void __attribute__((constructor)) register_act_bpf_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(act_bpf_cases); i++)
		nb_test_register(act_bpf_cases[i].name, run_act_bpf_case, &act_bpf_cases[i]);
}

NB_TEST(tc_act_bpf_refuses_sched_cls)
{
	struct nb_dev *dev = dev_with_qdisc("eth0");
	NB_OPTS(nb_tc_act_bpf_opts, act_bpf);
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "bpf",
					 .kind_opts = &act_bpf };
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "matchall", .actions = &act, .action_cnt = 1 };

	act_bpf.prog = tc_prog_ret(BPF_PROG_TYPE_SCHED_CLS, 0);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	nb_prog_put(act_bpf.prog);
}

/* mirred: a source with matchall + one mirred action (and more), a sink target. */
struct mirred_case {
	const char *name;
	int eaction;
	bool target_down;
	bool target_gone;
	/* expectations */
	u64 src_host, src_consumed, src_drops, src_clones;
	u64 dst_tx, dst_host, dst_drops;
	u64 overlimits;
};

static const struct mirred_case mirred_cases[] = {
	/* redirect at ingress with "stolen": the packet itself goes, no clone */
	{ "tc_act_mirred_egress_redirect", TCA_EGRESS_REDIR, false, false,
	  0, 0, 0, 0, 1, 0, 0, 0 },
	/* mirror: a clone goes out, the original continues (pipe, then the host) */
	{ "tc_act_mirred_egress_mirror", TCA_EGRESS_MIRROR, false, false,
	  1, 0, 0, 1, 1, 0, 0, 0 },
	{ "tc_act_mirred_ingress_redirect", TCA_INGRESS_REDIR, false, false,
	  0, 0, 0, 0, 0, 1, 0, 0 },
	{ "tc_act_mirred_ingress_mirror", TCA_INGRESS_MIRROR, false, false,
	  1, 0, 0, 1, 0, 1, 0, 0 },
	/* a down target: redirect becomes a drop, mirror goes on; both count an overlimit */
	{ "tc_act_mirred_redirect_down", TCA_EGRESS_REDIR, true, false,
	  0, 0, 1, 0, 0, 0, 0, 1 },
	{ "tc_act_mirred_mirror_down", TCA_EGRESS_MIRROR, true, false,
	  1, 0, 0, 0, 0, 0, 0, 1 },
	/* a target that is gone: the verdict word stays (stolen: consumed) */
	{ "tc_act_mirred_redirect_gone", TCA_EGRESS_REDIR, false, true,
	  0, 1, 0, 0, 0, 0, 0, 1 },
};

static void run_mirred_case(const void *arg)
{
	const struct mirred_case *c = arg;
	struct nb_dev *src = dev_with_qdisc("src0"), *dst = tc_make_dev("dst0", 0);
	NB_OPTS(nb_tc_act_mirred_opts, act_mirred);
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "mirred",
					 .kind_opts = &act_mirred };
	struct nb_dev *devs[2] = { src, dst };
	struct nb_dev_stats_total s, d = { 0 };
	struct nb_tc_filter_info info;
	struct nb_tc_filter_id id;
	u8 frame[128];
	u32 len = tc_frame_ipv4(frame, src, IPPROTO_UDP, 1, 2, 3, 4, 20);

	tc_set_port(dst, "sink", "");
	act_mirred.eaction = c->eaction;
	act_mirred.ifindex = dst->ifindex;
	id = add_mall(src, 1, &act, 1);
	if (c->target_down)
		nb_dev_set_up(dst, false);
	if (c->target_gone) {
		nb_dev_destroy(dst);
		devs[1] = NULL;
	}
	tc_receive(src, frame, len);
	s = tc_stats(src);
	if (devs[1])
		d = tc_stats(dst);
	NB_ASSERT_EQ(s.host_packets, c->src_host);
	NB_ASSERT_EQ(s.consumed, c->src_consumed);
	NB_ASSERT_EQ(s.rx_dropped, c->src_drops);
	NB_ASSERT_EQ(s.clones, c->src_clones);
	NB_ASSERT_EQ(d.tx_packets, c->dst_tx);
	NB_ASSERT_EQ(d.host_packets, c->dst_host);
	NB_ASSERT_EQ(d.rx_dropped, c->dst_drops);
	info = tc_info(src, &id);
	NB_ASSERT_EQ(info.actions[0].stats.packets, 1);
	NB_ASSERT_EQ(info.actions[0].stats.overlimits, c->overlimits);
	NB_ASSERT_EQ(info.actions[0].control,
		     c->eaction == TCA_EGRESS_REDIR || c->eaction == TCA_INGRESS_REDIR ?
			     TC_ACT_STOLEN : TC_ACT_PIPE);
	tc_check_accounting(devs, devs[1] ? 2 : 1);
}

static void __attribute__((constructor)) register_mirred_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(mirred_cases); i++)
		nb_test_register(mirred_cases[i].name, run_mirred_case, &mirred_cases[i]);
}

NB_TEST(tc_act_mirred_missing_device)
{
	struct nb_dev *dev = dev_with_qdisc("eth0");
	NB_OPTS(nb_tc_act_mirred_opts, act_mirred);
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "mirred",
					 .kind_opts = &act_mirred };
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "matchall", .actions = &act, .action_cnt = 1 };
	struct nb_log log = { 0 };

	f.log = &log;
	act_mirred.eaction = TCA_EGRESS_REDIR;
	act_mirred.ifindex = 77;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -ENODEV);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "77");
	act_mirred.ifindex = dev->ifindex;
	act_mirred.eaction = 9;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	nb_log_free(&log);
}

/* Redirect to the hook the packet is in: a loop, dropped at once (redirect -> shot). */
NB_TEST(tc_act_mirred_self_loop)
{
	struct nb_dev *dev = dev_with_qdisc("eth0");
	struct nb_tc_act_mirred_opts m;
	struct nb_tc_action_opts act = mirred(&m, TCA_INGRESS_REDIR, dev);
	struct nb_tc_filter_info info;
	struct nb_tc_filter_id id;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	id = add_mall(dev, 1, &act, 1);
	tc_receive(dev, frame, len);
	info = tc_info(dev, &id);
	NB_ASSERT_EQ(info.actions[0].stats.packets, 1);
	NB_ASSERT_EQ(info.actions[0].stats.overlimits, 1);
	NB_ASSERT_EQ(tc_stats(dev).drops[NB_DROP_TC_INGRESS], 1);
	tc_check_accounting(&dev, 1);
}

/* Two devices redirecting into each other's ingress: mirred nests 4 deep, the 5th drops. */
NB_TEST(tc_act_mirred_nest_limit)
{
	struct nb_dev *a = dev_with_qdisc("a0"), *b = dev_with_qdisc("b0");
	struct nb_dev *devs[] = { a, b };
	struct nb_tc_act_mirred_opts to_b_mirred, to_a_mirred;
	struct nb_tc_action_opts to_b = mirred(&to_b_mirred, TCA_INGRESS_REDIR, b);
	struct nb_tc_action_opts to_a = mirred(&to_a_mirred, TCA_INGRESS_REDIR, a);
	struct nb_tc_filter_id ida, idb;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	ida = add_mall(a, 1, &to_b, 1);
	idb = add_mall(b, 1, &to_a, 1);
	tc_receive(a, frame, len);
	/* a (1), b (2), a (3), b (4) redirect; a's 5th nesting drops */
	NB_ASSERT_EQ(tc_info(a, &ida).actions[0].stats.packets, 2);
	NB_ASSERT_EQ(tc_info(b, &idb).actions[0].stats.packets, 2);
	NB_ASSERT_EQ(tc_info(a, &ida).actions[0].stats.drops, 1);
	NB_ASSERT_EQ(tc_stats(a).drops[NB_DROP_TC_INGRESS], 1);
	tc_check_accounting(devs, 2);
}

/*
 * A loop through the backlog: A's ingress redirects to B's egress, B's egress redirects (a
 * clone: not at ingress) into A's receive path. The backlog trips end at NB_RX_REDIRECT_LIMIT.
 */
NB_TEST(tc_act_mirred_backlog_loop_limit)
{
	struct nb_dev *a = dev_with_qdisc("a0"), *b = dev_with_qdisc("b0");
	struct nb_dev *devs[] = { a, b };
	struct nb_tc_act_mirred_opts to_b_mirred, to_a_mirred;
	struct nb_tc_action_opts to_b = mirred(&to_b_mirred, TCA_EGRESS_REDIR, b);
	struct nb_tc_action_opts to_a = mirred(&to_a_mirred, TCA_INGRESS_REDIR, a);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_EGRESS, .pref = 1,
				       .kind = "matchall",
				       .actions = &to_a, .action_cnt = 1 };
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	add_mall(a, 1, &to_b, 1);
	tc_add(b, &f);
	tc_receive(a, frame, len);
	NB_ASSERT_EQ(tc_stats(a).drops[NB_DROP_RECURSION], 1);
	NB_ASSERT_EQ(tc_stats(b).clones, NB_RX_REDIRECT_LIMIT + 1);
	NB_ASSERT_EQ(tc_stats(b).consumed, NB_RX_REDIRECT_LIMIT + 1);
	tc_check_accounting(devs, 2);
}

/*
 * An action's options are the kind's, checked with the opts rules (include/netbpf/opts.h): a
 * struct from a newer caller whose extra bytes are zero is read, one asking for more (a non-zero
 * byte past what this library knows) or too short to hold the target is refused, naming it.
 */
NB_TEST(tc_act_kind_opts_rules)
{
	struct nb_dev *dev = dev_with_qdisc("eth0");
	struct {
		struct nb_tc_act_mirred_opts m;
		__u64 newer;
	} big = { .m = { .sz = sizeof(big), .eaction = TCA_EGRESS_MIRROR,
			 .ifindex = dev->ifindex } };
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "mirred", .kind_opts = &big };
	struct nb_log log = { 0 };
	__u32 index;

	big.newer = 1;
	NB_ASSERT_EQ(nb_tc_actions_add(&act, 1, false, NULL, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "nb_tc_act_mirred_opts");
	big.m.sz = offsetof(struct nb_tc_act_mirred_opts, ifindex);
	NB_ASSERT_EQ(nb_tc_actions_add(&act, 1, false, NULL, NULL), -EINVAL);
	big.m.sz = sizeof(big);
	big.newer = 0;
	NB_ASSERT_EQ(nb_tc_actions_add(&act, 1, false, &index, NULL), 0);
	NB_ASSERT_EQ(nb_tc_action_del("mirred", index, NULL), 0);
	nb_log_free(&log);
}
