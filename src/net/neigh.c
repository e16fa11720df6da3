// SPDX-License-Identifier: GPL-2.0
/*
 * The neighbour table, the twin of net/core/neighbour.c's ARP and NDISC tables as far as
 * configured entries go: no solicitations are sent and no timers run, so an entry keeps the
 * state it was given. One snapshot holds every entry of both families in the order they came
 * (the kernel dumps its hash order, which no one can rely on); a device going down or away
 * takes its entries along (neigh_ifdown).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/neighbour.h>

#include "bpf/epoch.h"
#include "net/dev.h"
#include "net/fib.h"

struct neigh_snapshot {
	struct nb_epoch_head rcu;
	u32 cnt;
	struct nb_neigh n[];
};

/* The kernel's NUD_VALID (include/net/neighbour.h): states with a usable address. */
#define NB_NUD_VALID                                                                        \
	(NUD_PERMANENT | NUD_NOARP | NUD_REACHABLE | NUD_PROBE | NUD_STALE | NUD_DELAY)

static struct neigh_snapshot *neigh_snap;

static void neigh_free_rcu(struct nb_epoch_head *head)
{
	free(container_of(head, struct neigh_snapshot, rcu));
}

static const struct neigh_snapshot *neigh_get(void)
{
	return __atomic_load_n(&neigh_snap, __ATOMIC_ACQUIRE);
}

static void neigh_publish(struct neigh_snapshot *s)
{
	struct neigh_snapshot *old = neigh_snap;

	__atomic_store_n(&neigh_snap, s, __ATOMIC_RELEASE);
	if (old)
		nb_epoch_call(&old->rcu, neigh_free_rcu);
}

/* A copy with room for one more entry. */
static struct neigh_snapshot *neigh_copy(void)
{
	u32 cnt = neigh_snap ? neigh_snap->cnt : 0;
	struct neigh_snapshot *s = calloc(1, sizeof(*s) + (cnt + 1) * sizeof(s->n[0]));

	if (!s)
		return NULL;
	s->cnt = cnt;
	if (cnt)
		memcpy(s->n, neigh_snap->n, cnt * sizeof(s->n[0]));
	return s;
}

static bool neigh_is(const struct nb_neigh *n, int family, u32 ifindex,
		     const union nb_inet_addr *addr)
{
	return n->family == family && n->ifindex == ifindex &&
	       !memcmp(&n->addr, addr, nb_inet_addr_bits(family) / 8);
}

const struct nb_neigh *nb_neigh_find(int family, u32 ifindex, const union nb_inet_addr *addr)
{
	const struct neigh_snapshot *s = neigh_get();

	for (u32 i = 0; s && i < s->cnt; i++)
		if (neigh_is(&s->n[i], family, ifindex, addr))
			return &s->n[i];
	return NULL;
}

bool nb_neigh_valid(const struct nb_neigh *n)
{
	return n && (n->state & NB_NUD_VALID);
}

int nb_neigh_lookup(int family, u32 ifindex, const union nb_inet_addr *addr,
		    struct nb_neigh *out)
{
	const struct nb_neigh *n;
	int err = -ENOENT;

	nb_epoch_read_lock();
	n = nb_neigh_find(family, ifindex, addr);
	if (n) {
		*out = *n;
		err = 0;
	}
	nb_epoch_read_unlock();
	return err;
}

static bool state_ok(u16 state)
{
	switch (state) {
	case NUD_INCOMPLETE:
	case NUD_REACHABLE:
	case NUD_STALE:
	case NUD_DELAY:
	case NUD_PROBE:
	case NUD_FAILED:
	case NUD_NOARP:
	case NUD_PERMANENT:
	case NUD_NONE:
		return true;
	default:
		return false;
	}
}

int nb_neigh_update(const struct nb_neigh *in, unsigned int flags, struct nb_log *log)
{
	struct nb_neigh n = *in;
	struct neigh_snapshot *s;
	struct nb_dev *dev;
	int err = 0;
	u32 i;

	if (n.family != AF_INET && n.family != AF_INET6) {
		nb_log_printf(log, "neighbour family %u is not IPv4 or IPv6\n", n.family);
		return -EAFNOSUPPORT;
	}
	if (!state_ok(n.state)) {
		nb_log_printf(log, "neighbour state 0x%x is invalid\n", n.state);
		return -EINVAL;
	}
	if (n.family == AF_INET)
		memset(n.addr.bytes + 4, 0, 12);
	nb_route_lock();
	dev = nb_dev_lookup_index(n.ifindex);
	if (!dev) {
		nb_log_printf(log, "Cannot find device with ifindex %u\n", n.ifindex);
		err = -ENODEV;
		goto out;
	}
	for (i = 0; neigh_snap && i < neigh_snap->cnt; i++)
		if (neigh_is(&neigh_snap->n[i], n.family, n.ifindex, &n.addr))
			break;
	if (neigh_snap && i < neigh_snap->cnt) {
		if (!(flags & NB_NEIGH_REPLACE)) {
			nb_log_printf(log, "File exists\n");
			err = -EEXIST;
			goto out;
		}
		/* an entry that has an address keeps it when none is given */
		if (!n.has_lladdr && neigh_snap->n[i].has_lladdr) {
			n.has_lladdr = true;
			memcpy(n.lladdr, neigh_snap->n[i].lladdr, sizeof(n.lladdr));
		}
	} else if (!(flags & NB_NEIGH_CREATE)) {
		nb_log_printf(log, "No such file or directory\n");
		err = -ENOENT;
		goto out;
	}
	if ((n.state & NB_NUD_VALID) && !n.has_lladdr) {
		nb_log_printf(log, "No link layer address given\n");
		err = -EINVAL;
		goto out;
	}
	s = neigh_copy();
	if (!s) {
		err = -ENOMEM;
		goto out;
	}
	if (i < s->cnt)
		s->n[i] = n;
	else
		s->n[s->cnt++] = n;
	neigh_publish(s);
out:
	nb_route_unlock();
	return err;
}

int nb_neigh_del(const struct nb_neigh *n, struct nb_log *log)
{
	union nb_inet_addr addr = n->addr;
	struct neigh_snapshot *s;
	int err = -ENOENT;

	if (n->family == AF_INET)
		memset(addr.bytes + 4, 0, 12);
	nb_route_lock();
	for (u32 i = 0; neigh_snap && i < neigh_snap->cnt; i++) {
		if (!neigh_is(&neigh_snap->n[i], n->family, n->ifindex, &addr))
			continue;
		s = neigh_copy();
		if (!s) {
			err = -ENOMEM;
			break;
		}
		memmove(&s->n[i], &s->n[i + 1], (s->cnt - i - 1) * sizeof(s->n[0]));
		s->cnt--;
		neigh_publish(s);
		err = 0;
		break;
	}
	nb_route_unlock();
	if (err == -ENOENT)
		nb_log_printf(log, "No such file or directory\n");
	return err;
}

static int flush_locked(int family, u32 ifindex)
{
	struct neigh_snapshot *s;
	u32 kept = 0;

	if (!neigh_snap)
		return 0;
	s = neigh_copy();
	if (!s)
		return -ENOMEM;
	for (u32 i = 0; i < s->cnt; i++) {
		const struct nb_neigh *n = &s->n[i];

		if ((family == AF_UNSPEC || n->family == family) &&
		    (!ifindex || n->ifindex == ifindex))
			continue;
		s->n[kept++] = *n;
	}
	if (kept == s->cnt) {
		free(s);
		return 0;
	}
	s->cnt = kept;
	neigh_publish(s);
	return (int)(neigh_snap ? 1 : 0);
}

void nb_neigh_flush_dev_locked(u32 ifindex)
{
	flush_locked(AF_UNSPEC, ifindex);
}

int nb_neigh_flush(int family, u32 ifindex)
{
	int err;

	nb_route_lock();
	err = flush_locked(family, ifindex);
	nb_route_unlock();
	return err < 0 ? err : 0;
}

int nb_neigh_dump(int family, int (*cb)(const struct nb_neigh *n, void *arg), void *arg)
{
	const struct neigh_snapshot *s;
	int ret = 0;

	nb_epoch_read_lock();
	s = neigh_get();
	for (int f = 0; f < 2 && !ret; f++) {
		int fam = f ? AF_INET6 : AF_INET;

		if (family != AF_UNSPEC && family != fam)
			continue;
		for (u32 i = 0; s && i < s->cnt && !ret; i++)
			if (s->n[i].family == fam)
				ret = cb(&s->n[i], arg);
	}
	nb_epoch_read_unlock();
	return ret;
}
