// SPDX-License-Identifier: GPL-2.0
/* Callback descriptors: see callback.h. */
#include <errno.h>
#include <stdlib.h>

#include "bpf/callback.h"
#include "bpf/prog.h"

int nb_prog_resolve_callbacks(struct nb_prog *prog, struct nb_log *log)
{
	u32 cnt = 0, n = 0;

	for (u32 i = 0; i < prog->len; i++) {
		if (!insn_is_ldimm64(&prog->insns[i]))
			continue;
		if (prog->insns[i].src_reg == BPF_PSEUDO_FUNC)
			cnt++;
		i++;
	}
	if (!cnt)
		return 0;
	/* One allocation: the instructions point into it, so it never moves. */
	prog->callbacks = calloc(cnt, sizeof(*prog->callbacks));
	if (!prog->callbacks)
		return -ENOMEM;
	prog->callback_cnt = cnt;
	for (u32 i = 0; i < prog->len; i++) {
		struct bpf_insn *insn = &prog->insns[i];
		s64 target;

		if (!insn_is_ldimm64(insn))
			continue;
		i++;
		if (insn->src_reg != BPF_PSEUDO_FUNC)
			continue;
		target = (s64)(i - 1) + insn->imm + 1;
		if (target < 0 || target >= prog->len || target == i) {
			nb_log_printf(log, "insn %u: callback target %lld outside the program\n",
				      i - 1, (long long)target);
			return -EINVAL;
		}
		prog->callbacks[n].prog = prog;
		prog->callbacks[n].insn_off = (u32)target;
		insn_ldimm64_set(insn, (u64)(uintptr_t)&prog->callbacks[n]);
		n++;
	}
	return 0;
}
