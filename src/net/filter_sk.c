// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers that find a socket for a packet and act on the socket found (net/core/filter.c's
 * bpf_sk_lookup_tcp, bpf_sk_lookup_udp, bpf_skc_lookup_tcp, bpf_sk_release, bpf_sk_fullsock,
 * bpf_tcp_sock, bpf_get_listener_sock, bpf_tcp_check_syncookie, bpf_tcp_gen_syncookie,
 * bpf_sk_assign) and the socket's local storage (net/core/bpf_sk_storage.c's
 * bpf_sk_storage_get and bpf_sk_storage_delete), for tc and XDP programs.
 *
 * netbpf has no sockets to find, so every lookup returns NULL, the kernel's answer for a
 * packet that matches no socket (and for a malformed tuple or flags), and socket maps stay
 * empty. The one socket a program can reach is a test run's (skb->sk, net/sock.h): a full
 * socket of no protocol in TCP_CLOSE, so the helpers that take a socket answer for it as the
 * kernel answers for its test run's socket: no TCP view, no listener, no syncookie, no
 * assignment outside tc ingress, storage created on it when asked to.
 */
#include <errno.h>

#include "net/filter.h"
#include "pkt/pkt.h"
#include "net/sock.h"

#define SOCK(r) ((struct nb_sock *)(uintptr_t)(r))

/* Every lookup: no socket matches. */
static u64 bpf_sk_lookup_none(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return 0;
}

#define SK_LOOKUP_PROTO(name, ret)                                                          \
	static const struct nb_func_proto name = {                                          \
		.func = bpf_sk_lookup_none,                                                 \
		.pkt_access = true,                                                         \
		.ret_type = ret,                                                            \
		.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE,      \
			      NB_ARG_ANYTHING, NB_ARG_ANYTHING },                           \
	}

SK_LOOKUP_PROTO(bpf_sk_lookup_tcp_proto, NB_RET_PTR_TO_SOCKET_OR_NULL);
SK_LOOKUP_PROTO(bpf_sk_lookup_udp_proto, NB_RET_PTR_TO_SOCKET_OR_NULL);
SK_LOOKUP_PROTO(bpf_skc_lookup_tcp_proto, NB_RET_PTR_TO_SOCK_COMMON_OR_NULL);

/* The verifier lets only an acquired socket in (a lookup's): there is none to drop. */
static u64 bpf_sk_release(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return 0;
}

static const struct nb_func_proto bpf_sk_release_proto = {
	.func = bpf_sk_release,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_SOCK_COMMON_RELEASE },
};

/* The test run's socket is a full one (no request or timewait socket). */
static u64 bpf_sk_fullsock(u64 sk, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r2, (void)r3, (void)r4, (void)r5;
	return sk;
}

/*
 * bpf_tcp_sock needs a TCP socket, bpf_get_listener_sock a listening one: the test run's
 * socket is neither (no protocol, TCP_CLOSE).
 */
static u64 bpf_sk_view_none(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return 0;
}

static const struct nb_func_proto bpf_sk_fullsock_proto = {
	.func = bpf_sk_fullsock,
	.ret_type = NB_RET_PTR_TO_SOCKET_OR_NULL,
	.arg_type = { NB_ARG_PTR_TO_SOCK_COMMON },
};

static const struct nb_func_proto bpf_tcp_sock_proto = {
	.func = bpf_sk_view_none,
	.ret_type = NB_RET_PTR_TO_TCP_SOCK_OR_NULL,
	.arg_type = { NB_ARG_PTR_TO_SOCK_COMMON },
};

static const struct nb_func_proto bpf_get_listener_sock_proto = {
	.func = bpf_sk_view_none,
	.ret_type = NB_RET_PTR_TO_SOCKET_OR_NULL,
	.arg_type = { NB_ARG_PTR_TO_SOCK_COMMON },
};

/* What the kernel answers for a socket that is not a TCP listener (the test run's). */
static u64 bpf_syncookie_no_listener(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return (u64)-EINVAL;
}

/* GPL only: the kernel's cookie functions are. */
#define SYNCOOKIE_PROTO(name)                                                               \
	static const struct nb_func_proto name = {                                          \
		.func = bpf_syncookie_no_listener,                                          \
		.gpl_only = true,                                                           \
		.pkt_access = true,                                                         \
		.ret_type = NB_RET_INTEGER,                                                 \
		.arg_type = { NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON, NB_ARG_PTR_TO_MEM,          \
			      NB_ARG_CONST_SIZE, NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE },    \
	}

SYNCOOKIE_PROTO(bpf_tcp_check_syncookie_proto);
SYNCOOKIE_PROTO(bpf_tcp_gen_syncookie_proto);

/*
 * bpf_sk_assign: the only socket is a test run's, which does not run at tc ingress, where
 * alone a packet may be steered to a socket.
 */
static u64 bpf_sk_assign(u64 ctx, u64 sk, u64 flags, u64 r4, u64 r5)
{
	const struct nb_pkt *pkt = (const struct nb_pkt *)(uintptr_t)ctx;

	(void)r4, (void)r5;
	if (!sk || flags)
		return (u64)-EINVAL;
	if (!pkt->tc_at_ingress)
		return (u64)-EOPNOTSUPP;
	/* a socket at ingress: none exists there (the datapath's packets have none) */
	return (u64)-ENETUNREACH;
}

static const struct nb_func_proto bpf_sk_assign_proto = {
	.func = bpf_sk_assign,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON, NB_ARG_ANYTHING },
};

/* The socket's value in the map (the NULL socket has none). */
static u64 bpf_sk_storage_get(u64 map, u64 sk, u64 value, u64 flags, u64 r5)
{
	(void)r5;
	if (!sk)
		return 0;
	return (u64)(uintptr_t)nb_sock_storage_get(SOCK(sk), (const struct nb_map *)(uintptr_t)map,
						   (const void *)(uintptr_t)value, flags);
}

static const enum bpf_map_type sk_storage_map_types[] = { BPF_MAP_TYPE_SK_STORAGE };

static const struct nb_func_proto bpf_sk_storage_get_proto = {
	.func = bpf_sk_storage_get,
	.ret_type = NB_RET_PTR_TO_MAP_VALUE_OR_NULL,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON_OR_NULL,
		      NB_ARG_PTR_TO_MAP_VALUE_OR_NULL, NB_ARG_ANYTHING },
	.map_types = sk_storage_map_types,
	.map_type_cnt = ARRAY_SIZE(sk_storage_map_types),
};

static u64 bpf_sk_storage_delete(u64 map, u64 sk, u64 r3, u64 r4, u64 r5)
{
	(void)r3, (void)r4, (void)r5;
	if (!sk)
		return (u64)-EINVAL;
	return (u64)(s64)nb_sock_storage_delete(SOCK(sk), (const struct nb_map *)(uintptr_t)map);
}

static const struct nb_func_proto bpf_sk_storage_delete_proto = {
	.func = bpf_sk_storage_delete,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON },
	.map_types = sk_storage_map_types,
	.map_type_cnt = ARRAY_SIZE(sk_storage_map_types),
};

const struct nb_func_proto *nb_sk_func_proto(enum bpf_func_id id, bool tc)
{
	switch (id) {
	case BPF_FUNC_sk_lookup_tcp:
		return &bpf_sk_lookup_tcp_proto;
	case BPF_FUNC_sk_lookup_udp:
		return &bpf_sk_lookup_udp_proto;
	case BPF_FUNC_skc_lookup_tcp:
		return &bpf_skc_lookup_tcp_proto;
	case BPF_FUNC_sk_release:
		return &bpf_sk_release_proto;
	case BPF_FUNC_tcp_check_syncookie:
		return &bpf_tcp_check_syncookie_proto;
	case BPF_FUNC_tcp_gen_syncookie:
		return &bpf_tcp_gen_syncookie_proto;
	default:
		break;
	}
	if (!tc)
		return NULL;
	switch (id) {
	case BPF_FUNC_sk_fullsock:
		return &bpf_sk_fullsock_proto;
	case BPF_FUNC_tcp_sock:
		return &bpf_tcp_sock_proto;
	case BPF_FUNC_get_listener_sock:
		return &bpf_get_listener_sock_proto;
	case BPF_FUNC_sk_assign:
		return &bpf_sk_assign_proto;
	case BPF_FUNC_sk_storage_get:
		return &bpf_sk_storage_get_proto;
	case BPF_FUNC_sk_storage_delete:
		return &bpf_sk_storage_delete_proto;
	default:
		return NULL;
	}
}
