// SPDX-License-Identifier: GPL-2.0
/*
 * A tc classifier that dispatches on the IPv4 protocol through a program array, written the
 * way iproute2 users write tail calls: the array is a `maps` section entry with id 1, pinned in
 * tc/globals so that it outlives the tc command that loads it, and the "1/KEY" sections fill it
 * when `tc filter add ... bpf da obj tc_tail_call.o sec classifier` loads the object:
 *
 *   classifier  tail-call jmp_proto[ip->protocol]; a protocol without a program: TC_ACT_OK
 *   1/6         TCP: out of the next device (bpf_redirect(skb->ifindex + 1, 0))
 *   1/17        UDP: dropped (TC_ACT_SHOT)
 */
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "iproute2_compat.h"

#define JMP_PROTO_ID 1
/* The section names are made from the numbers: IPPROTO_* are enum constants, not macros. */
#define PROTO_TCP 6
#define PROTO_UDP 17

struct bpf_elf_map __section("maps") jmp_proto = {
	.type = BPF_MAP_TYPE_PROG_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u32),
	.max_elem = 256,
	.id = JMP_PROTO_ID,
	.pinning = PIN_GLOBAL_NS,
};

__section_tail(JMP_PROTO_ID, PROTO_TCP)
int proto_tcp(struct __sk_buff *skb)
{
	return bpf_redirect(skb->ifindex + 1, 0);
}

__section_tail(JMP_PROTO_ID, PROTO_UDP)
int proto_udp(struct __sk_buff *skb)
{
	return TC_ACT_SHOT;
}

__section("classifier")
int dispatch(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	bpf_tail_call(skb, &jmp_proto, ip->protocol);
	return TC_ACT_OK;
}

char __license[] __section("license") = "GPL";
