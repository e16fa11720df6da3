// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf run [SCRIPT] [--duration S | --packets N] [--workers N] [--set VAR=VALUE]...
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

#include <netbpf/datapath.h>
#include <netbpf/dev.h>
#include <netbpf/percpu.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/ctl.h"
#include "ctl/json.h"
#include "ctl/tc.h"
#include "io/gen.h"
#include "io/port.h"
#include "io/sink.h"
#include "net/dev.h"
#include "net/xdp.h"

#define MAX_DEVS 256
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
	u64 packets;		/* 0: none */
	unsigned int workers;
	const char *sets[MAX_SETS];
	int set_cnt;
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

static bool parse_run_args(int argc, char **argv, struct run_opts *o)
{
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		unsigned int n;
		char *end;

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
		} else if (w[0] != '-' && !o->script) {
			o->script = w;
		} else {
			nb_cli_error("Error: argument \"%s\" is wrong: expected SCRIPT, --duration S, "
				     "--packets N, --workers N or --set VAR=VALUE", w);
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

/* The script's text: a file, or the default. 0 or an exit status. */
static int exec_script(struct nb_ctl *ctl, const struct run_opts *o)
{
	char count_set[64], dir[PATH_MAX];
	const char *sets[MAX_SETS + 1];
	uint8_t *text;
	size_t len;
	int err, set_cnt = 0;

	if (!o->script) {
		if (!ctl->obj_dir) {
			fprintf(stderr, "Error: the example objects (tcbpf1.o) are not next to this "
				"netbpf (build/examples or PREFIX/share/netbpf/examples): run make\n");
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
	err = nb_read_file(o->script, &text, &len);
	if (err) {
		fprintf(stderr, "Error: cannot read script \"%s\": %s\n", o->script, strerror(-err));
		return NB_EXIT_ERR;
	}
	text = realloc(text, len + 1);
	if (!text)
		return NB_EXIT_ERR;
	text[len] = 0;
	snprintf(dir, sizeof(dir), "%s", o->script);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	ctl->base_dir = dir;
	err = nb_ctl_script_run(ctl, o->script, (char *)text, o->sets, o->set_cnt);
	free(text);
	ctl->base_dir = NULL;
	return nb_cli_ctl_status(ctl, err);
}

int nb_cli_batch(const char *path)
{
	struct run_opts o = { .script = path };
	struct nb_ctl ctl;
	int status;

	nb_cli_ctl_init(&ctl);
	status = exec_script(&ctl, &o);
	nb_dev_destroy_all();
	nb_tc_actions_destroy_unbound();
	return status;
}

struct totals {
	u64 rx, tx, drops, host, exceptions, redirects;	/* redirects: XDP's and tc's */
};

static void dev_totals(struct nb_dev *dev, struct totals *t)
{
	struct nb_dev_stats_total s;
	struct nb_xdp_stats x;

	nb_dev_stats_read(dev, &s);
	nb_dev_xdp_stats_read(dev, &x);
	t->rx = s.rx_packets;
	t->tx = s.tx_packets;
	t->drops = s.rx_dropped;
	t->host = s.host_packets;
	t->redirects = x.redirect + x.tx + s.tc_redirect;
	t->exceptions = x.aborted + x.invalid + x.redirect_err + s.drops[NB_DROP_RECURSION] +
			s.drops[NB_DROP_NO_DEV] + s.drops[NB_DROP_TX_ERROR] +
			s.drops[NB_DROP_TOO_BIG] + s.drops[NB_DROP_NOMEM] +
			s.drops[NB_DROP_DEV_DOWN];
}

static void print_filters_text(struct nb_dev *dev, enum nb_tc_hook hook,
			       const struct nb_tc_filter_info *info, void *ctx)
{
	char cbuf[32], hbuf[32];

	(void)ctx;
	printf("  %-8s %-7s pref %-5u %-8s handle %-10s %12llu pkts %14llu bytes %12llu drops\n",
	       nb_dev_name(dev), hook == NB_TC_INGRESS ? "ingress" : "egress", info->id.pref,
	       info->kind, nb_ctl_handle_name(info->kind, info->id.handle, hbuf, sizeof(hbuf)),
	       (unsigned long long)info->stats.packets,
	       (unsigned long long)info->stats.bytes, (unsigned long long)info->stats.drops);
	/* a shared action (bind > 1) shows the packets of every filter bound to it */
	for (unsigned int a = 0; a < info->action_cnt; a++)
		printf("  %-8s %-7s   action %u: %-6s %-10s index %-4u bind %-3d %12llu pkts "
		       "%14llu bytes %12llu drops\n", "", "", a + 1, info->actions[a].kind,
		       nb_ctl_control_name(info->actions[a].control, cbuf, sizeof(cbuf)),
		       info->actions[a].index, info->actions[a].bindcnt,
		       (unsigned long long)info->actions[a].stats.packets,
		       (unsigned long long)info->actions[a].stats.bytes,
		       (unsigned long long)info->actions[a].stats.drops);
}

struct json_filters {
	struct nb_json *j;
	struct nb_dev *dev;
};

static void print_filters_json(struct nb_dev *dev, enum nb_tc_hook hook,
			       const struct nb_tc_filter_info *info, void *ctx)
{
	struct json_filters *jf = ctx;
	struct nb_json *j = jf->j;
	char cbuf[32];

	if (dev != jf->dev)
		return;
	nb_json_start_object(j, NULL);
	nb_json_string(j, "hook", hook == NB_TC_INGRESS ? "ingress" : "egress");
	nb_json_uint(j, "chain", info->id.chain);
	nb_json_uint(j, "pref", info->id.pref);
	nb_json_string(j, "kind", info->kind);
	nb_json_uint(j, "handle", info->id.handle);
	nb_json_uint(j, "packets", info->stats.packets);
	nb_json_uint(j, "bytes", info->stats.bytes);
	nb_json_uint(j, "drops", info->stats.drops);
	nb_json_start_array(j, "actions");
	for (unsigned int a = 0; a < info->action_cnt; a++) {
		nb_json_start_object(j, NULL);
		nb_json_uint(j, "order", a + 1);
		nb_json_string(j, "kind", info->actions[a].kind);
		nb_json_string(j, "control", nb_ctl_control_name(info->actions[a].control, cbuf,
								 sizeof(cbuf)));
		nb_json_uint(j, "index", info->actions[a].index);
		nb_json_int(j, "ref", info->actions[a].refcnt);
		nb_json_int(j, "bind", info->actions[a].bindcnt);
		nb_json_uint(j, "packets", info->actions[a].stats.packets);
		nb_json_uint(j, "bytes", info->actions[a].stats.bytes);
		nb_json_uint(j, "drops", info->actions[a].stats.drops);
		nb_json_end_object(j);
	}
	nb_json_end_array(j);
	nb_json_end_object(j);
}

static u64 sink_delivered(struct nb_dev *dev)
{
	struct nb_sink_counts sc = { 0 };

	if (dev->port)
		nb_sink_counts(dev->port, &sc);
	return sc.packets;
}

/* The default's table; returns false when a packet went missing. */
static bool default_table(struct nb_dev **devs, unsigned int n, struct nb_json *j)
{
	bool all = true;

	if (!j)
		printf("\n%-40s %12s %12s %12s %12s\n", "seed set-up (gen -> tc ingress -> sink)",
		       "generated", "redirected", "delivered", "dropped");
	else
		nb_json_start_array(j, "seed");
	for (unsigned int s = 0; s < 3; s++) {
		struct nb_dev *gen = NULL, *sink = NULL;
		struct nb_dev_stats_total gs, ss;
		char gname[16], sname[16];
		u64 delivered;

		snprintf(gname, sizeof(gname), "gen%u", s + 1);
		snprintf(sname, sizeof(sname), "sink%u", s + 1);
		for (unsigned int d = 0; d < n; d++) {
			if (!strcmp(nb_dev_name(devs[d]), gname))
				gen = devs[d];
			if (!strcmp(nb_dev_name(devs[d]), sname))
				sink = devs[d];
		}
		if (!gen || !sink)
			return false;
		nb_dev_stats_read(gen, &gs);
		nb_dev_stats_read(sink, &ss);
		delivered = sink_delivered(sink);
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
			printf("%-40s %12llu %12llu %12llu %12llu%s\n", default_names[s],
			       (unsigned long long)gs.rx_packets, (unsigned long long)ss.tx_packets,
			       (unsigned long long)delivered, (unsigned long long)gs.rx_dropped,
			       gs.clones ? " (originals, after their clones left)" : "");
		}
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_bool(j, "all_delivered", all);
	} else {
		printf("every packet delivered to its sink: %s\n", all ? "yes" : "NO");
	}
	return all;
}

/* The actions of one kind, for the summary: what no filter holds shows here too. */
static int print_action_json(const struct nb_tc_action_info *info, void *ctx)
{
	struct nb_json *j = ctx;
	char cbuf[32];

	nb_json_start_object(j, NULL);
	nb_json_string(j, "kind", info->kind);
	nb_json_uint(j, "index", info->index);
	nb_json_string(j, "control", nb_ctl_control_name(info->control, cbuf, sizeof(cbuf)));
	nb_json_int(j, "ref", info->refcnt);
	nb_json_int(j, "bind", info->bindcnt);
	nb_json_uint(j, "packets", info->stats.packets);
	nb_json_uint(j, "bytes", info->stats.bytes);
	nb_json_uint(j, "drops", info->stats.drops);
	nb_json_uint(j, "overlimits", info->stats.overlimits);
	nb_json_end_object(j);
	return 0;
}

static int print_action_text(const struct nb_tc_action_info *info, void *ctx)
{
	char cbuf[32];

	(void)ctx;
	printf("  %-6s index %-5u %-18s ref %-3d bind %-3d %12llu pkts %14llu bytes %12llu drops\n",
	       info->kind, info->index, nb_ctl_control_name(info->control, cbuf, sizeof(cbuf)),
	       info->refcnt, info->bindcnt, (unsigned long long)info->stats.packets,
	       (unsigned long long)info->stats.bytes, (unsigned long long)info->stats.drops);
	return 0;
}

static void summary_actions(struct nb_json *j)
{
	if (j)
		nb_json_start_array(j, "actions");
	else
		printf("\nactions (tc actions list):\n");
	for (const char *const *kind = nb_tc_action_kinds(); *kind; kind++) {
		struct nb_log log = { 0 };

		nb_tc_actions_walk(*kind, j ? print_action_json : print_action_text, j, &log);
		nb_log_free(&log);
	}
	if (j)
		nb_json_end_array(j);
}

static void summary(struct nb_dev **devs, unsigned int n, double secs, bool is_default,
		    const char *shows, bool *ok)
{
	struct nb_json *j = NULL;

	if (nb_cli.json) {
		j = nb_json_new(stdout, nb_cli.pretty);
		nb_json_start_object(j, NULL);
		/* what the script's show lines printed, one document each */
		nb_json_raw_values(j, "commands", shows);
		nb_json_uint(j, "duration_ms", (u64)(secs * 1000));
		nb_json_start_array(j, "devices");
	} else {
		printf("%-10s %7s %12s %14s %12s %14s %12s %12s %12s %12s  %s\n", "device",
		       "ifindex", "rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "host",
		       "xdp_redir", "tc_redir", "dropped", "drops by reason");
	}
	for (unsigned int d = 0; d < n; d++) {
		struct nb_dev_stats_total s;
		struct nb_xdp_stats x;

		nb_dev_stats_read(devs[d], &s);
		nb_dev_xdp_stats_read(devs[d], &x);
		if (j) {
			struct json_filters jf = { j, devs[d] };

			nb_json_start_object(j, NULL);
			nb_json_string(j, "name", nb_dev_name(devs[d]));
			nb_json_uint(j, "ifindex", nb_dev_ifindex(devs[d]));
			nb_json_uint(j, "rx_packets", s.rx_packets);
			nb_json_uint(j, "rx_bytes", s.rx_bytes);
			nb_json_uint(j, "tx_packets", s.tx_packets);
			nb_json_uint(j, "tx_bytes", s.tx_bytes);
			nb_json_uint(j, "host_packets", s.host_packets);
			nb_json_uint(j, "consumed", s.consumed);
			nb_json_uint(j, "clones", s.clones);
			nb_json_uint(j, "xdp_redirect", x.redirect + x.tx);
			nb_json_uint(j, "tc_redirect", s.tc_redirect);
			nb_json_uint(j, "dropped", s.rx_dropped);
			nb_json_start_object(j, "drops");
			for (int r = 0; r < NB_DROP_REASON_MAX; r++)
				if (s.drops[r])
					nb_json_uint(j, nb_drop_reason_name(r), s.drops[r]);
			nb_json_end_object(j);
			nb_json_start_array(j, "filters");
			nb_ctl_for_each_filter(print_filters_json, &jf);
			nb_json_end_array(j);
			nb_json_end_object(j);
			continue;
		}
		printf("%-10s %7u %12llu %14llu %12llu %14llu %12llu %12llu %12llu %12llu ",
		       nb_dev_name(devs[d]), nb_dev_ifindex(devs[d]),
		       (unsigned long long)s.rx_packets, (unsigned long long)s.rx_bytes,
		       (unsigned long long)s.tx_packets, (unsigned long long)s.tx_bytes,
		       (unsigned long long)s.host_packets,
		       (unsigned long long)(x.redirect + x.tx), (unsigned long long)s.tc_redirect,
		       (unsigned long long)s.rx_dropped);
		for (int r = 0; r < NB_DROP_REASON_MAX; r++)
			if (s.drops[r])
				printf(" %s:%llu", nb_drop_reason_name(r),
				       (unsigned long long)s.drops[r]);
		printf("\n");
	}
	if (j) {
		nb_json_end_array(j);
		summary_actions(j);
	} else {
		printf("\nfilters and actions:\n");
		nb_ctl_for_each_filter(print_filters_text, NULL);
		summary_actions(NULL);
		printf("ran %.3f s\n", secs);
	}
	if (is_default)
		*ok = default_table(devs, n, j);
	if (j) {
		nb_json_end_object(j);
		nb_json_free(j);
	}
}

static void live_line(struct nb_dev **devs, unsigned int n, struct totals *last, double dt,
		      double elapsed, const struct run_opts *o, u64 made, u64 goal)
{
	printf("[%6.1fs]", elapsed);
	for (unsigned int d = 0; d < n; d++) {
		struct totals t;

		dev_totals(devs[d], &t);
		printf(" %s rx %.2f tx %.2f drop %.2f Mpps redir %llu exc %llu |",
		       nb_dev_name(devs[d]), (t.rx - last[d].rx) / dt / 1e6,
		       (t.tx - last[d].tx) / dt / 1e6, (t.drops - last[d].drops) / dt / 1e6,
		       (unsigned long long)t.redirects, (unsigned long long)t.exceptions);
		last[d] = t;
	}
	if (o->duration)
		printf(" %.0f%% of %.1fs", 100.0 * elapsed / o->duration, o->duration);
	else if (goal)
		printf(" %.0f%% of %llu packets", 100.0 * made / goal, (unsigned long long)goal);
	printf("\n");
	fflush(stdout);
}

static int run_datapath(const struct run_opts *o, const char *shows, bool *ok)
{
	static struct totals last[MAX_DEVS];
	struct nb_datapath_opts dopts = { .sz = sizeof(dopts), .workers = o->workers,
					  .packets = o->packets };
	struct nb_dev *devs[MAX_DEVS];
	unsigned int n = nb_dev_list(devs, MAX_DEVS), quiet = 0;
	bool tty = isatty(STDOUT_FILENO) && !nb_cli.json;
	double start = now_s(), last_live = start;
	struct nb_datapath *dp = NULL;
	struct nb_log log = { 0 };
	int err;

	if (n > MAX_DEVS) {
		for (unsigned int d = 0; d < MAX_DEVS; d++)
			nb_dev_put(devs[d]);
		fprintf(stderr, "Error: more than %d devices\n", MAX_DEVS);
		return NB_EXIT_ERR;
	}
	dopts.log = &log;
	err = nb_datapath_create(&dopts, &dp);
	if (!err)
		err = nb_datapath_start(dp);
	if (err) {
		fprintf(stderr, "Error: cannot start the datapath: %s\n",
			nb_log_text(&log)[0] ? nb_log_text(&log) : strerror(-err));
		goto out;
	}
	interrupted = 0;
	signal(SIGINT, on_sigint);
	for (;;) {
		double t = now_s();
		struct nb_datapath_progress p;
		bool finishing, idle;

		nb_datapath_progress(dp, &p);
		if (p.generators_done && o->packets)
			nb_datapath_stop_generators(dp);
		if ((o->duration && t - start >= o->duration) || interrupted)
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
			live_line(devs, n, last, t - last_live, t - start, o, p.generated, p.goal);
			last_live = t;
		}
		usleep(finishing ? 2000 : 20000);
	}
	nb_datapath_stop(dp);
	signal(SIGINT, SIG_DFL);
	summary(devs, n, now_s() - start, !o->script, shows, ok);
out:
	nb_datapath_destroy(dp);
	nb_log_free(&log);
	for (unsigned int d = 0; d < n; d++)
		nb_dev_put(devs[d]);
	return err ? NB_EXIT_ERR : NB_EXIT_OK;
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

	if (!parse_run_args(argc, argv, &o))
		return NB_EXIT_USAGE;
	if (o.duration && o.packets) {
		nb_cli_error("Error: --duration and --packets exclude each other");
		return NB_EXIT_USAGE;
	}
	status = nb_set_nr_cpus(o.workers);
	if (status) {
		nb_cli_error("Error: cannot use %u workers: %s", o.workers, strerror(-status));
		return NB_EXIT_ERR;
	}
	nb_cli_ctl_init(&ctl);
	/* with -j the script's show output goes into the one document at the end */
	if (nb_cli.json) {
		shows_file = open_memstream(&shows, &shows_len);
		if (shows_file)
			ctl.out = shows_file;
	}
	status = exec_script(&ctl, &o);
	if (shows_file) {
		fclose(shows_file);
		ctl.out = stdout;
	}
	if (status == NB_EXIT_OK)
		status = run_datapath(&o, shows, &ok);
	else if (shows)
		fputs(shows, stdout);
	free(shows);
	nb_dev_destroy_all();
	nb_tc_actions_destroy_unbound();
	if (status == NB_EXIT_OK && !ok)
		status = NB_EXIT_ERR;
	return status;
}
