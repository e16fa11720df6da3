// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier corpus against the running kernel. Each case of verifier_cases.c is one test
 * "verifier-kernel/<case>": it loads the program into the kernel (libbpf, log level 1) and
 * asserts the kernel's verdict and reason are the ones the corpus records, then loads it into
 * netbpf with the same program type and maps and compares:
 *
 *   - same verdict: agreement;
 *   - the kernel accepts, netbpf rejects: a disagreement (netbpf stricter), which fails the case
 *     unless the case documents it (netbpf_differs: a kernel feature netbpf lacks);
 *   - the kernel rejects, netbpf accepts: an unsafe accept, the test fails.
 *
 * "verifier-kernel/table" runs every case in one process and prints the agreement table with
 * both logs of each disagreement; it fails on any unsafe accept or undocumented disagreement.
 * For the cases both accept it compares the instructions each verifier processed
 * (bpf_prog_info's verified_insns): netbpf prunes states as the kernel does, so the table fails
 * when netbpf processes more than 1.5 times the kernel's count on a case, or more than 1.1
 * times on the median.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "bpf/map.h"
#include "bpf/prog_type.h"
#include "test.h"
#include "verifier_cases.h"

/*
 * Build with -DVC_COMPARE_NETBPF=0 to check the corpus against the kernel alone (the netbpf
 * half of each case then reports SKIPPED), as before netbpf had a verifier.
 */
#ifndef VC_COMPARE_NETBPF
#define VC_COMPARE_NETBPF 1
#endif

#define KERNEL_LOG_SIZE (1U << 20)

enum vc_outcome {
	VC_AGREE,	/* same verdict */
	VC_STRICTER,	/* kernel accepts, netbpf rejects */
	VC_UNSAFE,	/* kernel rejects, netbpf accepts */
	VC_UNSUPPORTED, /* netbpf lacks the program type or a map type of the case */
	VC_UNABLE,	/* netbpf could not verify (-EOPNOTSUPP) or failed setting the case up */
	VC_BROKEN,	/* netbpf's load crashed or gave no verdict within the time limit */
	VC__COUNT,
};

/* A verifier that has not decided after this long is stuck: the case fails. */
#define VC_NETBPF_TIME_LIMIT_S 120

struct vc_result {
	int kernel_err;		/* 0: accepted, else negative errno */
	__u32 kernel_insns;	/* instructions the kernel's verifier processed (accepted) */
	__u32 nb_insns;		/* ... netbpf's */
	char *kernel_log;
	bool kernel_as_expected;
	int nb_err;
	char *nb_log;
	enum vc_outcome outcome;
	char why[256];		/* unsupported / unable: what */
};

static bool kernel_bpf_usable(char *why, size_t size)
{
	const struct bpf_insn prog[] = { { .code = BPF_ALU64 | BPF_MOV | BPF_K },
					 { .code = BPF_JMP | BPF_EXIT } };
	int fd;

	if (geteuid() != 0) {
		snprintf(why, size, "not root: the kernel reference needs CAP_BPF");
		return false;
	}
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "vc_probe", "GPL", prog, 2, NULL);
	if (fd < 0) {
		snprintf(why, size, "the kernel refuses BPF programs: %s", strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

static unsigned int case_map_cnt(const struct vcase *c)
{
	unsigned int n = 0;

	while (n < VC_MAX_MAPS && c->maps[n] != VM_NONE)
		n++;
	return n;
}

static int kernel_map_create(enum vc_map m)
{
	const struct vc_map_def *d = &vc_map_defs[m];
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = d->map_flags);
	int inner = -1, fd;

	if (d->inner != VM_NONE) {
		inner = kernel_map_create(d->inner);
		if (inner < 0)
			return inner;
		opts.inner_map_fd = inner;
	}
	fd = bpf_map_create(d->type, d->name, d->key_size, d->value_size, d->max_entries, &opts);
	if (fd < 0)
		fd = -errno;
	if (inner >= 0)
		close(inner);
	return fd;
}

static const char *obj_path(const struct vcase *c, char *buf, size_t size)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "tests/bpf/%s", c->obj);
	nb_test_build_path(buf, size, rel);
	if (access(buf, R_OK))
		NB_FAIL("%s: %s: %s (not built?)", c->name, buf, strerror(errno));
	return buf;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* The instructions the kernel's verifier processed for the loaded program fd. */
static __u32 verified_insns(int fd)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.verified_insns;
}

/* A clang-compiled case: only its program of the object is loaded, the way libbpf users do. */
static int kernel_load_obj(const struct vcase *c, struct vc_result *r)
{
	struct bpf_program *p, *prog = NULL;
	struct bpf_object *obj;
	char path[512];
	int err;

	libbpf_set_print(libbpf_quiet);
	obj = bpf_object__open_file(obj_path(c, path, sizeof(path)), NULL);
	if (!obj)
		NB_FAIL("%s: libbpf cannot open %s: %s", c->name, path, strerror(errno));
	bpf_object__for_each_program(p, obj) {
		bool mine = !strcmp(bpf_program__name(p), c->name);

		bpf_program__set_autoload(p, mine);
		if (mine)
			prog = p;
	}
	if (!prog)
		NB_FAIL("%s: no program %s in %s", c->name, c->name, path);
	bpf_program__set_log_buf(prog, r->kernel_log, KERNEL_LOG_SIZE);
	bpf_program__set_log_level(prog, 1);
	err = bpf_object__load(obj);
	if (!err)
		r->kernel_insns = verified_insns(bpf_program__fd(prog));
	bpf_object__close(obj);
	return err;
}

static void kernel_load(const struct vcase *c, struct vc_result *r)
{
	unsigned int map_cnt = case_map_cnt(c);
	int fds[VC_MAX_MAPS] = { -1, -1, -1, -1 };
	int fd;

	r->kernel_log = calloc(1, KERNEL_LOG_SIZE);
	if (!r->kernel_log)
		NB_FAIL("out of memory");
	if (c->obj) {
		r->kernel_err = kernel_load_obj(c, r);
		goto verdict;
	}
	for (unsigned int i = 0; i < map_cnt; i++) {
		fds[i] = kernel_map_create(c->maps[i]);
		if (fds[i] < 0) {
			snprintf(r->kernel_log, KERNEL_LOG_SIZE, "(map %s: %s)",
				 vc_map_defs[c->maps[i]].name, strerror(-fds[i]));
			r->kernel_err = fds[i];
			goto out;
		}
	}

	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_level = 1, .log_buf = r->kernel_log,
		    .log_size = KERNEL_LOG_SIZE, .fd_array = fds,
		    .expected_attach_type = c->attach);
	fd = bpf_prog_load(c->type, "vc", "GPL", c->insns, c->insn_cnt, &opts);
	if (fd >= 0) {
		r->kernel_err = 0;
		r->kernel_insns = verified_insns(fd);
		close(fd);
	} else {
		r->kernel_err = -errno;
	}
verdict:
	r->kernel_as_expected = c->accept ? r->kernel_err == 0 :
			       r->kernel_err != 0 && strstr(r->kernel_log, c->reason);
out:
	for (unsigned int i = 0; i < map_cnt; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* netbpf's map for m, or NULL with the reason in r->why. */
static struct nb_map *netbpf_map_create(enum vc_map m, struct vc_result *r)
{
	const struct vc_map_def *d = &vc_map_defs[m];
	struct nb_log log = { 0 };
	struct nb_map_create_opts opts = {
		.sz = sizeof(opts), .name = d->name, .map_flags = d->map_flags, .log = &log,
	};
	struct nb_map *map = NULL;
	int err;

	if (!nb_map_type_ops(d->type)) {
		r->outcome = VC_UNSUPPORTED;
		snprintf(r->why, sizeof(r->why), "map type unsupported: %s", d->name);
		return NULL;
	}
	if (d->inner != VM_NONE) {
		opts.inner_map = netbpf_map_create(d->inner, r);
		if (!opts.inner_map)
			goto out;
	}
	err = nb_map_create(d->type, d->key_size, d->value_size, d->max_entries, &opts, &map);
	if (err) {
		r->outcome = VC_UNABLE;
		snprintf(r->why, sizeof(r->why), "cannot create map %s: %s: %s", d->name,
			 strerror(-err), nb_log_text(&log));
	}
out:
	nb_map_put(opts.inner_map);
	nb_log_free(&log);
	return map;
}

/*
 * Sorts netbpf's verdict against the kernel's. The stub that stands in for the verifier until
 * it is built refuses everything with -EOPNOTSUPP: that is no verdict, and fails the case.
 */
static void classify(struct vc_result *r)
{
	if (r->nb_err == -EOPNOTSUPP && r->nb_log && strstr(r->nb_log, "verifier is not built")) {
		r->outcome = VC_UNABLE;
		snprintf(r->why, sizeof(r->why), "netbpf cannot verify (EOPNOTSUPP)");
	} else if (!r->kernel_err == !r->nb_err) {
		r->outcome = VC_AGREE;
	} else {
		r->outcome = r->nb_err ? VC_STRICTER : VC_UNSAFE;
	}
}

/* A clang-compiled case through netbpf's object loader, its one program only. */
static void netbpf_load_obj(const struct vcase *c, struct vc_result *r)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts open_opts = { .sz = sizeof(open_opts), .log = &log };
	struct nb_object_load_opts load_opts = {
		.sz = sizeof(load_opts), .prog_flags = NB_PROG_LOAD_INTERP, .log = &log,
	};
	struct nb_object_prog *p;
	struct nb_object *obj;
	char path[512];
	int err;

	err = nb_object_open_file(obj_path(c, path, sizeof(path)), &open_opts, &obj);
	if (err) {
		r->outcome = VC_UNABLE;
		snprintf(r->why, sizeof(r->why), "netbpf cannot open %s: %.160s", c->obj,
			 nb_log_text(&log));
		nb_log_free(&log);
		return;
	}
	nb_object_for_each_prog(p, obj)
		nb_object_prog_set_autoload(p, !strcmp(nb_object_prog_name(p), c->name));
	r->nb_err = nb_object_load(obj, &load_opts);
	nb_object_for_each_prog(p, obj)
		if (!r->nb_err && !strcmp(nb_object_prog_name(p), c->name))
			r->nb_insns = nb_prog_verified_insns(nb_object_prog_prog(p));
	r->nb_log = strdup(nb_log_text(&log));
	nb_object_close(obj);
	nb_log_free(&log);
	classify(r);
}

/* Loads the case into netbpf and classifies the outcome against the kernel's verdict. */
static void netbpf_load(const struct vcase *c, struct vc_result *r)
{
	const struct nb_prog_type_ops *type_ops = nb_prog_type_ops(c->type);
	struct nb_map *maps[VC_MAX_MAPS] = { 0 };
	unsigned int map_cnt = case_map_cnt(c);
	struct nb_log log = { 0 };
	struct nb_prog *prog = NULL;

	r->nb_err = 1; /* not loaded */
	if (c->obj) {
		netbpf_load_obj(c, r);
		return;
	}
	if (!type_ops) {
		r->outcome = VC_UNSUPPORTED;
		snprintf(r->why, sizeof(r->why), "program type unsupported: %d", c->type);
		return;
	}
	for (unsigned int i = 0; i < map_cnt; i++) {
		maps[i] = netbpf_map_create(c->maps[i], r);
		if (!maps[i])
			goto out;
	}

	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .name = c->name, .license = "GPL",
		.expected_attach_type = c->attach, .flags = NB_PROG_LOAD_INTERP,
		.maps = maps, .map_cnt = map_cnt, .log = &log,
	};
	r->nb_err = nb_prog_load(c->type, c->insns, c->insn_cnt, &opts, &prog);
	r->nb_log = strdup(nb_log_text(&log));
	if (!r->nb_err)
		r->nb_insns = nb_prog_verified_insns(prog);
	nb_prog_put(prog);
	classify(r);
out:
	for (unsigned int i = 0; i < map_cnt; i++)
		nb_map_put(maps[i]);
	nb_log_free(&log);
}

/* What the child of netbpf_load_isolated reports; the log follows it on the pipe. */
struct vc_wire {
	int nb_err;
	__u32 nb_insns;
	enum vc_outcome outcome;
	char why[256];
};

/*
 * Loads the case into netbpf in a child process, so that a crash or a hang of the verifier
 * fails this case only and the others still get their verdict.
 */
static void netbpf_load_isolated(const struct vcase *c, struct vc_result *r)
{
	struct vc_wire wire = { 0 };
	size_t len = 0, cap = 4096;
	char *log = malloc(cap);
	int fds[2], status = 0;
	ssize_t n;
	pid_t pid;

	if (!log || pipe(fds))
		NB_FAIL("out of memory or pipes");
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		NB_FAIL("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		alarm(VC_NETBPF_TIME_LIMIT_S);
		netbpf_load(c, r);
		wire.nb_err = r->nb_err;
		wire.nb_insns = r->nb_insns;
		wire.outcome = r->outcome;
		memcpy(wire.why, r->why, sizeof(wire.why));
		if (write(fds[1], &wire, sizeof(wire)) != sizeof(wire) ||
		    (r->nb_log && write(fds[1], r->nb_log, strlen(r->nb_log)) < 0))
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], log + len, cap - len - 1)) > 0) {
		len += n;
		if (len + 1 == cap) {
			char *bigger = realloc(log, cap *= 2);

			if (!bigger)
				NB_FAIL("out of memory");
			log = bigger;
		}
	}
	close(fds[0]);
	log[len] = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && len >= sizeof(wire)) {
		memcpy(&wire, log, sizeof(wire));
		r->nb_err = wire.nb_err;
		r->nb_insns = wire.nb_insns;
		r->outcome = wire.outcome;
		memcpy(r->why, wire.why, sizeof(r->why));
		r->nb_log = strdup(log + sizeof(wire));
	} else {
		r->nb_err = 1;
		r->outcome = VC_BROKEN;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
			snprintf(r->why, sizeof(r->why), "netbpf gave no verdict within %d s",
				 VC_NETBPF_TIME_LIMIT_S);
		else if (WIFSIGNALED(status))
			snprintf(r->why, sizeof(r->why), "netbpf crashed (signal %d)",
				 WTERMSIG(status));
		else
			snprintf(r->why, sizeof(r->why), "netbpf's load failed (exit status %d)",
				 WEXITSTATUS(status));
	}
	free(log);
}

static void result_free(struct vc_result *r)
{
	free(r->kernel_log);
	free(r->nb_log);
}

/* Prints the last n non-empty lines of log (the kernel states its reason at the end). */
static void print_tail(const char *prefix, const char *log, int n)
{
	const char *end = log + strlen(log), *p = end;
	int lines = 0;

	while (p > log && lines <= n) {
		p--;
		if (*p == '\n' && p + 1 < end && p[1] != '\n')
			lines++;
	}
	if (lines > n)
		p++;
	while (*p) {
		size_t len = strcspn(p, "\n");

		if (len)
			printf("%s%.*s\n", prefix, (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* Prints the first n lines of log (netbpf states its reason first). */
static void print_head(const char *prefix, const char *log, int n)
{
	for (const char *p = log; *p && n > 0; n--) {
		size_t len = strcspn(p, "\n");

		printf("%s%.*s\n", prefix, (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* Whether netbpf's log of a reject carries the kernel's reason (informational only). */
static bool same_reason(const struct vcase *c, const struct vc_result *r)
{
	return !c->accept && r->nb_log && strstr(r->nb_log, c->reason);
}

static const char *verdict(int err)
{
	return err ? "reject" : "accept";
}

static void test_case(const void *arg)
{
	const struct vcase *c = arg;
	struct vc_result r = { 0 };
	char why[128];

	if (!kernel_bpf_usable(why, sizeof(why)))
		nb_test_skip("%s", why);
	kernel_load(c, &r);
	if (!r.kernel_as_expected) {
		print_tail("  kernel: ", r.kernel_log, 3);
		NB_FAIL("%s: the corpus says %s%s%s, the kernel %ss (%s)", c->name,
			verdict(!c->accept), c->accept ? "" : " with ", c->accept ? "" : c->reason,
			verdict(r.kernel_err), strerror(-r.kernel_err));
	}
	printf("kernel: %s\n", verdict(r.kernel_err));
	print_tail("  ", r.kernel_log, 2);
	if (!VC_COMPARE_NETBPF) {
		result_free(&r);
		nb_test_skip("netbpf verifier not built yet (kernel verdict checked: %s)",
			     verdict(r.kernel_err));
	}
	netbpf_load_isolated(c, &r);
	switch (r.outcome) {
	case VC_UNSUPPORTED:
		nb_test_skip("%s", r.why);
	case VC_UNABLE:
	case VC_BROKEN:
	case VC__COUNT:
		NB_FAIL("%s: %s: %s", c->name, r.why, r.nb_log ? r.nb_log : "");
	case VC_UNSAFE:
		NB_FAIL("%s: UNSAFE ACCEPT: netbpf accepts what the kernel rejects with:\n%s",
			c->name, c->reason);
	case VC_STRICTER:
		if (!c->netbpf_differs)
			NB_FAIL("%s: netbpf rejects what the kernel accepts:\n%s", c->name,
				r.nb_log ? r.nb_log : "");
		if (!r.nb_log || !strstr(r.nb_log, c->netbpf_differs))
			NB_FAIL("%s: netbpf rejects, but not for the documented reason \"%s\":\n%s",
				c->name, c->netbpf_differs, r.nb_log ? r.nb_log : "");
		printf("netbpf: reject (a documented difference: %s)\n", c->netbpf_differs);
		break;
	case VC_AGREE:
		if (c->netbpf_differs)
			NB_FAIL("%s: netbpf now gives the kernel's verdict: the difference "
				"documented (\"%s\") is gone", c->name, c->netbpf_differs);
		printf("netbpf: %s%s\n", verdict(r.nb_err),
		       r.nb_err ? same_reason(c, &r) ? " (with the kernel's reason)" :
						 " (with another reason)" : "");
		print_head("  ", r.nb_log ? r.nb_log : "", 2);
		if (!r.nb_err)
			printf("processed: kernel %u, netbpf %u\n", r.kernel_insns, r.nb_insns);
		break;
	}
	result_free(&r);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* netbpf's processed instructions over the kernel's, on the cases both accept. */
struct vc_ratios {
	double *v;
	unsigned int n, over;	/* over: cases above VC_MAX_RATIO */
};

#define VC_MAX_RATIO 1.5
#define VC_MAX_MEDIAN_RATIO 1.1

static void ratio_add(struct vc_ratios *q, const struct vcase *c, const struct vc_result *r)
{
	double ratio;

	if (r->kernel_err || r->nb_err || !r->kernel_insns || !r->nb_insns)
		return;
	ratio = (double)r->nb_insns / r->kernel_insns;
	q->v[q->n++] = ratio;
	if (ratio > VC_MAX_RATIO)
		q->over++;
	if (ratio > VC_MAX_RATIO || ratio < 1.0 / VC_MAX_RATIO)
		printf("PROCESSED    %s: kernel %u, netbpf %u (%.2fx)\n", c->name,
		       r->kernel_insns, r->nb_insns, ratio);
}

static void test_table(const void *arg)
{
	unsigned int counts[VC__COUNT] = { 0 }, wrong = 0, kernel_accepts = 0;
	unsigned int same_reasons = 0, documented = 0;
	struct vc_ratios ratios = { .v = calloc(vcase_cnt, sizeof(double)) };
	double median = 0;
	char why[128];

	if (!kernel_bpf_usable(why, sizeof(why)))
		nb_test_skip("%s", why);
	if (!ratios.v)
		NB_FAIL("out of memory");
	for (unsigned int i = 0; i < vcase_cnt; i++) {
		const struct vcase *c = &vcases[i];
		struct vc_result r = { 0 };

		kernel_load(c, &r);
		kernel_accepts += !r.kernel_err;
		if (!r.kernel_as_expected) {
			wrong++;
			printf("CORPUS WRONG %s: expected %s, the kernel %ss\n", c->name,
			       verdict(!c->accept), verdict(r.kernel_err));
			print_tail("  kernel: ", r.kernel_log, 2);
		}
		if (VC_COMPARE_NETBPF) {
			netbpf_load_isolated(c, &r);
			counts[r.outcome]++;
			same_reasons += r.outcome == VC_AGREE && same_reason(c, &r);
			ratio_add(&ratios, c, &r);
		}
		if (VC_COMPARE_NETBPF && r.outcome == VC_STRICTER && c->netbpf_differs)
			documented++;
		switch (VC_COMPARE_NETBPF ? r.outcome : VC_AGREE) {
		case VC_STRICTER:
			printf("DISAGREE     %s: the kernel accepts, netbpf rejects%s\n", c->name,
			       c->netbpf_differs ? " (documented)" : "");
			print_tail("  kernel: ", r.kernel_log, 1);
			print_head("  netbpf: ", r.nb_log, 3);
			break;
		case VC_UNSAFE:
			printf("UNSAFE       %s: netbpf accepts, the kernel rejects\n", c->name);
			print_tail("  kernel: ", r.kernel_log, 2);
			break;
		case VC_UNSUPPORTED:
		case VC_UNABLE:
			printf("NOT COMPARED %s: %s\n", c->name, r.why);
			break;
		case VC_BROKEN:
			printf("BROKEN       %s: %s\n", c->name, r.why);
			break;
		case VC_AGREE:
		case VC__COUNT:
			break;
		}
		result_free(&r);
	}
	nb_test_report("verifier corpus: %u cases (the kernel accepts %u, rejects %u), %u where "
		       "the kernel disagrees with the corpus",
		       vcase_cnt, kernel_accepts, vcase_cnt - kernel_accepts, wrong);
	if (VC_COMPARE_NETBPF)
		nb_test_report("netbpf vs kernel: %u agree, %u disagree (netbpf stricter, %u of them "
			       "documented), %u unsafe accepts, %u unsupported, %u not verified, %u "
			       "crashed or hung", counts[VC_AGREE], counts[VC_STRICTER], documented,
			       counts[VC_UNSAFE], counts[VC_UNSUPPORTED], counts[VC_UNABLE],
			       counts[VC_BROKEN]);
	if (VC_COMPARE_NETBPF)
		nb_test_report("agreeing rejects whose netbpf log has the kernel's reason: %u of %u",
			       same_reasons, vcase_cnt - kernel_accepts);
	if (VC_COMPARE_NETBPF && ratios.n) {
		qsort(ratios.v, ratios.n, sizeof(ratios.v[0]), cmp_double);
		median = ratios.v[ratios.n / 2];
		nb_test_report("processed instructions, netbpf over the kernel on %u cases both "
			       "accept: median %.2f, 90th percentile %.2f, max %.2f, %u above %.1f",
			       ratios.n, median, ratios.v[ratios.n * 9 / 10],
			       ratios.v[ratios.n - 1], ratios.over, VC_MAX_RATIO);
	}
	free(ratios.v);
	if (!VC_COMPARE_NETBPF)
		nb_test_report("netbpf vs kernel: not compared: netbpf verifier not built yet");
	if (wrong)
		NB_FAIL("%u cases where the kernel disagrees with the corpus", wrong);
	if (counts[VC_UNSAFE])
		NB_FAIL("%u unsafe accepts", counts[VC_UNSAFE]);
	if (counts[VC_STRICTER] > documented)
		NB_FAIL("%u rejects of what the kernel accepts, not documented as differences",
			counts[VC_STRICTER] - documented);
	if (counts[VC_BROKEN])
		NB_FAIL("netbpf crashed or hung on %u cases", counts[VC_BROKEN]);
	if (ratios.over)
		NB_FAIL("netbpf processes more than %.1f times the kernel's instructions on %u cases",
			VC_MAX_RATIO, ratios.over);
	if (median > VC_MAX_MEDIAN_RATIO)
		NB_FAIL("netbpf's median of processed instructions is %.2f times the kernel's",
			median);
}

static void __attribute__((constructor)) register_verifier_cases(void)
{
	char name[128];

	for (unsigned int i = 0; i < vcase_cnt; i++) {
		snprintf(name, sizeof(name), "verifier-kernel/%s%s", vcases[i].obj ? "c/" : "",
			 vcases[i].name);
		nb_test_register(name, test_case, &vcases[i]);
	}
	nb_test_register("verifier-kernel/table", test_table, NULL);
}
