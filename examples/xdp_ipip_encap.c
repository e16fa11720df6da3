// SPDX-License-Identifier: GPL-2.0
/*
 * IPIP encapsulation with bpf_xdp_adjust_head: IPv4 frames get an outer IPv4 header (protocol
 * 4) from tunnel_src to tunnel_dst, with its checksum, and leave again through the receiving
 * device (XDP_TX); other frames pass.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

volatile const __u32 tunnel_src = 0x0a000001;	/* 10.0.0.1, host order */
volatile const __u32 tunnel_dst = 0x0a000002;	/* 10.0.0.2 */

static __always_inline __u16 csum_fold(__u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

SEC("xdp")
int xdp_ipip_encap(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data, *new_eth;
	struct iphdr *inner, *outer;
	__u16 inner_len;
	__u32 sum = 0;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	inner = (void *)(eth + 1);
	if ((void *)(inner + 1) > data_end)
		return XDP_PASS;
	inner_len = bpf_ntohs(inner->tot_len);

	if (bpf_xdp_adjust_head(ctx, -(int)sizeof(struct iphdr)))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	new_eth = data;
	eth = data + sizeof(struct iphdr);
	outer = (void *)(new_eth + 1);
	if ((void *)(outer + 1) > data_end || (void *)(eth + 1) > data_end)
		return XDP_DROP;

	__builtin_memcpy(new_eth->h_dest, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(new_eth->h_source, eth->h_source, ETH_ALEN);
	new_eth->h_proto = bpf_htons(ETH_P_IP);

	outer->version = 4;
	outer->ihl = sizeof(struct iphdr) / 4;
	outer->tos = 0;
	outer->tot_len = bpf_htons(inner_len + sizeof(struct iphdr));
	outer->id = 0;
	outer->frag_off = 0;
	outer->ttl = 64;
	outer->protocol = IPPROTO_IPIP;
	outer->check = 0;
	outer->saddr = bpf_htonl(tunnel_src);
	outer->daddr = bpf_htonl(tunnel_dst);
	for (int i = 0; i < (int)sizeof(struct iphdr) / 2; i++)
		sum += ((__u16 *)outer)[i];
	outer->check = csum_fold(sum);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
