// SPDX-License-Identifier: GPL-2.0
/*
 * A devmap egress program: it runs when a redirected frame leaves through a devmap entry, with
 * egress_ifindex set, and writes that device's MAC (from egress_macs) as the source address.
 * A device without a MAC in the map drops the frame. The "xdp" program feeds the devmap.
 *
 *   devmap value: { .ifindex = OUT, .bpf_prog.fd = id of xdp_devmap_smac }
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct mac {
	unsigned char addr[ETH_ALEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct mac);
} egress_macs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} out_ports SEC(".maps");

SEC("xdp")
int xdp_to_port0(struct xdp_md *ctx)
{
	return bpf_redirect_map(&out_ports, 0, 0);
}

SEC("xdp/devmap")
int xdp_devmap_smac(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u32 ifindex = ctx->egress_ifindex;
	struct mac *mac;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	mac = bpf_map_lookup_elem(&egress_macs, &ifindex);
	if (!mac)
		return XDP_DROP;
	__builtin_memcpy(eth->h_source, mac->addr, ETH_ALEN);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
