// SPDX-License-Identifier: GPL-2.0
/*
 * Shared actions as the kernel's act_api keeps them: indexes per kind (the lowest free one when
 * none is given), tc actions add/replace/get/del/flush with their errors, filters binding an
 * existing action by index (refcnt and bindcnt), deletion refused while bound, an action that
 * lives on after its last filter while tc actions add holds it, and the datapath: two filters
 * bound to one gact or bpf action count into the same counters, and a replace under a bound
 * action changes the verdict both filters give.
 */
#include <netbpf/clock.h>

#include "net/worker.h"
#include "tc_test.h"

static struct nb_tc_action_opts gact(int control, u32 index)
{
	return (struct nb_tc_action_opts){ .sz = sizeof(struct nb_tc_action_opts), .kind = "gact",
					   .control = control, .has_control = true,
					   .index = index };
}

static u32 add_one(const struct nb_tc_action_opts *a)
{
	struct nb_log log = { 0 };
	u32 index = 0;
	int err = nb_tc_actions_add(a, 1, false, &index, &log);

	if (err)
		NB_FAIL("tc actions add %s: %d %s", a->kind, err, nb_log_text(&log));
	nb_log_free(&log);
	return index;
}

static struct nb_tc_action_info get(const char *kind, u32 index)
{
	struct nb_tc_action_info info;
	struct nb_log log = { 0 };
	int err = nb_tc_action_get(kind, index, &info, &log);

	if (err)
		NB_FAIL("tc actions get %s %u: %d %s", kind, index, err, nb_log_text(&log));
	nb_log_free(&log);
	nb_tc_action_info_release(&info);	/* the counters and kind fields stay */
	return info;
}

/* What show prints of an action under key (nb_tc_print_find): a string, or a number in it. */
static const char *shown(const char *kind, u32 index, const char *key, char *buf, size_t size)
{
	struct nb_tc_action_info info;
	const struct nb_tc_print_item *it;

	NB_ASSERT_EQ(nb_tc_action_get(kind, index, &info, NULL), 0);
	it = nb_tc_print_find(&info.print, key);
	if (!it)
		NB_FAIL("tc actions get %s %u shows no %s", kind, index, key);
	if (it->s)
		snprintf(buf, size, "%s", it->s);
	else
		snprintf(buf, size, "%llu", (unsigned long long)it->u);
	nb_tc_action_info_release(&info);
	return buf;
}

static struct nb_dev *dev_with_qdisc(const char *name)
{
	struct nb_dev *dev = tc_make_dev(name, 0);

	tc_qdisc(dev);
	return dev;
}

static struct nb_tc_filter_id add_mall(struct nb_dev *dev, u32 pref,
				       const struct nb_tc_action_opts *acts, unsigned int n)
{
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = pref,
				       .kind = "matchall",
				       .actions = acts, .action_cnt = n };

	return tc_add(dev, &f);
}

static int count_walk(const struct nb_tc_action_info *info, void *ctx)
{
	u32 *indexes = ctx;

	indexes[++indexes[0]] = info->index;
	return 0;
}

NB_TEST(tc_shared_act_index_per_kind)
{
	struct nb_tc_action_opts g = gact(TC_ACT_OK, 0);
	NB_OPTS(nb_tc_act_mirred_opts, m_mirred, .eaction = TCA_EGRESS_MIRROR);
	struct nb_tc_action_opts m = { .sz = sizeof(m), .kind = "mirred",
				       .kind_opts = &m_mirred };
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	u32 seen[8] = { 0 };
	char buf[32];

	m_mirred.ifindex = dev->ifindex;
	/* each kind counts from 1 on its own */
	NB_ASSERT_EQ(add_one(&g), 1);
	NB_ASSERT_EQ(add_one(&m), 1);
	g.index = 3;
	NB_ASSERT_EQ(add_one(&g), 3);
	g.index = 0;
	NB_ASSERT_EQ(add_one(&g), 2);	/* the lowest free index */
	NB_ASSERT_EQ(add_one(&g), 4);
	NB_ASSERT_EQ(nb_tc_actions_walk("gact", count_walk, seen, NULL), 0);
	NB_ASSERT_EQ(seen[0], 4);
	for (u32 i = 1; i <= 4; i++)
		NB_ASSERT_EQ(seen[i], i);	/* in index order */
	NB_ASSERT(!strcmp(shown("mirred", 1, "to_dev", buf, sizeof(buf)), "eth0"));
	NB_ASSERT_EQ(get("gact", 3).refcnt, 1);
	NB_ASSERT_EQ(get("gact", 3).bindcnt, 0);
	nb_tc_actions_destroy_unbound();
	seen[0] = 0;
	NB_ASSERT_EQ(nb_tc_actions_walk("gact", count_walk, seen, NULL), 0);
	NB_ASSERT_EQ(seen[0], 0);
}

NB_TEST(tc_shared_act_errors)
{
	struct nb_tc_action_opts g = gact(TC_ACT_SHOT, 7);
	struct nb_tc_action_opts unknown = { .sz = sizeof(unknown), .kind = "nat" };
	struct nb_tc_action_info info;
	struct nb_log log = { 0 };

	add_one(&g);
	NB_ASSERT_EQ(nb_tc_actions_add(&g, 1, false, NULL, &log), -EEXIST);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "gact index 7 exists");
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_tc_actions_add(&unknown, 1, false, NULL, &log), -ENOENT);
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_tc_action_get("gact", 8, &info, &log), -ENOENT);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "TC action with specified index not found");
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_tc_action_del("gact", 8, &log), -ENOENT);
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_tc_action_get("nat", 1, &info, &log), -ENOENT);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "Specified TC action kind not found");
	nb_log_free(&log);
	/* a standalone action has no chain to go to */
	g = gact(TC_ACT_GOTO_CHAIN | 1, 0);
	NB_ASSERT_EQ(nb_tc_actions_add(&g, 1, false, NULL, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "can't goto NULL chain");
	nb_log_free(&log);
}

/* A list is made whole or not at all. */
NB_TEST(tc_shared_act_add_list_undone)
{
	struct nb_tc_action_opts list[3] = { gact(TC_ACT_OK, 1), gact(TC_ACT_OK, 2),
					     gact(TC_ACT_OK, 5) };
	struct nb_tc_action_info info;
	struct nb_log log = { 0 };

	add_one(&list[2]);
	NB_ASSERT_EQ(nb_tc_actions_add(list, 3, false, NULL, &log), -EEXIST);
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_tc_action_get("gact", 1, &info, NULL), -ENOENT);
	NB_ASSERT_EQ(nb_tc_action_get("gact", 2, &info, NULL), -ENOENT);
	NB_ASSERT_EQ(get("gact", 5).refcnt, 1);
}

NB_TEST(tc_shared_act_bind_del_flush)
{
	struct nb_tc_action_opts g7 = gact(TC_ACT_SHOT, 7), g3 = gact(TC_ACT_OK, 3);
	struct nb_tc_action_opts bind7 = { .sz = sizeof(bind7), .kind = "gact", .index = 7 };
	struct nb_dev *dev = dev_with_qdisc("eth0");
	struct nb_tc_filter_id f1, f2;
	struct nb_tc_filter_info fi;
	struct nb_log log = { 0 };
	unsigned int flushed;

	add_one(&g7);
	add_one(&g3);
	f1 = add_mall(dev, 1, &bind7, 1);
	f2 = add_mall(dev, 2, &bind7, 1);
	NB_ASSERT_EQ(get("gact", 7).refcnt, 3);
	NB_ASSERT_EQ(get("gact", 7).bindcnt, 2);
	/* the binding filter took the action as it is: drop, not the bind's default pass */
	fi = tc_info(dev, &f1);
	NB_ASSERT_EQ(fi.actions[0].index, 7);
	NB_ASSERT_EQ(fi.actions[0].control, TC_ACT_SHOT);
	NB_ASSERT_EQ(fi.actions[0].bindcnt, 2);

	NB_ASSERT_EQ(nb_tc_action_del("gact", 7, &log), -EPERM);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "Failed to delete TC action");
	nb_log_free(&log);
	/* flush goes in index order: 3 goes, 7 is bound and stops it, with a warning */
	NB_ASSERT_EQ(nb_tc_actions_flush("gact", &flushed, &log), 0);
	NB_ASSERT_EQ(flushed, 1);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "Unable to flush all TC actions");
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_tc_action_get("gact", 3, &fi.actions[0], NULL), -ENOENT);
	/* nothing could go: an error */
	NB_ASSERT_EQ(nb_tc_actions_flush("gact", &flushed, &log), -EPERM);
	NB_ASSERT_EQ(flushed, 0);
	nb_log_free(&log);

	NB_ASSERT_EQ(nb_tc_filter_del(dev, &f1, NULL), 0);
	NB_ASSERT_EQ(get("gact", 7).bindcnt, 1);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &f2, NULL), 0);
	/* tc actions add's reference keeps it */
	NB_ASSERT_EQ(get("gact", 7).refcnt, 1);
	NB_ASSERT_EQ(get("gact", 7).bindcnt, 0);
	NB_ASSERT_EQ(nb_tc_action_del("gact", 7, NULL), 0);
	NB_ASSERT_EQ(nb_tc_action_get("gact", 7, &fi.actions[0], NULL), -ENOENT);
}

/* An action a filter made lives as long as the filter; another filter may bind it meanwhile. */
NB_TEST(tc_shared_act_filter_made)
{
	struct nb_tc_action_opts g = gact(TC_ACT_SHOT, 9);
	struct nb_tc_action_opts bind9 = { .sz = sizeof(bind9), .kind = "gact", .index = 9 };
	struct nb_dev *dev = dev_with_qdisc("eth0");
	struct nb_tc_action_info info;
	struct nb_tc_filter_id f1, f2;
	unsigned int flushed;

	f1 = add_mall(dev, 1, &g, 1);
	NB_ASSERT_EQ(get("gact", 9).refcnt, 1);
	NB_ASSERT_EQ(get("gact", 9).bindcnt, 1);
	NB_ASSERT_EQ(nb_tc_actions_add(&g, 1, false, NULL, NULL), -EEXIST);
	NB_ASSERT_EQ(nb_tc_actions_flush("gact", &flushed, NULL), -EPERM);
	f2 = add_mall(dev, 2, &bind9, 1);
	NB_ASSERT_EQ(get("gact", 9).refcnt, 2);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &f1, NULL), 0);
	NB_ASSERT_EQ(get("gact", 9).refcnt, 1);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &f2, NULL), 0);
	NB_ASSERT_EQ(nb_tc_action_get("gact", 9, &info, NULL), -ENOENT);
	/* the same index twice in one filter: made by the first, bound by the second */
	struct nb_tc_action_opts twice[2] = { gact(TC_ACT_PIPE, 4),
					      { .sz = sizeof(twice[0]), .kind = "gact",
						.index = 4 } };

	add_mall(dev, 3, twice, 2);
	NB_ASSERT_EQ(get("gact", 4).bindcnt, 2);
	NB_ASSERT_EQ(get("gact", 4).refcnt, 2);
}

/* Two filters on two devices bound to one gact: one set of counters. */
NB_TEST(tc_shared_act_gact_counts_both_filters)
{
	struct nb_tc_action_opts g = gact(TC_ACT_SHOT, 7);
	struct nb_tc_action_opts bind7 = { .sz = sizeof(bind7), .kind = "gact", .index = 7 };
	struct nb_dev *a = dev_with_qdisc("a"), *b = dev_with_qdisc("b");
	struct nb_dev *devs[2] = { a, b };
	struct nb_tc_filter_id fa, fb;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	add_one(&g);
	fa = add_mall(a, 1, &bind7, 1);
	fb = add_mall(b, 1, &bind7, 1);
	for (int i = 0; i < 3; i++)
		NB_ASSERT_EQ(tc_receive(a, frame, len), NB_NET_RX_DROP);
	for (int i = 0; i < 2; i++)
		NB_ASSERT_EQ(tc_receive(b, frame, len), NB_NET_RX_DROP);
	NB_ASSERT_EQ(get("gact", 7).stats.packets, 5);
	NB_ASSERT_EQ(get("gact", 7).stats.drops, 5);
	NB_ASSERT_EQ(get("gact", 7).stats.bytes, 5 * len);
	NB_ASSERT(get("gact", 7).used);
	NB_ASSERT_EQ(tc_info(a, &fa).actions[0].stats.packets, 5);
	NB_ASSERT_EQ(tc_info(a, &fa).stats.packets, 3);	/* the filters' own counters */
	NB_ASSERT_EQ(tc_info(b, &fb).stats.packets, 2);
	NB_ASSERT_EQ(tc_stats(a).drops[NB_DROP_TC_INGRESS], 3);
	NB_ASSERT_EQ(tc_stats(b).drops[NB_DROP_TC_INGRESS], 2);

	/* replace under the bound action: both filters now pass */
	g.control = TC_ACT_OK;
	NB_ASSERT_EQ(nb_tc_actions_add(&g, 1, true, NULL, NULL), 0);
	NB_ASSERT_EQ(get("gact", 7).bindcnt, 2);
	NB_ASSERT_EQ(tc_info(b, &fb).actions[0].control, TC_ACT_OK);
	tc_receive(a, frame, len);
	tc_receive(b, frame, len);
	NB_ASSERT_EQ(tc_stats(a).host_packets, 1);
	NB_ASSERT_EQ(tc_stats(b).host_packets, 1);
	NB_ASSERT_EQ(get("gact", 7).stats.packets, 7);
	tc_check_accounting(devs, 2);
}

/* A shared bpf action: the program runs for both filters, one counter, one program reference. */
NB_TEST(tc_shared_act_bpf_counts_both_filters)
{
	NB_OPTS(nb_tc_act_bpf_opts, act_bpf, .name = "drop.o:[action]");
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "bpf", .index = 2,
					 .kind_opts = &act_bpf };
	struct nb_tc_action_opts bind2 = { .sz = sizeof(bind2), .kind = "bpf", .index = 2 };
	struct nb_dev *a = dev_with_qdisc("a"), *b = dev_with_qdisc("b");
	struct nb_tc_action_info info;
	char buf[32], id[16];
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	act_bpf.prog = tc_prog_ret(BPF_PROG_TYPE_SCHED_ACT, TC_ACT_SHOT);
	add_one(&act);
	add_mall(a, 1, &bind2, 1);
	add_mall(b, 5, &bind2, 1);
	info = get("bpf", 2);
	snprintf(id, sizeof(id), "%u", nb_prog_id(act_bpf.prog));
	NB_ASSERT(!strcmp(shown("bpf", 2, "id", buf, sizeof(buf)), id));
	NB_ASSERT(!strcmp(shown("bpf", 2, "bpf_name", buf, sizeof(buf)), "drop.o:[action]"));
	NB_ASSERT_EQ(info.control, TC_ACT_PIPE);	/* act_bpf's default */
	NB_ASSERT_EQ(tc_receive(a, frame, len), NB_NET_RX_DROP);
	NB_ASSERT_EQ(tc_receive(b, frame, len), NB_NET_RX_DROP);
	info = get("bpf", 2);
	NB_ASSERT_EQ(info.stats.packets, 2);
	NB_ASSERT_EQ(info.stats.drops, 2);
	NB_ASSERT_EQ(info.bindcnt, 2);
	/* replace with a program that passes: the old one is released */
	nb_prog_put(act_bpf.prog);
	act_bpf.prog = tc_prog_ret(BPF_PROG_TYPE_SCHED_ACT, TC_ACT_OK);
	NB_ASSERT_EQ(nb_tc_actions_add(&act, 1, true, NULL, NULL), 0);
	snprintf(id, sizeof(id), "%u", nb_prog_id(act_bpf.prog));
	NB_ASSERT(!strcmp(shown("bpf", 2, "id", buf, sizeof(buf)), id));
	NB_ASSERT_EQ(tc_receive(a, frame, len), NB_NET_RX_SUCCESS);
	NB_ASSERT_EQ(get("bpf", 2).stats.packets, 3);
	nb_prog_put(act_bpf.prog);
}

/* tc redirects count on the sending device: mirred and bpf_redirect. */
NB_TEST(tc_shared_act_tc_redirect_counter)
{
	struct nb_dev *a = dev_with_qdisc("a"), *s = tc_make_dev("s", 0);
	NB_OPTS(nb_tc_act_mirred_opts, m_mirred, .eaction = TCA_EGRESS_MIRROR);
	struct nb_tc_action_opts m = { .sz = sizeof(m), .kind = "mirred",
				       .kind_opts = &m_mirred };
	struct nb_dev *devs[2] = { a, s };
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	tc_set_port(s, "sink", "");
	m_mirred.ifindex = s->ifindex;
	add_mall(a, 1, &m, 1);
	tc_receive(a, frame, len);
	tc_receive(a, frame, len);
	NB_ASSERT_EQ(tc_stats(a).tc_redirect, 2);
	NB_ASSERT_EQ(tc_stats(s).tx_packets, 2);
	NB_ASSERT_EQ(tc_stats(s).tc_redirect, 0);
	tc_check_accounting(devs, 2);
}

/*
 * An action's last use is the time its burst began (read once per burst, as the kernel reads
 * jiffies), and outside a burst the clock itself: a stale burst time would age the second use.
 * The deterministic clock moves a step (0.1 s here) per packet of the burst, so the time of the
 * burst's start (1.0 s) differs from each packet's (1.1 to 1.4 s).
 */
NB_TEST(tc_shared_act_last_use_per_burst)
{
	struct nb_deterministic_opts det = { .sz = sizeof(det), .start_ns = 1000000000ULL,
					     .ns_per_packet = 100000000ULL };
	struct nb_tc_action_opts g = gact(TC_ACT_SHOT, 11);
	struct nb_tc_action_opts bind = { .sz = sizeof(bind), .kind = "gact", .index = 11 };
	struct nb_dev *dev = dev_with_qdisc("a");
	struct nb_pkt *pkts[4];
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	NB_ASSERT_EQ(nb_deterministic_enable(&det), 0);
	add_one(&g);
	add_mall(dev, 1, &bind, 1);
	for (int i = 0; i < 4; i++)
		pkts[i] = tc_pkt(dev, frame, len);
	nb_worker_receive_burst(dev, pkts, 4);
	nb_worker_flush();
	NB_ASSERT_EQ(get("gact", 11).stats.packets, 4);
	for (int i = 0; i < 10; i++)
		nb_clock_packet_tick();		/* one second later */
	NB_ASSERT(get("gact", 11).used);
	NB_ASSERT_EQ(get("gact", 11).lastuse_ms, 1400);
	NB_ASSERT_EQ(get("gact", 11).firstuse_ms, 1400);
	NB_ASSERT_EQ(tc_receive(dev, frame, len), NB_NET_RX_DROP);
	NB_ASSERT_EQ(get("gact", 11).lastuse_ms, 0);
	NB_ASSERT_EQ(get("gact", 11).firstuse_ms, 1400);
	nb_deterministic_disable();
}
