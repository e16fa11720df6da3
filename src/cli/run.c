// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf run [SCRIPT] [--duration S | --packets N] [--workers N] [--pin] [--busy-poll US]
 *            [--set VAR=VALUE]... [--maps] [--pool-packets N] [--deterministic SEED]
 *
 * Executes a script of link/tc/ip lines (src/ctl), then runs the datapath (netbpf/datapath.h:
 * worker threads that own the devices' receive queues); the main thread watches the counters,
 * prints live rates on a terminal and a summary at the end (-j: one JSON document).
 *
 * The run ends when every generator with a count has made it and every queue has drained (the
 * counters did not move between two looks and every worker finished an empty round in between),
 * after --duration S, or once the generators have made --packets N in all (the workers take
 * their bursts from a shared budget of N, so exactly N are made). Ctrl-C ends a run the same way.
 *
 * With no script it runs the built-in default: the seed's three tc set-ups side by side, each a
 * generator whose tc ingress sends every packet out of the device with the next ifindex (a
 * sink), and prints their table. Object paths in a script resolve against the script's
 * directory first, then the example objects' directory (nb_cli_examples_dir).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netbpf/clock.h>
#include <netbpf/datapath.h>
#include <netbpf/dev.h>
#include <netbpf/percpu.h>
#include <netbpf/pkt.h>
#include <netbpf/port.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/ctl.h"
#include "ctl/json.h"
#include "ctl/map.h"
#include "ctl/stats.h"
#include "ctl/tc.h"

#define MAX_WORKERS 64
#define MAX_SETS 64

/* The seed's set-ups on in-memory ports: gen N -> tc ingress -> redirect to sink N. */
static const char default_script[] =
	"# 1. u32 + act bpf clone_redirect_xmit drop: a clone leaves, the original is dropped\n"
	"link add gen1 type gen count $COUNT size 64\n"
	"link add sink1 type sink\n"
	"tc qdisc add dev gen1 ingress\n"
	"tc filter add dev gen1 root pref 10 u32 match u32 0 0 flowid 1:2 action bpf run "
	"object-file tcbpf1.o section clone_redirect_xmit drop\n"
	"# 2. u32 + act bpf redirect_xmit\n"
	"link add gen2 type gen count $COUNT size 64\n"
	"link add sink2 type sink\n"
	"tc qdisc add dev gen2 ingress\n"
	"tc filter add dev gen2 root pref 10 u32 match u32 0 0 flowid 1:2 action bpf run "
	"object-file tcbpf1.o section redirect_xmit drop\n"
	"# 3. bpf da redirect_xmit classid 1\n"
	"link add gen3 type gen count $COUNT size 64\n"
	"link add sink3 type sink\n"
	"tc qdisc add dev gen3 ingress\n"
	"tc filter add dev gen3 root pref 10 bpf run object-file tcbpf1.o section redirect_xmit "
	"integ_act classid 1\n";

static const char *const default_names[] = {
	"u32 + act bpf clone_redirect_xmit drop",
	"u32 + act bpf redirect_xmit drop",
	"bpf da redirect_xmit classid 1",
};

struct run_opts {
	const char *script;
	double duration;	/* 0: none */
	__u64 packets;		/* 0: none */
	unsigned int workers;
	unsigned long pool_packets;	/* 0: the packet pools grow as they must */
	const char *sets[MAX_SETS];
	int set_cnt;
	bool print_maps;	/* --maps */
	bool deterministic;	/* --deterministic SEED */
	bool pin;		/* --pin: each worker on a CPU of its own (--no-pin: the default) */
	int busy_poll_us;	/* --busy-poll, as struct nb_datapath_opts takes it */
};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char run_usage[] =
	"Usage: netbpf run [SCRIPT | -] [--duration S | --packets N] [--workers N]\n"
	"                  [--pin | --no-pin] [--busy-poll { adaptive | US }] [--set VAR=VALUE]...\n"
	"                  [--maps] [--pool-packets N] [--deterministic SEED]\n"
	"       netbpf -batch SCRIPT       the script's lines only, no datapath run\n";

static bool parse_run_args(int argc, char **argv, struct run_opts *o)
{
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		unsigned int n;
		char *end;

		if (i + 1 >= argc && (!strcmp(w, "--duration") || !strcmp(w, "--packets") ||
				      !strcmp(w, "--workers") || !strcmp(w, "--set") ||
				      !strcmp(w, "--busy-poll") || !strcmp(w, "--pool-packets") ||
				      !strcmp(w, "--deterministic"))) {
			nb_cli_error("Error: \"%s\" needs an argument", w);
			return false;
		}
		if (!strcmp(w, "--duration") && i + 1 < argc) {
			o->duration = strtod(argv[++i], &end);
			if (*end || o->duration <= 0) {
				nb_cli_error("Error: argument \"%s\" is wrong: --duration takes seconds",
					     argv[i]);
				return false;
			}
		} else if (!strcmp(w, "--packets") && i + 1 < argc) {
			o->packets = strtoull(argv[++i], &end, 0);
			if (*end || !o->packets || argv[i][0] == '-') {
				nb_cli_error("Error: argument \"%s\" is wrong: --packets takes a count",
					     argv[i]);
				return false;
			}
		} else if (!strcmp(w, "--workers") && i + 1 < argc) {
			if (!nb_ctl_parse_u32(argv[++i], &n, 10) || !n || n > MAX_WORKERS) {
				nb_cli_error("Error: argument \"%s\" is wrong: --workers takes 1 to %d",
					     argv[i], MAX_WORKERS);
				return false;
			}
			o->workers = n;
		} else if (!strcmp(w, "--set") && i + 1 < argc) {
			if (!strchr(argv[++i], '=') || o->set_cnt >= MAX_SETS) {
				nb_cli_error("Error: argument \"%s\" is wrong: --set takes VAR=VALUE",
					     argv[i]);
				return false;
			}
			o->sets[o->set_cnt++] = argv[i];
		} else if (!strcmp(w, "--maps")) {
			o->print_maps = true;
		} else if (!strcmp(w, "--pool-packets") && i + 1 < argc) {
			o->pool_packets = strtoul(argv[++i], &end, 0);
			if (*end || !o->pool_packets || argv[i][0] == '-') {
				nb_cli_error("Error: argument \"%s\" is wrong: --pool-packets takes a "
					     "count", argv[i]);
				return false;
			}
		} else if (!strcmp(w, "--pin") || !strcmp(w, "--no-pin")) {
			o->pin = w[2] == 'p';
		} else if (!strcmp(w, "--busy-poll") && i + 1 < argc) {
			if (nb_cli_busy_poll(argv[++i], &o->busy_poll_us))
				return false;
		} else if (!strcmp(w, "--deterministic") && i + 1 < argc) {
			if (nb_cli_deterministic(argv[++i]))
				return false;
			o->deterministic = true;
		} else if ((w[0] != '-' || !strcmp(w, "-")) && !o->script) {
			o->script = w;
		} else {
			nb_cli_error("Error: argument \"%s\" is %s: expected SCRIPT, --duration S, "
				     "--packets N, --workers N, --pin, --no-pin, --busy-poll US, "
				     "--set VAR=VALUE, --maps, --pool-packets N or --deterministic "
				     "SEED", w,
				     w[0] == '-' ? "unknown" : "wrong");
			nb_cli_usage(run_usage, false);
			return false;
		}
	}
	return true;
}

const char *nb_cli_examples_dir(void)
{
	static char dir[PATH_MAX];
	static bool done;
	const char *const tries[] = { "examples", "../share/netbpf/examples", "../examples" };
	char exe[PATH_MAX];
	ssize_t n;

	if (done)
		return dir[0] ? dir : NULL;
	done = true;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	for (size_t i = 0; i < ARRAY_SIZE(tries); i++) {
		char probe[PATH_MAX * 2];

		snprintf(probe, sizeof(probe), "%s/%s/tcbpf1.o", exe, tries[i]);
		if (!access(probe, R_OK) && strlen(probe) < sizeof(dir)) {
			*strrchr(probe, '/') = 0;
			memcpy(dir, probe, strlen(probe) + 1);
			return dir;
		}
	}
	return NULL;
}

int nb_cli_exec_script(struct nb_ctl *ctl, const char *path, const char *const *sets, int set_cnt)
{
	char dir[PATH_MAX];
	uint8_t *text;
	size_t len;
	int err;

	err = nb_read_file(path, &text, &len);
	if (err) {
		fprintf(stderr, "Error: cannot read script \"%s\": %s\n", path, strerror(-err));
		return NB_EXIT_ERR;
	}
	text = realloc(text, len + 1);
	if (!text)
		return NB_EXIT_ERR;
	text[len] = 0;
	snprintf(dir, sizeof(dir), "%s", path);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	ctl->base_dir = dir;
	err = nb_ctl_script_run(ctl, path, (char *)text, sets, set_cnt);
	free(text);
	ctl->base_dir = NULL;
	return nb_cli_ctl_status(ctl, err);
}

/* The script's text: a file, or the default. 0 or an exit status. */
static int exec_script(struct nb_ctl *ctl, const struct run_opts *o)
{
	char count_set[64];
	const char *sets[MAX_SETS + 1];
	int err, set_cnt = 0;

	if (!o->script) {
		if (!ctl->obj_dir) {
			fprintf(stderr, "Error: the example objects (tcbpf1.o) are not next to "
				"this netbpf (build/examples or PREFIX/share/netbpf/examples): run "
				"make\n");
			return NB_EXIT_ERR;
		}
		snprintf(count_set, sizeof(count_set), "COUNT=%llu",
			 (unsigned long long)(o->packets ? (o->packets + 2) / 3 : 100000));
		sets[set_cnt++] = count_set;
		for (int i = 0; i < o->set_cnt; i++)
			sets[set_cnt++] = o->sets[i];
		err = nb_ctl_script_run(ctl, "default", default_script, sets, set_cnt);
		return nb_cli_ctl_status(ctl, err);
	}
	return nb_cli_exec_script(ctl, o->script, o->sets, o->set_cnt);
}

/*
 * -batch: the lines only. With -j the show lines' documents become one array, so that stdout
 * is one document; a script that fails prints only its error (json_out.c).
 */
int nb_cli_batch(const char *path)
{
	struct run_opts o = { .script = path };
	char *shows = NULL;
	size_t shows_len = 0;
	struct nb_ctl ctl;
	int status;

	nb_cli_ctl_init(&ctl);
	if (nb_cli.json) {
		ctl.out = open_memstream(&shows, &shows_len);
		if (!ctl.out) {
			nb_cli_error("Error: out of memory");
			return NB_EXIT_ERR;
		}
	}
	status = exec_script(&ctl, &o);
	if (nb_cli.json) {
		fclose(ctl.out);
		if (status == NB_EXIT_OK) {
			struct nb_json *j = nb_json_new(stdout, nb_cli.pretty);

			nb_json_raw_values(j, NULL, shows);
			nb_json_free(j);
		}
		free(shows);
	}
	nb_dev_destroy_all();
	nb_tc_actions_destroy_unbound();
	return status;
}

static __u64 sink_delivered(struct nb_dev *dev)
{
	struct nb_sink_counts sc = { 0 };

	if (nb_dev_port(dev))
		nb_sink_counts(nb_dev_port(dev), &sc);
	return sc.packets;
}

/* The default's table, after the summary; *ok becomes false when a packet went missing. */
static void default_table(struct nb_ctl *ctl, struct nb_json *j, void *ctx)
{
	bool *ok = ctx, all = true;
	FILE *out = ctl->out;

	if (!j)
		fprintf(out, "\n%-40s %12s %12s %12s %12s\n",
			"seed set-up (gen -> tc ingress -> sink)", "generated", "redirected",
			"delivered", "dropped");
	else
		nb_json_start_array(j, "seed");
	for (unsigned int s = 0; s < 3; s++) {
		struct nb_dev_stats_total gs, ss;
		struct nb_dev *gen, *sink;
		char gname[16], sname[16];
		__u64 delivered;

		snprintf(gname, sizeof(gname), "gen%u", s + 1);
		snprintf(sname, sizeof(sname), "sink%u", s + 1);
		gen = nb_dev_get_by_name(gname);
		sink = nb_dev_get_by_name(sname);
		if (!gen || !sink) {
			nb_dev_put(gen);
			nb_dev_put(sink);
			all = false;
			break;
		}
		nb_dev_stats_read(gen, &gs);
		nb_dev_stats_read(sink, &ss);
		delivered = sink_delivered(sink);
		nb_dev_put(gen);
		nb_dev_put(sink);
		if (delivered != gs.rx_packets || ss.tx_packets != gs.rx_packets)
			all = false;
		if (j) {
			nb_json_start_object(j, NULL);
			nb_json_string(j, "setup", default_names[s]);
			nb_json_uint(j, "generated", gs.rx_packets);
			nb_json_uint(j, "redirected", ss.tx_packets);
			nb_json_uint(j, "delivered", delivered);
			nb_json_uint(j, "dropped", gs.rx_dropped);
			nb_json_end_object(j);
		} else {
			fprintf(out, "%-40s %12llu %12llu %12llu %12llu%s\n", default_names[s],
				(unsigned long long)gs.rx_packets,
				(unsigned long long)ss.tx_packets, (unsigned long long)delivered,
				(unsigned long long)gs.rx_dropped,
				gs.clones ? " (originals, after their clones left)" : "");
		}
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_bool(j, "all_delivered", all);
	} else {
		fprintf(out, "every packet delivered to its sink: %s\n", all ? "yes" : "NO");
	}
	*ok = all;
}

struct run_end {
	const struct run_opts *o;
	bool *ok;
};

/* After the summary: the default's table, every map's elements (--maps). */
static void run_extra(struct nb_ctl *ctl, struct nb_json *j, void *ctx)
{
	struct run_end *end = ctx;

	if (!end->o->script)
		default_table(ctl, j, end->ok);
	if (end->o->print_maps)
		nb_ctl_maps_print(ctl, j);
}

/*
 * The datapath's run, then the script's show lines (held until now, so that they show what the
 * traffic did; under -j into shows_file, which is closed here), then the summary.
 */
static int run_datapath(const struct run_opts *o, struct nb_ctl *script, FILE *shows_file,
			char **shows, bool *ok)
{
	struct nb_datapath_opts dopts = { .sz = sizeof(dopts), .workers = o->workers,
					  .packets = o->packets,
					  .flags = o->pin ? NB_DATAPATH_PIN : 0,
					  .busy_poll_us = o->busy_poll_us };
	bool tty = isatty(STDOUT_FILENO) && !nb_cli.json;
	double start = now_s(), last_live = start;
	__u64 vstart = nb_ktime_get_ns();	/* the virtual clock, in the deterministic mode */
	struct nb_datapath *dp = NULL;
	struct nb_log log = { 0 };
	struct nb_ctl_rates rates;
	unsigned int quiet = 0;
	struct nb_ctl ctl;
	int err;

	dopts.log = &log;
	err = nb_datapath_create(&dopts, &dp);
	if (!err)
		err = nb_datapath_start(dp);
	if (err) {
		fprintf(stderr, "Error: cannot start the datapath: %s\n",
			nb_log_text(&log)[0] ? nb_log_text(&log) : strerror(-err));
		if (shows_file)
			fclose(shows_file);
		script->out = stdout;
		nb_datapath_destroy(dp);
		nb_log_free(&log);
		return NB_EXIT_ERR;
	}
	nb_ctl_rates_init(&rates, start);
	interrupted = 0;
	signal(SIGINT, on_sigint);
	for (;;) {
		double t = now_s();
		struct nb_datapath_progress p;
		bool finishing, idle;

		nb_datapath_progress(dp, &p);
		if ((p.generators_done && o->packets) ||
		    (o->duration && t - start >= o->duration) || interrupted)
			nb_datapath_stop_generators(dp);
		/* without generators, frames come from outside (afxdp, ...): --duration waits */
		finishing = (o->duration && t - start >= o->duration) || interrupted ||
			    (p.generators_done && (p.has_generators || !o->duration));
		/* every look counts: it is the baseline of the next */
		idle = nb_datapath_idle(dp);
		quiet = finishing && idle ? quiet + 1 : 0;
		if (quiet >= 2)
			break;
		if (tty && t - last_live >= 1.0) {
			char suffix[64] = "";

			if (o->duration)
				snprintf(suffix, sizeof(suffix), " %.0f%% of %.1fs",
					 100.0 * (t - start) / o->duration, o->duration);
			else if (p.goal)
				snprintf(suffix, sizeof(suffix), " %.0f%% of %llu packets",
					 100.0 * p.generated / p.goal, (unsigned long long)p.goal);
			nb_ctl_rates_sample(&rates, t);
			nb_ctl_rates_print(stdout, NULL, &rates, suffix);
			fflush(stdout);
			last_live = t;
		}
		usleep(finishing ? 2000 : 20000);
	}
	nb_datapath_stop(dp);
	signal(SIGINT, SIG_DFL);
	script->dp = dp;
	err = nb_ctl_later_run(script, script->later);
	script->dp = NULL;
	if (shows_file) {
		fclose(shows_file);
		script->out = stdout;
	}
	if (err) {
		nb_ctl_rates_free(&rates);
		nb_datapath_destroy(dp);
		nb_log_free(&log);
		return nb_cli_ctl_status(script, err);
	}
	nb_cli_ctl_init(&ctl);
	ctl.dp = dp;
	{
		struct run_end end = { o, ok };
		struct nb_ctl_summary_opts so = { .secs = now_s() - start, .shows = *shows,
						  .extra = run_extra, .ctx = &end };

		/* how long the run took on the clock the programs saw */
		if (nb_deterministic_enabled())
			so.secs = (nb_ktime_get_ns() - vstart) / 1e9;
		if (nb_cli.json && !so.shows)
			so.shows = "";
		nb_ctl_summary(&ctl, &so);
	}
	nb_ctl_rates_free(&rates);
	nb_datapath_destroy(dp);
	nb_log_free(&log);
	return NB_EXIT_OK;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .workers = 1 };
	FILE *shows_file = NULL;
	char *shows = NULL;
	size_t shows_len = 0;
	struct nb_ctl ctl;
	bool ok = true;
	int status;

	if (argc >= 1 && nb_cli_is_help(argv[0]))
		return nb_cli_usage(run_usage, true);
	if (!parse_run_args(argc, argv, &o))
		return NB_EXIT_USAGE;
	if (o.duration && o.packets) {
		nb_cli_error("Error: --duration and --packets exclude each other");
		return NB_EXIT_USAGE;
	}
	nb_pkt_pool_set_max(o.pool_packets);
	/* what a wall-clock limit or a second worker lets through varies from run to run */
	if (o.deterministic && (o.duration || o.workers > 1)) {
		nb_cli_error("Error: --deterministic replays one worker's run: it excludes %s",
			     o.duration ? "--duration (give --packets N or generator counts)" :
					  "--workers N above 1");
		return NB_EXIT_USAGE;
	}
	status = nb_set_nr_cpus(o.workers);
	if (status) {
		nb_cli_error("Error: cannot use %u workers: %s", o.workers, strerror(-status));
		return NB_EXIT_ERR;
	}
	nb_cli_ctl_init(&ctl);
	ctl.later = nb_ctl_later_new();
	if (!ctl.later) {
		nb_cli_error("Error: out of memory");
		return NB_EXIT_ERR;
	}
	/* with -j the script's show output goes into the one document at the end */
	if (nb_cli.json) {
		shows_file = open_memstream(&shows, &shows_len);
		if (shows_file)
			ctl.out = shows_file;
	}
	status = exec_script(&ctl, &o);
	/* a script that fails prints only its error: under -j, the one document (json_out.c) */
	if (status == NB_EXIT_OK) {
		status = run_datapath(&o, &ctl, shows_file, &shows, &ok);
	} else if (shows_file) {
		fclose(shows_file);
		ctl.out = stdout;
	}
	nb_ctl_later_free(ctl.later);
	free(shows);
	nb_dev_destroy_all();
	nb_tc_actions_destroy_unbound();
	if (status == NB_EXIT_OK && !ok)
		status = NB_EXIT_ERR;
	return status;
}
