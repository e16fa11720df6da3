// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf prog: load an object file as tc or ip would, and list what it holds.
 *
 *   netbpf prog load OBJ [{ type | --type } { tc | action | xdp | socket | TYPE }] [sec SECTION]
 *                        [--set NAME=VALUE]... [--max-entries MAP=N]...
 *   netbpf prog verify ...
 *   netbpf prog dump { xlated | jited } OBJ [sec S] [type T]   (prog_dump.c)
 *
 * `prog load` lists an object's programs (id, type, name, section, instructions) and maps (id,
 * type, name, flags, key and value size, max_entries) as bpftool's show does, in JSON with -j.
 * `prog show` lists the datapath's programs (src/ctl/prog.c): a daemon's, when one runs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/json.h"

static const char prog_usage[] =
	"Usage: netbpf prog load OBJ [{ type | --type } { tc | action | xdp | socket | TYPE }]\n"
	"                            [sec SECTION] [--set NAME=VALUE]... [--max-entries MAP=N]...\n"
	"       netbpf prog verify OBJ ...       (netbpf prog verify help)\n"
	"       netbpf prog dump { xlated | jited } OBJ ...   (netbpf prog dump help)\n"
	"       netbpf prog run OBJ ...          (netbpf prog run help)\n"
	"       netbpf prog { show | list } [{ id ID | name NAME | tag TAG }]\n"
	"       netbpf prog dump xlated { id ID | name NAME | tag TAG } [opcodes] [linum]\n";

static const char *type_str(enum bpf_prog_type type)
{
	const char *s = libbpf_bpf_prog_type_str(type);

	return s ? s : "unknown";
}

static void print_progs_text(struct nb_object *obj)
{
	struct nb_object_prog *p;

	nb_object_for_each_prog(p, obj) {
		const struct nb_prog *prog = nb_object_prog_prog(p);
		unsigned int cnt;

		if (!prog)
			continue;
		nb_object_prog_insns(p, &cnt);
		printf("prog %u: %s  name %s  section %s  insns %u  %s\n", nb_prog_id(prog),
		       type_str(nb_prog_type(prog)), nb_object_prog_name(p),
		       nb_object_prog_section(p), cnt, nb_prog_is_jited(prog) ? "jited" :
		       "interpreted");
	}
}

void nb_cli_print_map_text(const struct nb_object_map *m)
{
	struct nb_map *map = nb_object_map_map(m);
	const char *type = libbpf_bpf_map_type_str(nb_map_type(map));

	printf("map %u: %s  name %s  flags 0x%x\n", nb_map_id(map), type ? type : "unknown",
	       nb_object_map_name(m), nb_map_flags(map));
	printf("\tkey %uB  value %uB  max_entries %u", nb_map_key_size(map),
	       nb_map_value_size(map), nb_map_max_entries(map));
	if (nb_object_map_pin_path(m))
		printf("  pinned %s", nb_object_map_pin_path(m));
	putchar('\n');
}

void nb_cli_print_map_json(struct nb_json *j, const struct nb_object_map *m)
{
	struct nb_map *map = nb_object_map_map(m);
	const char *type = libbpf_bpf_map_type_str(nb_map_type(map));

	nb_json_start_object(j, NULL);
	nb_json_uint(j, "id", nb_map_id(map));
	nb_json_string(j, "type", type ? type : "unknown");
	nb_json_string(j, "name", nb_object_map_name(m));
	nb_json_uint(j, "flags", nb_map_flags(map));
	nb_json_uint(j, "bytes_key", nb_map_key_size(map));
	nb_json_uint(j, "bytes_value", nb_map_value_size(map));
	nb_json_uint(j, "max_entries", nb_map_max_entries(map));
	if (nb_object_map_pin_path(m))
		nb_json_string(j, "pinned", nb_object_map_pin_path(m));
	nb_json_end_object(j);
}

static void print_json(struct nb_object *obj)
{
	struct nb_json *j = nb_json_new(stdout, nb_cli.pretty);
	struct nb_object_prog *p;
	struct nb_object_map *m;

	nb_json_start_object(j, NULL);
	nb_json_string(j, "object", nb_object_name(obj));
	nb_json_string(j, "license", nb_object_license(obj));
	nb_json_start_array(j, "programs");
	nb_object_for_each_prog(p, obj) {
		const struct nb_prog *prog = nb_object_prog_prog(p);
		unsigned int cnt;

		if (!prog)
			continue;
		nb_object_prog_insns(p, &cnt);
		nb_json_start_object(j, NULL);
		nb_json_uint(j, "id", nb_prog_id(prog));
		nb_json_string(j, "type", type_str(nb_prog_type(prog)));
		nb_json_string(j, "name", nb_object_prog_name(p));
		nb_json_string(j, "section", nb_object_prog_section(p));
		nb_json_uint(j, "insns", cnt);
		nb_json_bool(j, "jited", nb_prog_is_jited(prog));
		nb_json_end_object(j);
	}
	nb_json_end_array(j);
	nb_json_start_array(j, "maps");
	nb_object_for_each_map(m, obj)
		nb_cli_print_map_json(j, m);
	nb_json_end_array(j);
	nb_json_end_object(j);
	nb_json_free(j);
}

static unsigned int loaded_progs(struct nb_object *obj)
{
	struct nb_object_prog *p;
	unsigned int n = 0;

	nb_object_for_each_prog(p, obj)
		n += nb_object_prog_prog(p) != NULL;
	return n;
}

static int prog_load(int argc, char **argv)
{
	struct nb_cli_object o = { 0 };
	struct nb_object_map *m;

	if (argc < 1 || nb_cli_is_help(argv[0]))
		return nb_cli_usage(prog_usage, argc >= 1);
	o.path = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--set")) {
			if (++i >= argc) {
				nb_cli_error("--set needs NAME=VALUE");
				return NB_EXIT_USAGE;
			}
			if (nb_cli_add_set(&o, argv[i]))
				return NB_EXIT_USAGE;
		} else if (!strncmp(argv[i], "--set=", 6)) {
			if (nb_cli_add_set(&o, argv[i] + 6))
				return NB_EXIT_USAGE;
		} else if (!strcmp(argv[i], "--max-entries")) {
			if (++i >= argc) {
				nb_cli_error("--max-entries needs NAME=N");
				return NB_EXIT_USAGE;
			}
			if (nb_cli_add_max_entries(&o.sizes, argv[i]))
				return NB_EXIT_USAGE;
		} else if (nb_matches(argv[i], "type") || !strcmp(argv[i], "--type")) {
			if (++i >= argc) {
				nb_cli_error("\"type\" needs a program type");
				return NB_EXIT_USAGE;
			}
			if (nb_cli_prog_type(argv[i], &o.type))
				return NB_EXIT_USAGE;
		} else if (!strcmp(argv[i], "sec") || !strcmp(argv[i], "section")) {
			if (++i >= argc) {
				nb_cli_error("\"sec\" needs a section name");
				return NB_EXIT_USAGE;
			}
			o.section = argv[i];
		} else {
			nb_cli_error("argument \"%s\" is wrong: expected type, --type, sec, --set "
				     "or --max-entries", argv[i]);
			return NB_EXIT_USAGE;
		}
	}
	if (nb_cli_object_load(&o, false))
		return NB_EXIT_ERR;
	if (!loaded_progs(o.obj)) {
		/* a load that loads nothing is no success: say what there was */
		if (!nb_object_find_prog(o.obj, NULL, NULL))
			nb_cli_error("%s: no program: the object has no executable section",
				     o.path);
		else
			nb_cli_error("%s: no program loaded: each is in an optional section "
				     "(SEC(\"?...\")), which loads only when chosen with sec "
				     "SECTION", o.path);
		nb_object_close(o.obj);
		return NB_EXIT_ERR;
	}
	if (nb_cli.json) {
		print_json(o.obj);
	} else {
		print_progs_text(o.obj);
		nb_object_for_each_map(m, o.obj)
			nb_cli_print_map_text(m);
	}
	nb_object_close(o.obj);
	return NB_EXIT_OK;
}

bool nb_cli_prog_dump_live(int argc, char **argv)
{
	return argc >= 3 && nb_matches(argv[0], "dump") &&
	       (!strcmp(argv[2], "id") || !strcmp(argv[2], "name") || !strcmp(argv[2], "tag"));
}

int cmd_prog(int argc, char **argv)
{
	if (argc < 1 || nb_cli_is_help(argv[0]))
		return nb_cli_usage(prog_usage, argc >= 1);
	if (nb_matches(argv[0], "load"))
		return prog_load(argc - 1, argv + 1);
	if (nb_matches(argv[0], "verify"))
		return prog_verify(argc - 1, argv + 1);
	if (nb_cli_prog_dump_live(argc, argv))
		return nb_cli_words("prog", argc, argv);
	if (nb_matches(argv[0], "dump"))
		return prog_dump(argc - 1, argv + 1);
	if (nb_matches(argv[0], "run"))
		return prog_run(argc - 1, argv + 1);
	/* the datapath's programs: a daemon's, or this process's (none) */
	if (nb_matches(argv[0], "show") || nb_matches(argv[0], "list"))
		return nb_cli_words("prog", argc, argv);
	nb_cli_error("prog: command \"%s\" is unknown, try \"netbpf prog help\"", argv[0]);
	return NB_EXIT_USAGE;
}
