// SPDX-License-Identifier: GPL-2.0
/*
 * Random valid programs for differential testing; see bpf_gen.h for what they contain.
 *
 * Register roles: r1 is the memory block and r10 the frame, neither is ever written; r0 and
 * r2..r9 hold scalars. A loop reserves its counter (r8 or r9) for its body.
 */
#include <string.h>

#include "bpf_asm.h"
#include "bpf_gen.h"

#define MAX_SUBPROGS 3
#define SCALARS (1U << 0 | 0x3fcU) /* r0, r2..r9 */

struct gen {
	u64 rng;
	const struct nb_gen_opts *o;
	struct bpf_insn *insns;
	u32 n;
	bool full;
	u32 slots;		/* initialised 8-byte stack slots of the current function */
	u32 nsub;		/* subprograms to emit after main */
	u32 cur_sub;		/* function being written: 0 main, 1.. subprograms */
	struct { u32 at, sub; } calls[64];
	u32 ncalls;
};

u64 nb_gen_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u32 below(struct gen *g, u32 n)
{
	return nb_gen_rand(&g->rng) % n;
}

static void put(struct gen *g, struct bpf_insn insn)
{
	if (g->n < g->o->max_insns)
		g->insns[g->n++] = insn;
	else
		g->full = true;
}

static s32 edge_imm(struct gen *g)
{
	static const s32 edges[] = {
		0, 1, -1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 0x7f, 0x80, 0xff, 0x7fff, 0x8000,
		0xffff, INT32_MAX, INT32_MIN, -2, -128, 0x12345678, (s32)0x80000001,
	};

	switch (below(g, 3)) {
	case 0:
		return edges[below(g, ARRAY_SIZE(edges))];
	case 1:
		return (s32)below(g, 64) - 16;
	default:
		return (s32)nb_gen_rand(&g->rng);
	}
}

static u64 edge_imm64(struct gen *g)
{
	static const u64 edges[] = {
		0, 1, ~0ULL, 0x8000000000000000ULL, 0x7fffffffffffffffULL, 0xffffffffULL,
		0x100000000ULL, 0x80000000ULL, 0xffffffff80000000ULL,
	};

	if (below(g, 2))
		return edges[below(g, ARRAY_SIZE(edges))];
	return nb_gen_rand(&g->rng);
}

static u8 pick_reg(struct gen *g, u32 mask)
{
	u8 regs[16], n = 0;

	for (u8 r = 0; r < 11; r++)
		if (mask & (1U << r))
			regs[n++] = r;
	return regs[below(g, n)];
}

/* A source register: any scalar, now and then the memory pointer (same in both engines). */
static u8 src_reg(struct gen *g)
{
	return below(g, 16) ? pick_reg(g, SCALARS) : BPF_REG_1;
}

static const u8 sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };

static u32 size_bytes(u8 size)
{
	return size == BPF_B ? 1 : size == BPF_H ? 2 : size == BPF_W ? 4 : 8;
}

static void gen_alu(struct gen *g, u32 wmask)
{
	static const u8 ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR,	BPF_AND, BPF_LSH,
				  BPF_RSH, BPF_NEG, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH, BPF_END };
	u8 cls = below(g, 2) ? BPF_ALU64 : BPF_ALU, op = ops[below(g, ARRAY_SIZE(ops))];
	u8 dst = pick_reg(g, wmask);
	bool is_x = below(g, 2);
	s16 off = 0;

	if (op == BPF_NEG) {
		put(g, NB_INSN(cls | BPF_NEG | BPF_K, dst, 0, 0, 0));
		return;
	}
	if (op == BPF_END) {
		static const s32 widths[] = { 16, 32, 64 };
		u8 src = cls == BPF_ALU64 ? BPF_TO_LE : below(g, 2) ? BPF_TO_BE : BPF_TO_LE;

		put(g, NB_INSN(cls | BPF_END | src, dst, 0, 0, widths[below(g, 3)]));
		return;
	}
	if ((op == BPF_DIV || op == BPF_MOD) && below(g, 2))
		off = 1;
	if (op == BPF_MOV && is_x && below(g, 3) == 0) {
		static const s16 bits[] = { 8, 16, 32 };

		off = bits[below(g, cls == BPF_ALU64 ? 3 : 2)];
	}
	if (is_x)
		put(g, NB_INSN(cls | op | BPF_X, dst, src_reg(g), off, 0));
	else
		put(g, NB_INSN(cls | op | BPF_K, dst, 0, off, edge_imm(g)));
}

/* A stack offset inside the initialised slots, aligned to align. */
static s16 stack_off(struct gen *g, u32 size, u32 align)
{
	u32 span = g->slots * 8, off;

	off = below(g, span - size + 1);
	off &= ~(align - 1);
	return -(s16)span + (s16)off;
}

static s16 mem_off(struct gen *g, u32 size, u32 align)
{
	return below(g, g->o->mem_len - size + 1) & ~(align - 1);
}

static void gen_mem(struct gen *g, u32 wmask)
{
	u8 size = sizes[below(g, 4)];
	u32 bytes = size_bytes(size);
	bool stack = below(g, 2);
	u8 base = stack ? BPF_REG_10 : BPF_REG_1;
	s16 off = stack ? stack_off(g, bytes, 1) : mem_off(g, bytes, 1);

	switch (below(g, 4)) {
	case 0:
		put(g, NB_LDX_MEM(size, pick_reg(g, wmask), base, off));
		break;
	case 1:
		if (size == BPF_DW)
			size = BPF_W;
		put(g, NB_LDX_MEMSX(size, pick_reg(g, wmask), base, off));
		break;
	case 2:
		put(g, NB_ST_MEM(size, base, off, edge_imm(g)));
		break;
	default:
		put(g, NB_STX_MEM(size, base, src_reg(g), off));
		break;
	}
}

static void gen_atomic(struct gen *g, u32 wmask)
{
	static const s32 ops[] = {
		BPF_ADD, BPF_AND, BPF_OR, BPF_XOR, BPF_ADD | BPF_FETCH, BPF_AND | BPF_FETCH,
		BPF_OR | BPF_FETCH, BPF_XOR | BPF_FETCH, BPF_XCHG, BPF_CMPXCHG,
	};
	u8 size = below(g, 2) ? BPF_DW : BPF_W;
	u32 bytes = size_bytes(size);
	bool stack = below(g, 2);
	s32 op = ops[below(g, ARRAY_SIZE(ops))];
	u8 src = (op & BPF_FETCH) && op != BPF_CMPXCHG ? pick_reg(g, wmask) : src_reg(g);

	if (op == BPF_CMPXCHG && !(wmask & 1))
		op = BPF_ADD;
	put(g, NB_ATOMIC_OP(size, op, stack ? BPF_REG_10 : BPF_REG_1, src,
			    stack ? stack_off(g, bytes, bytes) : mem_off(g, bytes, bytes)));
}

static void gen_ld_abs(struct gen *g, u32 wmask)
{
	static const u8 ld_sizes[] = { BPF_B, BPF_H, BPF_W };
	u8 size = ld_sizes[below(g, 3)], src;

	if (!(wmask & 1))
		return;
	if (below(g, 2)) {
		put(g, NB_LD_ABS(size, below(g, 62)));
		return;
	}
	/* LD_IND: keep the register small, so that most reads hit the packet. */
	src = pick_reg(g, wmask & ~1U);
	put(g, NB_ALU64_IMM(BPF_AND, src, 0x1f));
	put(g, NB_LD_IND(size, src, below(g, 32) - 2));
}

/* One straight-line instruction (or a short group) writing only registers in wmask. */
static void gen_simple(struct gen *g, u32 wmask)
{
	u32 k = below(g, 100);

	if (k < 50) {
		gen_alu(g, wmask);
	} else if (k < 75) {
		gen_mem(g, wmask);
	} else if (k < 85) {
		gen_atomic(g, wmask);
	} else if (k < 92) {
		struct bpf_insn ld[] = { NB_LD_IMM64(pick_reg(g, wmask), edge_imm64(g)) };

		put(g, ld[0]);
		put(g, ld[1]);
	} else if (g->o->ld_abs && k < 96) {
		gen_ld_abs(g, wmask);
	} else {
		gen_alu(g, wmask);
	}
}

/* if (cond) skip the next few instructions */
static void gen_forward_jump(struct gen *g, u32 wmask)
{
	static const u8 ops[] = { BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET, BPF_JNE, BPF_JSGT,
				  BPF_JSGE, BPF_JLT, BPF_JLE, BPF_JSLT, BPF_JSLE };
	u8 cls = below(g, 2) ? BPF_JMP : BPF_JMP32, op = ops[below(g, ARRAY_SIZE(ops))];
	u32 at = g->n, cnt = 1 + below(g, 6);

	if (below(g, 2))
		put(g, NB_INSN(cls | op | BPF_X, pick_reg(g, SCALARS), src_reg(g), 0, 0));
	else
		put(g, NB_INSN(cls | op | BPF_K, pick_reg(g, SCALARS), 0, 0, edge_imm(g)));
	for (u32 i = 0; i < cnt; i++)
		gen_simple(g, wmask);
	if (below(g, 8) == 0) /* now and then a far jump: long displacements in the JIT */
		for (u32 i = 0; i < 40; i++)
			gen_alu(g, wmask);
	if (!g->full)
		g->insns[at].off = g->n - at - 1;
}

static void gen_block(struct gen *g, u32 wmask, u32 len, bool in_loop);

/* counter = n; do { body } while (--counter != 0) */
static void gen_loop(struct gen *g, u32 wmask)
{
	u8 counter = below(g, 2) ? BPF_REG_8 : BPF_REG_9;
	u32 top;

	if (!(wmask & (1U << counter)))
		return;
	put(g, NB_MOV64_IMM(counter, 1 + below(g, 12)));
	top = g->n;
	gen_block(g, wmask & ~(1U << counter), 2 + below(g, 10), true);
	put(g, NB_ALU64_IMM(BPF_SUB, counter, 1));
	if (below(g, 2))
		put(g, NB_JMP_IMM(BPF_JNE, counter, 0, top - g->n - 1));
	else
		put(g, NB_JMP32_IMM(BPF_JSGT, counter, 0, top - g->n - 1));
}

static void gen_call(struct gen *g)
{
	u32 callee;

	/* Calls go to later subprograms only: no recursion, bounded depth. */
	if (g->cur_sub >= g->nsub || g->ncalls >= ARRAY_SIZE(g->calls))
		return;
	callee = g->cur_sub + 1 + below(g, g->nsub - g->cur_sub);
	g->calls[g->ncalls].at = g->n;
	g->calls[g->ncalls++].sub = callee;
	put(g, NB_CALL_REL(0));
}

static void gen_block(struct gen *g, u32 wmask, u32 len, bool in_loop)
{
	for (u32 i = 0; i < len && !g->full; i++) {
		u32 k = below(g, 100);

		if (k < 70)
			gen_simple(g, wmask);
		else if (k < 85)
			gen_forward_jump(g, wmask);
		else if (k < 92 && !in_loop)
			gen_loop(g, wmask);
		else
			gen_call(g); /* r6..r9, loop counters included, survive calls */
	}
}

/* Function start: initialise a few stack slots so later reads are defined. */
static void gen_frame(struct gen *g)
{
	g->slots = 1 + below(g, 8);
	for (u32 i = 1; i <= g->slots; i++) {
		if (below(g, 2))
			put(g, NB_ST_MEM(BPF_DW, BPF_REG_10, -8 * (s16)i, edge_imm(g)));
		else
			put(g, NB_STX_MEM(BPF_DW, BPF_REG_10, pick_reg(g, SCALARS), -8 * (s16)i));
	}
}

/* Fold every scalar register into r0 so that a difference anywhere shows. */
static void gen_fold(struct gen *g)
{
	for (u8 r = BPF_REG_2; r <= BPF_REG_9; r++) {
		put(g, NB_ALU64_IMM(BPF_MUL, BPF_REG_0, 0x01000193));
		put(g, NB_ALU64_REG(BPF_XOR, BPF_REG_0, r));
	}
}

u32 nb_gen_prog(u64 seed, const struct nb_gen_opts *opts, struct bpf_insn *insns)
{
	struct gen g = { .rng = seed, .o = opts, .insns = insns };
	u32 starts[MAX_SUBPROGS + 1];

	g.nsub = below(&g, MAX_SUBPROGS + 1);
	for (g.cur_sub = 0; g.cur_sub <= g.nsub; g.cur_sub++) {
		bool main = g.cur_sub == 0;

		starts[g.cur_sub] = g.n;
		gen_frame(&g);
		if (main)
			for (u8 r = BPF_REG_3; r <= BPF_REG_9; r++)
				if (below(&g, 2))
					put(&g, NB_MOV64_IMM(r, edge_imm(&g)));
		gen_block(&g, SCALARS, 4 + below(&g, main ? 40 : 16), false);
		if (main)
			gen_fold(&g);
		put(&g, NB_EXIT());
	}
	if (g.full)
		return 0;
	for (u32 i = 0; i < g.ncalls; i++)
		insns[g.calls[i].at].imm = starts[g.calls[i].sub] - g.calls[i].at - 1;
	return g.n;
}
