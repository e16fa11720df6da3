// SPDX-License-Identifier: GPL-2.0
/*
 * Helper resolution, the part of the kernel's do_misc_fixups that every load needs: a helper
 * call's id becomes an index into the program's table of helper functions, and bpf_tail_call
 * becomes the internal tail-call instruction. The verifier runs this after its proof; checked
 * and unverified loads run it alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "bpf/prog_type.h"

/* Registered when the library is loaded, read-only afterwards. */
static struct nb_internal_func *internal_funcs;

int nb_internal_func_register(struct nb_internal_func *func)
{
	for (const struct nb_internal_func *f = internal_funcs; f; f = f->next)
		if (f->fn == func->fn || !strcmp(f->name, func->name))
			return -EEXIST;
	func->next = internal_funcs;
	internal_funcs = func;
	return 0;
}

const char *nb_internal_func_name(nb_helper_fn fn)
{
	for (const struct nb_internal_func *f = internal_funcs; f; f = f->next)
		if (f->fn == fn)
			return f->name;
	return NULL;
}

int nb_prog_helper_index(struct nb_prog *prog, nb_helper_fn fn)
{
	nb_helper_fn *table;

	for (u32 i = 0; i < prog->helper_cnt; i++)
		if (prog->helpers[i] == fn)
			return i;
	table = realloc(prog->helpers, (prog->helper_cnt + 1) * sizeof(*table));
	if (!table)
		return -ENOMEM;
	prog->helpers = table;
	prog->helpers[prog->helper_cnt] = fn;
	return prog->helper_cnt++;
}

int nb_resolve_helpers(struct nb_prog *prog, struct nb_log *log)
{
	for (u32 i = 0; i < prog->len; i++) {
		struct bpf_insn *insn = &prog->insns[i];
		const struct nb_func_proto *proto;
		const char *name;
		int idx;

		if (insn_is_call(insn) && insn->src_reg == NB_CALL_FIXED) {
			/* Written by the fixup with its table index already. */
			insn->src_reg = 0;
			continue;
		}
		if (!insn_is_helper_call(insn))
			continue;
		name = nb_helper_name(insn->imm);
		proto = name ? prog->ops->get_func_proto(insn->imm, prog) : NULL;
		if (!proto || !proto->func) {
			if (nb_kernel_offers_helper(prog->ops, insn->imm))
				nb_log_printf(log, "insn %u: helper %s#%d is not implemented by "
					      "netbpf\n", i, name ? name : "unknown", insn->imm);
			else
				nb_log_printf(log, "insn %u: %s func %s#%d for program type %s\n",
					      i, name ? "unsupported" : "unknown",
					      name ? name : "unknown", insn->imm, prog->ops->name);
			return -EINVAL;
		}
		if (proto->gpl_only && !prog->gpl_compatible) {
			nb_log_printf(log, "insn %u: cannot call GPL-restricted function %s from "
				      "non-GPL compatible program\n", i, name);
			return -EINVAL;
		}
		if (insn->imm == BPF_FUNC_tail_call) {
			if (prog->load_flags & NB_PROG_LOAD_CHECKED) {
				nb_log_printf(log, "insn %u: tail calls need a verified program\n",
					      i);
				return -EINVAL;
			}
			insn->code = NB_OP_TAIL_CALL;
			insn->imm = 0;
			continue;
		}
		idx = nb_prog_helper_index(prog, proto->func);
		if (idx < 0)
			return idx;
		insn->imm = idx;
	}
	return 0;
}
