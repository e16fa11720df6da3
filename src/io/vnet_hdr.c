// SPDX-License-Identifier: GPL-2.0
/* struct virtio_net_hdr to and from a packet's offload fields (see vnet_hdr.h). */
#include <errno.h>
#include <string.h>
#include <linux/in.h>

#include "io/port.h"
#include "io/vnet_hdr.h"
#include "pkt/pkt.h"

/*
 * The bytes of headers in front of a super-frame's payload, the transport header at thoff:
 * TCP's data offset, UDP's 8 bytes; 0 when the frame does not say.
 */
static u32 headers_len(const struct nb_pkt *pkt, u32 thoff)
{
	u8 doff;

	if (pkt->gso_type & NB_SKB_GSO_UDP_L4)
		return thoff + 8;
	if (!(pkt->gso_type & (NB_SKB_GSO_TCPV4 | NB_SKB_GSO_TCPV6)) ||
	    nb_pkt_copy_bits(pkt, thoff + 12, &doff, 1) || (doff >> 4) < 5)
		return 0;
	return thoff + (doff >> 4) * 4u;
}

int nb_vnet_hdr_to_pkt(struct nb_pkt *pkt, const struct virtio_net_hdr *vh)
{
	u32 type, hdr;

	if (vh->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) {
		if (!nb_pkt_partial_csum_set(pkt, vh->csum_start, vh->csum_offset))
			return -EINVAL;
	} else if (vh->flags & VIRTIO_NET_HDR_F_DATA_VALID) {
		pkt->ip_summed = NB_CHECKSUM_UNNECESSARY;
	}
	if (vh->gso_type == VIRTIO_NET_HDR_GSO_NONE)
		return 0;
	switch (vh->gso_type & ~VIRTIO_NET_HDR_GSO_ECN) {
	case VIRTIO_NET_HDR_GSO_TCPV4:
		type = NB_SKB_GSO_TCPV4;
		break;
	case VIRTIO_NET_HDR_GSO_TCPV6:
		type = NB_SKB_GSO_TCPV6;
		break;
	case VIRTIO_NET_HDR_GSO_UDP_L4:
		type = NB_SKB_GSO_UDP_L4;
		break;
	case VIRTIO_NET_HDR_GSO_UDP:
		type = NB_SKB_GSO_UDP;
		break;
	default:
		return -EINVAL;
	}
	if (vh->gso_type & VIRTIO_NET_HDR_GSO_ECN)
		type |= NB_SKB_GSO_TCP_ECN;
	if (!vh->gso_size)
		return -EINVAL;
	pkt->gso_type = type;
	pkt->gso_size = vh->gso_size;
	/* what a GRO'd frame of the kernel's shows programs: the segments it stands for */
	hdr = pkt->ip_summed == NB_CHECKSUM_PARTIAL ?
		      headers_len(pkt, (u32)nb_pkt_checksum_start_offset(pkt)) : 0;
	pkt->gso_segs = hdr && hdr < pkt->len ?
				(u16)((pkt->len - hdr + vh->gso_size - 1) / vh->gso_size) : 0;
	return 0;
}

int nb_vnet_hdr_from_pkt(const struct nb_pkt *pkt, struct virtio_net_hdr *vh)
{
	u32 start = 0;

	memset(vh, 0, sizeof(*vh));
	if (pkt->ip_summed == NB_CHECKSUM_PARTIAL) {
		start = (u32)nb_pkt_checksum_start_offset(pkt);
		vh->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
		vh->csum_start = (u16)start;
		vh->csum_offset = pkt->csum_offset;
		vh->hdr_len = (u16)(start + pkt->csum_offset + sizeof(u16));
	}
	if (!nb_pkt_is_gso(pkt))
		return 0;
	if (pkt->gso_type & NB_SKB_GSO_TCPV4)
		vh->gso_type = VIRTIO_NET_HDR_GSO_TCPV4;
	else if (pkt->gso_type & NB_SKB_GSO_TCPV6)
		vh->gso_type = VIRTIO_NET_HDR_GSO_TCPV6;
	else if (pkt->gso_type & NB_SKB_GSO_UDP_L4)
		vh->gso_type = VIRTIO_NET_HDR_GSO_UDP_L4;
	else
		return -EINVAL;
	if (pkt->gso_type & NB_SKB_GSO_TCP_ECN)
		vh->gso_type |= VIRTIO_NET_HDR_GSO_ECN;
	vh->gso_size = pkt->gso_size;
	if (start) {
		u32 hdr = headers_len(pkt, start);

		if (hdr > vh->hdr_len)
			vh->hdr_len = (u16)hdr;
	}
	return 0;
}
