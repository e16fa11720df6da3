/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic helpers' prototypes, defined next to what they work on (maps, ring buffers, time,
 * trace_printk, checksums) and gathered by nb_base_func_proto. Program types that need a
 * context-specific variant (bpf_perf_event_output on an skb) build it from these pieces.
 */
#ifndef NB_BPF_HELPERS_H
#define NB_BPF_HELPERS_H

#include "bpf/helper_proto.h"

struct nb_map;

extern const struct nb_func_proto nb_map_lookup_elem_proto;
extern const struct nb_func_proto nb_map_update_elem_proto;
extern const struct nb_func_proto nb_map_delete_elem_proto;
extern const struct nb_func_proto nb_map_push_elem_proto;
extern const struct nb_func_proto nb_map_pop_elem_proto;
extern const struct nb_func_proto nb_map_peek_elem_proto;
extern const struct nb_func_proto nb_tail_call_proto;
extern const struct nb_func_proto nb_for_each_map_elem_proto;
extern const struct nb_func_proto nb_loop_proto;
extern const struct nb_func_proto nb_ktime_get_ns_proto;
extern const struct nb_func_proto nb_ktime_get_boot_ns_proto;
extern const struct nb_func_proto nb_ktime_get_coarse_ns_proto;
extern const struct nb_func_proto nb_ktime_get_tai_ns_proto;
extern const struct nb_func_proto nb_jiffies64_proto;
extern const struct nb_func_proto nb_get_prandom_u32_proto;
extern const struct nb_func_proto nb_get_smp_processor_id_proto;
extern const struct nb_func_proto nb_get_numa_node_id_proto;
extern const struct nb_func_proto nb_trace_printk_proto;
extern const struct nb_func_proto nb_trace_vprintk_proto;
extern const struct nb_func_proto nb_snprintf_proto;
/* 0 when fmt is a format bpf_snprintf accepts with num_args arguments, else -EINVAL. */
int nb_bprintf_check(const char *fmt, u32 num_args);
extern const struct nb_func_proto nb_csum_diff_proto;
extern const struct nb_func_proto nb_ringbuf_output_proto;
extern const struct nb_func_proto nb_ringbuf_reserve_proto;
extern const struct nb_func_proto nb_ringbuf_submit_proto;
extern const struct nb_func_proto nb_ringbuf_discard_proto;
extern const struct nb_func_proto nb_ringbuf_query_proto;
extern const struct nb_func_proto nb_perf_event_output_proto;
extern const struct nb_func_proto nb_probe_read_kernel_proto;
extern const struct nb_func_proto nb_probe_read_user_proto;
extern const struct nb_func_proto nb_probe_read_kernel_str_proto;
extern const struct nb_func_proto nb_probe_read_user_str_proto;
extern const struct nb_func_proto nb_map_lookup_percpu_elem_proto;
/* The current task (task.c): the thread that runs the program. */
extern const struct nb_func_proto nb_get_current_pid_tgid_proto;
extern const struct nb_func_proto nb_get_current_uid_gid_proto;
extern const struct nb_func_proto nb_get_current_task_proto;
extern const struct nb_func_proto nb_get_current_comm_proto;
extern const struct nb_func_proto nb_get_current_cgroup_id_proto;
extern const struct nb_func_proto nb_get_current_ancestor_cgroup_id_proto;
extern const struct nb_func_proto nb_current_task_under_cgroup_proto;
extern const struct nb_func_proto nb_get_ns_current_pid_tgid_proto;
extern const struct nb_func_proto nb_get_cgroup_classid_curr_proto;
/* The lock of a map value (spin_lock.c). */
extern const struct nb_func_proto nb_spin_lock_proto;
extern const struct nb_func_proto nb_spin_unlock_proto;
/* Dynptrs (dynptr.c, maps/ringbuf.c). */
extern const struct nb_func_proto nb_ringbuf_reserve_dynptr_proto;
extern const struct nb_func_proto nb_ringbuf_submit_dynptr_proto;
extern const struct nb_func_proto nb_ringbuf_discard_dynptr_proto;
extern const struct nb_func_proto nb_dynptr_read_proto;
extern const struct nb_func_proto nb_dynptr_write_proto;
extern const struct nb_func_proto nb_dynptr_data_proto;
/* Timers (timer.c). */
extern const struct nb_func_proto nb_timer_init_proto;
extern const struct nb_func_proto nb_timer_set_callback_proto;
extern const struct nb_func_proto nb_timer_start_proto;
extern const struct nb_func_proto nb_timer_cancel_proto;
/* Strings (strtox.c). */
extern const struct nb_func_proto nb_strtol_proto;
extern const struct nb_func_proto nb_strtoul_proto;
extern const struct nb_func_proto nb_strncmp_proto;

/* The largest bpf_loop count (BPF_MAX_LOOPS). */
#define NB_MAX_LOOPS (8 * 1024 * 1024)

/*
 * bpf_perf_event_output's core: send size bytes of data, then ctx_size bytes of the context's
 * payload copied by copy_ctx (NULL when ctx_size is 0), to the consumer of map's slot in flags.
 */
long nb_perf_event_output(struct nb_map *map, u64 flags, const void *data, u64 size,
			  const void *ctx, u64 ctx_size,
			  unsigned long (*copy_ctx)(void *dst, const void *ctx, unsigned long off,
						    unsigned long len));

/* bpf_csum_diff's arithmetic (Linux 6.13+: folded to 16 bits), for types that reuse it. */
u64 nb_csum_diff(const void *from, u32 from_size, const void *to, u32 to_size, u32 seed);

/* skc_to.c: the bpf_skc_to_* casts (NULL for other ids); whether id is one of them. */
const struct nb_func_proto *nb_skc_to_func_proto(enum bpf_func_id id);
bool nb_is_skc_to_func(int id);

#endif /* NB_BPF_HELPERS_H */
