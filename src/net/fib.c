// SPDX-License-Identifier: GPL-2.0
/*
 * Routes: the twin of the kernel's FIB tables (net/ipv4/fib_trie.c, fib_semantics.c and
 * net/ipv6/ip6_fib.c, route.c) for unicast, local, broadcast and reject routes, one nexthop
 * each. All routes of all tables live in one sorted array, a snapshot replaced whole by every
 * change (see fib.h), ordered as the kernel dumps them: by family, by table (the order of the
 * kernel's table hash chains), then within a table
 *   IPv4: by destination as a number, longer prefixes first for equal keys (the trie's leaf
 *         order), then by metric, then oldest first (fib_alias order);
 *   IPv6: the fib6 tree's walk, children before their parent and the 0 branch first, then by
 *         metric, then oldest first.
 * A lookup scans the routes of one table; netbpf's tables are small (a router's, not the
 * Internet's), so the scan costs less than keeping a trie would.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>

#include "bpf/epoch.h"
#include "net/dev.h"
#include "net/fib.h"

/* A table that exists: its routes are routes[start .. start + cnt). */
struct fib_table {
	u8 family;
	u32 id;
	u32 start, cnt;
};

struct fib_snapshot {
	struct nb_epoch_head rcu;
	u32 nr_tables, nr_routes;
	struct fib_table *tables;	/* sorted by family, then hash chain order */
	struct nb_route *routes;
};

static pthread_mutex_t route_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fib_snapshot *fib_snap;

void nb_route_lock(void)
{
	pthread_mutex_lock(&route_lock);
}

void nb_route_unlock(void)
{
	pthread_mutex_unlock(&route_lock);
}

bool nb_inet_prefix_match(int family, const union nb_inet_addr *prefix, u8 len,
			  const union nb_inet_addr *addr)
{
	u8 full = len / 8, rest = len % 8;

	if (family == AF_INET) {
		u32 mask = len ? ~0u << (32 - len) : 0;

		return !((ntohl(prefix->v4) ^ ntohl(addr->v4)) & mask);
	}
	if (memcmp(prefix->bytes, addr->bytes, full))
		return false;
	return !rest || !((prefix->bytes[full] ^ addr->bytes[full]) & (0xff << (8 - rest)));
}

void nb_inet_prefix_mask(int family, union nb_inet_addr *addr, u8 len)
{
	u8 bytes = family == AF_INET ? 4 : 16;

	for (u8 i = 0; i < bytes; i++) {
		int bits = (int)len - i * 8;

		if (bits >= 8)
			continue;
		addr->bytes[i] &= bits <= 0 ? 0 : (u8)(0xff << (8 - bits));
	}
	if (family == AF_INET)
		memset(addr->bytes + 4, 0, 12);
}

const char *nb_fib_dev_name(u32 ifindex, char *buf)
{
	struct nb_dev *dev = nb_dev_lookup_index(ifindex);

	if (dev)
		return strcpy(buf, dev->name);
	return strcpy(buf, ifindex == 1 ? "lo" : "?");
}

/* The kernel's fib table hash chains are walked in order of (id & 0xff). */
static int table_order(u8 fa, u32 a, u8 fb, u32 b)
{
	if (fa != fb)
		return fa == AF_INET ? -1 : 1;
	if ((a & 0xff) != (b & 0xff))
		return (a & 0xff) < (b & 0xff) ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The first bit at which a and b differ, 128 when they are equal. */
static unsigned int first_diff_bit(const union nb_inet_addr *a, const union nb_inet_addr *b)
{
	for (unsigned int i = 0; i < 16; i++) {
		u8 x = a->bytes[i] ^ b->bytes[i];

		if (x)
			return i * 8 + (unsigned int)__builtin_clz((unsigned int)x) - 24;
	}
	return 128;
}

static bool addr_bit(const union nb_inet_addr *a, unsigned int bit)
{
	return a->bytes[bit / 8] & (0x80 >> (bit % 8));
}

/* Dump order of two routes of one table (without the insertion order, which ties break). */
static int route_order(const struct nb_route *a, const struct nb_route *b)
{
	if (a->family == AF_INET) {
		u32 ka = ntohl(a->dst.v4), kb = ntohl(b->dst.v4);

		if (ka != kb)
			return ka < kb ? -1 : 1;
		if (a->dst_len != b->dst_len)
			return a->dst_len > b->dst_len ? -1 : 1;
	} else {
		unsigned int bit = first_diff_bit(&a->dst, &b->dst);
		unsigned int len = min_t(unsigned int, a->dst_len, b->dst_len);

		if (bit < len)
			return addr_bit(&a->dst, bit) ? 1 : -1;
		if (a->dst_len != b->dst_len)
			return a->dst_len > b->dst_len ? -1 : 1;
	}
	if (a->metric != b->metric)
		return a->metric < b->metric ? -1 : 1;
	return 0;
}

static void snapshot_free(struct fib_snapshot *s)
{
	if (!s)
		return;
	free(s->tables);
	free(s->routes);
	free(s);
}

static void snapshot_free_rcu(struct nb_epoch_head *head)
{
	snapshot_free(container_of(head, struct fib_snapshot, rcu));
}

/* A new snapshot with room for extra more routes and one more table. */
static struct fib_snapshot *snapshot_copy(const struct fib_snapshot *old, u32 extra)
{
	struct fib_snapshot *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->tables = calloc(old->nr_tables + 1, sizeof(*s->tables));
	s->routes = calloc(old->nr_routes + extra + 1, sizeof(*s->routes));
	if (!s->tables || !s->routes) {
		snapshot_free(s);
		return NULL;
	}
	s->nr_tables = old->nr_tables;
	s->nr_routes = old->nr_routes;
	/* the first snapshot has no arrays to copy from (memcpy wants a pointer even for 0) */
	if (old->nr_tables)
		memcpy(s->tables, old->tables, old->nr_tables * sizeof(*s->tables));
	if (old->nr_routes)
		memcpy(s->routes, old->routes, old->nr_routes * sizeof(*s->routes));
	return s;
}

static void snapshot_publish(struct fib_snapshot *s)
{
	struct fib_snapshot *old = fib_snap;

	__atomic_store_n(&fib_snap, s, __ATOMIC_RELEASE);
	if (old)
		nb_epoch_call(&old->rcu, snapshot_free_rcu);
}

/* The snapshot the datapath reads (the initial one when nothing was ever configured). */
static const struct fib_snapshot *snapshot_get(void)
{
	return __atomic_load_n(&fib_snap, __ATOMIC_ACQUIRE);
}

static int table_index(const struct fib_snapshot *s, u8 family, u32 id)
{
	for (u32 i = 0; i < s->nr_tables; i++)
		if (s->tables[i].family == family && s->tables[i].id == id)
			return (int)i;
	return -1;
}

/* Create table id in s (fib_new_table) when it is missing; its index. */
static int table_create(struct fib_snapshot *s, u8 family, u32 id)
{
	int i = table_index(s, family, id);
	u32 pos;

	if (i >= 0)
		return i;
	for (pos = 0; pos < s->nr_tables; pos++)
		if (table_order(family, id, s->tables[pos].family, s->tables[pos].id) < 0)
			break;
	memmove(&s->tables[pos + 1], &s->tables[pos], (s->nr_tables - pos) * sizeof(*s->tables));
	s->tables[pos] = (struct fib_table){ .family = family, .id = id,
					     .start = pos < s->nr_tables ? s->tables[pos + 1].start
									 : s->nr_routes };
	s->nr_tables++;
	return (int)pos;
}

/* The tables every namespace starts with: main and local of each family. */
static int fib_init_locked(void)
{
	static const u32 ids[] = { RT_TABLE_MAIN, RT_TABLE_LOCAL };
	struct fib_snapshot empty = { 0 }, *s;

	if (fib_snap)
		return 0;
	s = snapshot_copy(&empty, 0);
	if (!s)
		return -ENOMEM;
	free(s->tables);
	s->tables = calloc(4, sizeof(*s->tables));
	if (!s->tables) {
		snapshot_free(s);
		return -ENOMEM;
	}
	for (int f = 0; f < 2; f++)
		for (size_t i = 0; i < ARRAY_SIZE(ids); i++)
			table_create(s, f ? AF_INET6 : AF_INET, ids[i]);
	snapshot_publish(s);
	return 0;
}

/* Insert rt into table ti of s after every route that sorts before or equal to it. */
static void snapshot_insert(struct fib_snapshot *s, int ti, const struct nb_route *rt)
{
	struct fib_table *t = &s->tables[ti];
	u32 pos = t->start;

	while (pos < t->start + t->cnt && route_order(&s->routes[pos], rt) <= 0)
		pos++;
	memmove(&s->routes[pos + 1], &s->routes[pos], (s->nr_routes - pos) * sizeof(*s->routes));
	s->routes[pos] = *rt;
	s->nr_routes++;
	t->cnt++;
	for (u32 i = (u32)ti + 1; i < s->nr_tables; i++)
		s->tables[i].start++;
}

static void snapshot_remove(struct fib_snapshot *s, u32 pos)
{
	memmove(&s->routes[pos], &s->routes[pos + 1], (s->nr_routes - pos - 1) * sizeof(*s->routes));
	s->nr_routes--;
	for (u32 i = 0; i < s->nr_tables; i++) {
		struct fib_table *t = &s->tables[i];

		if (pos >= t->start && pos < t->start + t->cnt)
			t->cnt--;
		else if (t->start > pos)
			t->start--;
	}
}

/* Same destination, table and metric: the key of "File exists" and of replace. */
static bool same_key(const struct nb_route *a, const struct nb_route *b)
{
	return a->family == b->family && a->table == b->table && a->dst_len == b->dst_len &&
	       a->metric == b->metric && !memcmp(&a->dst, &b->dst, sizeof(a->dst));
}

/* Same route as far as the kernel's duplicate check goes (type and nexthop). */
static bool same_route(const struct nb_route *a, const struct nb_route *b)
{
	return same_key(a, b) && a->type == b->type && a->oif == b->oif &&
	       a->gw_family == b->gw_family && !memcmp(&a->gw, &b->gw, sizeof(a->gw)) &&
	       a->has_prefsrc == b->has_prefsrc &&
	       !memcmp(&a->prefsrc, &b->prefsrc, sizeof(a->prefsrc)) && a->mtu == b->mtu &&
	       a->mtu_lock == b->mtu_lock && a->protocol == b->protocol && a->scope == b->scope;
}

/*
 * Insert a complete route (checked by the caller) under the lock: replace the route with the
 * same key when NB_ROUTE_REPLACE, fail with -EEXIST when one exists and excl, else add.
 */
static int fib_insert_locked(const struct nb_route *rt, unsigned int flags, bool excl)
{
	const struct fib_snapshot *old;
	struct fib_snapshot *s;
	int err = fib_init_locked(), ti;

	if (err)
		return err;
	old = fib_snap;
	s = snapshot_copy(old, 1);
	if (!s)
		return -ENOMEM;
	ti = table_create(s, rt->family, rt->table);
	for (u32 i = s->tables[ti].start; i < s->tables[ti].start + s->tables[ti].cnt; i++) {
		if (!same_key(&s->routes[i], rt))
			continue;
		if (flags & NB_ROUTE_REPLACE) {
			snapshot_remove(s, i);
			break;
		}
		if (excl || same_route(&s->routes[i], rt)) {
			snapshot_free(s);
			return -EEXIST;
		}
	}
	snapshot_insert(s, ti, rt);
	snapshot_publish(s);
	return 0;
}

/* Is addr a local address as the route's table sees it? */
static bool addr_is_local_in(u8 family, u32 table, const union nb_inet_addr *addr)
{
	struct nb_flowi fl = { .family = family, .daddr = *addr, .iif = 1 };
	struct nb_fib_result res;

	/* fib_valid_prefsrc: the route's own table (main means local), then local */
	if (table == RT_TABLE_MAIN || !table)
		table = RT_TABLE_LOCAL;
	if (!nb_fib_table_lookup(table, &fl, &res) && res.rt->type == RTN_LOCAL)
		return true;
	return table != RT_TABLE_LOCAL && !nb_fib_table_lookup(RT_TABLE_LOCAL, &fl, &res) &&
	       res.rt->type == RTN_LOCAL;
}

/*
 * The nexthop of a unicast route (fib_check_nh): a gateway must be reachable over a route of
 * link scope or a local address, in the route's table or through the rules, and gives the
 * device when none is named; the device must exist and be up.
 */
static int check_nexthop(struct nb_route *rt, struct nb_log *log)
{
	struct nb_dev *dev;

	if (rt->gw_family && rt->gw_family != rt->family) {
		nb_log_printf(log, "a gateway of another family is not supported by netbpf\n");
		return -EOPNOTSUPP;
	}
	if (rt->gw_family && !rt->onlink) {
		/* only routes of link scope (no gateway) or local ones reach a gateway */
		struct nb_flowi fl = { .family = rt->family, .daddr = rt->gw, .iif = 1,
				       .oif = rt->oif, .scope = RT_SCOPE_LINK };
		struct nb_fib_result res;
		int err = -ENOENT;

		if (rt->table && rt->table != RT_TABLE_MAIN)
			err = nb_fib_table_lookup(rt->table, &fl, &res);
		if (err)
			err = nb_fib_lookup(&fl, &res);
		if (!err && rt->family == AF_INET6 && res.rt->type == RTN_UNICAST &&
		    res.rt->gw_family)
			err = -ENETUNREACH;
		if (err || (res.rt->type != RTN_UNICAST && res.rt->type != RTN_LOCAL)) {
			nb_log_printf(log, "Nexthop has invalid gateway.\n");
			return err ? (rt->family == AF_INET6 ? -EHOSTUNREACH : -ENETUNREACH)
				   : -EINVAL;
		}
		if (rt->oif && res.rt->oif != rt->oif) {
			nb_log_printf(log, "Nexthop has invalid gateway.\n");
			return -EINVAL;
		}
		rt->oif = res.rt->oif;
	}
	if (!rt->oif) {
		nb_log_printf(log, "Nexthop device is required.\n");
		return -ENODEV;
	}
	dev = nb_dev_lookup_index(rt->oif);
	if (!dev) {
		nb_log_printf(log, "Cannot find device for nexthop.\n");
		return -ENODEV;
	}
	if (!READ_ONCE(dev->up)) {
		nb_log_printf(log, "Nexthop device is not up.\n");
		return -ENETDOWN;
	}
	return 0;
}

static bool is_reject(u8 type)
{
	return type == RTN_BLACKHOLE || type == RTN_UNREACHABLE || type == RTN_PROHIBIT ||
	       type == RTN_THROW;
}

int nb_route_add(const struct nb_route *in, unsigned int flags, struct nb_log *log)
{
	struct nb_route rt = *in;
	int err;

	if (rt.family != AF_INET && rt.family != AF_INET6) {
		nb_log_printf(log, "route family %u is not IPv4 or IPv6\n", rt.family);
		return -EAFNOSUPPORT;
	}
	if (rt.dst_len > nb_inet_addr_bits(rt.family)) {
		nb_log_printf(log, "prefix length %u is too long\n", rt.dst_len);
		return -EINVAL;
	}
	/* IPv6 takes the prefix of what it is given, IPv4 wants no host bits */
	nb_inet_prefix_mask(rt.family, &rt.dst, rt.dst_len);
	if (rt.family == AF_INET && rt.dst.v4 != in->dst.v4) {
		nb_log_printf(log, "Invalid prefix for given prefix length.\n");
		return -EINVAL;
	}
	if (!rt.table)
		rt.table = RT_TABLE_MAIN;
	if (!rt.type)
		rt.type = RTN_UNICAST;
	if (!rt.protocol)
		rt.protocol = RTPROT_BOOT;
	if (rt.family == AF_INET6 && !rt.metric)
		rt.metric = 1024;	/* IP6_RT_PRIO_USER */
	switch (rt.type) {
	case RTN_UNICAST:
	case RTN_LOCAL:
	case RTN_BROADCAST:
	case RTN_BLACKHOLE:
	case RTN_UNREACHABLE:
	case RTN_PROHIBIT:
		break;
	case RTN_THROW:
		if (rt.family == AF_INET)
			break;
		/* fall through */
	default:
		nb_log_printf(log, "route type %u is not supported by netbpf\n", rt.type);
		return -EOPNOTSUPP;
	}
	if (rt.family == AF_INET6 && (rt.type == RTN_BROADCAST)) {
		nb_log_printf(log, "IPv6 has no broadcast routes\n");
		return -EINVAL;
	}
	if (rt.scope == NB_ROUTE_SCOPE_AUTO) {
		if (rt.family == AF_INET6)
			rt.scope = RT_SCOPE_UNIVERSE;
		else if (rt.type == RTN_LOCAL)
			rt.scope = RT_SCOPE_HOST;
		else if (rt.type == RTN_BROADCAST)
			rt.scope = RT_SCOPE_LINK;
		else if (rt.type == RTN_UNICAST && !rt.gw_family)
			rt.scope = RT_SCOPE_LINK;
		else
			rt.scope = RT_SCOPE_UNIVERSE;
	}
	if (rt.mtu_lock && !rt.mtu) {
		nb_log_printf(log, "mtu lock needs an mtu\n");
		return -EINVAL;
	}

	nb_route_lock();
	if (is_reject(rt.type)) {
		if (rt.gw_family) {
			nb_log_printf(log, "a %s route has no gateway\n",
				      rt.type == RTN_BLACKHOLE ? "blackhole" : "reject");
			err = -EINVAL;
			goto out;
		}
		/* IPv6 reject routes hang off the loopback device, as the kernel's do */
		rt.oif = rt.family == AF_INET6 ? 1 : 0;
	} else {
		err = check_nexthop(&rt, log);
		if (err)
			goto out;
		if (rt.family == AF_INET && rt.gw_family && rt.scope == RT_SCOPE_HOST) {
			nb_log_printf(log, "Route with host scope can not have a gateway\n");
			err = -EINVAL;
			goto out;
		}
	}
	if (rt.has_prefsrc && !addr_is_local_in(rt.family, rt.table, &rt.prefsrc) &&
	    !(rt.type == RTN_LOCAL && !memcmp(&rt.prefsrc, &rt.dst, sizeof(rt.dst)))) {
		nb_log_printf(log, "Invalid prefsrc address.\n");
		err = -EINVAL;
		goto out;
	}
	err = fib_insert_locked(&rt, flags, !(flags & NB_ROUTE_REPLACE));
	if (err == -EEXIST)
		nb_log_printf(log, "File exists\n");
out:
	nb_route_unlock();
	return err;
}

static bool del_matches(const struct nb_route *have, const struct nb_route *want)
{
	if (have->family != want->family || have->dst_len != want->dst_len ||
	    memcmp(&have->dst, &want->dst, sizeof(have->dst)))
		return false;
	if (want->type && have->type != want->type)
		return false;
	if (want->oif && have->oif != want->oif)
		return false;
	if (want->gw_family && (have->gw_family != want->gw_family ||
				memcmp(&have->gw, &want->gw, sizeof(have->gw))))
		return false;
	if (want->metric && have->metric != want->metric)
		return false;
	if (want->protocol && have->protocol != want->protocol)
		return false;
	return true;
}

int nb_route_del(const struct nb_route *in, struct nb_log *log)
{
	struct nb_route want = *in;
	struct fib_snapshot *s;
	int err = -ESRCH, ti;

	nb_inet_prefix_mask(want.family, &want.dst, want.dst_len);
	nb_route_lock();
	if (fib_init_locked()) {
		err = -ENOMEM;
		goto out;
	}
	ti = table_index(fib_snap, want.family, want.table ? want.table : RT_TABLE_MAIN);
	if (ti < 0)
		goto out;
	for (u32 i = fib_snap->tables[ti].start;
	     i < fib_snap->tables[ti].start + fib_snap->tables[ti].cnt; i++) {
		if (!del_matches(&fib_snap->routes[i], &want))
			continue;
		s = snapshot_copy(fib_snap, 0);
		if (!s) {
			err = -ENOMEM;
			goto out;
		}
		snapshot_remove(s, i);
		snapshot_publish(s);
		err = 0;
		break;
	}
out:
	nb_route_unlock();
	if (err == -ESRCH)
		nb_log_printf(log, "No such process\n");
	return err;
}

int nb_route_dump(int family, int (*cb)(const struct nb_route *rt, void *arg), void *arg)
{
	const struct fib_snapshot *s;
	int ret = 0;

	nb_epoch_read_lock();
	s = snapshot_get();
	for (u32 i = 0; s && i < s->nr_routes && !ret; i++)
		if (family == AF_UNSPEC || s->routes[i].family == family)
			ret = cb(&s->routes[i], arg);
	nb_epoch_read_unlock();
	return ret;
}

/* Remove the routes for which drop(rt, arg) says so, in one new snapshot. */
static int fib_remove_locked(bool (*drop)(const struct nb_route *rt, const void *arg),
			     const void *arg)
{
	struct fib_snapshot *s;
	int n = 0;

	if (!fib_snap)
		return 0;
	s = snapshot_copy(fib_snap, 0);
	if (!s)
		return -ENOMEM;
	for (u32 i = s->nr_routes; i-- > 0;) {
		if (drop(&s->routes[i], arg)) {
			snapshot_remove(s, i);
			n++;
		}
	}
	if (!n) {
		snapshot_free(s);
		return 0;
	}
	snapshot_publish(s);
	return n;
}

struct flush_arg {
	int family;
	u32 ifindex;
	bool keep_local;
};

static bool anycast_of(const struct nb_route *rt, const void *arg)
{
	return rt->family == AF_INET6 && rt->type == RTN_ANYCAST && rt->oif == *(const u32 *)arg;
}

void nb_fib_set_anycast6(u32 ifindex, const union nb_inet_addr *prefixes, unsigned int cnt)
{
	struct nb_route rt = { .family = AF_INET6, .type = RTN_ANYCAST, .protocol = RTPROT_KERNEL,
			       .table = RT_TABLE_LOCAL, .dst_len = 128, .oif = ifindex };

	if (fib_init_locked())
		return;
	fib_remove_locked(anycast_of, &ifindex);
	for (unsigned int i = 0; i < cnt; i++) {
		rt.dst = prefixes[i];
		fib_insert_locked(&rt, 0, false);
	}
}

static bool flush_dev(const struct nb_route *rt, const void *arg)
{
	const struct flush_arg *f = arg;

	if ((f->family != AF_UNSPEC && rt->family != f->family) || rt->oif != f->ifindex)
		return false;
	/* IPv6 reject routes hang off the loopback, not off this device */
	if (rt->family == AF_INET6 && is_reject(rt->type))
		return false;
	/* a local route's nexthop has scope nowhere: only unregistering takes it */
	return !f->keep_local || rt->family != AF_INET || rt->type != RTN_LOCAL;
}

void nb_fib_flush_dev(int family, u32 ifindex, bool keep_local4)
{
	struct flush_arg f = { .family = family, .ifindex = ifindex, .keep_local = keep_local4 };

	fib_remove_locked(flush_dev, &f);
}

/*
 * The kernel's routes for an address (fib_add_ifaddr, addrconf's local and prefix routes): the
 * local route, and on an up device the prefix route and the IPv4 broadcasts. Called with the
 * lock held; routes that exist are left alone.
 */
int nb_fib_add_ifaddr(struct nb_dev *dev, const struct nb_ifaddr *ifa)
{
	struct nb_route rt = { .family = ifa->family, .protocol = RTPROT_KERNEL, .oif = dev->ifindex,
			       .has_prefsrc = ifa->family == AF_INET, .prefsrc = ifa->local };
	int err = fib_init_locked();

	if (err)
		return err;
	if (ifa->family == AF_INET && (ifa->flags & IFA_F_SECONDARY)) {
		/* the prefsrc of a secondary's routes is its primary */
		unsigned int cnt;
		const struct nb_ifaddr *a = nb_inet_addrs(dev, &cnt);

		for (unsigned int i = 0; a && i < cnt; i++)
			if (a[i].family == AF_INET && !(a[i].flags & IFA_F_SECONDARY) &&
			    a[i].prefixlen == ifa->prefixlen &&
			    nb_inet_prefix_match(AF_INET, &a[i].local, a[i].prefixlen, &ifa->local))
				rt.prefsrc = a[i].local;
	}
	/* local route */
	rt.type = RTN_LOCAL;
	rt.table = RT_TABLE_LOCAL;
	rt.dst = ifa->local;
	rt.dst_len = nb_inet_addr_bits(ifa->family);
	rt.scope = ifa->family == AF_INET ? RT_SCOPE_HOST : RT_SCOPE_UNIVERSE;
	err = fib_insert_locked(&rt, 0, false);
	if (err && err != -EEXIST)
		return err;
	if (!READ_ONCE(dev->up))
		return 0;
	if (ifa->family == AF_INET && ifa->broadcast.v4 && ifa->broadcast.v4 != INADDR_BROADCAST) {
		rt.type = RTN_BROADCAST;
		rt.dst = ifa->broadcast;
		rt.scope = RT_SCOPE_LINK;
		err = fib_insert_locked(&rt, 0, false);
		if (err && err != -EEXIST)
			return err;
	}
	if (ifa->family == AF_INET && (ifa->flags & IFA_F_SECONDARY))
		return 0;
	rt.dst = ifa->local;
	nb_inet_prefix_mask(ifa->family, &rt.dst, ifa->prefixlen);
	if (ifa->family == AF_INET && (!rt.dst.v4 || (rt.dst.v4 == ifa->local.v4 &&
						      ifa->prefixlen == 32)))
		return 0;
	if (!(ifa->flags & IFA_F_NOPREFIXROUTE)) {
		rt.type = RTN_UNICAST;
		rt.table = RT_TABLE_MAIN;
		rt.dst_len = ifa->prefixlen;
		rt.scope = ifa->family == AF_INET ? RT_SCOPE_LINK : RT_SCOPE_UNIVERSE;
		rt.metric = ifa->family == AF_INET6 ? 256 : 0;	/* IP6_RT_PRIO_ADDRCONF */
		rt.has_prefsrc = ifa->family == AF_INET;
		err = fib_insert_locked(&rt, 0, false);
		if (err && err != -EEXIST)
			return err;
	}
	if (ifa->family == AF_INET && ifa->prefixlen < 31) {
		u32 mask = ~0u << (32 - ifa->prefixlen);

		rt.type = RTN_BROADCAST;
		rt.table = RT_TABLE_LOCAL;
		rt.dst.v4 = htonl(ntohl(rt.dst.v4) | ~mask);
		rt.dst_len = 32;
		rt.scope = RT_SCOPE_LINK;
		rt.metric = 0;
		err = fib_insert_locked(&rt, 0, false);
		if (err && err != -EEXIST)
			return err;
	}
	return 0;
}

struct ifaddr_arg {
	u32 ifindex;
	const struct nb_ifaddr *ifa;
	bool keep_broadcast;
};

static bool ifaddr_route(const struct nb_route *rt, const void *arg)
{
	const struct ifaddr_arg *a = arg;
	const struct nb_ifaddr *ifa = a->ifa;
	union nb_inet_addr prefix = ifa->local;

	if (rt->family != ifa->family || rt->oif != a->ifindex || rt->protocol != RTPROT_KERNEL)
		return false;
	nb_inet_prefix_mask(ifa->family, &prefix, ifa->prefixlen);
	switch (rt->type) {
	case RTN_LOCAL:
		return !memcmp(&rt->dst, &ifa->local, sizeof(rt->dst));
	case RTN_BROADCAST:
		return !a->keep_broadcast &&
		       nb_inet_prefix_match(AF_INET, &prefix, ifa->prefixlen, &rt->dst);
	case RTN_UNICAST:
		return !(ifa->flags & IFA_F_SECONDARY) && rt->dst_len == ifa->prefixlen &&
		       !memcmp(&rt->dst, &prefix, sizeof(prefix)) &&
		       (ifa->family == AF_INET6 || rt->prefsrc.v4 == ifa->local.v4);
	default:
		return false;
	}
}

static bool prefsrc_is(const struct nb_route *rt, const void *arg)
{
	const struct nb_ifaddr *ifa = arg;

	return rt->family == ifa->family && rt->has_prefsrc &&
	       !memcmp(&rt->prefsrc, &ifa->local, sizeof(rt->prefsrc));
}

static void fib_clear_prefsrc6(const union nb_inet_addr *addr)
{
	struct fib_snapshot *s;
	bool changed = false;

	if (!fib_snap)
		return;
	s = snapshot_copy(fib_snap, 0);
	if (!s)
		return;
	for (u32 i = 0; i < s->nr_routes; i++) {
		struct nb_route *rt = &s->routes[i];

		if (rt->family == AF_INET6 && rt->has_prefsrc &&
		    !memcmp(&rt->prefsrc, addr, sizeof(*addr))) {
			rt->has_prefsrc = false;
			memset(&rt->prefsrc, 0, sizeof(rt->prefsrc));
			changed = true;
		}
	}
	if (changed)
		snapshot_publish(s);
	else
		snapshot_free(s);
}

/* fib_del_ifaddr: the routes nb_fib_add_ifaddr made, unless another address still needs them. */
void nb_fib_del_ifaddr(struct nb_dev *dev, const struct nb_ifaddr *ifa)
{
	struct ifaddr_arg a = { .ifindex = dev->ifindex, .ifa = ifa };
	unsigned int cnt;
	const struct nb_ifaddr *addrs = nb_inet_addrs(dev, &cnt);

	/* another address of the same subnet keeps the broadcast routes */
	for (unsigned int i = 0; addrs && i < cnt && ifa->family == AF_INET; i++)
		if (addrs[i].family == AF_INET && addrs[i].local.v4 != ifa->local.v4 &&
		    nb_inet_prefix_match(AF_INET, &addrs[i].local, ifa->prefixlen, &ifa->local))
			a.keep_broadcast = true;
	fib_remove_locked(ifaddr_route, &a);
	if (nb_inet_addr_is_local(ifa->family, &ifa->local))
		return;
	/*
	 * Routes that named the address as their source: IPv4 drops them (fib_sync_down_addr),
	 * IPv6 forgets the source (rt6_remove_prefsrc).
	 */
	if (ifa->family == AF_INET)
		fib_remove_locked(prefsrc_is, ifa);
	else
		fib_clear_prefsrc6(&ifa->local);
}

/*
 * The IPv4 alias walk of one table: the longest prefix first, within a prefix the dump order;
 * reject routes answer with their error at once, other routes need the flow's output device
 * when it has one (fib_lookup_good_nhc).
 */
static int fib4_table_lookup(const struct fib_snapshot *s, const struct fib_table *t,
			     const struct fib_table *merged, const struct nb_flowi *fl,
			     struct nb_fib_result *res)
{
	const struct nb_route *best = NULL;

	for (int pass = 0; pass < 2; pass++) {
		const struct fib_table *tb = pass ? merged : t;

		for (u32 i = 0; tb && i < tb->cnt; i++) {
			const struct nb_route *rt = &s->routes[tb->start + i];

			if (!nb_inet_prefix_match(AF_INET, &rt->dst, rt->dst_len, &fl->daddr))
				continue;
			/* equal prefixes: the first in alias order, the local table's first */
			if (best && (rt->dst_len < best->dst_len ||
				     (rt->dst_len == best->dst_len && rt->table <= best->table)))
				continue;
			if (rt->scope < fl->scope)
				continue;
			if (!is_reject(rt->type) && fl->oif && rt->oif != fl->oif)
				continue;
			best = rt;
		}
	}
	if (!best)
		return -EAGAIN;
	res->rt = best;
	switch (best->type) {
	case RTN_BLACKHOLE:
		return -EINVAL;
	case RTN_UNREACHABLE:
		return -EHOSTUNREACH;
	case RTN_PROHIBIT:
		return -EACCES;
	case RTN_THROW:
		return -EAGAIN;
	default:
		return 0;
	}
}

/*
 * The IPv6 walk of one table (fib6_node_lookup, rt6_select, fib6_backtrack): the longest
 * matching prefix that has routes; among its routes those of the lowest metric first, the one
 * through the flow's device (oif) ranking above the others, the first on a tie.
 */
static int fib6_table_lookup(const struct fib_snapshot *s, const struct fib_table *t,
			     const struct nb_flowi *fl, struct nb_fib_result *res)
{
	const struct nb_route *best = NULL;
	int best_score = -1;

	for (u32 i = 0; i < t->cnt; i++) {
		const struct nb_route *rt = &s->routes[t->start + i];
		int score;

		if (!nb_inet_prefix_match(AF_INET6, &rt->dst, rt->dst_len, &fl->daddr))
			continue;
		if (best && rt->dst_len < best->dst_len)
			continue;
		if (best && rt->dst_len == best->dst_len && rt->metric > best->metric)
			continue;	/* a lower metric of this prefix answers first */
		score = !fl->oif || rt->oif == fl->oif ? 2 : 0;
		if (best && rt->dst_len == best->dst_len && rt->metric == best->metric &&
		    score <= best_score)
			continue;
		best = rt;
		best_score = score;
	}
	if (!best)
		return -EAGAIN;
	res->rt = best;
	return 0;
}

int nb_fib_table_lookup(u32 table, const struct nb_flowi *fl, struct nb_fib_result *res)
{
	const struct fib_snapshot *s = snapshot_get();
	const struct fib_table *merged = NULL;
	int ti;

	if (!table)
		table = RT_TABLE_MAIN;
	if (!s)
		return table == RT_TABLE_MAIN || table == RT_TABLE_LOCAL ? -EAGAIN : -ENOENT;
	ti = table_index(s, fl->family, table);
	if (ti < 0)
		return -ENOENT;
	if (fl->family == AF_INET6)
		return fib6_table_lookup(s, &s->tables[ti], fl, res);
	/*
	 * Until rules are added, IPv4's main and local tables are one trie (fib_unmerge splits
	 * it): a lookup in either sees the routes of both.
	 */
	if ((table == RT_TABLE_MAIN || table == RT_TABLE_LOCAL) &&
	    !nb_fib_has_custom_rules(AF_INET)) {
		int other = table_index(s, AF_INET, table == RT_TABLE_MAIN ? RT_TABLE_LOCAL
									   : RT_TABLE_MAIN);

		merged = other >= 0 ? &s->tables[other] : NULL;
	}
	return fib4_table_lookup(s, &s->tables[ti], merged, fl, res);
}

struct rules_arg {
	struct nb_fib_result *res;
};

/* The action of a rule (fib4_rule_action, fib6_rule_action_alt). */
static int rule_action(const struct nb_fib_rule *rule, const struct nb_flowi *fl, void *arg)
{
	struct rules_arg *a = arg;
	int err;

	switch (rule->action) {
	case FR_ACT_TO_TBL:
		break;
	case FR_ACT_UNREACHABLE:
		return -ENETUNREACH;
	case FR_ACT_PROHIBIT:
		return -EACCES;
	case FR_ACT_BLACKHOLE:
	default:
		return -EINVAL;
	}
	err = nb_fib_table_lookup(rule->table, fl, a->res);
	if (err == -ENOENT)
		return -EAGAIN;
	/* an IPv6 reject route found through a rule is the lookup's answer */
	return err;
}

int nb_fib_lookup(const struct nb_flowi *fl, struct nb_fib_result *res)
{
	struct rules_arg a = { .res = res };
	int err;

	if (fl->family == AF_INET6 || nb_fib_has_custom_rules(AF_INET))
		return nb_fib_rules_lookup(fl, rule_action, &a);
	/*
	 * IPv4 without rules of its own (the inline fib_lookup): main, which still holds the
	 * local routes, then the default table if it exists, on any error of main's.
	 */
	err = nb_fib_table_lookup(RT_TABLE_MAIN, fl, res);
	if (err) {
		int derr = nb_fib_table_lookup(RT_TABLE_DEFAULT, fl, res);

		if (derr != -ENOENT)
			err = derr;
	}
	return err == -EAGAIN ? -ENETUNREACH : err;
}

u32 nb_fib_mtu(const struct nb_route *rt)
{
	struct nb_dev *dev = nb_dev_lookup_index(rt->oif);
	u32 mtu = 0;

	if (rt->family == AF_INET) {
		if (rt->mtu && (rt->mtu_lock || nb_inet_fwd_use_pmtu()))
			mtu = rt->mtu;
		if (!mtu)
			mtu = min_t(u32, dev ? READ_ONCE(dev->mtu) : 65536, 0xffff);
		return mtu;
	}
	if (rt->mtu && rt->mtu_lock)
		return rt->mtu;
	mtu = 1280;	/* IPV6_MIN_MTU */
	if (dev && dev->inet)
		mtu = max_t(u32, mtu, READ_ONCE(dev->inet->mtu6));
	return min_t(u32, mtu, 0xffff);
}
