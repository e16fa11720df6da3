// SPDX-License-Identifier: GPL-2.0
/*
 * What the prog and map commands share: the program type words iproute2 users know, --set
 * NAME=VALUE for .rodata variables, --max-entries NAME=N for maps the object leaves unsized,
 * and opening and loading an object with the global options, every line of the loader's log on
 * stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <netbpf/prog.h>

#include "cli/cli.h"
#include "ctl/args.h"

static const struct {
	const char *word;
	enum bpf_prog_type type;
} type_words[] = {
	{ "tc", BPF_PROG_TYPE_SCHED_CLS },
	{ "classifier", BPF_PROG_TYPE_SCHED_CLS },
	{ "cls", BPF_PROG_TYPE_SCHED_CLS },
	{ "action", BPF_PROG_TYPE_SCHED_ACT },
	{ "act", BPF_PROG_TYPE_SCHED_ACT },
	{ "xdp", BPF_PROG_TYPE_XDP },
	{ "socket", BPF_PROG_TYPE_SOCKET_FILTER },
};

int nb_cli_prog_type(const char *word, enum bpf_prog_type *type)
{
	for (size_t i = 0; i < sizeof(type_words) / sizeof(type_words[0]); i++) {
		if (!strcmp(word, type_words[i].word)) {
			*type = type_words[i].type;
			return 0;
		}
	}
	/* bpftool's names too: sched_cls, socket_filter, ... */
	for (int t = 1; libbpf_bpf_prog_type_str(t); t++) {
		if (!strcmp(word, libbpf_bpf_prog_type_str(t))) {
			*type = t;
			return 0;
		}
	}
	nb_cli_error("type \"%s\" is unknown: try tc, action, xdp or socket", word);
	return -EINVAL;
}

int nb_cli_add_set(struct nb_cli_object *o, const char *arg)
{
	if (o->set_cnt >= NB_CLI_MAX_SETS) {
		nb_cli_error("more than %d --set options", NB_CLI_MAX_SETS);
		return -E2BIG;
	}
	if (!strchr(arg, '=') || arg[0] == '=') {
		nb_cli_error("--set \"%s\": expected NAME=VALUE", arg);
		return -EINVAL;
	}
	o->sets[o->set_cnt++] = arg;
	return 0;
}

int nb_cli_add_max_entries(struct nb_map_sizes *sizes, const char *arg)
{
	const char *why = nb_map_sizes_add(sizes, arg);

	if (why) {
		nb_cli_error("--max-entries \"%s\": %s", arg, why);
		return -EINVAL;
	}
	return 0;
}

static int apply_set(struct nb_object *obj, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char name[256], *end;
	unsigned long long val;
	int size;

	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	size = nb_object_var_size(obj, name);
	if (size < 0) {
		nb_cli_error("--set %s: %s has no global variable %s", arg, nb_object_name(obj),
			     name);
		return -ENOENT;
	}
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		nb_cli_error("--set %s: %s is %d bytes; --set takes 1, 2, 4 or 8-byte integers",
			     arg, name, size);
		return -EINVAL;
	}
	errno = 0;
	val = eq[1] == '-' ? (unsigned long long)strtoll(eq + 1, &end, 0) :
			     strtoull(eq + 1, &end, 0);
	if (errno || end == eq + 1 || *end ||
	    (size < 8 && eq[1] != '-' && val >> (size * 8))) {
		nb_cli_error("--set %s: \"%s\" is not a %d-byte integer", arg, eq + 1, size);
		return -EINVAL;
	}
	/* Little-endian, as BPF objects are. */
	return nb_object_set_rodata(obj, name, &val, size);
}

static void print_log(const struct nb_log *log)
{
	const char *p = nb_log_text(log);

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "netbpf: %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

int nb_cli_object_load(struct nb_cli_object *o, bool maps_only)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts open_opts = { .sz = sizeof(open_opts), .log = &log };
	struct nb_object_load_opts load_opts = {
		.sz = sizeof(load_opts),
		.prog_type = o->type,
		.maps_only = maps_only,
		.section = o->section,
		.log = &log,
		.map_sizes = o->sizes.s,
		.map_size_cnt = o->sizes.cnt,
	};
	int err;

	if (nb_cli.interp)
		load_opts.prog_flags |= NB_PROG_LOAD_INTERP;
	if (nb_cli.unsafe_no_verify)
		load_opts.prog_flags |= NB_PROG_LOAD_UNSAFE_NO_VERIFY;
	err = nb_object_open_file(o->path, &open_opts, &o->obj);
	for (int i = 0; !err && i < o->set_cnt; i++)
		err = apply_set(o->obj, o->sets[i]);
	if (!err)
		err = nb_object_load(o->obj, &load_opts);
	if (err) {
		print_log(&log);
		nb_object_close(o->obj);
		o->obj = NULL;
	}
	nb_log_free(&log);
	return err;
}
