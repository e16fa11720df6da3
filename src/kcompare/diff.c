// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf diff (diff.h): the kernel side is loaded with libbpf exactly as a user's loader would
 * (every map unpinned, so nothing is left in bpffs), the netbpf side with nb_object; the
 * program's type is netbpf's (section name or --type) on both, so sections libbpf does not know
 * still load. Objects libbpf 1.x cannot open (iproute2's `maps` section, the old 20-byte
 * bpf_map_def) go to the kernel as iproute2's loader takes them, from netbpf's reading
 * (kernel_object.c). Per-CPU map values are compared folded (summed over the CPUs in 64, 32-bit
 * or byte words) because the kernel runs the test on whichever CPU the caller is on.
 *
 * The kernel's test runs happen in a network namespace of their own (one per process, switched
 * to around each BPF_PROG_TEST_RUN), because what they see of devices is observable: an XDP
 * ctx_in with ingress_ifindex 2 runs on a host whose ifindex 2 exists and fails with ENODEV in
 * a fresh namespace, as in netbpf, which has no devices in a test run; __sk_buff.ifindex is
 * looked up the same way; bpf_clone_redirect really transmits on the host's device of that
 * ifindex. The loopback device is ifindex 1 in every namespace, so nothing else changes.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/pkt_cls.h>

#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/pcap.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "common/types.h"
#include "kcompare/diff.h"
#include "kcompare/kernel_object.h"

#define DATA_OUT_SIZE (1U << 17)

struct nb_diff {
	const struct nb_diff_opts *opts;
	struct nb_object *nobj;
	struct nb_object_prog *chosen;
	struct nb_prog *nprog;
	struct bpf_object *kobj;		/* libbpf's object, or NULL */
	struct nb_kernel_object *kload;		/* else the kernel side from netbpf's reading */
	int kfd;
	bool no_kernel;				/* opts->kernel_optional, and none */
	int host_netns;				/* this thread's namespace, -1: no switching */
	int *kmap_fd;				/* the kernel's maps in netbpf's map order */
	enum bpf_prog_type type;
	u8 *kout, *nout;
};

static const char *prog_type_str(enum bpf_prog_type type)
{
	const char *s = libbpf_bpf_prog_type_str(type);

	return s ? s : "unknown";
}

static int libbpf_silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* iproute2's "ID/KEY" sections hold tail-call targets, not programs to choose. */
static bool tail_call_section(const char *sec)
{
	unsigned int id, key;
	char end;

	return sscanf(sec, "%u/%u%c", &id, &key, &end) == 2;
}

static bool candidate(const struct nb_diff_opts *o, const struct nb_object_prog *p)
{
	const char *sec = nb_object_prog_section(p);

	return o->section ? !strcmp(sec, o->section) : !tail_call_section(sec);
}

/* "sec/name, sec/name, ...": the programs one could have meant. */
static void log_candidates(const struct nb_diff *d, struct nb_log *log)
{
	struct nb_object_prog *p;
	const char *sep = "";

	nb_object_for_each_prog(p, d->nobj) {
		if (!candidate(d->opts, p))
			continue;
		nb_log_printf(log, "%s%s/%s", sep, nb_object_prog_section(p),
			      nb_object_prog_name(p));
		sep = ", ";
	}
	nb_log_printf(log, "\n");
}

/* The one program of the section (or object) by its name, as ip link set ... program NAME. */
static int choose_prog(struct nb_diff *d, struct nb_log *log)
{
	const struct nb_diff_opts *o = d->opts;
	const char *in = o->section ? o->section : "the object";
	struct nb_object_prog *p;
	unsigned int n = 0, named = 0;

	nb_object_for_each_prog(p, d->nobj) {
		if (!candidate(o, p))
			continue;
		n++;
		if (o->prog_name && strcmp(nb_object_prog_name(p), o->prog_name))
			continue;
		named++;
		if (!d->chosen)
			d->chosen = p;
	}
	if (!n) {
		nb_log_printf(log, "%s: no program in %s%s\n", o->obj_path,
			      o->section ? "section " : "", in);
		return -ENOENT;
	}
	if (!named) {
		nb_log_printf(log, "%s: no program %s in %s%s; there are: ", o->obj_path,
			      o->prog_name, o->section ? "section " : "", in);
		log_candidates(d, log);
		return -ENOENT;
	}
	if (named > 1) {
		nb_log_printf(log, "%s: %s%s holds %u programs, choose one with program NAME%s: ",
			      o->obj_path, o->section ? "section " : "", in, n,
			      o->section ? "" : " (and sec SECTION)");
		log_candidates(d, log);
		return -EINVAL;
	}
	/*
	 * The chosen program and the tail-call targets the object places, nothing else: a
	 * sibling netbpf or the kernel refuses (a kfunc call, a selftest's rejected case) does
	 * not keep the chosen one from running.
	 */
	nb_object_for_each_prog(p, d->nobj)
		nb_object_prog_set_autoload(p, p == d->chosen || nb_object_prog_tail_call_target(p));
	return 0;
}

static int load_netbpf(struct nb_diff *d, struct nb_log *log)
{
	const struct nb_diff_opts *o = d->opts;
	struct nb_object_open_opts open_opts = { .sz = sizeof(open_opts), .log = log };
	struct nb_object_load_opts load_opts = {
		.sz = sizeof(load_opts),
		.prog_type = o->type,
		.log = log,
		.prog_flags = (o->interp ? NB_PROG_LOAD_INTERP : 0) |
			      (o->unsafe_no_verify ? NB_PROG_LOAD_UNSAFE_NO_VERIFY : 0),
		.map_sizes = o->map_sizes,
		.map_size_cnt = o->map_size_cnt,
	};
	int err;

	err = nb_object_open_file(o->obj_path, &open_opts, &d->nobj);
	if (err)
		return err;
	err = choose_prog(d, log);
	if (err)
		return err;
	err = nb_object_load(d->nobj, &load_opts);
	if (err)
		return err;
	d->nprog = nb_object_prog_prog(d->chosen);
	if (!d->nprog) {
		nb_log_printf(log, "%s: program %s was not loaded\n", o->obj_path,
			      nb_object_prog_name(d->chosen));
		return -ENOENT;
	}
	d->type = nb_prog_type(d->nprog);
	switch (d->type) {
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
		break;
	default:
		nb_log_printf(log, "%s: program type %s cannot be run on packets\n", o->obj_path,
			      prog_type_str(d->type));
		return -EOPNOTSUPP;
	}
	return 0;
}

/* netbpf's maps in the kernel object libbpf loaded, found by name (global data: ".data"). */
static void kernel_maps_libbpf(struct nb_diff *d)
{
	struct nb_object_map *m;
	int i = 0;

	nb_object_for_each_map(m, d->nobj) {
		struct bpf_map *km = bpf_object__find_map_by_name(d->kobj, nb_object_map_name(m));

		d->kmap_fd[i++] = km ? bpf_map__fd(km) : -1;
	}
}

/*
 * libbpf 1.x cannot open the object (iproute2's maps section, the old bpf_map_def): the kernel
 * side from netbpf's reading, as iproute2 loads it (kernel_object.c).
 */
static int load_kernel_legacy(struct nb_diff *d, int open_err, struct nb_log *log)
{
	const struct nb_kernel_object_opts kopts = { .only_type = d->type };
	struct nb_log klog = { 0 };
	int err = nb_kernel_object_load(d->nobj, &kopts, &d->kload, &klog);

	if (err) {
		nb_log_printf(log, "kernel: libbpf cannot open %s (%s), and loaded as iproute2 "
			      "does:\n%s", d->opts->obj_path, strerror(-open_err), nb_log_text(&klog));
		nb_log_free(&klog);
		return NB_DIFF_NO_KERNEL;
	}
	nb_log_free(&klog);
	d->kfd = nb_kernel_object_prog_fd(d->kload, d->nobj, d->chosen);
	memcpy(d->kmap_fd, d->kload->map_fd, d->kload->map_cnt * sizeof(int));
	return 0;
}

/*
 * Why bpf_object__load failed. libbpf loads each program without a log and retries one the
 * kernel refuses with log level 1 into the program's own buffer, so the refused program is the
 * one whose buffer holds text: its name and the verifier's last lines, not a bare errno.
 */
static void kernel_load_error(const struct nb_diff *d, int err, char **vlog,
			      struct nb_log *log)
{
	struct bpf_program *kp;
	unsigned int i = 0;

	if (nb_kernel_not_permitted(err)) {
		nb_kernel_log_not_permitted(log);
		return;
	}
	bpf_object__for_each_program(kp, d->kobj) {
		if (!bpf_program__autoload(kp))
			continue;
		if (vlog && vlog[i][0]) {
			nb_log_printf(log, "kernel: cannot load program %s (section %s) of %s as "
				      "%s: %s\n", bpf_program__name(kp),
				      bpf_program__section_name(kp), d->opts->obj_path,
				      prog_type_str(bpf_program__type(kp)), strerror(-err));
			nb_kernel_log_tail(log, vlog[i]);
			return;
		}
		i++;
	}
	/* no program's log: a map, BTF or relocation the kernel or libbpf refused */
	nb_log_printf(log, "kernel: cannot load %s as %s: %s\n", d->opts->obj_path,
		      prog_type_str(d->type), strerror(-err));
}

static void kernel_log_bufs_free(char **vlog)
{
	for (char **v = vlog; v && *v; v++)
		free(*v);
	free(vlog);
}

/* A log buffer for each program libbpf will load, NULL-terminated; NULL without memory. */
static char **kernel_log_bufs(struct bpf_object *kobj)
{
	struct bpf_program *kp;
	unsigned int n = 0, i = 0;
	char **vlog;

	bpf_object__for_each_program(kp, kobj)
		n += bpf_program__autoload(kp);
	vlog = calloc(n + 1, sizeof(*vlog));
	if (!vlog)
		return NULL;
	bpf_object__for_each_program(kp, kobj) {
		if (!bpf_program__autoload(kp))
			continue;
		/* calloc: untouched pages cost nothing, and an empty log says "not this one" */
		vlog[i] = calloc(1, NB_KERNEL_VERIFIER_LOG_SIZE);
		if (!vlog[i]) {
			kernel_log_bufs_free(vlog);
			return NULL;
		}
		i++;
	}
	i = 0;
	bpf_object__for_each_program(kp, kobj)
		if (bpf_program__autoload(kp))
			bpf_program__set_log_buf(kp, vlog[i++], NB_KERNEL_VERIFIER_LOG_SIZE);
	return vlog;
}

/* The kernel side: NB_DIFF_NO_KERNEL with the reason when the kernel cannot run it. */
static int load_kernel(struct nb_diff *d, struct nb_log *log)
{
	const struct nb_diff_opts *o = d->opts;
	const char *want_sec = nb_object_prog_section(d->chosen);
	const char *want_name = nb_object_prog_name(d->chosen);
	struct bpf_program *kp, *chosen = NULL;
	libbpf_print_fn_t old = libbpf_set_print(libbpf_silent);
	struct bpf_map *m;
	char **vlog;
	int err;

	d->kobj = bpf_object__open_file(o->obj_path, NULL);
	if (!d->kobj) {
		libbpf_set_print(old);
		err = -errno;
		d->kobj = NULL;
		return load_kernel_legacy(d, err, log);
	}
	bpf_object__for_each_program(kp, d->kobj) {
		/* libbpf keeps the '?' of an optional section in its name; netbpf does not */
		const char *sec = bpf_program__section_name(kp);
		const struct nb_object_prog *twin;

		sec += sec[0] == '?';
		twin = nb_object_find_prog(d->nobj, sec, bpf_program__name(kp));
		if (!chosen && twin == d->chosen)
			chosen = kp;
		/*
		 * The programs netbpf's side loaded, with the types it gave them, and no others:
		 * the chosen one and its tail-call targets, not a sibling of another type.
		 */
		if (twin && nb_object_prog_prog(twin)) {
			bpf_program__set_type(kp, nb_prog_type(nb_object_prog_prog(twin)));
			bpf_program__set_autoload(kp, true);
		} else {
			bpf_program__set_autoload(kp, false);
		}
	}
	if (!chosen) {
		libbpf_set_print(old);
		nb_log_printf(log, "kernel: libbpf finds no program %s in section %s of %s\n",
			      want_name, want_sec, o->obj_path);
		return NB_DIFF_NO_KERNEL;
	}
	bpf_object__for_each_map(m, d->kobj) {
		const struct nb_object_map *nm = nb_object_find_map(d->nobj, bpf_map__name(m));

		bpf_map__set_pin_path(m, NULL);
		/* The sizes netbpf's side was given (the tool's own sizing of the object). */
		if (nm && !bpf_map__max_entries(m) && nb_object_map_max_entries(nm))
			bpf_map__set_max_entries(m, nb_object_map_max_entries(nm));
	}
	vlog = kernel_log_bufs(d->kobj);
	err = bpf_object__load(d->kobj) ? -errno : 0;
	libbpf_set_print(old);
	if (err) {
		kernel_load_error(d, err, vlog, log);
		kernel_log_bufs_free(vlog);
		return NB_DIFF_NO_KERNEL;
	}
	kernel_log_bufs_free(vlog);
	d->kfd = bpf_program__fd(chosen);
	kernel_maps_libbpf(d);
	return 0;
}

static int kernel_map_fd(const struct nb_diff *d, const struct nb_object_map *map)
{
	struct nb_object_map *m;
	int i = 0;

	nb_object_for_each_map(m, d->nobj) {
		if (m == map)
			return d->kmap_fd[i];
		i++;
	}
	return -1;
}

/* An element written into the kernel's map too, the fd in ctx. */
static int kernel_map_update(const void *key, const void *value, void *ctx)
{
	return bpf_map_update_elem(*(int *)ctx, key, value, BPF_ANY) ? -errno : 0;
}

static int preload(struct nb_diff *d, struct nb_log *log)
{
	for (unsigned int i = 0; i < d->opts->map_cnt; i++) {
		const struct nb_map_file *mf = &d->opts->maps[i];
		struct nb_object_map *nm = nb_object_find_map(d->nobj, mf->name);
		struct nb_map *map = nm ? nb_object_map_map(nm) : NULL;
		int kfd = nm && !d->no_kernel ? kernel_map_fd(d, nm) : -1;
		int err;

		if (!map || (kfd < 0 && !d->no_kernel)) {
			nb_log_printf(log, "--map %s: %s has no map %s\n", mf->name,
				      d->opts->obj_path, mf->name);
			return -ENOENT;
		}
		err = nb_map_file_load(mf, map, kfd >= 0 ? kernel_map_update : NULL, &kfd, log);
		if (err)
			return err;
	}
	return 0;
}

/* One fresh network namespace per process, holding only a loopback device that is down. */
static pthread_once_t netns_once = PTHREAD_ONCE_INIT;
static int private_netns = -1, private_netns_err;

static void make_private_netns(void)
{
	int host = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);

	if (host < 0) {
		private_netns_err = -errno;
		return;
	}
	if (unshare(CLONE_NEWNET)) {
		private_netns_err = -errno;
	} else {
		private_netns = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
		if (private_netns < 0)
			private_netns_err = -errno;
		if (setns(host, CLONE_NEWNET))
			abort();	/* this thread would stay in the wrong namespace */
	}
	close(host);
}

/* The thread's namespace, to come back to after each kernel run; -1 with the reason in log. */
static int open_host_netns(struct nb_log *log)
{
	int fd;

	pthread_once(&netns_once, make_private_netns);
	if (private_netns < 0) {
		nb_log_printf(log, "kernel: no network namespace of its own (%s): its test runs see "
			      "this host's devices\n", strerror(-private_netns_err));
		return -1;
	}
	fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		nb_log_printf(log, "kernel: cannot open this thread's network namespace (%s): its "
			      "test runs see this host's devices\n", strerror(errno));
	return fd;
}

bool nb_diff_kernel_in_own_netns(const struct nb_diff *d)
{
	return d->host_netns >= 0;
}

int nb_diff_open(const struct nb_diff_opts *opts, struct nb_diff **dp, struct nb_log *log)
{
	struct nb_diff *d = calloc(1, sizeof(*d));
	int err;

	*dp = NULL;
	if (!d)
		return -ENOMEM;
	d->opts = opts;
	d->kfd = -1;
	d->host_netns = -1;
	d->kout = malloc(DATA_OUT_SIZE);
	d->nout = malloc(DATA_OUT_SIZE);
	err = d->kout && d->nout ? 0 : -ENOMEM;
	if (!err)
		err = load_netbpf(d, log);
	if (!err) {
		d->kmap_fd = calloc(nb_object_map_cnt(d->nobj) + 1, sizeof(int));
		err = d->kmap_fd ? load_kernel(d, log) : -ENOMEM;
		if (err == NB_DIFF_NO_KERNEL && opts->kernel_optional) {
			d->no_kernel = true;
			err = 0;
		}
	}
	if (!err)
		err = preload(d, log);
	if (!err && !d->no_kernel)
		d->host_netns = open_host_netns(log);
	if (err) {
		nb_diff_close(d);
		return err;
	}
	*dp = d;
	return 0;
}

/*
 * The maps netbpf pinned for the object (iproute2's PIN_GLOBAL_NS, libbpf's pin by name) leave
 * the pin registry with the diff, so that the next diff in this process starts from fresh maps,
 * as the kernel side always does.
 */
static void unpin_maps(struct nb_object *obj)
{
	struct nb_object_map *m;

	if (!obj)
		return;
	nb_object_for_each_map(m, obj) {
		const char *path = nb_object_map_pin_path(m);
		struct nb_map *pinned = path ? nb_pin_get_map(path) : NULL;

		if (pinned && pinned == nb_object_map_map(m))
			nb_unpin(path);
		if (pinned)
			nb_map_put(pinned);
	}
}

bool nb_diff_kernel_via_netbpf(const struct nb_diff *d)
{
	return d->kload;
}

void nb_diff_close(struct nb_diff *d)
{
	if (!d)
		return;
	bpf_object__close(d->kobj);
	nb_kernel_object_close(d->kload);
	unpin_maps(d->nobj);
	nb_object_close(d->nobj);
	free(d->kmap_fd);
	if (d->host_netns >= 0)
		close(d->host_netns);
	free(d->kout);
	free(d->nout);
	free(d);
}

enum bpf_prog_type nb_diff_prog_type(const struct nb_diff *d)
{
	return d->type;
}

bool nb_diff_has_kernel(const struct nb_diff *d)
{
	return !d->no_kernel;
}

/*
 * Into the private namespace for one kernel run, never a run among the host's devices: 0 (then
 * kernel_netns_leave after the run), or -errno with the thread still in its own.
 */
static int kernel_netns_enter(const struct nb_diff *d)
{
	if (d->host_netns >= 0 && setns(private_netns, CLONE_NEWNET))
		return -errno;
	return 0;
}

static void kernel_netns_leave(const struct nb_diff *d)
{
	if (d->host_netns >= 0 && setns(d->host_netns, CLONE_NEWNET))
		abort();	/* the thread would stay in the private namespace */
}

static double thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int nb_diff_time(struct nb_diff *d, const void *data, unsigned int len, unsigned int repeat,
		 struct nb_diff_time *t, struct nb_log *log)
{
	struct nb_test_run_opts nopts = {
		.sz = sizeof(nopts), .data_in = data, .data_size_in = len, .repeat = (int)repeat,
	};
	LIBBPF_OPTS(bpf_test_run_opts, kopts, .data_in = data, .data_size_in = len,
		    .repeat = (int)repeat);
	double start;
	int err;

	memset(t, 0, sizeof(*t));
	if (!d->no_kernel) {
		err = kernel_netns_enter(d);
		if (err) {
			nb_log_printf(log, "kernel: cannot enter its network namespace: %s\n",
				      strerror(-err));
			return err;
		}
		start = thread_cpu_ns();
		err = bpf_prog_test_run_opts(d->kfd, &kopts) ? -errno : 0;
		t->kernel_cpu_ns = (thread_cpu_ns() - start) / repeat;
		kernel_netns_leave(d);
		if (err) {
			nb_log_printf(log, "kernel: BPF_PROG_TEST_RUN: %s\n", strerror(-err));
			return err;
		}
		t->kernel_duration = kopts.duration;
		t->kernel_retval = kopts.retval;
	}
	start = thread_cpu_ns();
	err = nb_prog_test_run(d->nprog, &nopts);
	t->netbpf_cpu_ns = (thread_cpu_ns() - start) / repeat;
	if (err) {
		nb_log_printf(log, "netbpf: test run: %s\n", strerror(-err));
		return err;
	}
	t->netbpf_duration = nopts.duration;
	t->netbpf_retval = nopts.retval;
	return 0;
}

/* Lines of 16 bytes that differ, both sides, the differing bytes marked. */
static void hex_diff(FILE *out, const u8 *k, u32 klen, const u8 *n, u32 nlen)
{
	u32 len = klen > nlen ? klen : nlen;
	unsigned int lines = 0;

	for (u32 off = 0; off < len && lines < 16; off += 16) {
		bool same = true;

		for (u32 i = off; i < off + 16 && i < len; i++)
			if (i >= klen || i >= nlen || k[i] != n[i])
				same = false;
		if (same)
			continue;
		lines++;
		for (int side = 0; side < 2; side++) {
			const u8 *p = side ? n : k;
			u32 plen = side ? nlen : klen;

			fprintf(out, "    %s %04x:", side ? "netbpf" : "kernel", off);
			for (u32 i = off; i < off + 16 && i < len; i++) {
				bool differs = i >= klen || i >= nlen || k[i] != n[i];

				if (i < plen)
					fprintf(out, "%c%02x", differs ? '*' : ' ', p[i]);
				else
					fprintf(out, " --");
			}
			fputc('\n', out);
		}
	}
}

static bool report(struct nb_diff *d, struct nb_diff_result *r)
{
	unsigned int max = d->opts->max_reports ? d->opts->max_reports : 10;

	if (!d->opts->out || r->reports >= max)
		return false;
	r->reports++;
	return true;
}

static bool cmp_u64(struct nb_diff *d, struct nb_diff_result *r, unsigned long pkt,
		    const char *field, unsigned long long k, unsigned long long n)
{
	if (k == n)
		return true;
	if (report(d, r))
		fprintf(d->opts->out, "packet %lu: %s: kernel %#llx, netbpf %#llx\n", pkt, field,
			k, n);
	return false;
}

const char *nb_verdict_name(enum bpf_prog_type type, u32 v)
{
	static const char *const tc[] = {
		[TC_ACT_OK] = "TC_ACT_OK", [TC_ACT_RECLASSIFY] = "TC_ACT_RECLASSIFY",
		[TC_ACT_SHOT] = "TC_ACT_SHOT", [TC_ACT_PIPE] = "TC_ACT_PIPE",
		[TC_ACT_STOLEN] = "TC_ACT_STOLEN", [TC_ACT_QUEUED] = "TC_ACT_QUEUED",
		[TC_ACT_REPEAT] = "TC_ACT_REPEAT", [TC_ACT_REDIRECT] = "TC_ACT_REDIRECT",
		[TC_ACT_TRAP] = "TC_ACT_TRAP",
	};
	static const char *const xdp[] = {
		[XDP_ABORTED] = "XDP_ABORTED", [XDP_DROP] = "XDP_DROP", [XDP_PASS] = "XDP_PASS",
		[XDP_TX] = "XDP_TX", [XDP_REDIRECT] = "XDP_REDIRECT",
	};

	if (type == BPF_PROG_TYPE_XDP)
		return v < ARRAY_SIZE(xdp) ? xdp[v] : "";
	if (type == BPF_PROG_TYPE_SCHED_CLS || type == BPF_PROG_TYPE_SCHED_ACT) {
		if (v == (u32)TC_ACT_UNSPEC)
			return "TC_ACT_UNSPEC";
		return v < ARRAY_SIZE(tc) && tc[v] ? tc[v] : "";
	}
	return "";
}

void nb_diff_packet(struct nb_diff *d, unsigned long pkt, const void *data, unsigned int len,
		    struct nb_diff_result *r)
{
	bool xdp = d->type == BPF_PROG_TYPE_XDP;
	union {
		struct __sk_buff skb;
		struct xdp_md xdp;
	} kctx, nctx;
	unsigned int ctx_size = xdp ? sizeof(struct xdp_md) : sizeof(struct __sk_buff);
	bool with_ctx = d->opts->ctx_in || !xdp;
	struct nb_test_run_opts nopts = {
		.sz = sizeof(nopts), .data_in = data, .data_size_in = len,
		.data_out = d->nout, .data_size_out = DATA_OUT_SIZE,
		.ctx_in = d->opts->ctx_in, .ctx_size_in = d->opts->ctx_size_in,
		.ctx_out = with_ctx ? &nctx : NULL, .ctx_size_out = with_ctx ? ctx_size : 0,
	};
	LIBBPF_OPTS(bpf_test_run_opts, kopts, .data_in = data, .data_size_in = len,
		    .data_out = d->kout, .data_size_out = DATA_OUT_SIZE,
		    .ctx_in = d->opts->ctx_in, .ctx_size_in = d->opts->ctx_size_in,
		    .ctx_out = with_ctx ? &kctx : NULL, .ctx_size_out = with_ctx ? ctx_size : 0,
		    .repeat = 1);
	int kerr, nerr;
	bool same = true;

	memset(&kctx, 0, sizeof(kctx));
	memset(&nctx, 0, sizeof(nctx));
	memset(d->kout, 0, len + 256 < DATA_OUT_SIZE ? len + 256 : DATA_OUT_SIZE);
	memset(d->nout, 0, len + 256 < DATA_OUT_SIZE ? len + 256 : DATA_OUT_SIZE);
	kerr = kernel_netns_enter(d);	/* a failure shows as a difference */
	if (!kerr) {
		kerr = bpf_prog_test_run_opts(d->kfd, &kopts) ? -errno : 0;
		kernel_netns_leave(d);
	}
	nerr = nb_prog_test_run(d->nprog, &nopts);
	r->packets++;
	same &= cmp_u64(d, r, pkt, "error", (unsigned int)-kerr, (unsigned int)-nerr);
	if (!kerr && !nerr) {
		if (kopts.retval != nopts.retval) {
			const char *kname = nb_verdict_name(d->type, kopts.retval);
			const char *nname = nb_verdict_name(d->type, nopts.retval);

			same = false;
			if (report(d, r))
				fprintf(d->opts->out, "packet %lu: retval: kernel %u%s%s, netbpf %u%s%s\n",
					pkt, kopts.retval, *kname ? " " : "", kname, nopts.retval,
					*nname ? " " : "", nname);
		}
		if (kopts.data_size_out != nopts.data_size_out ||
		    memcmp(d->kout, d->nout, kopts.data_size_out)) {
			same = false;
			if (report(d, r)) {
				fprintf(d->opts->out, "packet %lu: data_out: kernel %u bytes, netbpf %u "
					"bytes\n", pkt, kopts.data_size_out, nopts.data_size_out);
				hex_diff(d->opts->out, d->kout, kopts.data_size_out, d->nout,
					 nopts.data_size_out);
			}
		}
		if (with_ctx && xdp) {
			same &= cmp_u64(d, r, pkt, "xdp_md.data", kctx.xdp.data, nctx.xdp.data);
			same &= cmp_u64(d, r, pkt, "xdp_md.data_end", kctx.xdp.data_end,
					nctx.xdp.data_end);
			same &= cmp_u64(d, r, pkt, "xdp_md.data_meta", kctx.xdp.data_meta,
					nctx.xdp.data_meta);
			same &= cmp_u64(d, r, pkt, "xdp_md.ingress_ifindex",
					kctx.xdp.ingress_ifindex, nctx.xdp.ingress_ifindex);
			same &= cmp_u64(d, r, pkt, "xdp_md.rx_queue_index",
					kctx.xdp.rx_queue_index, nctx.xdp.rx_queue_index);
		} else if (with_ctx) {
			static const char *const cb[] = { "cb[0]", "cb[1]", "cb[2]", "cb[3]",
							  "cb[4]" };

			same &= cmp_u64(d, r, pkt, "mark", kctx.skb.mark, nctx.skb.mark);
			same &= cmp_u64(d, r, pkt, "priority", kctx.skb.priority,
					nctx.skb.priority);
			same &= cmp_u64(d, r, pkt, "ifindex", kctx.skb.ifindex, nctx.skb.ifindex);
			for (int i = 0; i < 5; i++)
				same &= cmp_u64(d, r, pkt, cb[i], kctx.skb.cb[i], nctx.skb.cb[i]);
			same &= cmp_u64(d, r, pkt, "tstamp", kctx.skb.tstamp, nctx.skb.tstamp);
		}
	}
	if (same)
		r->identical++;
	else
		r->different++;
}

/* Sum the per-CPU copies of a value into out (value_size bytes). */
static void fold_percpu(const u8 *vals, unsigned int ncpu, u32 vs, u8 *out)
{
	u32 stride = (vs + 7) & ~7U;

	memset(out, 0, vs);
	for (unsigned int c = 0; c < ncpu; c++) {
		const u8 *v = vals + (size_t)c * stride;

		for (u32 off = 0; off < vs;) {
			if (vs % 8 == 0) {
				u64 a, b;

				memcpy(&a, out + off, 8);
				memcpy(&b, v + off, 8);
				a += b;
				memcpy(out + off, &a, 8);
				off += 8;
			} else if (vs % 4 == 0) {
				u32 a, b;

				memcpy(&a, out + off, 4);
				memcpy(&b, v + off, 4);
				a += b;
				memcpy(out + off, &a, 4);
				off += 4;
			} else {
				out[off] += v[off];
				off++;
			}
		}
	}
}

static bool is_percpu(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_PERCPU_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool comparable(enum bpf_map_type t)
{
	switch (t) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_LPM_TRIE:
		return true;
	default:
		return false;	/* programs, devices, sockets, rings, queues: no contents */
	}
}

/* One side's value of key: 1 found, 0 absent; percpu values folded. */
static int lookup_side(bool kernel, int fd, struct nb_map *map, const void *key, u8 *buf,
		       u8 *val, u32 vs, enum bpf_map_type t)
{
	int err;

	if (kernel)
		err = bpf_map_lookup_elem(fd, key, buf) ? -errno : 0;
	else
		err = nb_map_lookup_elem(map, key, buf);
	if (err)
		return 0;
	if (is_percpu(t))
		fold_percpu(buf, kernel ? (unsigned int)libbpf_num_possible_cpus() : nb_nr_cpus(),
			    vs, val);
	else
		memcpy(val, buf, vs);
	return 1;
}

static void compare_key(struct nb_diff *d, struct nb_diff_result *r, const char *name, int fd,
			struct nb_map *map, const u8 *key, u8 *buf, u8 *kv, u8 *nv)
{
	enum bpf_map_type t = nb_map_type(map);
	u32 ks = nb_map_key_size(map), vs = nb_map_value_size(map);
	int kin = lookup_side(true, fd, map, key, buf, kv, vs, t);
	int nin = lookup_side(false, fd, map, key, buf, nv, vs, t);

	if (kin == nin && (!kin || !memcmp(kv, nv, vs)))
		return;
	r->map_diffs++;
	if (!report(d, r))
		return;
	fprintf(d->opts->out, "map %s: key", name);
	for (u32 i = 0; i < ks; i++)
		fprintf(d->opts->out, " %02x", key[i]);
	if (kin != nin)
		fprintf(d->opts->out, ": %s only\n", kin ? "kernel" : "netbpf");
	else {
		fprintf(d->opts->out, ": values differ\n");
		hex_diff(d->opts->out, kv, vs, nv, vs);
	}
}

void nb_diff_maps(struct nb_diff *d, struct nb_diff_result *r)
{
	struct nb_object_map *m;

	nb_object_for_each_map(m, d->nobj) {
		struct nb_map *map = nb_object_map_map(m);
		const char *name = nb_object_map_name(m);
		u32 ks, vs;
		u8 *key, *next, *buf, *kv, *nv;
		size_t bufsz;
		int fd;

		if (!map || !comparable(nb_map_type(map)))
			continue;
		fd = kernel_map_fd(d, m);
		if (fd < 0)
			continue;
		ks = nb_map_key_size(map);
		vs = nb_map_value_size(map);
		bufsz = (size_t)((vs + 7) & ~7U) * (NB_MAX_CPUS > 1024 ? NB_MAX_CPUS : 1024);
		key = calloc(1, ks);
		next = calloc(1, ks);
		buf = malloc(bufsz);
		kv = malloc(vs);
		nv = malloc(vs);
		if (!key || !next || !buf || !kv || !nv)
			goto next_map;
		r->maps_compared++;
		/* every key of the kernel's map, then netbpf's keys the kernel lacks */
		for (int err = bpf_map_get_next_key(fd, NULL, next); !err;
		     err = bpf_map_get_next_key(fd, key, next)) {
			memcpy(key, next, ks);
			compare_key(d, r, name, fd, map, key, buf, kv, nv);
		}
		for (int err = nb_map_get_next_key(map, NULL, next); !err;
		     err = nb_map_get_next_key(map, key, next)) {
			memcpy(key, next, ks);
			if (bpf_map_lookup_elem(fd, key, buf))
				compare_key(d, r, name, fd, map, key, buf, kv, nv);
		}
next_map:
		free(key);
		free(next);
		free(buf);
		free(kv);
		free(nv);
	}
}

int nb_diff_pcap(const struct nb_diff_opts *opts, const char *pcap_path, struct nb_diff_result *r,
		 struct nb_log *log)
{
	struct nb_pcap_reader *pr;
	const unsigned char *data;
	struct nb_diff *d;
	unsigned int len;
	int err, rc;

	memset(r, 0, sizeof(*r));
	err = nb_pcap_reader_open(pcap_path, &pr, log);
	if (err)
		return err;
	err = nb_diff_open(opts, &d, log);
	if (err) {
		nb_pcap_reader_close(pr);
		return err;
	}
	r->kernel_via_netbpf = nb_diff_kernel_via_netbpf(d);
	r->kernel_in_own_netns = nb_diff_kernel_in_own_netns(d);
	while ((rc = nb_pcap_reader_next(pr, &data, &len, log)) == 1)
		nb_diff_packet(d, r->packets + 1, data, len, r);
	if (rc < 0)
		err = rc;
	else
		nb_diff_maps(d, r);
	nb_diff_close(d);
	nb_pcap_reader_close(pr);
	return err;
}
