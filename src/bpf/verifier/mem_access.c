// SPDX-License-Identifier: GPL-2.0
/*
 * Loads and stores: the twin of the kernel's check_mem_access. Each pointer type has its own
 * rule: the context by the program type's is_valid_access, the stack per byte, packet memory
 * within the range proven by comparisons with pkt_end, map values and keys within their size
 * (variable offsets included, with proven bounds), ringbuf memory within its reservation.
 */
#include <string.h>

#include "bpf/verifier/verifier.h"

bool may_access_direct_pkt_data(struct nb_verifier_env *env, enum nb_access_type t)
{
	if (t == NB_READ)
		return env->ops->pkt_access != NB_PKT_ACCESS_NONE;
	return env->ops->pkt_access == NB_PKT_ACCESS_WRITE;
}

static int check_mem_bounds(struct nb_verifier_env *env, u32 regno, s64 off, int size,
			    u32 mem_size, bool zero_size_allowed)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	bool size_ok = size > 0 || (size == 0 && zero_size_allowed);

	if (off >= 0 && size_ok && (u64)off + size <= mem_size)
		return 0;
	switch (base_type(reg->type)) {
	case PTR_TO_MAP_KEY:
		verbose(env, "invalid access to map key, key_size=%u off=%lld size=%d\n",
			mem_size, (long long)off, size);
		break;
	case PTR_TO_MAP_VALUE:
		verbose(env, "invalid access to map value, value_size=%u off=%lld size=%d\n",
			mem_size, (long long)off, size);
		break;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET_END:
		verbose(env, "invalid access to packet, off=%lld size=%d, R%u(id=%u,off=%lld,r=%u)\n",
			(long long)off, size, regno, reg->id, (long long)off, mem_size);
		break;
	default:
		verbose(env, "invalid access to memory, mem_size=%u off=%lld size=%d\n", mem_size,
			(long long)off, size);
	}
	return -EACCES;
}

/* A region of mem_size bytes through a pointer with a fixed and a variable offset. */
static int check_mem_region_access(struct nb_verifier_env *env, u32 regno, int off, int size,
				   u32 mem_size, bool zero_size_allowed)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	int err;

	if (reg->smin_value < 0 &&
	    (reg->smin_value == LLONG_MIN ||
	     (off + reg->smin_value != (s64)(s32)(off + reg->smin_value)) ||
	     reg->smin_value + off < 0)) {
		verbose(env, "R%u min value is negative, either use unsigned index or do a if "
			"(index >=0) check.\n", regno);
		return -EACCES;
	}
	err = check_mem_bounds(env, regno, reg->smin_value + off, size, mem_size,
			       zero_size_allowed);
	if (err) {
		verbose(env, "R%u min value is outside of the allowed memory range\n", regno);
		return err;
	}
	if (reg->umax_value >= NB_MAX_VAR_OFF) {
		verbose(env, "R%u unbounded memory access, make sure to bounds check any such "
			"access\n", regno);
		return -EACCES;
	}
	err = check_mem_bounds(env, regno, (s64)reg->umax_value + off, size, mem_size,
			       zero_size_allowed);
	if (err) {
		verbose(env, "R%u max value is outside of the allowed memory range\n", regno);
		return err;
	}
	return 0;
}

static int check_packet_access(struct nb_verifier_env *env, u32 regno, int off, int size,
			       bool zero_size_allowed)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	int err;

	if (reg->smin_value < 0) {
		verbose(env, "R%u min value is negative, either use unsigned index or do a if "
			"(index >=0) check.\n", regno);
		return -EACCES;
	}
	/* A pointer placed at or beyond pkt_end (negative range) reads nothing. */
	err = reg->range < 0 ? -EACCES
			     : check_mem_bounds(env, regno, off, size, reg->range, zero_size_allowed);
	if (err) {
		verbose(env, "R%u offset is outside of the packet\n", regno);
		return err;
	}
	return 0;
}

static int check_map_access_type(struct nb_verifier_env *env, const struct nb_reg_state *reg,
				 int off, int size, enum nb_access_type t)
{
	u32 flags = reg->map_ptr->map_flags;

	if (t == NB_WRITE && ((flags & BPF_F_RDONLY_PROG) || reg->map_ptr->ops->prog_rdonly)) {
		verbose(env, "write into map forbidden, value_size=%u off=%d size=%d\n",
			reg->map_ptr->value_size, off, size);
		return -EACCES;
	}
	if (t == NB_READ && (flags & BPF_F_WRONLY_PROG)) {
		verbose(env, "read from map forbidden, value_size=%u off=%d size=%d\n",
			reg->map_ptr->value_size, off, size);
		return -EACCES;
	}
	return 0;
}

/* A read-only frozen map read at a constant offset is its content (.rodata). */
static bool read_rdonly_map(const struct nb_reg_state *reg, int off, int size, u64 *val)
{
	const struct nb_map *map = reg->map_ptr;
	u64 addr;

	if (!(map->map_flags & BPF_F_RDONLY_PROG) || !map->frozen ||
	    !tnum_is_const(reg->var_off))
		return false;
	off += (int)reg->var_off.value;
	if (off < 0 || (u32)off + size > map->value_size)
		return false;
	if (nb_map_direct_value_addr(map, 0, &addr))
		return false;
	*val = 0;
	memcpy(val, (const u8 *)(uintptr_t)addr + off, size);	/* little endian */
	return true;
}

/* The kernel's __check_ptr_off_reg: fixed_off_ok lets a constant offset in. */
static int ptr_off_reg(struct nb_verifier_env *env, const struct nb_reg_state *reg, u32 regno,
		       bool fixed_off_ok)
{
	if (reg->off < 0) {
		verbose(env, "negative offset %s ptr R%u off=%d disallowed\n",
			reg_type_str(reg->type), regno, reg->off);
		return -EACCES;
	}
	if (!fixed_off_ok && reg->off) {
		verbose(env, "dereference of modified %s ptr R%u off=%d disallowed\n",
			reg_type_str(reg->type), regno, reg->off);
		return -EACCES;
	}
	if (!tnum_is_const(reg->var_off) || reg->var_off.value) {
		char tn[48];

		tnum_strn(tn, sizeof(tn), reg->var_off);
		verbose(env, "variable %s access var_off=%s disallowed\n", reg_type_str(reg->type),
			tn);
		return -EACCES;
	}
	return 0;
}

/* A pointer used only as it was made: no offset of any kind. */
int check_ptr_off_reg(struct nb_verifier_env *env, const struct nb_reg_state *reg, u32 regno)
{
	return ptr_off_reg(env, reg, regno, false);
}

int check_ptr_fixed_off_reg(struct nb_verifier_env *env, const struct nb_reg_state *reg,
			    u32 regno)
{
	return ptr_off_reg(env, reg, regno, true);
}

static int check_ctx_access(struct nb_verifier_env *env, u32 insn_idx, u32 regno, int off,
			    int size, enum nb_access_type t, int value_regno, bool is_ldsx)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	struct nb_ctx_access_info info = { .reg_type = NB_CTX_SCALAR };
	struct nb_insn_aux *aux = &env->aux[insn_idx];
	int err;

	err = check_ptr_off_reg(env, reg, regno);
	if (err)
		return err;
	/* A sign-extending load of a field that holds a pointer makes no sense: refused. */
	if (!env->ops->is_valid_access ||
	    !env->ops->is_valid_access(off, size, t, env->prog, &info) ||
	    (is_ldsx && info.reg_type != NB_CTX_SCALAR)) {
		verbose(env, "invalid bpf_context access off=%d size=%d\n", off, size);
		return -EACCES;
	}
	if (aux->ctx_field_size && aux->ctx_field_size != (info.ctx_field_size ?: (u32)size)) {
		verbose(env, "same insn cannot be used with different ctx fields\n");
		return -EINVAL;
	}
	aux->ctx_field_size = info.ctx_field_size ?: (u32)size;
	if (t == NB_READ && value_regno >= 0) {
		struct nb_reg_state *dst = &cur_regs(env)[value_regno];

		if (info.reg_type != NB_CTX_SCALAR && info.reg_type != NB_CTX_SOCK_COMMON_OR_NULL &&
		    env->ops->pkt_access == NB_PKT_ACCESS_NONE) {
			verbose(env, "invalid bpf_context access off=%d size=%d\n", off, size);
			return -EACCES;
		}
		switch (info.reg_type) {
		case NB_CTX_PKT:
			mark_pointer(dst, PTR_TO_PACKET);
			break;
		case NB_CTX_PKT_META:
			mark_pointer(dst, PTR_TO_PACKET_META);
			break;
		case NB_CTX_PKT_END:
			mark_pointer(dst, PTR_TO_PACKET_END);
			break;
		case NB_CTX_SOCK_COMMON_OR_NULL:
			/* Each read is a pointer of its own, null-checked by its id. */
			mark_pointer(dst, PTR_TO_SOCK_COMMON | PTR_MAYBE_NULL);
			dst->id = ++env->id_gen;
			break;
		default:
			mark_reg_unknown(dst);
			break;
		}
	}
	return 0;
}

/*
 * Pointers whose loads the fixup rewrites, or would in the kernel (the context, sockets): an
 * instruction must see the same one on every path (the kernel's reg_type_mismatch_ok).
 */
static bool reg_type_mismatch_ok(u32 type)
{
	switch (base_type(type)) {
	case PTR_TO_CTX:
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
	case PTR_TO_TCP_SOCK:
		return false;
	default:
		return true;
	}
}

int mark_ptr_type(struct nb_verifier_env *env, u32 insn_idx, u32 type)
{
	struct nb_insn_aux *aux = &env->aux[insn_idx];

	if (aux->ptr_type && aux->ptr_type != base_type(type) &&
	    (!reg_type_mismatch_ok(aux->ptr_type) || !reg_type_mismatch_ok(type))) {
		verbose(env, "same insn cannot be used with different pointers\n");
		return -EINVAL;
	}
	aux->ptr_type = base_type(type);
	return 0;
}

/*
 * An access aligned to its size (check_generic_ptr_alignment): required for the stack, whose
 * spill tracking relies on it, and for atomics anywhere.
 */
static int check_ptr_alignment(struct nb_verifier_env *env, const struct nb_reg_state *reg,
			       int off, int size)
{
	struct tnum reg_off = tnum_add(reg->var_off, tnum_const((s64)reg->off + off));
	const char *desc;

	if (size == 1 || tnum_is_aligned(reg_off, size))
		return 0;
	switch (base_type(reg->type)) {
	case PTR_TO_STACK:
		desc = "stack ";
		break;
	case PTR_TO_MAP_VALUE:
		desc = "value ";
		break;
	case PTR_TO_MAP_KEY:
		desc = "key ";
		break;
	case PTR_TO_CTX:
		desc = "context ";
		break;
	default:
		desc = "";
		break;
	}
	{
		char tn[48];

		tnum_strn(tn, sizeof(tn), reg->var_off);
		verbose(env, "misaligned %saccess off %s+%d+%d size %d\n", desc, tn, reg->off, off,
			size);
	}
	return -EACCES;
}

int check_mem_access(struct nb_verifier_env *env, u32 insn_idx, u32 regno, int off,
		     int bpf_size, enum nb_access_type t, int value_regno, bool is_ldsx)
{
	struct nb_reg_state *regs = cur_regs(env), *reg = &regs[regno];
	int size = bpf_size, err = 0;
	u32 type = reg->type;

	if (type & PTR_MAYBE_NULL || type == SCALAR_VALUE || type == NOT_INIT) {
		verbose(env, "R%u invalid mem access '%s'\n", regno, reg_type_str(type));
		return -EACCES;
	}
	err = mark_ptr_type(env, insn_idx, type);
	if (err)
		return err;

	switch (base_type(type)) {
	case PTR_TO_MAP_VALUE: {
		u64 val;

		off += reg->off;
		err = check_map_access_type(env, reg, off, size, t);
		if (!err)
			err = check_mem_region_access(env, regno, off, size,
						      reg->map_ptr->value_size, false);
		if (!err)
			err = check_map_field_access(env, reg, off, size);
		if (err)
			return err;
		if (t == NB_READ && value_regno >= 0) {
			if (read_rdonly_map(reg, off, size, &val))
				mark_reg_known(&regs[value_regno], val);
			else
				mark_reg_unknown(&regs[value_regno]);
		}
		break;
	}
	case PTR_TO_MAP_KEY:
		if (t == NB_WRITE) {
			verbose(env, "write to change key R%u not allowed\n", regno);
			return -EACCES;
		}
		off += reg->off;
		err = check_mem_region_access(env, regno, off, size, reg->map_ptr->key_size,
					      false);
		if (err)
			return err;
		if (value_regno >= 0)
			mark_reg_unknown(&regs[value_regno]);
		break;
	case PTR_TO_MEM:
		if (t == NB_WRITE && (type & MEM_RDONLY)) {
			verbose(env, "R%u cannot write into %s\n", regno, reg_type_str(type));
			return -EACCES;
		}
		off += reg->off;
		err = check_mem_region_access(env, regno, off, size, reg->mem_size, false);
		if (err)
			return err;
		if (t == NB_READ && value_regno >= 0)
			mark_reg_unknown(&regs[value_regno]);
		break;
	case PTR_TO_CTX:
		err = check_ctx_access(env, insn_idx, regno, off, size, t, value_regno, is_ldsx);
		if (err)
			return err;
		break;
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
	case PTR_TO_TCP_SOCK:
		err = check_sock_access(env, regno, off + reg->off, size, t);
		if (err)
			return err;
		if (value_regno >= 0)
			mark_reg_unknown(&regs[value_regno]);
		break;
	case PTR_TO_STACK:
		err = check_ptr_alignment(env, reg, off, size);
		if (err)
			return err;
		off += reg->off;
		err = check_stack_access_within_bounds(env, regno, off, size, t);
		if (err)
			return err;
		if (t == NB_READ)
			err = check_stack_read(env, regno, off, size, value_regno);
		else
			err = check_stack_write(env, regno, off, size, value_regno,
						&env->insns[insn_idx]);
		if (err)
			return err;
		break;
	case CONST_PTR_TO_MAP:
		/* the read may load into the register it reads through */
		record_insn_map(env, insn_idx, reg->map_ptr);
		err = check_ptr_to_map_access(env, regno, off + reg->off, size, t, value_regno);
		if (err)
			return err;
		break;
	case PTR_TO_BTF_ID:
		err = check_ptr_to_btf_access(env, regno, off + reg->off, size, t, value_regno);
		if (err)
			return err;
		break;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		if (!may_access_direct_pkt_data(env, t)) {
			verbose(env, "cannot write into packet\n");
			return -EACCES;
		}
		off += reg->off;
		err = check_packet_access(env, regno, off, size, false);
		if (err)
			return err;
		if (t == NB_WRITE)
			env->seen_direct_write = true;
		if (t == NB_READ && value_regno >= 0)
			mark_reg_unknown(&regs[value_regno]);
		break;
	default:
		verbose(env, "R%u invalid mem access '%s'\n", regno, reg_type_str(type));
		return -EACCES;
	}
	if (t == NB_READ && value_regno >= 0 && size < NB_REG_SIZE &&
	    regs[value_regno].type == SCALAR_VALUE) {
		if (is_ldsx)
			coerce_reg_to_size_sx(&regs[value_regno], size);
		else
			coerce_reg_to_size(&regs[value_regno], size);
	}
	return 0;
}

int check_load_store(struct nb_verifier_env *env, struct bpf_insn *insn)
{
	u32 idx = env->insn_idx;
	int size = insn_size_bytes(insn);
	int err;

	switch (insn_class(insn)) {
	case BPF_LDX:
		err = check_reg_arg_read(env, insn->src_reg);
		if (!err)
			err = check_reg_arg_write(env, insn->dst_reg);
		if (err)
			return err;
		return check_mem_access(env, idx, insn->src_reg, insn->off, size, NB_READ,
					insn->dst_reg, BPF_MODE(insn->code) == BPF_MEMSX);
	case BPF_STX:
		err = check_reg_arg_read(env, insn->src_reg);
		if (!err)
			err = check_reg_arg_read(env, insn->dst_reg);
		if (err)
			return err;
		return check_mem_access(env, idx, insn->dst_reg, insn->off, size, NB_WRITE,
					insn->src_reg, false);
	default: /* BPF_ST */
		err = check_reg_arg_read(env, insn->dst_reg);
		if (err)
			return err;
		/* BPF_ST into the context is allowed since Linux 6.4; the type rewrites it. */
		return check_mem_access(env, idx, insn->dst_reg, insn->off, size, NB_WRITE, -1,
					false);
	}
}

int check_atomic(struct nb_verifier_env *env, struct bpf_insn *insn)
{
	struct nb_reg_state *regs = cur_regs(env), *dst;
	int size = insn_size_bytes(insn), load_reg = -1;
	u32 idx = env->insn_idx;
	int err;

	err = check_reg_arg_read(env, insn->src_reg);
	if (!err)
		err = check_reg_arg_read(env, insn->dst_reg);
	if (!err && insn->imm == BPF_CMPXCHG)
		err = check_reg_arg_read(env, BPF_REG_0);
	if (err)
		return err;
	dst = &regs[insn->dst_reg];
	switch (base_type(dst->type)) {
	case PTR_TO_STACK:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MEM:
		if (!(dst->type & PTR_MAYBE_NULL))
			break;
		/* fall through */
	default:
		if (dst->type == SCALAR_VALUE || (dst->type & PTR_MAYBE_NULL)) {
			verbose(env, "R%d invalid mem access '%s'\n", insn->dst_reg,
				reg_type_str(dst->type));
			return -EACCES;
		}
		verbose(env, "BPF_ATOMIC stores into R%d %s is not allowed\n", insn->dst_reg,
			reg_type_str(dst->type));
		return -EACCES;
	}
	/* Atomics need natural alignment even where plain accesses do not. */
	err = check_ptr_alignment(env, dst, insn->off, size);
	if (err)
		return err;
	if (insn->imm == BPF_CMPXCHG)
		load_reg = BPF_REG_0;
	else if (insn->imm & BPF_FETCH)
		load_reg = insn->src_reg;
	if (load_reg >= 0) {
		err = check_reg_arg_write(env, load_reg);
		if (err)
			return err;
	}
	/*
	 * Read (the old value must be initialised); a fetch reads it again into its register as
	 * a load would (a spilled value comes back with its state); then write a plain value.
	 */
	err = check_mem_access(env, idx, insn->dst_reg, insn->off, size, NB_READ, -1, false);
	if (!err && load_reg >= 0)
		err = check_mem_access(env, idx, insn->dst_reg, insn->off, size, NB_READ, load_reg,
				       false);
	if (!err)
		err = check_mem_access(env, idx, insn->dst_reg, insn->off, size, NB_WRITE, -1,
				       false);
	return err;
}

int check_ld_abs(struct nb_verifier_env *env, struct bpf_insn *insn)
{
	struct nb_reg_state *regs = cur_regs(env);
	int err;

	err = check_reg_arg_read(env, BPF_REG_6);
	if (err)
		return err;
	err = check_lock_released(env, "BPF_LD_[ABS|IND]");
	if (err)
		return err;
	if (env->cur->acquired_refs) {
		verbose(env, "BPF_LD_[ABS|IND] cannot be mixed with socket references\n");
		return -EINVAL;
	}
	if (regs[BPF_REG_6].type != PTR_TO_CTX) {
		verbose(env, "at the time of BPF_LD_ABS|IND R6 != pointer to skb\n");
		return -EINVAL;
	}
	if (BPF_MODE(insn->code) == BPF_IND) {
		err = check_reg_arg_read(env, insn->src_reg);
		if (err)
			return err;
	}
	err = check_ptr_off_reg(env, &regs[BPF_REG_6], BPF_REG_6);
	if (err)
		return err;
	/* The load may end the function (r0 = 0); R1-R5 are scratch. */
	for (int i = BPF_REG_1; i <= BPF_REG_5; i++)
		mark_reg_not_init(&regs[i]);
	mark_reg_unknown(&regs[BPF_REG_0]);
	return 0;
}

int check_ld_imm(struct nb_verifier_env *env, struct bpf_insn *insn)
{
	struct nb_reg_state *dst = &cur_regs(env)[insn->dst_reg];
	u64 val = insn_ldimm64_val(insn);
	struct nb_prog *prog = env->prog;
	int err;

	err = check_reg_arg_write(env, insn->dst_reg);
	if (err)
		return err;
	switch (insn->src_reg) {
	case 0:
		mark_reg_known(dst, val);
		return 0;
	case BPF_PSEUDO_MAP_FD:
		mark_pointer(dst, CONST_PTR_TO_MAP);
		dst->map_ptr = (struct nb_map *)(uintptr_t)val;
		return 0;
	case BPF_PSEUDO_MAP_VALUE:
		for (u32 i = 0; i < prog->used_map_cnt; i++) {
			struct nb_map *map = prog->used_maps[i];
			u64 base;

			if (nb_map_direct_value_addr(map, 0, &base) || val < base ||
			    val >= base + map->value_size)
				continue;
			mark_pointer(dst, PTR_TO_MAP_VALUE);
			dst->map_ptr = map;
			dst->off = (s32)(val - base);
			return 0;
		}
		verbose(env, "direct value access to an unknown map\n");
		return -EINVAL;
	case BPF_PSEUDO_FUNC: {
		int subprog = find_subprog(env, env->insn_idx + insn->imm + 1);

		if (subprog < 0) {
			verbose(env, "function pointer to an unknown subprogram\n");
			return -EINVAL;
		}
		mark_pointer(dst, PTR_TO_FUNC);
		dst->subprogno = subprog;
		return 0;
	}
	default:
		verbose(env, "unrecognized bpf_ld_imm64 insn\n");
		return -EINVAL;
	}
}

/* Memory a helper reads or writes: access_size bytes (or up to umax of a size register). */
int check_helper_mem_access(struct nb_verifier_env *env, int regno, int access_size,
			    bool zero_size_allowed, bool uninit_write)
{
	struct nb_reg_state *reg = &cur_regs(env)[regno];
	enum nb_access_type t = uninit_write ? NB_WRITE : NB_READ;
	int err;

	switch (base_type(reg->type)) {
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		return check_packet_access(env, regno, reg->off, access_size, zero_size_allowed);
	case PTR_TO_MAP_KEY:
		if (uninit_write) {
			verbose(env, "R%d cannot write into %s\n", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		return check_mem_region_access(env, regno, reg->off, access_size,
					       reg->map_ptr->key_size, zero_size_allowed);
	case PTR_TO_MAP_VALUE:
		err = check_map_access_type(env, reg, reg->off, access_size, t);
		if (err)
			return err;
		return check_mem_region_access(env, regno, reg->off, access_size,
					       reg->map_ptr->value_size, zero_size_allowed) ?:
		       check_map_field_access(env, reg, reg->off, access_size);
	case PTR_TO_MEM:
		if (uninit_write && (reg->type & MEM_RDONLY)) {
			verbose(env, "R%d cannot write into %s\n", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		return check_mem_region_access(env, regno, reg->off, access_size, reg->mem_size,
					       zero_size_allowed);
	case PTR_TO_STACK:
		return check_stack_range(env, regno, 0, access_size, zero_size_allowed,
					 uninit_write);
	default:
		if (zero_size_allowed && access_size == 0 && register_is_null(reg))
			return 0;
		verbose(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem\n",
			regno, reg_type_str(reg->type));
		return -EACCES;
	}
}
