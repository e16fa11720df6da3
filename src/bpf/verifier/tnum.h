/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tristate numbers, the kernel's tnum: a 64-bit value of which some bits are known. A bit set in
 * mask is unknown; a bit clear in mask has the value of the same bit in value. value & mask is
 * always 0.
 */
#ifndef NB_VERIFIER_TNUM_H
#define NB_VERIFIER_TNUM_H

#include "common/types.h"

struct tnum {
	u64 value;
	u64 mask;
};

#define TNUM(v, m) ((struct tnum){ .value = (v), .mask = (m) })

extern const struct tnum tnum_unknown;

static inline struct tnum tnum_const(u64 v)
{
	return TNUM(v, 0);
}

static inline bool tnum_is_const(struct tnum a)
{
	return !a.mask;
}

static inline bool tnum_equals_const(struct tnum a, u64 b)
{
	return tnum_is_const(a) && a.value == b;
}

static inline bool tnum_is_unknown(struct tnum a)
{
	return !~a.mask;
}

/* Smallest tnum holding every value of [min, max]. */
struct tnum tnum_range(u64 min, u64 max);
struct tnum tnum_lshift(struct tnum a, u8 shift);
struct tnum tnum_rshift(struct tnum a, u8 shift);
/* Arithmetic shift of the low insn_bitness bits (32 or 64). */
struct tnum tnum_arshift(struct tnum a, u8 min_shift, u8 insn_bitness);
struct tnum tnum_add(struct tnum a, struct tnum b);
struct tnum tnum_sub(struct tnum a, struct tnum b);
struct tnum tnum_neg(struct tnum a);
struct tnum tnum_and(struct tnum a, struct tnum b);
struct tnum tnum_or(struct tnum a, struct tnum b);
struct tnum tnum_xor(struct tnum a, struct tnum b);
struct tnum tnum_mul(struct tnum a, struct tnum b);
/* Values both a and b may hold (a and b must describe the same value). */
struct tnum tnum_intersect(struct tnum a, struct tnum b);
/* Values either may hold. */
struct tnum tnum_union(struct tnum a, struct tnum b);
/* Truncate to size bytes (zero extension). */
struct tnum tnum_cast(struct tnum a, u8 size);
bool tnum_is_aligned(struct tnum a, u64 size);
/* Every value b may hold, a may hold too. */
bool tnum_in(struct tnum a, struct tnum b);
struct tnum tnum_subreg(struct tnum a);
struct tnum tnum_clear_subreg(struct tnum a);
struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg);
struct tnum tnum_const_subreg(struct tnum a, u32 value);
/* "(0x5; 0xf0)" or the constant "0x5", as the kernel's tnum_strn. */
int tnum_strn(char *str, size_t size, struct tnum a);

#endif /* NB_VERIFIER_TNUM_H */
