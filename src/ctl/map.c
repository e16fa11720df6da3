// SPDX-License-Identifier: GPL-2.0
/*
 * The map words on the maps of this datapath, in bpftool's words and output (bpftool map):
 *
 *   map { show | list } [MAP]
 *   map dump MAP
 *   map lookup MAP key [hex] BYTES
 *   map getnext MAP [key [hex] BYTES]
 *   map update MAP key [hex] BYTES value [hex] BYTES [any | noexist | exist]
 *   map update MAP file FILE [any | noexist | exist]     (one batch update, lines of
 *                                                         "key ... value ...")
 *   map delete MAP key [hex] BYTES
 *   MAP := { id ID | name NAME | pinned PATH }
 *
 * PATH is the pin registry's (tc/globals/NAME, where iproute2's objects pin), with or without
 * bpffs's /sys/fs/bpf/ before it. BYTES are decimal or 0x-prefixed, or hex after the word hex.
 * Per-CPU maps take and show one value per worker. Scripts use the same words, so a script can
 * fill a devmap after it attached the program that redirects through it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/percpu.h>

#include "ctl/args.h"
#include "ctl/btf_dump.h"
#include "ctl/ctl.h"
#include "common/types.h"
#include "ctl/json.h"
#include "ctl/map.h"
#include "ctl/map_file.h"

#define BPFFS "/sys/fs/bpf/"

enum map_verb { MAP_SHOW, MAP_DUMP, MAP_LOOKUP, MAP_GETNEXT, MAP_UPDATE, MAP_DELETE };

struct map_args {
	const char *how;		/* "id", "name" or "pinned" */
	const char *what;		/* its argument */
	unsigned char *key, *value;
	size_t key_len, value_len;
	const char *file;		/* update ... file FILE */
	__u64 flags;
};

static bool is_percpu(const struct nb_map *map)
{
	enum bpf_map_type t = nb_map_type(map);

	return t == BPF_MAP_TYPE_PERCPU_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH || t == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

static const char *type_name(const struct nb_map *map)
{
	const char *s = libbpf_bpf_map_type_str(nb_map_type(map));

	return s ? s : "unknown";
}

static bool is_keyword(const char *w)
{
	static const char *const words[] = { "id", "name", "pinned", "key", "value", "file",
					     "any", "noexist", "exist" };

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
}

/* BYTES after key or value, up to the next keyword. */
static int parse_bytes(struct nb_ctl *ctl, int argc, char **argv, int *i, unsigned char **buf,
		       size_t *len)
{
	const char *what = argv[*i];
	int base = 0, start;

	if (*i + 1 < argc && !strcmp(argv[*i + 1], "hex")) {
		base = 16;
		(*i)++;
	}
	start = *i + 1;
	while (*i + 1 < argc && !is_keyword(argv[*i + 1]))
		(*i)++;
	if (*i + 1 == start)
		return nb_ctl_usage(ctl, "\"%s\" needs bytes", what);
	free(*buf);
	*len = *i + 1 - start;
	*buf = malloc(*len);
	if (!*buf)
		return -ENOMEM;
	for (int k = start; k <= *i; k++) {
		char *end;
		unsigned long v = strtoul(argv[k], &end, base);

		if (!argv[k][0] || *end || v > 0xff || argv[k][0] == '-')
			return nb_ctl_wrong(ctl, argv[k], "a %s byte is 0..255%s", what,
					    base == 16 ? " in hex" : "");
		(*buf)[k - start] = (unsigned char)v;
	}
	return 0;
}

static int parse_args(struct nb_ctl *ctl, int argc, char **argv, struct map_args *a)
{
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		int err = 0;

		if (!strcmp(w, "id") || !strcmp(w, "name") || !strcmp(w, "pinned")) {
			if (a->how)
				return nb_ctl_wrong(ctl, w, "the map is named already");
			a->how = w;
			a->what = nb_ctl_next(ctl, argc, argv, &i);
			if (!a->what)
				return -EINVAL;
		} else if (!strcmp(w, "key")) {
			err = parse_bytes(ctl, argc, argv, &i, &a->key, &a->key_len);
		} else if (!strcmp(w, "value")) {
			err = parse_bytes(ctl, argc, argv, &i, &a->value, &a->value_len);
		} else if (!strcmp(w, "file")) {
			a->file = nb_ctl_next(ctl, argc, argv, &i);
			if (!a->file)
				return -EINVAL;
		} else if (!strcmp(w, "any")) {
			a->flags = BPF_ANY;
		} else if (!strcmp(w, "noexist")) {
			a->flags = BPF_NOEXIST;
		} else if (!strcmp(w, "exist")) {
			a->flags = BPF_EXIST;
		} else {
			return nb_ctl_wrong(ctl, w, "expected id, name, pinned, key, value, file, "
					    "any, noexist or exist");
		}
		if (err)
			return err;
	}
	return 0;
}

/*
 * Whether NAME names MAP. Names are kept to 15 characters, as the kernel's: a longer one matches
 * them. Global data also answers to its section's name, as libbpf finds it: .data for
 * btfcmp.data (the object's name, without a dot, then the section).
 */
static bool map_named(const struct nb_map *map, const char *name)
{
	const char *have = nb_map_name(map);
	size_t len = strlen(have), want = strlen(name);

	if (!strncmp(have, name, BPF_OBJ_NAME_LEN - 1) &&
	    (want >= BPF_OBJ_NAME_LEN - 1 || !strcmp(have, name)))
		return true;
	return name[0] == '.' && want < len && strchr(have, '.') == have + len - want &&
	       !strcmp(have + len - want, name);
}

/* The map MAP names, a new reference; NULL with the error set. */
static struct nb_map *find_map(struct nb_ctl *ctl, const struct map_args *a)
{
	struct nb_map *map = NULL, *found = NULL;
	unsigned int id;
	__u32 next = 0;

	if (!strcmp(a->how, "id")) {
		if (!nb_ctl_parse_u32(a->what, &id, 0)) {
			nb_ctl_wrong(ctl, a->what, "a map id is a number");
			return NULL;
		}
		map = nb_map_get_by_id(id);
		if (!map)
			nb_ctl_fail(ctl, -ENOENT, "no map with id %u", id);
		return map;
	}
	if (!strcmp(a->how, "pinned")) {
		const char *path = a->what;

		if (!strncmp(path, BPFFS, strlen(BPFFS)))
			path += strlen(BPFFS);
		map = nb_pin_get_map(path);
		if (!map)
			nb_ctl_fail(ctl, -ENOENT, "no map is pinned at %s", a->what);
		return map;
	}
	/* by name: exactly one map may have it, as bpftool insists */
	while (!nb_map_get_next_id(next, &next)) {
		map = nb_map_get_by_id(next);
		if (!map || !map_named(map, a->what)) {
			nb_map_put(map);
			continue;
		}
		if (found) {
			nb_map_put(map);
			nb_map_put(found);
			nb_ctl_fail(ctl, -EINVAL, "several maps are named %s: name one by id",
				    a->what);
			return NULL;
		}
		found = map;
	}
	if (!found)
		nb_ctl_fail(ctl, -ENOENT, "no map named %s", a->what);
	return found;
}

static void print_hex(FILE *out, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%02x", i ? " " : "", p[i]);
}

/*
 * An element of a map with BTF in its typed form, as bpftool prints it (under "formatted" in
 * JSON, plain as text): "key" (when the key has a type), then "value", or "values" of each
 * worker.
 */
static void print_elem_btf(struct nb_json *j, const char *name, const struct nb_map *map,
			   const void *key, const void *value, bool plain)
{
	size_t slot = (nb_map_value_size(map) + 7) & ~(size_t)7;
	__u32 key_id, value_id;
	const struct btf *btf = nb_map_btf(map, &key_id, &value_id);

	if (!btf)
		return;
	nb_json_start_object(j, name);
	if (key_id && nb_ctl_btf_dump(j, "key", btf, key_id, key, plain))
		goto out;
	if (!is_percpu(map)) {
		nb_ctl_btf_dump(j, "value", btf, value_id, value, plain);
		goto out;
	}
	nb_json_start_array(j, "values");
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++) {
		int err;

		nb_json_start_object(j, NULL);
		nb_json_int(j, "cpu", cpu);
		err = nb_ctl_btf_dump(j, "value", btf, value_id,
				      (const unsigned char *)value + cpu * slot, plain);
		nb_json_end_object(j);
		if (err)
			break;
	}
	nb_json_end_array(j);
out:
	nb_json_end_object(j);
}

/* One element as bpftool prints it: "key: .. value: ..", per-CPU maps a value per worker. */
void nb_ctl_map_print_elem(FILE *out, struct nb_json *j, const struct nb_map *map,
			   const void *key, const void *value)
{
	size_t vs = nb_map_value_size(map), slot = (vs + 7) & ~(size_t)7;
	const unsigned char *v = value;

	if (j) {
		nb_json_start_object(j, NULL);
		nb_json_hex_bytes(j, "key", key, nb_map_key_size(map));
		if (!is_percpu(map)) {
			nb_json_hex_bytes(j, "value", value, vs);
		} else {
			nb_json_start_array(j, "values");
			for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++) {
				nb_json_start_object(j, NULL);
				nb_json_uint(j, "cpu", cpu);
				nb_json_hex_bytes(j, "value", v + cpu * slot, vs);
				nb_json_end_object(j);
			}
			nb_json_end_array(j);
		}
		print_elem_btf(j, "formatted", map, key, value, false);
		nb_json_end_object(j);
		return;
	}
	if (!is_percpu(map)) {
		fprintf(out, "key: ");
		print_hex(out, key, nb_map_key_size(map));
		fprintf(out, "  value: ");
		print_hex(out, value, vs);
		fputc('\n', out);
		return;
	}
	fprintf(out, "key:\n");
	print_hex(out, key, nb_map_key_size(map));
	fputc('\n', out);
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++) {
		fprintf(out, "value (CPU %02u): ", cpu);
		print_hex(out, v + cpu * slot, vs);
		fputc('\n', out);
	}
}

void nb_ctl_map_print_lookup(FILE *out, struct nb_json *j, const struct nb_map *map,
			     const void *key, const void *value)
{
	__u32 key_id, value_id;
	struct nb_json *t;

	if (!j && nb_map_btf(map, &key_id, &value_id)) {
		t = nb_json_new_bpftool_text(out);
		if (t) {
			print_elem_btf(t, NULL, map, key, value, true);
			nb_json_free(t);
			return;
		}
	}
	nb_ctl_map_print_elem(out, j, map, key, value);
}

struct nb_json *nb_ctl_map_typed_begin(FILE *out, struct nb_json *j, const struct nb_map *map)
{
	__u32 key_id, value_id;
	struct nb_json *t;

	if (j || !nb_map_btf(map, &key_id, &value_id))
		return NULL;
	t = nb_json_new_bpftool_text(out);
	if (t)
		nb_json_start_array(t, NULL);
	return t;
}

void nb_ctl_map_typed_elem(struct nb_json *t, const struct nb_map *map, const void *key,
			   const void *value)
{
	print_elem_btf(t, NULL, map, key, value, true);
}

void nb_ctl_map_typed_end(struct nb_json *t)
{
	if (!t)
		return;
	nb_json_end_array(t);
	nb_json_free(t);
}

/*
 * Maps of slots that may be empty (devices, programs, maps, sockets by index): bpftool walks
 * every key get_next_key gives and says which slots have no entry.
 */
static bool has_empty_slots(const struct nb_map *map)
{
	switch (nb_map_type(map)) {
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY:
		return true;
	default:
		return false;
	}
}

/* A key whose lookup failed, as bpftool prints it: "<no entry>" for an empty slot. */
static void print_elem_error(FILE *out, struct nb_json *j, const struct nb_map *map,
			     const void *key, int err)
{
	if (j) {
		nb_json_start_object(j, NULL);
		nb_json_hex_bytes(j, "key", key, nb_map_key_size(map));
		nb_json_start_object(j, "value");
		nb_json_string(j, "error", strerror(-err));
		nb_json_end_object(j);
		nb_json_end_object(j);
		return;
	}
	fprintf(out, "key: ");
	print_hex(out, key, nb_map_key_size(map));
	fprintf(out, "  value: %s\n", err == -ENOENT ? "<no entry>" : strerror(-err));
}

/* The walk of has_empty_slots' maps: key by key, the failed lookups said. */
static int dump_slots(struct nb_ctl *ctl, struct nb_json *j, struct nb_map *map,
		      unsigned char *key, unsigned char *next, unsigned char *value, unsigned int *n)
{
	int err = nb_map_get_next_key(map, NULL, next);

	while (!err) {
		int lerr;

		memcpy(key, next, nb_map_key_size(map));
		lerr = nb_map_lookup_elem(map, key, value);
		if (lerr) {
			print_elem_error(ctl->out, j, map, key, lerr);
		} else {
			nb_ctl_map_print_elem(ctl->out, j, map, key, value);
			(*n)++;
		}
		err = nb_map_get_next_key(map, key, next);
	}
	return err == -ENOENT ? 0 : err;
}

/*
 * The elements, in get_next_key's order through the batch lookup, into j's array name (NULL:
 * a document of its own) or as text: lines of bytes, or into the typed form's document t
 * (nb_ctl_map_typed_begin); *n counts them. -EINVAL or -EOPNOTSUPP: the map has no keys to walk
 * (queue, stack, ring buffer).
 */
static int dump_elems(struct nb_ctl *ctl, struct nb_json *j, const char *name, struct nb_map *map,
		      struct nb_json *t, unsigned int *n)
{
	size_t ks = nb_map_key_size(map), vs = nb_map_user_value_size(map);
	const __u32 batch_max = 256;
	unsigned char *keys = malloc((size_t)batch_max * (ks ? ks : 1));
	unsigned char *values = malloc((size_t)batch_max * (vs ? vs : 1));
	unsigned char *batch = calloc(1, ks + 1);
	bool first = true;
	__u32 count;
	int err;

	*n = 0;
	if (!keys || !values || !batch) {
		err = -ENOMEM;
		goto out;
	}
	if (has_empty_slots(map)) {
		if (j)
			nb_json_start_array(j, name);
		err = dump_slots(ctl, j, map, keys, batch, values, n);
		if (j)
			nb_json_end_array(j);
		goto out;
	}
	count = batch_max;
	err = nb_map_lookup_batch(map, NULL, batch, keys, values, &count);
	if (err == -EINVAL || err == -EOPNOTSUPP)
		goto out;
	if (j)
		nb_json_start_array(j, name);
	for (;;) {
		if (!first) {
			count = batch_max;
			err = nb_map_lookup_batch(map, batch, batch, keys, values, &count);
		}
		first = false;
		for (__u32 i = 0; i < count; i++) {
			if (t)
				nb_ctl_map_typed_elem(t, map, keys + i * ks, values + i * vs);
			else
				nb_ctl_map_print_elem(ctl->out, j, map, keys + i * ks,
						      values + i * vs);
		}
		*n += count;
		if (err)
			break;
	}
	if (j)
		nb_json_end_array(j);
	if (err == -ENOENT)
		err = 0;
out:
	free(keys);
	free(values);
	free(batch);
	return err;
}

int nb_ctl_map_dump(struct nb_ctl *ctl, struct nb_json *j, struct nb_map *map)
{
	struct nb_json *t = nb_ctl_map_typed_begin(ctl->out, j, map);
	unsigned int n;
	int err = dump_elems(ctl, j, NULL, map, t, &n);

	/* bpftool's typed form has no count after it */
	nb_ctl_map_typed_end(t);
	if (!err && !j && !t)
		fprintf(ctl->out, "Found %u element%s\n", n, n == 1 ? "" : "s");
	else if (err == -EOPNOTSUPP || err == -EINVAL)
		nb_ctl_fail(ctl, err, "map %s: a %s map has no keys to dump", nb_map_name(map),
			    type_name(map));
	else if (err)
		nb_ctl_fail(ctl, err, "map %s: dump failed: %s", nb_map_name(map), strerror(-err));
	return err;
}

static int check_len(struct nb_ctl *ctl, const struct nb_map *map, const char *what, size_t len,
		     size_t want)
{
	if (len == want)
		return 0;
	ctl->usage = true;
	return nb_ctl_fail(ctl, -EINVAL, "map %s: %s has %zu bytes, the map's %s size is %zu",
			   nb_map_name(map), what, len, what, want);
}

/* The JSON writer of one command's output, made once there is output (-j), else NULL. */
static struct nb_json *json_doc(struct nb_ctl *ctl)
{
	return ctl->json ? nb_json_new(ctl->out, ctl->pretty) : NULL;
}

static int map_lookup(struct nb_ctl *ctl, struct nb_map *map, const struct map_args *a)
{
	struct nb_json *j;
	unsigned char *value = calloc(1, nb_map_user_value_size(map) + 1);
	int err;

	if (!value)
		return -ENOMEM;
	err = nb_map_lookup_elem(map, a->key, value);
	if (!err) {
		j = json_doc(ctl);
		nb_ctl_map_print_lookup(ctl->out, j, map, a->key, value);
		nb_json_free(j);
	} else if (err == -ENOENT)
		nb_ctl_fail(ctl, err, "map %s: key not found", nb_map_name(map));
	else
		nb_ctl_fail(ctl, err, "map %s: lookup failed: %s", nb_map_name(map),
			    strerror(-err));
	free(value);
	return err;
}

static int map_getnext(struct nb_ctl *ctl, struct nb_map *map, const struct map_args *a)
{
	size_t ks = nb_map_key_size(map);
	struct nb_json *j = NULL;
	unsigned char *next = calloc(1, ks + 1);
	int err;

	if (!next)
		return -ENOMEM;
	err = nb_map_get_next_key(map, a->key, next);
	if (err) {
		if (err == -ENOENT)
			nb_ctl_fail(ctl, err, "map %s: %s", nb_map_name(map), a->key ?
				    "the key is the last one" : "the map is empty");
		else
			nb_ctl_fail(ctl, err, "map %s: getnext failed: %s", nb_map_name(map),
				    strerror(-err));
	} else if (ctl->json) {
		j = json_doc(ctl);
		nb_json_start_object(j, NULL);
		if (a->key)
			nb_json_hex_bytes(j, "key", a->key, ks);
		else
			nb_json_null(j, "key");
		nb_json_hex_bytes(j, "next_key", next, ks);
		nb_json_end_object(j);
		nb_json_free(j);
	} else {
		fprintf(ctl->out, "key:\n");
		if (a->key)
			print_hex(ctl->out, a->key, ks);
		else
			fprintf(ctl->out, "None");
		fprintf(ctl->out, "\nnext key:\n");
		print_hex(ctl->out, next, ks);
		fputc('\n', ctl->out);
	}
	free(next);
	return err;
}

/* map update MAP file FILE: every line checked first, then one batch update. */
static int map_update_file(struct nb_ctl *ctl, struct nb_map *map, const struct map_args *a)
{
	size_t ks = nb_map_key_size(map), vs = nb_map_user_value_size(map);
	struct nb_map_file mf = { 0 };
	unsigned char *keys = NULL, *values = NULL;
	char path[4096], arg[4200];
	__u32 count;
	int err;

	snprintf(arg, sizeof(arg), "map=%s", nb_ctl_obj_path(ctl, a->file, path, sizeof(path)));
	err = nb_map_file_read(arg, &mf, &ctl->log);
	if (err)
		return err;
	for (size_t i = 0; i < mf.cnt && !err; i++) {
		if (mf.elems[i].key_len != ks)
			err = check_len(ctl, map, "key", mf.elems[i].key_len, ks);
		else if (mf.elems[i].value_len != vs)
			err = check_len(ctl, map, "value", mf.elems[i].value_len, vs);
		if (err)
			nb_log_printf(&ctl->log, "%s: element %zu\n", a->file, i + 1);
	}
	if (!err && mf.cnt) {
		keys = malloc(mf.cnt * ks);
		values = malloc(mf.cnt * vs);
		if (!keys || !values)
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < mf.cnt; i++) {
		memcpy(keys + i * ks, mf.elems[i].key, ks);
		memcpy(values + i * vs, mf.elems[i].value, vs);
	}
	count = (__u32)mf.cnt;
	if (!err && count) {
		err = nb_map_update_batch(map, keys, values, &count, a->flags);
		if (err)
			nb_ctl_fail(ctl, err, "map %s: batch update failed at element %u of "
				    "%zu: %s", nb_map_name(map), count + 1, mf.cnt, strerror(-err));
	}
	free(keys);
	free(values);
	nb_map_file_free(&mf);
	return err;
}

static int map_change(struct nb_ctl *ctl, enum map_verb verb, struct nb_map *map,
		      const struct map_args *a)
{
	int err;

	if (verb == MAP_UPDATE && a->file)
		return map_update_file(ctl, map, a);
	if (verb == MAP_UPDATE) {
		size_t vs = nb_map_value_size(map), slot = (vs + 7) & ~(size_t)7;
		unsigned char *every = NULL;

		if (!a->value)
			return nb_ctl_usage(ctl, "map %s: \"value\" is needed", nb_map_name(map));
		/* one value for a per-CPU map is every worker's, as bpftool takes it */
		if (is_percpu(map) && a->value_len == vs && nb_nr_cpus() > 1) {
			every = calloc(nb_nr_cpus(), slot);
			if (!every)
				return nb_ctl_fail(ctl, -ENOMEM, "map %s: out of memory",
						   nb_map_name(map));
			for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++)
				memcpy(every + cpu * slot, a->value, vs);
		} else {
			err = check_len(ctl, map, "value", a->value_len,
					nb_map_user_value_size(map));
			if (err)
				return err;
		}
		err = nb_map_update_elem(map, a->key, every ? every : a->value, a->flags);
		free(every);
	} else {
		err = nb_map_delete_elem(map, a->key);
	}
	if (err == -ENOENT)
		return nb_ctl_fail(ctl, err, "map %s: key not found", nb_map_name(map));
	if (err == -EEXIST)
		return nb_ctl_fail(ctl, err, "map %s: the key exists (noexist)",
				   nb_map_name(map));
	if (err)
		return nb_ctl_fail(ctl, err, "map %s: %s failed: %s", nb_map_name(map),
				   verb == MAP_UPDATE ? "update" : "delete", strerror(-err));
	if (ctl->json)
		fprintf(ctl->out, "null\n");
	return 0;
}

/*
 * A program array's owner, as bpftool shows it: bpftool reads the kernel's owner_prog_type and
 * owner_jited for program arrays only, though the kernel gives devmaps and cpumaps theirs too.
 * false when the map is no program array, has no owner yet, or has one of a type libbpf
 * cannot name (none that netbpf loads).
 */
static bool shown_owner(const struct nb_map *map, const char **type, bool *jited)
{
	enum bpf_prog_type prog_type;

	if (nb_map_type(map) != BPF_MAP_TYPE_PROG_ARRAY || nb_map_owner(map, &prog_type, jited))
		return false;
	*type = libbpf_bpf_prog_type_str(prog_type);
	return *type != NULL;
}

/* A map as bpftool's map show prints it. */
static void print_map(struct nb_ctl *ctl, struct nb_json *j, const struct nb_map *map)
{
	char pin[512];
	bool pinned = !nb_pin_get_path(map, pin, sizeof(pin));
	__u32 btf_id = nb_map_btf_id(map);
	bool frozen = nb_map_frozen(map);
	const char *owner_type;
	bool owner_jited;
	bool owned = shown_owner(map, &owner_type, &owner_jited);

	if (j) {
		nb_json_start_object(j, NULL);
		nb_json_uint(j, "id", nb_map_id(map));
		nb_json_string(j, "type", type_name(map));
		nb_json_string(j, "name", nb_map_name(map));
		nb_json_uint(j, "flags", nb_map_flags(map));
		nb_json_uint(j, "bytes_key", nb_map_key_size(map));
		nb_json_uint(j, "bytes_value", nb_map_value_size(map));
		nb_json_uint(j, "max_entries", nb_map_max_entries(map));
		nb_json_uint(j, "bytes_memlock", nb_map_memlock(map));
		if (owned) {
			nb_json_string(j, "owner_prog_type", owner_type);
			nb_json_bool(j, "owner_jited", owner_jited);
		}
		nb_json_uint(j, "frozen", nb_map_frozen(map));
		if (btf_id)
			nb_json_uint(j, "btf_id", btf_id);
		if (pinned) {
			nb_json_start_array(j, "pinned");
			nb_json_printf(j, NULL, BPFFS "%s", pin);
			nb_json_end_array(j);
		}
		nb_json_end_object(j);
		return;
	}
	fprintf(ctl->out, "%u: %s  name %s  flags 0x%x\n", nb_map_id(map), type_name(map),
		nb_map_name(map), nb_map_flags(map));
	fprintf(ctl->out, "\tkey %uB  value %uB  max_entries %u  memlock %lluB\n",
		nb_map_key_size(map), nb_map_value_size(map), nb_map_max_entries(map),
		(unsigned long long)nb_map_memlock(map));
	if (owned)
		fprintf(ctl->out, "\towner_prog_type %s  owner%s jited\n", owner_type,
			owner_jited ? "" : " not");
	if (pinned)
		fprintf(ctl->out, "\tpinned " BPFFS "%s\n", pin);
	/* bpftool's last line */
	if (btf_id)
		fprintf(ctl->out, "\tbtf_id %u%s\n", btf_id, frozen ? "  frozen" : "");
	else if (frozen)
		fprintf(ctl->out, "\tfrozen\n");
}

static int map_show(struct nb_ctl *ctl, const struct map_args *a)
{
	struct nb_json *j;
	__u32 id = 0;

	if (a->how) {
		struct nb_map *map = find_map(ctl, a);

		if (!map)
			return -ENOENT;
		j = json_doc(ctl);
		print_map(ctl, j, map);
		nb_json_free(j);
		nb_map_put(map);
		return 0;
	}
	j = json_doc(ctl);
	if (j)
		nb_json_start_array(j, NULL);
	while (!nb_map_get_next_id(id, &id)) {
		struct nb_map *map = nb_map_get_by_id(id);

		if (!map)
			continue;
		print_map(ctl, j, map);
		nb_map_put(map);
	}
	if (j)
		nb_json_end_array(j);
	nb_json_free(j);
	return 0;
}

int nb_ctl_map(struct nb_ctl *ctl, int argc, char **argv)
{
	static const char *const verbs[] = { "show", "dump", "lookup", "getnext", "update",
					     "delete" };
	struct map_args a = { 0 };
	struct nb_map *map = NULL;
	int verb = -1, err;

	if (argc < 1)
		return nb_ctl_usage(ctl, "map { show | list | dump | lookup | getnext | update | "
				    "delete } MAP ...; MAP := { id ID | name NAME | pinned PATH }");
	for (int v = 0; v < (int)ARRAY_SIZE(verbs) && verb < 0; v++)
		if (nb_matches(argv[0], verbs[v]))
			verb = v;
	if (verb < 0 && nb_matches(argv[0], "list"))
		verb = MAP_SHOW;
	if (verb < 0)
		return nb_ctl_wrong(ctl, argv[0], "expected show, list, dump, lookup, getnext, "
				    "update or delete");
	err = parse_args(ctl, argc - 1, argv + 1, &a);
	if (err)
		goto out;
	if (verb == MAP_SHOW) {
		err = map_show(ctl, &a);
		goto out;
	}
	if (!a.how) {
		err = nb_ctl_usage(ctl, "map %s: which map? give id ID, name NAME or pinned PATH",
				   verbs[verb]);
		goto out;
	}
	map = find_map(ctl, &a);
	if (!map) {
		err = -ENOENT;
		goto out;
	}
	if (verb == MAP_DUMP) {
		struct nb_json *j = json_doc(ctl);

		err = nb_ctl_map_dump(ctl, j, map);
		nb_json_free(j);
		goto out;
	}
	if (verb != MAP_GETNEXT && !a.file && !a.key && nb_map_key_size(map)) {
		err = nb_ctl_usage(ctl, "map %s: \"key\" is needed", nb_map_name(map));
		goto out;
	}
	if (a.key) {
		err = check_len(ctl, map, "key", a.key_len, nb_map_key_size(map));
		if (err)
			goto out;
	}
	if (verb == MAP_LOOKUP)
		err = map_lookup(ctl, map, &a);
	else if (verb == MAP_GETNEXT)
		err = map_getnext(ctl, map, &a);
	else
		err = map_change(ctl, verb, map, &a);
out:
	nb_map_put(map);
	free(a.key);
	free(a.value);
	return err;
}

void nb_ctl_maps_print(struct nb_ctl *ctl, struct nb_json *j)
{
	__u32 id = 0;

	if (j)
		nb_json_start_array(j, "maps");
	while (!nb_map_get_next_id(id, &id)) {
		struct nb_map *map = nb_map_get_by_id(id);
		unsigned int n;
		int err;

		if (!map)
			continue;
		if (j) {
			nb_json_start_object(j, NULL);
			nb_json_uint(j, "id", id);
			nb_json_string(j, "name", nb_map_name(map));
			nb_json_string(j, "type", type_name(map));
		} else {
			fprintf(ctl->out, "\nmap %u: %s  name %s\n", id, type_name(map),
				nb_map_name(map));
		}
		err = dump_elems(ctl, j, "elements", map, NULL, &n);
		if (!j && !err)
			fprintf(ctl->out, "Found %u element%s\n", n, n == 1 ? "" : "s");
		else if (!j)
			fprintf(ctl->out, "(%s)\n", err == -EINVAL || err == -EOPNOTSUPP ?
				"no keys to dump" : strerror(-err));
		if (j)
			nb_json_end_object(j);
		nb_map_put(map);
	}
	if (j)
		nb_json_end_array(j);
}
