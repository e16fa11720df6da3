// SPDX-License-Identifier: GPL-2.0
/*
 * Cilium's CILIUM_PIN_REPLACE in a BTF map definition: pinned by name, a fresh map replacing
 * the one pinned before once the object loaded (libbpf itself knows only LIBBPF_PIN_BY_NAME).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CILIUM_PIN_REPLACE (1 << 4)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
	__uint(pinning, CILIUM_PIN_REPLACE);
} replaced SEC(".maps");

/* replaced[0], or -1 when the map has no element 0 (never: an array). */
SEC("socket")
int read_replaced(void *ctx)
{
	__u32 zero = 0, *v = bpf_map_lookup_elem(&replaced, &zero);

	return v ? *v : -1;
}

char LICENSE[] SEC("license") = "GPL";
