// SPDX-License-Identifier: GPL-2.0
/*
 * Register bounds bookkeeping: a scalar is described five ways at once (tnum, signed and unsigned
 * 64-bit ranges, signed and unsigned 32-bit ranges of the low half). reg_bounds_sync lets each
 * view tighten the others, as the kernel's __update_reg_bounds, __reg_deduce_bounds and
 * __reg_bound_offset do together.
 */
#include <string.h>

#include "bpf/verifier/verifier.h"

void mark_reg64_unbounded(struct nb_reg_state *reg)
{
	reg->smin_value = LLONG_MIN;
	reg->smax_value = LLONG_MAX;
	reg->umin_value = 0;
	reg->umax_value = ULLONG_MAX;
}

void mark_reg_unbounded(struct nb_reg_state *reg)
{
	mark_reg64_unbounded(reg);
	mark_reg32_unbounded(reg);
}

void mark_reg32_unbounded(struct nb_reg_state *reg)
{
	reg->s32_min_value = INT_MIN;
	reg->s32_max_value = INT_MAX;
	reg->u32_min_value = 0;
	reg->u32_max_value = UINT_MAX;
}

void mark_reg_unknown(struct nb_reg_state *reg)
{
	memset(reg, 0, sizeof(*reg));
	reg->type = SCALAR_VALUE;
	reg->var_off = tnum_unknown;
	mark_reg_unbounded(reg);
}

void mark_reg_not_init(struct nb_reg_state *reg)
{
	mark_reg_unknown(reg);
	reg->type = NOT_INIT;
}

/* Known value, keeping the register's type (pointers: a known offset). */
static void set_known(struct nb_reg_state *reg, u64 imm)
{
	reg->var_off = tnum_const(imm);
	reg->smin_value = (s64)imm;
	reg->smax_value = (s64)imm;
	reg->umin_value = imm;
	reg->umax_value = imm;
	reg->s32_min_value = (s32)imm;
	reg->s32_max_value = (s32)imm;
	reg->u32_min_value = (u32)imm;
	reg->u32_max_value = (u32)imm;
}

void mark_reg_known(struct nb_reg_state *reg, u64 imm)
{
	memset(reg, 0, sizeof(*reg));
	reg->type = SCALAR_VALUE;
	set_known(reg, imm);
}

void mark_reg_known_zero(struct nb_reg_state *reg)
{
	mark_reg_known(reg, 0);
}

/* A pointer with no offset, variable part zero. */
void mark_pointer(struct nb_reg_state *reg, u32 type)
{
	memset(reg, 0, sizeof(*reg));
	reg->type = type;
	set_known(reg, 0);
}

bool reg_is_const(const struct nb_reg_state *reg, bool is32)
{
	return tnum_is_const(is32 ? tnum_subreg(reg->var_off) : reg->var_off);
}

u64 reg_const_value(const struct nb_reg_state *reg, bool is32)
{
	return is32 ? (u32)reg->var_off.value : reg->var_off.value;
}

bool register_is_null(const struct nb_reg_state *reg)
{
	return reg->type == SCALAR_VALUE && tnum_equals_const(reg->var_off, 0);
}

/* Packet data or metadata pointers. */
bool reg_is_pkt_pointer(const struct nb_reg_state *reg)
{
	return reg->type == PTR_TO_PACKET || reg->type == PTR_TO_PACKET_META;
}

/* Any packet pointer, pkt_end included. */
bool reg_is_pkt_pointer_any(const struct nb_reg_state *reg)
{
	return reg_is_pkt_pointer(reg) || reg->type == PTR_TO_PACKET_END;
}

bool reg_is_pointer(const struct nb_reg_state *reg)
{
	return reg->type != SCALAR_VALUE && reg->type != NOT_INIT;
}

bool reg_type_may_be_null(u32 type)
{
	return type & PTR_MAYBE_NULL;
}

/* Ranges from the tnum: known bits bound the value from both sides (__update_reg32_bounds). */
void reg_update_bounds32(struct nb_reg_state *reg)
{
	struct tnum var32 = tnum_subreg(reg->var_off);
	u64 smin_bits = var32.value | (var32.mask & 0x80000000ULL);
	u64 smax_bits = var32.value | (var32.mask & 0x7fffffffULL);

	reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)(u32)smin_bits);
	reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)(u32)smax_bits);
	reg->u32_min_value = max_t(u32, reg->u32_min_value, (u32)var32.value);
	reg->u32_max_value = min_t(u32, reg->u32_max_value, (u32)(var32.value | var32.mask));
}

static void update_reg64_bounds(struct nb_reg_state *reg)
{
	u64 smin_bits = reg->var_off.value | (reg->var_off.mask & (1ULL << 63));
	u64 smax_bits = reg->var_off.value | (reg->var_off.mask & ~(1ULL << 63));

	reg->smin_value = max_t(s64, reg->smin_value, (s64)smin_bits);
	reg->smax_value = min_t(s64, reg->smax_value, (s64)smax_bits);
	reg->umin_value = max_t(u64, reg->umin_value, reg->var_off.value);
	reg->umax_value = min_t(u64, reg->umax_value, reg->var_off.value | reg->var_off.mask);
}

void reg_update_bounds(struct nb_reg_state *reg)
{
	reg_update_bounds32(reg);
	update_reg64_bounds(reg);
}

/*
 * The 32-bit ranges learn from the 64-bit ones and from each other (__reg32_deduce_bounds).
 * The low halves of a 64-bit range form a range when the upper halves agree, or when they are
 * two consecutive numbers and the low halves cross from negative to non-negative.
 */
static void deduce_bounds32(struct nb_reg_state *reg)
{
	if ((reg->umin_value >> 32) == (reg->umax_value >> 32)) {
		reg->u32_min_value = max_t(u32, reg->u32_min_value, (u32)reg->umin_value);
		reg->u32_max_value = min_t(u32, reg->u32_max_value, (u32)reg->umax_value);
		if ((s32)reg->umin_value <= (s32)reg->umax_value) {
			reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->umin_value);
			reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->umax_value);
		}
	}
	if ((reg->smin_value >> 32) == (reg->smax_value >> 32)) {
		if ((u32)reg->smin_value <= (u32)reg->smax_value) {
			reg->u32_min_value = max_t(u32, reg->u32_min_value, (u32)reg->smin_value);
			reg->u32_max_value = min_t(u32, reg->u32_max_value, (u32)reg->smax_value);
		}
		if ((s32)reg->smin_value <= (s32)reg->smax_value) {
			reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->smin_value);
			reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->smax_value);
		}
	}
	if ((u32)(reg->umin_value >> 32) + 1 == (u32)(reg->umax_value >> 32) &&
	    (s32)reg->umin_value < 0 && (s32)reg->umax_value >= 0) {
		reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->umin_value);
		reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->umax_value);
	}
	if ((u32)((u64)reg->smin_value >> 32) + 1 == (u32)((u64)reg->smax_value >> 32) &&
	    (s32)reg->smin_value < 0 && (s32)reg->smax_value >= 0) {
		reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->smin_value);
		reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->smax_value);
	}
	/* An unsigned range that does not cross the sign bit is a signed one... */
	if ((s32)reg->u32_min_value <= (s32)reg->u32_max_value) {
		reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->u32_min_value);
		reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->u32_max_value);
	}
	/* ...and the other way round; a signed range that does overlaps one end at most. */
	if ((u32)reg->s32_min_value <= (u32)reg->s32_max_value) {
		reg->u32_min_value = max_t(u32, reg->u32_min_value, (u32)reg->s32_min_value);
		reg->u32_max_value = min_t(u32, reg->u32_max_value, (u32)reg->s32_max_value);
	} else if (reg->u32_max_value < (u32)reg->s32_min_value) {
		reg->s32_min_value = (s32)reg->u32_min_value;
		reg->u32_max_value = min_t(u32, reg->u32_max_value, (u32)reg->s32_max_value);
	} else if ((u32)reg->s32_max_value < reg->u32_min_value) {
		reg->s32_max_value = (s32)reg->u32_max_value;
		reg->u32_min_value = max_t(u32, reg->u32_min_value, (u32)reg->s32_min_value);
	}
}

/* The same between the signed and unsigned 64-bit ranges (__reg64_deduce_bounds). */
static void deduce_bounds64(struct nb_reg_state *reg)
{
	if ((s64)reg->umin_value <= (s64)reg->umax_value) {
		reg->smin_value = max_t(s64, reg->smin_value, (s64)reg->umin_value);
		reg->smax_value = min_t(s64, reg->smax_value, (s64)reg->umax_value);
	}
	if ((u64)reg->smin_value <= (u64)reg->smax_value) {
		reg->umin_value = max_t(u64, reg->umin_value, (u64)reg->smin_value);
		reg->umax_value = min_t(u64, reg->umax_value, (u64)reg->smax_value);
	} else if (reg->umax_value < (u64)reg->smin_value) {
		reg->smin_value = (s64)reg->umin_value;
		reg->umax_value = min_t(u64, reg->umax_value, (u64)reg->smax_value);
	} else if ((u64)reg->smax_value < reg->umin_value) {
		reg->smax_value = (s64)reg->umax_value;
		reg->umin_value = max_t(u64, reg->umin_value, (u64)reg->smin_value);
	}
}

/* The subregister's ranges tighten the 64-bit ones (__reg_deduce_mixed_bounds). */
static void deduce_mixed_bounds(struct nb_reg_state *reg)
{
	u64 new_umin, new_umax;
	s64 new_smin, new_smax;

	new_umin = (reg->umin_value & ~0xffffffffULL) | reg->u32_min_value;
	new_umax = (reg->umax_value & ~0xffffffffULL) | reg->u32_max_value;
	reg->umin_value = max_t(u64, reg->umin_value, new_umin);
	reg->umax_value = min_t(u64, reg->umax_value, new_umax);
	new_smin = (s64)(((u64)reg->smin_value & ~0xffffffffULL) | reg->u32_min_value);
	new_smax = (s64)(((u64)reg->smax_value & ~0xffffffffULL) | reg->u32_max_value);
	reg->smin_value = max_t(s64, reg->smin_value, new_smin);
	reg->smax_value = min_t(s64, reg->smax_value, new_smax);
	/*
	 * A non-negative subregister in a 64-bit range within [S32_MIN, S32_MAX]: the upper half
	 * cannot be all ones, so it is zero (after a sign-extending load).
	 */
	if (reg->s32_min_value >= 0 && reg->smin_value >= (s64)INT_MIN &&
	    reg->smax_value <= (s64)INT_MAX) {
		reg->smin_value = reg->s32_min_value;
		reg->smax_value = reg->s32_max_value;
		reg->umin_value = reg->s32_min_value;
		reg->umax_value = reg->s32_max_value;
		reg->var_off = tnum_intersect(reg->var_off,
					      tnum_range(reg->smin_value, reg->smax_value));
	}
}

static void deduce_bounds(struct nb_reg_state *reg)
{
	deduce_bounds32(reg);
	deduce_bounds64(reg);
	deduce_mixed_bounds(reg);
}

/* Bits the ranges imply (__reg_bound_offset). */
static void bound_offset(struct nb_reg_state *reg)
{
	struct tnum var64 = tnum_intersect(reg->var_off,
					   tnum_range(reg->umin_value, reg->umax_value));
	struct tnum var32 = tnum_intersect(tnum_subreg(var64),
					   tnum_range(reg->u32_min_value, reg->u32_max_value));

	reg->var_off = tnum_or(tnum_clear_subreg(var64), var32);
}

void reg_bounds_sync(struct nb_reg_state *reg)
{
	reg_update_bounds(reg);
	deduce_bounds(reg);
	deduce_bounds(reg);
	deduce_bounds(reg);
	bound_offset(reg);
	reg_update_bounds(reg);
}

/* No value satisfies every view: the path that led here cannot run. */
bool reg_bounds_sane(const struct nb_reg_state *reg)
{
	if (reg->umin_value > reg->umax_value || reg->smin_value > reg->smax_value ||
	    reg->u32_min_value > reg->u32_max_value || reg->s32_min_value > reg->s32_max_value)
		return false;
	if (reg->var_off.value & reg->var_off.mask)
		return false;
	if (reg->umin_value > (reg->var_off.value | reg->var_off.mask) ||
	    reg->umax_value < reg->var_off.value)
		return false;
	if (tnum_is_const(reg->var_off)) {
		u64 v = reg->var_off.value;

		if (reg->umin_value != v || reg->umax_value != v || reg->smin_value != (s64)v ||
		    reg->smax_value != (s64)v || reg->u32_min_value != (u32)v ||
		    reg->u32_max_value != (u32)v || reg->s32_min_value != (s32)v ||
		    reg->s32_max_value != (s32)v)
			return false;
	}
	return true;
}

/* The subregister's bounds become the register's (__reg_assign_32_into_64 after tnum_subreg). */
void zext_32_to_64(struct nb_reg_state *reg)
{
	reg->var_off = tnum_subreg(reg->var_off);
	reg->umin_value = reg->u32_min_value;
	reg->umax_value = reg->u32_max_value;
	if (reg->s32_min_value >= 0 && reg->s32_max_value >= 0) {
		reg->smin_value = reg->s32_min_value;
		reg->smax_value = reg->s32_max_value;
	} else {
		reg->smin_value = 0;
		reg->smax_value = UINT_MAX;
	}
}

/*
 * Zero-extending truncation to size bytes, as a narrow load leaves a value. A 4-byte
 * truncation keeps the subregister's bounds: they describe exactly the bytes kept.
 */
void coerce_reg_to_size(struct nb_reg_state *reg, int size)
{
	u64 mask;

	if (size >= 8)
		return;
	reg->var_off = tnum_cast(reg->var_off, size);
	mask = (1ULL << (size * 8)) - 1;
	if ((reg->umin_value & ~mask) == (reg->umax_value & ~mask)) {
		reg->umin_value &= mask;
		reg->umax_value &= mask;
	} else {
		reg->umin_value = 0;
		reg->umax_value = mask;
	}
	reg->smin_value = reg->umin_value;
	reg->smax_value = reg->umax_value;
	if (size < 4)
		mark_reg32_unbounded(reg);
	reg_bounds_sync(reg);
}

static s64 sext(u64 v, int size)
{
	return size == 1 ? (s8)v : size == 2 ? (s16)v : (s32)v;
}

/*
 * Sign-extending truncation (movsx, ldsx): the low size bytes sign-extended to 64 bits. When the
 * subregister's signed range already fits the width, the low 32 bits do not change and the
 * upper ones repeat their sign: the 64-bit signed range is the 32-bit one. Else the range
 * survives when the values above the low bytes agree and the extended ends keep one sign.
 */
void coerce_reg_to_size_sx(struct nb_reg_state *reg, int size)
{
	u64 bits = size * 8;
	s64 a, b, lo, hi;

	if (size >= 8)
		return;
	if (tnum_is_const(reg->var_off)) {
		u64 v = sext(reg->var_off.value, size);

		reg->var_off = tnum_const(v);
		reg->smin_value = reg->smax_value = (s64)v;
		reg->umin_value = reg->umax_value = v;
		reg->s32_min_value = reg->s32_max_value = (s32)v;
		reg->u32_min_value = reg->u32_max_value = (u32)v;
		return;
	}
	lo = -(1LL << (bits - 1));
	hi = (1LL << (bits - 1)) - 1;
	if (reg->s32_min_value >= lo && reg->s32_max_value <= hi) {
		reg->smin_value = reg->s32_min_value;
		reg->smax_value = reg->s32_max_value;
		reg->umin_value = 0;
		reg->umax_value = ULLONG_MAX;
		reg->var_off = tnum_unknown;
		reg_bounds_sync(reg);
		return;
	}
	if (((u64)reg->smax_value >> bits) == ((u64)reg->smin_value >> bits)) {
		a = sext(reg->smax_value, size);
		b = sext(reg->smin_value, size);
		hi = max_t(s64, a, b);
		lo = min_t(s64, a, b);
		if ((hi >= 0) == (lo >= 0)) {
			reg->smin_value = lo;
			reg->s32_min_value = (s32)lo;
			reg->smax_value = hi;
			reg->s32_max_value = (s32)hi;
			reg->umin_value = lo;
			reg->u32_min_value = (u32)lo;
			reg->umax_value = hi;
			reg->u32_max_value = (u32)hi;
			reg->var_off = tnum_range(lo, hi);
			return;
		}
	}
	lo = -(1LL << (bits - 1));
	hi = (1LL << (bits - 1)) - 1;
	reg->smin_value = lo;
	reg->s32_min_value = (s32)lo;
	reg->smax_value = hi;
	reg->s32_max_value = (s32)hi;
	reg->umin_value = 0;
	reg->u32_min_value = 0;
	reg->umax_value = ULLONG_MAX;
	reg->u32_max_value = UINT_MAX;
	reg->var_off = tnum_unknown;
}

/* The same within the subregister (w1 = (s8)w2); the caller zero-extends. */
void coerce_subreg_to_size_sx(struct nb_reg_state *reg, int size)
{
	u32 bits = size * 8;
	s32 a, b, lo, hi;

	if (tnum_is_const(reg->var_off)) {
		u32 v = (u32)sext(reg->var_off.value, size);

		reg->var_off = tnum_const((u64)(s64)sext(reg->var_off.value, size));
		reg->s32_min_value = reg->s32_max_value = (s32)v;
		reg->u32_min_value = reg->u32_max_value = v;
		return;
	}
	if (((u32)reg->s32_max_value >> bits) == ((u32)reg->s32_min_value >> bits)) {
		a = (s32)sext(reg->s32_max_value, size);
		b = (s32)sext(reg->s32_min_value, size);
		hi = max_t(s32, a, b);
		lo = min_t(s32, a, b);
		if ((lo >= 0) == (hi >= 0)) {
			reg->s32_min_value = lo;
			reg->s32_max_value = hi;
			reg->u32_min_value = (u32)lo;
			reg->u32_max_value = (u32)hi;
			reg->var_off = tnum_subreg(tnum_range((u32)lo, (u32)hi));
			return;
		}
	}
	reg->s32_min_value = -(1 << (bits - 1));
	reg->s32_max_value = (1 << (bits - 1)) - 1;
	reg->u32_min_value = 0;
	reg->u32_max_value = UINT_MAX;
	reg->var_off = tnum_subreg(tnum_unknown);
}
