// SPDX-License-Identifier: GPL-2.0
/*
 * What each subprogram may do, read from its instructions before any path is walked, as the
 * kernel's check_subprogs and check_cfg note it: whether it makes tail calls or LD_ABS loads
 * (both may leave it early, which the func_info rules restrict), and whether calling it may
 * move the packet data (a helper that changes it, a tail call, or a function it calls or
 * hands to a helper that does). A global function is not walked in its caller's context, so
 * the caller forgets its packet pointers at the call when the function may move the data.
 * The instructions that may leave a function early (a tail call that hits, an LD_ABS that
 * fails) get an exit of their function as a second successor, so that the liveness analyses
 * see the function may end there.
 */
#include "bpf/verifier/verifier.h"

static u32 subprog_at(const struct nb_verifier_env *env, u32 insn)
{
	u32 i = 0;

	while (i + 1 < env->subprog_cnt && env->subprog[i + 1].start <= insn)
		i++;
	return i;
}

static bool helper_changes_pkt_data(const struct nb_verifier_env *env, s32 func_id)
{
	const struct nb_func_proto *fn;

	if (func_id == BPF_FUNC_tail_call)
		return true;
	if (func_id <= 0 || func_id >= __BPF_FUNC_MAX_ID || !env->ops->get_func_proto)
		return false;
	fn = env->ops->get_func_proto(func_id, env->prog);
	return fn && fn->changes_pkt_data;
}

static bool is_call_or_func_ref(const struct bpf_insn *insn)
{
	return insn_is_pseudo_call(insn) ||
	       (insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC);
}

/* The last exit of the subprogram that holds insn, plus one; 0 when it has none. */
static u32 exit_of(const struct nb_verifier_env *env, u32 insn)
{
	u32 s = subprog_at(env, insn);

	for (u32 i = env->subprog[s + 1].start; i-- > env->subprog[s].start;)
		if (insn_is_exit(&env->insns[i]) &&
		    !(i > 0 && insn_is_ldimm64(&env->insns[i - 1])))
			return i + 1;
	return 0;
}

void scan_subprogs(struct nb_verifier_env *env)
{
	bool changed = true;

	for (u32 i = 0; i < env->len; i++) {
		const struct bpf_insn *insn = &env->insns[i];
		struct nb_subprog_info *sub = &env->subprog[subprog_at(env, i)];
		bool ld_abs = insn_class(insn) == BPF_LD && (BPF_MODE(insn->code) == BPF_ABS ||
							     BPF_MODE(insn->code) == BPF_IND);

		if (insn_is_helper_call(insn)) {
			sub->has_tail_call |= insn->imm == BPF_FUNC_tail_call;
			sub->changes_pkt_data |= helper_changes_pkt_data(env, insn->imm);
		}
		sub->has_ld_abs |= ld_abs;
		if (ld_abs || (insn_is_helper_call(insn) && insn->imm == BPF_FUNC_tail_call))
			env->aux[i].early_exit = exit_of(env, i);
		if (insn_is_ldimm64(insn))
			i++;
	}
	/* Callees' effects are their callers': to a fixed point over the call graph. */
	for (u32 round = 0; changed && round <= env->subprog_cnt; round++) {
		changed = false;
		for (u32 i = 0; i < env->len; i++) {
			const struct bpf_insn *insn = &env->insns[i];
			s64 target = (s64)i + insn->imm + 1;
			struct nb_subprog_info *caller, *callee;

			if (!is_call_or_func_ref(insn) || target < 0 || target >= env->len) {
				if (insn_is_ldimm64(insn))
					i++;
				continue;
			}
			caller = &env->subprog[subprog_at(env, i)];
			callee = &env->subprog[subprog_at(env, target)];
			if (callee->changes_pkt_data && !caller->changes_pkt_data) {
				caller->changes_pkt_data = true;
				changed = true;
			}
			if (insn_is_ldimm64(insn))
				i++;
		}
	}
}
