// SPDX-License-Identifier: GPL-2.0
/*
 * Generic map code, the twin of the map half of kernel/bpf/syscall.c: the registry of map types,
 * map ids, reference counts, and the userspace commands, each of which goes through the type's
 * ops table without ever switching on the type.
 */
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf/btf_object.h"
#include "bpf/map.h"
#include "bpf/epoch.h"
#include "common/barrier.h"
#include "common/opts.h"

static const struct nb_map_ops *map_types[64] /* beyond every bpf_map_type */;

/* Map ids: a small table guarded by a mutex; only the control plane takes it. */
static pthread_mutex_t map_ids_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_map **map_by_id;
static u32 map_id_cap;
static u32 next_map_id = 1;

int nb_map_type_register(const struct nb_map_ops *ops)
{
	if ((unsigned int)ops->type >= ARRAY_SIZE(map_types))
		return -EINVAL;
	if (map_types[ops->type])
		return -EEXIST;
	map_types[ops->type] = ops;
	return 0;
}

const struct nb_map_ops *nb_map_type_ops(enum bpf_map_type type)
{
	if ((unsigned int)type >= ARRAY_SIZE(map_types))
		return NULL;
	return map_types[type];
}

static int map_id_alloc(struct nb_map *map)
{
	pthread_mutex_lock(&map_ids_lock);
	if (next_map_id >= map_id_cap) {
		u32 cap = map_id_cap ? map_id_cap * 2 : 64;
		struct nb_map **table = realloc(map_by_id, cap * sizeof(*table));

		if (!table) {
			pthread_mutex_unlock(&map_ids_lock);
			return -ENOMEM;
		}
		memset(table + map_id_cap, 0, (cap - map_id_cap) * sizeof(*table));
		map_by_id = table;
		map_id_cap = cap;
	}
	map->id = next_map_id++;
	map_by_id[map->id] = map;
	pthread_mutex_unlock(&map_ids_lock);
	return 0;
}

void nb_map_init_from_attr(struct nb_map *map, const struct nb_map *attr)
{
	map->ops = attr->ops;
	map->map_type = attr->map_type;
	map->key_size = attr->key_size;
	map->value_size = attr->value_size;
	map->max_entries = attr->max_entries;
	map->map_flags = attr->map_flags;
	map->numa_node = attr->numa_node;
	/* inner_map_meta is the map-in-map types' to set: other maps ignore a template. */
	memcpy(map->name, attr->name, sizeof(map->name));
}

int nb_map_check_flags(const struct nb_map *attr, u32 allowed, struct nb_log *log)
{
	if (attr->map_flags & ~allowed) {
		nb_log_printf(log, "map %s: map_flags 0x%x not supported by %s maps\n", attr->name,
			      attr->map_flags & ~allowed, attr->ops->name);
		return -EINVAL;
	}
	if ((attr->map_flags & BPF_F_RDONLY_PROG) && (attr->map_flags & BPF_F_WRONLY_PROG)) {
		nb_log_printf(log, "map %s: BPF_F_RDONLY_PROG and BPF_F_WRONLY_PROG exclude each "
			      "other\n", attr->name);
		return -EINVAL;
	}
	return 0;
}

int nb_map_check_key_size(const struct nb_map *attr, u32 key_size, struct nb_log *log)
{
	if (attr->key_size != key_size) {
		nb_log_printf(log, "map %s: key_size %u, %s maps need %u\n", attr->name,
			      attr->key_size, attr->ops->name, key_size);
		return -EINVAL;
	}
	return 0;
}

int nb_map_check_value_size(const struct nb_map *attr, u32 value_size, struct nb_log *log)
{
	if (attr->value_size != value_size) {
		nb_log_printf(log, "map %s: value_size %u, %s maps need %u\n", attr->name,
			      attr->value_size, attr->ops->name, value_size);
		return -EINVAL;
	}
	return 0;
}

int nb_map_check_nonzero(const struct nb_map *attr, struct nb_log *log)
{
	const char *what = !attr->max_entries ? "max_entries" :
			   !attr->key_size ? "key_size" : !attr->value_size ? "value_size" : NULL;

	if (what) {
		nb_log_printf(log, "map %s: %s is 0\n", attr->name, what);
		return -EINVAL;
	}
	return 0;
}

/*
 * Map names as the kernel takes them (bpf_obj_name_cpy): letters, digits, '_' and '.'. Longer
 * names are cut to 15 characters, as libbpf cuts them before the kernel sees them.
 */
static int check_map_name(const char *name, struct nb_log *log)
{
	for (const char *c = name; *c && c - name < BPF_OBJ_NAME_LEN - 1; c++) {
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '.')) {
			nb_log_printf(log, "map %s: invalid character '%c' in name\n", name, *c);
			return -EINVAL;
		}
	}
	return 0;
}

/* Callers built against headers older than the BTF fields pass a shorter struct. */
static bool has_btf_opts(const struct nb_map_create_opts *opts)
{
	return opts && opts->sz >= offsetof(struct nb_map_create_opts, btf_value_type_id) +
				   sizeof(opts->btf_value_type_id);
}

/* The map types the kernel refuses BTF for (map_check_no_btf): libbpf creates them without. */
static bool map_type_has_btf(enum bpf_map_type type)
{
	switch (type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_SOCKHASH:
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY:
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
		return false;
	default:
		return true;
	}
}

/*
 * A reference on the creator's BTF object, or a BTF object of the creator's BTF (the object
 * that made the map may go first), and the types.
 */
static int map_keep_btf(struct nb_map *map, const struct nb_map_create_opts *opts)
{
	struct nb_btf_load_opts lo = { .sz = sizeof(lo), .log = NB_OPTS_GET(opts, log, NULL) };
	struct nb_btf *btf_object = NB_OPTS_GET(opts, btf_object, NULL);
	__u32 key_id = NB_OPTS_GET(opts, btf_key_type_id, 0);
	const void *raw;
	__u32 size;
	int err;

	if (!has_btf_opts(opts) || !opts->btf || !opts->btf_value_type_id ||
	    !map_type_has_btf(map->map_type))
		return 0;
	if (btf_object) {
		map->btf_obj = nb_btf_get(btf_object);
	} else {
		raw = btf__raw_data(opts->btf, &size);
		if (!raw)
			return -ENOMEM;
		err = nb_btf_load(raw, size, &lo, &map->btf_obj);
		if (err)
			return err;
	}
	map->btf = map->btf_obj->btf;
	map->btf_key_type_id = key_id;
	map->btf_value_type_id = opts->btf_value_type_id;
	return 0;
}

const struct btf *nb_map_btf(const struct nb_map *map, __u32 *key_type_id, __u32 *value_type_id)
{
	*key_type_id = map->btf_key_type_id;
	*value_type_id = map->btf_value_type_id;
	return map->btf;
}

__u32 nb_map_btf_id(const struct nb_map *map)
{
	return map->btf_obj ? nb_btf_id(map->btf_obj) : 0;
}

int nb_map_create(enum bpf_map_type type, __u32 key_size, __u32 value_size, __u32 max_entries,
		  const struct nb_map_create_opts *opts, struct nb_map **mapp)
{
	const struct nb_map_ops *ops = nb_map_type_ops(type);
	struct nb_log *log = NB_OPTS_GET(opts, log, NULL);
	struct nb_map attr = {
		.ops = ops,
		.map_type = type,
		.key_size = key_size,
		.value_size = value_size,
		.max_entries = max_entries,
	};
	struct nb_map *map;
	int err;

	*mapp = NULL;
	err = NB_OPTS_CHECK(opts, nb_map_create_opts, log, log);
	if (err)
		return err;
	if (opts) {
		attr.map_flags = opts->map_flags;
		attr.numa_node = opts->numa_node;
		attr.inner_map_meta = opts->inner_map;
		if (opts->name) {
			err = check_map_name(opts->name, log);
			if (err)
				return err;
			snprintf(attr.name, sizeof(attr.name), "%s", opts->name);
		}
	}
	if (!ops) {
		nb_log_printf(log, "map %s: unsupported map type %d\n", attr.name, type);
		return -EINVAL;
	}
	/* One memory node: the kernel refuses a node that is not online. */
	if ((attr.map_flags & BPF_F_NUMA_NODE) && attr.numa_node != 0) {
		nb_log_printf(log, "map %s: NUMA node %u is not online (netbpf has node 0)\n",
			      attr.name, attr.numa_node);
		return -EINVAL;
	}
	if ((attr.map_flags & BPF_F_RDONLY) && (attr.map_flags & BPF_F_WRONLY)) {
		nb_log_printf(log, "map %s: BPF_F_RDONLY and BPF_F_WRONLY exclude each other\n",
			      attr.name);
		return -EINVAL;
	}
	if (ops->map_alloc_check) {
		err = ops->map_alloc_check(&attr, log);
		if (err)
			return err;
	}
	/* Per-CPU values are sized by the worker count: fix it now. */
	nb_nr_cpus();
	err = ops->map_alloc(&attr, &map, log);
	if (err)
		return err;
	map->refcnt = 1;
	if (map->inner_map_meta)
		nb_map_get(map->inner_map_meta);
	err = nb_map_fields_parse(map, has_btf_opts(opts) ? opts->btf : NULL,
				  has_btf_opts(opts) ? opts->btf_value_type_id : 0, log);
	if (!err)
		err = map_keep_btf(map, opts);
	if (err) {
		nb_map_put(map);
		return err;
	}
	err = map_id_alloc(map);
	if (err) {
		nb_map_put(map);
		return err;
	}
	*mapp = map;
	return 0;
}

struct nb_map *nb_map_get(struct nb_map *map)
{
	__atomic_add_fetch(&map->refcnt, 1, __ATOMIC_RELAXED);
	return map;
}

void nb_map_put(struct nb_map *map)
{
	struct nb_map *inner;
	struct nb_btf *btf;

	if (!map || __atomic_sub_fetch(&map->refcnt, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	pthread_mutex_lock(&map_ids_lock);
	if (map->id && map->id < map_id_cap)
		map_by_id[map->id] = NULL;
	pthread_mutex_unlock(&map_ids_lock);
	inner = map->inner_map_meta;
	if (map->timer_off >= 0 && map->ops->map_release_fields)
		map->ops->map_release_fields(map);
	btf = map->btf_obj;
	free(map->kstruct);
	map->ops->map_free(map);
	nb_btf_put(btf);
	nb_map_put(inner);
}

int nb_map_freeze(struct nb_map *map)
{
	/* Freezing is a write: a read-only or already frozen map refuses it (map_freeze). */
	if (map->map_flags & BPF_F_RDONLY)
		return -EPERM;
	if (__atomic_exchange_n(&map->frozen, true, __ATOMIC_ACQ_REL))
		return -EPERM;
	return 0;
}

void nb_map_release_uref(struct nb_map *map)
{
	if (!map)
		return;
	if (map->ops->map_release_uref)
		map->ops->map_release_uref(map);
	/*
	 * No user holds the map: its timers must not outlive them (bpf_map_free_timers_wq).
	 * The fence orders the fields' reads after the caller's decrement of usercnt, against
	 * bpf_timer_init's store and read in the other order (timer.c).
	 */
	if (map->timer_off >= 0 && map->ops->map_release_fields) {
		smp_mb();
		map->ops->map_release_fields(map);
	}
}

struct nb_map *nb_map_get_uref(struct nb_map *map)
{
	__atomic_add_fetch(&map->usercnt, 1, __ATOMIC_RELAXED);
	return nb_map_get(map);
}

void nb_map_put_uref(struct nb_map *map)
{
	if (!map)
		return;
	if (!__atomic_sub_fetch(&map->usercnt, 1, __ATOMIC_ACQ_REL))
		nb_map_release_uref(map);
	nb_map_put(map);
}

/* A reference unless the last one is going (bpf_map_inc_not_zero). */
static struct nb_map *map_get_not_zero(struct nb_map *map)
{
	int ref = __atomic_load_n(&map->refcnt, __ATOMIC_RELAXED);

	do {
		if (!ref)
			return NULL;
	} while (!__atomic_compare_exchange_n(&map->refcnt, &ref, ref + 1, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return map;
}

int nb_map_get_next_id(__u32 start_id, __u32 *next_id)
{
	int err = -ENOENT;

	pthread_mutex_lock(&map_ids_lock);
	for (u32 id = start_id + 1; id < map_id_cap && id < next_map_id; id++) {
		if (map_by_id[id]) {
			*next_id = id;
			err = 0;
			break;
		}
	}
	pthread_mutex_unlock(&map_ids_lock);
	return err;
}

struct nb_map *nb_map_get_by_id(__u32 id)
{
	struct nb_map *map = NULL;

	pthread_mutex_lock(&map_ids_lock);
	if (id < map_id_cap && map_by_id[id])
		map = map_get_not_zero(map_by_id[id]);
	pthread_mutex_unlock(&map_ids_lock);
	return map;
}

__u32 nb_map_id(const struct nb_map *map)
{
	return map->id;
}

const char *nb_map_name(const struct nb_map *map)
{
	return map->name;
}

enum bpf_map_type nb_map_type(const struct nb_map *map)
{
	return map->map_type;
}

__u32 nb_map_key_size(const struct nb_map *map)
{
	return map->key_size;
}

__u32 nb_map_value_size(const struct nb_map *map)
{
	return map->value_size;
}

__u32 nb_map_max_entries(const struct nb_map *map)
{
	return map->max_entries;
}

bool nb_map_frozen(const struct nb_map *map)
{
	return __atomic_load_n(&map->frozen, __ATOMIC_ACQUIRE);
}

__u32 nb_map_flags(const struct nb_map *map)
{
	/*
	 * As bpf_map_flags_retain_permanent: BPF_F_RDONLY and BPF_F_WRONLY are the access of
	 * the fd the map was made with, not the map's; netbpf keeps them to apply that access.
	 */
	return map->map_flags & ~(BPF_F_RDONLY | BPF_F_WRONLY);
}

__u32 nb_map_user_value_size(const struct nb_map *map)
{
	if (map->ops->percpu)
		return nb_map_percpu_slot(map) * nb_nr_cpus();
	return map->value_size;
}

/* The twins of the FMODE_CAN_READ / FMODE_CAN_WRITE checks of the bpf(2) map commands. */
static bool can_read(const struct nb_map *map)
{
	return !(map->map_flags & BPF_F_WRONLY);
}

static bool can_write(const struct nb_map *map)
{
	return !(map->map_flags & BPF_F_RDONLY) && !map->frozen;
}

/*
 * The key as bpf(2) copies it (__bpf_copy_key): maps without keys take none, the others need
 * one.
 */
static int check_key(const struct nb_map *map, const void *key)
{
	if (!map->key_size)
		return key ? -EINVAL : 0;
	return key ? 0 : -EFAULT;
}

/*
 * Lookups and walks run inside an epoch read-side section: programs on other threads may delete
 * the element being copied. Updates and deletes need none: each type's writers serialise on its
 * lock and see only linked elements, and staying outside lets their own retired elements be
 * reclaimed at once.
 */
int nb_map_lookup_elem_flags(struct nb_map *map, const void *key, void *value, __u64 flags)
{
	const void *elem;
	int err = 0;

	if (!can_read(map))
		return -EPERM;
	/* BPF_F_LOCK: read under the value's bpf_spin_lock, for values that have one. */
	if ((flags & ~(__u64)BPF_F_LOCK) || ((flags & BPF_F_LOCK) && map->spin_lock_off < 0))
		return -EINVAL;
	err = check_key(map, key);
	if (err)
		return err;
	if (!map->ops->map_lookup_elem_sys && !map->ops->map_lookup_elem)
		return -EOPNOTSUPP;
	nb_epoch_read_lock();
	if (map->ops->map_lookup_elem_sys && !(flags & BPF_F_LOCK)) {
		err = map->ops->map_lookup_elem_sys(map, key, value);
	} else {
		elem = map->ops->map_lookup_elem(map, key);
		if (elem && (flags & BPF_F_LOCK))
			nb_map_copy_value_locked(map, value, elem, true);
		else if (elem)
			memcpy(value, elem, map->value_size);
		else
			err = -ENOENT;
	}
	nb_epoch_read_unlock();
	/* The lock and timer are the kernel's business: userspace sees them zero. */
	if (!err && nb_map_has_fields(map))
		nb_map_zero_fields(map, value);
	return err;
}

int nb_map_lookup_elem(struct nb_map *map, const void *key, void *value)
{
	return nb_map_lookup_elem_flags(map, key, value, 0);
}

const char *nb_map_absent_objects(const struct nb_map *map)
{
	return map->ops->absent_objects;
}

int nb_map_update_elem(struct nb_map *map, const void *key, const void *value, __u64 flags)
{
	int err;

	if (!can_write(map))
		return -EPERM;
	/* Under the value's bpf_spin_lock: only values that have one (map_update_elem). */
	if ((flags & BPF_F_LOCK) && map->spin_lock_off < 0)
		return -EINVAL;
	err = check_key(map, key);
	if (err)
		return err;
	if (!map->ops->map_update_elem_sys && !map->ops->map_update_elem)
		return -EOPNOTSUPP;
	if (map->ops->map_update_elem_sys)
		err = map->ops->map_update_elem_sys(map, key, value, flags);
	else
		err = (int)map->ops->map_update_elem(map, key, value, flags);
	nb_epoch_throttle();
	return err;
}

int nb_map_delete_elem(struct nb_map *map, const void *key)
{
	int err;

	if (!can_write(map))
		return -EPERM;
	err = check_key(map, key);
	if (err)
		return err;
	if (!map->ops->map_delete_elem)
		return -EOPNOTSUPP;
	err = (int)map->ops->map_delete_elem(map, key);
	nb_epoch_throttle();
	return err;
}

int nb_map_get_next_key(struct nb_map *map, const void *key, void *next_key)
{
	int err;

	if (!can_read(map))
		return -EPERM;
	if (key && !map->key_size)
		return -EINVAL;
	if (!map->ops->map_get_next_key)
		return -EOPNOTSUPP;
	nb_epoch_read_lock();
	err = map->ops->map_get_next_key(map, key, next_key);
	nb_epoch_read_unlock();
	return err;
}

int nb_map_lookup_and_delete_elem(struct nb_map *map, const void *key, void *value)
{
	int err;

	if (!can_read(map) || !can_write(map))
		return -EPERM;
	err = check_key(map, key);
	if (err)
		return err;
	if (!map->ops->map_lookup_and_delete_elem_sys)
		return -EOPNOTSUPP;
	nb_epoch_read_lock();
	err = map->ops->map_lookup_and_delete_elem_sys(map, key, value);
	nb_epoch_read_unlock();
	nb_epoch_throttle();
	return err;
}

int nb_map_direct_value_addr(const struct nb_map *map, u32 off, u64 *addr)
{
	if (!map->ops->map_direct_value_addr)
		return -EOPNOTSUPP;
	return map->ops->map_direct_value_addr(map, addr, off);
}

/*
 * The kernel's generic_map_lookup_batch: up to *count elements after the key in_batch (NULL:
 * from the first), in get_next_key's order, into keys and values; out_batch receives the last
 * key, where the next call goes on. -ENOENT once the walk reached the end (*count holds what
 * this call found). An element deleted between its key and its value is skipped.
 */
int nb_map_lookup_batch(struct nb_map *map, const void *in_batch, void *out_batch, void *keys,
			void *values, __u32 *count)
{
	size_t ks = map->key_size, vs = nb_map_user_value_size(map);
	const void *prev = in_batch;
	__u32 n = 0, max = *count;
	int err = 0;

	*count = 0;
	if (!can_read(map))
		return -EPERM;
	if (!ks || !map->ops->map_get_next_key)
		return -EINVAL;
	nb_epoch_read_lock();
	while (n < max) {
		u8 *key = (u8 *)keys + n * ks;

		err = nb_map_get_next_key(map, prev, key);
		if (err)
			break;
		err = nb_map_lookup_elem(map, key, (u8 *)values + n * vs);
		if (err == -ENOENT) {
			/* gone meanwhile: walk on from it, keep nothing */
			memcpy(out_batch, key, ks);
			prev = out_batch;
			continue;
		}
		if (err)
			break;
		prev = key;
		n++;
	}
	nb_epoch_read_unlock();
	if (n)
		memcpy(out_batch, (u8 *)keys + (n - 1) * ks, ks);
	*count = n;
	return err;
}

/* The kernel's generic_map_update_batch: *count becomes the number of elements written. */
int nb_map_update_batch(struct nb_map *map, const void *keys, const void *values, __u32 *count,
			__u64 elem_flags)
{
	size_t ks = map->key_size, vs = nb_map_user_value_size(map);
	__u32 n;
	int err = 0;

	for (n = 0; n < *count; n++) {
		err = nb_map_update_elem(map, (const u8 *)keys + n * ks,
					 (const u8 *)values + n * vs, elem_flags);
		if (err)
			break;
	}
	*count = n;
	return err;
}
