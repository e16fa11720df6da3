// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf bench [--quick] [--rounds N] [--window S] [--workers N] [--gen copy|patch]
 *              [--results FILE] [--no-kernel] [--no-dpdk] [tc] [xdp]
 * netbpf bench jit [--quick] [--rounds N] [--repeat N]      (bench_jit.c)
 *
 * The seed's two tables, reproduced on netbpf's datapath as a user builds it: every set-up is
 * a script of link/tc/ip lines run by the datapath object with its worker threads, as `netbpf
 * run` runs it, fed by an endless generator of 64-byte frames (64 UDP flows, one receive queue
 * per worker, dealt by RSS) and measured after a warm-up. The generator copies a frame built
 * per flow at the start (mode copy, as DPDK's net_null with copy=1 copies its template), or
 * with --gen patch writes each frame's flow and sequence fields and checksums (as pktgen and
 * testpmd's flowgen do):
 *
 * - tc, "bpf: add bpf_redirect() helper": u32 + act_bpf + bpf_clone_redirect, u32 + act_bpf +
 *   bpf_redirect, cls_bpf direct-action + bpf_redirect (tcbpf1.o's sections, the seed's own
 *   program), the Linux bridge (a bridge device forwarding by a static FDB entry to the
 *   sink), rx + drop;
 * - XDP, "xdp: Introduce bulking for non-map XDP_REDIRECT": bpf_redirect with the bulk queues
 *   off and on, bpf_redirect_map, XDP_DROP and XDP_TX (the examples' programs).
 *
 * Each set-up runs with one worker and with two (--workers: up to N), in alternating rounds,
 * and prints Mpps per worker CPU second (the thread's CPU time: what a core of its own would
 * do, stable on a shared machine where wall time is not) beside the seed's published figures
 * and the wall-clock rate, then the ratios the seed's tables are about. After the run every
 * frame made must be where the set-up sends it (the sink, the host side, a drop, XDP_TX back
 * out of the generator), or the row is marked FAILED and the exit status is 1.
 *
 * Then the kernel column (bench_kernel.c): the same set-ups and objects on the running kernel,
 * one CPU, where root and BPF allow, each row saying why when it cannot run. With the XDP
 * table, the DPDK rows (bench_dpdk.c): testpmd's io forwarding with a librte_bpf JIT program,
 * one lcore, in each round beside netbpf's, when make bench has built the peer; else why not.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <netbpf/datapath.h>
#include <netbpf/dev.h>
#include <netbpf/epoch.h>
#include <netbpf/percpu.h>
#include <netbpf/tc.h>
#include <netbpf/xdp.h>

#include "cli/bench_chart.h"
#include "cli/bench_dpdk.h"
#include "cli/bench_jit.h"
#include "cli/bench_kernel.h"
#include "cli/cli.h"
#include "ctl/ctl.h"
#include "ctl/json.h"

#define BENCH_MAX_WORKERS 8
#define BENCH_MAX_ROUNDS 20

/* Where a set-up's frames end: what the check after the run compares with frames made. */
enum bench_dest { TO_SINK, TO_HOST, TO_DROP, TO_TX };

struct bench_setup {
	const char *table;	/* "tc" or "xdp" */
	const char *name;
	const char *script;	/* $Q: the generator's queues, one per worker; $M: its mode */
	double seed[2];		/* the seed's Mpps on 1 and 2 CPUs; 0: not published */
	int bulk;		/* XDP: the sink's bulk queues on (1) or off (0); -1: as is */
	enum bench_dest dest;
	const char *missing;	/* not measured, and why */
};

#define GEN_AT(i) "link add g index " #i " type gen count 0 size 64 flows 64 queues $Q mode $M\n"
#define GEN GEN_AT(1)
/* the sink at ifindex 1, xdp_redirect_ifindex.o's default target; the generator at 2 */
#define SINK_GEN "link add s index 1 type sink\n" GEN_AT(2)
/* tcbpf1.o's redirect sections send to the device with the next ifindex: the sink */
#define GEN_SINK GEN "link add s index 2 type sink\n"
#define U32 "tc qdisc add dev g ingress\n" \
	"tc filter add dev g root pref 10 u32 match u32 0 0 flowid 1:2 action bpf run " \
	"object-file tcbpf1.o section "

static const struct bench_setup setups[] = {
	{ "tc", "u32 + act_bpf + bpf_clone_redirect",
	  GEN_SINK U32 "clone_redirect_xmit drop\n", { 2.0, 0 }, -1, TO_SINK, NULL },
	{ "tc", "u32 + act_bpf + bpf_redirect",
	  GEN_SINK U32 "redirect_xmit drop\n", { 2.4, 0 }, -1, TO_SINK, NULL },
	{ "tc", "cls_bpf da + bpf_redirect",
	  GEN_SINK "tc qdisc add dev g clsact\n"
	  "tc filter add dev g ingress pref 10 bpf da obj tcbpf1.o sec redirect_xmit\n",
	  { 2.5, 0 }, -1, TO_SINK, NULL },
	{ "tc", "Linux bridge",
	  GEN_SINK "link add br0 type bridge\nlink set dev g master br0\n"
	  "link set dev s master br0\n"
	  "bridge fdb add 02:00:00:00:00:02 dev s master static\n", { 2.1, 0 }, -1, TO_SINK,
	  NULL },
	{ "tc", "rx + drop (no program: to the host side)", GEN_SINK, { 7.8, 0 }, -1, TO_HOST,
	  NULL },
	{ "xdp", "bpf_redirect, no bulking",
	  SINK_GEN "ip link set dev g xdp obj xdp_redirect_ifindex.o\n", { 5.0, 9.5 }, 0,
	  TO_SINK, NULL },
	{ "xdp", "bpf_redirect, bulking",
	  SINK_GEN "ip link set dev g xdp obj xdp_redirect_ifindex.o\n", { 8.4, 15.9 }, 1,
	  TO_SINK, NULL },
	{ "xdp", "bpf_redirect_map, bulking",
	  SINK_GEN "ip link set dev g xdp obj xdp_redirect_map.o\n"
	  "map update name tx_port key 2 0 0 0 value 1 0 0 0 0 0 0 0\n", { 0, 0 }, 1, TO_SINK,
	  NULL },
	{ "xdp", "XDP_DROP (xdp_drop_proto: count per protocol)",
	  GEN "ip link set dev g xdp obj xdp_drop_proto.o\n", { 0, 0 }, -1, TO_DROP, NULL },
	{ "xdp", "XDP_TX (xdp_swap_mac_tx)",
	  GEN "ip link set dev g xdp obj xdp_swap_mac_tx.o\n", { 0, 0 }, -1, TO_TX, NULL },
};

#define NR_SETUPS (sizeof(setups) / sizeof(setups[0]))

static const char *const table_titles[] = {
	"tc: \"bpf: add bpf_redirect() helper\" (seed: one CPU)",
	"XDP: \"xdp: Introduce bulking for non-map XDP_REDIRECT\" (seed: one and two CPUs)",
};

struct bench_opts {
	double warmup, window;	/* seconds */
	unsigned int rounds;
	unsigned int max_workers;
	bool tables[2];		/* tc, xdp */
	const char *results;	/* a markdown file to write, NULL: none */
	const char *gen_mode;	/* the generator's mode: "copy" or "patch" */
	bool kernel;		/* the kernel column (--no-kernel: without) */
	bool dpdk;		/* the DPDK rows, with the XDP table (--no-dpdk: without) */
};

/* One set-up with one number of workers, over the rounds. */
struct bench_result {
	double cpu_mpps[BENCH_MAX_ROUNDS];	/* frames per worker CPU second, summed over workers */
	double wall_mpps[BENCH_MAX_ROUNDS];
	unsigned int n;
	bool failed;
	char why[256];
};

static struct bench_result results[NR_SETUPS][BENCH_MAX_WORKERS + 1];
static struct bench_kernel_result kernel[NR_SETUPS];

/* A DPDK row: the peer with one program, beside the netbpf set-up doing the same work. */
struct bench_peer {
	const char *name;
	const char *section;	/* its program in bench/dpdk/peer_prog.o; "-": none */
	const char *netbpf;	/* netbpf's set-up beside it; NULL: none */
	double target;		/* the goal for netbpf / DPDK; 0: none */
};

static const struct bench_peer peers[] = {
	{ "io fwd + librte_bpf JIT: EtherType read", "peer/read_proto",
	  "bpf_redirect_map, bulking", 1.2 },
	{ "io fwd + librte_bpf JIT: MAC swap", "peer/swap_mac", "XDP_TX (xdp_swap_mac_tx)", 0 },
	{ "io fwd, no program", "-", NULL, 0 },
};

#define NR_PEERS (sizeof(peers) / sizeof(peers[0]))

static struct bench_result peer_results[NR_PEERS];
/* not empty: the DPDK rows were not measured, and why */
static char peer_missing[320];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

struct sample {
	double wall;
	__u64 packets[BENCH_MAX_WORKERS], cpu_ns[BENCH_MAX_WORKERS];
};

static void take_sample(struct nb_datapath *dp, unsigned int workers, struct sample *s)
{
	s->wall = now_s();
	for (unsigned int w = 0; w < workers; w++) {
		struct nb_datapath_worker_info wi;

		nb_datapath_worker_info(dp, w, &wi);
		s->packets[w] = wi.packets;
		s->cpu_ns[w] = wi.cpu_ns;
	}
}

/* Is every frame the generator made where the set-up sends it? false with why filled in. */
static bool frames_accounted(const struct bench_setup *b, char *why, size_t size)
{
	struct nb_dev *g = nb_dev_get_by_name("g"), *s = nb_dev_get_by_name("s");
	struct nb_dev_stats_total gs = { 0 }, ss = { 0 };
	__u64 made, there;
	const char *where;

	if (g)
		nb_dev_stats_read(g, &gs);
	if (s)
		nb_dev_stats_read(s, &ss);
	nb_dev_put(g);
	nb_dev_put(s);
	made = gs.rx_packets;
	switch (b->dest) {
	case TO_SINK:
		there = ss.tx_packets;
		where = "sent by the sink";
		break;
	case TO_HOST:
		there = gs.host_packets;
		where = "delivered to the host side";
		break;
	case TO_DROP:
		there = gs.drops[NB_DROP_XDP];
		where = "dropped by XDP";
		break;
	default:
		there = gs.tx_packets;
		where = "sent back by XDP_TX";
		break;
	}
	if (made && there == made)
		return true;
	snprintf(why, size, "%llu frames made, %llu %s", (unsigned long long)made,
		 (unsigned long long)there, where);
	return false;
}

/* One round of DPDK row i: its rate, or the row FAILED with the peer's reason. */
static void run_peer(unsigned int i, const struct bench_opts *o)
{
	struct bench_result *r = &peer_results[i];
	struct bench_dpdk_run run;
	char why[256];

	if (bench_dpdk_run(peers[i].section, o->warmup, o->window, &run, why, sizeof(why))) {
		if (!r->failed)
			snprintf(r->why, sizeof(r->why), "%s", why);
		r->failed = true;
		return;
	}
	r->cpu_mpps[r->n] = run.cpu_mpps;
	r->wall_mpps[r->n] = run.wall_mpps;
	r->n++;
}

/* Set up, run, measure, tear down: one round of one set-up with workers workers. */
static int run_one(const struct bench_setup *b, unsigned int workers,
		   const struct bench_opts *o, struct bench_result *r)
{
	struct nb_datapath_opts dopts = { .sz = sizeof(dopts), .workers = workers,
					  .flags = 0 };
	char queues[32], mode[32], why[160] = "";
	const char *vars[] = { queues, mode };
	struct nb_datapath *dp = NULL;
	double cpu = 0, packets = 0;
	struct sample a, z;
	bool ran = false;
	struct nb_ctl ctl;
	FILE *devnull;
	int err;

	snprintf(queues, sizeof(queues), "Q=%u", workers);
	snprintf(mode, sizeof(mode), "M=%s", o->gen_mode);
	nb_cli_ctl_init(&ctl);
	ctl.json = false;
	devnull = fopen("/dev/null", "w");
	if (devnull)
		ctl.out = devnull;
	err = nb_ctl_script_run(&ctl, b->name, b->script, vars, 2);
	if (err) {
		snprintf(why, sizeof(why), "set-up failed: %s", nb_log_text(&ctl.log));
		goto out;
	}
	if (b->bulk >= 0) {
		struct nb_dev *s = nb_dev_get_by_name("s");

		if (s)
			nb_dev_xdp_set_bulk(s, b->bulk);
		nb_dev_put(s);
	}
	err = nb_datapath_create(&dopts, &dp);
	if (!err)
		err = nb_datapath_start(dp);
	if (err) {
		snprintf(why, sizeof(why), "the datapath did not start: %s", strerror(-err));
		goto out;
	}
	sleep_s(o->warmup);
	take_sample(dp, workers, &z);
	/* a worker the scheduler left without a CPU (or a frame) measured nothing: once more */
	for (int tries = 0; tries < 4 && !ran; tries++) {
		a = z;
		sleep_s(o->window);
		take_sample(dp, workers, &z);
		ran = true;
		cpu = packets = 0;
		for (unsigned int w = 0; w < workers; w++) {
			double p = (double)(z.packets[w] - a.packets[w]);
			double c = (z.cpu_ns[w] - a.cpu_ns[w]) / 1e9;

			packets += p;
			cpu += c > 0 ? p / c : 0;
			ran &= c > 0 && p > 0;
		}
	}
	nb_datapath_drain(dp, 2000);
	nb_datapath_stop(dp);
	if (frames_accounted(b, why, sizeof(why)) && ran) {
		r->cpu_mpps[r->n] = cpu / 1e6;
		r->wall_mpps[r->n] = packets / (z.wall - a.wall) / 1e6;
		r->n++;
	}
out:
	if (why[0] && !r->failed) {
		r->failed = true;
		snprintf(r->why, sizeof(r->why), "%s", why);
		/* the log's own line end is not the table's */
		r->why[strcspn(r->why, "\n")] = 0;
	}
	nb_datapath_destroy(dp);
	nb_dev_destroy_all();
	nb_tc_actions_destroy_unbound();
	nb_epoch_barrier();
	nb_log_free(&ctl.log);
	if (devnull)
		fclose(devnull);
	return why[0] ? -1 : 0;
}

static int table_index(const char *table)
{
	return strcmp(table, "tc") ? 1 : 0;
}

static double best(const double *v, unsigned int n)
{
	double m = 0;

	for (unsigned int i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

static double lowest(const double *v, unsigned int n)
{
	double m = n ? v[0] : 0;

	for (unsigned int i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

/* The best rate of set-up i with w workers; 0 when it was not measured. */
static double rate(unsigned int i, unsigned int w)
{
	const struct bench_result *r = &results[i][w];

	return r->failed ? 0 : best(r->cpu_mpps, r->n);
}

static int setup_index(const char *name)
{
	for (unsigned int i = 0; i < NR_SETUPS; i++)
		if (!strcmp(setups[i].name, name))
			return (int)i;
	return -1;
}

struct ratio {
	const char *name;
	const char *num, *den;	/* set-up names */
	unsigned int wnum, wden;	/* workers; 0: the most */
	double target;		/* the goal; 0: none */
};

static const struct ratio ratios[] = {
	{ "tc: bpf_redirect / bpf_clone_redirect (u32 + act_bpf)", "u32 + act_bpf + bpf_redirect",
	  "u32 + act_bpf + bpf_clone_redirect", 1, 1, 0 },
	{ "XDP: bulking / no bulking (bpf_redirect)", "bpf_redirect, bulking",
	  "bpf_redirect, no bulking", 1, 1, 1.5 },
	{ "XDP: bpf_redirect / bpf_redirect_map", "bpf_redirect, bulking",
	  "bpf_redirect_map, bulking", 1, 1, 0.95 },
	{ "tc: workers / 1 worker (cls_bpf da + bpf_redirect)", "cls_bpf da + bpf_redirect",
	  "cls_bpf da + bpf_redirect", 0, 1, 1.8 },
	{ "XDP: workers / 1 worker (bpf_redirect_map)", "bpf_redirect_map, bulking",
	  "bpf_redirect_map, bulking", 0, 1, 1.8 },
	{ "XDP: workers / 1 worker (bpf_redirect, bulking)", "bpf_redirect, bulking",
	  "bpf_redirect, bulking", 0, 1, 1.8 },
};

static double ratio_value(const struct ratio *q, unsigned int max_workers, bool *have)
{
	int a = setup_index(q->num), b = setup_index(q->den);
	unsigned int wa = q->wnum ? q->wnum : max_workers, wb = q->wden ? q->wden : max_workers;
	double x, y;

	*have = false;
	if (a < 0 || b < 0 || (wa == wb && a == b))
		return 0;
	x = rate((unsigned int)a, wa);
	y = rate((unsigned int)b, wb);
	*have = x > 0 && y > 0;
	return *have ? x / y : 0;
}

static void print_cell(FILE *out, const struct bench_result *r)
{
	char cell[64];

	if (r->failed) {
		fprintf(out, " %-24s", "FAILED");
		return;
	}
	if (r->n > 1)
		snprintf(cell, sizeof(cell), "%.2f [%.2f-%.2f] (%.1f)", best(r->cpu_mpps, r->n),
			 lowest(r->cpu_mpps, r->n), best(r->cpu_mpps, r->n),
			 best(r->wall_mpps, r->n));
	else
		snprintf(cell, sizeof(cell), "%.2f (%.1f)", best(r->cpu_mpps, r->n),
			 best(r->wall_mpps, r->n));
	fprintf(out, " %-24s", cell);
}

static void print_seed(FILE *out, double v)
{
	if (v > 0)
		fprintf(out, " %6.1f", v);
	else
		fprintf(out, " %6s", "-");
}

/* netbpf on one worker beside the kernel on one CPU, with the ratio or why not. */
static void print_kernel(FILE *out, const struct bench_opts *o, bool md)
{
	fprintf(out, "\n%snetbpf beside the running kernel (%s)\n", md ? "### " : "",
		bench_kernel_note);
	if (md)
		fprintf(out, "\n| set-up | netbpf 1 worker | kernel 1 CPU | netbpf / kernel |\n"
			"| --- | --- | --- | --- |\n");
	else
		fprintf(out, "%-46s %8s %8s %s\n", "set-up", "netbpf", "kernel",
			"netbpf / kernel");
	for (unsigned int i = 0; i < NR_SETUPS; i++) {
		const struct bench_setup *b = &setups[i];
		const struct bench_kernel_result *k = &kernel[i];
		double r1 = rate(i, 1);

		if (!o->tables[table_index(b->table)] || b->missing)
			continue;
		if (md)
			fprintf(out, "| %s | %.2f |", b->name, r1);
		else
			fprintf(out, "%-46s %8.2f", b->name, r1);
		if (k->why[0] && md)
			fprintf(out, " - | not measured: %s |\n", k->why);
		else if (k->why[0])
			fprintf(out, " %8s not measured: %s\n", "-", k->why);
		else if (r1 > 0 && k->mpps > 0)
			fprintf(out, md ? " %.2f | %.2f |\n" : " %8.2f %.2f\n", k->mpps, r1 / k->mpps);
		else
			fprintf(out, md ? " %.2f | - |\n" : " %8.2f -\n", k->mpps);
	}
}

static double peer_rate(unsigned int i)
{
	const struct bench_result *r = &peer_results[i];

	return r->failed ? 0 : best(r->cpu_mpps, r->n);
}

/* netbpf / DPDK for row i; 0 when either side was not measured. */
static double peer_ratio(unsigned int i)
{
	int a = peers[i].netbpf ? setup_index(peers[i].netbpf) : -1;
	double d = peer_rate(i);

	return a >= 0 && d > 0 ? rate((unsigned int)a, 1) / d : 0;
}

/* The DPDK rows beside the netbpf set-ups that do the same work, with the ratios. */
static void print_dpdk(FILE *out, bool md)
{
	fprintf(out, "\n%snetbpf beside DPDK (%s)\n", md ? "### " : "", bench_dpdk_note);
	if (md)
		fprintf(out, "\n| DPDK set-up, 1 lcore | DPDK | netbpf set-up, 1 worker | netbpf | "
			"netbpf / DPDK |\n| --- | --- | --- | --- | --- |\n");
	else
		fprintf(out, "%-42s %-24s %-30s %8s %s\n", "DPDK set-up (1 lcore)", "DPDK",
			"netbpf set-up (1 worker)", "netbpf", "netbpf / DPDK");
	for (unsigned int i = 0; i < NR_PEERS; i++) {
		const struct bench_peer *p = &peers[i];
		int a = p->netbpf ? setup_index(p->netbpf) : -1;
		double ratio = peer_ratio(i);

		fprintf(out, md ? "| %s |" : "%-42s", p->name);
		print_cell(out, &peer_results[i]);
		if (md)
			fprintf(out, " | %s |", p->netbpf ? p->netbpf : "-");
		else
			fprintf(out, " %-30s", p->netbpf ? p->netbpf : "-");
		if (a >= 0)
			fprintf(out, md ? " %.2f |" : " %8.2f", rate((unsigned int)a, 1));
		else
			fprintf(out, md ? " - |" : " %8s", "-");
		if (ratio > 0)
			fprintf(out, md ? " %.2f |\n" : " %.2f\n", ratio);
		else
			fprintf(out, md ? " - |\n" : " -\n");
		if (peer_results[i].failed && !md)
			fprintf(out, "    FAILED: %s\n", peer_results[i].why);
	}
}

static void print_ratio(FILE *out, bool md, const char *name, double v, double target)
{
	if (md && target)
		fprintf(out, "| %s | %.2f | >= %.2f |\n", name, v, target);
	else if (md)
		fprintf(out, "| %s | %.2f | - |\n", name, v);
	else if (target)
		fprintf(out, "  %-58s %6.2f   (goal >= %.2f)\n", name, v, target);
	else
		fprintf(out, "  %-58s %6.2f\n", name, v);
}

/* The tables as text (markdown when md), the ratios after them. */
static void print_text(FILE *out, const struct bench_opts *o, bool md)
{
	unsigned int wmax = o->max_workers;

	for (int t = 0; t < 2; t++) {
		if (!o->tables[t])
			continue;
		fprintf(out, "\n%s%s\n", md ? "### " : "", table_titles[t]);
		if (md) {
			fprintf(out, "\n| set-up | seed 1 CPU | netbpf 1 worker | seed 2 CPUs | "
				"netbpf %u workers | %u / 1 |\n| --- | --- | --- | --- | --- | --- |\n",
				wmax, wmax);
		} else {
			fprintf(out, "%-46s %6s %-24s %6s %-24s %s\n", "set-up", "seed",
				"netbpf 1 worker", "seed", "netbpf workers", "ratio");
		}
		for (unsigned int i = 0; i < NR_SETUPS; i++) {
			const struct bench_setup *b = &setups[i];
			double r1 = rate(i, 1), rn = rate(i, wmax);

			if (table_index(b->table) != t)
				continue;
			if (md) {
				fprintf(out, "| %s |", b->name);
				print_seed(out, b->seed[0]);
				fprintf(out, " |");
			} else {
				fprintf(out, "%-46s", b->name);
				print_seed(out, b->seed[0]);
			}
			if (b->missing) {
				fprintf(out, md ? " %s | | | |\n" : " %s\n", b->missing);
				continue;
			}
			print_cell(out, &results[i][1]);
			fprintf(out, md ? " |" : "");
			print_seed(out, b->seed[1]);
			fprintf(out, md ? " |" : "");
			if (wmax > 1)
				print_cell(out, &results[i][wmax]);
			else
				fprintf(out, " %-24s", "-");
			fprintf(out, md ? " |" : "");
			if (r1 > 0 && rn > 0 && wmax > 1)
				fprintf(out, md ? " %.2f |\n" : " %.2f\n", rn / r1);
			else
				fprintf(out, md ? " - |\n" : " -\n");
			for (unsigned int w = 1; w <= wmax && !md; w++)
				if (results[i][w].failed)
					fprintf(out, "    %u worker(s): FAILED: %s\n", w,
						results[i][w].why);
		}
	}
	if (o->kernel)
		print_kernel(out, o, md);
	if (o->dpdk && !peer_missing[0])
		print_dpdk(out, md);
	else if (o->dpdk)
		fprintf(out, "\n%snetbpf beside DPDK: not measured: %s\n", md ? "### " : "",
			peer_missing);
	fprintf(out, "\n%sratios within this run (Mpps per worker CPU second):\n",
		md ? "### " : "");
	if (md)
		fprintf(out, "\n| ratio | netbpf | the issue's goal |\n| --- | --- | --- |\n");
	for (unsigned int k = 0; k < sizeof(ratios) / sizeof(ratios[0]); k++) {
		const struct ratio *q = &ratios[k];
		char name[96];
		bool have;
		double v = ratio_value(q, wmax, &have);

		if (!have)
			continue;
		snprintf(name, sizeof(name), "%s", q->name);
		print_ratio(out, md, name, v, q->target);
	}
	for (unsigned int i = 0; i < NR_PEERS && o->dpdk; i++) {
		char name[160];
		double v = peer_ratio(i);

		if (v <= 0)
			continue;
		snprintf(name, sizeof(name), "XDP: %s / DPDK %s", peers[i].netbpf, peers[i].name);
		print_ratio(out, md, name, v, peers[i].target);
	}
}

/* One measured row's fields: ok or its error, the best and lowest rates, every round's. */
static void json_result(struct nb_json *j, const struct bench_result *r)
{
	nb_json_bool(j, "ok", !r->failed);
	if (r->failed)
		nb_json_string(j, "error", r->why);
	nb_json_double(j, "mpps", best(r->cpu_mpps, r->n));
	nb_json_double(j, "mpps_min", lowest(r->cpu_mpps, r->n));
	nb_json_double(j, "wall_mpps", best(r->wall_mpps, r->n));
	nb_json_start_array(j, "mpps_rounds");
	for (unsigned int k = 0; k < r->n; k++)
		nb_json_double(j, NULL, r->cpu_mpps[k]);
	nb_json_end_array(j);
}

/* "dpdk": the rows with their ratios, or why they were not measured. */
static void json_dpdk(struct nb_json *j)
{
	nb_json_start_object(j, "dpdk");
	if (peer_missing[0]) {
		nb_json_string(j, "missing", peer_missing);
		nb_json_end_object(j);
		return;
	}
	nb_json_string(j, "note", bench_dpdk_note);
	nb_json_start_array(j, "setups");
	for (unsigned int i = 0; i < NR_PEERS; i++) {
		const struct bench_result *r = &peer_results[i];

		nb_json_start_object(j, NULL);
		nb_json_string(j, "setup", peers[i].name);
		nb_json_string(j, "section", peers[i].section);
		json_result(j, r);
		if (peers[i].netbpf) {
			nb_json_string(j, "netbpf_setup", peers[i].netbpf);
			if (peer_ratio(i) > 0)
				nb_json_double(j, "netbpf_over_dpdk", peer_ratio(i));
			if (peers[i].target)
				nb_json_double(j, "goal", peers[i].target);
		}
		nb_json_end_object(j);
	}
	nb_json_end_array(j);
	nb_json_end_object(j);
}

static void print_json(const struct bench_opts *o)
{
	struct nb_json *j = nb_json_new(stdout, nb_cli.pretty);

	nb_json_start_object(j, NULL);
	nb_json_double(j, "warmup_s", o->warmup);
	nb_json_double(j, "window_s", o->window);
	nb_json_uint(j, "rounds", o->rounds);
	nb_json_uint(j, "max_workers", o->max_workers);
	nb_json_string(j, "gen_mode", o->gen_mode);
	nb_json_start_array(j, "setups");
	for (unsigned int i = 0; i < NR_SETUPS; i++) {
		const struct bench_setup *b = &setups[i];

		if (!o->tables[table_index(b->table)])
			continue;
		nb_json_start_object(j, NULL);
		nb_json_string(j, "table", b->table);
		nb_json_string(j, "setup", b->name);
		nb_json_start_array(j, "seed_mpps");
		for (int c = 0; c < 2; c++) {
			if (b->seed[c] > 0)
				nb_json_double(j, NULL, b->seed[c]);
			else
				nb_json_null(j, NULL);
		}
		nb_json_end_array(j);
		if (b->missing) {
			nb_json_string(j, "missing", b->missing);
			nb_json_end_object(j);
			continue;
		}
		nb_json_start_array(j, "runs");
		for (unsigned int w = 1; w <= o->max_workers; w++) {
			const struct bench_result *r = &results[i][w];

			if (w != 1 && w != o->max_workers)
				continue;
			nb_json_start_object(j, NULL);
			nb_json_uint(j, "workers", w);
			json_result(j, r);
			nb_json_end_object(j);
		}
		nb_json_end_array(j);
		if (o->kernel) {
			nb_json_start_object(j, "kernel");
			if (kernel[i].why[0])
				nb_json_string(j, "missing", kernel[i].why);
			else
				nb_json_double(j, "mpps", kernel[i].mpps);
			if (kernel[i].arrived_mpps > 0)
				nb_json_double(j, "arrived_mpps", kernel[i].arrived_mpps);
			nb_json_end_object(j);
		}
		nb_json_end_object(j);
	}
	nb_json_end_array(j);
	nb_json_start_array(j, "ratios");
	for (unsigned int k = 0; k < sizeof(ratios) / sizeof(ratios[0]); k++) {
		bool have;
		double v = ratio_value(&ratios[k], o->max_workers, &have);

		if (!have)
			continue;
		nb_json_start_object(j, NULL);
		nb_json_string(j, "ratio", ratios[k].name);
		nb_json_double(j, "value", v);
		if (ratios[k].target)
			nb_json_double(j, "goal", ratios[k].target);
		nb_json_end_object(j);
	}
	nb_json_end_array(j);
	if (o->dpdk)
		json_dpdk(j);
	nb_json_end_object(j);
	nb_json_free(j);
	putchar('\n');
}

/* What the generator's mode makes comparable. */
static const char *gen_mode_text(const char *mode)
{
	return strcmp(mode, "copy") ?
	       "each frame's flow and sequence fields written, as testpmd's flowgen" :
	       "each frame a copy of its flow's, as DPDK's net_null with copy=1";
}

/* The chart beside the results (FILE.md: FILE.png), and its line in them. */
static void write_chart(FILE *md, const struct bench_opts *o, const char *date)
{
	struct bench_chart_row rows[NR_SETUPS];
	char png[4096], title[160], why[160];
	const char *base, *dot = strrchr(o->results, '.');
	size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - o->results) : strlen(o->results);
	unsigned int n = 0;

	snprintf(png, sizeof(png), "%.*s.png", (int)stem, o->results);
	base = strrchr(png, '/') ? strrchr(png, '/') + 1 : png;
	for (unsigned int i = 0; i < NR_SETUPS; i++) {
		const struct bench_setup *b = &setups[i];

		if (!o->tables[table_index(b->table)] || b->missing)
			continue;
		rows[n++] = (struct bench_chart_row){ .name = b->name, .seed = b->seed[0],
			.netbpf1 = rate(i, 1),
			.netbpfn = o->max_workers > 1 ? rate(i, o->max_workers) : 0,
			.kernel = o->kernel && !kernel[i].why[0] ? kernel[i].mpps : 0 };
	}
	snprintf(title, sizeof(title), "netbpf bench, 64-byte frames, %s", date);
	if (bench_chart_write(png, title, o->max_workers, rows, n, why, sizeof(why)))
		fprintf(md, "\nNo chart: %s.\n", why);
	else
		fprintf(md, "\n![netbpf bench: Mpps per set-up](%s)\n", base);
}

static int write_results(const struct bench_opts *o)
{
	FILE *f = fopen(o->results, "w");
	struct utsname u;
	char date[64];
	time_t t = time(NULL);
	double load[3] = { 0 };

	if (!f) {
		fprintf(stderr, "Error: cannot write %s: %s\n", o->results, strerror(errno));
		return NB_EXIT_ERR;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&t));
	uname(&u);
	if (getloadavg(load, 3) < 0)
		load[0] = -1;
	fprintf(f, "# netbpf bench results\n\n`netbpf bench --rounds %u --window %g` on %s: "
		"Linux %s %s, %ld online CPUs, load average %.1f when it ended. 64-byte frames "
		"from endless in-memory generators (64 UDP flows, one RSS queue per worker, "
		"mode %s: %s); Mpps per worker CPU second, the best of the rounds [lowest-best] "
		"and, in parentheses, the wall-clock rate.\n",
		o->rounds, o->window, date, u.release, u.machine, sysconf(_SC_NPROCESSORS_ONLN),
		load[0], o->gen_mode, gen_mode_text(o->gen_mode));
	write_chart(f, o, date);
	print_text(f, o, true);
	fclose(f);
	return NB_EXIT_OK;
}

static void usage(void)
{
	fprintf(stderr, "Usage: netbpf bench [--quick] [--rounds N] [--window S] [--workers N] "
		"[--gen copy|patch] [--results FILE] [--no-kernel] [--no-dpdk] [tc] [xdp]\n"
		"       netbpf bench jit [--quick] [--rounds N] [--repeat N]\n");
}

static bool parse_args(int argc, char **argv, struct bench_opts *o)
{
	bool any_table = false;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		char *end;

		if (!strcmp(w, "--quick")) {
			o->warmup = 0.05;
			o->window = 0.2;
			o->rounds = 1;
		} else if (!strcmp(w, "--rounds") && i + 1 < argc) {
			o->rounds = (unsigned int)strtoul(argv[++i], &end, 10);
			if (*end || !o->rounds || o->rounds > BENCH_MAX_ROUNDS) {
				nb_cli_error("Error: argument \"%s\" is wrong: --rounds takes 1 to %d",
					     argv[i], BENCH_MAX_ROUNDS);
				return false;
			}
		} else if (!strcmp(w, "--window") && i + 1 < argc) {
			o->window = strtod(argv[++i], &end);
			if (*end || !(o->window > 0 && o->window <= 60)) {
				nb_cli_error("Error: argument \"%s\" is wrong: --window takes seconds "
					     "(up to 60)", argv[i]);
				return false;
			}
		} else if (!strcmp(w, "--workers") && i + 1 < argc) {
			o->max_workers = (unsigned int)strtoul(argv[++i], &end, 10);
			if (*end || !o->max_workers || o->max_workers > BENCH_MAX_WORKERS) {
				nb_cli_error("Error: argument \"%s\" is wrong: --workers takes 1 to %d",
					     argv[i], BENCH_MAX_WORKERS);
				return false;
			}
		} else if (!strcmp(w, "--gen") && i + 1 < argc) {
			o->gen_mode = argv[++i];
			if (strcmp(o->gen_mode, "copy") && strcmp(o->gen_mode, "patch")) {
				nb_cli_error("Error: argument \"%s\" is wrong: --gen takes copy or "
					     "patch", argv[i]);
				return false;
			}
		} else if (!strcmp(w, "--results") && i + 1 < argc) {
			o->results = argv[++i];
		} else if (!strcmp(w, "--no-kernel")) {
			o->kernel = false;
		} else if (!strcmp(w, "--no-dpdk")) {
			o->dpdk = false;
		} else if (!strcmp(w, "tc") || !strcmp(w, "xdp")) {
			o->tables[table_index(w)] = true;
			any_table = true;
		} else {
			nb_cli_error("Error: argument \"%s\" is wrong: expected --quick, --rounds N, "
				     "--window S, --workers N, --gen copy|patch, --results FILE, "
				     "--no-kernel, --no-dpdk, tc or xdp", w);
			usage();
			return false;
		}
	}
	if (!any_table)
		o->tables[0] = o->tables[1] = true;
	/* the DPDK rows stand beside the XDP table's */
	o->dpdk = o->dpdk && o->tables[table_index("xdp")];
	return true;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts o = { .warmup = 0.3, .window = 1.0, .rounds = 3, .max_workers = 2,
				.gen_mode = "copy", .kernel = true, .dpdk = true };
	bool failed = false;
	int err;

	if (argc && !strcmp(argv[0], "jit"))
		return nb_cli_bench_jit(argc - 1, argv + 1);
	if (!parse_args(argc, argv, &o))
		return NB_EXIT_USAGE;
	if (!nb_cli_examples_dir()) {
		fprintf(stderr, "Error: the example objects (tcbpf1.o, xdp_*.o) are not next to this "
			"netbpf (build/examples or PREFIX/share/netbpf/examples): run make\n");
		return NB_EXIT_ERR;
	}
	err = nb_set_nr_cpus(o.max_workers);
	if (err) {
		fprintf(stderr, "Error: cannot use %u workers: %s\n", o.max_workers, strerror(-err));
		return NB_EXIT_ERR;
	}
	if (!nb_cli.json)
		printf("netbpf bench: 64-byte frames, endless in-memory generators (64 UDP flows, "
		       "one RSS queue per worker, mode %s: %s), %u round%s of %.2f s after %.2f s "
		       "of warm-up;\nMpps per worker CPU second, summed over the workers (the "
		       "wall-clock rate in parentheses; [lowest-best] over the rounds)\n",
		       o.gen_mode, gen_mode_text(o.gen_mode), o.rounds, o.rounds > 1 ? "s" : "",
		       o.window, o.warmup);
	if (o.dpdk)
		bench_dpdk_find(peer_missing, sizeof(peer_missing));
	/* rounds outermost: each set-up meets the machine's moods alike */
	for (unsigned int round = 0; round < o.rounds; round++) {
		for (unsigned int i = 0; i < NR_SETUPS; i++) {
			const struct bench_setup *b = &setups[i];

			if (!o.tables[table_index(b->table)] || b->missing)
				continue;
			for (unsigned int w = 1; w <= o.max_workers; w++) {
				if (w != 1 && w != o.max_workers)
					continue;
				if (run_one(b, w, &o, &results[i][w]))
					failed = true;
			}
		}
		for (unsigned int i = 0; i < NR_PEERS && o.dpdk && !peer_missing[0]; i++)
			run_peer(i, &o);
	}
	/* the kernel after netbpf: its children must not meet the workers' threads */
	for (unsigned int i = 0; i < NR_SETUPS && o.kernel; i++) {
		const struct bench_setup *b = &setups[i];

		if (o.tables[table_index(b->table)] && !b->missing)
			bench_kernel_measure(b->name, nb_cli_examples_dir(), o.rounds, o.window,
					     &kernel[i]);
	}
	if (nb_cli.json)
		print_json(&o);
	else
		print_text(stdout, &o, false);
	if (o.results && write_results(&o))
		return NB_EXIT_ERR;
	return failed ? NB_EXIT_ERR : NB_EXIT_OK;
}
