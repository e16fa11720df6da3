/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding helpers over struct bpf_insn from <linux/bpf.h>, and the few instruction-set constants
 * newer than the uapi headers of the build machine (cpu v4, RFC 9669), guarded so that newer
 * headers win.
 */
#ifndef NB_BPF_INSN_H
#define NB_BPF_INSN_H

#include <linux/bpf.h>

#include "common/types.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80 /* sign-extending load (cpu v4) */
#endif
#ifndef BPF_JCOND
#define BPF_JCOND 0xe0 /* may_goto (Linux 6.9): not part of RFC 9669 */
#endif
#ifndef BPF_MAY_GOTO
#define BPF_MAY_GOTO 0 /* the src_reg of BPF_JCOND's one defined condition */
#endif

/*
 * Opcodes that exist only after the verifier's fixup, never in a loaded program: the kernel's
 * BPF_TAIL_CALL. Its class/op pair is reserved by the ISA, so a loaded program using it is
 * rejected as an unknown opcode.
 */
#define NB_OP_TAIL_CALL (BPF_JMP | 0xf0)
/*
 * dst = this worker's index (nb_this_cpu), for the per-CPU map lookups the fixup writes in line:
 * the twin of the kernel's BPF_MOV64_PERCPU_REG. LD with mode MEM is a classic-BPF leftover the
 * ISA does not define, so no loaded program can contain it.
 */
#define NB_OP_THIS_CPU (BPF_LD | BPF_MEM | BPF_W)
/*
 * A helper call the fixup wrote with its imm already an index into prog->helpers (a map's own
 * lookup function): nb_resolve_helpers only clears this mark. Never seen by the engines.
 */
#define NB_CALL_FIXED 0xf

#define NB_MAX_BPF_REG	 11 /* r0..r10 */
#define NB_STACK_SIZE	 512
#define NB_MAX_CALL_FRAMES 8
#define NB_MAX_TAIL_CALLS 33
#define NB_MAX_INSNS	 1000000
/*
 * may_goto falls through this many times per run of a program (the kernel's BPF_MAX_LOOPS),
 * then always jumps: the loops it bounds end whatever their data.
 */
#define NB_MAX_LOOPS	 (8 * 1024 * 1024)

static inline u8 insn_class(const struct bpf_insn *insn)
{
	return BPF_CLASS(insn->code);
}

static inline bool insn_is_alu(const struct bpf_insn *insn)
{
	return insn_class(insn) == BPF_ALU || insn_class(insn) == BPF_ALU64;
}

static inline bool insn_is_jmp(const struct bpf_insn *insn)
{
	return insn_class(insn) == BPF_JMP || insn_class(insn) == BPF_JMP32;
}

static inline bool insn_is_ldimm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static inline bool insn_is_exit(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_EXIT);
}

static inline bool insn_is_call(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL);
}

static inline bool insn_is_helper_call(const struct bpf_insn *insn)
{
	return insn_is_call(insn) && insn->src_reg == 0;
}

static inline bool insn_is_pseudo_call(const struct bpf_insn *insn)
{
	return insn_is_call(insn) && insn->src_reg == BPF_PSEUDO_CALL;
}

static inline bool insn_is_atomic(const struct bpf_insn *insn)
{
	return insn_class(insn) == BPF_STX && BPF_MODE(insn->code) == BPF_ATOMIC;
}

/* Unconditional jump: ja (16-bit offset) or gotol (JMP32 ja, 32-bit offset in imm). */
static inline bool insn_is_ja(const struct bpf_insn *insn)
{
	return insn_is_jmp(insn) && BPF_OP(insn->code) == BPF_JA;
}

/* Conditional jumps: every JMP/JMP32 opcode but ja, call and exit. */
static inline bool insn_is_cond_jmp(const struct bpf_insn *insn)
{
	u8 op = BPF_OP(insn->code);

	return insn_is_jmp(insn) && op != BPF_JA && op != BPF_CALL && op != BPF_EXIT;
}

/*
 * may_goto +off: jumps when the run's loop budget is spent, else falls through and spends
 * one. The verifier walks both ways.
 */
static inline bool insn_is_may_goto(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_JCOND) && insn->src_reg == BPF_MAY_GOTO;
}

/* Offset of a jump relative to the next instruction (imm for gotol, off otherwise). */
static inline s32 insn_jmp_off(const struct bpf_insn *insn)
{
	if (insn->code == (BPF_JMP32 | BPF_JA))
		return insn->imm;
	return insn->off;
}

static inline u32 insn_size_bytes(const struct bpf_insn *insn)
{
	switch (BPF_SIZE(insn->code)) {
	case BPF_B:
		return 1;
	case BPF_H:
		return 2;
	case BPF_W:
		return 4;
	default:
		return 8;
	}
}

/* The 64-bit immediate of an ldimm64 pair. */
static inline u64 insn_ldimm64_val(const struct bpf_insn *insn)
{
	return (u64)(u32)insn[0].imm | ((u64)(u32)insn[1].imm << 32);
}

static inline void insn_ldimm64_set(struct bpf_insn *insn, u64 val)
{
	insn[0].imm = (s32)(u32)val;
	insn[1].imm = (s32)(u32)(val >> 32);
}

/* Signed division and modulo are div/mod with off == 1 (cpu v4). */
static inline bool insn_is_signed_divmod(const struct bpf_insn *insn)
{
	u8 op = BPF_OP(insn->code);

	return insn_is_alu(insn) && (op == BPF_DIV || op == BPF_MOD) && insn->off == 1;
}

/* Sign-extending move: mov with off 8, 16 or 32 (cpu v4). */
static inline bool insn_is_movsx(const struct bpf_insn *insn)
{
	return insn_is_alu(insn) && BPF_OP(insn->code) == BPF_MOV && insn->off != 0;
}

#endif /* NB_BPF_INSN_H */
