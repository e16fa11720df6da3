// SPDX-License-Identifier: GPL-2.0
/* Bad input: a hash map whose key_size is 0. The loader must refuse it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__uint(key_size, 0);
	__type(value, __u32);
} zero_key SEC(".maps");

char _license[] SEC("license") = "GPL";
