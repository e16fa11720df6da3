// SPDX-License-Identifier: GPL-2.0
/*
 * Flood: a copy of every frame to each device in a devmap_hash, except the one it came in on
 * (BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS), as a learning-free bridge floods.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 32);
	__type(key, __u32);
	__type(value, __u32);
} flood_ports SEC(".maps");

SEC("xdp")
int xdp_broadcast(struct xdp_md *ctx)
{
	return bpf_redirect_map(&flood_ports, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

char _license[] SEC("license") = "GPL";
