// SPDX-License-Identifier: GPL-2.0
/*
 * Dynptrs in the verifier, as the kernel's process_dynptr_func and its stack slots: a struct
 * bpf_dynptr is 16 bytes of the stack, two slots marked STACK_DYNPTR whose spilled_ptr says
 * the dynptr's type and which slot is its first (the higher one). bpf_ringbuf_reserve_dynptr
 * makes one of an uninitialised (or unreferenced) pair at a constant offset and acquires a
 * reference the program must release with bpf_ringbuf_submit_dynptr or _discard_dynptr, which
 * also kill the slices bpf_dynptr_data took from it. The dynptr's bytes belong to its helpers:
 * loads from them are refused, and a store or a helper's write over a referenced dynptr too
 * ("cannot overwrite referenced dynptr"). Pruning compares the slots' types and references
 * (stacksafe).
 */
#include <string.h>

#include "bpf/dynptr.h"
#include "bpf/verifier/verifier.h"

#define DYNPTR_NR_SLOTS 2	/* BPF_DYNPTR_NR_SLOTS */

static const char *dynptr_type_str(enum nb_dynptr_type type)
{
	switch (type) {
	case NB_DYNPTR_TYPE_LOCAL:
		return "local";
	case NB_DYNPTR_TYPE_RINGBUF:
		return "ringbuf";
	default:
		return "<invalid>";
	}
}

/* Dynptrs whose memory is a reference the program holds (the kernel's refcounted ones). */
static bool dynptr_type_refcounted(enum nb_dynptr_type type)
{
	return type == NB_DYNPTR_TYPE_RINGBUF;
}

/*
 * The slot of the dynptr's first (higher) half, the kernel's dynptr_get_spi; -ERANGE when the
 * stack does not reach it yet (a new dynptr grows it).
 */
static int dynptr_get_spi(struct nb_verifier_env *env, const struct nb_reg_state *reg)
{
	const struct nb_func_state *state = func_of_reg(env, reg);
	int off, spi;

	if (!tnum_is_const(reg->var_off)) {
		verbose(env, "dynptr has to be at a constant offset\n");
		return -EINVAL;
	}
	off = reg->off + (int)reg->var_off.value;
	if (off % NB_REG_SIZE) {
		verbose(env, "cannot pass in dynptr at an offset=%d\n", off);
		return -EINVAL;
	}
	spi = (-off - 1) / NB_REG_SIZE;
	if (off >= 0 || spi < 1) {
		verbose(env, "cannot pass in dynptr at an offset=%d\n", off);
		return -EINVAL;
	}
	if ((u32)spi >= state->allocated_stack / NB_REG_SIZE)
		return -ERANGE;
	return spi;
}

static void invalidate_dynptr(struct nb_func_state *state, int spi)
{
	for (int s = spi; s > spi - DYNPTR_NR_SLOTS; s--) {
		memset(state->stack[s].slot_type, STACK_INVALID, NB_REG_SIZE);
		mark_reg_not_init(&state->stack[s].spilled_ptr);
	}
}

int destroy_if_dynptr_stack_slot(struct nb_verifier_env *env, struct nb_func_state *state,
				 int spi)
{
	const struct nb_stack_slot *slot;

	if (spi < 0 || (u32)spi >= state->allocated_stack / NB_REG_SIZE)
		return 0;
	slot = &state->stack[spi];
	if (slot->slot_type[0] != STACK_DYNPTR)
		return 0;
	/* Writing to either half destroys the whole dynptr. */
	if (!slot->spilled_ptr.dynptr_first_slot)
		spi++;
	if (dynptr_type_refcounted(state->stack[spi].spilled_ptr.dynptr_type)) {
		verbose(env, "cannot overwrite referenced dynptr\n");
		return -EINVAL;
	}
	invalidate_dynptr(state, spi);
	return 0;
}

static bool is_dynptr_reg_valid_init(struct nb_verifier_env *env, const struct nb_reg_state *reg,
				     int *spip)
{
	const struct nb_func_state *state = func_of_reg(env, reg);
	int spi = dynptr_get_spi(env, reg);

	if (spi < 0 || !state->stack[spi].spilled_ptr.dynptr_first_slot)
		return false;
	for (int i = 0; i < NB_REG_SIZE; i++)
		if (state->stack[spi].slot_type[i] != STACK_DYNPTR ||
		    state->stack[spi - 1].slot_type[i] != STACK_DYNPTR)
			return false;
	*spip = spi;
	return true;
}

/* A new dynptr in the two slots: its id, and the reference its memory is. */
static int mark_stack_slots_dynptr(struct nb_verifier_env *env, const struct nb_reg_state *reg,
				   enum nb_dynptr_type type)
{
	struct nb_func_state *state = func_of_reg(env, reg);
	int spi = dynptr_get_spi(env, reg), err, ref = 0;
	u32 dynptr_id;

	if (spi < 0)
		return spi;
	/* Either slot may hold half of another dynptr: [d1][d1][d2][d2], spi 2 ends both. */
	err = destroy_if_dynptr_stack_slot(env, state, spi);
	err = err ?: destroy_if_dynptr_stack_slot(env, state, spi - 1);
	if (err)
		return err;
	if (dynptr_type_refcounted(type)) {
		ref = acquire_reference(env, env->insn_idx);
		if (ref < 0)
			return ref;
	}
	dynptr_id = ++env->id_gen;
	for (int s = spi; s > spi - DYNPTR_NR_SLOTS; s--) {
		struct nb_reg_state *r = &state->stack[s].spilled_ptr;

		memset(state->stack[s].slot_type, STACK_DYNPTR, NB_REG_SIZE);
		mark_reg_not_init(r);
		r->id = dynptr_id;
		r->ref_obj_id = ref;
		r->dynptr_type = type;
		r->dynptr_first_slot = s == spi;
	}
	return 0;
}

int process_dynptr_func(struct nb_verifier_env *env, int regno, enum nb_arg_type type,
			u32 *ref_obj_id)
{
	struct nb_reg_state *reg = &cur_regs(env)[regno];
	const struct nb_func_state *state;
	int spi, err;

	if (reg->type != PTR_TO_STACK) {
		verbose(env, "R%d type=%s expected=fp, dynptr_ptr\n", regno,
			reg_type_str(reg->type));
		return -EACCES;
	}
	if (type == NB_ARG_PTR_TO_DYNPTR_RINGBUF_UNINIT) {
		spi = dynptr_get_spi(env, reg);
		/* Unreferenced dynptrs there are overwritten: mark_stack_slots_dynptr ends them. */
		if (spi < 0 && spi != -ERANGE) {
			verbose(env, "Dynptr has to be an uninitialized dynptr\n");
			return -EINVAL;
		}
		/* The helper writes its 16 bytes, 8 at a time (a write over a referenced one fails). */
		for (int i = 0; i < NB_REG_SIZE * DYNPTR_NR_SLOTS; i += NB_REG_SIZE) {
			err = check_stack_access_within_bounds(env, regno, reg->off + i, NB_REG_SIZE,
							       NB_WRITE);
			err = err ?: check_stack_write(env, regno, reg->off + i, NB_REG_SIZE, -1,
						       NULL);
			if (err)
				return err;
		}
		return mark_stack_slots_dynptr(env, reg, NB_DYNPTR_TYPE_RINGBUF);
	}
	state = func_of_reg(env, reg);
	if (type == NB_ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE) {
		/* Only a dynptr that holds a reference can be released. */
		spi = dynptr_get_spi(env, reg);
		if (spi < 0 || !state->stack[spi].spilled_ptr.ref_obj_id) {
			verbose(env, "arg %d is an unacquired reference\n", regno);
			return -EINVAL;
		}
	}
	if (!is_dynptr_reg_valid_init(env, reg, &spi)) {
		verbose(env, "Expected an initialized dynptr as arg #%d\n", regno - 1);
		return -EINVAL;
	}
	if (type == NB_ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE &&
	    state->stack[spi].spilled_ptr.dynptr_type != NB_DYNPTR_TYPE_RINGBUF) {
		verbose(env, "Expected a dynptr of type %s as arg #%d\n",
			dynptr_type_str(NB_DYNPTR_TYPE_RINGBUF), regno - 1);
		return -EINVAL;
	}
	*ref_obj_id = state->stack[spi].spilled_ptr.ref_obj_id;
	/* The helper reads both slots: they are alive up to here. */
	return nb_mark_stack_read(env, state->frameno, env->insn_idx, 3ull << (spi - 1));
}

int release_dynptr(struct nb_verifier_env *env, int regno)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	struct nb_func_state *state = func_of_reg(env, reg);
	int spi = dynptr_get_spi(env, reg), err;
	u32 ref;

	if (spi < 0)
		return spi;
	ref = state->stack[spi].spilled_ptr.ref_obj_id;
	/* Its slices (bpf_dynptr_data) die with the reference. */
	err = release_reference(env, ref);
	if (err)
		return err;
	/* And the dynptr itself, with any copy that shares the reference. */
	for (u32 s = 1; s < state->allocated_stack / NB_REG_SIZE; s++) {
		const struct nb_stack_slot *slot = &state->stack[s];

		if (slot->slot_type[0] == STACK_DYNPTR && slot->spilled_ptr.ref_obj_id == ref &&
		    slot->spilled_ptr.dynptr_first_slot)
			invalidate_dynptr(state, s);
	}
	return 0;
}

bool dynptr_slot_safe(const struct nb_stack_slot *old, const struct nb_stack_slot *cur)
{
	return old->spilled_ptr.dynptr_type == cur->spilled_ptr.dynptr_type &&
	       old->spilled_ptr.dynptr_first_slot == cur->spilled_ptr.dynptr_first_slot;
}
