// SPDX-License-Identifier: GPL-2.0
/*
 * An overlay over VXLAN with a collect-metadata device, the way the kernel's tunnel selftests
 * drive one: the device decides nothing, programs on it give and read each packet's tunnel
 * key. On the sending side vxlan_encap, on the device's egress, picks the far end from the
 * inner IPv4 destination: 10.20.X.Y goes to the VTEP 10.2.1.(100 + X), VNI 100 + X. On the
 * receiving side vxlan_decap, on the device's ingress, reads the key the decapsulation left,
 * drops what did not come on the VNI its sender was given and counts the rest per VNI; the
 * next filter then sees the inner frame (TC_ACT_UNSPEC).
 *
 *   link add vx0 type vxlan external
 *   tc qdisc add dev vx0 clsact
 *   tc filter add dev vx0 egress bpf da obj tc_vxlan.o sec tc/encap
 *   tc filter add dev vx0 ingress bpf da obj tc_vxlan.o sec tc/decap
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define VNI_BASE 100
#define VTEP_BASE 0x0a020100	/* 10.2.1.0, host order as bpf_tunnel_key holds it */
#define OVERLAY 0x0a140000	/* 10.20.0.0/16 */

/* Packets received per VNI (100 .. 115), and one slot for every other. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 17);
	__type(key, __u32);
	__type(value, __u64);
} vni_packets SEC(".maps");

static __always_inline int overlay_host(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	__u32 dst;

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return -1;
	dst = bpf_ntohl(ip->daddr);
	if ((dst & 0xffff0000) != OVERLAY || ((dst >> 8) & 0xff) > 15)
		return -1;
	return (dst >> 8) & 0xff;
}

SEC("tc/encap")
int vxlan_encap(struct __sk_buff *skb)
{
	struct bpf_tunnel_key key = {};
	int x = overlay_host(skb);

	if (x < 0)
		return TC_ACT_SHOT;	/* not for the overlay: no key, nowhere to go */
	key.remote_ipv4 = VTEP_BASE + VNI_BASE + x;
	key.tunnel_id = VNI_BASE + x;
	key.tunnel_ttl = 64;
	if (bpf_skb_set_tunnel_key(skb, &key, sizeof(key), BPF_F_ZERO_CSUM_TX))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

SEC("tc/decap")
int vxlan_decap(struct __sk_buff *skb)
{
	struct bpf_tunnel_key key;
	int x = overlay_host(skb);
	__u32 slot = 16;
	__u64 *count;

	if (bpf_skb_get_tunnel_key(skb, &key, sizeof(key), 0))
		return TC_ACT_SHOT;
	if (x < 0 || key.tunnel_id != (__u32)(VNI_BASE + x)) {
		count = bpf_map_lookup_elem(&vni_packets, &slot);
		if (count)
			__sync_fetch_and_add(count, 1);
		return TC_ACT_SHOT;
	}
	slot = x;
	count = bpf_map_lookup_elem(&vni_packets, &slot);
	if (count)
		__sync_fetch_and_add(count, 1);
	return TC_ACT_UNSPEC;
}

char _license[] SEC("license") = "GPL";
