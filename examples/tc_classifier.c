// SPDX-License-Identifier: GPL-2.0
/*
 * The protocol classifier of the "cls_bpf: introduce integrated actions" patch, for direct action
 * mode: ARP goes to class 1, IPv4 to class 2, IPv6 to class 3 (through skb->tc_classid, which the
 * filter combines with the major of its own classid), anything else is dropped.
 *
 *   tc filter add dev X ingress bpf da obj tc_classifier.o sec classifier classid 1:0
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

SEC("classifier")
int cls_main(struct __sk_buff *skb)
{
	switch (skb->protocol) {
	case bpf_htons(ETH_P_ARP):
		skb->tc_classid = 1;
		return TC_ACT_OK;
	case bpf_htons(ETH_P_IP):
		skb->tc_classid = 2;
		return TC_ACT_OK;
	case bpf_htons(ETH_P_IPV6):
		skb->tc_classid = 3;
		return TC_ACT_OK;
	default:
		return TC_ACT_SHOT;
	}
}

char _license[] SEC("license") = "GPL";
