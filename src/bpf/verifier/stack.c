// SPDX-License-Identifier: GPL-2.0
/*
 * The stack: 512 bytes per frame, tracked per byte (invalid, misc, zero, part of a spilled
 * register) with the full state of each spilled register, so that a pointer spilled and filled
 * keeps its type and a scalar keeps its bounds and its links. The rules are the kernel's
 * (check_stack_write_fixed_off, check_stack_read_fixed_off and their variable-offset twins):
 *
 *   - a register is spilled whole at the start of a slot (an 8-byte aligned offset): pointers
 *     8 bytes wide only, scalars of any width, which keep the full register and share its id
 *     when the value fits the width written;
 *   - any other write makes its bytes misc (zero when the value is known zero) and turns a
 *     spill in the slot into misc bytes;
 *   - a fill at the start of a spill no wider than it gets the spilled register (narrowed
 *     later); any other read gets an unknown scalar, or zero when every byte read is zero.
 *
 * Accesses are aligned to their size (as the kernel requires for the stack), so a fixed-offset
 * access stays inside one slot. Slot bytes are kept lowest address first: slot_type[0] is the
 * byte at the slot's start.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/verifier/verifier.h"

static u32 round_up8(u32 v)
{
	return (v + NB_REG_SIZE - 1) / NB_REG_SIZE * NB_REG_SIZE;
}

int grow_stack_state(struct nb_func_state *state, u32 size)
{
	u32 old = state->allocated_stack / NB_REG_SIZE, n = round_up8(size) / NB_REG_SIZE;
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

/* Precision backtracking follows a value through the slot it was spilled to or filled from. */
static int push_stack_access(struct nb_verifier_env *env, const struct nb_func_state *state,
			     int off)
{
	return push_jmp_history(env, env->cur, insn_stack_access_flags(state->frameno,
								       spi_of(off)), 0);
}

/* Index of the byte at fp+off inside its slot; 0 is the slot's lowest address. */
static int byte_of(int off)
{
	int spi = (-off - 1) / NB_REG_SIZE;

	return off + (spi + 1) * NB_REG_SIZE;
}

/* Bytes of the spill at the slot's start. */
static int spill_size(const struct nb_stack_slot *slot)
{
	int n = 0;

	while (n < NB_REG_SIZE && slot->slot_type[n] == STACK_SPILL)
		n++;
	return n;
}

/* A byte of a spilled register the write destroys: only initialised data is left. */
static void scrub_spilled_byte(u8 *stype)
{
	if (*stype != STACK_INVALID)
		*stype = STACK_MISC;
}

static void scrub_spilled_slot(struct nb_stack_slot *slot)
{
	for (int i = 0; i < NB_REG_SIZE; i++)
		scrub_spilled_byte(&slot->slot_type[i]);
}

static bool is_spillable_pointer(const struct nb_reg_state *reg)
{
	return reg->type != SCALAR_VALUE && reg->type != NOT_INIT;
}

/* Bits a value needs: a spill narrower than that cannot stay linked with the register. */
static int reg_width(const struct nb_reg_state *reg)
{
	return reg->umax_value ? 64 - __builtin_clzll(reg->umax_value) : 0;
}

int check_stack_access_within_bounds(struct nb_verifier_env *env, int regno, int off,
				     int access_size, enum nb_access_type type)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	const char *what = type == NB_READ ? " read from" : " write to";
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
	/* No access at or above fp: the stack needed is -min_off bytes. */
	if (min_off < -NB_STACK_SIZE || min_off > -1 || max_off > 0 || access_size < 0) {
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
	update_stack_depth(env, func_of_reg(env, reg), min_off);
	return grow_stack_state(func_of_reg(env, reg), -min_off);
}

/*
 * The register spilled into the slot's first size bytes: the rest of the slot keeps zero and
 * never-written bytes, anything else there is misc now.
 */
static void save_register_state(struct nb_stack_slot *slot, const struct nb_reg_state *reg,
				int size)
{
	slot->spilled_ptr = *reg;
	for (int i = 0; i < NB_REG_SIZE; i++) {
		if (i < size)
			slot->slot_type[i] = STACK_SPILL;
		else if (slot->slot_type[i] != STACK_ZERO && slot->slot_type[i] != STACK_INVALID)
			slot->slot_type[i] = STACK_MISC;
	}
}

/* Write size bytes at fp+off (fixed offset) from value_regno, or from the insn when < 0. */
static int check_stack_write_fixed_off(struct nb_verifier_env *env, struct nb_func_state *state,
				       int off, int size, int value_regno,
				       const struct bpf_insn *insn)
{
	struct nb_reg_state *reg = value_regno >= 0 ? &cur_regs(env)[value_regno] : NULL;
	bool is_st = insn && insn_class(insn) == BPF_ST;
	bool aligned = !(off % NB_REG_SIZE);
	struct nb_stack_slot *slot = slot_of(state, off);
	int first = byte_of(off), err;
	u8 type;

	/* A dynptr there ends (one that holds a reference cannot). */
	err = destroy_if_dynptr_stack_slot(env, state, spi_of(off));
	if (err)
		return err;
	/* A whole slot written: whatever it held is dead before this insn. */
	if (size == NB_REG_SIZE)
		nb_mark_stack_write(env, state->frameno, 1ull << spi_of(off));
	if (reg && aligned && reg->type == SCALAR_VALUE) {
		/* A scalar spill: linked with the register when the width written holds it. */
		bool fits = reg_width(reg) <= size * 8;

		if (fits)
			assign_scalar_id_before_mov(env, reg);
		save_register_state(slot, reg, size);
		if (!fits) {
			slot->spilled_ptr.id = 0;
			slot->spilled_ptr.off = 0;
		}
		return push_stack_access(env, state, off);
	}
	if (!reg && aligned && is_st) {
		struct nb_reg_state imm;

		mark_reg_known(&imm, (u64)(s64)insn->imm);
		save_register_state(slot, &imm, size);
		return push_stack_access(env, state, off);
	}
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
		save_register_state(slot, reg, size);
		return push_stack_access(env, state, off);
	}
	/* Plain data: a spill in the slot is destroyed, its bytes only initialised now. */
	if (slot_has_spill(slot))
		scrub_spilled_slot(slot);
	mark_reg_not_init(&slot->spilled_ptr);
	/* Known zero bytes: a zero register or BPF_ST of 0; other writes (atomics) are misc. */
	type = (reg ? register_is_null(reg) : is_st && insn->imm == 0) ? STACK_ZERO : STACK_MISC;
	/* Zero bytes are compared as such: the register's zero must not be matched loosely. */
	if (type == STACK_ZERO && value_regno >= 0) {
		err = mark_chain_precision(env, value_regno);
		if (err)
			return err;
	}
	for (int i = first; i < first + size; i++)
		slot->slot_type[i] = type;
	return 0;
}

/*
 * Whether never-written stack may be used where a loader without CAP_PERFMON could not: asked
 * only where the answer decides, so that env->uninit_stack_used says the walk depended on it.
 */
static bool uninit_stack_ok(struct nb_verifier_env *env)
{
	if (env->allow_uninit_stack)
		env->uninit_stack_used = true;
	return env->allow_uninit_stack;
}

/*
 * Write through a stack pointer with a variable offset: every byte it may hit becomes misc
 * (zero stays zero, and a spilled zero stays, when zero is written); a spill hit loses its
 * register. Never-written bytes that may stay unwritten count as written for a privileged
 * loader; any other loader may not write over them, as later reads could see them unwritten.
 */
static int check_stack_write_var_off(struct nb_verifier_env *env, struct nb_func_state *state,
				     int ptr_regno, int off, int size, int value_regno,
				     const struct bpf_insn *insn)
{
	const struct nb_reg_state *ptr = &cur_regs(env)[ptr_regno];
	const struct nb_reg_state *val = value_regno >= 0 ? &cur_regs(env)[value_regno] : NULL;
	int min_off = ptr->smin_value + off, max_off = ptr->smax_value + off + size;
	bool writing_zero = val ? register_is_null(val)
				: insn && insn_class(insn) == BPF_ST && insn->imm == 0;
	bool zero_used = false;

	for (int i = min_off; i < max_off; i++) {
		struct nb_stack_slot *slot = slot_of(state, i);
		u8 *stype = &slot->slot_type[byte_of(i)];
		int err = destroy_if_dynptr_stack_slot(env, state, spi_of(i));

		if (err)
			return err;
		if (*stype == STACK_INVALID && !uninit_stack_ok(env)) {
			verbose(env, "uninit stack in range of var-offset write prohibited for "
				"!root; insn %d, off: %d\n", env->insn_idx, i);
			return -EINVAL;
		}
		if (writing_zero && *stype == STACK_SPILL &&
		    slot->spilled_ptr.type == SCALAR_VALUE &&
		    tnum_equals_const(slot->spilled_ptr.var_off, 0)) {
			zero_used = true;
			continue;
		}
		mark_reg_not_init(&slot->spilled_ptr);
		if (writing_zero && *stype == STACK_ZERO) {
			zero_used = true;
			continue;
		}
		*stype = STACK_MISC;
	}
	/* Zero bytes stayed zero: the register's zero must not be matched loosely. */
	if (zero_used && value_regno >= 0)
		return mark_chain_precision(env, value_regno);
	return 0;
}

int check_stack_write(struct nb_verifier_env *env, int ptr_regno, int off, int size,
		      int value_regno, const struct bpf_insn *insn)
{
	const struct nb_reg_state *ptr = &cur_regs(env)[ptr_regno];
	struct nb_func_state *state = func_of_reg(env, ptr);

	if (tnum_is_const(ptr->var_off))
		return check_stack_write_fixed_off(env, state, off + (int)ptr->var_off.value, size,
						   value_regno, insn);
	return check_stack_write_var_off(env, state, ptr_regno, off, size, value_regno, insn);
}

/* The register read from [min_off, max_off) of non-spilled bytes: zero if all are zero. */
static void mark_reg_stack_read(struct nb_func_state *state, int min_off, int max_off,
				struct nb_reg_state *dst)
{
	for (int i = min_off; i < max_off; i++) {
		if (slot_of(state, i)->slot_type[byte_of(i)] != STACK_ZERO) {
			mark_reg_unknown(dst);
			return;
		}
	}
	mark_reg_known_zero(dst);
}

static int invalid_read(struct nb_verifier_env *env, int off, int i, int size)
{
	verbose(env, "invalid read from stack off %d+%d size %d\n", off, i, size);
	return -EACCES;
}

static int check_stack_read_fixed_off(struct nb_verifier_env *env, struct nb_func_state *state,
				      int off, int size, int dst_regno)
{
	struct nb_reg_state *dst = dst_regno >= 0 ? &cur_regs(env)[dst_regno] : NULL;
	struct nb_stack_slot *slot = slot_of(state, off);
	const struct nb_reg_state *reg = &slot->spilled_ptr;
	int first = byte_of(off), n = spill_size(slot), err;

	err = mark_stack_read_range(env, state, off, off + size);
	if (err)
		return err;
	if (slot_has_spill(slot)) {
		int spill_cnt = 0, zero_cnt = 0;

		if (size == NB_REG_SIZE && n == NB_REG_SIZE) {
			if (dst)
				*dst = *reg;
			return push_stack_access(env, state, off);
		}
		if (reg->type != SCALAR_VALUE) {
			verbose(env, "invalid size of register fill\n");
			return -EACCES;
		}
		if (!dst)
			return 0;
		/* The low bytes of the spilled value, narrowed by the load later. */
		if (size <= n && first == 0) {
			*dst = *reg;
			if (reg_width(reg) > size * 8) {
				dst->id = 0;
				dst->off = 0;
			}
			return push_stack_access(env, state, off);
		}
		for (int i = first; i < first + size; i++) {
			switch (slot->slot_type[i]) {
			case STACK_SPILL:
				spill_cnt++;
				break;
			case STACK_ZERO:
				zero_cnt++;
				break;
			case STACK_MISC:
				break;
			default:
				if (!uninit_stack_ok(env))
					return invalid_read(env, off, i - first, size);
				break;
			}
		}
		if (spill_cnt == size && tnum_equals_const(reg->var_off, 0)) {
			/* Bytes of a spilled zero: a fill of that zero. */
			mark_reg_known_zero(dst);
			return push_stack_access(env, state, off);
		}
		if (zero_cnt == size)
			mark_reg_known_zero(dst);
		else
			mark_reg_unknown(dst);
		return 0;
	}
	for (int i = first; i < first + size; i++) {
		u8 t = slot->slot_type[i];

		/* A dynptr's bytes are its helpers' only. */
		if ((t == STACK_INVALID && !uninit_stack_ok(env)) || t == STACK_DYNPTR)
			return invalid_read(env, off, i - first, size);
	}
	if (dst)
		mark_reg_stack_read(state, off, off + size, dst);
	return 0;
}

/*
 * Stack bytes a helper reads or writes, or a variable-offset load reads (the twin of
 * check_stack_range_initialized): within bounds and initialised (for a privileged loader,
 * never-written bytes count as initialised). A helper that writes (clobber) leaves misc
 * bytes, and a spill it hits loses its register. Never-written bytes a helper writes at a
 * constant offset need no initialisation for any loader (raw mode); at a variable offset
 * the kernel cannot tell which bytes the helper wrote, so they must have been written before.
 */
static int check_stack_bytes(struct nb_verifier_env *env, int regno, int min_off, int max_off,
			     bool clobber)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	struct nb_func_state *state = func_of_reg(env, reg);
	bool raw = clobber && tnum_is_const(reg->var_off);

	for (int i = min_off; i < max_off; i++) {
		struct nb_stack_slot *slot = slot_of(state, i);
		u8 *stype = &slot->slot_type[byte_of(i)];

		if (*stype == STACK_DYNPTR && clobber) {
			verbose(env, "potential write to dynptr at off=%d disallowed\n", i);
			return -EACCES;
		}
		if (*stype == STACK_MISC)
			continue;
		if (*stype == STACK_ZERO ||
		    (*stype == STACK_INVALID && (raw || uninit_stack_ok(env)))) {
			if (clobber)
				*stype = STACK_MISC;
			continue;
		}
		if (slot_has_spill(slot)) {
			if (clobber) {
				mark_reg_unknown(&slot->spilled_ptr);
				scrub_spilled_slot(slot);
			}
			continue;
		}
		if (tnum_is_const(reg->var_off)) {
			verbose(env, "invalid read from stack R%d off %d+%d size %d\n", regno,
				min_off, i - min_off, max_off - min_off);
		} else {
			char tn[48];

			tnum_strn(tn, sizeof(tn), reg->var_off);
			verbose(env, "invalid read from stack R%d var_off %s+%d size %d\n", regno,
				tn, i - min_off, max_off - min_off);
		}
		return -EACCES;
	}
	return 0;
}

int check_stack_read(struct nb_verifier_env *env, int ptr_regno, int off, int size,
		     int dst_regno)
{
	const struct nb_reg_state *ptr = &cur_regs(env)[ptr_regno];
	struct nb_func_state *state = func_of_reg(env, ptr);
	int min_off, max_off, err;

	if (tnum_is_const(ptr->var_off))
		return check_stack_read_fixed_off(env, state, off + (int)ptr->var_off.value, size,
						  dst_regno);
	/* The value of a variable-offset read must land in a register. */
	if (dst_regno < 0) {
		char tn[48];

		tnum_strn(tn, sizeof(tn), ptr->var_off);
		verbose(env, "variable offset stack pointer cannot be passed into helper "
			"function; var_off=%s off=%d size=%d\n", tn, off, size);
		return -EACCES;
	}
	min_off = ptr->smin_value + off;
	max_off = ptr->smax_value + off + size;
	err = check_stack_bytes(env, ptr_regno, min_off, max_off, false);
	if (!err)
		err = mark_stack_read_range(env, state, min_off, max_off);
	if (err)
		return err;
	mark_reg_stack_read(state, min_off, max_off, &cur_regs(env)[dst_regno]);
	return 0;
}

/*
 * Stack memory handed to a helper: within bounds, and either initialised (the helper reads it)
 * or written by the helper (write). Memory the helper may leave unwritten (raw_mode: the
 * argument's memory is uninitialised on entry) needs no initialisation at a fixed offset; the
 * helper's writes make it misc.
 */
int check_stack_range(struct nb_verifier_env *env, int regno, int off, int access_size,
		      bool zero_size_allowed, bool write)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	int min_off, max_off, err;

	if (access_size == 0 && !zero_size_allowed) {
		verbose(env, "invalid zero-sized read\n");
		return -EACCES;
	}
	off += reg->off;
	err = check_stack_access_within_bounds(env, regno, off, access_size,
					       write ? NB_WRITE : NB_READ);
	if (err)
		return err;
	if (tnum_is_const(reg->var_off)) {
		min_off = max_off = (int)reg->var_off.value + off;
	} else {
		min_off = reg->smin_value + off;
		max_off = reg->smax_value + off;
	}
	err = check_stack_bytes(env, regno, min_off, max_off + access_size, write);
	if (!err && !write)
		err = mark_stack_read_range(env, func_of_reg(env, reg), min_off,
					    max_off + access_size);
	return err;
}
