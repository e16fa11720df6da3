// SPDX-License-Identifier: GPL-2.0
/*
 * The bpf_skc_to_* casts (net/core/filter.c's bpf_skc_to_tcp6_sock and its siblings): a
 * socket of any view, checked, becomes a BTF pointer to the kernel struct of one kind of
 * socket (struct tcp_sock, tcp_request_sock, ...), or NULL when the socket is not of that
 * kind. The verifier types the result from the kernel's BTF (verifier/btf_ptr.c) and checks
 * every read through it there.
 *
 * At run time there is no such socket: lookups find none and the datapath's packets carry
 * none, and the one socket a program meets, a test run's, is what the kernel's test run
 * makes it, a full socket of no protocol in TCP_CLOSE of the packet's family, which is none
 * of these kinds (not TCP, not UDP, not AF_UNIX, not a request or timewait socket), so the
 * kernel's casts of it give NULL as well. Every cast returns NULL.
 */
#include "bpf/helpers.h"

static u64 bpf_skc_to_none(u64 sk, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)sk, (void)r2, (void)r3, (void)r4, (void)r5;
	return 0;
}

#define SKC_TO_PROTO(name, kstruct)                                                         \
	static const struct nb_func_proto name = {                                          \
		.func = bpf_skc_to_none,                                                    \
		.ret_type = NB_RET_PTR_TO_BTF_ID_OR_NULL,                                   \
		.ret_btf_struct = kstruct,                                                  \
		.arg_type = { NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON },                           \
	}

SKC_TO_PROTO(bpf_skc_to_tcp6_sock_proto, "tcp6_sock");
SKC_TO_PROTO(bpf_skc_to_tcp_sock_proto, "tcp_sock");
SKC_TO_PROTO(bpf_skc_to_tcp_timewait_sock_proto, "tcp_timewait_sock");
SKC_TO_PROTO(bpf_skc_to_tcp_request_sock_proto, "tcp_request_sock");
SKC_TO_PROTO(bpf_skc_to_udp6_sock_proto, "udp6_sock");
SKC_TO_PROTO(bpf_skc_to_unix_sock_proto, "unix_sock");
SKC_TO_PROTO(bpf_skc_to_mptcp_sock_proto, "mptcp_sock");

const struct nb_func_proto *nb_skc_to_func_proto(enum bpf_func_id id)
{
	switch (id) {
	case BPF_FUNC_skc_to_tcp6_sock:
		return &bpf_skc_to_tcp6_sock_proto;
	case BPF_FUNC_skc_to_tcp_sock:
		return &bpf_skc_to_tcp_sock_proto;
	case BPF_FUNC_skc_to_tcp_timewait_sock:
		return &bpf_skc_to_tcp_timewait_sock_proto;
	case BPF_FUNC_skc_to_tcp_request_sock:
		return &bpf_skc_to_tcp_request_sock_proto;
	case BPF_FUNC_skc_to_udp6_sock:
		return &bpf_skc_to_udp6_sock_proto;
	case BPF_FUNC_skc_to_unix_sock:
		return &bpf_skc_to_unix_sock_proto;
	case BPF_FUNC_skc_to_mptcp_sock:
		return &bpf_skc_to_mptcp_sock_proto;
	default:
		return NULL;
	}
}

bool nb_is_skc_to_func(int id)
{
	return nb_skc_to_func_proto(id) != NULL;
}
