// SPDX-License-Identifier: GPL-2.0
/*
 * An IPv4 and IPv6 router in XDP, in the manner of the kernel's xdp_fwd sample: the routing
 * decision is the kernel's (bpf_fib_lookup over `ip route` and `ip neigh`), the frame leaves
 * through a devmap holding the devices it may leave by. A frame that forwards has its TTL or hop
 * limit decremented (the IPv4 checksum updated) and its MACs from the lookup; a destination the
 * routes reject is dropped; anything else (a local address, no neighbour yet, TTL 1, a device
 * not in tx_ports, other protocols) goes up the stack. fib_results counts the lookups' return
 * codes (per worker), so that a run shows why frames went where they went.
 *
 *   ip link set dev in0 xdp obj xdp_router.o sec xdp
 *   map update name tx_ports key 2 0 0 0 value 2 0 0 0 0 0 0 0   (per output device: ifindex 2)
 *   sysctl -w net.ipv4.conf.in0.forwarding=1
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define AF_INET 2
#define AF_INET6 10

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} tx_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} fib_results SEC(".maps");

/* TTL minus one, the checksum adjusted for it as RFC 1624 does (ip_decrease_ttl). */
static __always_inline void ipv4_decrease_ttl(struct iphdr *iph)
{
	__u32 check = iph->check;

	check += bpf_htons(0x0100);
	iph->check = (__u16)(check + (check >= 0xffff));
	iph->ttl--;
}

static __always_inline void count(long rc)
{
	__u32 key = rc < 0 ? 15 : (__u32)rc & 15;
	__u64 *n = bpf_map_lookup_elem(&fib_results, &key);

	if (n)
		(*n)++;
}

SEC("xdp")
int xdp_router(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct bpf_fib_lookup fib = {};
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6h;
	struct iphdr *iph;
	long rc;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	/*
	 * The IP header's pointers are taken again below, by protocol: the kernel's verifier
	 * does not take a packet pointer for non-NULL, so "iph ? ... : ip6h ..." would not load.
	 */
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		iph = (void *)(eth + 1);
		if ((void *)(iph + 1) > data_end || iph->ttl <= 1)
			return XDP_PASS;
		fib.family = AF_INET;
		fib.tos = iph->tos;
		fib.l4_protocol = iph->protocol;
		fib.tot_len = bpf_ntohs(iph->tot_len);
		fib.ipv4_src = iph->saddr;
		fib.ipv4_dst = iph->daddr;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		ip6h = (void *)(eth + 1);
		if ((void *)(ip6h + 1) > data_end || ip6h->hop_limit <= 1)
			return XDP_PASS;
		fib.family = AF_INET6;
		fib.flowinfo = *(__be32 *)ip6h & bpf_htonl(0x0fffffff);
		fib.l4_protocol = ip6h->nexthdr;
		fib.tot_len = bpf_ntohs(ip6h->payload_len) + sizeof(*ip6h);
		__builtin_memcpy(fib.ipv6_src, &ip6h->saddr, sizeof(fib.ipv6_src));
		__builtin_memcpy(fib.ipv6_dst, &ip6h->daddr, sizeof(fib.ipv6_dst));
	} else {
		return XDP_PASS;
	}
	fib.ifindex = ctx->ingress_ifindex;

	rc = bpf_fib_lookup(ctx, &fib, sizeof(fib), 0);
	count(rc);
	switch (rc) {
	case BPF_FIB_LKUP_RET_SUCCESS:
		break;
	case BPF_FIB_LKUP_RET_BLACKHOLE:
	case BPF_FIB_LKUP_RET_UNREACHABLE:
	case BPF_FIB_LKUP_RET_PROHIBIT:
		return XDP_DROP;
	default:
		return XDP_PASS;
	}
	/* only out of the devices the devmap names */
	if (!bpf_map_lookup_elem(&tx_ports, &fib.ifindex))
		return XDP_PASS;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		iph = (void *)(eth + 1);
		if ((void *)(iph + 1) > data_end)
			return XDP_PASS;
		ipv4_decrease_ttl(iph);
	} else {
		ip6h = (void *)(eth + 1);
		if ((void *)(ip6h + 1) > data_end)
			return XDP_PASS;
		ip6h->hop_limit--;
	}
	__builtin_memcpy(eth->h_dest, fib.dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, fib.smac, ETH_ALEN);
	return bpf_redirect_map(&tx_ports, fib.ifindex, 0);
}

char _license[] SEC("license") = "GPL";
