/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Random verifier-valid programs for the ISA differential against the kernel
 * (test_isa_diff_kernel.c). The JIT work's generator (bpf_gen, JIT against interpreter) had not
 * landed when this was written, and its programs read a memory block behind r1 that a kernel
 * program type does not give; these programs need nothing but registers and their stack, so
 * both verifiers take them as SCHED_CLS:
 *
 *   r1 saved at fp-72; the 64 stack bytes and r0..r9 set to edge or random values; 16..63 units
 *   of ALU/ALU64 (every operation, registers and immediates, signed division and modulo, shifts
 *   with masked register amounts, NEG, byte swaps, sign-extending moves), stack loads (also
 *   sign-extending) and stores of every size, atomics of every operation, forward jumps of every
 *   condition (JMP and JMP32) to unit boundaries (no JA: the kernel refuses
 *   the code it would leave unreachable); then the stack and r1..r9 are folded into r0,
 *   whose high half is written to skb->cb[0] (test runs return only the low half).
 */
#ifndef NB_TEST_ISA_GEN_H
#define NB_TEST_ISA_GEN_H

#include <linux/bpf.h>

#include "common/types.h"

#define ISA_GEN_MAX_INSNS 512

/* Write the program of seed into insns (ISA_GEN_MAX_INSNS room); returns its length. */
unsigned int isa_gen_prog(u64 seed, struct bpf_insn *insns);

#endif /* NB_TEST_ISA_GEN_H */
