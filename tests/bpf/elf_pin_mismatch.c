// SPDX-License-Identifier: GPL-2.0
/* Pins `counters` with 8 entries where elf_iproute2.o pins 4: the second load is refused. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "iproute2_compat.h"

struct bpf_elf_map __section("maps") counters = {
	.type = BPF_MAP_TYPE_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u64),
	.max_elem = 8,
	.pinning = PIN_GLOBAL_NS,
};

__section("classifier")
int touch(void *ctx)
{
	__u32 slot = 0;

	return bpf_map_lookup_elem(&counters, &slot) ? 1 : 0;
}

char __license[] __section("license") = "GPL";
