// SPDX-License-Identifier: GPL-2.0
/*
 * Commands for a running daemon: the line goes to the daemon named by -D NAME (--daemon NAME)
 * or $NETBPF_DAEMON, or to the one named "default" when it runs and none is named; the daemon
 * runs it as a script line would and sends back what it printed and its exit status, which
 * this process prints and returns. Without a daemon, commands act in this process as before.
 *
 *   netbpf [-D NAME] monitor [count N] [interval S]     a line of rates every S seconds
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/control.h"

/* The named daemon, or the default one when it runs; 0: none (act here), else an exit status. */
int nb_cli_daemon_connect(int *fdp)
{
	const char *name = nb_cli.daemon ? nb_cli.daemon : getenv("NETBPF_DAEMON");
	struct nb_log log = { 0 };
	char path[PATH_MAX];
	int err;

	*fdp = -1;
	if (name && !name[0])
		name = NULL;
	err = nb_ctl_daemon_path(name ? name : "default", path, sizeof(path), &log);
	if (!err)
		err = nb_ctl_client_connect(path, fdp, &log);
	if (err && !name) {
		/* no default daemon: commands act in this process */
		nb_log_free(&log);
		return 0;
	}
	if (err) {
		fprintf(stderr, "netbpf: daemon \"%s\": %s", name, nb_log_text(&log));
		nb_log_free(&log);
		return NB_EXIT_ERR;
	}
	nb_log_free(&log);
	return 0;
}

static int call(int fd, int argc, char **argv, bool print)
{
	struct nb_ctl_request req = { .stats = (__u32)nb_cli.stats, .argc = argc, .argv = argv };
	struct nb_ctl_reply rep;
	struct nb_log log = { 0 };
	char cwd[PATH_MAX];
	int err;

	if (!getcwd(cwd, sizeof(cwd))) {
		nb_cli_error("cannot read the working directory: %s", strerror(errno));
		return NB_EXIT_ERR;
	}
	req.cwd = cwd;
	req.opts = (nb_cli.json ? NB_CTL_OPT_JSON : 0) | (nb_cli.pretty ? NB_CTL_OPT_PRETTY : 0) |
		   (nb_cli.force ? NB_CTL_OPT_FORCE : 0);
	err = nb_ctl_client_call(fd, &req, &rep, &log);
	if (err) {
		fprintf(stderr, "netbpf: %s", nb_log_text(&log));
		nb_log_free(&log);
		return NB_EXIT_ERR;
	}
	if (print || rep.status) {
		fwrite(rep.out, 1, rep.out_len, stdout);
		fflush(stdout);
	}
	fwrite(rep.err, 1, rep.err_len, stderr);
	err = rep.status;
	nb_ctl_reply_free(&rep);
	return err;
}

int nb_cli_forward(int fd, const char *word, int argc, char **argv)
{
	char **line = calloc(argc + 2, sizeof(*line));
	int status;

	if (!line)
		return NB_EXIT_ERR;
	line[0] = (char *)word;
	memcpy(line + 1, argv, argc * sizeof(*argv));
	status = call(fd, argc + 1, line, true);
	free(line);
	return status;
}

static volatile sig_atomic_t stop_monitor;

static void on_signal(int sig)
{
	(void)sig;
	stop_monitor = 1;
}

int cmd_monitor(int argc, char **argv)
{
	unsigned long count = 0;
	double interval = 1.0;
	char *word = "monitor";
	int fd, status;

	if (argc >= 1 && nb_cli_is_help(argv[0]))
		return nb_cli_usage("Usage: netbpf [-D NAME] monitor [count N] [interval S]\n",
				    true);
	for (int i = 0; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "count") && i + 1 < argc) {
			count = strtoul(argv[++i], &end, 10);
			if (*end || !count || argv[i][0] == '-') {
				nb_cli_error("argument \"%s\" is wrong: count is a number of lines",
					     argv[i]);
				return NB_EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "interval") && i + 1 < argc) {
			interval = strtod(argv[++i], &end);
			if (*end || interval < 0.1 || interval > 3600) {
				nb_cli_error("argument \"%s\" is wrong: interval is 0.1 to 3600 "
					     "seconds", argv[i]);
				return NB_EXIT_USAGE;
			}
		} else {
			nb_cli_error("argument \"%s\" is wrong: expected count N or interval S",
				     argv[i]);
			return NB_EXIT_USAGE;
		}
	}
	status = nb_cli_daemon_connect(&fd);
	if (status)
		return status;
	if (fd < 0) {
		nb_cli_error("monitor watches a running daemon: none is named (-D NAME, "
			     "NETBPF_DAEMON) and none named \"default\" runs");
		return NB_EXIT_ERR;
	}
	stop_monitor = 0;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (unsigned long n = 0; !stop_monitor && (!count || n < count); n++) {
		struct timespec nap = { .tv_sec = (time_t)interval,
					.tv_nsec = (long)((interval - (time_t)interval) * 1e9) };

		if (n)
			nanosleep(&nap, NULL);
		if (stop_monitor)
			break;
		status = call(fd, 1, &word, true);
		if (status)
			break;
	}
	close(fd);
	return status;
}
