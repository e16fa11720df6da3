/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Random programs for the bounds differential against the kernel (test_verifier_bounds_kernel.c):
 * socket filters on registers and their stack, whose scalars take many shapes on many paths:
 *
 *   r6..r9 from bpf_get_prandom_u32, r0..r5 copies of them; every register shaped (masked,
 *   shifted, sign-extended, set to an edge constant); then units of scalar operations (every ALU
 *   and ALU64 operation with edge immediates or registers, moves and sign-extending moves, byte
 *   swaps, negation), copies that stay linked (r1 = r2, w1 = w2, r1 = r2 + K), spills and fills
 *   of every width at aligned and unaligned offsets, atomics on the stack, loads and stores
 *   at a bounded variable stack offset, and forward branches of every condition (JMP and
 *   JMP32), all landing by the body's end.
 *
 * A probe then asks what the verifier knows of one register there, over every path:
 *
 *       r0 = K ll; if rX op r0 goto trap; ...; trap: w0 /= 0
 *
 * The division by the constant zero is refused only where the verifier walks, so the program
 * is accepted exactly when the verifier proves "rX op K" false on every path: for op JGT, when
 * K is at least the largest umax it knows for rX.
 */
#ifndef NB_TEST_BOUNDS_GEN_H
#define NB_TEST_BOUNDS_GEN_H

#include <linux/bpf.h>

#include "common/types.h"

#define BOUNDS_GEN_MAX_INSNS 352
#define BOUNDS_GEN_PROBE_INSNS 7

/*
 * Write the body of seed into insns (BOUNDS_GEN_MAX_INSNS room, probe included); returns its
 * length. The body leaves every register r0..r9 set.
 */
unsigned int bounds_gen_body(u64 seed, struct bpf_insn *insns);

/* Append the probe "rX op K" (cls BPF_JMP or BPF_JMP32, reg 1..9) and the exit at len. */
unsigned int bounds_gen_probe(struct bpf_insn *insns, unsigned int len, u8 cls, u8 op, u8 reg,
			      u64 k);

#endif /* NB_TEST_BOUNDS_GEN_H */
