// SPDX-License-Identifier: GPL-2.0
/*
 * Count packets and bytes per IPv4 flow (addresses, protocol, TCP or UDP ports) in a hash map,
 * a flow's first packet making its entry, and let every packet go on (TC_ACT_OK): the
 * accounting a tc filter in direct-action mode does.
 *
 *   tc filter add dev X ingress bpf da obj tc_flow_count.o sec tc
 *   netbpf map dump name flows
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct flow_key {
	__u32 saddr, daddr;
	__u16 sport, dport;
	__u8 proto;
	__u8 pad[3];
};

struct flow_count {
	__u64 packets, bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct flow_key);
	__type(value, struct flow_count);
} flows SEC(".maps");

SEC("tc")
int tc_flow_count(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct flow_key key = {};
	struct flow_count *count, one = { 1, skb->len };
	struct iphdr *ip = (void *)(eth + 1);

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	key.saddr = ip->saddr;
	key.daddr = ip->daddr;
	key.proto = ip->protocol;
	if ((ip->protocol == IPPROTO_TCP || ip->protocol == IPPROTO_UDP) && ip->ihl == 5) {
		__be16 *ports = (void *)(ip + 1);

		if ((void *)(ports + 2) > data_end)
			return TC_ACT_OK;
		key.sport = ports[0];
		key.dport = ports[1];
	}
	count = bpf_map_lookup_elem(&flows, &key);
	if (count) {
		__sync_fetch_and_add(&count->packets, 1);
		__sync_fetch_and_add(&count->bytes, skb->len);
	} else {
		bpf_map_update_elem(&flows, &key, &one, BPF_NOEXIST);
	}
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
