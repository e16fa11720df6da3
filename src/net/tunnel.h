/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collect-metadata tunnel devices (include/netbpf/tunnel.h): what tunnel.c does for every kind
 * (the kernel's ip_tunnel_core.c, udp_tunnel and ip6_tunnel in one: route the outer packet,
 * build the outer IP header, fill the link header from the neighbour table, send; on receive,
 * find the device a packet for a local address belongs to, turn its outer headers into tunnel
 * metadata and hand the inner packet to the device), and the ops each kind fills in
 * (vxlan.c, geneve.c, gre.c, ipip.c): its header, built and parsed.
 */
#ifndef NB_NET_TUNNEL_H
#define NB_NET_TUNNEL_H

#include <netbpf/tunnel.h>

#include "common/register.h"
#include "common/types.h"
#include "pkt/dst_metadata.h"

struct nb_dev;
struct nb_pkt;
struct nb_tunnel;

struct nb_tunnel_ops {
	const char *kind;
	const char *link_type;	/* IP kinds: iproute2's link/ word (ipip, tunnel6, gre, gre6) */
	bool l2;		/* carries Ethernet frames (else IP packets, no link header) */
	u8 family;		/* outer family; AF_UNSPEC: the key's (UDP kinds) */
	u8 ipproto;		/* outer protocol; 0: the inner packet's (IPIP or IPV6) */
	u16 mtu;		/* the device's MTU when made */
	u16 port;		/* UDP kinds: the default destination port */
	/* Bytes of this kind's header for info (between the outer IP/UDP header and payload). */
	u32 (*hdr_len)(const struct nb_tunnel *t, const struct nb_tun_info *info);
	/* Write that header at hdr for an inner packet of protocol inner (ETH_P_* network order). */
	void (*build)(struct nb_tunnel *t, u8 *hdr, u32 hdr_len, const struct nb_tun_info *info,
		      __be16 inner, const u8 *payload, u32 payload_len);
	/*
	 * A received header at hdr (len bytes to the end of the packet): fill info's id, flags
	 * and options, *inner the payload's protocol; the header's length, or -1 to refuse it.
	 */
	int (*parse)(const struct nb_tunnel *t, const u8 *hdr, u32 len, struct nb_tun_info *info,
		     __be16 *inner);
	struct nb_tunnel_ops *next;
};

struct nb_tunnel {
	const struct nb_tunnel_ops *ops;
	struct nb_dev *dev;
	u16 port;		/* UDP kinds, host order */
	u8 mode;		/* ip6tnl: IPPROTO_IPIP, IPPROTO_IPV6 or 0 (any) */
	bool gbp;		/* vxlan: Group Based Policy in the header (VXLAN_F_GBP) */
	u32 o_seqno;		/* GRE sequence numbers sent */
	struct nb_tunnel *next;
};

/* 0, or -EEXIST when the kind is registered already. */
int nb_tunnel_ops_register(struct nb_tunnel_ops *ops);

#define NB_TUNNEL_REGISTER(ops)                                                             \
	NB_REGISTER_AT_LOAD(tunnel_##ops, nb_tunnel_ops_register(&ops), "tunnel kind", ops.kind)

/* The transmit side of a tunnel device: encapsulate and send (takes the packet). */
int nb_tunnel_xmit(struct nb_dev *dev, struct nb_pkt *pkt);
/*
 * A packet the host side of its device receives: when it is for a local address and a tunnel
 * device's protocol, it is decapsulated into that device's receive path and true returned.
 */
bool nb_tunnel_rcv(struct nb_pkt *pkt);
/* "vxlan external dstport 4789" for link show. */
void nb_tunnel_describe(const struct nb_dev *dev, char *buf, size_t size);
/* An IP tunnel's link type in iproute2's words ("ipip", "tunnel6", ...); NULL for Ethernet. */
const char *nb_tunnel_link_type(const struct nb_dev *dev);

#endif /* NB_NET_TUNNEL_H */
