// SPDX-License-Identifier: GPL-2.0
/*
 * Fields of a map value that are not plain bytes, the twin of the kernel's btf_record: a
 * struct bpf_spin_lock and a struct bpf_timer found in the value's BTF type when the
 * map is created. Programs reach such a field only through its helpers (the verifier refuses
 * loads and stores that touch it), and userspace copies of the value pass over it, as the
 * kernel's copy_map_value does: a lookup shows it zero, an update leaves it as it is. A timer
 * goes with its value (nb_map_free_fields, timer.c).
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf/map.h"
#include "bpf/timer.h"

/* A BTF type chain from a file may loop: bounded. */
#define MAX_RESOLVE_DEPTH 32
/* Structs nested in the value are searched this deep. */
#define MAX_NEST_DEPTH 8

struct field_kind {
	const char *struct_name;	/* its type in vmlinux and bpf_helpers' vmlinux.h */
	u32 size, align;
};

static const struct field_kind spin_lock_kind = { "bpf_spin_lock", 4, 4 };
static const struct field_kind timer_kind = { "bpf_timer", 16, 8 };

struct fields_ctx {
	const struct btf *btf;
	struct nb_map *map;
	struct nb_log *log;
};

static const struct btf_type *resolve(const struct btf *btf, u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	for (int depth = 0; t && depth < MAX_RESOLVE_DEPTH; depth++) {
		if (!btf_is_mod(t) && !btf_is_typedef(t))
			return t;
		t = btf__type_by_id(btf, t->type);
	}
	return NULL;
}

static const struct field_kind *kind_of(const struct btf *btf, const struct btf_type *t)
{
	const char *name;

	if (!t || !btf_is_struct(t))
		return NULL;
	name = btf__name_by_offset(btf, t->name_off);
	if (!name)
		return NULL;
	if (!strcmp(name, spin_lock_kind.struct_name))
		return &spin_lock_kind;
	if (!strcmp(name, timer_kind.struct_name))
		return &timer_kind;
	return NULL;
}

static int add_field(struct fields_ctx *c, const struct field_kind *kind, u32 off)
{
	s32 *slot = kind == &spin_lock_kind ? &c->map->spin_lock_off : &c->map->timer_off;

	if (*slot >= 0) {
		nb_log_printf(c->log, "map %s: more than one struct %s in the value (offsets %d "
			      "and %u): the kernel allows one\n", c->map->name, kind->struct_name,
			      *slot, off);
		return -E2BIG;
	}
	if (off % kind->align || off + kind->size > c->map->value_size) {
		nb_log_printf(c->log, "map %s: struct %s at offset %u of the value is not %u-byte "
			      "aligned inside it\n", c->map->name, kind->struct_name, off,
			      kind->align);
		return -EINVAL;
	}
	*slot = off;
	return 0;
}

static int find_fields(struct fields_ctx *c, const struct btf_type *t, u32 base, int depth);

/* A member or variable of type id at byte offset off. */
static int find_in_member(struct fields_ctx *c, u32 id, u32 off, int depth)
{
	const struct btf_type *t = resolve(c->btf, id);
	const struct field_kind *kind = kind_of(c->btf, t);

	if (kind)
		return add_field(c, kind, off);
	if (t && btf_is_array(t)) {
		/* An array of them would be several fields, which the kernel refuses. */
		const struct btf_type *elem = resolve(c->btf, btf_array(t)->type);

		kind = kind_of(c->btf, elem);
		if (kind && btf_array(t)->nelems == 1)
			return add_field(c, kind, off);
		if (kind && btf_array(t)->nelems > 1) {
			nb_log_printf(c->log, "map %s: an array of struct %s in the value: the kernel "
				      "allows one\n", c->map->name, kind->struct_name);
			return -E2BIG;
		}
		return 0;
	}
	if (t && (btf_is_struct(t) || btf_is_union(t) || btf_is_datasec(t)))
		return find_fields(c, t, off, depth + 1);
	return 0;
}

static int find_fields(struct fields_ctx *c, const struct btf_type *t, u32 base, int depth)
{
	int err = 0;

	if (depth > MAX_NEST_DEPTH)
		return 0;
	if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *vi = btf_var_secinfos(t);

		for (u32 i = 0; i < btf_vlen(t) && !err; i++, vi++) {
			const struct btf_type *var = btf__type_by_id(c->btf, vi->type);

			if (var && btf_is_var(var))
				err = find_in_member(c, var->type, base + vi->offset, depth);
		}
		return err;
	}
	if (btf_is_struct(t) || btf_is_union(t)) {
		const struct btf_member *m = btf_members(t);

		for (u32 i = 0; i < btf_vlen(t) && !err; i++, m++) {
			if (btf_member_bitfield_size(t, i))
				continue;
			err = find_in_member(c, m->type, base + btf_member_bit_offset(t, i) / 8,
					     depth);
		}
	}
	return err;
}

/* The map types whose values may hold each field (the kernel's map_check_btf). */
static bool spin_lock_allowed(enum bpf_map_type type)
{
	switch (type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
		return true;
	default:
		return false;
	}
}

static bool timer_allowed(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_HASH || type == BPF_MAP_TYPE_LRU_HASH ||
	       type == BPF_MAP_TYPE_ARRAY;
}

int nb_map_fields_parse(struct nb_map *map, const struct btf *btf, u32 value_type_id,
			struct nb_log *log)
{
	struct fields_ctx c = { .btf = btf, .map = map, .log = log };
	const struct btf_type *t;
	int err;

	map->spin_lock_off = -1;
	map->timer_off = -1;
	if (!btf || !value_type_id)
		return 0;
	t = resolve(btf, value_type_id);
	if (!t) {
		nb_log_printf(log, "map %s: BTF value type %u does not exist\n", map->name,
			      value_type_id);
		return -EINVAL;
	}
	err = find_in_member(&c, value_type_id, 0, 0);
	if (err)
		return err;
	if (map->spin_lock_off >= 0 && !spin_lock_allowed(map->map_type)) {
		nb_log_printf(log, "map %s: struct bpf_spin_lock in the value of a %s map: the "
			      "kernel allows it in hash, array and storage maps\n", map->name,
			      map->ops->name);
		return -EOPNOTSUPP;
	}
	if (map->timer_off >= 0 && !timer_allowed(map->map_type)) {
		nb_log_printf(log, "map %s: struct bpf_timer in the value of a %s map: the kernel "
			      "allows it in hash, lru_hash and array maps\n", map->name,
			      map->ops->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

bool nb_map_has_fields(const struct nb_map *map)
{
	return map->spin_lock_off >= 0 || map->timer_off >= 0;
}

/* Byte ranges of the special fields, in offset order (at most two). */
static u32 field_ranges(const struct nb_map *map, u32 start[2], u32 end[2])
{
	u32 n = 0;

	if (map->spin_lock_off >= 0) {
		start[n] = map->spin_lock_off;
		end[n++] = map->spin_lock_off + spin_lock_kind.size;
	}
	if (map->timer_off >= 0) {
		start[n] = map->timer_off;
		end[n++] = map->timer_off + timer_kind.size;
	}
	if (n == 2 && start[1] < start[0]) {
		u32 s = start[0], e = end[0];

		start[0] = start[1];
		end[0] = end[1];
		start[1] = s;
		end[1] = e;
	}
	return n;
}

void nb_map_copy_value(const struct nb_map *map, void *dst, const void *src)
{
	u32 start[2], end[2], n = field_ranges(map, start, end), pos = 0;

	for (u32 i = 0; i < n; i++) {
		memcpy((u8 *)dst + pos, (const u8 *)src + pos, start[i] - pos);
		pos = end[i];
	}
	memcpy((u8 *)dst + pos, (const u8 *)src + pos, map->value_size - pos);
}

void nb_map_zero_fields(const struct nb_map *map, void *value)
{
	u32 start[2], end[2], n = field_ranges(map, start, end);

	for (u32 i = 0; i < n; i++)
		memset((u8 *)value + start[i], 0, end[i] - start[i]);
}

void nb_map_free_fields(const struct nb_map *map, void *value)
{
	if (map->timer_off >= 0)
		nb_timer_cancel_and_free((u8 *)value + map->timer_off);
}

bool nb_map_overlaps_field(const struct nb_map *map, s64 first, s64 last, const char **name)
{
	if (map->spin_lock_off >= 0 && first < map->spin_lock_off + (s64)spin_lock_kind.size &&
	    map->spin_lock_off <= last) {
		*name = spin_lock_kind.struct_name;
		return true;
	}
	if (map->timer_off >= 0 && first < map->timer_off + (s64)timer_kind.size &&
	    map->timer_off <= last) {
		*name = timer_kind.struct_name;
		return true;
	}
	return false;
}
