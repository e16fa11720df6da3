// SPDX-License-Identifier: GPL-2.0
/*
 * Collect-metadata tunnel devices: the common part of every kind (see tunnel.h), the twin of
 * the kernel's ip_md_tunnel_xmit, udp_tunnel_xmit_skb / udp_tunnel6_xmit_skb, ip6_tnl_xmit and
 * the receive paths that end in ip_tun_rx_dst / udp_tun_rx_dst.
 *
 * Transmit (nb_tunnel_xmit, from the device's transmit path after its tc egress hook): the
 * packet's tunnel key must be a TX key of the kind's family; the outer destination is routed
 * (the key's source, else the route's preferred source), the neighbour of the nexthop gives
 * the link header, and the outer packet goes to the route's device's transmit path. Outer
 * fields as the kernel makes them: TTL or hop limit from the key (else 64 for UDP kinds, the
 * inner packet's for IP kinds), TOS from the key with the inner ECN, DF from
 * TUNNEL_DONT_FRAGMENT, an IPv4 ID from a counter with DF or without (iptunnel_xmit picks one
 * for every header), UDP source port from the inner flow's hash (32768..60999, the kernel's
 * local port range), UDP checksum with TUNNEL_CSUM.
 *
 * Receive (nb_tunnel_rcv, from the host side of any device): an IPv4 or IPv6 packet for a local
 * address whose protocol (UDP port, GRE, IPIP, IPv6) a tunnel device takes is stripped of its
 * outer headers; they become the packet's RX tunnel key (remote = outer source, local = outer
 * destination, TOS, TTL, flow label, UDP ports, id, flags, options), and the inner packet
 * enters the tunnel device's receive path, its tc ingress hook first.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>	/* before linux/if_tunnel.h: glibc first keeps them apart */
#include <linux/if_tunnel.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/rtnetlink.h>
#include <linux/udp.h>

#include "net/core.h"
#include "pkt/csum.h"
#include "net/dev.h"
#include "net/fib.h"
#include "pkt/gso.h"
#include "pkt/pkt.h"
#include "net/tunnel.h"
#include "common/opts.h"

#define ETH_P_TEB_BE htons(0x6558)	/* transparent Ethernet bridging */
/* The fragment bits of iphdr.frag_off (the kernel's include/net/ip.h has them). */
#define IP_DF 0x4000
#define IP_MF 0x2000
#define IP_OFFSET 0x1fff
#define INET_ECN_MASK 3
#define INET_ECN_CE 3
#define PORT_MIN 32768
#define PORT_MAX 61000

static struct nb_tunnel_ops *tunnel_ops;
static pthread_mutex_t tunnels_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_tunnel *tunnels;	/* read by receive paths without the lock */

static const struct nb_tunnel_ops *ops_find(const char *kind)
{
	for (const struct nb_tunnel_ops *ops = tunnel_ops; ops; ops = ops->next)
		if (!strcmp(ops->kind, kind))
			return ops;
	return NULL;
}

int nb_tunnel_ops_register(struct nb_tunnel_ops *ops)
{
	if (ops_find(ops->kind))
		return -EEXIST;
	ops->next = tunnel_ops;
	tunnel_ops = ops;
	return 0;
}

bool nb_tunnel_kind_known(const char *kind)
{
	return ops_find(kind) != NULL;
}

/* Tunnels leave the list when their device leaves the registry. */
static void tunnel_dev_event(struct nb_dev *dev, enum nb_dev_event event)
{
	struct nb_tunnel **pp, *t = dev->tunnel;

	if (event != NB_DEV_UNREGISTER || !t)
		return;
	pthread_mutex_lock(&tunnels_lock);
	for (pp = &tunnels; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			__atomic_store_n(pp, t->next, __ATOMIC_RELEASE);
			break;
		}
	}
	pthread_mutex_unlock(&tunnels_lock);
	/* the device, which frees t, goes only once no worker can hold it */
}

static struct nb_dev_notifier tunnel_notifier = { .call = tunnel_dev_event };

static void __attribute__((constructor)) tunnel_init(void)
{
	nb_dev_register_notifier(&tunnel_notifier);
}

int nb_tunnel_create(const char *name, u32 ifindex, const struct nb_tunnel_opts *opts,
		     struct nb_dev **devp, struct nb_log *log)
{
	const struct nb_tunnel_ops *ops;
	struct nb_tunnel *t;
	struct nb_dev *dev;
	int err = 0;

	*devp = NULL;
	if (!opts)
		return -EINVAL;
	err = NB_OPTS_CHECK(opts, nb_tunnel_opts, mode, log);
	if (err)
		return err;
	ops = opts->kind ? ops_find(opts->kind) : NULL;
	if (!ops) {
		nb_log_printf(log, "tunnel kind \"%s\" is not one netbpf has\n",
			      opts->kind ? opts->kind : "");
		return -EOPNOTSUPP;
	}
	if (!opts->external) {
		nb_log_printf(log, "netbpf makes collect-metadata tunnels only: add \"external\"\n");
		return -EOPNOTSUPP;
	}
	if (opts->mode && opts->mode != IPPROTO_IPIP && opts->mode != IPPROTO_IPV6) {
		nb_log_printf(log, "mode %u is not ipip6, ip6ip6 or any\n", opts->mode);
		return -EINVAL;
	}
	if (opts->gbp && strcmp(ops->kind, "vxlan")) {
		nb_log_printf(log, "gbp is an extension of vxlan, not of %s\n", ops->kind);
		return -EINVAL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->ops = ops;
	t->gbp = opts->gbp;
	t->port = ops->port ? (opts->dstport ? opts->dstport : ops->port) : 0;
	t->mode = opts->mode;
	pthread_mutex_lock(&tunnels_lock);
	for (struct nb_tunnel *o = tunnels; o; o = o->next) {
		/* one metadata device per kind and port, as the kernel's per-netns fb device */
		if (o->ops == ops && o->port == t->port) {
			nb_log_printf(log, "a %s external device exists already: %s\n", ops->kind,
				      o->dev->name);
			err = -EEXIST;
		}
	}
	pthread_mutex_unlock(&tunnels_lock);
	if (err) {
		free(t);
		return err;
	}
	err = nb_dev_create(name, ifindex, &dev, log);
	if (err) {
		free(t);
		return err;
	}
	t->dev = dev;
	dev->tunnel = t;
	dev->mtu = ops->mtu;
	if (!ops->l2)
		dev->hard_header_len = 0;
	pthread_mutex_lock(&tunnels_lock);
	t->next = tunnels;
	__atomic_store_n(&tunnels, t, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&tunnels_lock);
	nb_dev_set_up(dev, true);
	*devp = dev;
	return 0;
}

void nb_tunnel_describe(const struct nb_dev *dev, char *buf, size_t size)
{
	const struct nb_tunnel *t = dev->tunnel;

	if (t->ops->port)
		snprintf(buf, size, "tunnel %s external dstport %u%s", t->ops->kind, t->port,
			 t->gbp ? " gbp" : "");
	else if (t->mode)
		snprintf(buf, size, "tunnel %s mode %s external", t->ops->kind,
			 t->mode == IPPROTO_IPIP ? "ipip6" : "ip6ip6");
	else
		snprintf(buf, size, "tunnel %s external", t->ops->kind);
}

const char *nb_tunnel_link_type(const struct nb_dev *dev)
{
	return dev->tunnel ? dev->tunnel->ops->link_type : NULL;
}

/* The inner packet's DS field (ip_tunnel_get_dsfield), 0 for other protocols. */
static u8 inner_dsfield(const struct nb_pkt *pkt, const u8 *l3, __be16 proto)
{
	const u8 *end = pkt->data + pkt->len;

	/* byte reads: a linearized frame's header need not be aligned for struct iphdr */
	if (proto == htons(ETH_P_IP) && l3 + sizeof(struct iphdr) <= end)
		return l3[offsetof(struct iphdr, tos)];
	if (proto == htons(ETH_P_IPV6) && l3 + sizeof(struct ipv6hdr) <= end)
		return (u8)((l3[0] << 4) | (l3[1] >> 4));
	return 0;
}

static u8 inner_ttl(const u8 *l3, __be16 proto)
{
	if (proto == htons(ETH_P_IP))
		return l3[offsetof(struct iphdr, ttl)];
	if (proto == htons(ETH_P_IPV6))
		return l3[offsetof(struct ipv6hdr, hop_limit)];
	return 64;
}

/* INET_ECN_encapsulate: the outer TOS with the inner ECN (CE becomes ECT(0)). */
static u8 ecn_encap(u8 outer, u8 inner)
{
	outer &= ~INET_ECN_MASK;
	outer |= (inner & INET_ECN_MASK) != INET_ECN_CE ? (inner & INET_ECN_MASK) : 2;
	return outer;
}

static u16 next_ip_id(void)
{
	static __thread u16 id;

	return ++id;
}

/* The UDP checksum over pseudo header, header and payload (udp_set_csum / udp6_set_csum). */
static void udp_csum(struct udphdr *uh, u32 len, int family, const void *saddr, const void *daddr)
{
	u32 sum = nb_csum_partial(saddr, family == AF_INET ? 4 : 16, 0);
	u32 pseudo[2] = { htonl(len), htonl(IPPROTO_UDP) };

	sum = nb_csum_partial(daddr, family == AF_INET ? 4 : 16, sum);
	sum = nb_csum_partial(pseudo, sizeof(pseudo), sum);
	uh->check = 0;
	uh->check = nb_csum_fold(nb_csum_partial(uh, len, sum));
	if (!uh->check)
		uh->check = 0xffff;	/* CSUM_MANGLED_0 */
}

static int tunnel_xmit_one(struct nb_dev *dev, struct nb_pkt *pkt)
{
	struct nb_tunnel *t = dev->tunnel;
	const struct nb_tunnel_ops *ops = t->ops;
	struct nb_tun_info *info = nb_pkt_tun_info(pkt);
	struct nb_flowi fl = { .iif = 1, .mark = pkt->mark };
	enum nb_drop_reason reason = NB_DROP_TUNNEL_TXINFO;
	struct nb_dev *out = dev;
	struct nb_fib_result res;
	const struct nb_neigh *n;
	union nb_inet_addr nh;
	__be16 inner_proto;
	const u8 *inner_l3;
	u32 hdr_len, ip_len, push, inner_len = pkt->len;
	u8 ipproto, dsfield, ttl;
	int family, ret;

	if (!info || !(info->mode & NB_TUN_INFO_TX))
		goto drop;
	family = nb_tun_info_af(info);
	if (ops->family && ops->family != family)
		goto drop;
	reason = NB_DROP_TX_ERROR;	/* what the device cannot carry */
	/* the inner packet: an Ethernet frame for L2 kinds, an IP packet for the others */
	if (ops->l2) {
		inner_proto = pkt->protocol;
		inner_l3 = pkt->data + ETH_HLEN;
	} else {
		inner_proto = pkt->protocol;
		inner_l3 = pkt->data;
		if (inner_proto != htons(ETH_P_IP) && inner_proto != htons(ETH_P_IPV6))
			goto drop;
	}
	ipproto = ops->ipproto;
	if (!ipproto) {
		ipproto = inner_proto == htons(ETH_P_IP) ? IPPROTO_IPIP : IPPROTO_IPV6;
		/* ipip carries IPv4 only; ip6tnl what its mode allows */
		if ((family == AF_INET && ipproto != IPPROTO_IPIP) || (t->mode && t->mode != ipproto))
			goto drop;
	}
	fl.family = (u8)family;
	fl.proto = ipproto;
	fl.tos = info->key.tos;
	if (family == AF_INET) {
		fl.daddr.v4 = info->key.u.ipv4.dst;
		fl.saddr.v4 = info->key.u.ipv4.src;
	} else {
		fl.daddr.v6 = info->key.u.ipv6.dst;
		fl.saddr.v6 = info->key.u.ipv6.src;
	}
	if (nb_fib_lookup(&fl, &res) || res.rt->type != RTN_UNICAST) {
		reason = NB_DROP_NO_ROUTE;
		goto drop;
	}
	out = nb_dev_lookup_index(res.rt->oif);
	if (!out || out == dev) {	/* a route back into the tunnel is a loop */
		out = dev;
		reason = NB_DROP_RECURSION;
		goto drop;
	}
	if ((family == AF_INET && !fl.saddr.v4) ||
	    (family == AF_INET6 && IN6_IS_ADDR_UNSPECIFIED(&fl.saddr.v6)))
		nb_fib_prefsrc(res.rt, &fl.daddr, &fl.saddr);
	nh = res.rt->gw_family ? res.rt->gw : fl.daddr;
	n = nb_neigh_find(family, out->ifindex, &nh);
	if (!nb_neigh_valid(n)) {
		reason = NB_DROP_NO_NEIGH;
		goto drop;
	}
	dsfield = ecn_encap(info->key.tos, inner_dsfield(pkt, inner_l3, inner_proto));
	ttl = info->key.ttl;
	if (!ttl)
		ttl = ops->ipproto == IPPROTO_UDP ? 64 : inner_ttl(inner_l3, inner_proto);

	hdr_len = (ops->hdr_len ? ops->hdr_len(t, info) : 0) +
		  (ops->ipproto == IPPROTO_UDP ? sizeof(struct udphdr) : 0);
	ip_len = family == AF_INET ? sizeof(struct iphdr) : sizeof(struct ipv6hdr);
	push = ETH_HLEN + ip_len + hdr_len;
	if (nb_pkt_cow_head(pkt, push)) {
		reason = NB_DROP_NOMEM;
		goto drop;
	}
	nb_dev_count_tx(dev, inner_len);
	{
		u8 *payload = pkt->data, *hdr = nb_pkt_push(pkt, hdr_len), *l3;
		struct ethhdr *eth;

		if (ops->ipproto == IPPROTO_UDP) {
			struct udphdr *uh = (struct udphdr *)hdr;
			u32 hash = nb_pkt_get_hash(pkt);

			ops->build(t, hdr + sizeof(*uh), hdr_len - sizeof(*uh), info, inner_proto,
				   payload, inner_len);
			uh->source = htons((u16)((((u64)hash * (PORT_MAX - PORT_MIN)) >> 32) +
						 PORT_MIN));
			uh->dest = info->key.tp_dst ? info->key.tp_dst : htons(t->port);
			uh->len = htons((u16)(hdr_len + inner_len));
			uh->check = 0;
			if (info->key.tun_flags & TUNNEL_CSUM)
				udp_csum(uh, hdr_len + inner_len, family, &fl.saddr, &fl.daddr);
		} else if (ops->build) {
			ops->build(t, hdr, hdr_len, info, inner_proto, payload, inner_len);
		}
		l3 = nb_pkt_push(pkt, ip_len);
		/*
		 * The outer IP header is built aside and copied in: behind a 14-byte Ethernet
		 * header it is not aligned for struct iphdr or ipv6hdr.
		 */
		if (family == AF_INET) {
			struct iphdr iph = { 0 }, *ip = &iph;
			bool df = info->key.tun_flags & TUNNEL_DONT_FRAGMENT;

			ip->version = 4;
			ip->ihl = 5;
			ip->tos = dsfield;
			ip->tot_len = htons((u16)(ip_len + hdr_len + inner_len));
			ip->id = htons(next_ip_id());
			ip->frag_off = df ? htons(IP_DF) : 0;
			ip->ttl = ttl;
			ip->protocol = ipproto;
			ip->saddr = fl.saddr.v4;
			ip->daddr = fl.daddr.v4;
			ip->check = nb_csum_compute(ip, sizeof(*ip));
			memcpy(l3, ip, sizeof(*ip));
		} else {
			struct ipv6hdr ip6h = { 0 }, *ip6 = &ip6h;
			__be32 label = info->key.label & htonl(0x000fffff), w;

			if (!label && ops->ipproto != IPPROTO_UDP)
				label = htonl(nb_pkt_get_hash(pkt) & 0xfffff);	/* auto label */
			w = htonl(6u << 28 | (u32)dsfield << 20) | label;
			memcpy(ip6, &w, sizeof(w));
			ip6->payload_len = htons((u16)(hdr_len + inner_len));
			ip6->nexthdr = ipproto;
			ip6->hop_limit = ttl;
			ip6->saddr = fl.saddr.v6;
			ip6->daddr = fl.daddr.v6;
			memcpy(l3, ip6, sizeof(*ip6));
		}
		eth = (struct ethhdr *)nb_pkt_push(pkt, ETH_HLEN);
		memcpy(eth->h_dest, n->lladdr, ETH_ALEN);
		memcpy(eth->h_source, out->addr, ETH_ALEN);
		eth->h_proto = family == AF_INET ? htons(ETH_P_IP) : htons(ETH_P_IPV6);
	}
	nb_pkt_tun_drop(pkt);
	pkt->protocol = family == AF_INET ? htons(ETH_P_IP) : htons(ETH_P_IPV6);
	nb_pkt_reset_mac_header(pkt);
	nb_pkt_set_network_header(pkt, ETH_HLEN);
	nb_pkt_set_transport_header(pkt, (int)(ETH_HLEN + ip_len));
	pkt->vlan_present = 0;
	pkt->encapsulation = 1;
	pkt->dev = out;
	if (nb_dev_xmit_recursion()) {
		reason = NB_DROP_RECURSION;
		goto drop;
	}
	nb_dev_xmit_recursion_inc();
	ret = nb_dev_queue_xmit(pkt);
	nb_dev_xmit_recursion_dec();
	return ret;
drop:
	nb_pkt_drop(pkt, out, reason);
	return -EINVAL;
}

/* The tunnel a received packet's protocol names, for outer family and, UDP, port. */
static struct nb_tunnel *tunnel_for(int family, u8 proto, u16 port, __be16 gre_proto)
{
	for (struct nb_tunnel *t = __atomic_load_n(&tunnels, __ATOMIC_ACQUIRE); t;
	     t = __atomic_load_n(&t->next, __ATOMIC_ACQUIRE)) {
		const struct nb_tunnel_ops *ops = t->ops;

		if (ops->family && ops->family != family)
			continue;
		if (!READ_ONCE(t->dev->up))
			continue;
		switch (proto) {
		case IPPROTO_UDP:
			if (ops->ipproto == IPPROTO_UDP && t->port == port)
				return t;
			break;
		case IPPROTO_GRE:
			if (ops->ipproto == IPPROTO_GRE &&
			    (gre_proto == ETH_P_TEB_BE) == ops->l2)
				return t;
			break;
		case IPPROTO_IPIP:
		case IPPROTO_IPV6:
			if (!ops->ipproto && (!t->mode || t->mode == proto) &&
			    (family == AF_INET6 || proto == IPPROTO_IPIP))
				return t;
			break;
		}
	}
	return NULL;
}

/* The outer header of a received packet, checked as ip_rcv / ipv6_rcv would. */
struct outer {
	int family;
	u8 proto, tos, ttl;
	__be32 label;
	union nb_inet_addr saddr, daddr;
	u32 hlen, payload_len;
};

static bool parse_outer(const u8 *l3, u32 avail, __be16 proto, struct outer *o)
{
	/* the headers are read from aligned copies: l3 follows a 14-byte Ethernet header */
	if (proto == htons(ETH_P_IP)) {
		struct iphdr hdr, *ip = &hdr;
		u32 tot;

		if (avail < sizeof(*ip))
			return false;
		memcpy(ip, l3, sizeof(*ip));
		if (ip->version != 4 || ip->ihl < 5 || ip->ihl * 4u > avail)
			return false;
		tot = ntohs(ip->tot_len);
		if (tot < ip->ihl * 4u || tot > avail || nb_csum_compute(l3, ip->ihl * 4u))
			return false;
		if (ip->frag_off & htons(IP_MF | IP_OFFSET))
			return false;	/* no reassembly here */
		o->family = AF_INET;
		o->proto = ip->protocol;
		o->tos = ip->tos;
		o->ttl = ip->ttl;
		o->label = 0;
		memset(&o->saddr, 0, sizeof(o->saddr));
		memset(&o->daddr, 0, sizeof(o->daddr));
		o->saddr.v4 = ip->saddr;
		o->daddr.v4 = ip->daddr;
		o->hlen = ip->ihl * 4u;
		o->payload_len = tot - o->hlen;
		return true;
	}
	if (proto == htons(ETH_P_IPV6)) {
		struct ipv6hdr hdr6, *ip6 = &hdr6;

		if (avail < sizeof(*ip6))
			return false;
		memcpy(ip6, l3, sizeof(*ip6));
		if (ip6->version != 6 || ntohs(ip6->payload_len) > avail - sizeof(*ip6))
			return false;
		o->family = AF_INET6;
		o->proto = ip6->nexthdr;
		o->tos = (u8)((l3[0] << 4) | (l3[1] >> 4));
		o->ttl = ip6->hop_limit;
		memcpy(&o->label, ip6, sizeof(o->label));
		o->label &= htonl(0x000fffff);
		o->saddr.v6 = ip6->saddr;
		o->daddr.v6 = ip6->daddr;
		o->hlen = sizeof(*ip6);
		o->payload_len = ntohs(ip6->payload_len);
		return true;
	}
	return false;
}

static bool udp_csum_ok(const struct udphdr *uh, u32 len, const struct outer *o)
{
	u32 sum, pseudo[2] = { htonl(len), htonl(IPPROTO_UDP) };

	if (!uh->check)
		return o->family == AF_INET;	/* IPv6 wants a checksum */
	sum = nb_csum_partial(&o->saddr, o->family == AF_INET ? 4 : 16, 0);
	sum = nb_csum_partial(&o->daddr, o->family == AF_INET ? 4 : 16, sum);
	sum = nb_csum_partial(pseudo, sizeof(pseudo), sum);
	return !nb_csum_fold(nb_csum_partial(uh, len, sum));
}

/*
 * The inner packet as a device without offloads sends it (validate_xmit_skb with no features):
 * a super-frame cut into its segments, a checksum left to the device completed, fragments made
 * linear; each then gets its own outer headers, as segmentation after the encapsulation gives
 * them in the kernel.
 */
int nb_tunnel_xmit(struct nb_dev *dev, struct nb_pkt *pkt)
{
	struct nb_pkt *segs, *next;
	int err, ret = NB_NET_XMIT_SUCCESS;

	if (!nb_pkt_is_gso(pkt) && !nb_pkt_is_nonlinear(pkt) &&
	    pkt->ip_summed != NB_CHECKSUM_PARTIAL)
		return tunnel_xmit_one(dev, pkt);
	segs = nb_validate_xmit(pkt, 0, &err);
	if (!segs) {
		nb_pkt_drop(pkt, dev, err == -ENOMEM ? NB_DROP_NOMEM : NB_DROP_OFFLOAD);
		return NB_NET_XMIT_DROP;
	}
	for (; segs; segs = next) {
		next = segs->next;
		segs->next = NULL;
		ret = tunnel_xmit_one(dev, segs);
	}
	return ret;
}

/*
 * INET_ECN_decapsulate: CE on the outer header marks an ECN-capable inner packet; on one that
 * is not (RFC 6040) the packet is refused: false.
 */
static bool ecn_decap(u8 *l3, const u8 *end, __be16 proto, u8 outer_tos)
{
	if ((outer_tos & INET_ECN_MASK) != INET_ECN_CE)
		return true;
	if (proto == htons(ETH_P_IP) && l3 + sizeof(struct iphdr) <= end) {
		u8 *tos = l3 + offsetof(struct iphdr, tos);
		u8 *check = l3 + offsetof(struct iphdr, check);
		u16 sum;

		if (!(*tos & INET_ECN_MASK))
			return false;
		*tos |= INET_ECN_CE;
		memset(check, 0, sizeof(sum));
		sum = nb_csum_compute(l3, (l3[0] & 0xf) * 4u);
		memcpy(check, &sum, sizeof(sum));
	} else if (proto == htons(ETH_P_IPV6) && l3 + sizeof(struct ipv6hdr) <= end) {
		if (!(l3[1] & 0x30))
			return false;
		l3[1] |= 0x30;
	}
	return true;
}

bool nb_tunnel_rcv(struct nb_pkt *pkt)
{
	const u8 *l3 = nb_pkt_network_header(pkt), *l4, *end = pkt->data + pkt->len;
	struct nb_tunnel *t;
	struct nb_tun_md *md;
	struct nb_tun_info *info;
	struct nb_fib_result res;
	struct nb_flowi fl;
	struct outer o;
	__be16 inner = 0, gre_proto = 0, sport = 0, dport = 0;
	u32 strip;
	int hlen;

	if (!__atomic_load_n(&tunnels, __ATOMIC_ACQUIRE) ||
	    pkt->network_header == NB_PKT_HDR_UNSET)
		return false;
	/* a frame in fragments is read whole (headers and payload checksummed alike) */
	if (nb_pkt_is_nonlinear(pkt)) {
		if (nb_pkt_linearize(pkt))
			return false;
		l3 = nb_pkt_network_header(pkt);
		end = pkt->data + pkt->len;
	}
	if (l3 >= end || !parse_outer(l3, (u32)(end - l3), pkt->protocol, &o))
		return false;
	l4 = l3 + o.hlen;
	if (o.proto == IPPROTO_UDP) {
		const struct udphdr *uh = (const struct udphdr *)l4;

		if (o.payload_len < sizeof(*uh) || ntohs(uh->len) != o.payload_len)
			return false;
		sport = uh->source;
		dport = uh->dest;
	} else if (o.proto == IPPROTO_GRE) {
		if (o.payload_len < 4)
			return false;
		memcpy(&gre_proto, l4 + 2, 2);
	} else if (o.proto != IPPROTO_IPIP && o.proto != IPPROTO_IPV6) {
		return false;
	}
	t = tunnel_for(o.family, o.proto, ntohs(dport), gre_proto);
	if (!t)
		return false;
	/* only what is addressed to this host (ip_local_deliver) */
	memset(&fl, 0, sizeof(fl));
	fl.family = (u8)o.family;
	fl.iif = pkt->dev->ifindex;
	fl.daddr = o.daddr;
	if (nb_fib_lookup(&fl, &res) || res.rt->type != RTN_LOCAL)
		return false;
	if (o.proto == IPPROTO_UDP) {
		if (!udp_csum_ok((const struct udphdr *)l4, o.payload_len, &o)) {
			nb_pkt_drop(pkt, pkt->dev, NB_DROP_UDP_CSUM);
			return true;
		}
		l4 += sizeof(struct udphdr);
		o.payload_len -= sizeof(struct udphdr);
	}
	md = nb_tun_md_alloc();
	if (!md) {
		nb_pkt_drop(pkt, pkt->dev, NB_DROP_NOMEM);
		return true;
	}
	info = &md->info;
	if (t->ops->parse) {
		hlen = t->ops->parse(t, l4, o.payload_len, info, &inner);
	} else {
		hlen = 0;
		inner = o.proto == IPPROTO_IPIP ? htons(ETH_P_IP) : htons(ETH_P_IPV6);
	}
	if (hlen < 0 || (u32)hlen > o.payload_len ||
	    (t->ops->l2 && o.payload_len - (u32)hlen < ETH_HLEN)) {
		nb_tun_md_put(md);
		nb_pkt_drop(pkt, t->dev, NB_DROP_TUNNEL_HDR);
		return true;
	}
	if (o.family == AF_INET) {
		info->key.u.ipv4.src = o.saddr.v4;
		info->key.u.ipv4.dst = o.daddr.v4;
	} else {
		info->mode |= NB_TUN_INFO_IPV6;
		info->key.u.ipv6.src = o.saddr.v6;
		info->key.u.ipv6.dst = o.daddr.v6;
		info->key.label = o.label;
	}
	info->key.tos = o.tos;
	info->key.ttl = o.ttl;
	if (o.proto == IPPROTO_UDP) {
		info->key.tp_src = sport;
		info->key.tp_dst = dport;
		if (((const struct udphdr *)(l4 - sizeof(struct udphdr)))->check)
			info->key.tun_flags |= TUNNEL_CSUM;
	}
	/* the inner packet: trailing bytes beyond the outer length go, the headers come off */
	strip = (u32)(l4 + hlen - pkt->data);
	nb_pkt_trim(pkt, (u32)(l4 - pkt->data) + o.payload_len);
	nb_pkt_pull(pkt, strip);
	nb_pkt_tun_drop(pkt);
	pkt->tun_md = md;
	pkt->dev = t->dev;
	pkt->skb_iif = 0;
	pkt->encapsulation = 0;
	nb_dev_type_trans(pkt, t->dev);
	if (!t->ops->l2)
		pkt->protocol = inner;
	else if (!memcmp(pkt->data + ETH_ALEN, t->dev->addr, ETH_ALEN)) {
		/* our own frame coming back: a loop (vxlan_rcv) */
		nb_pkt_drop(pkt, t->dev, NB_DROP_RECURSION);
		return true;
	}
	if (pkt->network_header != NB_PKT_HDR_UNSET &&
	    !ecn_decap(nb_pkt_network_header(pkt), pkt->data + pkt->len, pkt->protocol, o.tos)) {
		nb_pkt_drop(pkt, t->dev, NB_DROP_TUNNEL_ECN);
		return true;
	}
	nb_dev_count_rx(t->dev, pkt->len);
	nb_netif_rx(pkt);
	return true;
}
