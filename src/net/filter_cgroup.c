// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup helpers of tc programs (net/core/filter.c). netbpf has no cgroups: a cgroup array
 * (src/bpf/maps/sock_cgroup_maps.c) stays empty, and no packet is inside any cgroup, so the
 * helpers answer what the kernel answers for a packet outside all of them.
 */
#include <errno.h>

#include "bpf/map.h"
#include "net/filter.h"
#include "pkt/pkt.h"

/*
 * bpf_skb_under_cgroup(skb, map, index): whether the packet's socket is in the cgroup of the
 * array's slot. Without a socket -ENOENT (every packet of the datapath); a test run's packet
 * has one and meets the checks after it: -E2BIG past the array, -EAGAIN for a slot with no
 * cgroup (every slot: netbpf has none to put there).
 */
static u64 bpf_skb_under_cgroup(u64 r1, u64 r2, u64 index, u64 r4, u64 r5)
{
	const struct nb_pkt *pkt = (const struct nb_pkt *)(uintptr_t)r1;
	const struct nb_map *map = (const struct nb_map *)(uintptr_t)r2;

	if (!pkt->sk)
		return (u64)-ENOENT;
	if ((u32)index >= map->max_entries)
		return (u64)-E2BIG;
	return (u64)-EAGAIN;
}

static const enum bpf_map_type cgroup_array_types[] = { BPF_MAP_TYPE_CGROUP_ARRAY };

static const struct nb_func_proto bpf_skb_under_cgroup_proto = {
	.func = bpf_skb_under_cgroup,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_CONST_MAP_PTR, NB_ARG_ANYTHING },
	.map_types = cgroup_array_types,
	.map_type_cnt = ARRAY_SIZE(cgroup_array_types),
};

const struct nb_func_proto *nb_tc_cgroup_func_proto(enum bpf_func_id id)
{
	switch (id) {
	case BPF_FUNC_skb_under_cgroup:
		return &bpf_skb_under_cgroup_proto;
	default:
		return NULL;
	}
}
