// SPDX-License-Identifier: GPL-2.0
/*
 * A hash map of 2^20 elements pinned at tc/globals/big, and a classifier that counts into it:
 * the map `make bench` (bench/control.c) updates through a daemon, one element and in batches.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1 << 20);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} big SEC(".maps");

SEC("tc")
int count(struct __sk_buff *skb)
{
	__u32 key = skb->len;
	__u64 *v = bpf_map_lookup_elem(&big, &key);

	if (v)
		__sync_fetch_and_add(v, 1);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
