// SPDX-License-Identifier: GPL-2.0
/*
 * The IP state of each device, the twin of the kernel's in_device (net/ipv4/devinet.c) and
 * inet6_dev (net/ipv6/addrconf.c) for what routing needs: addresses, the forwarding switches,
 * the IPv6 MTU, and source address selection (inet_select_addr, ipv6_dev_get_saddr).
 *
 * Address lists keep the kernel's order: IPv4 primaries by scope (host, link, global) and age,
 * secondaries (same subnet and prefix length as a primary) after them; IPv6 by scope, global
 * first, the newest first within a scope. There is no duplicate address detection: an IPv6
 * address is usable at once, as the kernel's "nodad" ones are.
 *
 * Device events come through the device notifier: a new device gets its state with the
 * "default" forwarding switches, a device going down loses its routes, neighbours and IPv6
 * addresses, one coming up gets its IPv4 address routes back, a device leaving loses all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "bpf/epoch.h"
#include "net/dev.h"
#include "net/fib.h"

struct nb_ifaddr_set {
	struct nb_epoch_head rcu;
	u32 cnt;
	struct nb_ifaddr a[];
};

static bool default_forwarding[2];
static bool all_forwarding[2];
static bool fwd_use_pmtu;

static void set_free_rcu(struct nb_epoch_head *head)
{
	free(container_of(head, struct nb_ifaddr_set, rcu));
}

const struct nb_ifaddr *nb_inet_addrs(const struct nb_dev *dev, unsigned int *cnt)
{
	struct nb_inet_dev *in = __atomic_load_n(&dev->inet, __ATOMIC_ACQUIRE);
	struct nb_ifaddr_set *set = in ? __atomic_load_n(&in->addrs, __ATOMIC_ACQUIRE) : NULL;

	*cnt = set ? set->cnt : 0;
	return set ? set->a : NULL;
}

static void addrs_publish(struct nb_inet_dev *in, struct nb_ifaddr_set *set)
{
	struct nb_ifaddr_set *old = in->addrs;

	__atomic_store_n(&in->addrs, set, __ATOMIC_RELEASE);
	if (old)
		nb_epoch_call(&old->rcu, set_free_rcu);
}

/* A copy of the set with room for one more address. */
static struct nb_ifaddr_set *addrs_copy(const struct nb_inet_dev *in)
{
	u32 cnt = in->addrs ? in->addrs->cnt : 0;
	struct nb_ifaddr_set *set = calloc(1, sizeof(*set) + (cnt + 1) * sizeof(set->a[0]));

	if (!set)
		return NULL;
	set->cnt = cnt;
	if (cnt)
		memcpy(set->a, in->addrs->a, cnt * sizeof(set->a[0]));
	return set;
}

static void addrs_insert(struct nb_ifaddr_set *set, u32 pos, const struct nb_ifaddr *ifa)
{
	memmove(&set->a[pos + 1], &set->a[pos], (set->cnt - pos) * sizeof(set->a[0]));
	set->a[pos] = *ifa;
	set->cnt++;
}

static void addrs_remove(struct nb_ifaddr_set *set, u32 pos)
{
	memmove(&set->a[pos], &set->a[pos + 1], (set->cnt - pos - 1) * sizeof(set->a[0]));
	set->cnt--;
}

/* __ipv6_addr_src_scope for the addresses netbpf keeps: the RFC 4291 scope value. */
static int ipv6_scope(const struct in6_addr *a)
{
	if (a->s6_addr[0] == 0xff)
		return a->s6_addr[1] & 0x0f;
	if (a->s6_addr[0] == 0xfe && (a->s6_addr[1] & 0xc0) == 0x80)
		return 0x2;	/* link-local */
	if (a->s6_addr[0] == 0xfe && (a->s6_addr[1] & 0xc0) == 0xc0)
		return 0x5;	/* site-local */
	if (IN6_IS_ADDR_LOOPBACK(a))
		return 0x1;
	return 0xe;		/* global */
}

/* The RT_SCOPE_* an IPv6 address shows (ip addr's "scope global|site|link|host"). */
static u8 ipv6_rt_scope(const struct in6_addr *a)
{
	switch (ipv6_scope(a)) {
	case 0x1:
		return RT_SCOPE_HOST;
	case 0x2:
		return RT_SCOPE_LINK;
	case 0x5:
		return RT_SCOPE_SITE;
	default:
		return RT_SCOPE_UNIVERSE;
	}
}

static bool same_subnet4(const struct nb_ifaddr *a, const struct nb_ifaddr *b)
{
	return a->prefixlen == b->prefixlen &&
	       nb_inet_prefix_match(AF_INET, &a->local, a->prefixlen, &b->local);
}

/* inet_insert_ifa: where the address goes, -EEXIST for a duplicate; sets IFA_F_SECONDARY. */
static int place_v4(const struct nb_ifaddr_set *set, struct nb_ifaddr *ifa, u32 *pos,
		    struct nb_log *log)
{
	u32 last_primary = 0;

	for (u32 i = 0; i < set->cnt; i++) {
		const struct nb_ifaddr *a = &set->a[i];

		if (a->family != AF_INET)
			continue;
		if (!(a->flags & IFA_F_SECONDARY) && ifa->scope <= a->scope)
			last_primary = i + 1;
		if (same_subnet4(a, ifa)) {
			if (a->local.v4 == ifa->local.v4) {
				nb_log_printf(log, "File exists\n");
				return -EEXIST;
			}
			if (a->scope != ifa->scope) {
				nb_log_printf(log, "the subnet has an address of another scope\n");
				return -EINVAL;
			}
			ifa->flags |= IFA_F_SECONDARY;
		}
	}
	if (ifa->flags & IFA_F_SECONDARY) {
		*pos = 0;
		while (*pos < set->cnt && set->a[*pos].family == AF_INET)
			(*pos)++;
	} else {
		*pos = last_primary;
	}
	return 0;
}

/* ipv6_link_dev_addr: before the first address of a scope not wider than its own. */
static int place_v6(const struct nb_ifaddr_set *set, const struct nb_ifaddr *ifa, u32 *pos,
		    struct nb_log *log)
{
	int scope = ipv6_scope(&ifa->local.v6);

	*pos = set->cnt;
	for (u32 i = 0; i < set->cnt; i++) {
		const struct nb_ifaddr *a = &set->a[i];

		if (a->family != AF_INET6)
			continue;
		if (!memcmp(&a->local, &ifa->local, sizeof(a->local))) {
			nb_log_printf(log, "ipv6: address already assigned.\n");
			return -EEXIST;
		}
	}
	for (u32 i = 0; i < set->cnt; i++) {
		if (set->a[i].family == AF_INET6 && scope >= ipv6_scope(&set->a[i].local.v6)) {
			*pos = i;
			break;
		}
	}
	return 0;
}

/*
 * The anycast routes a device has (under the lock): one per IPv6 prefix shorter than /127 of
 * its addresses, while it is up and forwards IPv6.
 */
static void sync_anycast6(struct nb_dev *dev)
{
	struct nb_inet_dev *in = dev->inet;
	union nb_inet_addr prefixes[64];
	unsigned int n = 0;

	for (u32 i = 0; in && in->addrs && READ_ONCE(dev->up) && in->forwarding[1] &&
			i < in->addrs->cnt && n < ARRAY_SIZE(prefixes); i++) {
		const struct nb_ifaddr *a = &in->addrs->a[i];
		union nb_inet_addr p = a->local;
		bool dup = false;

		if (a->family != AF_INET6 || a->prefixlen >= 127)
			continue;
		nb_inet_prefix_mask(AF_INET6, &p, a->prefixlen);
		if (IN6_IS_ADDR_UNSPECIFIED(&p.v6))
			continue;
		for (unsigned int k = 0; k < n; k++)
			dup |= !memcmp(&prefixes[k], &p, sizeof(p));
		if (!dup)
			prefixes[n++] = p;
	}
	nb_fib_set_anycast6(dev->ifindex, prefixes, n);
}

int nb_addr_add(struct nb_dev *dev, const struct nb_ifaddr *in_ifa, struct nb_log *log)
{
	struct nb_ifaddr ifa = *in_ifa;
	struct nb_ifaddr_set *set;
	struct nb_inet_dev *in;
	u32 pos;
	int err;

	if (ifa.family != AF_INET && ifa.family != AF_INET6) {
		nb_log_printf(log, "address family %u is not IPv4 or IPv6\n", ifa.family);
		return -EAFNOSUPPORT;
	}
	if (ifa.prefixlen > nb_inet_addr_bits(ifa.family)) {
		nb_log_printf(log, "prefix length %u is too long\n", ifa.prefixlen);
		return -EINVAL;
	}
	ifa.flags &= IFA_F_SECONDARY | IFA_F_NODAD | IFA_F_NOPREFIXROUTE;
	ifa.flags &= ~IFA_F_SECONDARY;
	ifa.flags |= IFA_F_PERMANENT;
	if (ifa.family == AF_INET6) {
		ifa.scope = ipv6_rt_scope(&ifa.local.v6);
		memset(&ifa.broadcast, 0, sizeof(ifa.broadcast));
		ifa.label[0] = '\0';
		if (IN6_IS_ADDR_MULTICAST(&ifa.local.v6) || IN6_IS_ADDR_UNSPECIFIED(&ifa.local.v6)) {
			nb_log_printf(log, "%s is no unicast address\n",
				      IN6_IS_ADDR_MULTICAST(&ifa.local.v6) ? "a multicast address"
									  : "::");
			return -EINVAL;
		}
	} else if (!ifa.label[0]) {
		snprintf(ifa.label, sizeof(ifa.label), "%s", dev->name);
	}
	nb_route_lock();
	in = dev->inet;
	if (!in) {
		nb_log_printf(log, "%s has no IP layer\n", dev->name);
		err = -ENODEV;
		goto out;
	}
	if (ifa.family == AF_INET6 && !READ_ONCE(dev->up)) {
		/* addrconf has no inet6_dev for a device that is down */
		nb_log_printf(log, "%s is down: IPv6 addresses go on devices that are up\n",
			      dev->name);
		err = -ENETDOWN;
		goto out;
	}
	set = addrs_copy(in);
	if (!set) {
		err = -ENOMEM;
		goto out;
	}
	err = ifa.family == AF_INET ? place_v4(set, &ifa, &pos, log)
				    : place_v6(set, &ifa, &pos, log);
	if (err) {
		free(set);
		goto out;
	}
	addrs_insert(set, pos, &ifa);
	addrs_publish(in, set);
	err = nb_fib_add_ifaddr(dev, &ifa);
	if (ifa.family == AF_INET6)
		sync_anycast6(dev);
out:
	nb_route_unlock();
	return err;
}

static bool ifa_is(const struct nb_ifaddr *a, const struct nb_ifaddr *want)
{
	return a->family == want->family && !memcmp(&a->local, &want->local, sizeof(a->local)) &&
	       (a->family == AF_INET6 || a->prefixlen == want->prefixlen);
}

/* Remove the address at pos and its routes (under the lock). */
static void del_at(struct nb_dev *dev, u32 pos)
{
	struct nb_inet_dev *in = dev->inet;
	struct nb_ifaddr ifa = in->addrs->a[pos];
	struct nb_ifaddr_set *set = addrs_copy(in);

	if (!set)
		return;
	addrs_remove(set, pos);
	addrs_publish(in, set);
	nb_fib_del_ifaddr(dev, &ifa);
	if (ifa.family == AF_INET6)
		sync_anycast6(dev);
}

int nb_addr_del(struct nb_dev *dev, const struct nb_ifaddr *want, struct nb_log *log)
{
	struct nb_inet_dev *in;
	int err = -EADDRNOTAVAIL;

	nb_route_lock();
	in = dev->inet;
	for (u32 i = 0; in && in->addrs && i < in->addrs->cnt; i++) {
		struct nb_ifaddr ifa = in->addrs->a[i];

		if (!ifa_is(&ifa, want))
			continue;
		del_at(dev, i);
		/* a primary takes its secondaries with it (promote_secondaries off) */
		for (u32 j = in->addrs->cnt; ifa.family == AF_INET &&
					     !(ifa.flags & IFA_F_SECONDARY) && j-- > 0;)
			if (in->addrs->a[j].family == AF_INET &&
			    (in->addrs->a[j].flags & IFA_F_SECONDARY) &&
			    same_subnet4(&in->addrs->a[j], &ifa))
				del_at(dev, j);
		err = 0;
		break;
	}
	nb_route_unlock();
	if (err)
		nb_log_printf(log, "Cannot assign requested address\n");
	return err;
}

int nb_addr_flush(struct nb_dev *dev, int family)
{
	struct nb_inet_dev *in;
	int n = 0;

	nb_route_lock();
	in = dev->inet;
	for (u32 i = in && in->addrs ? in->addrs->cnt : 0; i-- > 0;) {
		if (i >= in->addrs->cnt)
			continue;	/* a primary took secondaries along */
		if (family != AF_UNSPEC && in->addrs->a[i].family != family)
			continue;
		del_at(dev, i);
		n++;
	}
	nb_route_unlock();
	return n;
}

unsigned int nb_addr_list(const struct nb_dev *dev, int family, struct nb_ifaddr *out,
			  unsigned int max)
{
	const struct nb_ifaddr *a;
	unsigned int cnt, n = 0;

	nb_epoch_read_lock();
	a = nb_inet_addrs(dev, &cnt);
	for (unsigned int i = 0; i < cnt; i++) {
		if (family != AF_UNSPEC && a[i].family != family)
			continue;
		if (n < max)
			out[n] = a[i];
		n++;
	}
	nb_epoch_read_unlock();
	return n;
}

bool nb_inet_addr_is_local(int family, const union nb_inet_addr *addr)
{
	struct nb_dev *devs[256];
	unsigned int n = nb_dev_list(devs, ARRAY_SIZE(devs));
	bool found = false;

	for (unsigned int d = 0; d < n && d < ARRAY_SIZE(devs); d++) {
		unsigned int cnt;
		const struct nb_ifaddr *a = nb_inet_addrs(devs[d], &cnt);

		for (unsigned int i = 0; i < cnt && !found; i++)
			found = a[i].family == family &&
				!memcmp(&a[i].local, addr, nb_inet_addr_bits(family) / 8);
	}
	for (unsigned int d = 0; d < n && d < ARRAY_SIZE(devs); d++)
		nb_dev_put(devs[d]);
	return found;
}

int nb_inet_set_forwarding(struct nb_dev *dev, int family, bool on)
{
	int f = nb_inet_family_index(family);

	if (family != AF_INET && family != AF_INET6)
		return -EAFNOSUPPORT;
	if (dev) {
		if (!dev->inet)
			return -ENODEV;
		nb_route_lock();
		WRITE_ONCE(dev->inet->forwarding[f], on);
		if (family == AF_INET6)
			sync_anycast6(dev);
		nb_route_unlock();
		return 0;
	}
	/* conf.all: every device and the default for new ones (inet_forward_change) */
	nb_route_lock();
	default_forwarding[f] = on;
	all_forwarding[f] = on;
	nb_route_unlock();
	for (u32 i = 1, max = nb_dev_max_ifindex(); i <= max; i++) {
		struct nb_dev *d = nb_dev_get_by_index(i);

		if (!d)
			continue;
		nb_route_lock();
		if (d->inet) {
			WRITE_ONCE(d->inet->forwarding[f], on);
			if (family == AF_INET6)
				sync_anycast6(d);
		}
		nb_route_unlock();
		nb_dev_put(d);
	}
	return 0;
}

int nb_inet_set_default_forwarding(int family, bool on)
{
	if (family != AF_INET && family != AF_INET6)
		return -EAFNOSUPPORT;
	nb_route_lock();
	default_forwarding[nb_inet_family_index(family)] = on;
	nb_route_unlock();
	return 0;
}

bool nb_inet_forwarding(const struct nb_dev *dev, int family)
{
	struct nb_inet_dev *in = READ_ONCE(dev->inet);

	return in && READ_ONCE(in->forwarding[nb_inet_family_index(family)]);
}

bool nb_inet_default_forwarding(int family)
{
	return READ_ONCE(default_forwarding[nb_inet_family_index(family)]);
}

bool nb_inet_all_forwarding(int family)
{
	return READ_ONCE(all_forwarding[nb_inet_family_index(family)]);
}

void nb_inet_set_fwd_use_pmtu(bool on)
{
	WRITE_ONCE(fwd_use_pmtu, on);
}

bool nb_inet_fwd_use_pmtu(void)
{
	return READ_ONCE(fwd_use_pmtu);
}

/*
 * inet_select_addr: a primary address of dev of a scope the route allows, preferring one in
 * the subnet of dst; else the first such address (not of link scope) of any device.
 */
static __be32 inet_select_addr(const struct nb_dev *dev, __be32 dst, u8 scope)
{
	const struct nb_ifaddr *a;
	unsigned int cnt;
	__be32 addr = 0;

	a = nb_inet_addrs(dev, &cnt);
	for (unsigned int i = 0; i < cnt; i++) {
		union nb_inet_addr d = { .v4 = dst };

		if (a[i].family != AF_INET || (a[i].flags & IFA_F_SECONDARY) || a[i].scope > scope)
			continue;
		if (!dst || nb_inet_prefix_match(AF_INET, &a[i].local, a[i].prefixlen, &d))
			return a[i].local.v4;
		if (!addr)
			addr = a[i].local.v4;
	}
	if (addr)
		return addr;
	for (u32 ifindex = 1, max = nb_dev_max_ifindex(); ifindex <= max; ifindex++) {
		const struct nb_dev *other = nb_dev_lookup_index(ifindex);

		if (!other)
			continue;
		a = nb_inet_addrs(other, &cnt);
		for (unsigned int i = 0; i < cnt; i++)
			if (a[i].family == AF_INET && !(a[i].flags & IFA_F_SECONDARY) &&
			    a[i].scope != RT_SCOPE_LINK && a[i].scope <= scope)
				return a[i].local.v4;
	}
	return 0;
}

/* The default address label policy (ip6_addrlbl_init_table). */
static int ipv6_addr_label(const struct in6_addr *a)
{
	static const struct {
		const char *prefix;
		u8 len;
		int label;
	} table[] = {
		{ "::1", 128, 0 },   { "::ffff:0:0", 96, 4 }, { "2001::", 32, 6 },
		{ "2001:10::", 28, 7 }, { "2002::", 16, 2 },   { "3ffe::", 16, 12 },
		{ "fec0::", 10, 11 }, { "fc00::", 7, 5 },     { "::", 96, 3 },
		{ "::", 0, 1 },
	};
	union nb_inet_addr addr = { .v6 = *a };

	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		union nb_inet_addr p;

		if (inet_pton(AF_INET6, table[i].prefix, &p.v6) == 1 &&
		    nb_inet_prefix_match(AF_INET6, &p, table[i].len, &addr))
			return table[i].label;
	}
	return 1;
}

static int common_prefix_len(const struct in6_addr *a, const struct in6_addr *b)
{
	for (int i = 0; i < 16; i++) {
		u8 x = a->s6_addr[i] ^ b->s6_addr[i];

		if (x)
			return i * 8 + __builtin_clz((unsigned int)x) - 24;
	}
	return 128;
}

/*
 * The RFC 6724 rules of ipv6_get_saddr_eval that tell the addresses netbpf has apart (the
 * others score alike for permanent, non-temporary addresses): same address, appropriate
 * scope, the outgoing interface, matching label, longest matching prefix.
 */
static void saddr_score(const struct nb_ifaddr *a, u32 ifindex, const struct in6_addr *dst,
			u32 oif, int score[5])
{
	int dscope = ipv6_scope(dst), scope = ipv6_scope(&a->local.v6);
	int match = common_prefix_len(&a->local.v6, dst);

	score[0] = !memcmp(&a->local.v6, dst, sizeof(*dst));
	score[1] = scope >= dscope ? -scope : scope - 128;
	score[2] = !oif || oif == ifindex;
	score[3] = ipv6_addr_label(&a->local.v6) == ipv6_addr_label(dst);
	score[4] = match > a->prefixlen ? a->prefixlen : match;
}

/*
 * ipv6_dev_get_saddr: the best address of every device (of the outgoing device alone for
 * link-local and multicast destinations), the first on a tie.
 */
static bool ipv6_dev_get_saddr(const struct nb_dev *oif_dev, const struct in6_addr *dst,
			       struct in6_addr *saddr)
{
	bool oif_only = IN6_IS_ADDR_MULTICAST(dst) || ipv6_scope(dst) <= 0x2;
	u32 oif = oif_dev ? oif_dev->ifindex : 0;
	int best[5] = { 0 };
	bool found = false;

	for (u32 ifindex = 1, max = nb_dev_max_ifindex(); ifindex <= max; ifindex++) {
		const struct nb_dev *dev = nb_dev_lookup_index(ifindex);
		const struct nb_ifaddr *a;
		unsigned int cnt;

		if (!dev || (oif_only && dev != oif_dev))
			continue;
		a = nb_inet_addrs(dev, &cnt);
		for (unsigned int i = 0; i < cnt; i++) {
			int score[5];
			int cmp = 0;

			if (a[i].family != AF_INET6)
				continue;
			saddr_score(&a[i], ifindex, dst, oif, score);
			for (int r = 0; r < 5 && found && !cmp; r++)
				cmp = score[r] > best[r] ? 1 : score[r] < best[r] ? -1 : 0;
			if (found && cmp <= 0)
				continue;
			memcpy(best, score, sizeof(best));
			*saddr = a[i].local.v6;
			found = true;
		}
	}
	return found;
}

bool nb_fib_prefsrc(const struct nb_route *rt, const union nb_inet_addr *daddr,
		    union nb_inet_addr *src)
{
	const struct nb_dev *dev = nb_dev_lookup_index(rt->oif);

	memset(src, 0, sizeof(*src));
	if (rt->has_prefsrc) {
		*src = rt->prefsrc;
		return true;
	}
	if (rt->family == AF_INET) {
		/* the route's scope bounds the address's (fib_info_update_nhc_saddr) */
		if (dev)
			src->v4 = inet_select_addr(dev, rt->gw_family ? rt->gw.v4 : 0, rt->scope);
		return true;
	}
	return ipv6_dev_get_saddr(dev, &daddr->v6, &src->v6);
}

/* Device events: the IP layer of a device comes and goes with it. */
static void inet_dev_free_rcu(void *obj)
{
	struct nb_inet_dev *in = obj;

	free(in->addrs);
	free(in);
}

static void inet_dev_event(struct nb_dev *dev, enum nb_dev_event event)
{
	struct nb_inet_dev *in;

	nb_route_lock();
	in = dev->inet;
	switch (event) {
	case NB_DEV_REGISTER:
		in = calloc(1, sizeof(*in));
		if (in) {
			in->forwarding[0] = default_forwarding[0];
			in->forwarding[1] = default_forwarding[1];
			in->mtu6 = dev->mtu;
			__atomic_store_n(&dev->inet, in, __ATOMIC_RELEASE);
		}
		break;
	case NB_DEV_CHANGEMTU:
		if (in)
			WRITE_ONCE(in->mtu6, dev->mtu);
		break;
	case NB_DEV_DOWN:
		nb_fib_flush_dev(AF_UNSPEC, dev->ifindex, true);
		nb_neigh_flush_dev_locked(dev->ifindex);
		/* addrconf_ifdown: the IPv6 addresses go (keep_addr_on_down off) */
		for (u32 i = in && in->addrs ? in->addrs->cnt : 0; i-- > 0;) {
			if (in->addrs->a[i].family == AF_INET6) {
				struct nb_ifaddr_set *set = addrs_copy(in);

				if (!set)
					break;
				addrs_remove(set, i);
				addrs_publish(in, set);
			}
		}
		break;
	case NB_DEV_UP:
		for (u32 i = 0; in && in->addrs && i < in->addrs->cnt; i++)
			if (in->addrs->a[i].family == AF_INET)
				nb_fib_add_ifaddr(dev, &in->addrs->a[i]);
		break;
	case NB_DEV_UNREGISTER:
		nb_fib_flush_dev(AF_UNSPEC, dev->ifindex, false);
		nb_neigh_flush_dev_locked(dev->ifindex);
		if (in) {
			__atomic_store_n(&dev->inet, NULL, __ATOMIC_RELEASE);
			nb_epoch_call_fn(in, inet_dev_free_rcu);
		}
		break;
	case NB_DEV_CHANGEADDR:
		break;
	}
	nb_route_unlock();
}

static struct nb_dev_notifier inet_notifier = { .call = inet_dev_event };

static void __attribute__((constructor)) inet_init(void)
{
	nb_dev_register_notifier(&inet_notifier);
}

const char *nb_inet_ntop(int family, const union nb_inet_addr *addr, char *buf, size_t size)
{
	if (!inet_ntop(family, addr, buf, (socklen_t)size))
		snprintf(buf, size, "?");
	return buf;
}

bool nb_inet_pton_prefix(const char *text, int *family, union nb_inet_addr *addr, u8 *len)
{
	char buf[INET6_ADDRSTRLEN + 8];
	const char *slash = strchr(text, '/');
	size_t alen = slash ? (size_t)(slash - text) : strlen(text);
	int fam = *family;

	if (alen >= INET6_ADDRSTRLEN)
		return false;
	memcpy(buf, text, alen);
	buf[alen] = '\0';
	memset(addr, 0, sizeof(*addr));
	if ((fam == AF_UNSPEC || fam == AF_INET) && inet_pton(AF_INET, buf, &addr->v4) == 1)
		fam = AF_INET;
	else if ((fam == AF_UNSPEC || fam == AF_INET6) && inet_pton(AF_INET6, buf, &addr->v6) == 1)
		fam = AF_INET6;
	else
		return false;
	*len = nb_inet_addr_bits(fam);
	if (slash) {
		char *end;
		unsigned long l;

		if (!slash[1])
			return false;
		l = strtoul(slash + 1, &end, 10);
		if (*end || l > nb_inet_addr_bits(fam))
			return false;
		*len = (u8)l;
	}
	*family = fam;
	return true;
}
