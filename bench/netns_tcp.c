// SPDX-License-Identifier: GPL-2.0
/*
 * TCP throughput (iperf3) and ping RTT between two network namespaces, through netbpf and
 * through the kernel's own tc bpf_redirect between the same veths, every offload of the veths
 * left as the kernel makes them (TSO, checksum offload, GRO off: the defaults).
 *
 *   ns A: a0 10.9.0.1 ---- a1 \                          / b1 ---- b0 10.9.0.2 :ns B
 *                              kernel tc or netbpf ports
 *
 * The kernel path: cls_bpf direct-action on a1 and b1, each `return bpf_redirect(other, 0)`.
 * netbpf's: afpacket, afxdp (skb and drv mode) or tap ports (the taps are a0 and b0 then, moved
 * into the namespaces), with the same instructions on each device's tc ingress, run by 1 or 2
 * workers (the process's datapath, include/netbpf/datapath.h). The paths take turns, round
 * after round, so that the machine's load hits them alike; each row shows the best round and
 * the ratio to the kernel's best. iperf3 and ping come from Debian (installed when missing).
 *
 * Beside each TCP figure, the machine's CPUs during that iperf3 run (/proc/stat: everything on
 * the machine counts, so measure on a quiet one): the share of them busy, and CPU seconds per
 * GB received.
 *
 * Also 64-byte forwarding: frames injected into a0 from an AF_PACKET transmit ring in ns A
 * (kernel_baseline.h's injector), through the path, counted and dropped by an XDP program on
 * b0 in ns B: frames per wall second (the injector, the path and the counter share the
 * machine's CPUs, so wall time is the honest clock here).
 *
 * Everything runs in a forked child in a network namespace of its own; the namespaces A and B
 * are made with `ip netns` under names of the child's pid and deleted at the end.
 * NB_BENCH_SCALE scales the 5 s of each iperf3 run; NB_BENCH_PATHS=N measures the first N paths
 * only (the kernel's is the first); NB_BENCH_ONLY=WORD the kernel's and those whose name has
 * WORD ("tap"); NB_BENCH_PIN pins every path's workers to a CPU each. Two rows give the
 * afpacket and tap ports 2 queues for 2 workers: the kernel spreads flows over the queues by a
 * symmetric hash (fanout, multi-queue tap), so both directions of a flow stay on one worker.
 * Two rows are afpacket's pinned, as `netbpf run --pin` runs them. The last seven rows are
 * afpacket's with the workers' busy-poll fixed (`--busy-poll`: none, 50 us, and with 1 worker
 * a second, longer than the pings' gaps) beside the adaptive default of the others, and with
 * the scheduler's default time slice beside the shortest the workers ask for.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/datapath.h>
#include <netbpf/dev.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>
#include <netbpf/tc.h>

#include "kernel_baseline.h"
#include "bench.h"

#define ROUNDS 3
#define MAX_PATHS 24

struct path {
	const char *name;
	const char *kind;	/* netbpf port kind; NULL: the kernel's tc */
	const char *words;	/* the port's words after dev IFNAME */
	unsigned int workers;
	bool pin;		/* workers on a CPU each (run --pin) */
	int busy_poll_us;	/* nb_datapath_opts' busy_poll_us: 0 adaptive, < 0 none */
	unsigned int flags;	/* more nb_datapath_flags */
	double gbps[ROUNDS], rtt_avg[ROUNDS], rtt_min[ROUNDS], rtt_med[ROUNDS], mpps[ROUNDS];
	double busy[ROUNDS];		/* the machine's CPUs busy during iperf3, 0..1 */
	double cpu_per_gb[ROUNDS];	/* CPU seconds (all of them) per GB moved */
	char skip[300];
};

static char ns_a[32], ns_b[32];

static __attribute__((format(printf, 1, 2))) int sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* The first line of a command's output that contains key, into line; false if none. */
static bool sh_line(const char *cmd, const char *key, char *line, size_t size)
{
	FILE *f = popen(cmd, "r");
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, (int)size, f))
		if (!found && strstr(line, key)) {
			found = true;
			break;
		}
	while (!found && fgets(line, (int)size, f))
		;
	pclose(f);
	return found;
}

static bool have_tools(void)
{
	if (!sh("command -v iperf3 >/dev/null && command -v ping >/dev/null"))
		return true;
	printf("  installing iperf3 and iputils-ping (Debian)\n");
	fflush(stdout);
	sh("DEBIAN_FRONTEND=noninteractive apt-get install -y -q iperf3 iputils-ping "
	   ">/dev/null 2>&1");
	return !sh("command -v iperf3 >/dev/null && command -v ping >/dev/null");
}

/* The veths with the namespaces' ends addressed; taps make their own (tap_mode). */
static int veths_up(void)
{
	return sh("ip link add a0 type veth peer name a1 && ip link add b0 type veth peer name b1 "
		  "&& ip link set a0 netns %s && ip link set b0 netns %s "
		  "&& ip link set a1 up && ip link set b1 up", ns_a, ns_b);
}

static int ns_addresses(const char *ifa, const char *ifb)
{
	return sh("ip -n %s addr add 10.9.0.1/24 dev %s && ip -n %s link set %s up && "
		  "ip -n %s addr add 10.9.0.2/24 dev %s && ip -n %s link set %s up",
		  ns_a, ifa, ns_a, ifa, ns_b, ifb, ns_b, ifb);
}

static void veths_down(void)
{
	sh("ip link del a1 2>/dev/null; ip link del b1 2>/dev/null; "
	   "ip -n %s link del a0 2>/dev/null; ip -n %s link del b0 2>/dev/null", ns_a, ns_b);
}

/* The kernel's path: bpf_redirect on a1 and b1's tc ingress, each to the other. */
static int kernel_attach(const char *dev, unsigned int target, char *why, size_t size)
{
	struct nb_kb_result res = { 0 };
	struct bpf_insn insns[NB_KB_MAX_INSNS];
	unsigned int ifindex = if_nametoindex(dev);
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, topts, .handle = 1, .priority = 1);
	int fd = nb_kb_prog_load(&res, BPF_PROG_TYPE_SCHED_CLS, insns,
				 nb_kb_prog_redirect(insns, target));
	int err;

	if (fd < 0) {
		snprintf(why, size, "%s", res.skip);
		return -1;
	}
	topts.prog_fd = fd;
	err = bpf_tc_hook_create(&hook);
	if (!err || err == -EEXIST)
		err = bpf_tc_attach(&hook, &topts);
	close(fd);
	if (err)
		snprintf(why, size, "cls_bpf on %s: %s", dev, strerror(-err));
	return err;
}

/* netbpf's path: two devices with ports on ifa and ifb, each redirecting to the other. */
static struct nb_datapath *netbpf_start(const struct path *p, const char *ifa, const char *ifb,
					char *why, size_t size)
{
	struct nb_datapath_opts dopts = { .sz = sizeof(dopts), .workers = p->workers,
					  .busy_poll_us = p->busy_poll_us };
	const char *names[2] = { "p0", "p1" }, *ifs[2] = { ifa, ifb };
	struct nb_dev *dev[2];
	struct nb_datapath *dp;
	struct nb_log log = { 0 };
	const char *text;
	char words[128];

	for (int i = 0; i < 2; i++) {
		snprintf(words, sizeof(words), "dev %s %s", ifs[i], p->words);
		if (nb_dev_create(names[i], 0, &dev[i], &log) ||
		    nb_dev_attach_port(dev[i], p->kind, words, &log))
			goto fail;
		nb_dev_set_up(dev[i], true);
	}
	for (int i = 0; i < 2; i++) {
		struct nb_prog_load_opts popts = { .sz = sizeof(popts), .license = "GPL",
						   .log = &log };
		NB_OPTS(nb_tc_bpf_opts, bpf, .direct_action = true);
		struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
					       .kind = "bpf", .kind_opts = &bpf, .log = &log };
		struct bpf_insn insns[NB_KB_MAX_INSNS];
		struct nb_tc_filter_id id;
		struct nb_prog *prog;
		unsigned int cnt = nb_kb_prog_redirect(insns, nb_dev_ifindex(dev[!i]));

		if (nb_tc_qdisc_add(dev[i], NB_TC_QDISC_CLSACT, &log) ||
		    nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, insns, cnt, &popts, &prog))
			goto fail;
		bpf.prog = prog;
		if (nb_tc_filter_add(dev[i], &f, &id)) {
			nb_prog_put(prog);
			goto fail;
		}
		nb_prog_put(prog);
	}
	dopts.log = &log;
	dopts.flags = p->flags;
	/* NB_BENCH_PIN: every path's workers on a CPU each */
	if (p->pin || getenv("NB_BENCH_PIN"))
		dopts.flags |= NB_DATAPATH_PIN;
	if (nb_datapath_create(&dopts, &dp))
		goto fail;
	if (nb_datapath_start(dp)) {
		nb_datapath_destroy(dp);
		goto fail;
	}
	nb_log_free(&log);
	return dp;
fail:
	text = nb_log_text(&log) ? nb_log_text(&log) : "?";
	snprintf(why, size, "%.*s", (int)strcspn(text, "\n"), text);
	nb_log_free(&log);
	nb_dev_destroy_all();
	return NULL;
}

/* A ping crosses within 30 s: the path works (an ARP and the first frames took their time). */
static bool path_works(void)
{
	for (int i = 0; i < 60; i++)
		if (!sh("ip netns exec %s ping -c 1 -W 0.5 -q 10.9.0.2 >/dev/null 2>&1", ns_a))
			return true;
	return false;
}

/*
 * The machine's CPU time so far, in clock ticks (/proc/stat's first line): all of it, and what
 * was not idle (user, nice, system, irq, softirq, steal; guest time is within user).
 */
static bool cpu_ticks(unsigned long long *busy, unsigned long long *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return false;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 5)
		return false;
	*total = 0;
	for (int i = 0; i < 8; i++)
		*total += v[i];
	*busy = *total - v[3] - v[4];	/* idle, iowait */
	return true;
}

/*
 * iperf3's receiver rate, and what the whole machine's CPUs did meanwhile: the share of them
 * busy, and the CPU seconds per GB received. The kernel's path keeps every CPU busy with the
 * two stacks alone, so a path that costs more CPU per byte moves fewer bytes: the column says
 * which part of a gap is CPU spent, and which is CPU left idle (waiting for wake-ups).
 */
static double iperf_gbps(double seconds, double *busy, double *cpu_per_gb)
{
	unsigned long long b0, t0, b1, t1;
	char cmd[256], line[512], *p;
	bool ticks;
	double v;

	sh("ip netns exec %s iperf3 -s -1 -D -p 5211 >/dev/null 2>&1", ns_b);
	usleep(300000);
	snprintf(cmd, sizeof(cmd), "ip netns exec %s iperf3 -c 10.9.0.2 -p 5211 -t %.0f -f g 2>&1",
		 ns_a, seconds);
	ticks = cpu_ticks(&b0, &t0);
	if (!sh_line(cmd, "receiver", line, sizeof(line)))
		return 0;
	ticks = ticks && cpu_ticks(&b1, &t1) && t1 > t0;
	p = strstr(line, "Gbits/sec");
	if (!p)
		return 0;
	while (p > line && p[-1] == ' ')
		p--;
	while (p > line && p[-1] != ' ')
		p--;
	v = atof(p);
	if (ticks && v > 0) {
		*busy = (double)(b1 - b0) / (t1 - t0);
		*cpu_per_gb = (double)(b1 - b0) / sysconf(_SC_CLK_TCK) / (v * seconds / 8);
	}
	return v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * count pings 20 ms apart: their mean, fastest and median round trip. The median beside the
 * mean: on a loaded machine a few replies wait milliseconds for a CPU, which moves the mean
 * and not the median.
 */
static bool ping_rtt(unsigned int count, double *avg, double *min, double *med)
{
	char cmd[256], line[512], *p;
	double *times = calloc(count, sizeof(*times)), sum = 0;
	unsigned int n = 0;
	FILE *f;

	if (!times)
		return false;
	snprintf(cmd, sizeof(cmd), "ip netns exec %s ping -c %u -i 0.02 10.9.0.2 2>&1", ns_a,
		 count);
	f = popen(cmd, "r");
	if (!f) {
		free(times);
		return false;
	}
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "time=");
		if (p && n < count)
			times[n++] = atof(p + 5);
	}
	pclose(f);
	if (n) {
		for (unsigned int i = 0; i < n; i++)
			sum += times[i];
		qsort(times, n, sizeof(*times), cmp_double);
		*avg = sum / n;
		*min = times[0];
		*med = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
	}
	free(times);
	return n > 0;
}

/* 64-byte frames injected into a0 (ns A), counted on b0 (ns B): forwarded frames per second. */
struct fwd_arg {
	double seconds;
	double mpps;
	__u32 map_id;		/* the counter's map, set by the counter */
	char why[300];
};

static int in_netns(const char *ns)
{
	char path[64];
	int fd, err;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = setns(fd, CLONE_NEWNET) ? -errno : 0;
	close(fd);
	return err;
}

static double forward_mpps(double seconds, char *why, size_t size)
{
	struct fwd_arg *arg = mmap(NULL, sizeof(*arg), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double mpps = 0;
	pid_t counter, injector;

	if (arg == MAP_FAILED)
		return 0;
	memset(arg, 0, sizeof(*arg));
	arg->seconds = seconds;
	counter = fork();
	if (!counter) {
		/* ns B: count what arrives on b0, for as long as the injector injects */
		struct nb_kb_result res = { 0 };
		int fd;

		if (in_netns(ns_b))
			_exit(1);
		fd = nb_kb_xdp_counter(&res, if_nametoindex("b0"));
		if (fd < 0) {
			snprintf(arg->why, sizeof(arg->why), "%s", res.skip);
			_exit(1);
		} else {
			struct bpf_map_info info = { 0 };
			__u32 len = sizeof(info);

			if (!bpf_obj_get_info_by_fd(fd, &info, &len))
				__atomic_store_n(&arg->map_id, info.id, __ATOMIC_RELEASE);
		}
		pause();
		_exit(0);
	}
	usleep(500000);
	injector = fork();
	if (!injector) {
		static const u8 frame[64] = { 0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01,
					      0x08, 0x00, 0x45 };
		struct nb_kb_result res = { 0 };
		struct nb_kb_injector inj;
		struct timespec t0, t1;
		u64 sent = 0, before, after;
		int map_fd = -1;

		if (in_netns(ns_a))
			_exit(1);
		if (nb_kb_injector_open(&res, &inj, NB_KB_INJECT_TX_RING, if_nametoindex("a0"),
					frame, sizeof(frame))) {
			snprintf(arg->why, sizeof(arg->why), "%s", res.skip);
			_exit(1);
		}
		/* the counter's map, by the id the counter left (ids are not per namespace) */
		for (int i = 0; i < 500 && !__atomic_load_n(&arg->map_id, __ATOMIC_ACQUIRE); i++)
			usleep(10000);
		if (arg->map_id)
			map_fd = bpf_map_get_fd_by_id(arg->map_id);
		if (map_fd < 0) {
			snprintf(arg->why, sizeof(arg->why), "no counter map");
			_exit(1);
		}
		before = nb_kb_counter_read(map_fd);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		t1 = t0;
		do {
			if (nb_kb_inject(&res, &inj) < 0) {
				/* a failed injection is a failed measurement, not 0 Mpps */
				snprintf(arg->why, sizeof(arg->why), "%s", res.skip);
				_exit(1);
			}
			sent += NB_KB_INJECT_FRAMES;
			clock_gettime(CLOCK_MONOTONIC, &t1);
		} while (t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9 < arg->seconds);
		usleep(200000);
		after = nb_kb_counter_read(map_fd);
		arg->mpps = (after - before) / (t1.tv_sec - t0.tv_sec +
						(t1.tv_nsec - t0.tv_nsec) / 1e9) / 1e6;
		nb_kb_injector_close(&inj);
		_exit(0);
	}
	if (injector > 0)
		waitpid(injector, NULL, 0);
	kill(counter, SIGTERM);
	waitpid(counter, NULL, 0);
	mpps = arg->mpps;
	if (!mpps && arg->why[0])
		snprintf(why, size, "%s", arg->why);
	munmap(arg, sizeof(*arg));
	return mpps;
}

/* One path, one round: set up, measure, take down. */
static void measure(struct path *p, unsigned int round, double seconds)
{
	struct nb_datapath *dp = NULL;
	const char *ifa = "a0", *ifb = "b0";
	char why[300] = "", fwd_why[300] = "";
	double avg = 0, min = 0, med = 0;

	if (p->skip[0])
		return;
	if (p->kind && !strcmp(p->kind, "tap")) {
		/* netbpf makes the taps a0 and b0 here; they move into the namespaces */
		dp = netbpf_start(p, "a0", "b0", why, sizeof(why));
		if (dp && sh("ip link set a0 netns %s && ip link set b0 netns %s", ns_a, ns_b))
			snprintf(why, sizeof(why), "moving the taps");
	} else if (veths_up()) {
		snprintf(why, sizeof(why), "veth pairs");
	} else if (p->kind) {
		dp = netbpf_start(p, "a1", "b1", why, sizeof(why));
	} else if (!kernel_attach("a1", if_nametoindex("b1"), why, sizeof(why))) {
		kernel_attach("b1", if_nametoindex("a1"), why, sizeof(why));
	}
	if (!why[0] && ns_addresses(ifa, ifb))
		snprintf(why, sizeof(why), "addresses");
	if (!why[0] && !path_works())
		snprintf(why, sizeof(why), "no ping crossed in 30 s");
	if (!why[0]) {
		p->gbps[round] = iperf_gbps(seconds, &p->busy[round], &p->cpu_per_gb[round]);
		if (ping_rtt(seconds > 2 ? 200 : 50, &avg, &min, &med)) {
			p->rtt_avg[round] = avg;
			p->rtt_min[round] = min;
			p->rtt_med[round] = med;
		}
		p->mpps[round] = forward_mpps(seconds / 2, fwd_why, sizeof(fwd_why));
	}
	if (dp) {
		nb_datapath_destroy(dp);
		nb_dev_destroy_all();
	}
	veths_down();
	if (why[0])
		snprintf(p->skip, sizeof(p->skip), "%s", why);
	printf("  round %u %-36s %s%6.2f Gbit/s (CPUs %.0f%% busy, %.2f CPU s/GB)  rtt %.3f ms "
	       "(min %.3f, median %.3f)  %.2f Mpps\n", round + 1, p->name,
	       p->skip[0] ? "SKIPPED: " : "", p->gbps[round], 100 * p->busy[round],
	       p->cpu_per_gb[round], p->rtt_avg[round], p->rtt_min[round], p->rtt_med[round],
	       p->mpps[round]);
	if (p->skip[0])
		printf("    %s\n", p->skip);
	else if (fwd_why[0])
		printf("    64 B forwarding: %s\n", fwd_why);
	fflush(stdout);
}

/* The round with the highest v (the first of them). */
static int best_round(const double *v)
{
	int b = 0;

	for (int i = 1; i < ROUNDS; i++)
		if (v[i] > v[b])
			b = i;
	return b;
}

static double best_max(const double *v)
{
	double b = v[best_round(v)];

	return b > 0 ? b : 0;
}

static double best_min(const double *v)
{
	double b = 0;

	for (int i = 0; i < ROUNDS; i++)
		if (v[i] > 0 && (!b || v[i] < b))
			b = v[i];
	return b;
}

static void bench_child(void)
{
#define PATH(n, k, w, nw) { .name = n, .kind = k, .words = w, .workers = nw }
#define PATH_PIN(n, k, nw) { .name = n, .kind = k, .words = "", .workers = nw, .pin = true }
#define PATH_BP(n, k, nw, us) \
	{ .name = n, .kind = k, .words = "", .workers = nw, .busy_poll_us = us }
#define PATH_FL(n, k, nw, fl) { .name = n, .kind = k, .words = "", .workers = nw, .flags = fl }
	struct path paths[MAX_PATHS] = {
		PATH("kernel tc bpf_redirect", NULL, "", 0),
		PATH("netbpf afpacket, 1 worker", "afpacket", "", 1),
		PATH("netbpf afpacket, 2 workers", "afpacket", "", 2),
		PATH("netbpf afxdp skb, 1 worker", "afxdp", "mode skb", 1),
		PATH("netbpf afxdp skb, 2 workers", "afxdp", "mode skb", 2),
		PATH("netbpf afxdp drv, 1 worker", "afxdp", "mode drv", 1),
		PATH("netbpf afxdp drv, 2 workers", "afxdp", "mode drv", 2),
		PATH("netbpf tap, 1 worker", "tap", "", 1),
		PATH("netbpf tap, 2 workers", "tap", "", 2),
		PATH("netbpf afpacket, 2 queues, 2 workers", "afpacket", "queues 2", 2),
		PATH("netbpf tap, 2 queues, 2 workers", "tap", "queues 2", 2),
		PATH_PIN("netbpf afpacket, 1 worker, pinned", "afpacket", 1),
		PATH_PIN("netbpf afpacket, 2 workers, pinned", "afpacket", 2),
		PATH_BP("netbpf afpacket, 1 worker, no busy-poll", "afpacket", 1, -1),
		PATH_BP("netbpf afpacket, 1 worker, busy-poll 50 us", "afpacket", 1, 50),
		PATH_BP("netbpf afpacket, 1 worker, busy-poll 1 s", "afpacket", 1, 1000000),
		PATH_BP("netbpf afpacket, 2 workers, no busy-poll", "afpacket", 2, -1),
		PATH_BP("netbpf afpacket, 2 workers, busy-poll 50 us", "afpacket", 2, 50),
		PATH_FL("netbpf afpacket, 1 worker, default slice", "afpacket", 1,
			NB_DATAPATH_DEFAULT_SLICE),
		PATH_FL("netbpf afpacket, 2 workers, default slice", "afpacket", 2,
			NB_DATAPATH_DEFAULT_SLICE),
	};
	unsigned int nr_paths = 0;
#undef PATH_FL
#undef PATH_BP
#undef PATH_PIN
#undef PATH
	/* the rows end at the first unnamed one: paths[] has room for MAX_PATHS */
	while (nr_paths < MAX_PATHS && paths[nr_paths].name)
		nr_paths++;
	/* NB_BENCH_PATHS=N: the first N paths only (the kernel's is the first) */
	const char *only = getenv("NB_BENCH_PATHS"), *word = getenv("NB_BENCH_ONLY");
	unsigned int n = only && atoi(only) > 0 && (unsigned int)atoi(only) < nr_paths ?
			 (unsigned int)atoi(only) : nr_paths;
	double seconds = 5 * nb_bench_scale();
	const struct path *k = &paths[0];

	if (seconds < 1)
		seconds = 1;
	snprintf(ns_a, sizeof(ns_a), "nbbA%d", getpid());
	snprintf(ns_b, sizeof(ns_b), "nbbB%d", getpid());
	if (sh("ip netns add %s && ip netns add %s", ns_a, ns_b)) {
		printf("  SKIPPED: cannot make the namespaces\n");
		return;
	}
	sh("ip netns exec %s sysctl -qw net.ipv6.conf.all.disable_ipv6=1 "
	   "net.ipv6.conf.default.disable_ipv6=1; ip -n %s link set lo up; "
	   "ip netns exec %s sysctl -qw net.ipv6.conf.all.disable_ipv6=1 "
	   "net.ipv6.conf.default.disable_ipv6=1; ip -n %s link set lo up", ns_a, ns_a, ns_b,
	   ns_b);
	/* NB_BENCH_ONLY=WORD: the kernel's path, then those whose name has WORD */
	if (word) {
		unsigned int kept = 1;

		for (unsigned int i = 1; i < nr_paths; i++)
			if (strstr(paths[i].name, word))
				paths[kept++] = paths[i];
		n = kept;
	}
	for (unsigned int r = 0; r < ROUNDS; r++)
		for (unsigned int i = 0; i < n; i++)
			measure(&paths[i], r, seconds);
	sh("ip netns del %s; ip netns del %s", ns_a, ns_b);

	/* the CPU columns are of the round whose TCP row is shown */
	printf("\n  | path | TCP Gbit/s | x kernel | CPUs busy | CPU s / GB | ping avg ms | "
	       "x kernel | ping median ms | x kernel | ping min ms | 64 B Mpps | x kernel |\n"
	       "  | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct path *p = &paths[i];
		double g = best_max(p->gbps), r = best_min(p->rtt_avg), m = best_max(p->mpps);
		double kg = best_max(k->gbps), kr = best_min(k->rtt_avg), km = best_max(k->mpps);
		double md = best_min(p->rtt_med), kmd = best_min(k->rtt_med);
		int t = best_round(p->gbps);

		if (p->skip[0]) {
			printf("  | %s | SKIPPED: %s | | | | | | | | | | |\n", p->name, p->skip);
			continue;
		}
		printf("  | %s | %.2f | %.2f | %.0f%% | %.2f | %.3f | %.2f | %.3f | %.2f | %.3f | "
		       "%.3f | %.2f |\n", p->name, g, kg ? g / kg : 0, 100 * p->busy[t],
		       p->cpu_per_gb[t], r, kr ? r / kr : 0, md, kmd ? md / kmd : 0,
		       best_min(p->rtt_min), m, km ? m / km : 0);
	}
	fflush(stdout);
}

NB_BENCH(netns_tcp, "TCP (iperf3), ping RTT and 64 B forwarding between two namespaces: "
		    "netbpf's ports against the kernel's tc bpf_redirect, default offloads")
{
	pid_t pid;

	if (geteuid() != 0) {
		printf("  SKIPPED: needs root (namespaces, veth, AF_XDP, tap)\n");
		return;
	}
	if (!have_tools()) {
		printf("  SKIPPED: iperf3 or ping is missing and could not be installed\n");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		if (unshare(CLONE_NEWNET) || nb_set_nr_cpus(2)) {
			printf("  SKIPPED: a network namespace or 2 workers: %s\n",
			       strerror(errno));
			_exit(0);
		}
		bench_child();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}
