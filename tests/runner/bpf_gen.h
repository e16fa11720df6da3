/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A generator of random, valid, terminating BPF programs for differential testing of the
 * engines (the JIT against the interpreter). A program reads and writes a memory block behind r1
 * (r2 holds its length) and its own stack, and returns a mix of all its registers in r0.
 *
 * Every opcode class appears: ALU and ALU64 with random registers and edge immediates (division
 * and modulo by 0 and -1, shifts by any amount, byte swaps, sign-extending moves), loads (also
 * sign-extending), stores, atomics on the stack and the memory block, ldimm64, bounded forward
 * jumps of every condition, bounded loops, bpf-to-bpf calls and, when asked, LD_ABS/LD_IND.
 * Stack reads only touch slots the function wrote and memory accesses stay inside the block,
 * so the programs also run unchecked with deterministic results.
 */
#ifndef NB_TEST_BPF_GEN_H
#define NB_TEST_BPF_GEN_H

#include <linux/bpf.h>

#include "common/types.h"

struct nb_gen_opts {
	u32 mem_len;	/* bytes of the memory block, a multiple of 8, >= 16 */
	u32 max_insns;	/* capacity of the output */
	bool ld_abs;	/* emit LD_ABS/LD_IND (the program type must have ld_abs) */
};

/* Deterministic pseudo-random numbers (splitmix64). */
u64 nb_gen_rand(u64 *state);

/* Write a program for seed into insns; returns its length (0 if max_insns was too small). */
u32 nb_gen_prog(u64 seed, const struct nb_gen_opts *opts, struct bpf_insn *insns);

#endif /* NB_TEST_BPF_GEN_H */
