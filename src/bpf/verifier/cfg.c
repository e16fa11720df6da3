// SPDX-License-Identifier: GPL-2.0
/*
 * The control flow graph, before any state is walked: subprogram boundaries; a depth-first
 * search that finds unreachable instructions and marks prune points (where states are
 * compared: jump targets, conditional jumps, the instructions after calls) and jump points
 * (instructions reached other than by falling through, recorded in the jump history for
 * precision backtracking), as the kernel's check_cfg/visit_insn; each subprogram's
 * instructions in postorder; and register liveness (compute_live_registers), a backward
 * dataflow that lets state comparison ignore dead registers.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/verifier/verifier.h"

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static bool is_pseudo_func(const struct bpf_insn *insn)
{
	return insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC;
}

int check_subprogs(struct nb_verifier_env *env)
{
	u32 starts[NB_MAX_SUBPROGS], n = 0;

	starts[n++] = 0;
	for (u32 i = 0; i < env->len; i++) {
		const struct bpf_insn *insn = &env->insns[i];
		u32 target;
		bool known = false;

		if (!insn_is_pseudo_call(insn) && !is_pseudo_func(insn)) {
			if (insn_is_ldimm64(insn))
				i++;
			continue;
		}
		target = i + insn->imm + 1;
		for (u32 j = 0; j < n; j++)
			known |= starts[j] == target;
		if (!known) {
			if (n >= NB_MAX_SUBPROGS) {
				verbose(env, "too many subprograms\n");
				return -E2BIG;
			}
			starts[n++] = target;
		}
		if (insn_is_ldimm64(insn))
			i++;
	}
	qsort(starts, n, sizeof(starts[0]), cmp_u32);
	for (u32 i = 0; i < n; i++)
		env->subprog[i].start = starts[i];
	env->subprog[n].start = env->len;
	env->subprog_cnt = n;
	return 0;
}

/* Helpers that call a callback of the program, synchronously, any number of times. */
bool is_sync_callback_calling_insn(const struct bpf_insn *insn)
{
	if (!insn_is_helper_call(insn))
		return false;
	switch (insn->imm) {
	case BPF_FUNC_for_each_map_elem:
	case BPF_FUNC_find_vma:
	case BPF_FUNC_loop:
	case BPF_FUNC_user_ringbuf_drain:
		return true;
	default:
		return false;
	}
}

/* Successors of insn idx inside its subprogram (calls continue at the next instruction). */
int insn_successors(const struct nb_verifier_env *env, u32 idx, u32 succ[2])
{
	const struct bpf_insn *insn = &env->insns[idx];
	int n = 0;

	if (insn_is_exit(insn))
		return 0;
	if (insn_is_ja(insn)) {
		succ[n++] = idx + insn_jmp_off(insn) + 1;
		return n;
	}
	succ[n++] = idx + (insn_is_ldimm64(insn) ? 2 : 1);
	if (insn_is_cond_jmp(insn))
		succ[n++] = idx + insn->off + 1;
	else if (env->aux[idx].early_exit)
		succ[n++] = env->aux[idx].early_exit - 1;	/* a tail call, an LD_ABS */
	return n;
}

enum { DISCOVERED = 0x10, EXPLORED = 0x20, FALLTHROUGH = 1, BRANCH = 2 };
enum { DONE_EXPLORING = 0, KEEP_EXPLORING = 1 };

struct cfg_walk {
	u8 *state;	/* DISCOVERED | edges labelled, or EXPLORED */
	u32 *stack;
	u32 sp;
};

static void mark_prune_point(struct nb_verifier_env *env, u32 idx)
{
	env->aux[idx].prune_point = true;
}

static void mark_jmp_point(struct nb_verifier_env *env, u32 idx)
{
	env->aux[idx].jmp_point = true;
}

/* Edge e from t to w: a tree edge pushes w; a back-edge (a loop) is allowed, as for root. */
static int push_insn(struct nb_verifier_env *env, struct cfg_walk *cw, u32 t, u32 w, int e)
{
	if (cw->state[t] >= (DISCOVERED | e))
		return DONE_EXPLORING;
	if (w >= env->len) {
		verbose(env, "jump out of range from insn %u to %u\n", t, w);
		return -EINVAL;
	}
	if (e == BRANCH) {
		mark_prune_point(env, w);
		mark_jmp_point(env, w);
	}
	if (cw->state[w] == 0) {
		cw->state[t] = DISCOVERED | e;
		cw->state[w] = DISCOVERED;
		cw->stack[cw->sp++] = w;
		return KEEP_EXPLORING;
	}
	if (cw->state[w] == EXPLORED)
		cw->state[t] = DISCOVERED | e;
	return DONE_EXPLORING;
}

/* A call (or the address of a callback): the callee is walked as a branch of the caller. */
static int visit_func_call_insn(struct nb_verifier_env *env, struct cfg_walk *cw, u32 t,
				bool visit_callee)
{
	u32 size = insn_is_ldimm64(&env->insns[t]) ? 2 : 1;
	int ret = push_insn(env, cw, t, t + size, FALLTHROUGH);

	if (ret)
		return ret;
	/* The walk comes back here from the callee's exit. */
	mark_prune_point(env, t + size);
	mark_jmp_point(env, t + size);
	if (visit_callee) {
		mark_prune_point(env, t);
		ret = push_insn(env, cw, t, t + env->insns[t].imm + 1, BRANCH);
	}
	return ret;
}

static int visit_insn(struct nb_verifier_env *env, struct cfg_walk *cw, u32 t)
{
	const struct bpf_insn *insn = &env->insns[t];
	int ret;

	if (is_pseudo_func(insn))
		return visit_func_call_insn(env, cw, t, true);
	if (!insn_is_jmp(insn))
		return push_insn(env, cw, t, t + (insn_is_ldimm64(insn) ? 2 : 1), FALLTHROUGH);
	switch (BPF_OP(insn->code)) {
	case BPF_EXIT:
		return DONE_EXPLORING;
	case BPF_CALL:
		/*
		 * A helper calling a callback is where the walk comes back after each
		 * callback iteration: a state is always kept there, so that iterations that
		 * change nothing are seen to converge.
		 */
		if (is_sync_callback_calling_insn(insn)) {
			env->aux[t].calls_callback = true;
			env->aux[t].force_checkpoint = true;
			mark_prune_point(env, t);
			mark_jmp_point(env, t);
		}
		return visit_func_call_insn(env, cw, t, insn_is_pseudo_call(insn));
	case BPF_JA:
		ret = push_insn(env, cw, t, t + insn_jmp_off(insn) + 1, FALLTHROUGH);
		if (ret)
			return ret;
		mark_prune_point(env, t + insn_jmp_off(insn) + 1);
		mark_jmp_point(env, t + insn_jmp_off(insn) + 1);
		return ret;
	default:
		mark_prune_point(env, t);
		/*
		 * A may_goto loop comes back here each turn: a state is always kept, so that
		 * turns that change nothing that matters are seen to converge.
		 */
		if (insn_is_may_goto(insn))
			env->aux[t].force_checkpoint = true;
		ret = push_insn(env, cw, t, t + 1, FALLTHROUGH);
		if (ret)
			return ret;
		return push_insn(env, cw, t, t + insn->off + 1, BRANCH);
	}
}

/*
 * Iterative depth-first search from insn 0, entering subprograms through their call sites:
 * every instruction must be reachable.
 */
int check_cfg(struct nb_verifier_env *env)
{
	struct cfg_walk cw = { 0 };
	int err = 0;

	cw.state = calloc(env->len, 1);
	cw.stack = malloc(env->len * sizeof(*cw.stack));
	if (!cw.state || !cw.stack) {
		err = -ENOMEM;
		goto out;
	}
	cw.state[0] = DISCOVERED;
	cw.stack[cw.sp++] = 0;
	while (cw.sp) {
		u32 t = cw.stack[cw.sp - 1];
		int ret = visit_insn(env, &cw, t);

		if (ret < 0) {
			err = ret;
			goto out;
		}
		if (ret == DONE_EXPLORING) {
			cw.state[t] = EXPLORED;
			cw.sp--;
		}
	}
	for (u32 i = 0; i < env->len; i++) {
		if (cw.state[i] != EXPLORED) {
			verbose(env, "unreachable insn %u\n", i);
			err = -EINVAL;
			break;
		}
		if (insn_is_ldimm64(&env->insns[i]))
			i++;
	}
out:
	free(cw.state);
	free(cw.stack);
	return err;
}

/*
 * Each subprogram's instructions in postorder (every successor before its predecessors, loops
 * aside), in env->insn_postorder from subprog[i].postorder_start: backward dataflow analyses
 * converge in few passes over this order.
 */
int compute_postorder(struct nb_verifier_env *env)
{
	u32 *postorder, *stack, cur = 0;
	u8 *state;

	postorder = calloc(env->len, sizeof(*postorder));
	stack = calloc(env->len, sizeof(*stack));
	state = calloc(env->len, 1);
	if (!postorder || !stack || !state) {
		free(postorder);
		free(stack);
		free(state);
		return -ENOMEM;
	}
	for (u32 i = 0; i < env->subprog_cnt; i++) {
		u32 sp = 0;

		env->subprog[i].postorder_start = cur;
		stack[sp++] = env->subprog[i].start;
		do {
			u32 top = stack[sp - 1], succ[2];
			int n;

			state[top] |= DISCOVERED;
			if (state[top] & EXPLORED) {
				postorder[cur++] = top;
				sp--;
				continue;
			}
			n = insn_successors(env, top, succ);
			for (int s = 0; s < n; s++) {
				if (!state[succ[s]]) {
					stack[sp++] = succ[s];
					state[succ[s]] |= DISCOVERED;
				}
			}
			state[top] |= EXPLORED;
		} while (sp);
	}
	env->subprog[env->subprog_cnt].postorder_start = cur;
	env->insn_postorder = postorder;
	free(stack);
	free(state);
	return 0;
}

#define ALL_CALLER_SAVED_REGS	0x3fu	/* R0-R5 */

/* Registers insn reads (use) and writes (def), as the kernel's compute_insn_live_regs. */
static void insn_use_def(const struct nb_verifier_env *env, const struct bpf_insn *insn,
			 u16 *use, u16 *def)
{
	u8 cls = insn_class(insn), op = BPF_OP(insn->code), mode = BPF_MODE(insn->code);
	u16 dst = 1u << insn->dst_reg, src = 1u << insn->src_reg;

	*use = 0xffff;	/* anything unusual reads every register */
	*def = 0;
	switch (cls) {
	case BPF_LD:
		if (insn_is_ldimm64(insn)) {
			*def = dst;
			*use = 0;
		}
		return;
	case BPF_LDX:
		if (mode == BPF_MEM || mode == BPF_MEMSX) {
			*def = dst;
			*use = src;
		}
		return;
	case BPF_ST:
		if (mode == BPF_MEM)
			*use = dst;
		return;
	case BPF_STX:
		if (mode == BPF_MEM) {
			*use = dst | src;
		} else if (mode == BPF_ATOMIC) {
			if (insn->imm == BPF_CMPXCHG) {
				*use = 1 | dst | src;
				*def = 1;
			} else {
				*use = dst | src;
				*def = insn->imm & BPF_FETCH ? src : 0;
			}
		}
		return;
	case BPF_ALU:
	case BPF_ALU64:
		*def = dst;
		if (op == BPF_END)
			*use = dst;
		else if (op == BPF_MOV)
			*use = BPF_SRC(insn->code) == BPF_K ? 0 : src;
		else
			*use = BPF_SRC(insn->code) == BPF_K ? dst : dst | src;
		return;
	default:
		switch (op) {
		case BPF_JA:
		case BPF_JCOND:
			*use = 0;
			return;
		case BPF_EXIT:
			*use = 1;
			return;
		case BPF_CALL: {
			const struct nb_func_proto *fn = NULL;

			*def = ALL_CALLER_SAVED_REGS;
			*use = ALL_CALLER_SAVED_REGS & ~1u;
			/* A helper reads only the arguments of its prototype. */
			if (insn_is_helper_call(insn) && env->ops->get_func_proto &&
			    insn->imm > 0 && insn->imm < __BPF_FUNC_MAX_ID)
				fn = env->ops->get_func_proto(insn->imm, env->prog);
			if (fn) {
				u32 n = 0;

				while (n < ARRAY_SIZE(fn->arg_type) &&
				       fn->arg_type[n] != NB_ARG_DONTCARE)
					n++;
				*use = ((1u << (n + 1)) - 1) & ~1u;
			}
			return;
		}
		default:
			*use = BPF_SRC(insn->code) == BPF_K ? dst : dst | src;
			return;
		}
	}
}

/*
 * Registers that may be read before being written, from each instruction on (the kernel's
 * compute_live_registers): live_in = use | (live_out & ~def), to a fixed point over the
 * postorder.
 */
void compute_live_registers(struct nb_verifier_env *env)
{
	u32 cnt = env->subprog[env->subprog_cnt].postorder_start;
	bool changed = true;

	for (u32 i = 0; i < env->len; i++)
		env->aux[i].live_regs = 0;
	while (changed) {
		changed = false;
		for (u32 i = 0; i < cnt; i++) {
			u32 idx = env->insn_postorder[i], succ[2];
			int n = insn_successors(env, idx, succ);
			u16 use, def, out = 0, in;

			for (int k = 0; k < n; k++)
				out |= env->aux[succ[k]].live_regs;
			insn_use_def(env, &env->insns[idx], &use, &def);
			in = (out & ~def) | use;
			if (in != env->aux[idx].live_regs) {
				env->aux[idx].live_regs = in;
				changed = true;
			}
		}
	}
}
