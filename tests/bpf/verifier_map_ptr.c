// SPDX-License-Identifier: GPL-2.0
/*
 * A read of struct bpf_map through a map pointer (tests/cli/prog_verify.sh): 8 bytes at its
 * start, a field on every kernel that allows such reads (ops until Linux 6.17, the map's sha
 * since), so that the program verifies wherever the kernel's BTF is there to check it, and is
 * refused, saying why, where it is not.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

SEC("tc")
__attribute__((naked)) int read_map_struct(void)
{
	asm volatile ("r1 = %[counters] ll;"
		      "r0 = *(u64 *)(r1 + 0);"
		      "r0 = %[ok];"
		      "exit;"
		      :
		      : [counters] "i"(&counters), [ok] "i"(TC_ACT_OK)
		      : "r0", "r1");
}

char _license[] SEC("license") = "GPL";
