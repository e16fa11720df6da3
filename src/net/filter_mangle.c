// SPDX-License-Identifier: GPL-2.0
/*
 * The packet-changing helpers of tc programs (net/core/filter.c): VLAN push/pop, protocol and
 * type changes, growing and shrinking the packet at either end or between its headers, pulling
 * data into reach, ECN. They run with data at the mac header, as at the tc hooks, and leave
 * the program fresh packet pointers (every one of them changes packet data for the verifier).
 *
 * Where the kernel would reallocate the head, the bytes move within the buffer, or to a big one
 * (nb_pkt_cow_head, nb_pkt_grow_tailroom). GSO packets keep their segmentation right as the
 * kernel's helpers do: a header that grows or shrinks changes gso_size (unless
 * BPF_F_ADJ_ROOM_FIXED_GSO), marks the headers for checking (SKB_GSO_DODGY) and the segment count
 * for recounting, an encapsulation adds its tunnel type; UDP super-frames, whose gso_size delimits
 * datagrams, only take fixed ones.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>

#include "pkt/csum.h"
#include "net/filter.h"
#include "pkt/pkt.h"

#define CTX_PKT(r1) ((struct nb_pkt *)(uintptr_t)(r1))

/* The largest packet the kernel lets a tc program make (SKB_MAX_ALLOC on x86_64). */
#define NB_SKB_MAX_LEN 16064
#define VLAN_HLEN 4

/* Newer than the uapi headers of the build machine (Linux 6.3). */
#define NB_F_ADJ_ROOM_DECAP_L3_IPV4 (1ULL << 7)
#define NB_F_ADJ_ROOM_DECAP_L3_IPV6 (1ULL << 8)
#define NB_F_ADJ_ROOM_DECAP_L3_MASK (NB_F_ADJ_ROOM_DECAP_L3_IPV4 | NB_F_ADJ_ROOM_DECAP_L3_IPV6)
#define NB_F_ADJ_ROOM_ENCAP_L3_MASK (BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L3_IPV6)
#define NB_F_ADJ_ROOM_MASK                                                                  \
	(BPF_F_ADJ_ROOM_FIXED_GSO | NB_F_ADJ_ROOM_ENCAP_L3_MASK | BPF_F_ADJ_ROOM_ENCAP_L4_GRE | \
	 BPF_F_ADJ_ROOM_ENCAP_L4_UDP | BPF_F_ADJ_ROOM_ENCAP_L2_ETH |                        \
	 BPF_F_ADJ_ROOM_ENCAP_L2(BPF_ADJ_ROOM_ENCAP_L2_MASK) | NB_F_ADJ_ROOM_DECAP_L3_MASK)

/*
 * A GSO packet (skb_is_gso): a super-frame from a port with offloads, with its type, or one a
 * test run makes (gso_size from ctx_in) without a type, which counts as a non-TCP one.
 */
static bool pkt_is_gso(const struct nb_pkt *pkt)
{
	return nb_pkt_is_gso(pkt);
}

/* UDP's gso_size delimits datagrams: only a fixed one survives a header change. */
static bool gso_room_unsupported(const struct nb_pkt *pkt, u64 flags)
{
	return pkt_is_gso(pkt) && !nb_pkt_is_gso_tcp(pkt) &&
	       (!(pkt->gso_type & NB_SKB_GSO_UDP_L4) || !(flags & BPF_F_ADJ_ROOM_FIXED_GSO));
}

/* The headers changed: segments must be checked again and counted anew. */
static void gso_headers_changed(struct nb_pkt *pkt, u32 gso_type)
{
	pkt->gso_type |= NB_SKB_GSO_DODGY | gso_type;
	pkt->gso_segs = 0;
}

static bool eth_type_vlan(__be16 proto)
{
	return proto == htons(ETH_P_8021Q) || proto == htons(ETH_P_8021AD);
}

static u32 mac_header_len(const struct nb_pkt *pkt)
{
	return (u32)(pkt->network_header - pkt->mac_header);
}

static u32 network_offset(const struct nb_pkt *pkt)
{
	return (u32)(nb_pkt_network_header(pkt) - pkt->data);
}

/* The protocol an encapsulated header names (vlan_set_encap_proto). */
static __be16 encap_proto(const u8 *after_tag)
{
	__be16 proto;

	memcpy(&proto, after_tag, 2);
	if (ntohs(proto) >= ETH_P_802_3_MIN)
		return proto;
	if (after_tag[2] == 0xff && after_tag[3] == 0xff)
		return htons(ETH_P_802_3);
	return htons(ETH_P_802_2);
}

/* Take the in-frame tag behind the MAC addresses out (__skb_vlan_pop). */
static int vlan_pop_inband(struct nb_pkt *pkt, u16 *tci)
{
	__be16 ntci;
	int err;

	if (pkt->data != nb_pkt_mac_header(pkt))
		return -EINVAL;
	err = nb_pkt_ensure_writable(pkt, ETH_HLEN + VLAN_HLEN);
	if (err)
		return err;
	memcpy(&ntci, pkt->data + ETH_HLEN, 2);
	*tci = ntohs(ntci);
	pkt->protocol = encap_proto(pkt->data + ETH_HLEN + 2);
	memmove(pkt->data + VLAN_HLEN, pkt->data, 2 * ETH_ALEN);
	nb_pkt_pull(pkt, VLAN_HLEN);
	pkt->mac_header += VLAN_HLEN;
	if (network_offset(pkt) < ETH_HLEN)
		nb_pkt_set_network_header(pkt, ETH_HLEN);
	return 0;
}

static void vlan_put_tag(struct nb_pkt *pkt, __be16 proto, u16 tci)
{
	pkt->vlan_present = 1;
	pkt->vlan_proto = proto;
	pkt->vlan_tci = tci;
}

/* bpf_skb_vlan_push: the new tag is offloaded; an offloaded one goes into the frame first. */
static u64 bpf_skb_vlan_push(u64 r1, u64 vlan_proto, u64 vlan_tci, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	__be16 proto = (__be16)vlan_proto;
	int err = 0;

	if (!eth_type_vlan(proto))
		proto = htons(ETH_P_8021Q);
	if (pkt->vlan_present) {
		if (pkt->data != nb_pkt_mac_header(pkt)) {
			err = -EINVAL;
			goto out;
		}
		err = nb_pkt_vlan_insert_tag(pkt, pkt->vlan_proto, pkt->vlan_tci);
		if (err)
			goto out;
		pkt->protocol = pkt->vlan_proto;
	}
	vlan_put_tag(pkt, proto, (u16)vlan_tci);
out:
	nb_pkt_compute_data_pointers(pkt);
	return (u64)(s64)err;
}

static const struct nb_func_proto bpf_skb_vlan_push_proto = {
	.func = bpf_skb_vlan_push,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

/* bpf_skb_vlan_pop: the offloaded tag goes; an in-frame one behind it becomes offloaded. */
static u64 bpf_skb_vlan_pop(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	__be16 proto;
	u16 tci;
	int err = 0;

	if (pkt->vlan_present) {
		pkt->vlan_present = 0;
		pkt->vlan_tci = 0;
		pkt->vlan_proto = 0;
	} else {
		if (!eth_type_vlan(pkt->protocol))
			goto out;
		err = vlan_pop_inband(pkt, &tci);
		if (err)
			goto out;
	}
	if (!eth_type_vlan(pkt->protocol))
		goto out;
	proto = pkt->protocol;
	err = vlan_pop_inband(pkt, &tci);
	if (!err)
		vlan_put_tag(pkt, proto, tci);
out:
	nb_pkt_compute_data_pointers(pkt);
	return (u64)(s64)err;
}

static const struct nb_func_proto bpf_skb_vlan_pop_proto = {
	.func = bpf_skb_vlan_pop,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

/*
 * Insert len zero bytes at off from data (bpf_skb_net_hdr_push): what is before off moves to
 * the front, the mac and network headers move back with it.
 */
static int net_hdr_push(struct nb_pkt *pkt, u32 off, u32 len)
{
	bool trans_same = pkt->transport_header == pkt->network_header;
	int err = nb_pkt_may_pull(pkt, off);

	if (!err)
		err = nb_pkt_cow_head(pkt, len);
	if (err)
		return err;
	nb_pkt_push(pkt, len);
	memmove(pkt->data, pkt->data + len, off);
	memset(pkt->data + off, 0, len);
	pkt->mac_header -= len;
	pkt->network_header -= len;
	if (trans_same)
		pkt->transport_header = pkt->network_header;
	return 0;
}

/* Remove len bytes at off from data (bpf_skb_net_hdr_pop). */
static int net_hdr_pop(struct nb_pkt *pkt, u32 off, u32 len)
{
	bool trans_same = pkt->transport_header == pkt->network_header;

	if (nb_pkt_may_pull(pkt, off + len))
		return -ENOMEM;
	memmove(pkt->data + len, pkt->data, off);
	nb_pkt_pull(pkt, len);
	pkt->mac_header += len;
	pkt->network_header += len;
	if (trans_same)
		pkt->transport_header = pkt->network_header;
	return 0;
}

/*
 * bpf_skb_change_proto: IPv4 <-> IPv6 (NAT64) by making room for the other header after L2;
 * the program writes the header itself.
 */
static u64 bpf_skb_change_proto(u64 r1, u64 proto, u64 flags, u64 r4, u64 r5)
{
	const u32 len_diff = sizeof(struct ipv6hdr) - sizeof(struct iphdr);
	struct nb_pkt *pkt = CTX_PKT(r1);
	__be16 to = (__be16)proto;
	int err;

	if (flags)
		return (u64)-EINVAL;
	if (pkt->protocol == htons(ETH_P_IP) && to == htons(ETH_P_IPV6)) {
		err = net_hdr_push(pkt, mac_header_len(pkt), len_diff);
		if (!err) {
			/* the segments' type follows; the program writes the new header */
			if (pkt->gso_type & NB_SKB_GSO_TCPV4)
				pkt->gso_type ^= NB_SKB_GSO_TCPV4 | NB_SKB_GSO_TCPV6;
			pkt->protocol = htons(ETH_P_IPV6);
			nb_pkt_clear_hash(pkt);
		}
	} else if (pkt->protocol == htons(ETH_P_IPV6) && to == htons(ETH_P_IP)) {
		err = nb_pkt_unclone(pkt);
		if (!err)
			err = net_hdr_pop(pkt, mac_header_len(pkt), len_diff);
		if (!err) {
			if (pkt->gso_type & NB_SKB_GSO_TCPV6)
				pkt->gso_type ^= NB_SKB_GSO_TCPV4 | NB_SKB_GSO_TCPV6;
			pkt->protocol = htons(ETH_P_IP);
			nb_pkt_clear_hash(pkt);
		}
	} else {
		err = -NB_ENOTSUPP;
	}
	nb_pkt_compute_data_pointers(pkt);
	return (u64)(s64)err;
}

static const struct nb_func_proto bpf_skb_change_proto_proto = {
	.func = bpf_skb_change_proto,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

/* bpf_skb_change_type: among host, broadcast, multicast and other-host only. */
static u64 bpf_skb_change_type(u64 r1, u64 pkt_type, u64 r3, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);

	if (pkt->pkt_type > PACKET_OTHERHOST || (u32)pkt_type > PACKET_OTHERHOST)
		return (u64)-EINVAL;
	pkt->pkt_type = (u8)pkt_type;
	return 0;
}

static const struct nb_func_proto bpf_skb_change_type_proto = {
	.func = bpf_skb_change_type,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING },
};

/*
 * The shortest a program may cut the packet: to its network or transport header, and past a
 * checksum left to the device (__bpf_skb_min_len).
 */
static u32 skb_min_len(const struct nb_pkt *pkt)
{
	if (pkt->ip_summed == NB_CHECKSUM_PARTIAL)
		return (u32)nb_pkt_checksum_start_offset(pkt) + pkt->csum_offset + sizeof(u16);
	if (pkt->transport_header != NB_PKT_HDR_UNSET)
		return (u32)(nb_pkt_transport_header(pkt) - pkt->data);
	return network_offset(pkt);
}

/* bpf_skb_change_tail: grow (zero-filled) or trim the packet to new_len. */
static u64 bpf_skb_change_tail(u64 r1, u64 new_len, u64 flags, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	u32 len = (u32)new_len;
	int err;

	if (flags || len > NB_SKB_MAX_LEN || len < skb_min_len(pkt)) {
		err = -EINVAL;
		goto out;
	}
	if (pkt->encapsulation) {
		err = -NB_ENOTSUPP;
		goto out;
	}
	/* a slow path: the packet becomes linear and private, its offloads dropped */
	err = nb_pkt_ensure_writable(pkt, pkt->len);
	if (err)
		goto out;
	if (len > pkt->len) {
		u32 grow = len - pkt->len;

		err = nb_pkt_grow_tailroom(pkt, grow);
		if (err)
			goto out;
		memset(nb_pkt_put(pkt, grow), 0, grow);
	} else {
		nb_pkt_trim(pkt, len);
	}
	if (pkt_is_gso(pkt))
		nb_pkt_gso_reset(pkt);
out:
	nb_pkt_compute_data_pointers(pkt);
	return (u64)(s64)err;
}

static const struct nb_func_proto bpf_skb_change_tail_proto = {
	.func = bpf_skb_change_tail,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

/* bpf_skb_change_head: head_room zero bytes in front; they become the new mac header. */
static u64 bpf_skb_change_head(u64 r1, u64 head_room, u64 flags, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	u32 room = (u32)head_room, new_len = pkt->len + room;
	int err;

	if (flags || (!pkt_is_gso(pkt) && new_len > NB_SKB_MAX_LEN) || new_len < pkt->len) {
		err = -EINVAL;
		goto out;
	}
	err = nb_pkt_cow_head(pkt, room);
	if (err)
		goto out;
	memset(nb_pkt_push(pkt, room), 0, room);
	nb_pkt_reset_mac_header(pkt);
out:
	nb_pkt_compute_data_pointers(pkt);
	return (u64)(s64)err;
}

static const struct nb_func_proto bpf_skb_change_head_proto = {
	.func = bpf_skb_change_head,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

/* bpf_skb_pull_data: make len bytes (all when 0) private and directly reachable. */
static u64 bpf_skb_pull_data(u64 r1, u64 len, u64 r3, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	int err = nb_pkt_ensure_writable(pkt, (u32)len ? (u32)len : nb_pkt_headlen(pkt));

	nb_pkt_compute_data_pointers(pkt);
	return (u64)(s64)err;
}

static const struct nb_func_proto bpf_skb_pull_data_proto = {
	.func = bpf_skb_pull_data,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING },
};

/* The IP header length the ECN and room helpers count with; 0 for other protocols. */
static u32 net_base_len(__be16 proto)
{
	if (proto == htons(ETH_P_IP))
		return sizeof(struct iphdr);
	if (proto == htons(ETH_P_IPV6))
		return sizeof(struct ipv6hdr);
	return 0;
}

/* IP_ECN_set_ce and IP6_ECN_set_ce: mark congestion on an ECN-capable packet. */
static int ecn_set_ce(struct nb_pkt *pkt)
{
	u8 *nh = nb_pkt_network_header(pkt);
	u8 *tail = pkt->data + nb_pkt_headlen(pkt);

	if (pkt->protocol == htons(ETH_P_IP)) {
		u32 ecn;
		u16 check, add;

		if (nh + sizeof(struct iphdr) > tail)
			return 0;
		ecn = (nh[1] + 1) & 3;	/* NOT_ECT 01, ECT_1 10, ECT_0 11, CE 00 */
		if (!(ecn & 2))
			return !ecn;
		/* The kernel's incremental checksum update for the TOS change. */
		add = (u16)(htons(0xfffb) + htons((u16)ecn));
		memcpy(&check, nh + 10, 2);
		check = nb_csum16_add(check, add);
		memcpy(nh + 10, &check, 2);
		nh[1] |= 3;
		return 1;
	}
	if (nh + sizeof(struct ipv6hdr) > tail)
		return 0;
	/* The traffic class spans bytes 0 and 1: ECN is bits 4-5 of byte 1. */
	if (!((nh[1] >> 4) & 3))
		return 0;
	nh[1] |= 3 << 4;
	return 1;
}

/* bpf_skb_ecn_set_ce: 1 when the packet carries CE now, 0 when it cannot. */
static u64 bpf_skb_ecn_set_ce(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	u32 hdr_len = net_base_len(pkt->protocol);

	if (!hdr_len || pkt->len < hdr_len || pkt->network_header == NB_PKT_HDR_UNSET)
		return 0;
	if (nb_pkt_shared_data(pkt))
		return 0;
	return (u64)ecn_set_ce(pkt);
}

static const struct nb_func_proto bpf_skb_ecn_set_ce_proto = {
	.func = bpf_skb_ecn_set_ce,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

/* bpf_skb_net_grow: room for an outer header at off, with the encapsulation flags. */
static int net_grow(struct nb_pkt *pkt, u32 off, u32 len_diff, u64 flags)
{
	u32 inner_mac_len = (u32)(flags >> BPF_ADJ_ROOM_ENCAP_L2_SHIFT) & BPF_ADJ_ROOM_ENCAP_L2_MASK;
	bool encap = flags & NB_F_ADJ_ROOM_ENCAP_L3_MASK;
	u32 mac_len = 0, gso_type = 0;
	int err;

	if (gso_room_unsupported(pkt, flags))
		return -NB_ENOTSUPP;
	if (flags & NB_F_ADJ_ROOM_DECAP_L3_MASK)
		return -EINVAL;
	if (encap) {
		if ((flags & BPF_F_ADJ_ROOM_ENCAP_L3_IPV4) && (flags & BPF_F_ADJ_ROOM_ENCAP_L3_IPV6))
			return -EINVAL;
		if ((flags & BPF_F_ADJ_ROOM_ENCAP_L4_GRE) && (flags & BPF_F_ADJ_ROOM_ENCAP_L4_UDP))
			return -EINVAL;
		if ((flags & BPF_F_ADJ_ROOM_ENCAP_L2_ETH) && inner_mac_len < ETH_HLEN)
			return -EINVAL;
		if (pkt->encapsulation)
			return -EALREADY;
		mac_len = mac_header_len(pkt);
		if (inner_mac_len > len_diff)
			return -EINVAL;
	}
	err = net_hdr_push(pkt, off, len_diff);
	if (err)
		return err;
	if (encap) {
		pkt->encapsulation = 1;
		nb_pkt_set_network_header(pkt, (int)mac_len);
		if (flags & BPF_F_ADJ_ROOM_ENCAP_L4_UDP)
			gso_type = NB_SKB_GSO_UDP_TUNNEL;
		else if (flags & BPF_F_ADJ_ROOM_ENCAP_L4_GRE)
			gso_type = NB_SKB_GSO_GRE;
		else if (flags & BPF_F_ADJ_ROOM_ENCAP_L3_IPV6)
			gso_type = NB_SKB_GSO_IPXIP6;
		else
			gso_type = NB_SKB_GSO_IPXIP4;
		if (pkt->protocol == htons(ETH_P_IP) && (flags & BPF_F_ADJ_ROOM_ENCAP_L3_IPV6))
			pkt->protocol = htons(ETH_P_IPV6);
		else if (pkt->protocol == htons(ETH_P_IPV6) &&
			 (flags & BPF_F_ADJ_ROOM_ENCAP_L3_IPV4))
			pkt->protocol = htons(ETH_P_IP);
	}
	if (pkt_is_gso(pkt)) {
		/* the headers grew: segments carry less payload (skb_decrease_gso_size) */
		if (!(flags & BPF_F_ADJ_ROOM_FIXED_GSO))
			pkt->gso_size -= (u16)len_diff;
		gso_headers_changed(pkt, gso_type);
	}
	return 0;
}

/* bpf_skb_net_shrink: remove len_diff bytes at off; decapsulation names the inner protocol. */
static int net_shrink(struct nb_pkt *pkt, u32 off, u32 len_diff, u64 flags)
{
	int err;

	if (flags & NB_F_ADJ_ROOM_ENCAP_L3_MASK)
		return -EINVAL;
	if (gso_room_unsupported(pkt, flags))
		return -NB_ENOTSUPP;
	err = nb_pkt_unclone(pkt);
	if (err)
		return err;
	err = net_hdr_pop(pkt, off, len_diff);
	if (err)
		return err;
	if (flags & NB_F_ADJ_ROOM_DECAP_L3_IPV4)
		pkt->protocol = htons(ETH_P_IP);
	else if (flags & NB_F_ADJ_ROOM_DECAP_L3_IPV6)
		pkt->protocol = htons(ETH_P_IPV6);
	if (pkt_is_gso(pkt)) {
		/* the headers shrank: segments may carry more (skb_increase_gso_size) */
		if (!(flags & BPF_F_ADJ_ROOM_FIXED_GSO))
			pkt->gso_size += (u16)len_diff;
		gso_headers_changed(pkt, 0);
	}
	return 0;
}

/*
 * bpf_skb_adjust_room: grow or shrink the room after the mac header (BPF_ADJ_ROOM_MAC) or after
 * the network header (BPF_ADJ_ROOM_NET), for tunnels and header changes.
 */
static u64 bpf_skb_adjust_room(u64 r1, u64 len_diff_arg, u64 mode, u64 flags, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	s32 len_diff = (s32)len_diff_arg;
	u32 len_diff_abs = len_diff < 0 ? -(u32)len_diff : (u32)len_diff;
	u32 len_min = net_base_len(pkt->protocol), len_cur, off;
	bool shrink = len_diff < 0;
	int err;

	if (flags & ~(u64)(NB_F_ADJ_ROOM_MASK | BPF_F_ADJ_ROOM_NO_CSUM_RESET))
		return (u64)-EINVAL;
	if (len_diff_abs > 0xfff)
		return (u64)-EFAULT;
	if (!len_min)
		return (u64)-NB_ENOTSUPP;
	off = mac_header_len(pkt);
	switch ((u32)mode) {
	case BPF_ADJ_ROOM_NET:
		off += len_min;
		break;
	case BPF_ADJ_ROOM_MAC:
		break;
	default:
		return (u64)-NB_ENOTSUPP;
	}
	if (flags & NB_F_ADJ_ROOM_DECAP_L3_MASK) {
		if (!shrink)
			return (u64)-EINVAL;
		switch (flags & NB_F_ADJ_ROOM_DECAP_L3_MASK) {
		case NB_F_ADJ_ROOM_DECAP_L3_IPV4:
			len_min = sizeof(struct iphdr);
			break;
		case NB_F_ADJ_ROOM_DECAP_L3_IPV6:
			len_min = sizeof(struct ipv6hdr);
			break;
		default:
			return (u64)-EINVAL;
		}
	}
	len_cur = pkt->len - network_offset(pkt);
	if ((shrink && (len_diff_abs >= len_cur || len_cur - len_diff_abs < len_min)) ||
	    (!shrink && pkt->len + len_diff_abs > NB_SKB_MAX_LEN && !pkt_is_gso(pkt)))
		return (u64)-NB_ENOTSUPP;
	err = shrink ? net_shrink(pkt, off, len_diff_abs, flags) :
		       net_grow(pkt, off, len_diff_abs, flags);
	/* the verified checksums may be others now */
	if (!err && !(flags & BPF_F_ADJ_ROOM_NO_CSUM_RESET))
		nb_pkt_reset_checksum_unnecessary(pkt);
	nb_pkt_compute_data_pointers(pkt);
	return (u64)(s64)err;
}

static const struct nb_func_proto bpf_skb_adjust_room_proto = {
	.func = bpf_skb_adjust_room,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

const struct nb_func_proto *nb_tc_mangle_func_proto(enum bpf_func_id id)
{
	switch (id) {
	case BPF_FUNC_skb_vlan_push:
		return &bpf_skb_vlan_push_proto;
	case BPF_FUNC_skb_vlan_pop:
		return &bpf_skb_vlan_pop_proto;
	case BPF_FUNC_skb_change_proto:
		return &bpf_skb_change_proto_proto;
	case BPF_FUNC_skb_change_type:
		return &bpf_skb_change_type_proto;
	case BPF_FUNC_skb_change_tail:
		return &bpf_skb_change_tail_proto;
	case BPF_FUNC_skb_change_head:
		return &bpf_skb_change_head_proto;
	case BPF_FUNC_skb_pull_data:
		return &bpf_skb_pull_data_proto;
	case BPF_FUNC_skb_ecn_set_ce:
		return &bpf_skb_ecn_set_ce_proto;
	case BPF_FUNC_skb_adjust_room:
		return &bpf_skb_adjust_room_proto;
	default:
		return NULL;
	}
}
