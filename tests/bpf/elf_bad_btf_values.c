// SPDX-License-Identifier: GPL-2.0
/* Bad input: `values` of programs on a hash map, not a program array. The loader must refuse it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int target(void *ctx)
{
	return 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, int (void *));
} not_prog_array SEC(".maps") = {
	.values = { [0] = (void *)&target },
};

char _license[] SEC("license") = "GPL";
