/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruction builders for the context rewrites of the packet program types (ctx_skb.c,
 * ctx_xdp.c): each yields one struct bpf_insn, named after the assembly it produces.
 */
#ifndef NB_NET_CTX_INSN_H
#define NB_NET_CTX_INSN_H

#include <linux/bpf.h>

#include "common/types.h"

#define sizeof_field(type, member) sizeof(((type *)0)->member)
#define offsetofend(type, member)  (offsetof(type, member) + sizeof_field(type, member))

/* BPF_B, BPF_H, BPF_W or BPF_DW for a size in bytes (1, 2, 4, 8). */
static inline u8 ctx_bpf_size(u32 bytes)
{
	switch (bytes) {
	case 1:
		return BPF_B;
	case 2:
		return BPF_H;
	case 4:
		return BPF_W;
	default:
		return BPF_DW;
	}
}

static inline struct bpf_insn ctx_insn(u8 code, u8 dst, u8 src, s16 off, s32 imm)
{
	return (struct bpf_insn){ .code = code, .dst_reg = dst, .src_reg = src, .off = off,
				  .imm = imm };
}

/* dst = *(size *)(src + off), zero-extended */
static inline struct bpf_insn ctx_ldx(u32 size, u8 dst, u8 src, s16 off)
{
	return ctx_insn(BPF_LDX | ctx_bpf_size(size) | BPF_MEM, dst, src, off, 0);
}

/* *(size *)(dst + off) = src */
static inline struct bpf_insn ctx_stx(u32 size, u8 dst, u8 src, s16 off)
{
	return ctx_insn(BPF_STX | ctx_bpf_size(size) | BPF_MEM, dst, src, off, 0);
}

/* *(size *)(dst + off) = imm */
static inline struct bpf_insn ctx_st(u32 size, u8 dst, s16 off, s32 imm)
{
	return ctx_insn(BPF_ST | ctx_bpf_size(size) | BPF_MEM, dst, 0, off, imm);
}

/* dst = imm (64 bit) */
static inline struct bpf_insn ctx_mov_imm(u8 dst, s32 imm)
{
	return ctx_insn(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}

/* dst = dst: a store that must store nothing still yields one instruction */
static inline struct bpf_insn ctx_nop(u8 reg)
{
	return ctx_insn(BPF_ALU64 | BPF_MOV | BPF_X, reg, reg, 0, 0);
}

/* if dst op imm goto pc + off */
static inline struct bpf_insn ctx_jmp_imm(u8 op, u8 dst, s32 imm, s16 off)
{
	return ctx_insn(BPF_JMP | op | BPF_K, dst, 0, off, imm);
}

/*
 * A store of si's value (register or immediate) with size bytes at off from si's base: the
 * twin of si with the target's size and offset.
 */
static inline struct bpf_insn ctx_store_like(const struct bpf_insn *si, u32 size, s16 off)
{
	if (BPF_CLASS(si->code) == BPF_ST)
		return ctx_st(size, si->dst_reg, off, si->imm);
	return ctx_stx(size, si->dst_reg, si->src_reg, off);
}

#endif /* NB_NET_CTX_INSN_H */
