// SPDX-License-Identifier: GPL-2.0
/*
 * The bridge device, the twin of the kernel's net/bridge kept small: br_if.c (ports),
 * br_input.c (br_handle_frame, the ports' rx_handler), br_forward.c (forward and flood),
 * br_device.c (br_dev_xmit) and br_fdb.c (the forwarding database), without STP (ports
 * forward while they and the bridge are up), VLAN filtering, multicast snooping (unregistered
 * multicast floods and goes up, as the kernel does with no querier), hairpin mode or port
 * isolation.
 *
 * The forwarding database is a hash of chains that the workers read without a lock; entries
 * are created, moved between chains' lists and deleted under the bridge's lock and freed after
 * an epoch grace period. A worker learns a new source under the lock (a kmalloc per new
 * address in the kernel too); an address it knows it refreshes with plain stores of the port
 * and the time, as br_fdb_update does, and only when they change, so that a flow's frames do
 * not write a shared cache line each. Entries age on the datapath's jiffies (bpf_jiffies64's
 * clock, virtual in the deterministic mode): an entry whose source was not seen for
 * ageing_time is gone for the datapath at once (the kernel's gc work runs at its expiry) and
 * unlinked by the next learning pass that runs the collection (at most once a second) or by
 * a dump.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_packet.h>
#include <netbpf/clock.h>

#include "bpf/epoch.h"
#include "net/bridge.h"
#include "net/core.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "common/u64_stats.h"

#define BR_HASH_BITS 8
#define BR_HASH_SIZE (1u << BR_HASH_BITS)

struct nb_br_port;

struct nb_br_fdb {
	struct nb_br_fdb *hnext;	/* the bucket's chain, read without the lock */
	struct nb_br_fdb *lnext;	/* the bridge's list, newest first (dump order) */
	struct nb_br_port *dst;		/* NULL: one of the bridge's own addresses */
	u64 updated;			/* jiffies when its source was last seen */
	u8 addr[ETH_ALEN];
	bool local;			/* BR_FDB_LOCAL: frames for it go up the bridge */
	bool is_static;			/* BR_FDB_STATIC: never ages */
	struct nb_epoch_head rcu;
};

struct nb_br_port {
	struct nb_bridge *br;
	struct nb_dev *dev;		/* referenced */
	bool dead;			/* released, but left in a list (no memory for a new one) */
	struct nb_epoch_head rcu;
};

/* The ports as the datapath reads them: replaced whole when a port comes or goes. */
struct nb_br_ports {
	struct nb_epoch_head rcu;
	unsigned int n;
	struct nb_br_port *port[];
};

struct nb_bridge {
	struct nb_dev *dev;
	pthread_mutex_t lock;		/* the kernel's hash_lock and rtnl for this bridge */
	u32 ageing_time;		/* centiseconds, as set */
	u64 hold;			/* ageing_time in jiffies */
	u64 gc_next;			/* jiffies: the next learning pass may collect */
	struct nb_br_ports *ports;
	struct nb_br_fdb *list;
	struct nb_br_fdb *hash[BR_HASH_SIZE];
};

static inline bool is_multicast_ether_addr(const u8 *a)
{
	return a[0] & 1;
}

static inline bool is_zero_ether_addr(const u8 *a)
{
	return !(a[0] | a[1] | a[2] | a[3] | a[4] | a[5]);
}

static inline bool is_valid_ether_addr(const u8 *a)
{
	return !is_multicast_ether_addr(a) && !is_zero_ether_addr(a);
}

/* 01:80:c2:00:00:0X, the IEEE 802.1D link-local group addresses. */
static inline bool is_link_local_ether_addr(const u8 *a)
{
	static const u8 base[5] = { 0x01, 0x80, 0xc2, 0x00, 0x00 };

	return !memcmp(a, base, 5) && !(a[5] & 0xf0);
}

static inline u64 jiffies_of_cs(u32 cs)
{
	return (u64)cs * NB_HZ / 100;
}

static inline struct nb_bridge *dev_br(const struct nb_dev *dev)
{
	return dev->br;
}

static unsigned int fdb_hash(const u8 *addr)
{
	u64 v = 0;

	memcpy(&v, addr, ETH_ALEN);
	return (unsigned int)((v * 0x9e3779b97f4a7c15ULL) >> (64 - BR_HASH_BITS));
}

/* has_expired: a learned entry whose source was not seen for the hold time. */
static bool fdb_expired(const struct nb_bridge *br, const struct nb_br_fdb *f, u64 now)
{
	return !f->is_static && READ_ONCE(f->updated) + READ_ONCE(br->hold) <= now;
}

/* br_fdb_find_rcu: an entry alive for the datapath, or NULL. */
static struct nb_br_fdb *fdb_find(struct nb_bridge *br, const u8 *addr, u64 now)
{
	struct nb_br_fdb *f = __atomic_load_n(&br->hash[fdb_hash(addr)], __ATOMIC_ACQUIRE);

	for (; f; f = __atomic_load_n(&f->hnext, __ATOMIC_ACQUIRE))
		if (!memcmp(f->addr, addr, ETH_ALEN))
			return fdb_expired(br, f, now) ? NULL : f;
	return NULL;
}

static void fdb_free_rcu(struct nb_epoch_head *head)
{
	free(container_of(head, struct nb_br_fdb, rcu));
}

/* fdb_delete: unlink f from its chain and the list; freed after a grace period. */
static void fdb_delete_locked(struct nb_bridge *br, struct nb_br_fdb *f)
{
	struct nb_br_fdb **pp;

	for (pp = &br->hash[fdb_hash(f->addr)]; *pp; pp = &(*pp)->hnext) {
		if (*pp == f) {
			__atomic_store_n(pp, f->hnext, __ATOMIC_RELEASE);
			break;
		}
	}
	for (pp = &br->list; *pp; pp = &(*pp)->lnext) {
		if (*pp == f) {
			*pp = f->lnext;
			break;
		}
	}
	nb_epoch_call(&f->rcu, fdb_free_rcu);
}

static struct nb_br_fdb *fdb_find_locked(struct nb_bridge *br, const u8 *addr)
{
	for (struct nb_br_fdb *f = br->hash[fdb_hash(addr)]; f; f = f->hnext)
		if (!memcmp(f->addr, addr, ETH_ALEN))
			return f;
	return NULL;
}

/* fdb_create: a new entry at the head of its chain and of the list. */
static struct nb_br_fdb *fdb_create_locked(struct nb_bridge *br, struct nb_br_port *dst,
					   const u8 *addr, bool local, bool is_static, u64 now)
{
	struct nb_br_fdb *f = calloc(1, sizeof(*f));
	unsigned int h = fdb_hash(addr);

	if (!f)
		return NULL;
	memcpy(f->addr, addr, ETH_ALEN);
	f->dst = dst;
	f->local = local;
	f->is_static = is_static;
	f->updated = now;
	f->hnext = br->hash[h];
	f->lnext = br->list;
	br->list = f;
	__atomic_store_n(&br->hash[h], f, __ATOMIC_RELEASE);
	return f;
}

/* br_fdb_cleanup: every entry that aged out goes. */
static void fdb_cleanup_locked(struct nb_bridge *br, u64 now)
{
	struct nb_br_fdb *f = br->list, *next;

	for (; f; f = next) {
		next = f->lnext;
		if (fdb_expired(br, f, now))
			fdb_delete_locked(br, f);
	}
	br->gc_next = now + NB_HZ;
}

/* br_fdb_update: the source address of a frame port received. */
static void fdb_update(struct nb_bridge *br, struct nb_br_port *source, const u8 *addr)
{
	u64 now = nb_jiffies64();
	struct nb_br_fdb *f = fdb_find(br, addr, now);

	if (likely(f)) {
		/* an own address as a source: the kernel warns and changes nothing */
		if (unlikely(f->local))
			return;
		if (READ_ONCE(f->updated) != now)
			WRITE_ONCE(f->updated, now);
		if (unlikely(READ_ONCE(f->dst) != source))
			WRITE_ONCE(f->dst, source);
		return;
	}
	pthread_mutex_lock(&br->lock);
	f = fdb_find_locked(br, addr);
	/* one that aged out is the kernel's collected entry: a new one takes its place */
	if (f && fdb_expired(br, f, now)) {
		fdb_delete_locked(br, f);
		f = NULL;
	}
	if (!f)
		fdb_create_locked(br, source, addr, false, false, now);
	if (now >= br->gc_next)
		fdb_cleanup_locked(br, now);
	pthread_mutex_unlock(&br->lock);
}

/* A port passes frames while it and its bridge are up (BR_STATE_FORWARDING without STP). */
static inline bool port_forwarding(const struct nb_br_port *p)
{
	return READ_ONCE(p->dev->up) && READ_ONCE(p->br->dev->up);
}

/* should_deliver: not back out of the port it came in by, and only through a live port. */
static inline bool should_deliver(const struct nb_br_port *p, const struct nb_pkt *pkt)
{
	return pkt->dev != p->dev && port_forwarding(p) && !READ_ONCE(p->dead);
}

/* __br_forward and br_dev_queue_push_xmit: out of the port's transmit path. */
static void br_deliver(struct nb_br_port *to, struct nb_pkt *pkt)
{
	struct nb_dev *dev = to->dev;

	/* is_skb_forwardable: the frame must fit the port's mtu */
	if (unlikely(pkt->len > READ_ONCE(dev->mtu) + ETH_HLEN && !pkt->gso_size)) {
		nb_pkt_drop(pkt, dev, NB_DROP_TOO_BIG);
		return;
	}
	pkt->dev = dev;
	nb_dev_queue_xmit(pkt);
}

/* A copy for to, pkt itself staying with the caller (deliver_clone). */
static void br_deliver_clone(struct nb_bridge *br, struct nb_br_port *to, struct nb_pkt *pkt)
{
	struct nb_pkt *c = nb_pkt_clone(pkt);

	if (unlikely(!c)) {
		nb_dev_count_drop(br->dev, NB_DROP_NOMEM);
		return;
	}
	nb_u64_stats_inc(&nb_dev_this_stats(br->dev)->clones);
	br_deliver(to, c);
}

/* br_forward: to one port; with local_rcv a copy, the frame itself goes up afterwards. */
static void br_forward(struct nb_bridge *br, struct nb_br_port *to, struct nb_pkt *pkt,
		       bool local_rcv)
{
	if (to && should_deliver(to, pkt)) {
		if (local_rcv)
			br_deliver_clone(br, to, pkt);
		else
			br_deliver(to, pkt);
		return;
	}
	/* back out of its own port, to a port that is down, or to an own address by transmit */
	if (!local_rcv)
		nb_pkt_drop(pkt, br->dev, NB_DROP_NO_TX_TARGET);
}

/* br_flood: to every port that should have it; copies for all but the last. */
static void br_flood(struct nb_bridge *br, struct nb_pkt *pkt, bool local_rcv)
{
	struct nb_br_ports *ports = __atomic_load_n(&br->ports, __ATOMIC_ACQUIRE);
	struct nb_br_port *prev = NULL;

	for (unsigned int i = 0; ports && i < ports->n; i++) {
		struct nb_br_port *p = ports->port[i];

		if (!should_deliver(p, pkt))
			continue;
		if (prev)
			br_deliver_clone(br, prev, pkt);
		prev = p;
	}
	if (prev) {
		if (local_rcv)
			br_deliver_clone(br, prev, pkt);
		else
			br_deliver(prev, pkt);
		return;
	}
	if (!local_rcv)
		nb_pkt_drop(pkt, br->dev, NB_DROP_NO_TX_TARGET);
}

/* br_pass_frame_up: the frame is the bridge device's now, received again there. */
static enum nb_rx_handler_result br_pass_frame_up(struct nb_bridge *br, struct nb_pkt *pkt)
{
	nb_dev_count_rx(br->dev, pkt->len);
	pkt->dev = br->dev;
	return NB_RX_HANDLER_ANOTHER;
}

/* br_handle_frame_finish: learn, then forward, flood or pass up. */
static enum nb_rx_handler_result br_handle_frame_finish(struct nb_br_port *p,
							 struct nb_pkt *pkt)
{
	struct nb_bridge *br = p->br;
	const u8 *dest = pkt->data, *src = pkt->data + ETH_ALEN;
	struct nb_br_fdb *dst = NULL;
	bool local_rcv = false;

	fdb_update(br, p, src);
	if (is_multicast_ether_addr(dest)) {
		/* broadcast goes up; so does multicast, with no querier (no mdb to go by) */
		local_rcv = true;
	} else {
		dst = fdb_find(br, dest, nb_jiffies64());
	}
	if (dst) {
		if (dst->local)
			return br_pass_frame_up(br, pkt);
		br_forward(br, READ_ONCE(dst->dst), pkt, local_rcv);
	} else {
		br_flood(br, pkt, local_rcv);
	}
	if (local_rcv)
		return br_pass_frame_up(br, pkt);
	return NB_RX_HANDLER_CONSUMED;
}

enum nb_rx_handler_result nb_br_handle_frame(struct nb_pkt *pkt)
{
	struct nb_br_port *p = __atomic_load_n(&pkt->dev->br_port, __ATOMIC_ACQUIRE);
	const u8 *dest;

	if (!p || unlikely(nb_pkt_headlen(pkt) < ETH_HLEN))
		return NB_RX_HANDLER_PASS;
	dest = pkt->data;
	if (unlikely(!is_valid_ether_addr(pkt->data + ETH_ALEN))) {
		nb_pkt_drop(pkt, pkt->dev, NB_DROP_MAC_INVALID_SOURCE);
		return NB_RX_HANDLER_CONSUMED;
	}
	if (unlikely(is_link_local_ether_addr(dest))) {
		switch (dest[5]) {
		case 0x00:	/* the bridge group address: forwarded while STP is off */
			break;
		case 0x01:	/* MAC control (pause): never forwarded */
			nb_pkt_drop(pkt, pkt->dev, NB_DROP_MAC_IEEE_MAC_CONTROL);
			return NB_RX_HANDLER_CONSUMED;
		default:	/* learned, then up the port itself (group_fwd_mask 0) */
			if (port_forwarding(p))
				fdb_update(p->br, p, pkt->data + ETH_ALEN);
			return NB_RX_HANDLER_PASS;
		}
	}
	if (!port_forwarding(p)) {
		nb_pkt_drop(pkt, pkt->dev, NB_DROP_DEV_DOWN);
		return NB_RX_HANDLER_CONSUMED;
	}
	if (!memcmp(p->br->dev->addr, dest, ETH_ALEN))
		pkt->pkt_type = PACKET_HOST;
	return br_handle_frame_finish(p, pkt);
}

int nb_br_dev_xmit(struct nb_dev *dev, struct nb_pkt *pkt)
{
	struct nb_bridge *br = dev_br(dev);
	const u8 *dest = pkt->data;
	struct nb_br_fdb *dst;

	if (unlikely(nb_pkt_headlen(pkt) < ETH_HLEN)) {
		nb_pkt_drop(pkt, dev, NB_DROP_NOT_SPECIFIED);
		return NB_NET_XMIT_DROP;
	}
	nb_dev_count_tx(dev, pkt->len);
	if (is_multicast_ether_addr(dest))
		br_flood(br, pkt, false);
	else if ((dst = fdb_find(br, dest, nb_jiffies64())))
		br_forward(br, READ_ONCE(dst->dst), pkt, false);
	else
		br_flood(br, pkt, false);
	return NB_NET_XMIT_SUCCESS;
}

/* The control side. */

static struct nb_dev_notifier br_notifier;

static void __attribute__((constructor)) br_init(void)
{
	nb_dev_register_notifier(&br_notifier);
}

int nb_bridge_create(const char *name, u32 ifindex, const struct nb_bridge_opts *opts,
		     struct nb_dev **devp, struct nb_log *log)
{
	struct nb_bridge *br = calloc(1, sizeof(*br));
	struct nb_dev *dev;
	int err;

	*devp = NULL;
	if (!br)
		return -ENOMEM;
	pthread_mutex_init(&br->lock, NULL);
	br->ageing_time = opts && opts->set_ageing_time ? opts->ageing_time :
							    NB_BRIDGE_DEFAULT_AGEING_TIME;
	br->hold = jiffies_of_cs(br->ageing_time);
	err = nb_dev_create(name, ifindex, &dev, log);
	if (err) {
		pthread_mutex_destroy(&br->lock);
		free(br);
		return err;
	}
	br->dev = dev;
	pthread_mutex_lock(&br->lock);
	/* br_dev_init: the bridge's own address is a permanent entry of the bridge */
	if (!fdb_create_locked(br, NULL, dev->addr, true, true, nb_jiffies64()))
		err = -ENOMEM;
	pthread_mutex_unlock(&br->lock);
	dev->br = br;
	if (err) {
		nb_dev_destroy(dev);
		return err;
	}
	*devp = dev;
	return 0;
}

bool nb_dev_is_bridge(const struct nb_dev *dev)
{
	return dev->br != NULL;
}

int nb_bridge_set_ageing_time(struct nb_dev *dev, u32 centisecs, struct nb_log *log)
{
	struct nb_bridge *br = dev_br(dev);

	if (!br) {
		nb_log_printf(log, "%s is not a bridge\n", dev->name);
		return -EINVAL;
	}
	pthread_mutex_lock(&br->lock);
	br->ageing_time = centisecs;
	WRITE_ONCE(br->hold, jiffies_of_cs(centisecs));
	pthread_mutex_unlock(&br->lock);
	return 0;
}

u32 nb_bridge_ageing_time(const struct nb_dev *dev)
{
	return dev->br ? dev->br->ageing_time : 0;
}

/* Publish a port list of the current one with add put in (at the head) or del taken out. */
static int ports_change_locked(struct nb_bridge *br, struct nb_br_port *add,
			       struct nb_br_port *del)
{
	struct nb_br_ports *old = br->ports, *ports;
	unsigned int n = old ? old->n : 0, k = 0;

	ports = calloc(1, sizeof(*ports) + (n + 1) * sizeof(ports->port[0]));
	if (!ports)
		return -ENOMEM;
	/* new ports first, as br_add_if puts them at the head of port_list */
	if (add)
		ports->port[k++] = add;
	for (unsigned int i = 0; i < n; i++)
		if (old->port[i] != del)
			ports->port[k++] = old->port[i];
	ports->n = k;
	__atomic_store_n(&br->ports, ports, __ATOMIC_RELEASE);
	if (old)
		nb_epoch_call_fn(old, free);
	return 0;
}

int nb_bridge_add_port(struct nb_dev *brdev, struct nb_dev *dev, struct nb_log *log)
{
	struct nb_bridge *br = dev_br(brdev);
	struct nb_br_port *p;
	struct nb_br_fdb *f;
	int err;

	if (!br) {
		nb_log_printf(log, "%s is not a bridge\n", brdev->name);
		return -EINVAL;
	}
	if (dev == brdev || dev->br) {
		nb_log_printf(log, "%s is a bridge: netbpf does not put bridges in bridges\n",
			      dev->name);
		return -EINVAL;
	}
	if (dev->hard_header_len != ETH_HLEN) {
		nb_log_printf(log, "%s has no Ethernet header to bridge\n", dev->name);
		return -EINVAL;
	}
	if (dev->br_port) {
		nb_log_printf(log, "%s is a port of %s already\n", dev->name,
			      dev->br_port->br->dev->name);
		return -EBUSY;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->br = br;
	p->dev = nb_dev_get(dev);
	pthread_mutex_lock(&br->lock);
	err = ports_change_locked(br, p, NULL);
	if (!err) {
		/* br_fdb_add_local: the port's address is the bridge's own */
		f = fdb_find_locked(br, dev->addr);
		if (f && !f->local)
			fdb_delete_locked(br, f);
		if ((!f || !f->local) &&
		    !fdb_create_locked(br, p, dev->addr, true, true, nb_jiffies64()))
			err = -ENOMEM;
		if (err)
			ports_change_locked(br, NULL, p);
	}
	if (!err)
		__atomic_store_n(&dev->br_port, p, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&br->lock);
	if (err) {
		nb_epoch_synchronize();
		nb_dev_put(p->dev);
		free(p);
	}
	return err;
}

static void port_free_rcu(struct nb_epoch_head *head)
{
	struct nb_br_port *p = container_of(head, struct nb_br_port, rcu);

	nb_dev_put(p->dev);
	free(p);
}

/* del_nbp: out of the list, then (no worker holding it any more) every entry it has. */
static void br_del_port(struct nb_br_port *p)
{
	struct nb_bridge *br = p->br;
	struct nb_br_fdb *f, *next;
	bool listed;

	pthread_mutex_lock(&br->lock);
	__atomic_store_n(&p->dev->br_port, NULL, __ATOMIC_RELEASE);
	/* without memory for a new list the port stays in it, dead, and is never freed */
	listed = ports_change_locked(br, NULL, p) != 0;
	if (listed)
		WRITE_ONCE(p->dead, true);
	pthread_mutex_unlock(&br->lock);
	/* a worker may be learning on p: once none can, its entries go for good */
	nb_epoch_synchronize();
	pthread_mutex_lock(&br->lock);
	for (f = br->list; f; f = next) {
		next = f->lnext;
		if (f->dst == p)
			fdb_delete_locked(br, f);
	}
	pthread_mutex_unlock(&br->lock);
	if (!listed)
		nb_epoch_call(&p->rcu, port_free_rcu);
}

int nb_bridge_del_port(struct nb_dev *dev, struct nb_log *log)
{
	struct nb_br_port *p = dev->br_port;

	if (!p) {
		nb_log_printf(log, "%s is not a bridge port\n", dev->name);
		return -ENOENT;
	}
	br_del_port(p);
	return 0;
}

struct nb_dev *nb_bridge_master(struct nb_dev *dev)
{
	struct nb_br_port *p = __atomic_load_n(&dev->br_port, __ATOMIC_ACQUIRE);

	return p ? nb_dev_get(p->br->dev) : NULL;
}

/* The port of br that dev is, or NULL. */
static struct nb_br_port *port_of(struct nb_bridge *br, struct nb_dev *dev)
{
	struct nb_br_port *p = dev->br_port;

	return p && p->br == br ? p : NULL;
}

int nb_bridge_fdb_add(struct nb_dev *brdev, struct nb_dev *dev, const u8 addr[ETH_ALEN],
		      enum nb_bridge_fdb_state state, bool replace, struct nb_log *log)
{
	struct nb_bridge *br = dev_br(brdev);
	struct nb_br_port *p = NULL;
	struct nb_br_fdb *f;
	int err = 0;

	if (!br) {
		nb_log_printf(log, "%s is not a bridge\n", brdev->name);
		return -EINVAL;
	}
	if (dev != brdev && !(p = port_of(br, dev))) {
		nb_log_printf(log, "%s is not a port of %s\n", dev->name, brdev->name);
		return -EINVAL;
	}
	if (!p && state != NB_BRIDGE_FDB_PERMANENT) {
		nb_log_printf(log, "an entry of the bridge itself is permanent\n");
		return -EINVAL;
	}
	if (!is_valid_ether_addr(addr)) {
		nb_log_printf(log, "a multicast or zero address cannot have an entry\n");
		return -EINVAL;
	}
	pthread_mutex_lock(&br->lock);
	f = fdb_find_locked(br, addr);
	if (f && fdb_expired(br, f, nb_jiffies64())) {
		fdb_delete_locked(br, f);
		f = NULL;
	}
	if (f && !replace) {
		nb_log_printf(log, "the bridge has an entry for that address\n");
		err = -EEXIST;
	} else {
		if (f)
			fdb_delete_locked(br, f);
		if (!fdb_create_locked(br, p, addr, state == NB_BRIDGE_FDB_PERMANENT,
				       state != NB_BRIDGE_FDB_DYNAMIC, nb_jiffies64()))
			err = -ENOMEM;
	}
	pthread_mutex_unlock(&br->lock);
	return err;
}

int nb_bridge_fdb_del(struct nb_dev *brdev, const u8 addr[ETH_ALEN], struct nb_log *log)
{
	struct nb_bridge *br = dev_br(brdev);
	struct nb_br_fdb *f;
	int err = 0;

	if (!br) {
		nb_log_printf(log, "%s is not a bridge\n", brdev->name);
		return -EINVAL;
	}
	pthread_mutex_lock(&br->lock);
	f = fdb_find_locked(br, addr);
	if (f && fdb_expired(br, f, nb_jiffies64())) {
		fdb_delete_locked(br, f);
		f = NULL;
	}
	if (f)
		fdb_delete_locked(br, f);
	else
		err = -ENOENT;
	pthread_mutex_unlock(&br->lock);
	if (err)
		nb_log_printf(log, "the bridge has no entry for that address\n");
	return err;
}

static u32 fdb_ifindex(const struct nb_bridge *br, const struct nb_br_fdb *f)
{
	const struct nb_br_port *p = READ_ONCE(f->dst);

	return p ? p->dev->ifindex : br->dev->ifindex;
}

unsigned int nb_bridge_fdb_dump(struct nb_dev *brdev, struct nb_bridge_fdb_entry *out,
				unsigned int max)
{
	struct nb_bridge *br = dev_br(brdev);
	u64 now = nb_jiffies64();
	unsigned int n = 0;
	u32 next = 0;

	if (!br)
		return 0;
	pthread_mutex_lock(&br->lock);
	fdb_cleanup_locked(br, now);
	/* by device in ifindex order, each device's newest first (rtnl_fdb_dump, br_fdb_dump) */
	for (u32 ifindex = 0; ifindex != UINT32_MAX; ifindex = next) {
		next = UINT32_MAX;
		for (struct nb_br_fdb *f = br->list; f; f = f->lnext) {
			u32 i = fdb_ifindex(br, f);

			if (i > ifindex && i < next)
				next = i;
			if (i != ifindex)
				continue;
			if (n < max) {
				struct nb_bridge_fdb_entry *e = &out[n];

				memcpy(e->addr, f->addr, ETH_ALEN);
				e->ifindex = i;
				e->state = f->local ? NB_BRIDGE_FDB_PERMANENT :
				   f->is_static ? NB_BRIDGE_FDB_STATIC : NB_BRIDGE_FDB_DYNAMIC;
				e->updated_ago_ms = (now - READ_ONCE(f->updated)) * 1000 / NB_HZ;
			}
			n++;
		}
	}
	pthread_mutex_unlock(&br->lock);
	return n;
}

/* A device's address changed: its permanent entry follows (br_fdb_changeaddr). */
static void br_changeaddr(struct nb_bridge *br, struct nb_br_port *p, struct nb_dev *dev)
{
	struct nb_br_fdb *f;

	pthread_mutex_lock(&br->lock);
	for (f = br->list; f; f = f->lnext) {
		if (f->local && f->dst == p) {
			fdb_delete_locked(br, f);
			break;
		}
	}
	f = fdb_find_locked(br, dev->addr);
	if (f && !f->local)
		fdb_delete_locked(br, f);
	if (!f || !f->local)
		fdb_create_locked(br, p, dev->addr, true, true, nb_jiffies64());
	pthread_mutex_unlock(&br->lock);
}

static void br_dev_event(struct nb_dev *dev, enum nb_dev_event event)
{
	struct nb_bridge *br = dev->br;

	if (event == NB_DEV_CHANGEADDR) {
		if (br)
			br_changeaddr(br, NULL, dev);
		else if (dev->br_port)
			br_changeaddr(dev->br_port->br, dev->br_port, dev);
		return;
	}
	if (event != NB_DEV_UNREGISTER)
		return;
	if (dev->br_port)
		br_del_port(dev->br_port);
	if (!br)
		return;
	/* br_dev_delete: every port is released, every entry goes */
	for (;;) {
		struct nb_br_ports *ports;
		struct nb_br_port *p = NULL;

		pthread_mutex_lock(&br->lock);
		ports = br->ports;
		if (ports && ports->n)
			p = ports->port[0];
		pthread_mutex_unlock(&br->lock);
		if (!p)
			break;
		br_del_port(p);
	}
	pthread_mutex_lock(&br->lock);
	while (br->list)
		fdb_delete_locked(br, br->list);
	pthread_mutex_unlock(&br->lock);
}

static struct nb_dev_notifier br_notifier = { .call = br_dev_event };

void nb_br_describe(const struct nb_dev *dev, char *buf, size_t size)
{
	const struct nb_bridge *br = dev->br;
	const struct nb_br_ports *ports = __atomic_load_n(&br->ports, __ATOMIC_ACQUIRE);

	snprintf(buf, size, "bridge, %u port%s, ageing_time %u", ports ? ports->n : 0,
		 ports && ports->n == 1 ? "" : "s", br->ageing_time);
}

void nb_br_dev_free(struct nb_dev *dev)
{
	struct nb_bridge *br = dev->br;

	if (!br)
		return;
	/* the unregister event emptied it; the last port list goes with it */
	free(br->ports);
	pthread_mutex_destroy(&br->lock);
	free(br);
	dev->br = NULL;
}
