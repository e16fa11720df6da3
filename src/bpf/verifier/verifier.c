// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's main walk, the twin of the kernel's do_check: abstract interpretation of the
 * program over every path. Each instruction transforms the current abstract state; a
 * conditional jump whose outcome is not known pushes the other side for later; a path ends at
 * the program's exit or where an explored state proves it safe. The program is accepted when
 * every path ended well within the budget of processed instructions; then the fixups make it
 * ready for the engines (context rewrite, helper resolution).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpf/verifier/verifier.h"

#define NB_MAX_PENDING_BRANCHES 8192	/* BPF_COMPLEXITY_LIMIT_JMP_SEQ */

struct nb_verifier_state *push_stack(struct nb_verifier_env *env, u32 insn_idx,
				     u32 prev_insn_idx)
{
	struct nb_stack_elem *elem;

	if (env->stack_size >= NB_MAX_PENDING_BRANCHES) {
		verbose(env, "The sequence of %d jumps is too complex.\n", env->stack_size);
		return NULL;
	}
	elem = calloc(1, sizeof(*elem));
	if (!elem)
		return NULL;
	if (copy_verifier_state(&elem->st, env->cur)) {
		free_verifier_state(&elem->st, false);
		free(elem);
		return NULL;
	}
	elem->insn_idx = insn_idx;
	elem->prev_insn_idx = prev_insn_idx;
	elem->log_trace_len = env->trace_len;
	elem->next = env->head;
	env->head = elem;
	env->stack_size++;
	/* One more unfinished path below the nearest explored state. */
	if (elem->st.parent)
		elem->st.parent->branches++;
	return &elem->st;
}

static int pop_stack(struct nb_verifier_env *env, u32 *insn_idx)
{
	struct nb_stack_elem *elem = env->head;
	int err;

	if (!elem)
		return -ENOENT;
	err = copy_verifier_state(env->cur, &elem->st);
	*insn_idx = elem->insn_idx;
	env->prev_insn_idx = elem->prev_insn_idx;
	env->trace_len = elem->log_trace_len;
	if (env->log_verbose && elem->prev_insn_idx != (u32)-1) {
		/* The branch that pushed this path belongs to it too. */
		u32 idx = env->insn_idx;

		env->insn_idx = elem->prev_insn_idx;
		trace_push(env, -1);
		env->insn_idx = idx;
	}
	env->head = elem->next;
	env->stack_size--;
	free_verifier_state(&elem->st, false);
	free(elem);
	nb_reset_live_stack_callchain(env);
	return err;
}

/*
 * The kernel's check_return_code: what the program (or a timer callback, to the timer: 0)
 * returns must lie in the range its taker accepts.
 */
static int check_return_code(struct nb_verifier_env *env)
{
	struct nb_reg_state *r0 = &cur_regs(env)[BPF_REG_0];
	const char *exit_ctx = "At program exit";
	s32 min = 0, max = 0;
	int err;

	if (env->cur->frame[0]->in_async_callback_fn)
		exit_ctx = "At async callback return";
	else if (!env->ops->retval_range || !env->ops->retval_range(env->prog, &min, &max))
		return 0;
	if (r0->type != SCALAR_VALUE) {
		verbose(env, "%s the register R0 is not a known value (%s)\n", exit_ctx,
			reg_type_str(r0->type));
		return -EINVAL;
	}
	/* The value decides what happens next: it must not be matched loosely. */
	err = mark_chain_precision(env, BPF_REG_0);
	if (err)
		return err;
	if (r0->smin_value < min || r0->smax_value > max) {
		verbose_invalid_scalar(env, r0, min, max, exit_ctx);
		return -EINVAL;
	}
	return 0;
}

/* The exit of the function verified on its own: the program, or a global function. */
static int check_main_exit(struct nb_verifier_env *env)
{
	struct nb_verifier_state *st = env->cur;
	const struct nb_reg_state *r0 = &cur_regs(env)[BPF_REG_0];
	int err;

	err = check_reg_arg_read(env, BPF_REG_0);
	if (err)
		return err;
	err = check_lock_released(env, "BPF_EXIT instruction in main prog");
	if (err)
		return err;
	if (st->acquired_refs) {
		for (u32 i = 0; i < st->acquired_refs; i++)
			verbose(env, "Unreleased reference id=%u alloc_insn=%u\n", st->refs[i].id,
				st->refs[i].insn_idx);
		verbose(env, "BPF_EXIT instruction in main prog would lead to reference leak\n");
		return -EINVAL;
	}
	if (st->frame[0]->subprogno && !st->frame[0]->in_async_callback_fn) {
		/* A global function's caller takes its r0 for an unknown scalar. */
		if (r0->type != SCALAR_VALUE) {
			verbose(env, "At subprogram exit the register R0 is not a scalar value "
				"(%s)\n", reg_type_str(r0->type));
			return -EINVAL;
		}
		return 0;
	}
	return check_return_code(env);
}

/* Register an instruction writes, for the verbose trace. */
static s32 written_reg(const struct bpf_insn *insn)
{
	switch (insn_class(insn)) {
	case BPF_ALU:
	case BPF_ALU64:
	case BPF_LDX:
		return insn->dst_reg;
	case BPF_LD:
		return insn_is_ldimm64(insn) ? insn->dst_reg : BPF_REG_0;
	case BPF_STX:
		if (insn_is_atomic(insn) && insn->imm == BPF_CMPXCHG)
			return BPF_REG_0;
		if (insn_is_atomic(insn) && (insn->imm & BPF_FETCH))
			return insn->src_reg;
		return -1;
	case BPF_JMP:
		return insn_is_call(insn) ? BPF_REG_0 : -1;
	default:
		return -1;
	}
}

/* The instruction at insn_idx of the current state, checked; *path_done when the path ends. */
static int do_check_insn(struct nb_verifier_env *env, u32 *insn_idx, bool *path_done)
{
	struct bpf_insn *insn = &env->insns[*insn_idx];
	int err;

	switch (insn_class(insn)) {
	case BPF_ALU:
	case BPF_ALU64:
		return check_alu_op(env, insn);
	case BPF_LDX:
	case BPF_ST:
		return check_load_store(env, insn);
	case BPF_STX:
		return insn_is_atomic(insn) ? check_atomic(env, insn) : check_load_store(env, insn);
	case BPF_LD:
		if (!insn_is_ldimm64(insn)) {
			err = check_ld_abs(env, insn);
			/* In a subprogram a failing load returns 0 to the caller. */
			if (!err && env->cur->curframe)
				err = subprog_early_return(env, insn_idx, true);
			return err;
		}
		err = check_ld_imm(env, insn);
		(*insn_idx)++;
		return err;
	default: /* BPF_JMP, BPF_JMP32 */
		env->jmps_processed++;
		switch (BPF_OP(insn->code)) {
		case BPF_CALL:
			err = check_call_while_locked(env, insn);
			if (err)
				return err;
			if (insn->src_reg != BPF_PSEUDO_CALL)
				return check_helper_call(env, insn, insn_idx);
			err = check_func_call(env, insn, insn_idx);
			/* Inside the callee now: another call chain for stack liveness. */
			nb_reset_live_stack_callchain(env);
			return err;
		case BPF_JA:
			*insn_idx += insn_jmp_off(insn);
			return 0;
		case BPF_EXIT:
			if (env->cur->curframe) {
				/*
				 * A function's R0 goes back to its caller as it is: unwritten, the
				 * caller cannot read it (the kernel checks no more at the exit).
				 * The callee's reads reach its callers' instances first.
				 */
				err = nb_update_live_stack(env);
				return err ?: prepare_func_exit(env, insn_idx);
			}
			*path_done = true;
			return check_main_exit(env);
		default:
			return check_cond_jmp_op(env, insn, insn_idx);
		}
	}
}

static int do_check(struct nb_verifier_env *env, u32 insn_idx)
{
	int err;

	env->prev_insn_idx = (u32)-1;
	env->cur->last_insn_idx = (u32)-1;
	for (;;) {
		bool path_done = false;
		u32 idx;

		env->cur_hist_ent = -1;
		if (insn_idx >= env->len) {
			verbose(env, "invalid insn idx %u insn_cnt %u\n", insn_idx, env->len);
			return -EFAULT;
		}
		env->insn_idx = insn_idx;
		if (++env->insn_processed > NB_COMPLEXITY_LIMIT) {
			verbose(env, "BPF program is too large. Processed %u insn\n",
				env->insn_processed);
			return -E2BIG;
		}
		env->cur->last_insn_idx = env->prev_insn_idx;
		env->cur->insn_idx = insn_idx;
		err = is_state_visited(env, insn_idx);
		if (err < 0)
			return err;
		if (err == 1)
			goto next_path;	/* an explored state proves the rest safe */
		if (env->aux[insn_idx].jmp_point) {
			err = push_jmp_history(env, env->cur, 0, 0);
			if (err)
				return err;
		}
		env->aux[insn_idx].seen = true;
		idx = insn_idx;

		err = nb_reset_stack_write_marks(env, insn_idx);
		err = err ?: do_check_insn(env, &insn_idx, &path_done);
		err = err ?: nb_commit_stack_write_marks(env);
		if (err) {
			env->insn_idx = idx;
			return err;
		}
		if (env->log_verbose)
			trace_push(env, written_reg(&env->insns[idx]));
		env->prev_insn_idx = idx;
		if (!path_done) {
			insn_idx++;
			continue;
		}
next_path:
		err = update_branch_counts(env, env->cur->parent);
		err = err ?: nb_update_live_stack(env);
		if (err)
			return err;
		err = pop_stack(env, &insn_idx);
		if (err == -ENOENT)
			return 0;
		if (err)
			return err;
	}
}

/*
 * The state a function is verified from on its own: the program gets its context in r1; a
 * global function what its prototype promises (btf_prepare_func_args succeeded at the call).
 */
static struct nb_verifier_state *init_state(struct nb_verifier_env *env, u32 subprog)
{
	struct nb_verifier_state *st = calloc(1, sizeof(*st));
	const struct nb_subprog_info *sub = &env->subprog[subprog];
	struct nb_func_state *f;

	if (!st)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f) {
		free(st);
		return NULL;
	}
	st->frame[0] = f;
	f->subprogno = subprog;
	for (int i = 0; i < NB_MAX_BPF_REG; i++)
		mark_reg_not_init(&f->regs[i]);
	mark_pointer(&f->regs[BPF_REG_10], PTR_TO_STACK);
	if (!subprog) {
		mark_pointer(&f->regs[BPF_REG_1], PTR_TO_CTX);
		return st;
	}
	for (u32 i = 0; i < sub->arg_cnt; i++) {
		struct nb_reg_state *reg = &f->regs[BPF_REG_1 + i];

		switch (sub->args[i].type) {
		case NB_SUBPROG_ARG_SCALAR:
			mark_reg_unknown(reg);
			break;
		case NB_SUBPROG_ARG_CTX:
			mark_pointer(reg, PTR_TO_CTX);
			break;
		case NB_SUBPROG_ARG_MEM:
			mark_pointer(reg, PTR_TO_MEM |
					  (sub->args[i].nullable ? PTR_MAYBE_NULL : 0));
			reg->mem_size = sub->args[i].mem_size;
			if (sub->args[i].nullable)
				reg->id = ++env->id_gen;
			break;
		}
	}
	return st;
}

static void free_env(struct nb_verifier_env *env)
{
	while (env->head) {
		struct nb_stack_elem *elem = env->head;

		env->head = elem->next;
		free_verifier_state(&elem->st, false);
		free(elem);
	}
	if (env->cur)
		free_verifier_state(env->cur, true);
	free_explored_states(env);
	free_scc_info(env);
	nb_stack_liveness_free(env);
	free(env->insn_postorder);
	nb_log_free(&env->msg);
	free(env->trace);
	free(env->aux);
	free(env);
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * The kernel's print_verification_stats at BPF_LOG_STATS: the wall time from the start of the
 * verification to the end of the fixups, then the walk's counts.
 */
static void print_stats(struct nb_verifier_env *env, u64 start_ns)
{
	nb_log_verbose(env->log, "verification time %llu usec\n",
		       (unsigned long long)(now_ns() - start_ns) / 1000);
	nb_log_verbose(env->log, "processed %u insns (limit %u) max_states_per_insn %u "
		       "total_states %u peak_states %u\n", env->insn_processed,
		       NB_COMPLEXITY_LIMIT, env->max_states_per_insn, env->total_states,
		       env->peak_states);
}

/* Drops what the walk of one function left: pending branches, explored states, its path. */
static int reset_walk(struct nb_verifier_env *env)
{
	while (env->head) {
		struct nb_stack_elem *elem = env->head;

		env->head = elem->next;
		free_verifier_state(&elem->st, false);
		free(elem);
	}
	env->stack_size = 0;
	if (env->cur)
		free_verifier_state(env->cur, true);
	env->cur = NULL;
	free_explored_states(env);
	free_scc_visits(env);
	env->explored_states_size = env->free_list_size = env->num_backedges = 0;
	env->trace_len = 0;
	env->trace_overflow = false;
	env->prev_linfo = NULL;
	env->explored = calloc(env->len, sizeof(*env->explored));
	return env->explored ? 0 : -ENOMEM;
}

/*
 * do_check_common: one walk from a function's entry, the program's (subprog 0) or a global
 * function's. A rejection leaves the failing instruction (with its source line) in the log.
 */
static int do_check_common(struct nb_verifier_env *env, u32 subprog)
{
	int err = reset_walk(env);

	if (err)
		return err;
	env->cur = init_state(env, subprog);
	if (!env->cur)
		return -ENOMEM;
	if (subprog && env->log_verbose)
		nb_log_printf(env->log, "Validating %s() func#%u...\n", subprog_name(env, subprog),
			      subprog);
	err = do_check(env, env->subprog[subprog].start);
	if (!err)
		return 0;
	if (subprog && !env->log_verbose)
		nb_log_printf(env->log, "Validating %s() func#%u...\n", subprog_name(env, subprog),
			      subprog);
	if (env->log_verbose)
		print_failing_path(env);
	if (env->insn_idx < env->len) {
		print_insn_source(env, env->insn_idx);
		print_insn(env, env->insn_idx);
		nb_log_printf(env->log, "\n");
	}
	return err;
}

/*
 * do_check_subprogs: every global function some verified path calls, on its own, from its
 * prototype; those calls may reveal more, so until none is left. Global functions nothing
 * calls (dead code) are not verified, as in the kernel.
 */
static int do_check_subprogs(struct nb_verifier_env *env)
{
	bool more = true;

	while (more) {
		more = false;
		for (u32 i = 1; i < env->subprog_cnt; i++) {
			struct nb_subprog_info *sub = &env->subprog[i];
			int err;

			if (!sub->is_global || !sub->called || sub->verified)
				continue;
			err = do_check_common(env, i);
			if (err)
				return err;
			if (env->log_verbose)
				nb_log_printf(env->log, "Func#%u ('%s') is safe for any args that "
					      "match its prototype\n", i, subprog_name(env, i));
			sub->verified = true;
			more = true;
		}
	}
	return 0;
}

int nb_verify(struct nb_prog *prog, struct nb_log *log)
{
	struct nb_verifier_env *env = calloc(1, sizeof(*env));
	u64 start_ns = now_ns();
	int err;

	if (!env)
		return -ENOMEM;
	env->prog = prog;
	env->ops = prog->ops;
	env->insns = prog->insns;
	env->len = prog->len;
	env->log = log;
	env->log_verbose = log && log->level >= NB_LOG_VERBOSE;
	env->allow_uninit_stack = !(prog->load_flags & NB_PROG_LOAD_NO_UNINIT_STACK);
	env->note_uninit_stack = prog->load_flags & NB_PROG_LOAD_NOTE_UNINIT_STACK;
	env->aux = calloc(env->len, sizeof(*env->aux));
	if (!env->aux) {
		free_env(env);
		return -ENOMEM;
	}
	err = check_subprogs(env);
	if (!err) {
		scan_subprogs(env);
		err = check_btf_info(env);
	}
	err = err ?: check_cfg(env);
	err = err ?: compute_postorder(env);
	err = err ?: nb_stack_liveness_init(env);
	err = err ?: compute_scc(env);
	if (!err) {
		compute_live_registers(env);
		err = do_check_common(env, 0);
	}
	if (!err)
		err = do_check_subprogs(env);
	if (!err)
		err = check_max_stack_depth(env);
	if (env->msg.len)
		nb_log_printf(log, "%s", nb_log_text(&env->msg));
	if (!err)
		err = fixup_insns(env);
	if (!err)
		err = nb_resolve_helpers(prog, log);
	print_stats(env, start_ns);
	prog->verified_insns = env->insn_processed;
	prog->uninit_stack_used = env->note_uninit_stack && env->uninit_stack_used;
	if (!err)
		prog->verified = true;
	free_env(env);
	return err;
}
