/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU redirect info, the twin of the kernel's struct bpf_redirect_info: a redirect
 * helper (bpf_redirect, bpf_redirect_map, ...) records its target here and returns the
 * redirect verdict; the datapath reads the target after the program returned (xdp_do_redirect,
 * skb_do_redirect) and clears what it consumed. A "CPU" is a datapath worker thread, so the
 * info is thread-local: a helper and the code that acts on its verdict run on one thread.
 */
#ifndef NB_NET_REDIRECT_H
#define NB_NET_REDIRECT_H

#include <linux/bpf.h>

#include "common/types.h"

struct nb_map;

struct nb_redirect_info {
	u64 tgt_index;			/* ifindex (bpf_redirect) or map key (bpf_redirect_map) */
	void *tgt_value;		/* the map element found for tgt_index (devmap entry) */
	struct nb_map *map;		/* BPF_F_BROADCAST: the map whose entries all receive */
	u32 flags;			/* BPF_F_INGRESS (tc); BPF_F_BROADCAST, ... (XDP) */
	/*
	 * The map the target came from; for a plain ifindex redirect map_type is
	 * BPF_MAP_TYPE_UNSPEC and map_id NB_REDIRECT_IFINDEX_ID (the kernel's INT_MAX: never a
	 * real id).
	 */
	u32 map_id;
	enum bpf_map_type map_type;
};

#define NB_REDIRECT_IFINDEX_ID 0x7fffffffU

extern __thread struct nb_redirect_info nb_this_redirect_info;

/* This worker's redirect info (bpf_net_ctx_get_ri). */
static inline struct nb_redirect_info *nb_redirect_info_get(void)
{
	return &nb_this_redirect_info;
}

#endif /* NB_NET_REDIRECT_H */
