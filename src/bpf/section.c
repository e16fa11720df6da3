// SPDX-License-Identifier: GPL-2.0
/*
 * The program type a section name implies, as libbpf's section table and iproute2's defaults
 * read them: "classifier", "tc" and "tc/ingress" are tc classifiers, "action" a tc action,
 * "xdp", "xdp.frags" and "xdp/devmap" XDP, "socket" a socket filter. Other names (iproute2
 * allows any, e.g. "redirect_xmit" or the "1/0" tail-call sections) take the type the loader
 * is given.
 *
 * The sections of the program types netbpf does not run (kprobe/, fentry/, cgroup_skb/, ...)
 * are known too, so that loading one says what it is rather than that the name tells nothing.
 */
#include <string.h>

#include "bpf/object.h"

static const struct {
	const char *prefix;
	enum bpf_prog_type type;
	enum bpf_attach_type attach_type;
} sec_types[] = {
	{ "classifier", BPF_PROG_TYPE_SCHED_CLS, 0 },
	{ "tc", BPF_PROG_TYPE_SCHED_CLS, 0 },
	{ "tcx", BPF_PROG_TYPE_SCHED_CLS, 0 },
	{ "netkit", BPF_PROG_TYPE_SCHED_CLS, 0 },
	{ "action", BPF_PROG_TYPE_SCHED_ACT, 0 },
	{ "xdp/devmap", BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP },
	{ "xdp.frags/devmap", BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP },
	{ "xdp/cpumap", BPF_PROG_TYPE_XDP, BPF_XDP_CPUMAP },
	{ "xdp.frags/cpumap", BPF_PROG_TYPE_XDP, BPF_XDP_CPUMAP },
	{ "xdp.frags", BPF_PROG_TYPE_XDP, BPF_XDP },
	{ "xdp", BPF_PROG_TYPE_XDP, BPF_XDP },
	{ "socket", BPF_PROG_TYPE_SOCKET_FILTER, 0 },
	/* Types netbpf does not run, named so that the refusal can say what they are. */
	{ "syscall", BPF_PROG_TYPE_SYSCALL, 0 },
	{ "kprobe", BPF_PROG_TYPE_KPROBE, 0 },
	{ "kretprobe", BPF_PROG_TYPE_KPROBE, 0 },
	{ "uprobe", BPF_PROG_TYPE_KPROBE, 0 },
	{ "uretprobe", BPF_PROG_TYPE_KPROBE, 0 },
	{ "uprobe.s", BPF_PROG_TYPE_KPROBE, 0 },
	{ "uretprobe.s", BPF_PROG_TYPE_KPROBE, 0 },
	{ "kprobe.multi", BPF_PROG_TYPE_KPROBE, 0 },
	{ "kretprobe.multi", BPF_PROG_TYPE_KPROBE, 0 },
	{ "uprobe.multi", BPF_PROG_TYPE_KPROBE, 0 },
	{ "uretprobe.multi", BPF_PROG_TYPE_KPROBE, 0 },
	{ "ksyscall", BPF_PROG_TYPE_KPROBE, 0 },
	{ "kretsyscall", BPF_PROG_TYPE_KPROBE, 0 },
	{ "usdt", BPF_PROG_TYPE_KPROBE, 0 },
	{ "tracepoint", BPF_PROG_TYPE_TRACEPOINT, 0 },
	{ "tp", BPF_PROG_TYPE_TRACEPOINT, 0 },
	{ "raw_tracepoint", BPF_PROG_TYPE_RAW_TRACEPOINT, 0 },
	{ "raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT, 0 },
	{ "raw_tracepoint.w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0 },
	{ "raw_tp.w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0 },
	{ "tp_btf", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP },
	{ "fentry", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY },
	{ "fentry.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY },
	{ "fmod_ret", BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN },
	{ "fmod_ret.s", BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN },
	{ "fexit", BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT },
	{ "fexit.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT },
	{ "iter", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER },
	{ "iter.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER },
	{ "freplace", BPF_PROG_TYPE_EXT, 0 },
	{ "lsm", BPF_PROG_TYPE_LSM, BPF_LSM_MAC },
	{ "lsm.s", BPF_PROG_TYPE_LSM, BPF_LSM_MAC },
	{ "lsm_cgroup", BPF_PROG_TYPE_LSM, BPF_LSM_CGROUP },
	{ "perf_event", BPF_PROG_TYPE_PERF_EVENT, 0 },
	{ "lwt_in", BPF_PROG_TYPE_LWT_IN, 0 },
	{ "lwt_out", BPF_PROG_TYPE_LWT_OUT, 0 },
	{ "lwt_xmit", BPF_PROG_TYPE_LWT_XMIT, 0 },
	{ "lwt_seg6local", BPF_PROG_TYPE_LWT_SEG6LOCAL, 0 },
	{ "sockops", BPF_PROG_TYPE_SOCK_OPS, 0 },
	{ "sk_skb", BPF_PROG_TYPE_SK_SKB, 0 },
	{ "sk_msg", BPF_PROG_TYPE_SK_MSG, 0 },
	{ "lirc_mode2", BPF_PROG_TYPE_LIRC_MODE2, 0 },
	{ "flow_dissector", BPF_PROG_TYPE_FLOW_DISSECTOR, 0 },
	{ "sk_lookup", BPF_PROG_TYPE_SK_LOOKUP, 0 },
	{ "sk_reuseport", BPF_PROG_TYPE_SK_REUSEPORT, 0 },
	{ "struct_ops", BPF_PROG_TYPE_STRUCT_OPS, 0 },
	{ "struct_ops.s", BPF_PROG_TYPE_STRUCT_OPS, 0 },
	{ "cgroup_skb", BPF_PROG_TYPE_CGROUP_SKB, 0 },
	{ "cgroup/skb", BPF_PROG_TYPE_CGROUP_SKB, 0 },
	{ "cgroup/dev", BPF_PROG_TYPE_CGROUP_DEVICE, 0 },
	{ "cgroup/sysctl", BPF_PROG_TYPE_CGROUP_SYSCTL, 0 },
	{ "cgroup/sock", BPF_PROG_TYPE_CGROUP_SOCK, 0 },
	{ "cgroup/sock_create", BPF_PROG_TYPE_CGROUP_SOCK, 0 },
	{ "cgroup/sock_release", BPF_PROG_TYPE_CGROUP_SOCK, 0 },
	{ "cgroup/post_bind4", BPF_PROG_TYPE_CGROUP_SOCK, 0 },
	{ "cgroup/post_bind6", BPF_PROG_TYPE_CGROUP_SOCK, 0 },
	{ "cgroup/getsockopt", BPF_PROG_TYPE_CGROUP_SOCKOPT, 0 },
	{ "cgroup/setsockopt", BPF_PROG_TYPE_CGROUP_SOCKOPT, 0 },
	{ "cgroup/bind4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/bind6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/connect4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/connect6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/sendmsg4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/sendmsg6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/recvmsg4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/recvmsg6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/getpeername4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/getpeername6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/getsockname4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
	{ "cgroup/getsockname6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 0 },
};

/* The whole name, or the prefix followed by '/' ("tc/ingress", "kprobe/do_sys_open"). */
static bool sec_matches(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && (name[n] == '\0' || name[n] == '/');
}

void nb_guess_prog_type(const char *sec_name, enum bpf_prog_type *type,
			enum bpf_attach_type *attach_type)
{
	*type = BPF_PROG_TYPE_UNSPEC;
	*attach_type = 0;
	for (size_t i = 0; i < ARRAY_SIZE(sec_types); i++) {
		if (sec_matches(sec_name, sec_types[i].prefix)) {
			*type = sec_types[i].type;
			*attach_type = sec_types[i].attach_type;
			return;
		}
	}
}
