/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internet checksum arithmetic (RFC 1071), the twins of the kernel's csum_partial, csum_fold,
 * csum_replace* and friends. Values are raw: a 16-bit checksum is what memory holds read as a
 * host-order u16, a 32-bit partial sum (__wsum) is a one's complement sum of host-order words.
 * One's complement sums do not depend on byte order, so no swapping is ever needed.
 */
#ifndef NB_PKT_CSUM_H
#define NB_PKT_CSUM_H

#include <string.h>

#include "common/types.h"

static inline u32 nb_csum_add(u32 a, u32 b)
{
	u32 res = a + b;

	return res + (res < b);
}

static inline u32 nb_csum_sub(u32 a, u32 b)
{
	return nb_csum_add(a, ~b);
}

/* Fold a 32-bit partial sum to 16 bits without inverting (csum_from32to16). */
static inline u16 nb_csum_from32to16(u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (u16)sum;
}

/* Fold and invert: the checksum field's value (csum_fold). */
static inline u16 nb_csum_fold(u32 sum)
{
	return (u16)~nb_csum_from32to16(sum);
}

/* One's complement sum of len bytes added to sum (csum_partial), as 32 bits. */
static inline u32 nb_csum_partial(const void *buf, size_t len, u32 sum)
{
	const u8 *p = buf;
	u64 acc = sum;

	while (len >= 4) {
		u32 w;

		memcpy(&w, p, 4);
		acc += w;
		p += 4;
		len -= 4;
	}
	if (len) {
		u32 w = 0;

		memcpy(&w, p, len);	/* the tail, zero padded, in memory order */
		acc += w;
	}
	while (acc >> 32)
		acc = (acc & 0xffffffff) + (acc >> 32);
	return (u32)acc;
}

/* The checksum of len bytes, ready to store (ip_compute_csum). */
static inline u16 nb_csum_compute(const void *buf, size_t len)
{
	return nb_csum_fold(nb_csum_partial(buf, len, 0));
}

/* *sum covered from; make it cover to instead (csum_replace4). */
static inline void nb_csum_replace4(u16 *sum, u32 from, u32 to)
{
	u32 tmp = nb_csum_sub(~(u32)*sum, from);

	*sum = nb_csum_fold(nb_csum_add(tmp, to));
}

static inline u16 nb_csum16_add(u16 a, u16 b)
{
	u16 res = a + b;

	return res + (res < b);
}

/* The same for a 16-bit field (csum_replace2). */
static inline void nb_csum_replace2(u16 *sum, u16 from, u16 to)
{
	*sum = (u16)~nb_csum16_add(nb_csum16_add((u16)~*sum, (u16)~from), to);
}

/* Apply a precomputed difference (csum_replace_by_diff). */
static inline void nb_csum_replace_by_diff(u16 *sum, u32 diff)
{
	*sum = nb_csum_fold(nb_csum_add(diff, ~(u32)*sum));
}

#endif /* NB_PKT_CSUM_H */
