// SPDX-License-Identifier: GPL-2.0
/*
 * Filters as cls_api orders and runs them: prefs and the kernel's automatic pref, protocol
 * matching, handles and the add/replace/change/del commands, chains with goto chain, and the
 * reclassify/goto loop limit.
 */
#include "tc_test.h"

static struct nb_dev *dev_with_qdisc(void)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);

	tc_qdisc(dev);
	return dev;
}

/* A da filter at pref with protocol (0: all) on chain: sets tc_classid to cls, returns ret. */
static int add_da(struct nb_dev *dev, u32 chain, u32 pref, __be16 protocol, u32 cls, int ret,
		  struct nb_tc_filter_id *id)
{
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .chain = chain,
				       .pref = pref, .protocol = protocol, .kind = "bpf",
				       .kind_opts = &bpf };
	int err;

	bpf.prog = tc_prog_classid_ret(BPF_PROG_TYPE_SCHED_CLS, cls, ret);
	bpf.direct_action = true;
	err = nb_tc_filter_add(dev, &f, id);
	nb_prog_put(bpf.prog);
	return err;
}

/* A matchall filter on chain at pref with one gact action. */
static void add_mall_gact(struct nb_dev *dev, u32 chain, u32 pref, u32 classid, int control)
{
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "gact", .control = control,
					 .has_control = true };
	NB_OPTS(nb_tc_matchall_opts, mall, .classid = classid);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .chain = chain,
				       .pref = pref, .kind = "matchall", .kind_opts = &mall,
				       .actions = &act, .action_cnt = 1 };

	tc_add(dev, &f);
}

static int collect_prefs(const struct nb_tc_filter_info *info, void *ctx)
{
	u32 *prefs = ctx;

	prefs[++prefs[0]] = info->id.pref;
	return 0;
}

/* matchall's options through kind_opts: the classid it gives, and an sz it cannot know. */
NB_TEST(tc_matchall_kind_opts)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	NB_OPTS(nb_tc_matchall_opts, mall, .classid = 0x10007);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "matchall", .kind_opts = &mall };
	struct { struct nb_tc_matchall_opts o; u32 more; } newer = { { .sz = sizeof(newer) }, 1 };
	struct nb_tc_filter_info info;
	struct nb_tc_filter_id id;
	struct nb_log log = { 0 };

	tc_qdisc(dev);
	id = tc_add(dev, &f);
	NB_ASSERT_EQ(nb_tc_filter_get(dev, &id, &info, NULL), 0);
	NB_ASSERT_EQ(info.classid, 0x10007);
	nb_tc_filter_info_release(&info);
	/* a caller built against a longer struct that sets what this library lacks */
	f.pref = 2;
	f.kind_opts = &newer;
	f.log = &log;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "struct nb_tc_matchall_opts: byte");
	newer.more = 0;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	nb_log_free(&log);
}

NB_TEST(tc_chain_auto_pref)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id id;
	u32 prefs[8] = { 0 };

	NB_ASSERT_EQ(add_da(dev, 0, 0, 0, 1, TC_ACT_OK, &id), 0);
	NB_ASSERT_EQ(id.pref, 49152);
	NB_ASSERT_EQ(add_da(dev, 0, 0, 0, 1, TC_ACT_OK, &id), 0);
	NB_ASSERT_EQ(id.pref, 49151);
	NB_ASSERT_EQ(add_da(dev, 0, 10, 0, 1, TC_ACT_OK, &id), 0);
	NB_ASSERT_EQ(id.pref, 10);
	/* one below the smallest pref from 32768 up: pref 10 does not count */
	NB_ASSERT_EQ(add_da(dev, 0, 0, 0, 1, TC_ACT_OK, &id), 0);
	NB_ASSERT_EQ(id.pref, 49150);
	NB_ASSERT_EQ(nb_tc_filter_show(dev, NB_TC_INGRESS, collect_prefs, prefs, NULL), 0);
	NB_ASSERT_EQ(prefs[0], 4);
	NB_ASSERT_EQ(prefs[1], 10);
	NB_ASSERT_EQ(prefs[2], 49150);
	NB_ASSERT_EQ(prefs[3], 49151);
	NB_ASSERT_EQ(prefs[4], 49152);
}

NB_TEST(tc_chain_auto_pref_below_others)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id id;

	NB_ASSERT_EQ(add_da(dev, 0, 100, 0, 1, TC_ACT_OK, &id), 0);
	NB_ASSERT_EQ(add_da(dev, 0, 0, 0, 1, TC_ACT_OK, &id), 0);
	NB_ASSERT_EQ(id.pref, 49152);
	NB_ASSERT_EQ(add_da(dev, 0, 40000, 0, 1, TC_ACT_OK, &id), 0);
	NB_ASSERT_EQ(add_da(dev, 0, 0, 0, 1, TC_ACT_OK, &id), 0);
	NB_ASSERT_EQ(id.pref, 39999);
}

/* The lowest pref runs first, whatever the order of the adds. */
NB_TEST(tc_chain_pref_order)
{
	struct nb_dev *dev = dev_with_qdisc();
	u8 frame[128];
	u32 len = tc_frame_arp(frame);
	struct nb_pkt *pkt;

	NB_ASSERT_EQ(add_da(dev, 0, 30, 0, 3, TC_ACT_OK, NULL), 0);
	NB_ASSERT_EQ(add_da(dev, 0, 10, 0, 1, TC_ACT_UNSPEC, NULL), 0);
	NB_ASSERT_EQ(add_da(dev, 0, 20, 0, 2, TC_ACT_OK, NULL), 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->tc_index, 2);
	nb_pkt_free(pkt);
}

struct proto_case {
	const char *name;
	u16 filter_proto;	/* host order; 0: all */
	int frame;		/* 0 arp, 1 ipv4, 2 ipv6, 3 vlan-tagged ipv4 (offloaded tag) */
	bool match;
};

static const struct proto_case proto_cases[] = {
	{ "tc_chain_protocol_all_arp", 0, 0, true },
	{ "tc_chain_protocol_ip_ipv4", ETH_P_IP, 1, true },
	{ "tc_chain_protocol_ip_arp", ETH_P_IP, 0, false },
	{ "tc_chain_protocol_ip_ipv6", ETH_P_IP, 2, false },
	{ "tc_chain_protocol_ipv6_ipv6", ETH_P_IPV6, 2, true },
	{ "tc_chain_protocol_arp_arp", ETH_P_ARP, 0, true },
	{ "tc_chain_protocol_arp_ipv4", ETH_P_ARP, 1, false },
	{ "tc_chain_protocol_8021q_tagged", ETH_P_8021Q, 3, true },
	{ "tc_chain_protocol_ip_tagged", ETH_P_IP, 3, false },
	{ "tc_chain_protocol_8021q_untagged", ETH_P_8021Q, 1, false },
	{ "tc_chain_protocol_number", 0x88b5, 4, true },
};

static void run_proto_case(const void *arg)
{
	const struct proto_case *c = arg;
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len;

	NB_ASSERT_EQ(add_da(dev, 0, 1, htons(c->filter_proto), 5, TC_ACT_OK, NULL), 0);
	switch (c->frame) {
	case 0:
		len = tc_frame_arp(frame);
		break;
	case 2:
		len = tc_frame_ipv6(frame, IPPROTO_UDP);
		break;
	case 4:
		len = tc_frame_arp(frame);
		frame[12] = 0x88;
		frame[13] = 0xb5;
		break;
	default:
		len = tc_frame_ipv4(frame, dev, IPPROTO_UDP, 1, 2, 3, 4, 0);
		break;
	}
	pkt = tc_pkt_nocount(dev, frame, len);
	if (c->frame == 3) {
		pkt->vlan_present = 1;
		pkt->vlan_proto = htons(ETH_P_8021Q);
		pkt->vlan_tci = 5;
	}
	NB_ASSERT_EQ(nb_tc_run(nb_tc_dev_block(dev, NB_TC_INGRESS, NULL), pkt),
		     c->match ? TC_ACT_OK : TC_ACT_UNSPEC);
	NB_ASSERT_EQ(pkt->tc_index, c->match ? 5 : 0);
	nb_pkt_free(pkt);
}

static void __attribute__((constructor)) register_proto_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(proto_cases); i++)
		nb_test_register(proto_cases[i].name, run_proto_case, &proto_cases[i]);
}

NB_TEST(tc_chain_commands)
{
	struct nb_dev *dev = dev_with_qdisc(), *bare = tc_make_dev("bare0", 0);
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 5,
				       .protocol = htons(ETH_P_IP), .kind = "bpf",
				       .kind_opts = &bpf };
	struct nb_tc_filter_id id = { .hook = NB_TC_INGRESS, .pref = 5, .handle = 1 };
	struct nb_log log = { 0 };
	u8 frame[128];
	u32 len = tc_frame_ipv4(frame, dev, IPPROTO_UDP, 1, 2, 3, 4, 0);
	struct nb_pkt *pkt;

	f.log = &log;
	bpf.prog = tc_prog_classid_ret(BPF_PROG_TYPE_SCHED_CLS, 1, TC_ACT_OK);
	bpf.direct_action = true;
	f.handle = 1;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	/* the same handle again */
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EEXIST);
	/* the pref with another protocol, another kind */
	f.protocol = htons(ETH_P_ARP);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	f.protocol = htons(ETH_P_IP);
	f.kind = "matchall";
	f.kind_opts = NULL;	/* refused for the kind, not for bpf's options */
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	f.kind = "no-such";
	f.pref = 6;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -ENOENT);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "no-such");
	f.kind = "bpf";
	f.kind_opts = &bpf;
	f.pref = 5;
	/* replace: the program of handle 1 is a new one */
	nb_prog_put(bpf.prog);
	bpf.prog = tc_prog_classid_ret(BPF_PROG_TYPE_SCHED_CLS, 2, TC_ACT_OK);
	NB_ASSERT_EQ(nb_tc_filter_replace(dev, &f, NULL), 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->tc_index, 2);
	nb_pkt_free(pkt);
	/* change needs an existing filter */
	f.handle = 7;
	NB_ASSERT_EQ(nb_tc_filter_change(dev, &f, NULL), -ENOENT);
	f.handle = 1;
	nb_prog_put(bpf.prog);
	bpf.prog = tc_prog_classid_ret(BPF_PROG_TYPE_SCHED_CLS, 3, TC_ACT_OK);
	NB_ASSERT_EQ(nb_tc_filter_change(dev, &f, NULL), 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->tc_index, 3);
	nb_pkt_free(pkt);
	/* no qdisc, no egress on an ingress qdisc */
	NB_ASSERT_EQ(nb_tc_filter_add(bare, &f, NULL), -EINVAL);
	NB_ASSERT_EQ(nb_tc_qdisc_add(bare, NB_TC_QDISC_INGRESS, NULL), 0);
	NB_ASSERT_EQ(nb_tc_qdisc_add(bare, NB_TC_QDISC_CLSACT, NULL), -EEXIST);
	f.hook = NB_TC_EGRESS;
	NB_ASSERT_EQ(nb_tc_filter_add(bare, &f, NULL), -EINVAL);
	f.hook = NB_TC_INGRESS;

	/* del: a missing handle, then the filter, then nothing is left */
	id.handle = 9;
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &id, NULL), -ENOENT);
	id.handle = 1;
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &id, NULL), 0);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &id, NULL), -ENOENT);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, NULL), TC_ACT_UNSPEC);
	/* del by pref takes every program of the pref; pref 0 flushes the chain */
	f.handle = 0;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	id.handle = 0;
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &id, NULL), 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, NULL), TC_ACT_UNSPEC);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	f.pref = 9;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	id.pref = 0;
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &id, NULL), 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, NULL), TC_ACT_UNSPEC);
	nb_prog_put(bpf.prog);
	NB_ASSERT_EQ(nb_tc_qdisc_del(dev, NB_TC_QDISC_CLSACT, NULL), 0);
	NB_ASSERT_EQ(nb_tc_qdisc_del(dev, NB_TC_QDISC_CLSACT, NULL), -ENOENT);
	nb_log_free(&log);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* goto chain 1 runs chain 1's filters; the classid is theirs. */
NB_TEST(tc_chain_goto_chain)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	add_mall_gact(dev, 0, 1, 0x10001, TC_ACT_GOTO_CHAIN | 1);
	add_mall_gact(dev, 0, 2, 0x10002, TC_ACT_OK);	/* skipped by the goto */
	NB_ASSERT_EQ(add_da(dev, 1, 1, 0, 7, TC_ACT_OK, NULL), 0);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->tc_index, 7);
	nb_pkt_free(pkt);
}

/* goto an empty chain: nothing classifies the packet (UNSPEC), it goes on. */
NB_TEST(tc_chain_goto_empty_chain)
{
	struct nb_dev *dev = dev_with_qdisc();
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	add_mall_gact(dev, 0, 1, 0x10001, TC_ACT_GOTO_CHAIN | 5);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, NULL), TC_ACT_UNSPEC);
	tc_receive(dev, frame, len);
	NB_ASSERT_EQ(tc_stats(dev).host_packets, 1);
	tc_check_accounting(&dev, 1);
}

/* Reclassify restarts from chain 0's first filter, 16 times at most, then drops. */
NB_TEST(tc_chain_reclassify_limit)
{
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "gact",
					 .control = TC_ACT_RECLASSIFY, .has_control = true };
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "bpf",
				       .actions = &act, .action_cnt = 1, .kind_opts = &bpf };
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id id;
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	bpf.prog = tc_prog_count_ret(BPF_PROG_TYPE_SCHED_CLS, -1);
	id = tc_add(dev, &f);
	nb_prog_put(bpf.prog);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_SHOT);
	NB_ASSERT_EQ(pkt->mark, 1 + NB_TC_MAX_RECLASSIFY_LOOP);
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(tc_info(dev, &id).actions[0].stats.packets, 1 + NB_TC_MAX_RECLASSIFY_LOOP);

	tc_receive(dev, frame, len);
	NB_ASSERT_EQ(tc_stats(dev).drops[NB_DROP_TC_INGRESS], 1);
	tc_check_accounting(&dev, 1);
}

/* Two chains that go to each other: the same limit ends the loop. */
NB_TEST(tc_chain_goto_loop_limit)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "gact", .has_control = true };
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "bpf",
				       .actions = &act, .action_cnt = 1, .kind_opts = &bpf };
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	bpf.prog = tc_prog_count_ret(BPF_PROG_TYPE_SCHED_CLS, -1);
	act.control = TC_ACT_GOTO_CHAIN | 1;
	tc_add(dev, &f);
	f.chain = 1;
	act.control = TC_ACT_GOTO_CHAIN | 0;
	tc_add(dev, &f);
	nb_prog_put(bpf.prog);
	NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_SHOT);
	NB_ASSERT_EQ(pkt->mark, 1 + NB_TC_MAX_RECLASSIFY_LOOP);
	nb_pkt_free(pkt);
}

/* The hook's own counters: every packet the filters saw, and its drops. */
NB_TEST(tc_chain_hook_stats)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_stats s;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	NB_ASSERT_EQ(add_da(dev, 0, 1, htons(ETH_P_IP), 1, TC_ACT_SHOT, NULL), 0);
	NB_ASSERT_EQ(add_da(dev, 0, 2, htons(ETH_P_ARP), 1, TC_ACT_SHOT, NULL), 0);
	tc_receive(dev, frame, len);
	len = tc_frame_ipv6(frame, IPPROTO_UDP);
	tc_receive(dev, frame, len);
	NB_ASSERT_EQ(nb_tc_hook_stats(dev, NB_TC_INGRESS, &s), 0);
	NB_ASSERT_EQ(s.packets, 2);
	NB_ASSERT_EQ(s.drops, 1);
	NB_ASSERT_EQ(tc_stats(dev).host_packets, 1);
	tc_check_accounting(&dev, 1);
}

/* The ingress qdisc carries the ingress hook; deleting it lets traffic pass untouched. */
NB_TEST(tc_chain_ingress_qdisc)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	NB_ASSERT_EQ(nb_tc_qdisc_add(dev, NB_TC_QDISC_INGRESS, NULL), 0);
	NB_ASSERT_EQ(add_da(dev, 0, 1, 0, 1, TC_ACT_SHOT, NULL), 0);
	tc_receive(dev, frame, len);
	NB_ASSERT_EQ(tc_stats(dev).drops[NB_DROP_TC_INGRESS], 1);
	NB_ASSERT_EQ(nb_tc_qdisc_del(dev, NB_TC_QDISC_CLSACT, NULL), -ENOENT);
	NB_ASSERT_EQ(nb_tc_qdisc_del(dev, NB_TC_QDISC_INGRESS, NULL), 0);
	tc_receive(dev, frame, len);
	NB_ASSERT_EQ(tc_stats(dev).host_packets, 1);
	tc_check_accounting(&dev, 1);
	/* a device that goes away takes its qdisc and filters with it (LSan sees the rest) */
	NB_ASSERT_EQ(nb_tc_qdisc_add(dev, NB_TC_QDISC_CLSACT, NULL), 0);
	NB_ASSERT_EQ(add_da(dev, 0, 1, 0, 1, TC_ACT_SHOT, NULL), 0);
	nb_dev_destroy(dev);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
