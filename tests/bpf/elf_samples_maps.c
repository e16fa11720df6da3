// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel samples' legacy maps (samples/bpf bpf_load.c): struct bpf_load_map_def of 28 bytes,
 * whose maps of maps name their template by position (inner_map_idx) and leave value_size 0,
 * which the samples' loader (bpf_create_map_in_map) makes 4.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_load_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
	unsigned int inner_map_idx;
	unsigned int numa_node;
};

struct bpf_load_map_def SEC("maps") counts = {	/* position 0 */
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 4,
};

struct bpf_load_map_def SEC("maps") inner_tpl = {	/* position 1 */
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u32),
	.max_entries = 1,
};

struct bpf_load_map_def SEC("maps") outer = {
	.type = BPF_MAP_TYPE_ARRAY_OF_MAPS,
	.key_size = sizeof(__u32),
	.max_entries = 2,
	.inner_map_idx = 1,
};

/* outer[0]'s inner[0], or -1 while the slot is empty. */
SEC("socket")
int through_outer(void *ctx)
{
	__u32 slot = 0, key = 0, *v;
	void *m = bpf_map_lookup_elem(&outer, &slot);

	if (!m)
		return -1;
	v = bpf_map_lookup_elem(m, &key);
	return v ? *v : -2;
}

char LICENSE[] SEC("license") = "GPL";
