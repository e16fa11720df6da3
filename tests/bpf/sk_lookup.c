// SPDX-License-Identifier: GPL-2.0
/*
 * Socket lookups as a tc and an XDP program write them (the kernel's test_sk_lookup_kern.c and
 * test_tcp_check_syncookie_kern.c in small): look a TCP, a UDP and a TCP request socket up, and
 * use what was found (its fields, bpf_sk_fullsock, bpf_tcp_sock, bpf_get_listener_sock, the
 * syncookie helpers, bpf_sk_assign) before releasing it; the same for a socket of a sockmap.
 * The tuple is of TEST-NET addresses no socket is bound to, so the kernel finds none either,
 * and netbpf, which has no sockets, finds none for any tuple: the verdict (TC_ACT_OK, XDP_PASS)
 * and the map of what was found (all zero) are the same on both, which the diff corpus
 * (tests/kernel/test_diff_kernel.c) checks.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} sockets SEC(".maps");

/* Slot 0: what the tc program found (one bit per lookup), slot 1: the XDP program's. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} found SEC(".maps");

enum {
	FOUND_TCP = 1,
	FOUND_UDP = 2,
	FOUND_SKC = 4,
	FOUND_SOCKMAP = 8,
};

static __always_inline void tuple_init(struct bpf_sock_tuple *t)
{
	__builtin_memset(t, 0, sizeof(*t));
	t->ipv4.saddr = bpf_htonl(0xc0000201);	/* 192.0.2.1 */
	t->ipv4.daddr = bpf_htonl(0xc0000202);	/* 192.0.2.2 */
	t->ipv4.sport = bpf_htons(4);
	t->ipv4.dport = bpf_htons(4);
}

static __always_inline void record(__u32 slot, __u64 bits)
{
	__u64 *v = bpf_map_lookup_elem(&found, &slot);

	if (v)
		*v |= bits;
}

/* A syncookie for a SYN of 192.0.2.1 to 192.0.2.2, asked of a listening socket. */
static __always_inline __s64 syncookie(struct bpf_sock *sk)
{
	struct iphdr iph = { .version = 4, .ihl = 5, .protocol = IPPROTO_TCP };
	struct tcphdr th = { .doff = 5, .syn = 1 };

	iph.saddr = bpf_htonl(0xc0000201);
	iph.daddr = bpf_htonl(0xc0000202);
	if (bpf_tcp_check_syncookie(sk, &iph, sizeof(iph), &th, sizeof(th)) == 0)
		return 1;
	return bpf_tcp_gen_syncookie(sk, &iph, sizeof(iph), &th, sizeof(th));
}

SEC("tc")
int tc_sk_lookup(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t;
	struct bpf_sock *sk, *full, *listener;
	struct bpf_tcp_sock *tp;
	__u32 key = 0;
	__u64 bits = 0;

	tuple_init(&t);
	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (sk) {
		bits |= FOUND_TCP;
		full = bpf_sk_fullsock(sk);
		tp = bpf_tcp_sock(sk);
		listener = bpf_get_listener_sock(sk);
		if (full && full->state == 10 && tp && tp->snd_cwnd && listener)
			bpf_sk_assign(skb, sk, 0);
		bpf_sk_release(sk);
	}
	sk = bpf_sk_lookup_udp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (sk) {
		bits |= FOUND_UDP;
		bpf_sk_release(sk);
	}
	sk = bpf_skc_lookup_tcp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (sk) {
		bits |= FOUND_SKC;
		if (sk->family == 2 && syncookie(sk) > 0)
			bits |= FOUND_SKC << 8;
		bpf_sk_release(sk);
	}
	sk = bpf_map_lookup_elem(&sockets, &key);
	if (sk) {
		bits |= FOUND_SOCKMAP;
		bpf_sk_release(sk);
	}
	record(0, bits);
	return bits ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("xdp")
int xdp_sk_lookup(struct xdp_md *ctx)
{
	struct bpf_sock_tuple t;
	struct bpf_sock *sk;
	__u32 key = 1;
	__u64 bits = 0;

	tuple_init(&t);
	sk = bpf_skc_lookup_tcp(ctx, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (sk) {
		bits |= FOUND_SKC;
		if (sk->state == 10 && syncookie(sk) > 0)
			bits |= FOUND_SKC << 8;
		bpf_sk_release(sk);
	}
	sk = bpf_sk_lookup_tcp(ctx, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (sk) {
		bits |= FOUND_TCP;
		bpf_sk_release(sk);
	}
	sk = bpf_sk_lookup_udp(ctx, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (sk) {
		bits |= FOUND_UDP;
		bpf_sk_release(sk);
	}
	sk = bpf_map_lookup_elem(&sockets, &key);
	if (sk) {
		bits |= FOUND_SOCKMAP;
		bpf_sk_release(sk);
	}
	record(1, bits);
	return bits ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
