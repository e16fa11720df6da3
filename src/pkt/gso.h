/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Offloads done in software for a port that lacks them, the twins of the kernel's
 * validate_xmit_skb with skb_gso_segment (tcp_gso_segment, __udp_gso_segment) and
 * skb_checksum_help: a super-frame becomes the segments the stack left it to make, a checksum
 * left to the device is completed, a frame with fragments is made linear.
 */
#ifndef NB_PKT_GSO_H
#define NB_PKT_GSO_H

#include "common/types.h"

struct nb_pkt;

/*
 * Segment a super-frame: TCP over IPv4 or IPv6 (gso_size bytes of payload a segment, the
 * sequence numbers, IP ids, lengths and flags each segment needs) or UDP (one datagram a
 * segment). Every segment gets complete checksums and no offload. Returns the segments linked
 * through ->next and frees pkt; NULL with *err (pkt untouched): -EPROTONOSUPPORT for a type
 * or header it cannot segment (tunnels, IPv6 extension headers, fragments), -EINVAL for a
 * broken one, -ENOMEM.
 */
struct nb_pkt *nb_skb_gso_segment(struct nb_pkt *pkt, int *err);

/*
 * Make pkt fit a port with these NB_NETIF_F_* features (validate_xmit_skb): segment, complete
 * the checksum, linearize, as far as needed. Returns the frames to send, linked through
 * ->next (pkt itself when nothing changed), or NULL with *err when pkt could not be made to
 * fit (pkt untouched, the caller drops it).
 */
struct nb_pkt *nb_validate_xmit(struct nb_pkt *pkt, u32 features, int *err);

/*
 * Would every segment of a super-frame fit mtu at the network layer
 * (skb_gso_validate_network_len): its IP header, its L4 header (TCP's own length, UDP's 8
 * bytes, nothing for other types) and gso_size bytes of payload.
 */
bool nb_skb_gso_validate_network_len(const struct nb_pkt *pkt, u32 mtu);

/* Where the checksum of a TCP or UDP frame over IPv4 or IPv6 is (nb_pkt_l4_csum_spot). */
struct nb_l4_csum_spot {
	u32 nhoff;		/* the IP header, from data (past any VLAN tags) */
	u32 start;		/* the L4 header, where the sum starts */
	u32 pseudo;		/* the pseudo-header's sum over the L4 length the IP header gives */
	u16 csum_off;		/* the field, from start */
	bool ipv6;
};

/*
 * Find the checksum of a TCP or UDP frame over IPv4 or IPv6 (no extension headers, not a
 * fragment); false for any other frame, or one whose headers are not in the linear part.
 */
bool nb_pkt_l4_csum_spot(const struct nb_pkt *pkt, struct nb_l4_csum_spot *spot);

/*
 * A frame from a kernel interface that says nothing of its offloads (AF_XDP): its L4 checksum
 * field holding the pseudo-header's sum and nothing more is what the sending stack leaves to
 * the device (CHECKSUM_PARTIAL), which the frame becomes. Recomputing it would give the same
 * value as a complete one that happened to match, so taking it for partial is safe; only a
 * corrupted frame that matches by chance (one in 65536 of those) gets a right checksum it did
 * not have. A TCP frame longer than mtu allows is a super-frame the stack left whole: it
 * becomes one, segments of what the mtu holds. Returns true when the frame was changed.
 */
bool nb_pkt_guess_offloads(struct nb_pkt *pkt, u32 mtu);

#endif /* NB_PKT_GSO_H */
