/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one socket netbpf has: the one a test run gives its packet, as the kernel's
 * bpf_prog_test_run_skb gives its skb a socket of its own (net/bpf/test_run.c). The datapath's
 * packets are forwarded and have none (skb->sk NULL).
 *
 * Programs see a socket as the uapi struct bpf_sock, which is its first member: socket
 * pointers load the fields where the uapi places them, in the uapi's byte orders, so loads
 * through them need no rewrite. It holds the values bpf_sk_storage_get created for it.
 */
#ifndef NB_NET_SOCK_H
#define NB_NET_SOCK_H

#include <linux/bpf.h>

#include "common/types.h"

struct nb_map;
struct nb_pkt;
struct nb_sk_storage;

struct nb_sock {
	struct bpf_sock view;
	struct nb_sk_storage *storage;	/* one value per sk_storage map, created by programs */
};

/*
 * The kernel's test socket for pkt, its protocol and network header set (after
 * eth_type_trans): an AF_INET or AF_INET6 socket (AF_UNSPEC for other protocols) in
 * TCP_CLOSE, of no type or protocol, its addresses the packet's (the source as the local
 * address), no ports, no queue.
 */
void nb_sock_init_test(struct nb_sock *sk, const struct nb_pkt *pkt);
/* Free what programs stored on sk. */
void nb_sock_release(struct nb_sock *sk);

/*
 * bpf_sk_storage_get on sk: map's value for it, created from value (zeroed when NULL) with
 * BPF_SK_STORAGE_GET_F_CREATE; NULL without it, with other flags, or out of memory.
 */
void *nb_sock_storage_get(struct nb_sock *sk, const struct nb_map *map, const void *value,
			  u64 flags);
/* bpf_sk_storage_delete: 0, or -ENOENT when sk has no value in map. */
int nb_sock_storage_delete(struct nb_sock *sk, const struct nb_map *map);

#endif /* NB_NET_SOCK_H */
