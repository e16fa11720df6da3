// SPDX-License-Identifier: GPL-2.0
/*
 * The generator port: its frames are parsed here byte by byte and every checksum is verified
 * with a plain RFC 1071 sum written for the test (not the datapath's csum.h).
 */
#include <errno.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>

#include "io/port.h"
#include "pkt/flow.h"
#include "pkt/pkt.h"
#include "test.h"

/* RFC 1071 over big-endian 16-bit words, plus an initial sum; 0 when the data checks out. */
static u16 ref_csum(const u8 *p, size_t len, u32 sum)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (u32)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (u32)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

static u32 ref_pseudo(const u8 *src, const u8 *dst, size_t alen, u32 len, u8 proto)
{
	u32 sum = 0;

	for (size_t i = 0; i < alen; i += 2)
		sum += (u32)(src[i] << 8 | src[i + 1]) + (u32)(dst[i] << 8 | dst[i + 1]);
	return sum + proto + (len >> 16) + (len & 0xffff);
}

static u16 be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* What a parsed frame says. */
struct parsed {
	u16 vlan_tci;		/* 0: untagged */
	u16 ethertype;
	u8 proto;
	u8 src[16], dst[16];
	u16 sport, dport;
	u32 pktgen_seq;
	bool has_pktgen;
};

/* Parse and check one frame; every length and checksum must be right. */
static void parse_frame(const u8 *f, u32 len, struct parsed *out)
{
	u32 off = 12, l4, l4_len;
	const u8 *ip;

	memset(out, 0, sizeof(*out));
	NB_ASSERT(len >= 14);
	if (be16(f + 12) == ETH_P_8021Q) {
		out->vlan_tci = be16(f + 14);
		off += 4;
	}
	out->ethertype = be16(f + off);
	ip = f + off + 2;
	if (out->ethertype == ETH_P_ARP) {
		NB_ASSERT(len >= off + 2 + 28);
		NB_ASSERT_EQ(be16(ip), 1);		/* Ethernet */
		NB_ASSERT_EQ(be16(ip + 2), ETH_P_IP);
		NB_ASSERT_EQ(be16(ip + 6), 1);		/* request */
		NB_ASSERT_MEM_EQ(ip + 8, f + 6, 6);	/* sender MAC is the source */
		memcpy(out->src, ip + 14, 4);
		memcpy(out->dst, ip + 24, 4);
		return;
	}
	if (out->ethertype == ETH_P_IP) {
		NB_ASSERT_EQ(ip[0], 0x45);
		NB_ASSERT_EQ(be16(ip + 2), len - (off + 2));	/* total length */
		NB_ASSERT_EQ(ref_csum(ip, 20, 0), 0);
		out->proto = ip[9];
		memcpy(out->src, ip + 12, 4);
		memcpy(out->dst, ip + 16, 4);
		l4 = off + 2 + 20;
		l4_len = len - l4;
	} else {
		NB_ASSERT_EQ(out->ethertype, ETH_P_IPV6);
		NB_ASSERT_EQ(ip[0] >> 4, 6);
		NB_ASSERT_EQ(be16(ip + 4), len - (off + 2) - 40);	/* payload length */
		out->proto = ip[6];
		memcpy(out->src, ip + 8, 16);
		memcpy(out->dst, ip + 24, 16);
		l4 = off + 2 + 40;
		l4_len = len - l4;
	}

	switch (out->proto) {
	case IPPROTO_UDP:
		NB_ASSERT_EQ(be16(f + l4 + 4), l4_len);
		NB_ASSERT(be16(f + l4 + 6) != 0);
		/* fallthrough */
	case IPPROTO_TCP:
	case IPPROTO_ICMPV6: {
		size_t alen = out->ethertype == ETH_P_IP ? 4 : 16;

		NB_ASSERT_EQ(ref_csum(f + l4, l4_len,
				      ref_pseudo(out->src, out->dst, alen, l4_len, out->proto)), 0);
		break;
	}
	case IPPROTO_ICMP:
		NB_ASSERT_EQ(ref_csum(f + l4, l4_len, 0), 0);
		break;
	default:
		NB_FAIL("unexpected L4 protocol %u", out->proto);
	}
	if (out->proto == IPPROTO_UDP || out->proto == IPPROTO_TCP) {
		out->sport = be16(f + l4);
		out->dport = be16(f + l4 + 2);
	}
	{
		u32 hdr = out->proto == IPPROTO_TCP ? 20 : 8;

		if (l4_len >= hdr + 16 && be32(f + l4 + hdr) == 0xbe9be955) {
			out->has_pktgen = true;
			out->pktgen_seq = be32(f + l4 + hdr + 4);
		}
	}
}

static struct nb_port *open_gen(const char *words)
{
	struct nb_log log = { 0 };
	struct nb_port *port;
	int err = nb_port_open_str("gen", words, &port, &log);

	if (err)
		NB_FAIL("gen %s: %d %s", words, err, nb_log_text(&log) ? nb_log_text(&log) : "");
	nb_log_free(&log);
	return port;
}

struct gen_case {
	const char *name;
	const char *words;
	u16 ethertype;
	u8 proto;
	u32 size;
	u16 vlan_tci;
};

static const struct gen_case gen_cases[] = {
	{ "ipv4_udp", "count 40 pkt_size 60", ETH_P_IP, IPPROTO_UDP, 60, 0 },
	{ "ipv4_udp_odd_size", "count 40 pkt_size 101", ETH_P_IP, IPPROTO_UDP, 101, 0 },
	{ "ipv4_tcp", "count 40 proto tcp pkt_size 128", ETH_P_IP, IPPROTO_TCP, 128, 0 },
	{ "ipv4_icmp", "count 40 proto icmp pkt_size 98", ETH_P_IP, IPPROTO_ICMP, 98, 0 },
	{ "arp", "count 40 proto arp pkt_size 60", ETH_P_ARP, 0, 60, 0 },
	{ "ipv6_udp", "count 40 src fd00::1 dst fd00::2 pkt_size 100", ETH_P_IPV6, IPPROTO_UDP,
	  100, 0 },
	{ "ipv6_tcp", "count 40 proto tcp src fd00::1 dst fd00::2 pkt_size 1514", ETH_P_IPV6,
	  IPPROTO_TCP, 1514, 0 },
	{ "ipv6_icmp", "count 40 proto icmp src fd00::1 dst fd00::2 pkt_size 70", ETH_P_IPV6,
	  IPPROTO_ICMPV6, 70, 0 },
	{ "vlan_udp", "count 40 vlan_id 100 vlan_p 5 pkt_size 64", ETH_P_IP, IPPROTO_UDP, 64,
	  5 << 13 | 100 },
	{ "minimal_udp", "count 40 pkt_size 42", ETH_P_IP, IPPROTO_UDP, 42, 0 },
};

static void run_gen_case(const void *arg)
{
	const struct gen_case *c = arg;
	struct nb_port *port = open_gen(c->words);
	struct nb_pkt *pkts[NB_BURST];
	unsigned int total = 0, n;

	while ((n = nb_port_rx_burst(port, pkts, NB_BURST)) > 0) {
		for (unsigned int i = 0; i < n; i++) {
			struct parsed p;

			NB_ASSERT_EQ(pkts[i]->len, c->size);
			parse_frame(pkts[i]->data, pkts[i]->len, &p);
			NB_ASSERT_EQ(p.ethertype, c->ethertype);
			NB_ASSERT_EQ(p.vlan_tci, c->vlan_tci);
			if (c->ethertype != ETH_P_ARP)
				NB_ASSERT_EQ(p.proto, c->proto);
			if (p.has_pktgen)
				NB_ASSERT_EQ(p.pktgen_seq, total + i);
			nb_pkt_free(pkts[i]);
		}
		total += n;
	}
	NB_ASSERT_EQ(total, 40);
	nb_port_close(port);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static void __attribute__((constructor)) register_gen_cases(void)
{
	char name[96];

	for (size_t i = 0; i < ARRAY_SIZE(gen_cases); i++) {
		snprintf(name, sizeof(name), "io_gen_%s", gen_cases[i].name);
		nb_test_register(name, run_gen_case, &gen_cases[i]);
	}
}

/* Address and port ranges walk: 4 sources x 3 destination ports make 12 flows. */
NB_TEST(io_gen_flows)
{
	struct nb_port *port = open_gen("count 24 src_min 10.1.0.1 src_max 10.1.0.4 "
					"udp_dst_min 5000 udp_dst_max 5002 udp_src_min 7 udp_src_max 7 "
					"src_mac 02:aa:bb:cc:dd:ee dst_mac 02:11:22:33:44:55 "
					"dst 192.168.7.9 ttl 9 tos 0x10");
	struct nb_pkt *pkts[NB_BURST];
	unsigned int seen[4][3] = { { 0 } };
	unsigned int n = nb_port_rx_burst(port, pkts, NB_BURST);
	static const u8 smac[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
	static const u8 dmac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

	NB_ASSERT_EQ(n, 24);
	for (unsigned int i = 0; i < n; i++) {
		const u8 *f = pkts[i]->data;
		struct parsed p;
		u32 src;

		parse_frame(f, pkts[i]->len, &p);
		NB_ASSERT_MEM_EQ(f, dmac, 6);
		NB_ASSERT_MEM_EQ(f + 6, smac, 6);
		NB_ASSERT_EQ(f[14 + 8], 9);		/* ttl */
		NB_ASSERT_EQ(f[14 + 1], 0x10);		/* tos */
		NB_ASSERT_EQ(be32(p.dst), 0xc0a80709);
		src = be32(p.src);
		NB_ASSERT(src >= 0x0a010001 && src <= 0x0a010004);
		NB_ASSERT(p.dport >= 5000 && p.dport <= 5002);
		NB_ASSERT_EQ(p.sport, 7);
		seen[src - 0x0a010001][p.dport - 5000]++;
		nb_pkt_free(pkts[i]);
	}
	for (int s = 0; s < 4; s++)
		for (int d = 0; d < 3; d++)
			NB_ASSERT_EQ(seen[s][d], 2);
	NB_ASSERT_EQ(nb_port_rx_burst(port, pkts, NB_BURST), 0);	/* count reached */
	nb_port_close(port);
}

/* IPv6 ranges vary the last 32 bits. */
NB_TEST(io_gen_ipv6_range)
{
	struct nb_port *port = open_gen("count 8 src_min fd00::a:1 src_max fd00::a:8 dst fd00::1");
	struct nb_pkt *pkts[NB_BURST];
	unsigned int n = nb_port_rx_burst(port, pkts, NB_BURST);
	struct in6_addr want;

	NB_ASSERT_EQ(n, 8);
	for (unsigned int i = 0; i < n; i++) {
		struct parsed p;
		char text[64];

		parse_frame(pkts[i]->data, pkts[i]->len, &p);
		snprintf(text, sizeof(text), "fd00::a:%x", i + 1);
		NB_ASSERT_EQ(inet_pton(AF_INET6, text, &want), 1);
		NB_ASSERT_MEM_EQ(p.src, &want, 16);
		nb_pkt_free(pkts[i]);
	}
	nb_port_close(port);
}

/* ratep: the first frame at once, the next only when its time has come. */
NB_TEST(io_gen_rate)
{
	struct nb_port *port = open_gen("count 0 ratep 1");
	struct nb_pkt *pkts[NB_BURST];

	NB_ASSERT_EQ(nb_port_rx_burst(port, pkts, NB_BURST), 1);
	nb_pkt_free(pkts[0]);
	NB_ASSERT_EQ(nb_port_rx_burst(port, pkts, NB_BURST), 0);
	nb_port_close(port);
}

/* count 0 never ends: several bursts, all full. */
NB_TEST(io_gen_endless)
{
	struct nb_port *port = open_gen("count 0");
	struct nb_pkt *pkts[NB_BURST];

	for (int round = 0; round < 100; round++) {
		NB_ASSERT_EQ(nb_port_rx_burst(port, pkts, NB_BURST), NB_BURST);
		for (int i = 0; i < NB_BURST; i++)
			nb_pkt_free(pkts[i]);
	}
	nb_port_close(port);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(io_gen_bad_words)
{
	static const char *const bad[] = {
		"count", "count x", "pkt_size 30", "pkt_size 100000", "proto sctp",
		"src 10.0.0.1 dst fd00::1", "vlan_id 4096", "src_mac 02:00", "bogus 1",
		"proto arp src fd00::1 dst fd00::2", "ipv6", "queues 0", "queues 65",
		/* 1000 addresses and 65535 source ports: 13 million flows, too many for RSS to deal */
		"queues 2 src_min 10.0.0.1 src_max 10.0.3.232 udp_src_min 1 udp_src_max 65535",
		"mode flows", "mode",
		/* mode copy keeps a frame per flow: 1000 x 65535 flows are too many */
		"mode copy src_min 10.0.0.1 src_max 10.0.3.232 udp_src_min 1 udp_src_max 65535",
		/* 60000 flows of 2000 bytes: more than 64 MiB */
		"mode copy udp_src_min 1 udp_src_max 60000 pkt_size 2000",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct nb_log log = { 0 };
		struct nb_port *port;

		NB_ASSERT_EQ(nb_port_open_str("gen", bad[i], &port, &log), -EINVAL);
		NB_ASSERT(port == NULL);
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "gen: ");
		nb_log_free(&log);
	}
}

/* Thousands of frames over wide ranges: every incremental checksum update is verified. */
NB_TEST(io_gen_many_flows_checksums)
{
	static const char *const confs[] = {
		"count 3000 src_min 10.0.0.1 src_max 10.0.255.255 dst_min 172.16.0.1 "
		"dst_max 172.16.7.255 udp_src_min 1 udp_src_max 65535 udp_dst_min 1000 "
		"udp_dst_max 1999 pkt_size 97",
		"count 3000 proto tcp src_min 192.168.0.1 src_max 192.168.3.0 udp_src_min 40000 "
		"udp_src_max 40999 pkt_size 80",
		"count 3000 proto icmp src_min 10.9.0.0 src_max 10.9.1.0 pkt_size 64",
		"count 3000 src_min fd00::1:0 src_max fd00::1:ffff dst_min fd00::2:0 "
		"dst_max fd00::2:ff udp_dst_min 1 udp_dst_max 9999 pkt_size 90",
		"count 3000 proto icmp src_min fd00::1 src_max fd00::ffff dst fd00::2 pkt_size 70",
		"count 3000 proto arp src_min 10.0.0.1 src_max 10.0.3.255 dst_min 10.1.0.0 "
		"dst_max 10.1.0.9",
	};

	for (size_t c = 0; c < ARRAY_SIZE(confs); c++) {
		struct nb_port *port = open_gen(confs[c]);
		struct nb_pkt *pkts[NB_BURST];
		unsigned int n, total = 0;

		while ((n = nb_port_rx_burst(port, pkts, NB_BURST)) > 0) {
			for (unsigned int i = 0; i < n; i++) {
				struct parsed p;

				parse_frame(pkts[i]->data, pkts[i]->len, &p);
				if (p.has_pktgen)
					NB_ASSERT_EQ(p.pktgen_seq, total + i);
				nb_pkt_free(pkts[i]);
			}
			total += n;
		}
		NB_ASSERT_EQ(total, 3000);
		nb_port_close(port);
	}
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

#define RSS_QUEUES 4
#define RSS_FLOWS 64

/*
 * queues N: each queue makes the flows whose hash (the datapath's own) picks it in a 128-entry
 * indirection table, every frame correct, and the count shared: together the queues make it.
 */
NB_TEST(io_gen_queues_rss)
{
	struct nb_port *port = open_gen("count 1000 queues 4 udp_src_min 2000 udp_src_max 2063 "
					"pkt_size 80");
	int queue_of[RSS_FLOWS];
	unsigned int made[RSS_QUEUES] = { 0 }, total = 0, used = 0, n;
	struct nb_pkt *pkts[NB_BURST];

	for (int f = 0; f < RSS_FLOWS; f++)
		queue_of[f] = -1;
	NB_ASSERT_EQ(nb_port_rx_queues(port), RSS_QUEUES);
	for (bool more = true; more;) {
		more = false;
		for (unsigned int q = 0; q < RSS_QUEUES; q++) {
			n = nb_port_rx_queue_burst(port, q, pkts, NB_BURST);
			more |= n > 0;
			for (unsigned int i = 0; i < n; i++) {
				struct nb_flow_keys keys;
				struct parsed p;
				unsigned int f;

				parse_frame(pkts[i]->data, pkts[i]->len, &p);
				NB_ASSERT(p.sport >= 2000 && p.sport < 2000 + RSS_FLOWS);
				f = p.sport - 2000;
				/* a flow stays on one queue: the one its hash picks */
				NB_ASSERT(queue_of[f] < 0 || queue_of[f] == (int)q);
				queue_of[f] = (int)q;
				NB_ASSERT(nb_flow_dissect(pkts[i], &keys));
				NB_ASSERT_EQ(nb_flow_hash(&keys) % 128 % RSS_QUEUES, q);
				/* each queue counts its own frames */
				if (p.has_pktgen)
					NB_ASSERT_EQ(p.pktgen_seq, made[q] + i);
				nb_pkt_free(pkts[i]);
			}
			made[q] += n;
			total += n;
		}
	}
	NB_ASSERT_EQ(total, 1000);
	for (unsigned int q = 0; q < RSS_QUEUES; q++)
		used += made[q] > 0;
	NB_ASSERT(used >= 2);	/* 64 flows do not all hash to one queue */
	for (int f = 0; f < RSS_FLOWS; f++)
		NB_ASSERT(queue_of[f] >= 0);	/* every flow was made */
	for (unsigned int q = 0; q < RSS_QUEUES; q++)
		NB_ASSERT_EQ(nb_port_rx_queue_burst(port, q, pkts, NB_BURST), 0);
	nb_port_close(port);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* One flow and two queues: RSS cannot spread it, one queue makes every frame. */
NB_TEST(io_gen_queues_one_flow)
{
	struct nb_port *port = open_gen("count 100 queues 2");
	struct nb_pkt *pkts[NB_BURST];
	unsigned int made[2] = { 0 }, n;

	for (unsigned int q = 0; q < 2; q++) {
		while ((n = nb_port_rx_queue_burst(port, q, pkts, NB_BURST)) > 0) {
			for (unsigned int i = 0; i < n; i++)
				nb_pkt_free(pkts[i]);
			made[q] += n;
		}
	}
	NB_ASSERT_EQ(made[0] + made[1], 100);
	NB_ASSERT(made[0] == 0 || made[1] == 0);
	nb_port_close(port);
}

/*
 * mode copy: the frames of mode patch's first period of the flows, byte for byte, in the same
 * order and then again from the start (prebuilt frames copied, nothing written per frame).
 */
NB_TEST(io_gen_mode_copy)
{
	static const char *const confs[] = {
		"udp_src_min 100 udp_src_max 105 src_min 10.0.0.1 src_max 10.0.0.3 pkt_size 70",
		"proto tcp udp_dst_min 1 udp_dst_max 4 pkt_size 64",
		"proto icmp src_min fd00::1 src_max fd00::5 dst fd00::2 pkt_size 70",
	};
	const u32 period[] = { 6, 4, 5 };
	char words[256];

	for (size_t c = 0; c < ARRAY_SIZE(confs); c++) {
		struct nb_port *patch, *copy;
		struct nb_pkt *want[NB_BURST], *got[NB_BURST];
		unsigned int n;

		snprintf(words, sizeof(words), "count %u %s", period[c], confs[c]);
		patch = open_gen(words);
		snprintf(words, sizeof(words), "count %u mode copy %s", 3 * period[c], confs[c]);
		copy = open_gen(words);
		NB_ASSERT_EQ(nb_port_rx_burst(patch, want, NB_BURST), period[c]);
		n = nb_port_rx_burst(copy, got, NB_BURST);
		NB_ASSERT_EQ(n, 3 * period[c]);
		for (unsigned int i = 0; i < n; i++) {
			const struct nb_pkt *w = want[i % period[c]];
			struct parsed p;

			NB_ASSERT_EQ(got[i]->len, w->len);
			NB_ASSERT_MEM_EQ(got[i]->data, w->data, w->len);
			parse_frame(got[i]->data, got[i]->len, &p);	/* checksums right */
			nb_pkt_free(got[i]);
		}
		for (unsigned int i = 0; i < period[c]; i++)
			nb_pkt_free(want[i]);
		nb_port_close(patch);
		nb_port_close(copy);
	}
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* mode copy with queues: each queue copies the frames of the flows RSS dealt it, and only those. */
NB_TEST(io_gen_mode_copy_queues)
{
	struct nb_port *port = open_gen("count 400 mode copy queues 2 udp_src_min 2000 "
					"udp_src_max 2015 pkt_size 64");
	struct nb_pkt *pkts[NB_BURST];
	unsigned int total = 0, n;

	for (unsigned int q = 0; q < 2; q++) {
		while ((n = nb_port_rx_queue_burst(port, q, pkts, NB_BURST)) > 0) {
			for (unsigned int i = 0; i < n; i++) {
				struct nb_flow_keys keys;
				struct parsed p;

				parse_frame(pkts[i]->data, pkts[i]->len, &p);
				NB_ASSERT(p.sport >= 2000 && p.sport < 2016);
				NB_ASSERT(nb_flow_dissect(pkts[i], &keys));
				NB_ASSERT_EQ(nb_flow_hash(&keys) % 128 % 2, q);
				nb_pkt_free(pkts[i]);
			}
			total += n;
		}
	}
	NB_ASSERT_EQ(total, 400);
	nb_port_close(port);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
