// SPDX-License-Identifier: GPL-2.0
/*
 * Offloads in software (see gso.h): segmentation of TCP and UDP super-frames over IPv4 and
 * IPv6, as tcp_gso_segment and __udp_gso_segment cut them, and the choice validate_xmit_skb
 * makes between handing a frame to the device as it is and doing the work here.
 *
 * A segment is a new packet: the headers copied, then its share of the payload, then the
 * fields that differ (IP total length and id, IPv6 payload length, TCP sequence number and
 * flags, UDP length) and complete checksums, as a device without checksum offload needs them.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>

#include <netbpf/pkt.h>

#include "pkt/csum.h"
#include "pkt/flow.h"
#include "pkt/gso.h"
#include "pkt/pkt.h"

#define TCP_FLAG_FIN 0x01
#define TCP_FLAG_PSH 0x08
#define TCP_FLAG_CWR 0x80

/* Where the headers of a super-frame are, from data. */
struct gso_hdrs {
	u32 nhoff;
	u32 thoff;
	u32 hdr_len;		/* every header: where the payload starts */
	u8 l4_proto;
	bool ipv6;
};

/* GSO types software can segment; tunnels and UFO are not among them. */
#define GSO_SOFTWARE_TYPES                                                                  \
	(NB_SKB_GSO_TCPV4 | NB_SKB_GSO_TCPV6 | NB_SKB_GSO_TCP_ECN | NB_SKB_GSO_UDP_L4 |   \
	 NB_SKB_GSO_DODGY | NB_SKB_GSO_TCP_FIXEDID)

static int gso_parse(const struct nb_pkt *pkt, struct gso_hdrs *h)
{
	u32 headlen = nb_pkt_headlen(pkt);
	struct nb_flow_keys keys;

	if (pkt->gso_type & ~GSO_SOFTWARE_TYPES)
		return -EPROTONOSUPPORT;
	if (!nb_flow_dissect(pkt, &keys) || !keys.thoff)
		return -EINVAL;
	if (keys.is_frag)
		return -EPROTONOSUPPORT;
	if (keys.n_proto == htons(ETH_P_IP))
		h->ipv6 = false;
	else if (keys.n_proto == htons(ETH_P_IPV6))
		h->ipv6 = true;
	else
		return -EPROTONOSUPPORT;
	h->nhoff = keys.nhoff;
	h->thoff = keys.thoff;
	h->l4_proto = keys.ip_proto;
	if (h->l4_proto == IPPROTO_TCP && !(pkt->gso_type & NB_SKB_GSO_UDP_L4)) {
		if (h->thoff + 20 > headlen || (pkt->data[h->thoff + 12] >> 4) < 5)
			return -EINVAL;
		h->hdr_len = h->thoff + (pkt->data[h->thoff + 12] >> 4) * 4u;
	} else if (h->l4_proto == IPPROTO_UDP && (pkt->gso_type & NB_SKB_GSO_UDP_L4)) {
		h->hdr_len = h->thoff + 8;
	} else {
		/* an IPv6 extension header, UFO, or a TCP type on another protocol */
		return -EPROTONOSUPPORT;
	}
	if (h->hdr_len > headlen || h->hdr_len >= pkt->len)
		return -EINVAL;
	return 0;
}

/* The pseudo-header's sum for l4_len bytes of the segment's L4 (csum_tcpudp_nofold). */
static u32 pseudo_sum(const u8 *d, const struct gso_hdrs *h, u32 l4_len)
{
	u32 sum;

	if (!h->ipv6) {
		sum = nb_csum_partial(d + h->nhoff + 12, 8, 0);
		sum = nb_csum_add(sum, htons((u16)l4_len));
		return nb_csum_add(sum, htons(h->l4_proto));
	}
	sum = nb_csum_partial(d + h->nhoff + 8, 32, 0);
	sum = nb_csum_add(sum, htonl(l4_len));
	return nb_csum_add(sum, htonl(h->l4_proto));
}

static void put16(u8 *p, u16 host)
{
	u16 v = htons(host);

	memcpy(p, &v, 2);
}

/* Fix segment i's headers, n bytes of payload from byte off of the super-frame's payload. */
static void fix_segment(struct nb_pkt *seg, const struct gso_hdrs *h, u32 i, u32 off, u32 n,
			bool last, u32 gso_type, bool udp_no_csum)
{
	u8 *d = seg->data, *l4 = d + h->thoff;
	u32 l4_len = h->hdr_len - h->thoff + n;
	u16 csum;

	if (!h->ipv6) {
		u8 *ip = d + h->nhoff;
		u32 ihl = (ip[0] & 0xf) * 4u;
		u16 id;

		put16(ip + 2, (u16)(h->hdr_len - h->nhoff + n));
		if (!(gso_type & NB_SKB_GSO_TCP_FIXEDID)) {
			memcpy(&id, ip + 4, 2);
			put16(ip + 4, (u16)(ntohs(id) + i));
		}
		memset(ip + 10, 0, 2);
		csum = nb_csum_compute(ip, ihl);
		memcpy(ip + 10, &csum, 2);
	} else {
		put16(d + h->nhoff + 4, (u16)(h->hdr_len - h->nhoff - 40 + n));
	}
	if (h->l4_proto == IPPROTO_TCP) {
		u32 seq;

		memcpy(&seq, l4 + 4, 4);
		seq = htonl(ntohl(seq) + off);
		memcpy(l4 + 4, &seq, 4);
		if (!last)
			l4[13] &= (u8)~(TCP_FLAG_FIN | TCP_FLAG_PSH);
		if (i)
			l4[13] &= (u8)~TCP_FLAG_CWR;
		memset(l4 + 16, 0, 2);
	} else {
		put16(l4 + 4, (u16)l4_len);
		memset(l4 + 6, 0, 2);
		if (udp_no_csum)
			return;
	}
	csum = nb_csum_fold(nb_pkt_checksum(seg, h->thoff, l4_len, pseudo_sum(d, h, l4_len)));
	if (h->l4_proto == IPPROTO_UDP && !csum)
		csum = 0xffff;	/* CSUM_MANGLED_0 */
	memcpy(l4 + (h->l4_proto == IPPROTO_TCP ? 16 : 6), &csum, 2);
}

struct nb_pkt *nb_skb_gso_segment(struct nb_pkt *pkt, int *err)
{
	struct nb_pkt *head = NULL, **tail = &head;
	u32 mss = pkt->gso_size, off, i;
	bool udp_no_csum = false;
	struct gso_hdrs h;

	*err = gso_parse(pkt, &h);
	if (*err)
		return NULL;
	if (!mss) {
		*err = -EINVAL;
		return NULL;
	}
	/* IPv4 UDP without a checksum stays without one; a partial one gets completed */
	if (h.l4_proto == IPPROTO_UDP && !h.ipv6 && pkt->ip_summed != NB_CHECKSUM_PARTIAL) {
		u16 check;

		memcpy(&check, pkt->data + h.thoff + 6, 2);
		udp_no_csum = !check;
	}
	for (off = 0, i = 0; h.hdr_len + off < pkt->len; off += mss, i++) {
		u32 n = min_t(u32, mss, pkt->len - h.hdr_len - off);
		struct nb_pkt *seg = nb_pkt_alloc();

		if (!seg) {
			*err = -ENOMEM;
			goto fail;
		}
		*tail = seg;
		tail = &seg->next;
		nb_pkt_copy_header(seg, pkt);
		*err = nb_pkt_append(seg, pkt->data, h.hdr_len);
		if (!*err)
			*err = nb_pkt_append_from(seg, pkt, h.hdr_len + off, n);
		if (*err)
			goto fail;
		fix_segment(seg, &h, i, off, n, h.hdr_len + off + n >= pkt->len, pkt->gso_type,
			    udp_no_csum);
		seg->ip_summed = NB_CHECKSUM_NONE;
		nb_pkt_gso_reset(seg);
		nb_pkt_compute_data_pointers(seg);
	}
	nb_pkt_free(pkt);
	return head;
fail:
	nb_pkt_free_list(head);
	return NULL;
}

/* Can the port take this super-frame whole (netif_skb_features against gso_type)? */
static bool gso_ok(const struct nb_pkt *pkt, u32 features)
{
	u32 type = pkt->gso_type & ~(NB_SKB_GSO_DODGY | NB_SKB_GSO_TCP_FIXEDID), need = 0;

	if (features & NB_NETIF_F_GSO_ANY)
		return true;
	if (!type || (type & ~(NB_SKB_GSO_TCPV4 | NB_SKB_GSO_TCPV6 | NB_SKB_GSO_TCP_ECN |
			       NB_SKB_GSO_UDP_L4)))
		return false;
	if (type & NB_SKB_GSO_TCPV4)
		need |= NB_NETIF_F_TSO;
	if (type & NB_SKB_GSO_TCPV6)
		need |= NB_NETIF_F_TSO6;
	if (type & NB_SKB_GSO_TCP_ECN)
		need |= NB_NETIF_F_TSO_ECN;
	if (type & NB_SKB_GSO_UDP_L4)
		need |= NB_NETIF_F_GSO_UDP_L4;
	return (features & need) == need && (features & NB_NETIF_F_SG);
}

struct nb_pkt *nb_validate_xmit(struct nb_pkt *pkt, u32 features, int *err)
{
	struct nb_pkt *segs;

	*err = 0;
	if (nb_pkt_is_gso(pkt) && !gso_ok(pkt, features)) {
		segs = nb_skb_gso_segment(pkt, err);
		if (!segs || (features & NB_NETIF_F_SG))
			return segs;
		/* jumbo segments continue in fragments: a port without SG gets them linear */
		for (struct nb_pkt *seg = segs; seg; seg = seg->next) {
			*err = nb_pkt_linearize(seg);
			if (*err) {
				nb_pkt_free_list(segs);
				return NULL;
			}
		}
		return segs;
	}
	if (pkt->ip_summed == NB_CHECKSUM_PARTIAL && !(features & NB_NETIF_F_HW_CSUM)) {
		*err = nb_pkt_checksum_help(pkt);
		if (*err)
			return NULL;
	}
	if (nb_pkt_is_nonlinear(pkt) && !(features & NB_NETIF_F_SG)) {
		*err = nb_pkt_linearize(pkt);
		if (*err)
			return NULL;
	}
	return pkt;
}

bool nb_skb_gso_validate_network_len(const struct nb_pkt *pkt, u32 mtu)
{
	struct nb_flow_keys keys;
	u32 thlen = 0;

	/* headers nothing can find are not a length anyone could check: let the frame go */
	if (!nb_flow_dissect(pkt, &keys) || !keys.thoff)
		return true;
	if (pkt->gso_type & (NB_SKB_GSO_TCPV4 | NB_SKB_GSO_TCPV6)) {
		if (keys.ip_proto != IPPROTO_TCP || keys.thoff + 20u > nb_pkt_headlen(pkt))
			return true;
		thlen = (pkt->data[keys.thoff + 12] >> 4) * 4u;
	} else if (pkt->gso_type & NB_SKB_GSO_UDP_L4) {
		thlen = 8;	/* sizeof(struct udphdr) */
	}
	return keys.thoff - keys.nhoff + thlen + pkt->gso_size <= mtu;
}

bool nb_pkt_l4_csum_spot(const struct nb_pkt *pkt, struct nb_l4_csum_spot *spot)
{
	u32 headlen = nb_pkt_headlen(pkt), l4_len;
	struct nb_flow_keys keys;
	struct gso_hdrs h;
	const u8 *ip;

	if (!nb_flow_dissect(pkt, &keys) || !keys.thoff || keys.is_frag)
		return false;
	if (keys.ip_proto != IPPROTO_TCP && keys.ip_proto != IPPROTO_UDP)
		return false;
	ip = pkt->data + keys.nhoff;
	if (keys.n_proto == htons(ETH_P_IP)) {
		u32 tot = (u32)ip[2] << 8 | ip[3];

		if ((u32)(keys.thoff - keys.nhoff) > tot)
			return false;
		l4_len = tot - (u32)(keys.thoff - keys.nhoff);
		h.ipv6 = false;
	} else if (keys.n_proto == htons(ETH_P_IPV6)) {
		l4_len = (u32)ip[4] << 8 | ip[5];
		h.ipv6 = true;
	} else {
		return false;
	}
	spot->csum_off = keys.ip_proto == IPPROTO_TCP ? 16 : 6;
	if ((u32)keys.thoff + spot->csum_off + 2 > headlen || keys.thoff + l4_len > pkt->len)
		return false;
	h.nhoff = keys.nhoff;
	h.l4_proto = keys.ip_proto;
	spot->nhoff = keys.nhoff;
	spot->start = keys.thoff;
	spot->ipv6 = h.ipv6;
	spot->pseudo = pseudo_sum(pkt->data, &h, l4_len);
	return true;
}

bool nb_pkt_guess_offloads(struct nb_pkt *pkt, u32 mtu)
{
	struct nb_l4_csum_spot spot;
	u16 field, partial;
	u32 hdr_len, limit;

	if (pkt->ip_summed == NB_CHECKSUM_PARTIAL || !nb_pkt_l4_csum_spot(pkt, &spot))
		return false;
	memcpy(&field, pkt->data + spot.start + spot.csum_off, 2);
	partial = nb_csum_from32to16(spot.pseudo);
	/* 0 and 0xffff are one value to one's complement sums */
	if (field != partial && !(field == 0xffff && !partial) && !(!field && partial == 0xffff))
		return false;
	if (!nb_pkt_partial_csum_set(pkt, spot.start, spot.csum_off))
		return false;
	/* the headers in front of IP (tags too) and the mtu's worth behind them */
	limit = spot.nhoff + mtu;
	if (pkt->len <= limit || spot.csum_off != 16 || spot.start + 20 > nb_pkt_headlen(pkt))
		return true;
	hdr_len = spot.start + (pkt->data[spot.start + 12] >> 4) * 4u;
	if (hdr_len >= limit)
		return true;
	pkt->gso_size = (u16)(limit - hdr_len);
	pkt->gso_type = spot.ipv6 ? NB_SKB_GSO_TCPV6 : NB_SKB_GSO_TCPV4;
	pkt->gso_segs = (u16)((pkt->len - hdr_len + pkt->gso_size - 1) / pkt->gso_size);
	return true;
}
