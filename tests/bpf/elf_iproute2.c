// SPDX-License-Identifier: GPL-2.0
/*
 * The second done-when object, written as tc users write them: struct bpf_elf_map in
 * the `maps` section, a pinned global map, an object-pinned map, a program array with id 1 that
 * the "1/0" and "1/1" tail-call sections fill, and a custom section name.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "iproute2_compat.h"

#define JMP_MAP_ID 1

struct bpf_elf_map __section("maps") counters = {
	.type = BPF_MAP_TYPE_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u64),
	.max_elem = 4,
	.pinning = PIN_GLOBAL_NS,
};

struct bpf_elf_map __section("maps") jmp = {
	.type = BPF_MAP_TYPE_PROG_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u32),
	.max_elem = 2,
	.id = JMP_MAP_ID,
};

struct bpf_elf_map __section("maps") seen = {
	.type = BPF_MAP_TYPE_HASH,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u32),
	.max_elem = 8,
	.pinning = PIN_OBJECT_NS,
};

static __always_inline void bump(__u32 slot, __u64 by)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &slot);

	if (v)
		__sync_fetch_and_add(v, by);
}

__section_tail(JMP_MAP_ID, 0)
int tail_zero(void *ctx)
{
	bump(1, 10);
	return 10;
}

__section_tail(JMP_MAP_ID, 1)
int tail_one(void *ctx)
{
	bump(1, 11);
	return 11;
}

/* Counts in slot 0, then tail-calls slot 0 of jmp: returns 10 when the tail call happens. */
__section("classifier")
int cls_main(void *ctx)
{
	bump(0, 1);
	bpf_tail_call(ctx, &jmp, 0);
	return 2;
}

/* A custom section name, as iproute2 allows: records key 5 -> 55 in the object's map. */
__section("redirect_xmit")
int xmit(void *ctx)
{
	__u32 key = 5, val = 55;

	bpf_map_update_elem(&seen, &key, &val, BPF_ANY);
	bump(2, 3);
	return 3;
}

char __license[] __section("license") = "GPL";
