// SPDX-License-Identifier: GPL-2.0
/*
 * BTF maps libbpf loads that a stricter reading refuses: a hash of maps with 20-byte keys whose
 * `values` are declared and left empty (filled by userspace), and a map its tool sizes before
 * load (max_entries 0).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct flow {
	__u32 addr[4];
	__u32 port;
};

struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__type(key, struct flow);
	__uint(max_entries, 16);
	__array(values, struct inner);
} by_flow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
} sized_by_tool SEC(".maps");

SEC("socket")
int lookup(void *ctx)
{
	struct flow f = { .port = 80 };
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&sized_by_tool, &zero);

	if (n)
		*n += 1;
	return bpf_map_lookup_elem(&by_flow, &f) ? 1 : 0;
}

/* The same count from XDP and tc, for the max-entries words of ip and tc. */
SEC("xdp")
int count_xdp(struct xdp_md *ctx)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&sized_by_tool, &zero);

	if (n)
		*n += 1;
	return XDP_PASS;
}

SEC("tc")
int count_tc(struct __sk_buff *skb)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&sized_by_tool, &zero);

	if (n)
		*n += 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
