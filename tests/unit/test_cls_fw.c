// SPDX-License-Identifier: GPL-2.0
/*
 * The fw classifier, a kind that reads its own words: a packet whose mark is a filter's handle
 * gets its classid and runs its actions; other marks go on to the next filter; the words are
 * checked by the classifier; show gets its options as print items.
 */
#include "tc_test.h"

#define NO_MATCH (-1)

static struct nb_tc_filter_id add_fw(struct nb_dev *dev, u32 pref, u32 mark,
				     const char *const *words, unsigned int word_cnt)
{
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = pref,
				       .kind = "fw", .handle = mark, .words = words,
				       .word_cnt = word_cnt };

	return tc_add(dev, &f);
}

static int classify(struct nb_dev *dev, u32 mark)
{
	u8 frame[128];
	struct nb_pkt *pkt = tc_pkt_nocount(dev, frame, tc_frame_arp(frame));
	int ret, idx;

	pkt->mark = mark;
	ret = nb_tc_run(nb_tc_dev_block(dev, NB_TC_INGRESS, NULL), pkt);
	idx = pkt->tc_index;
	nb_pkt_free(pkt);
	NB_ASSERT(ret == TC_ACT_OK || ret == TC_ACT_UNSPEC);
	return ret == TC_ACT_OK ? idx : NO_MATCH;
}

NB_TEST(tc_cls_fw_mark)
{
	static const char *const c5[] = { "classid", "1:5" }, *const c7[] = { "flowid", "1:7" };
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	struct nb_tc_filter_id id;
	struct nb_tc_filter_info info;

	tc_qdisc(dev);
	id = add_fw(dev, 1, 5, c5, 2);
	add_fw(dev, 1, 0x10005, c7, 2);		/* the same hash bucket as 5 */
	NB_ASSERT_EQ(classify(dev, 5), 5);
	NB_ASSERT_EQ(classify(dev, 0x10005), 7);
	NB_ASSERT_EQ(classify(dev, 6), NO_MATCH);
	NB_ASSERT_EQ(classify(dev, 0), NO_MATCH);
	NB_ASSERT_EQ(nb_tc_filter_get(dev, &id, &info, NULL), 0);
	NB_ASSERT_EQ(info.classid, 0x10005);
	NB_ASSERT(!strcmp(info.kind, "fw"));
	/* show's members: handle { mark, mask }, classid */
	NB_ASSERT_EQ(info.print.cnt, 5);
	NB_ASSERT(!strcmp(info.print.items[1].key, "mark"));
	NB_ASSERT_EQ(info.print.items[1].u, 5);
	NB_ASSERT(!strcmp(info.print.items[4].s, "1:5"));
	NB_ASSERT_EQ(nb_tc_print_find(&info.print, "classid"), &info.print.items[4]);
	nb_tc_filter_info_release(&info);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &id, NULL), 0);
	NB_ASSERT_EQ(classify(dev, 5), NO_MATCH);
	NB_ASSERT_EQ(classify(dev, 0x10005), 7);
}

NB_TEST(tc_cls_fw_words)
{
	static const char *const bad[] = { "classid", "1:5", "indev", "eth0" };
	static const char *const no_val[] = { "classid" };
	static const char *const bad_id[] = { "classid", "1:x" };
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "fw", .handle = 5, .words = bad, .word_cnt = 4 };
	struct nb_log log = { 0 };

	tc_qdisc(dev);
	f.log = &log;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "\"indev\"");
	f.words = no_val;
	f.word_cnt = 1;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	f.words = bad_id;
	f.word_cnt = 2;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	f.handle = 0;
	f.word_cnt = 0;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "handle MARK");
	nb_log_free(&log);
}

/* The classifier kinds, from the registry: fw is one file and its registration. */
NB_TEST(tc_filter_kinds)
{
	const char *const *k = nb_tc_filter_kinds();
	char all[128] = "";

	for (; *k; k++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s ", *k);
	NB_ASSERT(!strcmp(all, "bpf fw matchall u32 "));
}
