// SPDX-License-Identifier: GPL-2.0
/*
 * The programs the DPDK peer (bench/dpdk/peer.c) runs through librte_bpf's JIT on every frame
 * it forwards, in the place of netbpf bench's XDP programs: librte_bpf has no XDP context, no
 * helpers and no maps, so each takes a pointer to the frame's first byte (RTE_BPF_ARG_PTR, 64
 * bytes) and returns nonzero to forward the frame, 0 to drop it, as a program testpmd's
 * `bpf-load rx` installs does. Built for -mcpu=v1: DPDK 22.11's librte_bpf knows no JMP32.
 */
#include <linux/types.h>
#include <linux/if_ether.h>
#include <asm/byteorder.h>

#define SEC(name) __attribute__((section(name), used))

/* Read the EtherType (the first DPDK measurement): forward all but the reserved one. */
SEC("peer/read_proto")
int read_proto(struct ethhdr *eth)
{
	return eth->h_proto != __constant_htons(0xffff);
}

/* Swap the MAC addresses and forward: what xdp_swap_mac_tx.o does before its XDP_TX. */
SEC("peer/swap_mac")
int swap_mac(struct ethhdr *eth)
{
	unsigned char tmp[ETH_ALEN];

	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
	return 1;
}
