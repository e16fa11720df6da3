/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differential runs of one program on the JIT and on the interpreter: checked JIT against checked
 * interpreter (r0, memory block, fault report), and, when the program ran cleanly, unchecked JIT
 * against unchecked interpreter. Shared by the JIT tests and the libFuzzer target.
 */
#ifndef NB_TEST_JIT_DIFF_H
#define NB_TEST_JIT_DIFF_H

#include <stddef.h>
#include <linux/bpf.h>

#include "common/types.h"

/* A program type of the tests whose LD_ABS/LD_IND read nb_jit_diff_set_packet's bytes. */
#define NB_JIT_DIFF_PROG_TYPE ((enum bpf_prog_type)60)

enum nb_jit_diff_result {
	NB_JIT_DIFF_SAME = 0,
	NB_JIT_DIFF_MISMATCH,
	NB_JIT_DIFF_REJECTED,	/* the loader refused the program: nothing to compare */
	NB_JIT_DIFF_NO_JIT,	/* no JIT on this machine */
};

void nb_jit_diff_set_packet(const u8 *pkt, u32 len);

/*
 * Run insns on mem (copied, never written) on both engines. why receives the first difference
 * or the loader's complaint. unchecked: also compare the unchecked engines when the checked
 * run ended without a fault (the program must then be safe).
 */
enum nb_jit_diff_result nb_jit_diff(const struct bpf_insn *insns, u32 cnt, const u8 *mem,
				    u32 mem_len, bool unchecked, char *why, size_t why_len);

#endif /* NB_TEST_JIT_DIFF_H */
