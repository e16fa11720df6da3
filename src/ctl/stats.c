// SPDX-License-Identifier: GPL-2.0
/*
 * The datapath's counters for people: the summary `netbpf run` prints at its end and `stats`
 * prints at any time (every device's counters and drops by reason, its port's own counters,
 * every filter and action, the shared actions, the workers), and the live line of rates a
 * terminal shows once a second and `monitor` prints from a daemon.
 *
 *   stats                    the summary, then the rates of the last sample
 *   monitor                  one line of rates (a daemon's client repeats it: netbpf monitor)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/clock.h>
#include <netbpf/datapath.h>
#include <netbpf/dev.h>
#include <netbpf/tc.h>

#include "ctl/ctl.h"
#include "ctl/json.h"
#include "ctl/stats.h"
#include "ctl/tc.h"
#include "net/xdp.h"

void nb_ctl_dev_totals(struct nb_dev *dev, struct nb_ctl_totals *t)
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
	FILE *out = ctx;
	char cbuf[32], hbuf[32];

	fprintf(out, "  %-8s %-7s pref %-5u %-8s handle %-10s", nb_dev_name(dev),
		hook == NB_TC_INGRESS ? "ingress" : "egress", info->id.pref, info->kind,
		nb_tc_filter_handle_name(info->kind, info->id.handle, hbuf, sizeof(hbuf)));
	/* the kernel's cls_bpf keeps no counters of its own: its actions and the device count */
	if (!info->no_stats)
		fprintf(out, " %12llu pkts %14llu bytes %12llu drops",
			(unsigned long long)info->stats.packets,
			(unsigned long long)info->stats.bytes,
			(unsigned long long)info->stats.drops);
	fputc('\n', out);
	/* a shared action (bind > 1) shows the packets of every filter bound to it */
	for (unsigned int a = 0; a < info->action_cnt; a++)
		fprintf(out, "  %-8s %-7s   action %u: %-6s %-10s index %-4u bind %-3d %12llu pkts "
			"%14llu bytes %12llu drops\n", "", "", a + 1, info->actions[a].kind,
			nb_tc_control_name(info->actions[a].control, cbuf, sizeof(cbuf)),
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
	/* the kernel's cls_bpf keeps no counters of its own: its actions and the device count */
	if (!info->no_stats) {
		nb_json_uint(j, "packets", info->stats.packets);
		nb_json_uint(j, "bytes", info->stats.bytes);
		nb_json_uint(j, "drops", info->stats.drops);
	}
	nb_json_start_array(j, "actions");
	for (unsigned int a = 0; a < info->action_cnt; a++) {
		nb_json_start_object(j, NULL);
		nb_json_uint(j, "order", a + 1);
		nb_json_string(j, "kind", info->actions[a].kind);
		nb_json_string(j, "control", nb_tc_control_name(info->actions[a].control, cbuf,
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

/* The actions of one kind, for the summary: what no filter holds shows here too. */
static int print_action_json(const struct nb_tc_action_info *info, void *ctx)
{
	struct nb_json *j = ctx;
	char cbuf[32];

	nb_json_start_object(j, NULL);
	nb_json_string(j, "kind", info->kind);
	nb_json_uint(j, "index", info->index);
	nb_json_string(j, "control", nb_tc_control_name(info->control, cbuf, sizeof(cbuf)));
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
	FILE *out = ctx;
	char cbuf[32];

	fprintf(out, "  %-6s index %-5u %-18s ref %-3d bind %-3d %12llu pkts %14llu bytes %12llu "
		"drops\n", info->kind, info->index,
		nb_tc_control_name(info->control, cbuf, sizeof(cbuf)), info->refcnt,
		info->bindcnt, (unsigned long long)info->stats.packets,
		(unsigned long long)info->stats.bytes, (unsigned long long)info->stats.drops);
	return 0;
}

static void summary_actions(FILE *out, struct nb_json *j)
{
	if (j)
		nb_json_start_array(j, "actions");
	else
		fprintf(out, "\nactions (tc actions list):\n");
	for (const char *const *kind = nb_tc_action_kinds(); *kind; kind++) {
		struct nb_log log = { 0 };

		if (j)
			nb_tc_actions_walk(*kind, print_action_json, j, &log);
		else
			nb_tc_actions_walk(*kind, print_action_text, out, &log);
		nb_log_free(&log);
	}
	if (j)
		nb_json_end_array(j);
}

static void summary_workers(FILE *out, struct nb_json *j, struct nb_datapath *dp)
{
	bool replay = nb_deterministic_enabled();
	struct nb_datapath_worker_info wi;

	if (j)
		nb_json_start_array(j, "workers");
	else
		fprintf(out, "\nworkers:\n");
	for (unsigned int w = 0; !nb_datapath_worker_info(dp, w, &wi); w++) {
		if (j) {
			nb_json_start_object(j, NULL);
			nb_json_uint(j, "worker", w);
			nb_json_int(j, "cpu", wi.cpu);
			nb_json_uint(j, "queues", wi.nr_queues);
			/* rounds and CPU time go with the clock: a replay (deterministic) leaves them out */
			if (!replay) {
				nb_json_uint(j, "rounds", wi.rounds);
				nb_json_uint(j, "idle_rounds", wi.idle_rounds);
			}
			nb_json_uint(j, "packets", wi.packets);
			if (!replay)
				nb_json_uint(j, "cpu_ns", wi.cpu_ns);
			nb_json_end_object(j);
			continue;
		}
		if (replay)
			fprintf(out, "  worker %-3u cpu %-4d queues %-4u %14llu pkts\n", w, wi.cpu,
				wi.nr_queues, (unsigned long long)wi.packets);
		else
			fprintf(out, "  worker %-3u cpu %-4d queues %-4u %14llu rounds %14llu idle "
				"%14llu pkts %9.3f s CPU\n", w, wi.cpu, wi.nr_queues,
				(unsigned long long)wi.rounds, (unsigned long long)wi.idle_rounds,
				(unsigned long long)wi.packets, wi.cpu_ns / 1e9);
	}
	if (j)
		nb_json_end_array(j);
}

/* The devices in ifindex order, referenced; NULL with *np 0 when there are none. */
static struct nb_dev **list_devs(unsigned int *np)
{
	unsigned int n = nb_dev_list(NULL, 0), got;
	struct nb_dev **devs = NULL;

	for (;;) {
		struct nb_dev **bigger = realloc(devs, (n ? n : 1) * sizeof(*devs));

		if (!bigger) {
			free(devs);
			*np = 0;
			return NULL;
		}
		devs = bigger;
		got = nb_dev_list(devs, n);
		if (got <= n)
			break;
		for (unsigned int i = 0; i < n; i++)
			nb_dev_put(devs[i]);
		n = got;
	}
	*np = got;
	return devs;
}

static void put_devs(struct nb_dev **devs, unsigned int n)
{
	for (unsigned int d = 0; d < n; d++)
		nb_dev_put(devs[d]);
	free(devs);
}

static void summary_devices(FILE *out, struct nb_json *j)
{
	unsigned int n;
	struct nb_dev **devs = list_devs(&n);

	if (j)
		nb_json_start_array(j, "devices");
	else
		fprintf(out, "%-10s %7s %12s %14s %12s %14s %12s %12s %12s %12s  %s\n", "device",
			"ifindex", "rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "host",
			"xdp_redir", "tc_redir", "dropped", "drops by reason");
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
		fprintf(out, "%-10s %7u %12llu %14llu %12llu %14llu %12llu %12llu %12llu %12llu ",
			nb_dev_name(devs[d]), nb_dev_ifindex(devs[d]),
			(unsigned long long)s.rx_packets, (unsigned long long)s.rx_bytes,
			(unsigned long long)s.tx_packets, (unsigned long long)s.tx_bytes,
			(unsigned long long)s.host_packets,
			(unsigned long long)(x.redirect + x.tx), (unsigned long long)s.tc_redirect,
			(unsigned long long)s.rx_dropped);
		for (int r = 0; r < NB_DROP_REASON_MAX; r++)
			if (s.drops[r])
				fprintf(out, " %s:%llu", nb_drop_reason_name(r),
					(unsigned long long)s.drops[r]);
		fputc('\n', out);
	}
	if (j)
		nb_json_end_array(j);
	put_devs(devs, n);
}

/*
 * The ports' own counters (nb_dev_port_stats): what the kernel dropped before a port read it,
 * what was too big to carry and what the kernel refused to send are not the datapath's drops
 * alone, so the summary shows them as the ports counted them.
 */
static void summary_ports(FILE *out, struct nb_json *j)
{
	unsigned int n;
	struct nb_dev **devs = list_devs(&n);

	if (j)
		nb_json_start_array(j, "ports");
	else
		fprintf(out, "\nports:\n");
	for (unsigned int d = 0; d < n; d++) {
		struct nb_dev_port_stats p;
		char desc[256];

		if (nb_dev_port_stats(devs[d], NB_DEV_PORT_ALL_QUEUES, &p))
			continue;
		nb_dev_port_describe(devs[d], desc, sizeof(desc));
		if (j) {
			nb_json_start_object(j, NULL);
			nb_json_string(j, "device", nb_dev_name(devs[d]));
			nb_json_string(j, "description", desc);
			nb_json_uint(j, "received", p.rx_packets);
			nb_json_uint(j, "sent", p.tx_packets);
			nb_json_uint(j, "ring_drops", p.rx_ring_drops);
			nb_json_uint(j, "too_big", p.rx_too_big);
			nb_json_uint(j, "tx_errors", p.tx_errors);
			if (p.zero_copy) {
				nb_json_uint(j, "lent", p.rx_lent);
				nb_json_uint(j, "by_descriptor", p.tx_by_desc);
			}
			nb_json_end_object(j);
			continue;
		}
		fprintf(out, "  %-10s %12llu received %12llu sent %10llu ring drops %10llu too big "
			"%10llu tx errors  %s\n", nb_dev_name(devs[d]),
			(unsigned long long)p.rx_packets, (unsigned long long)p.tx_packets,
			(unsigned long long)p.rx_ring_drops, (unsigned long long)p.rx_too_big,
			(unsigned long long)p.tx_errors, desc);
	}
	if (j)
		nb_json_end_array(j);
	put_devs(devs, n);
}

void nb_ctl_summary(struct nb_ctl *ctl, const struct nb_ctl_summary_opts *o)
{
	struct nb_json *j = NULL;
	FILE *out = ctl->out;

	if (ctl->json) {
		j = nb_json_new(out, ctl->pretty);
		nb_json_start_object(j, NULL);
		if (o->shows)	/* what a script's show lines printed, one document each */
			nb_json_raw_values(j, "commands", o->shows);
		nb_json_uint(j, o->up ? "up_ms" : "duration_ms", (u64)(o->secs * 1000));
	}
	summary_devices(out, j);
	summary_ports(out, j);
	if (j) {
		summary_actions(out, j);
	} else {
		fprintf(out, "\nfilters and actions:\n");
		nb_ctl_for_each_filter(print_filters_text, out);
		summary_actions(out, NULL);
	}
	if (ctl->dp)
		summary_workers(out, j, ctl->dp);
	if (!j)
		fprintf(out, "%s %.3f s\n", o->up ? "up" : "ran", o->secs);
	if (o->extra)
		o->extra(ctl, j, o->ctx);
	if (j) {
		nb_json_end_object(j);
		nb_json_free(j);
	}
}

void nb_ctl_rates_init(struct nb_ctl_rates *r, double now)
{
	memset(r, 0, sizeof(*r));
	r->start = r->last = now;
}

void nb_ctl_rates_free(struct nb_ctl_rates *r)
{
	free(r->dev);
	memset(r, 0, sizeof(*r));
}

static struct nb_ctl_rate *rate_of(const struct nb_ctl_rates *r, u32 ifindex)
{
	for (unsigned int i = 0; i < r->n; i++)
		if (r->dev[i].ifindex == ifindex)
			return &r->dev[i];
	return NULL;
}

int nb_ctl_rates_sample(struct nb_ctl_rates *r, double now)
{
	unsigned int n;
	struct nb_dev **devs = list_devs(&n);
	struct nb_ctl_rate *next = calloc(n ? n : 1, sizeof(*next));
	double dt = now - r->last;

	if (!next || (!devs && n)) {
		free(next);
		put_devs(devs, n);
		return -ENOMEM;
	}
	for (unsigned int d = 0; d < n; d++) {
		struct nb_ctl_rate *x = &next[d];
		const struct nb_ctl_rate *prev = rate_of(r, nb_dev_ifindex(devs[d]));

		x->ifindex = nb_dev_ifindex(devs[d]);
		snprintf(x->name, sizeof(x->name), "%s", nb_dev_name(devs[d]));
		nb_ctl_dev_totals(devs[d], &x->now);
		/* a device new since the last sample counts from zero */
		if (dt > 0) {
			x->rx_pps = (x->now.rx - (prev ? prev->now.rx : 0)) / dt;
			x->tx_pps = (x->now.tx - (prev ? prev->now.tx : 0)) / dt;
			x->drop_pps = (x->now.drops - (prev ? prev->now.drops : 0)) / dt;
		}
	}
	put_devs(devs, n);
	free(r->dev);
	r->dev = next;
	r->n = n;
	r->interval = dt;
	r->last = now;
	r->samples++;
	return 0;
}

void nb_ctl_rates_print(FILE *out, struct nb_json *j, const struct nb_ctl_rates *r,
			const char *suffix)
{
	if (j) {
		nb_json_start_object(j, NULL);
		nb_json_uint(j, "elapsed_ms", (u64)((r->last - r->start) * 1000));
		nb_json_uint(j, "interval_ms", (u64)(r->interval * 1000));
		nb_json_start_array(j, "devices");
		for (unsigned int d = 0; d < r->n; d++) {
			const struct nb_ctl_rate *x = &r->dev[d];

			nb_json_start_object(j, NULL);
			nb_json_string(j, "name", x->name);
			nb_json_uint(j, "rx_pps", (u64)(x->rx_pps + 0.5));
			nb_json_uint(j, "tx_pps", (u64)(x->tx_pps + 0.5));
			nb_json_uint(j, "drop_pps", (u64)(x->drop_pps + 0.5));
			nb_json_uint(j, "redirects", x->now.redirects);
			nb_json_uint(j, "exceptions", x->now.exceptions);
			nb_json_end_object(j);
		}
		nb_json_end_array(j);
		nb_json_end_object(j);
		return;
	}
	fprintf(out, "[%6.1fs]", r->last - r->start);
	for (unsigned int d = 0; d < r->n; d++) {
		const struct nb_ctl_rate *x = &r->dev[d];

		fprintf(out, " %s rx %.2f tx %.2f drop %.2f Mpps redir %llu exc %llu |", x->name,
			x->rx_pps / 1e6, x->tx_pps / 1e6, x->drop_pps / 1e6,
			(unsigned long long)x->now.redirects,
			(unsigned long long)x->now.exceptions);
	}
	fprintf(out, "%s\n", suffix ? suffix : "");
}

int nb_ctl_stats(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_ctl_summary_opts o = { .up = true };

	if (argc)
		return nb_ctl_wrong(ctl, argv[0], "stats takes no arguments");
	if (ctl->rates)
		o.secs = ctl->rates->last - ctl->rates->start;
	nb_ctl_summary(ctl, &o);
	if (ctl->rates && ctl->rates->samples && !ctl->json) {
		fprintf(ctl->out, "rates over %.1f s:\n", ctl->rates->interval);
		nb_ctl_rates_print(ctl->out, NULL, ctl->rates, NULL);
	}
	return 0;
}

int nb_ctl_monitor(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_json *j;

	if (argc)
		return nb_ctl_wrong(ctl, argv[0], "monitor takes no arguments here");
	if (!ctl->rates)
		return nb_ctl_fail(ctl, -EOPNOTSUPP, "monitor watches a running daemon (netbpf "
				   "daemon; then netbpf monitor)");
	j = ctl->json ? nb_json_new(ctl->out, ctl->pretty) : NULL;
	nb_ctl_rates_print(ctl->out, j, ctl->rates, NULL);
	nb_json_free(j);
	return 0;
}
