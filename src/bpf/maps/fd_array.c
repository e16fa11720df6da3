// SPDX-License-Identifier: GPL-2.0
/* The fd array core (see fd_array.h), the twin of the fd_array part of kernel/bpf/arraymap.c. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "bpf/maps/fd_array.h"
#include "bpf/epoch.h"

static inline struct nb_fd_array *to_fda(const struct nb_map *map)
{
	return container_of(map, struct nb_fd_array, array.map);
}

int nb_fd_array_alloc(const struct nb_map *attr, const struct nb_fd_array_ops *fd_ops,
		      struct nb_map **mapp, struct nb_log *log)
{
	struct nb_map slots = *attr;
	struct nb_array *array;
	int err;

	/* Userspace sees 4-byte ids; the slots hold pointers. */
	slots.value_size = sizeof(void *);
	err = nb_array_alloc(&slots, sizeof(struct nb_fd_array), &array, log);
	if (err)
		return err;
	array->map.value_size = attr->value_size;
	to_fda(&array->map)->fd_ops = fd_ops;
	pthread_mutex_init(&to_fda(&array->map)->lock, NULL);
	*mapp = &array->map;
	return 0;
}

static inline void **fd_slot(struct nb_map *map, u32 index)
{
	struct nb_array *array = &to_fda(map)->array;

	return (void **)(array->values + (u64)index * array->elem_size);
}

void nb_fd_array_free(struct nb_map *map)
{
	struct nb_fd_array *fda = to_fda(map);

	/* No program holds the map: release what the slots hold now. */
	for (u32 i = 0; i < map->max_entries; i++)
		if (*fd_slot(map, i))
			fda->fd_ops->put_ptr(*fd_slot(map, i));
	pthread_mutex_destroy(&fda->lock);
	nb_array_free(map);
}

void *nb_fd_array_lookup_slot(struct nb_map *map, const void *key)
{
	u32 index = *(const u32 *)key;

	if (unlikely(index >= map->max_entries))
		return NULL;
	return fd_slot(map, index);
}

int nb_fd_array_lookup_sys(struct nb_map *map, const void *key, void *value)
{
	u32 index = *(const u32 *)key;
	void *ptr;

	if (index >= map->max_entries)
		return -ENOENT;
	ptr = __atomic_load_n(fd_slot(map, index), __ATOMIC_ACQUIRE);
	if (!ptr)
		return -ENOENT;
	*(u32 *)value = to_fda(map)->fd_ops->ptr_id(ptr);
	return 0;
}

static void slot_replace(struct nb_map *map, u32 index, void *ptr, void **old)
{
	struct nb_fd_array *fda = to_fda(map);

	pthread_mutex_lock(&fda->lock);
	*old = __atomic_exchange_n(fd_slot(map, index), ptr, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&fda->lock);
	if (*old)
		nb_epoch_call_fn(*old, fda->fd_ops->put_ptr);
}

int nb_fd_array_update_sys(struct nb_map *map, const void *key, const void *value, u64 flags)
{
	u32 index = *(const u32 *)key;
	void *ptr, *old;
	int err = 0;

	if (flags != BPF_ANY)
		return -EINVAL;
	if (index >= map->max_entries)
		return -E2BIG;
	ptr = to_fda(map)->fd_ops->get_ptr(map, *(const u32 *)value, &err);
	if (!ptr)
		return err;
	slot_replace(map, index, ptr, &old);
	return 0;
}

long nb_fd_array_delete_elem(struct nb_map *map, const void *key)
{
	u32 index = *(const u32 *)key;
	void *old;

	if (index >= map->max_entries)
		return -E2BIG;
	slot_replace(map, index, NULL, &old);
	return old ? 0 : -ENOENT;
}

void nb_fd_array_clear(struct nb_map *map)
{
	for (u32 i = 0; i < map->max_entries; i++)
		nb_fd_array_delete_elem(map, &i);
}
