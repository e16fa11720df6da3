// SPDX-License-Identifier: GPL-2.0
/* Bad input: a .maps definition with a field libbpf does not know. The loader must refuse it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
	__uint(frobnicate, 1);
} weird SEC(".maps");

char _license[] SEC("license") = "GPL";
