/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruction-level cases of the whole instruction set: a program, an optional memory block that
 * r1/r2 describe, and the r0 it must return. The expectations are worked out by hand from
 * RFC 9669 and the kernel's semantics; the interpreter tests (test_isa.c), the kernel reference
 * check (tests/kernel/test_isa_kernel.c) and later the JIT all run the same table.
 */
#ifndef NB_TEST_ISA_CASES_H
#define NB_TEST_ISA_CASES_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/bpf.h>

struct isa_case {
	const char *name;
	const struct bpf_insn *insns;
	unsigned int insn_cnt;
	const unsigned char *mem;	/* copied into a private block for r1/r2; NULL: none */
	size_t mem_len;
	__u64 expected;			/* r0 at exit */
	/*
	 * The kernel can express the case as a socket filter: no r1/r2 memory, every register
	 * written before it is read, a combined stack of at most 512 bytes, no recursion.
	 */
	bool kernel;
};

extern const struct isa_case isa_cases[];
extern const unsigned int isa_case_cnt;

#endif /* NB_TEST_ISA_CASES_H */
