// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers Linux 6.18 offers tc, XDP and socket filter programs besides the base ones
 * (net/core/filter.c's tc_cls_act_func_proto, xdp_func_proto and sk_filter_func_proto, the
 * base ones in src/bpf/helper_avail.c), whether netbpf implements them or not. Kept apart from
 * the helpers themselves (filter*.c): this is the kernel's rule, those are netbpf's work.
 */
#include "bpf/helper_avail.h"

static const s32 tc_cls_act_ids[] = {
	BPF_FUNC_skb_store_bytes, BPF_FUNC_l3_csum_replace, BPF_FUNC_l4_csum_replace,
	BPF_FUNC_clone_redirect, BPF_FUNC_skb_vlan_push, BPF_FUNC_skb_vlan_pop,
	BPF_FUNC_skb_get_tunnel_key, BPF_FUNC_skb_set_tunnel_key, BPF_FUNC_redirect,
	BPF_FUNC_get_route_realm, BPF_FUNC_skb_load_bytes, BPF_FUNC_csum_diff,
	BPF_FUNC_skb_get_tunnel_opt, BPF_FUNC_skb_set_tunnel_opt, BPF_FUNC_skb_change_proto,
	BPF_FUNC_skb_change_type, BPF_FUNC_skb_under_cgroup, BPF_FUNC_get_hash_recalc,
	BPF_FUNC_skb_change_tail, BPF_FUNC_skb_pull_data, BPF_FUNC_csum_update,
	BPF_FUNC_set_hash_invalid, BPF_FUNC_skb_change_head, BPF_FUNC_get_socket_cookie,
	BPF_FUNC_get_socket_uid, BPF_FUNC_set_hash, BPF_FUNC_skb_adjust_room,
	BPF_FUNC_skb_get_xfrm_state, BPF_FUNC_skb_load_bytes_relative, BPF_FUNC_fib_lookup,
	BPF_FUNC_skb_cgroup_id, BPF_FUNC_skb_ancestor_cgroup_id, BPF_FUNC_sk_lookup_tcp,
	BPF_FUNC_sk_lookup_udp, BPF_FUNC_sk_release, BPF_FUNC_sk_fullsock, BPF_FUNC_tcp_sock,
	BPF_FUNC_skb_ecn_set_ce, BPF_FUNC_get_listener_sock, BPF_FUNC_skc_lookup_tcp,
	BPF_FUNC_tcp_check_syncookie, BPF_FUNC_sk_storage_get, BPF_FUNC_sk_storage_delete,
	BPF_FUNC_tcp_gen_syncookie, BPF_FUNC_get_netns_cookie, BPF_FUNC_sk_assign,
	BPF_FUNC_csum_level, BPF_FUNC_skb_cgroup_classid, BPF_FUNC_redirect_neigh,
	BPF_FUNC_redirect_peer, BPF_FUNC_check_mtu, BPF_FUNC_skb_set_tstamp,
	BPF_FUNC_tcp_raw_gen_syncookie_ipv4, BPF_FUNC_tcp_raw_gen_syncookie_ipv6,
	BPF_FUNC_tcp_raw_check_syncookie_ipv4, BPF_FUNC_tcp_raw_check_syncookie_ipv6,
};

const struct nb_helper_ids nb_tc_cls_act_kernel_funcs = {
	tc_cls_act_ids, ARRAY_SIZE(tc_cls_act_ids),
};

static const s32 xdp_ids[] = {
	BPF_FUNC_redirect, BPF_FUNC_csum_diff, BPF_FUNC_xdp_adjust_head, BPF_FUNC_redirect_map,
	BPF_FUNC_xdp_adjust_meta, BPF_FUNC_xdp_adjust_tail, BPF_FUNC_fib_lookup,
	BPF_FUNC_sk_lookup_tcp, BPF_FUNC_sk_lookup_udp, BPF_FUNC_sk_release,
	BPF_FUNC_skc_lookup_tcp, BPF_FUNC_tcp_check_syncookie, BPF_FUNC_tcp_gen_syncookie,
	BPF_FUNC_check_mtu, BPF_FUNC_xdp_get_buff_len, BPF_FUNC_xdp_load_bytes,
	BPF_FUNC_xdp_store_bytes, BPF_FUNC_tcp_raw_gen_syncookie_ipv4,
	BPF_FUNC_tcp_raw_gen_syncookie_ipv6, BPF_FUNC_tcp_raw_check_syncookie_ipv4,
	BPF_FUNC_tcp_raw_check_syncookie_ipv6,
};

const struct nb_helper_ids nb_xdp_kernel_funcs = { xdp_ids, ARRAY_SIZE(xdp_ids) };

static const s32 sk_filter_ids[] = {
	BPF_FUNC_skb_load_bytes, BPF_FUNC_get_socket_cookie, BPF_FUNC_get_socket_uid,
	BPF_FUNC_skb_load_bytes_relative, BPF_FUNC_get_netns_cookie,
};

const struct nb_helper_ids nb_sk_filter_kernel_funcs = {
	sk_filter_ids, ARRAY_SIZE(sk_filter_ids),
};
