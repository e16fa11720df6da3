// SPDX-License-Identifier: GPL-2.0
/*
 * The u32 classifier: raw u32/u16/u8 keys at offsets from the network header (negative ones
 * reach the mac header), the ip/ip6/tcp/udp shorthands, key merging, keys past the packet end
 * (no match at all), terminal nodes, node handles, actions.
 */
#include "tc_test.h"

static struct nb_dev *dev_with_qdisc(void)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);

	tc_qdisc(dev);
	return dev;
}

/* u32 filter: the keys packed by fill, classid 1:minor. */
static struct nb_tc_filter_id add_u32(struct nb_dev *dev, u32 pref,
				      void (*fill)(struct nb_tc_u32_opts *), u16 minor)
{
	NB_OPTS(nb_tc_u32_opts, sel);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = pref,
				       .kind = "u32", .kind_opts = &sel };

	fill(&sel);
	sel.classid = minor ? TC_H_MAKE(1 << 16, minor) : 0;
	return tc_add(dev, &f);
}

/* No filter classified the frame (TC_ACT_UNSPEC), unlike a match that sets tc_index 0. */
#define NO_MATCH (-1)

/* The tc_index a frame gets, or NO_MATCH. */
static int classify(struct nb_dev *dev, const u8 *frame, u32 len)
{
	struct nb_pkt *pkt;
	int ret = tc_run_frame(dev, frame, len, &pkt);
	u16 idx = pkt->tc_index;

	nb_pkt_free(pkt);
	NB_ASSERT(ret == TC_ACT_OK || ret == TC_ACT_UNSPEC);
	return ret == TC_ACT_OK ? idx : NO_MATCH;
}

static void fill_all(struct nb_tc_u32_opts *u)
{
	NB_ASSERT_EQ(nb_tc_u32_match(u, NB_TC_U32_SIZE_32, 0, 0, 0, false, NULL), 0);
}

static void fill_dst_10_8(struct nb_tc_u32_opts *u)
{
	NB_ASSERT_EQ(nb_tc_u32_match_ip(u, true, htonl(0x0a000000), 8, NULL), 0);
}

static void fill_proto_udp(struct nb_tc_u32_opts *u)
{
	NB_ASSERT_EQ(nb_tc_u32_match_field(u, NB_TC_U32_IP_PROTOCOL, 17, 0xff, NULL), 0);
}

static void fill_dport_80(struct nb_tc_u32_opts *u)
{
	NB_ASSERT_EQ(nb_tc_u32_match_field(u, NB_TC_U32_IP_DPORT, 80, 0xffff, NULL), 0);
}

static void fill_ethertype_ip(struct nb_tc_u32_opts *u)
{
	/* the ethertype, two bytes before the network header */
	NB_ASSERT_EQ(nb_tc_u32_match(u, NB_TC_U32_SIZE_16, ETH_P_IP, 0xffff, -2, false, NULL), 0);
}

static void fill_src_and_proto(struct nb_tc_u32_opts *u)
{
	NB_ASSERT_EQ(nb_tc_u32_match_ip(u, false, htonl(0xc0a80000), 16, NULL), 0);
	NB_ASSERT_EQ(nb_tc_u32_match_field(u, NB_TC_U32_IP_PROTOCOL, 6, 0xff, NULL), 0);
	/* ttl shares the word of protocol: merged into one key */
	NB_ASSERT_EQ(nb_tc_u32_match(u, NB_TC_U32_SIZE_8, 64, 0xff, 8, false, NULL), 0);
	NB_ASSERT_EQ(u->nkeys, 2);
}

static void fill_past_end(struct nb_tc_u32_opts *u)
{
	NB_ASSERT_EQ(nb_tc_u32_match(u, NB_TC_U32_SIZE_32, 0, 0, 1000, false, NULL), 0);
}

static void fill_none(struct nb_tc_u32_opts *u)
{
}

NB_TEST(tc_cls_u32_match_all)
{
	struct nb_dev *dev = dev_with_qdisc();
	u8 frame[128];

	add_u32(dev, 1, fill_all, 2);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_arp(frame)), 2);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_ipv6(frame, IPPROTO_TCP)), 2);
}

NB_TEST(tc_cls_u32_ip_dst_prefix)
{
	struct nb_dev *dev = dev_with_qdisc();
	u8 frame[128];

	add_u32(dev, 1, fill_dst_10_8, 3);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_ipv4(frame, dev, IPPROTO_UDP, 1, 0x0a010203,
							 1, 2, 0)), 3);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_ipv4(frame, dev, IPPROTO_UDP, 1, 0x0b000001,
							 1, 2, 0)), NO_MATCH);
}

NB_TEST(tc_cls_u32_ip_protocol_and_dport)
{
	struct nb_dev *dev = dev_with_qdisc();
	u8 frame[128];

	add_u32(dev, 1, fill_dport_80, 8);
	add_u32(dev, 2, fill_proto_udp, 17);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_ipv4(frame, dev, IPPROTO_UDP, 1, 2, 5, 53, 0)),
		     17);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_ipv4(frame, dev, IPPROTO_TCP, 1, 2, 5, 80, 0)),
		     8);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_ipv4(frame, dev, IPPROTO_TCP, 1, 2, 5, 81, 0)),
		     NO_MATCH);
}

NB_TEST(tc_cls_u32_negative_offset_and_merge)
{
	struct nb_dev *dev = dev_with_qdisc();
	u8 frame[128];

	add_u32(dev, 1, fill_src_and_proto, 6);
	add_u32(dev, 2, fill_ethertype_ip, 4);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_ipv4(frame, dev, IPPROTO_TCP, 0xc0a80101, 2, 1,
							 2, 0)), 6);
	/* TCP from elsewhere: the ethertype key still matches */
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_ipv4(frame, dev, IPPROTO_TCP, 0xc0a90101, 2, 1,
							 2, 0)), 4);
	/* ttl 63 breaks the merged word */
	tc_frame_ipv4(frame, dev, IPPROTO_TCP, 0xc0a80101, 2, 1, 2, 0);
	frame[ETH_HLEN + 8] = 63;
	NB_ASSERT_EQ(classify(dev, frame, 60), 4);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_arp(frame)), NO_MATCH);
}

/* A key past the end of the packet ends the classification: later nodes do not run. */
NB_TEST(tc_cls_u32_key_past_end)
{
	struct nb_dev *dev = dev_with_qdisc();
	u8 frame[128];

	add_u32(dev, 1, fill_past_end, 1);
	add_u32(dev, 1, fill_all, 2);	/* the same filter, node 800::801 */
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_arp(frame)), NO_MATCH);
	add_u32(dev, 2, fill_all, 3);	/* another filter still runs */
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_arp(frame)), 3);
}

/*
 * A node with neither classid nor actions is not terminal: it matches every frame but never
 * classifies one, and the next filter still runs.
 */
NB_TEST(tc_cls_u32_not_terminal)
{
	struct nb_dev *dev = dev_with_qdisc();
	u8 frame[128];

	add_u32(dev, 1, fill_none, 0);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_arp(frame)), NO_MATCH);
	add_u32(dev, 2, fill_all, 5);
	NB_ASSERT_EQ(classify(dev, frame, tc_frame_arp(frame)), 5);
}

/* Every key of the largest selector: one at each word from 0, all zero (match any frame). */
static void fill_max_keys(struct nb_tc_u32_opts *u)
{
	for (int k = 0; k < NB_TC_U32_MAX_KEYS; k++)
		NB_ASSERT_EQ(nb_tc_u32_match(u, NB_TC_U32_SIZE_32, 0, 0xff, 4 * k, false, NULL), 0);
}

/* show gets every key of a full node: the print list grows past any fixed number of members. */
NB_TEST(tc_cls_u32_show_every_key)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id id = add_u32(dev, 1, fill_max_keys, 3);
	struct nb_tc_filter_info info;
	unsigned int matches = 0, last_off = 0;

	NB_ASSERT_EQ(nb_tc_filter_get(dev, &id, &info, NULL), 0);
	NB_ASSERT_EQ(info.print.err, 0);
	for (unsigned int n = 0; n < info.print.cnt; n++) {
		const struct nb_tc_print_item *it = &info.print.items[n];

		if (it->key && !strcmp(it->key, "match") && it->value_type == NB_TC_PRINT_OPEN)
			matches++;
		if (it->key && !strcmp(it->key, "off"))
			last_off = (unsigned int)it->u;
	}
	NB_ASSERT_EQ(matches, NB_TC_U32_MAX_KEYS);
	NB_ASSERT_EQ(last_off, 4 * (NB_TC_U32_MAX_KEYS - 1));
	nb_tc_filter_info_release(&info);
}

NB_TEST(tc_cls_u32_handles)
{
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_id a = add_u32(dev, 1, fill_all, 1);
	struct nb_tc_filter_id b = add_u32(dev, 1, fill_all, 2);
	/* a handle in table 1: for a node of the root table 800: */
	NB_OPTS(nb_tc_u32_opts, sel);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "u32", .handle = 0x00100345, .kind_opts = &sel };

	NB_ASSERT_EQ(a.handle, 0x80000800);
	NB_ASSERT_EQ(b.handle, 0x80000801);
	fill_all(&sel);
	sel.classid = 1;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_EQ(nb_tc_filter_del(dev, &a, NULL), 0);
	NB_ASSERT_EQ(tc_info(dev, &b).classid, 0x10002);
}

NB_TEST(tc_cls_u32_pack_errors)
{
	struct nb_tc_u32_opts u = { 0 };
	struct nb_log log = { 0 };

	/* a struct whose sz does not hold the keys gets none written into it */
	NB_ASSERT_EQ(nb_tc_u32_match(&u, NB_TC_U32_SIZE_8, 0x40, 0xf0, 0, false, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "sz 0 is too small");
	NB_ASSERT_EQ(nb_tc_u32_match_ip(NULL, true, 0, 32, &log), -EINVAL);
	NB_ASSERT_EQ(u.nkeys, 0);
	u.sz = sizeof(u);
	NB_ASSERT_EQ(nb_tc_u32_match(&u, NB_TC_U32_SIZE_16, 0x10000, 0xffff, 0, false, &log),
		     -EINVAL);
	NB_ASSERT_EQ(nb_tc_u32_match(&u, NB_TC_U32_SIZE_16, 1, 0xffff, 1, false, &log), -EINVAL);
	NB_ASSERT_EQ(nb_tc_u32_match(&u, NB_TC_U32_SIZE_8, 0x100, 0xff, 0, false, &log), -EINVAL);
	NB_ASSERT_EQ(nb_tc_u32_match(&u, NB_TC_U32_SIZE_8, 0x40, 0xf0, 0, false, &log), 0);
	/* the same bits with another value conflict */
	NB_ASSERT_EQ(nb_tc_u32_match(&u, NB_TC_U32_SIZE_8, 0x60, 0xf0, 0, false, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "conflicts");
	NB_ASSERT_EQ(nb_tc_u32_match_ip(&u, true, 0, 33, &log), -EINVAL);
	NB_ASSERT_EQ(u.nkeys, 1);
	NB_ASSERT_EQ(u.keys[0].val, htonl(0x40000000));
	NB_ASSERT_EQ(u.keys[0].mask, htonl(0xf0000000));
	nb_log_free(&log);
}

static void fill_ip6_src_and_tcp_dst(struct nb_tc_u32_opts *u)
{
	u8 addr[16] = { 0x20, 0x01, 0x0d, 0xb8 };

	NB_ASSERT_EQ(nb_tc_u32_match_ip6(u, false, addr, 32, NULL), 0);
	NB_ASSERT_EQ(nb_tc_u32_match_field(u, NB_TC_U32_IP6_PROTOCOL, IPPROTO_TCP, 0xff, NULL), 0);
	NB_ASSERT_EQ(nb_tc_u32_match_field(u, NB_TC_U32_IP6_DPORT, 443, 0xffff, NULL), 0);
}

NB_TEST(tc_cls_u32_ip6)
{
	struct nb_dev *dev = dev_with_qdisc();
	u8 frame[128];
	u32 len = tc_frame_ipv6(frame, IPPROTO_TCP);
	u8 *saddr = frame + ETH_HLEN + offsetof(struct ipv6hdr, saddr);

	add_u32(dev, 1, fill_ip6_src_and_tcp_dst, 6);
	memcpy(saddr, "\x20\x01\x0d\xb8\x99", 5);
	frame[ETH_HLEN + 40 + 2] = 443 >> 8;
	frame[ETH_HLEN + 40 + 3] = 443 & 0xff;
	NB_ASSERT_EQ(classify(dev, frame, len), 6);
	saddr[3] = 0xb9;
	NB_ASSERT_EQ(classify(dev, frame, len), NO_MATCH);
}

/* u32 with actions: the match runs them; gact drop drops and counts on the node and action. */
NB_TEST(tc_cls_u32_actions)
{
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "gact",
					 .control = TC_ACT_SHOT, .has_control = true };
	NB_OPTS(nb_tc_u32_opts, sel);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "u32",
				       .actions = &act, .action_cnt = 1, .kind_opts = &sel };
	struct nb_dev *dev = dev_with_qdisc();
	struct nb_tc_filter_info info;
	struct nb_tc_filter_id id;
	u8 frame[128];
	u32 len;

	fill_proto_udp(&sel);
	id = tc_add(dev, &f);
	len = tc_frame_ipv4(frame, dev, IPPROTO_UDP, 1, 2, 3, 4, 10);
	tc_receive(dev, frame, len);
	len = tc_frame_ipv4(frame, dev, IPPROTO_TCP, 1, 2, 3, 4, 10);
	tc_receive(dev, frame, len);
	info = tc_info(dev, &id);
	NB_ASSERT_EQ(info.stats.packets, 1);
	NB_ASSERT_EQ(info.stats.drops, 1);
	NB_ASSERT_EQ(info.actions[0].stats.packets, 1);
	NB_ASSERT_EQ(info.actions[0].stats.drops, 1);
	NB_ASSERT_EQ(tc_stats(dev).drops[NB_DROP_TC_INGRESS], 1);
	NB_ASSERT_EQ(tc_stats(dev).host_packets, 1);
	tc_check_accounting(&dev, 1);
}
