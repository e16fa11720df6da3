// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_ARRAY_OF_MAPS and BPF_MAP_TYPE_HASH_OF_MAPS (kernel/bpf/map_in_map.c and the
 * of_maps parts of arraymap.c and hashtab.c). The outer map is created with a template inner
 * map (opts->inner_map, the kernel's inner_map_fd); each inner map stored later must match it
 * (map_meta_equal). Userspace stores and reads inner map ids; a program's lookup yields the
 * inner map itself (bpf_map_lookup_elem dereferences the slot). A replaced inner map is
 * released after a grace period.
 */
#include <errno.h>

#include "bpf/maps/fd_array.h"
#include "bpf/maps/hashtab.h"

/*
 * Type, sizes, flags and the value's special fields; max_entries only where the type's ops add
 * it (arrays, xskmap): a hash's lookup does not depend on it.
 */
bool nb_map_meta_equal(const struct nb_map *meta0, const struct nb_map *meta1)
{
	return meta0->map_type == meta1->map_type && meta0->key_size == meta1->key_size &&
	       meta0->value_size == meta1->value_size && meta0->map_flags == meta1->map_flags &&
	       meta0->spin_lock_off == meta1->spin_lock_off &&
	       meta0->timer_off == meta1->timer_off;
}

/* bpf_map_meta_alloc's checks on the template. */
static int check_inner_template(const struct nb_map *attr, struct nb_log *log)
{
	const struct nb_map *inner = attr->inner_map_meta;

	if (!inner) {
		nb_log_printf(log, "map %s: %s maps need an inner map template\n", attr->name,
			      attr->ops->name);
		return -EINVAL;
	}
	if (inner->inner_map_meta) {
		nb_log_printf(log, "map %s: inner map %s is itself a map of maps (one level "
			      "only)\n", attr->name, inner->name);
		return -EINVAL;
	}
	if (!inner->ops->map_meta_equal) {
		nb_log_printf(log, "map %s: %s maps cannot be inner maps\n", attr->name,
			      inner->ops->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

static struct nb_map *inner_map_get(struct nb_map *map, u32 id, int *err)
{
	struct nb_map *inner = nb_map_get_by_id(id);
	const struct nb_map *meta = map->inner_map_meta;

	if (!inner) {
		*err = -EBADF;
		return NULL;
	}
	if (!meta->ops->map_meta_equal(meta, inner)) {
		nb_map_put(inner);
		*err = -EINVAL;
		return NULL;
	}
	if (nb_map_kstruct_follow(inner, meta)) {
		nb_map_put(inner);
		*err = -ENOMEM;
		return NULL;
	}
	return inner;
}

static void *map_fd_get_ptr(struct nb_map *map, u32 id, int *err)
{
	return inner_map_get(map, id, err);
}

static void map_fd_put_ptr(void *ptr)
{
	nb_map_put(ptr);
}

static u32 map_fd_ptr_id(const void *ptr)
{
	return ((const struct nb_map *)ptr)->id;
}

static const struct nb_fd_array_ops map_fd_ops = {
	.get_ptr = map_fd_get_ptr,
	.put_ptr = map_fd_put_ptr,
	.ptr_id = map_fd_ptr_id,
};

static int array_of_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	int err = nb_fd_array_map_alloc_check(attr, log);

	return err ? err : check_inner_template(attr, log);
}

static int array_of_map_alloc(const struct nb_map *attr, struct nb_map **mapp,
			      struct nb_log *log)
{
	int err = nb_fd_array_alloc(attr, &map_fd_ops, mapp, log);

	if (!err)
		(*mapp)->inner_map_meta = attr->inner_map_meta;
	return err;
}

/* The kernel's array_of_map_gen_lookup: the array lookup in line, then the slot's map. */
static u32 array_of_map_gen_lookup(const struct nb_map *map, struct bpf_insn *buf,
				   nb_helper_fn *fn)
{
	return nb_array_gen_lookup(map, buf, false, true);
}

static const struct nb_map_ops array_of_maps_map_ops = {
	.type = BPF_MAP_TYPE_ARRAY_OF_MAPS,
	.name = "array_of_maps",
	.map_alloc_check = array_of_map_alloc_check,
	.map_alloc = array_of_map_alloc,
	.map_free = nb_fd_array_free,
	.map_lookup_elem = nb_fd_array_lookup_slot,
	.map_gen_lookup = array_of_map_gen_lookup,
	.map_delete_elem = nb_fd_array_delete_elem,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_lookup_elem_sys = nb_fd_array_lookup_sys,
	.map_update_elem_sys = nb_fd_array_update_sys,
};
NB_MAP_TYPE_REGISTER(array_of_maps_map_ops)

/* Hash of maps: the hash core storing a struct nb_map pointer per key. */
static inline struct nb_htab *to_htab(const struct nb_map *map)
{
	return container_of(map, struct nb_htab, map);
}

static int htab_of_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	int err = nb_map_check_value_size(attr, sizeof(u32), log);

	if (!err)
		err = nb_htab_map_alloc_check(attr, log);
	return err ? err : check_inner_template(attr, log);
}

static void inner_map_release(void *value)
{
	nb_map_put(*(struct nb_map **)value);
}

static int htab_of_map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	struct nb_map slots = *attr;
	int err;

	slots.value_size = sizeof(struct nb_map *);
	err = nb_htab_map_alloc(&slots, mapp, log);
	if (err)
		return err;
	(*mapp)->value_size = attr->value_size;
	(*mapp)->inner_map_meta = attr->inner_map_meta;
	to_htab(*mapp)->value_release = inner_map_release;
	return 0;
}

static void *htab_of_map_lookup_slot(struct nb_map *map, const void *key)
{
	struct nb_htab *htab = to_htab(map);
	struct htab_elem *l = nb_htab_lookup(htab, key);

	return l ? nb_htab_value(htab, l, 0) : NULL;
}

static int htab_of_map_lookup_sys(struct nb_map *map, const void *key, void *value)
{
	struct nb_map **slot = htab_of_map_lookup_slot(map, key);

	if (!slot)
		return -ENOENT;
	*(u32 *)value = READ_ONCE(*slot)->id;
	return 0;
}

static int htab_of_map_update_sys(struct nb_map *map, const void *key, const void *value,
				  u64 flags)
{
	struct nb_map *inner;
	int err = 0;
	long ret;

	if (flags > BPF_EXIST)
		return -EINVAL;
	inner = inner_map_get(map, *(const u32 *)value, &err);
	if (!inner)
		return err;
	ret = nb_htab_update(to_htab(map), key, &inner, flags, true);
	if (ret)
		nb_map_put(inner);
	return (int)ret;
}

/* The kernel's htab_of_map_gen_lookup: the hash lookup in line, then the value's map. */
static u32 htab_of_map_gen_lookup(const struct nb_map *map, struct bpf_insn *buf,
				  nb_helper_fn *fn)
{
	return nb_htab_gen_lookup(map, buf, fn, true);
}

static const struct nb_map_ops htab_of_maps_map_ops = {
	.type = BPF_MAP_TYPE_HASH_OF_MAPS,
	.name = "hash_of_maps",
	.map_alloc_check = htab_of_map_alloc_check,
	.map_alloc = htab_of_map_alloc,
	.map_free = nb_htab_map_free,
	.map_lookup_elem = htab_of_map_lookup_slot,
	.map_gen_lookup = htab_of_map_gen_lookup,
	.map_delete_elem = nb_htab_map_delete_elem,
	.map_get_next_key = nb_htab_map_get_next_key,
	.map_lookup_elem_sys = htab_of_map_lookup_sys,
	.map_update_elem_sys = htab_of_map_update_sys,
	.map_elem_count = nb_htab_map_elem_count,
};
NB_MAP_TYPE_REGISTER(htab_of_maps_map_ops)
