// SPDX-License-Identifier: GPL-2.0
/*
 * The generator port, the twin of the kernel's pktgen: it receives frames it builds itself.
 * Ethernet with an optional 802.1Q tag; IPv4 or IPv6 carrying UDP, TCP or ICMP echo requests,
 * or ARP requests; source and destination addresses and ports walk their ranges so that one
 * generator makes many flows; a pktgen header (magic, sequence number) starts the payload when
 * there is room. Every checksum is correct. Frames sent to a generator are counted and freed.
 * Words (pktgen's names where it has them):
 *
 *   count N        frames to make, 0 for no end (default 1000)
 *   pkt_size N     frame bytes without the FCS (default 60, or the headers when longer; up to
 *                  GEN_MAX_SIZE: a jumbo frame continues in fragments after a page)
 *   ratep N        frames per second, 0 for as fast as asked (default 0)
 *   src_mac M, dst_mac M
 *   proto udp|tcp|icmp|arp   (default udp)
 *   ipv6           IPv6 instead of IPv4 (implied by IPv6 addresses)
 *   src_min A, src_max A, dst_min A, dst_max A     address ranges (IPv6: last 32 bits vary)
 *   src A, dst A   one address
 *   udp_src_min P, udp_src_max P, udp_dst_min P, udp_dst_max P   port ranges (TCP too)
 *   vlan_id N, vlan_p N    an 802.1Q tag with that id and priority
 *   ttl N, tos N
 *   queues N       N receive queues (default 1), each with its own generator state: the flows
 *                  of one period of the ranges are dealt to the queues by their flow hash
 *                  through the 128-entry indirection table a NIC's RSS has by default
 *                  (ethtool's: entry i is queue i % N), so a flow stays on one queue and
 *                  each datapath worker makes the frames of the queues it owns; count and
 *                  ratep are the generator's whole, shared by its queues
 *   mode patch|copy   how a frame is made (default patch). patch: a copy of frame 0 with the
 *                  fields of its flow and its sequence numbers (IP id, pktgen, TCP and ICMP
 *                  sequence) written in and the checksums updated, as pktgen and testpmd's
 *                  flowgen write every frame. copy: one frame per flow of a period of the
 *                  ranges is built at open, and every frame is a plain copy of its flow's,
 *                  as DPDK's net_null with copy=1 copies its template: the same flows in the
 *                  same order, the sequence numbers repeating with the flows' period
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include "io/gen.h"
#include "io/port.h"
#include "pkt/csum.h"
#include "pkt/flow.h"
#include "pkt/pkt.h"
#include "common/u64_stats.h"

/* The longest frame: an IP packet of 65535 bytes (ETH_MAX_MTU) behind its Ethernet header. */
#define GEN_MAX_SIZE (65535 + ETH_HLEN)

#define PKTGEN_MAGIC 0xbe9be955
#define PKTGEN_HDR_LEN 16	/* magic, sequence number, seconds, microseconds */

#define GEN_MAX_QUEUES 64
/* Flows of one period of the ranges that queues can deal out (their indices are kept). */
#define GEN_RSS_MAX_FLOWS 65536
/* A NIC's RSS indirection table: the flow hash picks an entry, the entry names the queue. */
#define GEN_RSS_TABLE_SIZE 128
/* Bytes of prebuilt frames mode copy keeps for all queues together. */
#define GEN_COPY_MAX_BYTES (64u << 20)

enum gen_proto { GEN_UDP, GEN_TCP, GEN_ICMP, GEN_ARP };

/* The fields of one flow, in network order, as they go into a frame. */
struct gen_flow {
	u32 saddr, daddr;	/* IPv4, or the last 32 bits of IPv6 */
	u16 sport, dport;
};

/*
 * One receive queue's generator state, written only by the worker that owns the queue (its
 * own cache line). A generator of one queue walks the flows in order, frame i being flow i,
 * stepping each field to the next in its range (cur); a queue of several walks the flows the
 * indirection table gave it.
 */
struct gen_queue {
	u64 made;		/* frames made, read by other threads: the queue's sequence */
	struct timespec start;	/* the first burst, for ratep */
	u32 cur[4];		/* one queue: the next frame's fields (host order), as flow_at */
	struct gen_flow *flows;	/* the flows of the period that are this queue's; NULL: all */
	u32 nr_flows;
	u32 next_flow;		/* index into flows of the next frame's flow */
	u8 *frames;		/* mode copy: nr_frames prebuilt frames, g->stride bytes apart */
	u32 nr_frames;
	u32 next_frame;		/* the frame the next copy is of */
} __attribute__((aligned(64)));

struct gen {
	/* configuration */
	u64 count;
	u32 size;
	u64 rate_pps;
	u8 src_mac[ETH_ALEN];
	u8 dst_mac[ETH_ALEN];
	enum gen_proto proto;
	bool ipv6;
	struct in6_addr src6, dst6;	/* IPv6 bases: the last 32 bits come from the ranges */
	u32 src_min, src_max;		/* IPv4 addresses, or the IPv6 last 32 bits; host order */
	u32 dst_min, dst_max;
	u16 sport_min, sport_max;
	u16 dport_min, dport_max;
	bool vlan;
	u16 vlan_id;
	u8 vlan_prio;
	u8 ttl, tos;
	u32 nr_queues;
	bool copy;		/* mode copy: frames are copies of prebuilt ones, nothing patched */
	u32 stride;		/* mode copy: bytes from a prebuilt frame to the next (whole blocks) */

	/* state */
	struct gen_queue *queues;	/* nr_queues of them */
	u64 claimed;			/* frames of count the queues took on (count != 0) */
	unsigned int rx_cursor;		/* the queue rx_burst reads next (one poller) */
	u64 tx_packets;			/* frames sent to the generator: taken and freed */
	/*
	 * Frame 0, built once where the IP header is 4-byte aligned (the headers are C structs);
	 * every frame starts as a copy of it, then the fields that walk are patched with
	 * incremental checksum updates (RFC 1624), which is what makes the generator fast.
	 */
	u8 tmpl_buf[GEN_MAX_SIZE + 2] __attribute__((aligned(8)));
	u32 l3_off;			/* offsets in the frame */
	u32 l4_off;
	u32 pktgen_off;
	bool has_pktgen_hdr;
};

static u32 l2_len(const struct gen *g)
{
	return ETH_HLEN + (g->vlan ? 4 : 0);
}

static u32 headers_len(const struct gen *g)
{
	u32 l3, l4 = 0;

	if (g->proto == GEN_ARP)
		return l2_len(g) + 28;
	l3 = g->ipv6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr);
	switch (g->proto) {
	case GEN_UDP:
		l4 = sizeof(struct udphdr);
		break;
	case GEN_TCP:
		l4 = sizeof(struct tcphdr);
		break;
	default:
		l4 = 8;	/* ICMP echo header */
		break;
	}
	return l2_len(g) + l3 + l4;
}

/* The value index i takes in [min, max], walking the range. */
static u32 walk(u32 min, u32 max, u64 i)
{
	return min + (u32)(i % ((u64)max - min + 1));
}

/* One's complement sum of an IPv4 or IPv6 pseudo header (RFC 768, RFC 8200 8.1). */
static u32 pseudo_sum(const struct gen *g, const void *saddr, const void *daddr, u32 len,
		      u8 proto)
{
	u32 sum = 0;

	if (g->ipv6) {
		u32 tail[2] = { htonl(len), htonl(proto) };

		sum = nb_csum_partial(saddr, 16, sum);
		sum = nb_csum_partial(daddr, 16, sum);
		return nb_csum_partial(tail, sizeof(tail), sum);
	} else {
		u16 tail[2] = { htons(proto), htons((u16)len) };

		sum = nb_csum_partial(saddr, 4, sum);
		sum = nb_csum_partial(daddr, 4, sum);
		return nb_csum_partial(tail, sizeof(tail), sum);
	}
}

static void build_arp(const struct gen *g, u8 *p, u32 sip, u32 dip)
{
	struct arphdr *arp = (struct arphdr *)p;
	u8 *a = p + sizeof(*arp);
	u32 spa = htonl(sip), tpa = htonl(dip);

	arp->ar_hrd = htons(ARPHRD_ETHER);
	arp->ar_pro = htons(ETH_P_IP);
	arp->ar_hln = ETH_ALEN;
	arp->ar_pln = 4;
	arp->ar_op = htons(ARPOP_REQUEST);
	memcpy(a, g->src_mac, ETH_ALEN);
	memcpy(a + 6, &spa, 4);
	memset(a + 10, 0, ETH_ALEN);
	memcpy(a + 16, &tpa, 4);
}

/* Build frame number seq into f (g->size bytes, zeroed by the caller). */
static void build_frame(const struct gen *g, u8 *f, u64 seq)
{
	u32 sip = walk(g->src_min, g->src_max, seq), dip = walk(g->dst_min, g->dst_max, seq);
	u16 sport = (u16)walk(g->sport_min, g->sport_max, seq);
	u16 dport = (u16)walk(g->dport_min, g->dport_max, seq);
	u32 off = 12, l3_off, l4_off, l4_len, hdrs = headers_len(g);
	const void *saddr, *daddr;
	u8 l4proto = 0;
	u32 sum;

	memcpy(f, g->dst_mac, ETH_ALEN);
	memcpy(f + 6, g->src_mac, ETH_ALEN);
	if (g->vlan) {
		u16 tpid = htons(ETH_P_8021Q), tci = htons((u16)(g->vlan_prio << 13 | g->vlan_id));

		memcpy(f + off, &tpid, 2);
		memcpy(f + off + 2, &tci, 2);
		off += 4;
	}
	l3_off = off + 2;
	if (g->proto == GEN_ARP) {
		u16 type = htons(ETH_P_ARP);

		memcpy(f + off, &type, 2);
		build_arp(g, f + l3_off, sip, dip);
		return;
	}

	switch (g->proto) {
	case GEN_UDP:
		l4proto = IPPROTO_UDP;
		break;
	case GEN_TCP:
		l4proto = IPPROTO_TCP;
		break;
	default:
		l4proto = g->ipv6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP;
		break;
	}
	if (g->ipv6) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(f + l3_off);
		u16 type = htons(ETH_P_IPV6);
		u32 s = htonl(sip), d = htonl(dip);

		memcpy(f + off, &type, 2);
		ip6->version = 6;
		ip6->priority = g->tos >> 4;
		ip6->flow_lbl[0] = (u8)((g->tos & 0xf) << 4);
		ip6->payload_len = htons((u16)(g->size - l3_off - sizeof(*ip6)));
		ip6->nexthdr = l4proto;
		ip6->hop_limit = g->ttl;
		ip6->saddr = g->src6;
		ip6->daddr = g->dst6;
		memcpy(&ip6->saddr.s6_addr[12], &s, 4);
		memcpy(&ip6->daddr.s6_addr[12], &d, 4);
		saddr = &ip6->saddr;
		daddr = &ip6->daddr;
		l4_off = l3_off + sizeof(*ip6);
	} else {
		struct iphdr *ip = (struct iphdr *)(f + l3_off);
		u16 type = htons(ETH_P_IP);

		memcpy(f + off, &type, 2);
		ip->version = 4;
		ip->ihl = 5;
		ip->tos = g->tos;
		ip->tot_len = htons((u16)(g->size - l3_off));
		ip->id = htons((u16)seq);
		ip->frag_off = htons(0x4000) /* DF */;
		ip->ttl = g->ttl;
		ip->protocol = l4proto;
		ip->saddr = htonl(sip);
		ip->daddr = htonl(dip);
		ip->check = nb_csum_compute(ip, sizeof(*ip));
		saddr = &ip->saddr;
		daddr = &ip->daddr;
		l4_off = l3_off + sizeof(*ip);
	}
	l4_len = g->size - l4_off;

	/* The pktgen header where it fits; the rest of the payload stays zero. */
	if (g->size - hdrs >= PKTGEN_HDR_LEN) {
		u32 magic = htonl(PKTGEN_MAGIC), nseq = htonl((u32)seq);

		memcpy(f + hdrs, &magic, 4);
		memcpy(f + hdrs + 4, &nseq, 4);
	}

	switch (g->proto) {
	case GEN_UDP: {
		struct udphdr *udp = (struct udphdr *)(f + l4_off);

		udp->source = htons(sport);
		udp->dest = htons(dport);
		udp->len = htons((u16)l4_len);
		sum = pseudo_sum(g, saddr, daddr, l4_len, IPPROTO_UDP);
		udp->check = nb_csum_fold(nb_csum_partial(udp, l4_len, sum));
		if (!udp->check)
			udp->check = 0xffff;	/* 0 means "no checksum" in UDP */
		break;
	}
	case GEN_TCP: {
		struct tcphdr *tcp = (struct tcphdr *)(f + l4_off);

		tcp->source = htons(sport);
		tcp->dest = htons(dport);
		tcp->seq = htonl((u32)seq);
		tcp->doff = 5;
		tcp->ack = 1;
		tcp->psh = 1;
		tcp->window = htons(65535);
		sum = pseudo_sum(g, saddr, daddr, l4_len, IPPROTO_TCP);
		tcp->check = nb_csum_fold(nb_csum_partial(tcp, l4_len, sum));
		break;
	}
	default: {
		u8 *icmp = f + l4_off;
		u16 id = htons(0x6e62), sq = htons((u16)seq), check;

		icmp[0] = g->ipv6 ? ICMPV6_ECHO_REQUEST : ICMP_ECHO;
		memcpy(icmp + 4, &id, 2);
		memcpy(icmp + 6, &sq, 2);
		sum = g->ipv6 ? pseudo_sum(g, saddr, daddr, l4_len, IPPROTO_ICMPV6) : 0;
		check = nb_csum_fold(nb_csum_partial(icmp, l4_len, sum));
		memcpy(icmp + 2, &check, 2);
		break;
	}
	}
}

/* Frames the rate allows queue q now, counting from its first burst; each has its share. */
static u64 rate_allows(const struct gen *g, struct gen_queue *q)
{
	struct timespec now;
	u64 ns, total;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!q->start.tv_sec && !q->start.tv_nsec)
		q->start = now;
	ns = (u64)(now.tv_sec - q->start.tv_sec) * 1000000000ull + now.tv_nsec - q->start.tv_nsec;
	/* One frame at once, then as time passes. */
	total = (u64)((double)ns * g->rate_pps / g->nr_queues / 1e9) + 1;
	return total > q->made ? total - q->made : 0;
}

/* Replace a 2- or 4-byte field at off, fixing the checksum at sum_off (if any) to match. */
static void patch16(u8 *f, u32 off, u16 val, u32 sum_off, bool fix)
{
	u16 old, sum;

	memcpy(&old, f + off, 2);
	if (old == val)
		return;
	memcpy(f + off, &val, 2);
	if (!fix)
		return;
	memcpy(&sum, f + sum_off, 2);
	nb_csum_replace2(&sum, old, val);
	memcpy(f + sum_off, &sum, 2);
}

static void patch32(u8 *f, u32 off, u32 val, const u32 *sum_offs, unsigned int nsums)
{
	u32 old;

	memcpy(&old, f + off, 4);
	if (old == val)
		return;
	memcpy(f + off, &val, 4);
	for (unsigned int i = 0; i < nsums; i++) {
		u16 sum;

		memcpy(&sum, f + sum_offs[i], 2);
		nb_csum_replace4(&sum, old, val);
		memcpy(f + sum_offs[i], &sum, 2);
	}
}

/* The fields of flow number i: each walks its range. */
static void flow_at(const struct gen *g, u64 i, struct gen_flow *fl)
{
	fl->saddr = htonl(walk(g->src_min, g->src_max, i));
	fl->daddr = htonl(walk(g->dst_min, g->dst_max, i));
	fl->sport = htons((u16)walk(g->sport_min, g->sport_max, i));
	fl->dport = htons((u16)walk(g->dport_min, g->dport_max, i));
}

/* The next value of a field in [min, max]: flow i + 1's after flow i's, without a division. */
static inline u32 step(u32 v, u32 min, u32 max)
{
	return v == max ? min : v + 1;
}

/*
 * Turn a copy of frame 0 into the frame number seq of flow fl: the addresses and ports walk
 * their ranges by flow, the IP id and the sequence numbers count by seq.
 */
static void patch_frame(const struct gen *g, u8 *f, const struct gen_flow *fl, u64 seq)
{
	u32 sip = fl->saddr, dip = fl->daddr;
	u16 sport = fl->sport, dport = fl->dport;
	u32 l3 = g->l3_off, l4 = g->l4_off, nseq = htonl((u32)seq);
	u32 l4_sum = l4 + (g->proto == GEN_UDP ? 6 : g->proto == GEN_TCP ? 16 : 2);
	bool pseudo = g->proto != GEN_ICMP || g->ipv6;	/* ICMPv4 has no pseudo header */
	u32 sums[2] = { l3 + 10, l4_sum };
	u16 check;

	if (g->proto == GEN_ARP) {
		patch32(f, l3 + 14, sip, NULL, 0);
		patch32(f, l3 + 24, dip, NULL, 0);
		return;
	}
	if (g->ipv6) {
		patch32(f, l3 + 8 + 12, sip, &l4_sum, 1);
		patch32(f, l3 + 24 + 12, dip, &l4_sum, 1);
	} else {
		patch16(f, l3 + 4, htons((u16)seq), l3 + 10, true);
		patch32(f, l3 + 12, sip, sums, pseudo ? 2 : 1);
		patch32(f, l3 + 16, dip, sums, pseudo ? 2 : 1);
	}
	switch (g->proto) {
	case GEN_UDP:
	case GEN_TCP:
		patch16(f, l4, sport, l4_sum, true);
		patch16(f, l4 + 2, dport, l4_sum, true);
		if (g->proto == GEN_TCP)
			patch32(f, l4 + 4, nseq, &l4_sum, 1);
		break;
	default:
		patch16(f, l4 + 6, htons((u16)seq), l4_sum, true);
		break;
	}
	if (g->has_pktgen_hdr)
		patch32(f, g->pktgen_off + 4, nseq, &l4_sum, 1);
	if (g->proto == GEN_UDP) {
		memcpy(&check, f + l4_sum, 2);
		if (!check) {
			check = 0xffff;	/* 0 means "no checksum" in UDP */
			memcpy(f + l4_sum, &check, 2);
		}
	}
}

/* Up to max frames of count for one queue: the claim of a shared count, taken per burst. */
static unsigned int claim(struct gen *g, unsigned int max)
{
	u64 claimed = __atomic_load_n(&g->claimed, __ATOMIC_RELAXED);
	unsigned int n;

	if (!g->count)
		return max;
	do {
		if (claimed >= g->count)
			return 0;
		n = g->count - claimed < max ? (unsigned int)(g->count - claimed) : max;
	} while (!__atomic_compare_exchange_n(&g->claimed, &claimed, claimed + n, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return n;
}

/* Frames are copied in whole blocks of this many bytes: fixed-size copies, made in line. */
#define GEN_COPY_BLOCK 64
_Static_assert(NB_PKT_MAX_LEN % GEN_COPY_BLOCK == 0, "a page's last block is in the page");

/*
 * The size bytes at src into pkt's page, in whole blocks (src has room for the last one, and so
 * has the page: NB_PKT_MAX_LEN is a multiple of the block): fixed-size copies, in line in the
 * burst's loop with the size held for the burst.
 */
static __always_inline void frame_copy_in_page(struct nb_pkt *pkt, const u8 *src, u32 size)
{
	u8 *dst = nb_pkt_put(pkt, size);
	u32 off = 0;

	do {
		memcpy(dst + off, src + off, GEN_COPY_BLOCK);
		off += GEN_COPY_BLOCK;
	} while (off < size);
}

/* Fill pkt with the size bytes at src: in the page, or continued in fragments when longer. */
static __always_inline int frame_fill(struct nb_pkt *pkt, const u8 *src, u32 size)
{
	if (unlikely(size > NB_PKT_MAX_LEN))
		return nb_pkt_append(pkt, src, size);
	frame_copy_in_page(pkt, src, size);
	return 0;
}

/* mode patch: want frames, each frame 0 with its flow and its sequence written in. */
static unsigned int make_patched(struct gen *g, struct gen_queue *q, struct nb_pkt **pkts,
				 unsigned int want)
{
	const u32 size = g->size;
	u64 made = q->made;

	for (unsigned int n = 0; n < want; n++) {
		struct nb_pkt *pkt = pkts[n];
		const struct gen_flow *fl;
		struct gen_flow one;

		if (unlikely(frame_fill(pkt, g->tmpl_buf + 2, size)))
			return n;
		if (q->flows) {
			fl = &q->flows[q->next_flow];
			if (++q->next_flow == q->nr_flows)
				q->next_flow = 0;
		} else {
			/* frame made + n is flow made + n: each field one step on */
			one.saddr = htonl(q->cur[0]);
			one.daddr = htonl(q->cur[1]);
			one.sport = htons((u16)q->cur[2]);
			one.dport = htons((u16)q->cur[3]);
			q->cur[0] = step(q->cur[0], g->src_min, g->src_max);
			q->cur[1] = step(q->cur[1], g->dst_min, g->dst_max);
			q->cur[2] = step(q->cur[2], g->sport_min, g->sport_max);
			q->cur[3] = step(q->cur[3], g->dport_min, g->dport_max);
			fl = &one;
		}
		/* the fields that walk are in the headers: in the linear part */
		patch_frame(g, pkt->data, fl, made + n);
	}
	return want;
}

/* mode copy: want frames, each a copy of the queue's next prebuilt frame. */
static unsigned int make_copies(struct gen *g, struct gen_queue *q, struct nb_pkt **pkts,
				unsigned int want)
{
	const u32 size = g->size, stride = g->stride, nr_frames = q->nr_frames;
	const u8 *frames = q->frames;
	u32 next = q->next_frame;
	unsigned int n;

	if (likely(size <= NB_PKT_MAX_LEN)) {
		/* every frame fits its page: no failure to test per frame */
		for (n = 0; n < want; n++) {
			frame_copy_in_page(pkts[n], frames + (size_t)next * stride, size);
			if (++next == nr_frames)
				next = 0;
		}
	} else {
		for (n = 0; n < want; n++) {
			if (unlikely(frame_fill(pkts[n], frames + (size_t)next * stride, size)))
				break;
			if (++next == nr_frames)
				next = 0;
		}
	}
	q->next_frame = next;
	return n;
}

static unsigned int gen_rx_queue_burst(struct nb_port *port, unsigned int qi,
				       struct nb_pkt **pkts, unsigned int max)
{
	struct gen *g = port->priv;
	struct gen_queue *q = &g->queues[qi % g->nr_queues];
	unsigned int n, want, got;

	if (q->flows && !q->nr_flows)
		return 0;	/* the indirection table sends no flow here */
	if (g->rate_pps) {
		u64 allowed = rate_allows(g, q);

		if (allowed < max)
			max = (unsigned int)allowed;
	}
	want = claim(g, max);
	/* the burst's packets at once; a frame longer than a page may still find none */
	got = nb_pkt_alloc_bulk(pkts, want);
	n = g->copy ? make_copies(g, q, pkts, got) : make_patched(g, q, pkts, got);
	if (n < got)
		nb_pkt_free_bulk(pkts + n, got - n);
	if (n < want)	/* what the pool could not give goes back to the count */
		__atomic_sub_fetch(&g->claimed, g->count ? want - n : 0, __ATOMIC_RELAXED);
	/* progress is read by other threads */
	nb_u64_stats_add(&q->made, n);
	return n;
}

/* A burst of one queue after the other, for a caller that polls the port as one queue. */
static unsigned int gen_rx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int max)
{
	struct gen *g = port->priv;

	for (unsigned int k = 0; k < g->nr_queues; k++) {
		unsigned int q = g->rx_cursor++ % g->nr_queues;
		unsigned int n = gen_rx_queue_burst(port, q, pkts, max);

		if (n)
			return n;
	}
	return 0;
}

static unsigned int gen_rx_queues(const struct nb_port *port)
{
	const struct gen *g = port->priv;

	return g->nr_queues;
}

static u64 gen_made(const struct gen *g)
{
	u64 made = 0;

	for (unsigned int i = 0; i < g->nr_queues; i++)
		made += nb_u64_stats_read(&g->queues[i].made);
	return made;
}

/* A generator that made its count makes no more; one still making never waits. */
static int gen_rx_queue_wait(struct nb_port *port, unsigned int qi, struct pollfd *pfd)
{
	const struct gen *g = port->priv;
	const struct gen_queue *q = &g->queues[qi % g->nr_queues];

	(void)pfd;
	if (q->flows && !q->nr_flows)
		return 0;
	return g->count && __atomic_load_n(&g->claimed, __ATOMIC_RELAXED) >= g->count ?
	       0 : -EAGAIN;
}

/* A generator's wire leads nowhere: what it transmits is taken, counted and freed. */
static unsigned int gen_tx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct gen *g = port->priv;

	nb_pkt_free_bulk(pkts, n);
	nb_u64_stats_add(&g->tx_packets, n);
	return n;
}

static bool parse_proto(const char *w, enum gen_proto *proto)
{
	static const char *const names[] = { "udp", "tcp", "icmp", "arp" };

	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(w, names[i])) {
			*proto = (enum gen_proto)i;
			return true;
		}
	}
	return false;
}

/* An address word: IPv4 into *v4, or IPv6 into *v6 (with *is6 set). */
static bool parse_addr(const char *w, u32 *v4, struct in6_addr *v6, bool *is6)
{
	struct in_addr a4;

	if (inet_pton(AF_INET, w, &a4) == 1) {
		*v4 = ntohl(a4.s_addr);
		*is6 = false;
		return true;
	}
	if (inet_pton(AF_INET6, w, v6) == 1) {
		u32 last;

		memcpy(&last, &v6->s6_addr[12], 4);
		*v4 = ntohl(last);
		*is6 = true;
		return true;
	}
	return false;
}

static int gen_parse(struct gen *g, int argc, char **argv, struct nb_log *log)
{
	struct in6_addr src6_min = { 0 }, src6_max = { 0 }, dst6_min = { 0 }, dst6_max = { 0 };
	bool v6 = false, any4 = false, size_set = false;

	for (int i = 0; i < argc; i++) {
		const char *key = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		u64 num = 0;
		bool is6 = false;

		if (!strcmp(key, "ipv6")) {
			g->ipv6 = true;
			continue;
		}
		if (!val) {
			nb_log_printf(log, "gen: \"%s\" needs a value\n", key);
			return -EINVAL;
		}
		i++;
		if (!strcmp(key, "count") && nb_port_parse_u64(val, &num)) {
			g->count = num;
		} else if ((!strcmp(key, "pkt_size") || !strcmp(key, "size")) &&
			   nb_port_parse_u64(val, &num) && num <= GEN_MAX_SIZE) {
			g->size = (u32)num;
			size_set = true;
		} else if ((!strcmp(key, "ratep") || !strcmp(key, "rate")) &&
			   nb_port_parse_u64(val, &num)) {
			g->rate_pps = num;
		} else if (!strcmp(key, "src_mac") && nb_port_parse_mac(val, g->src_mac)) {
		} else if (!strcmp(key, "dst_mac") && nb_port_parse_mac(val, g->dst_mac)) {
		} else if (!strcmp(key, "proto") && parse_proto(val, &g->proto)) {
		} else if ((!strcmp(key, "src_min") || !strcmp(key, "src")) &&
			   parse_addr(val, &g->src_min, &src6_min, &is6)) {
			v6 |= is6;
			any4 |= !is6;
			if (!strcmp(key, "src")) {
				g->src_max = g->src_min;
				src6_max = src6_min;
			}
		} else if (!strcmp(key, "src_max") && parse_addr(val, &g->src_max, &src6_max, &is6)) {
			v6 |= is6;
			any4 |= !is6;
		} else if ((!strcmp(key, "dst_min") || !strcmp(key, "dst")) &&
			   parse_addr(val, &g->dst_min, &dst6_min, &is6)) {
			v6 |= is6;
			any4 |= !is6;
			if (!strcmp(key, "dst")) {
				g->dst_max = g->dst_min;
				dst6_max = dst6_min;
			}
		} else if (!strcmp(key, "dst_max") && parse_addr(val, &g->dst_max, &dst6_max, &is6)) {
			v6 |= is6;
			any4 |= !is6;
		} else if ((!strcmp(key, "udp_src_min") || !strcmp(key, "sport_min")) &&
			   nb_port_parse_u64(val, &num) && num <= 0xffff) {
			g->sport_min = (u16)num;
		} else if ((!strcmp(key, "udp_src_max") || !strcmp(key, "sport_max")) &&
			   nb_port_parse_u64(val, &num) && num <= 0xffff) {
			g->sport_max = (u16)num;
		} else if ((!strcmp(key, "udp_dst_min") || !strcmp(key, "dport_min")) &&
			   nb_port_parse_u64(val, &num) && num <= 0xffff) {
			g->dport_min = (u16)num;
		} else if ((!strcmp(key, "udp_dst_max") || !strcmp(key, "dport_max")) &&
			   nb_port_parse_u64(val, &num) && num <= 0xffff) {
			g->dport_max = (u16)num;
		} else if (!strcmp(key, "vlan_id") && nb_port_parse_u64(val, &num) && num < 4096) {
			g->vlan = true;
			g->vlan_id = (u16)num;
		} else if (!strcmp(key, "vlan_p") && nb_port_parse_u64(val, &num) && num < 8) {
			g->vlan = true;
			g->vlan_prio = (u8)num;
		} else if (!strcmp(key, "ttl") && nb_port_parse_u64(val, &num) && num <= 255) {
			g->ttl = (u8)num;
		} else if (!strcmp(key, "tos") && nb_port_parse_u64(val, &num) && num <= 255) {
			g->tos = (u8)num;
		} else if (!strcmp(key, "queues") && nb_port_parse_u64(val, &num) && num &&
			   num <= GEN_MAX_QUEUES) {
			g->nr_queues = (u32)num;
		} else if (!strcmp(key, "mode") && (!strcmp(val, "patch") || !strcmp(val, "copy"))) {
			g->copy = !strcmp(val, "copy");
		} else {
			nb_log_printf(log, "gen: \"%s %s\" is wrong: unknown word or bad value\n",
				      key, val);
			return -EINVAL;
		}
	}

	if (v6 && any4) {
		nb_log_printf(log, "gen: IPv4 and IPv6 addresses mixed\n");
		return -EINVAL;
	}
	if (v6 || g->ipv6) {
		if (!v6) {
			nb_log_printf(log, "gen: ipv6 needs IPv6 addresses (src, dst)\n");
			return -EINVAL;
		}
		/* Only the last 32 bits walk a range: the rest must agree. */
		if ((memcmp(&src6_min, &src6_max, 12) && !IN6_IS_ADDR_UNSPECIFIED(&src6_max)) ||
		    (memcmp(&dst6_min, &dst6_max, 12) && !IN6_IS_ADDR_UNSPECIFIED(&dst6_max))) {
			nb_log_printf(log, "gen: IPv6 ranges may differ in their last 32 bits only\n");
			return -EINVAL;
		}
		g->ipv6 = true;
		g->src6 = src6_min;
		g->dst6 = dst6_min;
	}
	if (g->src_max < g->src_min)
		g->src_max = g->src_min;
	if (g->dst_max < g->dst_min)
		g->dst_max = g->dst_min;
	if (g->sport_max < g->sport_min)
		g->sport_max = g->sport_min;
	if (g->dport_max < g->dport_min)
		g->dport_max = g->dport_min;
	if (g->proto == GEN_ARP && g->ipv6) {
		nb_log_printf(log, "gen: proto arp is IPv4 only\n");
		return -EINVAL;
	}
	/* The default size grows to fit the headers (IPv6 TCP needs more than 60 bytes). */
	if (!size_set && g->size < headers_len(g))
		g->size = headers_len(g);
	if (g->size < headers_len(g)) {
		nb_log_printf(log, "gen: pkt_size %u is shorter than the headers (%u bytes)\n",
			      g->size, headers_len(g));
		return -EINVAL;
	}
	return 0;
}

static u64 gcd64(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Flows in one period of the ranges (the lcm of their sizes); 0 when above limit. */
static u64 flow_period(const struct gen *g, u64 limit)
{
	u64 sizes[4] = {
		(u64)g->src_max - g->src_min + 1, (u64)g->dst_max - g->dst_min + 1,
		(u64)g->sport_max - g->sport_min + 1, (u64)g->dport_max - g->dport_min + 1,
	};
	u64 period = 1;

	if (g->proto == GEN_ARP || g->proto == GEN_ICMP)
		sizes[2] = sizes[3] = 1;	/* no ports: the flows are the addresses */
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (sizes[i] > limit)
			return 0;
		period = period / gcd64(period, sizes[i]) * sizes[i];
		if (period > limit)
			return 0;
	}
	return period;
}

/*
 * Deal the flows of one period to the queues, as a NIC's RSS does: each flow's hash (the
 * datapath's own, of the frame the flow makes) picks an entry of the indirection table.
 */
static int rss_deal(struct gen *g, struct nb_log *log)
{
	u64 period = flow_period(g, GEN_RSS_MAX_FLOWS);
	u32 len = g->size < NB_PKT_MAX_LEN ? g->size : NB_PKT_MAX_LEN;
	u32 *queue_of;
	struct nb_pkt *pkt;
	int err = 0;

	if (!period) {
		nb_log_printf(log, "gen: queues %u: the ranges make more than %u flows before they "
			      "repeat (the lcm of their sizes); RSS deals at most that many\n",
			      g->nr_queues, GEN_RSS_MAX_FLOWS);
		return -EINVAL;
	}
	queue_of = calloc(period, sizeof(*queue_of));
	pkt = nb_pkt_alloc();
	if (!queue_of || !pkt) {
		err = -ENOMEM;
		goto out;
	}
	/* the headers are what the hash reads: the linear part is enough */
	memcpy(nb_pkt_put(pkt, len), g->tmpl_buf + 2, len);
	for (u64 f = 0; f < period; f++) {
		struct nb_flow_keys keys;
		struct gen_flow fl;

		flow_at(g, f, &fl);
		patch_frame(g, pkt->data, &fl, 0);
		nb_flow_dissect(pkt, &keys);
		queue_of[f] = nb_flow_hash(&keys) % GEN_RSS_TABLE_SIZE % g->nr_queues;
		g->queues[queue_of[f]].nr_flows++;
	}
	for (unsigned int i = 0; i < g->nr_queues; i++) {
		struct gen_queue *q = &g->queues[i];

		q->flows = malloc((q->nr_flows ? q->nr_flows : 1) * sizeof(*q->flows));
		if (!q->flows) {
			err = -ENOMEM;
			goto out;
		}
		q->nr_flows = 0;
	}
	for (u64 f = 0; f < period; f++) {
		struct gen_queue *q = &g->queues[queue_of[f]];

		flow_at(g, f, &q->flows[q->nr_flows++]);
	}
out:
	nb_pkt_free(pkt);
	free(queue_of);
	return err;
}

/*
 * mode copy: every queue's frames built once, one per flow of a period of the ranges, in the
 * order the queue makes them (its flows, or all of them for a generator of one queue), each
 * with the sequence numbers of its place in that order.
 */
static int build_copies(struct gen *g, struct nb_log *log)
{
	u64 period = g->nr_queues > 1 ? 0 : flow_period(g, GEN_RSS_MAX_FLOWS);

	if (g->nr_queues == 1 && !period) {
		nb_log_printf(log, "gen: mode copy: the ranges make more than %u flows before they "
			      "repeat (the lcm of their sizes); it keeps one frame per flow\n",
			      GEN_RSS_MAX_FLOWS);
		return -EINVAL;
	}
	if (g->nr_queues == 1)
		g->queues[0].nr_frames = (u32)period;
	else
		for (unsigned int i = 0; i < g->nr_queues; i++)
			g->queues[i].nr_frames = g->queues[i].nr_flows;
	/* all queues' frames together are one period of the flows */
	period = 0;
	for (unsigned int i = 0; i < g->nr_queues; i++)
		period += g->queues[i].nr_frames;
	g->stride = (g->size + GEN_COPY_BLOCK - 1) / GEN_COPY_BLOCK * GEN_COPY_BLOCK;
	if (period * g->stride > GEN_COPY_MAX_BYTES) {
		nb_log_printf(log, "gen: mode copy keeps one frame per flow: %llu flows of %u bytes "
			      "are more than %u MiB\n", (unsigned long long)period, g->size,
			      GEN_COPY_MAX_BYTES >> 20);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < g->nr_queues; i++) {
		struct gen_queue *q = &g->queues[i];

		if (!q->nr_frames)
			continue;
		/* zeroed: frame_fill reads a last frame's whole block */
		q->frames = calloc(q->nr_frames, g->stride);
		if (!q->frames)
			return -ENOMEM;
		for (u32 f = 0; f < q->nr_frames; f++) {
			u8 *frame = q->frames + (size_t)f * g->stride;
			struct gen_flow fl;

			if (q->flows)
				fl = q->flows[f];
			else
				flow_at(g, f, &fl);
			memcpy(frame, g->tmpl_buf + 2, g->size);
			patch_frame(g, frame, &fl, f);
		}
	}
	return 0;
}

static void gen_close(struct nb_port *port)
{
	struct gen *g = port->priv;

	for (unsigned int i = 0; g->queues && i < g->nr_queues; i++) {
		free(g->queues[i].flows);
		free(g->queues[i].frames);
	}
	free(g->queues);
	g->queues = NULL;
}

static int gen_open(struct nb_port *port, int argc, char **argv, struct nb_log *log)
{
	static const u8 src_mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };
	static const u8 dst_mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x02 };
	struct gen *g = port->priv;
	int err;

	g->count = 1000;
	g->size = 60;
	memcpy(g->src_mac, src_mac, ETH_ALEN);
	memcpy(g->dst_mac, dst_mac, ETH_ALEN);
	g->proto = GEN_UDP;
	g->src_min = g->src_max = 0x0a000001;	/* 10.0.0.1 */
	g->dst_min = g->dst_max = 0x0a000002;	/* 10.0.0.2 */
	g->sport_min = g->sport_max = 9;	/* discard, as pktgen */
	g->dport_min = g->dport_max = 9;
	g->ttl = 32;
	g->nr_queues = 1;
	err = gen_parse(g, argc, argv, log);
	if (err)
		return err;
	build_frame(g, g->tmpl_buf + 2, 0);
	g->l3_off = l2_len(g);
	g->l4_off = g->l3_off + (g->ipv6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr));
	g->has_pktgen_hdr = g->proto != GEN_ARP && g->size - headers_len(g) >= PKTGEN_HDR_LEN;
	g->pktgen_off = headers_len(g);
	g->queues = aligned_alloc(64, g->nr_queues * sizeof(*g->queues));
	if (!g->queues)
		return -ENOMEM;
	memset(g->queues, 0, g->nr_queues * sizeof(*g->queues));
	/* flow 0 first */
	g->queues[0].cur[0] = g->src_min;
	g->queues[0].cur[1] = g->dst_min;
	g->queues[0].cur[2] = g->sport_min;
	g->queues[0].cur[3] = g->dport_min;
	if (g->nr_queues > 1)
		err = rss_deal(g, log);
	if (!err && g->copy)
		err = build_copies(g, log);
	if (err)
		gen_close(port);
	return err;
}

static void gen_describe(const struct nb_port *port, char *buf, size_t size)
{
	const struct gen *g = port->priv;
	int len;

	if (g->count)
		len = snprintf(buf, size, "gen count %llu", (unsigned long long)g->count);
	else
		len = snprintf(buf, size, "gen");
	if (g->nr_queues > 1 && len > 0 && (size_t)len < size)
		len += snprintf(buf + len, size - (size_t)len, " queues %u", g->nr_queues);
	if (g->copy && len > 0 && (size_t)len < size)
		snprintf(buf + len, size - (size_t)len, " mode copy");
}

/* What queue q made is what the datapath received from it. */
static int gen_queue_stats(const struct nb_port *port, unsigned int q,
			   struct nb_port_queue_stats *st)
{
	const struct gen *g = port->priv;

	if (q >= g->nr_queues)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->rx_packets = nb_u64_stats_read(&g->queues[q].made);
	return 0;
}

static const struct nb_port_ops gen_port_ops;

int nb_gen_progress(const struct nb_port *port, u64 *made, u64 *count)
{
	const struct gen *g;

	if (!port || port->ops != &gen_port_ops)
		return -EINVAL;
	g = port->priv;
	*made = gen_made(g);
	*count = g->count;
	return 0;
}

static const struct nb_port_ops gen_port_ops = {
	.kind = "gen",
	.features = NB_NETIF_F_ALL,	/* in memory: frames as they are */
	.priv_size = sizeof(struct gen),
	.open = gen_open,
	.rx_burst = gen_rx_burst,
	.rx_queues = gen_rx_queues,
	.rx_queue_burst = gen_rx_queue_burst,
	.rx_queue_wait = gen_rx_queue_wait,
	.close = gen_close,
	.tx_burst = gen_tx_burst,
	.describe = gen_describe,
	.queue_stats = gen_queue_stats,
};
NB_PORT_REGISTER(gen_port_ops)
