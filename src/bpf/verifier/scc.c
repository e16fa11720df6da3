// SPDX-License-Identifier: GPL-2.0
/*
 * Loops: the strongly connected components of the control flow graph (compute_scc), and the
 * walk's visits inside them, as the kernel's bpf_scc_visit. Inside a loop, an explored state
 * with no unfinished path below it may still lack precision marks that later iterations would
 * give it (a state reached around the loop was pruned against it before the loop was fully
 * walked). While a visit of a loop is in progress, such states are compared with exact ranges
 * (RANGE_WITHIN, states.c), and each state pruned against one is kept as a "backedge". When
 * the state that entered the loop is done, precision flows from each equal state into its
 * backedge's explored ancestors until nothing changes (propagate_backedges).
 *
 * A visit belongs to a call chain, not to a loop alone: the same loop of a function called
 * from two places is two visits, each keeping its backedges' ancestors alive.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/verifier/verifier.h"

#define MAX_BACKEDGE_ITERS 64

/* The call sites leading to the outermost frame whose position is in a loop, and that loop. */
struct nb_scc_callchain {
	u32 callsites[NB_MAX_CALL_FRAMES - 1];
	u32 scc;
};

struct nb_scc_backedge {
	struct nb_scc_backedge *next;
	struct nb_verifier_state state;
};

struct nb_scc_visit {
	struct nb_scc_callchain callchain;
	/* The first explored state of the visit: the visit ends when it is done. */
	struct nb_verifier_state *entry_state;
	struct nb_scc_backedge *backedges;
	u32 num_backedges;
};

struct nb_scc_info {
	u32 num_visits;
	struct nb_scc_visit visits[];
};

/*
 * Tarjan's algorithm without recursion (Pearce's variant): aux[i].scc numbers the loop of each
 * instruction, 0 for an instruction in no loop.
 */
int compute_scc(struct nb_verifier_env *env)
{
	const u32 not_on_stack = UINT_MAX;
	u32 len = env->len, next_preorder = 1, next_scc = 1;
	u32 *stack, *pre, *low, *dfs;
	int err = 0;

	stack = calloc(len, sizeof(*stack));
	pre = calloc(len, sizeof(*pre));
	low = calloc(len, sizeof(*low));
	dfs = calloc(len, sizeof(*dfs));
	if (!stack || !pre || !low || !dfs) {
		err = -ENOMEM;
		goto out;
	}
	for (u32 i = 0; i < len; i++) {
		u32 stack_sz = 0, dfs_sz = 1;

		if (pre[i])
			continue;
		dfs[0] = i;
		while (dfs_sz) {
			u32 w = dfs[dfs_sz - 1], succ[2], t;
			int n = insn_successors(env, w, succ);
			bool descended = false, assign;

			if (pre[w] == 0) {
				low[w] = pre[w] = next_preorder++;
				stack[stack_sz++] = w;
			}
			for (int j = 0; j < n; j++) {
				if (pre[succ[j]]) {
					low[w] = min_t(u32, low[w], low[succ[j]]);
				} else {
					dfs[dfs_sz++] = succ[j];
					descended = true;
					break;
				}
			}
			if (descended)
				continue;
			/* Something above w on the stack is reachable from w: w stays. */
			if (low[w] < pre[w]) {
				dfs_sz--;
				continue;
			}
			/* w roots a component: a loop if it has two members or a self edge. */
			assign = stack[stack_sz - 1] != w;
			for (int j = 0; j < n; j++)
				assign |= succ[j] == w;
			do {
				t = stack[--stack_sz];
				low[t] = not_on_stack;
				if (assign)
					env->aux[t].scc = next_scc;
			} while (t != w);
			if (assign)
				next_scc++;
			dfs_sz--;
		}
	}
	env->scc_info = calloc(next_scc, sizeof(*env->scc_info));
	if (!env->scc_info) {
		err = -ENOMEM;
		goto out;
	}
	env->scc_cnt = next_scc;
out:
	free(stack);
	free(pre);
	free(low);
	free(dfs);
	return err;
}

/* st's call chain up to its outermost frame inside a loop; false when no frame is in one. */
static bool compute_scc_callchain(struct nb_verifier_env *env, const struct nb_verifier_state *st,
				  struct nb_scc_callchain *callchain)
{
	memset(callchain, 0, sizeof(*callchain));
	for (u32 i = 0; i <= st->curframe; i++) {
		u32 insn_idx = frame_insn_idx(st, i);
		u32 scc = env->aux[insn_idx].scc;

		if (scc) {
			callchain->scc = scc;
			return true;
		}
		if (i == st->curframe)
			return false;
		callchain->callsites[i] = insn_idx;
	}
	return false;
}

static struct nb_scc_visit *scc_visit_lookup(struct nb_verifier_env *env,
					     const struct nb_scc_callchain *callchain)
{
	struct nb_scc_info *info = env->scc_info[callchain->scc];

	if (!info)
		return NULL;
	for (u32 i = 0; i < info->num_visits; i++)
		if (!memcmp(callchain, &info->visits[i].callchain, sizeof(*callchain)))
			return &info->visits[i];
	return NULL;
}

static struct nb_scc_visit *scc_visit_alloc(struct nb_verifier_env *env,
					    const struct nb_scc_callchain *callchain)
{
	struct nb_scc_info *info = env->scc_info[callchain->scc];
	u32 n = info ? info->num_visits : 0;
	struct nb_scc_visit *visit;

	info = realloc(info, sizeof(*info) + (n + 1) * sizeof(info->visits[0]));
	if (!info)
		return NULL;
	env->scc_info[callchain->scc] = info;
	info->num_visits = n + 1;
	visit = &info->visits[n];
	memset(visit, 0, sizeof(*visit));
	visit->callchain = *callchain;
	return visit;
}

/* A new explored state inside a loop: it opens the visit when none is in progress. */
int maybe_enter_scc(struct nb_verifier_env *env, struct nb_verifier_state *st)
{
	struct nb_scc_callchain callchain;
	struct nb_scc_visit *visit;

	if (!compute_scc_callchain(env, st, &callchain))
		return 0;
	visit = scc_visit_lookup(env, &callchain) ?: scc_visit_alloc(env, &callchain);
	if (!visit)
		return -ENOMEM;
	if (!visit->entry_state)
		visit->entry_state = st;
	return 0;
}

static void free_backedges(struct nb_scc_visit *visit)
{
	struct nb_scc_backedge *backedge, *next;

	for (backedge = visit->backedges; backedge; backedge = next) {
		next = backedge->next;
		free_verifier_state(&backedge->state, false);
		free(backedge);
	}
	visit->backedges = NULL;
}

/* Precision from each backedge's equal state into the backedge's ancestors, to a fixed point. */
static int propagate_backedges(struct nb_verifier_env *env, struct nb_scc_visit *visit)
{
	struct nb_scc_backedge *backedge;
	bool changed;
	u32 i = 0;

	do {
		if (i++ > MAX_BACKEDGE_ITERS) {
			for (backedge = visit->backedges; backedge; backedge = backedge->next)
				mark_all_scalars_precise(&backedge->state);
			break;
		}
		changed = false;
		for (backedge = visit->backedges; backedge; backedge = backedge->next) {
			struct nb_verifier_state *st = &backedge->state;
			int err = propagate_precision(env, st->equal_state, st, &changed);

			if (err)
				return err;
		}
	} while (changed);
	free_backedges(visit);
	return 0;
}

/* st is done (no unfinished path below it): when it entered its loop, the visit ends. */
int maybe_exit_scc(struct nb_verifier_env *env, struct nb_verifier_state *st)
{
	struct nb_scc_callchain callchain;
	struct nb_scc_visit *visit;

	if (!compute_scc_callchain(env, st, &callchain))
		return 0;
	visit = scc_visit_lookup(env, &callchain);
	if (!visit || visit->entry_state != st)
		return 0;
	visit->entry_state = NULL;
	env->num_backedges -= visit->num_backedges;
	visit->num_backedges = 0;
	update_peak_states(env);
	return propagate_backedges(env, visit);
}

/* cur was pruned against st, an explored state of the same loop visit: keep a copy of cur. */
int add_scc_backedge(struct nb_verifier_env *env, struct nb_verifier_state *st,
		     const struct nb_verifier_state *cur)
{
	struct nb_scc_callchain callchain;
	struct nb_scc_backedge *backedge;
	struct nb_scc_visit *visit;
	int err;

	if (!compute_scc_callchain(env, st, &callchain) ||
	    !(visit = scc_visit_lookup(env, &callchain))) {
		verbose(env, "verifier bug: backedge at insn %u outside of a loop visit\n",
			st->insn_idx);
		return -EFAULT;
	}
	backedge = calloc(1, sizeof(*backedge));
	if (!backedge)
		return -ENOMEM;
	err = copy_verifier_state(&backedge->state, cur);
	if (err) {
		free_verifier_state(&backedge->state, false);
		free(backedge);
		return err;
	}
	backedge->state.equal_state = st;
	backedge->state.insn_idx = st->insn_idx;
	backedge->next = visit->backedges;
	visit->backedges = backedge;
	visit->num_backedges++;
	env->num_backedges++;
	update_peak_states(env);
	return 0;
}

/* st is in a loop whose visit is still in progress: its precision marks may be incomplete. */
bool incomplete_read_marks(struct nb_verifier_env *env, const struct nb_verifier_state *st)
{
	struct nb_scc_callchain callchain;
	struct nb_scc_visit *visit;

	if (!compute_scc_callchain(env, st, &callchain))
		return false;
	visit = scc_visit_lookup(env, &callchain);
	return visit && visit->backedges;
}

/* The visits of a walk (and their backedges), as a new walk from another function needs. */
void free_scc_visits(struct nb_verifier_env *env)
{
	if (!env->scc_info)
		return;
	for (u32 i = 0; i < env->scc_cnt; i++) {
		struct nb_scc_info *info = env->scc_info[i];

		if (!info)
			continue;
		for (u32 j = 0; j < info->num_visits; j++)
			free_backedges(&info->visits[j]);
		free(info);
		env->scc_info[i] = NULL;
	}
}

void free_scc_info(struct nb_verifier_env *env)
{
	free_scc_visits(env);
	free(env->scc_info);
	env->scc_info = NULL;
}
