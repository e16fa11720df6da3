// SPDX-License-Identifier: GPL-2.0
/*
 * The older libbpf style: struct bpf_map_def (20 bytes) in the `maps` section. libbpf 1.0
 * dropped it, so its definition lives here, as old programs carried it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def_legacy {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_map_def_legacy SEC("maps") arr = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u32),
	.max_entries = 2,
};

struct bpf_map_def_legacy SEC("maps") lru = {
	.type = BPF_MAP_TYPE_LRU_HASH,
	.key_size = sizeof(__u64),
	.value_size = sizeof(__u64),
	.max_entries = 32,
};

/* Writes 9 into arr[1] and returns it read back. */
SEC("xdp")
int legacy_xdp(void *ctx)
{
	__u32 key = 1, val = 9, *v;

	bpf_map_update_elem(&arr, &key, &val, BPF_ANY);
	v = bpf_map_lookup_elem(&arr, &key);
	return v ? *v : 0;
}

char _license[] SEC("license") = "Dual BSD/GPL";
