// SPDX-License-Identifier: GPL-2.0
/*
 * A router in tc: bpf_fib_lookup decides the output device without resolving the neighbour
 * (BPF_FIB_LOOKUP_SKIP_NEIGH), then bpf_redirect_neigh sends the packet there and fills the
 * Ethernet header from the neighbour table: IPv4 names the nexthop the lookup found
 * (struct bpf_redir_neigh), IPv6 lets the helper route the packet again. The TTL or hop limit
 * goes down by one (bpf_l3_csum_replace keeps the IPv4 checksum right); rejected destinations
 * are dropped, the rest passes.
 *
 *   tc qdisc add dev in0 clsact
 *   tc filter add dev in0 ingress bpf da obj tc_router.o sec tc
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define AF_INET 2
#define AF_INET6 10
#define IP_TTL_OFF (ETH_HLEN + __builtin_offsetof(struct iphdr, ttl))
#define IP_CSUM_OFF (ETH_HLEN + __builtin_offsetof(struct iphdr, check))
#define IP6_HOPLIMIT_OFF (ETH_HLEN + __builtin_offsetof(struct ipv6hdr, hop_limit))

SEC("tc")
int tc_router(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *data_end = (void *)(long)skb->data_end;
	struct bpf_fib_lookup fib = {};
	struct ethhdr *eth = data;
	__u16 old_ttl, new_ttl;
	long rc;

	if ((void *)(eth + 1) > data_end)
		return TC_ACT_OK;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = (void *)(eth + 1);

		if ((void *)(iph + 1) > data_end || iph->ttl <= 1)
			return TC_ACT_OK;
		fib.family = AF_INET;
		fib.tos = iph->tos;
		fib.l4_protocol = iph->protocol;
		fib.ipv4_src = iph->saddr;
		fib.ipv4_dst = iph->daddr;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6h = (void *)(eth + 1);

		if ((void *)(ip6h + 1) > data_end || ip6h->hop_limit <= 1)
			return TC_ACT_OK;
		fib.family = AF_INET6;
		fib.l4_protocol = ip6h->nexthdr;
		__builtin_memcpy(fib.ipv6_src, &ip6h->saddr, sizeof(fib.ipv6_src));
		__builtin_memcpy(fib.ipv6_dst, &ip6h->daddr, sizeof(fib.ipv6_dst));
	} else {
		return TC_ACT_OK;
	}
	fib.ifindex = skb->ingress_ifindex;

	rc = bpf_fib_lookup(skb, &fib, sizeof(fib), BPF_FIB_LOOKUP_SKIP_NEIGH);
	if (rc == BPF_FIB_LKUP_RET_BLACKHOLE || rc == BPF_FIB_LKUP_RET_UNREACHABLE ||
	    rc == BPF_FIB_LKUP_RET_PROHIBIT)
		return TC_ACT_SHOT;
	if (rc != BPF_FIB_LKUP_RET_SUCCESS)
		return TC_ACT_OK;

	if (fib.family == AF_INET) {
		struct bpf_redir_neigh nh = { .nh_family = AF_INET, .ipv4_nh = fib.ipv4_dst };
		__u8 ttl;

		if (bpf_skb_load_bytes(skb, IP_TTL_OFF, &ttl, 1))
			return TC_ACT_OK;
		/* the TTL is the high byte of its 16-bit checksum word, the protocol the low */
		old_ttl = bpf_htons((__u16)ttl << 8);
		new_ttl = bpf_htons((__u16)(ttl - 1) << 8);
		bpf_l3_csum_replace(skb, IP_CSUM_OFF, old_ttl, new_ttl, 2);
		ttl--;
		bpf_skb_store_bytes(skb, IP_TTL_OFF, &ttl, 1, 0);
		return bpf_redirect_neigh(fib.ifindex, &nh, sizeof(nh), 0);
	}
	{
		__u8 hop;

		if (bpf_skb_load_bytes(skb, IP6_HOPLIMIT_OFF, &hop, 1))
			return TC_ACT_OK;
		hop--;
		bpf_skb_store_bytes(skb, IP6_HOPLIMIT_OFF, &hop, 1, 0);
	}
	return bpf_redirect_neigh(fib.ifindex, NULL, 0, 0);
}

char _license[] SEC("license") = "GPL";
