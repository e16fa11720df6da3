/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets, the twin of the kernel's sk_buff: what ports hand the datapath and take from it. The
 * struct is the library's own; a port backend (include/netbpf/port.h) makes packets from the
 * bytes it receives and takes the bytes of those it transmits, through these calls. Packets
 * come from pools with a per-thread cache: no malloc per packet.
 */
#ifndef NETBPF_PKT_H
#define NETBPF_PKT_H

#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_pkt;

/* Why a packet was dropped, as the kernel's skb_drop_reason (the ones this datapath has). */
enum nb_drop_reason {
	NB_DROP_NOT_SPECIFIED = 0,
	NB_DROP_DEV_DOWN,	/* device is down */
	NB_DROP_NO_DEV,		/* redirect target missing */
	NB_DROP_TC_INGRESS,	/* TC_ACT_SHOT at ingress */
	NB_DROP_TC_EGRESS,	/* TC_ACT_SHOT at egress */
	NB_DROP_XDP,		/* XDP_DROP */
	NB_DROP_XDP_ABORTED,	/* XDP_ABORTED or an unknown XDP verdict */
	NB_DROP_RECURSION,	/* redirect nesting limit */
	NB_DROP_TX_ERROR,	/* the port could not transmit */
	NB_DROP_TOO_BIG,	/* longer than the mtu or the buffer */
	NB_DROP_NOMEM,		/* no packet buffer */
	NB_DROP_RX_OVERFLOW,	/* the kernel dropped it before the port read it (ring full) */
	NB_DROP_PORT_RX_NO_BUFFER,	/* the kernel had no port buffer for a frame (AF_XDP) */
	NB_DROP_PORT_TX_INVALID,	/* the kernel refused a transmit descriptor (AF_XDP) */
	NB_DROP_CPUMAP_FULL,	/* a cpumap entry's queue was full */
	/*
	 * a super-frame or partial checksum for a port without that offload, which software
	 * could not segment or complete (a tunnel's super-frame, broken headers)
	 */
	NB_DROP_OFFLOAD,
	NB_DROP_XSK_FULL,	/* an XDP socket's ring was full (include/netbpf/xsk.h) */
	NB_DROP_NO_ROUTE,	/* bpf_redirect_neigh: no route to the destination */
	NB_DROP_NO_NEIGH,	/* bpf_redirect_neigh: no valid neighbour (netbpf sends no ARP/ND) */
	NB_DROP_TUNNEL_TXINFO,	/* into a tunnel without a tunnel key of its kind */
	NB_DROP_TUNNEL_HDR,	/* a tunnel header its device refuses (flags, version, length) */
	NB_DROP_TUNNEL_ECN,	/* outer CE on an inner packet that is not ECN-capable */
	NB_DROP_UDP_CSUM,	/* a tunnel's UDP datagram with a wrong checksum */
	NB_DROP_MAC_INVALID_SOURCE,	/* a bridge port received a multicast or zero source */
	NB_DROP_MAC_IEEE_MAC_CONTROL,	/* a bridge port received a MAC control (pause) frame */
	NB_DROP_NO_TX_TARGET,	/* a bridge had no port to send a frame to (only its own) */
	NB_DROP_REASON_MAX,
};

/* "tc_ingress", "dev_down", ...: the names the statistics print. */
const char *nb_drop_reason_name(enum nb_drop_reason reason);

/*
 * What a port's transmit takes as it is (the kernel's NETIF_F_* device features); the
 * datapath does the rest in software before tx_burst (nb_validate_xmit): a frame with
 * fragments is made linear without SG, a checksum left to the device (CHECKSUM_PARTIAL) is
 * completed without HW_CSUM, a super-frame is segmented without its GSO type.
 */
#define NB_NETIF_F_SG		(1U << 0)	/* fragments (scatter-gather) */
#define NB_NETIF_F_HW_CSUM	(1U << 1)	/* CHECKSUM_PARTIAL, any protocol */
#define NB_NETIF_F_TSO		(1U << 2)	/* TCP over IPv4 super-frames */
#define NB_NETIF_F_TSO6		(1U << 3)	/* TCP over IPv6 */
#define NB_NETIF_F_TSO_ECN	(1U << 4)	/* TCP super-frames with CWR set */
#define NB_NETIF_F_GSO_UDP_L4	(1U << 5)	/* UDP super-frames (USO) */
#define NB_NETIF_F_GSO_ANY	(1U << 6)	/* any super-frame, tunnels too: kept whole */
/* A port that takes every frame as it is: memory, files, the veth twin. */
#define NB_NETIF_F_ALL		(~0U)

/*
 * A packet holding a copy of len bytes (beyond a page, in fragments); NULL when len is more
 * than a frame may hold (64 KiB and its headroom) or the pool is empty.
 */
struct nb_pkt *nb_pkt_alloc_data(const void *data, __u32 len);
void nb_pkt_free(struct nb_pkt *pkt);
/*
 * The packet's bytes, made contiguous first when it has fragments (skb_linearize), and their
 * number in *len; NULL when that takes memory the pool does not have.
 */
const void *nb_pkt_bytes(struct nb_pkt *pkt, __u32 *len);

/*
 * Cap the packet pools at about packets descriptors and page buffers (rounded up to the pools'
 * chunks of 256), big buffers in proportion; 0: no cap, the default. An allocation beyond the
 * cap fails as one does when memory runs out: ports and the datapath count a nomem drop and go
 * on (netbpf run --pool-packets).
 */
void nb_pkt_pool_set_max(unsigned long packets);
/* Packets and data buffers (pages, big buffers) handed out and not yet returned. */
long nb_pkt_pool_outstanding(void);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_PKT_H */
