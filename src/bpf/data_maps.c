// SPDX-License-Identifier: GPL-2.0
/*
 * Global data: each non-empty .rodata*, .data* and .bss* section becomes an array map of one
 * element whose value is the section, as libbpf does; programs reach it through map-value
 * ldimm64. .rodata* maps are read-only for programs and frozen once filled, so their
 * `const volatile` variables, set before load, are constants to the programs.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf/object.h"

/*
 * Global data becomes one array value, allocated before the map exists: an object may not make
 * netbpf allocate more than the kernel's KMALLOC_MAX_SIZE on x86-64 (4 MiB), the largest array
 * map value the kernel accepts (a .bss size is only a number in a header).
 */
#define NB_GLOBAL_DATA_MAX (4U << 20)

static bool is_rodata(const char *name)
{
	return !strncmp(name, ".rodata", 7);
}

/*
 * The DATASEC that describes section secno, with its size and its variables' offsets filled in
 * from the section and the symbols, which clang leaves 0 for the loader (libbpf's
 * btf_fixup_datasec); 0 when the BTF has none.
 */
static u32 fixup_datasec(struct nb_object *obj, u32 secno)
{
	const struct nb_elf_sec *sec = &obj->secs[secno];
	struct btf_var_secinfo *vi;
	struct btf_type *t;
	__s32 id;

	if (!obj->btf)
		return 0;
	id = btf__find_by_name_kind(obj->btf, sec->name, BTF_KIND_DATASEC);
	if (id <= 0)
		return 0;
	t = (struct btf_type *)btf__type_by_id(obj->btf, id);
	t->size = sec->size;
	vi = btf_var_secinfos(t);
	for (u32 v = 0; v < btf_vlen(t); v++, vi++) {
		const struct btf_type *var = btf__type_by_id(obj->btf, vi->type);
		const char *name = var ? btf__name_by_offset(obj->btf, var->name_off) : NULL;

		for (u32 j = 0; name && j < obj->sym_cnt; j++) {
			const struct nb_elf_sym *s = &obj->syms[j];

			if (s->sym.st_shndx == secno && s->name && !strcmp(s->name, name) &&
			    s->sym.st_value + vi->size <= sec->size) {
				vi->offset = s->sym.st_value;
				break;
			}
		}
	}
	return id;
}

/*
 * Whether a variable of the DATASEC is global (not static): libbpf then makes the map
 * BPF_F_MMAPABLE, for its skeletons to reach those variables; sections of static variables only,
 * or without BTF (.rodata.str1.1), are not.
 */
static bool datasec_has_global(const struct nb_object *obj, u32 datasec_id)
{
	const struct btf_type *t = datasec_id ? btf__type_by_id(obj->btf, datasec_id) : NULL;
	const struct btf_var_secinfo *vi;

	if (!t || !btf_is_datasec(t))
		return false;
	vi = btf_var_secinfos(t);
	for (u32 v = 0; v < btf_vlen(t); v++, vi++) {
		const struct btf_type *var = btf__type_by_id(obj->btf, vi->type);

		if (var && btf_is_var(var) && btf_var(var)->linkage != BTF_VAR_STATIC)
			return true;
	}
	return false;
}

void nb_data_map_kernel_name(const struct nb_object *obj, const char *sec_name,
			     char name[BPF_OBJ_NAME_LEN])
{
	/* The section's part: 7 characters at least (.rodata whole), as libbpf reserves. */
	size_t sfx_len = strlen(sec_name) > 7 ? strlen(sec_name) : 7;
	size_t pfx_len = 0;

	if (sfx_len > BPF_OBJ_NAME_LEN - 1)
		sfx_len = BPF_OBJ_NAME_LEN - 1;
	/* A section with a dot of its own (.data.custom, .rodata.str1.1) is named alone. */
	if (!strchr(sec_name + 1, '.')) {
		pfx_len = BPF_OBJ_NAME_LEN - 1 - sfx_len;
		if (pfx_len > strlen(obj->libbpf_name))
			pfx_len = strlen(obj->libbpf_name);
	}
	snprintf(name, BPF_OBJ_NAME_LEN, "%.*s%.*s", (int)pfx_len, obj->libbpf_name,
		 (int)sfx_len, sec_name);
	/* The kernel takes letters, digits, '_' and '.' in a name. */
	for (char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			*p = '_';
}

int nb_data_maps_parse(struct nb_object *obj)
{
	for (u32 i = 1; i < obj->sec_cnt; i++) {
		struct nb_elf_sec *sec = &obj->secs[i];
		struct nb_object_map *m;
		int err;

		if (sec->kind != NB_SEC_DATA || !sec->size)
			continue;
		if (sec->size > NB_GLOBAL_DATA_MAX) {
			nb_obj_err(obj, "section %s: %zu bytes of global data, more than the %u an "
				   "array map value may hold", sec->name, sec->size, NB_GLOBAL_DATA_MAX);
			return -E2BIG;
		}
		err = nb_object_add_map(obj, &m);
		if (err)
			return err;
		m->name = strdup(sec->name);
		m->data = calloc(1, sec->size);
		if (!m->name || !m->data)
			return -ENOMEM;
		if (sec->data)
			memcpy(m->data, sec->data, sec->size);
		m->origin = NB_MAP_DATA;
		m->sec = i;
		m->type = BPF_MAP_TYPE_ARRAY;
		m->key_size = sizeof(u32);
		m->value_size = sec->size;
		m->max_entries = 1;
		m->map_flags = is_rodata(sec->name) ? BPF_F_RDONLY_PROG : 0;
		/* Its variables' types, as libbpf passes the DATASEC: a lock among them. */
		m->btf_value_type_id = fixup_datasec(obj, i);
		if (datasec_has_global(obj, m->btf_value_type_id))
			m->map_flags |= BPF_F_MMAPABLE;
		sec->data_map = obj->map_cnt - 1;
	}
	return 0;
}

static const struct nb_elf_sym *find_var(const struct nb_object *obj, const char *name)
{
	for (u32 i = 0; i < obj->sym_cnt; i++) {
		const struct nb_elf_sym *s = &obj->syms[i];

		if (GELF_ST_TYPE(s->sym.st_info) == STT_OBJECT && s->sym.st_shndx &&
		    s->sym.st_shndx < obj->sec_cnt && obj->secs[s->sym.st_shndx].data_map >= 0 &&
		    !strcmp(s->name, name))
			return s;
	}
	return NULL;
}

int nb_object_var_size(const struct nb_object *obj, const char *name)
{
	const struct nb_elf_sym *s = find_var(obj, name);

	return s ? (int)s->sym.st_size : -ENOENT;
}

int nb_object_set_rodata(struct nb_object *obj, const char *name, const void *value, size_t size)
{
	const struct nb_elf_sym *s = find_var(obj, name);
	const struct nb_elf_sec *sec;

	if (!s)
		return -ENOENT;
	if (obj->loaded)
		return -EBUSY;
	sec = &obj->secs[s->sym.st_shndx];
	if (size != s->sym.st_size || s->sym.st_value > sec->size ||
	    size > sec->size - s->sym.st_value)
		return -EINVAL;
	memcpy(obj->maps[sec->data_map].data + s->sym.st_value, value, size);
	return 0;
}
