// SPDX-License-Identifier: GPL-2.0
/* The first done-when object: one BTF-defined hash map in .maps, libbpf style. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} m SEC(".maps");

/* First run stores 100 at key 7 and returns 1; every later run adds one and returns it. */
SEC("socket")
int count(void *ctx)
{
	__u32 key = 7;
	__u64 init = 100, *v;

	v = bpf_map_lookup_elem(&m, &key);
	if (!v) {
		bpf_map_update_elem(&m, &key, &init, BPF_ANY);
		return 1;
	}
	*v += 1;
	return *v;
}

char _license[] SEC("license") = "GPL";
