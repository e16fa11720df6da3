// SPDX-License-Identifier: GPL-2.0
/*
 * The fw classifier, a kind in one file: a packet whose mark is a filter's handle gets its
 * classid and runs its actions; other marks go on to the next filter; its words are read by its
 * parse op; show gets its options as print items.
 */
#include "tc_test.h"

#define NO_MATCH (-1)

/* fw's words through its parse op, as "tc filter add ... fw WORDS" hands them over. */
static int parse_fw(const char *line, struct nb_tc_filter_opts *f, struct nb_log *log)
{
	char buf[128], *argv[16];
	struct nb_tc_words w = { .log = log };

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && w.argc < 16; t = strtok(NULL, " "))
		argv[w.argc++] = t;
	w.argv = argv;
	memset(f, 0, sizeof(*f));
	f->sz = sizeof(*f);
	f->kind = "fw";
	return nb_tc_filter_parse("fw", &w, f);
}

/* "tc filter add dev DEV ingress pref PREF handle MARK fw WORDS" */
static struct nb_tc_filter_id add_fw(struct nb_dev *dev, u32 pref, u32 mark, const char *words)
{
	struct nb_tc_filter_opts f;
	struct nb_tc_filter_id id;

	NB_ASSERT_EQ(parse_fw(words, &f, NULL), 0);
	f.hook = NB_TC_INGRESS;
	f.pref = pref;
	f.handle = mark;
	id = tc_add(dev, &f);
	nb_tc_filter_opts_release(&f);
	return id;
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
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	struct nb_tc_filter_id id;
	struct nb_tc_filter_info info;

	tc_qdisc(dev);
	id = add_fw(dev, 1, 5, "classid 1:5");
	add_fw(dev, 1, 0x10005, "flowid 1:7");		/* the same hash bucket as 5 */
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

/* A fw option as the classifier holds it: what show prints under classid. */
static const char *parsed_classid(struct nb_dev *dev, const struct nb_tc_filter_opts *f,
				  char *buf, size_t size)
{
	struct nb_tc_filter_opts add = *f;
	struct nb_tc_filter_info info;
	struct nb_tc_filter_id id;
	const struct nb_tc_print_item *it;

	add.hook = NB_TC_INGRESS;
	add.pref = 1;
	add.handle = 1;
	id = tc_add(dev, &add);
	NB_ASSERT_EQ(nb_tc_filter_get(dev, &id, &info, NULL), 0);
	it = nb_tc_print_find(&info.print, "classid");
	snprintf(buf, size, "%s", it ? it->s : "none");
	nb_tc_filter_info_release(&info);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &id, NULL), 0);
	return buf;
}

NB_TEST(tc_cls_fw_words)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	struct nb_tc_filter_opts f;
	struct nb_log log = { 0 };
	char buf[16];

	tc_qdisc(dev);
	NB_ASSERT_EQ(parse_fw("classid 1:5", &f, &log), 0);
	NB_ASSERT(!strcmp(parsed_classid(dev, &f, buf, sizeof(buf)), "1:5"));
	nb_tc_filter_opts_release(&f);
	NB_ASSERT(f.kind_opts == NULL);
	NB_ASSERT_EQ(parse_fw("flowid 2:7 skip_hw", &f, &log), 0);
	NB_ASSERT(!strcmp(parsed_classid(dev, &f, buf, sizeof(buf)), "2:7"));
	nb_tc_filter_opts_release(&f);
	NB_ASSERT_EQ(parse_fw("", &f, &log), 0);
	NB_ASSERT(!strcmp(parsed_classid(dev, &f, buf, sizeof(buf)), "none"));
	nb_tc_filter_opts_release(&f);
	/* on error the parse leaves nothing to release */
	NB_ASSERT_EQ(parse_fw("classid 1:5 indev eth0", &f, &log), -EINVAL);
	NB_ASSERT(f.kind_opts == NULL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "\"indev\" is wrong: fw indev is not built");
	NB_ASSERT_EQ(parse_fw("mark 5", &f, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "\"mark\" is wrong: unknown fw option");
	NB_ASSERT_EQ(parse_fw("classid", &f, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "\"classid\" needs an argument");
	NB_ASSERT_EQ(parse_fw("classid 1:x", &f, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "illegal \"classid\"");
	/* "action" hands over to the front end's parser, which this caller does not have */
	NB_ASSERT_EQ(parse_fw("action drop", &f, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "no actions here");
	/* the mark is the handle: the filter refuses none */
	NB_ASSERT_EQ(parse_fw("classid 1:5", &f, &log), 0);
	f.hook = NB_TC_INGRESS;
	f.pref = 1;
	f.log = &log;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "handle MARK");
	/* options of a size this library does not know are refused */
	((struct { size_t sz; } *)f.kind_opts)->sz = 2;
	f.handle = 5;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "struct fw_opts: sz 2 is too small");
	nb_tc_filter_opts_release(&f);
	/* without options: no classid */
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	nb_log_free(&log);
}

/*
 * The classifier kinds, from the registry: fw is one file and its registration, its options
 * and its help included (nothing of it in include/netbpf or src/ctl).
 */
NB_TEST(tc_filter_kinds)
{
	const char *const *k = nb_tc_filter_kinds();
	char all[128] = "";

	for (; *k; k++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s ", *k);
	NB_ASSERT(!strcmp(all, "bpf fw matchall u32 "));
}
