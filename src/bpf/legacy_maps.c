// SPDX-License-Identifier: GPL-2.0
/*
 * The legacy `maps` section: an array of fixed-size definitions, one global symbol each. libbpf's
 * struct bpf_map_def has five u32 (type, key_size, value_size, max_entries, map_flags, 20 bytes);
 * iproute2's struct bpf_elf_map adds id, pinning, inner_id and inner_idx (36 bytes). The two are
 * told apart by the size of one definition, which the symbols give; like iproute2, a shorter
 * definition reads as if its missing fields were zero.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/object.h"

/* Field order of both structs; bpf_map_def stops after map_flags. */
enum {
	DEF_TYPE, DEF_KEY_SIZE, DEF_VALUE_SIZE, DEF_MAX_ENTRIES, DEF_FLAGS, DEF_ID, DEF_PINNING,
	DEF_INNER_ID, DEF_INNER_IDX, DEF_FIELDS,
};

#define MIN_DEF_SIZE	(4 * sizeof(u32))	/* type, sizes and max_entries at least */
#define LIBBPF_DEF_SIZE (5 * sizeof(u32))
#define ELF_MAP_SIZE	(DEF_FIELDS * sizeof(u32))

/* iproute2's pinning values (PIN_* of its bpf_elf.h). */
#define PIN_NONE	0
#define PIN_OBJECT_NS	1
#define PIN_GLOBAL_NS	2

static bool is_map_sym(const struct nb_object *obj, const struct nb_elf_sym *s)
{
	int type = GELF_ST_TYPE(s->sym.st_info);

	return s->sym.st_shndx == (u32)obj->maps_sec && type != STT_SECTION &&
	       GELF_ST_BIND(s->sym.st_info) == STB_GLOBAL &&
	       (type == STT_OBJECT || type == STT_NOTYPE);
}

static int cmp_map_sym(const void *a, const void *b)
{
	const struct nb_elf_sym *x = *(const struct nb_elf_sym *const *)a;
	const struct nb_elf_sym *y = *(const struct nb_elf_sym *const *)b;

	return x->sym.st_value < y->sym.st_value ? -1 : x->sym.st_value > y->sym.st_value;
}

static int set_pin_path(struct nb_object *obj, struct nb_object_map *m)
{
	char path[256];

	switch (m->pinning) {
	case PIN_NONE:
		return 0;
	case PIN_OBJECT_NS:
		snprintf(path, sizeof(path), "tc/%016llx/%s", (unsigned long long)obj->hash,
			 m->name);
		break;
	case PIN_GLOBAL_NS:
		snprintf(path, sizeof(path), "tc/globals/%s", m->name);
		break;
	default:
		nb_obj_err(obj, "section maps: map %s: pinning %u names a custom path of "
			   "/etc/iproute2/bpf_pinning, which netbpf does not read; use "
			   "PIN_GLOBAL_NS (2) or PIN_OBJECT_NS (1)", m->name, m->pinning);
		return -EOPNOTSUPP;
	}
	m->pin_path = strdup(path);
	return m->pin_path ? 0 : -ENOMEM;
}

static int parse_def(struct nb_object *obj, const struct nb_elf_sym *s, u64 def_size)
{
	const struct nb_elf_sec *sec = &obj->secs[obj->maps_sec];
	u32 f[DEF_FIELDS] = { 0 };
	struct nb_object_map *m;
	int err;

	if (s->sym.st_value > sec->size || def_size > sec->size - s->sym.st_value) {
		nb_obj_err(obj, "section maps: map %s at offset %llu runs past the section's end "
			   "(%zu bytes)", s->name, (unsigned long long)s->sym.st_value, sec->size);
		return -EINVAL;
	}
	if (def_size > ELF_MAP_SIZE) {
		/* A newer struct is fine as long as what we do not know is zero. */
		for (u64 i = ELF_MAP_SIZE; i < def_size; i++) {
			if (sec->data[s->sym.st_value + i]) {
				nb_obj_err(obj, "section maps: map %s: definition of %llu bytes has "
					   "unknown non-zero fields past struct bpf_elf_map's %zu",
					   s->name, (unsigned long long)def_size, ELF_MAP_SIZE);
				return -EINVAL;
			}
		}
	}
	memcpy(f, sec->data + s->sym.st_value, def_size < ELF_MAP_SIZE ? def_size : ELF_MAP_SIZE);
	err = nb_object_add_map(obj, &m);
	if (err)
		return err;
	m->name = strdup(s->name);
	if (!m->name)
		return -ENOMEM;
	m->origin = NB_MAP_LEGACY;
	m->sec = obj->maps_sec;
	m->sec_off = s->sym.st_value;
	m->def_size = def_size;
	m->type = f[DEF_TYPE];
	m->key_size = f[DEF_KEY_SIZE];
	m->value_size = f[DEF_VALUE_SIZE];
	m->max_entries = f[DEF_MAX_ENTRIES];
	m->map_flags = f[DEF_FLAGS];
	m->id = f[DEF_ID];
	m->pinning = f[DEF_PINNING];
	m->inner_id = f[DEF_INNER_ID];
	m->inner_idx = (s32)f[DEF_INNER_IDX];
	err = set_pin_path(obj, m);
	if (!err)
		err = nb_object_map_check(obj, m);
	return err;
}

int nb_legacy_maps_parse(struct nb_object *obj)
{
	const struct nb_elf_sec *sec;
	const struct nb_elf_sym **syms;
	u64 def_size = 0;
	u32 cnt = 0;
	int err = 0;

	if (obj->maps_sec < 0)
		return 0;
	sec = &obj->secs[obj->maps_sec];
	syms = calloc(obj->sym_cnt ? obj->sym_cnt : 1, sizeof(*syms));
	if (!syms)
		return -ENOMEM;
	for (u32 i = 0; i < obj->sym_cnt; i++)
		if (is_map_sym(obj, &obj->syms[i]))
			syms[cnt++] = &obj->syms[i];
	if (!cnt) {
		if (sec->size)
			nb_obj_err(obj, "section maps: %zu bytes but no global map symbol",
				   sec->size);
		free(syms);
		return sec->size ? -EINVAL : 0;
	}
	if (!sec->data) {
		nb_obj_err(obj, "section maps: holds no data");
		free(syms);
		return -EINVAL;
	}
	qsort(syms, cnt, sizeof(*syms), cmp_map_sym);
	/* Symbols carry the definition's size; old compilers left it out: divide the section. */
	def_size = syms[0]->sym.st_size;
	for (u32 i = 1; i < cnt && def_size; i++)
		if (syms[i]->sym.st_size != def_size)
			def_size = 0;
	if (!def_size) {
		if (sec->size % cnt) {
			nb_obj_err(obj, "section maps: %zu bytes do not divide into %u definitions "
				   "of one size", sec->size, cnt);
			err = -EINVAL;
			goto out;
		}
		def_size = sec->size / cnt;
	}
	if (def_size < MIN_DEF_SIZE || def_size % sizeof(u32)) {
		nb_obj_err(obj, "section maps: definitions of %llu bytes are neither struct "
			   "bpf_map_def (%zu) nor struct bpf_elf_map (%zu)",
			   (unsigned long long)def_size, LIBBPF_DEF_SIZE, ELF_MAP_SIZE);
		err = -EINVAL;
		goto out;
	}
	for (u32 i = 0; i < cnt && !err; i++) {
		if (syms[i]->sym.st_value % def_size) {
			nb_obj_err(obj, "section maps: map %s at offset %llu is not on a %llu-byte "
				   "definition boundary", syms[i]->name,
				   (unsigned long long)syms[i]->sym.st_value,
				   (unsigned long long)def_size);
			err = -EINVAL;
			break;
		}
		if (i && syms[i]->sym.st_value == syms[i - 1]->sym.st_value) {
			nb_obj_err(obj, "section maps: maps %s and %s share offset %llu",
				   syms[i - 1]->name, syms[i]->name,
				   (unsigned long long)syms[i]->sym.st_value);
			err = -EINVAL;
			break;
		}
		err = parse_def(obj, syms[i], def_size);
	}
out:
	free(syms);
	return err;
}
