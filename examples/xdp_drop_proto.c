// SPDX-License-Identifier: GPL-2.0
/*
 * Drop every frame and count it by IP protocol (TCP 6, UDP 17, ICMP 1, ...) in a per-CPU array:
 * the classic first XDP program. IPv4 and IPv6 (next header of the fixed header) are parsed;
 * other frames count under protocol 0.
 *
 *   netbpf map dump name proto_count     the per-worker counts
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} proto_count SEC(".maps");

SEC("xdp")
int xdp_drop_proto(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u32 proto = 0;
	__u64 *count;

	if ((void *)(eth + 1) > data_end)
		goto count;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = (void *)(eth + 1);

		if ((void *)(ip + 1) <= data_end)
			proto = ip->protocol;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = (void *)(eth + 1);

		if ((void *)(ip6 + 1) <= data_end)
			proto = ip6->nexthdr;
	}
count:
	count = bpf_map_lookup_elem(&proto_count, &proto);
	if (count)
		*count += 1;
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
