// SPDX-License-Identifier: GPL-2.0
/*
 * Global data of a static variable only (.bss) beside a global one (.data): libbpf makes only
 * the second BPF_F_MMAPABLE (a skeleton reaches global variables alone), and names both after
 * the object, cut to 8 characters (elf_stat.bss, elf_stat.data).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __u64 hits;
__u32 seen = 1;

SEC("socket")
int count_hits(void *ctx)
{
	hits++;
	seen++;
	return hits;
}

char _license[] SEC("license") = "GPL";
