// SPDX-License-Identifier: GPL-2.0
/*
 * The program embed.c loads: a tc direct-action classifier that counts every frame and its bytes
 * and sends it out of the device whose ifindex its loader sets before load (out_ifindex).
 *
 *   clang -O2 -g -target bpf -c count_redirect.bpf.c -o count_redirect.bpf.o
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 out_ifindex;

struct totals {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct totals);
} totals SEC(".maps");

SEC("tc")
int count_redirect(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct totals *t = bpf_map_lookup_elem(&totals, &key);

	if (t) {
		__sync_fetch_and_add(&t->packets, 1);
		__sync_fetch_and_add(&t->bytes, skb->len);
	}
	return bpf_redirect(out_ifindex, 0);
}

char _license[] SEC("license") = "GPL";
