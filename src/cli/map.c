// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf map: maps in bpftool's words. With MAP first (id, name or pinned, see src/ctl/map.c)
 * they are the datapath's maps: a daemon's, or this process's (none) without one. With an
 * object file first they are the object's: loaded (maps created and filled with global data
 * and initial slots, no program) for the one command.
 *
 *   netbpf map show   OBJ [MAP]
 *   netbpf map dump   OBJ MAP
 *   netbpf map lookup OBJ MAP key [hex] BYTES
 *   netbpf map update OBJ MAP key [hex] BYTES value [hex] BYTES [any | noexist | exist]
 *   netbpf map delete OBJ MAP key [hex] BYTES
 *   MAP := { name NAME | id ID },  plus --set NAME=VALUE for .rodata variables and
 *   --max-entries MAP=N for maps the object leaves unsized
 *
 * Bytes are decimal or 0x-prefixed, or hex after the word hex, as bpftool reads them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <netbpf/map.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/json.h"
#include "ctl/map.h"

enum map_verb { MAP_SHOW, MAP_DUMP, MAP_LOOKUP, MAP_UPDATE, MAP_DELETE };

struct map_args {
	struct nb_cli_object o;
	const char *name;
	long long id;			/* -1: not given */
	unsigned char *key, *value;
	size_t key_len, value_len;
	__u64 flags;
};

static const char map_usage[] =
	"Usage: netbpf map { show | list } [MAP]          the datapath's maps (a daemon's)\n"
	"       netbpf map dump MAP\n"
	"       netbpf map lookup MAP key [hex] BYTES\n"
	"       netbpf map getnext MAP [key [hex] BYTES]\n"
	"       netbpf map update MAP key [hex] BYTES value [hex] BYTES [any | noexist | exist]\n"
	"       netbpf map update MAP file FILE [any | noexist | exist]\n"
	"       netbpf map delete MAP key [hex] BYTES\n"
	"       MAP := { id ID | name NAME | pinned PATH }\n"
	"       netbpf map show   OBJ [OMAP]                 an object file's maps, loaded here\n"
	"       netbpf map dump   OBJ OMAP\n"
	"       netbpf map lookup OBJ OMAP key [hex] BYTES\n"
	"       netbpf map update OBJ OMAP key [hex] BYTES value [hex] BYTES "
	"[any | noexist | exist]\n"
	"       netbpf map delete OBJ OMAP key [hex] BYTES\n"
	"       OMAP := { name NAME | id ID }; also --set NAME=VALUE, --max-entries MAP=N\n";

static bool is_keyword(const char *w)
{
	static const char *const words[] = { "name", "id", "key", "value", "any", "noexist",
					     "exist", "--set", "--max-entries" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
}

/* BYTES after key/value: up to the next keyword. */
static int parse_bytes(int argc, char **argv, int *i, const char *what, unsigned char **buf,
		       size_t *len)
{
	int base = 0, start;

	if (*i + 1 < argc && !strcmp(argv[*i + 1], "hex")) {
		base = 16;
		(*i)++;
	}
	start = *i + 1;
	while (*i + 1 < argc && !is_keyword(argv[*i + 1]))
		(*i)++;
	if (*i + 1 == start) {
		nb_cli_error("\"%s\" needs bytes", what);
		return -EINVAL;
	}
	free(*buf);
	*len = *i + 1 - start;
	*buf = malloc(*len);
	if (!*buf)
		return -ENOMEM;
	for (int k = start; k <= *i; k++) {
		char *end;
		unsigned long v = strtoul(argv[k], &end, base);

		if (!argv[k][0] || *end || v > 0xff) {
			nb_cli_error("%s byte \"%s\" is wrong: expected 0..255%s", what, argv[k],
				     base == 16 ? " in hex" : "");
			return -EINVAL;
		}
		(*buf)[k - start] = v;
	}
	return 0;
}

static int parse_map_args(int argc, char **argv, struct map_args *a)
{
	a->id = -1;
	if (argc < 1) {
		nb_cli_error("an object file is needed");
		return -EINVAL;
	}
	a->o.path = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		int err = 0;

		if (!strcmp(w, "name") || !strcmp(w, "id") || !strcmp(w, "--set") ||
		    !strcmp(w, "--max-entries")) {
			if (i + 1 >= argc) {
				nb_cli_error("\"%s\" needs an argument", w);
				return -EINVAL;
			}
			if (w[0] == 'n') {
				a->name = argv[++i];
			} else if (w[0] == 'i') {
				char *end;

				a->id = strtoll(argv[++i], &end, 0);
				if (*end || a->id < 0) {
					nb_cli_error("id \"%s\" is wrong", argv[i]);
					return -EINVAL;
				}
			} else if (w[2] == 's') {
				err = nb_cli_add_set(&a->o, argv[++i]);
			} else {
				err = nb_cli_add_max_entries(&a->o.sizes, argv[++i]);
			}
		} else if (!strcmp(w, "key")) {
			err = parse_bytes(argc, argv, &i, "key", &a->key, &a->key_len);
		} else if (!strcmp(w, "value")) {
			err = parse_bytes(argc, argv, &i, "value", &a->value, &a->value_len);
		} else if (!strcmp(w, "any")) {
			a->flags = BPF_ANY;
		} else if (!strcmp(w, "noexist")) {
			a->flags = BPF_NOEXIST;
		} else if (!strcmp(w, "exist")) {
			a->flags = BPF_EXIST;
		} else {
			nb_cli_error("argument \"%s\" is wrong", w);
			return -EINVAL;
		}
		if (err)
			return err;
	}
	return 0;
}

static struct nb_object_map *select_map(const struct map_args *a)
{
	struct nb_object_map *m;

	nb_object_for_each_map(m, a->o.obj) {
		if (a->name && !strcmp(nb_object_map_name(m), a->name))
			return m;
		if (a->id >= 0 && nb_map_id(nb_object_map_map(m)) == a->id)
			return m;
	}
	if (a->name)
		nb_cli_error("%s has no map named %s", a->o.path, a->name);
	else
		nb_cli_error("%s has no map with id %lld", a->o.path, a->id);
	return NULL;
}

/* Bytes one value takes in userspace: per-CPU maps hold one 8-byte-aligned slot per worker. */
static size_t user_value_size(struct nb_map *map)
{
	return nb_map_user_value_size(map);
}

static int map_dump(struct nb_object_map *m)
{
	struct nb_map *map = nb_object_map_map(m);
	size_t ks = nb_map_key_size(map);
	unsigned char *key = calloc(1, ks + 1), *next = calloc(1, ks + 1);
	unsigned char *value = calloc(1, user_value_size(map) + 1);
	struct nb_json *j = NULL, *t;
	unsigned int n = 0;
	int err, ret = NB_EXIT_OK;

	if (!key || !next || !value) {
		ret = NB_EXIT_ERR;
		goto out;
	}
	err = nb_map_get_next_key(map, NULL, next);
	if (err == -EOPNOTSUPP || err == -EINVAL) {
		nb_cli_error("map %s: a %s map has no keys to dump", nb_object_map_name(m),
			     libbpf_bpf_map_type_str(nb_map_type(map)));
		ret = NB_EXIT_ERR;
		goto out;
	}
	if (nb_cli.json) {
		j = nb_json_new(stdout, nb_cli.pretty);
		nb_json_start_array(j, NULL);
	}
	t = nb_ctl_map_typed_begin(stdout, j, map);
	for (; !err; err = nb_map_get_next_key(map, key, next)) {
		memcpy(key, next, ks);
		err = nb_map_lookup_elem(map, key, value);
		if (err == -ENOENT)
			continue; /* deleted under us */
		if (err)
			break;
		if (t)
			nb_ctl_map_typed_elem(t, map, key, value);
		else
			nb_ctl_map_print_elem(stdout, j, map, key, value);
		n++;
	}
	nb_ctl_map_typed_end(t);
	if (err && err != -ENOENT) {
		nb_cli_error("map %s: dump failed: %s", nb_object_map_name(m), strerror(-err));
		ret = NB_EXIT_ERR;
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_free(j);
	} else if (!ret && !t) {	/* bpftool's typed form has no count after it */
		printf("Found %u element%s\n", n, n == 1 ? "" : "s");
	}
out:
	free(key);
	free(next);
	free(value);
	return ret;
}

static int check_len(const struct nb_object_map *m, const char *what, size_t len, size_t want)
{
	if (len == want)
		return 0;
	nb_cli_error("map %s: %s has %zu bytes, the map's %s size is %zu", nb_object_map_name(m),
		     what, len, what, want);
	return -EINVAL;
}

static int map_elem(enum map_verb verb, struct map_args *a, struct nb_object_map *m)
{
	struct nb_map *map = nb_object_map_map(m);
	unsigned char *value = NULL;
	int err;

	if (!a->key && nb_map_key_size(map)) {
		nb_cli_error("map %s: \"key\" is needed", nb_object_map_name(m));
		return NB_EXIT_USAGE;
	}
	if (a->key && check_len(m, "key", a->key_len, nb_map_key_size(map)))
		return NB_EXIT_USAGE;
	switch (verb) {
	case MAP_LOOKUP:
		value = calloc(1, user_value_size(map) + 1);
		if (!value)
			return NB_EXIT_ERR;
		err = nb_map_lookup_elem(map, a->key, value);
		if (!err) {
			struct nb_json *j = nb_cli.json ? nb_json_new(stdout, nb_cli.pretty) : NULL;

			nb_ctl_map_print_lookup(stdout, j, map, a->key, value);
			nb_json_free(j);
		}
		free(value);
		break;
	case MAP_UPDATE:
		if (!a->value) {
			nb_cli_error("map %s: \"value\" is needed", nb_object_map_name(m));
			return NB_EXIT_USAGE;
		}
		if (check_len(m, "value", a->value_len, user_value_size(map)))
			return NB_EXIT_USAGE;
		err = nb_map_update_elem(map, a->key, a->value, a->flags);
		break;
	default:
		err = nb_map_delete_elem(map, a->key);
		break;
	}
	if (err == -ENOENT) {
		nb_cli_error("map %s: key not found", nb_object_map_name(m));
		return NB_EXIT_ERR;
	}
	if (err) {
		const char *absent = nb_map_absent_objects(map);

		/* The kernel's errno, and why netbpf cannot do better. */
		nb_cli_error("map %s: %s failed: %s%s%s%s", nb_object_map_name(m),
			     verb == MAP_LOOKUP ? "lookup" : verb == MAP_UPDATE ? "update" :
			     "delete", strerror(-err), absent ? ": netbpf has no " : "",
			     absent ? absent : "", absent ? ", so a map of them stays empty" : "");
		return NB_EXIT_ERR;
	}
	if (verb != MAP_LOOKUP && nb_cli.json)
		printf("null\n");
	return NB_EXIT_OK;
}

static int map_show(struct map_args *a)
{
	struct nb_object_map *m, *only = NULL;
	struct nb_json *j = NULL;

	if (a->name || a->id >= 0) {
		only = select_map(a);
		if (!only)
			return NB_EXIT_ERR;
	}
	if (nb_cli.json) {
		j = nb_json_new(stdout, nb_cli.pretty);
		if (!only)
			nb_json_start_array(j, NULL);
	}
	nb_object_for_each_map(m, a->o.obj) {
		if (only && m != only)
			continue;
		if (j)
			nb_cli_print_map_json(j, m);
		else
			nb_cli_print_map_text(m);
	}
	if (j) {
		if (!only)
			nb_json_end_array(j);
		nb_json_free(j);
	}
	return NB_EXIT_OK;
}

int cmd_map(int argc, char **argv)
{
	static const char *const verbs[] = { "show", "dump", "lookup", "update", "delete" };
	struct map_args a = { 0 };
	struct nb_object_map *m;
	int verb = -1, ret;

	if (argc < 1 || nb_cli_is_help(argv[0]))
		return nb_cli_usage(map_usage, argc >= 1);
	/* a live map (id, name, pinned), or all of them: the datapath's, as scripts say it */
	if (argc == 1 || !strcmp(argv[1], "id") || !strcmp(argv[1], "name") ||
	    !strcmp(argv[1], "pinned"))
		return nb_cli_words("map", argc, argv);
	for (int v = 0; v < (int)(sizeof(verbs) / sizeof(verbs[0])) && verb < 0; v++)
		if (nb_matches(argv[0], verbs[v]))
			verb = v;
	if (verb < 0 && nb_matches(argv[0], "list"))
		verb = MAP_SHOW;
	if (verb < 0) {
		nb_cli_error("map: command \"%s\" is unknown, try \"netbpf map help\"", argv[0]);
		return NB_EXIT_USAGE;
	}
	if (parse_map_args(argc - 1, argv + 1, &a)) {
		ret = NB_EXIT_USAGE;
		goto out;
	}
	if (verb != MAP_SHOW && !a.name && a.id < 0) {
		nb_cli_error("map %s: which map? give \"name NAME\" or \"id ID\"", verbs[verb]);
		ret = NB_EXIT_USAGE;
		goto out;
	}
	if (nb_cli_object_load(&a.o, true)) {
		ret = NB_EXIT_ERR;
		goto out;
	}
	if (verb == MAP_SHOW) {
		ret = map_show(&a);
		goto out;
	}
	m = select_map(&a);
	if (!m)
		ret = NB_EXIT_ERR;
	else if (verb == MAP_DUMP)
		ret = map_dump(m);
	else
		ret = map_elem(verb, &a, m);
out:
	nb_object_close(a.o.obj);
	free(a.key);
	free(a.value);
	return ret;
}
