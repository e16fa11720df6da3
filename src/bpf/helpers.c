// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers every program type may call, the twin of kernel/bpf/helpers.c and bpf_base_func_proto:
 * map access, tail calls, the CPU and NUMA ids, time and random numbers, bpf_loop and
 * bpf_for_each_map_elem. Ring buffer, perf event, trace_printk and checksum helpers live with
 * what they work on; nb_base_func_proto gathers them all.
 */
#include <errno.h>

#include <netbpf/clock.h>

#include "bpf/helpers.h"
#include "bpf/map.h"
#include "bpf/callback.h"

#define PTR(x) ((void *)(uintptr_t)(x))

/* Map types each map helper accepts (the kernel's check_map_func_compatibility). */
static const enum bpf_map_type lookup_map_types[] = {
	BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
	BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH,
	BPF_MAP_TYPE_LPM_TRIE, BPF_MAP_TYPE_ARRAY_OF_MAPS, BPF_MAP_TYPE_HASH_OF_MAPS,
	BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH, BPF_MAP_TYPE_CPUMAP, BPF_MAP_TYPE_XSKMAP,
	BPF_MAP_TYPE_SOCKMAP, BPF_MAP_TYPE_SOCKHASH,
};
static const enum bpf_map_type update_map_types[] = {
	BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
	BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH,
	BPF_MAP_TYPE_LPM_TRIE, BPF_MAP_TYPE_SOCKMAP, BPF_MAP_TYPE_SOCKHASH,
};
static const enum bpf_map_type queue_stack_map_types[] = {
	BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK,
};
static const enum bpf_map_type prog_array_map_types[] = { BPF_MAP_TYPE_PROG_ARRAY };
static const enum bpf_map_type for_each_map_types[] = {
	BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
	BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH,
};

#define MAP_TYPES(list) .map_types = list, .map_type_cnt = ARRAY_SIZE(list)

static u64 bpf_map_lookup_elem(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_map *map = PTR(r1);
	void *value = map->ops->map_lookup_elem(map, PTR(r2));

	/* Map-in-map slots hold the inner map: the program gets the map itself. */
	if (value && map->inner_map_meta)
		value = READ_ONCE(*(void **)value);
	return (u64)(uintptr_t)value;
}

const struct nb_func_proto nb_map_lookup_elem_proto = {
	.func = bpf_map_lookup_elem,
	.pkt_access = true,
	.ret_type = NB_RET_PTR_TO_MAP_VALUE_OR_NULL,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_MAP_KEY },
	MAP_TYPES(lookup_map_types),
};

/* The value of worker cpu in a per-CPU map, NULL for a cpu netbpf does not run. */
static u64 bpf_map_lookup_percpu_elem(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_map *map = PTR(r1);

	return (u64)(uintptr_t)map->ops->map_lookup_percpu_elem(map, PTR(r2), (u32)r3);
}

static const enum bpf_map_type percpu_lookup_map_types[] = {
	BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH,
};

const struct nb_func_proto nb_map_lookup_percpu_elem_proto = {
	.func = bpf_map_lookup_percpu_elem,
	.pkt_access = true,
	.ret_type = NB_RET_PTR_TO_MAP_VALUE_OR_NULL,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_MAP_KEY, NB_ARG_ANYTHING },
	MAP_TYPES(percpu_lookup_map_types),
};

static u64 bpf_map_update_elem(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_map *map = PTR(r1);

	return map->ops->map_update_elem(map, PTR(r2), PTR(r3), r4);
}

const struct nb_func_proto nb_map_update_elem_proto = {
	.func = bpf_map_update_elem,
	.pkt_access = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_MAP_KEY, NB_ARG_PTR_TO_MAP_VALUE,
		      NB_ARG_ANYTHING },
	MAP_TYPES(update_map_types),
};

static u64 bpf_map_delete_elem(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_map *map = PTR(r1);

	return map->ops->map_delete_elem(map, PTR(r2));
}

const struct nb_func_proto nb_map_delete_elem_proto = {
	.func = bpf_map_delete_elem,
	.pkt_access = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_MAP_KEY },
	MAP_TYPES(update_map_types),
};

static u64 bpf_map_push_elem(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_map *map = PTR(r1);

	return map->ops->map_push_elem(map, PTR(r2), r3);
}

const struct nb_func_proto nb_map_push_elem_proto = {
	.func = bpf_map_push_elem,
	.pkt_access = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_MAP_VALUE, NB_ARG_ANYTHING },
	MAP_TYPES(queue_stack_map_types),
};

static u64 bpf_map_pop_elem(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_map *map = PTR(r1);

	return map->ops->map_pop_elem(map, PTR(r2));
}

const struct nb_func_proto nb_map_pop_elem_proto = {
	.func = bpf_map_pop_elem,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_UNINIT_MAP_VALUE },
	MAP_TYPES(queue_stack_map_types),
};

static u64 bpf_map_peek_elem(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_map *map = PTR(r1);

	return map->ops->map_peek_elem(map, PTR(r2));
}

const struct nb_func_proto nb_map_peek_elem_proto = {
	.func = bpf_map_peek_elem,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_UNINIT_MAP_VALUE },
	MAP_TYPES(queue_stack_map_types),
};

/*
 * Fixup turns every bpf_tail_call into NB_OP_TAIL_CALL, which the engines run; this function is
 * reached only through a helper table built by hand, and behaves as a failed tail call does.
 */
static u64 bpf_tail_call(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return 0;
}

const struct nb_func_proto nb_tail_call_proto = {
	.func = bpf_tail_call,
	.ret_type = NB_RET_VOID,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_CONST_MAP_PTR, NB_ARG_ANYTHING },
	MAP_TYPES(prog_array_map_types),
};

static u64 bpf_for_each_map_elem(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_map *map = PTR(r1);

	if (!map->ops->map_for_each_callback)
		return (u64)-EINVAL;
	return map->ops->map_for_each_callback(map, PTR(r2), PTR(r3), r4);
}

const struct nb_func_proto nb_for_each_map_elem_proto = {
	.func = bpf_for_each_map_elem,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_FUNC, NB_ARG_PTR_TO_STACK_OR_NULL,
		      NB_ARG_ANYTHING },
	MAP_TYPES(for_each_map_types),
};

/* bpf_loop: callback(i, ctx) for i below nr_loops until it returns non-zero. */
static u64 bpf_loop(u64 nr_loops, u64 callback_fn, u64 callback_ctx, u64 flags, u64 r5)
{
	u64 i;

	if (flags)
		return (u64)-EINVAL;
	if (nr_loops > NB_MAX_LOOPS)
		return (u64)-E2BIG;
	for (i = 0; i < nr_loops; i++)
		if (nb_callback_run(PTR(callback_fn), i, callback_ctx, 0, 0, 0))
			return i + 1;
	return i;
}

const struct nb_func_proto nb_loop_proto = {
	.func = bpf_loop,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_ANYTHING, NB_ARG_PTR_TO_FUNC, NB_ARG_PTR_TO_STACK_OR_NULL,
		      NB_ARG_ANYTHING },
};

/*
 * Helpers without arguments that return one value, with their prototypes: the twin of the
 * kernel's BPF_CALL_0.
 */
#define NB_HELPER_0(name, expr)                                                             \
	static u64 bpf_##name(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)                       \
	{                                                                                   \
		return (expr);                                                              \
	}                                                                                   \
	const struct nb_func_proto nb_##name##_proto = {                                    \
		.func = bpf_##name,                                                         \
		.ret_type = NB_RET_INTEGER,                                                 \
	}

NB_HELPER_0(ktime_get_ns, nb_ktime_get_ns());
NB_HELPER_0(ktime_get_boot_ns, nb_ktime_get_boot_ns());
NB_HELPER_0(ktime_get_coarse_ns, nb_ktime_get_coarse_ns());
NB_HELPER_0(ktime_get_tai_ns, nb_ktime_get_tai_ns());
NB_HELPER_0(jiffies64, nb_jiffies64());
NB_HELPER_0(get_prandom_u32, nb_prandom_u32());
NB_HELPER_0(get_smp_processor_id, nb_this_cpu());
/* One NUMA node: the datapath does not place memory per node. */
NB_HELPER_0(get_numa_node_id, 0);

const struct nb_func_proto *nb_base_func_proto(enum bpf_func_id id)
{
	switch (id) {
	case BPF_FUNC_map_lookup_elem:
		return &nb_map_lookup_elem_proto;
	case BPF_FUNC_map_update_elem:
		return &nb_map_update_elem_proto;
	case BPF_FUNC_map_delete_elem:
		return &nb_map_delete_elem_proto;
	case BPF_FUNC_map_push_elem:
		return &nb_map_push_elem_proto;
	case BPF_FUNC_map_pop_elem:
		return &nb_map_pop_elem_proto;
	case BPF_FUNC_map_peek_elem:
		return &nb_map_peek_elem_proto;
	case BPF_FUNC_tail_call:
		return &nb_tail_call_proto;
	case BPF_FUNC_for_each_map_elem:
		return &nb_for_each_map_elem_proto;
	case BPF_FUNC_loop:
		return &nb_loop_proto;
	case BPF_FUNC_ktime_get_ns:
		return &nb_ktime_get_ns_proto;
	case BPF_FUNC_ktime_get_boot_ns:
		return &nb_ktime_get_boot_ns_proto;
	case BPF_FUNC_ktime_get_coarse_ns:
		return &nb_ktime_get_coarse_ns_proto;
	case BPF_FUNC_ktime_get_tai_ns:
		return &nb_ktime_get_tai_ns_proto;
	case BPF_FUNC_get_current_pid_tgid:
		return &nb_get_current_pid_tgid_proto;
	case BPF_FUNC_get_current_uid_gid:
		return &nb_get_current_uid_gid_proto;
	case BPF_FUNC_get_current_task:
		return &nb_get_current_task_proto;
	case BPF_FUNC_get_current_comm:
		return &nb_get_current_comm_proto;
	case BPF_FUNC_get_current_cgroup_id:
		return &nb_get_current_cgroup_id_proto;
	case BPF_FUNC_get_current_ancestor_cgroup_id:
		return &nb_get_current_ancestor_cgroup_id_proto;
	case BPF_FUNC_current_task_under_cgroup:
		return &nb_current_task_under_cgroup_proto;
	case BPF_FUNC_get_ns_current_pid_tgid:
		return &nb_get_ns_current_pid_tgid_proto;
	case BPF_FUNC_get_cgroup_classid:	/* tc has its own, of the packet */
		return &nb_get_cgroup_classid_curr_proto;
	case BPF_FUNC_spin_lock:
		return &nb_spin_lock_proto;
	case BPF_FUNC_spin_unlock:
		return &nb_spin_unlock_proto;
	case BPF_FUNC_timer_init:
		return &nb_timer_init_proto;
	case BPF_FUNC_timer_set_callback:
		return &nb_timer_set_callback_proto;
	case BPF_FUNC_timer_start:
		return &nb_timer_start_proto;
	case BPF_FUNC_timer_cancel:
		return &nb_timer_cancel_proto;
	case BPF_FUNC_strtol:
		return &nb_strtol_proto;
	case BPF_FUNC_strtoul:
		return &nb_strtoul_proto;
	case BPF_FUNC_strncmp:
		return &nb_strncmp_proto;
	case BPF_FUNC_map_lookup_percpu_elem:
		return &nb_map_lookup_percpu_elem_proto;
	case BPF_FUNC_jiffies64:
		return &nb_jiffies64_proto;
	case BPF_FUNC_get_prandom_u32:
		return &nb_get_prandom_u32_proto;
	case BPF_FUNC_get_smp_processor_id:
		return &nb_get_smp_processor_id_proto;
	case BPF_FUNC_get_numa_node_id:
		return &nb_get_numa_node_id_proto;
	case BPF_FUNC_trace_printk:
		return &nb_trace_printk_proto;
	case BPF_FUNC_trace_vprintk:
		return &nb_trace_vprintk_proto;
	case BPF_FUNC_snprintf:
		return &nb_snprintf_proto;
	case BPF_FUNC_csum_diff:
		return &nb_csum_diff_proto;
	case BPF_FUNC_ringbuf_output:
		return &nb_ringbuf_output_proto;
	case BPF_FUNC_ringbuf_reserve:
		return &nb_ringbuf_reserve_proto;
	case BPF_FUNC_ringbuf_submit:
		return &nb_ringbuf_submit_proto;
	case BPF_FUNC_ringbuf_discard:
		return &nb_ringbuf_discard_proto;
	case BPF_FUNC_ringbuf_query:
		return &nb_ringbuf_query_proto;
	case BPF_FUNC_ringbuf_reserve_dynptr:
		return &nb_ringbuf_reserve_dynptr_proto;
	case BPF_FUNC_ringbuf_submit_dynptr:
		return &nb_ringbuf_submit_dynptr_proto;
	case BPF_FUNC_ringbuf_discard_dynptr:
		return &nb_ringbuf_discard_dynptr_proto;
	case BPF_FUNC_dynptr_read:
		return &nb_dynptr_read_proto;
	case BPF_FUNC_dynptr_write:
		return &nb_dynptr_write_proto;
	case BPF_FUNC_dynptr_data:
		return &nb_dynptr_data_proto;
	case BPF_FUNC_perf_event_output:
		return &nb_perf_event_output_proto;
	case BPF_FUNC_probe_read_kernel:
		return &nb_probe_read_kernel_proto;
	case BPF_FUNC_probe_read_user:
		return &nb_probe_read_user_proto;
	case BPF_FUNC_probe_read_kernel_str:
		return &nb_probe_read_kernel_str_proto;
	case BPF_FUNC_probe_read_user_str:
		return &nb_probe_read_user_str_proto;
	default:
		return nb_skc_to_func_proto(id);
	}
}
