/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Routes and routing rules, the twins of the kernel's FIB (net/ipv4/fib_trie.c,
 * net/ipv6/ip6_fib.c) and its policy rules (net/core/fib_rules.c), as ip route and ip rule
 * shape them:
 *
 *   ip route add 10.1.0.0/16 via 10.0.0.2 [dev v1] [metric N] [src A] [table T] [mtu [lock] N]
 *                                            struct nb_route; nb_route_add(&rt, 0, log)
 *   ip route replace ...                     nb_route_add(&rt, NB_ROUTE_REPLACE, log)
 *   ip route add blackhole|unreachable|prohibit 10.2.0.0/16
 *   ip route del 10.1.0.0/16 [via ...]       nb_route_del
 *   ip route show [table T|all]              nb_route_dump
 *   ip rule add [prio N] [from P] [to P] [fwmark M[/MASK]] [iif D] [oif D] lookup T
 *                                            struct nb_fib_rule; nb_rule_add
 *
 * Lookups are the kernel's: longest prefix first, then the lowest metric; IPv4 routes through
 * a device other than the flow's output device are passed over, IPv6 ones only rank lower; the
 * rules are tried by priority (0 local, 32766 main, 32767 default for IPv4). Multipath routes,
 * route tos, source-specific IPv6 routes and nexthop objects are not built: asking for them
 * fails with a message that says so.
 */
#ifndef NETBPF_ROUTE_H
#define NETBPF_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include <netbpf/inet.h>
#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RT_TABLE_MAIN and friends come from <linux/rtnetlink.h>; 0 means main in every call. */

struct nb_route {
	__u8 family;		/* AF_INET or AF_INET6 */
	__u8 dst_len;
	__u8 type;		/* RTN_UNICAST, RTN_LOCAL, RTN_BROADCAST, RTN_BLACKHOLE, ... */
	__u8 protocol;		/* RTPROT_BOOT (ip route add), RTPROT_KERNEL, RTPROT_STATIC, ... */
	__u8 scope;		/* RT_SCOPE_* */
	__u8 gw_family;		/* 0: no gateway, else the family of gw */
	bool onlink;		/* the gateway is on the device's link, whatever the routes say */
	bool mtu_lock;		/* "mtu lock N": forwarding uses mtu */
	bool has_prefsrc;
	__u32 table;
	__u32 metric;		/* the priority; IPv6 routes added with 0 get 1024 */
	__u32 oif;		/* ifindex of the nexthop device (0 for reject routes) */
	__u32 mtu;		/* 0: none */
	union nb_inet_addr dst;
	union nb_inet_addr gw;
	union nb_inet_addr prefsrc;
};

/* nb_route_add flags. */
#define NB_ROUTE_REPLACE (1U << 0)	/* replace a route of the same key, or add one */

/*
 * Add rt. The scope, when NB_ROUTE_SCOPE_AUTO, is the kernel's choice (host for local routes,
 * link for routes through a device without gateway, universe otherwise). The nexthop device
 * must be up; a gateway must be reachable over a link route unless onlink, which then gives
 * the device. -EEXIST for a route with the same key (dst, table, metric) unless replacing.
 */
#define NB_ROUTE_SCOPE_AUTO 0xff
int nb_route_add(const struct nb_route *rt, unsigned int flags, struct nb_log *log);
/*
 * Delete the first route matching rt's family, table, dst and dst_len and, where given (not 0),
 * its type, gateway, oif and metric. -ESRCH when none matches.
 */
int nb_route_del(const struct nb_route *rt, struct nb_log *log);
/*
 * Every route of family (AF_UNSPEC: IPv4 then IPv6), in the kernel's dump order: tables in the
 * order of their hash chains, routes as the trie (IPv4) or the fib6 tree (IPv6) walks them.
 * cb returning non-zero stops the walk; the return value is the callback's or 0.
 */
int nb_route_dump(int family, int (*cb)(const struct nb_route *rt, void *arg), void *arg);

/* A policy rule: selectors (0 / empty: any) and the action. */
struct nb_fib_rule {
	__u8 family;
	__u8 action;		/* FR_ACT_TO_TBL, _BLACKHOLE, _UNREACHABLE or _PROHIBIT */
	__u8 src_len, dst_len;
	bool invert;		/* "not": the selectors must not match */
	bool has_priority;
	bool has_mark;
	__u32 priority;
	__u32 table;
	__u32 mark, mark_mask;
	union nb_inet_addr src, dst;
	char iif[16], oif[16];	/* device names; "" for any */
};

/*
 * Add a rule. Without a priority it goes just before the last rule with a priority above 0 (the
 * kernel's choice: one less than the lowest non-zero priority in use).
 */
int nb_rule_add(const struct nb_fib_rule *rule, struct nb_log *log);
/* Delete the first rule that matches what rule gives; -ENOENT when none does. */
int nb_rule_del(const struct nb_fib_rule *rule, struct nb_log *log);
/* Every rule of family in priority order; cb returning non-zero stops the walk. */
int nb_rule_dump(int family, int (*cb)(const struct nb_fib_rule *rule, void *arg), void *arg);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_ROUTE_H */
