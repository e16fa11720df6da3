// SPDX-License-Identifier: GPL-2.0
/*
 * The soak (make soak; make check runs a short one, tests/cli/soak.sh): --packets frames (10^9
 * by default) through the seed's three tc set-ups (examples/seed-tc.tc) and an XDP redirect
 * through a devmap, on two workers, while the control plane changes what they run:
 *
 *   - every second the seed's direct-action filter is replaced (a fresh load of its object)
 *     and the XDP program of the redirect is replaced by a new instance sharing its devmap;
 *   - all the time the devmap entry is rewritten, between two sinks.
 *
 * Resident memory is sampled at the start, in the middle and at the end; the end may not be
 * more than 5% above the middle (judged on runs of a minute or more). At the end every frame is
 * accounted for: the generators made exactly --packets, and over all devices what came in
 * (received, cloned) equals what went out (sent, delivered, consumed, dropped), with every
 * packet buffer back in the pool.
 *
 *   nb-soak [--packets N] [--workers N]       run from the repository root
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netbpf/datapath.h>
#include <netbpf/dev.h>
#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>

#include "bpf/epoch.h"
#include "ctl/ctl.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/xdp.h"

#define MAX_MAPS 8
/*
 * Resident memory is judged on runs of a minute or more: in a shorter one the middle sample
 * comes before the allocator and the reclaim backlog (nb_epoch_throttle's bound) have settled.
 */
#define SOAK_MEMORY_SECONDS 60

static const char *build_dir(void)
{
	return getenv("NB_BUILD") ? getenv("NB_BUILD") : "build";
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Resident memory in KiB. */
static unsigned long rss_kib(void)
{
	unsigned long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * (unsigned long)sysconf(_SC_PAGESIZE) / 1024;
}

static void die(const char *what, const char *why)
{
	fprintf(stderr, "nb-soak: %s: %s\n", what, why ? why : "");
	exit(1);
}

static void ctl_line(struct nb_ctl *ctl, const char *line)
{
	if (nb_ctl_script_run(ctl, "soak", line, NULL, 0))
		die(line, nb_log_text(&ctl->log));
}

/* The XDP program of the redirect: a fresh instance, sharing the object's devmap. */
struct xdp_source {
	struct nb_object *obj;
	const struct bpf_insn *insns;
	unsigned int cnt;
	struct nb_map *maps[MAX_MAPS];
	unsigned int map_cnt;
	struct nb_map *devmap;
};

static struct nb_prog *xdp_instance(struct xdp_source *x)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .maps = x->maps,
					  .map_cnt = x->map_cnt, .log = &log };
	struct nb_prog *prog;

	if (nb_prog_load(BPF_PROG_TYPE_XDP, x->insns, x->cnt, &opts, &prog))
		die("xdp_redirect_map.o", nb_log_text(&log));
	nb_log_free(&log);
	return prog;
}

static void xdp_source_open(struct xdp_source *x)
{
	struct nb_object_open_opts oo = { .sz = sizeof(oo) };
	struct nb_object_load_opts lo = { .sz = sizeof(lo) };
	struct nb_object_prog *p;
	struct nb_object_map *m;
	char path[512];

	snprintf(path, sizeof(path), "%s/examples/xdp_redirect_map.o", build_dir());
	if (nb_object_open_file(path, &oo, &x->obj) || nb_object_load(x->obj, &lo))
		die(path, "cannot load (make first)");
	p = nb_object_find_prog(x->obj, NULL, "xdp_redirect_map");
	x->insns = nb_object_prog_insns(p, &x->cnt);
	nb_object_for_each_map(m, x->obj)
		if (x->map_cnt < MAX_MAPS)
			x->maps[x->map_cnt++] = nb_object_map_map(m);
	x->devmap = nb_map_get(nb_object_map_map(nb_object_find_map(x->obj, "tx_port")));
}

struct devmap_writer {
	struct nb_map *map;
	__u32 key, targets[2];
	int stop;
	unsigned long updates;	/* written by the writer, read by the main thread */
};

/* The devmap entry of the receiving device, pointed at one sink then the other, all the time. */
static void *devmap_writer(void *arg)
{
	struct devmap_writer *w = arg;
	unsigned long n = 0;

	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		struct bpf_devmap_val v = { .ifindex = w->targets[n & 1] };
		int err = nb_map_update_elem(w->map, &w->key, &v, BPF_ANY);

		if (err)
			die("devmap update", strerror(-err));
		__atomic_store_n(&w->updates, ++n, __ATOMIC_RELAXED);
		if (n % 64 == 0)
			usleep(100);
	}
	return NULL;
}

static unsigned long devmap_updates(const struct devmap_writer *w)
{
	return __atomic_load_n(&w->updates, __ATOMIC_RELAXED);
}

int main(int argc, char **argv)
{
	unsigned long long packets = 1000000000ULL, in = 0, out = 0, generated = 0;
	unsigned int workers = 2, replaced = 0;
	unsigned long rss_start = 0, rss_mid = 0, rss_end;
	struct nb_datapath_opts dopts = { .sz = sizeof(dopts) };
	struct nb_datapath_progress prog;
	struct devmap_writer w = { 0 };
	struct xdp_source x = { 0 };
	struct nb_log log = { 0 };
	struct nb_ctl ctl = { 0 };
	struct nb_datapath *dp;
	struct nb_dev *gen4, *dev;
	const char *const names[] = { "gen1", "sink1", "gen2", "sink2", "gen3", "sink3", "gen4",
				      "sink4", "sink5" };
	char script[256], line[512];
	double t0, last_replace, seconds;
	bool memory_judged, memory_ok;
	pthread_t writer;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--packets") && i + 1 < argc)
			packets = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--workers") && i + 1 < argc)
			workers = (unsigned int)strtoul(argv[++i], NULL, 0);
		else
			die(argv[i], "usage: nb-soak [--packets N] [--workers N]");
	}
	if (nb_set_nr_cpus(workers))
		die("--workers", "out of range");
	ctl.out = stdout;
	ctl.obj_dir = NULL;
	snprintf(line, sizeof(line), "%s/examples", build_dir());
	ctl.base_dir = line;
	/* the seed's set-ups, endless: the datapath's budget ends them */
	snprintf(script, sizeof(script), "examples/seed-tc.tc");
	{
		FILE *f = fopen(script, "r");
		char *text;
		long n;

		if (!f)
			die(script, "run from the repository root");
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		text = calloc(1, (size_t)n + 1);
		if (!text || fread(text, 1, (size_t)n, f) != (size_t)n)
			die(script, "cannot read");
		fclose(f);
		if (nb_ctl_script_run(&ctl, script, text, (const char *const[]){ "COUNT=0" }, 1))
			die(script, nb_log_text(&ctl.log));
		free(text);
	}
	/* the XDP redirect: gen4's frames to sink4 or sink5, as the devmap entry says */
	ctl_line(&ctl, "link add gen4 type gen count 0 size 64\nlink add sink4 type sink\n"
		       "link add sink5 type sink\n");
	xdp_source_open(&x);
	gen4 = nb_dev_get_by_name("gen4");
	if (!gen4)
		die("gen4", "not found");
	w.map = x.devmap;
	w.key = gen4->ifindex;
	for (u32 k = 0; k < 2; k++) {
		dev = nb_dev_get_by_name(k ? "sink5" : "sink4");
		if (!dev)
			die("sink4/5", "not found");
		w.targets[k] = dev->ifindex;
		nb_dev_put(dev);
	}
	{
		struct bpf_devmap_val v = { .ifindex = w.targets[0] };
		struct nb_prog *p = xdp_instance(&x);

		if (nb_map_update_elem(w.map, &w.key, &v, BPF_ANY) ||
		    nb_dev_xdp_attach(gen4, p, 0, &log))
			die("gen4 xdp", nb_log_text(&log));
		nb_prog_put(p);
	}

	dopts.workers = workers;
	dopts.packets = packets;
	dopts.log = &log;
	if (nb_datapath_create(&dopts, &dp) || nb_datapath_start(dp))
		die("datapath", nb_log_text(&log));
	if (pthread_create(&writer, NULL, devmap_writer, &w))
		die("devmap writer", strerror(errno));
	t0 = last_replace = now();
	for (;;) {
		usleep(100000);
		nb_datapath_progress(dp, &prog);
		if (!rss_start && now() - t0 >= 1)
			rss_start = rss_kib();
		if (!rss_mid && prog.generated >= packets / 2)
			rss_mid = rss_kib();
		if (prog.generators_done || prog.generated >= packets)
			break;
		if (now() - last_replace < 1)
			continue;
		last_replace = now();
		/*
		 * A fresh load of the seed's direct-action filter in place of the old (handle 1:
		 * without a handle, replace adds a filter beside it, as the kernel's cls_bpf
		 * does), and a new XDP instance.
		 */
		ctl_line(&ctl, "tc filter replace dev gen3 root pref 10 handle 1 bpf run "
			       "object-file tcbpf1.o section redirect_xmit integ_act classid 1\n");
		{
			struct nb_prog *p = xdp_instance(&x);

			if (nb_dev_xdp_attach(gen4, p, 0, &log))
				die("gen4 xdp replace", nb_log_text(&log));
			nb_prog_put(p);
		}
		replaced++;
		printf("soak: %5.0f s %12llu frames %6.2f Mpps, rss %lu KiB, %u replaced, "
		       "%lu devmap updates, %lu awaiting reclaim, %ld buffers out\n", now() - t0,
		       (unsigned long long)prog.generated, prog.generated / (now() - t0) / 1e6,
		       rss_kib(), replaced, devmap_updates(&w), nb_epoch_pending(),
		       nb_pkt_pool_outstanding());
		fflush(stdout);
	}
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
	pthread_join(writer, NULL);
	seconds = now() - t0;
	if (nb_datapath_drain(dp, 10000))
		die("drain", "frames still moving after 10 s");
	rss_end = rss_kib();
	if (!rss_start)
		rss_start = rss_end;
	if (!rss_mid)
		rss_mid = rss_end;
	nb_datapath_progress(dp, &prog);
	generated = prog.generated;
	for (u32 i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct nb_dev_stats_total t;

		dev = nb_dev_get_by_name(names[i]);
		if (!dev)
			die(names[i], "not found");
		nb_dev_stats_read(dev, &t);
		in += t.rx_packets + t.clones;
		out += t.tx_packets + t.host_packets + t.consumed + t.rx_dropped;
		nb_dev_put(dev);
	}
	nb_datapath_destroy(dp);
	nb_dev_put(gen4);
	nb_dev_destroy_all();
	nb_map_put(x.devmap);
	nb_object_close(x.obj);
	nb_epoch_barrier();
	nb_log_free(&ctl.log);
	nb_log_free(&log);
	memory_judged = seconds >= SOAK_MEMORY_SECONDS;
	memory_ok = (double)rss_end <= 1.05 * (double)rss_mid;
	printf("soak: %llu frames in %.0f s (%.2f Mpps) on %u workers; %u filter and XDP "
	       "replacements, %lu devmap updates\n", generated, seconds, generated / seconds / 1e6,
	       workers, replaced, devmap_updates(&w));
	printf("soak: resident memory %lu KiB at the start, %lu in the middle, %lu at the end "
	       "(%+.1f%% from the middle)%s\n", rss_start, rss_mid, rss_end,
	       100.0 * ((double)rss_end - (double)rss_mid) / (double)rss_mid,
	       memory_judged ? "" : ", not judged: the run was shorter than a minute");
	printf("soak: in %llu (received and cloned), out %llu (sent, delivered, consumed, "
	       "dropped), %ld buffers outstanding\n", in, out, nb_pkt_pool_outstanding());
	if (generated != packets || in != out || nb_pkt_pool_outstanding() ||
	    (memory_judged && !memory_ok)) {
		printf("soak: FAILED:%s%s%s%s\n", generated != packets ? " frames made" : "",
		       in != out ? " accounting" : "", nb_pkt_pool_outstanding() ? " buffers" : "",
		       memory_judged && !memory_ok ? " memory" : "");
		return 1;
	}
	printf("soak: passed\n");
	return 0;
}
