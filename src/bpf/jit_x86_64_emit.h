/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 instruction emitters for the JIT: one small function per machine instruction form, so
 * that the compiler's main switch reads like the BPF instruction set. Everything is written into
 * a growable byte buffer; the JIT copies the converged code into executable memory at the end.
 *
 * Encoding reminders: a REX prefix (0x40 | W<<3 | R<<2 | X<<1 | B) extends the ModRM reg (R) and
 * rm/base (B) fields to r8..r15 and selects 64-bit operands (W); byte operations on spl, bpl,
 * sil and dil need a REX prefix even when it is otherwise empty. A base of rsp/r12 needs a SIB
 * byte, a base of rbp/r13 has no disp-less form.
 */
#ifndef NB_BPF_JIT_X86_64_EMIT_H
#define NB_BPF_JIT_X86_64_EMIT_H

#include <stdlib.h>
#include <string.h>

#include "common/types.h"

enum x86_reg {
	RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI,
	R8, R9, R10, R11, R12, R13, R14, R15,
};

/* Operand flags of the emitters. */
#define X86_W64	 1U /* 64-bit operand size (REX.W) */
#define X86_BYTE 2U /* a byte register operand: force REX so 4..7 mean spl..dil */

/* Condition codes (the low nibble of jcc). */
enum x86_cc {
	CC_B = 0x2, CC_AE = 0x3, CC_E = 0x4, CC_NE = 0x5, CC_BE = 0x6, CC_A = 0x7,
	CC_S = 0x8, CC_NS = 0x9, CC_L = 0xc, CC_GE = 0xd, CC_LE = 0xe, CC_G = 0xf,
};

/* Group-1 ALU opcodes (op r/m, reg) and their /digit for the immediate forms. */
enum x86_alu {
	ALU_ADD = 0x01, ALU_OR = 0x09, ALU_AND = 0x21, ALU_SUB = 0x29, ALU_XOR = 0x31,
	ALU_CMP = 0x39, ALU_TEST = 0x85,
};

/* Shift group /digit. */
enum x86_shift { SH_ROR = 1, SH_SHL = 4, SH_SHR = 5, SH_SAR = 7 };

struct x86_buf {
	u8 *p;
	u32 len;
	u32 cap;
	bool nomem;
};

static inline void emit1(struct x86_buf *b, u8 v)
{
	if (unlikely(b->len >= b->cap)) {
		u32 cap = b->cap ? b->cap * 2 : 4096;
		u8 *p = b->nomem ? NULL : realloc(b->p, cap);

		if (!p) {
			/* Keep counting so the caller sees the size; the bytes are lost. */
			b->nomem = true;
			b->len++;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	b->p[b->len++] = v;
}

static inline void emit2(struct x86_buf *b, u16 v)
{
	emit1(b, v);
	emit1(b, v >> 8);
}

static inline void emit4(struct x86_buf *b, u32 v)
{
	emit2(b, v);
	emit2(b, v >> 16);
}

static inline void emit8(struct x86_buf *b, u64 v)
{
	emit4(b, v);
	emit4(b, v >> 32);
}

static inline bool is_s8(s64 v)
{
	return v >= -128 && v <= 127;
}

static inline bool is_s32(s64 v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

static inline void emit_rex(struct x86_buf *b, unsigned int flags, int reg, int rm)
{
	u8 rex = 0x40 | ((flags & X86_W64) ? 8 : 0) | ((reg & 8) ? 4 : 0) | ((rm & 8) ? 1 : 0);
	bool byte_reg = (flags & X86_BYTE) && ((reg >= 4 && reg < 8) || (rm >= 4 && rm < 8));

	if (rex != 0x40 || byte_reg)
		emit1(b, rex);
}

/* One-, two- or three-byte opcode, most significant byte first (0x0fb6: 0f b6). */
static inline void emit_opcode(struct x86_buf *b, u32 op)
{
	if (op > 0xffff)
		emit1(b, op >> 16);
	if (op > 0xff)
		emit1(b, op >> 8);
	emit1(b, op);
}

/* ModRM (and SIB, displacement) for [base + disp]. */
static inline void emit_mem(struct x86_buf *b, int reg, int base, s32 disp)
{
	u8 mod = disp == 0 && (base & 7) != RBP ? 0 : is_s8(disp) ? 1 : 2;

	emit1(b, mod << 6 | (reg & 7) << 3 | (base & 7));
	if ((base & 7) == RSP)
		emit1(b, 0x24); /* SIB: base only */
	if (mod == 1)
		emit1(b, (u8)disp);
	else if (mod == 2)
		emit4(b, disp);
}

/* op reg, rm (both registers). */
static inline void emit_rr(struct x86_buf *b, unsigned int flags, u32 op, int reg, int rm)
{
	emit_rex(b, flags, reg, rm);
	emit_opcode(b, op);
	emit1(b, 0xc0 | (reg & 7) << 3 | (rm & 7));
}

/* op reg, [base + disp]. */
static inline void emit_rm(struct x86_buf *b, unsigned int flags, u32 op, int reg, int base,
			   s32 disp)
{
	emit_rex(b, flags, reg, base);
	emit_opcode(b, op);
	emit_mem(b, reg, base, disp);
}

/* dst = src */
static inline void emit_mov(struct x86_buf *b, unsigned int w, int dst, int src)
{
	emit_rr(b, w, 0x89, src, dst);
}

/* dst op= src; also cmp and test */
static inline void emit_alu(struct x86_buf *b, unsigned int w, enum x86_alu op, int dst, int src)
{
	emit_rr(b, w, op, src, dst);
}

/* dst op= imm (sign-extended to 64 bits under X86_W64) */
static inline void emit_alu_imm(struct x86_buf *b, unsigned int w, enum x86_alu op, int dst,
				s32 imm)
{
	static const u8 digit[] = { [ALU_ADD] = 0, [ALU_OR] = 1, [ALU_AND] = 4, [ALU_SUB] = 5,
				    [ALU_XOR] = 6, [ALU_CMP] = 7 };

	if (op == ALU_TEST) {
		emit_rr(b, w, 0xf7, 0, dst);
		emit4(b, imm);
	} else if (is_s8(imm)) {
		emit_rr(b, w, 0x83, digit[op], dst);
		emit1(b, (u8)imm);
	} else {
		emit_rr(b, w, 0x81, digit[op], dst);
		emit4(b, imm);
	}
}

/* [base + disp] op= imm, 64- or 32-bit (sign-extended immediate) */
static inline void emit_alu_mem_imm(struct x86_buf *b, unsigned int w, enum x86_alu op, int base,
				    s32 disp, s32 imm)
{
	static const u8 digit[] = { [ALU_ADD] = 0, [ALU_OR] = 1, [ALU_AND] = 4, [ALU_SUB] = 5,
				    [ALU_XOR] = 6, [ALU_CMP] = 7 };

	if (is_s8(imm)) {
		emit_rm(b, w, 0x83, digit[op], base, disp);
		emit1(b, (u8)imm);
	} else {
		emit_rm(b, w, 0x81, digit[op], base, disp);
		emit4(b, imm);
	}
}

/* dst op= [base + disp] (add, sub, cmp: the reg, r/m forms) */
static inline void emit_alu_load(struct x86_buf *b, unsigned int w, enum x86_alu op, int dst,
				 int base, s32 disp)
{
	emit_rm(b, w, op + 2, dst, base, disp);
}

/* dst = imm, zero-extended (mov r32, imm32) */
static inline void emit_mov_imm32(struct x86_buf *b, int dst, u32 imm)
{
	emit_rex(b, 0, 0, dst);
	emit1(b, 0xb8 + (dst & 7));
	emit4(b, imm);
}

static inline void emit_zero(struct x86_buf *b, int dst);

/* dst = imm, the shortest encoding of a 64-bit value (flags are not kept across BPF insns) */
static inline void emit_mov_imm64(struct x86_buf *b, int dst, u64 imm)
{
	if (imm == 0) {
		emit_zero(b, dst);
	} else if (imm <= UINT32_MAX) {
		emit_mov_imm32(b, dst, imm);
	} else if (is_s32((s64)imm)) {
		emit_rr(b, X86_W64, 0xc7, 0, dst);
		emit4(b, (u32)imm);
	} else {
		emit_rex(b, X86_W64, 0, dst);
		emit1(b, 0xb8 + (dst & 7));
		emit8(b, imm);
	}
}

/* dst = 0 (32-bit xor clears the whole register) */
static inline void emit_zero(struct x86_buf *b, int dst)
{
	emit_alu(b, 0, ALU_XOR, dst, dst);
}

static inline void emit_shift_imm(struct x86_buf *b, unsigned int w, enum x86_shift op, int dst,
				  u8 imm)
{
	emit_rr(b, w, 0xc1, op, dst);
	emit1(b, imm);
}

/* dst <<= cl (and friends) */
static inline void emit_shift_cl(struct x86_buf *b, unsigned int w, enum x86_shift op, int dst)
{
	emit_rr(b, w, 0xd3, op, dst);
}

static inline void emit_imul(struct x86_buf *b, unsigned int w, int dst, int src)
{
	emit_rr(b, w, 0x0faf, dst, src);
}

static inline void emit_imul_imm(struct x86_buf *b, unsigned int w, int dst, s32 imm)
{
	if (is_s8(imm)) {
		emit_rr(b, w, 0x6b, dst, dst);
		emit1(b, (u8)imm);
	} else {
		emit_rr(b, w, 0x69, dst, dst);
		emit4(b, imm);
	}
}

static inline void emit_neg(struct x86_buf *b, unsigned int w, int dst)
{
	emit_rr(b, w, 0xf7, 3, dst);
}

/* rdx:rax / src: unsigned div (/6) or signed idiv (/7) */
static inline void emit_div(struct x86_buf *b, unsigned int w, bool sign, int src)
{
	emit_rr(b, w, 0xf7, sign ? 7 : 6, src);
}

/* Sign-extend rax into rdx (cqo) or eax into edx (cdq). */
static inline void emit_cqo(struct x86_buf *b, unsigned int w)
{
	if (w & X86_W64)
		emit1(b, 0x48);
	emit1(b, 0x99);
}

static inline void emit_bswap(struct x86_buf *b, unsigned int w, int dst)
{
	emit_rex(b, w, 0, dst);
	emit1(b, 0x0f);
	emit1(b, 0xc8 + (dst & 7));
}

/* Rotate the low 16 bits by 8: the 16-bit byte swap. */
static inline void emit_ror16_8(struct x86_buf *b, int dst)
{
	emit1(b, 0x66);
	emit_shift_imm(b, 0, SH_ROR, dst, 8);
}

/* dst = (u16)src, zero-extended to 64 bits */
static inline void emit_movzx16(struct x86_buf *b, int dst, int src)
{
	emit_rr(b, 0, 0x0fb7, dst, src);
}

/* dst = sign-extended low bits of src (8, 16, 32) into 32 or 64 bits */
static inline void emit_movsx(struct x86_buf *b, unsigned int w, int bits, int dst, int src)
{
	if (bits == 8)
		emit_rr(b, w | X86_BYTE, 0x0fbe, dst, src);
	else if (bits == 16)
		emit_rr(b, w, 0x0fbf, dst, src);
	else
		emit_rr(b, X86_W64, 0x63, dst, src);
}

/* dst = *(size *)(base + off), zero-extended */
static inline void emit_load(struct x86_buf *b, u32 size, int dst, int base, s32 off)
{
	switch (size) {
	case 1:
		emit_rm(b, 0, 0x0fb6, dst, base, off);
		break;
	case 2:
		emit_rm(b, 0, 0x0fb7, dst, base, off);
		break;
	case 4:
		emit_rm(b, 0, 0x8b, dst, base, off);
		break;
	default:
		emit_rm(b, X86_W64, 0x8b, dst, base, off);
		break;
	}
}

/* dst = *(size *)(base + off), sign-extended to 64 bits */
static inline void emit_load_sx(struct x86_buf *b, u32 size, int dst, int base, s32 off)
{
	switch (size) {
	case 1:
		emit_rm(b, X86_W64, 0x0fbe, dst, base, off);
		break;
	case 2:
		emit_rm(b, X86_W64, 0x0fbf, dst, base, off);
		break;
	default:
		emit_rm(b, X86_W64, 0x63, dst, base, off);
		break;
	}
}

/* *(size *)(base + off) = src */
static inline void emit_store(struct x86_buf *b, u32 size, int base, s32 off, int src)
{
	switch (size) {
	case 1:
		emit_rm(b, X86_BYTE, 0x88, src, base, off);
		break;
	case 2:
		emit1(b, 0x66);
		emit_rm(b, 0, 0x89, src, base, off);
		break;
	case 4:
		emit_rm(b, 0, 0x89, src, base, off);
		break;
	default:
		emit_rm(b, X86_W64, 0x89, src, base, off);
		break;
	}
}

/* *(size *)(base + off) = imm (8 bytes: sign-extended) */
static inline void emit_store_imm(struct x86_buf *b, u32 size, int base, s32 off, s32 imm)
{
	switch (size) {
	case 1:
		emit_rm(b, 0, 0xc6, 0, base, off);
		emit1(b, (u8)imm);
		break;
	case 2:
		emit1(b, 0x66);
		emit_rm(b, 0, 0xc7, 0, base, off);
		emit2(b, (u16)imm);
		break;
	case 4:
		emit_rm(b, 0, 0xc7, 0, base, off);
		emit4(b, imm);
		break;
	default:
		emit_rm(b, X86_W64, 0xc7, 0, base, off);
		emit4(b, imm);
		break;
	}
}

/* dst = base + disp */
static inline void emit_lea(struct x86_buf *b, int dst, int base, s32 disp)
{
	emit_rm(b, X86_W64, 0x8d, dst, base, disp);
}

/* dst = address of a point in the code (rip-relative lea) */
static inline void emit_lea_rip(struct x86_buf *b, int dst, u32 target)
{
	emit_rex(b, X86_W64, dst, 0);
	emit1(b, 0x8d);
	emit1(b, (dst & 7) << 3 | 5);
	emit4(b, target - (b->len + 4));
}

/*
 * Atomic read-modify-write on [base + off], size 4 or 8: lock add/or/and/xor, lock xadd, xchg
 * (implicitly locked) and lock cmpxchg.
 */
static inline void emit_lock_alu(struct x86_buf *b, u32 size, enum x86_alu op, int base, s32 off,
				 int src)
{
	emit1(b, 0xf0);
	emit_rm(b, size == 8 ? X86_W64 : 0, op, src, base, off);
}

static inline void emit_lock_xadd(struct x86_buf *b, u32 size, int base, s32 off, int src)
{
	emit1(b, 0xf0);
	emit_rm(b, size == 8 ? X86_W64 : 0, 0x0fc1, src, base, off);
}

static inline void emit_xchg(struct x86_buf *b, u32 size, int base, s32 off, int src)
{
	emit_rm(b, size == 8 ? X86_W64 : 0, 0x87, src, base, off);
}

static inline void emit_lock_cmpxchg(struct x86_buf *b, u32 size, int base, s32 off, int src)
{
	emit1(b, 0xf0);
	emit_rm(b, size == 8 ? X86_W64 : 0, 0x0fb1, src, base, off);
}

/* test byte reg, imm8 */
static inline void emit_test8_imm(struct x86_buf *b, int reg, u8 imm)
{
	emit_rr(b, X86_BYTE, 0xf6, 0, reg);
	emit1(b, imm);
}

static inline void emit_push(struct x86_buf *b, int reg)
{
	emit_rex(b, 0, 0, reg);
	emit1(b, 0x50 + (reg & 7));
}

static inline void emit_pop(struct x86_buf *b, int reg)
{
	emit_rex(b, 0, 0, reg);
	emit1(b, 0x58 + (reg & 7));
}

static inline void emit_ret(struct x86_buf *b)
{
	emit1(b, 0xc3);
}

/* call an absolute address through r11 (the image may be far from the helpers) */
static inline void emit_call_abs(struct x86_buf *b, const void *fn)
{
	emit_mov_imm64(b, R11, (u64)(uintptr_t)fn);
	emit_rr(b, 0, 0xff, 2, R11);
}

/* call to an offset in the image */
static inline void emit_call_rel(struct x86_buf *b, u32 target)
{
	emit1(b, 0xe8);
	emit4(b, target - (b->len + 4));
}

static inline void emit_jmp_reg(struct x86_buf *b, int reg)
{
	emit_rr(b, 0, 0xff, 4, reg);
}

/* Jumps to a known offset in the image with a 32-bit displacement. */
static inline void emit_jmp32(struct x86_buf *b, u32 target)
{
	emit1(b, 0xe9);
	emit4(b, target - (b->len + 4));
}

static inline void emit_jcc32(struct x86_buf *b, enum x86_cc cc, u32 target)
{
	emit1(b, 0x0f);
	emit1(b, 0x80 | cc);
	emit4(b, target - (b->len + 4));
}

/*
 * Short forward jumps inside one instruction's code: emit with a placeholder, then bind the
 * label where the code continues.
 */
static inline u32 emit_jcc8_fwd(struct x86_buf *b, enum x86_cc cc)
{
	emit1(b, 0x70 | cc);
	emit1(b, 0);
	return b->len;
}

static inline u32 emit_jmp8_fwd(struct x86_buf *b)
{
	emit1(b, 0xeb);
	emit1(b, 0);
	return b->len;
}

static inline void bind8(struct x86_buf *b, u32 label)
{
	if (!b->nomem)
		b->p[label - 1] = (u8)(b->len - label);
}

/* Backward short jump to an earlier point of the same instruction's code. */
static inline void emit_jcc8_back(struct x86_buf *b, enum x86_cc cc, u32 target)
{
	emit1(b, 0x70 | cc);
	emit1(b, (u8)(target - (b->len + 1)));
}

/* mov dst32, fs:[disp]: a thread-local u32 at a fixed offset from the thread pointer. */
static inline void emit_load_fs32(struct x86_buf *b, int dst, s32 disp)
{
	emit1(b, 0x64);
	emit_rex(b, 0, dst, 0);
	emit1(b, 0x8b);
	emit1(b, (dst & 7) << 3 | 4);	/* ModRM: mod 00, rm = SIB */
	emit1(b, 0x25);			/* SIB: no base, no index: disp32 */
	emit4(b, disp);
}

#endif /* NB_BPF_JIT_X86_64_EMIT_H */
