// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction-set case table (see isa_cases.h). Every expected value here is worked out by
 * hand from RFC 9669 and the kernel's definitions, never taken from an engine's output:
 * - ALU64 immediates are sign-extended to 64 bits; ALU results are the low 32 bits,
 *   zero-extended, and ALU reads only the low 32 bits of its operands. To show that, 32-bit
 *   cases start with garbage in the upper halves (DST_HI, SRC_HI).
 * - shift amounts are masked to 63 (ALU64) or 31 (ALU) for register shifts; immediate shifts
 *   stay within the width, as the kernel's verifier demands.
 * - x / 0 = 0, x % 0 = x (ALU: the low half, zero-extended); signed INT_MIN / -1 = INT_MIN,
 *   INT_MIN % -1 = 0; signed division truncates toward zero, the remainder takes the sign of
 *   the dividend.
 * - jump conditions compare 64 bits (JMP, immediate sign-extended) or the low 32 (JMP32).
 * Jump cases return 2 when the branch is taken and 1 when it is not.
 */
#include "bpf_asm.h"
#include "isa_cases.h"

/*
 * The builders yield compound literals, which C does not accept as elements of a file-scope
 * array; here they yield plain braced initialisers instead (every other builder expands through
 * NB_INSN, so they all follow).
 */
#undef NB_INSN
#define NB_INSN(c, d, s, o, i) { .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }

#define DST_HI 0xdeadbeef00000000ULL
#define SRC_HI 0x5a5a5a5a00000000ULL

#define INSN_ARRAY(...) ((const struct bpf_insn[]){ __VA_ARGS__ })
#define INSNS(...)                                                                          \
	.insns = INSN_ARRAY(__VA_ARGS__),                                                   \
	.insn_cnt = sizeof(INSN_ARRAY(__VA_ARGS__)) / sizeof(struct bpf_insn)

/* Kernel-expressible case; interpreter-only case; case over a memory block. */
#define KCASE(n, exp, ...) { .name = n, .expected = (exp), .kernel = true, INSNS(__VA_ARGS__) }
#define ICASE(n, exp, ...) { .name = n, .expected = (exp), .kernel = false, INSNS(__VA_ARGS__) }
#define MCASE(n, m, exp, ...)                                                               \
	{ .name = n, .expected = (exp), .kernel = false, .mem = (const unsigned char *)(m),   \
	  .mem_len = sizeof(m) - 1, INSNS(__VA_ARGS__) }

/* ALU64: r0 = a; r0 op= imm | r0 op= r1 (r1 = b). */
#define ALU64K(n, op, a, imm, exp)                                                          \
	KCASE(n, exp, NB_LD_IMM64(0, a), NB_ALU64_IMM(op, 0, imm), NB_EXIT())
#define ALU64X(n, op, a, b, exp)                                                            \
	KCASE(n, exp, NB_LD_IMM64(0, a), NB_LD_IMM64(1, b), NB_ALU64_REG(op, 0, 1), NB_EXIT())
#define SALU64K(n, op, a, imm, exp)                                                         \
	KCASE(n, exp, NB_LD_IMM64(0, a), NB_ALU64_SIMM(op, 0, imm), NB_EXIT())
#define SALU64X(n, op, a, b, exp)                                                           \
	KCASE(n, exp, NB_LD_IMM64(0, a), NB_LD_IMM64(1, b), NB_ALU64_SREG(op, 0, 1), NB_EXIT())
/* ALU: the same on the low halves, with garbage above them. */
#define ALU32K(n, op, a, imm, exp)                                                          \
	KCASE(n, exp, NB_LD_IMM64(0, DST_HI | (__u32)(a)), NB_ALU32_IMM(op, 0, imm), NB_EXIT())
#define ALU32X(n, op, a, b, exp)                                                            \
	KCASE(n, exp, NB_LD_IMM64(0, DST_HI | (__u32)(a)), NB_LD_IMM64(1, SRC_HI | (__u32)(b)), \
	      NB_ALU32_REG(op, 0, 1), NB_EXIT())
#define SALU32K(n, op, a, imm, exp)                                                         \
	KCASE(n, exp, NB_LD_IMM64(0, DST_HI | (__u32)(a)), NB_ALU32_SIMM(op, 0, imm), NB_EXIT())
#define SALU32X(n, op, a, b, exp)                                                           \
	KCASE(n, exp, NB_LD_IMM64(0, DST_HI | (__u32)(a)), NB_LD_IMM64(1, SRC_HI | (__u32)(b)), \
	      NB_ALU32_SREG(op, 0, 1), NB_EXIT())
#define NEG64(n, a, exp) KCASE(n, exp, NB_LD_IMM64(0, a), NB_NEG64(0), NB_EXIT())
#define NEG32(n, a, exp) KCASE(n, exp, NB_LD_IMM64(0, DST_HI | (__u32)(a)), NB_NEG32(0), NB_EXIT())
#define MOVSX64(n, bits, a, exp)                                                            \
	KCASE(n, exp, NB_LD_IMM64(1, a), NB_MOVSX64_REG(0, 1, bits), NB_EXIT())
#define MOVSX32(n, bits, a, exp)                                                            \
	KCASE(n, exp, NB_LD_IMM64(0, DST_HI), NB_LD_IMM64(1, a), NB_MOVSX32_REG(0, 1, bits),  \
	      NB_EXIT())
#define END(n, insn, a, exp) KCASE(n, exp, NB_LD_IMM64(0, a), insn, NB_EXIT())

/* Conditional jumps on r1 (= a) against imm or r2 (= b): 2 when taken, 1 when not. */
#define JCASE(n, taken, jmp, ...)                                                           \
	KCASE(n, (taken) ? 2 : 1, __VA_ARGS__, NB_MOV64_IMM(0, 1), jmp, NB_EXIT(),          \
	      NB_MOV64_IMM(0, 2), NB_EXIT())
#define JK(n, op, a, imm, t)	JCASE(n, t, NB_JMP_IMM(op, 1, imm, 1), NB_LD_IMM64(1, a))
#define JX(n, op, a, b, t)                                                                  \
	JCASE(n, t, NB_JMP_REG(op, 1, 2, 1), NB_LD_IMM64(1, a), NB_LD_IMM64(2, b))
#define J32K(n, op, a, imm, t)	JCASE(n, t, NB_JMP32_IMM(op, 1, imm, 1), NB_LD_IMM64(1, a))
#define J32X(n, op, a, b, t)                                                                \
	JCASE(n, t, NB_JMP32_REG(op, 1, 2, 1), NB_LD_IMM64(1, a), NB_LD_IMM64(2, b))

/* Stack: store r1 = v with size sz at r10 + off, load it back with size lsz at loff. */
#define STACK(n, sz, off, v, lsz, loff, exp)                                                \
	KCASE(n, exp, NB_LD_IMM64(1, v), NB_STX_MEM(sz, 10, 1, off),                        \
	      NB_LDX_MEM(lsz, 0, 10, loff), NB_EXIT())
#define STIMM(n, sz, off, imm, exp)                                                         \
	KCASE(n, exp, NB_ST_MEM(sz, 10, off, imm), NB_LDX_MEM(sz, 0, 10, off), NB_EXIT())
#define LDSX(n, sz, off, imm, exp)                                                          \
	KCASE(n, exp, NB_ST_MEM(sz, 10, off, imm), NB_LDX_MEMSX(sz, 0, 10, off), NB_EXIT())

/*
 * Atomics on the stack slot r10 - 8, which holds m; r2 = s (for 32-bit forms with garbage in
 * its upper half). _MEM cases return the whole 8-byte slot after the operation (for 32-bit forms
 * its upper half must be untouched), _SRC cases r2 after it (fetched value or unchanged).
 */
#define ATOMIC(n, sz, op, m, s, ret, exp)                                                   \
	KCASE(n, exp, NB_LD_IMM64(1, m), NB_STX_MEM(BPF_DW, 10, 1, -8), NB_LD_IMM64(2, s),    \
	      NB_ATOMIC_OP(sz, op, 10, 2, -8), ret, NB_EXIT())
#define ATOMIC_MEM(n, sz, op, m, s, exp)                                                    \
	ATOMIC(n, sz, op, m, s, NB_LDX_MEM(BPF_DW, 0, 10, -8), exp)
#define ATOMIC_SRC(n, sz, op, m, s, exp) ATOMIC(n, sz, op, m, s, NB_MOV64_REG(0, 2), exp)
/* cmpxchg: r0 = expected before; returns r0 after (_R0) or the slot (_MEM). */
#define CMPXCHG(n, sz, m, r0, s, ret, exp)                                                  \
	KCASE(n, exp, NB_LD_IMM64(1, m), NB_STX_MEM(BPF_DW, 10, 1, -8), NB_LD_IMM64(2, s),    \
	      NB_LD_IMM64(0, r0), NB_ATOMIC_OP(sz, BPF_CMPXCHG, 10, 2, -8), ret, NB_EXIT())
#define CMPXCHG_R0(n, sz, m, r0, s, exp) CMPXCHG(n, sz, m, r0, s, NB_MOV64_REG(0, 0), exp)
#define CMPXCHG_MEM(n, sz, m, r0, s, exp)                                                   \
	CMPXCHG(n, sz, m, r0, s, NB_LDX_MEM(BPF_DW, 0, 10, -8), exp)

/* Upper half of the 8-byte slot next to a 32-bit atomic's word. */
#define NEIGHBOUR 0xa5a5a5a500000000ULL

/*
 * Call chains: frame i sets r6 = i + 1, calls the next frame, adds its r6 (which the callee
 * overwrote) to r0. The last frame returns 100. With k calls: 100 + k(k+1)/2.
 */
#define FRAME(i) NB_MOV64_IMM(6, (i) + 1), NB_CALL_REL(2), NB_ALU64_REG(BPF_ADD, 0, 6), NB_EXIT()
#define LEAF	 NB_MOV64_IMM(6, 77), NB_MOV64_IMM(0, 100), NB_EXIT()

const struct isa_case isa_cases[] = {
	/* ---- ALU64 ---- */
	ALU64K("add64_k", BPF_ADD, 1, 2, 3),
	ALU64K("add64_k_neg_imm", BPF_ADD, 0x100000000ULL, -1, 0xffffffffULL),
	ALU64X("add64_x_overflow", BPF_ADD, 0x7fffffffffffffffULL, 1, 0x8000000000000000ULL),
	ALU64X("add64_x_wrap", BPF_ADD, 0xffffffffffffffffULL, 1, 0),
	ALU64X("add64_x_carry32", BPF_ADD, 0xffffffffULL, 1, 0x100000000ULL),
	ALU64K("sub64_k", BPF_SUB, 10, 3, 7),
	ALU64K("sub64_k_neg_imm", BPF_SUB, 0, -1, 1),
	ALU64X("sub64_x_wrap", BPF_SUB, 0, 1, 0xffffffffffffffffULL),
	ALU64X("sub64_x_min", BPF_SUB, 0x8000000000000000ULL, 1, 0x7fffffffffffffffULL),
	ALU64K("mul64_k", BPF_MUL, 6, 7, 42),
	ALU64K("mul64_k_neg_imm", BPF_MUL, 3, -2, 0xfffffffffffffffaULL),
	ALU64X("mul64_x_overflow", BPF_MUL, 0x100000000ULL, 0x100000000ULL, 0),
	ALU64X("mul64_x_minus1_squared", BPF_MUL, 0xffffffffffffffffULL, 0xffffffffffffffffULL, 1),
	ALU64X("mul64_x", BPF_MUL, 0x123456789ULL, 0x10, 0x1234567890ULL),
	ALU64K("div64_k", BPF_DIV, 100, 7, 14),
	ALU64K("div64_k_neg_imm", BPF_DIV, 0xffffffffffffffffULL, -1, 1),
	ALU64K("div64_k_neg_imm_less", BPF_DIV, 0xfffffffffffffffeULL, -1, 0),
	ALU64X("div64_x_unsigned", BPF_DIV, 0xffffffffffffffffULL, 2, 0x7fffffffffffffffULL),
	ALU64X("div64_x_zero", BPF_DIV, 12345, 0, 0),
	ALU64X("div64_x_big", BPF_DIV, 0x8000000000000000ULL, 0x100000000ULL, 0x80000000ULL),
	ALU64K("mod64_k", BPF_MOD, 100, 7, 2),
	ALU64X("mod64_x_unsigned", BPF_MOD, 0xffffffffffffffffULL, 10, 5),
	ALU64X("mod64_x_zero", BPF_MOD, 0x1234567890ULL, 0, 0x1234567890ULL),
	ALU64X("mod64_x_zero_all_ones", BPF_MOD, 0xffffffffffffffffULL, 0, 0xffffffffffffffffULL),
	ALU64K("mod64_k_neg_imm", BPF_MOD, 0x10, -1, 0x10),
	ALU64X("mod64_x_big", BPF_MOD, 0x8000000000000001ULL, 0x100000000ULL, 1),
	ALU64K("or64_k", BPF_OR, 0xf0, 0x0f, 0xff),
	ALU64K("or64_k_neg_imm", BPF_OR, 0, -2, 0xfffffffffffffffeULL),
	ALU64X("or64_x", BPF_OR, 0xff00000000000000ULL, 0xff, 0xff000000000000ffULL),
	ALU64K("and64_k", BPF_AND, 0x1234, 0xff, 0x34),
	ALU64K("and64_k_neg_imm", BPF_AND, 0x123456789abcdef7ULL, -16, 0x123456789abcdef0ULL),
	ALU64K("and64_k_clears_high", BPF_AND, 0xffffffffffffffffULL, 0x7fffffff, 0x7fffffffULL),
	ALU64X("and64_x", BPF_AND, 0xf0f0f0f0f0f0f0f0ULL, 0x3c3c3c3c3c3c3c3cULL,
	       0x3030303030303030ULL),
	ALU64K("xor64_k", BPF_XOR, 0xff, 0x0f, 0xf0),
	ALU64K("xor64_k_neg_imm", BPF_XOR, 5, -1, 0xfffffffffffffffaULL),
	ALU64X("xor64_x_same", BPF_XOR, 0x123456789abcdef0ULL, 0x123456789abcdef0ULL, 0),
	ALU64X("xor64_x", BPF_XOR, 0x8000000000000000ULL, 1, 0x8000000000000001ULL),
	ALU64K("lsh64_k_0", BPF_LSH, 0x1234, 0, 0x1234),
	ALU64K("lsh64_k_1", BPF_LSH, 0x8000000000000001ULL, 1, 2),
	ALU64K("lsh64_k_31", BPF_LSH, 1, 31, 0x80000000ULL),
	ALU64K("lsh64_k_32", BPF_LSH, 1, 32, 0x100000000ULL),
	ALU64K("lsh64_k_63", BPF_LSH, 3, 63, 0x8000000000000000ULL),
	ALU64X("lsh64_x_63", BPF_LSH, 1, 63, 0x8000000000000000ULL),
	ALU64X("lsh64_x_64_masked", BPF_LSH, 0x1234, 64, 0x1234),
	ALU64X("lsh64_x_65_masked", BPF_LSH, 0x1234, 65, 0x2468),
	ALU64X("lsh64_x_minus1_masked", BPF_LSH, 1, 0xffffffffffffffffULL, 0x8000000000000000ULL),
	ALU64K("rsh64_k_0", BPF_RSH, 0x8000000000000000ULL, 0, 0x8000000000000000ULL),
	ALU64K("rsh64_k_31", BPF_RSH, 0x8000000000000000ULL, 31, 0x100000000ULL),
	ALU64K("rsh64_k_32", BPF_RSH, 0xffffffff00000000ULL, 32, 0xffffffffULL),
	ALU64K("rsh64_k_63", BPF_RSH, 0x8000000000000000ULL, 63, 1),
	ALU64X("rsh64_x_64_masked", BPF_RSH, 0x80, 64, 0x80),
	ALU64X("rsh64_x_minus1_masked", BPF_RSH, 0xffffffffffffffffULL, 0xffffffffffffffffULL, 1),
	ALU64K("arsh64_k_0", BPF_ARSH, 0x8000000000000000ULL, 0, 0x8000000000000000ULL),
	ALU64K("arsh64_k_1", BPF_ARSH, 0x8000000000000000ULL, 1, 0xc000000000000000ULL),
	ALU64K("arsh64_k_31", BPF_ARSH, 0x8000000000000000ULL, 31, 0xffffffff00000000ULL),
	ALU64K("arsh64_k_32", BPF_ARSH, 0x8000000000000000ULL, 32, 0xffffffff80000000ULL),
	ALU64K("arsh64_k_63", BPF_ARSH, 0x8000000000000000ULL, 63, 0xffffffffffffffffULL),
	ALU64K("arsh64_k_63_positive", BPF_ARSH, 0x7fffffffffffffffULL, 63, 0),
	ALU64X("arsh64_x_64_masked", BPF_ARSH, 0xfffffffffffffff0ULL, 64, 0xfffffffffffffff0ULL),
	ALU64X("arsh64_x_65_masked", BPF_ARSH, 0xfffffffffffffff0ULL, 65, 0xfffffffffffffff8ULL),
	ALU64K("mov64_k", BPF_MOV, 0xdeadbeefdeadbeefULL, 42, 42),
	ALU64K("mov64_k_neg", BPF_MOV, 0, -1, 0xffffffffffffffffULL),
	ALU64K("mov64_k_int_min", BPF_MOV, 0, (__s32)0x80000000, 0xffffffff80000000ULL),
	ALU64X("mov64_x", BPF_MOV, 0, 0x1122334455667788ULL, 0x1122334455667788ULL),
	NEG64("neg64_zero", 0, 0),
	NEG64("neg64_one", 1, 0xffffffffffffffffULL),
	NEG64("neg64_int_min", 0x8000000000000000ULL, 0x8000000000000000ULL),
	NEG64("neg64_minus5", 0xfffffffffffffffbULL, 5),

	/* ---- ALU (32-bit), dst upper half DST_HI, src upper half SRC_HI ---- */
	ALU32K("add32_k", BPF_ADD, 1, 2, 3),
	ALU32K("add32_k_wrap", BPF_ADD, 0xffffffff, 1, 0),
	ALU32K("add32_k_neg_imm", BPF_ADD, 5, -1, 4),
	ALU32X("add32_x_overflow", BPF_ADD, 0x7fffffff, 1, 0x80000000ULL),
	ALU32K("sub32_k", BPF_SUB, 10, 3, 7),
	ALU32X("sub32_x_wrap", BPF_SUB, 0, 1, 0xffffffffULL),
	ALU32X("sub32_x_int_min", BPF_SUB, 0x80000000, 1, 0x7fffffffULL),
	ALU32K("mul32_k", BPF_MUL, 6, 7, 42),
	ALU32K("mul32_k_neg_imm", BPF_MUL, 3, -2, 0xfffffffaULL),
	ALU32X("mul32_x_overflow", BPF_MUL, 0x10000, 0x10000, 0),
	ALU32X("mul32_x", BPF_MUL, 0x12345, 0x10, 0x123450),
	ALU32X("mul32_x_minus1_squared", BPF_MUL, 0xffffffff, 0xffffffff, 1),
	ALU32K("div32_k", BPF_DIV, 100, 7, 14),
	ALU32K("div32_k_neg_imm", BPF_DIV, 0xffffffff, -1, 1),
	ALU32K("div32_k_neg_imm_less", BPF_DIV, 0xfffffffe, -1, 0),
	ALU32X("div32_x_unsigned", BPF_DIV, 0xffffffff, 2, 0x7fffffffULL),
	ALU32X("div32_x_zero", BPF_DIV, 12345, 0, 0),
	ALU32X("div32_x_upper_ignored", BPF_DIV, 100, 3, 33),
	ALU32K("mod32_k", BPF_MOD, 100, 7, 2),
	ALU32X("mod32_x_unsigned", BPF_MOD, 0xffffffff, 10, 5),
	ALU32X("mod32_x_zero", BPF_MOD, 0x12345678, 0, 0x12345678ULL),
	ALU32K("mod32_k_neg_imm", BPF_MOD, 0x10, -1, 0x10),
	ALU32K("or32_k", BPF_OR, 0xf0, 0x0f, 0xff),
	ALU32K("or32_k_neg_imm", BPF_OR, 0, -2, 0xfffffffeULL),
	ALU32X("or32_x", BPF_OR, 0xff000000, 0xff, 0xff0000ffULL),
	ALU32K("and32_k", BPF_AND, 0x1234, 0xff, 0x34),
	ALU32K("and32_k_neg_imm", BPF_AND, 0x12345678, -16, 0x12345670ULL),
	ALU32X("and32_x", BPF_AND, 0xf0f0f0f0, 0x3c3c3c3c, 0x30303030ULL),
	ALU32K("xor32_k", BPF_XOR, 0xff, 0x0f, 0xf0),
	ALU32K("xor32_k_neg_imm", BPF_XOR, 5, -1, 0xfffffffaULL),
	ALU32X("xor32_x", BPF_XOR, 0x80000000, 1, 0x80000001ULL),
	ALU32K("lsh32_k_0", BPF_LSH, 0x1234, 0, 0x1234),
	ALU32K("lsh32_k_1", BPF_LSH, 0x80000001, 1, 2),
	ALU32K("lsh32_k_31", BPF_LSH, 3, 31, 0x80000000ULL),
	ALU32X("lsh32_x_31", BPF_LSH, 1, 31, 0x80000000ULL),
	ALU32X("lsh32_x_32_masked", BPF_LSH, 0x1234, 32, 0x1234),
	ALU32X("lsh32_x_33_masked", BPF_LSH, 0x1234, 33, 0x2468),
	ALU32X("lsh32_x_63_masked", BPF_LSH, 1, 63, 0x80000000ULL),
	ALU32K("rsh32_k_0", BPF_RSH, 0x80000000, 0, 0x80000000ULL),
	ALU32K("rsh32_k_16", BPF_RSH, 0xffff0000, 16, 0xffff),
	ALU32K("rsh32_k_31", BPF_RSH, 0x80000000, 31, 1),
	ALU32K("rsh32_k_upper_not_shifted_in", BPF_RSH, 0, 1, 0),
	ALU32X("rsh32_x_32_masked", BPF_RSH, 0x80, 32, 0x80),
	ALU32X("rsh32_x_minus1_masked", BPF_RSH, 0xffffffff, 0xffffffff, 1),
	ALU32K("arsh32_k_0", BPF_ARSH, 0x80000000, 0, 0x80000000ULL),
	ALU32K("arsh32_k_1", BPF_ARSH, 0x80000000, 1, 0xc0000000ULL),
	ALU32K("arsh32_k_31", BPF_ARSH, 0x80000000, 31, 0xffffffffULL),
	ALU32K("arsh32_k_31_positive", BPF_ARSH, 0x7fffffff, 31, 0),
	ALU32X("arsh32_x_32_masked", BPF_ARSH, 0xfffffff0, 32, 0xfffffff0ULL),
	ALU32X("arsh32_x_33_masked", BPF_ARSH, 0xfffffff0, 33, 0xfffffff8ULL),
	ALU32K("mov32_k", BPF_MOV, 0, 42, 42),
	ALU32K("mov32_k_neg", BPF_MOV, 0, -1, 0xffffffffULL),
	ALU32X("mov32_x", BPF_MOV, 0, 0x87654321, 0x87654321ULL),
	NEG32("neg32_zero", 0, 0),
	NEG32("neg32_one", 1, 0xffffffffULL),
	NEG32("neg32_int_min", 0x80000000, 0x80000000ULL),
	NEG32("neg32_five", 5, 0xfffffffbULL),

	/* ---- signed division and modulo (cpu v4) ---- */
	SALU64K("sdiv64_k", BPF_DIV, (__u64)-7, 2, (__u64)-3),
	SALU64K("sdiv64_k_neg_imm", BPF_DIV, 7, -2, (__u64)-3),
	SALU64X("sdiv64_x_both_neg", BPF_DIV, (__u64)-7, (__u64)-2, 3),
	SALU64X("sdiv64_x", BPF_DIV, 100, 7, 14),
	SALU64X("sdiv64_x_int_min_by_minus1", BPF_DIV, 0x8000000000000000ULL, (__u64)-1,
		0x8000000000000000ULL),
	SALU64K("sdiv64_k_int_min_by_minus1", BPF_DIV, 0x8000000000000000ULL, -1,
		0x8000000000000000ULL),
	SALU64X("sdiv64_x_zero", BPF_DIV, (__u64)-5, 0, 0),
	SALU64X("sdiv64_x_by_minus1", BPF_DIV, 5, (__u64)-1, (__u64)-5),
	SALU64X("sdiv64_x_int_min_by_2", BPF_DIV, 0x8000000000000000ULL, 2, 0xc000000000000000ULL),
	SALU64K("smod64_k", BPF_MOD, (__u64)-7, 2, (__u64)-1),
	SALU64K("smod64_k_neg_imm", BPF_MOD, 7, -2, 1),
	SALU64X("smod64_x_both_neg", BPF_MOD, (__u64)-7, (__u64)-2, (__u64)-1),
	SALU64X("smod64_x_int_min_by_minus1", BPF_MOD, 0x8000000000000000ULL, (__u64)-1, 0),
	SALU64K("smod64_k_int_min_by_minus1", BPF_MOD, 0x8000000000000000ULL, -1, 0),
	SALU64X("smod64_x_zero", BPF_MOD, (__u64)-5, 0, (__u64)-5),
	SALU64X("smod64_x", BPF_MOD, 100, 7, 2),
	SALU64X("smod64_x_by_minus1", BPF_MOD, 5, (__u64)-1, 0),
	SALU32K("sdiv32_k", BPF_DIV, (__u32)-7, 2, 0xfffffffdULL),
	SALU32K("sdiv32_k_neg_imm", BPF_DIV, 7, -2, 0xfffffffdULL),
	SALU32X("sdiv32_x_both_neg", BPF_DIV, (__u32)-7, (__u32)-2, 3),
	SALU32X("sdiv32_x_int_min_by_minus1", BPF_DIV, 0x80000000, 0xffffffff, 0x80000000ULL),
	SALU32K("sdiv32_k_int_min_by_minus1", BPF_DIV, 0x80000000, -1, 0x80000000ULL),
	SALU32X("sdiv32_x_zero", BPF_DIV, (__u32)-5, 0, 0),
	SALU32X("sdiv32_x_by_minus1", BPF_DIV, 5, 0xffffffff, 0xfffffffbULL),
	SALU32K("smod32_k", BPF_MOD, (__u32)-7, 2, 0xffffffffULL),
	SALU32K("smod32_k_neg_imm", BPF_MOD, 7, -2, 1),
	SALU32X("smod32_x_both_neg", BPF_MOD, (__u32)-7, (__u32)-2, 0xffffffffULL),
	SALU32X("smod32_x_int_min_by_minus1", BPF_MOD, 0x80000000, 0xffffffff, 0),
	SALU32K("smod32_k_int_min_by_minus1", BPF_MOD, 0x80000000, -1, 0),
	SALU32X("smod32_x_zero", BPF_MOD, (__u32)-5, 0, 0xfffffffbULL),
	SALU32X("smod32_x", BPF_MOD, 100, 7, 2),

	/* ---- sign-extending moves (cpu v4) ---- */
	MOVSX64("movsx64_8_neg", 8, 0x80, 0xffffffffffffff80ULL),
	MOVSX64("movsx64_8_pos", 8, 0x7f, 0x7f),
	MOVSX64("movsx64_8_upper_ignored", 8, 0x12345678abcdef01ULL, 1),
	MOVSX64("movsx64_8_minus1", 8, 0x1ff, 0xffffffffffffffffULL),
	MOVSX64("movsx64_16_neg", 16, 0x8000, 0xffffffffffff8000ULL),
	MOVSX64("movsx64_16_pos", 16, 0xffff7fffULL, 0x7fff),
	MOVSX64("movsx64_32_neg", 32, 0x80000000ULL, 0xffffffff80000000ULL),
	MOVSX64("movsx64_32_pos", 32, 0xffffffff7fffffffULL, 0x7fffffff),
	MOVSX32("movsx32_8_neg", 8, 0x80, 0xffffff80ULL),
	MOVSX32("movsx32_8_pos", 8, 0xffffff7fULL, 0x7f),
	MOVSX32("movsx32_16_neg", 16, 0x12348000ULL, 0xffff8000ULL),
	MOVSX32("movsx32_16_pos", 16, 0xffff123400007fffULL, 0x7fff),

	/* ---- byte order ---- */
	END("le16", NB_ENDIAN(BPF_TO_LE, 0, 16), 0x1122334455667788ULL, 0x7788),
	END("le32", NB_ENDIAN(BPF_TO_LE, 0, 32), 0x1122334455667788ULL, 0x55667788),
	END("le64", NB_ENDIAN(BPF_TO_LE, 0, 64), 0x1122334455667788ULL, 0x1122334455667788ULL),
	END("le16_all_ones", NB_ENDIAN(BPF_TO_LE, 0, 16), 0xffffffffffffffffULL, 0xffff),
	END("be16", NB_ENDIAN(BPF_TO_BE, 0, 16), 0x1122334455667788ULL, 0x8877),
	END("be32", NB_ENDIAN(BPF_TO_BE, 0, 32), 0x1122334455667788ULL, 0x88776655),
	END("be64", NB_ENDIAN(BPF_TO_BE, 0, 64), 0x1122334455667788ULL, 0x8877665544332211ULL),
	END("be16_upper_dropped", NB_ENDIAN(BPF_TO_BE, 0, 16), 0xffffffffffff0102ULL, 0x0201),
	END("bswap16", NB_BSWAP(0, 16), 0x1122334455667788ULL, 0x8877),
	END("bswap32", NB_BSWAP(0, 32), 0x1122334455667788ULL, 0x88776655),
	END("bswap64", NB_BSWAP(0, 64), 0x1122334455667788ULL, 0x8877665544332211ULL),
	END("bswap32_low_byte", NB_BSWAP(0, 32), 0xff000000ULL, 0xff),

	/* ---- JMP, 64-bit compares, immediates sign-extended ---- */
	JK("jeq_k_taken", BPF_JEQ, 5, 5, 1),
	JK("jeq_k_not", BPF_JEQ, 5, 6, 0),
	JK("jeq_k_minus1_taken", BPF_JEQ, 0xffffffffffffffffULL, -1, 1),
	JK("jeq_k_minus1_not_32bit", BPF_JEQ, 0xffffffffULL, -1, 0),
	JX("jeq_x_taken", BPF_JEQ, 0x123456789ULL, 0x123456789ULL, 1),
	JX("jeq_x_not_upper", BPF_JEQ, 0x123456789ULL, 0x23456789ULL, 0),
	JK("jne_k_taken", BPF_JNE, 5, 6, 1),
	JK("jne_k_not", BPF_JNE, 5, 5, 0),
	JX("jne_x_taken_upper", BPF_JNE, 0x100000000ULL, 0, 1),
	JX("jne_x_not", BPF_JNE, 0xfedcba9876543210ULL, 0xfedcba9876543210ULL, 0),
	JK("jgt_k_taken_unsigned", BPF_JGT, 0xffffffffffffffffULL, 1, 1),
	JK("jgt_k_not_minus1", BPF_JGT, 1, -1, 0),
	JX("jgt_x_taken", BPF_JGT, 0x8000000000000000ULL, 0x7fffffffffffffffULL, 1),
	JX("jgt_x_not_equal", BPF_JGT, 42, 42, 0),
	JK("jge_k_taken_equal", BPF_JGE, 5, 5, 1),
	JK("jge_k_not", BPF_JGE, 4, 5, 0),
	JX("jge_x_taken", BPF_JGE, 0xffffffffffffffffULL, 0xffffffffffffffffULL, 1),
	JX("jge_x_not_unsigned", BPF_JGE, 0, 0xffffffffffffffffULL, 0),
	JK("jlt_k_taken_minus1", BPF_JLT, 1, -1, 1),
	JK("jlt_k_not_equal", BPF_JLT, 5, 5, 0),
	JX("jlt_x_taken", BPF_JLT, 0x7fffffffffffffffULL, 0x8000000000000000ULL, 1),
	JX("jlt_x_not", BPF_JLT, 2, 1, 0),
	JK("jle_k_taken_equal", BPF_JLE, 5, 5, 1),
	JK("jle_k_not", BPF_JLE, 6, 5, 0),
	JX("jle_x_taken_zero", BPF_JLE, 0, 0, 1),
	JX("jle_x_not_unsigned", BPF_JLE, 0xffffffffffffffffULL, 0, 0),
	JK("jset_k_taken", BPF_JSET, 0x10, 0x30, 1),
	JK("jset_k_not", BPF_JSET, 0x10, 0x20, 0),
	JK("jset_k_minus1_upper", BPF_JSET, 0x100000000ULL, -1, 1),
	JX("jset_x_taken_sign_bit", BPF_JSET, 0x8000000000000000ULL, 0x8000000000000000ULL, 1),
	JX("jset_x_not", BPF_JSET, 0xffffffff00000000ULL, 0xffffffffULL, 0),
	JK("jsgt_k_taken", BPF_JSGT, 1, -1, 1),
	JK("jsgt_k_not_minus1", BPF_JSGT, 0xffffffffffffffffULL, 1, 0),
	JX("jsgt_x_taken_max_min", BPF_JSGT, 0x7fffffffffffffffULL, 0x8000000000000000ULL, 1),
	JX("jsgt_x_not_min_max", BPF_JSGT, 0x8000000000000000ULL, 0x7fffffffffffffffULL, 0),
	JK("jsge_k_taken_equal", BPF_JSGE, (__u64)-5, -5, 1),
	JK("jsge_k_not", BPF_JSGE, (__u64)-6, -5, 0),
	JX("jsge_x_taken", BPF_JSGE, 0, (__u64)-1, 1),
	JX("jsge_x_not", BPF_JSGE, (__u64)-1, 0, 0),
	JK("jslt_k_taken", BPF_JSLT, (__u64)-1, 0, 1),
	JK("jslt_k_not", BPF_JSLT, 0, -1, 0),
	JX("jslt_x_taken_min", BPF_JSLT, 0x8000000000000000ULL, 0, 1),
	JX("jslt_x_not", BPF_JSLT, 0, 0x8000000000000000ULL, 0),
	JK("jsle_k_taken_equal", BPF_JSLE, (__u64)-5, -5, 1),
	JK("jsle_k_not", BPF_JSLE, (__u64)-4, -5, 0),
	JX("jsle_x_taken_min_equal", BPF_JSLE, 0x8000000000000000ULL, 0x8000000000000000ULL, 1),
	JX("jsle_x_not", BPF_JSLE, 1, 0, 0),
	/* 0x80000000 is positive as 64 bits: the 64-bit signed compare must see it so. */
	JK("jsgt_k_taken_2pow31", BPF_JSGT, 0x80000000ULL, 0, 1),

	/* ---- JMP32, low halves only ---- */
	J32K("jeq32_k_taken_upper_ignored", BPF_JEQ, 0x100000005ULL, 5, 1),
	J32K("jeq32_k_not", BPF_JEQ, 5, 6, 0),
	J32X("jeq32_x_taken", BPF_JEQ, 0xffffffff00000001ULL, 1, 1),
	J32X("jeq32_x_not", BPF_JEQ, 1, 2, 0),
	J32K("jne32_k_not_upper_ignored", BPF_JNE, 0x100000005ULL, 5, 0),
	J32K("jne32_k_taken", BPF_JNE, 5, 6, 1),
	J32X("jne32_x_not", BPF_JNE, 0x100000000ULL, 0, 0),
	J32X("jne32_x_taken", BPF_JNE, 1, 2, 1),
	J32K("jgt32_k_taken", BPF_JGT, 0xffffffffULL, 1, 1),
	J32K("jgt32_k_not_upper_ignored", BPF_JGT, 0x100000001ULL, 1, 0),
	J32X("jgt32_x_taken", BPF_JGT, 0x80000000ULL, 0x7fffffffULL, 1),
	J32X("jgt32_x_not", BPF_JGT, 1, 0xffffffffULL, 0),
	J32K("jge32_k_taken_equal", BPF_JGE, 0xffffffffULL, -1, 1),
	J32K("jge32_k_not_upper_ignored", BPF_JGE, 0x100000000ULL, 1, 0),
	J32X("jge32_x_taken", BPF_JGE, 7, 7, 1),
	J32X("jge32_x_not", BPF_JGE, 6, 7, 0),
	J32K("jlt32_k_taken", BPF_JLT, 1, -1, 1),
	J32K("jlt32_k_not", BPF_JLT, 0xffffffffULL, -1, 0),
	J32X("jlt32_x_taken_upper_ignored", BPF_JLT, 0x100000000ULL, 1, 1),
	J32X("jlt32_x_not", BPF_JLT, 2, 1, 0),
	J32K("jle32_k_taken", BPF_JLE, 5, 5, 1),
	J32K("jle32_k_not", BPF_JLE, 0xffffffff00000006ULL, 5, 0),
	J32X("jle32_x_taken", BPF_JLE, 0, 0xffffffffULL, 1),
	J32X("jle32_x_not", BPF_JLE, 0xffffffffULL, 0, 0),
	J32K("jset32_k_taken", BPF_JSET, 0x10, 0x30, 1),
	J32K("jset32_k_not_upper_ignored", BPF_JSET, 0xffffffff00000000ULL, -1, 0),
	J32X("jset32_x_taken", BPF_JSET, 0x80000000ULL, 0xffffffff80000000ULL, 1),
	J32X("jset32_x_not", BPF_JSET, 0xffffffff00000000ULL, 0xffffffff00000000ULL, 0),
	J32K("jsgt32_k_taken", BPF_JSGT, 1, -1, 1),
	J32K("jsgt32_k_not_int_min", BPF_JSGT, 0x80000000ULL, 0x7fffffff, 0),
	J32X("jsgt32_x_taken", BPF_JSGT, 0x7fffffffULL, 0x80000000ULL, 1),
	J32X("jsgt32_x_not", BPF_JSGT, 0xffffffffULL, 0, 0),
	J32K("jsge32_k_taken_equal", BPF_JSGE, 0xffffffffULL, -1, 1),
	J32K("jsge32_k_not_int_min", BPF_JSGE, 0x80000000ULL, -1, 0),
	J32X("jsge32_x_taken", BPF_JSGE, 0, 0xffffffffULL, 1),
	J32X("jsge32_x_not", BPF_JSGE, 0x80000000ULL, 0x80000001ULL, 0),
	J32K("jslt32_k_taken_int_min", BPF_JSLT, 0x80000000ULL, 0, 1),
	J32K("jslt32_k_not_upper_ignored", BPF_JSLT, 0x17fffffffULL, 0, 0),
	J32X("jslt32_x_taken", BPF_JSLT, 0xfffffffeULL, 0xffffffffULL, 1),
	J32X("jslt32_x_not", BPF_JSLT, 0, 0x80000000ULL, 0),
	J32K("jsle32_k_taken_equal", BPF_JSLE, 0x80000000ULL, (__s32)0x80000000, 1),
	J32K("jsle32_k_not", BPF_JSLE, 0, -1, 0),
	J32X("jsle32_x_taken", BPF_JSLE, 0xffffffffULL, 0, 1),
	J32X("jsle32_x_not", BPF_JSLE, 0x7fffffffULL, 0x80000000ULL, 0),

	/* ---- unconditional jumps: the skipped instruction stays reachable through a jeq ---- */
	KCASE("ja_forward", 11, NB_MOV64_IMM(0, 1), NB_JMP_IMM(BPF_JEQ, 0, 2, 1), NB_JA(1),
	      NB_MOV64_IMM(0, 2), NB_ALU64_IMM(BPF_ADD, 0, 10), NB_EXIT()),
	KCASE("ja_zero", 7, NB_MOV64_IMM(0, 7), NB_JA(0), NB_EXIT()),
	KCASE("ja_backward_loop", 6, NB_MOV64_IMM(0, 0), NB_MOV64_IMM(1, 3),
	      NB_ALU64_IMM(BPF_ADD, 0, 2), NB_ALU64_IMM(BPF_SUB, 1, 1),
	      NB_JMP_IMM(BPF_JEQ, 1, 0, 1), NB_JA(-4), NB_EXIT()),
	KCASE("gotol_forward", 11, NB_MOV64_IMM(0, 1), NB_JMP_IMM(BPF_JEQ, 0, 2, 1), NB_GOTOL(1),
	      NB_MOV64_IMM(0, 2), NB_ALU64_IMM(BPF_ADD, 0, 10), NB_EXIT()),
	KCASE("gotol_zero", 7, NB_MOV64_IMM(0, 7), NB_GOTOL(0), NB_EXIT()),
	KCASE("gotol_backward_loop", 6, NB_MOV64_IMM(0, 0), NB_MOV64_IMM(1, 3),
	      NB_ALU64_IMM(BPF_ADD, 0, 2), NB_ALU64_IMM(BPF_SUB, 1, 1),
	      NB_JMP_IMM(BPF_JEQ, 1, 0, 1), NB_GOTOL(-4), NB_EXIT()),
	/* sum of 1..10 in a bounded loop that counts down */
	KCASE("loop_sum_1_to_10", 55, NB_MOV64_IMM(0, 0), NB_MOV64_IMM(1, 10),
	      NB_ALU64_REG(BPF_ADD, 0, 1), NB_ALU64_IMM(BPF_SUB, 1, 1),
	      NB_JMP_IMM(BPF_JNE, 1, 0, -3), NB_EXIT()),
	/* a jump32 whose branch goes backward */
	KCASE("jmp32_backward", 0x300000000ULL, NB_MOV64_IMM(0, 0), NB_MOV64_IMM(1, 0),
	      NB_LD_IMM64(2, 0x100000000ULL), NB_ALU64_REG(BPF_ADD, 0, 2),
	      NB_ALU32_IMM(BPF_ADD, 1, 1), NB_JMP32_IMM(BPF_JLT, 1, 3, -3), NB_EXIT()),
	/*
	 * ---- may_goto: falls through while the run's loop budget lasts (the kernel's count or
	 * time budget is far from spent here), then jumps ----
	 */
	KCASE("may_goto_falls_through", 2, NB_MOV64_IMM(0, 1), NB_MAY_GOTO(1),
	      NB_MOV64_IMM(0, 2), NB_EXIT()),
	KCASE("may_goto_zero", 7, NB_MOV64_IMM(0, 7), NB_MAY_GOTO(0), NB_EXIT()),
	KCASE("may_goto_bounded_loop", 10, NB_MOV64_IMM(0, 0), NB_MAY_GOTO(2),
	      NB_ALU64_IMM(BPF_ADD, 0, 1), NB_JMP_IMM(BPF_JLT, 0, 10, -3), NB_EXIT()),
	/* A loop with no end of its own: may_goto ends it once the run's budget is spent. */
	ICASE("may_goto_budget_spent", NB_MAX_LOOPS, NB_MOV64_IMM(0, 0), NB_MAY_GOTO(2),
	      NB_ALU64_IMM(BPF_ADD, 0, 1), NB_JA(-3), NB_EXIT()),

	/* ---- ldimm64 ---- */
	KCASE("ldimm64", 0x123456789abcdef0ULL, NB_LD_IMM64(0, 0x123456789abcdef0ULL), NB_EXIT()),
	KCASE("ldimm64_all_ones", 0xffffffffffffffffULL, NB_LD_IMM64(0, 0xffffffffffffffffULL),
	      NB_EXIT()),
	KCASE("ldimm64_high_only", 0xffffffff00000000ULL, NB_LD_IMM64(0, 0xffffffff00000000ULL),
	      NB_EXIT()),
	KCASE("ldimm64_low_not_sign_extended", 0x80000000ULL, NB_LD_IMM64(0, 0x80000000ULL),
	      NB_EXIT()),
	KCASE("ldimm64_r9", 0x8000000000000001ULL, NB_LD_IMM64(9, 0x8000000000000001ULL),
	      NB_MOV64_REG(0, 9), NB_EXIT()),

	/* ---- stack: both ends, every size ---- */
	STACK("stack_b_top", BPF_B, -1, 0x1234567890abcdefULL, BPF_B, -1, 0xef),
	STACK("stack_h_top", BPF_H, -2, 0x1234567890abcdefULL, BPF_H, -2, 0xcdef),
	STACK("stack_w_top", BPF_W, -4, 0x1234567890abcdefULL, BPF_W, -4, 0x90abcdef),
	STACK("stack_dw_top", BPF_DW, -8, 0x1234567890abcdefULL, BPF_DW, -8,
	      0x1234567890abcdefULL),
	STACK("stack_b_bottom", BPF_B, -512, 0x1234567890abcdefULL, BPF_B, -512, 0xef),
	STACK("stack_h_bottom", BPF_H, -512, 0x1234567890abcdefULL, BPF_H, -512, 0xcdef),
	STACK("stack_w_bottom", BPF_W, -512, 0x1234567890abcdefULL, BPF_W, -512, 0x90abcdef),
	STACK("stack_dw_bottom", BPF_DW, -512, 0x1234567890abcdefULL, BPF_DW, -512,
	      0x1234567890abcdefULL),
	STACK("stack_le_low_byte", BPF_DW, -8, 0x1122334455667788ULL, BPF_B, -8, 0x88),
	STACK("stack_le_high_byte", BPF_DW, -8, 0x1122334455667788ULL, BPF_B, -1, 0x11),
	STACK("stack_le_middle_half", BPF_DW, -8, 0x1122334455667788ULL, BPF_H, -6, 0x5566),
	STACK("stack_le_high_word", BPF_DW, -8, 0x1122334455667788ULL, BPF_W, -4, 0x11223344),
	STACK("stack_ldx_w_zero_extends", BPF_W, -4, 0xffffffffffffffffULL, BPF_W, -4,
	      0xffffffffULL),
	STACK("stack_ldx_b_zero_extends", BPF_B, -1, 0x80, BPF_B, -1, 0x80),
	KCASE("stack_byte_store_keeps_neighbours", 0x11223344aa667788ULL,
	      NB_LD_IMM64(1, 0x1122334455667788ULL), NB_STX_MEM(BPF_DW, 10, 1, -8),
	      NB_ST_MEM(BPF_B, 10, -5, 0xaa), NB_LDX_MEM(BPF_DW, 0, 10, -8), NB_EXIT()),
	KCASE("stack_half_store_keeps_neighbours", 0xbbbb334455667788ULL,
	      NB_LD_IMM64(1, 0x1122334455667788ULL), NB_STX_MEM(BPF_DW, 10, 1, -8),
	      NB_ST_MEM(BPF_H, 10, -2, 0xbbbb), NB_LDX_MEM(BPF_DW, 0, 10, -8), NB_EXIT()),
	KCASE("stack_through_copy_of_r10", 0x4242,
	      NB_MOV64_REG(1, 10), NB_ALU64_IMM(BPF_ADD, 1, -16), NB_ST_MEM(BPF_DW, 1, 8, 0x4242),
	      NB_LDX_MEM(BPF_DW, 0, 10, -8), NB_EXIT()),
	STIMM("st_b_truncated", BPF_B, -1, 0x1ff, 0xff),
	STIMM("st_h_neg", BPF_H, -2, -2, 0xfffe),
	STIMM("st_w_neg", BPF_W, -4, -1, 0xffffffffULL),
	STIMM("st_dw_neg_sign_extended", BPF_DW, -8, -1, 0xffffffffffffffffULL),
	STIMM("st_dw_int_min", BPF_DW, -512, (__s32)0x80000000, 0xffffffff80000000ULL),
	STIMM("st_dw_int_max", BPF_DW, -512, 0x7fffffff, 0x7fffffffULL),
	STIMM("st_w_bottom", BPF_W, -512, 0x12345678, 0x12345678ULL),
	STIMM("st_b_bottom", BPF_B, -512, 0x80, 0x80),
	LDSX("ldsx_b_neg", BPF_B, -1, 0x80, 0xffffffffffffff80ULL),
	LDSX("ldsx_b_pos", BPF_B, -1, 0x7f, 0x7f),
	LDSX("ldsx_b_bottom_minus1", BPF_B, -512, 0xff, 0xffffffffffffffffULL),
	LDSX("ldsx_h_neg", BPF_H, -2, 0x8001, 0xffffffffffff8001ULL),
	LDSX("ldsx_h_pos", BPF_H, -2, 0x7fff, 0x7fff),
	LDSX("ldsx_w_neg", BPF_W, -4, (__s32)0x80000000, 0xffffffff80000000ULL),
	LDSX("ldsx_w_pos", BPF_W, -4, 0x7fffffff, 0x7fffffffULL),
	LDSX("ldsx_w_bottom", BPF_W, -512, -2, 0xfffffffffffffffeULL),

	/* ---- atomics, 64-bit ---- */
	ATOMIC_MEM("atomic64_add_mem", BPF_DW, BPF_ADD, 0xffffffffULL, 1, 0x100000000ULL),
	ATOMIC_SRC("atomic64_add_src_unchanged", BPF_DW, BPF_ADD, 0xffffffffULL, 1, 1),
	ATOMIC_MEM("atomic64_fetch_add_mem", BPF_DW, BPF_ADD | BPF_FETCH, 0xffffffffULL, 1,
		   0x100000000ULL),
	ATOMIC_SRC("atomic64_fetch_add_fetched", BPF_DW, BPF_ADD | BPF_FETCH, 0xffffffffULL, 1,
		   0xffffffffULL),
	ATOMIC_MEM("atomic64_or_mem", BPF_DW, BPF_OR, 0xf0f0000000000000ULL, 0x0f,
		   0xf0f000000000000fULL),
	ATOMIC_SRC("atomic64_or_src_unchanged", BPF_DW, BPF_OR, 0xf0f0000000000000ULL, 0x0f, 0x0f),
	ATOMIC_MEM("atomic64_fetch_or_mem", BPF_DW, BPF_OR | BPF_FETCH, 0xf0f0000000000000ULL, 0x0f,
		   0xf0f000000000000fULL),
	ATOMIC_SRC("atomic64_fetch_or_fetched", BPF_DW, BPF_OR | BPF_FETCH, 0xf0f0000000000000ULL,
		   0x0f, 0xf0f0000000000000ULL),
	ATOMIC_MEM("atomic64_and_mem", BPF_DW, BPF_AND, 0xff00ff00ff00ff00ULL,
		   0x0ff00ff00ff00ff0ULL, 0x0f000f000f000f00ULL),
	ATOMIC_SRC("atomic64_and_src_unchanged", BPF_DW, BPF_AND, 0xff00ff00ff00ff00ULL,
		   0x0ff00ff00ff00ff0ULL, 0x0ff00ff00ff00ff0ULL),
	ATOMIC_MEM("atomic64_fetch_and_mem", BPF_DW, BPF_AND | BPF_FETCH, 0xff00ff00ff00ff00ULL,
		   0x0ff00ff00ff00ff0ULL, 0x0f000f000f000f00ULL),
	ATOMIC_SRC("atomic64_fetch_and_fetched", BPF_DW, BPF_AND | BPF_FETCH, 0xff00ff00ff00ff00ULL,
		   0x0ff00ff00ff00ff0ULL, 0xff00ff00ff00ff00ULL),
	ATOMIC_MEM("atomic64_xor_mem", BPF_DW, BPF_XOR, 0xffffffffffffffffULL,
		   0x8000000000000001ULL, 0x7ffffffffffffffeULL),
	ATOMIC_SRC("atomic64_xor_src_unchanged", BPF_DW, BPF_XOR, 0xffffffffffffffffULL,
		   0x8000000000000001ULL, 0x8000000000000001ULL),
	ATOMIC_MEM("atomic64_fetch_xor_mem", BPF_DW, BPF_XOR | BPF_FETCH, 0xffffffffffffffffULL,
		   0x8000000000000001ULL, 0x7ffffffffffffffeULL),
	ATOMIC_SRC("atomic64_fetch_xor_fetched", BPF_DW, BPF_XOR | BPF_FETCH, 0xffffffffffffffffULL,
		   0x8000000000000001ULL, 0xffffffffffffffffULL),
	ATOMIC_MEM("atomic64_xchg_mem", BPF_DW, BPF_XCHG, 0x1111111111111111ULL,
		   0x2222222222222222ULL, 0x2222222222222222ULL),
	ATOMIC_SRC("atomic64_xchg_fetched", BPF_DW, BPF_XCHG, 0x1111111111111111ULL,
		   0x2222222222222222ULL, 0x1111111111111111ULL),
	CMPXCHG_R0("atomic64_cmpxchg_match_r0", BPF_DW, 0x1234, 0x1234, 0xabcd, 0x1234),
	CMPXCHG_MEM("atomic64_cmpxchg_match_mem", BPF_DW, 0x1234, 0x1234, 0xabcd, 0xabcd),
	CMPXCHG_R0("atomic64_cmpxchg_miss_r0", BPF_DW, 0x1234, 0x5678, 0xabcd, 0x1234),
	CMPXCHG_MEM("atomic64_cmpxchg_miss_mem", BPF_DW, 0x1234, 0x5678, 0xabcd, 0x1234),
	CMPXCHG_MEM("atomic64_cmpxchg_miss_upper_mem", BPF_DW, 0x1234, 0x100001234ULL, 0xabcd,
		    0x1234),

	/* ---- atomics, 32-bit: the word at r10 - 8, NEIGHBOUR above it, SRC_HI in r2 ---- */
	ATOMIC_MEM("atomic32_add_mem_no_carry_out", BPF_W, BPF_ADD, NEIGHBOUR | 0xffffffff,
		   SRC_HI | 2, NEIGHBOUR | 1),
	ATOMIC_SRC("atomic32_add_src_unchanged", BPF_W, BPF_ADD, NEIGHBOUR | 0xffffffff,
		   SRC_HI | 2, SRC_HI | 2),
	ATOMIC_MEM("atomic32_fetch_add_mem", BPF_W, BPF_ADD | BPF_FETCH, NEIGHBOUR | 0xffffffff,
		   SRC_HI | 2, NEIGHBOUR | 1),
	ATOMIC_SRC("atomic32_fetch_add_fetched_zext", BPF_W, BPF_ADD | BPF_FETCH,
		   NEIGHBOUR | 0xffffffff, SRC_HI | 2, 0xffffffffULL),
	ATOMIC_MEM("atomic32_or_mem", BPF_W, BPF_OR, NEIGHBOUR | 0xf000, SRC_HI | 0x0f,
		   NEIGHBOUR | 0xf00f),
	ATOMIC_SRC("atomic32_or_src_unchanged", BPF_W, BPF_OR, NEIGHBOUR | 0xf000, SRC_HI | 0x0f,
		   SRC_HI | 0x0f),
	ATOMIC_MEM("atomic32_fetch_or_mem", BPF_W, BPF_OR | BPF_FETCH, NEIGHBOUR | 0xf000,
		   SRC_HI | 0x0f, NEIGHBOUR | 0xf00f),
	ATOMIC_SRC("atomic32_fetch_or_fetched_zext", BPF_W, BPF_OR | BPF_FETCH, NEIGHBOUR | 0xf000,
		   SRC_HI | 0x0f, 0xf000),
	ATOMIC_MEM("atomic32_and_mem", BPF_W, BPF_AND, NEIGHBOUR | 0xff00ff00, SRC_HI | 0x0ff00ff0,
		   NEIGHBOUR | 0x0f000f00),
	ATOMIC_SRC("atomic32_and_src_unchanged", BPF_W, BPF_AND, NEIGHBOUR | 0xff00ff00,
		   SRC_HI | 0x0ff00ff0, SRC_HI | 0x0ff00ff0),
	ATOMIC_MEM("atomic32_fetch_and_mem", BPF_W, BPF_AND | BPF_FETCH, NEIGHBOUR | 0xff00ff00,
		   SRC_HI | 0x0ff00ff0, NEIGHBOUR | 0x0f000f00),
	ATOMIC_SRC("atomic32_fetch_and_fetched_zext", BPF_W, BPF_AND | BPF_FETCH,
		   NEIGHBOUR | 0xff00ff00, SRC_HI | 0x0ff00ff0, 0xff00ff00ULL),
	ATOMIC_MEM("atomic32_xor_mem", BPF_W, BPF_XOR, NEIGHBOUR | 0xffffffff, SRC_HI | 0x80000001,
		   NEIGHBOUR | 0x7ffffffe),
	ATOMIC_SRC("atomic32_xor_src_unchanged", BPF_W, BPF_XOR, NEIGHBOUR | 0xffffffff,
		   SRC_HI | 0x80000001, SRC_HI | 0x80000001),
	ATOMIC_MEM("atomic32_fetch_xor_mem", BPF_W, BPF_XOR | BPF_FETCH, NEIGHBOUR | 0xffffffff,
		   SRC_HI | 0x80000001, NEIGHBOUR | 0x7ffffffe),
	ATOMIC_SRC("atomic32_fetch_xor_fetched_zext", BPF_W, BPF_XOR | BPF_FETCH,
		   NEIGHBOUR | 0xffffffff, SRC_HI | 0x80000001, 0xffffffffULL),
	ATOMIC_MEM("atomic32_xchg_mem", BPF_W, BPF_XCHG, NEIGHBOUR | 0x11111111,
		   SRC_HI | 0x22222222, NEIGHBOUR | 0x22222222),
	ATOMIC_SRC("atomic32_xchg_fetched_zext", BPF_W, BPF_XCHG, NEIGHBOUR | 0x11111111,
		   SRC_HI | 0x22222222, 0x11111111ULL),
	CMPXCHG_R0("atomic32_cmpxchg_match_r0_zext", BPF_W, NEIGHBOUR | 0x1234,
		   0xffffffff00001234ULL, SRC_HI | 0xabcd, 0x1234),
	CMPXCHG_MEM("atomic32_cmpxchg_match_mem", BPF_W, NEIGHBOUR | 0x1234,
		    0xffffffff00001234ULL, SRC_HI | 0xabcd, NEIGHBOUR | 0xabcd),
	CMPXCHG_R0("atomic32_cmpxchg_miss_r0_zext", BPF_W, NEIGHBOUR | 0x1234,
		   0xffffffff00005678ULL, SRC_HI | 0xabcd, 0x1234),
	CMPXCHG_MEM("atomic32_cmpxchg_miss_mem", BPF_W, NEIGHBOUR | 0x1234, 0x5678,
		    SRC_HI | 0xabcd, NEIGHBOUR | 0x1234),

	/* ---- bpf-to-bpf calls ---- */
	KCASE("call_simple", 42, NB_CALL_REL(2), NB_ALU64_IMM(BPF_ADD, 0, 1), NB_EXIT(),
	      NB_MOV64_IMM(0, 41), NB_EXIT()),
	KCASE("call_args_r1_to_r5", 0x54321,
	      NB_MOV64_IMM(1, 1), NB_MOV64_IMM(2, 0x20), NB_MOV64_IMM(3, 0x300),
	      NB_MOV64_IMM(4, 0x4000), NB_MOV64_IMM(5, 0x50000), NB_CALL_REL(1), NB_EXIT(),
	      NB_MOV64_REG(0, 1), NB_ALU64_REG(BPF_ADD, 0, 2), NB_ALU64_REG(BPF_ADD, 0, 3),
	      NB_ALU64_REG(BPF_ADD, 0, 4), NB_ALU64_REG(BPF_ADD, 0, 5), NB_EXIT()),
	KCASE("call_preserves_r6", 6, NB_MOV64_IMM(6, 6), NB_CALL_REL(2), NB_MOV64_REG(0, 6),
	      NB_EXIT(), NB_MOV64_IMM(6, 0), NB_MOV64_IMM(0, 0), NB_EXIT()),
	KCASE("call_preserves_r7", 7, NB_MOV64_IMM(7, 7), NB_CALL_REL(2), NB_MOV64_REG(0, 7),
	      NB_EXIT(), NB_MOV64_IMM(7, 0), NB_MOV64_IMM(0, 0), NB_EXIT()),
	KCASE("call_preserves_r8", 8, NB_MOV64_IMM(8, 8), NB_CALL_REL(2), NB_MOV64_REG(0, 8),
	      NB_EXIT(), NB_MOV64_IMM(8, 0), NB_MOV64_IMM(0, 0), NB_EXIT()),
	KCASE("call_preserves_r9", 9, NB_MOV64_IMM(9, 9), NB_CALL_REL(2), NB_MOV64_REG(0, 9),
	      NB_EXIT(), NB_MOV64_IMM(9, 0), NB_MOV64_IMM(0, 0), NB_EXIT()),
	KCASE("call_preserves_r6_to_r9_full", 0x6677889900000000ULL,
	      NB_LD_IMM64(6, 0x6600000000000000ULL), NB_LD_IMM64(7, 0x0077000000000000ULL),
	      NB_LD_IMM64(8, 0x0000880000000000ULL), NB_LD_IMM64(9, 0x0000009900000000ULL),
	      NB_CALL_REL(5), NB_MOV64_REG(0, 6), NB_ALU64_REG(BPF_OR, 0, 7),
	      NB_ALU64_REG(BPF_OR, 0, 8), NB_ALU64_REG(BPF_OR, 0, 9), NB_EXIT(),
	      NB_MOV64_IMM(6, -1), NB_MOV64_IMM(7, -1), NB_MOV64_IMM(8, -1), NB_MOV64_IMM(9, -1),
	      NB_MOV64_IMM(0, 0), NB_EXIT()),
	/* The callee's r10 - 8 is its own slot: the caller's value survives the call. */
	KCASE("call_own_stack_caller", 0x1111, NB_ST_MEM(BPF_DW, 10, -8, 0x1111), NB_CALL_REL(2),
	      NB_LDX_MEM(BPF_DW, 0, 10, -8), NB_EXIT(), NB_ST_MEM(BPF_DW, 10, -8, 0x2222),
	      NB_LDX_MEM(BPF_DW, 0, 10, -8), NB_EXIT()),
	KCASE("call_own_stack_callee", 0x2222, NB_ST_MEM(BPF_DW, 10, -8, 0x1111), NB_CALL_REL(1),
	      NB_EXIT(), NB_ST_MEM(BPF_DW, 10, -8, 0x2222), NB_LDX_MEM(BPF_DW, 0, 10, -8),
	      NB_EXIT()),
	/* A pointer to the caller's stack passed down: the callee writes through it. */
	KCASE("call_writes_caller_stack", 7, NB_ST_MEM(BPF_DW, 10, -8, 0), NB_MOV64_REG(1, 10),
	      NB_ALU64_IMM(BPF_ADD, 1, -8), NB_CALL_REL(2), NB_LDX_MEM(BPF_DW, 0, 10, -8),
	      NB_EXIT(), NB_ST_MEM(BPF_DW, 1, 0, 7), NB_MOV64_IMM(0, 0), NB_EXIT()),
	/* A subprogram called three times from a loop, accumulating in r6. */
	KCASE("call_in_loop", 30, NB_MOV64_IMM(6, 0), NB_MOV64_IMM(7, 3), NB_CALL_REL(5),
	      NB_ALU64_REG(BPF_ADD, 6, 0), NB_ALU64_IMM(BPF_SUB, 7, 1),
	      NB_JMP_IMM(BPF_JNE, 7, 0, -4), NB_MOV64_REG(0, 6), NB_EXIT(),
	      NB_MOV64_IMM(0, 10), NB_EXIT()),
	/* The callee's return value is a full 64-bit r0. */
	KCASE("call_returns_64bit", 0xfedcba9876543210ULL, NB_CALL_REL(1), NB_EXIT(),
	      NB_LD_IMM64(0, 0xfedcba9876543210ULL), NB_EXIT()),
	KCASE("call_depth_2", 101, FRAME(0), LEAF),
	KCASE("call_depth_3", 103, FRAME(0), FRAME(1), LEAF),
	KCASE("call_depth_4", 106, FRAME(0), FRAME(1), FRAME(2), LEAF),
	KCASE("call_depth_5", 110, FRAME(0), FRAME(1), FRAME(2), FRAME(3), LEAF),
	KCASE("call_depth_6", 115, FRAME(0), FRAME(1), FRAME(2), FRAME(3), FRAME(4), LEAF),
	KCASE("call_depth_7", 121, FRAME(0), FRAME(1), FRAME(2), FRAME(3), FRAME(4), FRAME(5),
	      LEAF),
	KCASE("call_depth_8", 128, FRAME(0), FRAME(1), FRAME(2), FRAME(3), FRAME(4), FRAME(5),
	      FRAME(6), LEAF),
	/*
	 * Every frame has its own 512 bytes: both use r10 - 512. The kernel caps the combined
	 * stack of a call chain at 512 bytes, so only netbpf runs this.
	 */
	ICASE("call_full_stack_each_frame", 0x21, NB_ST_MEM(BPF_DW, 10, -512, 1), NB_CALL_REL(4),
	      NB_LDX_MEM(BPF_DW, 1, 10, -512), NB_ALU64_IMM(BPF_LSH, 0, 4),
	      NB_ALU64_REG(BPF_ADD, 0, 1), NB_EXIT(),
	      NB_ST_MEM(BPF_DW, 10, -512, 2), NB_LDX_MEM(BPF_DW, 0, 10, -512), NB_EXIT()),
	/*
	 * Recursion: 5! with r6 saved across each level. The kernel's verifier, which explores
	 * the call chain without bounding it by r1, rejects it as too deep.
	 */
	ICASE("call_recursive_factorial", 120, NB_MOV64_IMM(1, 5), NB_CALL_REL(1), NB_EXIT(),
	      NB_MOV64_IMM(0, 1), NB_JMP_IMM(BPF_JEQ, 1, 0, 4), NB_MOV64_REG(6, 1),
	      NB_ALU64_IMM(BPF_SUB, 1, 1), NB_CALL_REL(-5), NB_ALU64_REG(BPF_MUL, 0, 6),
	      NB_EXIT()),

	/* ---- the memory block behind r1 (length in r2) ---- */
	MCASE("mem_len_in_r2", "\x01\x02\x03\x04\x05", 5, NB_MOV64_REG(0, 2), NB_EXIT()),
	ICASE("mem_none_r1_null", 0, NB_MOV64_REG(0, 1), NB_EXIT()),
	ICASE("mem_none_r2_zero", 0, NB_MOV64_REG(0, 2), NB_EXIT()),
	MCASE("mem_ldx_b", "\xfe\x02\x03\x04", 0xfe, NB_LDX_MEM(BPF_B, 0, 1, 0), NB_EXIT()),
	MCASE("mem_ldx_h", "\x01\x02\x03\x04", 0x0302, NB_LDX_MEM(BPF_H, 0, 1, 1), NB_EXIT()),
	MCASE("mem_ldx_w", "\x01\x02\x03\x04\x05", 0x05040302, NB_LDX_MEM(BPF_W, 0, 1, 1),
	      NB_EXIT()),
	MCASE("mem_ldx_dw", "\x88\x77\x66\x55\x44\x33\x22\x11", 0x1122334455667788ULL,
	      NB_LDX_MEM(BPF_DW, 0, 1, 0), NB_EXIT()),
	MCASE("mem_ldx_last_byte", "\x01\x02\x03\x04\x05\x06\x07\x08\x09", 0x09,
	      NB_MOV64_REG(3, 1), NB_ALU64_REG(BPF_ADD, 3, 2), NB_LDX_MEM(BPF_B, 0, 3, -1),
	      NB_EXIT()),
	MCASE("mem_ldsx_b", "\x80", 0xffffffffffffff80ULL, NB_LDX_MEMSX(BPF_B, 0, 1, 0), NB_EXIT()),
	MCASE("mem_ldsx_h", "\x00\x01\x80", 0xffffffffffff8001ULL, NB_LDX_MEMSX(BPF_H, 0, 1, 1),
	      NB_EXIT()),
	MCASE("mem_ldsx_w", "\xff\xff\xff\xff", 0xffffffffffffffffULL,
	      NB_LDX_MEMSX(BPF_W, 0, 1, 0), NB_EXIT()),
	MCASE("mem_store_then_load", "\x00\x00\x00\x00\x00\x00\x00\x00", 0x12345678aabbULL,
	      NB_LD_IMM64(3, 0x12345678aabbULL), NB_STX_MEM(BPF_DW, 1, 3, 0),
	      NB_LDX_MEM(BPF_DW, 0, 1, 0), NB_EXIT()),
	MCASE("mem_st_imm_w", "\x11\x11\x11\x11\x11\x11\x11\x11", 0x11111111fffffffeULL,
	      NB_ST_MEM(BPF_W, 1, 0, -2), NB_LDX_MEM(BPF_DW, 0, 1, 0), NB_EXIT()),
	MCASE("mem_atomic_fetch_add", "\x05\x00\x00\x00\x00\x00\x00\x00", 5,
	      NB_MOV64_IMM(3, 10), NB_ATOMIC_OP(BPF_DW, BPF_ADD | BPF_FETCH, 1, 3, 0),
	      NB_MOV64_REG(0, 3), NB_EXIT()),
	MCASE("mem_atomic_add_result", "\x05\x00\x00\x00\x00\x00\x00\x00", 15,
	      NB_MOV64_IMM(3, 10), NB_ATOMIC_OP(BPF_DW, BPF_ADD, 1, 3, 0),
	      NB_LDX_MEM(BPF_DW, 0, 1, 0), NB_EXIT()),
	MCASE("mem_atomic32_cmpxchg", "\x07\x00\x00\x00\x09\x00\x00\x00", 0x0000000900000008ULL,
	      NB_MOV64_IMM(0, 7), NB_MOV64_IMM(3, 8), NB_ATOMIC_OP(BPF_W, BPF_CMPXCHG, 1, 3, 0),
	      NB_LDX_MEM(BPF_DW, 0, 1, 0), NB_EXIT()),
	/* r1 reaches a callee as its first argument, still pointing at the block. */
	MCASE("mem_read_in_callee", "\x2a\x00\x00\x00", 0x2a, NB_CALL_REL(1), NB_EXIT(),
	      NB_LDX_MEM(BPF_W, 0, 1, 0), NB_EXIT()),
};

const unsigned int isa_case_cnt = sizeof(isa_cases) / sizeof(isa_cases[0]);
