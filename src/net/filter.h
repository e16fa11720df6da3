/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The packet helpers of the tc, socket filter and XDP program types (the kernel's
 * net/core/filter.c): each type's get_func_proto asks here first and falls back to the
 * generic helpers (nb_base_func_proto).
 */
#ifndef NB_NET_FILTER_H
#define NB_NET_FILTER_H

#include <stdbool.h>

#include "bpf/helper_proto.h"

struct nb_prog;

/* The kernel-internal ENOTSUPP (not EOPNOTSUPP), which some helpers return as it is. */
#define NB_ENOTSUPP 524

/* Helpers of SCHED_CLS and SCHED_ACT programs (tc_cls_act_func_proto); NULL: not a tc one. */
const struct nb_func_proto *nb_tc_func_proto(enum bpf_func_id id, const struct nb_prog *prog);
/* The tc helpers of filter_redirect.c (redirects) and filter_mangle.c (packet changes). */
const struct nb_func_proto *nb_tc_redirect_func_proto(enum bpf_func_id id);
const struct nb_func_proto *nb_tc_mangle_func_proto(enum bpf_func_id id);
/* The tc helpers of cgroups, which netbpf has none of (filter_cgroup.c). */
const struct nb_func_proto *nb_tc_cgroup_func_proto(enum bpf_func_id id);
/*
 * The socket helpers of filter_sock.c, as for a packet without a socket: tc (tc true) and
 * socket filters.
 */
const struct nb_func_proto *nb_skb_sock_func_proto(enum bpf_func_id id, bool tc);
/*
 * The socket lookups and the helpers on the socket found (filter_sk.c): tc (tc true)
 * and XDP.
 */
const struct nb_func_proto *nb_sk_func_proto(enum bpf_func_id id, bool tc);
/* The tunnel metadata helpers of filter_tunnel.c: bpf_skb_{get,set}_tunnel_{key,opt}. */
const struct nb_func_proto *nb_tc_tunnel_func_proto(enum bpf_func_id id);
/* The routing helpers of filter_fib.c: bpf_fib_lookup, bpf_check_mtu, bpf_redirect_neigh. */
const struct nb_func_proto *nb_tc_fib_func_proto(enum bpf_func_id id);
const struct nb_func_proto *nb_xdp_fib_func_proto(enum bpf_func_id id);
/* Helpers of SOCKET_FILTER programs (sk_filter_func_proto). */
const struct nb_func_proto *nb_sk_filter_func_proto(enum bpf_func_id id,
						    const struct nb_prog *prog);
/* Helpers of XDP programs (xdp_func_proto). */
const struct nb_func_proto *nb_xdp_func_proto(enum bpf_func_id id, const struct nb_prog *prog);
/* The helpers only XDP programs have: redirects, adjust, byte access (filter_xdp.c). */
const struct nb_func_proto *nb_xdp_own_func_proto(enum bpf_func_id id,
						  const struct nb_prog *prog);

#endif /* NB_NET_FILTER_H */
