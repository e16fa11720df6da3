// SPDX-License-Identifier: GPL-2.0
/*
 * Let every packet go on: the smallest XDP program (XDP_PASS) and the smallest tc program
 * (TC_ACT_OK), whose runs cost what running a program costs around its code (netbpf bench jit
 * takes them from the other programs' times to show what their own code costs).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("tc")
int tc_pass(struct __sk_buff *skb)
{
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
