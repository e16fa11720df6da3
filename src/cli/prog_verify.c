// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf prog verify OBJ [sec S] [program NAME] [type T] [--max-entries MAP=N]... [-v]: run
 * the verifier on an object's programs, or on the one named (a section may hold several, as the
 * selftests' do). Without sec or program, libbpf's optional sections (SEC("?tc")) are left out,
 * as libbpf leaves them out of a load.
 *
 * On rejection the log names the instruction index, the instruction and the kernel-like reason
 * (with -v, the instructions and registers of the failing path); on acceptance each program is
 * listed with the instructions the verifier processed (bpf_prog_info's verified_insns), and
 * -j lists them as JSON; -v adds the verifier's statistics (processed instructions, states) and timing.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <netbpf/prog.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/json.h"

static const char verify_usage[] =
	"Usage: netbpf prog verify OBJ [sec SECTION] [program NAME] [{ type | --type } TYPE]\n"
	"                              [--max-entries MAP=N]... [-v]\n";

static void print_lines(FILE *f, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");

		fprintf(f, "%.*s\n", (int)n, text);
		text += n + (text[n] == '\n');
	}
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One line (or JSON object) per loaded program: name, section, size, verification cost. */
static void print_verified(const struct nb_object *obj)
{
	struct nb_json *j = nb_cli.json ? nb_json_new(stdout, nb_cli.pretty) : NULL;
	struct nb_object_prog *p;

	if (j)
		nb_json_start_array(j, NULL);
	nb_object_for_each_prog(p, obj) {
		const struct nb_prog *prog = nb_object_prog_prog(p);
		unsigned int cnt;

		if (!prog)
			continue;
		nb_prog_insns(prog, &cnt);
		if (!j) {
			printf("prog %s  section %s  insns %u  processed %u: verified\n",
			       nb_object_prog_name(p), nb_object_prog_section(p), cnt,
			       nb_prog_verified_insns(prog));
			continue;
		}
		nb_json_start_object(j, NULL);
		nb_json_string(j, "name", nb_object_prog_name(p));
		nb_json_string(j, "section", nb_object_prog_section(p));
		nb_json_uint(j, "insns", cnt);
		nb_json_uint(j, "verified_insns", nb_prog_verified_insns(prog));
		nb_json_end_object(j);
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_free(j);
	}
}

int prog_verify(int argc, char **argv)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts open_opts = { .sz = sizeof(open_opts), .log = &log };
	struct nb_object_load_opts load_opts = { .sz = sizeof(load_opts), .log = &log };
	const char *path = NULL, *sec = NULL, *name = NULL;
	struct nb_map_sizes sizes = { .cnt = 0 };
	enum bpf_prog_type type = 0;
	struct nb_object_prog *p;
	struct nb_object *obj;
	bool verbose = false, any = false;
	double t0;
	int err;

	if (argc >= 1 && nb_cli_is_help(argv[0]))
		return nb_cli_usage(verify_usage, true);
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-v") || nb_matches(argv[i], "verbose")) {
			verbose = true;
		} else if (nb_matches(argv[i], "section") || !strcmp(argv[i], "sec")) {
			if (++i >= argc)
				return nb_cli_usage(verify_usage, false);
			sec = argv[i];
		} else if (!strcmp(argv[i], "program") || !strcmp(argv[i], "prog")) {
			if (++i >= argc)
				return nb_cli_usage(verify_usage, false);
			name = argv[i];
		} else if (nb_matches(argv[i], "type") || !strcmp(argv[i], "--type")) {
			if (++i >= argc)
				return nb_cli_usage(verify_usage, false);
			if (nb_cli_prog_type(argv[i], &type))
				return NB_EXIT_USAGE;
		} else if (!strcmp(argv[i], "--max-entries")) {
			if (++i >= argc)
				return nb_cli_usage(verify_usage, false);
			if (nb_cli_add_max_entries(&sizes, argv[i]))
				return NB_EXIT_USAGE;
		} else if (!path && argv[i][0] != '-') {
			path = argv[i];
		} else {
			nb_cli_error("prog verify: argument \"%s\" is %s", argv[i],
				     argv[i][0] == '-' ? "unknown" : "wrong");
			return nb_cli_usage(verify_usage, false);
		}
	}
	if (!path)
		return nb_cli_usage(verify_usage, false);
	if (verbose)
		log.level = NB_LOG_VERBOSE;
	load_opts.prog_type = type;
	load_opts.map_sizes = sizes.s;
	load_opts.map_size_cnt = sizes.cnt;
	if (nb_cli.interp)
		load_opts.prog_flags |= NB_PROG_LOAD_INTERP;
	err = nb_object_open_file(path, &open_opts, &obj);
	if (err) {
		print_lines(stderr, nb_log_text(&log));
		nb_log_free(&log);
		return NB_EXIT_ERR;
	}
	nb_object_for_each_prog(p, obj) {
		bool want = !sec || !strcmp(nb_object_prog_section(p), sec) ||
			    !strcmp(nb_object_prog_name(p), sec);

		if (name && strcmp(nb_object_prog_name(p), name))
			want = false;
		/* The whole object: what libbpf would load, optional sections left out. */
		if (!sec && !name)
			want = nb_object_prog_autoload(p);
		nb_object_prog_set_autoload(p, want);
		any |= want;
	}
	if (!any && name) {
		nb_cli_error("prog verify: %s has no program %s%s%s", path, name,
			     sec ? " in section " : "", sec ? sec : "");
		nb_object_close(obj);
		nb_log_free(&log);
		return NB_EXIT_ERR;
	}
	if (!any && !sec) {
		nb_cli_error("prog verify: every program of %s is in an optional section "
			     "(SEC(\"?...\")), which loads only when chosen: choose with "
			     "sec SECTION or program NAME", path);
		nb_object_close(obj);
		nb_log_free(&log);
		return NB_EXIT_ERR;
	}
	if (!any) {
		nb_cli_error("prog verify: %s has no program in section %s", path, sec);
		nb_object_close(obj);
		nb_log_free(&log);
		return NB_EXIT_ERR;
	}
	t0 = now_ms();
	err = nb_object_load(obj, &load_opts);
	if (err) {
		print_lines(stderr, nb_log_text(&log));
		nb_cli_error("prog verify: %s: rejected", path);
		nb_object_close(obj);
		nb_log_free(&log);
		return NB_EXIT_ERR;
	}
	if (verbose) {
		/* under -j stdout holds the one document: the log goes beside it */
		FILE *f = nb_cli.json ? stderr : stdout;

		print_lines(f, nb_log_text(&log));
		fprintf(f, "verified in %.3f ms (object load included)\n", now_ms() - t0);
	}
	print_verified(obj);
	nb_object_close(obj);
	nb_log_free(&log);
	return NB_EXIT_OK;
}
