/* SPDX-License-Identifier: GPL-2.0 */
/* The netbpf command: global options and the command words, one file per word. */
#ifndef NB_CLI_H
#define NB_CLI_H

#include <stdbool.h>

/* Options that come before the command word, as in ip and tc. */
struct nb_cli_opts {
	bool json;	/* -j */
	bool pretty;	/* -p */
	int stats;	/* -s, repeatable */
	bool force;	/* -force */
	bool interp;	/* --interp: never JIT */
	const char *netns; /* -n NAME */
};

extern struct nb_cli_opts nb_cli;

/* Exit statuses: iproute2 returns 1 for errors and usage alike; usage gets 2 here. */
#define NB_EXIT_OK    0
#define NB_EXIT_ERR   1
#define NB_EXIT_USAGE 2

int cmd_vm(int argc, char **argv);
int cmd_run(int argc, char **argv);

/* "netbpf: " + message on stderr. */
void nb_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* NB_CLI_H */
