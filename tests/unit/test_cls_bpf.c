// SPDX-License-Identifier: GPL-2.0
/*
 * The bpf classifier in both modes, as cls_bpf_classify: every return value in direct action
 * mode, the classid the result carries, tc_classid preset before each run, UNSPEC going on to the
 * next program and filter, attached actions that never run in direct action mode, and classic
 * mode (0 no match, -1 the filter's classid, other values the classid, then the actions). The
 * verdicts at the ingress hook as sch_handle_ingress acts on them, with the packet accounting.
 */
#include "tc_test.h"

static struct nb_dev *dev_with_qdisc(void)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);

	tc_qdisc(dev);
	return dev;
}

static struct nb_tc_filter_id add_bpf(struct nb_dev *dev, u32 pref, struct nb_prog *prog, bool da,
				      u32 classid, const struct nb_tc_action_opts *acts,
				      unsigned int nacts)
{
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = pref,
				       .kind = "bpf", .kind_opts = &bpf };
	struct nb_tc_filter_id id;

	bpf.prog = prog;
	bpf.direct_action = da;
	bpf.classid = classid;
	f.actions = acts;
	f.action_cnt = nacts;
	id = tc_add(dev, &f);
	nb_prog_put(prog);
	return id;
}

struct da_case {
	const char *name;
	int prog_ret;
	int verdict;		/* what cls_bpf passes on */
};

static const struct da_case da_cases[] = {
	{ "tc_cls_bpf_da_ok", TC_ACT_OK, TC_ACT_OK },
	{ "tc_cls_bpf_da_shot", TC_ACT_SHOT, TC_ACT_SHOT },
	{ "tc_cls_bpf_da_stolen", TC_ACT_STOLEN, TC_ACT_STOLEN },
	{ "tc_cls_bpf_da_trap", TC_ACT_TRAP, TC_ACT_TRAP },
	{ "tc_cls_bpf_da_redirect", TC_ACT_REDIRECT, TC_ACT_REDIRECT },
	{ "tc_cls_bpf_da_unspec", TC_ACT_UNSPEC, TC_ACT_UNSPEC },
	{ "tc_cls_bpf_da_reclassify_is_unspec", TC_ACT_RECLASSIFY, TC_ACT_UNSPEC },
	{ "tc_cls_bpf_da_pipe_is_unspec", TC_ACT_PIPE, TC_ACT_UNSPEC },
	{ "tc_cls_bpf_da_queued_is_unspec", TC_ACT_QUEUED, TC_ACT_UNSPEC },
	{ "tc_cls_bpf_da_repeat_is_unspec", TC_ACT_REPEAT, TC_ACT_UNSPEC },
	{ "tc_cls_bpf_da_42_is_unspec", 42, TC_ACT_UNSPEC },
	{ "tc_cls_bpf_da_minus2_is_unspec", -2, TC_ACT_UNSPEC },
};

/* The verdict at the hook, then the same frame through the receive path and its counters. */
static void run_da_case(const void *arg)
{
	const struct da_case *c = arg;
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_dev_stats_total t;
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_ipv4(frame, dev, IPPROTO_UDP, 0x0a000001, 0x0a000002, 1000, 2000, 18);
	int ret;

	add_bpf(dev, 1, tc_prog_classid_ret(BPF_PROG_TYPE_SCHED_CLS, 7, c->prog_ret), true,
		TC_H_MAKE(5 << 16, 0), NULL, 0);
	ret = tc_run_frame(dev, frame, len, &pkt);
	NB_ASSERT_EQ(ret, c->verdict);
	/* OK sets tc_index from the result's classid: major 5 of the filter, minor 7 */
	NB_ASSERT_EQ(pkt->tc_index, c->verdict == TC_ACT_OK ? 7 : 0);
	nb_pkt_free(pkt);

	tc_receive(dev, frame, len);
	t = tc_stats(dev);
	NB_ASSERT_EQ(t.rx_packets, 1);
	switch (c->verdict) {
	case TC_ACT_OK:
	case TC_ACT_UNSPEC:
		NB_ASSERT_EQ(t.host_packets, 1);
		NB_ASSERT_EQ(t.host_bytes, len);
		break;
	case TC_ACT_SHOT:
		NB_ASSERT_EQ(t.drops[NB_DROP_TC_INGRESS], 1);
		break;
	case TC_ACT_STOLEN:
	case TC_ACT_TRAP:
		NB_ASSERT_EQ(t.consumed, 1);
		break;
	case TC_ACT_REDIRECT:
		/* no bpf_redirect call: target ifindex 0 does not exist */
		NB_ASSERT_EQ(t.drops[NB_DROP_NO_DEV], 1);
		break;
	}
	tc_check_accounting(&dev, 1);
}

static void __attribute__((constructor)) register_da_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(da_cases); i++)
		nb_test_register(da_cases[i].name, run_da_case, &da_cases[i]);
}

/* tc_classid holds the minor of the filter's classid when the program starts. */
NB_TEST(tc_cls_bpf_da_classid_preset)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, SKB_OFF(tc_classid)),
		NB_STX_MEM(BPF_W, BPF_REG_1, BPF_REG_2, SKB_OFF(mark)),
		NB_MOV64_IMM(BPF_REG_0, TC_ACT_OK),
		NB_EXIT(),
	};
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	add_bpf(dev, 1, tc_prog(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns)), true,
		0x00050007, NULL, 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->mark, 7);
	NB_ASSERT_EQ(pkt->tc_index, 7);
	nb_pkt_free(pkt);
}

/* UNSPEC goes on to the next filter: both programs run on the packet. */
NB_TEST(tc_cls_bpf_da_unspec_continues)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	add_bpf(dev, 1, tc_prog_count_ret(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_UNSPEC), true, 0, NULL, 0);
	add_bpf(dev, 2, tc_prog_count_ret(BPF_PROG_TYPE_SCHED_CLS, 99), true, 0, NULL, 0);
	add_bpf(dev, 3, tc_prog_count_ret(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_SHOT), true, 0, NULL, 0);
	add_bpf(dev, 4, tc_prog_count_ret(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_OK), true, 0, NULL, 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_SHOT);
	NB_ASSERT_EQ(pkt->mark, 3);
	nb_pkt_free(pkt);
}

/* Programs of one filter (one pref) run newest first, and UNSPEC moves to the older one. */
NB_TEST(tc_cls_bpf_programs_newest_first)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id a, b;
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	a = add_bpf(dev, 1, tc_prog_classid_ret(BPF_PROG_TYPE_SCHED_CLS, 1, TC_ACT_OK), true, 0,
		    NULL, 0);
	b = add_bpf(dev, 1, tc_prog_classid_ret(BPF_PROG_TYPE_SCHED_CLS, 2, TC_ACT_OK), true, 0,
		    NULL, 0);
	NB_ASSERT_EQ(a.handle, 1);
	NB_ASSERT_EQ(b.handle, 2);
	NB_ASSERT_EQ(a.pref, b.pref);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->tc_index, 2);
	nb_pkt_free(pkt);
	/* no counters of the filter's own, as the kernel's cls_bpf: the hook counts the frame */
	NB_ASSERT_EQ(tc_info(dev, &b).stats.packets, 0);
	NB_ASSERT_EQ(tc_info(dev, &a).stats.packets, 0);
}

/* In direct action mode the filter's actions never run. */
NB_TEST(tc_cls_bpf_da_actions_never_run)
{
	struct nb_tc_action_opts drop = { .sz = sizeof(drop), .kind = "gact",
					   .control = TC_ACT_SHOT, .has_control = true };
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id id;
	struct nb_tc_filter_info info;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	id = add_bpf(dev, 1, tc_prog_ret(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_OK), true, 0, &drop, 1);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, NULL), TC_ACT_OK);
	info = tc_info(dev, &id);
	NB_ASSERT_EQ(info.action_cnt, 1);
	NB_ASSERT_EQ(info.actions[0].stats.packets, 0);
}

struct classic_case {
	const char *name;
	int prog_ret;
	bool with_drop_action;
	int verdict;
	u32 tc_index;
};

static const struct classic_case classic_cases[] = {
	/* 0: no match, the next filter (pref 2: classid 9, no actions: OK) decides */
	{ "tc_cls_bpf_classic_no_match", 0, false, TC_ACT_OK, 9 },
	/* -1: the filter's classid (1:3), no actions: OK */
	{ "tc_cls_bpf_classic_filter_classid", -1, false, TC_ACT_OK, 3 },
	/* another value: that classid */
	{ "tc_cls_bpf_classic_prog_classid", 0x10004, false, TC_ACT_OK, 4 },
	/* a match runs the actions: drop */
	{ "tc_cls_bpf_classic_actions_run", -1, true, TC_ACT_SHOT, 0 },
	{ "tc_cls_bpf_classic_no_match_skips_actions", 0, true, TC_ACT_OK, 9 },
};

static void run_classic_case(const void *arg)
{
	const struct classic_case *c = arg;
	struct nb_tc_action_opts drop = { .sz = sizeof(drop), .kind = "gact",
					   .control = TC_ACT_SHOT, .has_control = true };
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id id;
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	id = add_bpf(dev, 1, tc_prog_ret(BPF_PROG_TYPE_SCHED_CLS, c->prog_ret), false, 0x10003,
		     c->with_drop_action ? &drop : NULL, c->with_drop_action);
	add_bpf(dev, 2, tc_prog_ret(BPF_PROG_TYPE_SCHED_CLS, -1), false, 9, NULL, 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), c->verdict);
	NB_ASSERT_EQ(pkt->tc_index, c->tc_index);
	nb_pkt_free(pkt);
	if (c->with_drop_action)
		NB_ASSERT_EQ(tc_info(dev, &id).actions[0].stats.packets, c->prog_ret ? 1 : 0);
}

static void __attribute__((constructor)) register_classic_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(classic_cases); i++)
		nb_test_register(classic_cases[i].name, run_classic_case, &classic_cases[i]);
}

/* Classic mode: an action verdict of "continue" (UNSPEC) goes on to the next filter. */
NB_TEST(tc_cls_bpf_classic_continue_action)
{
	struct nb_tc_action_opts cont = { .sz = sizeof(cont), .kind = "gact",
					  .control = TC_ACT_UNSPEC, .has_control = true };
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	add_bpf(dev, 1, tc_prog_count_ret(BPF_PROG_TYPE_SCHED_CLS, -1), false, 1, &cont, 1);
	add_bpf(dev, 2, tc_prog_count_ret(BPF_PROG_TYPE_SCHED_CLS, -1), false, 2, NULL, 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->mark, 2);
	NB_ASSERT_EQ(pkt->tc_index, 2);
	nb_pkt_free(pkt);
}

/* The protocol classifier example: ARP class 1, IPv4 2, IPv6 3, the rest dropped. */
NB_TEST(tc_cls_bpf_example_protocol_classifier)
{
	struct nb_dev *dev = dev_with_qdisc();
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "bpf",
				       .kind_opts = &bpf };
	struct nb_object *obj;
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len;

	bpf.prog = tc_example_prog("tc_classifier.o", "classifier", BPF_PROG_TYPE_SCHED_CLS, &obj);
	bpf.direct_action = true;
	bpf.classid = TC_H_MAKE(1 << 16, 0);
	tc_add(dev, &f);

	len = tc_frame_arp(frame);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->tc_index, 1);
	nb_pkt_free(pkt);
	len = tc_frame_ipv4(frame, dev, IPPROTO_TCP, 1, 2, 3, 4, 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->tc_index, 2);
	nb_pkt_free(pkt);
	len = tc_frame_ipv6(frame, IPPROTO_UDP);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->tc_index, 3);
	nb_pkt_free(pkt);
	len = tc_frame_arp(frame);
	frame[12] = 0x88;	/* an ethertype nobody classifies */
	frame[13] = 0xb5;
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, NULL), TC_ACT_SHOT);

	nb_dev_destroy_all();
	nb_prog_put(bpf.prog);
	nb_object_close(obj);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* The classifier takes SCHED_CLS programs only, and needs one. */
NB_TEST(tc_cls_bpf_refuses_wrong_type)
{
	struct nb_dev *dev = dev_with_qdisc();
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "bpf",
				       .kind_opts = &bpf };
	struct nb_log log = { 0 };

	f.log = &log;
	bpf.prog = tc_prog_ret(BPF_PROG_TYPE_SCHED_ACT, 0);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "sched_cls");
	nb_prog_put(bpf.prog);
	bpf.prog = NULL;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	/* the failed adds left no filter behind */
	NB_ASSERT_EQ(nb_tc_filter_show(dev, NB_TC_INGRESS, NULL, NULL, NULL), 0);
	nb_log_free(&log);
}

/*
 * The classifier's options are its own, checked with the opts rules: a newer caller's zero tail
 * is read, a non-zero byte past what this library knows is refused, naming the struct.
 */
NB_TEST(tc_cls_bpf_kind_opts_rules)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct {
		struct nb_tc_bpf_opts b;
		__u64 newer;
	} big = { .b = { .sz = sizeof(big), .direct_action = true } };
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "bpf", .kind_opts = &big };
	struct nb_log log = { 0 };

	f.log = &log;
	big.b.prog = tc_prog_ret(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_SHOT);
	big.newer = 1;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "nb_tc_bpf_opts");
	big.newer = 0;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	nb_prog_put(big.b.prog);
	nb_log_free(&log);
}
