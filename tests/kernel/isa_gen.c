// SPDX-License-Identifier: GPL-2.0
/* Random verifier-valid register and stack programs (isa_gen.h). */
#include <stddef.h>

#include "bpf_asm.h"
#include "isa_gen.h"

#define STACK_BYTES 64
#define CTX_SLOT    (-72)
#define MAX_UNITS   64
#define MAX_JUMPS   MAX_UNITS

static u64 next(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static u32 below(u64 *s, u32 n)
{
	return (u32)(next(s) % n);
}

static u64 value(u64 *s)
{
	static const u64 edges[] = {
		0, 1, 2, 0xffffffffffffffffull, 0x7fffffff, 0x80000000, 0xffffffff,
		0x100000000ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0xff, 0x80, 0xffff,
		0x8000, 63, 64, 31, 32,
	};

	if (below(s, 3) == 0)
		return edges[below(s, ARRAY_SIZE(edges))];
	if (below(s, 2))
		return next(s) >> below(s, 64);
	return next(s);
}

static s32 imm(u64 *s)
{
	return (s32)value(s);
}

static u8 reg(u64 *s)
{
	return (u8)below(s, 10);	/* r0..r9: never the frame pointer */
}

static const u8 size_codes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
static const u8 size_bytes[] = { 1, 2, 4, 8 };

/* An aligned stack offset for an access of bytes. */
static s16 stack_off(u64 *s, u32 bytes)
{
	return (s16)(-(s32)STACK_BYTES + (s32)(below(s, STACK_BYTES / bytes) * bytes));
}

static unsigned int alu(u64 *s, struct bpf_insn *p)
{
	static const u8 ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_OR, BPF_AND,
				  BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH, BPF_MOV };
	bool is64 = below(s, 2);
	u8 op = ops[below(s, ARRAY_SIZE(ops))], cls = is64 ? BPF_ALU64 : BPF_ALU;
	u8 dst = reg(s), src = reg(s);
	u32 width = is64 ? 64 : 32;
	bool shift = op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH;
	bool div = op == BPF_DIV || op == BPF_MOD;
	s16 off = div && below(s, 2) ? 1 : 0;	/* signed division and modulo */

	if (below(s, 2)) {
		s32 k = shift ? (s32)below(s, width) : imm(s);

		if (div && k == 0)
			k = -1;	/* the verifier refuses a division by the constant 0 */
		p[0] = NB_INSN(cls | op | BPF_K, dst, 0, off, k);
		return 1;
	}
	if (shift) {
		/* a shift by width or more is undefined: keep the amount below it */
		p[0] = NB_ALU64_IMM(BPF_AND, src, (s32)width - 1);
		p[1] = NB_INSN(cls | op | BPF_X, dst, src, 0, 0);
		return 2;
	}
	p[0] = NB_INSN(cls | op | BPF_X, dst, src, off, 0);
	return 1;
}

static unsigned int other(u64 *s, struct bpf_insn *p)
{
	static const s32 atomic_ops[] = {
		BPF_ADD, BPF_OR, BPF_AND, BPF_XOR, BPF_ADD | BPF_FETCH, BPF_OR | BPF_FETCH,
		BPF_AND | BPF_FETCH, BPF_XOR | BPF_FETCH, BPF_XCHG, BPF_CMPXCHG,
	};
	static const s32 end_bits[] = { 16, 32, 64 };
	u32 sz = below(s, 4);
	u8 dst = reg(s), src = reg(s);

	switch (below(s, 8)) {
	case 0:
		p[0] = below(s, 2) ? NB_NEG64(dst) : NB_NEG32(dst);
		return 1;
	case 1:
		if (below(s, 3) == 0)
			p[0] = NB_BSWAP(dst, end_bits[below(s, 3)]);
		else
			p[0] = NB_ENDIAN(below(s, 2) ? BPF_TO_BE : BPF_TO_LE, dst,
					 end_bits[below(s, 3)]);
		return 1;
	case 2:
		if (below(s, 2))
			p[0] = NB_MOVSX64_REG(dst, src, 8 << below(s, 3));
		else
			p[0] = NB_MOVSX32_REG(dst, src, 8 << below(s, 2));
		return 1;
	case 3:
		p[0] = NB_LDX_MEM(size_codes[sz], dst, BPF_REG_10, stack_off(s, size_bytes[sz]));
		return 1;
	case 4:
		sz = below(s, 3);
		p[0] = NB_LDX_MEMSX(size_codes[sz], dst, BPF_REG_10,
				    stack_off(s, size_bytes[sz]));
		return 1;
	case 5:
		p[0] = NB_STX_MEM(size_codes[sz], BPF_REG_10, src, stack_off(s, size_bytes[sz]));
		return 1;
	case 6:
		p[0] = NB_ST_MEM(size_codes[sz], BPF_REG_10, stack_off(s, size_bytes[sz]), imm(s));
		return 1;
	default:
		sz = 2 + below(s, 2);
		p[0] = NB_ATOMIC_OP(size_codes[sz], atomic_ops[below(s, ARRAY_SIZE(atomic_ops))],
				    BPF_REG_10, src, stack_off(s, size_bytes[sz]));
		return 1;
	}
}

unsigned int isa_gen_prog(u64 seed, struct bpf_insn *insns)
{
	static const u8 conds[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
				    BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET };
	unsigned int unit_start[MAX_UNITS + 1], units, n = 0, jump_at[MAX_JUMPS],
		     jump_to[MAX_JUMPS], jumps = 0;
	u64 s = seed * 0x2545f4914f6cdd1dull + 1;
	struct bpf_insn *p = insns;

	p[n++] = NB_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_1, CTX_SLOT);
	for (int slot = 1; slot <= STACK_BYTES / 8; slot++) {
		u64 v = value(&s);

		p[n++] = NB_INSN(BPF_LD | BPF_DW | BPF_IMM, 0, 0, 0, (s32)v);
		p[n++] = NB_INSN(0, 0, 0, 0, (s32)(v >> 32));
		p[n++] = NB_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_0, -8 * slot);
	}
	for (u8 r = 0; r < 10; r++) {
		u64 v = value(&s);

		p[n++] = NB_INSN(BPF_LD | BPF_DW | BPF_IMM, r, 0, 0, (s32)v);
		p[n++] = NB_INSN(0, 0, 0, 0, (s32)(v >> 32));
	}
	units = 16 + below(&s, MAX_UNITS - 16);
	for (unsigned int u = 0; u < units; u++) {
		unit_start[u] = n;
		switch (below(&s, 8)) {
		case 0:
		case 1:
		case 2:
			n += alu(&s, p + n);
			break;
		case 3:
		case 4:
			n += other(&s, p + n);
			break;
		default: {
			bool j32 = below(&s, 2), k = below(&s, 2);
			u8 cls = j32 ? BPF_JMP32 : BPF_JMP, op = conds[below(&s, ARRAY_SIZE(conds))];

			jump_at[jumps] = n;
			jump_to[jumps++] = u + 1 + below(&s, 5);
			if (k)
				p[n++] = NB_INSN(cls | op | BPF_K, reg(&s), 0, 0, imm(&s));
			else
				p[n++] = NB_INSN(cls | op | BPF_X, reg(&s), reg(&s), 0, 0);
			break;
		}
		}
	}
	unit_start[units] = n;
	for (unsigned int j = 0; j < jumps; j++) {
		unsigned int to = jump_to[j] > units ? units : jump_to[j];

		p[jump_at[j]].off = (s16)(unit_start[to] - jump_at[j] - 1);
	}
	/* fold the stack and the registers into r0 */
	for (int slot = 1; slot <= STACK_BYTES / 8; slot++) {
		p[n++] = NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8 * slot);
		p[n++] = NB_ALU64_IMM(BPF_MUL, BPF_REG_0, 31);
		p[n++] = NB_ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_1);
	}
	for (u8 r = 1; r < 10; r++) {
		p[n++] = NB_ALU64_IMM(BPF_MUL, BPF_REG_0, 131);
		p[n++] = NB_ALU64_REG(BPF_ADD, BPF_REG_0, r);
	}
	p[n++] = NB_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_10, CTX_SLOT);
	p[n++] = NB_MOV64_REG(BPF_REG_3, BPF_REG_0);
	p[n++] = NB_ALU64_IMM(BPF_RSH, BPF_REG_3, 32);
	p[n++] = NB_STX_MEM(BPF_W, BPF_REG_2, BPF_REG_3, offsetof(struct __sk_buff, cb[0]));
	p[n++] = NB_EXIT();
	return n;
}
