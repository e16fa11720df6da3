// SPDX-License-Identifier: GPL-2.0
/*
 * tc programs in the shape of the kernel's samples/bpf/tcbpf1_kern.c, the examples of the
 * "bpf: add bpf_redirect() helper" patch:
 *
 *   classifier           rewrite TCP/IPv4: TOS 8, source 10.1.1.1, destination port 5001, with
 *                        the checksums fixed by l3/l4_csum_replace; LD_ABS loads read the fields
 *   redirect_xmit        bpf_redirect(skb->ifindex + 1, 0): out of the next device
 *   redirect_recv        the same into the next device's receive path (BPF_F_INGRESS)
 *   clone_redirect_xmit  a clone out of the next device, the original dropped
 *   clone_redirect_recv  a clone into the next device's receive path, the original dropped
 */
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* The legacy packet loads (BPF_LD | BPF_ABS): network order fields read as host values. */
unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");
unsigned long long load_half(void *skb, unsigned long long off) asm("llvm.bpf.load.half");
unsigned long long load_word(void *skb, unsigned long long off) asm("llvm.bpf.load.word");

#define IP_OFF		ETH_HLEN
#define IP_PROTO_OFF	(IP_OFF + offsetof(struct iphdr, protocol))
#define IP_TOS_OFF	(IP_OFF + offsetof(struct iphdr, tos))
#define IP_CSUM_OFF	(IP_OFF + offsetof(struct iphdr, check))
#define IP_SRC_OFF	(IP_OFF + offsetof(struct iphdr, saddr))
#define TCP_OFF		(IP_OFF + sizeof(struct iphdr))
#define TCP_DPORT_OFF	(TCP_OFF + offsetof(struct tcphdr, dest))
#define TCP_CSUM_OFF	(TCP_OFF + offsetof(struct tcphdr, check))
#define IS_PSEUDO	0x10

static __always_inline void set_ip_tos(struct __sk_buff *skb, __u8 new_tos)
{
	__u8 old_tos = load_byte(skb, IP_TOS_OFF);

	/* the TOS byte shares its checksum word with the version/ihl byte before it */
	bpf_l3_csum_replace(skb, IP_CSUM_OFF, bpf_htons(old_tos), bpf_htons(new_tos), 2);
	bpf_skb_store_bytes(skb, IP_TOS_OFF, &new_tos, sizeof(new_tos), 0);
}

static __always_inline void set_tcp_ip_src(struct __sk_buff *skb, __u32 new_ip)
{
	__u32 old_ip = bpf_htonl(load_word(skb, IP_SRC_OFF));

	bpf_l4_csum_replace(skb, TCP_CSUM_OFF, old_ip, new_ip, IS_PSEUDO | sizeof(new_ip));
	bpf_l3_csum_replace(skb, IP_CSUM_OFF, old_ip, new_ip, sizeof(new_ip));
	bpf_skb_store_bytes(skb, IP_SRC_OFF, &new_ip, sizeof(new_ip), 0);
}

static __always_inline void set_tcp_dest_port(struct __sk_buff *skb, __u16 new_port)
{
	__u16 old_port = bpf_htons(load_half(skb, TCP_DPORT_OFF));

	bpf_l4_csum_replace(skb, TCP_CSUM_OFF, old_port, new_port, sizeof(new_port));
	bpf_skb_store_bytes(skb, TCP_DPORT_OFF, &new_port, sizeof(new_port), 0);
}

SEC("classifier")
int bpf_prog1(struct __sk_buff *skb)
{
	__u8 proto = load_byte(skb, IP_PROTO_OFF);

	if (proto == IPPROTO_TCP) {
		set_ip_tos(skb, 8);
		set_tcp_ip_src(skb, bpf_htonl(0x0a010101));
		set_tcp_dest_port(skb, bpf_htons(5001));
	}
	return 0;
}

SEC("redirect_xmit")
int _redirect_xmit(struct __sk_buff *skb)
{
	return bpf_redirect(skb->ifindex + 1, 0);
}

SEC("redirect_recv")
int _redirect_recv(struct __sk_buff *skb)
{
	return bpf_redirect(skb->ifindex + 1, BPF_F_INGRESS);
}

SEC("clone_redirect_xmit")
int _clone_redirect_xmit(struct __sk_buff *skb)
{
	bpf_clone_redirect(skb, skb->ifindex + 1, 0);
	return TC_ACT_SHOT;
}

SEC("clone_redirect_recv")
int _clone_redirect_recv(struct __sk_buff *skb)
{
	bpf_clone_redirect(skb, skb->ifindex + 1, BPF_F_INGRESS);
	return TC_ACT_SHOT;
}

char _license[] SEC("license") = "GPL";
