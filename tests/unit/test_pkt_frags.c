// SPDX-License-Identifier: GPL-2.0
/*
 * Packets beyond a page: fragments (the linear part, then pages), pulling bytes into the linear
 * part and into a big buffer, clones and copies that share fragment pages, trimming, checksums
 * over fragments, completing a partial checksum, and software segmentation of TCP and UDP
 * super-frames, each segment checked against a checksum computed here from scratch.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>

#include "io/port.h"
#include "net/eth.h"
#include "pkt/csum.h"
#include "pkt/gso.h"
#include "pkt/pkt.h"
#include "test.h"

/* Byte i of a test frame: differs from page to page, so a misplaced fragment shows. */
static u8 pattern(u32 i)
{
	return (u8)(i * 7 + i / 251);
}

static struct nb_pkt *pattern_pkt(u32 len)
{
	static u8 buf[NB_PKT_MAX_FRAME];
	struct nb_pkt *pkt;

	for (u32 i = 0; i < len; i++)
		buf[i] = pattern(i);
	pkt = nb_pkt_alloc_data(buf, len);
	NB_ASSERT(pkt);
	return pkt;
}

/* Every byte of pkt is pattern(i + shift). */
static void assert_pattern(const struct nb_pkt *pkt, u32 shift)
{
	static u8 flat[NB_PKT_MAX_FRAME];

	NB_ASSERT_EQ(nb_pkt_copy_bits(pkt, 0, flat, pkt->len), 0);
	for (u32 i = 0; i < pkt->len; i++)
		if (flat[i] != pattern(i + shift))
			NB_FAIL("byte %u is 0x%x, not 0x%x", i, flat[i], pattern(i + shift));
}

NB_TEST(pkt_frags_layout)
{
	struct nb_pkt *pkt = pattern_pkt(9000);
	const struct nb_skb_shared_info *sh = nb_pkt_shinfo(pkt);
	u8 buf[16];

	NB_ASSERT_EQ(pkt->len, 9000);
	NB_ASSERT_EQ(nb_pkt_headlen(pkt), NB_PKT_MAX_LEN);
	NB_ASSERT_EQ(pkt->data_len, 9000 - NB_PKT_MAX_LEN);
	NB_ASSERT_EQ(sh->nr_frags, 2);
	NB_ASSERT_EQ(sh->frags[0].size, NB_PKT_BUF_SIZE);
	NB_ASSERT_EQ(sh->frags[1].size, 9000 - NB_PKT_MAX_LEN - NB_PKT_BUF_SIZE);
	NB_ASSERT_EQ(nb_pkt_tailroom(pkt), 0);	/* no tail to put bytes at */
	nb_pkt_compute_data_pointers(pkt);
	NB_ASSERT_EQ(pkt->bpf_data_end, pkt->data + NB_PKT_MAX_LEN);
	assert_pattern(pkt, 0);
	/* reads across the boundary of the linear part and between pages */
	NB_ASSERT(nb_pkt_header_pointer(pkt, 0, 16, buf) == pkt->data);
	NB_ASSERT(nb_pkt_header_pointer(pkt, NB_PKT_MAX_LEN - 8, 16, buf) == buf);
	NB_ASSERT_EQ(buf[8], pattern(NB_PKT_MAX_LEN));
	NB_ASSERT(!nb_pkt_header_pointer(pkt, 8990, 16, buf));
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 4);	/* a descriptor, the linear part, 2 pages */
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	/* the longest frame, and one byte more */
	pkt = pattern_pkt(NB_PKT_MAX_FRAME);
	NB_ASSERT_EQ(nb_pkt_shinfo(pkt)->nr_frags, NB_MAX_SKB_FRAGS);
	nb_pkt_free(pkt);
	NB_ASSERT(!nb_pkt_alloc_data(buf, NB_PKT_MAX_FRAME + 1));
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* Pulling moves fragment bytes into the linear part; beyond a page, into a big buffer. */
NB_TEST(pkt_frags_pull)
{
	struct nb_pkt *pkt = pattern_pkt(9000);
	u8 *old_head = pkt->head;

	nb_eth_type_trans(pkt, NULL);
	NB_ASSERT_EQ(nb_pkt_may_pull(pkt, 100), 0);		/* already linear */
	NB_ASSERT_EQ(pkt->head, old_head);
	NB_ASSERT_EQ(nb_pkt_may_pull(pkt, 9001), -EINVAL);	/* past the end */
	NB_ASSERT_EQ(nb_pkt_may_pull(pkt, 5000), 0);
	NB_ASSERT(pkt->head != old_head);
	NB_ASSERT_EQ(pkt->end, NB_PKT_BIG_BUF_SIZE - NB_PKT_TAILROOM);
	NB_ASSERT(nb_pkt_headlen(pkt) >= 5000);
	NB_ASSERT_EQ(pkt->len, 9000);
	NB_ASSERT_EQ(nb_pkt_network_header(pkt), pkt->data + ETH_HLEN);
	assert_pattern(pkt, 0);
	NB_ASSERT_EQ(nb_pkt_linearize(pkt), 0);
	NB_ASSERT_EQ(pkt->data_len, 0);
	NB_ASSERT_EQ(nb_pkt_headlen(pkt), 9000);
	assert_pattern(pkt, 0);
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A clone shares the fragments; pulling into one leaves the other as it was. */
NB_TEST(pkt_frags_clone_pull)
{
	struct nb_pkt *pkt = pattern_pkt(12000), *clone = nb_pkt_clone(pkt), *copy;

	NB_ASSERT(clone);
	NB_ASSERT_EQ(nb_pkt_ensure_writable(clone, 3600), 0);
	NB_ASSERT(clone->buf != pkt->buf);
	clone->data[3599] ^= 0xff;
	assert_pattern(pkt, 0);				/* the sharer kept its bytes */
	clone->data[3599] ^= 0xff;
	assert_pattern(clone, 0);
	copy = nb_pkt_copy(pkt);
	NB_ASSERT(copy);
	nb_pkt_free(pkt);
	assert_pattern(copy, 0);
	NB_ASSERT_EQ(nb_pkt_frags_make_private(copy), 0);
	nb_pkt_free(clone);
	assert_pattern(copy, 0);
	nb_pkt_free(copy);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(pkt_frags_trim_append)
{
	struct nb_pkt *pkt = pattern_pkt(10000), *clone;
	u8 more[600];

	nb_pkt_trim(pkt, 8000);
	NB_ASSERT_EQ(pkt->len, 8000);
	NB_ASSERT_EQ(nb_pkt_shinfo(pkt)->nr_frags, 2);
	assert_pattern(pkt, 0);
	/* appending fills the last page before taking another */
	for (u32 i = 0; i < sizeof(more); i++)
		more[i] = pattern(8000 + i);
	NB_ASSERT_EQ(nb_pkt_append(pkt, more, sizeof(more)), 0);
	NB_ASSERT_EQ(nb_pkt_shinfo(pkt)->nr_frags, 2);
	assert_pattern(pkt, 0);
	clone = nb_pkt_clone(pkt);
	nb_pkt_trim(pkt, 100);			/* into the linear part: no fragment left */
	NB_ASSERT_EQ(pkt->len, 100);
	NB_ASSERT_EQ(pkt->data_len, 0);
	assert_pattern(pkt, 0);
	assert_pattern(clone, 0);		/* the clone keeps its fragments */
	NB_ASSERT_EQ(clone->len, 8600);
	nb_pkt_free(pkt);
	nb_pkt_free(clone);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A reference checksum: 16-bit big-endian words, carried, over a flat buffer. */
static u16 ref_csum(const u8 *p, u32 len, u32 sum)
{
	for (u32 i = 0; i + 1 < len; i += 2)
		sum += (u32)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (u32)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

NB_TEST(pkt_frags_checksum)
{
	static u8 flat[NB_PKT_MAX_FRAME];
	struct nb_pkt *pkt = pattern_pkt(20000);
	static const u32 offs[] = { 0, 1, 3519, 3520, 3521, 7617 };

	nb_pkt_copy_bits(pkt, 0, flat, pkt->len);
	for (unsigned int i = 0; i < ARRAY_SIZE(offs); i++) {
		u32 off = offs[i], len = pkt->len - off - (i & 1);
		u16 got = nb_csum_fold(nb_pkt_checksum(pkt, off, len, 0));

		NB_ASSERT_EQ(ntohs(got), ref_csum(flat + off, len, 0));
	}
	nb_pkt_free(pkt);
}

/* IPv4 + TCP headers (20 + 32 with timestamps) in front of a payload of plen pattern bytes. */
static struct nb_pkt *tcp4_pkt(u32 plen, u8 flags)
{
	static u8 f[NB_PKT_MAX_FRAME];
	u32 len = ETH_HLEN + 20 + 32 + plen;

	memset(f, 0, 66);
	memcpy(f, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00", 14);
	f[14] = 0x45;
	f[16] = (u8)((len - 14) >> 8);
	f[17] = (u8)(len - 14);
	f[18] = 0x12;			/* id 0x1234 */
	f[19] = 0x34;
	f[20] = 0x40;			/* DF */
	f[22] = 64;
	f[23] = IPPROTO_TCP;
	memcpy(f + 26, "\x0a\0\0\x01\x0a\0\0\x02", 8);
	memcpy(f + 34, "\x30\x39\x00\x50\x10\x00\x00\x00\x00\x00\x00\x01", 12);
	f[46] = 8 << 4;		/* doff: 32 bytes */
	f[47] = flags;
	f[48] = 0x01;		/* window */
	for (u32 i = 0; i < plen; i++)
		f[66 + i] = pattern(i);
	return nb_pkt_alloc_data(f, len);
}

/* A segment: IP total length and header checksum, TCP checksum, all right. */
static void assert_tcp4_segment(const struct nb_pkt *seg, u32 plen, u32 seq_off, u16 id,
				u8 flags)
{
	static u8 f[NB_PKT_MAX_FRAME];
	u32 sum, seq;

	NB_ASSERT_EQ(seg->len, ETH_HLEN + 52 + plen);
	NB_ASSERT_EQ(nb_pkt_copy_bits(seg, 0, f, seg->len), 0);
	NB_ASSERT_EQ(f[16] << 8 | f[17], 52 + plen);
	NB_ASSERT_EQ(f[18] << 8 | f[19], id);
	NB_ASSERT_EQ(ref_csum(f + 14, 20, 0), 0);
	memcpy(&seq, f + 38, 4);
	NB_ASSERT_EQ(ntohl(seq), 0x10000000 + seq_off);
	NB_ASSERT_EQ(f[47], flags);
	/* the pseudo-header, then the segment: a right checksum sums to 0 */
	sum = 0x0a00 + 0x0001 + 0x0a00 + 0x0002 + IPPROTO_TCP + 32 + plen;
	NB_ASSERT_EQ(ref_csum(f + 34, 32 + plen, sum), 0);
	for (u32 i = 0; i < plen; i++)
		if (f[66 + i] != pattern(seq_off + i))
			NB_FAIL("payload byte %u of the segment at %u", i, seq_off);
	NB_ASSERT_EQ(seg->gso_size, 0);
	NB_ASSERT_EQ(seg->ip_summed, NB_CHECKSUM_NONE);
}

/*
 * A 9000-byte TCP super-frame with CWR, PSH and FIN, left partial by the stack: seven segments
 * of 1448 and one of 312, ids counting up, CWR on the first only, PSH and FIN on the last.
 */
NB_TEST(pkt_gso_tcp4)
{
	struct nb_pkt *pkt = tcp4_pkt(10448, 0x80 | 0x18 | 0x01), *segs, *seg;
	int err;
	u32 i = 0;

	nb_eth_type_trans(pkt, NULL);
	pkt->gso_size = 1448;
	pkt->gso_type = NB_SKB_GSO_TCPV4 | NB_SKB_GSO_TCP_ECN;
	NB_ASSERT(nb_pkt_partial_csum_set(pkt, 34, 16));
	pkt->mark = 42;
	segs = nb_skb_gso_segment(pkt, &err);
	NB_ASSERT_EQ(err, 0);
	for (seg = segs; seg; seg = seg->next, i++) {
		u32 plen = i < 7 ? 1448 : 10448 - 7 * 1448;
		u8 flags = i == 0 ? 0x80 | 0x10 : i < 7 ? 0x10 : 0x10 | 0x08 | 0x01;

		assert_tcp4_segment(seg, plen, i * 1448, (u16)(0x1234 + i), flags);
		NB_ASSERT_EQ(seg->mark, 42);
		NB_ASSERT_EQ(nb_pkt_network_header(seg), seg->data + ETH_HLEN);
	}
	NB_ASSERT_EQ(i, 8);
	nb_pkt_free_list(segs);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* Jumbo segments (9000-byte MTU) continue in fragments, each checksum right. */
NB_TEST(pkt_gso_tcp4_jumbo)
{
	struct nb_pkt *pkt = tcp4_pkt(60000, 0x10), *segs, *seg;
	int err;
	u32 i = 0, mss = 9000 - 52;

	nb_eth_type_trans(pkt, NULL);
	pkt->gso_size = (u16)mss;
	pkt->gso_type = NB_SKB_GSO_TCPV4 | NB_SKB_GSO_TCP_FIXEDID;
	segs = nb_skb_gso_segment(pkt, &err);
	NB_ASSERT(segs);
	for (seg = segs; seg; seg = seg->next, i++) {
		u32 plen = (i + 1) * mss <= 60000 ? mss : 60000 - i * mss;

		assert_tcp4_segment(seg, plen, i * mss, 0x1234, 0x10);	/* a fixed id */
	}
	NB_ASSERT_EQ(i, 7);
	nb_pkt_free_list(segs);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/*
 * The segments' length at the network layer (bpf_check_mtu with BPF_MTU_CHK_SEGS): IP 20,
 * TCP 32 (its own data offset) and gso_size; UDP's 8 for a UDP type, whatever the frame holds.
 */
NB_TEST(pkt_gso_validate_network_len)
{
	struct nb_pkt *pkt = tcp4_pkt(5000, 0x10);

	nb_eth_type_trans(pkt, NULL);
	pkt->gso_size = 1448;
	pkt->gso_type = NB_SKB_GSO_TCPV4;
	NB_ASSERT(nb_skb_gso_validate_network_len(pkt, 1500));
	NB_ASSERT(!nb_skb_gso_validate_network_len(pkt, 1499));
	pkt->gso_type = NB_SKB_GSO_UDP_L4;
	NB_ASSERT(nb_skb_gso_validate_network_len(pkt, 1476));
	NB_ASSERT(!nb_skb_gso_validate_network_len(pkt, 1475));
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* What cannot be segmented stays with the caller, untouched. */
NB_TEST(pkt_gso_refused)
{
	struct nb_pkt *pkt = tcp4_pkt(5000, 0x10);
	int err;

	nb_eth_type_trans(pkt, NULL);
	pkt->gso_size = 1448;
	pkt->gso_type = NB_SKB_GSO_TCPV4 | NB_SKB_GSO_UDP_TUNNEL;
	NB_ASSERT(!nb_skb_gso_segment(pkt, &err));
	NB_ASSERT_EQ(err, -EPROTONOSUPPORT);
	pkt->gso_type = NB_SKB_GSO_UDP_L4;		/* a UDP type on a TCP frame */
	NB_ASSERT(!nb_skb_gso_segment(pkt, &err));
	NB_ASSERT_EQ(err, -EPROTONOSUPPORT);
	NB_ASSERT_EQ(pkt->len, ETH_HLEN + 52 + 5000);
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* UDP over IPv6 (USO): a datagram a segment, lengths and checksums each. */
NB_TEST(pkt_gso_udp6)
{
	static u8 f[4000], seg_bytes[1600];
	u32 plen = 3000, len = ETH_HLEN + 40 + 8 + plen, i = 0;
	struct nb_pkt *pkt, *segs, *seg;
	int err;

	memset(f, 0, sizeof(f));
	memcpy(f + 12, "\x86\xdd", 2);
	f[14] = 0x60;
	f[18] = (u8)((8 + plen) >> 8);
	f[19] = (u8)(8 + plen);
	f[20] = IPPROTO_UDP;
	f[21] = 64;
	f[22 + 15] = 1;			/* ::1 -> ::2 */
	f[38 + 15] = 2;
	memcpy(f + 54, "\x04\xd2\x16\x2e", 4);
	for (u32 k = 0; k < plen; k++)
		f[62 + k] = pattern(k);
	pkt = nb_pkt_alloc_data(f, len);
	nb_eth_type_trans(pkt, NULL);
	pkt->gso_size = 1200;
	pkt->gso_type = NB_SKB_GSO_UDP_L4;
	segs = nb_skb_gso_segment(pkt, &err);
	NB_ASSERT(segs);
	for (seg = segs; seg; seg = seg->next, i++) {
		u32 n = i < 2 ? 1200 : 600, sum = 1 + 2 + IPPROTO_UDP + 8 + n;

		NB_ASSERT_EQ(seg->len, ETH_HLEN + 48 + n);
		nb_pkt_copy_bits(seg, 0, seg_bytes, seg->len);
		NB_ASSERT_EQ(seg_bytes[18] << 8 | seg_bytes[19], 8 + n);
		NB_ASSERT_EQ(seg_bytes[58] << 8 | seg_bytes[59], 8 + n);
		NB_ASSERT_EQ(ref_csum(seg_bytes + 54, 8 + n, sum), 0);
		NB_ASSERT_EQ(seg_bytes[62], pattern(i * 1200));
	}
	NB_ASSERT_EQ(i, 3);
	nb_pkt_free_list(segs);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A partial checksum completed in software sums right; the packet is CHECKSUM_NONE then. */
NB_TEST(pkt_checksum_help)
{
	struct nb_pkt *pkt = tcp4_pkt(6000, 0x10);
	static u8 f[7000];
	u32 l4_len = 32 + 6000;
	const u8 ph[12] = { 10, 0, 0, 1, 10, 0, 0, 2, 0, IPPROTO_TCP, (u8)(l4_len >> 8),
			    (u8)l4_len };
	u16 pseudo = htons((u16)~ref_csum(ph, sizeof(ph), 0));

	/* the stack's partial checksum: the uninverted pseudo-header sum */
	NB_ASSERT_EQ(nb_pkt_store_bits(pkt, 50, &pseudo, 2), 0);
	NB_ASSERT(nb_pkt_partial_csum_set(pkt, 34, 16));
	NB_ASSERT_EQ(nb_pkt_checksum_help(pkt), 0);
	NB_ASSERT_EQ(pkt->ip_summed, NB_CHECKSUM_NONE);
	nb_pkt_copy_bits(pkt, 0, f, pkt->len);
	NB_ASSERT_EQ(ref_csum(f + 34, 32 + 6000,
			      0x0a00 + 0x0001 + 0x0a00 + 0x0002 + IPPROTO_TCP + 32 + 6000), 0);
	/* a field outside the packet: refused */
	NB_ASSERT(!nb_pkt_partial_csum_set(pkt, 34, NB_PKT_MAX_LEN));
	nb_pkt_free(pkt);
}

/* What a port without offloads gets: segments, complete checksums, linear frames. */
NB_TEST(pkt_validate_xmit)
{
	struct nb_pkt *pkt = tcp4_pkt(9000, 0x10), *out;
	int err, n = 0;

	nb_eth_type_trans(pkt, NULL);
	pkt->gso_size = 1448;
	pkt->gso_type = NB_SKB_GSO_TCPV4;
	/* a port with TSO takes it whole */
	out = nb_validate_xmit(pkt, NB_NETIF_F_SG | NB_NETIF_F_HW_CSUM | NB_NETIF_F_TSO, &err);
	NB_ASSERT(out == pkt && !pkt->next);
	/* one without gets segments */
	out = nb_validate_xmit(pkt, NB_NETIF_F_SG | NB_NETIF_F_HW_CSUM | NB_NETIF_F_TSO6, &err);
	for (struct nb_pkt *s = out; s; s = s->next, n++)
		NB_ASSERT(!nb_pkt_is_nonlinear(s));
	NB_ASSERT_EQ(n, 7);
	nb_pkt_free_list(out);
	/* a jumbo frame without SG becomes linear */
	pkt = tcp4_pkt(8000, 0x10);
	out = nb_validate_xmit(pkt, 0, &err);
	NB_ASSERT(out == pkt && !nb_pkt_is_nonlinear(pkt));
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
