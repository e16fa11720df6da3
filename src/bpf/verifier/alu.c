// SPDX-License-Identifier: GPL-2.0
/*
 * ALU instructions: how every operation moves a scalar's bounds (the kernel's
 * adjust_scalar_min_max_vals, for both the 64-bit register and its 32-bit subregister), which
 * pointer arithmetic is allowed and what it yields (adjust_ptr_min_max_vals), how moves copy and
 * link registers (a copy shares the source's id; r1 = r2 + K stays linked with the constant),
 * so that a bound a comparison later learns on one holds for the others.
 *
 * Each rule follows the kernel's, precision included: netbpf must accept and refuse what the
 * kernel does, so a bound the kernel does not compute is not computed here either.
 */
#include <string.h>

#include "bpf/verifier/verifier.h"

static const char *const alu_op_names[16] = {
	"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=", "neg", "%=", "^=", "=", "s>>=", "endian",
};

/*
 * Additions and subtractions: a signed bound that overflows says nothing; an unsigned range
 * that wraps as a whole (every sum overflows, or none) stays a range, one that wraps in part
 * says nothing.
 */
static void scalar32_min_max_add(struct nb_reg_state *dst, const struct nb_reg_state *src)
{
	s32 smin, smax;
	u32 umin, umax;
	bool min_of, max_of;

	if (__builtin_add_overflow(dst->s32_min_value, src->s32_min_value, &smin) ||
	    __builtin_add_overflow(dst->s32_max_value, src->s32_max_value, &smax)) {
		smin = INT_MIN;
		smax = INT_MAX;
	}
	dst->s32_min_value = smin;
	dst->s32_max_value = smax;
	min_of = __builtin_add_overflow(dst->u32_min_value, src->u32_min_value, &umin);
	max_of = __builtin_add_overflow(dst->u32_max_value, src->u32_max_value, &umax);
	if (!min_of && max_of) {
		umin = 0;
		umax = UINT_MAX;
	}
	dst->u32_min_value = umin;
	dst->u32_max_value = umax;
}

static void scalar_min_max_add(struct nb_reg_state *dst, const struct nb_reg_state *src)
{
	s64 smin, smax;
	u64 umin, umax;
	bool min_of, max_of;

	if (__builtin_add_overflow(dst->smin_value, src->smin_value, &smin) ||
	    __builtin_add_overflow(dst->smax_value, src->smax_value, &smax)) {
		smin = LLONG_MIN;
		smax = LLONG_MAX;
	}
	dst->smin_value = smin;
	dst->smax_value = smax;
	min_of = __builtin_add_overflow(dst->umin_value, src->umin_value, &umin);
	max_of = __builtin_add_overflow(dst->umax_value, src->umax_value, &umax);
	if (!min_of && max_of) {
		umin = 0;
		umax = ULLONG_MAX;
	}
	dst->umin_value = umin;
	dst->umax_value = umax;
}

static void scalar32_min_max_sub(struct nb_reg_state *dst, const struct nb_reg_state *src)
{
	s32 smin, smax;
	u32 umin, umax;
	bool min_uf, max_uf;

	if (__builtin_sub_overflow(dst->s32_min_value, src->s32_max_value, &smin) ||
	    __builtin_sub_overflow(dst->s32_max_value, src->s32_min_value, &smax)) {
		smin = INT_MIN;
		smax = INT_MAX;
	}
	dst->s32_min_value = smin;
	dst->s32_max_value = smax;
	min_uf = __builtin_sub_overflow(dst->u32_min_value, src->u32_max_value, &umin);
	max_uf = __builtin_sub_overflow(dst->u32_max_value, src->u32_min_value, &umax);
	if (min_uf && !max_uf) {
		umin = 0;
		umax = UINT_MAX;
	}
	dst->u32_min_value = umin;
	dst->u32_max_value = umax;
}

static void scalar_min_max_sub(struct nb_reg_state *dst, const struct nb_reg_state *src)
{
	s64 smin, smax;
	u64 umin, umax;
	bool min_uf, max_uf;

	if (__builtin_sub_overflow(dst->smin_value, src->smax_value, &smin) ||
	    __builtin_sub_overflow(dst->smax_value, src->smin_value, &smax)) {
		smin = LLONG_MIN;
		smax = LLONG_MAX;
	}
	dst->smin_value = smin;
	dst->smax_value = smax;
	min_uf = __builtin_sub_overflow(dst->umin_value, src->umax_value, &umin);
	max_uf = __builtin_sub_overflow(dst->umax_value, src->umin_value, &umax);
	if (min_uf && !max_uf) {
		umin = 0;
		umax = ULLONG_MAX;
	}
	dst->umin_value = umin;
	dst->umax_value = umax;
}

/* A product that may overflow says nothing; else the corners bound it. */
static void scalar32_min_max_mul(struct nb_reg_state *dst, const struct nb_reg_state *src)
{
	s32 p[4], lo, hi;
	u32 umin, umax;

	if (__builtin_mul_overflow(dst->u32_max_value, src->u32_max_value, &umax) ||
	    __builtin_mul_overflow(dst->u32_min_value, src->u32_min_value, &umin)) {
		umin = 0;
		umax = UINT_MAX;
	}
	dst->u32_min_value = umin;
	dst->u32_max_value = umax;
	if (__builtin_mul_overflow(dst->s32_min_value, src->s32_min_value, &p[0]) ||
	    __builtin_mul_overflow(dst->s32_min_value, src->s32_max_value, &p[1]) ||
	    __builtin_mul_overflow(dst->s32_max_value, src->s32_min_value, &p[2]) ||
	    __builtin_mul_overflow(dst->s32_max_value, src->s32_max_value, &p[3])) {
		dst->s32_min_value = INT_MIN;
		dst->s32_max_value = INT_MAX;
		return;
	}
	lo = hi = p[0];
	for (int i = 1; i < 4; i++) {
		lo = min_t(s32, lo, p[i]);
		hi = max_t(s32, hi, p[i]);
	}
	dst->s32_min_value = lo;
	dst->s32_max_value = hi;
}

static void scalar_min_max_mul(struct nb_reg_state *dst, const struct nb_reg_state *src)
{
	s64 p[4], lo, hi;
	u64 umin, umax;

	if (__builtin_mul_overflow(dst->umax_value, src->umax_value, &umax) ||
	    __builtin_mul_overflow(dst->umin_value, src->umin_value, &umin)) {
		umin = 0;
		umax = ULLONG_MAX;
	}
	dst->umin_value = umin;
	dst->umax_value = umax;
	if (__builtin_mul_overflow(dst->smin_value, src->smin_value, &p[0]) ||
	    __builtin_mul_overflow(dst->smin_value, src->smax_value, &p[1]) ||
	    __builtin_mul_overflow(dst->smax_value, src->smin_value, &p[2]) ||
	    __builtin_mul_overflow(dst->smax_value, src->smax_value, &p[3])) {
		dst->smin_value = LLONG_MIN;
		dst->smax_value = LLONG_MAX;
		return;
	}
	lo = hi = p[0];
	for (int i = 1; i < 4; i++) {
		lo = min_t(s64, lo, p[i]);
		hi = max_t(s64, hi, p[i]);
	}
	dst->smin_value = lo;
	dst->smax_value = hi;
}

/* The signed bounds of a bitwise result: its unsigned ones when they do not cross the sign. */
static void signed32_from_unsigned(struct nb_reg_state *dst)
{
	if ((s32)dst->u32_min_value <= (s32)dst->u32_max_value) {
		dst->s32_min_value = dst->u32_min_value;
		dst->s32_max_value = dst->u32_max_value;
	} else {
		dst->s32_min_value = INT_MIN;
		dst->s32_max_value = INT_MAX;
	}
}

static void signed_from_unsigned(struct nb_reg_state *dst)
{
	if ((s64)dst->umin_value <= (s64)dst->umax_value) {
		dst->smin_value = dst->umin_value;
		dst->smax_value = dst->umax_value;
	} else {
		dst->smin_value = LLONG_MIN;
		dst->smax_value = LLONG_MAX;
	}
}

static void mark_reg32_known(struct nb_reg_state *reg, u32 v)
{
	reg->var_off = tnum_const_subreg(reg->var_off, v);
	reg->s32_min_value = reg->s32_max_value = (s32)v;
	reg->u32_min_value = reg->u32_max_value = v;
}

/* Set a known value over the whole register, keeping its type and id. */
static void mark_known_keep_id(struct nb_reg_state *reg, u64 v)
{
	u32 id = reg->id;
	s32 off = reg->off;

	mark_reg_known(reg, v);
	reg->id = id;
	reg->off = off;
}

/* AND, OR, XOR after the tnum: the tnum bounds the unsigned range, the operands' too. */
static void scalar32_min_max_bitwise(struct nb_reg_state *dst, const struct nb_reg_state *src,
				     u8 op)
{
	struct tnum var32 = tnum_subreg(dst->var_off);

	if (tnum_is_const(tnum_subreg(src->var_off)) && tnum_is_const(var32)) {
		mark_reg32_known(dst, var32.value);
		return;
	}
	switch (op) {
	case BPF_AND:
		dst->u32_min_value = var32.value;
		dst->u32_max_value = min_t(u32, dst->u32_max_value, src->u32_max_value);
		break;
	case BPF_OR:
		dst->u32_min_value = max_t(u32, dst->u32_min_value, src->u32_min_value);
		dst->u32_max_value = var32.value | var32.mask;
		break;
	default: /* BPF_XOR */
		dst->u32_min_value = var32.value;
		dst->u32_max_value = var32.value | var32.mask;
		break;
	}
	signed32_from_unsigned(dst);
}

static void scalar_min_max_bitwise(struct nb_reg_state *dst, const struct nb_reg_state *src,
				   u8 op)
{
	if (tnum_is_const(src->var_off) && tnum_is_const(dst->var_off)) {
		mark_known_keep_id(dst, dst->var_off.value);
		return;
	}
	switch (op) {
	case BPF_AND:
		dst->umin_value = dst->var_off.value;
		dst->umax_value = min_t(u64, dst->umax_value, src->umax_value);
		break;
	case BPF_OR:
		dst->umin_value = max_t(u64, dst->umin_value, src->umin_value);
		dst->umax_value = dst->var_off.value | dst->var_off.mask;
		break;
	default: /* BPF_XOR */
		dst->umin_value = dst->var_off.value;
		dst->umax_value = dst->var_off.value | dst->var_off.mask;
		break;
	}
	signed_from_unsigned(dst);
	reg_update_bounds(dst);
}

/* Shifts by a known amount below the width (the only ones whose result is computed). */
static void scalar32_min_max_lsh(struct nb_reg_state *dst, u32 sh)
{
	struct tnum subreg = tnum_subreg(dst->var_off);

	dst->s32_min_value = INT_MIN;
	dst->s32_max_value = INT_MAX;
	/* The top bit may be shifted out: nothing is known. */
	if (dst->u32_max_value > 1ULL << (31 - sh)) {
		dst->u32_min_value = 0;
		dst->u32_max_value = UINT_MAX;
	} else {
		dst->u32_min_value <<= sh;
		dst->u32_max_value <<= sh;
	}
	dst->var_off = tnum_subreg(tnum_lshift(subreg, sh));
	mark_reg64_unbounded(dst);
	reg_update_bounds32(dst);
}

static void scalar_min_max_lsh(struct nb_reg_state *dst, u32 sh)
{
	/*
	 * x << 32 is the subregister's signed value times 2^32, the first half of the common
	 * sign-extension idiom (<<32 s>>32): the signed range follows the 32-bit one.
	 */
	if (sh == 32) {
		dst->smax_value = (s64)((u64)(s64)dst->s32_max_value << 32);
		dst->smin_value = (s64)((u64)(s64)dst->s32_min_value << 32);
	} else {
		dst->smax_value = LLONG_MAX;
		dst->smin_value = LLONG_MIN;
	}
	if (dst->umax_value > 1ULL << (63 - sh)) {
		dst->umin_value = 0;
		dst->umax_value = ULLONG_MAX;
	} else {
		dst->umin_value <<= sh;
		dst->umax_value <<= sh;
	}
	/* The 32-bit view of a 64-bit shift, as the subregister's own shift would give it. */
	dst->s32_min_value = INT_MIN;
	dst->s32_max_value = INT_MAX;
	if (sh > 31 || dst->u32_max_value > 1ULL << (31 - sh)) {
		dst->u32_min_value = 0;
		dst->u32_max_value = UINT_MAX;
	} else {
		dst->u32_min_value <<= sh;
		dst->u32_max_value <<= sh;
	}
	dst->var_off = tnum_lshift(dst->var_off, sh);
	reg_update_bounds(dst);
}

static void scalar32_min_max_rsh(struct nb_reg_state *dst, u32 sh)
{
	struct tnum subreg = tnum_subreg(dst->var_off);

	dst->s32_min_value = INT_MIN;
	dst->s32_max_value = INT_MAX;
	dst->var_off = tnum_rshift(subreg, sh);
	dst->u32_min_value >>= sh;
	dst->u32_max_value >>= sh;
	mark_reg64_unbounded(dst);
	reg_update_bounds32(dst);
}

static void scalar_min_max_rsh(struct nb_reg_state *dst, u32 sh)
{
	dst->smin_value = LLONG_MIN;
	dst->smax_value = LLONG_MAX;
	dst->var_off = tnum_rshift(dst->var_off, sh);
	dst->umin_value >>= sh;
	dst->umax_value >>= sh;
	mark_reg32_unbounded(dst);
	reg_update_bounds(dst);
}

static void scalar32_min_max_arsh(struct nb_reg_state *dst, u32 sh)
{
	dst->s32_min_value >>= sh;
	dst->s32_max_value >>= sh;
	dst->var_off = tnum_arshift(tnum_subreg(dst->var_off), sh, 32);
	dst->u32_min_value = 0;
	dst->u32_max_value = UINT_MAX;
	mark_reg64_unbounded(dst);
	reg_update_bounds32(dst);
}

static void scalar_min_max_arsh(struct nb_reg_state *dst, u32 sh)
{
	dst->smin_value >>= sh;
	dst->smax_value >>= sh;
	dst->var_off = tnum_arshift(dst->var_off, sh, 64);
	dst->umin_value = 0;
	dst->umax_value = ULLONG_MAX;
	mark_reg32_unbounded(dst);
	reg_update_bounds(dst);
}

static u64 swab(u64 v, int bits)
{
	switch (bits) {
	case 16:
		return __builtin_bswap16((u16)v);
	case 32:
		return __builtin_bswap32((u32)v);
	default:
		return __builtin_bswap64(v);
	}
}

/*
 * BPF_END: a byte swap (bswap, or to_be on this little-endian machine) swaps the known bits and
 * forgets the ranges, which the swapped tnum gives back; to_le only truncates.
 */
static void scalar_byte_swap(struct nb_reg_state *dst, const struct bpf_insn *insn)
{
	bool swap = insn_class(insn) == BPF_ALU64 || BPF_SRC(insn->code) == BPF_TO_BE;
	int bits = insn->imm;

	if (swap) {
		dst->var_off = TNUM(swab(dst->var_off.value, bits), swab(dst->var_off.mask, bits));
		mark_reg_unbounded(dst);
	}
	if (bits == 16 || bits == 32)
		coerce_reg_to_size(dst, bits / 8);
}

/*
 * The shift operand must be a known constant below the width for the result to be computed;
 * every other operation is computed whatever its operands (div and mod never are).
 */
static bool is_safe_to_compute_dst_reg_range(const struct bpf_insn *insn,
					     const struct nb_reg_state *src)
{
	bool alu32 = insn_class(insn) != BPF_ALU64;
	bool src_is_const;

	if (alu32)
		src_is_const = tnum_is_const(tnum_subreg(src->var_off)) &&
			       src->s32_min_value == src->s32_max_value &&
			       src->u32_min_value == src->u32_max_value;
	else
		src_is_const = tnum_is_const(src->var_off) &&
			       src->smin_value == src->smax_value &&
			       src->umin_value == src->umax_value;
	switch (BPF_OP(insn->code)) {
	case BPF_ADD: case BPF_SUB: case BPF_NEG: case BPF_AND: case BPF_XOR: case BPF_OR:
	case BPF_MUL: case BPF_END:
		return true;
	case BPF_LSH: case BPF_RSH: case BPF_ARSH:
		return src_is_const && src->umax_value < (alu32 ? 32u : 64u);
	default:
		return false;
	}
}

/*
 * Scalar dst op= src. Both the 64-bit and the 32-bit views are computed; a 32-bit instruction
 * then zero-extends its subregister result. dst's id is the caller's business.
 */
int adjust_scalar_min_max_vals(struct nb_verifier_env *env, struct bpf_insn *insn,
			       struct nb_reg_state *dst, struct nb_reg_state src)
{
	bool alu32 = insn_class(insn) != BPF_ALU64;
	u8 op = BPF_OP(insn->code);
	struct nb_reg_state neg;

	(void)env;
	if (!is_safe_to_compute_dst_reg_range(insn, &src)) {
		u32 id = dst->id;

		mark_reg_unknown(dst);
		dst->id = id;
		return 0;
	}
	switch (op) {
	case BPF_ADD:
		scalar32_min_max_add(dst, &src);
		scalar_min_max_add(dst, &src);
		dst->var_off = tnum_add(dst->var_off, src.var_off);
		break;
	case BPF_SUB:
		scalar32_min_max_sub(dst, &src);
		scalar_min_max_sub(dst, &src);
		dst->var_off = tnum_sub(dst->var_off, src.var_off);
		break;
	case BPF_NEG:
		neg = *dst;
		mark_known_keep_id(dst, 0);
		scalar32_min_max_sub(dst, &neg);
		scalar_min_max_sub(dst, &neg);
		dst->var_off = tnum_neg(neg.var_off);
		break;
	case BPF_MUL:
		dst->var_off = tnum_mul(dst->var_off, src.var_off);
		scalar32_min_max_mul(dst, &src);
		scalar_min_max_mul(dst, &src);
		break;
	case BPF_AND:
		dst->var_off = tnum_and(dst->var_off, src.var_off);
		scalar32_min_max_bitwise(dst, &src, op);
		scalar_min_max_bitwise(dst, &src, op);
		break;
	case BPF_OR:
		dst->var_off = tnum_or(dst->var_off, src.var_off);
		scalar32_min_max_bitwise(dst, &src, op);
		scalar_min_max_bitwise(dst, &src, op);
		break;
	case BPF_XOR:
		dst->var_off = tnum_xor(dst->var_off, src.var_off);
		scalar32_min_max_bitwise(dst, &src, op);
		scalar_min_max_bitwise(dst, &src, op);
		break;
	case BPF_LSH:
		if (alu32)
			scalar32_min_max_lsh(dst, src.u32_min_value);
		else
			scalar_min_max_lsh(dst, src.umin_value);
		break;
	case BPF_RSH:
		if (alu32)
			scalar32_min_max_rsh(dst, src.u32_min_value);
		else
			scalar_min_max_rsh(dst, src.umin_value);
		break;
	case BPF_ARSH:
		if (alu32)
			scalar32_min_max_arsh(dst, src.u32_min_value);
		else
			scalar_min_max_arsh(dst, src.umin_value);
		break;
	case BPF_END:
		scalar_byte_swap(dst, insn);
		break;
	}
	/* 32-bit operations zero-extend; a byte swap has set its own width. */
	if (alu32 && op != BPF_END)
		zext_32_to_64(dst);
	reg_bounds_sync(dst);
	return 0;
}

void scalar_add_const(struct nb_reg_state *dst, const struct nb_reg_state *src)
{
	scalar32_min_max_add(dst, src);
	scalar_min_max_add(dst, src);
	dst->var_off = tnum_add(dst->var_off, src->var_off);
}

static int check_reg_sane_offset(struct nb_verifier_env *env, const struct nb_reg_state *reg,
				 u32 type)
{
	bool known = tnum_is_const(reg->var_off);
	s64 val = (s64)reg->var_off.value;
	s64 smin = reg->smin_value;

	if (known && (val >= NB_MAX_VAR_OFF || val <= -NB_MAX_VAR_OFF)) {
		verbose(env, "math between %s pointer and %lld is not allowed\n",
			reg_type_str(type), (long long)val);
		return -EACCES;
	}
	if (reg->off >= NB_MAX_VAR_OFF || reg->off <= -NB_MAX_VAR_OFF) {
		verbose(env, "%s pointer offset %d is not allowed\n", reg_type_str(type),
			reg->off);
		return -EACCES;
	}
	if (smin == LLONG_MIN) {
		verbose(env, "math between %s pointer and register with unbounded min value is "
			"not allowed\n", reg_type_str(type));
		return -EACCES;
	}
	if (smin >= NB_MAX_VAR_OFF || smin <= -NB_MAX_VAR_OFF) {
		verbose(env, "value %lld makes %s pointer be out of bounds\n", (long long)smin,
			reg_type_str(type));
		return -EACCES;
	}
	return 0;
}

/*
 * pointer += scalar, pointer -= scalar, scalar += pointer (off_is_dst: the scalar is the
 * destination register, which takes the pointer's type).
 */
static int adjust_ptr_min_max_vals(struct nb_verifier_env *env, struct bpf_insn *insn,
				   const struct nb_reg_state *ptr_reg,
				   const struct nb_reg_state *off_reg, bool off_is_dst)
{
	struct nb_reg_state *dst_reg = &cur_regs(env)[insn->dst_reg];
	bool known = tnum_is_const(off_reg->var_off);
	s64 smin_val = off_reg->smin_value, smax_val = off_reg->smax_value;
	u64 umin_val = off_reg->umin_value, umax_val = off_reg->umax_value;
	u8 op = BPF_OP(insn->code);
	u32 dst = insn->dst_reg;
	struct nb_reg_state ptr = *ptr_reg;
	int err;

	/* An offset with bounds from a dead branch taints the result. */
	if ((known && (smin_val != smax_val || umin_val != umax_val)) || smin_val > smax_val ||
	    umin_val > umax_val) {
		mark_reg_unknown(dst_reg);
		return 0;
	}
	if (insn_class(insn) != BPF_ALU64) {
		/* Privileged: a 32-bit difference involving an address is a number. */
		if (op == BPF_SUB) {
			mark_reg_unknown(dst_reg);
			return 0;
		}
		verbose(env, "R%d 32-bit pointer arithmetic prohibited\n", dst);
		return -EACCES;
	}
	if (ptr.type & PTR_MAYBE_NULL) {
		verbose(env, "R%d pointer arithmetic on %s prohibited, null-check it first\n", dst,
			reg_type_str(ptr.type));
		return -EACCES;
	}
	switch (base_type(ptr.type)) {
	case CONST_PTR_TO_MAP:
		if (known && smin_val == 0 && op == BPF_ADD)
			break;
		/* fall through */
	case PTR_TO_PACKET_END:
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
	case PTR_TO_TCP_SOCK:
		verbose(env, "R%d pointer arithmetic on %s prohibited\n", dst,
			reg_type_str(ptr.type));
		return -EACCES;
	default:
		break;
	}
	err = check_reg_sane_offset(env, off_reg, ptr.type);
	if (!err)
		err = check_reg_sane_offset(env, &ptr, ptr.type);
	if (err)
		return err;

	switch (op) {
	case BPF_ADD:
		*dst_reg = ptr;
		mark_reg32_unbounded(dst_reg);
		if (known && ptr.off + smin_val == (s64)(s32)(ptr.off + smin_val)) {
			/* pointer += K: into the fixed offset */
			dst_reg->off = ptr.off + (s32)smin_val;
			break;
		}
		/* A variable part: the fixed offset stays, the variable offset moves. */
		if (__builtin_add_overflow(ptr.smin_value, smin_val, &dst_reg->smin_value) ||
		    __builtin_add_overflow(ptr.smax_value, smax_val, &dst_reg->smax_value)) {
			dst_reg->smin_value = LLONG_MIN;
			dst_reg->smax_value = LLONG_MAX;
		}
		if (__builtin_add_overflow(ptr.umin_value, umin_val, &dst_reg->umin_value) ||
		    __builtin_add_overflow(ptr.umax_value, umax_val, &dst_reg->umax_value)) {
			dst_reg->umin_value = 0;
			dst_reg->umax_value = ULLONG_MAX;
		}
		dst_reg->var_off = tnum_add(ptr.var_off, off_reg->var_off);
		if (reg_is_pkt_pointer(&ptr)) {
			/* Something unknown was added: a new base whose range is to be proven. */
			dst_reg->id = ++env->id_gen;
			dst_reg->range = 0;
		}
		break;
	case BPF_SUB:
		if (off_is_dst) {
			verbose(env, "R%d tried to subtract pointer from scalar\n", dst);
			return -EACCES;
		}
		if (base_type(ptr.type) == PTR_TO_STACK) {
			verbose(env, "R%d subtraction from stack pointer prohibited\n", dst);
			return -EACCES;
		}
		*dst_reg = ptr;
		mark_reg32_unbounded(dst_reg);
		if (known && ptr.off - smin_val == (s64)(s32)(ptr.off - smin_val)) {
			/* pointer -= K */
			dst_reg->off = ptr.off - (s32)smin_val;
			break;
		}
		if (__builtin_sub_overflow(ptr.smin_value, smax_val, &dst_reg->smin_value) ||
		    __builtin_sub_overflow(ptr.smax_value, smin_val, &dst_reg->smax_value)) {
			dst_reg->smin_value = LLONG_MIN;
			dst_reg->smax_value = LLONG_MAX;
		}
		if (ptr.umin_value < umax_val) {
			dst_reg->umin_value = 0;
			dst_reg->umax_value = ULLONG_MAX;
		} else {
			dst_reg->umin_value = ptr.umin_value - umax_val;
			dst_reg->umax_value = ptr.umax_value - umin_val;
		}
		dst_reg->var_off = tnum_sub(ptr.var_off, off_reg->var_off);
		if (reg_is_pkt_pointer(&ptr)) {
			dst_reg->id = ++env->id_gen;
			/* A non-negative subtrahend keeps the range proven before. */
			if (smin_val < 0)
				dst_reg->range = 0;
		}
		break;
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		verbose(env, "R%d bitwise operator %s on pointer prohibited\n", dst,
			alu_op_names[op >> 4]);
		return -EACCES;
	default:
		verbose(env, "R%d pointer arithmetic with %s operator prohibited\n", dst,
			alu_op_names[op >> 4]);
		return -EACCES;
	}
	err = check_reg_sane_offset(env, dst_reg, ptr.type);
	if (err)
		return err;
	/* A place at or beyond pkt_end was the pointer's, not the moved one's. */
	if (reg_is_pkt_pointer(dst_reg) && dst_reg->range < 0)
		dst_reg->range = 0;
	reg_bounds_sync(dst_reg);
	return 0;
}

int check_reg_arg_read(struct nb_verifier_env *env, u32 regno)
{
	if (cur_regs(env)[regno].type == NOT_INIT) {
		verbose(env, "R%d !read_ok\n", regno);
		return -EACCES;
	}
	return 0;
}

/* Registers are written only below r10: the frame pointer is read only. */
int check_reg_arg_write(struct nb_verifier_env *env, u32 regno)
{
	if (regno == BPF_REG_10) {
		verbose(env, "frame pointer is read only\n");
		return -EACCES;
	}
	return 0;
}

/* Bits a value needs: a copy narrower than that cannot stay linked with it. */
static int get_reg_width(const struct nb_reg_state *reg)
{
	return reg->umax_value ? 64 - __builtin_clzll(reg->umax_value) : 0;
}

/*
 * Before a copy: give the source an id the copy will share (a constant needs none). A source
 * already linked by a constant loses that link, since a copy of it cannot add another.
 */
void assign_scalar_id_before_mov(struct nb_verifier_env *env, struct nb_reg_state *src)
{
	if (src->type != SCALAR_VALUE)
		return;
	if (src->id & NB_ADD_CONST) {
		src->id = 0;
		src->off = 0;
	}
	if (!src->id && !tnum_is_const(src->var_off))
		src->id = ++env->id_gen;
}

static void clear_scalar_id(struct nb_reg_state *reg)
{
	reg->id = 0;
	reg->off = 0;
}

static int check_mov(struct nb_verifier_env *env, struct bpf_insn *insn)
{
	struct nb_reg_state *regs = cur_regs(env);
	struct nb_reg_state *dst = &regs[insn->dst_reg], *src = &regs[insn->src_reg];
	bool alu64 = insn_class(insn) == BPF_ALU64;
	bool no_sext;
	int err;

	if (BPF_SRC(insn->code) == BPF_X) {
		err = check_reg_arg_read(env, insn->src_reg);
		if (err)
			return err;
	}
	err = check_reg_arg_write(env, insn->dst_reg);
	if (err)
		return err;
	if (BPF_SRC(insn->code) == BPF_K) {
		mark_reg_known(dst, alu64 ? (u64)(s64)insn->imm : (u64)(u32)insn->imm);
		return 0;
	}
	if (alu64 && !insn->off) {
		/* Copies of a scalar share an id: a bound learned on one holds for all. */
		assign_scalar_id_before_mov(env, src);
		*dst = *src;
		return 0;
	}
	if (src->type != SCALAR_VALUE) {
		/* Privileged: part of an address is just a number. */
		mark_reg_unknown(dst);
		if (!alu64) {
			zext_32_to_64(dst);
			reg_bounds_sync(dst);
		}
		return 0;
	}
	if (insn->off) {
		/* A sign extension of a value that has no sign to extend keeps the link. */
		no_sext = src->umax_value < (1ULL << (insn->off - 1));
		if (no_sext)
			assign_scalar_id_before_mov(env, src);
		*dst = *src;
		if (!no_sext)
			clear_scalar_id(dst);
		if (alu64) {
			coerce_reg_to_size_sx(dst, insn->off / 8);
			return 0;
		}
		coerce_subreg_to_size_sx(dst, insn->off / 8);
	} else {
		/* w1 = w2: linked only when the value fits the subregister. */
		bool fits = get_reg_width(src) <= 32;

		if (fits)
			assign_scalar_id_before_mov(env, src);
		*dst = *src;
		if (!fits)
			clear_scalar_id(dst);
	}
	zext_32_to_64(dst);
	reg_bounds_sync(dst);
	return 0;
}

/*
 * scalar op= scalar, with the link r1 = r2 + K remembered: an addition or subtraction of a
 * constant to a register sharing an id keeps the id, flagged with the constant in off.
 */
static int adjust_scalar_reg(struct nb_verifier_env *env, struct bpf_insn *insn,
			     struct nb_reg_state *dst, const struct nb_reg_state *src)
{
	bool alu32 = insn_class(insn) != BPF_ALU64;
	/* A 32-bit link needs the value before the operation to fit the subregister. */
	bool fits32 = dst->umax_value <= UINT_MAX;
	u8 op = BPF_OP(insn->code);
	int err;

	err = adjust_scalar_min_max_vals(env, insn, dst, *src);
	if (err)
		return err;
	/* r1 += r1 is no constant: the source changed with the destination. */
	if ((op == BPF_ADD || op == BPF_SUB) && dst->id && src != dst &&
	    src->type == SCALAR_VALUE && reg_is_const(src, alu32)) {
		u64 val = reg_const_value(src, alu32);
		s32 off;

		if (!alu32 && ((s64)val < INT_MIN || (s64)val > INT_MAX))
			goto clear_id;
		if (alu32 && !fits32)
			goto clear_id;
		off = (s32)val;
		if (op == BPF_SUB) {
			if (off == INT_MIN)
				goto clear_id;
			off = -off;
		}
		/* A second constant cannot be added to the link. */
		if (dst->id & NB_ADD_CONST)
			goto clear_id;
		dst->id |= alu32 ? NB_ADD_CONST32 : NB_ADD_CONST64;
		dst->off = off;
		return 0;
	}
clear_id:
	clear_scalar_id(dst);
	return 0;
}

/*
 * Bounds that contradict each other after an operation (from a path that cannot run): the
 * register is made unbounded, as the kernel's reg_bounds_sanity_check does.
 */
static void alu_bounds_sanitize(struct nb_reg_state *reg)
{
	if (reg->type == SCALAR_VALUE && !reg_bounds_sane(reg)) {
		mark_reg_unbounded(reg);
		reg_bounds_sync(reg);
	}
}

int check_alu_op(struct nb_verifier_env *env, struct bpf_insn *insn)
{
	struct nb_reg_state *regs = cur_regs(env);
	struct nb_reg_state *dst = &regs[insn->dst_reg], *src, imm;
	bool alu64 = insn_class(insn) == BPF_ALU64;
	u8 op = BPF_OP(insn->code);
	int err;

	if (op == BPF_MOV) {
		err = check_mov(env, insn);
		if (!err)
			alu_bounds_sanitize(dst);
		return err;
	}
	if (op == BPF_END || op == BPF_NEG) {
		err = check_reg_arg_read(env, insn->dst_reg);
		if (!err)
			err = check_reg_arg_write(env, insn->dst_reg);
		if (err)
			return err;
		if (dst->type != SCALAR_VALUE) {
			/* Privileged: the bytes of an address are a number. */
			mark_reg_unknown(dst);
			return 0;
		}
		err = adjust_scalar_min_max_vals(env, insn, dst, *dst);
		clear_scalar_id(dst);
		alu_bounds_sanitize(dst);
		return err;
	}
	if (BPF_SRC(insn->code) == BPF_X) {
		err = check_reg_arg_read(env, insn->src_reg);
		if (err)
			return err;
		src = &regs[insn->src_reg];
	} else {
		/* The immediate, sign-extended to 64 bits as the kernel's fake register holds it. */
		mark_reg_known(&imm, (u64)(s64)insn->imm);
		src = &imm;
	}
	err = check_reg_arg_read(env, insn->dst_reg);
	if (!err)
		err = check_reg_arg_write(env, insn->dst_reg);
	if (err)
		return err;
	if ((op == BPF_MOD || op == BPF_DIV) && BPF_SRC(insn->code) == BPF_K && insn->imm == 0) {
		verbose(env, "div by zero\n");
		return -EINVAL;
	}
	if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) && BPF_SRC(insn->code) == BPF_K &&
	    (insn->imm < 0 || insn->imm >= (alu64 ? 64 : 32))) {
		verbose(env, "invalid shift %d\n", insn->imm);
		return -EINVAL;
	}
	if (src->type != SCALAR_VALUE) {
		if (dst->type != SCALAR_VALUE) {
			if (op == BPF_SUB) {
				/*
				 * Privileged: the distance between two pointers is a number, in
				 * either width (clang subtracts packet pointers in 32 bits).
				 */
				mark_reg_unknown(dst);
				return 0;
			}
			verbose(env, "R%d pointer %s pointer prohibited\n", insn->dst_reg,
				alu_op_names[op >> 4]);
			return -EACCES;
		}
		/*
		 * scalar += pointer: the pointer's rules with the operands swapped; the scalar's
		 * value is the pointer's offset now, so it must be matched exactly.
		 */
		{
			struct nb_reg_state off = *dst;

			err = mark_chain_precision(env, insn->dst_reg);
			if (err)
				return err;
			return adjust_ptr_min_max_vals(env, insn, src, &off, true);
		}
	}
	if (dst->type != SCALAR_VALUE) {
		struct nb_reg_state off = *src;

		if (BPF_SRC(insn->code) == BPF_X) {
			err = mark_chain_precision(env, insn->src_reg);
			if (err)
				return err;
		}
		return adjust_ptr_min_max_vals(env, insn, dst, &off, false);
	}
	/* A precise result needs a precise operand. */
	if (BPF_SRC(insn->code) == BPF_X && dst->precise) {
		err = mark_chain_precision(env, insn->src_reg);
		if (err)
			return err;
	}
	err = adjust_scalar_reg(env, insn, dst, src);
	if (!err)
		alu_bounds_sanitize(dst);
	return err;
}
