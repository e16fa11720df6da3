// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_XSKMAP (net/xdp/xskmap.c): u32 keys, slots of XDP sockets (include/netbpf/xsk.h),
 * written by socket id where the kernel takes a socket fd. A program's bpf_redirect_map hands a
 * frame to the socket in the slot; its bpf_map_lookup_elem gets the socket, of which it may
 * read the queue id (struct bpf_xdp_sock) and nothing else. Userspace cannot read slots
 * (EOPNOTSUPP, as in the kernel). A slot holds a reference on its socket and the socket knows
 * its slots, so that closing it empties them; writers serialise on nb_xsk_lock, the datapath
 * reads slots without a lock.
 */
#include <errno.h>
#include <stdlib.h>

#include "bpf/map.h"
#include "bpf/maps/array.h"
#include "pkt/pkt.h"
#include "net/xdp.h"
#include "net/xsk.h"

struct nb_xsk_map {
	struct nb_map map;
	struct nb_xsk **slots;
};

#define to_xmap(m) container_of(m, struct nb_xsk_map, map)

static int xsk_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	if (!attr->max_entries || attr->key_size != sizeof(u32) ||
	    attr->value_size != sizeof(u32) ||
	    (attr->map_flags & ~(BPF_F_NUMA_NODE | BPF_F_RDONLY | BPF_F_WRONLY))) {
		nb_log_printf(log, "map %s: xskmap maps need max_entries > 0, 4-byte keys and "
			      "values (socket ids) and no flags but BPF_F_NUMA_NODE, BPF_F_RDONLY, "
			      "BPF_F_WRONLY\n", attr->name);
		return -EINVAL;
	}
	return 0;
}

static int xsk_map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	struct nb_xsk_map *m = calloc(1, sizeof(*m));

	if (m)
		m->slots = calloc(attr->max_entries, sizeof(*m->slots));
	if (!m || !m->slots) {
		free(m);
		nb_log_printf(log, "map %s: no memory for %u slots\n", attr->name,
			      attr->max_entries);
		return -ENOMEM;
	}
	nb_map_init_from_attr(&m->map, attr);
	*mapp = &m->map;
	return 0;
}

/* Forget the node of slot in xs's list; with nb_xsk_lock held. */
static void sock_unlink_slot(struct nb_xsk *xs, struct nb_xsk **slot)
{
	for (struct nb_xsk_map_node **pp = &xs->map_nodes; *pp; pp = &(*pp)->next) {
		if ((*pp)->slot == slot) {
			struct nb_xsk_map_node *n = *pp;

			*pp = n->next;
			free(n);
			return;
		}
	}
}

/* Empty slot, its socket losing the slot's reference after a grace period; locked. */
static void slot_clear(struct nb_xsk **slot)
{
	struct nb_xsk *old = __atomic_exchange_n(slot, NULL, __ATOMIC_ACQ_REL);

	if (old) {
		sock_unlink_slot(old, slot);
		nb_xsk_put(old);
	}
}

void nb_xsk_map_delete_sock(struct nb_xsk *xs)
{
	while (xs->map_nodes)
		slot_clear(xs->map_nodes->slot);
}

static void xsk_map_free(struct nb_map *map)
{
	struct nb_xsk_map *m = to_xmap(map);

	pthread_mutex_lock(&nb_xsk_lock);
	for (u32 i = 0; i < map->max_entries; i++)
		slot_clear(&m->slots[i]);
	pthread_mutex_unlock(&nb_xsk_lock);
	free(m->slots);
	free(m);
}

static void *xsk_map_lookup_entry(struct nb_map *map, u32 key)
{
	if (key >= map->max_entries)
		return NULL;
	return __atomic_load_n(&to_xmap(map)->slots[key], __ATOMIC_ACQUIRE);
}

/* The socket itself: a program reads its queue id there. */
static void *xsk_map_lookup_elem(struct nb_map *map, const void *key)
{
	return xsk_map_lookup_entry(map, *(const u32 *)key);
}

static int xsk_map_lookup_sys(struct nb_map *map, const void *key, void *value)
{
	return -EOPNOTSUPP;
}

static int xsk_map_update_sys(struct nb_map *map, const void *key, const void *value,
			      u64 flags)
{
	struct nb_xsk **slot, *xs, *old;
	struct nb_xsk_map_node *node;
	u32 i = *(const u32 *)key;
	int err = 0;

	if (flags > BPF_EXIST)
		return -EINVAL;
	if (i >= map->max_entries)
		return -E2BIG;
	slot = &to_xmap(map)->slots[i];
	node = calloc(1, sizeof(*node));
	if (!node)
		return -ENOMEM;
	node->slot = slot;
	pthread_mutex_lock(&nb_xsk_lock);
	/* The kernel looks the fd up: an id that names no socket is EBADF alike. */
	xs = nb_xsk_get_by_id_locked(*(const u32 *)value);
	old = *slot;
	if (!xs)
		err = -EBADF;
	else if (old == xs)
		err = 0;
	else if (old && flags == BPF_NOEXIST)
		err = -EEXIST;
	else if (!old && flags == BPF_EXIST)
		err = -ENOENT;
	if (err || old == xs) {
		pthread_mutex_unlock(&nb_xsk_lock);
		nb_xsk_put(xs);
		free(node);
		return err;
	}
	slot_clear(slot);
	node->next = xs->map_nodes;
	xs->map_nodes = node;
	__atomic_store_n(slot, xs, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&nb_xsk_lock);
	return 0;
}

/* Deleting an empty slot is no error (xsk_map_delete_elem). */
static long xsk_map_delete_elem(struct nb_map *map, const void *key)
{
	u32 k = *(const u32 *)key;

	if (k >= map->max_entries)
		return -EINVAL;
	pthread_mutex_lock(&nb_xsk_lock);
	slot_clear(&to_xmap(map)->slots[k]);
	pthread_mutex_unlock(&nb_xsk_lock);
	return 0;
}

static long xsk_map_redirect(struct nb_map *map, u64 index, u64 flags)
{
	return nb_xdp_redirect_map(map, index, flags, 0, xsk_map_lookup_entry);
}

static bool xsk_map_meta_equal(const struct nb_map *meta0, const struct nb_map *meta1)
{
	return meta0->max_entries == meta1->max_entries && nb_map_meta_equal(meta0, meta1);
}

static const struct nb_map_ops xsk_map_ops = {
	.type = BPF_MAP_TYPE_XSKMAP,
	.name = "xskmap",
	.prog_rdonly = true,
	.map_alloc_check = xsk_map_alloc_check,
	.map_alloc = xsk_map_alloc,
	.map_free = xsk_map_free,
	.map_lookup_elem = xsk_map_lookup_elem,
	.map_delete_elem = xsk_map_delete_elem,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_lookup_elem_sys = xsk_map_lookup_sys,
	.map_update_elem_sys = xsk_map_update_sys,
	.map_redirect = xsk_map_redirect,
	.map_meta_equal = xsk_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(xsk_map_ops)
