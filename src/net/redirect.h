/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-worker redirect state, the twin of the kernel's struct bpf_redirect_info: the redirect
 * helpers (bpf_redirect, bpf_redirect_peer; bpf_xdp_redirect and bpf_redirect_map for XDP) record
 * the target here and return TC_ACT_REDIRECT / XDP_REDIRECT; the hook that sees the verdict reads
 * it then (nb_skb_do_redirect for tc, nb_xdp_do_redirect for XDP) and clears it.
 */
#ifndef NB_NET_REDIRECT_H
#define NB_NET_REDIRECT_H

#include <linux/bpf.h>

#include <netbpf/percpu.h>

#include "common/types.h"

/* Flags the helpers set that programs may not pass (net/core/filter.c's internal ones). */
#define NB_BPF_F_NEIGH		(1U << 16)
#define NB_BPF_F_PEER		(1U << 17)
#define NB_BPF_F_NEXTHOP	(1U << 18)
#define NB_BPF_F_REDIRECT_INTERNAL (NB_BPF_F_NEIGH | NB_BPF_F_PEER | NB_BPF_F_NEXTHOP)

struct nb_map;
struct nb_pkt;
struct nb_dev;

/* bpf_redirect_neigh's nexthop (the kernel's struct bpf_nh_params). */
struct nb_redirect_nh {
	u32 nh_family;		/* AF_INET or AF_INET6 */
	u8 addr[16];		/* ipv4_nh or ipv6_nh, network order */
};

struct nb_redirect_info {
	u32 tgt_index;		/* target ifindex (tc), or map key (XDP redirect_map) */
	u32 flags;		/* BPF_F_INGRESS and the internal flags above; XDP: BPF_F_BROADCAST... */
	/* XDP */
	void *tgt_value;	/* the map element found for tgt_index (devmap entry) */
	struct nb_map *map;	/* BPF_F_BROADCAST: the map whose entries all receive */
	/*
	 * The map the XDP target came from; for a plain ifindex redirect map_type is
	 * BPF_MAP_TYPE_UNSPEC and map_id NB_REDIRECT_IFINDEX_ID (the kernel's INT_MAX: never an id).
	 */
	u32 map_id;
	enum bpf_map_type map_type;
	struct nb_redirect_nh nh;	/* NB_BPF_F_NEXTHOP: bpf_redirect_neigh's nexthop */
};

#define NB_REDIRECT_IFINDEX_ID 0x7fffffffU

/*
 * One worker's redirect info, a cache line or more of its own: the XDP and tc redirect helpers
 * and the hooks after them read and write it on every redirected frame, so it is reached in
 * line (the kernel's bpf_net_ctx_get_ri is too), not through a call.
 */
struct nb_redirect_info_pcpu {
	struct nb_redirect_info ri;
} __attribute__((aligned(64)));

extern struct nb_redirect_info_pcpu nb_redirect_infos[NB_MAX_CPUS];

/* This worker's redirect info (nb_this_cpu()). */
static inline struct nb_redirect_info *nb_redirect_info_get(void)
{
	return &nb_redirect_infos[nb_this_cpu()].ri;
}

/*
 * The transmit side of bpf_redirect_neigh (__bpf_redirect_neigh): route the packet out of dev
 * (or take nh as its nexthop), fill the link header from the neighbour table and transmit it.
 * Takes the packet; a packet without a route or valid neighbour is dropped and counted on dev.
 */
int nb_bpf_redirect_neigh(struct nb_pkt *pkt, struct nb_dev *dev, const struct nb_redirect_nh *nh);

#endif /* NB_NET_REDIRECT_H */
