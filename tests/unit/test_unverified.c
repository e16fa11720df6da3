// SPDX-License-Identifier: GPL-2.0
/*
 * Programs loaded without the verifier (NB_PROG_LOAD_UNSAFE_NO_VERIFY, --unsafe-no-verify) get
 * the fixups the engines need all the same: context accesses through the context pointer held
 * in a register, spilled to the stack and read back, or passed to a subprogram are rewritten, so
 * an XDP program computes what it computes verified; an access the context reaches on some
 * paths only, or through a moved context pointer, is refused with the instruction named.
 */
#include <errno.h>

#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "bpf_asm.h"
#include "common/types.h"
#include "test.h"

#define XDP_DATA	offsetof(struct xdp_md, data)
#define XDP_DATA_END	offsetof(struct xdp_md, data_end)

static int load(const struct bpf_insn *insns, unsigned int cnt, unsigned int flags,
		struct nb_prog **progp, struct nb_log *log)
{
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .flags = flags, .log = log,
	};

	return nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &opts, progp);
}

/* The program's return on a 60-byte frame, verified and unverified, on both engines. */
static void same_result(const struct bpf_insn *insns, unsigned int cnt, u32 want)
{
	static const unsigned int flags[] = {
		0, NB_PROG_LOAD_INTERP, NB_PROG_LOAD_UNSAFE_NO_VERIFY,
		NB_PROG_LOAD_UNSAFE_NO_VERIFY | NB_PROG_LOAD_INTERP,
	};
	u8 frame[60] = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		struct nb_test_run_opts run = { .sz = sizeof(run), .data_in = frame,
						.data_size_in = sizeof(frame) };
		struct nb_log log = { 0 };
		struct nb_prog *prog;

		if (load(insns, cnt, flags[i], &prog, &log))
			NB_FAIL("load with flags %#x: %s", flags[i], nb_log_text(&log));
		nb_log_free(&log);
		NB_ASSERT_EQ(nb_prog_test_run(prog, &run), 0);
		if (run.retval != want)
			NB_FAIL("flags %#x: retval %u, expected %u", flags[i], run.retval, want);
		nb_prog_put(prog);
	}
}

/* data_end - data through a context pointer spilled to the stack and read back. */
NB_TEST(unverified_ctx_spilled)
{
	const struct bpf_insn insns[] = {
		NB_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_1, -16),
		NB_MOV64_IMM(BPF_REG_1, 0),
		NB_LDX_MEM(BPF_DW, BPF_REG_6, BPF_REG_10, -16),
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_6, XDP_DATA),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_6, XDP_DATA_END),
		NB_MOV64_REG(BPF_REG_0, BPF_REG_3),
		NB_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_2),
		NB_EXIT(),
	};

	same_result(insns, ARRAY_SIZE(insns), 60);
}

/* The same in a subprogram that gets the context as its argument, from two call sites. */
NB_TEST(unverified_ctx_in_subprog)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		NB_CALL_REL(4),
		NB_MOV64_REG(BPF_REG_7, BPF_REG_0),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
		NB_CALL_REL(1),
		NB_EXIT(),
		/* sub: r0 = data_end - data */
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, XDP_DATA),
		NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, XDP_DATA_END),
		NB_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_2),
		NB_EXIT(),
	};

	same_result(insns, ARRAY_SIZE(insns), 60);
}

static void refused(const struct bpf_insn *insns, unsigned int cnt, const char *why)
{
	struct nb_log log = { 0 };
	struct nb_prog *prog;

	NB_ASSERT(load(insns, cnt, NB_PROG_LOAD_UNSAFE_NO_VERIFY, &prog, &log) < 0);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), why);
	nb_log_free(&log);
}

NB_TEST(unverified_ctx_ambiguous_refused)
{
	/* r3 is the context on one path, the stack on the other: no rewrite fits both. */
	const struct bpf_insn some_paths[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, XDP_DATA),
		NB_MOV64_REG(BPF_REG_3, BPF_REG_1),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_2, 0, 1),
		NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
		NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_3, -8),
		NB_EXIT(),
	};
	const struct bpf_insn moved[] = {
		NB_ALU64_IMM(BPF_ADD, BPF_REG_1, 4),
		NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, 0),
		NB_EXIT(),
	};

	refused(some_paths, ARRAY_SIZE(some_paths),
		"insn 4: the context pointer reaches this access on some paths only");
	refused(moved, ARRAY_SIZE(moved),
		"insn 1: dereference of modified ctx ptr off=4 disallowed");
}

/*
 * A context pointer moved past what 32 bits hold is no longer followed (fuzz_jit_diff found the
 * offset's signed overflow, a UBSan report under make check SANITIZE=1); the unverified program
 * that never uses it loads and runs.
 */
NB_TEST(unverified_ctx_offset_overflow)
{
	const struct bpf_insn insns[] = {
		NB_ALU64_IMM(BPF_ADD, BPF_REG_1, 0x7fffffff),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_1, 0x7fffffff),
		NB_ALU64_IMM(BPF_SUB, BPF_REG_1, 0x7fffffff),
		NB_MOV64_IMM(BPF_REG_0, XDP_PASS),
		NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog *prog;

	NB_ASSERT_EQ(load(insns, ARRAY_SIZE(insns), NB_PROG_LOAD_UNSAFE_NO_VERIFY, &prog, &log), 0);
	nb_prog_put(prog);
	nb_log_free(&log);
}
