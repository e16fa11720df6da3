// SPDX-License-Identifier: GPL-2.0
/*
 * An iproute2-style object (struct bpf_elf_map in "maps") that also has global data: a
 * read-only table in .rodata, a counter with an initial value in .data and one in .bss. libbpf
 * 1.x cannot open it, so netbpf diff loads its kernel side from netbpf's reading
 * (src/kcompare/kernel_object.c), which must copy the initial images and freeze .rodata: a .data
 * that started from zero in the kernel would change every return value.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "iproute2_compat.h"

struct bpf_elf_map __section("maps") hits = {
	.type = BPF_MAP_TYPE_HASH,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u64),
	.max_elem = 16,
};

static const volatile __u32 weights[4] = { 3, 5, 7, 11 };
__u64 total = 100;
__u32 runs;

/* Adds the weight of len % 4 to total and to hits[len % 4]; TC_ACT_OK or SHOT by total's parity. */
__section("classifier")
int weigh(struct __sk_buff *skb)
{
	__u32 k = skb->len & 3;
	__u64 w = weights[k], *v = bpf_map_lookup_elem(&hits, &k);

	total += w;
	runs++;
	if (v)
		*v += w;
	else
		bpf_map_update_elem(&hits, &k, &w, BPF_ANY);
	return total & 1 ? 0 : 2;
}

char __license[] __section("license") = "GPL";
