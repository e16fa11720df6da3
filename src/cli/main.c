// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf: global options, then one command word, as ip and tc read their command lines.
 *
 *   netbpf [-j] [-p] [-s] [-n NAME] [-D NAME] [-force] [--interp] [--unsafe-no-verify] OBJECT ...
 *
 * -n NAME runs the command in the network namespace NAME (ip netns's /run/netns/NAME), as ip
 * -n does. With a daemon (-D NAME, $NETBPF_DAEMON, or one named "default" running), the words
 * that act on a datapath go to it (client.c); the others always act in this process.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netbpf/clock.h>
#include <netbpf/datapath.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/ctl.h"

struct nb_cli_opts nb_cli;

struct command {
	const char *word;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run a script of tc/ip/link lines, or the built-in default" },
	{ "daemon", cmd_daemon, "hold a datapath that later commands drive (-D NAME)" },
	{ "link", cmd_link, "add, set, delete or show devices and their ports" },
	{ "tc", cmd_tc, "qdiscs, filters and actions (tc's words)" },
	{ "ip", cmd_ip, "XDP on devices, addresses, routes, rules and neighbours (ip's words)" },
	{ "bridge", cmd_bridge, "bridges' forwarding databases and ports (bridge's words)" },
	{ "sysctl", cmd_sysctl, "the IP layer's switches (net.ipv4.conf.DEV.forwarding, ...)" },
	{ "prog", cmd_prog, "load an object file and list its programs and maps" },
	{ "map", cmd_map, "show, dump, look up, update or delete maps (live or an object's)" },
	{ "stats", cmd_stats, "the datapath's counters, filters, actions and workers" },
	{ "monitor", cmd_monitor, "a daemon's rates, a line a second" },
	{ "diff", cmd_diff, "run packets through the kernel and netbpf and compare" },
	{ "bench", cmd_bench, "the seed's tc and XDP tables measured on this machine" },
	{ "vm", cmd_vm, "run or disassemble raw eBPF bytecode" },
	{ "feature", cmd_feature, "the helpers each program type may call (bpftool feature probe)" },
};

/*
 * Whether a command acts on a datapath, and so goes to a daemon when one is there: the link,
 * tc, ip, bridge and stats words, map on a live map (id, name or pinned, not an object file), prog
 * show, prog dump of a live program (id, name or tag).
 */
static bool nb_cli_for_daemon(const char *word, int argc, char **argv)
{
	if (!strcmp(word, "link") || !strcmp(word, "tc") || !strcmp(word, "ip") ||
	    !strcmp(word, "bridge") || !strcmp(word, "stats"))
		return true;
	if (!strcmp(word, "map"))
		return argc >= 1 && (argc == 1 || !strcmp(argv[1], "id") ||
				     !strcmp(argv[1], "name") || !strcmp(argv[1], "pinned"));
	if (!strcmp(word, "prog"))
		return argc >= 1 && (nb_matches(argv[0], "show") || nb_matches(argv[0], "list") ||
				     nb_cli_prog_dump_live(argc, argv));
	return false;
}

int nb_cli_deterministic(const char *seed)
{
	struct nb_deterministic_opts opts = { .sz = sizeof(opts) };
	char *end;

	errno = 0;
	opts.seed = strtoull(seed, &end, 0);
	if (errno || !seed[0] || *end || seed[0] == '-') {
		nb_cli_error("argument \"%s\" is wrong: --deterministic takes a seed (a number)",
			     seed);
		return -EINVAL;
	}
	return nb_deterministic_enable(&opts);
}

int nb_cli_busy_poll(const char *arg, int *busy_poll_us)
{
	unsigned int us;

	if (!strcmp(arg, "adaptive")) {
		*busy_poll_us = 0;
		return 0;
	}
	if (!nb_ctl_parse_u32(arg, &us, 10) || us > NB_DATAPATH_BUSY_POLL_MAX_US) {
		nb_cli_error("Error: argument \"%s\" is wrong: --busy-poll takes adaptive or 0 "
			     "to %u (microseconds)", arg, NB_DATAPATH_BUSY_POLL_MAX_US);
		return -EINVAL;
	}
	*busy_poll_us = us ? (int)us : -1;
	return 0;
}

void nb_cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("netbpf: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int usage(bool asked)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int status;

	if (!out)
		return NB_EXIT_ERR;
	fprintf(out, "Usage: netbpf [OPTIONS] OBJECT { COMMAND | help }\n"
		     "where  OBJECT := {");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "%s%s", i ? " | " : " ", commands[i].word);
	fprintf(out, " }\n"
		     "       OPTIONS := { -j[son] | -p[retty] | -s[tatistics] | -n[etns] NAME |\n"
		     "                    -D | --daemon NAME | -f[orce] | --interp |\n"
		     "                    --unsafe-no-verify | -batch FILE }\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].word, commands[i].summary);
	fprintf(out, "Each OBJECT takes help: netbpf tc help, netbpf prog run help, ...\n");
	fclose(out);
	status = nb_cli_usage(text, asked);
	free(text);
	return status;
}

static int run_command(int argc, char **argv, int i);

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
		} else if (!strcmp(opt, "D") || !strcmp(opt, "daemon")) {
			if (++i >= argc) {
				nb_cli_error("option \"%s\" needs a daemon name", argv[i - 1]);
				return NB_EXIT_USAGE;
			}
			nb_cli.daemon = argv[i];
		} else if (nb_matches(opt, "batch")) {
			if (++i >= argc) {
				nb_cli_error("option \"-batch\" needs a file");
				return NB_EXIT_USAGE;
			}
			nb_cli.batch = argv[i];
		} else if (nb_matches(opt, "help")) {
			return usage(true);
		} else {
			nb_cli_error("option \"%s\" is unknown, try \"netbpf -help\"", argv[i]);
			return NB_EXIT_USAGE;
		}
	}
	if (nb_cli.json)
		nb_cli_json_begin();
	return nb_cli_json_end(run_command(argc, argv, i));
}

/* The command word at argv[i] and what follows it: its exit status. */
static int run_command(int argc, char **argv, int i)
{
	if (nb_cli.netns && nb_cli_enter_netns(nb_cli.netns))
		return NB_EXIT_ERR;
	if (nb_cli.batch)
		return nb_cli_batch(nb_cli.batch);
	if (i >= argc)
		return usage(false);
	if (nb_matches(argv[i], "help"))
		return usage(true);
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		int fd, status;

		if (!nb_matches(argv[i], commands[c].word))
			continue;
		if (!nb_cli_for_daemon(commands[c].word, argc - i - 1, argv + i + 1))
			return commands[c].fn(argc - i - 1, argv + i + 1);
		status = nb_cli_daemon_connect(&fd);
		if (status || fd < 0)
			return status ? status : commands[c].fn(argc - i - 1, argv + i + 1);
		status = nb_cli_forward(fd, commands[c].word, argc - i - 1, argv + i + 1);
		close(fd);
		return status;
	}
	nb_cli_error("object \"%s\" is unknown, try \"netbpf help\"", argv[i]);
	return NB_EXIT_USAGE;
}
