/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruction builders for the maps' map_gen_lookup (map.h): each yields one struct bpf_insn
 * (two for gen_ldimm64) in the verifier log's terms, so that a generator reads like the xlated
 * dump it produces.
 */
#ifndef NB_BPF_MAPS_GEN_LOOKUP_H
#define NB_BPF_MAPS_GEN_LOOKUP_H

#include "bpf/insn.h"

static inline struct bpf_insn gen_insn(u8 code, u8 dst, u8 src, s16 off, s32 imm)
{
	return (struct bpf_insn){ .code = code, .dst_reg = dst, .src_reg = src, .off = off,
				  .imm = imm };
}

/* dst = *(u32 *)(src + off) */
static inline struct bpf_insn gen_ldx_w(u8 dst, u8 src, s16 off)
{
	return gen_insn(BPF_LDX | BPF_W | BPF_MEM, dst, src, off, 0);
}

/* dst = *(u64 *)(src + off) */
static inline struct bpf_insn gen_ldx_dw(u8 dst, u8 src, s16 off)
{
	return gen_insn(BPF_LDX | BPF_DW | BPF_MEM, dst, src, off, 0);
}

/* dst = *(u8 *)(src + off) */
static inline struct bpf_insn gen_ldx_b(u8 dst, u8 src, s16 off)
{
	return gen_insn(BPF_LDX | BPF_B | BPF_MEM, dst, src, off, 0);
}

/* *(u8 *)(dst + off) = imm */
static inline struct bpf_insn gen_st_b(u8 dst, s16 off, s32 imm)
{
	return gen_insn(BPF_ST | BPF_B | BPF_MEM, dst, 0, off, imm);
}

/* dst op= imm, 64-bit */
static inline struct bpf_insn gen_alu64_imm(u8 op, u8 dst, s32 imm)
{
	return gen_insn(BPF_ALU64 | op | BPF_K, dst, 0, 0, imm);
}

/* dst op= src, 64-bit */
static inline struct bpf_insn gen_alu64_reg(u8 op, u8 dst, u8 src)
{
	return gen_insn(BPF_ALU64 | op | BPF_X, dst, src, 0, 0);
}

/* if dst op imm goto pc + off (unsigned compares for the index checks) */
static inline struct bpf_insn gen_jmp_imm(u8 op, u8 dst, s32 imm, s16 off)
{
	return gen_insn(BPF_JMP | op | BPF_K, dst, 0, off, imm);
}

/* if (u32)dst op imm goto pc + off */
static inline struct bpf_insn gen_jmp32_imm(u8 op, u8 dst, s32 imm, s16 off)
{
	return gen_insn(BPF_JMP32 | op | BPF_K, dst, 0, off, imm);
}

static inline struct bpf_insn gen_ja(s16 off)
{
	return gen_insn(BPF_JMP | BPF_JA, 0, 0, off, 0);
}

/* dst = imm64: writes two instructions at buf */
static inline void gen_ldimm64(struct bpf_insn *buf, u8 dst, u64 imm)
{
	buf[0] = gen_insn(BPF_LD | BPF_IMM | BPF_DW, dst, 0, 0, (s32)(u32)imm);
	buf[1] = gen_insn(0, 0, 0, 0, (s32)(u32)(imm >> 32));
}

/* call the function map_gen_lookup hands back (the fixup fills in the table index) */
static inline struct bpf_insn gen_call_fixed(void)
{
	return gen_insn(BPF_JMP | BPF_CALL, 0, NB_CALL_FIXED, 0, 0);
}

/* dst = this worker's index */
static inline struct bpf_insn gen_this_cpu(u8 dst)
{
	return gen_insn(NB_OP_THIS_CPU, dst, 0, 0, 0);
}

/*
 * dst *= k for a per-element stride: a shift when k is a power of two, else a multiply; the
 * caller checked that k fits an immediate.
 */
static inline struct bpf_insn gen_mul_const(u8 dst, u32 k)
{
	if (k && !(k & (k - 1)))
		return gen_alu64_imm(BPF_LSH, dst, __builtin_ctz(k));
	return gen_alu64_imm(BPF_MUL, dst, (s32)k);
}

#endif /* NB_BPF_MAPS_GEN_LOOKUP_H */
