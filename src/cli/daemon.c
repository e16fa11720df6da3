// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf daemon [--name NAME] [--workers N] [--pin] [--busy-poll US] [--bpf-stats]
 *               [--deterministic SEED] [--set VAR=VALUE]... [SCRIPT]
 *
 * Holds a datapath until SIGTERM or SIGINT: executes SCRIPT (if any), starts the workers and
 * serves its control socket (DIR/NAME.sock, NAME "default" unless given; see control.h for
 * DIR), through which every `netbpf link|tc|ip|map|prog|stats|monitor` command of the same
 * user (or root) acts on it and prints what the same line prints in a script. On the signal it
 * stops taking requests, drains the datapath (generators stop, queues empty), prints the
 * summary `netbpf run` prints, deletes its devices (which detaches it from kernel interfaces)
 * and removes its socket.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netbpf/datapath.h>
#include <netbpf/dev.h>
#include <netbpf/epoch.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>
#include <netbpf/tc.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/control.h"
#include "ctl/ctl.h"
#include "ctl/stats.h"

#define MAX_SETS 64
#define DRAIN_TIMEOUT_MS 5000

struct daemon_opts {
	const char *name;
	const char *script;
	unsigned int workers;
	bool bpf_stats;
	bool deterministic;	/* --deterministic SEED */
	bool pin;		/* --pin: each worker on a CPU of its own (--no-pin: the default) */
	int busy_poll_us;	/* --busy-poll, as struct nb_datapath_opts takes it */
	const char *sets[MAX_SETS];
	int set_cnt;
};

struct daemon {
	struct nb_ctl ctl;		/* the context every request starts from */
	struct nb_datapath *dp;
	struct nb_ctl_rates rates;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char daemon_usage[] =
	"Usage: netbpf daemon [--name NAME] [--workers N] [--pin | --no-pin]\n"
	"                     [--busy-poll { adaptive | US }] [--bpf-stats] [--deterministic SEED]\n"
	"                     [--set VAR=VALUE]... [SCRIPT]\n";

static int parse_args(int argc, char **argv, struct daemon_opts *o)
{
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		unsigned int n;

		if (i + 1 >= argc && (!strcmp(w, "--name") || !strcmp(w, "--workers") ||
				      !strcmp(w, "--set") || !strcmp(w, "--busy-poll") ||
				      !strcmp(w, "--deterministic"))) {
			nb_cli_error("Error: \"%s\" needs an argument", w);
			return NB_EXIT_USAGE;
		}
		if (!strcmp(w, "--name") && i + 1 < argc) {
			o->name = argv[++i];
		} else if (!strcmp(w, "--workers") && i + 1 < argc) {
			if (!nb_ctl_parse_u32(argv[++i], &n, 10) || !n || n > NB_MAX_CPUS) {
				nb_cli_error("Error: argument \"%s\" is wrong: --workers takes 1 "
					     "to %d", argv[i], NB_MAX_CPUS);
				return NB_EXIT_USAGE;
			}
			o->workers = n;
		} else if (!strcmp(w, "--bpf-stats")) {
			o->bpf_stats = true;
		} else if (!strcmp(w, "--pin") || !strcmp(w, "--no-pin")) {
			o->pin = w[2] == 'p';
		} else if (!strcmp(w, "--busy-poll") && i + 1 < argc) {
			if (nb_cli_busy_poll(argv[++i], &o->busy_poll_us))
				return NB_EXIT_USAGE;
		} else if (!strcmp(w, "--deterministic") && i + 1 < argc) {
			if (nb_cli_deterministic(argv[++i]))
				return NB_EXIT_USAGE;
			o->deterministic = true;
		} else if (!strcmp(w, "--set") && i + 1 < argc) {
			if (!strchr(argv[++i], '=') || o->set_cnt >= MAX_SETS) {
				nb_cli_error("Error: argument \"%s\" is wrong: --set takes "
					     "VAR=VALUE", argv[i]);
				return NB_EXIT_USAGE;
			}
			o->sets[o->set_cnt++] = argv[i];
		} else if (w[0] != '-' && !o->script) {
			o->script = w;
		} else {
			nb_cli_error("Error: argument \"%s\" is %s: expected SCRIPT, --name "
				     "NAME, --workers N, --pin, --no-pin, --busy-poll US, "
				     "--bpf-stats, --deterministic SEED or --set VAR=VALUE", w,
				     w[0] == '-' ? "unknown" : "wrong");
			return nb_cli_usage(daemon_usage, false);
		}
	}
	/* two workers share the virtual clock in the order the scheduler runs them */
	if (o->deterministic && o->workers > 1) {
		nb_cli_error("Error: --deterministic replays one worker's run: it excludes "
			     "--workers N above 1");
		return NB_EXIT_USAGE;
	}
	return 0;
}

/* A request from a client: the line, then the datapath takes the devices as they are now. */
static void daemon_exec(void *ctx, const struct nb_ctl_request *req, struct nb_ctl_reply *rep)
{
	struct daemon *d = ctx;
	int err;

	nb_ctl_run_request(&d->ctl, req, rep);
	err = nb_datapath_sync(d->dp);
	if (err)
		fprintf(stderr, "netbpf daemon: cannot take the devices' queues: %s\n",
			strerror(-err));
}

static void serve(struct daemon *d, struct nb_ctl_server *srv)
{
	double next_sample = now_s() + 1.0;

	while (!stop_signal) {
		double t;

		nb_ctl_server_serve(srv, 200);
		t = now_s();
		if (t >= next_sample) {
			nb_ctl_rates_sample(&d->rates, t);
			next_sample = t + 1.0;
		}
		/* what the commands retired (old filters, programs, map elements) */
		nb_epoch_reclaim();
	}
}

int cmd_daemon(int argc, char **argv)
{
	struct daemon_opts o = { .name = "default", .workers = 1 };
	struct nb_datapath_opts dopts = { .sz = sizeof(dopts) };
	struct nb_ctl_server *srv = NULL;
	struct daemon d = { 0 };
	struct nb_log log = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	char path[PATH_MAX];
	int status, err;

	if (argc >= 1 && nb_cli_is_help(argv[0]))
		return nb_cli_usage(daemon_usage, true);
	status = parse_args(argc, argv, &o);
	if (status)
		return status;
	err = nb_set_nr_cpus(o.workers);
	if (err) {
		nb_cli_error("Error: cannot use %u workers: %s", o.workers, strerror(-err));
		return NB_EXIT_ERR;
	}
	nb_bpf_stats_enable(o.bpf_stats);
	err = nb_ctl_daemon_path(o.name, path, sizeof(path), &log);
	if (!err)
		err = nb_ctl_server_open(path, daemon_exec, &d, &srv, &log);
	if (err) {
		fprintf(stderr, "netbpf daemon: %s", nb_log_text(&log));
		nb_log_free(&log);
		return NB_EXIT_ERR;
	}
	nb_cli_ctl_init(&d.ctl);
	if (o.script) {
		status = nb_cli_exec_script(&d.ctl, o.script, o.sets, o.set_cnt);
		if (status)
			goto out;
	}
	dopts.workers = o.workers;
	dopts.flags = o.pin ? NB_DATAPATH_PIN : 0;
	dopts.busy_poll_us = o.busy_poll_us;
	dopts.log = &log;
	err = nb_datapath_create(&dopts, &d.dp);
	if (!err)
		err = nb_datapath_start(d.dp);
	if (err) {
		fprintf(stderr, "netbpf daemon: cannot start the datapath: %s\n",
			nb_log_text(&log)[0] ? nb_log_text(&log) : strerror(-err));
		status = NB_EXIT_ERR;
		goto out;
	}
	d.ctl.dp = d.dp;
	d.ctl.rates = &d.rates;
	nb_ctl_rates_init(&d.rates, now_s());
	stop_signal = 0;
	/* no SA_RESTART: the signal ends the poll at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* under -j stdout holds the one document, the summary at the end */
	fprintf(nb_cli.json ? stderr : stdout,
		"netbpf daemon \"%s\": %u worker%s, listening on %s\n", o.name, o.workers,
		o.workers == 1 ? "" : "s", path);
	fflush(stdout);
	serve(&d, srv);
	/* no more requests: they would change what is being drained */
	nb_ctl_server_close(srv);
	srv = NULL;
	if (nb_datapath_drain(d.dp, DRAIN_TIMEOUT_MS))
		fprintf(stderr, "netbpf daemon: frames still moved after %d ms; stopping anyway\n",
			DRAIN_TIMEOUT_MS);
	nb_datapath_stop(d.dp);
	{
		struct nb_ctl_summary_opts so = { .secs = now_s() - d.rates.start, .up = true };

		nb_ctl_summary(&d.ctl, &so);
	}
	fprintf(stderr, "netbpf daemon \"%s\": stopped by %s\n", o.name,
		stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
	status = NB_EXIT_OK;
out:
	nb_ctl_server_close(srv);
	nb_datapath_destroy(d.dp);
	nb_ctl_rates_free(&d.rates);
	nb_log_free(&log);
	nb_log_free(&d.ctl.log);
	nb_dev_destroy_all();
	nb_tc_actions_destroy_unbound();
	return status;
}
