// SPDX-License-Identifier: GPL-2.0
/*
 * Legacy map sections ("maps", or "maps/NAME" of older loaders): arrays of fixed-size
 * definitions, one global symbol each. libbpf's struct bpf_map_def has five u32 (type, key_size,
 * value_size, max_entries, map_flags, 20 bytes); iproute2's struct bpf_elf_map adds id, pinning,
 * inner_id and inner_idx (36 bytes); the kernel samples' struct bpf_load_map_def (samples/bpf
 * bpf_load.c) adds inner_map_idx and numa_node instead (28 bytes, the size of iproute2's older
 * bpf_elf_map with id and pinning). The layouts are told apart by the size of one definition,
 * which the symbols give; like iproute2, a shorter definition reads as if its missing fields were
 * zero.
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
#define SAMPLES_DEF_SIZE (7 * sizeof(u32))
#define ELF_MAP_SIZE	(DEF_FIELDS * sizeof(u32))

/* struct bpf_load_map_def's two fields after map_flags. */
#define SAMPLES_INNER_MAP_IDX	DEF_ID
#define SAMPLES_NUMA_NODE	DEF_PINNING

/* iproute2's pinning values (PIN_* of its bpf_elf.h). */
#define PIN_NONE	0
#define PIN_OBJECT_NS	1
#define PIN_GLOBAL_NS	2

static bool is_map_sym(const struct nb_elf_sym *s, u32 sec)
{
	int type = GELF_ST_TYPE(s->sym.st_info);

	return s->sym.st_shndx == sec && type != STT_SECTION &&
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
	case NB_PIN_REPLACE:
		/* Cilium's loader pins these under tc/globals too, replacing the old map. */
		snprintf(path, sizeof(path), "tc/globals/%s", m->name);
		m->pin_replace = true;
		break;
	default:
		nb_obj_err(obj, "section %s: map %s: pinning %u names a custom path of "
			   "/etc/iproute2/bpf_pinning, which netbpf does not read; use "
			   "PIN_GLOBAL_NS (2), PIN_OBJECT_NS (1) or Cilium's CILIUM_PIN_REPLACE "
			   "(16)",
			   obj->secs[m->sec].name, m->name, m->pinning);
		return -EOPNOTSUPP;
	}
	m->pin_path = strdup(path);
	return m->pin_path ? 0 : -ENOMEM;
}

static bool is_map_in_map(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/*
 * A 28-byte definition is the samples' struct bpf_load_map_def or iproute2's older struct
 * bpf_elf_map (id, pinning). The two agree while both fields are zero; the samples' fields mean
 * something only for a map of maps (inner_map_idx) or with BPF_F_NUMA_NODE (numa_node).
 */
static bool is_samples_def(u64 def_size, const u32 *f)
{
	return def_size == SAMPLES_DEF_SIZE &&
	       (is_map_in_map(f[DEF_TYPE]) || (f[DEF_FLAGS] & BPF_F_NUMA_NODE));
}

static int parse_def(struct nb_object *obj, u32 sec_idx, const struct nb_elf_sym *s,
		     u64 def_size, u32 nth)
{
	const struct nb_elf_sec *sec = &obj->secs[sec_idx];
	u32 f[DEF_FIELDS] = { 0 };
	struct nb_object_map *m;
	int err;

	if (s->sym.st_value > sec->size || def_size > sec->size - s->sym.st_value) {
		nb_obj_err(obj, "section %s: map %s at offset %llu runs past the section's end "
			   "(%zu bytes)", sec->name, s->name, (unsigned long long)s->sym.st_value,
			   sec->size);
		return -EINVAL;
	}
	if (def_size > ELF_MAP_SIZE) {
		/* A newer struct is fine as long as what we do not know is zero. */
		for (u64 i = ELF_MAP_SIZE; i < def_size; i++) {
			if (sec->data[s->sym.st_value + i]) {
				nb_obj_err(obj, "section %s: map %s: definition of %llu bytes has "
					   "unknown non-zero fields past struct bpf_elf_map's %zu",
					   sec->name, s->name, (unsigned long long)def_size,
					   ELF_MAP_SIZE);
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
	m->sec = sec_idx;
	m->sec_off = s->sym.st_value;
	m->def_size = def_size;
	m->type = f[DEF_TYPE];
	m->key_size = f[DEF_KEY_SIZE];
	m->value_size = f[DEF_VALUE_SIZE];
	m->max_entries = f[DEF_MAX_ENTRIES];
	m->map_flags = f[DEF_FLAGS];
	m->inner_idx = -1;
	m->sec_nth = nth;
	if (is_samples_def(def_size, f)) {
		m->samples_def = true;
		m->inner_map_idx = f[SAMPLES_INNER_MAP_IDX];
		if (m->map_flags & BPF_F_NUMA_NODE)
			m->numa_node = f[SAMPLES_NUMA_NODE];
	} else {
		m->id = f[DEF_ID];
		m->pinning = f[DEF_PINNING];
		m->inner_id = f[DEF_INNER_ID];
		m->inner_idx = (s32)f[DEF_INNER_IDX];
	}
	/*
	 * A map of maps holds map ids: bpf_create_map_in_map, which the samples' loader calls,
	 * gives it 4-byte values whatever the definition says, and the samples leave them 0.
	 */
	if (is_map_in_map(m->type) && !m->value_size)
		m->value_size = sizeof(u32);
	err = set_pin_path(obj, m);
	if (!err)
		err = nb_object_map_check(obj, m);
	return err;
}

static int parse_sec(struct nb_object *obj, u32 sec_idx)
{
	const struct nb_elf_sec *sec = &obj->secs[sec_idx];
	const struct nb_elf_sym **syms;
	u64 def_size = 0;
	u32 cnt = 0;
	int err = 0;

	syms = calloc(obj->sym_cnt ? obj->sym_cnt : 1, sizeof(*syms));
	if (!syms)
		return -ENOMEM;
	for (u32 i = 0; i < obj->sym_cnt; i++)
		if (is_map_sym(&obj->syms[i], sec_idx))
			syms[cnt++] = &obj->syms[i];
	if (!cnt) {
		if (sec->size)
			nb_obj_err(obj, "section %s: %zu bytes but no global map symbol",
				   sec->name, sec->size);
		free(syms);
		return sec->size ? -EINVAL : 0;
	}
	if (!sec->data) {
		nb_obj_err(obj, "section %s: holds no data", sec->name);
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
			nb_obj_err(obj, "section %s: %zu bytes do not divide into %u definitions "
				   "of one size", sec->name, sec->size, cnt);
			err = -EINVAL;
			goto out;
		}
		def_size = sec->size / cnt;
	}
	if (def_size < MIN_DEF_SIZE || def_size % sizeof(u32)) {
		nb_obj_err(obj, "section %s: definitions of %llu bytes are neither struct "
			   "bpf_map_def (%zu or %zu) nor struct bpf_elf_map (%zu)", sec->name,
			   (unsigned long long)def_size, LIBBPF_DEF_SIZE, SAMPLES_DEF_SIZE,
			   ELF_MAP_SIZE);
		err = -EINVAL;
		goto out;
	}
	for (u32 i = 0; i < cnt && !err; i++) {
		if (syms[i]->sym.st_value % def_size) {
			nb_obj_err(obj, "section %s: map %s at offset %llu is not on a %llu-byte "
				   "definition boundary", sec->name, syms[i]->name,
				   (unsigned long long)syms[i]->sym.st_value,
				   (unsigned long long)def_size);
			err = -EINVAL;
			break;
		}
		if (i && syms[i]->sym.st_value == syms[i - 1]->sym.st_value) {
			nb_obj_err(obj, "section %s: maps %s and %s share offset %llu", sec->name,
				   syms[i - 1]->name, syms[i]->name,
				   (unsigned long long)syms[i]->sym.st_value);
			err = -EINVAL;
			break;
		}
		err = parse_def(obj, sec_idx, syms[i], def_size, i);
	}
out:
	free(syms);
	return err;
}

int nb_legacy_maps_parse(struct nb_object *obj)
{
	for (u32 i = 1; i < obj->sec_cnt; i++) {
		int err = 0;

		if (obj->secs[i].kind == NB_SEC_LEGACY_MAPS)
			err = parse_sec(obj, i);
		if (err)
			return err;
	}
	return 0;
}
