// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP port: a kernel interface's frames through XDP sockets (libxdp's xsk API). Words:
 *
 *   dev IFNAME           the interface (required)
 *   queues N             sockets on queue ids 0..N-1 (default 1)
 *   mode skb|drv         where the redirect program runs: generic XDP or the driver
 *                        (also "generic", "native"; default: the driver when it can)
 *   copy | zerocopy      how the kernel moves frames (default: zero-copy when the driver can)
 *
 * Each queue has a socket bound to a UMEM (afxdp_umem.c) of frames of 4 KiB, which the
 * sockets of this process's afxdp ports share when they are bound alike (XDP_SHARED_UMEM, up
 * to four sockets): a socket's fill ring takes frames from the UMEM's free stack, its
 * completion ring gives them back, and a received frame becomes the buffer of the packet the
 * datapath gets, without a copy, back in the free stack when the packet is freed. A packet
 * whose buffer is a frame of the UMEM a port transmits from leaves by its descriptor: a
 * redirect between two afxdp ports moves no bytes. Frames that do not fit a packet's linear
 * part (longer than 3456 bytes, or in pieces) are copied, as are the frames of other ports'
 * packets. Once every queue is bound, the port attaches its own redirect program
 * (afxdp_prog.c: every frame of a queue with a socket into the XSKMAP, as libxdp's default
 * program does, but declared able to take frames in pieces, xdp.frags, which libxdp's is not:
 * a driver-mode program on a veth with a 9000-byte MTU needs it) and wants the interface to
 * itself: one with an XDP program already is refused. Closing the port detaches it.
 *
 * While frames lent to packets are a quarter of the UMEM's (a sink that keeps frames, queues
 * that hold many), received frames are copied and go back at once, so the fill rings never run
 * dry because the datapath holds frames.
 *
 * Frames longer than a UMEM frame come and go in pieces (XDP_USE_SG, multi-buffer AF_XDP: a
 * descriptor with XDP_PKT_CONTD is followed by the frame's next piece), up to NB_PKT_MAX_FRAME;
 * a kernel without it takes a UMEM frame's worth (3776 bytes: 4 KiB less the UMEM's 64-byte
 * frame headroom and the kernel's XDP_PACKET_HEADROOM) and gives 4 KiB at most.
 *
 * Offloads: AF_XDP carries none. A frame's checksum field holding just its pseudo-header sum is
 * one the sending stack left to the device (the veth peer of a local sender: CHECKSUM_PARTIAL)
 * and becomes so again here, a TCP frame longer than the interface's MTU a super-frame the stack
 * left whole (nb_pkt_guess_offloads): they leave through a port with offloads as they are, and
 * are segmented and completed in software before they leave through this one, whose features
 * are only SG (nb_validate_xmit), so that no user has to turn the peer's offloads off.
 *
 * Any worker may transmit: the queue of worker c is c % N, under that queue's transmit lock.
 * The datapath's workers each own receive queues (rx_queue_burst); rx_burst, for callers that
 * poll the device as a whole, takes all queues in turn. A try-lock per queue keeps two pollers
 * apart without blocking either. The
 * socket's counters (XDP_STATISTICS) become the device's drop counters by reason, read every
 * STATS_EVERY polls: rx_dropped (no fill buffer, frame larger than a UMEM frame) as
 * rx_no_buffer, rx_ring_full as rx_overflow, tx_invalid_descs as tx_invalid. An empty rx ring
 * is not a drop.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/sockios.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include <xdp/xsk.h>

#include <netbpf/percpu.h>

#include "io/afxdp_prog.h"
#include "io/afxdp_umem.h"
#include "io/port.h"
#include "pkt/gso.h"
#include "pkt/pkt.h"
#include "common/u64_stats.h"

/* Newer than the build machine's uapi headers (Linux 6.6): multi-buffer AF_XDP. */
#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif

#define FRAME_SIZE NB_AFXDP_FRAME_SIZE
#define RING_SIZE 2048			/* every ring */
#define REFILL_MIN 32			/* fill ring slots worth a trip to the free stack */
#define STATS_EVERY 64			/* polls between XDP_STATISTICS reads */
#define MAX_QUEUES 64
/*
 * A busy queue is tried this often, this far apart: 2 s, since the kernel's work that lets a
 * closed socket's queue go takes the RTNL, which namespaces being torn down hold for long.
 */
#define BUSY_TRIES 200
#define BUSY_WAIT_US 10000
#define RX_PEEK 64			/* descriptors looked at per poll: pieces of frames */

struct afxdp_queue {
	u32 id;
	struct xsk_socket *xsk;
	struct nb_afxdp_umem *umem;
	int fd;

	/* receive side, under rx_lock */
	pthread_spinlock_t rx_lock;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod fq;
	u32 polls;
	struct xdp_statistics seen;	/* what has been counted already */
	u64 rx_packets;
	u64 rx_lent;			/* of them, frames that became packet buffers */
	u64 rx_too_big;
	struct nb_pkt *rx_pkt;		/* a frame whose next piece is still to come */
	bool rx_skip;			/* the pieces to come belong to a dropped frame */

	/* transmit side, under tx_lock */
	pthread_spinlock_t tx_lock __attribute__((aligned(64)));
	struct xsk_ring_prod tx;
	struct xsk_ring_cons cq;
	u64 tx_frames[RING_SIZE];	/* completed frames, then frames to copy into */
	u64 tx_packets;
	u64 tx_by_desc;			/* of them, sent by descriptor: their buffer a frame */
	u64 tx_full;			/* frames refused: no free frame or tx ring slot */
} __attribute__((aligned(64)));

struct afxdp_port {
	struct nb_port *port;
	char ifname[IFNAMSIZ];
	int ifindex;
	u32 nq;
	u32 xdp_flags;
	u16 bind_flags;
	bool drv;			/* the program runs in the driver (else generic XDP) */
	bool zerocopy;			/* the sockets are bound zero-copy */
	bool sg;			/* bound with XDP_USE_SG: frames in pieces */
	u32 mtu;			/* the interface's, read at open: super-frames are longer */
	u32 rx_next;			/* turns: where the next poll starts */
	struct afxdp_queue *q;		/* nq entries */
	struct nb_afxdp_prog prog;	/* the redirect program on the interface */
};

/* libxdp and libbpf print to stderr; while we open, their last warning is kept for the error. */
static char lib_msg[256];

static int lib_print(const char *fmt, va_list ap)
{
	char line[256];
	size_t n;

	vsnprintf(line, sizeof(line), fmt, ap);
	n = strcspn(line, "\n");
	line[n] = '\0';
	if (n)
		snprintf(lib_msg, sizeof(lib_msg), "%s", line);
	return 0;
}

static int libxdp_print(enum libxdp_print_level level, const char *fmt, va_list ap)
{
	return level == LIBXDP_WARN ? lib_print(fmt, ap) : 0;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN ? lib_print(fmt, ap) : 0;
}

/* Fold the socket's kernel counters into the device's drop counters (this worker's). */
static void stats_sync(struct afxdp_port *ap, struct afxdp_queue *q)
{
	struct xdp_statistics s;
	socklen_t len = sizeof(s);

	if (getsockopt(q->fd, SOL_XDP, XDP_STATISTICS, &s, &len))
		return;
	nb_port_count_drops(ap->port, NB_DROP_PORT_RX_NO_BUFFER, s.rx_dropped - q->seen.rx_dropped);
	nb_port_count_drops(ap->port, NB_DROP_RX_OVERFLOW, s.rx_ring_full - q->seen.rx_ring_full);
	nb_port_count_drops(ap->port, NB_DROP_PORT_TX_INVALID,
			    s.tx_invalid_descs - q->seen.tx_invalid_descs);
	/* queue_stats reads these from another thread */
	WRITE_ONCE(q->seen.rx_dropped, s.rx_dropped);
	WRITE_ONCE(q->seen.rx_ring_full, s.rx_ring_full);
	WRITE_ONCE(q->seen.tx_invalid_descs, s.tx_invalid_descs);
}

/* Completed transmits: their frames into tx_frames, to give back (under tx_lock). */
static u32 tx_reap(struct afxdp_queue *q)
{
	u32 idx, n = xsk_ring_cons__peek(&q->cq, RING_SIZE, &idx);

	for (u32 i = 0; i < n; i++)
		q->tx_frames[i] = *xsk_ring_cons__comp_addr(&q->cq, idx + i);
	if (n)
		xsk_ring_cons__release(&q->cq, n);
	return n;
}

/*
 * In copy mode the kernel sends only inside sendto, at most 32 frames a call (EAGAIN: more
 * are waiting), so kick until the ring is empty or the kernel pushes back.
 */
static void tx_kick(struct afxdp_queue *q)
{
	for (int i = 0; i < RING_SIZE / 32 && xsk_ring_prod__needs_wakeup(&q->tx); i++) {
		if (sendto(q->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0 || errno != EAGAIN)
			break;
	}
}

/* Descriptors the kernel has not taken yet (under tx_lock). */
static bool tx_unsent(struct afxdp_queue *q)
{
	return xsk_prod_nb_free(&q->tx, RING_SIZE) < RING_SIZE;
}

/*
 * Give the UMEM the frames received and done with (copied), count those lent to packets, and
 * fill the fill ring from the free stack as far as it has room, in one trip (under rx_lock).
 */
static u32 fq_refill(struct afxdp_queue *q, const u64 *done, u32 ndone, u32 lent)
{
	u64 addrs[RX_PEEK + REFILL_MIN];
	u32 room = xsk_prod_nb_free(&q->fq, REFILL_MIN), idx, n;

	if (room < REFILL_MIN && !ndone && !lent)
		return 0;
	n = nb_afxdp_umem_swap(q->umem, done, ndone, addrs,
			       min_t(u32, room, ARRAY_SIZE(addrs)), (int)lent);
	if (n && xsk_ring_prod__reserve(&q->fq, n, &idx) == n) {
		for (u32 i = 0; i < n; i++)
			*xsk_ring_prod__fill_addr(&q->fq, idx + i) = addrs[i];
		xsk_ring_prod__submit(&q->fq, n);
		return n;
	}
	if (n)
		nb_afxdp_umem_swap(q->umem, addrs, n, NULL, 0, 0);
	return 0;
}

/*
 * Fill rings stay stocked and transmits find frames: frames are lent to packets while fewer
 * than a quarter of the UMEM's are (its sockets' fill rings hold half of them at most).
 */
static bool may_lend(const struct afxdp_queue *q)
{
	return __atomic_load_n(&q->umem->in_pkts, __ATOMIC_RELAXED) < q->umem->nframes / 4;
}

/* The end of a received frame: its offloads guessed (see the top), handed on. */
static struct nb_pkt *rx_finish(struct afxdp_port *ap, struct nb_pkt *pkt)
{
	nb_pkt_guess_offloads(pkt, ap->mtu);
	return pkt;
}

static void rx_drop(struct afxdp_port *ap, struct afxdp_queue *q, enum nb_drop_reason reason)
{
	if (reason == NB_DROP_TOO_BIG)
		nb_u64_stats_inc(&q->rx_too_big);
	nb_port_count_drops(ap->port, reason, 1);
}

static unsigned int queue_rx(struct afxdp_port *ap, struct afxdp_queue *q, struct nb_pkt **pkts,
			     unsigned int max)
{
	unsigned int got = 0;
	u32 idx, n, used = 0, ndone = 0, lent = 0;
	u64 done[RX_PEEK];
	bool lend = may_lend(q);

	n = xsk_ring_cons__peek(&q->rx, RX_PEEK, &idx);
	if (!n) {
		fq_refill(q, NULL, 0, 0);
		if (xsk_ring_prod__needs_wakeup(&q->fq))
			recvfrom(q->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		return 0;
	}
	while (used < n && got < max) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&q->rx, idx + used++);
		u64 addr = xsk_umem__add_offset_to_addr(d->addr);
		bool more = d->options & XDP_PKT_CONTD;
		int err;

		/* a whole frame that fits a packet's linear part: the frame is its buffer */
		if (lend && !more && !q->rx_pkt && !q->rx_skip) {
			struct nb_pkt *pkt = nb_afxdp_umem_pkt(q->umem, addr, d->len);

			if (pkt) {
				lent++;
				pkts[got++] = rx_finish(ap, pkt);
				continue;
			}
		}
		/* else its bytes are copied and the frame goes back */
		done[ndone++] = addr;
		if (!q->rx_pkt && !q->rx_skip) {
			q->rx_pkt = nb_pkt_alloc();
			if (!q->rx_pkt) {
				rx_drop(ap, q, NB_DROP_NOMEM);
				q->rx_skip = more;
				continue;
			}
		}
		if (q->rx_pkt) {
			err = nb_pkt_append(q->rx_pkt, nb_afxdp_umem_data(q->umem, addr), d->len);
			if (err) {
				/* longer than a packet holds, or no page: never cut, dropped */
				nb_pkt_free(q->rx_pkt);
				q->rx_pkt = NULL;
				rx_drop(ap, q, err == -EMSGSIZE ? NB_DROP_TOO_BIG : NB_DROP_NOMEM);
				q->rx_skip = more;
				continue;
			}
		}
		if (more)
			continue;
		if (q->rx_pkt)
			pkts[got++] = rx_finish(ap, q->rx_pkt);
		q->rx_pkt = NULL;
		q->rx_skip = false;
	}
	/* what was looked at but not taken stays for the next poll */
	xsk_ring_cons__cancel(&q->rx, n - used);
	xsk_ring_cons__release(&q->rx, used);
	fq_refill(q, done, ndone, lent);
	nb_u64_stats_add(&q->rx_packets, got);
	nb_u64_stats_add(&q->rx_lent, lent);
	return got;
}

/*
 * One poll of queue q: its receive ring (under a try-lock: one poller at a time), the socket's
 * counters every STATS_EVERY polls, and a kick for frames a kernel that pushed back left in
 * the tx ring. -EBUSY when another poller has the queue.
 */
static int poll_queue(struct afxdp_port *ap, struct afxdp_queue *q, struct nb_pkt **pkts,
		      unsigned int max)
{
	unsigned int got;

	if (pthread_spin_trylock(&q->rx_lock))
		return -EBUSY;
	got = queue_rx(ap, q, pkts, max);
	if (++q->polls >= STATS_EVERY) {
		q->polls = 0;
		stats_sync(ap, q);
	}
	pthread_spin_unlock(&q->rx_lock);
	if (!pthread_spin_trylock(&q->tx_lock)) {
		/* completed frames back to the UMEM, even when this queue sends nothing more */
		nb_afxdp_umem_swap(q->umem, q->tx_frames, tx_reap(q), NULL, 0, 0);
		if (tx_unsent(q))
			tx_kick(q);
		pthread_spin_unlock(&q->tx_lock);
	}
	return got;
}

static unsigned int afxdp_rx_queues(const struct nb_port *port)
{
	const struct afxdp_port *ap = port->priv;

	return ap->nq;
}

static unsigned int afxdp_rx_queue_burst(struct nb_port *port, unsigned int qi,
					 struct nb_pkt **pkts, unsigned int max)
{
	struct afxdp_port *ap = port->priv;
	int got = poll_queue(ap, &ap->q[qi % ap->nq], pkts, max);

	return got > 0 ? got : 0;
}

/*
 * The socket is readable once its rx ring has a frame. Frames left in the tx ring (a kernel
 * that pushed back) or a fill ring the UMEM could not stock need polls: no sleep then.
 */
static int afxdp_rx_queue_wait(struct nb_port *port, unsigned int qi, struct pollfd *pfd)
{
	struct afxdp_port *ap = port->priv;
	struct afxdp_queue *q = &ap->q[qi % ap->nq];
	bool busy = false;

	/* an empty fill ring would never make the socket readable: stock it first */
	if (!pthread_spin_trylock(&q->rx_lock)) {
		fq_refill(q, NULL, 0, 0);
		busy = xsk_prod_nb_free(&q->fq, RING_SIZE) >= RING_SIZE;
		pthread_spin_unlock(&q->rx_lock);
	}
	if (!busy && !pthread_spin_trylock(&q->tx_lock)) {
		busy = tx_unsent(q);
		pthread_spin_unlock(&q->tx_lock);
	}
	if (busy)
		return -EAGAIN;
	*pfd = (struct pollfd){ .fd = q->fd, .events = POLLIN };
	return 1;
}

static unsigned int afxdp_rx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int max)
{
	struct afxdp_port *ap = port->priv;
	unsigned int got = 0;
	/* a rotating start is fair to the queues; workers sharing the port start apart */
	u32 turn = __atomic_load_n(&ap->rx_next, __ATOMIC_RELAXED);
	u32 start = turn + nb_this_cpu();

	for (u32 k = 0; k < ap->nq && got < max; k++) {
		int n = poll_queue(ap, &ap->q[(start + k) % ap->nq], pkts + got, max - got);

		if (n > 0)
			got += n;
	}
	__atomic_store_n(&ap->rx_next, turn + 1, __ATOMIC_RELAXED);
	return got;
}

/* UMEM frames a packet's bytes take when they are copied: one, or pieces with multi-buffer. */
static u32 tx_pieces(const struct nb_pkt *pkt)
{
	return pkt->len ? (pkt->len + FRAME_SIZE - 1) / FRAME_SIZE : 1;
}

/*
 * Whether packet i of a burst leaves by its frame's descriptor: as the burst's plan found it
 * for the first 64 (bit i of by_desc), asked again beyond (a packet held by the burst alone
 * stays stealable or not while the burst is sent).
 */
static bool tx_by_desc(const struct afxdp_queue *q, struct nb_pkt **pkts, u32 i, u64 by_desc)
{
	if (i < 64)
		return by_desc >> i & 1;
	return nb_afxdp_umem_can_steal(q->umem, pkts[i]);
}

/*
 * Queue the first k packets in the tx ring: a packet whose buffer is one of the UMEM's frames
 * by that frame's descriptor (the packet is freed, the frame is the kernel's until it
 * completes), any other by copying its bytes into frames[], in pieces when it is longer than
 * a frame. Returns the descriptors queued from idx on and, in *nframes, the frames used.
 */
static u32 tx_fill(struct afxdp_queue *q, struct nb_pkt **pkts, u32 k, u32 idx,
		   u64 by_desc, u32 *nframes, u32 *stolen)
{
	u32 slot = 0, used = 0;

	for (u32 i = 0; i < k; i++) {
		struct nb_pkt *pkt = pkts[i];
		struct xdp_desc *d;
		u32 pieces, len = pkt->len;
		u64 addr;

		if (tx_by_desc(q, pkts, i, by_desc) && nb_afxdp_umem_steal(q->umem, pkt, &addr)) {
			d = xsk_ring_prod__tx_desc(&q->tx, idx + slot++);
			*d = (struct xdp_desc){ .addr = addr, .len = len };
			pkts[i] = NULL;
			(*stolen)++;
			continue;
		}
		pieces = tx_pieces(pkt);
		for (u32 p = 0; p < pieces; p++) {
			u32 off = p * FRAME_SIZE, n = min_t(u32, len - off, FRAME_SIZE);

			addr = q->tx_frames[used++];
			d = xsk_ring_prod__tx_desc(&q->tx, idx + slot++);
			nb_pkt_copy_bits(pkt, off, nb_afxdp_umem_data(q->umem, addr), n);
			*d = (struct xdp_desc){ .addr = addr, .len = n,
						.options = p + 1 < pieces ? XDP_PKT_CONTD : 0 };
		}
	}
	*nframes = used;
	return slot;
}

static unsigned int afxdp_tx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct afxdp_port *ap = port->priv;
	struct afxdp_queue *q = &ap->q[nb_this_cpu() % ap->nq];
	u32 idx = 0, k = 0, descs = 0, copies = 0, room, got, used = 0, stolen = 0, done;
	u64 by_desc = 0;	/* bit i: packet i leaves by its descriptor (the first 64) */

	pthread_spin_lock(&q->tx_lock);
	done = tx_reap(q);
	room = xsk_prod_nb_free(&q->tx, RING_SIZE);
	/* the first k packets whose descriptors fit the ring */
	for (; k < n; k++) {
		bool desc = nb_afxdp_umem_can_steal(q->umem, pkts[k]);
		u32 pieces = desc ? 1 : tx_pieces(pkts[k]);

		if (descs + pieces > room || (pieces > 1 && !ap->sg))
			break;
		if (desc && k < 64)
			by_desc |= 1ull << k;
		descs += pieces;
		copies += desc ? 0 : pieces;
	}
	/* completed frames back, frames to copy into out: one trip to the UMEM's free stack */
	got = nb_afxdp_umem_swap(q->umem, q->tx_frames, done, q->tx_frames, copies, 0);
	while (got < copies) {
		/* the UMEM is short of frames: as many packets as they carry */
		bool desc = tx_by_desc(q, pkts, --k, by_desc);
		u32 pieces = desc ? 1 : tx_pieces(pkts[k]);

		descs -= pieces;
		copies -= desc ? 0 : pieces;
	}
	if (descs && xsk_ring_prod__reserve(&q->tx, descs, &idx) != descs)
		k = descs = 0;
	if (descs) {
		tx_fill(q, pkts, k, idx, by_desc, &used, &stolen);
		xsk_ring_prod__submit(&q->tx, descs);
		tx_kick(q);
	}
	/* frames taken and not used; frames sent by descriptor are no packet's any more */
	if (got > used || stolen)
		nb_afxdp_umem_swap(q->umem, q->tx_frames + used, got - used, NULL, 0,
				   -(int)stolen);
	nb_u64_stats_add(&q->tx_packets, k);
	nb_u64_stats_add(&q->tx_by_desc, stolen);
	nb_u64_stats_add(&q->tx_full, n - k);
	pthread_spin_unlock(&q->tx_lock);
	for (u32 i = 0; i < k; i++) {
		if (pkts[i])
			nb_pkt_free(pkts[i]);
	}
	return k;
}

/*
 * The frames in a queue's fill ring that the kernel has not taken, into frames (RING_SIZE of
 * them), when it takes no more once the socket is closed: in copy mode. A zero-copy driver
 * may still receive into them until the kernel releases its buffer pool, later: 0 then.
 */
static u32 fq_unused(struct afxdp_queue *q, u64 *frames)
{
	struct xdp_options xo;
	socklen_t len = sizeof(xo);
	u32 prod = q->fq.cached_prod, n = 0;

	if (getsockopt(q->fd, SOL_XDP, XDP_OPTIONS, &xo, &len) ||
	    (xo.flags & XDP_OPTIONS_ZEROCOPY))
		return 0;
	for (u32 i = __atomic_load_n(q->fq.consumer, __ATOMIC_ACQUIRE); i != prod; i++)
		frames[n++] = *xsk_ring_prod__fill_addr(&q->fq, i);
	return n;
}

/*
 * Close a queue's socket. Received frames not read yet and completed ones go back to the
 * UMEM, which other ports may go on using, and in copy mode the fill ring's once the socket
 * is gone (read after the rx ring: a frame the kernel takes meanwhile is counted once); the
 * tx ring's, and a zero-copy fill ring's, the kernel may still be taking: they stay out of
 * use until the UMEM ends.
 */
static void queue_close(struct afxdp_queue *q)
{
	u32 idx, n;

	nb_pkt_free(q->rx_pkt);
	q->rx_pkt = NULL;
	if (q->xsk) {
		n = xsk_ring_cons__peek(&q->rx, RING_SIZE, &idx);
		for (u32 i = 0; i < n; i++) {
			u64 addr = xsk_ring_cons__rx_desc(&q->rx, idx + i)->addr;

			nb_afxdp_umem_swap(q->umem, &addr, 1, NULL, 0, 0);
		}
		xsk_ring_cons__release(&q->rx, n);
		nb_afxdp_umem_swap(q->umem, q->tx_frames, tx_reap(q), NULL, 0, 0);
		nb_afxdp_umem_socket_close(q->umem, q->xsk, q->tx_frames,
					   fq_unused(q, q->tx_frames));
		q->xsk = NULL;
	}
	pthread_spin_destroy(&q->rx_lock);
	pthread_spin_destroy(&q->tx_lock);
}

static void afxdp_close(struct nb_port *port)
{
	struct afxdp_port *ap = port->priv;
	libxdp_print_fn_t old_xdp = libxdp_set_print(libxdp_print);
	libbpf_print_fn_t old_bpf = libbpf_set_print(libbpf_print);

	nb_afxdp_prog_detach(&ap->prog);
	for (u32 i = 0; i < ap->nq; i++)
		queue_close(&ap->q[i]);
	libxdp_set_print(old_xdp);
	libbpf_set_print(old_bpf);
	free(ap->q);
}

/* The rx queues the interface has (ETHTOOL_GCHANNELS); 0 when the driver does not say. */
static u32 dev_rx_queues(const char *ifname)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return 0;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&ch;
	err = ioctl(fd, SIOCETHTOOL, &ifr);
	close(fd);
	return err ? 0 : ch.rx_count + ch.combined_count;
}

/* Open queue id; a busy queue is named in log only on the last try. */
static int queue_open(struct afxdp_port *ap, struct afxdp_queue *q, u32 id, bool last_try,
		      struct nb_log *log)
{
	const struct xsk_socket_config scfg = {
		.rx_size = RING_SIZE,
		.tx_size = RING_SIZE,
		/* ours is attached once every queue is bound (afxdp_prog.c) */
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.xdp_flags = ap->xdp_flags,
		.bind_flags = ap->bind_flags | XDP_USE_NEED_WAKEUP | (ap->sg ? XDP_USE_SG : 0),
	};
	int err;

	q->id = id;
	pthread_spin_init(&q->rx_lock, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_init(&q->tx_lock, PTHREAD_PROCESS_PRIVATE);
	err = nb_afxdp_umem_socket(ap->ifname, id, &scfg, &q->xsk, &q->umem, &q->rx, &q->tx,
				   &q->fq, &q->cq);
	if (err) {
		q->xsk = NULL;
		if (err == -EBUSY && last_try)
			nb_log_printf(log, "afxdp: queue %u of %s already has an AF_XDP socket\n",
				      id, ap->ifname);
		else if (err == -EADDRINUSE)
			nb_log_printf(log, "afxdp: queue %u of %s is still bound by the socket of an "
				      "afxdp port closed before (the first of a UMEM stays bound "
				      "while other afxdp ports use the UMEM): free once they "
				      "close\n", id, ap->ifname);
		else if (ap->sg && (err == -EINVAL || err == -EOPNOTSUPP))
			;	/* tried again without multi-buffer */
		else if (err != -EBUSY)
			nb_log_printf(log, "afxdp: %s queue %u: cannot bind an AF_XDP socket: "
				      "%s%s%s%s\n", ap->ifname, id, strerror(-err),
				      err == -EOPNOTSUPP && (ap->bind_flags & XDP_ZEROCOPY) ?
				      " (the driver has no zero-copy; try copy)" : "",
				      lib_msg[0] ? "; libxdp: " : "", lib_msg);
		return err;
	}
	q->fd = xsk_socket__fd(q->xsk);
	/* the fill ring gets its frames: what the kernel receives into */
	while (fq_refill(q, NULL, 0, 0))
		;
	if (xsk_prod_nb_free(&q->fq, RING_SIZE) >= RING_SIZE) {
		nb_log_printf(log, "afxdp: %s queue %u: no UMEM frame for the fill ring\n",
			      ap->ifname, id);
		return -ENOMEM;
	}
	return 0;
}

/* The interface's MTU (SIOCGIFMTU): longer TCP frames received are super-frames. */
static int read_mtu(struct afxdp_port *ap, struct nb_log *log)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ap->ifname);
	if (fd < 0 || ioctl(fd, SIOCGIFMTU, &ifr)) {
		err = -errno;
		nb_log_printf(log, "afxdp: %s: reading the MTU: %s\n", ap->ifname,
			      strerror(errno));
	} else {
		ap->mtu = (u32)ifr.ifr_mtu;
	}
	if (fd >= 0)
		close(fd);
	return err;
}

/* What the kernel made of our requests: where the program runs, whether the copy is zero. */
static void read_modes(struct afxdp_port *ap)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, qo);
	struct xdp_options xo;
	socklen_t len = sizeof(xo);

	if (!bpf_xdp_query(ap->ifindex, 0, &qo))
		ap->drv = qo.attach_mode == XDP_ATTACHED_DRV ||
			  qo.attach_mode == XDP_ATTACHED_MULTI;
	if (!getsockopt(ap->q[0].fd, SOL_XDP, XDP_OPTIONS, &xo, &len))
		ap->zerocopy = xo.flags & XDP_OPTIONS_ZEROCOPY;
}

static int parse_words(struct afxdp_port *ap, int argc, char **argv, struct nb_log *log)
{
	const char *ifname = NULL;
	u64 nq = 1;

	ap->sg = true;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(w, "copy") || !strcmp(w, "zerocopy")) {
			ap->bind_flags = w[0] == 'c' ? XDP_COPY : XDP_ZEROCOPY;
			continue;
		}
		if (!val) {
			nb_log_printf(log, "afxdp: \"%s\" needs a value\n", w);
			return -EINVAL;
		}
		i++;
		if (!strcmp(w, "dev")) {
			ifname = val;
		} else if (!strcmp(w, "queues")) {
			if (!nb_port_parse_u64(val, &nq) || !nq || nq > MAX_QUEUES) {
				nb_log_printf(log, "afxdp: queues \"%s\" is wrong: a number "
					      "from 1 to %d\n", val, MAX_QUEUES);
				return -EINVAL;
			}
		} else if (!strcmp(w, "mode")) {
			if (!strcmp(val, "skb") || !strcmp(val, "generic")) {
				ap->xdp_flags = XDP_FLAGS_SKB_MODE;
			} else if (!strcmp(val, "drv") || !strcmp(val, "native")) {
				ap->xdp_flags = XDP_FLAGS_DRV_MODE;
			} else {
				nb_log_printf(log, "afxdp: mode \"%s\" is wrong: expected "
					      "skb or drv\n", val);
				return -EINVAL;
			}
		} else {
			nb_log_printf(log, "afxdp: \"%s\" is wrong: expected dev IFNAME, queues N, "
				      "mode skb|drv, copy or zerocopy\n", w);
			return -EINVAL;
		}
	}
	if (!ifname) {
		nb_log_printf(log, "afxdp: needs \"dev IFNAME\"\n");
		return -EINVAL;
	}
	if (strlen(ifname) >= IFNAMSIZ) {
		nb_log_printf(log, "afxdp: \"%s\" is not an interface name\n", ifname);
		return -EINVAL;
	}
	snprintf(ap->ifname, sizeof(ap->ifname), "%s", ifname);
	ap->nq = (u32)nq;
	return 0;
}

/* Our redirect program on the interface, each queue's socket in its XSKMAP. */
static int prog_attach(struct afxdp_port *ap, struct nb_log *log)
{
	int err = nb_afxdp_prog_attach(&ap->prog, ap->ifindex, ap->ifname, ap->xdp_flags, ap->nq,
				       ap->sg, log);

	for (u32 i = 0; !err && i < ap->nq; i++) {
		err = nb_afxdp_prog_add_socket(&ap->prog, ap->q[i].xsk);
		if (err) {
			nb_log_printf(log, "afxdp: %s queue %u: cannot enter the socket in the "
				      "XSKMAP: %s\n", ap->ifname, i, strerror(-err));
			nb_afxdp_prog_detach(&ap->prog);
		}
	}
	return err;
}

static int afxdp_open(struct nb_port *port, int argc, char **argv, struct nb_log *log)
{
	struct afxdp_port *ap = port->priv;
	libxdp_print_fn_t old_xdp;
	libbpf_print_fn_t old_bpf;
	u32 have;
	int err, fd;

	ap->port = port;
	ap->prog = (struct nb_afxdp_prog){ .prog_fd = -1, .map_fd = -1 };
	err = parse_words(ap, argc, argv, log);
	if (err)
		return err;
	ap->ifindex = (int)if_nametoindex(ap->ifname);
	if (!ap->ifindex) {
		nb_log_printf(log, "afxdp: no interface \"%s\"\n", ap->ifname);
		return -ENODEV;
	}
	/* without the privilege, say so plainly rather than through libxdp's first failure */
	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		nb_log_printf(log, "afxdp: %s: cannot open an AF_XDP socket: %s%s\n", ap->ifname,
			      strerror(errno), err == -EPERM || err == -EACCES ?
			      " (needs root: CAP_NET_RAW, CAP_BPF and CAP_NET_ADMIN)" : "");
		return err;
	}
	close(fd);
	have = dev_rx_queues(ap->ifname);
	if (have && ap->nq > have) {
		nb_log_printf(log, "afxdp: queues %u is wrong: %s has %u queue%s\n", ap->nq,
			      ap->ifname, have, have == 1 ? "" : "s");
		return -EINVAL;
	}
	ap->q = calloc(ap->nq, sizeof(*ap->q));
	if (!ap->q)
		return -ENOMEM;
	lib_msg[0] = '\0';
	old_xdp = libxdp_set_print(libxdp_print);
	old_bpf = libbpf_set_print(libbpf_print);
	for (u32 i = 0; i < ap->nq && !err; i++) {
		/*
		 * The kernel frees a closed socket's hold on its queue from a workqueue, so a
		 * queue let go just now (netbpf run twice in a row) is busy for a moment.
		 */
		for (int tries = BUSY_TRIES; tries--;) {
			err = queue_open(ap, &ap->q[i], i, !tries, log);
			if (err)
				queue_close(&ap->q[i]);
			/* a kernel or driver without multi-buffer: frames of a UMEM frame then */
			if (!i && ap->sg && (err == -EINVAL || err == -EOPNOTSUPP)) {
				ap->sg = false;
				tries++;
			} else if (err != -EBUSY || !tries) {
				break;
			} else {
				usleep(BUSY_WAIT_US);
			}
			memset(&ap->q[i], 0, sizeof(ap->q[i]));
		}
		if (err) {
			while (i--)
				queue_close(&ap->q[i]);
		}
	}
	libxdp_set_print(old_xdp);
	libbpf_set_print(old_bpf);
	if (!err) {
		err = read_mtu(ap, log);
		/* every queue bound: the program now sends each queue's frames to its socket */
		if (!err)
			err = prog_attach(ap, log);
		for (u32 i = 0; err && i < ap->nq; i++)
			queue_close(&ap->q[i]);
	}
	if (err) {
		free(ap->q);
		ap->q = NULL;
		return err;
	}
	read_modes(ap);
	/* no offloads: super-frames are segmented and checksums completed before tx_burst */
	port->features = ap->sg ? NB_NETIF_F_SG : 0;
	return 0;
}

static void afxdp_describe(const struct nb_port *port, char *buf, size_t size)
{
	const struct afxdp_port *ap = port->priv;

	snprintf(buf, size, "afxdp dev %s queues %u mode %s %s", ap->ifname, ap->nq,
		 ap->drv ? "drv" : "skb", ap->zerocopy ? "zerocopy" : "copy");
}

static int afxdp_queue_stats(const struct nb_port *port, unsigned int qi,
			     struct nb_port_queue_stats *st)
{
	const struct afxdp_port *ap = port->priv;
	const struct afxdp_queue *q;

	if (qi >= ap->nq)
		return -ENOENT;
	q = &ap->q[qi];
	memset(st, 0, sizeof(*st));
	/* the kernel's counters as last read on the datapath (every STATS_EVERY polls) */
	st->rx_packets = READ_ONCE(q->rx_packets);
	st->tx_packets = READ_ONCE(q->tx_packets);
	st->rx_kernel_drops = READ_ONCE(q->seen.rx_dropped) + READ_ONCE(q->seen.rx_ring_full);
	st->rx_too_big = READ_ONCE(q->rx_too_big);
	st->tx_errors = READ_ONCE(q->seen.tx_invalid_descs) + READ_ONCE(q->tx_full);
	st->rx_lent = READ_ONCE(q->rx_lent);
	st->tx_by_desc = READ_ONCE(q->tx_by_desc);
	st->zero_copy = 1;
	return 0;
}

int nb_afxdp_port_zc_stats(const struct nb_port *port, u64 *rx_lent, u64 *tx_by_desc,
			   struct nb_afxdp_umem **umem)
{
	const struct afxdp_port *ap = port->priv;

	if (strcmp(port->ops->kind, "afxdp"))
		return -EINVAL;
	*rx_lent = *tx_by_desc = 0;
	for (u32 i = 0; i < ap->nq; i++) {
		*rx_lent += READ_ONCE(ap->q[i].rx_lent);
		*tx_by_desc += READ_ONCE(ap->q[i].tx_by_desc);
	}
	*umem = ap->q[0].umem;
	return 0;
}

static const struct nb_port_ops afxdp_port_ops = {
	.kind = "afxdp",
	.priv_size = sizeof(struct afxdp_port),
	.open = afxdp_open,
	.rx_burst = afxdp_rx_burst,
	.rx_queues = afxdp_rx_queues,
	.rx_queue_burst = afxdp_rx_queue_burst,
	.rx_queue_wait = afxdp_rx_queue_wait,
	.tx_burst = afxdp_tx_burst,
	.lltx = true,		/* a lock per queue */
	.close = afxdp_close,
	.describe = afxdp_describe,
	.queue_stats = afxdp_queue_stats,
};
NB_PORT_REGISTER(afxdp_port_ops)
