// SPDX-License-Identifier: GPL-2.0
/*
 * Tristate number arithmetic. Each operation returns a tnum that holds every result the
 * operation can produce from any pair of values its operands hold (soundness), and as few others
 * as the bit-level reasoning allows.
 */
#include <stdio.h>

#include "bpf/verifier/tnum.h"

const struct tnum tnum_unknown = { .value = 0, .mask = ~0ULL };

struct tnum tnum_range(u64 min, u64 max)
{
	u64 chi = min ^ max, delta;
	u8 bits = chi ? 64 - __builtin_clzll(chi) : 0;

	/* min and max differ in bit 63: nothing is known. */
	if (bits > 63)
		return tnum_unknown;
	delta = (1ULL << bits) - 1;
	return TNUM(min & ~delta, delta);
}

struct tnum tnum_lshift(struct tnum a, u8 shift)
{
	return TNUM(a.value << shift, a.mask << shift);
}

struct tnum tnum_rshift(struct tnum a, u8 shift)
{
	return TNUM(a.value >> shift, a.mask >> shift);
}

struct tnum tnum_arshift(struct tnum a, u8 min_shift, u8 insn_bitness)
{
	/* The sign bit of value and mask each spread: an unknown sign stays unknown. */
	if (insn_bitness == 32)
		return TNUM((u32)((s32)a.value >> min_shift), (u32)((s32)a.mask >> min_shift));
	return TNUM((s64)a.value >> min_shift, (s64)a.mask >> min_shift);
}

struct tnum tnum_add(struct tnum a, struct tnum b)
{
	u64 sm = a.mask + b.mask;
	u64 sv = a.value + b.value;
	u64 sigma = sm + sv;
	u64 chi = sigma ^ sv;	/* carries that may differ */
	u64 mu = chi | a.mask | b.mask;

	return TNUM(sv & ~mu, mu);
}

struct tnum tnum_sub(struct tnum a, struct tnum b)
{
	u64 dv = a.value - b.value;
	u64 alpha = dv + a.mask;
	u64 beta = dv - b.mask;
	u64 chi = alpha ^ beta;	/* borrows that may differ */
	u64 mu = chi | a.mask | b.mask;

	return TNUM(dv & ~mu, mu);
}

struct tnum tnum_neg(struct tnum a)
{
	return tnum_sub(tnum_const(0), a);
}

struct tnum tnum_and(struct tnum a, struct tnum b)
{
	u64 alpha = a.value | a.mask;	/* bits that may be 1 */
	u64 beta = b.value | b.mask;
	u64 v = a.value & b.value;	/* bits that are surely 1 */

	return TNUM(v, alpha & beta & ~v);
}

struct tnum tnum_or(struct tnum a, struct tnum b)
{
	u64 v = a.value | b.value;
	u64 mu = a.mask | b.mask;

	return TNUM(v, mu & ~v);
}

struct tnum tnum_xor(struct tnum a, struct tnum b)
{
	u64 mu = a.mask | b.mask;
	u64 v = a.value ^ b.value;

	return TNUM(v & ~mu, mu);
}

/*
 * Long multiplication over tristate bits, as the kernel 6.18 computes it: for each bit of a, from
 * the lowest, a known 1 adds b (shifted to that bit) to the accumulator; an unknown bit leaves
 * either the accumulator or the accumulator plus b, so their union. The order of the operands
 * matters for precision (not for soundness): a is the destination register.
 */
struct tnum tnum_mul(struct tnum a, struct tnum b)
{
	struct tnum acc = tnum_const(0);

	while (a.value || a.mask) {
		if (a.value & 1)
			acc = tnum_add(acc, b);
		else if (a.mask & 1)
			acc = tnum_union(acc, tnum_add(acc, b));
		a = tnum_rshift(a, 1);
		b = tnum_lshift(b, 1);
	}
	return acc;
}

struct tnum tnum_intersect(struct tnum a, struct tnum b)
{
	u64 v = a.value | b.value;
	u64 mu = a.mask & b.mask;

	return TNUM(v & ~mu, mu);
}

struct tnum tnum_union(struct tnum a, struct tnum b)
{
	u64 mu = a.mask | b.mask | (a.value ^ b.value);

	return TNUM(a.value & ~mu, mu);
}

struct tnum tnum_cast(struct tnum a, u8 size)
{
	if (size >= 8)
		return a;
	a.value &= (1ULL << (size * 8)) - 1;
	a.mask &= (1ULL << (size * 8)) - 1;
	return a;
}

bool tnum_is_aligned(struct tnum a, u64 size)
{
	if (!size)
		return true;
	return !((a.value | a.mask) & (size - 1));
}

bool tnum_in(struct tnum a, struct tnum b)
{
	if (b.mask & ~a.mask)
		return false;
	b.value &= ~a.mask;
	return a.value == b.value;
}

struct tnum tnum_subreg(struct tnum a)
{
	return tnum_cast(a, 4);
}

struct tnum tnum_clear_subreg(struct tnum a)
{
	return tnum_lshift(tnum_rshift(a, 32), 32);
}

struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg)
{
	return tnum_or(tnum_clear_subreg(reg), tnum_subreg(subreg));
}

struct tnum tnum_const_subreg(struct tnum a, u32 value)
{
	return tnum_with_subreg(a, tnum_const(value));
}

int tnum_strn(char *str, size_t size, struct tnum a)
{
	if (tnum_is_const(a))
		return snprintf(str, size, "%#llx", (unsigned long long)a.value);
	return snprintf(str, size, "(%#llx; %#llx)", (unsigned long long)a.value,
			(unsigned long long)a.mask);
}
