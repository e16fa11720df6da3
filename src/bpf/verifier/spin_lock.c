// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_spin_lock in the verifier, as the kernel's process_spin_lock and its callers: the lock is
 * the struct bpf_spin_lock of a map value, found in the map's BTF (map_fields.c), reached only
 * through bpf_spin_lock/bpf_spin_unlock at its constant offset. A path holds at most one lock,
 * named by the value pointer's id and its map (a global variable's has id 0, a looked-up
 * value keeps its lookup's id); it calls nothing but static functions and the unlock while
 * holding it, and unlocks the same value before the program's exit, a global function's exit,
 * or an LD_ABS that may leave. Loads and stores that touch the lock (or a bpf_timer) are
 * refused: only the helpers own those bytes.
 */
#include "bpf/verifier/verifier.h"

int check_map_field_access(struct nb_verifier_env *env, const struct nb_reg_state *reg,
			   int off, int size)
{
	const char *name;
	s64 first = reg->smin_value + off, last = (s64)reg->umax_value + off + size - 1;

	if (!nb_map_has_fields(reg->map_ptr))
		return 0;
	if (size <= 0)
		return 0;
	if (nb_map_overlaps_field(reg->map_ptr, first, last, &name)) {
		verbose(env, "%s cannot be accessed directly by load/store\n", name);
		return -EACCES;
	}
	return 0;
}

/*
 * A helper's argument that must point at a special field of a map value (the kernel's
 * check_map_field_pointer): a map value pointer at the constant offset where the map's BTF put
 * the field, named in the kernel's messages as its struct is.
 */
int check_map_field_pointer(struct nb_verifier_env *env, int regno, enum nb_map_field field)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	const char *name = field == NB_MAP_FIELD_TIMER ? "bpf_timer" : "bpf_spin_lock";
	s32 field_off;
	s64 off;

	if (reg->type != PTR_TO_MAP_VALUE) {
		verbose(env, "R%d type=%s expected=map_value\n", regno, reg_type_str(reg->type));
		return -EACCES;
	}
	if (!tnum_is_const(reg->var_off)) {
		verbose(env, "R%d doesn't have constant offset. %s has to be at the constant "
			"offset\n", regno, name);
		return -EINVAL;
	}
	field_off = field == NB_MAP_FIELD_TIMER ? reg->map_ptr->timer_off :
						  reg->map_ptr->spin_lock_off;
	if (field_off < 0) {
		verbose(env, "map '%s' has no valid %s\n", reg->map_ptr->name, name);
		return -EINVAL;
	}
	off = (s64)reg->var_off.value + reg->off;
	if (off != field_off) {
		verbose(env, "off %lld doesn't point to 'struct %s' that is at %d\n",
			(long long)off, name, field_off);
		return -EINVAL;
	}
	return 0;
}

int process_spin_lock(struct nb_verifier_env *env, int regno, bool is_lock)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	struct nb_verifier_state *st = env->cur;
	const struct nb_map *map = reg->map_ptr;
	int err;

	err = check_map_field_pointer(env, regno, NB_MAP_FIELD_SPIN_LOCK);
	if (err)
		return err;
	if (is_lock) {
		if (st->active_lock) {
			verbose(env, "Locking two bpf_spin_locks are not allowed\n");
			return -EINVAL;
		}
		st->active_lock = true;
		st->active_lock_id = reg->id;
		st->active_lock_map = map;
		st->active_lock_insn = env->insn_idx;
		return 0;
	}
	if (!st->active_lock) {
		verbose(env, "bpf_spin_unlock without taking a lock\n");
		return -EINVAL;
	}
	if (st->active_lock_id != reg->id || st->active_lock_map != map) {
		verbose(env, "bpf_spin_unlock of different lock\n");
		return -EINVAL;
	}
	st->active_lock = false;
	st->active_lock_id = 0;
	st->active_lock_map = NULL;
	return 0;
}

int check_call_while_locked(struct nb_verifier_env *env, const struct bpf_insn *insn)
{
	if (!env->cur->active_lock)
		return 0;
	/* Static functions run under the lock; global ones are refused at the call. */
	if (insn->src_reg == BPF_PSEUDO_CALL)
		return 0;
	if (insn->src_reg == 0 && insn->imm == BPF_FUNC_spin_unlock)
		return 0;
	verbose(env, "function calls are not allowed while holding a lock\n");
	return -EINVAL;
}

int check_lock_released(struct nb_verifier_env *env, const char *what)
{
	if (!env->cur->active_lock)
		return 0;
	verbose(env, "%s cannot be used inside bpf_spin_lock-ed region\n", what);
	return -EINVAL;
}
