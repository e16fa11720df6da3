// SPDX-License-Identifier: GPL-2.0
/*
 * The flow dissector and flow hash. The kernel seeds its hash randomly at boot, so its values
 * are not reproducible anyway; ours uses a fixed seed so that runs are repeatable.
 */
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>

#include "pkt/flow.h"
#include "pkt/pkt.h"

#define FLOW_HASH_SEED 0x9e3779b9u

static u16 get_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

bool nb_flow_dissect(const struct nb_pkt *pkt, struct nb_flow_keys *keys)
{
	/* the headers are in the linear part: a super-frame's payload is not needed */
	const u8 *p = pkt->data, *end = pkt->data + nb_pkt_headlen(pkt);
	u32 off = ETH_HLEN;
	u16 proto;

	memset(keys, 0, sizeof(*keys));
	if (nb_pkt_headlen(pkt) < ETH_HLEN)
		return false;
	proto = get_be16(p + 12);
	/* At most two VLAN tags, as a QinQ frame has. */
	for (int i = 0; i < 2 && (proto == ETH_P_8021Q || proto == ETH_P_8021AD); i++) {
		if (p + off + 4 > end)
			break;
		proto = get_be16(p + off + 2);
		off += 4;
	}
	keys->n_proto = htons(proto);
	keys->nhoff = off;
	/* Headers are copied out: in a frame, the IP header is only 2-byte aligned. */
	if (proto == ETH_P_IP && p + off + sizeof(struct iphdr) <= end) {
		struct iphdr ip;
		u32 ihl;

		memcpy(&ip, p + off, sizeof(ip));
		ihl = ip.ihl * 4u;
		if (ihl < sizeof(ip))
			return true;
		keys->ip_proto = ip.protocol;
		memcpy(&keys->src[0], &ip.saddr, 4);
		memcpy(&keys->dst[0], &ip.daddr, 4);
		keys->is_frag = (ntohs(ip.frag_off) & 0x1fff) != 0;
		off += ihl;
	} else if (proto == ETH_P_IPV6 && p + off + sizeof(struct ipv6hdr) <= end) {
		struct ipv6hdr ip6;

		memcpy(&ip6, p + off, sizeof(ip6));
		keys->ip_proto = ip6.nexthdr;
		memcpy(keys->src, &ip6.saddr, 16);
		memcpy(keys->dst, &ip6.daddr, 16);
		off += sizeof(ip6);
	} else {
		return true;
	}
	keys->thoff = off;
	if (keys->is_frag)
		return true;
	switch (keys->ip_proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
		if (p + off + 4 <= end) {
			memcpy(&keys->sport, p + off, 2);
			memcpy(&keys->dport, p + off + 2, 2);
		}
		break;
	}
	return true;
}

static u32 rol32(u32 w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

/* One round of mixing (the shape of jhash's final mix). */
static u32 mix(u32 h, u32 w)
{
	w *= 0xcc9e2d51u;
	w = rol32(w, 15);
	w *= 0x1b873593u;
	h ^= w;
	h = rol32(h, 13);
	return h * 5 + 0xe6546b64u;
}

u32 nb_flow_hash(const struct nb_flow_keys *keys)
{
	u32 h = FLOW_HASH_SEED;

	for (int i = 0; i < 4; i++) {
		h = mix(h, keys->src[i]);
		h = mix(h, keys->dst[i]);
	}
	h = mix(h, (u32)keys->sport << 16 | keys->dport);
	h = mix(h, (u32)keys->ip_proto << 16 | keys->n_proto);
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h ? h : 1;
}

u32 nb_pkt_get_hash(struct nb_pkt *pkt)
{
	struct nb_flow_keys keys;

	if (pkt->l4_hash || pkt->sw_hash)
		return pkt->hash;
	nb_flow_dissect(pkt, &keys);
	pkt->hash = nb_flow_hash(&keys);
	pkt->l4_hash = keys.sport || keys.dport;
	pkt->sw_hash = 1;
	return pkt->hash;
}
