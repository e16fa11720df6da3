// SPDX-License-Identifier: GPL-2.0
/*
 * The redirect helpers of tc programs (net/core/filter.c): bpf_redirect and bpf_redirect_peer
 * record the target in this worker's redirect info and return TC_ACT_REDIRECT, which the hook
 * acts on (nb_skb_do_redirect); bpf_clone_redirect sends a clone at once and leaves the original
 * with the program, with private data so that its packet pointers may be written (they are
 * invalidated: changes_pkt_data).
 */
#include <errno.h>
#include <linux/pkt_cls.h>

#include "net/core.h"
#include "net/dev.h"
#include "net/filter.h"
#include "pkt/pkt.h"
#include "net/redirect.h"
#include "common/u64_stats.h"

#define CTX_PKT(r1) ((struct nb_pkt *)(uintptr_t)(r1))

static u64 bpf_redirect(u64 ifindex, u64 flags, u64 r3, u64 r4, u64 r5)
{
	struct nb_redirect_info *ri = nb_redirect_info_get();

	if (unlikely(flags & (~(u64)BPF_F_INGRESS | NB_BPF_F_REDIRECT_INTERNAL)))
		return TC_ACT_SHOT;
	ri->flags = (u32)flags;
	ri->tgt_index = (u32)ifindex;
	return TC_ACT_REDIRECT;
}

static const struct nb_func_proto bpf_redirect_proto = {
	.func = bpf_redirect,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

static u64 bpf_redirect_peer(u64 ifindex, u64 flags, u64 r3, u64 r4, u64 r5)
{
	struct nb_redirect_info *ri = nb_redirect_info_get();

	if (unlikely(flags))
		return TC_ACT_SHOT;
	ri->flags = NB_BPF_F_PEER;
	ri->tgt_index = (u32)ifindex;
	return TC_ACT_REDIRECT;
}

static const struct nb_func_proto bpf_redirect_peer_proto = {
	.func = bpf_redirect_peer,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

static u64 bpf_clone_redirect(u64 r1, u64 ifindex, u64 flags, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1), *clone;
	struct nb_dev_stats *stats;
	struct nb_dev *dev;
	int ret;

	if (unlikely(flags & (~(u64)BPF_F_INGRESS | NB_BPF_F_REDIRECT_INTERNAL)))
		return (u64)-EINVAL;
	dev = nb_dev_lookup_index((u32)ifindex);
	if (unlikely(!dev))
		return (u64)-EINVAL;
	clone = nb_pkt_clone(pkt);
	if (unlikely(!clone))
		return (u64)-ENOMEM;
	/* the original keeps writable data for the program (bpf_try_make_head_writable) */
	ret = nb_pkt_ensure_writable(pkt, nb_pkt_headlen(pkt));
	nb_pkt_compute_data_pointers(pkt);
	if (unlikely(ret)) {
		nb_pkt_free(clone);
		return (u64)-ENOMEM;
	}
	stats = nb_dev_this_stats(pkt->dev);
	nb_u64_stats_inc(&stats->clones);
	nb_u64_stats_inc(&stats->tc_redirect);
	return (u64)(s64)nb_bpf_redirect_pkt(clone, dev, (u32)flags);
}

static const struct nb_func_proto bpf_clone_redirect_proto = {
	.func = bpf_clone_redirect,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

const struct nb_func_proto *nb_tc_redirect_func_proto(enum bpf_func_id id)
{
	switch (id) {
	case BPF_FUNC_redirect:
		return &bpf_redirect_proto;
	case BPF_FUNC_redirect_peer:
		return &bpf_redirect_peer_proto;
	case BPF_FUNC_clone_redirect:
		return &bpf_clone_redirect_proto;
	default:
		return NULL;
	}
}
