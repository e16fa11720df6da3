// SPDX-License-Identifier: GPL-2.0
/*
 * The stack: 512 bytes per frame, tracked per byte (invalid, misc, zero, part of a spilled
 * register) with the full state of each spilled register, so that a pointer spilled and filled
 * keeps its type and a bounded scalar keeps its bounds. Reading a byte never written is
 * rejected. Accesses are aligned to their size (as the kernel requires for the stack), so a
 * fixed-offset access stays inside one 8-byte slot.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/verifier/verifier.h"

int grow_stack_state(struct nb_func_state *state, u32 size)
{
	u32 old = state->allocated_stack / NB_REG_SIZE, n = (size + NB_REG_SIZE - 1) / NB_REG_SIZE;
	struct nb_stack_slot *stack;

	if (n <= old)
		return 0;
	stack = realloc(state->stack, n * sizeof(*stack));
	if (!stack)
		return -ENOMEM;
	memset(stack + old, 0, (n - old) * sizeof(*stack));
	state->stack = stack;
	state->allocated_stack = n * NB_REG_SIZE;
	return 0;
}

struct nb_func_state *func_of_reg(struct nb_verifier_env *env, const struct nb_reg_state *reg)
{
	return env->cur->frame[reg->frameno];
}

void update_stack_depth(struct nb_verifier_env *env, const struct nb_func_state *state, int off)
{
	u32 *depth = &env->subprog[state->subprogno].stack_depth;

	if ((u32)-off > *depth)
		*depth = -off;
}

static struct nb_stack_slot *slot_of(struct nb_func_state *state, int off)
{
	return &state->stack[(-off - 1) / NB_REG_SIZE];
}

static u32 spi_of(int off)
{
	return (-off - 1) / NB_REG_SIZE;
}

/* Liveness (liveness.c): the slots of frame state that [min_off, max_off) reads. */
static int mark_stack_read_range(struct nb_verifier_env *env, const struct nb_func_state *state,
				 int min_off, int max_off)
{
	u64 mask = 0;

	for (int i = min_off; i < max_off; i++)
		mask |= 1ull << spi_of(i);
	return mask ? nb_mark_stack_read(env, state->frameno, env->insn_idx, mask) : 0;
}

/* Index of the byte at fp+off inside its slot; 0 is the slot's lowest address. */
static int byte_of(int off)
{
	int spi = (-off - 1) / NB_REG_SIZE;

	return off + (spi + 1) * NB_REG_SIZE;
}

/* A spilled register partly overwritten is just initialised bytes now. */
static void scrub_spilled_slot(struct nb_stack_slot *slot)
{
	for (int i = 0; i < NB_REG_SIZE; i++)
		if (slot->slot_type[i] == STACK_SPILL)
			slot->slot_type[i] = STACK_MISC;
	mark_reg_unknown(&slot->spilled_ptr);
}

/* A write over [first, first + size) of a slot destroys a spill it overlaps. */
static void scrub_if_overlap(struct nb_stack_slot *slot, int first, int size)
{
	for (int i = first; i < first + size; i++) {
		if (slot->slot_type[i] == STACK_SPILL) {
			scrub_spilled_slot(slot);
			return;
		}
	}
}

static bool is_spillable_pointer(const struct nb_reg_state *reg)
{
	return reg->type != SCALAR_VALUE && reg->type != NOT_INIT;
}

int check_stack_access_within_bounds(struct nb_verifier_env *env, int regno, int off,
				     int access_size, enum nb_access_type type,
				     const char *what)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	s64 min_off, max_off;

	if (tnum_is_const(reg->var_off)) {
		min_off = (s64)reg->var_off.value + off;
		max_off = min_off + access_size;
	} else {
		if (reg->smax_value >= NB_MAX_VAR_OFF || reg->smin_value <= -NB_MAX_VAR_OFF) {
			verbose(env, "invalid unbounded variable-offset%s stack R%d\n", what,
				regno);
			return -EACCES;
		}
		min_off = reg->smin_value + off;
		max_off = reg->smax_value + off + access_size;
	}
	if (min_off < -NB_STACK_SIZE || max_off > 0) {
		if (tnum_is_const(reg->var_off)) {
			verbose(env, "invalid%s stack R%d off=%d size=%d\n", what, regno, off,
				access_size);
		} else {
			char tn[48];

			tnum_strn(tn, sizeof(tn), reg->var_off);
			verbose(env, "invalid variable-offset%s stack R%d var_off=%s off=%d "
				"size=%d\n", what, regno, tn, off, access_size);
		}
		return -EACCES;
	}
	return 0;
}

/* Write size bytes at fp+off (fixed offset) from value_regno, or an immediate when < 0. */
int check_stack_write(struct nb_verifier_env *env, struct nb_func_state *state, int off,
		      int size, int value_regno, const struct bpf_insn *insn)
{
	struct nb_reg_state *reg = value_regno >= 0 ? &cur_regs(env)[value_regno] : NULL;
	struct nb_reg_state fake;
	struct nb_stack_slot *slot;
	int err, first = byte_of(off);
	u8 type;

	err = grow_stack_state(state, -off);
	if (err)
		return err;
	update_stack_depth(env, state, off);
	slot = slot_of(state, off);
	/* A whole slot written: whatever it held is dead before this insn. */
	if (size == NB_REG_SIZE)
		nb_mark_stack_write(env, state->frameno, 1ull << spi_of(off));

	if (reg && is_spillable_pointer(reg)) {
		if (size != NB_REG_SIZE) {
			verbose(env, "invalid size of register spill\n");
			return -EACCES;
		}
		if (state != cur_func(env) && reg->type == PTR_TO_STACK) {
			verbose(env, "cannot spill pointers to stack into stack frame of the "
				"caller\n");
			return -EINVAL;
		}
	}
	bool is_st = insn && insn_class(insn) == BPF_ST;

	/* An immediate written at the slot's start is spilled as a known scalar. */
	if (!reg && is_st && first == 0) {
		mark_reg_known(&fake, (u64)(s64)insn->imm);
		reg = &fake;
	}
	/*
	 * As the kernel's save_register_state: a pointer written whole, or a scalar written at
	 * the slot's start (narrow too: the low bytes of the value), keeps its state, zero
	 * included, so that an imprecise spilled zero matches other spilled scalars when states
	 * are compared. Scalars written elsewhere in the slot are plain bytes: zero bytes
	 * (STACK_ZERO) for a zero, else STACK_MISC.
	 */
	if (reg && (is_spillable_pointer(reg) || first == 0)) {
		slot->spilled_ptr = *reg;
		if (size < NB_REG_SIZE)
			coerce_reg_to_size(&slot->spilled_ptr, size);
		for (int i = 0; i < NB_REG_SIZE; i++) {
			if (i >= first && i < first + size)
				slot->slot_type[i] = STACK_SPILL;
			else if (slot->slot_type[i] == STACK_SPILL)
				slot->slot_type[i] = STACK_MISC;
		}
		slot->spill_off = first;
		/* A spill: precision backtracking follows the value through the slot. */
		return push_jmp_history(env, env->cur,
					insn_stack_access_flags(state->frameno, spi_of(off)), 0);
	}
	scrub_if_overlap(slot, first, size);
	/* Known zero bytes: a zero register or BPF_ST of 0; other writes (atomics) are misc. */
	type = (reg ? register_is_null(reg) : is_st && insn->imm == 0) ? STACK_ZERO : STACK_MISC;
	/* Zero bytes are compared as such: the register's zero must not be matched loosely. */
	if (reg && type == STACK_ZERO && value_regno >= 0) {
		err = mark_chain_precision(env, value_regno);
		if (err)
			return err;
	}
	for (int i = first; i < first + size; i++)
		slot->slot_type[i] = type;
	return 0;
}

/* Write through a stack pointer with a variable offset: every byte it may hit is clobbered. */
static int check_stack_write_var_off(struct nb_verifier_env *env, struct nb_func_state *state,
				     int ptr_regno, int off, int size, int value_regno)
{
	const struct nb_reg_state *ptr = &cur_regs(env)[ptr_regno];
	const struct nb_reg_state *val = value_regno >= 0 ? &cur_regs(env)[value_regno] : NULL;
	int min_off = ptr->smin_value + off, max_off = ptr->smax_value + off + size;
	bool writing_zero = val && register_is_null(val);
	int err;

	if (val && is_spillable_pointer(val)) {
		verbose(env, "spilled ptr in range of var-offset stack write; insn needs "
			"a constant offset\n");
		return -EINVAL;
	}
	err = grow_stack_state(state, -min_off);
	if (err)
		return err;
	update_stack_depth(env, state, min_off);
	/* Zero bytes may stay zero: the register's zero must not be matched loosely. */
	if (writing_zero) {
		err = mark_chain_precision(env, value_regno);
		if (err)
			return err;
	}
	for (int i = min_off; i < max_off; i++) {
		struct nb_stack_slot *slot = slot_of(state, i);
		u8 *stype = &slot->slot_type[byte_of(i)];

		scrub_if_overlap(slot, byte_of(i), 1);
		/* A byte that may stay unwritten is not initialised by this write. */
		if (*stype == STACK_INVALID)
			continue;
		if (!(writing_zero && *stype == STACK_ZERO))
			*stype = STACK_MISC;
	}
	return 0;
}

int check_stack_write_any(struct nb_verifier_env *env, int ptr_regno, int off, int size,
			  int value_regno, const struct bpf_insn *insn);
int check_stack_write_any(struct nb_verifier_env *env, int ptr_regno, int off, int size,
			  int value_regno, const struct bpf_insn *insn)
{
	const struct nb_reg_state *ptr = &cur_regs(env)[ptr_regno];
	struct nb_func_state *state = func_of_reg(env, ptr);

	if (tnum_is_const(ptr->var_off))
		return check_stack_write(env, state, off + (int)ptr->var_off.value, size,
					 value_regno, insn);
	return check_stack_write_var_off(env, state, ptr_regno, off, size, value_regno);
}

/* Every byte of [min_off, max_off) initialised; *all_zero tells whether all are known zero. */
static int check_bytes_initialised(struct nb_verifier_env *env, struct nb_func_state *state,
				   int min_off, int max_off, int regno, bool indirect,
				   bool *all_zero)
{
	*all_zero = true;
	for (int i = min_off; i < max_off; i++) {
		u8 t = STACK_INVALID;

		if ((u32)-i <= state->allocated_stack)
			t = slot_of(state, i)->slot_type[byte_of(i)];
		if (t == STACK_INVALID && env->allow_uninit_stack)
			t = STACK_MISC;
		if (t == STACK_INVALID) {
			if (indirect)
				verbose(env, "invalid indirect read from stack R%d off %d+%d "
					"size %d\n", regno, min_off, i - min_off,
					max_off - min_off);
			else
				verbose(env, "invalid read from stack off %d+%d size %d\n",
					min_off, i - min_off, max_off - min_off);
			return -EACCES;
		}
		if (t != STACK_ZERO)
			*all_zero = false;
	}
	return 0;
}

int check_stack_read(struct nb_verifier_env *env, struct nb_func_state *state,
		     const struct nb_reg_state *ptr, int ptr_regno, int off, int size,
		     int dst_regno)
{
	struct nb_reg_state *dst = dst_regno >= 0 ? &cur_regs(env)[dst_regno] : NULL;
	struct nb_reg_state result;
	bool all_zero;
	int err;

	if (!tnum_is_const(ptr->var_off)) {
		int min_off = ptr->smin_value + off, max_off = ptr->smax_value + off + size;

		err = check_bytes_initialised(env, state, min_off, max_off, ptr_regno, false,
					      &all_zero);
		err = err ?: mark_stack_read_range(env, state, min_off, max_off);
		if (err)
			return err;
		update_stack_depth(env, state, min_off);
		if (!dst)
			return 0;
		if (all_zero) {
			mark_reg_known_zero(dst);
		} else {
			mark_reg_unknown(dst);
			coerce_reg_to_size(dst, size);
		}
		return 0;
	}
	off += (int)ptr->var_off.value;
	update_stack_depth(env, state, off);
	err = mark_stack_read_range(env, state, off, off + size);
	if (err)
		return err;
	if ((u32)-off <= state->allocated_stack) {
		struct nb_stack_slot *slot = slot_of(state, off);
		int first = byte_of(off), spill_size = 0, so = slot->spill_off;

		while (so + spill_size < NB_REG_SIZE &&
		       slot->slot_type[so + spill_size] == STACK_SPILL)
			spill_size++;
		if (spill_size) {
			const struct nb_reg_state *sr = &slot->spilled_ptr;

			if (sr->type != SCALAR_VALUE && (size != NB_REG_SIZE || first != 0)) {
				verbose(env, "invalid size of register fill\n");
				return -EACCES;
			}
			/* The spill's low bytes: the value, cut to size by check_mem_access. */
			if (first == so && size <= spill_size) {
				if (dst) {
					*dst = *sr;
					if (size < NB_REG_SIZE)
						dst->id = 0;
				}
				/* A fill: precision backtracking follows the value to its spill. */
				return push_jmp_history(env, env->cur,
							insn_stack_access_flags(state->frameno,
										spi_of(off)), 0);
			}
			/* Any bytes of a spilled zero are zero. */
			if (sr->type == SCALAR_VALUE && tnum_equals_const(sr->var_off, 0) &&
			    first >= so && first + size <= so + spill_size) {
				if (dst)
					mark_reg_known_zero(dst);
				return push_jmp_history(env, env->cur,
							insn_stack_access_flags(state->frameno,
										spi_of(off)), 0);
			}
		}
	}
	err = check_bytes_initialised(env, state, off, off + size, ptr_regno, false, &all_zero);
	if (err)
		return err;
	if (!dst)
		return 0;
	if (all_zero) {
		mark_reg_known_zero(&result);
	} else {
		mark_reg_unknown(&result);
		coerce_reg_to_size(&result, size);
	}
	*dst = result;
	return 0;
}

/*
 * Stack memory handed to a helper (the twin of check_stack_range_initialized): within bounds,
 * and either initialised (the helper reads it) or, for a fixed offset, written by the helper.
 */
int check_stack_range(struct nb_verifier_env *env, int regno, int off, int access_size,
		      bool zero_size_allowed, bool uninit_write)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	struct nb_func_state *state = func_of_reg(env, reg);
	int min_off, max_off, err;
	bool all_zero;

	if (access_size == 0 && zero_size_allowed)
		return 0;
	off += reg->off;
	err = check_stack_access_within_bounds(env, regno, off, access_size, NB_READ,
					       uninit_write ? " write to" : " read from");
	if (err)
		return err;
	if (tnum_is_const(reg->var_off)) {
		min_off = max_off = (int)reg->var_off.value + off;
	} else {
		min_off = reg->smin_value + off;
		max_off = reg->smax_value + off;
		uninit_write = false;	/* unknown bounds: only initialised memory */
	}
	max_off += access_size;
	update_stack_depth(env, state, min_off);
	if (uninit_write) {
		err = grow_stack_state(state, -min_off);
		if (err)
			return err;
		for (int i = min_off; i < max_off; i++) {
			struct nb_stack_slot *slot = slot_of(state, i);

			scrub_if_overlap(slot, byte_of(i), 1);
			slot->slot_type[byte_of(i)] = STACK_MISC;
		}
		return 0;
	}
	err = check_bytes_initialised(env, state, min_off, max_off, regno, true, &all_zero);
	return err ?: mark_stack_read_range(env, state, min_off, max_off);
}
