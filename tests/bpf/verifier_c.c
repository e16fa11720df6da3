// SPDX-License-Identifier: GPL-2.0
/*
 * The clang-compiled part of the verifier corpus: programs as people write them, each a case
 * of tests/kernel/verifier_cases.c with the kernel's verdict. Programs named ok_* are
 * accepted by the kernel; bad_* are rejected, each for the one mistake its comment names.
 */
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

struct counters {
	__u64 packets;
	__u64 bytes;
	__u32 slots[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct counters);
} by_proto SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct counters);
} by_slot SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

__u64 xdp_seen;

unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");

/* The packet's layer-4 protocol, or -1 when the headers are cut short. */
static __always_inline int l4_proto(void *data, void *data_end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip;

	if ((void *)(eth + 1) > data_end)
		return -1;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return 0;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > data_end)
		return -1;
	return ip->protocol;
}

SEC("tc")
int ok_tc_count_by_proto(struct __sk_buff *skb)
{
	__u32 proto = l4_proto((void *)(long)skb->data, (void *)(long)skb->data_end);
	struct counters *c = bpf_map_lookup_elem(&by_proto, &proto);

	if (!c) {
		struct counters zero = {};

		bpf_map_update_elem(&by_proto, &proto, &zero, BPF_NOEXIST);
		return TC_ACT_OK;
	}
	__sync_fetch_and_add(&c->packets, 1);
	__sync_fetch_and_add(&c->bytes, skb->len);
	return TC_ACT_OK;
}

SEC("tc")
int ok_tc_tcp_ports(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct tcphdr *tcp;

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    ip->protocol != IPPROTO_TCP)
		return TC_ACT_OK;
	tcp = (void *)ip + ip->ihl * 4;
	if ((void *)(tcp + 1) > data_end)
		return TC_ACT_OK;
	return tcp->dest == bpf_htons(22) ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("xdp")
int ok_xdp_ipv6_udp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6 = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip6 + 1);

	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IPV6) || ip6->nexthdr != IPPROTO_UDP)
		return XDP_PASS;
	return udp->dest == bpf_htons(53) ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int ok_xdp_vlan_loop(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	void *cursor = eth + 1;
	__be16 proto;
	int i;

	if (cursor > data_end)
		return XDP_DROP;
	proto = eth->h_proto;
	for (i = 0; i < 2; i++) {
		struct vlan_hdr *vlan = cursor;

		if (proto != bpf_htons(ETH_P_8021Q) && proto != bpf_htons(ETH_P_8021AD))
			break;
		if ((void *)(vlan + 1) > data_end)
			return XDP_DROP;
		proto = vlan->proto;
		cursor = vlan + 1;
	}
	return proto == bpf_htons(ETH_P_ARP) ? XDP_DROP : XDP_PASS;
}

/* Walks IPv4 options with a bounded loop: each step re-checks the packet end. */
SEC("tc")
int ok_tc_ip_options_loop(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *data_end = (void *)(long)skb->data_end;
	struct iphdr *ip = data + sizeof(struct ethhdr);
	__u8 *opt = (void *)(ip + 1);
	int i, found = 0;

	if ((void *)(ip + 1) > data_end)
		return TC_ACT_OK;
	for (i = 0; i < 10; i++) {
		if ((void *)(opt + 2) > data_end)
			break;
		if (opt[0] == 0)
			break;
		if (opt[0] == 7)
			found = 1;
		if (opt[0] == 1) {
			opt += 1;
			continue;
		}
		if (opt[1] < 2)
			break;
		opt += opt[1] & 0x3f;
	}
	return found ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("xdp")
int ok_xdp_swap_macs(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char tmp[ETH_ALEN];

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
	__sync_fetch_and_add(&xdp_seen, 1);
	return XDP_TX;
}

SEC("socket")
int ok_sf_ld_abs_ipv4_tcp(struct __sk_buff *skb)
{
	if (load_byte(skb, 12) != 0x08 || load_byte(skb, 13) != 0x00)
		return 0;
	return load_byte(skb, ETH_HLEN + offsetof(struct iphdr, protocol)) == IPPROTO_TCP ?
		       skb->len : 0;
}

SEC("socket")
int ok_sf_load_bytes(struct __sk_buff *skb)
{
	struct ethhdr eth;

	if (bpf_skb_load_bytes(skb, 0, &eth, sizeof(eth)) < 0)
		return 0;
	return eth.h_proto == bpf_htons(ETH_P_ARP) ? skb->len : 0;
}

SEC("tc")
int ok_tc_ringbuf_event(struct __sk_buff *skb)
{
	__u32 *ev = bpf_ringbuf_reserve(&events, sizeof(*ev) * 2, 0);

	if (!ev)
		return TC_ACT_OK;
	ev[0] = skb->len;
	ev[1] = skb->ifindex;
	if (skb->len > 1500)
		bpf_ringbuf_discard(ev, 0);
	else
		bpf_ringbuf_submit(ev, 0);
	return TC_ACT_OK;
}

static __attribute__((noinline)) int classify_len(__u32 len)
{
	if (len < 64)
		return 0;
	return len < 512 ? 1 : 2;
}

SEC("tc")
int ok_tc_subprog_slot(struct __sk_buff *skb)
{
	__u32 slot = classify_len(skb->len);
	struct counters *c = bpf_map_lookup_elem(&by_slot, &slot);

	if (c)
		c->packets++;
	return TC_ACT_OK;
}

SEC("tc")
int ok_tc_masked_index(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct counters *c = bpf_map_lookup_elem(&by_slot, &key);

	if (!c)
		return TC_ACT_OK;
	c->slots[skb->hash & 7]++;
	return TC_ACT_OK;
}

SEC("tc")
int ok_tc_set_mark(struct __sk_buff *skb)
{
	skb->mark = skb->hash ^ 0x5a5a;
	skb->priority = 3;
	skb->cb[0] = skb->len;
	return TC_ACT_OK;
}

/* The IP header is read without checking that it is in the packet. */
SEC("tc")
int bad_tc_no_bounds_check(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);

	if ((void *)(eth + 1) > data_end)
		return TC_ACT_OK;
	return ip->protocol == IPPROTO_UDP ? TC_ACT_SHOT : TC_ACT_OK;
}

/* The check covers the Ethernet header, the read goes one byte past it. */
SEC("xdp")
int bad_xdp_off_by_one(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	__u8 *bytes = data;

	if (data + ETH_HLEN > data_end)
		return XDP_PASS;
	return bytes[ETH_HLEN] == 0x45 ? XDP_DROP : XDP_PASS;
}

/* The lookup result is used without a null check. */
SEC("tc")
int bad_tc_no_null_check(struct __sk_buff *skb)
{
	__u32 key = skb->protocol;
	struct counters *c = bpf_map_lookup_elem(&by_proto, &key);

	c->packets++;
	return TC_ACT_OK;
}

/* The index into the value comes from the packet and is never bounded. */
SEC("tc")
int bad_tc_unbounded_index(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct counters *c = bpf_map_lookup_elem(&by_slot, &key);

	if (!c)
		return TC_ACT_OK;
	c->slots[skb->hash]++;
	return TC_ACT_OK;
}

/* One path returns without submitting the record. */
SEC("tc")
int bad_tc_ringbuf_leak(struct __sk_buff *skb)
{
	__u32 *ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);

	if (!ev)
		return TC_ACT_OK;
	*ev = skb->len;
	if (skb->len > 1500)
		return TC_ACT_SHOT;
	bpf_ringbuf_submit(ev, 0);
	return TC_ACT_OK;
}

/* tc programs may not change the packet length field. */
SEC("tc")
int bad_tc_write_len(struct __sk_buff *skb)
{
	skb->len = 0;
	return TC_ACT_OK;
}

/* Socket filters have no direct packet access. */
SEC("socket")
int bad_sf_direct_packet(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *data_end = (void *)(long)skb->data_end;

	if (data + 1 > data_end)
		return 0;
	return *(__u8 *)data;
}

/* xdp_md fields are read 4 bytes at a time only. */
SEC("xdp")
int bad_xdp_narrow_ctx_read(struct xdp_md *ctx)
{
	return *(volatile __u16 *)&ctx->ingress_ifindex == 1 ? XDP_DROP : XDP_PASS;
}

/* Socket filters may not redirect. */
SEC("socket")
int bad_sf_redirect(struct __sk_buff *skb)
{
	return bpf_redirect(skb->ifindex, 0);
}

/* The stack buffer is indexed by a value from the packet. */
SEC("tc")
int bad_tc_stack_index(struct __sk_buff *skb)
{
	volatile __u8 buf[16] = {};

	return buf[skb->hash & 31];
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} percpu_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} jump_table SEC(".maps");

struct loop_ctx {
	__u32 sum;
	__u32 len;
};

static long add_step(__u32 i, void *data)
{
	struct loop_ctx *lc = data;

	lc->sum += i * lc->len;
	return lc->sum > 100000;
}

SEC("tc")
int ok_tc_bpf_loop(struct __sk_buff *skb)
{
	struct loop_ctx lc = { .len = skb->len };

	bpf_loop(16, add_step, &lc, 0);
	return lc.sum & 1 ? TC_ACT_SHOT : TC_ACT_OK;
}

static long bad_step(__u32 i, void *data)
{
	return 2;
}

/* A bpf_loop callback returns 0 (go on) or 1 (stop), nothing else. */
SEC("tc")
int bad_tc_bpf_loop_return(struct __sk_buff *skb)
{
	bpf_loop(4, bad_step, NULL, 0);
	return TC_ACT_OK;
}

__attribute__((noinline)) int global_len_class(struct __sk_buff *skb)
{
	if (!skb)
		return 0;
	return skb->len > 1000 ? 2 : 1;
}

SEC("tc")
int ok_tc_global_function(struct __sk_buff *skb)
{
	return global_len_class(skb) == 2 ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("xdp")
int ok_xdp_percpu_count(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&percpu_count, &key);

	if (n)
		*n += 1;
	return XDP_PASS;
}

SEC("xdp")
int ok_xdp_redirect_devmap(struct xdp_md *ctx)
{
	return bpf_redirect_map(&ports, ctx->rx_queue_index & 3, XDP_PASS);
}

SEC("tc")
int ok_tc_tail_call(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jump_table, skb->len & 1);
	return TC_ACT_OK;
}

/* Metadata written in front of the packet after growing the headroom for it. */
SEC("xdp")
int ok_xdp_write_meta(struct xdp_md *ctx)
{
	void *data, *meta;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(__u32)))
		return XDP_PASS;
	data = (void *)(long)ctx->data;
	meta = (void *)(long)ctx->data_meta;
	if (meta + sizeof(__u32) > data)
		return XDP_PASS;
	*(__u32 *)meta = 0xc0ffee;
	return XDP_PASS;
}

/* The header pointer is used after bpf_xdp_adjust_head moved the data. */
SEC("xdp")
int bad_xdp_stale_pointer(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (bpf_xdp_adjust_head(ctx, (int)sizeof(struct ethhdr)))
		return XDP_PASS;
	return eth->h_proto == bpf_htons(ETH_P_IP) ? XDP_DROP : XDP_PASS;
}

SEC("tc")
int ok_tc_pull_then_parse(struct __sk_buff *skb)
{
	void *data, *data_end;
	struct iphdr *ip;

	if (bpf_skb_pull_data(skb, sizeof(struct ethhdr) + sizeof(*ip)))
		return TC_ACT_OK;
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	ip = data + sizeof(struct ethhdr);
	if ((void *)(ip + 1) > data_end)
		return TC_ACT_OK;
	return ip->ttl <= 1 ? TC_ACT_SHOT : TC_ACT_OK;
}

/* Walks up to 8 IPv6 extension headers, each bounded against the packet end. */
SEC("xdp")
int ok_xdp_ipv6_ext_headers(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ipv6hdr *ip6 = data + sizeof(struct ethhdr);
	__u8 *cursor = (void *)(ip6 + 1);
	__u8 next;
	int i;

	if ((void *)(ip6 + 1) > data_end)
		return XDP_PASS;
	next = ip6->nexthdr;
	for (i = 0; i < 8; i++) {
		if (next != IPPROTO_HOPOPTS && next != IPPROTO_ROUTING && next != IPPROTO_DSTOPTS)
			break;
		if ((void *)(cursor + 2) > data_end)
			return XDP_DROP;
		next = cursor[0];
		cursor += (cursor[1] + 1) * 8;
	}
	return next == IPPROTO_TCP ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
