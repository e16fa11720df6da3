/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IP layer's tables as the datapath reads them: routes and rules (fib.c, fib_rules.c),
 * neighbours (neigh.c) and each device's addresses and forwarding switches (inet.c). The public
 * calls are <netbpf/route.h>, <netbpf/neigh.h> and <netbpf/inet.h>.
 *
 * Every table is an immutable snapshot behind one pointer: the control plane builds a new one
 * under nb_route_lock (the rtnl twin of the IP layer), publishes it with a release store and
 * retires the old one through the epoch reclaimer, so that lookups take no lock. A pointer a
 * lookup returns stays valid until the reader's next quiescent point.
 */
#ifndef NB_NET_FIB_H
#define NB_NET_FIB_H

#include <netbpf/inet.h>
#include <netbpf/neigh.h>
#include <netbpf/route.h>

#include "common/types.h"

struct nb_dev;

/* The control plane's lock of the IP layer: every public call of these headers takes it. */
void nb_route_lock(void);
void nb_route_unlock(void);

/* What a route lookup reads of a flow (the kernel's flowi4 and flowi6). */
struct nb_flowi {
	u8 family;
	u8 tos;			/* IPv4 */
	u8 proto;		/* l4 protocol, for rules */
	u8 scope;		/* IPv4: routes of a narrower scope are passed over */
	u32 iif;		/* input device, 1 (loopback) for locally generated flows */
	u32 oif;		/* output device, 0: any */
	u32 mark;
	u32 flowlabel;		/* IPv6 */
	__be16 sport, dport;
	union nb_inet_addr saddr, daddr;
};

struct nb_fib_result {
	const struct nb_route *rt;	/* the route (valid in the reader's epoch section) */
};

/*
 * fib_lookup / fib6_lookup: the rules, then the tables they name. 0 with res->rt set, or the
 * kernel's errors: IPv4 -EINVAL (blackhole), -EHOSTUNREACH (unreachable route), -EACCES
 * (prohibit), -ENETUNREACH (no route, unreachable rule); IPv6 rules give -EINVAL, -ENETUNREACH
 * or -EACCES and a lookup that finds nothing gives -ENETUNREACH (fib6_null_entry). IPv6 reject
 * routes are found (res->rt->type tells), as in fib6_lookup.
 */
int nb_fib_lookup(const struct nb_flowi *fl, struct nb_fib_result *res);
/*
 * One table (fib_table_lookup / fib6_table_lookup); -ENOENT when the table does not exist
 * (fib_get_table's NULL), -EAGAIN when nothing matches (IPv6 too, where the kernel returns
 * fib6_null_entry), and for IPv4 the reject routes' errors.
 */
int nb_fib_table_lookup(u32 table, const struct nb_flowi *fl, struct nb_fib_result *res);

/*
 * fib_rules_lookup's walk: call action(rule, fl, arg) for every rule of fl->family that matches
 * fl, in priority order, until one returns something other than -EAGAIN; that is the result,
 * -ENETUNREACH when every rule gave -EAGAIN.
 */
int nb_fib_rules_lookup(const struct nb_flowi *fl,
			int (*action)(const struct nb_fib_rule *rule, const struct nb_flowi *fl,
				      void *arg),
			void *arg);
/* Whether rules were added to family (the kernel's fib_has_custom_rules). */
bool nb_fib_has_custom_rules(int family);

/* The device's MTU for a forwarded packet (ip_mtu_from_fib_result, ip6_mtu_from_fib6). */
u32 nb_fib_mtu(const struct nb_route *rt);
/*
 * The preferred source address for a route (fib_result_prefsrc; IPv6: the route's prefsrc or
 * ipv6_dev_get_saddr toward daddr). false when IPv6 has none (IPv4 answers 0.0.0.0).
 */
bool nb_fib_prefsrc(const struct nb_route *rt, const union nb_inet_addr *daddr,
		    union nb_inet_addr *src);

/* The neighbour entry, or NULL (valid in the reader's epoch section). */
const struct nb_neigh *nb_neigh_find(int family, u32 ifindex, const union nb_inet_addr *addr);
/* NUD_VALID: an entry bpf_fib_lookup and bpf_redirect_neigh may use. */
bool nb_neigh_valid(const struct nb_neigh *n);

/*
 * The IP state of a device (the kernel's in_device and inet6_dev in one): forwarding switches,
 * the IPv6 MTU and the addresses, a snapshot replaced whole on change.
 */
struct nb_ifaddr_set;

struct nb_inet_dev {
	bool forwarding[2];		/* [0] IPv4, [1] IPv6 */
	u32 mtu6;			/* idev->cnf.mtu6 */
	struct nb_ifaddr_set *addrs;	/* read with nb_inet_addrs */
};

/* [0] for AF_INET, [1] for AF_INET6 (bad families are not asked for). */
static inline int nb_inet_family_index(int family)
{
	return family == AF_INET6;
}

/* The addresses of dev (NULL: none), valid in the reader's epoch section. */
const struct nb_ifaddr *nb_inet_addrs(const struct nb_dev *dev, unsigned int *cnt);
/* Whether addr is one of the local addresses of any device. */
bool nb_inet_addr_is_local(int family, const union nb_inet_addr *addr);

/* fib.c's side of the address and device events (called under nb_route_lock). */
int nb_fib_add_ifaddr(struct nb_dev *dev, const struct nb_ifaddr *ifa);
void nb_fib_del_ifaddr(struct nb_dev *dev, const struct nb_ifaddr *ifa);
/*
 * Remove every route of family (AF_UNSPEC: both) through ifindex, but the IPv4 local routes
 * when keep_local4 (a device going down keeps them, fib_sync_down_dev without force).
 */
void nb_fib_flush_dev(int family, u32 ifindex, bool keep_local4);
void nb_neigh_flush_dev_locked(u32 ifindex);
/*
 * The subnet-router anycast routes of a device that forwards IPv6 (addrconf_join_anycast):
 * exactly these prefixes, each an "anycast P dev D table local proto kernel" route.
 */
void nb_fib_set_anycast6(u32 ifindex, const union nb_inet_addr *prefixes, unsigned int cnt);
/* The name a route or rule prints for ifindex ("lo" for 1 when no device has it). */
const char *nb_fib_dev_name(u32 ifindex, char *buf);

/* Prefix arithmetic shared by the tables. */
bool nb_inet_prefix_match(int family, const union nb_inet_addr *prefix, u8 len,
			  const union nb_inet_addr *addr);
void nb_inet_prefix_mask(int family, union nb_inet_addr *addr, u8 len);
static inline u8 nb_inet_addr_bits(int family)
{
	return family == AF_INET6 ? 128 : 32;
}

#endif /* NB_NET_FIB_H */
