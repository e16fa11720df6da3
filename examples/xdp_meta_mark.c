// SPDX-License-Identifier: GPL-2.0
/*
 * Metadata from XDP to tc: the XDP program puts a 4-byte tag in front of the frame
 * (bpf_xdp_adjust_meta) and passes it; the tc ingress program finds it at __sk_buff->data_meta
 * and makes it the packet's mark. The tag is the IPv4 protocol number plus 0x1000 (0x1000 for
 * other frames), so a later tc filter can match on fw marks set in XDP.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_meta_tag(struct xdp_md *ctx)
{
	void *data, *data_end;
	struct ethhdr *eth;
	struct iphdr *ip;
	__u32 *meta, tag = 0x1000;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return XDP_PASS;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > data)
		return XDP_PASS;
	eth = data;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) <= data_end && eth->h_proto == bpf_htons(ETH_P_IP))
		tag += ip->protocol;
	*meta = tag;
	return XDP_PASS;
}

SEC("tc")
int tc_meta_mark(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	__u32 *meta = (void *)(long)skb->data_meta;

	if ((void *)(meta + 1) <= data)
		skb->mark = *meta;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
