// SPDX-License-Identifier: GPL-2.0
/*
 * Which helpers Linux offers a program type, whether netbpf has them or not: the twin of what
 * bpf_base_func_proto answers a privileged loader (CAP_BPF and CAP_PERFMON: netbpf verifies as
 * for one), here, beside each type's own list (its ops' kernel_funcs: tc_cls_act_func_proto,
 * xdp_func_proto, sk_filter_func_proto). With it the verifier tells the kernel's refusal
 * ("program of this type cannot use helper") from a helper netbpf lacks ("is not implemented
 * by netbpf"). Read from Linux 6.18; tests/kernel/test_helper_avail_kernel.c holds every list
 * to the running kernel, and netbpf's own helpers to them.
 */
#include <errno.h>

#include "bpf/helper_avail.h"
#include "bpf/helper_proto.h"
#include "bpf/prog_type.h"

static const s32 base_func_ids[] = {
	BPF_FUNC_map_lookup_elem, BPF_FUNC_map_update_elem, BPF_FUNC_map_delete_elem,
	BPF_FUNC_ktime_get_ns, BPF_FUNC_trace_printk, BPF_FUNC_get_prandom_u32,
	BPF_FUNC_get_smp_processor_id, BPF_FUNC_tail_call, BPF_FUNC_get_current_pid_tgid,
	BPF_FUNC_get_current_uid_gid, BPF_FUNC_get_current_comm, BPF_FUNC_get_cgroup_classid,
	BPF_FUNC_perf_event_read, BPF_FUNC_perf_event_output, BPF_FUNC_get_current_task,
	BPF_FUNC_current_task_under_cgroup, BPF_FUNC_get_numa_node_id,
	BPF_FUNC_perf_event_read_value, BPF_FUNC_get_current_cgroup_id, BPF_FUNC_map_push_elem,
	BPF_FUNC_map_pop_elem, BPF_FUNC_map_peek_elem, BPF_FUNC_spin_lock, BPF_FUNC_spin_unlock,
	BPF_FUNC_strtol, BPF_FUNC_strtoul, BPF_FUNC_send_signal, BPF_FUNC_probe_read_user,
	BPF_FUNC_probe_read_kernel, BPF_FUNC_probe_read_user_str, BPF_FUNC_probe_read_kernel_str,
	BPF_FUNC_send_signal_thread, BPF_FUNC_jiffies64, BPF_FUNC_get_ns_current_pid_tgid,
	BPF_FUNC_get_current_ancestor_cgroup_id, BPF_FUNC_ktime_get_boot_ns,
	BPF_FUNC_ringbuf_output, BPF_FUNC_ringbuf_reserve, BPF_FUNC_ringbuf_submit,
	BPF_FUNC_ringbuf_discard, BPF_FUNC_ringbuf_query, BPF_FUNC_skc_to_tcp6_sock,
	BPF_FUNC_skc_to_tcp_sock, BPF_FUNC_skc_to_tcp_timewait_sock,
	BPF_FUNC_skc_to_tcp_request_sock, BPF_FUNC_skc_to_udp6_sock, BPF_FUNC_get_task_stack,
	BPF_FUNC_copy_from_user, BPF_FUNC_snprintf_btf, BPF_FUNC_per_cpu_ptr,
	BPF_FUNC_this_cpu_ptr, BPF_FUNC_task_storage_get, BPF_FUNC_task_storage_delete,
	BPF_FUNC_get_current_task_btf, BPF_FUNC_ktime_get_coarse_ns, BPF_FUNC_for_each_map_elem,
	BPF_FUNC_snprintf, BPF_FUNC_timer_init, BPF_FUNC_timer_set_callback, BPF_FUNC_timer_start,
	BPF_FUNC_timer_cancel, BPF_FUNC_task_pt_regs, BPF_FUNC_get_branch_snapshot,
	BPF_FUNC_trace_vprintk, BPF_FUNC_skc_to_unix_sock, BPF_FUNC_find_vma, BPF_FUNC_loop,
	BPF_FUNC_strncmp, BPF_FUNC_copy_from_user_task, BPF_FUNC_kptr_xchg,
	BPF_FUNC_map_lookup_percpu_elem, BPF_FUNC_skc_to_mptcp_sock, BPF_FUNC_dynptr_from_mem,
	BPF_FUNC_ringbuf_reserve_dynptr, BPF_FUNC_ringbuf_submit_dynptr,
	BPF_FUNC_ringbuf_discard_dynptr, BPF_FUNC_dynptr_read, BPF_FUNC_dynptr_write,
	BPF_FUNC_dynptr_data, BPF_FUNC_ktime_get_tai_ns, BPF_FUNC_user_ringbuf_drain,
	NB_FUNC_CGRP_STORAGE_GET, NB_FUNC_CGRP_STORAGE_DELETE,
};

static bool ids_have(const s32 *ids, u32 cnt, s32 id)
{
	for (u32 i = 0; i < cnt; i++)
		if (ids[i] == id)
			return true;
	return false;
}

bool nb_kernel_offers_helper(const struct nb_prog_type_ops *ops, s32 id)
{
	const struct nb_helper_ids *own = ops->kernel_funcs;

	if (!own)
		return false;
	return ids_have(base_func_ids, ARRAY_SIZE(base_func_ids), id) ||
	       ids_have(own->ids, own->cnt, id);
}

/*
 * Asked of the type, not of one program: get_func_proto without a program answers for any
 * program of the type, as the verifier's check_helper_call finds it (a proto with a function).
 */
int nb_prog_type_helper_avail(enum bpf_prog_type type, __s32 id)
{
	const struct nb_prog_type_ops *ops = nb_prog_type_ops(type);

	/* a type without the kernel's list would be probed for nothing */
	if (!ops || !ops->kernel_funcs)
		return -EOPNOTSUPP;
	return nb_helper_avail(ops, id);
}

enum nb_helper_avail nb_helper_avail(const struct nb_prog_type_ops *ops, s32 id)
{
	const struct nb_func_proto *fn;

	if (id <= 0 || id >= __BPF_FUNC_MAX_ID)
		return nb_kernel_offers_helper(ops, id) ? NB_HELPER_MISSING : NB_HELPER_NOT_OFFERED;
	fn = ops->get_func_proto ? ops->get_func_proto((enum bpf_func_id)id, NULL) : NULL;
	if (fn && fn->func)
		return NB_HELPER_AVAILABLE;
	return nb_kernel_offers_helper(ops, id) ? NB_HELPER_MISSING : NB_HELPER_NOT_OFFERED;
}
