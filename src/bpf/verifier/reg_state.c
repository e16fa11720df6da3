// SPDX-License-Identifier: GPL-2.0
/*
 * Register bounds bookkeeping: a scalar is described five ways at once (tnum, signed and unsigned
 * 64-bit ranges, signed and unsigned 32-bit ranges of the low half). reg_bounds_sync lets each
 * view tighten the others, as the kernel's __update_reg_bounds, __reg_deduce_bounds and
 * __reg_bound_offset do together.
 */
#include <string.h>

#include "bpf/verifier/verifier.h"

void mark_reg_unbounded(struct nb_reg_state *reg)
{
	reg->smin_value = LLONG_MIN;
	reg->smax_value = LLONG_MAX;
	reg->umin_value = 0;
	reg->umax_value = ULLONG_MAX;
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

bool reg_is_pkt_pointer(const struct nb_reg_state *reg)
{
	return reg->type == PTR_TO_PACKET;
}

bool reg_is_pkt_pointer_any(const struct nb_reg_state *reg)
{
	return reg->type == PTR_TO_PACKET || reg->type == PTR_TO_PACKET_META;
}

bool reg_is_pointer(const struct nb_reg_state *reg)
{
	return reg->type != SCALAR_VALUE && reg->type != NOT_INIT;
}

bool reg_type_may_be_null(u32 type)
{
	return type & PTR_MAYBE_NULL;
}

/* Ranges from the tnum: known bits bound the value from both sides. */
static void update_reg32_bounds(struct nb_reg_state *reg)
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

/* The 32-bit ranges learn from each other and from the 64-bit ranges. */
static void deduce_bounds32(struct nb_reg_state *reg)
{
	/* The upper halves of umin and umax agree: the low halves bound the subregister. */
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
	/* An unsigned 32-bit range that does not cross the sign bit is a signed one. */
	if ((s32)reg->u32_min_value <= (s32)reg->u32_max_value) {
		reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->u32_min_value);
		reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->u32_max_value);
	}
	if ((u32)reg->s32_min_value <= (u32)reg->s32_max_value) {
		reg->u32_min_value = max_t(u32, reg->u32_min_value, (u32)reg->s32_min_value);
		reg->u32_max_value = min_t(u32, reg->u32_max_value, (u32)reg->s32_max_value);
	}
}

static void deduce_bounds64(struct nb_reg_state *reg)
{
	if ((s64)reg->umin_value <= (s64)reg->umax_value) {
		reg->smin_value = max_t(s64, reg->smin_value, (s64)reg->umin_value);
		reg->smax_value = min_t(s64, reg->smax_value, (s64)reg->umax_value);
	}
	if ((u64)reg->smin_value <= (u64)reg->smax_value) {
		reg->umin_value = max_t(u64, reg->umin_value, (u64)reg->smin_value);
		reg->umax_value = min_t(u64, reg->umax_value, (u64)reg->smax_value);
	}
}

/* The subregister's range narrows the 64-bit range when the upper half is fixed. */
static void deduce_64_from_32(struct nb_reg_state *reg)
{
	u64 new_umin, new_umax;
	s64 new_smin, new_smax;

	new_umin = (reg->umin_value & ~0xffffffffULL) | reg->u32_min_value;
	new_umax = (reg->umax_value & ~0xffffffffULL) | reg->u32_max_value;
	if ((reg->umin_value >> 32) == (reg->umax_value >> 32)) {
		reg->umin_value = max_t(u64, reg->umin_value, new_umin);
		reg->umax_value = min_t(u64, reg->umax_value, new_umax);
	}
	new_smin = (s64)(((u64)reg->smin_value & ~0xffffffffULL) | reg->u32_min_value);
	new_smax = (s64)(((u64)reg->smax_value & ~0xffffffffULL) | reg->u32_max_value);
	if ((reg->smin_value >> 32) == (reg->smax_value >> 32)) {
		reg->smin_value = max_t(s64, reg->smin_value, new_smin);
		reg->smax_value = min_t(s64, reg->smax_value, new_smax);
	}
	/* A non-negative 32-bit range whose upper half is zero or all ones. */
	if (reg->s32_min_value >= 0 && reg->smin_value >= (s64)INT_MIN &&
	    reg->smax_value <= (s64)INT_MAX) {
		reg->smin_value = max_t(s64, reg->smin_value, reg->s32_min_value);
		reg->smax_value = min_t(s64, reg->smax_value, reg->s32_max_value);
		reg->umin_value = max_t(u64, reg->umin_value, (u64)reg->s32_min_value);
		reg->umax_value = min_t(u64, reg->umax_value, (u64)reg->s32_max_value);
	}
}

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
	update_reg32_bounds(reg);
	update_reg64_bounds(reg);
	deduce_bounds32(reg);
	deduce_bounds64(reg);
	deduce_64_from_32(reg);
	deduce_bounds64(reg);
	deduce_bounds32(reg);
	bound_offset(reg);
	update_reg32_bounds(reg);
	update_reg64_bounds(reg);
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
	return true;
}

void zext_32_to_64(struct nb_reg_state *reg)
{
	reg->var_off = tnum_subreg(reg->var_off);
	reg->umin_value = reg->u32_min_value;
	reg->umax_value = reg->u32_max_value;
	reg->smin_value = reg->u32_min_value;
	reg->smax_value = reg->u32_max_value;
}

/* Zero-extending truncation to size bytes, as a narrow load or a 32-bit op leaves a value. */
void coerce_reg_to_size(struct nb_reg_state *reg, int size)
{
	u64 mask;

	if (size >= 8)
		return;
	mask = (1ULL << (size * 8)) - 1;
	reg->var_off = tnum_cast(reg->var_off, size);
	if ((reg->umin_value & ~mask) == (reg->umax_value & ~mask)) {
		reg->umin_value &= mask;
		reg->umax_value &= mask;
	} else {
		reg->umin_value = 0;
		reg->umax_value = mask;
	}
	reg->smin_value = reg->umin_value;
	reg->smax_value = reg->umax_value;
	if (size == 4) {
		reg->u32_min_value = reg->umin_value;
		reg->u32_max_value = reg->umax_value;
		reg->s32_min_value = INT_MIN;
		reg->s32_max_value = INT_MAX;
	} else {
		reg->u32_min_value = reg->umin_value;
		reg->u32_max_value = reg->umax_value;
		reg->s32_min_value = reg->umin_value;
		reg->s32_max_value = reg->umax_value;
	}
	reg_bounds_sync(reg);
}

/* Sign-extending truncation (movsx, ldsx): the low size bytes, sign extended to 64 bits. */
void coerce_reg_to_size_sx(struct nb_reg_state *reg, int size)
{
	s64 lo = -(1LL << (size * 8 - 1)), hi = (1LL << (size * 8 - 1)) - 1;
	u64 v;

	if (size >= 8)
		return;
	if (tnum_is_const(reg->var_off)) {
		v = reg->var_off.value;
		v = size == 1 ? (u64)(s64)(s8)v : size == 2 ? (u64)(s64)(s16)v : (u64)(s64)(s32)v;
		set_known(reg, v);
		return;
	}
	/* The value's signed range lies inside the target width: extension keeps it. */
	if (reg->smin_value >= lo && reg->smax_value <= hi) {
		s64 smin = reg->smin_value, smax = reg->smax_value;

		mark_reg_unbounded(reg);
		reg->var_off = tnum_unknown;
		reg->smin_value = smin;
		reg->smax_value = smax;
	} else {
		mark_reg_unbounded(reg);
		reg->var_off = tnum_unknown;
		reg->smin_value = lo;
		reg->smax_value = hi;
	}
	reg_bounds_sync(reg);
}
