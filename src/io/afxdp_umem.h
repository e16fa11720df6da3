/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AF_XDP ports' UMEMs (afxdp_umem.c): memory registered with the kernel, in frames that
 * the sockets sharing it receive into and transmit from, and that packets borrow as buffers.
 */
#ifndef NB_IO_AFXDP_UMEM_H
#define NB_IO_AFXDP_UMEM_H

#include <pthread.h>
#include <xdp/xsk.h>

#include "common/types.h"
#include "io/port.h"
#include "pkt/pkt.h"

/* One UMEM chunk: a page, as the kernel's XDP buffers. */
#define NB_AFXDP_FRAME_SIZE 4096
/*
 * Where a frame's bytes start: the UMEM's frame headroom (the kernel never writes it) holds
 * the packet buffer's header when the frame is a packet's buffer; the kernel then leaves its
 * XDP_PACKET_HEADROOM, which is the packet's headroom.
 */
#define NB_AFXDP_FRAME_HEADROOM NB_PKT_BUF_HDR

/* Sockets that share one UMEM. */
#define NB_AFXDP_UMEM_SOCKETS 4

struct nb_afxdp_umem {
	struct nb_pkt_buf_owner owner;	/* packets give their frames back here */
	struct xsk_umem *xsk_umem;
	u8 *area;
	u32 nframes;
	u16 bind_flags;			/* what its first socket asked: the others share it */
	/* its sockets, each on a device queue of its own (under the registry's lock) */
	struct {
		struct xsk_socket *xsk;
		int ifindex;
		u32 qid;
	} socks[NB_AFXDP_UMEM_SOCKETS];
	u32 sockets;
	/*
	 * The queue of its first socket, which stays bound after it closes (libxdp keeps it on
	 * the UMEM's fd) until the UMEM ends: no other socket can have that queue meanwhile.
	 */
	int first_ifindex;
	u32 first_qid;
	bool first_closed;
	struct nb_afxdp_umem *next;	/* the registry */

	pthread_spinlock_t lock;	/* everything below */
	u32 in_pkts;			/* frames that are packet buffers */
	bool dead;			/* no socket left: the last packet's release frees it */
	u32 nfree;
	u64 free[];			/* frame addresses no one holds */
};

/*
 * A socket on ifname's queue qid with rings rx, tx, fq and cq, bound to a UMEM of this
 * process's that it shares with sockets whose bind flags are the same (XDP_SHARED_UMEM: one
 * frame memory, a fill and a completion ring per device queue), or to a new one when none has
 * room. 0 with *xskp and *umemp; a negative errno (nothing kept) else: -EBUSY when one of
 * ours has the queue, -EADDRINUSE when a UMEM's first socket, closed, still holds it.
 */
int nb_afxdp_umem_socket(const char *ifname, u32 qid, const struct xsk_socket_config *cfg,
			 struct xsk_socket **xskp, struct nb_afxdp_umem **umemp,
			 struct xsk_ring_cons *rx, struct xsk_ring_prod *tx,
			 struct xsk_ring_prod *fq, struct xsk_ring_cons *cq);
/*
 * Close a socket of nb_afxdp_umem_socket; the UMEM goes with its last socket and packet. The
 * nback frames at back (its fill ring's, which the kernel may take until the socket is gone)
 * go back to the UMEM's free stack once it is, when other sockets go on using the UMEM.
 */
void nb_afxdp_umem_socket_close(struct nb_afxdp_umem *umem, struct xsk_socket *xsk,
				const u64 *back, u32 nback);

/*
 * One trip to the free stack: give back ngive frames (an address anywhere in its frame), take
 * up to ntake into take (a frame's start), and count lent frames more lent to packets (fewer
 * when negative). Returns how many were taken.
 */
u32 nb_afxdp_umem_swap(struct nb_afxdp_umem *umem, const u64 *give, u32 ngive, u64 *take,
		       u32 ntake, int lent);

/*
 * The frame at addr (as the rx ring gives it: where the bytes start) as the buffer of a new
 * packet of len bytes, without a copy; NULL when it does not fit a packet's linear part or no
 * descriptor is left (the frame stays the caller's). The caller counts it lent
 * (nb_afxdp_umem_swap).
 */
struct nb_pkt *nb_afxdp_umem_pkt(struct nb_afxdp_umem *umem, u64 addr, u32 len);
/* The bytes at addr, a frame taken from the UMEM or received, to read or write. */
void *nb_afxdp_umem_data(struct nb_afxdp_umem *umem, u64 addr);

/* The packet's buffer is one of umem's frames that nb_afxdp_umem_steal would take. */
static inline bool nb_afxdp_umem_can_steal(const struct nb_afxdp_umem *umem,
					   const struct nb_pkt *pkt)
{
	return nb_pkt_head_stealable(pkt, &umem->owner);
}
/*
 * The frame a packet's buffer is, when it is one of umem's held by the packet alone and the
 * packet is linear: the packet is freed without it and the address of its bytes is in *addr,
 * to be sent by descriptor (and given back on completion; the caller counts it no longer
 * lent). false, the packet untouched, else.
 */
bool nb_afxdp_umem_steal(struct nb_afxdp_umem *umem, struct nb_pkt *pkt, u64 *addr);

/* Frames lent to packets now (for the port's counters and the tests). */
u32 nb_afxdp_umem_in_pkts(struct nb_afxdp_umem *umem);
/* UMEMs alive in the process, with or without sockets (the tests' leak check). */
unsigned int nb_afxdp_umem_count(void);

/*
 * An afxdp port's frames received as packet buffers and sent by descriptor, over its queues,
 * and its first queue's UMEM (afxdp.c; for the tests). -EINVAL for a port of another kind.
 */
int nb_afxdp_port_zc_stats(const struct nb_port *port, u64 *rx_lent, u64 *tx_by_desc,
			   struct nb_afxdp_umem **umem);

#endif /* NB_IO_AFXDP_UMEM_H */
