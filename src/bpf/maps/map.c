// SPDX-License-Identifier: GPL-2.0
/*
 * Generic map code, the twin of the map half of kernel/bpf/syscall.c: the registry of map types,
 * map ids, reference counts, and the userspace commands, each of which goes through the type's
 * ops table without ever switching on the type.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/map.h"

static const struct nb_map_ops *map_types[64] /* beyond every bpf_map_type */;

/* Map ids: a small table guarded by a mutex; only the control plane takes it. */
static pthread_mutex_t map_ids_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_map **map_by_id;
static u32 map_id_cap;
static u32 next_map_id = 1;

void nb_map_type_register(const struct nb_map_ops *ops)
{
	if ((unsigned int)ops->type < ARRAY_SIZE(map_types))
		map_types[ops->type] = ops;
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

int nb_map_create(enum bpf_map_type type, __u32 key_size, __u32 value_size, __u32 max_entries,
		  const struct nb_map_create_opts *opts, struct nb_map **mapp)
{
	const struct nb_map_ops *ops = nb_map_type_ops(type);
	struct nb_log *log = opts ? opts->log : NULL;
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
	if (opts) {
		attr.map_flags = opts->map_flags;
		attr.numa_node = opts->numa_node;
		attr.inner_map_meta = opts->inner_map;
		if (opts->name)
			snprintf(attr.name, sizeof(attr.name), "%s", opts->name);
	}
	if (!ops) {
		nb_log_printf(log, "map %s: unsupported map type %d\n", attr.name, type);
		return -EINVAL;
	}
	if (ops->map_alloc_check) {
		err = ops->map_alloc_check(&attr, log);
		if (err)
			return err;
	}
	err = ops->map_alloc(&attr, &map, log);
	if (err)
		return err;
	map->refcnt = 1;
	if (map->inner_map_meta)
		nb_map_get(map->inner_map_meta);
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

	if (!map || __atomic_sub_fetch(&map->refcnt, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	pthread_mutex_lock(&map_ids_lock);
	if (map->id && map->id < map_id_cap)
		map_by_id[map->id] = NULL;
	pthread_mutex_unlock(&map_ids_lock);
	inner = map->inner_map_meta;
	map->ops->map_free(map);
	nb_map_put(inner);
}

struct nb_map *nb_map_get_by_id(__u32 id)
{
	struct nb_map *map = NULL;

	pthread_mutex_lock(&map_ids_lock);
	if (id < map_id_cap && map_by_id[id])
		map = nb_map_get(map_by_id[id]);
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

__u32 nb_map_flags(const struct nb_map *map)
{
	return map->map_flags;
}

int nb_map_lookup_elem(struct nb_map *map, const void *key, void *value)
{
	if (!map->ops->map_lookup_elem_sys)
		return -EOPNOTSUPP;
	return map->ops->map_lookup_elem_sys(map, key, value);
}

int nb_map_update_elem(struct nb_map *map, const void *key, const void *value, __u64 flags)
{
	if (map->frozen)
		return -EPERM;
	if (!map->ops->map_update_elem_sys)
		return -EOPNOTSUPP;
	return map->ops->map_update_elem_sys(map, key, value, flags);
}

int nb_map_delete_elem(struct nb_map *map, const void *key)
{
	if (map->frozen)
		return -EPERM;
	if (!map->ops->map_delete_elem)
		return -EOPNOTSUPP;
	return (int)map->ops->map_delete_elem(map, key);
}

int nb_map_get_next_key(struct nb_map *map, const void *key, void *next_key)
{
	if (!map->ops->map_get_next_key)
		return -EOPNOTSUPP;
	return map->ops->map_get_next_key(map, key, next_key);
}

int nb_map_lookup_and_delete_elem(struct nb_map *map, const void *key, void *value)
{
	if (!map->ops->map_lookup_and_delete_elem_sys)
		return -EOPNOTSUPP;
	return map->ops->map_lookup_and_delete_elem_sys(map, key, value);
}

int nb_map_direct_value_addr(const struct nb_map *map, u32 off, u64 *addr)
{
	if (!map->ops->map_direct_value_addr)
		return -EOPNOTSUPP;
	return map->ops->map_direct_value_addr(map, addr, off);
}
