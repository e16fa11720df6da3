// SPDX-License-Identifier: GPL-2.0
/*
 * Global functions and the subprogram rules against the running kernel: every program of
 * tests/bpf/verifier_global.o is loaded alone into the kernel (libbpf, as users load it, with
 * the object's BTF func_info and line_info) and into netbpf (its object loader hands the same
 * information to nb_prog_load). The verdicts must be equal and as the program's name says
 * (ok_*: accepted, bad_*: rejected), and a rejection's last line in the kernel's log (the
 * reason it gives) must be in netbpf's log too.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../unit/elf_util.h"

#define OBJECT		"verifier_global.o"
#define KERNEL_LOG_SIZE	(1 << 20)

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

/* The kernel's verdict on one program of the object, its log in log. */
static int kernel_verdict(const char *name, char *log)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	int err;

	libbpf_set_print(libbpf_quiet);
	obj = bpf_object__open_file(elf_test_path(OBJECT), NULL);
	if (!obj)
		NB_FAIL("libbpf cannot open %s: %s", OBJECT, strerror(errno));
	bpf_object__for_each_program(p, obj) {
		bool mine = !strcmp(bpf_program__name(p), name);

		bpf_program__set_autoload(p, mine);
		if (mine) {
			bpf_program__set_log_buf(p, log, KERNEL_LOG_SIZE);
			bpf_program__set_log_level(p, 1);
		}
	}
	err = bpf_object__load(obj);
	bpf_object__close(obj);
	return err;
}

/* netbpf's verdict on one program of the object, its log in log. */
static int netbpf_verdict(const char *name, struct nb_log *log)
{
	struct nb_object_open_opts oo = { .sz = sizeof(oo), .log = log };
	struct nb_object_load_opts lo = { .sz = sizeof(lo), .log = log };
	struct nb_object_prog *p;
	struct nb_object *obj;
	int err;

	err = nb_object_open_file(elf_test_path(OBJECT), &oo, &obj);
	if (err)
		NB_FAIL("netbpf cannot open %s: %s", OBJECT, nb_log_text(log));
	nb_object_for_each_prog(p, obj)
		nb_object_prog_set_autoload(p, !strcmp(nb_object_prog_name(p), name));
	err = nb_object_load(obj, &lo);
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

NB_TEST(global_func_kernel)
{
	char why[128], *klog = malloc(KERNEL_LOG_SIZE);
	struct nb_object *obj = elf_test_open(OBJECT);
	unsigned int programs = 0, rejects = 0, wrong = 0;
	struct nb_object_prog *p;

	NB_ASSERT(klog);
	if (!kernel_usable(why, sizeof(why))) {
		free(klog);
		nb_object_close(obj);
		nb_test_skip("%s", why);
	}
	nb_object_for_each_prog(p, obj) {
		const char *name = nb_object_prog_name(p);
		bool expect_accept = !strncmp(name, "ok_", 3);
		struct nb_log nlog = { 0 };
		char reason[256];
		int kerr, nerr;

		klog[0] = 0;
		kerr = kernel_verdict(name, klog);
		nerr = netbpf_verdict(name, &nlog);
		last_reason(klog, reason, sizeof(reason));
		programs++;
		rejects += !!kerr;
		if (!kerr != expect_accept) {
			printf("KERNEL CHANGED %s: the kernel %ss it: %s\n", name,
			       kerr ? "reject" : "accept", reason);
			wrong++;
		} else if (!kerr != !nerr) {
			printf("DISAGREE %s: the kernel %ss, netbpf %ss\n  kernel: %s\n  netbpf: "
			       "%s\n", name, kerr ? "reject" : "accept", nerr ? "reject" : "accept",
			       reason, nb_log_text(&nlog));
			wrong++;
		} else if (kerr && !strstr(nb_log_text(&nlog), reason)) {
			printf("OTHER REASON %s: the kernel says \"%s\", netbpf:\n%s\n", name,
			       reason, nb_log_text(&nlog));
			wrong++;
		} else {
			printf("%-40s %s%s\n", name, kerr ? "both reject: " : "both accept",
			       kerr ? reason : "");
		}
		nb_log_free(&nlog);
	}
	nb_object_close(obj);
	free(klog);
	nb_test_report("%u programs (%u rejected), %u where netbpf and the kernel differ", programs,
		       rejects, wrong);
	if (wrong)
		NB_FAIL("%u of %u programs: the verdict or the reason differs", wrong, programs);
}
