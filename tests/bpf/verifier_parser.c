// SPDX-License-Identifier: GPL-2.0
/*
 * A packet parser as real XDP programs write it, for the verifier's cost on clang output:
 * Ethernet with up to two VLAN tags, IPv4 (options skipped by ihl) or IPv6 with up to four
 * extension headers, then TCP or UDP ports, counted per protocol in a per-CPU array and per
 * flow in a hash map. Every header read is bounds-checked against data_end.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/in.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

struct flow {
	__u32 saddr, daddr;
	__u16 sport, dport;
	__u8 proto, pad[3];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} proto_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct flow);
	__type(value, __u64);
} flow_bytes SEC(".maps");

static __always_inline int count(__u32 proto)
{
	__u64 *c = bpf_map_lookup_elem(&proto_count, &proto);

	if (c)
		*c += 1;
	return 0;
}

SEC("xdp")
int parse(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct flow f = {};
	__u16 proto;
	__u64 off, *bytes, len = end - data;
	__u8 nexthdr;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	proto = eth->h_proto;
	off = sizeof(*eth);
#pragma unroll
	for (int i = 0; i < 2; i++) {
		struct vlan_hdr *vh = data + off;

		if (proto != bpf_htons(ETH_P_8021Q) && proto != bpf_htons(ETH_P_8021AD))
			break;
		if ((void *)(vh + 1) > end)
			return XDP_DROP;
		proto = vh->proto;
		off += sizeof(*vh);
	}
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = data + off;

		if ((void *)(ip + 1) > end)
			return XDP_DROP;
		if (ip->ihl < 5)
			return XDP_DROP;
		f.saddr = ip->saddr;
		f.daddr = ip->daddr;
		nexthdr = ip->protocol;
		off += ip->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = data + off;

		if ((void *)(ip6 + 1) > end)
			return XDP_DROP;
		f.saddr = ip6->saddr.in6_u.u6_addr32[3];
		f.daddr = ip6->daddr.in6_u.u6_addr32[3];
		nexthdr = ip6->nexthdr;
		off += sizeof(*ip6);
#pragma unroll
		for (int i = 0; i < 4; i++) {
			__u8 *opt = data + off;

			if (nexthdr != IPPROTO_HOPOPTS && nexthdr != IPPROTO_ROUTING &&
			    nexthdr != IPPROTO_DSTOPTS)
				break;
			if ((void *)(opt + 2) > end)
				return XDP_DROP;
			nexthdr = opt[0];
			off += (opt[1] + 1) * 8;
		}
	} else {
		count(255);
		return XDP_PASS;
	}
	f.proto = nexthdr;
	if (off > 1500)
		return XDP_DROP;
	if (nexthdr == IPPROTO_TCP) {
		struct tcphdr *th = data + off;

		if ((void *)(th + 1) > end)
			return XDP_DROP;
		f.sport = th->source;
		f.dport = th->dest;
		if (th->syn && !th->ack)
			count(254);
	} else if (nexthdr == IPPROTO_UDP) {
		struct udphdr *uh = data + off;

		if ((void *)(uh + 1) > end)
			return XDP_DROP;
		f.sport = uh->source;
		f.dport = uh->dest;
	}
	count(nexthdr);
	bytes = bpf_map_lookup_elem(&flow_bytes, &f);
	if (bytes) {
		__sync_fetch_and_add(bytes, len);
	} else {
		bpf_map_update_elem(&flow_bytes, &f, &len, BPF_NOEXIST);
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
