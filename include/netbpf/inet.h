/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IP layer of a device: its IPv4 and IPv6 addresses and its forwarding switches, the twins
 * of the kernel's in_device / inet6_dev and of the sysctls that live there. The calls map onto
 * the ip addr words and the sysctl names:
 *
 *   ip addr add 10.0.0.1/24 dev v1 [broadcast B] [scope S] [noprefixroute]   nb_addr_add
 *   ip -6 addr add 2001:db8::1/64 dev v1 [nodad]                             nb_addr_add
 *   ip addr del 10.0.0.1/24 dev v1                                           nb_addr_del
 *   ip addr show [dev v1]                                                     nb_addr_list
 *   sysctl -w net.ipv4.conf.v1.forwarding=1            nb_inet_set_forwarding(dev, AF_INET, 1)
 *   sysctl -w net.ipv4.ip_forward_use_pmtu=1           nb_inet_set_fwd_use_pmtu(true)
 *
 * As in the kernel, an address brings its routes: a local route (table local), the prefix
 * route (table main) and, for IPv4, the subnet's broadcast route; taking a device down removes
 * the routes through it (and its IPv6 addresses), bringing it up adds the IPv4 address routes
 * again. Every fallible call returns 0 or a negative errno with the reason in log.
 */
#ifndef NETBPF_INET_H
#define NETBPF_INET_H

#include <stdbool.h>
#include <stddef.h>
#include <netinet/in.h>
#include <linux/types.h>

#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_dev;

/* An IPv4 or IPv6 address; which one a family field beside it tells. */
union nb_inet_addr {
	__be32 v4;
	struct in6_addr v6;
	__u8 bytes[16];
};

/* Address flags (IFA_F_*) kept: IFA_F_SECONDARY, IFA_F_NODAD, IFA_F_NOPREFIXROUTE. */
struct nb_ifaddr {
	__u8 family;			/* AF_INET or AF_INET6 */
	__u8 prefixlen;
	__u8 scope;			/* RT_SCOPE_* (IPv6: the address's own scope) */
	__u32 flags;			/* IFA_F_* */
	union nb_inet_addr local;
	union nb_inet_addr broadcast;	/* IPv4, 0 when none was given */
	char label[16];			/* IPv4: the label, the device name by default */
};

/*
 * Add an address to dev. For IPv4, scope is RT_SCOPE_UNIVERSE unless given (host for
 * 127.0.0.0/8), and an address inside the subnet of one the device has is secondary. Adding an
 * address the device has fails with -EEXIST.
 */
int nb_addr_add(struct nb_dev *dev, const struct nb_ifaddr *ifa, struct nb_log *log);
/* Remove the address (family, local, prefixlen) from dev; -EADDRNOTAVAIL when missing. */
int nb_addr_del(struct nb_dev *dev, const struct nb_ifaddr *ifa, struct nb_log *log);
/* Remove every address of family (AF_UNSPEC: both) from dev; returns how many went. */
int nb_addr_flush(struct nb_dev *dev, int family);
/*
 * The addresses of dev of family (AF_UNSPEC: both, IPv4 first), in the kernel's order: the
 * first max into out; returns how many there are.
 */
unsigned int nb_addr_list(const struct nb_dev *dev, int family, struct nb_ifaddr *out,
			  unsigned int max);

/*
 * net.ipv4.conf.DEV.forwarding and net.ipv6.conf.DEV.forwarding: whether bpf_fib_lookup forwards
 * what arrives on dev. dev NULL is "all" (every device and the default for new ones, as the
 * kernel's conf.all); nb_inet_set_default_forwarding sets "default" only.
 */
int nb_inet_set_forwarding(struct nb_dev *dev, int family, bool on);
int nb_inet_set_default_forwarding(int family, bool on);
bool nb_inet_forwarding(const struct nb_dev *dev, int family);
bool nb_inet_default_forwarding(int family);
/* conf.all's own value: what the last write of "all" set (0 at start). */
bool nb_inet_all_forwarding(int family);
/* net.ipv4.ip_forward_use_pmtu: forwarding honours a route's mtu even when not locked. */
void nb_inet_set_fwd_use_pmtu(bool on);
bool nb_inet_fwd_use_pmtu(void);

/* "10.0.0.1" or "2001:db8::1" (inet_ntop) into buf of at least 46 bytes; returns buf. */
const char *nb_inet_ntop(int family, const union nb_inet_addr *addr, char *buf, size_t size);
/*
 * Parse an address of family (AF_UNSPEC: either, the family written to *family) as
 * "A" or "A/LEN"; *len is the full length when no /LEN is given. false when it is no address.
 */
bool nb_inet_pton_prefix(const char *text, int *family, union nb_inet_addr *addr, __u8 *len);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_INET_H */
