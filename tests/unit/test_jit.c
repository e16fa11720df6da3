// SPDX-License-Identifier: GPL-2.0
/*
 * The JIT against the interpreter: hand-written edge cases (each compared on both engines and,
 * where the answer is a known constant, against it), the code's memory protection, and
 * 100,000 random programs from bpf_gen in ten shards, checked and unchecked, zero mismatches.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "bpf/map.h"
#include "bpf/prog.h"
#include "bpf_asm.h"
#include "bpf_gen.h"
#include "jit_diff.h"
#include "test.h"

#define RANDOM_SHARDS	  10
#define PROGS_PER_SHARD	  10000
#define GEN_MAX_INSNS	  4096

struct jit_case {
	const char *name;
	const struct bpf_insn *insns;
	u32 cnt;
	bool unchecked;		/* also compare the unchecked engines */
	bool has_expect;
	u64 expect;		/* r0 both engines must return */
	const char *fault;	/* or the fault both must report */
};

static const u8 case_mem[64] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96,
	0x87, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff,
};

static void skip_without_jit(void)
{
	struct bpf_insn prog[] = { NB_MOV64_IMM(BPF_REG_0, 0), NB_EXIT() };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .flags = NB_PROG_LOAD_CHECKED };
	struct nb_prog *p;
	bool jited;

	NB_ASSERT_EQ(nb_prog_load(NB_JIT_DIFF_PROG_TYPE, prog, 2, &opts, &p), 0);
	jited = nb_prog_is_jited(p);
	nb_prog_put(p);
	if (!jited)
		nb_test_skip("no JIT on this architecture");
}

static void run_case(const void *arg)
{
	const struct jit_case *c = arg;
	u8 pkt[32];
	char why[512];
	u8 buf[sizeof(case_mem)];
	struct nb_prog *p;
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .flags = NB_PROG_LOAD_CHECKED, .log = &log,
	};
	u64 r0 = 0;
	int err;

	skip_without_jit();
	for (u32 i = 0; i < sizeof(pkt); i++)
		pkt[i] = 0x10 + i;
	nb_jit_diff_set_packet(pkt, sizeof(pkt));
	if (nb_jit_diff(c->insns, c->cnt, case_mem, sizeof(case_mem), c->unchecked, why,
			sizeof(why)) != NB_JIT_DIFF_SAME)
		NB_FAIL("%s", why);
	if (!c->has_expect && !c->fault)
		return;
	/* Both engines agree: check the JIT against the known answer too. */
	NB_ASSERT_EQ(nb_prog_load(NB_JIT_DIFF_PROG_TYPE, c->insns, c->cnt, &opts, &p), 0);
	memcpy(buf, case_mem, sizeof(buf));
	err = nb_prog_run_checked(p, buf, sizeof(buf), &r0, &log);
	if (c->fault) {
		NB_ASSERT(err < 0);
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log), c->fault);
	} else {
		NB_ASSERT_EQ(err, 0);
		NB_ASSERT_EQ(r0, c->expect);
	}
	nb_prog_put(p);
	nb_log_free(&log);
}

#define R0 BPF_REG_0
#define R1 BPF_REG_1
#define R2 BPF_REG_2
#define R3 BPF_REG_3
#define R4 BPF_REG_4
#define R5 BPF_REG_5
#define R6 BPF_REG_6
#define R7 BPF_REG_7
#define R9 BPF_REG_9
#define R10 BPF_REG_10

/* Division and modulo never fault: x/0 = 0, x%0 = x, INT_MIN/-1 = INT_MIN, x smod -1 = 0. */
static const struct bpf_insn div_zero64[] = {
	NB_LD_IMM64(R0, 0x123456789abcdefULL), NB_MOV64_IMM(R3, 0),
	NB_ALU64_REG(BPF_DIV, R0, R3), NB_EXIT(),
};
static const struct bpf_insn mod_zero32[] = {
	NB_LD_IMM64(R0, 0xffffffff00000007ULL), NB_MOV64_IMM(R3, 0),
	NB_ALU32_REG(BPF_MOD, R0, R3), NB_EXIT(),
};
static const struct bpf_insn mod_zero64_imm[] = {
	NB_LD_IMM64(R0, 0xffffffff00000007ULL), NB_ALU64_IMM(BPF_MOD, R0, 0), NB_EXIT(),
};
static const struct bpf_insn sdiv_min64[] = {
	NB_LD_IMM64(R4, 0x8000000000000000ULL), NB_MOV64_IMM(R0, -1),
	NB_ALU64_SREG(BPF_DIV, R4, R0), NB_MOV64_REG(R0, R4), NB_EXIT(),
};
static const struct bpf_insn smod_min32[] = {
	NB_MOV32_IMM(R0, INT32_MIN), NB_ALU32_SIMM(BPF_MOD, R0, -1),
	NB_ALU64_IMM(BPF_ADD, R0, 5), NB_EXIT(),
};
static const struct bpf_insn sdiv_neg[] = {
	NB_MOV64_IMM(R3, -7), NB_MOV64_IMM(R0, 2), NB_ALU64_SREG(BPF_DIV, R3, R0),
	NB_MOV64_IMM(R5, -7), NB_ALU32_SIMM(BPF_MOD, R5, 2), NB_ALU64_IMM(BPF_LSH, R5, 32),
	NB_ALU64_REG(BPF_XOR, R3, R5), NB_MOV64_REG(R0, R3), NB_EXIT(),
};
/* Division with rax/rdx (r0/r3) as source and destination keeps the other intact. */
static const struct bpf_insn div_regs[] = {
	NB_MOV64_IMM(R0, 100), NB_MOV64_IMM(R3, 7), NB_ALU64_REG(BPF_DIV, R3, R0),
	NB_MOV64_IMM(R3, 7), NB_ALU64_REG(BPF_MOD, R0, R3), NB_ALU64_IMM(BPF_LSH, R3, 8),
	NB_ALU64_REG(BPF_OR, R0, R3), NB_EXIT(),
};
/* Shifts: counts masked to 63/31, r4 (rcx) as count and as destination. */
static const struct bpf_insn shifts[] = {
	NB_MOV64_IMM(R4, 65), NB_MOV64_IMM(R0, 1), NB_ALU64_REG(BPF_LSH, R0, R4),
	NB_MOV64_IMM(R2, 33), NB_ALU64_REG(BPF_LSH, R4, R2), NB_ALU64_REG(BPF_ADD, R0, R4),
	NB_LD_IMM64(R5, 0x8000000000000000ULL), NB_MOV64_IMM(R3, 63),
	NB_ALU64_REG(BPF_ARSH, R5, R3), NB_ALU64_REG(BPF_XOR, R0, R5),
	NB_LD_IMM64(R6, 0xffffffff80000000ULL), NB_ALU32_IMM(BPF_ARSH, R6, 0),
	NB_ALU64_REG(BPF_ADD, R0, R6), NB_EXIT(),
};
static const struct bpf_insn endian[] = {
	NB_LD_IMM64(R0, 0x0102030405060708ULL), NB_MOV64_REG(R2, R0), NB_MOV64_REG(R3, R0),
	NB_MOV64_REG(R4, R0), NB_MOV64_REG(R5, R0),
	NB_ENDIAN(BPF_TO_BE, R0, 16), NB_ENDIAN(BPF_TO_BE, R2, 32), NB_ENDIAN(BPF_TO_LE, R3, 16),
	NB_BSWAP(R4, 64), NB_ENDIAN(BPF_TO_LE, R5, 32),
	NB_ALU64_IMM(BPF_LSH, R0, 48), NB_ALU64_REG(BPF_XOR, R0, R2), NB_ALU64_REG(BPF_XOR, R0, R3),
	NB_ALU64_REG(BPF_XOR, R0, R4), NB_ALU64_REG(BPF_XOR, R0, R5), NB_EXIT(),
};
static const struct bpf_insn movsx[] = {
	NB_MOV64_IMM(R6, 0x80), NB_MOVSX64_REG(R0, R6, 8), NB_MOV64_IMM(R1, 0x8000),
	NB_MOVSX32_REG(R2, R1, 16), NB_MOV64_IMM(R3, -5), NB_MOVSX64_REG(R3, R3, 32),
	NB_ALU64_REG(BPF_XOR, R0, R2), NB_ALU64_REG(BPF_ADD, R0, R3), NB_EXIT(),
};
/* Atomics: every op, 32 and 64 bits, r0 as source; cmpxchg hit and miss. */
static const struct bpf_insn atomics[] = {
	NB_ST_MEM(BPF_DW, R10, -8, 10), NB_ST_MEM(BPF_DW, R10, -16, -1),
	NB_MOV64_IMM(R0, 5), NB_ATOMIC_OP(BPF_DW, BPF_ADD | BPF_FETCH, R10, R0, -8),
	NB_MOV64_IMM(R2, 3), NB_ATOMIC_OP(BPF_W, BPF_AND | BPF_FETCH, R10, R2, -16),
	NB_MOV64_IMM(R3, 0x100), NB_ATOMIC_OP(BPF_DW, BPF_OR | BPF_FETCH, R10, R3, -8),
	NB_MOV64_IMM(R4, 0x7), NB_ATOMIC_OP(BPF_W, BPF_XOR, R10, R4, -12),
	NB_MOV64_IMM(R5, 42), NB_ATOMIC_OP(BPF_DW, BPF_XCHG, R10, R5, -8),
	NB_LD_IMM64(R0, 0xdead00000000002aULL), NB_MOV64_IMM(R6, 77),
	NB_ATOMIC_OP(BPF_W, BPF_CMPXCHG, R10, R6, -8),
	NB_MOV64_REG(R7, R0), NB_MOV64_IMM(R6, 99), NB_ATOMIC_OP(BPF_DW, BPF_CMPXCHG, R10, R6, -8),
	NB_LDX_MEM(BPF_DW, R9, R10, -8), NB_ALU64_REG(BPF_ADD, R0, R9),
	NB_LDX_MEM(BPF_DW, R9, R10, -16), NB_ALU64_REG(BPF_XOR, R0, R9),
	NB_ALU64_REG(BPF_ADD, R0, R2), NB_ALU64_REG(BPF_ADD, R0, R3), NB_ALU64_REG(BPF_ADD, R0, R5),
	NB_ALU64_IMM(BPF_LSH, R7, 20), NB_ALU64_REG(BPF_ADD, R0, R7), NB_EXIT(),
};
static const struct bpf_insn atomic_r0_fetch[] = {
	NB_ST_MEM(BPF_DW, R10, -8, 0x55), NB_MOV64_IMM(R0, 0x0f),
	NB_ATOMIC_OP(BPF_DW, BPF_XOR | BPF_FETCH, R10, R0, -8), NB_LDX_MEM(BPF_DW, R2, R10, -8),
	NB_ALU64_IMM(BPF_LSH, R2, 16), NB_ALU64_REG(BPF_ADD, R0, R2), NB_EXIT(),
};
/* Loads and stores on the memory block, sign-extending loads. */
static const struct bpf_insn memory[] = {
	NB_LDX_MEM(BPF_DW, R0, R1, 0), NB_LDX_MEMSX(BPF_B, R2, R1, 8), NB_LDX_MEMSX(BPF_H, R3, R1, 9),
	NB_LDX_MEMSX(BPF_W, R4, R1, 12), NB_STX_MEM(BPF_H, R1, R2, 40), NB_ST_MEM(BPF_DW, R1, 48, -3),
	NB_ST_MEM(BPF_B, R1, 33, 0x1ff), NB_ALU64_REG(BPF_XOR, R0, R2), NB_ALU64_REG(BPF_ADD, R0, R3),
	NB_ALU64_REG(BPF_SUB, R0, R4), NB_EXIT(),
};
/* bpf-to-bpf: r6..r9 survive, each frame has its own 512 bytes, r1..r5 pass through. */
static const struct bpf_insn calls[] = {
	NB_MOV64_IMM(R6, 6), NB_ST_MEM(BPF_DW, R10, -8, 1000), NB_MOV64_IMM(R1, 3),
	NB_CALL_REL(5), NB_ALU64_REG(BPF_ADD, R0, R6), NB_LDX_MEM(BPF_DW, R2, R10, -8),
	NB_ALU64_REG(BPF_ADD, R0, R2), NB_EXIT(), NB_EXIT(),
	/* f(r1): r6 = 60; stack; g(r1 + 1) * 2 */
	NB_MOV64_IMM(R6, 60), NB_ST_MEM(BPF_DW, R10, -8, 7), NB_ALU64_IMM(BPF_ADD, R1, 1),
	NB_CALL_REL(4), NB_ALU64_IMM(BPF_MUL, R0, 2), NB_LDX_MEM(BPF_DW, R3, R10, -8),
	NB_ALU64_REG(BPF_ADD, R0, R3), NB_EXIT(),
	/* g(r1): r0 = r1 * 10, clobbers r6..r9 */
	NB_MOV64_REG(R0, R1), NB_ALU64_IMM(BPF_MUL, R0, 10), NB_MOV64_IMM(R6, -1),
	NB_MOV64_IMM(R9, -1), NB_EXIT(),
};
/* A forward jump across more than 127 bytes of code. */
#define ADD1 NB_ALU64_IMM(BPF_ADD, R0, 1)
#define ADD8 ADD1, ADD1, ADD1, ADD1, ADD1, ADD1, ADD1, ADD1
#define ADD64 ADD8, ADD8, ADD8, ADD8, ADD8, ADD8, ADD8, ADD8
static const struct bpf_insn long_jump[] = {
	NB_MOV64_IMM(R0, 0), NB_MOV64_IMM(R2, 3),
	NB_JMP_IMM(BPF_JEQ, R2, 3, 64), ADD64, NB_ALU64_IMM(BPF_ADD, R0, 1000),
	NB_ALU64_IMM(BPF_SUB, R2, 1), NB_JMP_IMM(BPF_JNE, R2, 0, -(64 + 4)), NB_EXIT(),
};
static const struct bpf_insn jmp32[] = {
	NB_LD_IMM64(R2, 0x1ffffffffULL), NB_MOV64_IMM(R0, 0),
	NB_JMP32_IMM(BPF_JEQ, R2, -1, 1), NB_EXIT(), NB_ALU64_IMM(BPF_ADD, R0, 1),
	NB_JMP_IMM(BPF_JEQ, R2, -1, 1), NB_ALU64_IMM(BPF_ADD, R0, 2),
	NB_JMP32_IMM(BPF_JSLT, R2, 0, 1), NB_EXIT(), NB_ALU64_IMM(BPF_ADD, R0, 4),
	NB_JMP_IMM(BPF_JSET, R2, INT32_MIN, 1), NB_ALU64_IMM(BPF_ADD, R0, 8),
	NB_GOTOL(1), NB_EXIT(), NB_EXIT(),
};
/* LD_ABS / LD_IND read the packet in network order; a miss ends the run with r0 = 0. */
static const struct bpf_insn ld_abs[] = {
	NB_MOV64_IMM(R1, 77), NB_LD_ABS(BPF_W, 2), NB_MOV64_REG(R7, R0), NB_MOV64_IMM(R3, 5),
	NB_LD_IND(BPF_H, R3, 1), NB_ALU64_IMM(BPF_LSH, R7, 16), NB_ALU64_REG(BPF_XOR, R0, R7),
	NB_LD_ABS(BPF_B, 31), NB_ALU64_REG(BPF_ADD, R0, R1), NB_ALU64_REG(BPF_ADD, R0, R7),
	NB_EXIT(),
};
static const struct bpf_insn ld_abs_miss[] = {
	NB_MOV64_IMM(R0, 5), NB_CALL_REL(1), NB_EXIT(), NB_MOV64_IMM(R0, 9),
	NB_LD_ABS(BPF_W, 30), NB_MOV64_IMM(R0, 7), NB_EXIT(),
};
/* Faults of the checked engines. */
static const struct bpf_insn oob_load[] = { NB_LDX_MEM(BPF_W, R0, R1, 62), NB_EXIT() };
static const struct bpf_insn oob_stack[] = { NB_ST_MEM(BPF_DW, R10, 0, 1), NB_EXIT() };
static const struct bpf_insn oob_below[] = {
	NB_MOV64_REG(R2, R10), NB_ALU64_IMM(BPF_ADD, R2, -4097), NB_LDX_MEM(BPF_B, R0, R2, 0),
	NB_EXIT(),
};
static const struct bpf_insn null_mem[] = {
	NB_MOV64_IMM(R1, 0), NB_LDX_MEM(BPF_B, R0, R1, 0), NB_EXIT(),
};
static const struct bpf_insn misaligned[] = {
	NB_MOV64_IMM(R2, 1), NB_ATOMIC_OP(BPF_W, BPF_ADD, R10, R2, -6), NB_EXIT(),
};
static const struct bpf_insn too_deep[] = {
	NB_MOV64_IMM(R0, 0), NB_CALL_REL(1), NB_EXIT(),
	NB_ALU64_IMM(BPF_ADD, R0, 1), NB_CALL_REL(-2), NB_EXIT(),
};
static const struct bpf_insn endless[] = {
	NB_ALU64_IMM(BPF_ADD, R0, 1), NB_ALU64_IMM(BPF_ADD, R0, 1), NB_JA(-3), NB_EXIT(),
};
/* Stack below the current frame: deeper frames' bytes, zero in a checked run. */
static const struct bpf_insn stack_frames[] = {
	NB_CALL_REL(3), NB_LDX_MEM(BPF_DW, R0, R10, -520), NB_ALU64_IMM(BPF_ADD, R0, 1), NB_EXIT(),
	NB_ST_MEM(BPF_DW, R10, -8, 41), NB_EXIT(),
};

#define CASE(n, ...) { .name = #n, .insns = n, .cnt = ARRAY_SIZE(n), __VA_ARGS__ }

static const struct jit_case jit_cases[] = {
	CASE(div_zero64, .unchecked = true, .has_expect = true, .expect = 0),
	CASE(mod_zero32, .unchecked = true, .has_expect = true, .expect = 7),
	CASE(mod_zero64_imm, .unchecked = true, .has_expect = true,
	     .expect = 0xffffffff00000007ULL),
	CASE(sdiv_min64, .unchecked = true, .has_expect = true, .expect = 0x8000000000000000ULL),
	CASE(smod_min32, .unchecked = true, .has_expect = true, .expect = 5),
	CASE(sdiv_neg, .unchecked = true),
	CASE(div_regs, .unchecked = true, .has_expect = true, .expect = 2 | (7 << 8)),
	CASE(shifts, .unchecked = true),
	CASE(endian, .unchecked = true),
	CASE(movsx, .unchecked = true),
	CASE(atomics, .unchecked = true),
	CASE(atomic_r0_fetch, .unchecked = true, .has_expect = true, .expect = 0x55 | 0x5a << 16),
	CASE(memory, .unchecked = true),
	CASE(calls, .unchecked = true, .has_expect = true, .expect = (4 * 10) * 2 + 7 + 6 + 1000),
	CASE(long_jump, .unchecked = true, .has_expect = true, .expect = 1000 + 2 * (64 + 1000)),
	CASE(jmp32, .unchecked = true),
	CASE(ld_abs, .unchecked = true),
	CASE(ld_abs_miss, .unchecked = true, .has_expect = true, .expect = 0),
	CASE(oob_load, .fault = "insn 0: invalid memory access: 4 bytes at"),
	CASE(oob_stack, .fault = "insn 0: invalid memory access: 8 bytes"),
	CASE(oob_below, .fault = "insn 2: invalid memory access: 1 bytes"),
	CASE(null_mem, .fault = "insn 1: invalid memory access: 1 bytes at 0x0"),
	CASE(misaligned, .fault = "insn 1: misaligned atomic access: 4 bytes"),
	CASE(too_deep, .fault = "insn 4: call stack too deep"),
	CASE(endless, .fault = "instruction limit exceeded"),
	CASE(stack_frames, .has_expect = true, .expect = 42),
};

static void __attribute__((constructor)) register_jit_cases(void)
{
	static char names[ARRAY_SIZE(jit_cases)][64];

	for (u32 i = 0; i < ARRAY_SIZE(jit_cases); i++) {
		snprintf(names[i], sizeof(names[i]), "jit_case_%s", jit_cases[i].name);
		nb_test_register(names[i], run_case, &jit_cases[i]);
	}
}

/* The image is executable and never writable. */
NB_TEST(jit_code_is_not_writable)
{
	struct bpf_insn prog[] = { NB_MOV64_IMM(R0, 7), NB_EXIT() };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY,
	};
	char line[512], perms[8] = "";
	struct nb_prog *p;
	FILE *maps;

	skip_without_jit();
	NB_ASSERT_EQ(nb_prog_load(NB_JIT_DIFF_PROG_TYPE, prog, 2, &opts, &p), 0);
	NB_ASSERT(p->jited);
	NB_ASSERT_EQ(nb_prog_run(p, NULL), 7);
	NB_ASSERT(p->jit_insn_offs && p->jit_insn_offs[1] > p->jit_insn_offs[0]);
	maps = fopen("/proc/self/maps", "r");
	NB_ASSERT(maps);
	while (fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 &&
		    lo <= (uintptr_t)p->jit_image && (uintptr_t)p->jit_image < hi)
			break;
		perms[0] = '\0';
	}
	fclose(maps);
	NB_ASSERT_STR_CONTAINS(perms, "r-x");
	nb_prog_put(p);
}

/* --interp keeps programs off the JIT; checked loads get the checked JIT. */
NB_TEST(jit_load_flags_choose_engine)
{
	struct bpf_insn prog[] = { NB_MOV64_IMM(R0, 7), NB_EXIT() };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts) };
	struct nb_prog *p;

	skip_without_jit();
	opts.flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY | NB_PROG_LOAD_INTERP;
	NB_ASSERT_EQ(nb_prog_load(NB_JIT_DIFF_PROG_TYPE, prog, 2, &opts, &p), 0);
	NB_ASSERT(!nb_prog_is_jited(p));
	NB_ASSERT_EQ(nb_prog_run(p, NULL), 7);
	nb_prog_put(p);
	opts.flags = NB_PROG_LOAD_CHECKED;
	NB_ASSERT_EQ(nb_prog_load(NB_JIT_DIFF_PROG_TYPE, prog, 2, &opts, &p), 0);
	NB_ASSERT(nb_prog_is_jited(p));
	NB_ASSERT(!p->jited); /* checked code never runs unchecked */
	nb_prog_put(p);
}

static void run_random_shard(const void *arg)
{
	u32 shard = (u32)(uintptr_t)arg, mismatches = 0, rejected = 0;
	struct bpf_insn *insns = malloc(GEN_MAX_INSNS * sizeof(*insns));
	u8 mem[256], pkt[64];
	char why[512], first[700] = "";

	NB_ASSERT(insns);
	skip_without_jit();
	for (u32 k = 0; k < PROGS_PER_SHARD; k++) {
		u64 seed = (u64)shard * PROGS_PER_SHARD + k, rng = seed ^ 0x5eed;
		struct nb_gen_opts o = {
			.mem_len = 16 + 8 * (nb_gen_rand(&rng) % 29),
			.max_insns = GEN_MAX_INSNS,
			.ld_abs = true,
		};
		enum nb_jit_diff_result res;
		u32 cnt;

		for (u32 i = 0; i < sizeof(mem); i++)
			mem[i] = nb_gen_rand(&rng);
		for (u32 i = 0; i < sizeof(pkt); i++)
			pkt[i] = nb_gen_rand(&rng);
		nb_jit_diff_set_packet(pkt, sizeof(pkt));
		cnt = nb_gen_prog(seed, &o, insns);
		NB_ASSERT(cnt > 0);
		res = nb_jit_diff(insns, cnt, mem, o.mem_len, true, why, sizeof(why));
		if (res == NB_JIT_DIFF_REJECTED)
			rejected++;
		if (res == NB_JIT_DIFF_MISMATCH && mismatches++ == 0)
			snprintf(first, sizeof(first), "seed %llu: %s", (unsigned long long)seed,
				 why);
	}
	free(insns);
	if (mismatches || rejected)
		NB_FAIL("%u mismatches, %u rejected programs of %u; first: %s", mismatches,
			rejected, PROGS_PER_SHARD, first);
}

static void __attribute__((constructor)) register_random_shards(void)
{
	static char names[RANDOM_SHARDS][48];

	for (uintptr_t i = 0; i < RANDOM_SHARDS; i++) {
		snprintf(names[i], sizeof(names[i]), "jit_diff_random_%lu", (unsigned long)i);
		nb_test_register(names[i], run_random_shard, (const void *)i);
	}
}

/* bpf_loop calls its callback through the JIT's native callback entry. */
NB_TEST(jit_callback_bpf_loop)
{
	const struct bpf_insn prog[] = {
		NB_MOV64_IMM(R6, 0), NB_ST_MEM(BPF_DW, R10, -8, 0), NB_MOV64_IMM(R1, 10),
		NB_LD_IMM64_RAW(R2, BPF_PSEUDO_FUNC, 9), NB_MOV64_REG(R3, R10),
		NB_ALU64_IMM(BPF_ADD, R3, -8), NB_MOV64_IMM(R4, 0), NB_CALL_HELPER(BPF_FUNC_loop),
		NB_LDX_MEM(BPF_DW, R1, R10, -8), NB_ALU64_IMM(BPF_MUL, R0, 1000),
		NB_ALU64_REG(BPF_ADD, R0, R1), NB_EXIT(),
		/* callback(i, ctx): *ctx += i + 100; stop after i == 7 */
		NB_LDX_MEM(BPF_DW, R3, R2, 0), NB_ALU64_REG(BPF_ADD, R3, R1),
		NB_ALU64_IMM(BPF_ADD, R3, 100), NB_STX_MEM(BPF_DW, R2, R3, 0), NB_MOV64_IMM(R0, 0),
		NB_JMP_IMM(BPF_JNE, R1, 7, 1), NB_MOV64_IMM(R0, 1), NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY, .log = &log,
	};
	struct nb_prog *pj, *pi;

	skip_without_jit();
	if (nb_prog_load(BPF_PROG_TYPE_SYSCALL, prog, ARRAY_SIZE(prog), &opts, &pj))
		NB_FAIL("load: %s", nb_log_text(&log));
	opts.flags |= NB_PROG_LOAD_INTERP;
	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_SYSCALL, prog, ARRAY_SIZE(prog), &opts, &pi), 0);
	NB_ASSERT(pj->jited && pj->callback_cnt == 1 && pj->callbacks[0].jited);
	NB_ASSERT(!pi->jited && !pi->callbacks[0].jited);
	NB_ASSERT_EQ(nb_prog_run(pi, NULL), 8 * 1000 + 28 + 800);
	NB_ASSERT_EQ(nb_prog_run(pj, NULL), 8 * 1000 + 28 + 800);
	nb_prog_put(pj);
	nb_prog_put(pi);
	nb_log_free(&log);
}

/* ctx[0]++; tail call slot 0 of map (itself, until the chain limit); return ctx[0] + 1000 */
static void tail_counter_prog(struct bpf_insn *p, u32 map_id)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(R6, R1), NB_LDX_MEM(BPF_DW, R0, R6, 0), NB_ALU64_IMM(BPF_ADD, R0, 1),
		NB_STX_MEM(BPF_DW, R6, R0, 0), NB_LD_MAP_ID(R2, map_id), NB_MOV64_IMM(R3, 0),
		NB_MOV64_REG(R1, R6), NB_CALL_HELPER(BPF_FUNC_tail_call),
		NB_LDX_MEM(BPF_DW, R0, R6, 0), NB_ALU64_IMM(BPF_ADD, R0, 1000), NB_EXIT(),
	};

	memcpy(p, insns, sizeof(insns));
}

static struct nb_prog *load_tail(const struct bpf_insn *insns, u32 cnt, unsigned int flags)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY | flags, .log = &log,
	};
	struct nb_prog *p;

	if (nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, cnt, &opts, &p))
		NB_FAIL("load: %s", nb_log_text(&log));
	nb_log_free(&log);
	return p;
}

/*
 * Tail calls: the 33-call limit, a miss falling through, JIT to JIT and JIT to interpreter, with
 * the limit counted over the whole mixed chain.
 */
NB_TEST(jit_tail_calls)
{
	struct bpf_insn self[12];
	struct nb_map *arr[2];
	struct nb_prog *prog[2];
	u64 ctx[2];
	u32 key = 0, id;

	skip_without_jit();
	for (int e = 0; e < 2; e++) { /* 0: interpreter, 1: JIT */
		NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, NULL, &arr[e]), 0);
		tail_counter_prog(self, arr[e]->id);
		prog[e] = load_tail(self, ARRAY_SIZE(self), e ? 0 : NB_PROG_LOAD_INTERP);
		NB_ASSERT_EQ(nb_prog_is_jited(prog[e]), e);
		/* An empty slot: the call falls through after one run. */
		ctx[e] = 0;
		NB_ASSERT_EQ(nb_prog_run(prog[e], &ctx[e]), 1001);
		id = nb_prog_id(prog[e]);
		NB_ASSERT_EQ(nb_map_update_elem(arr[e], &key, &id, BPF_ANY), 0);
		ctx[e] = 0;
		NB_ASSERT_EQ(nb_prog_run(prog[e], &ctx[e]), 1000 + 1 + NB_MAX_TAIL_CALLS);
		NB_ASSERT_EQ(ctx[e], 1 + NB_MAX_TAIL_CALLS);
	}
	{
		/* A JIT-compiled caller whose target only the interpreter runs. */
		const struct bpf_insn caller[] = {
			NB_MOV64_REG(R6, R1), NB_LD_MAP_ID(R2, arr[0]->id), NB_MOV64_IMM(R3, 0),
			NB_CALL_HELPER(BPF_FUNC_tail_call), NB_MOV64_IMM(R0, 7), NB_EXIT(),
		};
		struct nb_prog *p = load_tail(caller, ARRAY_SIZE(caller), 0);

		NB_ASSERT(p->jited);
		ctx[0] = 0;
		/*
		 * One chain, one count: the caller's call is the first of NB_MAX_TAIL_CALLS, the
		 * interpreter goes on from there, so the target runs exactly that many times.
		 */
		NB_ASSERT_EQ(nb_prog_run(p, &ctx[0]), 1000 + NB_MAX_TAIL_CALLS);
		NB_ASSERT_EQ(ctx[0], NB_MAX_TAIL_CALLS);
		nb_prog_put(p);
	}
	for (int e = 0; e < 2; e++) {
		nb_map_release_uref(arr[e]);
		nb_map_put(arr[e]);
		nb_prog_put(prog[e]);
	}
}

/* Map helpers with a known map call the map's operations directly: same results. */
NB_TEST(jit_direct_map_ops)
{
	struct nb_map *map;
	struct nb_prog *prog[2];
	u64 r[2];

	skip_without_jit();
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_HASH, 4, 8, 16, NULL, &map), 0);
	{
		const struct bpf_insn insns[] = {
			NB_ST_MEM(BPF_W, R10, -4, 7), NB_ST_MEM(BPF_DW, R10, -16, 1234),
			/* update(map, &key, &value, 0) */
			NB_LD_MAP_ID(R1, map->id), NB_MOV64_REG(R2, R10), NB_ALU64_IMM(BPF_ADD, R2, -4),
			NB_MOV64_REG(R3, R10), NB_ALU64_IMM(BPF_ADD, R3, -16), NB_MOV64_IMM(R4, 0),
			NB_CALL_HELPER(BPF_FUNC_map_update_elem), NB_MOV64_REG(R6, R0),
			/* r7 = *lookup(map, &key) + 1 */
			NB_LD_MAP_ID(R1, map->id), NB_MOV64_REG(R2, R10), NB_ALU64_IMM(BPF_ADD, R2, -4),
			NB_CALL_HELPER(BPF_FUNC_map_lookup_elem), NB_JMP_IMM(BPF_JEQ, R0, 0, 17),
			NB_LDX_MEM(BPF_DW, R7, R0, 0), NB_ALU64_IMM(BPF_ADD, R7, 1),
			/* delete twice: 0, then -ENOENT */
			NB_LD_MAP_ID(R1, map->id), NB_MOV64_REG(R2, R10), NB_ALU64_IMM(BPF_ADD, R2, -4),
			NB_CALL_HELPER(BPF_FUNC_map_delete_elem), NB_ALU64_REG(BPF_ADD, R6, R0),
			NB_LD_MAP_ID(R1, map->id), NB_MOV64_REG(R2, R10), NB_ALU64_IMM(BPF_ADD, R2, -4),
			NB_CALL_HELPER(BPF_FUNC_map_delete_elem), NB_ALU64_IMM(BPF_LSH, R0, 32),
			NB_ALU64_REG(BPF_ADD, R0, R7), NB_ALU64_REG(BPF_ADD, R0, R6), NB_EXIT(),
			NB_MOV64_IMM(R0, 99), NB_EXIT(),
		};

		for (int e = 0; e < 2; e++) {
			prog[e] = load_tail(insns, ARRAY_SIZE(insns), e ? 0 : NB_PROG_LOAD_INTERP);
			NB_ASSERT_EQ(nb_prog_is_jited(prog[e]), e);
			r[e] = nb_prog_run(prog[e], NULL);
			nb_prog_put(prog[e]);
		}
	}
	NB_ASSERT_EQ(r[0], ((u64)-ENOENT << 32) + 1235);
	NB_ASSERT_EQ(r[1], r[0]);
	nb_map_put(map);
}

/*
 * bpf_redirect_map with a known map calls the map's map_redirect directly (the kernel's fixup
 * patches the call to ops->map_redirect): the image holds the operation's address, and the
 * verdicts are the helper's: a key without an entry answers with the flags' low bits, a flag
 * outside the action bits and BPF_F_BROADCAST / BPF_F_EXCLUDE_INGRESS aborts.
 */
NB_TEST(jit_direct_map_redirect)
{
	static const u64 flags[] = { XDP_PASS, XDP_DROP, XDP_TX, 1ULL << 8 };
	static const u64 want[] = { XDP_PASS, XDP_DROP, XDP_TX, XDP_ABORTED };
	struct nb_map *map;

	skip_without_jit();
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_DEVMAP, 4, 4, 8, NULL, &map), 0);
	for (size_t f = 0; f < ARRAY_SIZE(flags); f++) {
		const struct bpf_insn insns[] = {
			NB_LD_MAP_ID(R1, map->id), NB_MOV64_IMM(R2, 3), NB_LD_IMM64(R3, flags[f]),
			NB_CALL_HELPER(BPF_FUNC_redirect_map), NB_EXIT(),
		};
		u64 r[2];

		for (int e = 0; e < 2; e++) { /* 0: interpreter, 1: JIT */
			struct nb_log log = { 0 };
			struct nb_prog_load_opts opts = {
				.sz = sizeof(opts), .log = &log,
				.flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY |
					 (e ? 0 : NB_PROG_LOAD_INTERP),
			};
			struct nb_prog *p;
			const void *op = (const void *)map->ops->map_redirect;

			if (nb_prog_load(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns), &opts, &p))
				NB_FAIL("load: %s", nb_log_text(&log));
			nb_log_free(&log);
			NB_ASSERT_EQ(nb_prog_is_jited(p), e);
			if (e)
				NB_ASSERT(memmem(p->jit_image, p->jit_size, &op, sizeof(op)));
			r[e] = nb_prog_run(p, NULL);
			nb_prog_put(p);
		}
		NB_ASSERT_EQ(r[0], want[f]);
		NB_ASSERT_EQ(r[1], r[0]);
	}
	nb_map_put(map);
}
