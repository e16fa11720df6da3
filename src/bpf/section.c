// SPDX-License-Identifier: GPL-2.0
/*
 * The program type a section name implies, as libbpf's section table and iproute2's defaults
 * read them: "classifier", "tc" and "tc/ingress" are tc classifiers, "action" a tc action,
 * "xdp", "xdp.frags" and "xdp/devmap" XDP, "socket" a socket filter. Other names (iproute2
 * allows any, e.g. "redirect_xmit" or the "1/0" tail-call sections) take the type the loader
 * is given.
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
	{ "action", BPF_PROG_TYPE_SCHED_ACT, 0 },
	{ "xdp/devmap", BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP },
	{ "xdp.frags/devmap", BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP },
	{ "xdp/cpumap", BPF_PROG_TYPE_XDP, BPF_XDP_CPUMAP },
	{ "xdp.frags/cpumap", BPF_PROG_TYPE_XDP, BPF_XDP_CPUMAP },
	{ "xdp.frags", BPF_PROG_TYPE_XDP, BPF_XDP },
	{ "xdp", BPF_PROG_TYPE_XDP, BPF_XDP },
	{ "socket", BPF_PROG_TYPE_SOCKET_FILTER, 0 },
	{ "syscall", BPF_PROG_TYPE_SYSCALL, 0 },
	{ "lwt_in", BPF_PROG_TYPE_LWT_IN, 0 },
	{ "lwt_out", BPF_PROG_TYPE_LWT_OUT, 0 },
	{ "lwt_xmit", BPF_PROG_TYPE_LWT_XMIT, 0 },
	{ "cgroup/skb", BPF_PROG_TYPE_CGROUP_SKB, 0 },
	{ "cgroup_skb/ingress", BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS },
	{ "cgroup_skb/egress", BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS },
	{ "sk_skb", BPF_PROG_TYPE_SK_SKB, 0 },
};

/* The whole name, or the prefix followed by '/' ("tc/ingress") or '.' only where listed. */
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
