// SPDX-License-Identifier: GPL-2.0
/*
 * BTF-defined maps, the `.maps` section of libbpf's bpf_helpers.h:
 *
 *	struct {
 *		__uint(type, BPF_MAP_TYPE_HASH);	int (*type)[BPF_MAP_TYPE_HASH];
 *		__type(key, __u32);			__u32 *key;
 *		__array(values, struct inner);		struct inner *values[];
 *	} m SEC(".maps");
 *
 * A number is the element count of the array a member points to, a type is what a member points
 * to, and `values` lists initial slots of a program array (functions) or map of maps (inner map
 * definitions), filled through the relocations of .rel.maps. Read with libbpf's BTF API.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf/object.h"

#ifndef LIBBPF_PIN_BY_NAME
#define LIBBPF_PIN_BY_NAME 1
#endif

/* Bounded: a BTF type chain from a file may loop. */
static const struct btf_type *skip_mods(const struct btf *btf, u32 id, u32 *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	for (int depth = 0; t && depth < 32; depth++) {
		if (!btf_is_mod(t) && !btf_is_typedef(t))
			break;
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = NULL;
	if (res_id)
		*res_id = id;
	return t;
}

struct def_ctx {
	struct nb_object *obj;
	const char *map;	/* for messages */
};

static int def_err(const struct def_ctx *c, const char *field, const char *what)
{
	nb_obj_err(c->obj, "section .maps: map %s: field %s: %s", c->map, field, what);
	return -EINVAL;
}

/* __uint(name, val): int (*name)[val]. */
static int get_uint(const struct def_ctx *c, const struct btf *btf, const char *field,
		    const struct btf_member *m, u32 *val)
{
	const struct btf_type *t = skip_mods(btf, m->type, NULL), *arr;

	if (!t || !btf_is_ptr(t))
		return def_err(c, field, "not a __uint() pointer to an array");
	arr = skip_mods(btf, t->type, NULL);
	if (!arr || !btf_is_array(arr))
		return def_err(c, field, "not a __uint() pointer to an array");
	*val = btf_array(arr)->nelems;
	return 0;
}

/* __type(name, T): T *name; its size. */
static int get_type_size(const struct def_ctx *c, const struct btf *btf, const char *field,
			 const struct btf_member *m, u32 *size)
{
	const struct btf_type *t = skip_mods(btf, m->type, NULL);
	__s64 sz;

	if (!t || !btf_is_ptr(t))
		return def_err(c, field, "not a __type() pointer");
	sz = btf__resolve_size(btf, t->type);
	if (sz < 0 || sz > UINT32_MAX)
		return def_err(c, field, "its type has no size");
	*size = sz;
	return 0;
}

/* A type tag the kernel reads as a kernel object pointer field (btf_parse_kptr). */
static bool is_kptr_tag(const struct btf *btf, const struct btf_type *t)
{
	const char *name;

	if (!btf_is_type_tag(t))
		return false;
	name = btf__name_by_offset(btf, t->name_off);
	return name && (!strcmp(name, "kptr") || !strcmp(name, "kptr_untrusted") ||
			!strcmp(name, "percpu_kptr"));
}

/*
 * The first kernel object pointer (__kptr, __kptr_untrusted, __percpu_kptr) in a value type,
 * nested structs and arrays included, as the kernel's btf_parse_fields finds them: its member
 * name, or NULL.
 */
static const char *find_kptr(const struct btf *btf, u32 id, int depth)
{
	const struct btf_type *t = skip_mods(btf, id, &id);

	if (!t || depth > 8)
		return NULL;
	if (btf_is_array(t))
		return find_kptr(btf, btf_array(t)->type, depth + 1);
	if (!btf_is_composite(t))
		return NULL;
	for (u32 i = 0; i < btf_vlen(t); i++) {
		const struct btf_member *m = &btf_members(t)[i];
		/* A kptr is a pointer whose pointee starts with the tag. */
		const struct btf_type *mt = skip_mods(btf, m->type, NULL), *tag;
		const char *found;

		tag = mt && btf_is_ptr(mt) ? btf__type_by_id(btf, mt->type) : NULL;
		if (tag && is_kptr_tag(btf, tag))
			return btf__name_by_offset(btf, m->name_off);
		found = find_kptr(btf, m->type, depth + 1);
		if (found)
			return found;
	}
	return NULL;
}

static int set_size(const struct def_ctx *c, const char *field, u32 *dst, u32 val)
{
	char msg[96];

	if (*dst && *dst != val) {
		snprintf(msg, sizeof(msg), "size %u contradicts the size %u given before", val,
			 *dst);
		return def_err(c, field, msg);
	}
	*dst = val;
	return 0;
}

/*
 * A value with kernel object pointers (kptrs) gets rules of its own in the kernel's verifier
 * (only BPF_DW access at the field's offset, bpf_kptr_xchg, ...), which netbpf does not have:
 * the map is refused rather than its fields taken for plain bytes.
 */
static int check_no_kptr(const struct def_ctx *c, const struct btf *btf,
			 const struct btf_member *m)
{
	const struct btf_type *t = skip_mods(btf, m->type, NULL);
	const char *kptr = t && btf_is_ptr(t) ? find_kptr(btf, t->type, 0) : NULL;
	char msg[160];

	if (!kptr)
		return 0;
	snprintf(msg, sizeof(msg), "member %s is a kernel object pointer (__kptr), which netbpf "
		 "does not implement", kptr);
	return def_err(c, "value", msg);
}

static int parse_def(struct nb_object *obj, const struct btf *btf, const struct btf_type *def,
		     struct nb_object_map *m, bool inner);

/* __array(values, T): T *values[]; T is a map definition or a function prototype. */
static int parse_values(const struct def_ctx *c, const struct btf *btf,
			const struct btf_member *mem, u32 idx, u32 vlen, struct nb_object_map *m,
			bool inner)
{
	const struct btf_type *arr = skip_mods(btf, mem->type, NULL), *ptr, *target;
	int err;

	if (inner)
		return def_err(c, "values", "an inner map cannot have values");
	if (idx != vlen - 1)
		return def_err(c, "values", "must be the last member");
	if (!arr || !btf_is_array(arr))
		return def_err(c, "values", "not an __array()");
	ptr = skip_mods(btf, btf_array(arr)->type, NULL);
	if (!ptr || !btf_is_ptr(ptr))
		return def_err(c, "values", "not an array of pointers");
	target = skip_mods(btf, ptr->type, NULL);
	if (target && btf_is_func_proto(target)) {
		m->values_are_progs = true;
	} else if (target && btf_is_struct(target)) {
		m->inner = calloc(1, sizeof(*m->inner));
		if (!m->inner)
			return -ENOMEM;
		m->inner->obj = c->obj;
		m->inner->sec = c->obj->btf_maps_sec;
		m->inner->values_off = -1;
		if (asprintf(&m->inner->name, "%s.inner", m->name) < 0) {
			m->inner->name = NULL;
			return -ENOMEM;
		}
		err = parse_def(c->obj, btf, target, m->inner, true);
		if (err)
			return err;
	} else {
		return def_err(c, "values", "points neither to a map definition nor to a "
			       "function");
	}
	m->values_off = mem->offset / 8;
	return set_size(c, "values", &m->value_size, sizeof(u32));
}

static int parse_def(struct nb_object *obj, const struct btf *btf, const struct btf_type *def,
		     struct nb_object_map *m, bool inner)
{
	const struct btf_member *mem = btf_members(def);
	struct def_ctx c = { .obj = obj, .map = m->name };
	u32 vlen = btf_vlen(def), val;
	int err = 0;

	for (u32 i = 0; i < vlen && !err; i++, mem++) {
		const char *field = btf__name_by_offset(btf, mem->name_off);

		if (!field || !field[0])
			return def_err(&c, "(unnamed)", "every member needs a name");
		if (btf_member_bitfield_size(def, i))
			return def_err(&c, field, "a bit field");
		if (!strcmp(field, "type")) {
			err = get_uint(&c, btf, field, mem, &val);
			m->type = val;
		} else if (!strcmp(field, "max_entries")) {
			err = get_uint(&c, btf, field, mem, &m->max_entries);
		} else if (!strcmp(field, "map_flags")) {
			err = get_uint(&c, btf, field, mem, &m->map_flags);
		} else if (!strcmp(field, "numa_node")) {
			err = get_uint(&c, btf, field, mem, &m->numa_node);
		} else if (!strcmp(field, "map_extra")) {
			err = get_uint(&c, btf, field, mem, &val);
		} else if (!strcmp(field, "pinning")) {
			err = get_uint(&c, btf, field, mem, &m->pinning);
			if (!err && inner && m->pinning)
				return def_err(&c, field, "an inner map cannot be pinned");
			if (!err && m->pinning > LIBBPF_PIN_BY_NAME &&
			    m->pinning != NB_PIN_REPLACE)
				return def_err(&c, field, "only LIBBPF_PIN_NONE, "
					       "LIBBPF_PIN_BY_NAME and Cilium's CILIUM_PIN_REPLACE "
					       "(16) exist");
		} else if (!strcmp(field, "key_size") || !strcmp(field, "value_size")) {
			err = get_uint(&c, btf, field, mem, &val);
			if (!err)
				err = set_size(&c, field, field[0] == 'k' ? &m->key_size :
					       &m->value_size, val);
		} else if (!strcmp(field, "key") || !strcmp(field, "value")) {
			err = get_type_size(&c, btf, field, mem, &val);
			if (!err)
				err = set_size(&c, field, field[0] == 'k' ? &m->key_size :
					       &m->value_size, val);
			if (!err && field[0] == 'v')
				err = check_no_kptr(&c, btf, mem);
			if (!err && field[0] == 'v')
				m->btf_value_type_id = skip_mods(btf, mem->type, NULL)->type;
			if (!err && field[0] == 'k')
				m->btf_key_type_id = skip_mods(btf, mem->type, NULL)->type;
		} else if (!strcmp(field, "values")) {
			err = parse_values(&c, btf, mem, i, vlen, m, inner);
		} else {
			return def_err(&c, field, "unknown field");
		}
	}
	if (err)
		return err;
	if (m->values_off >= 0) {
		bool outer = m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
			     m->type == BPF_MAP_TYPE_HASH_OF_MAPS;

		if (m->values_are_progs ? m->type != BPF_MAP_TYPE_PROG_ARRAY : !outer)
			return def_err(&c, "values", m->values_are_progs ?
				       "functions need type BPF_MAP_TYPE_PROG_ARRAY" :
				       "map definitions need an array or hash of maps");
	}
	return nb_object_map_check(obj, m);
}

static const struct nb_elf_sym *find_map_sym(const struct nb_object *obj, const char *name)
{
	for (u32 i = 0; i < obj->sym_cnt; i++) {
		const struct nb_elf_sym *s = &obj->syms[i];

		if (s->sym.st_shndx == (u32)obj->btf_maps_sec &&
		    GELF_ST_TYPE(s->sym.st_info) != STT_SECTION && !strcmp(s->name, name))
			return s;
	}
	return NULL;
}

int nb_btf_maps_parse(struct nb_object *obj)
{
	const struct btf_var_secinfo *vi;
	const struct btf_type *sec;
	__s32 sec_id;
	int err;

	if (obj->btf_maps_sec < 0)
		return 0;
	if (!obj->btf) {
		nb_obj_err(obj, "section .maps: needs BTF (section .BTF): build with clang -g");
		return -EINVAL;
	}
	sec_id = btf__find_by_name_kind(obj->btf, ".maps", BTF_KIND_DATASEC);
	sec = sec_id > 0 ? btf__type_by_id(obj->btf, sec_id) : NULL;
	if (!sec) {
		nb_obj_err(obj, "section .maps: BTF has no DATASEC .maps describing it");
		return -EINVAL;
	}
	vi = btf_var_secinfos(sec);
	for (u32 i = 0; i < btf_vlen(sec); i++, vi++) {
		const struct btf_type *var = btf__type_by_id(obj->btf, vi->type), *def;
		const struct nb_elf_sym *s;
		struct nb_object_map *m;
		const char *name;

		if (!var || !btf_is_var(var)) {
			nb_obj_err(obj, "section .maps: BTF entry %u of DATASEC .maps is not a "
				   "variable", i);
			return -EINVAL;
		}
		name = btf__name_by_offset(obj->btf, var->name_off);
		if (!name || !name[0]) {
			nb_obj_err(obj, "section .maps: BTF variable %u has no name", i);
			return -EINVAL;
		}
		def = skip_mods(obj->btf, var->type, NULL);
		if (!def || !btf_is_struct(def)) {
			nb_obj_err(obj, "section .maps: map %s: definition is not a struct", name);
			return -EINVAL;
		}
		s = find_map_sym(obj, name);
		if (!s) {
			nb_obj_err(obj, "section .maps: map %s: no symbol of that name in .maps",
				   name);
			return -EINVAL;
		}
		if (s->sym.st_value > obj->secs[obj->btf_maps_sec].size) {
			nb_obj_err(obj, "section .maps: map %s: symbol offset %llu past the "
				   "section's end", name, (unsigned long long)s->sym.st_value);
			return -EINVAL;
		}
		err = nb_object_add_map(obj, &m);
		if (err)
			return err;
		m->name = strdup(name);
		if (!m->name)
			return -ENOMEM;
		m->origin = NB_MAP_BTF;
		m->sec = obj->btf_maps_sec;
		m->sec_off = s->sym.st_value;
		m->def_size = s->sym.st_size;
		err = parse_def(obj, obj->btf, def, m, false);
		if (err)
			return err;
		/* Cilium's loader pins CILIUM_PIN_REPLACE maps by name too, replacing. */
		m->pin_replace = m->pinning == NB_PIN_REPLACE;
		if ((m->pinning == LIBBPF_PIN_BY_NAME || m->pin_replace) &&
		    asprintf(&m->pin_path, "tc/globals/%s", m->name) < 0) {
			m->pin_path = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

/* .rel.maps: each relocation fills one slot of a `values` array. */
int nb_btf_maps_parse_inits(struct nb_object *obj)
{
	const struct nb_elf_sec *sec;

	if (obj->btf_maps_sec < 0)
		return 0;
	sec = &obj->secs[obj->btf_maps_sec];
	for (u32 i = 0; i < sec->reloc_cnt; i++) {
		const struct nb_elf_reloc *r = &sec->relocs[i];
		const struct nb_elf_sym *s = &obj->syms[r->sym];
		struct nb_object_map *m = NULL;
		struct nb_map_init *inits;
		int target = -1;
		u64 rel;

		for (u32 j = 0; j < obj->map_cnt; j++) {
			struct nb_object_map *c = &obj->maps[j];

			if (c->origin == NB_MAP_BTF && r->offset >= c->sec_off &&
			    r->offset < c->sec_off + c->def_size)
				m = c;
		}
		if (!m || m->values_off < 0 || r->offset < m->sec_off + m->values_off ||
		    (r->offset - m->sec_off - m->values_off) % 8) {
			nb_obj_err(obj, "section %s: relocation #%u against %s at offset %llu is "
				   "not in a `values` slot of any map", sec->rel_name, r->index,
				   s->name, (unsigned long long)r->offset);
			return -EINVAL;
		}
		rel = (r->offset - m->sec_off - m->values_off) / 8;
		/* As libbpf: a slot filled at load needs a key the loader can write, 4 bytes. */
		if (m->key_size != sizeof(u32)) {
			nb_obj_err(obj, "section .maps: map %s: values[%llu] is filled at load, "
				   "which needs 4-byte keys, not %u", m->name,
				   (unsigned long long)rel, m->key_size);
			return -EINVAL;
		}
		if (rel >= m->max_entries) {
			nb_obj_err(obj, "section .maps: map %s: values[%llu] is past max_entries %u",
				   m->name, (unsigned long long)rel, m->max_entries);
			return -EINVAL;
		}
		if (m->values_are_progs) {
			for (u32 j = 0; j < obj->prog_cnt; j++)
				if (s->sym.st_shndx == obj->progs[j].func->sec &&
				    s->sym.st_value == obj->progs[j].func->start * 8ULL &&
				    GELF_ST_TYPE(s->sym.st_info) == STT_FUNC)
					target = j;
		} else if (s->sym.st_shndx == (u32)obj->btf_maps_sec) {
			for (u32 j = 0; j < obj->map_cnt; j++)
				if (obj->maps[j].origin == NB_MAP_BTF &&
				    obj->maps[j].sec_off == s->sym.st_value)
					target = j;
		}
		if (target < 0) {
			nb_obj_err(obj, "section .maps: map %s: values[%llu] refers to %s, which "
				   "is not a %s of this object", m->name, (unsigned long long)rel,
				   s->name, m->values_are_progs ? "program" : "map in .maps");
			return -EINVAL;
		}
		inits = realloc(m->inits, (m->init_cnt + 1) * sizeof(*inits));
		if (!inits)
			return -ENOMEM;
		m->inits = inits;
		m->inits[m->init_cnt++] = (struct nb_map_init){ .slot = rel, .target = target };
	}
	return 0;
}
