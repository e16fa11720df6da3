// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_ARRAY and BPF_MAP_TYPE_PERCPU_ARRAY, the twins of kernel/bpf/arraymap.c: a fixed
 * table of zero-initialised values indexed by a u32 key. Elements always exist: no delete, and
 * BPF_NOEXIST always fails. Values are laid out every 8 bytes, as the kernel does. Per-CPU arrays
 * keep one table per worker, so that workers never share a cache line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/map.h"
#include "bpf/maps/array.h"
#include "bpf/maps/gen_lookup.h"

#define ARRAY_CREATE_FLAG_MASK                                                              \
	(BPF_F_NUMA_NODE | BPF_F_MMAPABLE | NB_MAP_F_ACCESS_MASK | BPF_F_PRESERVE_ELEMS |  \
	 BPF_F_INNER_MAP)

/* The largest value the kernel's per-CPU allocator gives (PCPU_MIN_UNIT_SIZE). */
#define NB_PCPU_MIN_UNIT_SIZE (32 * 1024)
/* Arrays larger than this cannot be allocated, as the kernel's vmalloc limit refuses them. */
#define NB_ARRAY_MAX_BYTES (1ULL << 32)

static inline struct nb_array *to_array(const struct nb_map *map)
{
	return container_of(map, struct nb_array, map);
}

int nb_array_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	bool percpu = attr->ops->percpu;
	int err;

	err = nb_map_check_nonzero(attr, log);
	if (err)
		return err;
	err = nb_map_check_key_size(attr, sizeof(u32), log);
	if (err)
		return err;
	err = nb_map_check_flags(attr, ARRAY_CREATE_FLAG_MASK, log);
	if (err)
		return err;
	if (percpu && (attr->map_flags & BPF_F_NUMA_NODE)) {
		nb_log_printf(log, "map %s: per-CPU arrays take no NUMA node\n", attr->name);
		return -EINVAL;
	}
	if (attr->map_type != BPF_MAP_TYPE_ARRAY &&
	    (attr->map_flags & (BPF_F_MMAPABLE | BPF_F_INNER_MAP))) {
		nb_log_printf(log, "map %s: BPF_F_MMAPABLE and BPF_F_INNER_MAP are for plain "
			      "arrays only\n", attr->name);
		return -EINVAL;
	}
	if (attr->map_type != BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
	    (attr->map_flags & BPF_F_PRESERVE_ELEMS)) {
		nb_log_printf(log, "map %s: BPF_F_PRESERVE_ELEMS is for perf event arrays only\n",
			      attr->name);
		return -EINVAL;
	}
	if (attr->value_size > INT32_MAX) {
		nb_log_printf(log, "map %s: value_size %u too large\n", attr->name,
			      attr->value_size);
		return -E2BIG;
	}
	if (percpu && ((attr->value_size + 7) & ~7U) > NB_PCPU_MIN_UNIT_SIZE) {
		nb_log_printf(log, "map %s: per-CPU value_size %u above the limit of %u\n",
			      attr->name, attr->value_size, NB_PCPU_MIN_UNIT_SIZE);
		return -E2BIG;
	}
	return 0;
}

int nb_array_alloc(const struct nb_map *attr, size_t struct_size, struct nb_array **arrayp,
		   struct nb_log *log)
{
	u32 elem_size = (attr->value_size + 7) & ~7U;
	u32 copies = attr->ops->percpu ? nb_nr_cpus() : 1;
	u64 bytes = (u64)attr->max_entries * elem_size * copies;
	struct nb_array *array;

	if (bytes >= NB_ARRAY_MAX_BYTES) {
		nb_log_printf(log, "map %s: %u entries of %u bytes do not fit in memory\n",
			      attr->name, attr->max_entries, attr->value_size);
		return -ENOMEM;
	}
	array = calloc(1, struct_size);
	if (!array)
		return -ENOMEM;
	/* 64-byte aligned so that per-worker tables start on their own cache line. */
	array->stride = ((u64)attr->max_entries * elem_size + 63) & ~63ULL;
	array->values = aligned_alloc(64, array->stride * copies);
	if (!array->values) {
		free(array);
		nb_log_printf(log, "map %s: out of memory for %llu bytes\n", attr->name,
			      (unsigned long long)bytes);
		return -ENOMEM;
	}
	memset(array->values, 0, array->stride * copies);
	nb_map_init_from_attr(&array->map, attr);
	array->elem_size = elem_size;
	*arrayp = array;
	return 0;
}

static int array_map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	struct nb_array *array;
	int err = nb_array_alloc(attr, sizeof(*array), &array, log);

	if (err)
		return err;
	*mapp = &array->map;
	return 0;
}

void nb_array_free(struct nb_map *map)
{
	struct nb_array *array = to_array(map);

	free(array->values);
	free(array);
}

/* Address of element index in worker cpu's table. */
static inline void *array_elem(const struct nb_array *array, u32 index, unsigned int cpu)
{
	return array->values + cpu * array->stride + (u64)index * array->elem_size;
}

static void *array_map_lookup_elem(struct nb_map *map, const void *key)
{
	struct nb_array *array = to_array(map);
	u32 index = *(const u32 *)key;

	if (unlikely(index >= map->max_entries))
		return NULL;
	return array_elem(array, index, 0);
}

static void *percpu_array_map_lookup_elem(struct nb_map *map, const void *key)
{
	struct nb_array *array = to_array(map);
	u32 index = *(const u32 *)key;

	if (unlikely(index >= map->max_entries))
		return NULL;
	return array_elem(array, index, nb_this_cpu());
}

static void *percpu_array_map_lookup_percpu_elem(struct nb_map *map, const void *key, u32 cpu)
{
	struct nb_array *array = to_array(map);
	u32 index = *(const u32 *)key;

	if (unlikely(index >= map->max_entries || cpu >= nb_nr_cpus()))
		return NULL;
	return array_elem(array, index, cpu);
}

/*
 * The lookup in line, the twin of the kernel's array_map_gen_lookup: the index bounded with a
 * 32-bit compare (any max_entries), times the element size, plus the values of the map in r1.
 * The base is read through r1, as the kernel adds to it, so that an inner map matching this
 * one's template runs the same code; BPF_F_INNER_MAP inner maps may differ in max_entries and
 * keep the call. Per-CPU arrays add this worker's table, stride bytes per worker.
 */
u32 nb_array_gen_lookup(const struct nb_map *map, struct bpf_insn *buf, bool percpu, bool slot)
{
	const struct nb_array *array = to_array(map);
	struct bpf_insn *insn = buf;

	if ((map->map_flags & BPF_F_INNER_MAP) || array->elem_size > INT32_MAX ||
	    (percpu && array->stride > INT32_MAX))
		return 0;
	*insn++ = gen_ldx_dw(BPF_REG_1, BPF_REG_1, offsetof(struct nb_array, values));
	*insn++ = gen_ldx_w(BPF_REG_0, BPF_REG_2, 0);
	*insn++ = gen_jmp32_imm(BPF_JGE, BPF_REG_0, (s32)map->max_entries,
				percpu ? 6 : slot ? 4 : 3);
	*insn++ = gen_mul_const(BPF_REG_0, array->elem_size);
	*insn++ = gen_alu64_reg(BPF_ADD, BPF_REG_0, BPF_REG_1);
	if (percpu) {
		*insn++ = gen_this_cpu(BPF_REG_1);
		*insn++ = gen_mul_const(BPF_REG_1, (u32)array->stride);
		*insn++ = gen_alu64_reg(BPF_ADD, BPF_REG_0, BPF_REG_1);
	}
	if (slot) {
		/* Map-in-map: the slot holds the inner map (or NULL), the program gets it. */
		*insn++ = gen_ldx_dw(BPF_REG_0, BPF_REG_0, 0);
	}
	*insn++ = gen_ja(1);
	*insn++ = gen_alu64_imm(BPF_MOV, BPF_REG_0, 0);
	return insn - buf;
}

static u32 array_map_gen_lookup(const struct nb_map *map, struct bpf_insn *buf, nb_helper_fn *fn)
{
	return nb_array_gen_lookup(map, buf, false, false);
}

static u32 percpu_array_map_gen_lookup(const struct nb_map *map, struct bpf_insn *buf,
				       nb_helper_fn *fn)
{
	return nb_array_gen_lookup(map, buf, true, false);
}

/* The update flags every map knows: BPF_ANY, BPF_NOEXIST, BPF_EXIST. */
static inline bool update_flags_valid(u64 flags)
{
	return flags <= BPF_EXIST;
}

static long array_map_update_elem(struct nb_map *map, const void *key, const void *value,
				  u64 flags)
{
	struct nb_array *array = to_array(map);
	u32 index = *(const u32 *)key;
	unsigned int cpu = map->ops->percpu ? nb_this_cpu() : 0;

	if (unlikely(!update_flags_valid(flags & ~(u64)BPF_F_LOCK)))
		return -EINVAL;
	if (unlikely((flags & BPF_F_LOCK) && map->spin_lock_off < 0))
		return -EINVAL;
	if (unlikely(index >= map->max_entries))
		return -E2BIG;
	if (unlikely((flags & ~(u64)BPF_F_LOCK) == BPF_NOEXIST))
		return -EEXIST; /* every element exists */
	/* In place: a lock or timer in the value stays what it is (copy_map_value). */
	if (unlikely(flags & BPF_F_LOCK))
		nb_map_copy_value_locked(map, array_elem(array, index, cpu), value, false);
	else if (unlikely(nb_map_has_fields(map)))
		nb_map_copy_value(map, array_elem(array, index, cpu), value);
	else
		memcpy(array_elem(array, index, cpu), value, map->value_size);
	/* A new value: the old one's timer is cancelled and freed (array_map_update_elem). */
	if (unlikely(map->timer_off >= 0))
		nb_map_free_fields(map, array_elem(array, index, cpu));
	return 0;
}

static long array_map_delete_elem(struct nb_map *map, const void *key)
{
	return -EINVAL;
}

static int percpu_array_lookup_sys(struct nb_map *map, const void *key, void *value)
{
	struct nb_array *array = to_array(map);
	u32 index = *(const u32 *)key;
	u32 slot = nb_map_percpu_slot(map);

	if (index >= map->max_entries)
		return -ENOENT;
	/* Whole 8-byte slots, padding included, as the kernel's bpf_long_memcpy does. */
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++)
		memcpy((u8 *)value + cpu * slot, array_elem(array, index, cpu), slot);
	return 0;
}

static int percpu_array_update_sys(struct nb_map *map, const void *key, const void *value,
				   u64 flags)
{
	struct nb_array *array = to_array(map);
	u32 index = *(const u32 *)key;
	u32 slot = nb_map_percpu_slot(map);

	if (!update_flags_valid(flags))
		return -EINVAL;
	if (index >= map->max_entries)
		return -E2BIG;
	if (flags == BPF_NOEXIST)
		return -EEXIST;
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++)
		memcpy(array_elem(array, index, cpu), (const u8 *)value + cpu * slot, slot);
	return 0;
}

int nb_array_map_get_next_key(struct nb_map *map, const void *key, void *next_key)
{
	u32 index = key ? *(const u32 *)key : UINT32_MAX;
	u32 *next = next_key;

	/* A missing or out-of-range key restarts at 0; the last index ends the walk. */
	if (index >= map->max_entries) {
		*next = 0;
		return 0;
	}
	if (index == map->max_entries - 1)
		return -ENOENT;
	*next = index + 1;
	return 0;
}

static long array_map_for_each_callback(struct nb_map *map, void *callback_fn,
					void *callback_ctx, u64 flags)
{
	struct nb_array *array = to_array(map);
	unsigned int cpu = map->ops->percpu ? nb_this_cpu() : 0;
	long n = 0;

	if (flags)
		return -EINVAL;
	for (u32 i = 0; i < map->max_entries; i++) {
		u32 key = i;

		n++;
		if (nb_callback_run(callback_fn, (u64)(uintptr_t)map, (u64)(uintptr_t)&key,
				    (u64)(uintptr_t)array_elem(array, i, cpu),
				    (u64)(uintptr_t)callback_ctx, 0))
			break;
	}
	return n;
}

static int array_map_direct_value_addr(const struct nb_map *map, u64 *addr, u32 off)
{
	if (map->max_entries != 1)
		return -EOPNOTSUPP;
	if (off >= map->value_size)
		return -EINVAL;
	*addr = (u64)(uintptr_t)array_elem(to_array(map), 0, 0) + off;
	return 0;
}

/* Every value's timer goes (the kernel's array_map_free_timers_wq). */
static void array_map_release_fields(struct nb_map *map)
{
	struct nb_array *array = to_array(map);

	for (u32 i = 0; i < map->max_entries; i++)
		nb_map_free_fields(map, array_elem(array, i, 0));
}

/*
 * An array's lookup is inlined with the template's bound (nb_array_gen_lookup), so an inner
 * array must have the template's max_entries unless BPF_F_INNER_MAP keeps the call.
 */
static bool array_map_meta_equal(const struct nb_map *meta0, const struct nb_map *meta1)
{
	return nb_map_meta_equal(meta0, meta1) &&
	       ((meta0->map_flags & BPF_F_INNER_MAP) || meta0->max_entries == meta1->max_entries);
}

static const struct nb_map_ops array_map_ops = {
	.type = BPF_MAP_TYPE_ARRAY,
	.name = "array",
	.map_alloc_check = nb_array_map_alloc_check,
	.map_alloc = array_map_alloc,
	.map_free = nb_array_free,
	.map_lookup_elem = array_map_lookup_elem,
	.map_gen_lookup = array_map_gen_lookup,
	.map_update_elem = array_map_update_elem,
	.map_delete_elem = array_map_delete_elem,
	.map_for_each_callback = array_map_for_each_callback,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_direct_value_addr = array_map_direct_value_addr,
	.map_meta_equal = array_map_meta_equal,
	.map_release_fields = array_map_release_fields,
};
NB_MAP_TYPE_REGISTER(array_map_ops)

static const struct nb_map_ops percpu_array_map_ops = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.name = "percpu_array",
	.percpu = true,
	.map_alloc_check = nb_array_map_alloc_check,
	.map_alloc = array_map_alloc,
	.map_free = nb_array_free,
	.map_lookup_elem = percpu_array_map_lookup_elem,
	.map_lookup_percpu_elem = percpu_array_map_lookup_percpu_elem,
	.map_gen_lookup = percpu_array_map_gen_lookup,
	.map_update_elem = array_map_update_elem,
	.map_delete_elem = array_map_delete_elem,
	.map_for_each_callback = array_map_for_each_callback,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_lookup_elem_sys = percpu_array_lookup_sys,
	.map_update_elem_sys = percpu_array_update_sys,
	.map_meta_equal = array_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(percpu_array_map_ops)
