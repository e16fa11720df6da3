// SPDX-License-Identifier: GPL-2.0
/*
 * Calls: helper calls checked argument by argument against the helper's prototype, with their
 * return value, clobbered registers, released references and invalidated packet pointers
 * (check_helper_call); bpf-to-bpf calls as new frames (check_func_call, prepare_func_exit);
 * callbacks of bpf_loop and bpf_for_each_map_elem, verified as a subprogram that the helper may
 * call any number of times.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/helpers.h"
#include "bpf/verifier/verifier.h"

struct call_meta {
	struct nb_map *map_ptr;
	u32 map_uid;		/* which inner map map_ptr (a template) stands for */
	s64 const_map_key;	/* the key when known (an array's index), else -1 */
	int func_id;
	u32 mem_size;		/* NB_ARG_CONST_ALLOC_SIZE_OR_ZERO */
	u32 release_ref;	/* NB_ARG_PTR_TO_ALLOC_MEM */
	/* The reference an argument holds: released, or passed on by a pointer cast. */
	u32 ref_obj_id;
	int release_regno;	/* NB_ARG_PTR_TO_SOCK_COMMON_RELEASE */
	int subprogno;		/* NB_ARG_PTR_TO_FUNC */
	int callback_ctx_regno;
	/* NB_ARG_PTR_TO_DYNPTR*: the dynptr's reference; the one a release ends. */
	u32 dynptr_ref_obj_id;
	int release_dynptr_regno;
	bool raw_mode;		/* the memory argument is written by the helper */
	bool mem_or_null;
};

int find_subprog(struct nb_verifier_env *env, u32 off)
{
	for (u32 i = 0; i < env->subprog_cnt; i++)
		if (env->subprog[i].start == off)
			return i;
	return -1;
}

int acquire_reference(struct nb_verifier_env *env, u32 insn_idx)
{
	struct nb_verifier_state *st = env->cur;

	if (st->acquired_refs >= NB_MAX_REFS) {
		verbose(env, "too many acquired references\n");
		return -EINVAL;
	}
	st->refs[st->acquired_refs].id = ++env->id_gen;
	st->refs[st->acquired_refs].insn_idx = insn_idx;
	st->acquired_refs++;
	return env->id_gen;
}

int release_reference(struct nb_verifier_env *env, u32 ref_obj_id)
{
	struct nb_verifier_state *st = env->cur;
	struct nb_reg_state *reg;
	u32 i;

	for (i = 0; i < st->acquired_refs; i++)
		if (st->refs[i].id == ref_obj_id)
			break;
	if (i == st->acquired_refs) {
		verbose(env, "reference has not been acquired before\n");
		return -EINVAL;
	}
	st->refs[i] = st->refs[--st->acquired_refs];
	/* Every copy of the released pointer is dead. */
	for_each_reg_in_state(st, reg, {
		if (reg->ref_obj_id == ref_obj_id)
			mark_reg_unknown(reg);
	});
	return 0;
}

void clear_all_pkt_pointers(struct nb_verifier_env *env)
{
	struct nb_reg_state *reg;

	for_each_reg_in_state(env->cur, reg, {
		if (reg_is_pkt_pointer_any(reg))
			mark_reg_unknown(reg);
	});
}

static const char *func_name(int id)
{
	return nb_helper_name(id) ?: "unknown";
}

static bool is_mem_ptr_type(u32 type)
{
	switch (base_type(type)) {
	case PTR_TO_STACK:
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_MAP_KEY:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MEM:
		return !(type & PTR_MAYBE_NULL);
	default:
		return false;
	}
}

static int check_pkt_arg(struct nb_verifier_env *env, const struct nb_func_proto *fn,
			 const struct nb_reg_state *reg, bool write)
{
	if (!reg_is_pkt_pointer(reg))
		return 0;
	if (!fn->pkt_access || (write && !may_access_direct_pkt_data(env, NB_WRITE))) {
		verbose(env, "helper access to the packet is not allowed\n");
		return -EACCES;
	}
	return 0;
}

/* Size argument of the previous memory argument: the access is checked up to its maximum. */
static int check_mem_size_reg(struct nb_verifier_env *env, int regno, bool zero_size_allowed,
			      struct call_meta *meta)
{
	struct nb_reg_state *reg = &cur_regs(env)[regno];

	if (reg->type != SCALAR_VALUE) {
		verbose(env, "R%d type=%s expected=scalar\n", regno, reg_type_str(reg->type));
		return -EACCES;
	}
	if (reg->smin_value < 0) {
		verbose(env, "R%d min value is negative, either use unsigned or 'var &= const'\n",
			regno);
		return -EACCES;
	}
	if (reg->umin_value == 0 && !zero_size_allowed) {
		verbose(env, "R%d invalid zero-sized read: u64=[%llu,%llu]\n", regno,
			(unsigned long long)reg->umin_value, (unsigned long long)reg->umax_value);
		return -EACCES;
	}
	if (reg->umax_value >= NB_MAX_VAR_SIZ) {
		verbose(env, "R%d unbounded memory access, use 'var &= const' or 'if (var < "
			"const)'\n", regno);
		return -EACCES;
	}
	return check_helper_mem_access(env, regno - 1, reg->umax_value, zero_size_allowed,
				       meta->raw_mode) ?: mark_chain_precision(env, regno);
}

static int check_const_str(struct nb_verifier_env *env, int regno)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	const struct nb_map *map = reg->map_ptr;
	u64 addr;
	int off;

	if (reg->type != PTR_TO_MAP_VALUE) {
		verbose(env, "R%d type=%s expected=map_value\n", regno, reg_type_str(reg->type));
		return -EACCES;
	}
	if (!(map->map_flags & BPF_F_RDONLY_PROG) || !map->frozen) {
		verbose(env, "R%d does not point to a readonly map'\n", regno);
		return -EACCES;
	}
	if (!tnum_is_const(reg->var_off)) {
		verbose(env, "R%d is not a constant address'\n", regno);
		return -EACCES;
	}
	off = reg->off + (int)reg->var_off.value;
	if (off < 0 || (u32)off >= map->value_size || nb_map_direct_value_addr(map, 0, &addr)) {
		verbose(env, "R%d is outside of the map value\n", regno);
		return -EACCES;
	}
	if (!memchr((const char *)(uintptr_t)addr + off, 0, map->value_size - off)) {
		verbose(env, "string is not zero-terminated\n");
		return -EINVAL;
	}
	return 0;
}

/*
 * An array looked up with a key known in range cannot miss: bpf_map_lookup_elem returns the
 * value, not maybe-null (the kernel's can_elide_value_nullness). Not for inner arrays made
 * with BPF_F_INNER_MAP, whose sizes may differ from their template's.
 */
static bool can_elide_value_nullness(const struct nb_map *map)
{
	return (map->map_type == BPF_MAP_TYPE_ARRAY ||
		map->map_type == BPF_MAP_TYPE_PERCPU_ARRAY) &&
	       !(map->map_flags & BPF_F_INNER_MAP);
}

/*
 * The key behind the stack pointer key when it is known: bytes written zero, or a scalar
 * spilled whole at the key's start with a known value, which then decides the lookup's
 * verdict and is marked precise. *value stays -1 otherwise.
 */
static int get_constant_map_key(struct nb_verifier_env *env, const struct nb_reg_state *key,
				u32 key_size, s64 *value)
{
	const struct nb_func_state *state = func_of_reg(env, key);
	const struct nb_stack_slot *slot;
	int stack_off, spi, first, zero = 0, spill = 0;

	*value = -1;
	if (key->type != PTR_TO_STACK || !tnum_is_const(key->var_off))
		return 0;
	stack_off = key->off + (int)key->var_off.value;
	if (stack_off >= 0 || (u32)-stack_off > state->allocated_stack)
		return 0;
	spi = (-stack_off - 1) / NB_REG_SIZE;
	first = stack_off + (spi + 1) * NB_REG_SIZE;
	slot = &state->stack[spi];
	while (first + zero < NB_REG_SIZE && slot->slot_type[first + zero] == STACK_ZERO)
		zero++;
	if ((u32)zero >= key_size) {
		*value = 0;
		return 0;
	}
	if (!slot_has_spill(slot) || first != 0 ||
	    slot->spilled_ptr.type != SCALAR_VALUE)
		return 0;
	while (first + spill < NB_REG_SIZE && slot->slot_type[first + spill] == STACK_SPILL)
		spill++;
	if ((u32)spill != key_size || !tnum_is_const(slot->spilled_ptr.var_off))
		return 0;
	*value = slot->spilled_ptr.var_off.value;
	return mark_stack_slot_precision(env, key->frameno, spi);
}

/*
 * bpf_snprintf's format is a constant: the kernel checks it at load time against the number
 * of arguments the call passes (check_bpf_snprintf_call).
 */
static int check_bpf_snprintf_call(struct nb_verifier_env *env)
{
	const struct nb_reg_state *fmt_reg = &cur_regs(env)[BPF_REG_3];
	const struct nb_reg_state *len_reg = &cur_regs(env)[BPF_REG_5];
	u32 num_args = (u32)(len_reg->var_off.value / 8);
	u64 addr;

	if (nb_map_direct_value_addr(fmt_reg->map_ptr, 0, &addr)) {
		verbose(env, "failed to retrieve map value address\n");
		return -EFAULT;
	}
	addr += (u64)(s64)(fmt_reg->off + (s32)fmt_reg->var_off.value);
	if (nb_bprintf_check((const char *)(uintptr_t)addr, num_args)) {
		verbose(env, "Invalid format string\n");
		return -EINVAL;
	}
	return 0;
}

static int check_func_arg(struct nb_verifier_env *env, u32 arg, const struct nb_func_proto *fn,
			  struct call_meta *meta)
{
	enum nb_arg_type type = fn->arg_type[arg];
	int regno = arg + 1, err;
	struct nb_reg_state *reg = &cur_regs(env)[regno];

	if (type == NB_ARG_DONTCARE)
		return 0;
	err = check_reg_arg_read(env, regno);
	if (err)
		return err;
	/* At most one argument holds a reference: the one a release or a cast acts on. */
	if (reg->ref_obj_id) {
		if (meta->ref_obj_id) {
			verbose(env, "verifier internal error: more than one arg with ref_obj_id "
				"R%d %u %u\n", regno, reg->ref_obj_id, meta->ref_obj_id);
			return -EFAULT;
		}
		meta->ref_obj_id = reg->ref_obj_id;
	}
	/* A socket map's values are sockets: updates from a program pass one. */
	if (type == NB_ARG_PTR_TO_MAP_VALUE && meta->map_ptr &&
	    (meta->map_ptr->map_type == BPF_MAP_TYPE_SOCKMAP ||
	     meta->map_ptr->map_type == BPF_MAP_TYPE_SOCKHASH))
		type = NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON;

	switch (type) {
	case NB_ARG_ANYTHING:
		return 0;
	case NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON_OR_NULL:
		if (register_is_null(reg))
			return mark_chain_precision(env, regno);
		type = NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON;
		/* fall through */
	case NB_ARG_PTR_TO_SOCK_COMMON:
	case NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON:
		return check_sock_arg(env, regno, type);
	case NB_ARG_PTR_TO_SOCK_COMMON_RELEASE:
		err = check_sock_arg(env, regno, NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON);
		if (err)
			return err;
		if (base_type(reg->type) == PTR_TO_BTF_ID && reg->off) {
			verbose(env, "R%d must have zero offset when passed to release func or "
				"trusted arg to kfunc\n", regno);
			return -EINVAL;
		}
		/* skb->sk and the other borrowed sockets are not the program's to release. */
		if (!reg->ref_obj_id) {
			verbose(env, "R%d must be referenced when passed to release function\n",
				regno);
			return -EINVAL;
		}
		meta->release_regno = regno;
		return 0;
	case NB_ARG_CONST_MAP_PTR:
		if (reg->type != CONST_PTR_TO_MAP) {
			verbose(env, "R%d type=%s expected=map_ptr\n", regno,
				reg_type_str(reg->type));
			return -EACCES;
		}
		/* bpf_timer_init: the timer's map, the one its value is in (which inner map too). */
		if (meta->map_ptr &&
		    (meta->map_ptr != reg->map_ptr || meta->map_uid != reg->map_uid)) {
			verbose(env, "timer pointer in R1 map_uid=%d doesn't match map pointer in "
				"R2 map_uid=%d\n", meta->map_uid, reg->map_uid);
			return -EINVAL;
		}
		meta->map_ptr = reg->map_ptr;
		meta->map_uid = reg->map_uid;
		return 0;
	case NB_ARG_PTR_TO_MAP_VALUE_OR_NULL:
		if (register_is_null(reg))
			return mark_chain_precision(env, regno);
		type = NB_ARG_PTR_TO_MAP_VALUE;
		/* fall through */
	case NB_ARG_PTR_TO_MAP_KEY:
	case NB_ARG_PTR_TO_MAP_VALUE:
	case NB_ARG_PTR_TO_UNINIT_MAP_VALUE: {
		bool key = type == NB_ARG_PTR_TO_MAP_KEY;
		bool write = type == NB_ARG_PTR_TO_UNINIT_MAP_VALUE;

		if (!meta->map_ptr) {
			verbose(env, "invalid map_ptr to access map->%s\n", key ? "key" : "value");
			return -EACCES;
		}
		if (!is_mem_ptr_type(reg->type) || base_type(reg->type) == PTR_TO_MEM) {
			verbose(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, "
				"map_value\n", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		err = check_pkt_arg(env, fn, reg, write);
		if (err)
			return err;
		err = check_helper_mem_access(env, regno, key ? meta->map_ptr->key_size
							      : meta->map_ptr->value_size,
					      false, write);
		if (err || !key || !can_elide_value_nullness(meta->map_ptr))
			return err;
		return get_constant_map_key(env, reg, meta->map_ptr->key_size,
					    &meta->const_map_key);
	}
	case NB_ARG_PTR_TO_MEM_OR_NULL:
		if (register_is_null(reg)) {
			meta->mem_or_null = true;
			/* NULL here only because the value is zero: it must stay zero. */
			return mark_chain_precision(env, regno);
		}
		/* fall through */
	case NB_ARG_PTR_TO_MEM:
	case NB_ARG_PTR_TO_UNINIT_MEM:
		meta->raw_mode = type == NB_ARG_PTR_TO_UNINIT_MEM;
		if (!is_mem_ptr_type(reg->type)) {
			verbose(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, "
				"mem\n", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		return check_pkt_arg(env, fn, reg, meta->raw_mode);
	case NB_ARG_CONST_SIZE:
	case NB_ARG_CONST_SIZE_OR_ZERO:
		return check_mem_size_reg(env, regno, type == NB_ARG_CONST_SIZE_OR_ZERO, meta);
	case NB_ARG_CONST_ALLOC_SIZE_OR_ZERO:
		if (reg->type != SCALAR_VALUE || !tnum_is_const(reg->var_off)) {
			verbose(env, "R%d is not a known constant'\n", regno);
			return -EACCES;
		}
		meta->mem_size = reg->var_off.value;
		return mark_chain_precision(env, regno);
	case NB_ARG_PTR_TO_CTX_OR_NULL:
		if (register_is_null(reg))
			return mark_chain_precision(env, regno);
		/* fall through */
	case NB_ARG_PTR_TO_CTX:
		if (reg->type != PTR_TO_CTX) {
			verbose(env, "R%d type=%s expected=ctx\n", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		return check_ptr_off_reg(env, reg, regno);
	case NB_ARG_PTR_TO_LONG:
	case NB_ARG_PTR_TO_INT:
		if (!is_mem_ptr_type(reg->type)) {
			verbose(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_value, mem\n",
				regno, reg_type_str(reg->type));
			return -EACCES;
		}
		err = check_pkt_arg(env, fn, reg, true);
		if (err)
			return err;
		return check_helper_mem_access(env, regno, type == NB_ARG_PTR_TO_LONG ? 8 : 4,
					       false, true);
	case NB_ARG_PTR_TO_FUNC:
		if (reg->type != PTR_TO_FUNC) {
			verbose(env, "R%d type=%s expected=func\n", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		meta->subprogno = reg->subprogno;
		return 0;
	case NB_ARG_PTR_TO_STACK_OR_NULL:
		if (!register_is_null(reg) && reg->type != PTR_TO_STACK) {
			verbose(env, "R%d type=%s expected=fp\n", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		meta->callback_ctx_regno = regno;
		return register_is_null(reg) ? mark_chain_precision(env, regno) : 0;
	case NB_ARG_PTR_TO_ALLOC_MEM:
		if (reg->type != (PTR_TO_MEM | MEM_RINGBUF) || !reg->ref_obj_id) {
			verbose(env, "R%d type=%s expected=ringbuf_mem\n", regno,
				reg_type_str(reg->type));
			return -EACCES;
		}
		if (reg->off || !tnum_equals_const(reg->var_off, 0)) {
			verbose(env, "R%d must have zero offset when passed to release func\n",
				regno);
			return -EINVAL;
		}
		meta->release_ref = reg->ref_obj_id;
		return 0;
	case NB_ARG_CONST_STR:
		return check_const_str(env, regno);
	case NB_ARG_PTR_TO_SPIN_LOCK:
		return process_spin_lock(env, regno, meta->func_id == BPF_FUNC_spin_lock);
	case NB_ARG_PTR_TO_TIMER:
		return process_timer_func(env, regno, &meta->map_ptr, &meta->map_uid);
	case NB_ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE:
		meta->release_dynptr_regno = regno;
		/* fall through */
	case NB_ARG_PTR_TO_DYNPTR:
	case NB_ARG_PTR_TO_DYNPTR_RINGBUF_UNINIT:
		return process_dynptr_func(env, regno, type, &meta->dynptr_ref_obj_id);
	default:
		verbose(env, "unsupported arg type %d of func %s#%d\n", type,
			func_name(meta->func_id), meta->func_id);
		return -EFAULT;
	}
}

/*
 * Enter a callback: a new frame whose arguments the helper provides. Exploration of the
 * callback is pushed; when it exits, the walk returns to the helper call, which may call it
 * again, until the states at the call converge.
 */
static int push_callback_call(struct nb_verifier_env *env, u32 insn_idx, struct call_meta *meta)
{
	struct nb_verifier_state *st;
	struct nb_func_state *caller, *callee;
	struct nb_reg_state *r;
	u32 frame;

	if (env->cur->curframe + 1 >= NB_MAX_CALL_FRAMES) {
		verbose(env, "the call stack of %d frames is too deep !\n",
			env->cur->curframe + 2);
		return -E2BIG;
	}
	st = push_stack(env, env->subprog[meta->subprogno].start, insn_idx);
	if (!st)
		return -ENOMEM;
	frame = st->curframe + 1;
	caller = st->frame[st->curframe];
	/* One more iteration on the pushed path; none yet after the call on this one. */
	st->callback_unroll_depth++;
	caller->callback_depth++;
	cur_func(env)->callback_depth = 0;
	callee = calloc(1, sizeof(*callee));
	if (!callee)
		return -ENOMEM;
	st->frame[frame] = callee;
	st->curframe = frame;
	callee->frameno = frame;
	callee->callsite = insn_idx;
	callee->subprogno = meta->subprogno;
	callee->in_callback_fn = true;
	callee->callback_ret_min = 0;
	callee->callback_ret_max = 1;
	env->subprog[meta->subprogno].is_callback = true;
	for (int i = 0; i < NB_MAX_BPF_REG; i++)
		mark_reg_not_init(&callee->regs[i]);
	mark_pointer(&callee->regs[BPF_REG_10], PTR_TO_STACK);
	callee->regs[BPF_REG_10].frameno = frame;
	r = callee->regs;
	if (meta->func_id == BPF_FUNC_loop) {
		/* callback(u64 index, void *ctx) */
		mark_reg_unknown(&r[BPF_REG_1]);
		r[BPF_REG_2] = caller->regs[BPF_REG_3];
	} else {
		/* callback(map, key, value, ctx) */
		mark_pointer(&r[BPF_REG_1], CONST_PTR_TO_MAP);
		r[BPF_REG_1].map_ptr = meta->map_ptr;
		mark_pointer(&r[BPF_REG_2], PTR_TO_MAP_KEY);
		r[BPF_REG_2].map_ptr = meta->map_ptr;
		mark_pointer(&r[BPF_REG_3], PTR_TO_MAP_VALUE);
		r[BPF_REG_3].map_ptr = meta->map_ptr;
		r[BPF_REG_4] = caller->regs[BPF_REG_3];
	}
	env->aux[insn_idx].calls_callback = true;
	return 0;
}

/*
 * bpf_loop calls its callback at most nr_loops (R1) times: the walk enters it as many times
 * as R1's maximum allows, one more each time it comes back to the call, which makes R1's
 * value decide the walk. bpf_for_each_map_elem iterates until the states converge.
 */
static int push_callback(struct nb_verifier_env *env, u32 insn_idx, struct call_meta *meta)
{
	const struct nb_reg_state *r1 = &cur_regs(env)[BPF_REG_1];
	int err;

	if (meta->func_id != BPF_FUNC_loop)
		return push_callback_call(env, insn_idx, meta);
	/* The kernel's inlining of bpf_loop depends on zero flags: it relies on R4 too. */
	if (register_is_null(&cur_regs(env)[BPF_REG_4])) {
		err = mark_chain_precision(env, BPF_REG_4);
		if (err)
			return err;
	}
	err = mark_chain_precision(env, BPF_REG_1);
	if (err)
		return err;
	if (cur_func(env)->callback_depth < r1->umax_value)
		return push_callback_call(env, insn_idx, meta);
	cur_func(env)->callback_depth = 0;
	return 0;
}

/*
 * The map argument, once every argument is checked (the kernel's record_func_map and
 * check_map_func_compatibility): a map the program may only read cannot be changed through
 * helpers either, and the map type and the helper must accept each other, by the kernel's rules
 * first, then by what netbpf's helper implements (the helper's map_types), which is netbpf's
 * gap where the kernel would go on.
 */
static int check_func_map(struct nb_verifier_env *env, const struct nb_func_proto *fn,
			  const struct call_meta *meta)
{
	struct nb_map *map = meta->map_ptr;
	int f = meta->func_id;

	if (!map)
		return 0;
	if ((map->map_flags & BPF_F_RDONLY_PROG) &&
	    (f == BPF_FUNC_map_delete_elem || f == BPF_FUNC_map_update_elem ||
	     f == BPF_FUNC_map_push_elem || f == BPF_FUNC_map_pop_elem)) {
		verbose(env, "write into map forbidden\n");
		return -EACCES;
	}
	if (check_map_func_compatibility(env, map, f))
		return -EINVAL;
	if (fn->map_type_cnt) {
		u32 i;

		for (i = 0; i < fn->map_type_cnt; i++)
			if (fn->map_types[i] == map->map_type)
				break;
		if (i == fn->map_type_cnt) {
			verbose(env, "%s#%d on a map of type %s (map_type %d) is not "
				"implemented by netbpf%s%s\n", func_name(f), f, map->ops->name,
				map->map_type,
				map->ops->absent_objects ? ": it has no " : "",
				map->ops->absent_objects ?: "");
			return -EINVAL;
		}
	}
	return 0;
}

void record_insn_map(struct nb_verifier_env *env, u32 insn_idx, struct nb_map *map)
{
	struct nb_insn_aux *aux = &env->aux[insn_idx];

	if (!map)
		return;
	if (!aux->map_ptr)
		aux->map_ptr = map;
	else if (aux->map_ptr != map)
		aux->map_poisoned = true;
}

int check_helper_call(struct nb_verifier_env *env, struct bpf_insn *insn, u32 *insn_idx)
{
	struct call_meta meta = { .func_id = insn->imm, .subprogno = -1, .const_map_key = -1 };
	const struct nb_func_proto *fn;
	struct nb_reg_state *regs;
	int func_id = insn->imm, err;

	if (func_id <= 0 || func_id >= NB_KERNEL_FUNC_MAX_ID) {
		verbose(env, "invalid func %s#%d\n", func_name(func_id), func_id);
		return -EINVAL;
	}
	fn = env->ops->get_func_proto ? env->ops->get_func_proto(func_id, env->prog) : NULL;
	if (!fn || !fn->func) {
		/* netbpf's gap, or the kernel's rule: the two read differently. */
		if (nb_kernel_offers_helper(env->ops, func_id))
			verbose(env, "helper %s#%d is not implemented by netbpf\n",
				func_name(func_id), func_id);
		else
			verbose(env, "program of this type cannot use helper %s#%d\n",
				func_name(func_id), func_id);
		return -EINVAL;
	}
	if (fn->gpl_only && !env->prog->gpl_compatible) {
		verbose(env, "cannot call GPL-restricted function from non-GPL compatible "
			"program\n");
		return -EINVAL;
	}
	for (u32 i = 0; i < 5; i++) {
		err = check_func_arg(env, i, fn, &meta);
		if (err)
			return err;
	}
	err = check_func_map(env, fn, &meta);
	if (err)
		return err;
	record_insn_map(env, *insn_idx, meta.map_ptr);
	if (meta.release_ref) {
		err = release_reference(env, meta.release_ref);
		if (err)
			return err;
	}
	if (meta.release_dynptr_regno) {
		err = release_dynptr(env, meta.release_dynptr_regno);
		if (err)
			return err;
	}
	if (meta.release_regno) {
		err = release_reference(env, meta.ref_obj_id);
		if (err) {
			verbose(env, "func %s#%d reference has not been acquired before\n",
				func_name(func_id), func_id);
			return err;
		}
	}
	if (func_id == BPF_FUNC_snprintf) {
		err = check_bpf_snprintf_call(env);
		if (err)
			return err;
	}
	/*
	 * A constant index into the program array decides which program runs: the kernel keeps
	 * it for a direct jump (record_func_key) and so marks it precise, which keeps paths with
	 * different indexes apart. netbpf has no direct jumps but walks the same states.
	 */
	if (func_id == BPF_FUNC_tail_call && meta.map_ptr &&
	    reg_is_const(&cur_regs(env)[BPF_REG_3], false) &&
	    reg_const_value(&cur_regs(env)[BPF_REG_3], false) < meta.map_ptr->max_entries) {
		err = mark_chain_precision(env, BPF_REG_3);
		if (err)
			return err;
	}
	if (func_id == BPF_FUNC_tail_call && env->cur->acquired_refs) {
		verbose(env, "tail_call would lead to reference leak\n");
		return -EINVAL;
	}
	if (meta.subprogno >= 0 && func_id == BPF_FUNC_timer_set_callback) {
		/* Runs later, on its own: a path of its own, and this one goes on. */
		err = push_async_cb(env, *insn_idx, meta.subprogno, meta.map_ptr);
		if (err)
			return err;
	} else if (meta.subprogno >= 0) {
		if (func_id != BPF_FUNC_loop && func_id != BPF_FUNC_for_each_map_elem) {
			verbose(env, "callbacks of func %s#%d are not supported\n",
				func_name(func_id), func_id);
			return -EOPNOTSUPP;
		}
		err = push_callback(env, *insn_idx, &meta);
		if (err)
			return err;
	}

	regs = cur_regs(env);
	for (int i = BPF_REG_1; i <= BPF_REG_5; i++)
		mark_reg_not_init(&regs[i]);
	switch (fn->ret_type) {
	case NB_RET_INTEGER:
		mark_reg_unknown(&regs[BPF_REG_0]);
		break;
	case NB_RET_VOID:
		mark_reg_not_init(&regs[BPF_REG_0]);
		break;
	case NB_RET_PTR_TO_MAP_VALUE_OR_NULL:
		if (!meta.map_ptr) {
			verbose(env, "kernel subsystem misconfigured verifier\n");
			return -EINVAL;
		}
		/* Map-in-map: the inner map's template types the result. */
		if ((meta.map_ptr->map_type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		     meta.map_ptr->map_type == BPF_MAP_TYPE_HASH_OF_MAPS) &&
		    !meta.map_ptr->inner_map_meta) {
			verbose(env, "map-in-map without an inner map template\n");
			return -EINVAL;
		}
		if (func_id == BPF_FUNC_map_lookup_elem && can_elide_value_nullness(meta.map_ptr) &&
		    meta.const_map_key >= 0 && meta.const_map_key < meta.map_ptr->max_entries) {
			mark_pointer(&regs[BPF_REG_0], PTR_TO_MAP_VALUE);
			regs[BPF_REG_0].map_ptr = meta.map_ptr;
			regs[BPF_REG_0].map_uid = meta.map_uid;
			/* Each lookup's value is a lock of its own for the unlock's check. */
			if (meta.map_ptr->spin_lock_off >= 0)
				regs[BPF_REG_0].id = ++env->id_gen;
			break;
		}
		if (meta.map_ptr->inner_map_meta) {
			/*
			 * A map-in-map lookup yields an inner map or NULL: map_ptr_or_null of the
			 * template from the call on, as Linux 6.18.44 types it (older kernels said
			 * map_value_or_null of the outer map until the null check).
			 */
			mark_pointer(&regs[BPF_REG_0], CONST_PTR_TO_MAP | PTR_MAYBE_NULL);
			regs[BPF_REG_0].map_ptr = meta.map_ptr->inner_map_meta;
		} else {
			mark_pointer(&regs[BPF_REG_0], PTR_TO_MAP_VALUE | PTR_MAYBE_NULL);
			regs[BPF_REG_0].map_ptr = meta.map_ptr;
			regs[BPF_REG_0].map_uid = meta.map_uid;
		}
		regs[BPF_REG_0].id = ++env->id_gen;
		break;
	case NB_RET_PTR_TO_ALLOC_MEM_OR_NULL:
		mark_pointer(&regs[BPF_REG_0], PTR_TO_MEM | MEM_RINGBUF | PTR_MAYBE_NULL);
		regs[BPF_REG_0].mem_size = meta.mem_size;
		break;
	case NB_RET_PTR_TO_SOCKET_OR_NULL:
		mark_pointer(&regs[BPF_REG_0], PTR_TO_SOCKET | PTR_MAYBE_NULL);
		break;
	case NB_RET_PTR_TO_DYNPTR_MEM_OR_NULL:
		/* A slice of the dynptr: it dies when the dynptr's reference is released. */
		mark_pointer(&regs[BPF_REG_0], PTR_TO_MEM | PTR_MAYBE_NULL);
		regs[BPF_REG_0].mem_size = meta.mem_size;
		regs[BPF_REG_0].ref_obj_id = meta.dynptr_ref_obj_id;
		break;
	case NB_RET_PTR_TO_SOCK_COMMON_OR_NULL:
		mark_pointer(&regs[BPF_REG_0], PTR_TO_SOCK_COMMON | PTR_MAYBE_NULL);
		break;
	case NB_RET_PTR_TO_TCP_SOCK_OR_NULL:
		mark_pointer(&regs[BPF_REG_0], PTR_TO_TCP_SOCK | PTR_MAYBE_NULL);
		break;
	case NB_RET_PTR_TO_BTF_ID_OR_NULL: {
		u32 btf_id;

		err = btf_ptr_struct_id(env, fn->ret_btf_struct, &btf_id);
		if (err)
			return err;
		mark_pointer(&regs[BPF_REG_0], PTR_TO_BTF_ID | PTR_MAYBE_NULL);
		regs[BPF_REG_0].btf_id = btf_id;
		break;
	}
	default:
		verbose(env, "unknown return type %d of func %s#%d\n", fn->ret_type,
			func_name(func_id), func_id);
		return -EINVAL;
	}
	if ((regs[BPF_REG_0].type & PTR_MAYBE_NULL) && !regs[BPF_REG_0].id)
		regs[BPF_REG_0].id = ++env->id_gen;
	if (is_ptr_cast_function(func_id)) {
		/* Released with the socket it views. */
		regs[BPF_REG_0].ref_obj_id = meta.ref_obj_id;
	} else if (is_acquire_function(func_id, meta.map_ptr)) {
		int id = acquire_reference(env, *insn_idx);

		if (id < 0)
			return id;
		regs[BPF_REG_0].id = id;
		regs[BPF_REG_0].ref_obj_id = id;
	}
	/*
	 * A tail call from a subprogram returns to its caller when the target exits, after the
	 * target may have moved the packet data.
	 */
	if (fn->changes_pkt_data || (func_id == BPF_FUNC_tail_call && env->cur->curframe))
		clear_all_pkt_pointers(env);
	if (func_id == BPF_FUNC_tail_call && env->cur->curframe)
		return subprog_early_return(env, insn_idx, false);
	return 0;
}

/*
 * A call of a global function is checked against its prototype and not followed: the function
 * is verified once, on its own (do_check_subprogs), for any arguments the prototype allows.
 * The caller gets an unknown scalar back, and loses its packet pointers if the function may
 * move the packet data.
 */
static int call_global_func(struct nb_verifier_env *env, u32 subprog)
{
	struct nb_func_state *caller = cur_func(env);
	int err = btf_check_subprog_call(env, subprog, caller->regs);

	if (err == -EFAULT)
		return err;
	/* Verified on its own, it cannot know of the caller's lock. */
	if (env->cur->active_lock) {
		verbose(env, "global function calls are not allowed while holding a lock,\n"
			"use static function instead\n");
		return -EINVAL;
	}
	if (err) {
		verbose(env, "Caller passes invalid args into func#%u ('%s')\n", subprog,
			subprog_name(env, subprog));
		return err;
	}
	if (env->subprog[subprog].changes_pkt_data)
		clear_all_pkt_pointers(env);
	env->subprog[subprog].called = true;
	for (int i = BPF_REG_1; i <= BPF_REG_5; i++)
		mark_reg_not_init(&caller->regs[i]);
	mark_reg_unknown(&caller->regs[BPF_REG_0]);
	return 0;
}

int check_func_call(struct nb_verifier_env *env, struct bpf_insn *insn, u32 *insn_idx)
{
	struct nb_verifier_state *st = env->cur;
	struct nb_func_state *caller = cur_func(env), *callee;
	u32 target = *insn_idx + insn->imm + 1;
	int subprog = find_subprog(env, target);

	if (subprog < 0) {
		verbose(env, "verifier bug. No program starts at insn %u\n", target);
		return -EFAULT;
	}
	if (env->subprog[subprog].is_global)
		return call_global_func(env, subprog);
	if (st->curframe + 1 >= NB_MAX_CALL_FRAMES) {
		verbose(env, "the call stack of %d frames is too deep !\n", st->curframe + 2);
		return -E2BIG;
	}
	callee = calloc(1, sizeof(*callee));
	if (!callee)
		return -ENOMEM;
	st->frame[st->curframe + 1] = callee;
	callee->frameno = st->curframe + 1;
	callee->callsite = *insn_idx;
	callee->subprogno = subprog;
	for (int i = 0; i < NB_MAX_BPF_REG; i++) {
		if (i >= BPF_REG_1 && i <= BPF_REG_5)
			callee->regs[i] = caller->regs[i];
		else
			mark_reg_not_init(&callee->regs[i]);
	}
	mark_pointer(&callee->regs[BPF_REG_10], PTR_TO_STACK);
	callee->regs[BPF_REG_10].frameno = callee->frameno;
	for (int i = BPF_REG_1; i <= BPF_REG_5; i++)
		mark_reg_not_init(&caller->regs[i]);
	st->curframe++;
	*insn_idx = target - 1;
	return 0;
}

int prepare_func_exit(struct nb_verifier_env *env, u32 *insn_idx)
{
	struct nb_verifier_state *st = env->cur;
	struct nb_func_state *callee = st->frame[st->curframe], *caller;
	struct nb_reg_state *r0 = &callee->regs[BPF_REG_0];

	if (r0->type == PTR_TO_STACK) {
		verbose(env, "cannot return stack pointer to the caller\n");
		return -EINVAL;
	}
	caller = st->frame[st->curframe - 1];
	if (callee->in_callback_fn) {
		int err;

		if (r0->type != SCALAR_VALUE) {
			verbose(env, "R0 not a scalar value\n");
			return -EACCES;
		}
		/* The helper acts on the value: it must not be matched loosely. */
		err = mark_chain_precision(env, BPF_REG_0);
		if (err)
			return err;
		if (r0->smin_value < callee->callback_ret_min ||
		    r0->smax_value > callee->callback_ret_max) {
			verbose_invalid_scalar(env, r0, callee->callback_ret_min,
					       callee->callback_ret_max, "At callback return");
			return -EINVAL;
		}
		/* Back to the helper call: it may call the callback again or return. */
		*insn_idx = callee->callsite - 1;
	} else {
		caller->regs[BPF_REG_0] = *r0;
		*insn_idx = callee->callsite;
	}
	st->frame[st->curframe] = NULL;
	st->curframe--;
	/*
	 * Back at the helper of a callback: scalars nothing depends on that changed since the
	 * previous turn become unknown, so that iterations converge (a counter in the context).
	 */
	if (callee->in_callback_fn) {
		struct nb_verifier_state *prev = find_prev_entry(env, st, callee->callsite);

		if (prev)
			widen_imprecise_scalars(env, prev, st);
	}
	free_func_state(callee);
	return 0;
}

/*
 * Instructions that may leave a subprogram early (the kernel walks both ways): LD_ABS and
 * LD_IND whose load fails return 0 to the caller (gen_ld_abs ends with a hidden exit), a tail
 * call that hits returns its target's r0. The instruction's normal way goes on at the next
 * instruction; this path returns to the caller now.
 */
int subprog_early_return(struct nb_verifier_env *env, u32 *insn_idx, bool r0_zero)
{
	struct nb_reg_state *r0;
	int err;

	if (!push_stack(env, *insn_idx + 1, *insn_idx))
		return -ENOMEM;
	r0 = &cur_regs(env)[BPF_REG_0];
	if (r0_zero)
		mark_reg_known_zero(r0);
	else
		mark_reg_unknown(r0);
	/* As at an exit: the callee's reads reach its callers' instances first. */
	err = nb_update_live_stack(env);
	return err ?: prepare_func_exit(env, insn_idx);
}
