/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunnel devices with collected metadata, the twins of the kernel's vxlan, geneve, ipip,
 * ip6tnl, gre, ip6gre, gretap and ip6gretap devices in "external" mode, as ip link makes them:
 *
 *   ip link add vx0 type vxlan external [dstport 4789] [gbp] nb_tunnel_create("vx0", 0, &opts)
 *   ip link add gn0 type geneve external [dstport 6081]
 *   ip link add ipt type ipip external
 *   ip link add ip6t type ip6tnl [mode any|ip6ip6|ipip6] external
 *   ip link add gre0 type gre|gretap|ip6gre|ip6gretap external
 *
 * Such a device encapsulates what it transmits by the packet's tunnel key (set by
 * bpf_skb_set_tunnel_key and bpf_skb_set_tunnel_opt), routes the outer packet with the IP
 * layer (<netbpf/route.h>) and sends it out of the route's device with the neighbour's address;
 * a packet for one of the local addresses that carries its protocol (UDP port, IP protocol) is
 * decapsulated into it, the outer header becoming the packet's tunnel key
 * (bpf_skb_get_tunnel_key, bpf_skb_get_tunnel_opt). vxlan, geneve and the *tap kinds carry
 * Ethernet frames; ipip, ip6tnl, gre and ip6gre carry IP packets and have no link header.
 */
#ifndef NETBPF_TUNNEL_H
#define NETBPF_TUNNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_dev;

struct nb_tunnel_opts {
	size_t sz;		/* sizeof(struct nb_tunnel_opts) */
	const char *kind;	/* "vxlan", "geneve", "ipip", "ip6tnl", "gre", "ip6gre", ... */
	bool external;		/* collect metadata: the only mode netbpf has */
	__u16 dstport;		/* UDP kinds: 0 for the IANA port (4789, 6081) */
	__u8 mode;		/* ip6tnl: IPPROTO_IPIP, IPPROTO_IPV6, 0 for any (the default) */
	bool gbp;		/* vxlan: the Group Based Policy extension (ip link's gbp) */
};

/*
 * A tunnel device named name (ifindex 0: the next free), up, with the kind's MTU. One external
 * device per kind (and UDP port) may exist, as in the kernel: -EEXIST for a second.
 */
int nb_tunnel_create(const char *name, __u32 ifindex, const struct nb_tunnel_opts *opts,
		     struct nb_dev **devp, struct nb_log *log);
/* Whether kind names a tunnel kind netbpf makes ("vxlan", ...). */
bool nb_tunnel_kind_known(const char *kind);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_TUNNEL_H */
