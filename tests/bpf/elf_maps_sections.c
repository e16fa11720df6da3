// SPDX-License-Identifier: GPL-2.0
/*
 * Legacy maps in "maps/NAME" sections, one map a section, as older loaders wrote them (libbpf's
 * 20-byte struct bpf_map_def); and Cilium's pinning value CILIUM_PIN_REPLACE (16) in iproute2's
 * struct bpf_elf_map: the map is pinned by name, replacing a map pinned there before.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "iproute2_compat.h"

#define CILIUM_PIN_REPLACE (1 << 4)

struct bpf_map_def_legacy {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_map_def_legacy SEC("maps/hits") hits = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 2,
};

struct bpf_map_def_legacy SEC("maps/last") last = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u32),
	.max_entries = 8,
};

struct bpf_elf_map SEC("maps/cilium") calls_replaced = {
	.type = BPF_MAP_TYPE_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u32),
	.max_elem = 1,
	.pinning = CILIUM_PIN_REPLACE,
};

/* Counts into hits[0], remembers 7 in last[1] and returns calls_replaced[0]. */
SEC("socket")
int count(void *ctx)
{
	__u32 zero = 0, one = 1, seven = 7, *r;
	__u64 *n = bpf_map_lookup_elem(&hits, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
	bpf_map_update_elem(&last, &one, &seven, BPF_ANY);
	r = bpf_map_lookup_elem(&calls_replaced, &zero);
	return r ? *r : -1;
}

char LICENSE[] SEC("license") = "GPL";
