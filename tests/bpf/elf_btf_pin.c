// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf's pinning in .maps: LIBBPF_PIN_BY_NAME shares `counters` with elf_iproute2.o's
 * PIN_GLOBAL_NS map of the same name and definition, as iproute2 pins both in tc/globals.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} counters SEC(".maps");

/* Adds 100 to counters[3] and returns the new value. */
SEC("classifier")
int add_hundred(void *ctx)
{
	__u32 slot = 3;
	__u64 *v = bpf_map_lookup_elem(&counters, &slot);

	if (!v)
		return -1;
	*v += 100;
	return *v;
}

char _license[] SEC("license") = "GPL";
