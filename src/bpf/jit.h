/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JIT entry points. nb_jit_compile leaves prog->jited NULL when the architecture has no JIT or
 * the program cannot be compiled; the interpreter then runs it.
 *
 * Programs loaded with NB_PROG_LOAD_CHECKED compile in checked mode instead (prog->jited_checked):
 * every load and store is bounded to the stack and the caller's memory block, every instruction
 * spends one unit of a budget and calls are limited to NB_MAX_CALL_FRAMES, exactly as the checked
 * interpreter does, with the same fault reports.
 */
#ifndef NB_BPF_JIT_H
#define NB_BPF_JIT_H

#include "bpf/prog.h"

/* Checked runs stop after this many instructions (the checked interpreter's budget). */
#define NB_CHECKED_INSN_BUDGET (1ULL << 27)

enum nb_jit_fault {
	NB_JIT_FAULT_NONE = 0,
	NB_JIT_FAULT_MEM,	/* "invalid memory access" */
	NB_JIT_FAULT_ALIGN,	/* "misaligned atomic access" */
	NB_JIT_FAULT_BUDGET,	/* "instruction limit exceeded" */
	NB_JIT_FAULT_DEPTH,	/* "call stack too deep" */
	NB_JIT_FAULT_MAX,
};

/*
 * State of one run, reached through a register of the native code. Unchecked runs use only the
 * first three fields (in the native frame); checked runs the whole structure. Field offsets are
 * part of the code generator's contract.
 */
struct nb_jit_env {
	/*
	 * The run's count of tail calls: this env's tail_calls, or the one of the program whose
	 * subprogram tail-called into this one (its frames are still below, and it goes on
	 * counting when this program returns to it), as the kernel's tail_call_cnt_ptr.
	 */
	u32 *tail_call_cnt;
	u32 tail_calls;
	u32 depth;		/* bpf-to-bpf call depth (checked) */
	u32 loops;		/* may_goto's budget left in this run of the program */
	u64 saved_rsp;		/* native stack pointer of the entry, to unwind aborts and faults */
	u64 budget;		/* instructions left (checked) */
	u64 mem_lo;		/* the memory block (checked) */
	u64 mem_len;
	u64 stack_lo;		/* the BPF stack: stack[] below */
	u64 fault_addr;
	u32 fault_insn;
	u32 fault_size;
	u32 fault_kind;		/* enum nb_jit_fault */
	u8 stack[NB_MAX_CALL_FRAMES * NB_STACK_SIZE] __attribute__((aligned(16)));
};

int nb_jit_compile(struct nb_prog *prog, struct nb_log *log);
void nb_jit_free(struct nb_prog *prog);

/* Run a program JIT-compiled in checked mode: nb_prog_run_checked's twin (same errors). */
int nb_jit_run_checked(const struct nb_prog *prog, void *mem, size_t len, u64 *r0,
		       struct nb_log *log);

/* The reason text of a fault, as the checked interpreter words it. */
const char *nb_jit_fault_reason(enum nb_jit_fault kind);

#ifdef __x86_64__
int nb_jit_x86_64_compile(struct nb_prog *prog, struct nb_log *log);
#endif

#endif /* NB_BPF_JIT_H */
