// SPDX-License-Identifier: GPL-2.0
/*
 * The test run's socket (sock.h) and the socket local storage programs create on it (the
 * kernel's net/core/bpf_sk_storage.c, here a short list per socket: a test run's socket lives
 * for one run and holds a value for a few maps at most).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "bpf/map.h"
#include "pkt/pkt.h"
#include "net/sock.h"

/* include/net/tcp_states.h: a socket neither listening nor connected. */
#define NB_TCP_CLOSE 7

struct nb_sk_storage {
	struct nb_sk_storage *next;
	const struct nb_map *map;
	u8 value[];
};

void nb_sock_init_test(struct nb_sock *sk, const struct nb_pkt *pkt)
{
	const u8 *nh = nb_pkt_network_header(pkt);
	u32 avail = pkt->network_header == NB_PKT_HDR_UNSET ? 0 :
		    nb_pkt_headlen(pkt) - (u32)(nh - pkt->data);

	memset(sk, 0, sizeof(*sk));
	sk->view.state = NB_TCP_CLOSE;
	sk->view.rx_queue_mapping = -1;
	if (pkt->protocol == htons(ETH_P_IP)) {
		struct iphdr iph;

		sk->view.family = AF_INET;
		if (avail >= sizeof(iph)) {
			memcpy(&iph, nh, sizeof(iph));
			sk->view.src_ip4 = iph.saddr;
			sk->view.dst_ip4 = iph.daddr;
		}
	} else if (pkt->protocol == htons(ETH_P_IPV6)) {
		struct ipv6hdr ip6h;

		sk->view.family = AF_INET6;
		if (avail >= sizeof(ip6h)) {
			memcpy(&ip6h, nh, sizeof(ip6h));
			memcpy(sk->view.src_ip6, &ip6h.saddr, sizeof(sk->view.src_ip6));
			memcpy(sk->view.dst_ip6, &ip6h.daddr, sizeof(sk->view.dst_ip6));
		}
	}
}

void nb_sock_release(struct nb_sock *sk)
{
	while (sk->storage) {
		struct nb_sk_storage *next = sk->storage->next;

		free(sk->storage);
		sk->storage = next;
	}
}

void *nb_sock_storage_get(struct nb_sock *sk, const struct nb_map *map, const void *value,
			  u64 flags)
{
	struct nb_sk_storage *st;

	if (flags & ~(u64)BPF_SK_STORAGE_GET_F_CREATE)
		return NULL;
	for (st = sk->storage; st; st = st->next)
		if (st->map == map)
			return st->value;
	if (!(flags & BPF_SK_STORAGE_GET_F_CREATE))
		return NULL;
	st = calloc(1, sizeof(*st) + map->value_size);
	if (!st)
		return NULL;
	st->map = map;
	if (value)
		memcpy(st->value, value, map->value_size);
	st->next = sk->storage;
	sk->storage = st;
	return st->value;
}

int nb_sock_storage_delete(struct nb_sock *sk, const struct nb_map *map)
{
	for (struct nb_sk_storage **pp = &sk->storage; *pp; pp = &(*pp)->next) {
		struct nb_sk_storage *st = *pp;

		if (st->map != map)
			continue;
		*pp = st->next;
		free(st);
		return 0;
	}
	return -ENOENT;
}
