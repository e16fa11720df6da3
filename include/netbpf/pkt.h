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
