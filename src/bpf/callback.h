/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Callbacks: BPF subprograms that helpers call (bpf_loop, bpf_for_each_map_elem). The loader
 * gives `ldimm64 rX, BPF_PSEUDO_FUNC, imm = offset of the subprogram from the next instruction`;
 * after the verifier's fixup, nb_prog_resolve_callbacks turns each into the address of a
 * descriptor owned by the program, and the helper hands that address to nb_callback_run.
 */
#ifndef NB_BPF_CALLBACK_H
#define NB_BPF_CALLBACK_H

#include "common/types.h"

struct nb_prog;
struct nb_log;

/* Native entry of a JIT-compiled callback: r1..r5 in the SysV argument registers. */
typedef u64 (*nb_callback_fn)(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5);

struct nb_callback {
	const struct nb_prog *prog;	/* the owner; the descriptor lives as long as it */
	u32 insn_off;			/* first instruction of the subprogram in prog->insns */
	/* Set by the JIT when it compiles the subprogram; NULL: the interpreter runs it. */
	nb_callback_fn jited;
};

/* The interpreter's entry for subprograms (interp.c): starts at insn_off with its own stack. */
u64 nb_interp_run_at(const struct nb_prog *prog, u32 insn_off, u64 r1, u64 r2, u64 r3, u64 r4,
		     u64 r5);

/* Run a callback with r1..r5 on its own stack; returns its r0. The one way helpers call BPF. */
static inline u64 nb_callback_run(const void *callback, u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	const struct nb_callback *cb = callback;

	if (cb->jited)
		return cb->jited(r1, r2, r3, r4, r5);
	return nb_interp_run_at(cb->prog, cb->insn_off, r1, r2, r3, r4, r5);
}

/*
 * Turn every BPF_PSEUDO_FUNC ldimm64 of prog->insns into its descriptor's address (the src_reg
 * stays BPF_PSEUDO_FUNC so dumps and the JIT know it). Runs after the verifier's fixup, so the
 * offsets are those of the final instructions.
 */
int nb_prog_resolve_callbacks(struct nb_prog *prog, struct nb_log *log);

#endif /* NB_BPF_CALLBACK_H */
