// SPDX-License-Identifier: GPL-2.0
/*
 * Maps of kernel objects netbpf has none of (sockets, cgroups) beside an XSKMAP, as objects built
 * for the kernel declare them: they load, stay empty, and the programs that use them run as on
 * the kernel: bpf_skb_under_cgroup finds no cgroup, a redirect by queue into the XSKMAP finds
 * no socket and falls back to XDP_PASS (libxdp's default program).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} socks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SOCKHASH);
	__uint(max_entries, 4);
	__type(key, __u64);
	__type(value, __u32);
} socks_by_cookie SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} per_socket SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} cgroups SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

/* -ENOENT for a packet without a socket, -EAGAIN for an empty slot, -E2BIG past the array. */
SEC("tc")
int under_cgroup(struct __sk_buff *skb)
{
	int in = bpf_skb_under_cgroup(skb, &cgroups, 0);
	int past = bpf_skb_under_cgroup(skb, &cgroups, 7);

	skb->mark = (__u32)past;
	return in;
}

SEC("xdp")
int to_socket(struct xdp_md *ctx)
{
	return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS);
}

char LICENSE[] SEC("license") = "GPL";
