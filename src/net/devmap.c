// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_DEVMAP and BPF_MAP_TYPE_DEVMAP_HASH (kernel/bpf/devmap.c): u32 keys, values
 * struct bpf_devmap_val (ifindex, and in the 8-byte form a devmap program: the id of an XDP
 * program loaded with expected attach type BPF_XDP_DEVMAP where the kernel takes an fd). A
 * program reads an entry through bpf_map_lookup_elem (read-only) and sends frames to it with
 * bpf_redirect_map.
 *
 * Userspace updates entries while traffic runs: an update builds a new entry and swaps the
 * pointer; the old one goes to the epoch reclaimer, so a worker that found it keeps a valid
 * device and program until its poll ends. Writers serialise on a mutex.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/epoch.h"
#include "bpf/map.h"
#include "bpf/maps/array.h"
#include "bpf/prog.h"
#include "net/dev.h"
#include "net/devmap.h"
#include "pkt/pkt.h"
#include "net/xdp.h"
#include "common/u64_stats.h"

struct nb_dtab {
	struct nb_map map;
	struct nb_dtab_netdev **netdev_map;	/* devmap: one slot per key */
	struct nb_dtab_netdev **dev_index_head;	/* devmap_hash: buckets */
	u32 n_buckets;				/* a power of two */
	u32 items;				/* devmap_hash entries */
	pthread_mutex_t index_lock;		/* writers */
	struct nb_dtab *next;			/* dtab_list */
};

/* Every devmap, for the device notifier (the kernel's dev_map_list). */
static pthread_mutex_t dtab_list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_dtab *dtab_list;

#define to_dtab(m) container_of(m, struct nb_dtab, map)

/* Value sizes: ifindex alone, or ifindex and program. */
#define DEVMAP_VAL_IFINDEX_SIZE sizeof(__u32)

static int dev_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	int err = nb_map_check_flags(attr, BPF_F_NUMA_NODE | BPF_F_RDONLY | BPF_F_WRONLY, log);

	if (err)
		return err;
	err = nb_map_check_nonzero(attr, log);
	if (!err)
		err = nb_map_check_key_size(attr, sizeof(u32), log);
	if (err)
		return err;
	if (attr->value_size != DEVMAP_VAL_IFINDEX_SIZE &&
	    attr->value_size != sizeof(struct bpf_devmap_val)) {
		nb_log_printf(log, "map %s: value_size %u is neither 4 (ifindex) nor %zu "
			      "(struct bpf_devmap_val)\n", attr->name, attr->value_size,
			      sizeof(struct bpf_devmap_val));
		return -EINVAL;
	}
	if (attr->map_type == BPF_MAP_TYPE_DEVMAP_HASH && attr->max_entries > (1U << 31)) {
		nb_log_printf(log, "map %s: max_entries %u is too large for a hash of devices\n",
			      attr->name, attr->max_entries);
		return -EINVAL;
	}
	return 0;
}

static int dev_map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	struct nb_dtab *dtab = calloc(1, sizeof(*dtab));

	if (!dtab)
		return -ENOMEM;
	nb_map_init_from_attr(&dtab->map, attr);
	/* Lookups hand programs the entry itself: they may only read it. */
	dtab->map.map_flags |= BPF_F_RDONLY_PROG;
	pthread_mutex_init(&dtab->index_lock, NULL);
	if (attr->map_type == BPF_MAP_TYPE_DEVMAP_HASH) {
		u32 n = 1;

		while (n < attr->max_entries)
			n <<= 1;
		dtab->n_buckets = n;
		dtab->dev_index_head = calloc(n, sizeof(*dtab->dev_index_head));
	} else {
		dtab->netdev_map = calloc(attr->max_entries, sizeof(*dtab->netdev_map));
	}
	if (!dtab->dev_index_head && !dtab->netdev_map) {
		nb_log_printf(log, "map %s: no memory for %u entries\n", attr->name,
			      attr->max_entries);
		free(dtab);
		return -ENOMEM;
	}
	pthread_mutex_lock(&dtab_list_lock);
	dtab->next = dtab_list;
	dtab_list = dtab;
	pthread_mutex_unlock(&dtab_list_lock);
	*mapp = &dtab->map;
	return 0;
}

static void entry_free(struct nb_dtab_netdev *obj)
{
	nb_prog_put(obj->xdp_prog);
	nb_dev_put(obj->dev);
	free(obj);
}

static void entry_free_rcu(struct nb_epoch_head *head)
{
	entry_free(container_of(head, struct nb_dtab_netdev, rcu));
}

static void dev_map_free(struct nb_map *map)
{
	struct nb_dtab *dtab = to_dtab(map), **pp;

	pthread_mutex_lock(&dtab_list_lock);
	for (pp = &dtab_list; *pp; pp = &(*pp)->next) {
		if (*pp == dtab) {
			*pp = dtab->next;
			break;
		}
	}
	pthread_mutex_unlock(&dtab_list_lock);

	/* No program holds the map any more; entries retired earlier free themselves. */
	if (dtab->netdev_map) {
		for (u32 i = 0; i < map->max_entries; i++)
			if (dtab->netdev_map[i])
				entry_free(dtab->netdev_map[i]);
	} else {
		for (u32 b = 0; b < dtab->n_buckets; b++) {
			struct nb_dtab_netdev *obj = dtab->dev_index_head[b], *next;

			for (; obj; obj = next) {
				next = obj->hash_next;
				entry_free(obj);
			}
		}
	}
	pthread_mutex_destroy(&dtab->index_lock);
	free(dtab->netdev_map);
	free(dtab->dev_index_head);
	free(dtab);
}

/* The entry at key, for the datapath (__dev_map_lookup_elem). */
static void *dev_map_lookup_entry(struct nb_map *map, u32 key)
{
	struct nb_dtab *dtab = to_dtab(map);

	if (key >= map->max_entries)
		return NULL;
	return __atomic_load_n(&dtab->netdev_map[key], __ATOMIC_ACQUIRE);
}

static inline struct nb_dtab_netdev **hash_bucket(struct nb_dtab *dtab, u32 key)
{
	return &dtab->dev_index_head[key & (dtab->n_buckets - 1)];
}

static void *dev_map_hash_lookup_entry(struct nb_map *map, u32 key)
{
	struct nb_dtab_netdev *obj = __atomic_load_n(hash_bucket(to_dtab(map), key),
						      __ATOMIC_ACQUIRE);

	for (; obj; obj = __atomic_load_n(&obj->hash_next, __ATOMIC_ACQUIRE))
		if (obj->idx == key)
			return obj;
	return NULL;
}

static void *dev_map_lookup_elem(struct nb_map *map, const void *key)
{
	struct nb_dtab_netdev *obj = dev_map_lookup_entry(map, *(const u32 *)key);

	return obj ? &obj->val : NULL;
}

static void *dev_map_hash_lookup_elem(struct nb_map *map, const void *key)
{
	struct nb_dtab_netdev *obj = dev_map_hash_lookup_entry(map, *(const u32 *)key);

	return obj ? &obj->val : NULL;
}

/*
 * A new entry for val (__dev_map_alloc_node): the device must exist; a program must be an XDP
 * program loaded for devmap entries that matches the map's owner, or claims it (the programs
 * that use a devmap and the ones stored in a devmap or devmap hash share a type and frags
 * setting: map_prog_owner.c). Every failure is -EINVAL, as in the kernel.
 */
static int entry_alloc(struct nb_dtab *dtab, const struct bpf_devmap_val *val, u32 idx,
		       struct nb_dtab_netdev **objp)
{
	struct nb_dtab_netdev *obj = calloc(1, sizeof(*obj));
	struct nb_prog *prog = NULL;

	if (!obj)
		return -ENOMEM;
	obj->dev = nb_dev_get_by_index(val->ifindex);
	if (!obj->dev)
		goto err;
	if (dtab->map.value_size == sizeof(*val) && val->bpf_prog.fd > 0) {
		prog = nb_prog_get_by_id((u32)val->bpf_prog.fd);
		if (!prog)
			goto err;
		if (prog->type != BPF_PROG_TYPE_XDP ||
		    prog->expected_attach_type != BPF_XDP_DEVMAP ||
		    nb_map_claim_prog_owner(&dtab->map, prog, true, NULL)) {
			nb_prog_put(prog);
			goto err;
		}
	}
	obj->idx = idx;
	obj->xdp_prog = prog;
	obj->val.ifindex = val->ifindex;
	obj->val.bpf_prog.id = prog ? prog->id : 0;
	*objp = obj;
	return 0;
err:
	nb_dev_put(obj->dev);
	free(obj);
	return -EINVAL;
}

static void read_val(const struct nb_map *map, const void *value, struct bpf_devmap_val *val)
{
	memset(val, 0, sizeof(*val));
	memcpy(val, value, map->value_size);
}

static int dev_map_update_elem_sys(struct nb_map *map, const void *key, const void *value,
				   u64 flags)
{
	struct nb_dtab *dtab = to_dtab(map);
	struct nb_dtab_netdev *obj = NULL, *old;
	struct bpf_devmap_val val;
	u32 i = *(const u32 *)key;
	int err;

	if (flags > BPF_EXIST)
		return -EINVAL;
	if (i >= map->max_entries)
		return -E2BIG;
	/* Every slot of an array exists. */
	if (flags == BPF_NOEXIST)
		return -EEXIST;
	read_val(map, value, &val);
	if (!val.ifindex) {
		/* ifindex 0 empties the slot; it cannot carry a program. */
		if (map->value_size == sizeof(val) && val.bpf_prog.fd > 0)
			return -EINVAL;
	} else {
		err = entry_alloc(dtab, &val, i, &obj);
		if (err)
			return err;
	}
	pthread_mutex_lock(&dtab->index_lock);
	old = __atomic_exchange_n(&dtab->netdev_map[i], obj, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&dtab->index_lock);
	if (old)
		nb_epoch_call(&old->rcu, entry_free_rcu);
	return 0;
}

static long dev_map_delete_elem(struct nb_map *map, const void *key)
{
	struct nb_dtab *dtab = to_dtab(map);
	struct nb_dtab_netdev *old;
	u32 k = *(const u32 *)key;

	if (k >= map->max_entries)
		return -EINVAL;
	pthread_mutex_lock(&dtab->index_lock);
	old = __atomic_exchange_n(&dtab->netdev_map[k], NULL, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&dtab->index_lock);
	if (old)
		nb_epoch_call(&old->rcu, entry_free_rcu);
	return 0;
}

/* Unlink key's entry from its bucket; called with the lock held. */
static struct nb_dtab_netdev *hash_unlink(struct nb_dtab *dtab, u32 key)
{
	struct nb_dtab_netdev **pp = hash_bucket(dtab, key), *obj;

	for (; (obj = *pp); pp = &obj->hash_next) {
		if (obj->idx == key) {
			__atomic_store_n(pp, obj->hash_next, __ATOMIC_RELEASE);
			return obj;
		}
	}
	return NULL;
}

static int dev_map_hash_update_elem_sys(struct nb_map *map, const void *key, const void *value,
					u64 flags)
{
	struct nb_dtab *dtab = to_dtab(map);
	struct nb_dtab_netdev *obj, *old, **head;
	struct bpf_devmap_val val;
	u32 idx = *(const u32 *)key;
	int err;

	read_val(map, value, &val);
	/* A hash has no empty slot to write: ifindex 0 is no device. */
	if (flags > BPF_EXIST || !val.ifindex)
		return -EINVAL;
	pthread_mutex_lock(&dtab->index_lock);
	old = dev_map_hash_lookup_entry(map, idx);
	if (old && flags == BPF_NOEXIST) {
		err = -EEXIST;
		goto unlock;
	}
	if (!old && dtab->items >= map->max_entries) {
		err = -E2BIG;
		goto unlock;
	}
	err = entry_alloc(dtab, &val, idx, &obj);
	if (err)
		goto unlock;
	if (old) {
		hash_unlink(dtab, idx);
		dtab->items--;
	}
	head = hash_bucket(dtab, idx);
	obj->hash_next = *head;
	__atomic_store_n(head, obj, __ATOMIC_RELEASE);
	dtab->items++;
unlock:
	pthread_mutex_unlock(&dtab->index_lock);
	if (!err && old)
		nb_epoch_call(&old->rcu, entry_free_rcu);
	return err;
}

static long dev_map_hash_delete_elem(struct nb_map *map, const void *key)
{
	struct nb_dtab *dtab = to_dtab(map);
	struct nb_dtab_netdev *old;

	pthread_mutex_lock(&dtab->index_lock);
	old = hash_unlink(dtab, *(const u32 *)key);
	if (old)
		dtab->items--;
	pthread_mutex_unlock(&dtab->index_lock);
	if (!old)
		return -ENOENT;
	nb_epoch_call(&old->rcu, entry_free_rcu);
	return 0;
}

static int dev_map_hash_get_next_key(struct nb_map *map, const void *key, void *next_key)
{
	struct nb_dtab *dtab = to_dtab(map);
	struct nb_dtab_netdev *obj = NULL;
	u32 b = 0;

	if (key)
		obj = dev_map_hash_lookup_entry(map, *(const u32 *)key);
	if (obj) {
		/* The rest of its bucket, then the buckets after it. */
		struct nb_dtab_netdev *next = __atomic_load_n(&obj->hash_next, __ATOMIC_ACQUIRE);

		if (next) {
			*(u32 *)next_key = next->idx;
			return 0;
		}
		b = (obj->idx & (dtab->n_buckets - 1)) + 1;
	}
	for (; b < dtab->n_buckets; b++) {
		obj = __atomic_load_n(&dtab->dev_index_head[b], __ATOMIC_ACQUIRE);
		if (obj) {
			*(u32 *)next_key = obj->idx;
			return 0;
		}
	}
	return -ENOENT;
}

static long dev_map_redirect(struct nb_map *map, u64 ifindex, u64 flags)
{
	return nb_xdp_redirect_map(map, ifindex, flags, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS,
				   dev_map_lookup_entry);
}

static long dev_hash_map_redirect(struct nb_map *map, u64 ifindex, u64 flags)
{
	return nb_xdp_redirect_map(map, ifindex, flags, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS,
				   dev_map_hash_lookup_entry);
}

/* May the entry take a copy (is_valid_dst)? */
static bool is_valid_dst(const struct nb_dtab_netdev *obj, const struct nb_pkt *pkt,
			 u32 excluded_ifindex)
{
	return obj && obj->dev->port && obj->dev->ifindex != excluded_ifindex &&
	       !nb_xdp_ok_fwd_dev(obj->dev, pkt->len);
}

/*
 * One copy per valid entry: copies go to every entry but the last one found, which takes pkt
 * itself, so that n entries cost n - 1 copies.
 */
static int enqueue_to(struct nb_dtab_netdev *obj, struct nb_dtab_netdev **last,
		      struct nb_pkt *pkt, struct nb_dev *dev_rx)
{
	struct nb_pkt *copy;

	if (*last) {
		int err;

		copy = nb_pkt_copy(pkt);
		if (!copy)
			return -ENOMEM;
		/* a new packet on the receiver's path: counted, so that every copy ends somewhere */
		nb_u64_stats_inc(&nb_dev_this_stats(dev_rx)->clones);
		err = nb_xdp_enqueue((*last)->dev, copy, dev_rx, (*last)->xdp_prog);
		if (err)
			nb_pkt_drop(copy, dev_rx, nb_xdp_redirect_drop_reason(err));
	}
	*last = obj;
	return 0;
}

int nb_dev_map_enqueue_multi(struct nb_pkt *pkt, struct nb_dev *dev_rx, struct nb_map *map,
			     bool exclude_ingress)
{
	struct nb_dtab *dtab = to_dtab(map);
	struct nb_dtab_netdev *obj, *last = NULL;
	/* No stacked devices here: the ingress device alone is excluded (no upper devices). */
	u32 excluded = exclude_ingress ? dev_rx->ifindex : 0;
	int err;

	if (map->map_type == BPF_MAP_TYPE_DEVMAP) {
		for (u32 i = 0; i < map->max_entries; i++) {
			obj = __atomic_load_n(&dtab->netdev_map[i], __ATOMIC_ACQUIRE);
			if (!is_valid_dst(obj, pkt, excluded))
				continue;
			err = enqueue_to(obj, &last, pkt, dev_rx);
			if (err)
				return err;
		}
	} else {
		for (u32 b = 0; b < dtab->n_buckets; b++) {
			obj = __atomic_load_n(&dtab->dev_index_head[b], __ATOMIC_ACQUIRE);
			for (; obj; obj = __atomic_load_n(&obj->hash_next, __ATOMIC_ACQUIRE)) {
				if (!is_valid_dst(obj, pkt, excluded))
					continue;
				err = enqueue_to(obj, &last, pkt, dev_rx);
				if (err)
					return err;
			}
		}
	}
	/*
	 * The last entry takes the frame itself. With no entry at all the kernel frees it and
	 * reports a redirect; here it is also a no_dev drop of the receiver, so that it is seen.
	 */
	err = last ? nb_xdp_enqueue(last->dev, pkt, dev_rx, last->xdp_prog) : -ENOENT;
	if (err)
		nb_pkt_drop(pkt, dev_rx, nb_xdp_redirect_drop_reason(err));
	return 0;
}

/*
 * A device leaves the registry: every entry that sends to it goes (dev_map_notification on
 * NETDEV_UNREGISTER), so that its reference does not keep the device alive.
 */
static void dtab_remove_netdev(struct nb_dtab *dtab, struct nb_dev *dev)
{
	struct nb_dtab_netdev *obj;

	pthread_mutex_lock(&dtab->index_lock);
	if (dtab->netdev_map) {
		for (u32 i = 0; i < dtab->map.max_entries; i++) {
			obj = dtab->netdev_map[i];
			if (!obj || obj->dev != dev)
				continue;
			__atomic_store_n(&dtab->netdev_map[i], NULL, __ATOMIC_RELEASE);
			nb_epoch_call(&obj->rcu, entry_free_rcu);
		}
	} else {
		for (u32 b = 0; b < dtab->n_buckets; b++) {
			struct nb_dtab_netdev **pp = &dtab->dev_index_head[b];

			while ((obj = *pp)) {
				if (obj->dev != dev) {
					pp = &obj->hash_next;
					continue;
				}
				__atomic_store_n(pp, obj->hash_next, __ATOMIC_RELEASE);
				dtab->items--;
				nb_epoch_call(&obj->rcu, entry_free_rcu);
			}
		}
	}
	pthread_mutex_unlock(&dtab->index_lock);
}

static void dev_map_dev_event(struct nb_dev *dev, enum nb_dev_event event)
{
	if (event != NB_DEV_UNREGISTER)
		return;
	pthread_mutex_lock(&dtab_list_lock);
	for (struct nb_dtab *dtab = dtab_list; dtab; dtab = dtab->next)
		dtab_remove_netdev(dtab, dev);
	pthread_mutex_unlock(&dtab_list_lock);
}

static struct nb_dev_notifier dev_map_notifier = { .call = dev_map_dev_event };

static void __attribute__((constructor)) dev_map_register_notifier(void)
{
	nb_dev_register_notifier(&dev_map_notifier);
}

static const struct nb_map_ops dev_map_ops = {
	.type = BPF_MAP_TYPE_DEVMAP,
	.name = "devmap",
	.map_alloc_check = dev_map_alloc_check,
	.map_alloc = dev_map_alloc,
	.map_free = dev_map_free,
	.map_lookup_elem = dev_map_lookup_elem,
	.map_delete_elem = dev_map_delete_elem,
	.map_update_elem_sys = dev_map_update_elem_sys,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_redirect = dev_map_redirect,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(dev_map_ops)

static u32 dev_map_hash_elem_count(const struct nb_map *map)
{
	return __atomic_load_n(&container_of(map, struct nb_dtab, map)->items, __ATOMIC_RELAXED);
}

static const struct nb_map_ops dev_map_hash_ops = {
	.type = BPF_MAP_TYPE_DEVMAP_HASH,
	.name = "devmap_hash",
	.map_alloc_check = dev_map_alloc_check,
	.map_alloc = dev_map_alloc,
	.map_free = dev_map_free,
	.map_lookup_elem = dev_map_hash_lookup_elem,
	.map_delete_elem = dev_map_hash_delete_elem,
	.map_update_elem_sys = dev_map_hash_update_elem_sys,
	.map_get_next_key = dev_map_hash_get_next_key,
	.map_redirect = dev_hash_map_redirect,
	.map_meta_equal = nb_map_meta_equal,
	.map_elem_count = dev_map_hash_elem_count,
};
NB_MAP_TYPE_REGISTER(dev_map_hash_ops)
