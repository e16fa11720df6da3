// SPDX-License-Identifier: GPL-2.0
/*
 * Stack slot liveness, the twin of the kernel's kernel/bpf/liveness.c: which 8-byte stack
 * slots may still be read from an instruction on. Explored states forget the slots that no
 * continuation reads (clean_verifier_state, states.c), so that states differing only in dead
 * spills and scratch bytes match.
 *
 * The analysis is sensitive to the call chain: a function called from two places is two
 * "instances", each with masks per frame of the chain (the callee may read its callers' slots
 * through pointers) and per instruction:
 *   may_read        slots some walked path read at the instruction (only grows);
 *   must_write      slots every walked path wrote whole at it (only shrinks);
 *   must_write_acc  slots written by it or on every path after it, within the function;
 *   live_before     slots that may be read at or after it.
 * The walk records reads and writes as it checks instructions (nb_mark_stack_read/write);
 * when a path ends or returns from a function, the instances of its call chain are brought
 * to their fixed point:
 *   live_after(i)  = U live_before(s), s a successor of i
 *   live_before(i) = (live_after(i) - must_write(i)) U may_read(i)
 * and a callee's entry passes what it reads and surely writes of its callers' frames on to the
 * call instruction of the caller's instance. An explored state with no unfinished path below
 * it has every read of its continuations recorded, so its dead slots can be forgotten.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/verifier/verifier.h"

#define LIVENESS_BUCKETS 256

struct callchain {
	u32 callsites[NB_MAX_CALL_FRAMES];	/* call insn per frame; the last is sp_starts[] */
	u32 sp_starts[NB_MAX_CALL_FRAMES];	/* first insn of each frame's function */
	u32 curframe;
};

struct per_frame_masks {
	u64 may_read;
	u64 must_write;
	u64 must_write_acc;
	u64 live_before;
};

/* One function reached through one call chain: masks per frame of the chain, per insn. */
struct func_instance {
	struct func_instance *hnext;
	struct callchain callchain;
	u32 insn_cnt;
	bool updated;			/* masks changed since the last fixed point */
	bool must_write_dropped;	/* a must_write shrank: must_write_acc restarts */
	struct per_frame_masks *frames[NB_MAX_CALL_FRAMES];
	bool *must_write_set;		/* must_write holds the first path's writes already */
};

struct nb_liveness {
	struct func_instance *buckets[LIVENESS_BUCKETS];
	/* The instances of the state being cleaned (nb_live_stack_query_init). */
	struct func_instance *query[NB_MAX_CALL_FRAMES];
	u32 query_curframe;
	u32 query_insn_idx;
	/* The instance of the current state, looked up once per call chain. */
	struct func_instance *cur_instance;
	/* Whole slots written by the instruction being checked, per frame. */
	u64 write_masks_acc[NB_MAX_CALL_FRAMES];
	u32 write_insn_idx;
};

/* The subprogram holding insn (the kernel's bpf_find_containing_subprog). */
static const struct nb_subprog_info *containing_subprog(const struct nb_verifier_env *env,
						       u32 insn)
{
	u32 lo = 0, hi = env->subprog_cnt;

	while (hi - lo > 1) {
		u32 mid = (lo + hi) / 2;

		if (env->subprog[mid].start <= insn)
			lo = mid;
		else
			hi = mid;
	}
	return &env->subprog[lo];
}

/* The call chain of state st down to frame frameno. */
static void compute_callchain(const struct nb_verifier_env *env,
			      const struct nb_verifier_state *st, struct callchain *cc,
			      u32 frameno)
{
	memset(cc, 0, sizeof(*cc));
	for (u32 i = 0; i <= frameno; i++) {
		cc->sp_starts[i] = env->subprog[st->frame[i]->subprogno].start;
		if (i < st->curframe)
			cc->callsites[i] = st->frame[i + 1]->callsite;
	}
	cc->curframe = frameno;
	cc->callsites[frameno] = cc->sp_starts[frameno];
}

static u32 hash_callchain(const struct callchain *cc)
{
	u32 h = 2166136261u;

	for (u32 i = 0; i <= cc->curframe; i++)
		h = (h ^ cc->callsites[i]) * 16777619u;
	return h % LIVENESS_BUCKETS;
}

static bool same_callsites(const struct callchain *a, const struct callchain *b)
{
	if (a->curframe != b->curframe)
		return false;
	for (u32 i = 0; i <= a->curframe; i++)
		if (a->callsites[i] != b->callsites[i])
			return false;
	return true;
}

static struct func_instance *lookup_callchain(struct nb_verifier_env *env,
					      const struct callchain *cc)
{
	struct nb_liveness *lv = env->liveness;
	u32 h = hash_callchain(cc);
	const struct nb_subprog_info *sub;
	struct func_instance *fi;

	for (fi = lv->buckets[h]; fi; fi = fi->hnext)
		if (same_callsites(&fi->callchain, cc))
			return fi;
	sub = containing_subprog(env, cc->sp_starts[cc->curframe]);
	fi = calloc(1, sizeof(*fi));
	if (!fi)
		return NULL;
	fi->insn_cnt = (sub + 1)->start - sub->start;
	fi->must_write_set = calloc(fi->insn_cnt, sizeof(*fi->must_write_set));
	if (!fi->must_write_set) {
		free(fi);
		return NULL;
	}
	fi->callchain = *cc;
	fi->hnext = lv->buckets[h];
	lv->buckets[h] = fi;
	return fi;
}

static struct func_instance *lookup_instance(struct nb_verifier_env *env,
					     const struct nb_verifier_state *st, u32 frameno)
{
	struct callchain cc;

	compute_callchain(env, st, &cc, frameno);
	return lookup_callchain(env, &cc);
}

int nb_stack_liveness_init(struct nb_verifier_env *env)
{
	env->liveness = calloc(1, sizeof(*env->liveness));
	return env->liveness ? 0 : -ENOMEM;
}

void nb_stack_liveness_free(struct nb_verifier_env *env)
{
	struct nb_liveness *lv = env->liveness;

	if (!lv)
		return;
	for (u32 b = 0; b < LIVENESS_BUCKETS; b++) {
		struct func_instance *fi, *next;

		for (fi = lv->buckets[b]; fi; fi = next) {
			next = fi->hnext;
			for (u32 i = 0; i <= fi->callchain.curframe; i++)
				free(fi->frames[i]);
			free(fi->must_write_set);
			free(fi);
		}
	}
	free(lv);
	env->liveness = NULL;
}

static u32 relative_idx(const struct func_instance *fi, u32 insn_idx)
{
	return insn_idx - fi->callchain.sp_starts[fi->callchain.curframe];
}

static struct per_frame_masks *get_frame_masks(const struct func_instance *fi, u32 frame,
					       u32 insn_idx)
{
	if (!fi->frames[frame])
		return NULL;
	return &fi->frames[frame][relative_idx(fi, insn_idx)];
}

static struct per_frame_masks *alloc_frame_masks(struct func_instance *fi, u32 frame,
						 u32 insn_idx)
{
	if (!fi->frames[frame]) {
		fi->frames[frame] = calloc(fi->insn_cnt, sizeof(*fi->frames[frame]));
		if (!fi->frames[frame])
			return NULL;
	}
	return get_frame_masks(fi, frame, insn_idx);
}

/* The current state's call chain may have changed (a call, a return, a new path). */
void nb_reset_live_stack_callchain(struct nb_verifier_env *env)
{
	env->liveness->cur_instance = NULL;
}

static int ensure_cur_instance(struct nb_verifier_env *env)
{
	struct nb_liveness *lv = env->liveness;

	if (lv->cur_instance)
		return 0;
	lv->cur_instance = lookup_instance(env, env->cur, env->cur->curframe);
	return lv->cur_instance ? 0 : -ENOMEM;
}

static int mark_stack_read(struct func_instance *fi, u32 frame, u32 insn_idx, u64 mask)
{
	struct per_frame_masks *m = alloc_frame_masks(fi, frame, insn_idx);
	u64 new_may_read;

	if (!m)
		return -ENOMEM;
	new_may_read = m->may_read | mask;
	if (new_may_read != m->may_read && (new_may_read | m->live_before) != m->live_before)
		fi->updated = true;
	m->may_read = new_may_read;
	return 0;
}

/* insn_idx of the current state reads the slots in mask of frame. */
int nb_mark_stack_read(struct nb_verifier_env *env, u32 frame, u32 insn_idx, u64 mask)
{
	int err = ensure_cur_instance(env);

	return err ?: mark_stack_read(env->liveness->cur_instance, frame, insn_idx, mask);
}

static void reset_stack_write_marks(struct nb_verifier_env *env, const struct func_instance *fi,
				    u32 insn_idx)
{
	struct nb_liveness *lv = env->liveness;

	lv->write_insn_idx = insn_idx;
	for (u32 i = 0; i <= fi->callchain.curframe; i++)
		lv->write_masks_acc[i] = 0;
}

/* Before checking insn_idx: its whole-slot writes accumulate until committed. */
int nb_reset_stack_write_marks(struct nb_verifier_env *env, u32 insn_idx)
{
	int err = ensure_cur_instance(env);

	if (err)
		return err;
	reset_stack_write_marks(env, env->liveness->cur_instance, insn_idx);
	return 0;
}

void nb_mark_stack_write(struct nb_verifier_env *env, u32 frame, u64 mask)
{
	env->liveness->write_masks_acc[frame] |= mask;
}

static int commit_stack_write_marks(struct nb_verifier_env *env, struct func_instance *fi)
{
	struct nb_liveness *lv = env->liveness;
	u32 idx;

	if (!fi)
		return 0;
	idx = relative_idx(fi, lv->write_insn_idx);
	for (u32 frame = 0; frame <= fi->callchain.curframe; frame++) {
		u64 mask = lv->write_masks_acc[frame], old;
		struct per_frame_masks *m;

		if (!mask) {
			/* Nothing written: must_write can only be, or become, empty. */
			if (!fi->must_write_set[idx])
				continue;
			m = get_frame_masks(fi, frame, lv->write_insn_idx);
			if (!m || !m->must_write)
				continue;
		}
		m = alloc_frame_masks(fi, frame, lv->write_insn_idx);
		if (!m)
			return -ENOMEM;
		old = m->must_write;
		/* The first path sets must_write; every later one can only narrow it. */
		if (fi->must_write_set[idx])
			mask &= old;
		if (old != mask) {
			m->must_write = mask;
			fi->updated = true;
		}
		if (old & ~mask)
			fi->must_write_dropped = true;
	}
	fi->must_write_set[idx] = true;
	lv->write_insn_idx = 0;
	return 0;
}

/* After checking an instruction: its writes become must_write of its instance. */
int nb_commit_stack_write_marks(struct nb_verifier_env *env)
{
	return commit_stack_write_marks(env, env->liveness->cur_instance);
}

/* The instance of fi's caller: the same chain one frame up. */
static struct func_instance *get_outer_instance(struct nb_verifier_env *env,
						const struct func_instance *fi)
{
	struct callchain cc = fi->callchain;

	cc.callsites[cc.curframe] = 0;
	cc.sp_starts[cc.curframe] = 0;
	cc.curframe--;
	cc.callsites[cc.curframe] = cc.sp_starts[cc.curframe];
	return lookup_callchain(env, &cc);
}

/* What the callee's entry reads and surely writes of outer frames happens at the call. */
static int propagate_to_outer_instance(struct nb_verifier_env *env, struct func_instance *fi)
{
	const struct callchain *cc = &fi->callchain;
	u32 start = cc->sp_starts[cc->curframe], callsite = cc->callsites[cc->curframe - 1];
	struct func_instance *outer = get_outer_instance(env, fi);

	if (!outer)
		return -ENOMEM;
	reset_stack_write_marks(env, outer, callsite);
	for (u32 frame = 0; frame < cc->curframe; frame++) {
		const struct per_frame_masks *entry = get_frame_masks(fi, frame, start);
		int err;

		if (!entry)
			continue;
		nb_mark_stack_write(env, frame, entry->must_write_acc);
		err = mark_stack_read(outer, frame, callsite, entry->live_before);
		if (err)
			return err;
	}
	return commit_stack_write_marks(env, outer);
}

static bool update_insn(struct nb_verifier_env *env, struct func_instance *fi, u32 frame,
			u32 insn_idx)
{
	struct per_frame_masks *m = get_frame_masks(fi, frame, insn_idx);
	u64 new_after = 0, new_before, must_write_acc = ~0ull;
	u32 succ[2];
	int n = insn_successors(env, insn_idx, succ);
	bool changed;

	if (!n)
		return false;
	for (int s = 0; s < n; s++) {
		const struct per_frame_masks *sm = get_frame_masks(fi, frame, succ[s]);

		new_after |= sm->live_before;
		must_write_acc &= sm->must_write_acc;
	}
	must_write_acc |= m->must_write;
	new_before = (new_after & ~m->must_write) | m->may_read;
	changed = new_before != m->live_before || must_write_acc != m->must_write_acc;
	m->live_before = new_before;
	m->must_write_acc = must_write_acc;
	return changed;
}

/* live_before and must_write_acc of an instance to their fixed point. */
static int update_instance(struct nb_verifier_env *env, struct func_instance *fi)
{
	const struct callchain *cc = &fi->callchain;
	u32 start = cc->sp_starts[cc->curframe];
	const struct nb_subprog_info *sub = containing_subprog(env, start);
	u32 po_start = sub->postorder_start, po_end = (sub + 1)->postorder_start;
	bool changed;

	if (fi->must_write_dropped) {
		for (u32 frame = 0; frame <= cc->curframe; frame++) {
			if (!fi->frames[frame])
				continue;
			for (u32 i = 0; i < fi->insn_cnt; i++)
				fi->frames[frame][i].must_write_acc = 0;
		}
	}
	do {
		changed = false;
		for (u32 frame = 0; frame <= cc->curframe; frame++) {
			if (!fi->frames[frame])
				continue;
			for (u32 i = po_start; i < po_end; i++)
				changed |= update_insn(env, fi, frame, env->insn_postorder[i]);
		}
	} while (changed);
	if (cc->curframe > 0)
		return propagate_to_outer_instance(env, fi);
	return 0;
}

/*
 * A path ended or a function returned: bring the instances of the current state's call chain
 * to their fixed point, innermost first, so that the states without unfinished paths below
 * them can be asked which slots are live.
 */
int nb_update_live_stack(struct nb_verifier_env *env)
{
	nb_reset_live_stack_callchain(env);
	for (int frame = env->cur->curframe; frame >= 0; frame--) {
		struct func_instance *fi = lookup_instance(env, env->cur, frame);
		int err;

		if (!fi)
			return -ENOMEM;
		if (!fi->updated)
			continue;
		err = update_instance(env, fi);
		if (err)
			return err;
		fi->updated = false;
		fi->must_write_dropped = false;
	}
	return 0;
}

static bool is_live_before(const struct func_instance *fi, u32 insn_idx, u32 frameno, u32 spi)
{
	const struct per_frame_masks *m = get_frame_masks(fi, frameno, insn_idx);

	return m && (m->live_before & (1ull << spi));
}

/* Prepare nb_stack_slot_alive for the slots of state st. */
int nb_live_stack_query_init(struct nb_verifier_env *env, const struct nb_verifier_state *st)
{
	struct nb_liveness *lv = env->liveness;

	memset(lv->query, 0, sizeof(lv->query));
	for (u32 frame = 0; frame <= st->curframe; frame++) {
		lv->query[frame] = lookup_instance(env, st, frame);
		if (!lv->query[frame])
			return -ENOMEM;
	}
	lv->query_curframe = st->curframe;
	lv->query_insn_idx = st->insn_idx;
	return 0;
}

/*
 * Slot spi of frame frameno may be read: from the state's instruction on in its innermost
 * function, or after the call of some frame from frameno on (at the call again when it calls
 * a callback, which may run once more).
 */
bool nb_stack_slot_alive(struct nb_verifier_env *env, u32 frameno, u32 spi)
{
	const struct nb_liveness *lv = env->liveness;
	const struct func_instance *inner = lv->query[lv->query_curframe];

	if (is_live_before(inner, lv->query_insn_idx, frameno, spi))
		return true;
	for (u32 i = frameno; i < lv->query_curframe; i++) {
		u32 callsite = inner->callchain.callsites[i];
		bool cb = env->aux[callsite].calls_callback;

		if (is_live_before(lv->query[i], cb ? callsite : callsite + 1, frameno, spi))
			return true;
	}
	return false;
}
