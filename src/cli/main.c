// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf: global options, then one command word, as ip and tc read their command lines.
 *
 *   netbpf [-j] [-p] [-s] [-n NAME] [-force] [--interp] [--unsafe-no-verify] OBJECT ...
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ctl/args.h"

struct nb_cli_opts nb_cli;

struct command {
	const char *word;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run a script of tc/ip/link lines, or the built-in default" },
	{ "link", cmd_link, "add, set, delete or show devices and their ports" },
	{ "tc", cmd_tc, "qdiscs, filters and actions (tc's words)" },
	{ "ip", cmd_ip, "ip link set dev X xdp obj F [sec S] | off" },
	{ "prog", cmd_prog, "load an object file and list its programs and maps" },
	{ "map", cmd_map, "show, dump, look up, update or delete an object's maps" },
	{ "diff", cmd_diff, "run packets through the kernel and netbpf and compare" },
	{ "vm", cmd_vm, "run or disassemble raw eBPF bytecode" },
};

void nb_cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("netbpf: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int usage(FILE *out)
{
	fprintf(out, "Usage: netbpf [OPTIONS] OBJECT { COMMAND | help }\n"
		     "where  OBJECT := {");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "%s%s", i ? " | " : " ", commands[i].word);
	fprintf(out, " }\n"
		     "       OPTIONS := { -j[son] | -p[retty] | -s[tatistics] | -n[etns] NAME |\n"
		     "                    -f[orce] | --interp | --unsafe-no-verify }\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].word, commands[i].summary);
	return out == stdout ? NB_EXIT_OK : NB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *opt = argv[i] + 1;

		if (opt[0] == '-')
			opt++; /* --json works as -json does */
		if (nb_matches(opt, "json")) {
			nb_cli.json = true;
		} else if (nb_matches(opt, "pretty")) {
			nb_cli.pretty = true;
		} else if (nb_matches(opt, "stats") || nb_matches(opt, "statistics")) {
			nb_cli.stats++;
		} else if (nb_matches(opt, "force")) {
			nb_cli.force = true;
		} else if (!strcmp(opt, "interp")) {
			nb_cli.interp = true;
		} else if (!strcmp(opt, "unsafe-no-verify")) {
			nb_cli.unsafe_no_verify = true;
		} else if (nb_matches(opt, "netns")) {
			if (++i >= argc) {
				nb_cli_error("option \"-netns\" needs a name");
				return NB_EXIT_USAGE;
			}
			nb_cli.netns = argv[i];
		} else if (nb_matches(opt, "batch")) {
			if (++i >= argc) {
				nb_cli_error("option \"-batch\" needs a file");
				return NB_EXIT_USAGE;
			}
			nb_cli.batch = argv[i];
		} else if (nb_matches(opt, "help")) {
			return usage(stdout);
		} else {
			nb_cli_error("option \"%s\" is unknown, try \"netbpf -help\"", argv[i]);
			return NB_EXIT_USAGE;
		}
	}
	if (nb_cli.batch)
		return nb_cli_batch(nb_cli.batch);
	if (i >= argc)
		return usage(stderr);
	if (nb_matches(argv[i], "help"))
		return usage(stdout);
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (nb_matches(argv[i], commands[c].word))
			return commands[c].fn(argc - i - 1, argv + i + 1);
	nb_cli_error("object \"%s\" is unknown, try \"netbpf help\"", argv[i]);
	return NB_EXIT_USAGE;
}
