// SPDX-License-Identifier: GPL-2.0
/*
 * Everything a run could take from outside, written where the output shows it: the time
 * (bpf_ktime_get_ns) and a random number (bpf_get_prandom_u32) into the first 12 bytes of the
 * packet, the random number as the key of a hash map (whose walk order its random seed
 * decides). The packet then leaves through the device with the next ifindex.
 * tests/cli/deterministic.sh runs it twice with --deterministic SEED: the same bytes both times.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

SEC("tc")
int stamp(struct __sk_buff *skb)
{
	__u64 now = bpf_ktime_get_ns(), one = 1;
	__u32 r = bpf_get_prandom_u32(), key = r % 64;

	bpf_skb_store_bytes(skb, 0, &now, sizeof(now), 0);
	bpf_skb_store_bytes(skb, 8, &r, sizeof(r), 0);
	bpf_map_update_elem(&seen, &key, &one, BPF_ANY);
	return bpf_redirect(skb->ifindex + 1, 0);
}

char _license[] SEC("license") = "GPL";
