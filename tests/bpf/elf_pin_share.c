// SPDX-License-Identifier: GPL-2.0
/* Shares `counters` with elf_iproute2.o through PIN_GLOBAL_NS: the same definition, one map. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "iproute2_compat.h"

struct bpf_elf_map __section("maps") counters = {
	.type = BPF_MAP_TYPE_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u64),
	.max_elem = 4,
	.pinning = PIN_GLOBAL_NS,
};

/* Returns counters[0], as elf_iproute2.o's cls_main left it. */
__section("classifier")
int read_counter(void *ctx)
{
	__u32 slot = 0;
	__u64 *v = bpf_map_lookup_elem(&counters, &slot);

	return v ? *v : -1;
}

char __license[] __section("license") = "GPL";
