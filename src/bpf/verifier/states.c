// SPDX-License-Identifier: GPL-2.0
/*
 * State pruning: at prune points the walk compares its state with the states already explored
 * there. An explored state whose every continuation was proven safe, and which is at least as
 * general as the current one (every register and stack byte that may still be read holds a
 * superset of the values it holds now), makes exploring the current state again useless
 * (regsafe/stacksafe). An explored state still in progress at the same instruction is an
 * ancestor on the current path: equal to it means the loop can never end.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/verifier/verifier.h"

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

int copy_verifier_state(struct nb_verifier_state *dst, const struct nb_verifier_state *src)
{
	for (u32 i = src->curframe + 1; i < NB_MAX_CALL_FRAMES; i++) {
		free_func_state(dst->frame[i]);
		dst->frame[i] = NULL;
	}
	for (u32 i = 0; i <= src->curframe; i++) {
		int err;

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
	return 0;
}

void update_branch_counts(struct nb_verifier_env *env, struct nb_verifier_state *st)
{
	while (st) {
		if (--st->branches)
			break;
		st = st->parent;
	}
}

void free_explored_states(struct nb_verifier_env *env)
{
	if (!env->explored)
		return;
	for (u32 i = 0; i < env->len; i++) {
		struct nb_state_list *sl = env->explored[i];

		while (sl) {
			struct nb_state_list *next = sl->next;

			free_verifier_state(&sl->state, false);
			free(sl);
			sl = next;
		}
	}
	free(env->explored);
	env->explored = NULL;
	while (env->free_list) {
		struct nb_state_list *next = env->free_list->next;

		free_verifier_state(&env->free_list->state, false);
		free(env->free_list);
		env->free_list = next;
	}
}

/* Ids of the old state map one to one onto ids of the current state. */
static bool check_ids(struct nb_verifier_env *env, u32 old_id, u32 cur_id)
{
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

static bool same_pointer(const struct nb_reg_state *a, const struct nb_reg_state *b)
{
	return a->type == b->type && a->off == b->off && a->mem_size == b->mem_size &&
	       a->map_ptr == b->map_ptr && a->frameno == b->frameno &&
	       a->subprogno == b->subprogno;
}

static bool regsafe(struct nb_verifier_env *env, const struct nb_reg_state *old,
		    const struct nb_reg_state *cur, bool exact, bool precise)
{
	if (old->type == NOT_INIT)
		return !exact || cur->type == NOT_INIT;
	if (cur->type == NOT_INIT || old->type != cur->type)
		return false;
	if (exact)
		return same_pointer(old, cur) && old->range == cur->range &&
		       bounds_equal(old, cur) && check_ids(env, old->id, cur->id) &&
		       check_ids(env, old->ref_obj_id, cur->ref_obj_id);
	switch (base_type(old->type)) {
	case SCALAR_VALUE:
		/* A value that decides nothing from here on: any value will do. */
		if (!precise)
			return true;
		if (!range_within(old, cur) || !tnum_in(old->var_off, cur->var_off))
			return false;
		/* Linked in the old state: must be linked the same way now. */
		return !old->id || (cur->id && check_ids(env, old->id, cur->id));
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		/* The current state must have proven at least as much of the packet. */
		if (cur->range < old->range || old->off != cur->off)
			return false;
		return range_within(old, cur) && tnum_in(old->var_off, cur->var_off) &&
		       check_ids(env, old->id, cur->id);
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MAP_KEY:
	case PTR_TO_MEM:
		if (!same_pointer(old, cur))
			return false;
		return range_within(old, cur) && tnum_in(old->var_off, cur->var_off) &&
		       check_ids(env, old->id, cur->id) &&
		       check_ids(env, old->ref_obj_id, cur->ref_obj_id);
	default:
		return same_pointer(old, cur) && bounds_equal(old, cur) &&
		       check_ids(env, old->id, cur->id) &&
		       check_ids(env, old->ref_obj_id, cur->ref_obj_id);
	}
}

static bool is_unbounded_scalar(const struct nb_reg_state *reg)
{
	return reg->type == SCALAR_VALUE && tnum_is_unknown(reg->var_off) &&
	       reg->smin_value == LLONG_MIN && reg->smax_value == LLONG_MAX &&
	       reg->umin_value == 0 && reg->umax_value == ULLONG_MAX;
}

static bool stacksafe(struct nb_verifier_env *env, const struct nb_func_state *old,
		      const struct nb_func_state *cur, bool exact)
{
	for (u32 spi = 0; spi < old->allocated_stack / NB_REG_SIZE; spi++) {
		const struct nb_stack_slot *os = &old->stack[spi];
		const struct nb_stack_slot *cs = spi < cur->allocated_stack / NB_REG_SIZE ?
						 &cur->stack[spi] : NULL;
		static const struct nb_stack_slot invalid;

		if (!cs)
			cs = &invalid;
		if (exact) {
			if (memcmp(os->slot_type, cs->slot_type, NB_REG_SIZE))
				return false;
			if (slot_has_spill(os) && (os->spill_off != cs->spill_off ||
			    !regsafe(env, &os->spilled_ptr, &cs->spilled_ptr, true, true)))
				return false;
			continue;
		}
		if (slot_has_spill(os)) {
			if (!slot_has_spill(cs) || cs->spill_off != os->spill_off) {
				/* Any initialised bytes are an unknown scalar. */
				if (!is_unbounded_scalar(&os->spilled_ptr))
					return false;
			} else if (!regsafe(env, &os->spilled_ptr, &cs->spilled_ptr, false, true)) {
				return false;
			}
		}
		for (int i = 0; i < NB_REG_SIZE; i++) {
			u8 o = os->slot_type[i], c = cs->slot_type[i];

			switch (o) {
			case STACK_INVALID:
				/* The old walk never read it before writing it. */
				break;
			case STACK_MISC:
				if (c == STACK_INVALID)
					return false;
				if (c == STACK_SPILL && cs->spilled_ptr.type != SCALAR_VALUE)
					return false;
				break;
			case STACK_ZERO:
				if (c != STACK_ZERO)
					return false;
				break;
			case STACK_SPILL:
				if (c == STACK_INVALID)
					return false;
				if (c != STACK_SPILL && !is_unbounded_scalar(&os->spilled_ptr))
					return false;
				break;
			}
		}
	}
	return true;
}

/*
 * Where frame fr of st resumes: insn_idx for the innermost frame, the call for a frame waiting
 * on a callback (the helper runs again), the instruction after the call otherwise.
 */
static const struct nb_insn_aux *frame_resume_aux(struct nb_verifier_env *env,
						  const struct nb_verifier_state *st, u32 fr,
						  u32 insn_idx, u16 *clobbered)
{
	const struct nb_func_state *callee;

	*clobbered = 0;
	if (fr == st->curframe)
		return &env->aux[insn_idx];
	callee = st->frame[fr + 1];
	if (callee->in_callback_fn)
		return &env->aux[callee->callsite];
	/* After the return: R0 is the callee's result, R1-R5 are scratch. */
	*clobbered = 0x3f;
	return &env->aux[callee->callsite + 1];
}

static bool states_equal(struct nb_verifier_env *env, const struct nb_verifier_state *old,
			 const struct nb_verifier_state *cur, u32 insn_idx, bool exact)
{
	if (old->curframe != cur->curframe || old->acquired_refs != cur->acquired_refs)
		return false;
	env->idmap_cnt = 0;
	for (u32 fr = 0; fr <= old->curframe; fr++) {
		const struct nb_func_state *of = old->frame[fr], *cf = cur->frame[fr];
		u16 clobbered;
		const struct nb_insn_aux *aux = frame_resume_aux(env, cur, fr, insn_idx,
								 &clobbered);
		u16 live = aux->live_regs & ~clobbered, precise = aux->precise_regs;

		if (of->callsite != cur->frame[fr]->callsite ||
		    of->in_callback_fn != cf->in_callback_fn)
			return false;
		for (int r = 0; r < NB_MAX_BPF_REG; r++) {
			if (!exact && !(live & (1u << r)))
				continue;
			if (!regsafe(env, &of->regs[r], &cf->regs[r], exact,
				     precise & (1u << r)))
				return false;
		}
		if (!stacksafe(env, of, cf, exact))
			return false;
	}
	for (u32 i = 0; i < old->acquired_refs; i++)
		if (!check_ids(env, old->refs[i].id, cur->refs[i].id))
			return false;
	return true;
}

static u32 count_scalar_id(struct nb_verifier_state *st, u32 id)
{
	struct nb_reg_state *reg;
	u32 cnt = 0;

	for_each_reg_in_state(st, reg, {
		if (reg->type == SCALAR_VALUE && reg->id == id)
			cnt++;
	});
	return cnt;
}

/* A scalar id held by one register links nothing: drop it so that pruning can match. */
static void clear_singular_ids(struct nb_verifier_state *st)
{
	struct nb_reg_state *reg;

	for_each_reg_in_state(st, reg, {
		if (reg->type == SCALAR_VALUE && reg->id && count_scalar_id(st, reg->id) == 1)
			reg->id = 0;
	});
}

static void widen_reg(const struct nb_reg_state *old, struct nb_reg_state *cur, int size)
{
	if (old->type != SCALAR_VALUE || cur->type != SCALAR_VALUE || bounds_equal(old, cur))
		return;
	mark_reg_unknown(cur);
	coerce_reg_to_size(cur, size);
}

/*
 * A callback's iterations that keep changing a scalar (a sum in the context) would never
 * converge: every scalar that differs from the previous iteration's state becomes unknown.
 * Making a state more general is always sound; it costs precision only.
 */
static void widen_callback_state(const struct nb_verifier_state *old,
				 struct nb_verifier_state *cur)
{
	for (u32 fr = 0; fr <= cur->curframe && fr <= old->curframe; fr++) {
		const struct nb_func_state *of = old->frame[fr];
		struct nb_func_state *cf = cur->frame[fr];
		u32 slots = min_t(u32, of->allocated_stack, cf->allocated_stack) / NB_REG_SIZE;

		for (int r = 0; r < NB_MAX_BPF_REG; r++)
			widen_reg(&of->regs[r], &cf->regs[r], NB_REG_SIZE);
		for (u32 spi = 0; spi < slots; spi++) {
			const struct nb_stack_slot *os = &of->stack[spi];
			struct nb_stack_slot *cs = &cf->stack[spi];
			int size = 0;

			if (slot_has_spill(os) && slot_has_spill(cs) && os->spill_off == cs->spill_off) {
				while (cs->spill_off + size < NB_REG_SIZE &&
				       cs->slot_type[cs->spill_off + size] == STACK_SPILL)
					size++;
				widen_reg(&os->spilled_ptr, &cs->spilled_ptr, size);
			}
		}
	}
}

int is_state_visited(struct nb_verifier_env *env, u32 insn_idx)
{
	struct nb_insn_aux *aux = &env->aux[insn_idx];
	struct nb_verifier_state *cur = env->cur;
	struct nb_state_list *sl, *new_sl;
	bool add_new_state;
	u32 n = 0;
	int err;

	if (!aux->prune_point)
		return 0;
	/*
	 * Loop heads always keep a first state (an endless loop then shows at its next turn),
	 * then one every few instructions: tight loops would otherwise copy a state per turn.
	 */
	add_new_state = aux->force_checkpoint &&
			(!env->explored[insn_idx] ||
			 env->insn_processed - env->prev_insn_processed >= 8);
	/* Keep states at a moderate rate: enough to prune, not so many that lookups cost. */
	if (env->jmps_processed - env->prev_jmps_processed >= 2 &&
	    env->insn_processed - env->prev_insn_processed >= 8)
		add_new_state = true;

	for (struct nb_state_list **pprev = &env->explored[insn_idx]; (sl = *pprev);) {
		n++;
		if (sl->state.branches) {
			/* In progress: an ancestor of the current path. */
			if (aux->calls_callback) {
				if (states_equal(env, &sl->state, cur, insn_idx, false))
					return 1;	/* iterations converged */
				widen_callback_state(&sl->state, cur);
				if (states_equal(env, &sl->state, cur, insn_idx, false))
					return 1;
			}
			if (states_equal(env, &sl->state, cur, insn_idx, true)) {
				verbose(env, "infinite loop detected at insn %u\n", insn_idx);
				return -EINVAL;
			}
		} else if (states_equal(env, &sl->state, cur, insn_idx, false)) {
			sl->hit_cnt++;
			return 1;
		}
		/*
		 * A state that keeps missing is unlikely to ever match: drop it from the list so
		 * that loops do not compare against every iteration. One still in progress stays
		 * alive for its descendants until the end.
		 */
		if (++sl->miss_cnt > sl->hit_cnt * 3 + 3) {
			*pprev = sl->next;
			env->cur_states--;
			if (sl->state.branches) {
				sl->next = env->free_list;
				env->free_list = sl;
			} else {
				free_verifier_state(&sl->state, false);
				free(sl);
			}
			continue;
		}
		pprev = &sl->next;
	}
	if (!add_new_state)
		return 0;

	new_sl = calloc(1, sizeof(*new_sl));
	if (!new_sl)
		return -ENOMEM;
	err = copy_verifier_state(&new_sl->state, cur);
	if (err) {
		free_verifier_state(&new_sl->state, false);
		free(new_sl);
		return err;
	}
	clear_singular_ids(&new_sl->state);
	new_sl->state.insn_idx = insn_idx;
	new_sl->state.branches = 1;
	new_sl->state.parent = cur->parent;
	cur->parent = &new_sl->state;
	new_sl->next = env->explored[insn_idx];
	env->explored[insn_idx] = new_sl;
	env->prev_jmps_processed = env->jmps_processed;
	env->prev_insn_processed = env->insn_processed;
	env->total_states++;
	env->cur_states++;
	if (env->cur_states > env->peak_states)
		env->peak_states = env->cur_states;
	if (n + 1 > env->max_states_per_insn)
		env->max_states_per_insn = n + 1;
	return 0;
}
