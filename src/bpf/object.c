// SPDX-License-Identifier: GPL-2.0
/*
 * The object API: open (parse and link), load (maps, programs, initial slots), close, and the
 * accessors, in libbpf's shape. Loading follows iproute2's and libbpf's order: maps first (reusing
 * pinned ones), global data written and .rodata frozen, programs, then program arrays and maps of
 * maps filled from `values` initialisers, "ID/KEY" tail-call sections and inner_idx.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <netbpf/btf.h>
#include <netbpf/prog.h>

#include "bpf/btf_ext.h"
#include "bpf/map.h"
#include "bpf/object.h"
#include "bpf/prog_type.h"
#include "common/opts.h"

void nb_obj_err(const struct nb_object *obj, const char *fmt, ...)
{
	va_list ap;

	if (!obj->log)
		return;
	nb_log_printf(obj->log, "%s: ", obj->path);
	va_start(ap, fmt);
	nb_log_vprintf(obj->log, fmt, ap);
	va_end(ap);
	nb_log_printf(obj->log, "\n");
}

int nb_object_add_map(struct nb_object *obj, struct nb_object_map **mapp)
{
	struct nb_object_map *maps = realloc(obj->maps, (obj->map_cnt + 1) * sizeof(*maps));

	if (!maps)
		return -ENOMEM;
	obj->maps = maps;
	*mapp = &maps[obj->map_cnt++];
	memset(*mapp, 0, sizeof(**mapp));
	(*mapp)->obj = obj;
	(*mapp)->values_off = -1;
	return 0;
}

struct nb_object_map *nb_object_map_by_sec_off(const struct nb_object *obj, u32 sec, u64 off)
{
	for (u32 i = 0; i < obj->map_cnt; i++)
		if (obj->maps[i].origin != NB_MAP_DATA && obj->maps[i].sec == sec &&
		    obj->maps[i].sec_off == off)
			return &obj->maps[i];
	return NULL;
}

static bool map_has_key(enum bpf_map_type type)
{
	return type != BPF_MAP_TYPE_QUEUE && type != BPF_MAP_TYPE_STACK &&
	       type != BPF_MAP_TYPE_RINGBUF && type != BPF_MAP_TYPE_BLOOM_FILTER &&
	       type != BPF_MAP_TYPE_USER_RINGBUF;
}

static bool map_has_value(enum bpf_map_type type)
{
	return type != BPF_MAP_TYPE_RINGBUF && type != BPF_MAP_TYPE_USER_RINGBUF;
}

bool nb_map_type_unsized(enum bpf_map_type type)
{
	switch (type) {
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return true;
	default:
		return false;
	}
}

/* What no map of any type can be: the type's own checks come at creation. */
int nb_object_map_check(const struct nb_object *obj, const struct nb_object_map *m)
{
	const char *sec = obj->secs[m->sec].name;
	const char *tname = libbpf_bpf_map_type_str(m->type);
	u64 bytes = (u64)m->max_entries * ((u64)m->key_size + m->value_size);

	if (m->type == BPF_MAP_TYPE_UNSPEC || !tname) {
		nb_obj_err(obj, "section %s: map %s: %s map type %u", sec, m->name,
			   m->type ? "unknown" : "no", m->type);
		return -EINVAL;
	}
	if (map_has_key(m->type) && !m->key_size) {
		nb_obj_err(obj, "section %s: map %s: key_size 0: a map of type %s needs a key", sec,
			   m->name, tname);
		return -EINVAL;
	}
	if (map_has_value(m->type) && !m->value_size) {
		nb_obj_err(obj, "section %s: map %s: value_size 0: a map of type %s needs a value", sec,
			   m->name, tname);
		return -EINVAL;
	}
	if (bytes > (1ULL << 32) || (!map_has_value(m->type) && m->max_entries > (1U << 30))) {
		nb_obj_err(obj, "section %s: map %s: max_entries %u of %u-byte keys and %u-byte "
			   "values is more than netbpf allocates (4 GiB)", sec, m->name,
			   m->max_entries, m->key_size, m->value_size);
		return -E2BIG;
	}
	return 0;
}

void nb_object_map_release(struct nb_object_map *m)
{
	if (!m)
		return;
	nb_map_put_uref(m->map);
	m->map = NULL;
}

static void map_free(struct nb_object_map *m)
{
	nb_object_map_release(m);
	if (m->inner) {
		map_free(m->inner);
		free(m->inner);
	}
	free(m->name);
	free(m->pin_path);
	free(m->inits);
	free(m->data);
}

static void unload(struct nb_object *obj)
{
	for (u32 i = 0; i < obj->prog_cnt; i++) {
		nb_prog_put(obj->progs[i].prog);
		obj->progs[i].prog = NULL;
	}
	for (u32 i = 0; i < obj->map_cnt; i++)
		nb_object_map_release(&obj->maps[i]);
	free(obj->map_ptrs);
	obj->map_ptrs = NULL;
	obj->loaded = false;
}

void nb_object_close(struct nb_object *obj)
{
	if (!obj)
		return;
	unload(obj);
	for (u32 i = 0; i < obj->prog_cnt; i++) {
		free(obj->progs[i].insns);
		free(obj->progs[i].func_info);
		free(obj->progs[i].line_info);
		free(obj->progs[i].link_err);
	}
	free(obj->progs);
	for (u32 i = 0; i < obj->map_cnt; i++)
		map_free(&obj->maps[i]);
	free(obj->maps);
	free(obj->funcs);
	for (u32 i = 0; i < obj->sec_cnt; i++)
		free(obj->secs[i].relocs);
	free(obj->secs);
	free(obj->syms);
	nb_btf_ext_free(obj->btf_ext);
	nb_btf_put(obj->prog_btf);
	btf__free(obj->btf);
	if (obj->elf)
		elf_end(obj->elf);
	free(obj->buf);
	free(obj->path);
	free(obj->name);
	free(obj);
}

static u64 fnv1a(const u8 *p, size_t n)
{
	u64 h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static int check_duplicate_maps(const struct nb_object *obj)
{
	for (u32 i = 0; i < obj->map_cnt; i++) {
		for (u32 j = 0; j < i; j++) {
			if (strcmp(obj->maps[i].name, obj->maps[j].name))
				continue;
			nb_obj_err(obj, "duplicate map name %s (sections %s and %s)",
				   obj->maps[i].name, obj->secs[obj->maps[j].sec].name,
				   obj->secs[obj->maps[i].sec].name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * name_from_path: the name is the file's, which libbpf cuts at its first '.' for its object name;
 * a name the caller gives is kept whole.
 */
static int open_buf(u8 *buf, size_t size, const char *path, const char *name, bool name_from_path,
		    struct nb_log *log, struct nb_object **objp)
{
	struct nb_object *obj = calloc(1, sizeof(*obj));
	int err;

	*objp = NULL;
	if (!obj) {
		free(buf);
		return -ENOMEM;
	}
	obj->buf = buf;
	obj->size = size;
	obj->log = log;
	obj->path = strdup(path);
	obj->name = strdup(name);
	if (!obj->path || !obj->name) {
		nb_object_close(obj);
		return -ENOMEM;
	}
	snprintf(obj->libbpf_name, sizeof(obj->libbpf_name), "%s", name);
	if (name_from_path && strchr(obj->libbpf_name, '.'))
		*strchr(obj->libbpf_name, '.') = '\0';
	obj->hash = fnv1a(buf, size);
	err = nb_elf_parse(obj);
	if (!err)
		err = nb_btf_ext_parse(obj);
	if (!err)
		err = nb_btf_maps_parse(obj);
	if (!err)
		err = nb_legacy_maps_parse(obj);
	if (!err)
		err = nb_data_maps_parse(obj);
	if (!err)
		err = check_duplicate_maps(obj);
	if (!err)
		err = nb_btf_maps_parse_inits(obj);
	if (!err)
		err = nb_object_link_progs(obj);
	if (err) {
		if (err == -ENOMEM)
			nb_obj_err(obj, "out of memory");
		nb_object_close(obj);
		return err;
	}
	obj->log = NULL;
	*objp = obj;
	return 0;
}

int nb_object_open_mem(const void *buf, size_t size, const struct nb_object_open_opts *opts,
		       struct nb_object **objp)
{
	const char *name = NB_OPTS_GET(opts, name, NULL);
	int err = NB_OPTS_CHECK(opts, nb_object_open_opts, sz, NB_OPTS_GET(opts, log, NULL));
	u8 *copy;

	*objp = NULL;
	if (err)
		return err;
	copy = malloc(size ? size : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, size);
	return open_buf(copy, size, name ? name : "(memory)", name ? name : "(memory)", false,
			NB_OPTS_GET(opts, log, NULL), objp);
}

static int read_whole(const char *path, u8 **bufp, size_t *sizep)
{
	size_t cap = 1 << 16, len = 0, n;
	FILE *f = fopen(path, "rb");
	u8 *buf = NULL;

	if (!f)
		return -errno;
	for (;;) {
		u8 *grown = realloc(buf, cap);

		if (!grown) {
			free(buf);
			fclose(f);
			return -ENOMEM;
		}
		buf = grown;
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len < cap)
			break;
		cap *= 2;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*bufp = buf;
	*sizep = len;
	return 0;
}

int nb_object_open_file(const char *path, const struct nb_object_open_opts *opts,
			struct nb_object **objp)
{
	struct nb_log *log = NB_OPTS_GET(opts, log, NULL);
	const char *name = NB_OPTS_GET(opts, name, NULL);
	size_t size = 0;
	u8 *buf = NULL;
	int err;

	*objp = NULL;
	err = NB_OPTS_CHECK(opts, nb_object_open_opts, sz, log);
	if (err)
		return err;
	err = read_whole(path, &buf, &size);
	if (err) {
		nb_log_printf(log, "%s: cannot read: %s\n", path, strerror(-err));
		return err;
	}
	if (name)
		return open_buf(buf, size, path, name, false, log, objp);
	name = strrchr(path, '/');
	return open_buf(buf, size, path, name ? name + 1 : path, true, log, objp);
}

/* Load */

/*
 * libbpf's adjust_ringbuf_sz: the kernel wants a ring buffer of a power-of-2 number of pages;
 * a size that is not one becomes the next that is (sizes beyond any stay, for the refusal).
 */
static u32 ringbuf_size(u32 size)
{
	const u32 page = 4096;

	if (!size || (size % page == 0 && !((size / page) & (size / page - 1))))
		return size;
	for (u64 mul = 1; mul * page <= UINT32_MAX; mul <<= 1)
		if (mul * page > size)
			return (u32)(mul * page);
	return size;
}

int nb_object_load_btf(struct nb_object *obj)
{
	struct nb_btf_load_opts opts = { .sz = sizeof(opts), .log = obj->log };
	const void *raw;
	u32 size;
	int err;

	if (obj->prog_btf)
		return 0;
	raw = btf__raw_data(obj->btf, &size);
	err = raw ? nb_btf_load(raw, size, &opts, &obj->prog_btf) : -ENOMEM;
	if (err)
		nb_obj_err(obj, "section .BTF: cannot be a BTF object: %s", strerror(-err));
	return err;
}

static int create_map(struct nb_object *obj, struct nb_object_map *m, struct nb_map *inner,
		      struct nb_map **mapp)
{
	char name[BPF_OBJ_NAME_LEN];
	struct nb_map_create_opts o = {
		.sz = sizeof(o),
		.name = name,
		.map_flags = m->map_flags,
		.numa_node = m->numa_node,
		.inner_map = inner,
		.log = obj->log,
		.btf = m->btf_value_type_id ? obj->btf : NULL,
		.btf_value_type_id = m->btf_value_type_id,
		.btf_key_type_id = m->btf_key_type_id,
	};
	u32 max_entries = m->max_entries;
	int err;

	if (o.btf) {
		err = nb_object_load_btf(obj);
		if (err)
			return err;
		o.btf_object = obj->prog_btf;
	}

	/* As libbpf does: a perf event array left unsized gets a slot per CPU. */
	if (!max_entries && m->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY)
		max_entries = nb_nr_cpus();
	if (m->type == BPF_MAP_TYPE_RINGBUF || m->type == BPF_MAP_TYPE_USER_RINGBUF)
		max_entries = ringbuf_size(max_entries);
	err = nb_object_map_check(obj, m);
	if (err)
		return err;
	if (!max_entries && !nb_map_type_unsized(m->type)) {
		nb_obj_err(obj, "section %s: map %s: max_entries 0: the object leaves the size to "
			   "its loader; give it before load (nb_object_map_set_max_entries, "
			   "netbpf's --max-entries %s=N)", obj->secs[m->sec].name, m->name,
			   m->name);
		return -EINVAL;
	}
	/*
	 * As libbpf does, the kernel's 15 characters of the name: the object keeps it whole, and
	 * global data keeps its section's name (.data), the kernel gets the object's in front.
	 */
	if (m->origin == NB_MAP_DATA)
		nb_data_map_kernel_name(obj, m->name, name);
	else
		snprintf(name, sizeof(name), "%s", m->name);
	err = nb_map_create(m->type, m->key_size, m->value_size, max_entries, &o, mapp);
	if (err)
		nb_obj_err(obj, "section %s: map %s: cannot create: %s", obj->secs[m->sec].name,
			   m->name, strerror(-err));
	return err;
}

static bool is_map_in_map(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

static struct nb_object_map *legacy_map_by_id(struct nb_object *obj, u32 id)
{
	for (u32 i = 0; id && i < obj->map_cnt; i++)
		if (obj->maps[i].origin == NB_MAP_LEGACY && !obj->maps[i].samples_def &&
		    obj->maps[i].id == id)
			return &obj->maps[i];
	return NULL;
}

/* The template of a legacy map of maps: by id (iproute2) or by position (the samples). */
static struct nb_object_map *legacy_template(const struct nb_object *obj,
					      const struct nb_object_map *m)
{
	for (u32 i = 0; i < obj->map_cnt; i++) {
		struct nb_object_map *c = &obj->maps[i];

		if (c->origin != NB_MAP_LEGACY || c == m)
			continue;
		if (m->samples_def ? c->sec == m->sec && c->sec_nth == m->inner_map_idx :
				     !c->samples_def && m->inner_id && c->id == m->inner_id)
			return c;
	}
	return NULL;
}

static int legacy_inner_template(struct nb_object *obj, const struct nb_object_map *m,
				 struct nb_map **inner)
{
	const char *sec = obj->secs[m->sec].name;
	struct nb_object_map *t = legacy_template(obj, m);

	if (!t || !t->map) {
		if (m->samples_def)
			nb_obj_err(obj, "section %s: map %s: inner_map_idx %u names no map created "
				   "before it", sec, m->name, m->inner_map_idx);
		else
			nb_obj_err(obj, "section %s: map %s: inner map with id %u not found", sec,
				   m->name, m->inner_id);
		return -EINVAL;
	}
	*inner = t->map;
	return 0;
}

static int load_map(struct nb_object *obj, struct nb_object_map *m)
{
	struct nb_map *inner = NULL, *created;
	bool put_inner = false;
	int err;

	if (m->pin_path && !m->pin_replace) {
		struct nb_map *pinned = nb_pin_get_map(m->pin_path);

		if (pinned) {
			err = nb_pin_reuse_check(obj, m, pinned);
			if (err) {
				nb_map_put(pinned);
				return err;
			}
			m->map = nb_map_get_uref(pinned);
			nb_map_put(pinned);
			return 0;
		}
	}
	if (m->inner) {
		err = create_map(obj, m->inner, NULL, &inner);
		if (err)
			return err;
		put_inner = true;
	} else if (m->origin == NB_MAP_LEGACY && is_map_in_map(m->type)) {
		err = legacy_inner_template(obj, m, &inner);
		if (err)
			return err;
	}
	err = create_map(obj, m, inner, &created);
	if (put_inner)
		nb_map_put(inner);
	if (err)
		return err;
	/* The object is a user of its maps: its close may empty a program array. */
	m->map = nb_map_get_uref(created);
	nb_map_put(created);
	if (m->data) {
		u32 zero = 0;

		err = nb_map_update_elem(m->map, &zero, m->data, BPF_ANY);
		if (err) {
			nb_obj_err(obj, "section %s: cannot write global data: %s",
				   obj->secs[m->sec].name, strerror(-err));
			return err;
		}
		/* As libbpf freezes .rodata: constants from now on. */
		if (m->map_flags & BPF_F_RDONLY_PROG)
			m->map->frozen = true;
	}
	/* A replacing pin takes over once the whole object loaded (replace_pins). */
	if (m->pin_path && !m->pin_replace) {
		err = nb_pin_map(m->pin_path, m->map);
		if (err && err != -EEXIST)
			return err;
	}
	return 0;
}

/*
 * Cilium's CILIUM_PIN_REPLACE: its loader commits such maps to their pins only after every
 * program loaded, so that a failed load leaves the old maps in place.
 */
static int replace_pins(struct nb_object *obj)
{
	for (u32 i = 0; i < obj->map_cnt; i++) {
		struct nb_object_map *m = &obj->maps[i];
		int err;

		if (!m->pin_replace)
			continue;
		nb_unpin(m->pin_path);
		err = nb_pin_map(m->pin_path, m->map);
		if (err) {
			nb_obj_err(obj, "section %s: map %s: cannot pin at %s: %s",
				   obj->secs[m->sec].name, m->name, m->pin_path, strerror(-err));
			return err;
		}
	}
	return 0;
}

static int load_maps(struct nb_object *obj)
{
	obj->map_ptrs = calloc(obj->map_cnt ? obj->map_cnt : 1, sizeof(*obj->map_ptrs));
	if (!obj->map_ptrs)
		return -ENOMEM;
	/* iproute2's maps of maps name their template by id: create those last. */
	for (int pass = 0; pass < 2; pass++) {
		for (u32 i = 0; i < obj->map_cnt; i++) {
			struct nb_object_map *m = &obj->maps[i];
			bool late = m->origin == NB_MAP_LEGACY && is_map_in_map(m->type);
			int err;

			if (late != (pass == 1))
				continue;
			err = load_map(obj, m);
			if (err)
				return err;
			obj->map_ptrs[i] = m->map;
		}
	}
	return 0;
}

/* The one type every program with a known section name agrees on, for the others. */
static enum bpf_prog_type object_prog_type(const struct nb_object *obj)
{
	enum bpf_prog_type type = BPF_PROG_TYPE_UNSPEC;

	for (u32 i = 0; i < obj->prog_cnt; i++) {
		if (!obj->progs[i].type)
			continue;
		if (type && type != obj->progs[i].type)
			return BPF_PROG_TYPE_UNSPEC;
		type = obj->progs[i].type;
	}
	return type;
}

/* tc's "sec NAME": that section's programs and the tail-call sections, nothing else. */
static int select_section(struct nb_object *obj, const char *section)
{
	bool found = false;

	for (u32 i = 0; i < obj->prog_cnt; i++) {
		struct nb_object_prog *p = &obj->progs[i];
		bool in = !strcmp(p->sec_name, section);

		found |= in;
		p->autoload = in || p->tail_call_sec;
	}
	if (!found) {
		nb_obj_err(obj, "no program in section %s", section);
		return -ENOENT;
	}
	return 0;
}

/* The refusal of a program whose type netbpf does not run: what it is, and what netbpf runs. */
static int unsupported_type(struct nb_object *obj, const struct nb_object_prog *p,
			    enum bpf_prog_type type)
{
	const char *tname = libbpf_bpf_prog_type_str(type);

	nb_obj_err(obj, "program %s (section %s): a %s program (program type %d): netbpf runs "
		   "tc (sched_cls, sched_act), XDP and socket filter programs only", p->name,
		   p->sec_name, tname ? tname : "unknown", type);
	return -EOPNOTSUPP;
}

static int load_progs(struct nb_object *obj, const struct nb_object_load_opts *opts)
{
	enum bpf_prog_type forced = NB_OPTS_GET(opts, prog_type, BPF_PROG_TYPE_UNSPEC);
	enum bpf_prog_type fallback = object_prog_type(obj);
	const char *section = NB_OPTS_GET(opts, section, NULL);

	if (section) {
		int err = select_section(obj, section);

		if (err)
			return err;
	}

	for (u32 i = 0; i < obj->prog_cnt; i++) {
		struct nb_object_prog *p = &obj->progs[i];
		enum bpf_prog_type type = forced ? forced : p->type ? p->type : fallback;
		struct nb_prog_load_opts po = {
			.sz = sizeof(po),
			.name = p->name,
			.expected_attach_type = p->attach_type,
			.license = obj->license,
			.flags = NB_OPTS_GET(opts, prog_flags, 0),
			.maps = obj->map_ptrs,
			.map_cnt = obj->map_cnt,
			.log = obj->log,
		};
		int err;

		if (!p->autoload)
			continue;
		if (p->link_err) {
			nb_obj_err(obj, "%s", p->link_err);
			return -EOPNOTSUPP;
		}
		/* libbpf loads "xdp.frags" sections with BPF_F_XDP_HAS_FRAGS */
		if (type == BPF_PROG_TYPE_XDP && !strncmp(p->sec_name, "xdp.frags", 9))
			po.flags |= NB_PROG_LOAD_XDP_HAS_FRAGS;
		if (!type) {
			nb_obj_err(obj, "program %s (section %s): the section name tells no "
				   "program type: give one (tc, xdp, socket)", p->name, p->sec_name);
			return -EINVAL;
		}
		if (!nb_prog_type_ops(type))
			return unsupported_type(obj, p, type);
		err = nb_btf_ext_prog_opts(obj, p, &po);
		if (err)
			return err;
		err = nb_prog_load(type, p->insns, p->insn_cnt, &po, &p->prog);
		if (err) {
			nb_obj_err(obj, "program %s (section %s): load failed: %s", p->name,
				   p->sec_name, strerror(-err));
			return err;
		}
	}
	return 0;
}

static int set_slot(struct nb_object *obj, struct nb_object_map *m, u32 key, u32 value,
		    const char *what)
{
	int err = nb_map_update_elem(m->map, &key, &value, BPF_ANY);

	if (err)
		nb_obj_err(obj, "section %s: map %s: cannot put %s at key %u: %s",
			   obj->secs[m->sec].name, m->name, what, key, strerror(-err));
	return err;
}

static int fill_slots(struct nb_object *obj)
{
	int err = 0;

	for (u32 i = 0; i < obj->map_cnt && !err; i++) {
		struct nb_object_map *m = &obj->maps[i];

		for (u32 j = 0; j < m->init_cnt && !err; j++) {
			const struct nb_map_init *in = &m->inits[j];

			if (m->values_are_progs) {
				struct nb_object_prog *p = &obj->progs[in->target];

				if (p->prog)
					err = set_slot(obj, m, in->slot, nb_prog_id(p->prog),
						       p->name);
			} else {
				err = set_slot(obj, m, in->slot, nb_map_id(obj->maps[in->target].map),
					       obj->maps[in->target].name);
			}
		}
	}
	/* iproute2: the program of section "ID/KEY" goes into program array ID at KEY. */
	for (u32 i = 0; i < obj->prog_cnt && !err; i++) {
		struct nb_object_prog *p = &obj->progs[i];
		struct nb_object_map *m;

		if (!p->tail_call_sec || !p->prog)
			continue;
		m = legacy_map_by_id(obj, p->tail_map_id);
		if (m && m->type == BPF_MAP_TYPE_PROG_ARRAY)
			err = set_slot(obj, m, p->tail_key, nb_prog_id(p->prog), p->name);
	}
	/* iproute2: an inner map with an id goes into every outer map naming it, at inner_idx. */
	for (u32 i = 0; i < obj->map_cnt && !err; i++) {
		struct nb_object_map *inner = &obj->maps[i];

		if (inner->origin != NB_MAP_LEGACY || !inner->id || inner->inner_id ||
		    inner->inner_idx == -1)
			continue;
		for (u32 j = 0; j < obj->map_cnt && !err; j++) {
			struct nb_object_map *outer = &obj->maps[j];

			if (outer->origin == NB_MAP_LEGACY && is_map_in_map(outer->type) &&
			    outer->inner_id == inner->id)
				err = set_slot(obj, outer, inner->inner_idx,
					       nb_map_id(inner->map), inner->name);
		}
	}
	return err;
}

/* The load options' map sizes, each by name, before any map exists. */
static int apply_map_sizes(struct nb_object *obj, const struct nb_object_load_opts *opts)
{
	const struct nb_object_map_size *sizes = NB_OPTS_GET(opts, map_sizes, NULL);
	unsigned int cnt = NB_OPTS_GET(opts, map_size_cnt, 0);

	for (unsigned int i = 0; sizes && i < cnt; i++) {
		struct nb_object_map *m = nb_object_find_map(obj, sizes[i].name);
		int err;

		if (!m || m->origin == NB_MAP_DATA) {
			nb_obj_err(obj, "max_entries %s=%u: the object has no map %s",
				   sizes[i].name, sizes[i].max_entries, sizes[i].name);
			return -ENOENT;
		}
		err = nb_object_map_set_max_entries(m, sizes[i].max_entries);
		if (err) {
			nb_obj_err(obj, "max_entries %s=%u: %s", sizes[i].name,
				   sizes[i].max_entries, nb_map_type_unsized(m->type) ?
				   "a local-storage map keeps max_entries 0 (the kernel sizes it)" :
				   "a map needs at least one entry");
			return err;
		}
	}
	return 0;
}

int nb_object_load(struct nb_object *obj, const struct nb_object_load_opts *opts)
{
	int err = NB_OPTS_CHECK(opts, nb_object_load_opts, sz, NB_OPTS_GET(opts, log, NULL));

	if (err)
		return err;
	obj->log = NB_OPTS_GET(opts, log, NULL);
	if (obj->loaded) {
		nb_obj_err(obj, "already loaded");
		obj->log = NULL;
		return -EBUSY;
	}
	err = apply_map_sizes(obj, opts);
	if (!err)
		err = load_maps(obj);
	if (!err && !NB_OPTS_GET(opts, maps_only, false))
		err = load_progs(obj, opts);
	if (!err)
		err = fill_slots(obj);
	if (!err)
		err = replace_pins(obj);
	if (err) {
		if (err == -ENOMEM)
			nb_obj_err(obj, "out of memory");
		unload(obj);
	} else {
		obj->loaded = true;
	}
	obj->log = NULL;
	return err;
}

/* Accessors */

const char *nb_object_name(const struct nb_object *obj)
{
	return obj->name;
}

const char *nb_object_license(const struct nb_object *obj)
{
	return obj->license;
}

bool nb_object_loaded(const struct nb_object *obj)
{
	return obj->loaded;
}

struct nb_object_prog *nb_object_next_prog(const struct nb_object *obj,
					   const struct nb_object_prog *prev)
{
	u32 next = prev ? (u32)(prev - obj->progs) + 1 : 0;

	return next < obj->prog_cnt ? &obj->progs[next] : NULL;
}

struct nb_object_prog *nb_object_find_prog(const struct nb_object *obj, const char *section,
					   const char *name)
{
	for (u32 i = 0; i < obj->prog_cnt; i++) {
		const struct nb_object_prog *p = &obj->progs[i];

		if ((!section || !strcmp(section, p->sec_name)) &&
		    (!name || !strcmp(name, p->name)))
			return (struct nb_object_prog *)p;
	}
	return NULL;
}

const char *nb_object_prog_name(const struct nb_object_prog *prog)
{
	return prog->name;
}

const char *nb_object_prog_section(const struct nb_object_prog *prog)
{
	return prog->sec_name;
}

enum bpf_prog_type nb_object_prog_type(const struct nb_object_prog *prog)
{
	return prog->type;
}

int nb_object_prog_set_type(struct nb_object_prog *prog, enum bpf_prog_type type)
{
	if (prog->obj->loaded)
		return -EBUSY;
	prog->type = type;
	return 0;
}

enum bpf_attach_type nb_object_prog_expected_attach_type(const struct nb_object_prog *prog)
{
	return prog->attach_type;
}

bool nb_object_prog_autoload(const struct nb_object_prog *prog)
{
	return prog->autoload;
}

void nb_object_prog_set_autoload(struct nb_object_prog *prog, bool autoload)
{
	prog->autoload = autoload;
}

bool nb_object_prog_tail_call_target(const struct nb_object_prog *prog)
{
	const struct nb_object *obj = prog->obj;
	int idx = (int)(prog - obj->progs);

	if (prog->tail_call_sec)
		return true;
	for (u32 i = 0; i < obj->map_cnt; i++) {
		const struct nb_object_map *m = &obj->maps[i];

		if (!m->values_are_progs)
			continue;
		for (u32 j = 0; j < m->init_cnt; j++)
			if (m->inits[j].target == idx)
				return true;
	}
	return false;
}

const struct bpf_insn *nb_object_prog_insns(const struct nb_object_prog *prog, unsigned int *cnt)
{
	*cnt = prog->insn_cnt;
	return prog->insns;
}

struct nb_prog *nb_object_prog_prog(const struct nb_object_prog *prog)
{
	return prog->prog;
}

struct nb_object_map *nb_object_next_map(const struct nb_object *obj,
					 const struct nb_object_map *prev)
{
	u32 next = prev ? (u32)(prev - obj->maps) + 1 : 0;

	return next < obj->map_cnt ? &obj->maps[next] : NULL;
}

struct nb_object_map *nb_object_find_map(const struct nb_object *obj, const char *name)
{
	for (u32 i = 0; i < obj->map_cnt; i++)
		if (!strcmp(obj->maps[i].name, name))
			return &obj->maps[i];
	return NULL;
}

unsigned int nb_object_map_cnt(const struct nb_object *obj)
{
	return obj->map_cnt;
}

const char *nb_object_map_name(const struct nb_object_map *map)
{
	return map->name;
}

enum bpf_map_type nb_object_map_type(const struct nb_object_map *map)
{
	return map->type;
}

__u32 nb_object_map_key_size(const struct nb_object_map *map)
{
	return map->key_size;
}

__u32 nb_object_map_value_size(const struct nb_object_map *map)
{
	return map->value_size;
}

__u32 nb_object_map_max_entries(const struct nb_object_map *map)
{
	return map->max_entries;
}

__u32 nb_object_map_flags(const struct nb_object_map *map)
{
	return map->map_flags;
}

int nb_object_map_set_max_entries(struct nb_object_map *map, __u32 max_entries)
{
	if (map->obj->loaded)
		return -EBUSY;
	if (!max_entries || nb_map_type_unsized(map->type))
		return -EINVAL;
	map->max_entries = max_entries;
	return 0;
}

const struct nb_object_map *nb_object_map_inner(const struct nb_object_map *map)
{
	if (map->origin == NB_MAP_LEGACY && is_map_in_map(map->type))
		return legacy_template(map->obj, map);
	return map->inner;
}

const char *nb_object_map_pin_path(const struct nb_object_map *map)
{
	return map->pin_path;
}

struct nb_map *nb_object_map_map(const struct nb_object_map *map)
{
	return map->map;
}
