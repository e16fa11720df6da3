// SPDX-License-Identifier: GPL-2.0
/*
 * Socket lookups as a tc and an XDP program write them (the kernel's test_sk_lookup_kern.c and
 * test_tcp_check_syncookie_kern.c in small): look a TCP, a UDP and a TCP request socket up, and
 * use what was found (its fields, bpf_sk_fullsock, bpf_tcp_sock, bpf_get_listener_sock, the
 * syncookie helpers, bpf_sk_assign) before releasing it; the same for a socket of a sockmap.
 * The tuple is of TEST-NET addresses no socket is bound to, so the kernel finds none either,
 * and netbpf, which has no sockets, finds none for any tuple. The tc program then reads and
 * uses skb->sk, the socket a test run gives its packet on both. The verdicts and the map of
 * what was found and read must be the same on both, which the diff corpus
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

/*
 * Slot 0: what the tc program found (one bit per lookup), slot 1: the XDP program's; from
 * slot 2 what the tc program read of and did with skb->sk (SK_*).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 + 16);
	__type(key, __u32);
	__type(value, __u64);
} found SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} storage SEC(".maps");

enum {
	SK_PRESENT = 2,
	SK_FAMILY,
	SK_STATE,
	SK_ADDRS,		/* src_ip4 ^ dst_ip4 ^ the last words of the IPv6 ones */
	SK_PORTS,
	SK_FULL_TYPE_PROTO,	/* bpf_sk_fullsock's view: type << 16 | protocol, or ~0 */
	SK_TCP_LISTENER,	/* bpf_tcp_sock and bpf_get_listener_sock found something */
	SK_SYNCOOKIE,
	SK_ASSIGN,
	SK_SOCKMAP_UPDATE,
	SK_STORAGE,		/* get, create, get again, delete, delete again */
};

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

/* The packet's socket: none on netbpf's datapath, the test run's own in a test run. */
static __always_inline void use_skb_sk(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk, *full;
	__u64 v = 7, *val, st = 0;
	__u32 key = 0;

	if (!sk)
		return;
	record(SK_PRESENT, 1);
	record(SK_FAMILY, sk->family);
	record(SK_STATE, sk->state);
	record(SK_ADDRS, sk->src_ip4 ^ sk->dst_ip4 ^ sk->src_ip6[3] ^ sk->dst_ip6[3]);
	record(SK_PORTS, sk->src_port << 16 | sk->dst_port);
	full = bpf_sk_fullsock(sk);
	record(SK_FULL_TYPE_PROTO, full ? full->type << 16 | full->protocol : ~0ULL);
	record(SK_TCP_LISTENER, (bpf_tcp_sock(sk) ? 1 : 0) | (bpf_get_listener_sock(sk) ? 2 : 0));
	record(SK_SYNCOOKIE, (__u32)syncookie(sk));
	record(SK_ASSIGN, (__u32)bpf_sk_assign(skb, sk, 0) << 8 | (__u8)bpf_sk_assign(skb, sk, 1));
	record(SK_SOCKMAP_UPDATE, (__u32)bpf_map_update_elem(&sockets, &key, sk, BPF_ANY));
	val = bpf_sk_storage_get(&storage, sk, 0, 0);
	st |= val ? 1 : 0;
	val = bpf_sk_storage_get(&storage, sk, &v, BPF_SK_STORAGE_GET_F_CREATE);
	if (val) {
		st |= *val << 8;
		*val += 1;
	}
	val = bpf_sk_storage_get(&storage, sk, 0, 0);
	if (val)
		st |= *val << 16;
	st |= (__u64)(__u8)bpf_sk_storage_delete(&storage, sk) << 24;
	st |= (__u64)(__u8)bpf_sk_storage_delete(&storage, sk) << 32;
	record(SK_STORAGE, st);
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
	use_skb_sk(skb);
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
