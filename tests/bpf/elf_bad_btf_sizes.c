// SPDX-License-Identifier: GPL-2.0
/* Bad input: key given as an 8-byte type and as key_size 4. The loader must refuse it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u64);
	__uint(key_size, 4);
	__type(value, __u32);
} two_sizes SEC(".maps");

char _license[] SEC("license") = "GPL";
