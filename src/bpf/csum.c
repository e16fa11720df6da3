// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_csum_diff as Linux 6.13 and later define it (net/core/filter.c): the one's complement sum
 * of 'to' (seeded) minus that of 'from', folded to 16 bits, so that every architecture returns
 * the same value. Sizes need not be multiples of 4; with both sizes 0 the seed comes back
 * folded. The partial sums are those of the kernel's csum_partial: 64-bit little-endian
 * words added with end-around carry, the tail zero-padded, folded to 32 bits. One's complement
 * sums have one representative per value once any input is non-zero, so the order and width of
 * the additions do not change the result.
 */
#include <string.h>

#include "bpf/helpers.h"

static inline u64 add64_carry(u64 a, u64 b)
{
	u64 s = a + b;

	return s + (s < a);
}

static inline u32 add32_carry(u32 a, u32 b)
{
	u32 s = a + b;

	return s + (s < a);
}

static u32 csum_partial(const u8 *buf, u64 len, u32 sum)
{
	u64 acc = sum, w;

	for (; len >= 8; buf += 8, len -= 8) {
		memcpy(&w, buf, 8);
		acc = add64_carry(acc, w);
	}
	if (len) {
		w = 0;
		memcpy(&w, buf, len);
		acc = add64_carry(acc, w);
	}
	acc = (acc & 0xffffffffULL) + (acc >> 32);
	acc = (acc & 0xffffffffULL) + (acc >> 32);
	return (u32)acc;
}

/* Fold a 32-bit partial sum to 16 bits with end-around carry (not complemented). */
static inline u16 csum_from32to16(u32 sum)
{
	sum += (sum >> 16) | (sum << 16);
	return (u16)(sum >> 16);
}

u64 nb_csum_diff(const void *from, u32 from_size, const void *to, u32 to_size, u32 seed)
{
	if (from_size && to_size)
		return csum_from32to16(add32_carry(csum_partial(to, to_size, seed),
						   ~csum_partial(from, from_size, 0)));
	if (to_size)
		return csum_from32to16(csum_partial(to, to_size, seed));
	if (from_size)
		return csum_from32to16(~csum_partial(from, from_size, ~seed));
	return csum_from32to16(seed);
}

static u64 bpf_csum_diff(u64 from, u64 from_size, u64 to, u64 to_size, u64 seed)
{
	return nb_csum_diff((const void *)(uintptr_t)from, (u32)from_size,
			    (const void *)(uintptr_t)to, (u32)to_size, (u32)seed);
}

const struct nb_func_proto nb_csum_diff_proto = {
	.func = bpf_csum_diff,
	.pkt_access = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_MEM_OR_NULL, NB_ARG_CONST_SIZE_OR_ZERO,
		      NB_ARG_PTR_TO_MEM_OR_NULL, NB_ARG_CONST_SIZE_OR_ZERO, NB_ARG_ANYTHING },
};
