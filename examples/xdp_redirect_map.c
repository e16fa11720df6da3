// SPDX-License-Identifier: GPL-2.0
/*
 * Forward through a devmap: the entry at the receiving device's ifindex names the device to
 * send to (a port map, as the kernel's xdp_redirect_map sample). A device without an entry
 * passes its frames on to the stack (the low flag bits: the verdict on a miss).
 *
 *   map update name tx_port key 7 0 0 0 value 8 0 0 0 0 0 0 0
 *
 * (a script's line, or a command to a netbpf daemon: the frames of ifindex 7 leave by ifindex 8;
 * keys and values are little-endian bytes, the value a struct bpf_devmap_val)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} tx_port SEC(".maps");

SEC("xdp")
int xdp_redirect_map(struct xdp_md *ctx)
{
	return bpf_redirect_map(&tx_port, ctx->ingress_ifindex, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
