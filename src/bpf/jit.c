// SPDX-License-Identifier: GPL-2.0
/*
 * Architecture dispatch for the JIT, and what every back end shares: freeing the image and
 * running checked-mode code with the checked interpreter's fault reports. Architectures without
 * a back end run every program on the interpreter.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf/jit.h"

int nb_jit_compile(struct nb_prog *prog, struct nb_log *log)
{
#ifdef __x86_64__
	return nb_jit_x86_64_compile(prog, log);
#else
	return -EOPNOTSUPP;
#endif
}

void nb_jit_free(struct nb_prog *prog)
{
	if (prog->jit_image) {
		size_t page = getpagesize();

		munmap(prog->jit_image, (prog->jit_size + page - 1) & ~(page - 1));
	}
	free(prog->jit_insn_offs);
	prog->jit_image = NULL;
	prog->jit_insn_offs = NULL;
	prog->jited = NULL;
	prog->jit_tail_entry = NULL;
	prog->jited_checked = NULL;
	for (u32 k = 0; k < prog->callback_cnt; k++)
		prog->callbacks[k].jited = NULL;
}

const char *nb_jit_fault_reason(enum nb_jit_fault kind)
{
	static const char *const reason[NB_JIT_FAULT_MAX] = {
		[NB_JIT_FAULT_MEM] = "invalid memory access",
		[NB_JIT_FAULT_ALIGN] = "misaligned atomic access",
		[NB_JIT_FAULT_BUDGET] = "instruction limit exceeded",
		[NB_JIT_FAULT_DEPTH] = "call stack too deep",
	};

	return kind < NB_JIT_FAULT_MAX && reason[kind] ? reason[kind] : "unknown fault";
}

int nb_jit_run_checked(const struct nb_prog *prog, void *mem, size_t len, u64 *r0,
		       struct nb_log *log)
{
	struct nb_jit_env env;
	u64 ret;

	/* A zeroed stack: unverified code may read what it never wrote. */
	memset(&env, 0, sizeof(env));
	env.budget = NB_CHECKED_INSN_BUDGET;
	env.loops = NB_MAX_LOOPS;
	env.mem_lo = (u64)(uintptr_t)mem;
	env.mem_len = mem ? len : 0;
	env.stack_lo = (u64)(uintptr_t)env.stack;
	ret = prog->jited_checked((u64)(uintptr_t)(len ? mem : NULL), len, &env);
	if (env.fault_kind) {
		const char *why = nb_jit_fault_reason(env.fault_kind);

		if (env.fault_size)
			nb_log_printf(log, "insn %u: %s: %u bytes at 0x%llx\n", env.fault_insn,
				      why, env.fault_size, (unsigned long long)env.fault_addr);
		else
			nb_log_printf(log, "insn %u: %s\n", env.fault_insn, why);
		return -EFAULT;
	}
	*r0 = ret;
	return 0;
}
