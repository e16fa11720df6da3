/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruction builders for tests: one macro per instruction form, yielding a struct bpf_insn
 * initialiser (ldimm64 yields two). Named after the assembly they produce.
 */
#ifndef NB_TEST_BPF_ASM_H
#define NB_TEST_BPF_ASM_H

#include <linux/bpf.h>

#include "bpf/insn.h"

#define NB_INSN(c, d, s, o, i)                                                              \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/* ALU: dst op= src / imm */
#define NB_ALU64_REG(op, d, s)	   NB_INSN(BPF_ALU64 | BPF_OP(op) | BPF_X, d, s, 0, 0)
#define NB_ALU64_IMM(op, d, i)	   NB_INSN(BPF_ALU64 | BPF_OP(op) | BPF_K, d, 0, 0, i)
#define NB_ALU32_REG(op, d, s)	   NB_INSN(BPF_ALU | BPF_OP(op) | BPF_X, d, s, 0, 0)
#define NB_ALU32_IMM(op, d, i)	   NB_INSN(BPF_ALU | BPF_OP(op) | BPF_K, d, 0, 0, i)
/* Signed div/mod: off = 1 */
#define NB_ALU64_SREG(op, d, s)	   NB_INSN(BPF_ALU64 | BPF_OP(op) | BPF_X, d, s, 1, 0)
#define NB_ALU64_SIMM(op, d, i)	   NB_INSN(BPF_ALU64 | BPF_OP(op) | BPF_K, d, 0, 1, i)
#define NB_ALU32_SREG(op, d, s)	   NB_INSN(BPF_ALU | BPF_OP(op) | BPF_X, d, s, 1, 0)
#define NB_ALU32_SIMM(op, d, i)	   NB_INSN(BPF_ALU | BPF_OP(op) | BPF_K, d, 0, 1, i)
#define NB_MOV64_REG(d, s)	   NB_ALU64_REG(BPF_MOV, d, s)
#define NB_MOV64_IMM(d, i)	   NB_ALU64_IMM(BPF_MOV, d, i)
#define NB_MOV32_REG(d, s)	   NB_ALU32_REG(BPF_MOV, d, s)
#define NB_MOV32_IMM(d, i)	   NB_ALU32_IMM(BPF_MOV, d, i)
/* movsx: dst = (s<bits>)src */
#define NB_MOVSX64_REG(d, s, bits) NB_INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, bits, 0)
#define NB_MOVSX32_REG(d, s, bits) NB_INSN(BPF_ALU | BPF_MOV | BPF_X, d, s, bits, 0)
#define NB_NEG64(d)		   NB_INSN(BPF_ALU64 | BPF_NEG | BPF_K, d, 0, 0, 0)
#define NB_NEG32(d)		   NB_INSN(BPF_ALU | BPF_NEG | BPF_K, d, 0, 0, 0)
/* Byte swaps: to_le/to_be (ALU) and the unconditional bswap (ALU64) */
#define NB_ENDIAN(type, d, bits)   NB_INSN(BPF_ALU | BPF_END | (type), d, 0, 0, bits)
#define NB_BSWAP(d, bits)	   NB_INSN(BPF_ALU64 | BPF_END | BPF_TO_LE, d, 0, 0, bits)

/* ldimm64: two slots */
#define NB_LD_IMM64_RAW(d, s, v)                                                            \
	NB_INSN(BPF_LD | BPF_DW | BPF_IMM, d, s, 0, (__s32)(__u32)(__u64)(v)),              \
	NB_INSN(0, 0, 0, 0, (__s32)(__u32)((__u64)(v) >> 32))
#define NB_LD_IMM64(d, v)	   NB_LD_IMM64_RAW(d, 0, v)
/* ldimm64 of a map by netbpf map id (the kernel's map fd) */
#define NB_LD_MAP_ID(d, id)	   NB_LD_IMM64_RAW(d, BPF_PSEUDO_MAP_FD, id)
/* ldimm64 of the idx-th map of the load's map array (the kernel's fd_array) */
#define NB_LD_MAP_IDX(d, idx)	   NB_LD_IMM64_RAW(d, BPF_PSEUDO_MAP_IDX, idx)
/* ldimm64 of the address off bytes into the value of the idx-th map (global data) */
#define NB_LD_MAP_IDX_VALUE(d, idx, off)                                                    \
	NB_INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_IDX_VALUE, 0, idx),            \
	NB_INSN(0, 0, 0, 0, off)
/* ldimm64 of a subprogram's address (callbacks): o is relative to the next instruction */
#define NB_LD_FUNC(d, o)                                                                    \
	NB_INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_FUNC, 0, o), NB_INSN(0, 0, 0, 0, 0)

/* Memory */
#define NB_LDX_MEM(sz, d, s, o)	   NB_INSN(BPF_LDX | BPF_SIZE(sz) | BPF_MEM, d, s, o, 0)
#define NB_LDX_MEMSX(sz, d, s, o)  NB_INSN(BPF_LDX | BPF_SIZE(sz) | BPF_MEMSX, d, s, o, 0)
#define NB_STX_MEM(sz, d, s, o)	   NB_INSN(BPF_STX | BPF_SIZE(sz) | BPF_MEM, d, s, o, 0)
#define NB_ST_MEM(sz, d, o, i)	   NB_INSN(BPF_ST | BPF_SIZE(sz) | BPF_MEM, d, 0, o, i)
#define NB_ATOMIC_OP(sz, op, d, s, o) NB_INSN(BPF_STX | BPF_SIZE(sz) | BPF_ATOMIC, d, s, o, op)
#define NB_LD_ABS(sz, i)	   NB_INSN(BPF_LD | BPF_SIZE(sz) | BPF_ABS, 0, 0, 0, i)
#define NB_LD_IND(sz, s, i)	   NB_INSN(BPF_LD | BPF_SIZE(sz) | BPF_IND, 0, s, 0, i)

/* Jumps */
#define NB_JMP_REG(op, d, s, o)	   NB_INSN(BPF_JMP | BPF_OP(op) | BPF_X, d, s, o, 0)
#define NB_JMP_IMM(op, d, i, o)	   NB_INSN(BPF_JMP | BPF_OP(op) | BPF_K, d, 0, o, i)
#define NB_JMP32_REG(op, d, s, o)  NB_INSN(BPF_JMP32 | BPF_OP(op) | BPF_X, d, s, o, 0)
#define NB_JMP32_IMM(op, d, i, o)  NB_INSN(BPF_JMP32 | BPF_OP(op) | BPF_K, d, 0, o, i)
#define NB_JA(o)		   NB_INSN(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define NB_GOTOL(o)		   NB_INSN(BPF_JMP32 | BPF_JA, 0, 0, 0, o)
#define NB_CALL_HELPER(id)	   NB_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, id)
#define NB_CALL_REL(o)		   NB_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, o)
#define NB_EXIT()		   NB_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* may_goto +o (BPF_JCOND with src_reg BPF_MAY_GOTO): the can_loop of bpf_experimental.h */
#define NB_MAY_GOTO(o)		   NB_INSN(BPF_JMP | BPF_JCOND, 0, BPF_MAY_GOTO, o, 0)

#endif /* NB_TEST_BPF_ASM_H */
