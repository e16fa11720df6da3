// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's control path (`make bench` control): how long a command takes round trip to a
 * running `netbpf daemon`, and how many map elements a batch update writes per second.
 *
 *   socket    map update over one connection of the control protocol (what each command does
 *             once connected): median and p99 of 10,000
 *   command   the same as `netbpf -D NAME map update ...` processes, each started anew (what a
 *             shell loop pays, process start included): median and p99 of 10,000
 *   batch     `map update pinned ... file FILE` of 100,000 elements: one request, one batch
 *             update (nb_map_update_batch) after the file is read and checked
 *   library   nb_map_update_batch in this process on a map of the same shape, beside it
 *
 * Round trips are wall time, so on a loaded machine they mostly measure the scheduler; each
 * line also gives the CPU time the work cost (the daemon's process, workers included, from
 * /proc; the commands' from their rusage), which the load does not change much.
 *
 * The daemon (build/netbpf, a script that pins a hash map of 2^20 elements, tests/bpf/
 * big_hash.c) runs in a socket directory of its own. NB_BENCH_SCALE shrinks the counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <netbpf/map.h>

#include "bench.h"
#include "ctl/control.h"

#define ROUND_TRIPS 10000
#define BATCH 100000

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The CPU time a process used so far (all its threads), in microseconds; -1 if unreadable. */
static double proc_cpu_us(pid_t pid)
{
	unsigned long long utime, stime;
	char path[64], buf[1024], *p;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	/* the name in parentheses may hold spaces: fields count from the last ')' (state is 3) */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &utime, &stime) != 2)
		return -1;
	return (utime + stime) * 1e6 / sysconf(_SC_CLK_TCK);
}

static double children_cpu_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return ru.ru_utime.tv_sec * 1e6 + ru.ru_utime.tv_usec + ru.ru_stime.tv_sec * 1e6 +
	       ru.ru_stime.tv_usec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report_latency(const char *variant, double *us, unsigned int n, const char *whose,
			   double cpu_us)
{
	qsort(us, n, sizeof(*us), cmp_double);
	printf("  %-10s %9.1f us median %9.1f us p99 %9.1f us max  (%u round trips; %s CPU "
	       "%.1f us each)\n", variant, us[n / 2], us[(unsigned int)(n * 0.99)], us[n - 1], n,
	       whose, cpu_us / n);
	fflush(stdout);
}

/* The update line for element i: key i, value i * 3. */
static int update_words(unsigned int i, char words[][16], char **argv)
{
	int n = 0;

	argv[n++] = "map";
	argv[n++] = "update";
	argv[n++] = "pinned";
	argv[n++] = "tc/globals/big";
	argv[n++] = "key";
	for (int b = 0; b < 4; b++) {
		snprintf(words[b], 16, "%u", (i >> (8 * b)) & 0xff);
		argv[n++] = words[b];
	}
	argv[n++] = "value";
	for (int b = 0; b < 8; b++) {
		snprintf(words[4 + b], 16, "%u", b < 4 ? ((i * 3) >> (8 * b)) & 0xff : 0);
		argv[n++] = words[4 + b];
	}
	argv[n] = NULL;
	return n;
}

static void bench_socket(const char *path, pid_t daemon, unsigned int n)
{
	double *us = calloc(n, sizeof(*us)), cpu0 = proc_cpu_us(daemon);
	char words[12][16], *argv[24], cwd[PATH_MAX];
	struct nb_ctl_request req = { .argv = argv };
	struct nb_log log = { 0 };
	unsigned int done = 0;
	int fd;

	if (!us || !getcwd(cwd, sizeof(cwd)) || nb_ctl_client_connect(path, &fd, &log)) {
		printf("  socket     SKIPPED: %s\n", us ? nb_log_text(&log) : "no memory");
		free(us);
		nb_log_free(&log);
		return;
	}
	req.cwd = cwd;
	for (; done < n; done++) {
		struct nb_ctl_reply rep = { 0 };
		double t0 = now_us();

		req.argc = update_words(done, words, argv);
		if (nb_ctl_client_call(fd, &req, &rep, &log) || rep.status) {
			printf("  socket     FAILED: %s%s\n", nb_log_text(&log),
			       rep.err ? rep.err : "");
			nb_ctl_reply_free(&rep);
			break;
		}
		us[done] = now_us() - t0;
		nb_ctl_reply_free(&rep);
	}
	close(fd);
	if (done)
		report_latency("socket", us, done, "daemon", proc_cpu_us(daemon) - cpu0);
	nb_log_free(&log);
	free(us);
}

/* netbpf with argv, its output thrown away: its exit status, or -1. */
static int run_netbpf(const char *netbpf, char **argv)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execv(netbpf, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void bench_command(const char *netbpf, const char *name, unsigned int n)
{
	double *us = calloc(n, sizeof(*us)), cpu0 = children_cpu_us();
	char words[12][16], *argv[32];
	unsigned int done = 0;

	if (!us)
		return;
	argv[0] = (char *)netbpf;
	argv[1] = "-D";
	argv[2] = (char *)name;
	for (; done < n; done++) {
		double t0 = now_us();

		update_words(done, words, argv + 3);
		if (run_netbpf(netbpf, argv)) {
			printf("  command    FAILED at %u\n", done);
			break;
		}
		us[done] = now_us() - t0;
	}
	if (done)
		report_latency("command", us, done, "commands'", children_cpu_us() - cpu0);
	free(us);
}

/* nb_map_update_batch in this process, on a map of big_hash.c's shape. */
static void bench_library(unsigned int n)
{
	struct nb_map_create_opts opts = { .sz = sizeof(opts), .name = "big" };
	__u32 *keys = malloc(n * sizeof(*keys)), count = n;
	__u64 *values = malloc(n * sizeof(*values));
	struct nb_bench_clock clk;
	struct nb_map *map;

	if (!keys || !values || nb_map_create(BPF_MAP_TYPE_HASH, 4, 8, 1 << 20, &opts, &map)) {
		printf("  library    SKIPPED: cannot make the map\n");
		free(keys);
		free(values);
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		keys[i] = i;
		values[i] = i * 7;
	}
	nb_bench_start(&clk);
	nb_map_update_batch(map, keys, values, &count, BPF_ANY);
	nb_bench_stop(&clk);
	nb_bench_report("library", count, &clk, " elements/s");
	nb_map_put(map);
	free(keys);
	free(values);
}

static void bench_batch(const char *netbpf, const char *name, pid_t daemon, const char *dir,
			unsigned int n)
{
	char file[PATH_MAX], *argv[16];
	double t0, wall, cpu0, cpu;
	FILE *f;

	snprintf(file, sizeof(file), "%s/batch.txt", dir);
	f = fopen(file, "w");
	if (!f)
		return;
	for (unsigned int i = 0; i < n; i++)
		fprintf(f, "key %u %u %u %u value %u 0 0 0 0 0 0 0\n", i & 0xff, (i >> 8) & 0xff,
			(i >> 16) & 0xff, (i >> 24) & 0xff, (i * 7) & 0xff);
	fclose(f);
	argv[0] = (char *)netbpf;
	argv[1] = "-D";
	argv[2] = (char *)name;
	argv[3] = "map";
	argv[4] = "update";
	argv[5] = "pinned";
	argv[6] = "tc/globals/big";
	argv[7] = "file";
	argv[8] = file;
	argv[9] = NULL;
	cpu0 = proc_cpu_us(daemon);
	t0 = now_us();
	if (run_netbpf(netbpf, argv)) {
		printf("  batch      FAILED\n");
		return;
	}
	wall = now_us() - t0;
	cpu = proc_cpu_us(daemon) - cpu0;
	printf("  %-10s %9.2f M elements/s wall, %.2f M per daemon CPU second  (%u elements in "
	       "%.3f s wall, %.3f s daemon CPU; the file read and checked included)\n", "batch",
	       n / wall, cpu > 0 ? n / cpu : 0, n, wall / 1e6, cpu / 1e6);
	fflush(stdout);
	bench_library(n);
}

static pid_t start_daemon(const char *netbpf, const char *name, const char *script)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execl(netbpf, netbpf, "daemon", "--name", name, script, (char *)NULL);
		_exit(127);
	}
	return pid;
}

NB_BENCH(control, "netbpf daemon: a command's round trip; map elements per second by batch")
{
	const char *build = getenv("NB_BUILD") ? getenv("NB_BUILD") : "build";
	unsigned int n = (unsigned int)(ROUND_TRIPS * nb_bench_scale());
	unsigned int batch = (unsigned int)(BATCH * nb_bench_scale());
	char netbpf[PATH_MAX], dir[] = "/tmp/nb-bench-control-XXXXXX", script[PATH_MAX + 32];
	char name[32], path[PATH_MAX + 64], obj[PATH_MAX];
	pid_t pid;
	FILE *f;

	snprintf(netbpf, sizeof(netbpf), "%s/netbpf", build);
	snprintf(obj, sizeof(obj), "%s/tests/bpf/big_hash.o", build);
	if (access(netbpf, X_OK) || access(obj, R_OK)) {
		printf("  SKIPPED: %s or %s is not built\n", netbpf, obj);
		return;
	}
	if (!mkdtemp(dir)) {
		printf("  SKIPPED: cannot make %s: %s\n", dir, strerror(errno));
		return;
	}
	setenv("NETBPF_RUNDIR", dir, 1);
	snprintf(name, sizeof(name), "bench%d", (int)getpid());
	snprintf(path, sizeof(path), "%s/%s.sock", dir, name);
	snprintf(script, sizeof(script), "%s/big.tc", dir);
	f = fopen(script, "w");
	if (!f)
		goto out;
	fprintf(f, "link add g type gen count 1\ntc qdisc add dev g clsact\n"
		   "tc filter add dev g ingress bpf da obj %s sec tc\n", obj);
	fclose(f);
	pid = start_daemon(netbpf, name, script);
	if (pid < 0)
		goto out;
	for (int i = 0; i < 400 && access(path, F_OK); i++)
		usleep(25000);
	bench_socket(path, pid, n ?: 1);
	bench_command(netbpf, name, n ?: 1);
	bench_batch(netbpf, name, pid, dir, batch ?: 1);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
out:
	snprintf(script, sizeof(script), "rm -rf %s", dir);
	if (system(script)) {
		/* a temporary directory left behind is harmless */
	}
}
