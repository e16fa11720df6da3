// SPDX-License-Identifier: GPL-2.0
/*
 * State pruning, the twin of the kernel's is_state_visited. At prune points the walk compares
 * its state with the states explored there before. An explored state with no unfinished path
 * below it, and at least as general as the current one, ends the current path: everything
 * after it was proven safe (states_equal in NOT_EXACT mode). "At least as general" ignores
 * what cannot matter any more: dead registers (compute_live_registers), dead stack slots
 * (liveness.c, applied by clean_verifier_state) and imprecise scalars (precision.c); linked
 * scalars and pointers must be linked the same way (the idmap of check_ids).
 *
 * An explored state still in progress at the same instruction is an ancestor of the current
 * path: equal to it exactly, the loop can never end. Inside a loop whose walk is unfinished,
 * explored states are compared with exact ranges (RANGE_WITHIN) and the pruned states kept
 * as backedges (scc.c). The helper call of a callback is where callback iterations converge.
 *
 * Checkpoints are kept as the kernel keeps them: at every forced checkpoint, otherwise after at
 * least 2 jumps and 8 instructions since the last one, fewer while walking a loop; states
 * that keep missing are evicted.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/verifier/verifier.h"

enum exact_level {
	NOT_EXACT,	/* imprecise scalars and dead registers match anything */
	EXACT,		/* identical (loop detection) */
	RANGE_WITHIN,	/* every scalar's range within the old one's, precise or not */
};

void free_func_state(struct nb_func_state *state)
{
	if (!state)
		return;
	free(state->stack);
	free(state);
}

void free_verifier_state(struct nb_verifier_state *state, bool free_self)
{
	for (u32 i = 0; i < NB_MAX_CALL_FRAMES; i++) {
		free_func_state(state->frame[i]);
		state->frame[i] = NULL;
	}
	clear_jmp_history(state);
	if (free_self)
		free(state);
}

static int copy_func_state(struct nb_func_state *dst, const struct nb_func_state *src)
{
	struct nb_stack_slot *stack = dst->stack;
	u32 n = src->allocated_stack / NB_REG_SIZE;

	if (n > dst->allocated_stack / NB_REG_SIZE || !stack) {
		stack = realloc(stack, (n ? n : 1) * sizeof(*stack));
		if (!stack)
			return -ENOMEM;
	}
	memcpy(dst, src, offsetof(struct nb_func_state, stack));
	if (n)
		memcpy(stack, src->stack, n * sizeof(*stack));
	dst->stack = stack;
	return 0;
}

static int copy_jmp_history(struct nb_verifier_state *dst, const struct nb_verifier_state *src)
{
	u32 cnt = src->jmp_history_cnt;

	if (cnt > dst->jmp_history_cap) {
		struct nb_jmp_history_entry *h = realloc(dst->jmp_history, cnt * sizeof(*h));

		if (!h)
			return -ENOMEM;
		dst->jmp_history = h;
		dst->jmp_history_cap = cnt;
	}
	if (cnt)
		memcpy(dst->jmp_history, src->jmp_history, cnt * sizeof(*src->jmp_history));
	dst->jmp_history_cnt = cnt;
	return 0;
}

int copy_verifier_state(struct nb_verifier_state *dst, const struct nb_verifier_state *src)
{
	int err = copy_jmp_history(dst, src);

	if (err)
		return err;
	for (u32 i = src->curframe + 1; i < NB_MAX_CALL_FRAMES; i++) {
		free_func_state(dst->frame[i]);
		dst->frame[i] = NULL;
	}
	for (u32 i = 0; i <= src->curframe; i++) {
		if (!dst->frame[i]) {
			dst->frame[i] = calloc(1, sizeof(*dst->frame[i]));
			if (!dst->frame[i])
				return -ENOMEM;
		}
		err = copy_func_state(dst->frame[i], src->frame[i]);
		if (err)
			return err;
	}
	dst->curframe = src->curframe;
	memcpy(dst->refs, src->refs, src->acquired_refs * sizeof(src->refs[0]));
	dst->acquired_refs = src->acquired_refs;
	dst->parent = src->parent;
	dst->branches = src->branches;
	dst->insn_idx = src->insn_idx;
	dst->first_insn_idx = src->first_insn_idx;
	dst->last_insn_idx = src->last_insn_idx;
	dst->dfs_depth = src->dfs_depth;
	dst->callback_unroll_depth = src->callback_unroll_depth;
	dst->may_goto_depth = src->may_goto_depth;
	dst->active_lock = src->active_lock;
	dst->active_lock_id = src->active_lock_id;
	dst->active_lock_map = src->active_lock_map;
	dst->active_lock_insn = src->active_lock_insn;
	dst->cleaned = src->cleaned;
	dst->equal_state = src->equal_state;
	return 0;
}

/* Where frame fr of st is: its instruction for the innermost frame, else its call. */
u32 frame_insn_idx(const struct nb_verifier_state *st, u32 frame)
{
	return frame == st->curframe ? st->insn_idx : st->frame[frame + 1]->callsite;
}

static bool same_callsites(const struct nb_verifier_state *a, const struct nb_verifier_state *b)
{
	if (a->curframe != b->curframe)
		return false;
	for (int fr = a->curframe; fr >= 0; fr--)
		if (a->frame[fr]->callsite != b->frame[fr]->callsite)
			return false;
	return true;
}

/*
 * Explored states are kept in lists hashed by instruction and call site, as the kernel's
 * explored_state(): states of one instruction reached from different call sites mostly sit in
 * different lists, and a list may hold states of other instructions (skipped when compared).
 * The main function's call site counts as -1 (BPF_MAIN_FUNC).
 */
static struct nb_state_list **explored_state(struct nb_verifier_env *env,
					     const struct nb_verifier_state *st, u32 insn_idx)
{
	u32 callsite = st->curframe ? st->frame[st->curframe]->callsite : (u32)-1;

	return &env->explored[(insn_idx ^ callsite) % env->len];
}

/* Each state sits in one explored list or in the free list. */
static void sl_push(struct nb_state_list **head, struct nb_state_list *sl)
{
	sl->next = *head;
	if (*head)
		(*head)->pprev = &sl->next;
	*head = sl;
	sl->pprev = head;
}

static void sl_unlink(struct nb_state_list *sl)
{
	*sl->pprev = sl->next;
	if (sl->next)
		sl->next->pprev = sl->pprev;
}

static void free_state_list(struct nb_state_list *sl)
{
	free_verifier_state(&sl->state, false);
	free(sl);
}

void update_peak_states(struct nb_verifier_env *env)
{
	u32 cur = env->explored_states_size + env->free_list_size + env->num_backedges;

	if (cur > env->peak_states)
		env->peak_states = cur;
}

/* An evicted state is freed once no path below it is unfinished and its loop is walked. */
static void maybe_free_verifier_state(struct nb_verifier_env *env, struct nb_state_list *sl)
{
	if (!sl->in_free_list || sl->state.branches || incomplete_read_marks(env, &sl->state))
		return;
	sl_unlink(sl);
	free_state_list(sl);
	env->free_list_size--;
}

/*
 * A path ended below st: st and its ancestors have one unfinished path less. A state whose
 * last one ended is done: the loop it entered (if any) is walked whole.
 */
int update_branch_counts(struct nb_verifier_env *env, struct nb_verifier_state *st)
{
	while (st) {
		struct nb_verifier_state *parent;
		int err;

		if (--st->branches)
			break;
		err = maybe_exit_scc(env, st);
		if (err)
			return err;
		parent = st->parent;
		maybe_free_verifier_state(env, container_of(st, struct nb_state_list, state));
		st = parent;
	}
	return 0;
}

void free_explored_states(struct nb_verifier_env *env)
{
	if (env->explored) {
		for (u32 i = 0; i < env->len; i++)
			while (env->explored[i]) {
				struct nb_state_list *sl = env->explored[i];

				sl_unlink(sl);
				free_state_list(sl);
			}
		free(env->explored);
		env->explored = NULL;
	}
	while (env->free_list) {
		struct nb_state_list *sl = env->free_list;

		sl_unlink(sl);
		free_state_list(sl);
	}
}

/*
 * Ids of the old state map one to one onto ids of the current one: two old registers linked
 * must be linked now too (a null check or a range learned on one applies to the other).
 */
static bool check_ids(struct nb_verifier_env *env, u32 old_id, u32 cur_id)
{
	if (!!old_id != !!cur_id)
		return false;
	if (!old_id)
		return true;
	for (u32 i = 0; i < env->idmap_cnt; i++) {
		if (env->idmap[i].old == old_id)
			return env->idmap[i].cur == cur_id;
		if (env->idmap[i].cur == cur_id)
			return false;
	}
	if (env->idmap_cnt >= ARRAY_SIZE(env->idmap))
		return false;
	env->idmap[env->idmap_cnt].old = old_id;
	env->idmap[env->idmap_cnt].cur = cur_id;
	env->idmap_cnt++;
	return true;
}

/*
 * An old scalar without an id was linked to nothing: whatever cur is linked to only adds
 * facts. An old id must map to one cur id, and a cur scalar without an id gets a fresh one,
 * so that two registers linked in old are not matched by two independent ones.
 */
static bool check_scalar_ids(struct nb_verifier_env *env, u32 old_id, u32 cur_id)
{
	if (!old_id)
		return true;
	cur_id = cur_id ?: ++env->idmap_tmp_id;
	return check_ids(env, old_id, cur_id);
}

static void reset_idmap(struct nb_verifier_env *env)
{
	env->idmap_cnt = 0;
	env->idmap_tmp_id = env->id_gen;
}

static bool range_within(const struct nb_reg_state *old, const struct nb_reg_state *cur)
{
	return old->umin_value <= cur->umin_value && old->umax_value >= cur->umax_value &&
	       old->smin_value <= cur->smin_value && old->smax_value >= cur->smax_value &&
	       old->u32_min_value <= cur->u32_min_value &&
	       old->u32_max_value >= cur->u32_max_value &&
	       old->s32_min_value <= cur->s32_min_value &&
	       old->s32_max_value >= cur->s32_max_value;
}

static bool bounds_equal(const struct nb_reg_state *a, const struct nb_reg_state *b)
{
	return a->var_off.value == b->var_off.value && a->var_off.mask == b->var_off.mask &&
	       a->smin_value == b->smin_value && a->smax_value == b->smax_value &&
	       a->umin_value == b->umin_value && a->umax_value == b->umax_value &&
	       a->s32_min_value == b->s32_min_value && a->s32_max_value == b->s32_max_value &&
	       a->u32_min_value == b->u32_min_value && a->u32_max_value == b->u32_max_value;
}

/* Type, fixed offset and what the pointer points to (the kernel's fields before var_off). */
static bool same_target(const struct nb_reg_state *a, const struct nb_reg_state *b)
{
	return a->type == b->type && a->off == b->off && a->range == b->range &&
	       a->mem_size == b->mem_size && a->map_ptr == b->map_ptr &&
	       a->map_uid == b->map_uid && a->subprogno == b->subprogno && a->btf_id == b->btf_id;
}

static bool regs_identical(const struct nb_reg_state *a, const struct nb_reg_state *b)
{
	return same_target(a, b) && bounds_equal(a, b) && a->id == b->id &&
	       a->ref_obj_id == b->ref_obj_id;
}

static bool regs_exact(struct nb_verifier_env *env, const struct nb_reg_state *old,
		       const struct nb_reg_state *cur)
{
	return same_target(old, cur) && bounds_equal(old, cur) &&
	       check_ids(env, old->id, cur->id) && check_ids(env, old->ref_obj_id, cur->ref_obj_id);
}

/* Every continuation safe from old is safe from cur, as far as this register goes. */
static bool regsafe(struct nb_verifier_env *env, const struct nb_reg_state *old,
		    const struct nb_reg_state *cur, enum exact_level exact)
{
	if (exact == EXACT)
		return regs_exact(env, old, cur);
	/*
	 * The old walk never read it, whatever cur holds: in a loop's RANGE_WITHIN too, since
	 * each of old's branches ended in an exit or led to cur (as the kernel since "allow
	 * states pruning for misc/invalid slots in iterator loops").
	 */
	if (old->type == NOT_INIT)
		return true;
	/* Types match exactly, flags included (maybe-null or not, read-only or not). */
	if (old->type != cur->type)
		return false;
	switch (base_type(old->type)) {
	case SCALAR_VALUE:
		/* A value that decided nothing after old: any value will do. */
		if (!old->precise && exact == NOT_EXACT)
			return true;
		/*
		 * Linked in the old state: linked alike now (by a constant in old: by the same
		 * constant). Unlinked in old: any link of cur only adds facts.
		 */
		if (old->id && (old->id & NB_ADD_CONST) != (cur->id & NB_ADD_CONST))
			return false;
		if ((old->id & NB_ADD_CONST) && old->off != cur->off)
			return false;
		return range_within(old, cur) && tnum_in(old->var_off, cur->var_off) &&
		       check_scalar_ids(env, old->id, cur->id);
	case PTR_TO_MAP_KEY:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MEM:
		return same_target(old, cur) && range_within(old, cur) &&
		       tnum_in(old->var_off, cur->var_off) && check_ids(env, old->id, cur->id) &&
		       check_ids(env, old->ref_obj_id, cur->ref_obj_id);
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET:
		/*
		 * At least as much of the packet proven readable, from the same offset; a pointer
		 * placed against pkt_end (negative range) decides comparisons: only the same.
		 */
		if (old->range < 0 ? cur->range != old->range : cur->range < old->range)
			return false;
		if (old->off != cur->off)
			return false;
		if (!check_ids(env, old->id, cur->id))
			return false;
		return range_within(old, cur) && tnum_in(old->var_off, cur->var_off);
	case PTR_TO_STACK:
		/* fp-8 of one frame is not fp-8 of another. */
		return regs_exact(env, old, cur) && old->frameno == cur->frameno;
	default:
		return regs_exact(env, old, cur);
	}
}

static bool is_spilled_scalar_reg64(const struct nb_stack_slot *slot)
{
	for (int i = 0; i < NB_REG_SIZE; i++)
		if (slot->slot_type[i] != STACK_SPILL)
			return false;
	return slot->spilled_ptr.type == SCALAR_VALUE;
}

static bool is_stack_all_misc(const struct nb_stack_slot *slot, bool allow_uninit)
{
	for (int i = 0; i < NB_REG_SIZE; i++) {
		if (slot->slot_type[i] == STACK_MISC ||
		    (slot->slot_type[i] == STACK_INVALID && allow_uninit))
			continue;
		return false;
	}
	return true;
}

/* An 8-byte spilled scalar, or bytes that read as an unknown scalar; NULL otherwise. */
static const struct nb_reg_state *scalar_reg_for_stack(const struct nb_stack_slot *slot,
						       bool allow_uninit)
{
	static const struct nb_reg_state unbound_reg = {
		.type = SCALAR_VALUE,
		.var_off = { .value = 0, .mask = ~0ULL },
		.smin_value = LLONG_MIN, .smax_value = LLONG_MAX,
		.umin_value = 0, .umax_value = ULLONG_MAX,
		.s32_min_value = INT_MIN, .s32_max_value = INT_MAX,
		.u32_min_value = 0, .u32_max_value = UINT_MAX,
	};

	if (is_spilled_scalar_reg64(slot))
		return &slot->spilled_ptr;
	if (is_stack_all_misc(slot, allow_uninit))
		return &unbound_reg;
	return NULL;
}

/*
 * The old stack is at least as general: each slot old may still read holds a superset of
 * what it holds now. Slots beyond old's stack were never used by old. allow_uninit: the
 * loader may read never-written stack, so old's misc bytes cover cur's never-written ones.
 * Only EXACT (loop detection) wants the same slot types; a loop's RANGE_WITHIN compares as
 * NOT_EXACT does here: old's never-written and misc bytes hold anything cur holds.
 */
static bool stacksafe(struct nb_verifier_env *env, const struct nb_func_state *old,
		      const struct nb_func_state *cur, enum exact_level exact, bool allow_uninit)
{
	static const struct nb_stack_slot invalid;
	u32 cur_slots = cur->allocated_stack / NB_REG_SIZE;

	for (u32 spi = 0; spi < old->allocated_stack / NB_REG_SIZE; spi++) {
		const struct nb_stack_slot *os = &old->stack[spi];
		const struct nb_stack_slot *cs = spi < cur_slots ? &cur->stack[spi] : &invalid;
		const struct nb_reg_state *old_reg, *cur_reg;
		bool need_slot = false;

		for (int i = 0; i < NB_REG_SIZE; i++) {
			u8 o = os->slot_type[i];

			if (exact == EXACT && (spi >= cur_slots || o != cs->slot_type[i]))
				return false;
			if (o == STACK_INVALID || (allow_uninit && o == STACK_MISC))
				continue;
			need_slot = true;
		}
		if (!need_slot)
			continue;
		if (spi >= cur_slots)
			return false;	/* old used slots cur does not have */
		/* 64-bit scalar spill against bytes that read as an unknown scalar. */
		old_reg = scalar_reg_for_stack(os, allow_uninit);
		cur_reg = scalar_reg_for_stack(cs, allow_uninit);
		if (old_reg && cur_reg) {
			if (!regsafe(env, old_reg, cur_reg, exact))
				return false;
			continue;
		}
		for (int i = 0; i < NB_REG_SIZE; i++) {
			u8 o = os->slot_type[i], c = cs->slot_type[i];

			if (o == STACK_INVALID || (allow_uninit && o == STACK_MISC))
				continue;
			/* Safe with unknown bytes, safe with zeros; not the other way round. */
			if (o == STACK_MISC && c == STACK_ZERO)
				continue;
			if (o != c)
				return false;
		}
		if (slot_has_spill(os) && !regsafe(env, &os->spilled_ptr, &cs->spilled_ptr, exact))
			return false;
		if (os->slot_type[0] == STACK_DYNPTR &&
		    (!dynptr_slot_safe(os, cs) ||
		     !check_ids(env, os->spilled_ptr.ref_obj_id, cs->spilled_ptr.ref_obj_id)))
			return false;
	}
	return true;
}

static bool refsafe(struct nb_verifier_env *env, const struct nb_verifier_state *old,
		    const struct nb_verifier_state *cur)
{
	if (old->acquired_refs != cur->acquired_refs)
		return false;
	/* The same lock held, or none: its id maps as the pointers' ids do. */
	if (old->active_lock != cur->active_lock)
		return false;
	if (old->active_lock && (old->active_lock_map != cur->active_lock_map ||
				 !check_ids(env, old->active_lock_id, cur->active_lock_id)))
		return false;
	for (u32 i = 0; i < old->acquired_refs; i++)
		if (!check_ids(env, old->refs[i].id, cur->refs[i].id))
			return false;
	return true;
}

static bool func_states_equal(struct nb_verifier_env *env, const struct nb_func_state *old,
			      const struct nb_func_state *cur, u32 insn_idx,
			      enum exact_level exact, bool allow_uninit)
{
	u16 live_regs = env->aux[insn_idx].live_regs;

	if (old->callback_depth > cur->callback_depth)
		return false;
	for (u32 i = 0; i < NB_MAX_BPF_REG; i++)
		if ((live_regs & (1u << i)) && !regsafe(env, &old->regs[i], &cur->regs[i], exact))
			return false;
	return stacksafe(env, old, cur, exact, allow_uninit);
}

static bool states_equal_as(struct nb_verifier_env *env, const struct nb_verifier_state *old,
			    const struct nb_verifier_state *cur, enum exact_level exact,
			    bool allow_uninit)
{
	if (old->curframe != cur->curframe)
		return false;
	reset_idmap(env);
	if (!refsafe(env, old, cur))
		return false;
	for (u32 i = 0; i <= old->curframe; i++) {
		if (old->frame[i]->callsite != cur->frame[i]->callsite ||
		    old->frame[i]->in_callback_fn != cur->frame[i]->in_callback_fn)
			return false;
		if (!func_states_equal(env, old->frame[i], cur->frame[i],
				       frame_insn_idx(old, i), exact, allow_uninit))
			return false;
	}
	return true;
}

/*
 * Under note_uninit_stack, a match that holds only because never-written stack reads as an
 * unknown scalar is noted: a loader without CAP_PERFMON would walk on from here. The other
 * way round cannot be (allowing such reads only makes old states more general), so a miss
 * needs no second look.
 */
static bool states_equal(struct nb_verifier_env *env, const struct nb_verifier_state *old,
			 const struct nb_verifier_state *cur, enum exact_level exact)
{
	if (!states_equal_as(env, old, cur, exact, env->allow_uninit_stack))
		return false;
	if (env->note_uninit_stack && env->allow_uninit_stack && !env->uninit_stack_used &&
	    !states_equal_as(env, old, cur, exact, false))
		env->uninit_stack_used = true;
	return true;
}

/* Forget what no continuation of st reads: dead registers, dead stack slots. */
static int clean_verifier_state(struct nb_verifier_env *env, struct nb_verifier_state *st)
{
	int err = nb_live_stack_query_init(env, st);

	if (err)
		return err;
	st->cleaned = true;
	for (u32 fr = 0; fr <= st->curframe; fr++) {
		struct nb_func_state *func = st->frame[fr];
		u16 live = env->aux[frame_insn_idx(st, fr)].live_regs;

		for (u32 i = 0; i < BPF_REG_10; i++)
			if (!(live & (1u << i)))
				mark_reg_not_init(&func->regs[i]);
		for (u32 i = 0; i < func->allocated_stack / NB_REG_SIZE; i++) {
			struct nb_stack_slot *slot = &func->stack[i];

			if (nb_stack_slot_alive(env, func->frameno, i))
				continue;
			mark_reg_not_init(&slot->spilled_ptr);
			memset(slot->slot_type, STACK_INVALID, sizeof(slot->slot_type));
		}
	}
	return 0;
}

/*
 * The explored states here without unfinished paths below have every read of their
 * continuations recorded: clean them once, before they are compared.
 */
static int clean_live_states(struct nb_verifier_env *env, u32 insn_idx,
			     const struct nb_verifier_state *cur)
{
	for (struct nb_state_list *sl = *explored_state(env, cur, insn_idx); sl; sl = sl->next) {
		int err;

		if (sl->state.branches || sl->state.insn_idx != insn_idx || sl->state.cleaned ||
		    !same_callsites(&sl->state, cur) || incomplete_read_marks(env, &sl->state))
			continue;
		err = clean_verifier_state(env, &sl->state);
		if (err)
			return err;
	}
	return 0;
}

/* The innermost frames hold the same registers: cur may be old come around again. */
static bool states_maybe_looping(const struct nb_verifier_state *old,
				 const struct nb_verifier_state *cur)
{
	const struct nb_func_state *fold, *fcur;

	if (old->curframe != cur->curframe)
		return false;
	fold = old->frame[cur->curframe];
	fcur = cur->frame[cur->curframe];
	for (u32 i = 0; i < NB_MAX_BPF_REG; i++)
		if (!regs_identical(&fold->regs[i], &fcur->regs[i]))
			return false;
	return true;
}

/* The explored state at insn_idx that cur came from around a loop (or a callback's turn). */
struct nb_verifier_state *find_prev_entry(struct nb_verifier_env *env,
					  const struct nb_verifier_state *cur, u32 insn_idx)
{
	for (struct nb_state_list *sl = *explored_state(env, cur, insn_idx); sl; sl = sl->next) {
		struct nb_verifier_state *st = &sl->state;

		if (st->insn_idx == insn_idx && st->branches && same_callsites(st, cur) &&
		    st->dfs_depth < cur->dfs_depth)
			return st;
	}
	return NULL;
}

/* cur becomes an unknown scalar of size bytes, unless it decides something or did not change. */
static void maybe_widen_reg(struct nb_verifier_env *env, const struct nb_reg_state *old,
			    struct nb_reg_state *cur, int size)
{
	if (old->type != SCALAR_VALUE || old->type != cur->type)
		return;
	if (old->precise || cur->precise || regs_exact(env, old, cur))
		return;
	mark_reg_unknown(cur);
	if (size < NB_REG_SIZE)
		coerce_reg_to_size(cur, size);
}

/* Bytes of the spilled register of slot: a narrow spill holds a value of that size. */
static int spill_size(const struct nb_stack_slot *slot)
{
	int size = 0;

	while (size < NB_REG_SIZE && slot->slot_type[size] == STACK_SPILL)
		size++;
	return size;
}

/*
 * A callback's iterations that keep changing a scalar nothing depends on (a counter in the
 * context) would never converge: such scalars become unknown. Making a state more general is
 * sound; it costs precision only.
 */
void widen_imprecise_scalars(struct nb_verifier_env *env, const struct nb_verifier_state *old,
			     struct nb_verifier_state *cur)
{
	reset_idmap(env);
	for (int fr = old->curframe; fr >= 0; fr--) {
		const struct nb_func_state *fold = old->frame[fr];
		struct nb_func_state *fcur = cur->frame[fr];
		u32 slots = min_t(u32, fold->allocated_stack, fcur->allocated_stack) / NB_REG_SIZE;

		for (u32 i = 0; i < NB_MAX_BPF_REG; i++)
			maybe_widen_reg(env, &fold->regs[i], &fcur->regs[i], NB_REG_SIZE);
		for (u32 i = 0; i < slots; i++) {
			if (!slot_has_spill(&fold->stack[i]) || !slot_has_spill(&fcur->stack[i]))
				continue;
			maybe_widen_reg(env, &fold->stack[i].spilled_ptr,
					&fcur->stack[i].spilled_ptr, spill_size(&fcur->stack[i]));
		}
	}
}

/* Evict a state that keeps missing: it moves to the free list, freed when done. */
static void evict_state(struct nb_verifier_env *env, struct nb_state_list *sl)
{
	sl->in_free_list = true;
	sl_unlink(sl);
	sl_push(&env->free_list, sl);
	env->free_list_size++;
	env->explored_states_size--;
	maybe_free_verifier_state(env, sl);
}

/* cur is proven safe by sl's state: what the latter needed precise, cur's ancestors need. */
static int state_hit(struct nb_verifier_env *env, struct nb_state_list *sl, bool loop)
{
	struct nb_verifier_state *cur = env->cur;
	int err = 0;

	sl->hit_cnt++;
	if (env->aux[env->insn_idx].jmp_point)
		err = push_jmp_history(env, cur, 0, 0);
	err = err ?: propagate_precision(env, &sl->state, cur, NULL);
	if (err)
		return err;
	/* In a loop still being walked, sl's marks may grow: keep cur to pass them on. */
	if (loop) {
		err = add_scc_backedge(env, &sl->state, cur);
		if (err)
			return err;
	}
	return 1;
}

/* Returns 1 when the current path is proven safe here, 0 to go on, < 0 on error. */
int is_state_visited(struct nb_verifier_env *env, u32 insn_idx)
{
	struct nb_insn_aux *aux = &env->aux[insn_idx];
	struct nb_verifier_state *cur = env->cur, *new;
	struct nb_state_list **head = explored_state(env, cur, insn_idx);
	bool force_new_state, add_new_state;
	struct nb_state_list *sl, *next, *new_sl;
	u32 states_cnt = 0;
	int err;

	if (!aux->prune_point)
		return 0;
	/* Long histories would make backtracking slow: checkpoints cut them. */
	force_new_state = aux->force_checkpoint || cur->jmp_history_cnt > 40;
	/*
	 * Keep a state after at least 2 jumps and 8 instructions: programs have a prune point
	 * every few instructions, and fewer states cost less memory and time to compare.
	 */
	add_new_state = force_new_state ||
			(env->jmps_processed - env->prev_jmps_processed >= 2 &&
			 env->insn_processed - env->prev_insn_processed >= 8);

	err = clean_live_states(env, insn_idx, cur);
	if (err)
		return err;

	for (sl = *head; sl; sl = next) {
		bool loop = false;
		u32 n;

		next = sl->next;
		states_cnt++;
		if (sl->state.insn_idx != insn_idx)
			continue;
		if (sl->state.branches) {
			/* In progress: an ancestor of the current path. */
			/*
			 * A may_goto loop's turn that changed nothing that matters: the loop
			 * converged (each turn may be the last, so the rest is walked from sl).
			 */
			if (insn_is_may_goto(&env->insns[insn_idx]) &&
			    sl->state.may_goto_depth != cur->may_goto_depth &&
			    states_equal(env, &sl->state, cur, RANGE_WITHIN))
				return state_hit(env, sl, true);
			if (aux->calls_callback) {
				/* The callback's iterations converged. */
				if (states_equal(env, &sl->state, cur, RANGE_WITHIN))
					return state_hit(env, sl, false);
				goto skip_inf_loop_check;
			}
			if (states_maybe_looping(&sl->state, cur) &&
			    states_equal(env, &sl->state, cur, EXACT) &&
			    sl->state.may_goto_depth == cur->may_goto_depth &&
			    sl->state.callback_unroll_depth == cur->callback_unroll_depth) {
				verbose(env, "infinite loop detected at insn %u\n", insn_idx);
				return -EINVAL;
			}
skip_inf_loop_check:
			/*
			 * Walking a loop: iterations differ, their states rarely help. Keep one
			 * only every 20 jumps or 100 instructions, so that a long loop is still
			 * refused quickly and the states at its end remain for pruning.
			 */
			if (!force_new_state &&
			    env->jmps_processed - env->prev_jmps_processed < 20 &&
			    env->insn_processed - env->prev_insn_processed < 100)
				add_new_state = false;
			goto miss;
		}
		loop = incomplete_read_marks(env, &sl->state);
		if (states_equal(env, &sl->state, cur, loop ? RANGE_WITHIN : NOT_EXACT))
			return state_hit(env, sl, loop);
miss:
		/*
		 * Misses count only when a state will be added, so that loop iterations do not
		 * evict the states kept at the start of the loop.
		 */
		if (add_new_state)
			sl->miss_cnt++;
		n = aux->force_checkpoint && sl->state.branches ? 64 : 3;
		if (sl->miss_cnt > sl->hit_cnt * n + n)
			evict_state(env, sl);
	}
	if (states_cnt > env->max_states_per_insn)
		env->max_states_per_insn = states_cnt;
	if (!add_new_state)
		return 0;

	/*
	 * No explored state covers this one: keep it. It is not proven safe yet, but it will
	 * be, or the program is refused; until then it has unfinished paths (branches) and is
	 * only compared to detect endless loops.
	 */
	new_sl = calloc(1, sizeof(*new_sl));
	if (!new_sl)
		return -ENOMEM;
	env->total_states++;
	env->explored_states_size++;
	update_peak_states(env);
	env->prev_jmps_processed = env->jmps_processed;
	env->prev_insn_processed = env->insn_processed;
	/* Precision comes back from what the continuations need, not from the past. */
	mark_all_scalars_imprecise(cur);
	new = &new_sl->state;
	err = copy_verifier_state(new, cur);
	if (!err) {
		new->insn_idx = insn_idx;
		new->branches = 1;
		err = maybe_enter_scc(env, new);
	}
	if (err) {
		free_state_list(new_sl);
		env->explored_states_size--;
		return err;
	}
	cur->parent = new;
	cur->first_insn_idx = insn_idx;
	cur->dfs_depth = new->dfs_depth + 1;
	clear_jmp_history(cur);
	sl_push(head, new_sl);
	return 0;
}
