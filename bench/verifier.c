// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier on the largest programs: time and peak memory of one verification, beside the
 * running kernel's verification of the same program (the "verification time N usec" of its
 * BPF_LOG_STATS log, loaded with libbpf), and the instructions each processed.
 *
 * Programs: Debian's xdp-tools filters (libxdp1), the clang-compiled parser of tests/bpf, and
 * the largest programs of the kernel's selftests when the corpus is there (NB_CORPUS, default
 * ../shared/corpus: test_verif_scale1/2/3, core_kern). netbpf's time is the CPU time of
 * nb_prog_load on the linked instructions with the object's maps (the interpreter: no JIT, as
 * the kernel's figure has none), the best of a few runs; its peak memory is the growth of the
 * process's peak resident set over one verification, measured in a child of its own. The
 * kernel column needs root and BPF, and says why when it is missing.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "bench.h"

#define TRIALS 3
#define KERNEL_LOG_SIZE (1u << 16)

struct vbench_prog {
	const char *dir;	/* "corpus": NB_CORPUS; "build": the build; else a directory */
	const char *file;
	const char *name;	/* the program (function) */
	enum bpf_prog_type type;
};

static const struct vbench_prog progs[] = {
	{ "/usr/lib/x86_64-linux-gnu/bpf", "xdpfilt_alw_all.o", "xdpfilt_alw_all",
	  BPF_PROG_TYPE_XDP },
	{ "/usr/lib/x86_64-linux-gnu/bpf", "xdpfilt_alw_ip.o", "xdpfilt_alw_ip",
	  BPF_PROG_TYPE_XDP },
	{ "build", "tests/bpf/verifier_parser.o", "parse", BPF_PROG_TYPE_XDP },
	{ "corpus", "linux-selftests/test_verif_scale1.o", "balancer_ingress",
	  BPF_PROG_TYPE_SCHED_CLS },
	{ "corpus", "linux-selftests/test_verif_scale2.o", "balancer_ingress",
	  BPF_PROG_TYPE_SCHED_CLS },
	{ "corpus", "linux-selftests/test_verif_scale3.o", "balancer_ingress",
	  BPF_PROG_TYPE_SCHED_CLS },
	{ "corpus", "linux-selftests/core_kern.o", "balancer_ingress", BPF_PROG_TYPE_SCHED_CLS },
};

struct vbench_result {
	double cpu, wall;	/* seconds, the best run */
	double peak_mb;		/* growth of the peak resident set */
	unsigned int insns, processed;
	char skip[768];
};

static const char *prog_path(const struct vbench_prog *p, char *buf, size_t size)
{
	const char *dir = p->dir;

	if (!strcmp(dir, "corpus"))
		dir = getenv("NB_CORPUS") ?: "../shared/corpus";
	else if (!strcmp(dir, "build"))
		dir = getenv("NB_BUILD") ?: "build";
	snprintf(buf, size, "%s/%s", dir, p->file);
	return buf;
}

/* A field of /proc/self/status in kB ("VmHWM", "VmRSS"), 0 when unreadable. */
static long proc_status_kb(const char *field)
{
	char line[256];
	size_t len = strlen(field);
	long kb = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':')
			kb = atol(line + len + 1);
	fclose(f);
	return kb;
}

/* The object loaded once (maps made, the program verified), the program to verify again. */
struct vbench_obj {
	struct nb_object *obj;
	const struct bpf_insn *insns;
	unsigned int cnt;
	struct nb_map *maps[64];
	unsigned int map_cnt;
};

static int open_netbpf(const struct vbench_prog *p, const char *path, struct vbench_obj *o,
		       char *skip, size_t size)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts open_opts = { .sz = sizeof(open_opts), .log = &log };
	struct nb_object_load_opts load_opts = {
		.sz = sizeof(load_opts), .prog_flags = NB_PROG_LOAD_INTERP, .log = &log,
	};
	struct nb_object_prog *prog = NULL, *it;
	struct nb_object_map *m;
	int err;

	err = nb_object_open_file(path, &open_opts, &o->obj);
	if (err) {
		snprintf(skip, size, "cannot open %s: %s", path, strerror(-err));
		goto out;
	}
	nb_object_for_each_prog(it, o->obj) {
		bool mine = !strcmp(nb_object_prog_name(it), p->name);

		nb_object_prog_set_autoload(it, mine);
		if (mine)
			prog = it;
	}
	if (!prog) {
		snprintf(skip, size, "no program %s in %s", p->name, path);
		err = -ENOENT;
		goto out;
	}
	nb_object_prog_set_type(prog, p->type);
	err = nb_object_load(o->obj, &load_opts);
	if (err) {
		snprintf(skip, size, "netbpf refuses %s: %.100s", p->name, nb_log_text(&log));
		goto out;
	}
	o->insns = nb_object_prog_insns(prog, &o->cnt);
	nb_object_for_each_map(m, o->obj)
		if (o->map_cnt < ARRAY_SIZE(o->maps))
			o->maps[o->map_cnt++] = nb_object_map_map(m);
out:
	nb_log_free(&log);
	return err;
}

static int verify_once(const struct vbench_prog *p, const struct vbench_obj *o,
		       unsigned int *processed)
{
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .name = p->name, .license = "GPL",
		.flags = NB_PROG_LOAD_INTERP, .maps = o->maps, .map_cnt = o->map_cnt,
	};
	struct nb_prog *prog;
	int err = nb_prog_load(p->type, o->insns, o->cnt, &opts, &prog);

	if (!err) {
		*processed = nb_prog_verified_insns(prog);
		nb_prog_put(prog);
	}
	return err;
}

/* Peak memory of one verification, in a child: the parent's heap stays as it was. */
static double peak_mb(const struct vbench_prog *p, const struct vbench_obj *o)
{
	int fds[2], status;
	double mb = -1;
	pid_t pid;

	if (pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		unsigned int processed;
		long before;

		/* Free memory of earlier runs back to the system: the growth is this run's. */
		malloc_trim(0);
		before = proc_status_kb("VmRSS");

		close(fds[0]);
		verify_once(p, o, &processed);
		mb = (proc_status_kb("VmHWM") - before) / 1024.0;
		_exit(write(fds[1], &mb, sizeof(mb)) == sizeof(mb) ? 0 : 1);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &mb, sizeof(mb)) != sizeof(mb))
		mb = -1;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return mb;
}

static void run_netbpf(const struct vbench_prog *p, const char *path, struct vbench_result *r)
{
	struct vbench_obj o = { 0 };

	if (open_netbpf(p, path, &o, r->skip, sizeof(r->skip)))
		goto out;
	r->insns = o.cnt;
	r->cpu = r->wall = 1e9;
	for (int t = 0; t < TRIALS; t++) {
		struct nb_bench_clock clk;

		nb_bench_start(&clk);
		if (verify_once(p, &o, &r->processed)) {
			snprintf(r->skip, sizeof(r->skip), "netbpf refuses %s", p->name);
			goto out;
		}
		nb_bench_stop(&clk);
		if (clk.cpu < r->cpu) {
			r->cpu = clk.cpu;
			r->wall = clk.wall;
		}
	}
	r->peak_mb = peak_mb(p, &o);
out:
	nb_object_close(o.obj);
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* One load into the kernel; the verification time of its log in seconds, or < 0. */
static double kernel_verify_once(const struct vbench_prog *p, const char *path, char *log,
				 unsigned int *processed, char *skip, size_t size)
{
	struct bpf_program *it, *prog = NULL;
	struct bpf_object *obj;
	struct bpf_map *m;
	const char *t;
	double secs = -1;

	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		snprintf(skip, size, "libbpf cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	/* Nothing pinned; maps a loader sizes at load time get a size (one per CPU). */
	bpf_object__for_each_map(m, obj) {
		bpf_map__set_pin_path(m, NULL);
		if (!bpf_map__max_entries(m) && bpf_map__type(m) != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			bpf_map__set_max_entries(m, libbpf_num_possible_cpus());
	}
	bpf_object__for_each_program(it, obj) {
		bool mine = !strcmp(bpf_program__name(it), p->name);

		bpf_program__set_autoload(it, mine);
		if (mine)
			prog = it;
	}
	if (!prog) {
		snprintf(skip, size, "libbpf finds no program %s", p->name);
		goto out;
	}
	bpf_program__set_type(prog, p->type);
	bpf_program__set_log_level(prog, 4);	/* BPF_LOG_STATS */
	bpf_program__set_log_buf(prog, log, KERNEL_LOG_SIZE);
	log[0] = 0;
	if (bpf_object__load(obj)) {
		snprintf(skip, size, "the kernel refuses %s: %s", p->name, strerror(errno));
		goto out;
	}
	t = strstr(log, "verification time ");
	if (!t) {
		snprintf(skip, size, "no verification time in the kernel's log");
		goto out;
	}
	secs = atof(t + strlen("verification time ")) / 1e6;
	t = strstr(log, "processed ");
	*processed = t ? strtoul(t + strlen("processed "), NULL, 10) : 0;
out:
	bpf_object__close(obj);
	return secs;
}

static void run_kernel(const struct vbench_prog *p, const char *path, struct vbench_result *r)
{
	char *log;

	if (geteuid() != 0) {
		snprintf(r->skip, sizeof(r->skip), "not root: the kernel reference needs CAP_BPF");
		return;
	}
	log = malloc(KERNEL_LOG_SIZE);
	if (!log) {
		snprintf(r->skip, sizeof(r->skip), "out of memory");
		return;
	}
	libbpf_set_print(libbpf_quiet);
	r->wall = 1e9;
	for (int t = 0; t < TRIALS; t++) {
		double secs = kernel_verify_once(p, path, log, &r->processed, r->skip,
						 sizeof(r->skip));

		if (secs < 0)
			break;
		if (secs < r->wall)
			r->wall = secs;
	}
	if (r->skip[0])
		r->wall = 0;
	free(log);
}

NB_BENCH(verifier, "verification time and peak memory of the largest programs, beside the kernel's")
{
	printf("  (netbpf: CPU time of one verification, the best of %d, and the growth of the "
	       "peak RSS; kernel: its log's verification time, the best of %d)\n", TRIALS,
	       TRIALS);
	for (unsigned int i = 0; i < ARRAY_SIZE(progs); i++) {
		const struct vbench_prog *p = &progs[i];
		struct vbench_result nb = { 0 }, k = { 0 };
		char path[512], name[128];

		prog_path(p, path, sizeof(path));
		snprintf(name, sizeof(name), "%s %s", strrchr(p->file, '/') ?
			 strrchr(p->file, '/') + 1 : p->file, p->name);
		if (access(path, R_OK)) {
			printf("  %-44s skipped: %s: %s\n", name, path, strerror(errno));
			continue;
		}
		run_netbpf(p, path, &nb);
		run_kernel(p, path, &k);
		if (nb.skip[0]) {
			printf("  %-44s netbpf: %s\n", name, nb.skip);
			continue;
		}
		printf("  %-44s %5u insns  processed %7u  netbpf %8.1f ms CPU (%8.1f wall) "
		       "%6.1f MB", name, nb.insns, nb.processed, nb.cpu * 1e3, nb.wall * 1e3,
		       nb.peak_mb);
		if (k.skip[0])
			printf("  kernel: %s\n", k.skip);
		else
			printf("  kernel %7u processed %8.1f ms  netbpf/kernel time %.2f\n",
			       k.processed, k.wall * 1e3, nb.cpu / k.wall);
		fflush(stdout);
	}
}
