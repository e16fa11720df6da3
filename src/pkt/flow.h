/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small flow dissector (the kernel's skb_flow_dissect for the headers this datapath meets):
 * Ethernet, 802.1Q/802.1ad tags, IPv4, IPv6, and the ports of TCP, UDP and SCTP. It feeds the
 * flow hash (skb_get_hash) and classifiers.
 */
#ifndef NB_PKT_FLOW_H
#define NB_PKT_FLOW_H

#include "common/types.h"

struct nb_pkt;

struct nb_flow_keys {
	__be16 n_proto;		/* network protocol after the VLAN tags, network order */
	u8 ip_proto;		/* IPPROTO_*, 0 when not IP */
	u8 is_frag;		/* an IPv4 fragment other than the first: no ports */
	u16 nhoff;		/* network header, from data */
	u16 thoff;		/* transport header, from data; 0 when unknown */
	u32 src[4];		/* addresses as in the packet (IPv4 uses [0]) */
	u32 dst[4];
	__be16 sport;		/* ports, network order; 0 when none */
	__be16 dport;
};

/* Dissect the frame at pkt->data; false when it is not even Ethernet. */
bool nb_flow_dissect(const struct nb_pkt *pkt, struct nb_flow_keys *keys);
/* A 32-bit hash of the keys, never 0 (__flow_hash_from_keys). */
u32 nb_flow_hash(const struct nb_flow_keys *keys);

#endif /* NB_PKT_FLOW_H */
