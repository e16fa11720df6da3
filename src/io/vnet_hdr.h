/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The virtio_net_hdr that kernel interfaces put in front of a frame when asked to (AF_PACKET's
 * PACKET_VNET_HDR, a tap's IFF_VNET_HDR): how the frame's offloads travel between the kernel
 * and the datapath, as struct virtio_net_hdr carries them between a guest and its host. The
 * twins of the kernel's virtio_net_hdr_to_skb and virtio_net_hdr_from_skb. Both interfaces use
 * the host's byte order here (legacy virtio on a little-endian host, which AF_PACKET always
 * speaks and a tap speaks unless told otherwise).
 */
#ifndef NB_IO_VNET_HDR_H
#define NB_IO_VNET_HDR_H

#include <linux/virtio_net.h>

#include "common/types.h"

struct nb_pkt;

/* Newer than the build machine's uapi headers (Linux 6.2). */
#ifndef VIRTIO_NET_HDR_GSO_UDP_L4
#define VIRTIO_NET_HDR_GSO_UDP_L4 5
#endif

/* The NB_NETIF_F_* a port whose kernel interface takes a virtio_net_hdr has. */
#define NB_VNET_HDR_FEATURES                                                                \
	(NB_NETIF_F_SG | NB_NETIF_F_HW_CSUM | NB_NETIF_F_TSO | NB_NETIF_F_TSO6 |            \
	 NB_NETIF_F_TSO_ECN | NB_NETIF_F_GSO_UDP_L4)

/*
 * The offloads a received frame's header describes, into pkt (whose bytes are the frame from
 * its mac header): CHECKSUM_PARTIAL with csum_start and csum_offset, CHECKSUM_UNNECESSARY, or
 * the GSO type, size and segment count of a super-frame. -EINVAL for a header that does not
 * fit the frame (the caller drops it).
 */
int nb_vnet_hdr_to_pkt(struct nb_pkt *pkt, const struct virtio_net_hdr *vh);

/*
 * The header that sends pkt with its offloads: hdr_len, the headers' length, lets the kernel
 * copy only those into its skb's linear part. -EINVAL for a super-frame virtio cannot describe
 * (a tunnel's; nb_validate_xmit segments those before, as the port's features say).
 */
int nb_vnet_hdr_from_pkt(const struct nb_pkt *pkt, struct virtio_net_hdr *vh);

#endif /* NB_IO_VNET_HDR_H */
