/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Offloads done in software for a port that lacks them, the twins of the kernel's
 * validate_xmit_skb with skb_gso_segment (tcp_gso_segment, __udp_gso_segment) and
 * skb_checksum_help: a super-frame becomes the segments the stack left it to make, a checksum
 * left to the device is completed, a frame with fragments is made linear.
 */
#ifndef NB_NET_GSO_H
#define NB_NET_GSO_H

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

#endif /* NB_NET_GSO_H */
