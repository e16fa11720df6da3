// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel struct behind a map, as a program reads it through a map pointer. The kernel lets
 * a privileged program read its struct bpf_map (and the map type's struct around it: struct
 * bpf_array, struct bpf_htab, ...) through vmlinux BTF; the verifier checks each read against
 * that layout. netbpf's maps are not those structs, so each map a verified program reads gets
 * an image of its kernel struct, laid out as the running kernel's BTF says, holding what the
 * kernel would hold where netbpf knows it: the attributes of struct bpf_map (type, sizes,
 * max_entries, flags, id, name, numa_node) and struct bpf_array's elem_size and index_mask.
 * Everything else reads as zero, pointers (ops, inner_map_meta, ...) as NULL: netbpf has no
 * kernel objects to point to. The image is written once, before any program reading it runs,
 * and never changes (the fields it holds never do).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf/map.h"
#include "bpf/vmlinux_btf.h"

const char *nb_map_kstruct_name(enum bpf_map_type type)
{
	switch (type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		return "bpf_array";
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return "bpf_htab";
	case BPF_MAP_TYPE_LPM_TRIE:
		return "lpm_trie";
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		return "bpf_queue_stack";
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
		return "bpf_ringbuf_map";
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return "bpf_dtab";
	case BPF_MAP_TYPE_CPUMAP:
		return "bpf_cpu_map";
	case BPF_MAP_TYPE_XSKMAP:
		return "xsk_map";
	case BPF_MAP_TYPE_SOCKMAP:
		return "bpf_stab";
	case BPF_MAP_TYPE_SOCKHASH:
		return "bpf_shtab";
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
		return "bpf_local_storage_map";
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY:
		return "reuseport_array";
	case BPF_MAP_TYPE_BLOOM_FILTER:
		return "bpf_bloom_filter";
	case BPF_MAP_TYPE_STACK_TRACE:
		return "bpf_stack_map";
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return "bpf_cgroup_storage_map";
	default:
		return NULL;
	}
}

/* The member called name of struct t, an integer or enum of at most 8 bytes, not a bitfield. */
static const struct btf_member *int_member(const struct nb_btf *btf, const struct btf_type *t,
					   const char *name)
{
	const struct btf_member *m = btf_members(t);

	for (u16 i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt;

		if (strcmp(nb_btf_str(btf, m->name_off) ?: "", name))
			continue;
		mt = nb_btf_skip_modifiers(btf, m->type, true, NULL);
		if (!mt || !(btf_is_int(mt) || btf_is_any_enum(mt)) || mt->size > 8 ||
		    btf_member_bitfield_size(t, i))
			return NULL;
		return m;
	}
	return NULL;
}

/* Writes val into the integer member name of struct t at base, when the kernel has it. */
static void set_field(const struct nb_btf *btf, const struct btf_type *t, u8 *base, u32 room,
		      const char *name, u64 val)
{
	const struct btf_member *m = int_member(btf, t, name);
	const struct btf_type *mt;
	u32 off;

	if (!m)
		return;
	mt = nb_btf_skip_modifiers(btf, m->type, true, NULL);
	off = btf_member_bit_offset(t, m - btf_members(t)) / 8;
	if (off + mt->size > room)
		return;
	memcpy(base + off, &val, mt->size);	/* little endian */
}

/* The offset of the struct bpf_map inside struct t (its first member in every map type). */
static int bpf_map_offset(const struct nb_btf *btf, const struct btf_type *t, u32 t_id,
			  u32 map_id)
{
	const struct btf_member *m = btf_members(t);

	if (t_id == map_id)
		return 0;
	for (u16 i = 0; i < btf_vlen(t); i++, m++) {
		u32 id;

		if (nb_btf_skip_modifiers(btf, m->type, true, &id) && id == map_id)
			return btf_member_bit_offset(t, i) / 8;
	}
	return -EINVAL;
}

static u32 roundup_pow_of_two(u32 v)
{
	u32 p = 1;

	while (p < v && p < (1u << 31))
		p <<= 1;
	return p;
}

int nb_map_kstruct_init(struct nb_map *map, const struct nb_btf *btf, u32 type_id)
{
	const struct btf_type *t = nb_btf_type(btf, type_id), *mt;
	u32 map_id = nb_btf_find_struct(btf, "bpf_map");
	void *expected = NULL;
	int map_off;
	u8 *img;

	if (__atomic_load_n(&map->kstruct, __ATOMIC_ACQUIRE))
		return 0;
	if (!t || !btf_is_struct(t) || !map_id)
		return -EINVAL;
	map_off = bpf_map_offset(btf, t, type_id, map_id);
	mt = nb_btf_type(btf, map_id);
	if (map_off < 0 || (u32)map_off + mt->size > t->size)
		return -EINVAL;
	img = calloc(1, t->size);
	if (!img)
		return -ENOMEM;
	{
		u8 *base = img + map_off;
		u32 room = t->size - map_off;
		u32 name_off = 0;
		const struct btf_member *m = btf_members(mt);

		set_field(btf, mt, base, room, "map_type", map->map_type);
		set_field(btf, mt, base, room, "key_size", map->key_size);
		set_field(btf, mt, base, room, "value_size", map->value_size);
		set_field(btf, mt, base, room, "max_entries", map->max_entries);
		set_field(btf, mt, base, room, "map_flags", map->map_flags);
		set_field(btf, mt, base, room, "id", map->id);
		/* NUMA_NO_NODE unless the map was created for a node */
		set_field(btf, mt, base, room, "numa_node",
			  map->map_flags & BPF_F_NUMA_NODE ? map->numa_node : (u32)-1);
		for (u16 i = 0; i < btf_vlen(mt); i++, m++)
			if (!strcmp(nb_btf_str(btf, m->name_off) ?: "", "name"))
				name_off = btf_member_bit_offset(mt, i) / 8 + 1;
		if (name_off && name_off - 1 + sizeof(map->name) <= room)
			memcpy(base + name_off - 1, map->name, sizeof(map->name));
	}
	if (t != mt && !strcmp(nb_btf_str(btf, t->name_off) ?: "", "bpf_array")) {
		u32 mask = roundup_pow_of_two(map->max_entries ?: 1) - 1;

		set_field(btf, t, img, t->size, "elem_size", (map->value_size + 7) & ~7u);
		set_field(btf, t, img, t->size, "index_mask", mask);
	}
	if (!__atomic_compare_exchange_n(&map->kstruct, &expected, img, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		free(img);	/* another verification laid it out first */
	return 0;
}

int nb_map_kstruct_layout(struct nb_map *map)
{
	const struct nb_btf *btf = nb_vmlinux_btf(NULL);
	const char *name = nb_map_kstruct_name(map->map_type);
	u32 id = btf && name ? nb_btf_find_struct(btf, name) : 0;
	int err;

	if (!id)
		return -ENOENT;
	err = nb_map_kstruct_init(map, btf, id);
	return err ?: (int)nb_btf_type(btf, id)->size;
}

int nb_map_kstruct_follow(struct nb_map *inner, const struct nb_map *meta)
{
	int ret;

	if (!__atomic_load_n(&meta->kstruct, __ATOMIC_ACQUIRE))
		return 0;
	/* the template has an image: the kernel BTF is loaded, this costs no parse */
	ret = nb_map_kstruct_layout(inner);
	return ret < 0 && ret != -ENOENT ? ret : 0;
}

int nb_map_kstruct_follow_inner_maps(struct nb_map *outer)
{
	const struct nb_map *meta = outer->inner_map_meta;
	u8 *key, *next;
	int err = 0;

	if (!meta || !__atomic_load_n(&meta->kstruct, __ATOMIC_ACQUIRE))
		return 0;
	key = malloc(2 * (size_t)outer->key_size);
	if (!key)
		return -ENOMEM;
	next = key + outer->key_size;
	/* bounded: a hash's walk starts over when another thread deletes the key it is at */
	for (u32 n = 0; n < outer->max_entries; n++) {
		struct nb_map *inner;
		u32 id;

		if (nb_map_get_next_key(outer, n ? key : NULL, next))
			break;
		memcpy(key, next, outer->key_size);
		if (nb_map_lookup_elem(outer, key, &id))
			continue;	/* an empty slot of an array of maps */
		inner = nb_map_get_by_id(id);
		if (!inner)
			continue;	/* replaced and gone meanwhile */
		err = nb_map_kstruct_follow(inner, meta);
		nb_map_put(inner);
		if (err)
			break;
	}
	free(key);
	return err;
}
