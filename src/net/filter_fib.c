// SPDX-License-Identifier: GPL-2.0
/*
 * The routing helpers of tc and XDP programs (net/core/filter.c): bpf_fib_lookup, bpf_check_mtu
 * and bpf_redirect_neigh, with the kernel's flags, return codes and output fields, over
 * netbpf's routes, rules, neighbours and forwarding switches (fib.h).
 *
 * The device a packet is on answers to its ifindex even when it is not in the registry: the
 * test run's stand-in for the loopback device is ifindex 1 as the kernel's is, with no IP layer
 * (forwarding off), mtu 65536.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/rtnetlink.h>

#include "net/core.h"
#include "net/dev.h"
#include "net/fib.h"
#include "pkt/gso.h"
#include "net/filter.h"
#include "pkt/pkt.h"
#include "net/redirect.h"
#include "net/xdp.h"

#define CTX_PKT(r1) ((struct nb_pkt *)(uintptr_t)(r1))
#define CTX_XDP(r1) ((struct nb_xdp_buff *)(uintptr_t)(r1))
#define PTR(r) ((void *)(uintptr_t)(r))

/*
 * BPF_FIB_LOOKUP_MARK (Linux 6.10): the uapi headers netbpf builds with are older, so the
 * flag and the input field it reads (params->mark, in front of smac) are named here.
 */
#define NB_BPF_FIB_LOOKUP_MARK (1U << 5)
#define NB_BPF_FIB_LOOKUP_MASK                                                              \
	(BPF_FIB_LOOKUP_DIRECT | BPF_FIB_LOOKUP_OUTPUT | BPF_FIB_LOOKUP_SKIP_NEIGH |          \
	 BPF_FIB_LOOKUP_TBID | BPF_FIB_LOOKUP_SRC | NB_BPF_FIB_LOOKUP_MARK)

static u32 params_mark(const struct bpf_fib_lookup *params)
{
	u32 mark;

	memcpy(&mark, params->smac, sizeof(mark));
	return mark;
}

/* dev_get_by_index_rcu, where ctx_dev (the packet's device) also answers to its own ifindex. */
static struct nb_dev *dev_by_index(struct nb_dev *ctx_dev, u32 ifindex)
{
	struct nb_dev *dev = nb_dev_lookup_index(ifindex);

	if (!dev && ctx_dev && ctx_dev->ifindex == ifindex)
		dev = ctx_dev;
	return dev;
}

/* bpf_fib_set_fwd_params: no VLAN on output, the MTU when it was checked. */
static int fib_set_fwd_params(struct bpf_fib_lookup *params, u32 mtu)
{
	params->h_vlan_TCI = 0;
	params->h_vlan_proto = 0;
	if (mtu)
		params->mtu_result = (u16)mtu;	/* union with tot_len */
	return BPF_FIB_LKUP_RET_SUCCESS;
}

/* The neighbour step both families end with: dmac from the entry, smac from the device. */
static int fib_set_neigh(struct bpf_fib_lookup *params, int family, const struct nb_dev *dev,
			 const union nb_inet_addr *nh, u32 mtu)
{
	const struct nb_neigh *n = nb_neigh_find(family, dev->ifindex, nh);

	if (!nb_neigh_valid(n))
		return BPF_FIB_LKUP_RET_NO_NEIGH;
	memcpy(params->dmac, n->lladdr, ETH_ALEN);
	memcpy(params->smac, dev->addr, ETH_ALEN);
	return fib_set_fwd_params(params, mtu);
}

/*
 * The table a DIRECT lookup reads: main, or params->tbid with BPF_FIB_LOOKUP_TBID, which the
 * kernel then clears (the field is also the VLAN output).
 */
static u32 direct_table(struct bpf_fib_lookup *params, u32 flags)
{
	u32 tbid = RT_TABLE_MAIN;

	if (flags & BPF_FIB_LOOKUP_TBID) {
		tbid = params->tbid;
		params->tbid = 0;
	}
	return tbid;
}

/* bpf_ipv4_fib_lookup */
static int fib4_lookup(struct nb_dev *ctx_dev, struct bpf_fib_lookup *params, u32 flags,
		       bool check_mtu)
{
	struct nb_flowi fl = { .family = AF_INET };
	union nb_inet_addr nh = { 0 };
	struct nb_fib_result res;
	const struct nb_route *rt;
	struct nb_dev *dev;
	u32 mtu = 0;
	int err;

	dev = dev_by_index(ctx_dev, params->ifindex);
	if (unlikely(!dev))
		return -ENODEV;
	if (unlikely(!nb_inet_forwarding(dev, AF_INET)))
		return BPF_FIB_LKUP_RET_FWD_DISABLED;
	if (flags & BPF_FIB_LOOKUP_OUTPUT) {
		fl.iif = 1;	/* LOOPBACK_IFINDEX */
		fl.oif = params->ifindex;
	} else {
		fl.iif = params->ifindex;
	}
	fl.tos = params->tos;
	fl.proto = params->l4_protocol;
	fl.daddr.v4 = params->ipv4_dst;
	fl.saddr.v4 = params->ipv4_src;
	fl.sport = params->sport;
	fl.dport = params->dport;
	if (flags & BPF_FIB_LOOKUP_DIRECT) {
		err = nb_fib_table_lookup(direct_table(params, flags), &fl, &res);
		if (err == -ENOENT)
			return BPF_FIB_LKUP_RET_NOT_FWDED;
	} else {
		fl.mark = flags & NB_BPF_FIB_LOOKUP_MARK ? params_mark(params) : 0;
		err = nb_fib_lookup(&fl, &res);
	}
	switch (err) {
	case 0:
		break;
	case -EINVAL:
		return BPF_FIB_LKUP_RET_BLACKHOLE;
	case -EHOSTUNREACH:
		return BPF_FIB_LKUP_RET_UNREACHABLE;
	case -EACCES:
		return BPF_FIB_LKUP_RET_PROHIBIT;
	default:
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	}
	rt = res.rt;
	if (rt->type != RTN_UNICAST)
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	if (check_mtu) {
		mtu = nb_fib_mtu(rt);
		if (params->tot_len > mtu) {
			params->mtu_result = (u16)mtu;	/* union with tot_len */
			return BPF_FIB_LKUP_RET_FRAG_NEEDED;
		}
	}
	dev = nb_dev_lookup_index(rt->oif);
	if (unlikely(!dev))
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	params->rt_metric = rt->metric;
	params->ifindex = rt->oif;
	if (flags & BPF_FIB_LOOKUP_SRC) {
		union nb_inet_addr src;

		nb_fib_prefsrc(rt, &fl.daddr, &src);
		params->ipv4_src = src.v4;
	}
	if (rt->gw_family == AF_INET)
		params->ipv4_dst = rt->gw.v4;
	if (flags & BPF_FIB_LOOKUP_SKIP_NEIGH)
		return fib_set_fwd_params(params, mtu);
	nh.v4 = params->ipv4_dst;
	return fib_set_neigh(params, AF_INET, dev, &nh, mtu);
}

/* rt6_need_strict: multicast, link-local and loopback addresses are never forwarded. */
static bool ipv6_need_strict(const void *addr)
{
	const struct in6_addr *a = addr;

	return IN6_IS_ADDR_MULTICAST(a) || IN6_IS_ADDR_LINKLOCAL(a) || IN6_IS_ADDR_LOOPBACK(a);
}

/* bpf_ipv6_fib_lookup */
static int fib6_lookup(struct nb_dev *ctx_dev, struct bpf_fib_lookup *params, u32 flags,
		       bool check_mtu)
{
	struct nb_flowi fl = { .family = AF_INET6 };
	struct nb_fib_result res;
	const struct nb_route *rt;
	struct nb_dev *dev;
	u32 mtu = 0;
	int err;

	if (ipv6_need_strict(params->ipv6_dst) || ipv6_need_strict(params->ipv6_src))
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	dev = dev_by_index(ctx_dev, params->ifindex);
	if (unlikely(!dev))
		return -ENODEV;
	if (unlikely(!nb_inet_forwarding(dev, AF_INET6)))
		return BPF_FIB_LKUP_RET_FWD_DISABLED;
	/* input or output, the device is a preference of the IPv6 lookup (its oif) */
	fl.oif = params->ifindex;
	fl.iif = flags & BPF_FIB_LOOKUP_OUTPUT ? 1 : params->ifindex;
	fl.flowlabel = params->flowinfo;
	fl.proto = params->l4_protocol;
	memcpy(&fl.daddr, params->ipv6_dst, 16);
	memcpy(&fl.saddr, params->ipv6_src, 16);
	fl.sport = params->sport;
	fl.dport = params->dport;
	if (flags & BPF_FIB_LOOKUP_DIRECT) {
		err = nb_fib_table_lookup(direct_table(params, flags), &fl, &res);
	} else {
		fl.mark = flags & NB_BPF_FIB_LOOKUP_MARK ? params_mark(params) : 0;
		err = nb_fib_lookup(&fl, &res);
	}
	if (err)
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	rt = res.rt;
	switch (rt->type) {
	case RTN_UNICAST:
		break;
	case RTN_BLACKHOLE:
		return BPF_FIB_LKUP_RET_BLACKHOLE;
	case RTN_UNREACHABLE:
		return BPF_FIB_LKUP_RET_UNREACHABLE;
	case RTN_PROHIBIT:
		return BPF_FIB_LKUP_RET_PROHIBIT;
	default:
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	}
	if (check_mtu) {
		mtu = nb_fib_mtu(rt);
		if (params->tot_len > mtu) {
			params->mtu_result = (u16)mtu;	/* union with tot_len */
			return BPF_FIB_LKUP_RET_FRAG_NEEDED;
		}
	}
	if (rt->gw_family)
		memcpy(params->ipv6_dst, &rt->gw, 16);
	dev = nb_dev_lookup_index(rt->oif);
	if (unlikely(!dev))
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	params->rt_metric = rt->metric;
	params->ifindex = rt->oif;
	if (flags & BPF_FIB_LOOKUP_SRC) {
		union nb_inet_addr src;

		if (!nb_fib_prefsrc(rt, &fl.daddr, &src))
			return BPF_FIB_LKUP_RET_NO_SRC_ADDR;
		memcpy(params->ipv6_src, &src, 16);
	}
	if (flags & BPF_FIB_LOOKUP_SKIP_NEIGH)
		return fib_set_fwd_params(params, mtu);
	return fib_set_neigh(params, AF_INET6, dev, (const union nb_inet_addr *)params->ipv6_dst,
			     mtu);
}

static int fib_lookup(struct nb_dev *ctx_dev, struct bpf_fib_lookup *params, u32 flags,
		      bool check_mtu)
{
	switch (params->family) {
	case AF_INET:
		return fib4_lookup(ctx_dev, params, flags, check_mtu);
	case AF_INET6:
		return fib6_lookup(ctx_dev, params, flags, check_mtu);
	default:
		return -EAFNOSUPPORT;
	}
}

/* bpf_xdp_fib_lookup: the MTU is always checked, against tot_len (0: always fits). */
static u64 bpf_xdp_fib_lookup(u64 r1, u64 r2, u64 plen, u64 flags, u64 r5)
{
	struct bpf_fib_lookup *params = PTR(r2);

	if ((s32)plen < (s32)sizeof(*params))
		return (u64)-EINVAL;
	if ((u32)flags & ~NB_BPF_FIB_LOOKUP_MASK)
		return (u64)-EINVAL;
	return (u64)(s64)fib_lookup(CTX_XDP(r1)->rxq->dev, params, (u32)flags, true);
}

static const struct nb_func_proto bpf_xdp_fib_lookup_proto = {
	.func = bpf_xdp_fib_lookup,
	.gpl_only = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE, NB_ARG_ANYTHING },
};

/*
 * is_skb_forwardable: the device is up and the frame fits its MTU, a VLAN tag allowed; a
 * super-frame always does, as it may leave without being cut.
 */
static bool pkt_forwardable(const struct nb_dev *dev, const struct nb_pkt *pkt)
{
	if (!READ_ONCE(dev->up))
		return false;
	return pkt->len <= READ_ONCE(dev->mtu) + dev->hard_header_len + 4 /* VLAN_HLEN */ ||
	       nb_pkt_is_gso(pkt);
}

/*
 * bpf_skb_fib_lookup: the MTU is checked against tot_len when given, else the packet itself
 * against the device the route leaves by.
 */
static u64 bpf_skb_fib_lookup(u64 r1, u64 r2, u64 plen, u64 flags, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	struct bpf_fib_lookup *params = PTR(r2);
	bool check_mtu;
	int rc;

	if ((s32)plen < (s32)sizeof(*params))
		return (u64)-EINVAL;
	if ((u32)flags & ~NB_BPF_FIB_LOOKUP_MASK)
		return (u64)-EINVAL;
	check_mtu = params->tot_len;
	rc = fib_lookup(pkt->dev, params, (u32)flags, check_mtu);
	if (rc == BPF_FIB_LKUP_RET_SUCCESS && !check_mtu) {
		struct nb_dev *dev = dev_by_index(pkt->dev, params->ifindex);

		if (!pkt_forwardable(dev, pkt))
			rc = BPF_FIB_LKUP_RET_FRAG_NEEDED;
		params->mtu_result = (u16)READ_ONCE(dev->mtu);	/* union with tot_len */
	}
	return (u64)(s64)rc;
}

static const struct nb_func_proto bpf_skb_fib_lookup_proto = {
	.func = bpf_skb_fib_lookup,
	.gpl_only = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE, NB_ARG_ANYTHING },
};

/*
 * bpf_check_mtu's question for both hooks: would a frame of len bytes, len_diff more (or
 * *mtu_len bytes of L3 when that is not 0), fit the MTU of dev with its link header? *mtu_len
 * gets the MTU.
 */
static bool mtu_fits(const struct nb_dev *dev, int len, u32 *mtu_len, s32 len_diff)
{
	int mtu = (int)READ_ONCE(dev->mtu);

	if (*mtu_len)
		len = (int)*mtu_len + dev->hard_header_len;
	*mtu_len = (u32)mtu;
	return len + len_diff <= mtu + dev->hard_header_len;
}

/*
 * bpf_check_mtu for tc, on ifindex (0: the packet's device). A super-frame longer than the MTU
 * still fits, as it can be cut on the way out; with BPF_MTU_CHK_SEGS its segments are checked
 * instead.
 */
static u64 bpf_skb_check_mtu(u64 r1, u64 ifindex, u64 r3, u64 len_diff, u64 flags)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	u32 *mtu_len = PTR(r3);
	struct nb_dev *dev;

	if (unlikely(flags & ~(u64)BPF_MTU_CHK_SEGS))
		return (u64)-EINVAL;
	if (unlikely((flags & BPF_MTU_CHK_SEGS) && ((s32)len_diff || *mtu_len)))
		return (u64)-EINVAL;
	dev = (u32)ifindex ? dev_by_index(pkt->dev, (u32)ifindex) : pkt->dev;
	if (unlikely(!dev))
		return (u64)-ENODEV;
	if (mtu_fits(dev, (int)pkt->len, mtu_len, (s32)len_diff))
		return BPF_MTU_CHK_RET_SUCCESS;
	if (!nb_pkt_is_gso(pkt))
		return BPF_MTU_CHK_RET_FRAG_NEEDED;
	if ((flags & BPF_MTU_CHK_SEGS) && !nb_skb_gso_validate_network_len(pkt, *mtu_len))
		return BPF_MTU_CHK_RET_SEGS_TOOBIG;
	return BPF_MTU_CHK_RET_SUCCESS;
}

static const struct nb_func_proto bpf_skb_check_mtu_proto = {
	.func = bpf_skb_check_mtu,
	.gpl_only = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_PTR_TO_INT, NB_ARG_ANYTHING,
		      NB_ARG_ANYTHING },
};

/* bpf_check_mtu for XDP: the linear part's length, no flags at all. */
static u64 bpf_xdp_check_mtu(u64 r1, u64 ifindex, u64 r3, u64 len_diff, u64 flags)
{
	struct nb_xdp_buff *xdp = CTX_XDP(r1);
	struct nb_dev *dev;

	if (unlikely(flags))
		return (u64)-EINVAL;
	dev = (u32)ifindex ? dev_by_index(xdp->rxq->dev, (u32)ifindex) : xdp->rxq->dev;
	if (unlikely(!dev))
		return (u64)-ENODEV;
	if (mtu_fits(dev, (int)(xdp->data_end - xdp->data), PTR(r3), (s32)len_diff))
		return BPF_MTU_CHK_RET_SUCCESS;
	return BPF_MTU_CHK_RET_FRAG_NEEDED;
}

static const struct nb_func_proto bpf_xdp_check_mtu_proto = {
	.func = bpf_xdp_check_mtu,
	.gpl_only = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_PTR_TO_INT, NB_ARG_ANYTHING,
		      NB_ARG_ANYTHING },
};

/* bpf_redirect_neigh: record the target and the nexthop (plen 0: none, route the packet). */
static u64 bpf_redirect_neigh(u64 ifindex, u64 params, u64 plen, u64 flags, u64 r5)
{
	struct nb_redirect_info *ri = nb_redirect_info_get();

	if (unlikely(((s32)plen && (s32)plen < (s32)sizeof(struct bpf_redir_neigh)) || flags))
		return TC_ACT_SHOT;
	ri->flags = NB_BPF_F_NEIGH | ((s32)plen ? NB_BPF_F_NEXTHOP : 0);
	ri->tgt_index = (u32)ifindex;
	if ((s32)plen)
		memcpy(&ri->nh, PTR(params), sizeof(struct bpf_redir_neigh));
	return TC_ACT_REDIRECT;
}

static const struct nb_func_proto bpf_redirect_neigh_proto = {
	.func = bpf_redirect_neigh,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_ANYTHING, NB_ARG_PTR_TO_MEM_OR_NULL, NB_ARG_CONST_SIZE_OR_ZERO,
		      NB_ARG_ANYTHING },
};

/*
 * The nexthop of a packet routed out of dev (ip_route_output_flow with the device as oif, then
 * ip_neigh_for_gw / rt6_nexthop): the route's gateway, or the destination itself. false when
 * there is no unicast or local route.
 */
static bool route_nexthop(struct nb_pkt *pkt, struct nb_dev *dev, int *family,
			  union nb_inet_addr *nh)
{
	const u8 *l3 = nb_pkt_network_header(pkt);
	struct nb_flowi fl = { .iif = 1, .oif = dev->ifindex, .mark = pkt->mark };
	struct nb_fib_result res;

	/* aligned copies: behind an Ethernet header l3 is not aligned for the structs */
	if (pkt->protocol == htons(ETH_P_IP)) {
		struct iphdr ip;

		memcpy(&ip, l3, sizeof(ip));
		fl.family = AF_INET;
		fl.proto = ip.protocol;
		fl.tos = ip.tos;
		fl.daddr.v4 = ip.daddr;
		fl.saddr.v4 = ip.saddr;
	} else {
		struct ipv6hdr ip6;

		memcpy(&ip6, l3, sizeof(ip6));
		fl.family = AF_INET6;
		fl.proto = ip6.nexthdr;
		memcpy(&fl.daddr, &ip6.daddr, 16);
		memcpy(&fl.saddr, &ip6.saddr, 16);
	}
	if (nb_fib_lookup(&fl, &res) ||
	    (res.rt->type != RTN_UNICAST && res.rt->type != RTN_LOCAL))
		return false;
	*family = res.rt->gw_family ? res.rt->gw_family : fl.family;
	*nh = res.rt->gw_family ? res.rt->gw : fl.daddr;
	return true;
}

int nb_bpf_redirect_neigh(struct nb_pkt *pkt, struct nb_dev *dev, const struct nb_redirect_nh *p)
{
	struct nb_redirect_nh nh_params = p ? *p : (struct nb_redirect_nh){ 0 };
	const struct nb_neigh *n;
	union nb_inet_addr nh = { 0 };
	u32 l3_len = 0;
	int family = 0, ret;
	struct ethhdr *eth;

	/* a link layer header to replace, not for a multicast group */
	if (unlikely(pkt->mac_header == NB_PKT_HDR_UNSET ||
		     pkt->network_header == NB_PKT_HDR_UNSET ||
		     pkt->mac_header >= pkt->network_header ||
		     (nb_pkt_mac_header(pkt)[0] & 1) ||
		     (pkt->protocol != htons(ETH_P_IP) && pkt->protocol != htons(ETH_P_IPV6)))) {
		nb_pkt_drop(pkt, dev, NB_DROP_NOT_SPECIFIED);
		return -EOPNOTSUPP;
	}
	l3_len = pkt->protocol == htons(ETH_P_IP) ? sizeof(struct iphdr) : sizeof(struct ipv6hdr);
	if (unlikely(nb_pkt_network_header(pkt) + l3_len > pkt->data + pkt->len)) {
		nb_pkt_drop(pkt, dev, NB_DROP_NOT_SPECIFIED);
		return -EOPNOTSUPP;
	}
	if (!p) {
		if (!route_nexthop(pkt, dev, &family, &nh)) {
			nb_pkt_drop(pkt, dev, NB_DROP_NO_ROUTE);
			return -ENETUNREACH;
		}
	} else if (nh_params.nh_family == AF_INET || nh_params.nh_family == AF_INET6) {
		family = (int)nh_params.nh_family;
		memcpy(&nh, nh_params.addr, family == AF_INET ? 4 : 16);
	} else {
		nb_pkt_drop(pkt, dev, NB_DROP_NO_ROUTE);
		return -ENETDOWN;
	}
	if (nb_dev_xmit_recursion()) {
		nb_pkt_drop(pkt, dev, NB_DROP_RECURSION);
		return -ENETDOWN;
	}
	n = nb_neigh_find(family, dev->ifindex, &nh);
	if (!nb_neigh_valid(n)) {
		nb_pkt_drop(pkt, dev, NB_DROP_NO_NEIGH);
		return -ENETDOWN;
	}
	/* the Ethernet header the neighbour gives, over the one the packet came with */
	if (nb_pkt_ensure_writable(pkt, pkt->network_header - pkt->mac_header)) {
		nb_pkt_drop(pkt, dev, NB_DROP_NOMEM);
		return -ENOMEM;
	}
	nb_pkt_pull(pkt, (u32)(nb_pkt_network_header(pkt) - pkt->data) - ETH_HLEN);
	nb_pkt_reset_mac_header(pkt);
	eth = (struct ethhdr *)pkt->data;
	memcpy(eth->h_dest, n->lladdr, ETH_ALEN);
	memcpy(eth->h_source, dev->addr, ETH_ALEN);
	eth->h_proto = pkt->protocol;
	pkt->dev = dev;
	if (!pkt->tstamp_type)
		pkt->tstamp = 0;	/* skb_clear_tstamp */
	nb_dev_xmit_recursion_inc();
	ret = nb_dev_queue_xmit(pkt);
	nb_dev_xmit_recursion_dec();
	return ret;
}

const struct nb_func_proto *nb_tc_fib_func_proto(enum bpf_func_id id)
{
	switch (id) {
	case BPF_FUNC_fib_lookup:
		return &bpf_skb_fib_lookup_proto;
	case BPF_FUNC_check_mtu:
		return &bpf_skb_check_mtu_proto;
	case BPF_FUNC_redirect_neigh:
		return &bpf_redirect_neigh_proto;
	default:
		return NULL;
	}
}

const struct nb_func_proto *nb_xdp_fib_func_proto(enum bpf_func_id id)
{
	switch (id) {
	case BPF_FUNC_fib_lookup:
		return &bpf_xdp_fib_lookup_proto;
	case BPF_FUNC_check_mtu:
		return &bpf_xdp_check_mtu_proto;
	default:
		return NULL;
	}
}
