// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_QUEUE and BPF_MAP_TYPE_STACK, the twins of kernel/bpf/queue_stack_maps.c: a ring
 * of max_entries + 1 value slots under a lock, with no keys. Push with BPF_EXIST overwrites the
 * oldest value when full. From userspace, update pushes, lookup peeks and lookup_and_delete
 * pops; a key-based delete or get_next_key is refused with -EINVAL as in the kernel.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/map.h"

#define QUEUE_STACK_CREATE_FLAG_MASK (BPF_F_NUMA_NODE | NB_MAP_F_ACCESS_MASK)
#define NB_KMALLOC_MAX_SIZE (1U << 22)

struct queue_stack {
	struct nb_map map;
	pthread_spinlock_t lock;
	u32 head, tail;
	u32 size;		/* max_entries + 1: one slot stays empty */
	u8 *elements;
};

static inline struct queue_stack *to_qs(const struct nb_map *map)
{
	return container_of(map, struct queue_stack, map);
}

static int queue_stack_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	int err;

	if (attr->key_size) {
		nb_log_printf(log, "map %s: %s maps have no key: key_size must be 0, not %u\n",
			      attr->name, attr->ops->name, attr->key_size);
		return -EINVAL;
	}
	if (!attr->max_entries || !attr->value_size) {
		nb_log_printf(log, "map %s: %s is 0\n", attr->name,
			      !attr->max_entries ? "max_entries" : "value_size");
		return -EINVAL;
	}
	err = nb_map_check_flags(attr, QUEUE_STACK_CREATE_FLAG_MASK, log);
	if (err)
		return err;
	if (attr->value_size > NB_KMALLOC_MAX_SIZE) {
		nb_log_printf(log, "map %s: value_size %u too large\n", attr->name,
			      attr->value_size);
		return -E2BIG;
	}
	return 0;
}

static int queue_stack_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	u64 size = (u64)attr->max_entries + 1;
	struct queue_stack *qs;

	if (size * attr->value_size >= 1ULL << 32) {
		nb_log_printf(log, "map %s: %u entries of %u bytes do not fit in memory\n",
			      attr->name, attr->max_entries, attr->value_size);
		return -ENOMEM;
	}
	qs = calloc(1, sizeof(*qs));
	if (!qs)
		return -ENOMEM;
	qs->elements = malloc(size * attr->value_size);
	if (!qs->elements) {
		free(qs);
		return -ENOMEM;
	}
	nb_map_init_from_attr(&qs->map, attr);
	qs->size = (u32)size;
	pthread_spin_init(&qs->lock, PTHREAD_PROCESS_PRIVATE);
	*mapp = &qs->map;
	return 0;
}

static void queue_stack_free(struct nb_map *map)
{
	struct queue_stack *qs = to_qs(map);

	pthread_spin_destroy(&qs->lock);
	free(qs->elements);
	free(qs);
}

static inline bool qs_empty(const struct queue_stack *qs)
{
	return qs->head == qs->tail;
}

static inline bool qs_full(const struct queue_stack *qs)
{
	u32 head = qs->head + 1;

	if (unlikely(head >= qs->size))
		head = 0;
	return head == qs->tail;
}

static inline u8 *qs_slot(const struct queue_stack *qs, u32 index)
{
	return qs->elements + (u64)index * qs->map.value_size;
}

/* Queue: the oldest value, at tail. */
static long queue_map_get(struct nb_map *map, void *value, bool delete)
{
	struct queue_stack *qs = to_qs(map);
	long err = 0;

	pthread_spin_lock(&qs->lock);
	if (qs_empty(qs)) {
		memset(value, 0, map->value_size);
		err = -ENOENT;
		goto out;
	}
	memcpy(value, qs_slot(qs, qs->tail), map->value_size);
	if (delete && unlikely(++qs->tail >= qs->size))
		qs->tail = 0;
out:
	pthread_spin_unlock(&qs->lock);
	return err;
}

/* Stack: the newest value, just below head. */
static long stack_map_get(struct nb_map *map, void *value, bool delete)
{
	struct queue_stack *qs = to_qs(map);
	long err = 0;
	u32 index;

	pthread_spin_lock(&qs->lock);
	if (qs_empty(qs)) {
		memset(value, 0, map->value_size);
		err = -ENOENT;
		goto out;
	}
	index = qs->head - 1;
	if (unlikely(index >= qs->size))
		index = qs->size - 1;
	memcpy(value, qs_slot(qs, index), map->value_size);
	if (delete)
		qs->head = index;
out:
	pthread_spin_unlock(&qs->lock);
	return err;
}

static long queue_map_peek_elem(struct nb_map *map, void *value)
{
	return queue_map_get(map, value, false);
}

static long queue_map_pop_elem(struct nb_map *map, void *value)
{
	return queue_map_get(map, value, true);
}

static long stack_map_peek_elem(struct nb_map *map, void *value)
{
	return stack_map_get(map, value, false);
}

static long stack_map_pop_elem(struct nb_map *map, void *value)
{
	return stack_map_get(map, value, true);
}

static long queue_stack_map_push_elem(struct nb_map *map, const void *value, u64 flags)
{
	struct queue_stack *qs = to_qs(map);
	long err = 0;

	if (flags & BPF_NOEXIST || flags > BPF_EXIST)
		return -EINVAL;
	pthread_spin_lock(&qs->lock);
	if (qs_full(qs)) {
		if (!(flags & BPF_EXIST)) {
			err = -E2BIG;
			goto out;
		}
		/* Overwrite: the oldest value goes. */
		if (unlikely(++qs->tail >= qs->size))
			qs->tail = 0;
	}
	memcpy(qs_slot(qs, qs->head), value, map->value_size);
	if (unlikely(++qs->head >= qs->size))
		qs->head = 0;
out:
	pthread_spin_unlock(&qs->lock);
	return err;
}

static void *queue_stack_map_lookup_elem(struct nb_map *map, const void *key)
{
	return NULL;
}

static long queue_stack_map_update_elem(struct nb_map *map, const void *key, const void *value,
					u64 flags)
{
	return -EINVAL;
}

static long queue_stack_map_delete_elem(struct nb_map *map, const void *key)
{
	return -EINVAL;
}

static int queue_stack_map_get_next_key(struct nb_map *map, const void *key, void *next_key)
{
	return -EINVAL;
}

/* The bpf(2) twins: update pushes, lookup peeks, lookup_and_delete pops. */
static int queue_stack_update_sys(struct nb_map *map, const void *key, const void *value,
				  u64 flags)
{
	return (int)map->ops->map_push_elem(map, value, flags);
}

static int queue_stack_lookup_sys(struct nb_map *map, const void *key, void *value)
{
	return (int)map->ops->map_peek_elem(map, value);
}

static int queue_stack_lookup_and_delete_sys(struct nb_map *map, const void *key, void *value)
{
	return (int)map->ops->map_pop_elem(map, value);
}

#define QUEUE_STACK_OPS(ops_name, map_type, type_name, peek, pop)                         \
	static const struct nb_map_ops ops_name = {                                        \
		.type = map_type,                                                          \
		.name = type_name,                                                         \
		.map_alloc_check = queue_stack_alloc_check,                                \
		.map_alloc = queue_stack_alloc,                                            \
		.map_free = queue_stack_free,                                              \
		.map_lookup_elem = queue_stack_map_lookup_elem,                            \
		.map_update_elem = queue_stack_map_update_elem,                            \
		.map_delete_elem = queue_stack_map_delete_elem,                            \
		.map_push_elem = queue_stack_map_push_elem,                                \
		.map_pop_elem = pop,                                                       \
		.map_peek_elem = peek,                                                     \
		.map_get_next_key = queue_stack_map_get_next_key,                          \
		.map_lookup_elem_sys = queue_stack_lookup_sys,                             \
		.map_update_elem_sys = queue_stack_update_sys,                             \
		.map_lookup_and_delete_elem_sys = queue_stack_lookup_and_delete_sys,       \
		.map_meta_equal = nb_map_meta_equal,                                       \
	};                                                                                 \
	NB_MAP_TYPE_REGISTER(ops_name)

QUEUE_STACK_OPS(queue_map_ops, BPF_MAP_TYPE_QUEUE, "queue", queue_map_peek_elem,
		queue_map_pop_elem)
QUEUE_STACK_OPS(stack_map_ops, BPF_MAP_TYPE_STACK, "stack", stack_map_peek_elem,
		stack_map_pop_elem)
