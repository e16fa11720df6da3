// SPDX-License-Identifier: GPL-2.0
/* The bounds differential's program generator (bounds_gen.h). */
#include <string.h>

#include "bounds_gen.h"
#include "bpf_asm.h"

#define MAX_UNITS 96

/* One unit: up to five instructions; a branch (its first instruction) jumps to another unit. */
struct unit {
	struct bpf_insn insn[5];
	u8 cnt;
	s16 target;	/* -1: no branch */
};

struct gen {
	u64 state;
	struct unit units[MAX_UNITS];
	u32 n;
};

static u64 rnd(struct gen *g)
{
	u64 z = (g->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u32 pick(struct gen *g, u32 n)
{
	return rnd(g) % n;
}

/* Immediates at the edges of every width and sign, and some others. */
static s32 edge_imm(struct gen *g)
{
	static const s32 edges[] = {
		0, 1, -1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 0x7fff, 0x8000,
		0xffff, 0x10000, 0x7fffffff, (s32)0x80000000, -2, -128, -256, -0x8000, 0x0f0f0f0f,
		0x12345678,
	};

	switch (pick(g, 4)) {
	case 0:
		return (s32)pick(g, 300) - 40;
	case 1:
		return (s32)rnd(g);
	default:
		return edges[pick(g, ARRAY_SIZE(edges))];
	}
}

static u8 any_reg(struct gen *g)
{
	return pick(g, 10);	/* r0..r9: r10 is read only */
}

static struct unit *unit(struct gen *g)
{
	struct unit *u = &g->units[g->n++];

	memset(u, 0, sizeof(*u));
	u->target = -1;
	return u;
}

static void add(struct unit *u, struct bpf_insn insn)
{
	u->insn[u->cnt++] = insn;
}

static void gen_alu(struct gen *g)
{
	static const u8 ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_OR, BPF_AND,
				  BPF_LSH, BPF_RSH, BPF_ARSH, BPF_XOR, BPF_MOV, BPF_NEG, BPF_END };
	bool is64 = pick(g, 3) != 0, is_x = pick(g, 2);
	u8 op = ops[pick(g, ARRAY_SIZE(ops))], dst = any_reg(g), src = any_reg(g);
	u8 cls = is64 ? BPF_ALU64 : BPF_ALU;
	struct unit *u = unit(g);
	s32 imm = edge_imm(g);
	s16 off = 0;

	switch (op) {
	case BPF_NEG:
		add(u, NB_INSN(cls | BPF_NEG | BPF_K, dst, 0, 0, 0));
		return;
	case BPF_END: {
		static const s32 widths[] = { 16, 32, 64 };
		u8 dir = pick(g, 2) ? BPF_TO_BE : BPF_TO_LE;

		/* ALU64 END is bswap, whose direction bit must be TO_LE. */
		add(u, NB_INSN(cls | BPF_END | (is64 ? BPF_TO_LE : dir), dst, 0, 0,
			       widths[pick(g, 3)]));
		return;
	}
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		if (!is_x)
			imm = pick(g, is64 ? 64 : 32);
		break;
	case BPF_DIV:
	case BPF_MOD:
		if (!is_x && !imm)
			imm = 3;
		off = pick(g, 4) == 0;	/* sometimes signed */
		break;
	case BPF_MOV:
		if (is_x && pick(g, 3) == 0) {
			static const s16 sx64[] = { 8, 16, 32 }, sx32[] = { 8, 16 };

			off = is64 ? sx64[pick(g, 3)] : sx32[pick(g, 2)];
		}
		break;
	}
	if (is_x)
		add(u, NB_INSN(cls | op | BPF_X, dst, src, off, 0));
	else
		add(u, NB_INSN(cls | op | BPF_K, dst, 0, off, imm));
}

/* A slot among fp-8 .. fp-32 and an offset in it aligned to the size. */
static s16 stack_off(struct gen *g, u32 size)
{
	return -8 * (s16)(1 + pick(g, 4)) + (s16)(pick(g, 8 / size) * size);
}

static const u32 sizes[] = { 1, 2, 4, 8 };
static const u8 size_code[] = { BPF_B, BPF_H, BPF_W, BPF_DW };

static void gen_store(struct gen *g)
{
	u32 k = pick(g, 4);
	struct unit *u = unit(g);
	s16 off = stack_off(g, sizes[k]);

	if (pick(g, 4) == 0)
		add(u, NB_ST_MEM(size_code[k], BPF_REG_10, off, edge_imm(g)));
	else
		add(u, NB_STX_MEM(size_code[k], BPF_REG_10, any_reg(g), off));
}

static void gen_load(struct gen *g)
{
	u32 k = pick(g, 4);
	struct unit *u = unit(g);
	s16 off = stack_off(g, sizes[k]);

	if (k < 3 && pick(g, 3) == 0)
		add(u, NB_LDX_MEMSX(size_code[k], any_reg(g), BPF_REG_10, off));
	else
		add(u, NB_LDX_MEM(size_code[k], any_reg(g), BPF_REG_10, off));
}

/* Copies that stay linked: r1 = r2, w1 = w2, r1 = r2 + K. */
static void gen_link(struct gen *g)
{
	struct unit *u = unit(g);
	u8 dst = any_reg(g), src = any_reg(g);

	switch (pick(g, 3)) {
	case 0:
		add(u, NB_MOV64_REG(dst, src));
		break;
	case 1:
		add(u, NB_MOV32_REG(dst, src));
		break;
	default:
		add(u, NB_MOV64_REG(dst, src));
		add(u, NB_INSN((pick(g, 2) ? BPF_ALU64 : BPF_ALU) | (pick(g, 2) ? BPF_ADD : BPF_SUB) |
			       BPF_K, dst, 0, 0, (s32)pick(g, 64) - 16));
		break;
	}
}

/* Atomics on a stack slot (8 or 4 bytes), some fetching the old value into a register. */
static void gen_atomic(struct gen *g)
{
	static const s32 ops[] = { BPF_ADD, BPF_AND, BPF_OR, BPF_XOR, BPF_ADD | BPF_FETCH,
				   BPF_AND | BPF_FETCH, BPF_XCHG };
	bool dw = pick(g, 2);
	struct unit *u = unit(g);

	add(u, NB_ATOMIC_OP(dw ? BPF_DW : BPF_W, ops[pick(g, ARRAY_SIZE(ops))], BPF_REG_10,
			    any_reg(g), stack_off(g, dw ? 8 : 4)));
}

/*
 * A load or store through a stack pointer with a bounded variable offset: r1 = r10 - 32 plus a
 * register masked to 0..24, then an access of 8 bytes; r1 becomes a constant after.
 */
static void gen_var_off(struct gen *g)
{
	struct unit *u = unit(g);
	u8 src = any_reg(g), val = any_reg(g);

	if (src == BPF_REG_1 || val == BPF_REG_1)
		src = val = BPF_REG_2;
	add(u, NB_MOV64_REG(BPF_REG_1, src));
	add(u, NB_ALU64_IMM(BPF_AND, BPF_REG_1, 24));
	add(u, NB_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_10));
	if (pick(g, 2))
		add(u, NB_STX_MEM(BPF_DW, BPF_REG_1, val, -32));
	else
		add(u, NB_LDX_MEM(BPF_DW, val, BPF_REG_1, -32));
	/* r1 a scalar again, for the operations that follow. */
	add(u, NB_MOV64_IMM(BPF_REG_1, edge_imm(g)));
}

static const u8 cond_ops[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE, BPF_JSET,
			       BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE };

static struct bpf_insn cond_jump(struct gen *g, u8 reg)
{
	u8 cls = pick(g, 3) ? BPF_JMP : BPF_JMP32, op = cond_ops[pick(g, ARRAY_SIZE(cond_ops))];

	if (pick(g, 4) == 0)
		return NB_INSN(cls | op | BPF_X, reg, any_reg(g), 0, 0);
	return NB_INSN(cls | op | BPF_K, reg, 0, 0, edge_imm(g));
}

/* A branch over some of the following units; its offset is set once they are laid out. */
static void gen_branch(struct gen *g, u32 units_left)
{
	struct unit *u = unit(g);

	add(u, cond_jump(g, any_reg(g)));
	u->target = (s16)(g->n + pick(g, units_left < 6 ? units_left : 6));
}

/* r6..r9 random, r0..r5 copies of them, every register given a shape. */
static void gen_prologue(struct gen *g)
{
	static const u8 shapes[] = { BPF_AND, BPF_OR, BPF_LSH, BPF_RSH, BPF_ARSH, BPF_MOV,
				     BPF_ADD };
	struct unit *u;

	for (u8 r = BPF_REG_6; r <= BPF_REG_9; r++) {
		u = unit(g);
		add(u, NB_CALL_HELPER(BPF_FUNC_get_prandom_u32));
		add(u, NB_MOV64_REG(r, BPF_REG_0));
		if (pick(g, 2)) {
			/* 64 random bits, not 32 */
			add(u, NB_ALU64_IMM(BPF_LSH, r, 32));
			add(u, NB_ALU64_REG(BPF_XOR, r, BPF_REG_0));
		}
	}
	for (u8 r = BPF_REG_0; r <= BPF_REG_5; r++) {
		u = unit(g);
		add(u, NB_MOV64_REG(r, BPF_REG_6 + pick(g, 4)));
	}
	for (u8 r = BPF_REG_0; r <= BPF_REG_9; r++) {
		u8 op = shapes[pick(g, ARRAY_SIZE(shapes))];
		s32 imm = edge_imm(g);

		if (op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH)
			imm = pick(g, 64);
		u = unit(g);
		if (op == BPF_MOV && pick(g, 2))
			add(u, NB_MOVSX64_REG(r, r, 8 << pick(g, 3)));
		else
			add(u, NB_ALU64_IMM(op, r, imm));
	}
}

unsigned int bounds_gen_body(u64 seed, struct bpf_insn *insns)
{
	struct gen g = { .state = seed * 0x2545f4914f6cdd1dULL + 1 };
	u32 body = 20 + rnd(&g) % 40, branches = 0, start[MAX_UNITS + 1], len = 0;
	struct unit *u;

	gen_prologue(&g);
	for (u32 i = 0; i < body; i++) {
		u32 kind = pick(&g, 100);

		if (kind < 48)
			gen_alu(&g);
		else if (kind < 56)
			gen_link(&g);
		else if (kind < 66)
			gen_store(&g);
		else if (kind < 76)
			gen_load(&g);
		else if (kind < 80)
			gen_atomic(&g);
		else if (kind < 84)
			gen_var_off(&g);
		else if (branches < 7 && (++branches, true))
			gen_branch(&g, body - i);
		else
			gen_alu(&g);
	}
	/* Where every branch lands at the latest (the probe follows). */
	u = unit(&g);
	add(u, NB_MOV64_REG(BPF_REG_0, BPF_REG_0));
	for (u32 i = 0; i < g.n; i++) {
		start[i] = len;
		len += g.units[i].cnt;
	}
	start[g.n] = len;
	for (u32 i = 0; i < g.n; i++) {
		struct unit *v = &g.units[i];
		u32 target = v->target < 0 ? 0 : (u32)v->target;

		if (v->target >= 0) {
			if (target <= i || target >= g.n)
				target = g.n - 1;
			v->insn[0].off = (s16)(start[target] - start[i] - 1);
		}
		memcpy(&insns[start[i]], v->insn, v->cnt * sizeof(*insns));
	}
	return len;
}

unsigned int bounds_gen_probe(struct bpf_insn *insns, unsigned int len, u8 cls, u8 op, u8 reg,
			      u64 k)
{
	const struct bpf_insn probe[BOUNDS_GEN_PROBE_INSNS] = {
		NB_LD_IMM64(BPF_REG_0, k),
		NB_INSN(cls | op | BPF_X, reg, BPF_REG_0, 1, 0),
		NB_JA(1),
		NB_ALU32_IMM(BPF_DIV, BPF_REG_0, 0),	/* the trap */
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_EXIT(),
	};

	memcpy(&insns[len], probe, sizeof(probe));
	return len + BOUNDS_GEN_PROBE_INSNS;
}
