// SPDX-License-Identifier: GPL-2.0
/*
 * A program whose every run differs between two engines: a random number (bpf_get_prandom_u32)
 * becomes the return value, the first four bytes of the packet and a map value. tests/cli/diff.sh
 * uses it to see netbpf diff report differences of each kind.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} last SEC(".maps");

SEC("tc")
int random_everything(struct __sk_buff *skb)
{
	__u32 r = bpf_get_prandom_u32(), key = 0;
	__u64 v = r;

	bpf_skb_store_bytes(skb, 0, &r, sizeof(r), 0);
	bpf_map_update_elem(&last, &key, &v, BPF_ANY);
	return r;
}

char _license[] SEC("license") = "GPL";
