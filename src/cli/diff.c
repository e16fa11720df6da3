// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf diff OBJ [sec S] [program NAME] [--type tc|xdp|socket] --pcap-in FILE
 *                 [--ctx-in FILE] [--map NAME=FILE]... [--max-entries MAP=N]...
 *
 * Every packet of FILE through the running kernel and through netbpf (src/kcompare/diff.c); exit 0
 * when all is identical, 1 on any difference (or an error), 2 for usage and when the kernel
 * cannot be reached. "program NAME" chooses among the programs of a section, as ip link set
 * ... xdp obj F sec S program NAME does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "kcompare/diff.h"
#include "ctl/json.h"

#define MAX_MAP_FILES 32

static const char diff_usage[] =
	"Usage: netbpf diff OBJ [sec SECTION] [program NAME] [--type tc|xdp|socket]\n"
	"                   --pcap-in FILE [--ctx-in FILE] [--map NAME=FILE]...\n"
	"                   [--max-entries MAP=N]... [--deterministic SEED]\n";

static bool takes_value(const char *w)
{
	static const char *const words[] = {
		"sec", "section", "program", "prog", "--type", "type", "--pcap-in", "--ctx-in",
		"--max-entries", "--map", "--deterministic",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
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

int cmd_diff(int argc, char **argv)
{
	struct nb_map_file maps[MAX_MAP_FILES];
	struct nb_map_sizes sizes = { .cnt = 0 };
	struct nb_diff_opts opts = { .out = stdout, .max_reports = 10 };
	struct nb_diff_result r;
	struct nb_log log = { 0 };
	const char *pcap = NULL, *ctx_path = NULL;
	uint8_t *ctx = NULL;
	size_t ctx_len = 0;
	unsigned int map_cnt = 0;
	int err, ret = NB_EXIT_USAGE;

	if (argc < 1 || nb_cli_is_help(argv[0]))
		return nb_cli_usage(diff_usage, argc >= 1);
	opts.obj_path = argv[0];
	opts.interp = nb_cli.interp;
	opts.unsafe_no_verify = nb_cli.unsafe_no_verify;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!takes_value(a)) {
			nb_cli_error("argument \"%s\" is unknown: expected sec, program, --type, "
				     "--pcap-in, --ctx-in, --map, --max-entries or --deterministic", a);
			goto out;
		}
		if (i + 1 >= argc) {
			nb_cli_error("\"%s\" needs an argument", a);
			goto out;
		}
		if (!strcmp(a, "sec") || !strcmp(a, "section")) {
			opts.section = argv[++i];
		} else if (!strcmp(a, "--deterministic")) {
			if (nb_cli_deterministic(argv[++i]))
				goto out;
		} else if (!strcmp(a, "program") || !strcmp(a, "prog")) {
			opts.prog_name = argv[++i];
		} else if (!strcmp(a, "--type") || !strcmp(a, "type")) {
			if (nb_cli_prog_type(argv[++i], &opts.type))
				goto out;
		} else if (!strcmp(a, "--pcap-in")) {
			pcap = argv[++i];
		} else if (!strcmp(a, "--ctx-in")) {
			ctx_path = argv[++i];
		} else if (!strcmp(a, "--max-entries")) {
			if (nb_cli_add_max_entries(&sizes, argv[++i]))
				goto out;
		} else if (!strcmp(a, "--map")) {
			if (map_cnt >= MAX_MAP_FILES) {
				nb_cli_error("more than %d --map options", MAX_MAP_FILES);
				goto out;
			}
			if (nb_map_file_read(argv[++i], &maps[map_cnt], &log)) {
				print_log(&log);
				ret = NB_EXIT_ERR;
				goto out;
			}
			map_cnt++;
		}
	}
	if (!pcap) {
		nb_cli_error("diff: --pcap-in FILE is required");
		goto out;
	}
	if (ctx_path) {
		err = nb_read_file(ctx_path, &ctx, &ctx_len);
		if (err) {
			nb_cli_error("--ctx-in %s: %s", ctx_path, strerror(-err));
			ret = NB_EXIT_ERR;
			goto out;
		}
		opts.ctx_in = ctx;
		opts.ctx_size_in = (unsigned int)ctx_len;
	}
	opts.maps = maps;
	opts.map_cnt = map_cnt;
	opts.map_sizes = sizes.s;
	opts.map_size_cnt = sizes.cnt;
	if (nb_cli.json)
		opts.out = NULL;
	err = nb_diff_pcap(&opts, pcap, &r, &log);
	if (err) {
		print_log(&log);
		ret = err == NB_DIFF_NO_KERNEL ? NB_EXIT_USAGE : NB_EXIT_ERR;
		goto out;
	}
	if (r.kernel_via_netbpf)
		fprintf(stderr, "netbpf: libbpf cannot open %s: the kernel side is loaded as iproute2 "
			"loads it, from netbpf's maps and linked instructions\n", opts.obj_path);
	if (!r.kernel_in_own_netns)
		fprintf(stderr, "netbpf: no network namespace of its own for the kernel's test runs: "
			"they see this host's devices\n");
	if (nb_cli.json) {
		struct nb_json *j = nb_json_new(stdout, nb_cli.pretty);

		nb_json_start_object(j, NULL);
		nb_json_uint(j, "packets", r.packets);
		nb_json_uint(j, "identical", r.identical);
		nb_json_uint(j, "different", r.different);
		nb_json_uint(j, "maps_compared", r.maps_compared);
		nb_json_uint(j, "map_differences", r.map_diffs);
		nb_json_end_object(j);
		nb_json_free(j);
	} else {
		printf("packets %lu  identical %lu  different %lu  maps %lu  map differences %lu\n",
		       r.packets, r.identical, r.different, r.maps_compared, r.map_diffs);
	}
	ret = r.different || r.map_diffs ? NB_EXIT_ERR : NB_EXIT_OK;
out:
	for (unsigned int i = 0; i < map_cnt; i++)
		nb_map_file_free(&maps[i]);
	free(ctx);
	nb_log_free(&log);
	return ret;
}
