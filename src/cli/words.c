// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf link | tc | ip | bridge | sysctl | stats: one line of the command language on the command
 * line. With a daemon the line goes to it (client.c). Without one the datapath lives in this
 * process, so a line acts on an empty one: `link add` and the tc and ip words check their words
 * and objects (a filter loads and verifies its program) and then the process ends. Lines that
 * build on each other go into a script (`netbpf run SCRIPT`, `netbpf -batch SCRIPT`) or to a
 * daemon.
 */
#include <stdlib.h>
#include <string.h>

#include <netbpf/dev.h>
#include <netbpf/tc.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/ctl.h"

void nb_cli_ctl_init(struct nb_ctl *ctl)
{
	memset(ctl, 0, sizeof(*ctl));
	ctl->out = stdout;
	ctl->json = nb_cli.json;
	ctl->pretty = nb_cli.pretty;
	ctl->stats = nb_cli.stats;
	ctl->force = nb_cli.force;
	ctl->obj_dir = nb_cli_examples_dir();
}

int nb_cli_ctl_status(struct nb_ctl *ctl, int err)
{
	if (err) {
		const char *t = nb_log_text(&ctl->log);

		fputs(t[0] ? t : "Error: failed\n", stderr);
	}
	nb_log_free(&ctl->log);
	return nb_ctl_status(ctl, err);
}

int nb_cli_words(const char *word, int argc, char **argv)
{
	char **line = calloc(argc + 2, sizeof(*line));
	struct nb_ctl ctl;
	int err;

	if (!line)
		return NB_EXIT_ERR;
	nb_cli_ctl_init(&ctl);
	line[0] = (char *)word;
	memcpy(line + 1, argv, argc * sizeof(*argv));
	err = nb_ctl_exec(&ctl, argc + 1, line);
	free(line);
	nb_dev_destroy_all();
	nb_tc_actions_destroy_unbound();
	return nb_cli_ctl_status(&ctl, err);
}

int cmd_link(int argc, char **argv)
{
	return nb_cli_words("link", argc, argv);
}

int cmd_tc(int argc, char **argv)
{
	return nb_cli_words("tc", argc, argv);
}

int cmd_ip(int argc, char **argv)
{
	return nb_cli_words("ip", argc, argv);
}

int cmd_bridge(int argc, char **argv)
{
	return nb_cli_words("bridge", argc, argv);
}

int cmd_stats(int argc, char **argv)
{
	return nb_cli_words("stats", argc, argv);
}

int cmd_sysctl(int argc, char **argv)
{
	return nb_cli_words("sysctl", argc, argv);
}
