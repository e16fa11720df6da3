/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Neighbours, the twin of the kernel's ARP and NDISC tables (net/core/neighbour.c) as ip neigh
 * shapes them:
 *
 *   ip neigh add 10.0.0.2 lladdr 02:00:00:00:00:02 dev v1 [nud permanent|reachable|stale|...]
 *                                                  nb_neigh_update(&n, NB_NEIGH_CREATE, log)
 *   ip neigh replace ...                           nb_neigh_update(&n, NB_NEIGH_CREATE |
 *                                                                  NB_NEIGH_REPLACE, log)
 *   ip neigh change ...                            nb_neigh_update(&n, NB_NEIGH_REPLACE, log)
 *   ip neigh del 10.0.0.2 dev v1                   nb_neigh_del
 *   ip neigh show [dev v1]                         nb_neigh_dump
 *
 * netbpf sends no ARP or neighbour solicitation: the table holds what was configured, in the
 * state it was given (entries do not age from reachable to stale). bpf_fib_lookup and
 * bpf_redirect_neigh use the entries in a valid state (NUD_VALID: permanent, noarp, reachable,
 * stale, delay, probe); anything else is "no neighbour".
 */
#ifndef NETBPF_NEIGH_H
#define NETBPF_NEIGH_H

#include <stdbool.h>
#include <linux/types.h>

#include <netbpf/inet.h>
#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_neigh {
	__u8 family;		/* AF_INET or AF_INET6 */
	bool has_lladdr;
	bool router;		/* NTF_ROUTER (IPv6) */
	__u16 state;		/* NUD_* of <linux/neighbour.h> */
	__u32 ifindex;
	union nb_inet_addr addr;
	__u8 lladdr[6];
};

#define NB_NEIGH_CREATE  (1U << 0)	/* NLM_F_CREATE: add when missing */
#define NB_NEIGH_REPLACE (1U << 1)	/* NLM_F_REPLACE: change when present */

/*
 * Add or change an entry. Without NB_NEIGH_REPLACE an existing entry is -EEXIST; without
 * NB_NEIGH_CREATE a missing one is -ENOENT. The device must exist and not be down.
 */
int nb_neigh_update(const struct nb_neigh *n, unsigned int flags, struct nb_log *log);
/* Delete the entry for (family, ifindex, addr); -ENOENT when missing. */
int nb_neigh_del(const struct nb_neigh *n, struct nb_log *log);
/* Remove the entries of ifindex (0: every device) of family (AF_UNSPEC: both). */
int nb_neigh_flush(int family, __u32 ifindex);
/* Every entry of family (AF_UNSPEC: both), IPv4 first; cb returning non-zero stops the walk. */
int nb_neigh_dump(int family, int (*cb)(const struct nb_neigh *n, void *arg), void *arg);
/* The entry for (family, ifindex, addr) into *n: 0, or -ENOENT. */
int nb_neigh_lookup(int family, __u32 ifindex, const union nb_inet_addr *addr,
		    struct nb_neigh *n);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_NEIGH_H */
