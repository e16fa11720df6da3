// SPDX-License-Identifier: GPL-2.0
/*
 * Verification cost of a generated packet parser of about 1,000 instructions: 110 header
 * fields, each bounds-checked against data_end, compared, and folded into an accumulator on
 * two branches. Without state pruning its paths double per field; the test asserts the verdict
 * and prints the processed instructions, states and time (speed is reported, not asserted).
 */
#include <time.h>

#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "test.h"
#include "bpf_asm.h"

#define FIELDS 110
#define PER_FIELD 9

static unsigned int gen_parser(struct bpf_insn *p)
{
	unsigned int n = 0, exit_at = 3 + FIELDS * PER_FIELD;

	p[n++] = NB_LDX_MEM(BPF_W, BPF_REG_6, BPF_REG_1, offsetof(struct xdp_md, data));
	p[n++] = NB_LDX_MEM(BPF_W, BPF_REG_7, BPF_REG_1, offsetof(struct xdp_md, data_end));
	p[n++] = NB_MOV64_IMM(BPF_REG_8, 0);
	for (int k = 0; k < FIELDS; k++) {
		p[n++] = NB_MOV64_REG(BPF_REG_2, BPF_REG_6);
		p[n++] = NB_ALU64_IMM(BPF_ADD, BPF_REG_2, 2 * (k + 1));
		p[n] = NB_JMP_REG(BPF_JGT, BPF_REG_2, BPF_REG_7, exit_at - n - 1);
		n++;
		p[n++] = NB_LDX_MEM(BPF_H, BPF_REG_3, BPF_REG_6, 2 * k);
		p[n++] = NB_JMP_IMM(BPF_JNE, BPF_REG_3, k, 2);
		p[n++] = NB_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_3);
		p[n++] = NB_JA(1);
		p[n++] = NB_ALU64_IMM(BPF_XOR, BPF_REG_8, 1);
		p[n++] = NB_ALU64_IMM(BPF_RSH, BPF_REG_8, 1);
	}
	p[n++] = NB_MOV64_IMM(BPF_REG_0, XDP_PASS);
	p[n++] = NB_EXIT();
	return n;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

NB_TEST(verifier_perf_parser_1000)
{
	static struct bpf_insn insns[3 + FIELDS * PER_FIELD + 2];
	struct nb_log log = { .level = NB_LOG_VERBOSE };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = &log, .flags = NB_PROG_LOAD_INTERP,
	};
	unsigned int cnt = gen_parser(insns);
	struct nb_prog *prog;
	double t0, t1;
	int err;

	NB_ASSERT_EQ(cnt, ARRAY_SIZE(insns));
	t0 = now_us();
	err = nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &opts, &prog);
	t1 = now_us();
	if (err)
		NB_FAIL("rejected (%d): %s", err, nb_log_text(&log));
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "processed ");
	printf("parser of %u insns verified in %.0f us: %s", cnt, t1 - t0, nb_log_text(&log));
	nb_prog_put(prog);
	nb_log_free(&log);
}

/* A clang-compiled XDP parser (tests/bpf/verifier_parser.c) through the object loader. */
NB_TEST(verifier_perf_clang_parser)
{
	char path[512];
	struct nb_log log = { .level = NB_LOG_VERBOSE };
	struct nb_object_open_opts open_opts = { .sz = sizeof(open_opts), .log = &log };
	struct nb_object_load_opts load_opts = {
		.sz = sizeof(load_opts), .prog_flags = NB_PROG_LOAD_INTERP, .log = &log,
	};
	struct nb_object *obj;
	double t0, t1;

	nb_test_build_path(path, sizeof(path), "tests/bpf/verifier_parser.o");
	if (nb_object_open_file(path, &open_opts, &obj))
		NB_FAIL("cannot open %s: %s", path, nb_log_text(&log));
	t0 = now_us();
	if (nb_object_load(obj, &load_opts))
		NB_FAIL("rejected: %s", nb_log_text(&log));
	t1 = now_us();
	NB_ASSERT(nb_object_prog_prog(nb_object_find_prog(obj, "xdp", "parse")) != NULL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "processed ");
	printf("clang parser loaded and verified in %.0f us: %s", t1 - t0, nb_log_text(&log));
	nb_object_close(obj);
	nb_log_free(&log);
}
