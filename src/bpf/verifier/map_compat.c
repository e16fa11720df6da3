// SPDX-License-Identifier: GPL-2.0
/*
 * Which helpers may take which map types, in both directions: the twin of the kernel's
 * check_map_func_compatibility. A map type that programs reach only through special helpers
 * (prog_array, devmap, ringbuf, ...) accepts only those; a helper that works on special maps
 * accepts only them. The helper's own prototype may narrow the list further (map_types).
 */
#include "bpf/verifier/verifier.h"

static bool func_in(int func_id, const int *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == func_id)
			return true;
	return false;
}

#define FUNC_IN(id, ...) func_in(id, (const int[]){ __VA_ARGS__ }, \
				 sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))

/* Map side: false when the map type does not accept the helper. */
static bool map_allows_func(enum bpf_map_type type, int f)
{
	switch (type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
		return f == BPF_FUNC_tail_call;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		return FUNC_IN(f, BPF_FUNC_perf_event_read, BPF_FUNC_perf_event_output,
			       BPF_FUNC_skb_output, BPF_FUNC_perf_event_read_value,
			       BPF_FUNC_xdp_output);
	case BPF_MAP_TYPE_RINGBUF:
		return FUNC_IN(f, BPF_FUNC_ringbuf_output, BPF_FUNC_ringbuf_reserve,
			       BPF_FUNC_ringbuf_query, BPF_FUNC_ringbuf_reserve_dynptr,
			       BPF_FUNC_ringbuf_submit_dynptr, BPF_FUNC_ringbuf_discard_dynptr);
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return FUNC_IN(f, BPF_FUNC_redirect_map, BPF_FUNC_map_lookup_elem);
	case BPF_MAP_TYPE_CPUMAP:
		return f == BPF_FUNC_redirect_map;
	case BPF_MAP_TYPE_XSKMAP:
		return FUNC_IN(f, BPF_FUNC_redirect_map, BPF_FUNC_map_lookup_elem);
	case BPF_MAP_TYPE_CGROUP_ARRAY:
		return FUNC_IN(f, BPF_FUNC_skb_under_cgroup, BPF_FUNC_current_task_under_cgroup);
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return f == BPF_FUNC_get_local_storage;
	case BPF_MAP_TYPE_SOCKMAP:
		return FUNC_IN(f, BPF_FUNC_sk_redirect_map, BPF_FUNC_sock_map_update,
			       BPF_FUNC_msg_redirect_map, BPF_FUNC_sk_select_reuseport,
			       BPF_FUNC_map_lookup_elem, BPF_FUNC_map_update_elem,
			       BPF_FUNC_map_delete_elem);
	case BPF_MAP_TYPE_SOCKHASH:
		return FUNC_IN(f, BPF_FUNC_sk_redirect_hash, BPF_FUNC_sock_hash_update,
			       BPF_FUNC_msg_redirect_hash, BPF_FUNC_sk_select_reuseport,
			       BPF_FUNC_map_lookup_elem, BPF_FUNC_map_update_elem,
			       BPF_FUNC_map_delete_elem);
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY:
		return f == BPF_FUNC_sk_select_reuseport;
	case BPF_MAP_TYPE_SK_STORAGE:
		return FUNC_IN(f, BPF_FUNC_sk_storage_get, BPF_FUNC_sk_storage_delete,
			       BPF_FUNC_kptr_xchg);
	case BPF_MAP_TYPE_USER_RINGBUF:
		return f == BPF_FUNC_user_ringbuf_drain;
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return f == BPF_FUNC_map_lookup_elem;
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		return FUNC_IN(f, BPF_FUNC_map_peek_elem, BPF_FUNC_map_pop_elem,
			       BPF_FUNC_map_push_elem);
	case BPF_MAP_TYPE_BLOOM_FILTER:
		return FUNC_IN(f, BPF_FUNC_map_peek_elem, BPF_FUNC_map_push_elem);
	default:
		return true;
	}
}

/* Helper side: false when the helper does not work on the map type. */
static bool func_allows_map(int f, enum bpf_map_type t)
{
	switch (f) {
	case BPF_FUNC_tail_call:
		return t == BPF_MAP_TYPE_PROG_ARRAY;
	case BPF_FUNC_perf_event_read:
	case BPF_FUNC_perf_event_output:
	case BPF_FUNC_perf_event_read_value:
	case BPF_FUNC_skb_output:
	case BPF_FUNC_xdp_output:
		return t == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	case BPF_FUNC_ringbuf_output:
	case BPF_FUNC_ringbuf_reserve:
	case BPF_FUNC_ringbuf_query:
	case BPF_FUNC_ringbuf_reserve_dynptr:
		return t == BPF_MAP_TYPE_RINGBUF;
	case BPF_FUNC_redirect_map:
		return t == BPF_MAP_TYPE_DEVMAP || t == BPF_MAP_TYPE_DEVMAP_HASH ||
		       t == BPF_MAP_TYPE_CPUMAP || t == BPF_MAP_TYPE_XSKMAP;
	case BPF_FUNC_map_peek_elem:
	case BPF_FUNC_map_push_elem:
		return t == BPF_MAP_TYPE_QUEUE || t == BPF_MAP_TYPE_STACK ||
		       t == BPF_MAP_TYPE_BLOOM_FILTER;
	case BPF_FUNC_map_pop_elem:
		return t == BPF_MAP_TYPE_QUEUE || t == BPF_MAP_TYPE_STACK;
	case BPF_FUNC_skb_under_cgroup:
	case BPF_FUNC_current_task_under_cgroup:
		return t == BPF_MAP_TYPE_CGROUP_ARRAY;
	case BPF_FUNC_get_local_storage:
		return t == BPF_MAP_TYPE_CGROUP_STORAGE || t == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
	case BPF_FUNC_sk_redirect_map:
	case BPF_FUNC_msg_redirect_map:
	case BPF_FUNC_sock_map_update:
		return t == BPF_MAP_TYPE_SOCKMAP;
	case BPF_FUNC_sk_redirect_hash:
	case BPF_FUNC_msg_redirect_hash:
	case BPF_FUNC_sock_hash_update:
		return t == BPF_MAP_TYPE_SOCKHASH;
	case BPF_FUNC_sk_select_reuseport:
		return t == BPF_MAP_TYPE_REUSEPORT_SOCKARRAY || t == BPF_MAP_TYPE_SOCKMAP ||
		       t == BPF_MAP_TYPE_SOCKHASH;
	case BPF_FUNC_sk_storage_get:
	case BPF_FUNC_sk_storage_delete:
		return t == BPF_MAP_TYPE_SK_STORAGE;
	case BPF_FUNC_user_ringbuf_drain:
		return t == BPF_MAP_TYPE_USER_RINGBUF;
	case BPF_FUNC_for_each_map_elem:
		return t == BPF_MAP_TYPE_HASH || t == BPF_MAP_TYPE_LRU_HASH ||
		       t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
		       t == BPF_MAP_TYPE_LRU_PERCPU_HASH || t == BPF_MAP_TYPE_PERCPU_ARRAY;
	default:
		return true;
	}
}

int check_map_func_compatibility(struct nb_verifier_env *env, struct nb_map *map, int func_id)
{
	if (!map)
		return 0;
	if (!map_allows_func(map->map_type, func_id) || !func_allows_map(func_id, map->map_type)) {
		verbose(env, "cannot pass map_type %d into func %s#%d\n", map->map_type,
			nb_helper_name(func_id) ?: "unknown", func_id);
		return -EINVAL;
	}
	return 0;
}
