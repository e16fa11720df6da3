// SPDX-License-Identifier: GPL-2.0
/*
 * ALU instructions: how every operation moves a scalar's bounds (the kernel's
 * adjust_scalar_min_max_vals, for both the 64-bit register and its 32-bit subregister) and
 * which pointer arithmetic is allowed and what it yields (adjust_ptr_min_max_vals).
 *
 * Ranges are computed in 128-bit arithmetic: an operation whose extreme results do not fit the
 * operation's width may wrap, and then the range says nothing.
 */
#include <string.h>

#include "bpf/verifier/verifier.h"

typedef __int128 s128;
typedef unsigned __int128 u128;

/* One signed and one unsigned range at a width of 32 or 64 bits. */
struct range {
	s64 smin, smax;
	u64 umin, umax;
};

static s64 smin_of(int bits)
{
	return bits == 64 ? LLONG_MIN : INT_MIN;
}

static s64 smax_of(int bits)
{
	return bits == 64 ? LLONG_MAX : INT_MAX;
}

static u64 umax_of(int bits)
{
	return bits == 64 ? ULLONG_MAX : UINT_MAX;
}

static void range_unbounded(struct range *r, int bits)
{
	r->smin = smin_of(bits);
	r->smax = smax_of(bits);
	r->umin = 0;
	r->umax = umax_of(bits);
}

static void range_signed_unbounded(struct range *r, int bits)
{
	r->smin = smin_of(bits);
	r->smax = smax_of(bits);
}

static void range_set_signed(struct range *r, s128 lo, s128 hi, int bits)
{
	if (lo < smin_of(bits) || hi > smax_of(bits)) {
		range_signed_unbounded(r, bits);
		return;
	}
	r->smin = (s64)lo;
	r->smax = (s64)hi;
}

/* An unsigned result range: exact, or wrapped as a whole, or nothing known. */
static void range_set_unsigned(struct range *r, s128 lo, s128 hi, int bits)
{
	s128 span = (s128)umax_of(bits) + 1;

	if (lo >= 0 && hi < span) {
		r->umin = (u64)lo;
		r->umax = (u64)hi;
	} else if (lo >= span && hi < 2 * span) {
		r->umin = (u64)(lo - span);
		r->umax = (u64)(hi - span);
	} else if (lo < 0 && hi < 0 && lo >= -span) {
		r->umin = (u64)(lo + span);
		r->umax = (u64)(hi + span);
	} else {
		r->umin = 0;
		r->umax = umax_of(bits);
	}
}

static void range_add(struct range *d, const struct range *s, int bits)
{
	range_set_signed(d, (s128)d->smin + s->smin, (s128)d->smax + s->smax, bits);
	range_set_unsigned(d, (s128)d->umin + s->umin, (s128)d->umax + s->umax, bits);
}

static void range_sub(struct range *d, const struct range *s, int bits)
{
	range_set_signed(d, (s128)d->smin - s->smax, (s128)d->smax - s->smin, bits);
	range_set_unsigned(d, (s128)d->umin - (s128)s->umax, (s128)d->umax - (s128)s->umin, bits);
}

static void range_mul(struct range *d, const struct range *s, int bits)
{
	s128 c[4] = { (s128)d->smin * s->smin, (s128)d->smin * s->smax, (s128)d->smax * s->smin,
		      (s128)d->smax * s->smax };
	s128 lo = c[0], hi = c[0];
	u128 umax = (u128)d->umax * s->umax;

	for (int i = 1; i < 4; i++) {
		lo = c[i] < lo ? c[i] : lo;
		hi = c[i] > hi ? c[i] : hi;
	}
	range_set_signed(d, lo, hi, bits);
	if (umax > umax_of(bits)) {
		d->umin = 0;
		d->umax = umax_of(bits);
	} else {
		d->umin = d->umin * s->umin;
		d->umax = (u64)umax;
	}
}

/* Bitwise results: the tnum bounds the unsigned range; signs only when both are non-negative. */
static void range_and(struct range *d, const struct range *s, struct tnum t, int bits)
{
	d->umin = t.value;
	d->umax = min_t(u64, d->umax, s->umax);
	if (d->smin < 0 || s->smin < 0) {
		range_signed_unbounded(d, bits);
	} else {
		d->smin = d->umin;
		d->smax = d->umax;
	}
}

static void range_or(struct range *d, const struct range *s, struct tnum t, int bits)
{
	d->umin = max_t(u64, d->umin, s->umin);
	d->umax = t.value | t.mask;
	if (d->smin < 0 || s->smin < 0) {
		range_signed_unbounded(d, bits);
	} else {
		d->smin = d->umin;
		d->smax = d->umax;
	}
}

static void range_xor(struct range *d, const struct range *s, struct tnum t, int bits)
{
	d->umin = t.value;
	d->umax = t.value | t.mask;
	if (d->smin < 0 || s->smin < 0) {
		range_signed_unbounded(d, bits);
	} else {
		d->smin = d->umin;
		d->smax = d->umax;
	}
}

static void range_lsh(struct range *d, u8 sh, int bits)
{
	range_set_signed(d, (s128)d->smin * ((s128)1 << sh), (s128)d->smax * ((s128)1 << sh),
			 bits);
	if (((u128)d->umax << sh) > umax_of(bits)) {
		d->umin = 0;
		d->umax = umax_of(bits);
	} else {
		d->umin <<= sh;
		d->umax <<= sh;
	}
}

static void range_rsh(struct range *d, u8 sh, int bits)
{
	d->umin >>= sh;
	d->umax >>= sh;
	range_signed_unbounded(d, bits);
}

static void range_arsh(struct range *d, u8 sh, int bits)
{
	d->smin >>= sh;
	d->smax >>= sh;
	d->umin = 0;
	d->umax = umax_of(bits);
}

static struct range reg_range64(const struct nb_reg_state *r)
{
	return (struct range){ r->smin_value, r->smax_value, r->umin_value, r->umax_value };
}

static struct range reg_range32(const struct nb_reg_state *r)
{
	return (struct range){ r->s32_min_value, r->s32_max_value, r->u32_min_value,
			       r->u32_max_value };
}

static bool range_is_const(const struct range *r)
{
	return r->smin == r->smax && r->umin == r->umax;
}

static const char *const alu_op_names[16] = {
	"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=", "neg", "%=", "^=", "=", "s>>=", "endian",
};

/*
 * Scalar op scalar. The 64-bit and 32-bit views are computed separately; a 32-bit instruction
 * then zero-extends its subregister result.
 */
int adjust_scalar_min_max_vals(struct nb_verifier_env *env, struct bpf_insn *insn,
			       struct nb_reg_state *dst, struct nb_reg_state src)
{
	bool alu32 = insn_class(insn) != BPF_ALU64;
	int bits = alu32 ? 32 : 64;
	u8 op = BPF_OP(insn->code);
	struct range d64 = reg_range64(dst), s64r = reg_range64(&src);
	struct range d32 = reg_range32(dst), s32r = reg_range32(&src);
	struct range *sr = alu32 ? &s32r : &s64r;
	struct tnum sv = alu32 ? tnum_subreg(src.var_off) : src.var_off;
	bool src_known = tnum_is_const(sv);
	struct tnum t;
	u8 sh;

	/* Bounds from a dead branch or an inconsistent constant: trust nothing. */
	if (!reg_bounds_sane(&src) || (src_known && !range_is_const(sr))) {
		mark_reg_unknown(dst);
		return 0;
	}
	dst->id = 0;
	switch (op) {
	case BPF_ADD:
		t = tnum_add(dst->var_off, src.var_off);
		range_add(&d64, &s64r, 64);
		range_add(&d32, &s32r, 32);
		break;
	case BPF_SUB:
		t = tnum_sub(dst->var_off, src.var_off);
		range_sub(&d64, &s64r, 64);
		range_sub(&d32, &s32r, 32);
		break;
	case BPF_MUL:
		t = tnum_mul(dst->var_off, src.var_off);
		range_mul(&d64, &s64r, 64);
		range_mul(&d32, &s32r, 32);
		break;
	case BPF_AND:
		t = tnum_and(dst->var_off, src.var_off);
		range_and(&d64, &s64r, t, 64);
		range_and(&d32, &s32r, tnum_subreg(t), 32);
		break;
	case BPF_OR:
		t = tnum_or(dst->var_off, src.var_off);
		range_or(&d64, &s64r, t, 64);
		range_or(&d32, &s32r, tnum_subreg(t), 32);
		break;
	case BPF_XOR:
		t = tnum_xor(dst->var_off, src.var_off);
		range_xor(&d64, &s64r, t, 64);
		range_xor(&d32, &s32r, tnum_subreg(t), 32);
		break;
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		/* Only a known shift below the width has a predictable result. */
		if (!src_known || sv.value >= (u64)bits) {
			mark_reg_unknown(dst);
			if (alu32) {
				coerce_reg_to_size(dst, 4);
			}
			return 0;
		}
		sh = sv.value;
		if (op == BPF_LSH) {
			t = tnum_lshift(dst->var_off, sh);
			range_lsh(&d64, sh, 64);
			range_lsh(&d32, sh, 32);
		} else if (op == BPF_RSH) {
			if (alu32) {
				t = tnum_rshift(tnum_subreg(dst->var_off), sh);
				range_rsh(&d32, sh, 32);
			} else {
				t = tnum_rshift(dst->var_off, sh);
				range_rsh(&d64, sh, 64);
				range_unbounded(&d32, 32);
			}
		} else {
			if (alu32) {
				t = tnum_arshift(tnum_subreg(dst->var_off), sh, 32);
				range_arsh(&d32, sh, 32);
			} else {
				t = tnum_arshift(dst->var_off, sh, 64);
				range_arsh(&d64, sh, 64);
				range_unbounded(&d32, 32);
			}
		}
		break;
	default:
		/* div, mod: the kernel tracks nothing through them. */
		mark_reg_unknown(dst);
		if (alu32)
			coerce_reg_to_size(dst, 4);
		return 0;
	}
	dst->var_off = t;
	dst->smin_value = d64.smin;
	dst->smax_value = d64.smax;
	dst->umin_value = d64.umin;
	dst->umax_value = d64.umax;
	dst->s32_min_value = (s32)d32.smin;
	dst->s32_max_value = (s32)d32.smax;
	dst->u32_min_value = (u32)d32.umin;
	dst->u32_max_value = (u32)d32.umax;
	if (alu32) {
		/* Only the subregister is meaningful; the upper half becomes zero. */
		dst->var_off = tnum_subreg(t);
		zext_32_to_64(dst);
	}
	reg_bounds_sync(dst);
	return 0;
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

/* pointer += scalar, pointer -= scalar, scalar += pointer. */
static int adjust_ptr_min_max_vals(struct nb_verifier_env *env, struct bpf_insn *insn,
				   const struct nb_reg_state *ptr_reg,
				   const struct nb_reg_state *off_reg)
{
	struct nb_reg_state *regs = cur_regs(env), *dst_reg = &regs[insn->dst_reg];
	bool known = tnum_is_const(off_reg->var_off);
	s64 smin_val = off_reg->smin_value, smax_val = off_reg->smax_value;
	u64 umin_val = off_reg->umin_value, umax_val = off_reg->umax_value;
	u8 op = BPF_OP(insn->code);
	u32 dst = insn->dst_reg;
	struct nb_reg_state ptr = *ptr_reg;
	s128 lo, hi;
	int err;

	if (insn_class(insn) != BPF_ALU64) {
		/* Privileged: a 32-bit difference involving an address is a number. */
		if (op == BPF_SUB) {
			mark_reg_unknown(dst_reg);
			coerce_reg_to_size(dst_reg, 4);
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
	case PTR_TO_FUNC:
		verbose(env, "R%d pointer arithmetic on %s prohibited\n", dst,
			reg_type_str(ptr.type));
		return -EACCES;
	default:
		break;
	}
	if (op != BPF_ADD && op != BPF_SUB) {
		if (op == BPF_AND || op == BPF_OR || op == BPF_XOR)
			verbose(env, "R%d bitwise operator %s on pointer prohibited\n", dst,
				alu_op_names[op >> 4]);
		else
			verbose(env, "R%d pointer arithmetic with %s operator prohibited\n", dst,
				alu_op_names[op >> 4]);
		return -EACCES;
	}
	err = check_reg_sane_offset(env, off_reg, ptr.type);
	if (!err)
		err = check_reg_sane_offset(env, &ptr, ptr.type);
	if (err)
		return err;

	if (op == BPF_SUB) {
		if (dst_reg == off_reg) {
			verbose(env, "R%d tried to subtract pointer from scalar\n", dst);
			return -EACCES;
		}
		if (base_type(ptr.type) == PTR_TO_STACK) {
			verbose(env, "R%d subtraction from stack pointer prohibited\n", dst);
			return -EACCES;
		}
	}
	*dst_reg = ptr;
	if (known) {
		s64 off = op == BPF_ADD ? (s64)ptr.off + smin_val : (s64)ptr.off - smin_val;

		if (off == (s64)(s32)off) {
			dst_reg->off = (s32)off;
			goto out;
		}
	}
	/* A variable part: the fixed offset stays, the variable offset moves. */
	if (op == BPF_ADD) {
		lo = (s128)ptr.smin_value + smin_val;
		hi = (s128)ptr.smax_value + smax_val;
		dst_reg->var_off = tnum_add(ptr.var_off, off_reg->var_off);
	} else {
		lo = (s128)ptr.smin_value - smax_val;
		hi = (s128)ptr.smax_value - smin_val;
		dst_reg->var_off = tnum_sub(ptr.var_off, off_reg->var_off);
	}
	if (lo < LLONG_MIN || hi > LLONG_MAX) {
		dst_reg->smin_value = LLONG_MIN;
		dst_reg->smax_value = LLONG_MAX;
	} else {
		dst_reg->smin_value = (s64)lo;
		dst_reg->smax_value = (s64)hi;
	}
	if (op == BPF_ADD) {
		lo = (s128)ptr.umin_value + umin_val;
		hi = (s128)ptr.umax_value + umax_val;
	} else {
		lo = (s128)ptr.umin_value - (s128)umax_val;
		hi = (s128)ptr.umax_value - (s128)umin_val;
	}
	if (lo < 0 || hi > (s128)ULLONG_MAX) {
		dst_reg->umin_value = 0;
		dst_reg->umax_value = ULLONG_MAX;
	} else {
		dst_reg->umin_value = (u64)lo;
		dst_reg->umax_value = (u64)hi;
	}
	mark_reg32_unbounded(dst_reg);
	if (reg_is_pkt_pointer_any(&ptr)) {
		/* Something unknown was added: a new base whose range is still to be proven. */
		dst_reg->id = ++env->id_gen;
		dst_reg->range = 0;
	}
out:
	reg_bounds_sync(dst_reg);
	return check_reg_sane_offset(env, dst_reg, dst_reg->type);
}

int check_reg_arg_read(struct nb_verifier_env *env, u32 regno)
{
	if (cur_regs(env)[regno].type == NOT_INIT) {
		verbose(env, "R%d !read_ok\n", regno);
		return -EACCES;
	}
	return 0;
}

static u64 bswap_n(u64 v, int bits)
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

static int check_end(struct nb_verifier_env *env, struct bpf_insn *insn,
		     struct nb_reg_state *dst)
{
	bool swap = insn_class(insn) == BPF_ALU64 || BPF_SRC(insn->code) == BPF_TO_BE;
	int bits = insn->imm;

	if (dst->type != SCALAR_VALUE) {
		/* Privileged: the bytes of an address are a number. */
		mark_reg_unknown(dst);
		if (bits < 64)
			coerce_reg_to_size(dst, bits / 8);
		return 0;
	}
	dst->id = 0;
	if (tnum_is_const(dst->var_off)) {
		u64 v = dst->var_off.value;

		v = swap ? bswap_n(v, bits) : (bits == 64 ? v : v & ((1ULL << bits) - 1));
		mark_reg_known(dst, v);
		return 0;
	}
	if (!swap) {
		coerce_reg_to_size(dst, bits / 8);
		return 0;
	}
	mark_reg_unknown(dst);
	coerce_reg_to_size(dst, bits / 8);
	return 0;
}

static int check_mov(struct nb_verifier_env *env, struct bpf_insn *insn)
{
	struct nb_reg_state *regs = cur_regs(env);
	struct nb_reg_state *dst = &regs[insn->dst_reg];
	bool alu64 = insn_class(insn) == BPF_ALU64;
	int err;

	if (BPF_SRC(insn->code) == BPF_K) {
		if (alu64)
			mark_reg_known(dst, (u64)(s64)insn->imm);
		else
			mark_reg_known(dst, (u32)insn->imm);
		return 0;
	}
	err = check_reg_arg_read(env, insn->src_reg);
	if (err)
		return err;
	if (insn->off) {
		struct nb_reg_state src = regs[insn->src_reg];

		if (src.type != SCALAR_VALUE)
			mark_reg_unknown(&src);	/* privileged: an address is a number */
		*dst = src;
		dst->id = 0;
		coerce_reg_to_size_sx(dst, insn->off / 8);
		if (!alu64) {
			coerce_reg_to_size(dst, 4);
		}
		return 0;
	}
	if (alu64) {
		struct nb_reg_state *src = &regs[insn->src_reg];

		/* Copies of a scalar share an id: a bound learned on one holds for all. */
		if (src->type == SCALAR_VALUE && !src->id && !tnum_is_const(src->var_off))
			src->id = ++env->id_gen;
		*dst = *src;
		return 0;
	}
	if (regs[insn->src_reg].type != SCALAR_VALUE) {
		/* Privileged: the low half of an address is just a number. */
		mark_reg_unknown(dst);
		coerce_reg_to_size(dst, 4);
		return 0;
	}
	*dst = regs[insn->src_reg];
	dst->id = 0;
	coerce_reg_to_size(dst, 4);
	return 0;
}

int check_alu_op(struct nb_verifier_env *env, struct bpf_insn *insn)
{
	struct nb_reg_state *regs = cur_regs(env);
	struct nb_reg_state *dst = &regs[insn->dst_reg], src;
	bool alu64 = insn_class(insn) == BPF_ALU64;
	u8 op = BPF_OP(insn->code);
	int err;

	if (op == BPF_MOV)
		return check_mov(env, insn);
	err = check_reg_arg_read(env, insn->dst_reg);
	if (err)
		return err;
	if (op == BPF_END)
		return check_end(env, insn, dst);
	if (op == BPF_NEG) {
		if (dst->type != SCALAR_VALUE)
			mark_reg_unknown(dst);	/* privileged: an address is a number */
		/* -x == 0 - x */
		src = *dst;
		mark_reg_known(dst, 0);
		return adjust_scalar_min_max_vals(env, &(struct bpf_insn){
			.code = (u8)(insn_class(insn) | BPF_SUB | BPF_X) }, dst, src);
	}
	if (BPF_SRC(insn->code) == BPF_X) {
		err = check_reg_arg_read(env, insn->src_reg);
		if (err)
			return err;
		src = regs[insn->src_reg];
	} else {
		mark_reg_known(&src, alu64 ? (u64)(s64)insn->imm : (u64)(u32)insn->imm);
		if ((op == BPF_MOD || op == BPF_DIV) && insn->imm == 0) {
			verbose(env, "div by zero\n");
			return -EINVAL;
		}
		if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) &&
		    (insn->imm < 0 || insn->imm >= (alu64 ? 64 : 32))) {
			verbose(env, "invalid shift %d\n", insn->imm);
			return -EINVAL;
		}
	}
	if (dst->type != SCALAR_VALUE || src.type != SCALAR_VALUE) {
		if (dst->type != SCALAR_VALUE && src.type != SCALAR_VALUE) {
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
		if (dst->type != SCALAR_VALUE) {
			/* pointer += scalar: the scalar's value is the pointer's offset now. */
			if (BPF_SRC(insn->code) == BPF_X) {
				err = mark_chain_precision(env, insn->src_reg);
				if (err)
					return err;
			}
			return adjust_ptr_min_max_vals(env, insn, dst, &src);
		}
		if (op == BPF_SUB) {
			verbose(env, "R%d tried to subtract pointer from scalar\n", insn->dst_reg);
			return -EACCES;
		}
		{
			struct nb_reg_state off = *dst;

			err = mark_chain_precision(env, insn->dst_reg);
			if (err)
				return err;
			return adjust_ptr_min_max_vals(env, insn, &regs[insn->src_reg], &off);
		}
	}
	/* A precise result needs a precise operand. */
	if (BPF_SRC(insn->code) == BPF_X && dst->precise) {
		err = mark_chain_precision(env, insn->src_reg);
		if (err)
			return err;
	}
	return adjust_scalar_min_max_vals(env, insn, dst, src);
}
