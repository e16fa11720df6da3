// SPDX-License-Identifier: GPL-2.0
/*
 * Send every frame out of one device with bpf_redirect: the non-map redirect that the bulking
 * patch set moved onto the devmap bulk queues. The target is a read-only global, set before
 * load (netbpf prog load xdp_redirect_ifindex.o --set target_ifindex=N, or libbpf's skeleton).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

volatile const __u32 target_ifindex = 1;

SEC("xdp")
int xdp_redirect_ifindex(struct xdp_md *ctx)
{
	return bpf_redirect(target_ifindex, 0);
}

char _license[] SEC("license") = "GPL";
