// SPDX-License-Identifier: GPL-2.0
/*
 * iproute2's map in map: the outer array names its template by inner_id, and the inner map with
 * that id goes into the outer one at inner_idx when the object loads.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "iproute2_compat.h"

#define INNER_ID 2

struct bpf_elf_map __section("maps") inner = {
	.type = BPF_MAP_TYPE_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u32),
	.max_elem = 1,
	.id = INNER_ID,
	.inner_idx = 1,
};

struct bpf_elf_map __section("maps") outer = {
	.type = BPF_MAP_TYPE_ARRAY_OF_MAPS,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u32),
	.max_elem = 2,
	.inner_id = INNER_ID,
};

/* outer[1] is inner: inner[0] = 77, read back through the outer map; -1 if slot 1 is empty. */
__section("classifier")
int through_outer(void *ctx)
{
	__u32 slot = 1, key = 0, val = 77, *v;
	void *m = bpf_map_lookup_elem(&outer, &slot);

	if (!m)
		return -1;
	bpf_map_update_elem(m, &key, &val, BPF_ANY);
	v = bpf_map_lookup_elem(m, &key);
	return v ? *v : -2;
}

char __license[] __section("license") = "GPL";
