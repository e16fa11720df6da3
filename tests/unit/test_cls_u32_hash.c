// SPDX-License-Identifier: GPL-2.0
/*
 * u32 hash tables and links: a node that matches and links goes on in the linked table, in the
 * bucket its hash key picks, and decides itself only when nothing there did; tables are shared
 * by the u32 filters of one qdisc; a table in use cannot go; link loops end with no match.
 */
#include "tc_test.h"

#define NO_MATCH (-1)
#define HT1 0x00100000U		/* "1:" */

static struct nb_dev *dev_with_qdisc(void)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);

	tc_qdisc(dev);
	return dev;
}

static int classify(struct nb_dev *dev, u32 daddr)
{
	u8 frame[128];
	u32 len = tc_frame_ipv4(frame, dev, IPPROTO_UDP, 1, daddr, 1, 2, 0);
	struct nb_pkt *pkt;
	int ret = tc_run_frame(dev, frame, len, &pkt);
	u16 idx = pkt->tc_index;

	nb_pkt_free(pkt);
	NB_ASSERT(ret == TC_ACT_OK || ret == TC_ACT_UNSPEC);
	return ret == TC_ACT_OK ? idx : NO_MATCH;
}

static struct nb_tc_filter_opts u32_opts(u32 pref, u32 handle, struct nb_tc_u32_opts *sel)
{
	return (struct nb_tc_filter_opts){ .sz = sizeof(struct nb_tc_filter_opts),
					   .hook = NB_TC_INGRESS, .pref = pref, .kind = "u32",
					   .handle = handle, .kind_opts = sel };
}

/* "u32 ht HTID match ip dst DST/PLEN classid 1:MINOR" (minor 0: no classid) */
static struct nb_tc_filter_id add_dst(struct nb_dev *dev, u32 pref, u32 htid, u32 dst,
				      unsigned int plen, u16 minor)
{
	NB_OPTS(nb_tc_u32_opts, sel);
	struct nb_tc_filter_opts f = u32_opts(pref, 0, &sel);

	sel.htid = htid;
	NB_ASSERT_EQ(nb_tc_u32_match_ip(&sel, true, htonl(dst), plen, NULL), 0);
	sel.classid = minor ? TC_H_MAKE(1 << 16, minor) : 0;
	return tc_add(dev, &f);
}

/* "u32 divisor N" with handle HT: */
static void add_table(struct nb_dev *dev, u32 pref, u32 handle, u32 divisor)
{
	NB_OPTS(nb_tc_u32_opts, sel);
	struct nb_tc_filter_opts f = u32_opts(pref, handle, &sel);

	sel.divisor = divisor;
	tc_add(dev, &f);
}

/* "match ip dst 10.0.0.0/8 hashkey mask 0xff at 16 link 1: [classid 1:minor]" in 800: */
static struct nb_tc_filter_id add_link(struct nb_dev *dev, u32 pref, u16 minor)
{
	NB_OPTS(nb_tc_u32_opts, sel);
	struct nb_tc_filter_opts f = u32_opts(pref, 0, &sel);

	NB_ASSERT_EQ(nb_tc_u32_match_ip(&sel, true, htonl(0x0a000000), 8, NULL), 0);
	sel.link = HT1;
	sel.hmask = htonl(0xff);
	sel.hoff = 16;
	sel.classid = minor ? TC_H_MAKE(1 << 16, minor) : 0;
	return tc_add(dev, &f);
}

NB_TEST(tc_cls_u32_hash_link)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id any9;

	add_table(dev, 1, HT1, 256);
	add_dst(dev, 1, HT1 | 6 << 12, 0x0a000006, 32, 6);
	add_dst(dev, 1, HT1 | 7 << 12, 0x0a000007, 32, 7);
	/* a node matching every frame, in bucket 9 only: other buckets never see it */
	any9 = add_dst(dev, 1, HT1 | 9 << 12, 0, 0, 99);
	NB_ASSERT_EQ(any9.handle, HT1 | 9 << 12 | 0x800);
	add_link(dev, 1, 0);
	NB_ASSERT_EQ(classify(dev, 0x0a000006), 6);
	NB_ASSERT_EQ(classify(dev, 0x0a000007), 7);
	NB_ASSERT_EQ(classify(dev, 0x0b000009), NO_MATCH);	/* link keys first */
	NB_ASSERT_EQ(classify(dev, 0x0a000009), 99);
	NB_ASSERT_EQ(classify(dev, 0x0a000008), NO_MATCH);
	NB_ASSERT_EQ(classify(dev, 0x0b000006), NO_MATCH);	/* the link's own keys fail */
}

/* Nothing decided in the linked table: the linking node's own classid does. */
NB_TEST(tc_cls_u32_hash_link_falls_back)
{
	struct nb_dev *dev = dev_with_qdisc();

	add_table(dev, 1, HT1, 16);
	add_dst(dev, 1, HT1 | 6 << 12, 0x0a000006, 32, 6);
	add_link(dev, 1, 50);
	NB_ASSERT_EQ(classify(dev, 0x0a000006), 6);
	NB_ASSERT_EQ(classify(dev, 0x0a000016), 50);	/* bucket 0x16 & 15 = 6, no match */
	NB_ASSERT_EQ(classify(dev, 0x0a000008), 50);
}

/* The filters of one qdisc share tables; in use they stay; a filter's root never goes. */
NB_TEST(tc_cls_u32_hash_tables_shared)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id t1 = { .hook = NB_TC_INGRESS, .pref = 2,
				      .protocol = htons(ETH_P_ALL), .handle = HT1 };
	struct nb_tc_filter_id root2 = t1, l;
	struct nb_tc_filter_info info;

	add_dst(dev, 1, 0, 0x0c000000, 8, 12);		/* pref 1: root 800: */
	add_table(dev, 2, HT1, 256);			/* pref 2: root 801:, and 1: */
	add_dst(dev, 2, HT1 | 6 << 12, 0x0a000006, 32, 6);
	l = add_link(dev, 1, 0);			/* pref 1's root links to pref 2's 1: */
	NB_ASSERT_EQ(l.handle, 0x80000801);
	NB_ASSERT_EQ(classify(dev, 0x0a000006), 6);
	NB_ASSERT_EQ(classify(dev, 0x0c000006), 12);
	NB_ASSERT_EQ(nb_tc_filter_get(dev, &t1, &info, NULL), 0);
	NB_ASSERT(info.no_match);
	NB_ASSERT(nb_tc_print_find(&info.print, "ht_divisor"));
	NB_ASSERT_EQ(nb_tc_print_find(&info.print, "ht_divisor")->u, 256);
	nb_tc_filter_info_release(&info);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &t1, NULL), -EBUSY);
	root2.handle = 0x80100000;			/* 801: */
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &root2, NULL), -EINVAL);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &l, NULL), 0);
	NB_ASSERT_EQ(classify(dev, 0x0a000006), NO_MATCH);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &t1, NULL), 0);
	NB_ASSERT_EQ(nb_tc_filter_get(dev, &t1, &info, NULL), -ENOENT);
}

/* A table linking to itself: the depth limit ends it with no match. */
NB_TEST(tc_cls_u32_hash_link_loop)
{
	struct nb_dev *dev = dev_with_qdisc();
	NB_OPTS(nb_tc_u32_opts, sel);
	struct nb_tc_filter_opts f = u32_opts(1, 0, &sel);

	add_table(dev, 1, HT1, 1);
	sel.htid = HT1;
	sel.link = HT1;
	NB_ASSERT_EQ(nb_tc_u32_match(&sel, NB_TC_U32_SIZE_32, 0, 0, 0, false, NULL), 0);
	tc_add(dev, &f);
	add_link(dev, 1, 0);
	NB_ASSERT_EQ(classify(dev, 0x0a000006), NO_MATCH);
}

NB_TEST(tc_cls_u32_hash_errors)
{
	struct nb_dev *dev = dev_with_qdisc();
	NB_OPTS(nb_tc_u32_opts, sel);
	struct nb_tc_filter_opts f = u32_opts(1, 0, &sel);
	struct nb_log log = { 0 };

	f.log = &log;
	sel.divisor = 3;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "power of 2");
	sel.divisor = 0;
	sel.link = HT1;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "not found");
	sel.link = 0x80000000;			/* a root table */
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	sel.link = 0;
	sel.htid = HT1;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	add_table(dev, 1, HT1, 16);
	sel.htid = HT1 | 16 << 12;			/* past the 16 buckets */
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "bucket");
	nb_log_free(&log);
}

NB_TEST(tc_cls_u32_sample)
{
	struct nb_tc_u32_opts u = { .sz = sizeof(u), .htid = HT1 }, sample = { 0 };
	struct nb_log log = { 0 };

	/* a sample whose sz does not hold its keys is refused before they are read */
	sample.nkeys = 1;
	sample.keys[0] = (struct nb_tc_u32_key){ .val = htonl(7), .mask = htonl(0xff), .off = 16 };
	NB_ASSERT_EQ(nb_tc_u32_sample(&u, &sample, 0, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "sz 0 is too small");
	memset(&sample, 0, sizeof(sample));
	sample.sz = sizeof(sample);
	NB_ASSERT_EQ(nb_tc_u32_match_ip(&sample, true, htonl(0x0a000007), 32, NULL), 0);
	NB_ASSERT_EQ(nb_tc_u32_sample(&u, &sample, 0, &log), 0);
	NB_ASSERT_EQ(u.htid, HT1 | 7 << 12);
	/* the key folds from its lowest mask bit: 0x0900 in 0xff00 is 9, 9 % 4 = 1 */
	memset(&sample, 0, sizeof(sample));
	sample.sz = sizeof(sample);
	NB_ASSERT_EQ(nb_tc_u32_match(&sample, NB_TC_U32_SIZE_32, 0x0900, 0xff00, 16, false, NULL),
		     0);
	NB_ASSERT_EQ(nb_tc_u32_sample(&u, &sample, 4, &log), 0);
	NB_ASSERT_EQ(u.htid, HT1 | 1 << 12);
	NB_ASSERT_EQ(nb_tc_u32_sample(&u, &sample, 3, &log), -EINVAL);
	sample.nkeys = 2;
	NB_ASSERT_EQ(nb_tc_u32_sample(&u, &sample, 0, &log), -EINVAL);
	nb_log_free(&log);
}
