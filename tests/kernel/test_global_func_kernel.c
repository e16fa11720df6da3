// SPDX-License-Identifier: GPL-2.0
/*
 * Global functions and the subprogram rules against the running kernel: every program of
 * tests/bpf/verifier_global.o and subprog_calls.o is loaded alone into the kernel (libbpf, as
 * users load it, with the object's BTF func_info and line_info) and into netbpf (its object
 * loader hands the same information to nb_prog_load). The verdicts must be equal and as the
 * program's name says (bad_*: rejected, the rest accepted), a rejection's last line in the
 * kernel's log (the reason it gives) must be in netbpf's log too, and an accepted program
 * must cost netbpf's verifier the instructions it costs the kernel's (verified_insns).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../unit/elf_util.h"

#define KERNEL_LOG_SIZE	(1 << 20)

static const struct {
	const char *name;
	/* Loaded whole: its program array names its programs (libbpf fills it at load). */
	bool whole;
} objects[] = { { "verifier_global.o", false }, { "subprog_calls.o", true } };

static bool kernel_usable(char *why, size_t size)
{
	const struct bpf_insn prog[] = { { .code = BPF_ALU64 | BPF_MOV | BPF_K },
					 { .code = BPF_JMP | BPF_EXIT } };
	int fd;

	if (geteuid() != 0) {
		snprintf(why, size, "not root: the kernel reference needs CAP_BPF");
		return false;
	}
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "gf_probe", "GPL", prog, 2, NULL);
	if (fd < 0) {
		snprintf(why, size, "the kernel refuses BPF programs: %s", strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* The kernel's verdict on one program of object, its log in log, *insns its cost. */
static int kernel_verdict(const char *object, bool whole, const char *name, char *log,
			  __u32 *insns)
{
	struct bpf_object *obj;
	struct bpf_program *p, *prog = NULL;
	int err;

	libbpf_set_print(libbpf_quiet);
	obj = bpf_object__open_file(elf_test_path(object), NULL);
	if (!obj)
		NB_FAIL("libbpf cannot open %s: %s", object, strerror(errno));
	bpf_object__for_each_program(p, obj) {
		bool mine = !strcmp(bpf_program__name(p), name);

		bpf_program__set_autoload(p, mine || whole);
		if (mine) {
			bpf_program__set_log_buf(p, log, KERNEL_LOG_SIZE);
			bpf_program__set_log_level(p, 1);
			prog = p;
		}
	}
	err = bpf_object__load(obj);
	*insns = 0;
	if (!err) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);

		if (!bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			*insns = info.verified_insns;
	}
	bpf_object__close(obj);
	return err;
}

/* netbpf's verdict on one program of object, its log in log, *insns its cost. */
static int netbpf_verdict(const char *object, bool whole, const char *name, struct nb_log *log,
			  __u32 *insns)
{
	struct nb_object_open_opts oo = { .sz = sizeof(oo), .log = log };
	struct nb_object_load_opts lo = { .sz = sizeof(lo), .log = log };
	struct nb_object_prog *p;
	struct nb_object *obj;
	int err;

	err = nb_object_open_file(elf_test_path(object), &oo, &obj);
	if (err)
		NB_FAIL("netbpf cannot open %s: %s", object, nb_log_text(log));
	nb_object_for_each_prog(p, obj)
		nb_object_prog_set_autoload(p, whole || !strcmp(nb_object_prog_name(p), name));
	err = nb_object_load(obj, &lo);
	p = nb_object_find_prog(obj, NULL, name);
	*insns = !err && p ? nb_prog_verified_insns(nb_object_prog_prog(p)) : 0;
	nb_object_close(obj);
	return err;
}

/* The kernel log's last line that gives a reason (not statistics). */
static void last_reason(const char *log, char *line, size_t size)
{
	const char *p = log, *best = NULL;
	size_t best_len = 0;

	while (*p) {
		size_t len = strcspn(p, "\n");

		if (len && strncmp(p, "processed ", 10) && strncmp(p, "verification time", 17)) {
			best = p;
			best_len = len;
		}
		p += len + (p[len] == '\n');
	}
	snprintf(line, size, "%.*s", best ? (int)best_len : 0, best ? best : "");
}

/* One program: 1 when netbpf and the kernel differ (said on stdout), 0 when they agree. */
static unsigned int compare_program(const char *object, bool whole, const char *name,
				    char *klog, bool *rejected)
{
	bool expect_accept = strncmp(name, "bad_", 4);
	struct nb_log nlog = { 0 };
	__u32 kinsns, ninsns;
	char reason[256];
	unsigned int wrong = 1;
	int kerr, nerr;

	klog[0] = 0;
	kerr = kernel_verdict(object, whole, name, klog, &kinsns);
	nerr = netbpf_verdict(object, whole, name, &nlog, &ninsns);
	last_reason(klog, reason, sizeof(reason));
	*rejected = kerr;
	if (!kerr != expect_accept)
		printf("KERNEL CHANGED %s: the kernel %ss it: %s\n", name,
		       kerr ? "reject" : "accept", reason);
	else if (!kerr != !nerr)
		printf("DISAGREE %s: the kernel %ss, netbpf %ss\n  kernel: %s\n  netbpf: %s\n",
		       name, kerr ? "reject" : "accept", nerr ? "reject" : "accept", reason,
		       nb_log_text(&nlog));
	else if (kerr && !strstr(nb_log_text(&nlog), reason))
		printf("OTHER REASON %s: the kernel says \"%s\", netbpf:\n%s\n", name, reason,
		       nb_log_text(&nlog));
	else if (!kerr && kinsns != ninsns)
		printf("COST %s: the kernel processed %u instructions, netbpf %u\n", name, kinsns,
		       ninsns);
	else
		wrong = 0;
	if (!wrong)
		printf("%-40s both %s%s\n", name, kerr ? "reject: " : "accept", kerr ? reason : "");
	nb_log_free(&nlog);
	return wrong;
}

NB_TEST(global_func_kernel)
{
	unsigned int programs = 0, rejects = 0, wrong = 0;
	char why[128], *klog;

	if (!kernel_usable(why, sizeof(why)))
		nb_test_skip("%s", why);
	klog = malloc(KERNEL_LOG_SIZE);
	NB_ASSERT(klog);
	for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
		struct nb_object *obj = elf_test_open(objects[i].name);
		struct nb_object_prog *p;

		nb_object_for_each_prog(p, obj) {
			bool rejected;

			wrong += compare_program(objects[i].name, objects[i].whole,
						 nb_object_prog_name(p), klog, &rejected);
			rejects += rejected;
			programs++;
		}
		nb_object_close(obj);
	}
	free(klog);
	nb_test_report("%u programs (%u rejected), %u where netbpf and the kernel differ", programs,
		       rejects, wrong);
	if (wrong)
		NB_FAIL("%u of %u programs: the verdict, the reason or the cost differs", wrong,
			programs);
}
