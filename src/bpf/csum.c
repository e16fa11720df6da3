// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_csum_diff: the one's complement sum of the 32-bit words of 'to' minus those of 'from',
 * added to seed, as a 32-bit partial checksum. Programs fold it into an IP or L4 checksum with
 * bpf_l3_csum_replace / bpf_l4_csum_replace; any 32-bit value congruent modulo 0xffffffff
 * folds to the same 16-bit checksum, which is all the kernel's architectures agree on.
 */
#include <errno.h>
#include <string.h>

#include "bpf/helpers.h"

/* The kernel's scratch buffer holds 128 words (sizeof(sp->diff)). */
#define CSUM_DIFF_MAX_BYTES 512

u64 nb_csum_diff(const void *from, u32 from_size, const void *to, u32 to_size, u32 seed)
{
	u64 sum = seed;
	u32 w;

	if (((from_size | to_size) & 3) || (u64)from_size + to_size > CSUM_DIFF_MAX_BYTES)
		return (u64)-EINVAL;
	/* Subtracting a word in one's complement is adding its complement. */
	for (u32 i = 0; i < from_size; i += 4) {
		memcpy(&w, (const u8 *)from + i, 4);
		sum += (u32)~w;
	}
	for (u32 i = 0; i < to_size; i += 4) {
		memcpy(&w, (const u8 *)to + i, 4);
		sum += w;
	}
	while (sum >> 32)
		sum = (sum & 0xffffffffULL) + (sum >> 32);
	return sum;
}

static u64 bpf_csum_diff(u64 from, u64 from_size, u64 to, u64 to_size, u64 seed)
{
	/* The verifier bounds the sizes; unverified callers get the same refusal. */
	if (from_size > CSUM_DIFF_MAX_BYTES || to_size > CSUM_DIFF_MAX_BYTES)
		return (u64)-EINVAL;
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
