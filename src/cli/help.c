// SPDX-License-Identifier: GPL-2.0
/*
 * Usage texts of the command words that act on object files and runs (prog, map on an object,
 * run, daemon, diff, vm, monitor): asked for with "help" or "--help" they go to stdout and the
 * exit status is 0; given because the command line is wrong they go to stderr with status 2.
 * Under -j, help prints bpftool's `null` on stdout and the text on stderr, so that stdout
 * stays one JSON document. The words of the command language (link, tc, ip, ...) answer help
 * in src/ctl/help.c.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

bool nb_cli_is_help(const char *word)
{
	return !strcmp(word, "help") || !strcmp(word, "--help") || !strcmp(word, "-h") ||
	       !strcmp(word, "-help");
}

int nb_cli_usage(const char *text, bool asked)
{
	if (!asked) {
		fputs(text, stderr);
		return NB_EXIT_USAGE;
	}
	if (nb_cli.json) {
		fputs(text, stderr);
		puts("null");
	} else {
		fputs(text, stdout);
	}
	return NB_EXIT_OK;
}
