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
 * Each queue has a socket with its own UMEM of 2 x 2048 frames of 4 KiB: the first half
 * circulates between the fill ring and the rx ring, the second half between a free list, the
 * tx ring and the completion ring, so receiving and transmitting never share state and take
 * separate locks. Once every queue is bound, the port attaches its own redirect program
 * (afxdp_prog.c: every frame of a queue with a socket into the XSKMAP, as libxdp's default
 * program does, but declared able to take frames in pieces, xdp.frags, which libxdp's is not:
 * a driver-mode program on a veth with a 9000-byte MTU needs it) and wants the interface to
 * itself: one with an XDP program already is refused. Closing the port detaches it.
 *
 * Frames are copied between the UMEM and packet buffers (nb_pkt): a received frame goes back to
 * the fill ring in the same burst, so the kernel never waits on the datapath. Zero-copy into
 * nb_pkt (packet buffers that are UMEM frames) is a later step.
 *
 * Frames longer than a UMEM frame come and go in pieces (XDP_USE_SG, multi-buffer AF_XDP: a
 * descriptor with XDP_PKT_CONTD is followed by the frame's next piece), up to NB_PKT_MAX_FRAME;
 * a kernel without it takes and gives a UMEM frame's worth (3840 bytes) at most.
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

#define FRAME_SIZE XSK_UMEM__DEFAULT_FRAME_SIZE
#define RING_SIZE 2048			/* every ring; rx and tx frames each */
#define NR_FRAMES (2 * RING_SIZE)
#define TX_FRAMES_BASE ((u64)RING_SIZE * FRAME_SIZE)
#define STATS_EVERY 64			/* polls between XDP_STATISTICS reads */
#define MAX_QUEUES 64
#define BUSY_TRIES 50			/* a busy queue is tried this often, */
#define BUSY_WAIT_US 10000		/* this far apart */
#define RX_PEEK 64			/* descriptors looked at per poll: pieces of frames */

struct afxdp_queue {
	u32 id;
	struct xsk_socket *xsk;
	struct xsk_umem *umem;
	void *area;
	int fd;

	/* receive side, under rx_lock */
	pthread_spinlock_t rx_lock;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod fq;
	u32 polls;
	struct xdp_statistics seen;	/* what has been counted already */
	u64 rx_packets;
	u64 rx_too_big;
	u64 fq_stash[RX_PEEK];		/* frames the fill ring had no room for yet */
	u32 fq_nstash;
	struct nb_pkt *rx_pkt;		/* a frame whose next piece is still to come */
	bool rx_skip;			/* the pieces to come belong to a dropped frame */

	/* transmit side, under tx_lock */
	pthread_spinlock_t tx_lock __attribute__((aligned(64)));
	struct xsk_ring_prod tx;
	struct xsk_ring_cons cq;
	u64 tx_free[RING_SIZE];		/* frame addresses not in the kernel's hands */
	u32 tx_nfree;
	u64 tx_packets;
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

/* Completed transmits give their frames back to the free list (under tx_lock). */
static void tx_reap(struct afxdp_queue *q)
{
	u32 idx, n = xsk_ring_cons__peek(&q->cq, RING_SIZE, &idx);

	for (u32 i = 0; i < n; i++)
		q->tx_free[q->tx_nfree++] = *xsk_ring_cons__comp_addr(&q->cq, idx + i);
	if (n)
		xsk_ring_cons__release(&q->cq, n);
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
 * Give rx frames back to the kernel. The fill ring has a slot for every rx frame, so there is
 * room for those just taken, except for the instant between the kernel publishing rx
 * descriptors and releasing the fill entries it used: what does not fit waits for the next poll.
 */
static void fq_refill(struct afxdp_queue *q)
{
	u32 idx;

	if (!q->fq_nstash || xsk_ring_prod__reserve(&q->fq, q->fq_nstash, &idx) != q->fq_nstash)
		return;
	for (u32 i = 0; i < q->fq_nstash; i++)
		*xsk_ring_prod__fill_addr(&q->fq, idx + i) = q->fq_stash[i];
	xsk_ring_prod__submit(&q->fq, q->fq_nstash);
	q->fq_nstash = 0;
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
	u32 idx, n, used = 0;

	fq_refill(q);
	if (q->fq_nstash)
		return 0;
	n = xsk_ring_cons__peek(&q->rx, RX_PEEK, &idx);
	if (!n) {
		if (xsk_ring_prod__needs_wakeup(&q->fq))
			recvfrom(q->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		return 0;
	}
	while (used < n && got < max) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&q->rx, idx + used++);
		u64 addr = xsk_umem__add_offset_to_addr(d->addr);
		bool more = d->options & XDP_PKT_CONTD;
		int err;

		q->fq_stash[q->fq_nstash++] = addr & ~(u64)(FRAME_SIZE - 1);
		if (!q->rx_pkt && !q->rx_skip) {
			q->rx_pkt = nb_pkt_alloc();
			if (!q->rx_pkt) {
				rx_drop(ap, q, NB_DROP_NOMEM);
				q->rx_skip = more;
				continue;
			}
		}
		if (q->rx_pkt) {
			err = nb_pkt_append(q->rx_pkt, xsk_umem__get_data(q->area, addr), d->len);
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
	fq_refill(q);
	nb_u64_stats_add(&q->rx_packets, got);
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
 * that pushed back) or rx frames not yet back in the fill ring need polls: no sleep then.
 */
static int afxdp_rx_queue_wait(struct nb_port *port, unsigned int qi, struct pollfd *pfd)
{
	struct afxdp_port *ap = port->priv;
	struct afxdp_queue *q = &ap->q[qi % ap->nq];
	bool busy = false;

	if (!pthread_spin_trylock(&q->rx_lock)) {
		busy = q->fq_nstash;
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

/* UMEM frames a frame takes: one, or its pieces with multi-buffer. */
static u32 tx_pieces(const struct nb_pkt *pkt)
{
	return pkt->len ? (pkt->len + FRAME_SIZE - 1) / FRAME_SIZE : 1;
}

static unsigned int afxdp_tx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct afxdp_port *ap = port->priv;
	struct afxdp_queue *q = &ap->q[nb_this_cpu() % ap->nq];
	u32 idx = 0, k = 0, descs = 0, room;

	pthread_spin_lock(&q->tx_lock);
	tx_reap(q);
	room = xsk_prod_nb_free(&q->tx, RING_SIZE);
	if (room > q->tx_nfree)
		room = q->tx_nfree;
	/* the first k frames whose pieces fit: free frames and ring slots */
	for (; k < n; k++) {
		u32 pieces = tx_pieces(pkts[k]);

		if (descs + pieces > room || (pieces > 1 && !ap->sg))
			break;
		descs += pieces;
	}
	if (descs && xsk_ring_prod__reserve(&q->tx, descs, &idx) != descs)
		k = descs = 0;
	for (u32 i = 0, slot = 0; i < k; i++) {
		u32 pieces = tx_pieces(pkts[i]);

		for (u32 p = 0; p < pieces; p++) {
			struct xdp_desc *d = xsk_ring_prod__tx_desc(&q->tx, idx + slot++);
			u32 off = p * FRAME_SIZE, len = min_t(u32, pkts[i]->len - off, FRAME_SIZE);
			u64 addr = q->tx_free[--q->tx_nfree];

			nb_pkt_copy_bits(pkts[i], off, xsk_umem__get_data(q->area, addr), len);
			d->addr = addr;
			d->len = len;
			d->options = p + 1 < pieces ? XDP_PKT_CONTD : 0;
		}
	}
	if (descs) {
		xsk_ring_prod__submit(&q->tx, descs);
		tx_kick(q);
	}
	nb_u64_stats_add(&q->tx_packets, k);
	nb_u64_stats_add(&q->tx_full, n - k);
	pthread_spin_unlock(&q->tx_lock);
	for (u32 i = 0; i < k; i++)
		nb_pkt_free(pkts[i]);
	return k;
}

static void queue_close(struct afxdp_queue *q)
{
	if (q->xsk)
		xsk_socket__delete(q->xsk);
	if (q->umem)
		xsk_umem__delete(q->umem);
	if (q->area)
		munmap(q->area, (size_t)NR_FRAMES * FRAME_SIZE);
	nb_pkt_free(q->rx_pkt);
	q->rx_pkt = NULL;
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
	const struct xsk_umem_config ucfg = {
		.fill_size = RING_SIZE,
		.comp_size = RING_SIZE,
		.frame_size = FRAME_SIZE,
		.frame_headroom = 0,
	};
	const struct xsk_socket_config scfg = {
		.rx_size = RING_SIZE,
		.tx_size = RING_SIZE,
		/* ours is attached once every queue is bound (afxdp_prog.c) */
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.xdp_flags = ap->xdp_flags,
		.bind_flags = ap->bind_flags | XDP_USE_NEED_WAKEUP | (ap->sg ? XDP_USE_SG : 0),
	};
	size_t size = (size_t)NR_FRAMES * FRAME_SIZE;
	u32 idx;
	int err;

	q->id = id;
	pthread_spin_init(&q->rx_lock, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_init(&q->tx_lock, PTHREAD_PROCESS_PRIVATE);
	q->area = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q->area == MAP_FAILED) {
		q->area = NULL;
		nb_log_printf(log, "afxdp: %s queue %u: no memory for the UMEM\n", ap->ifname, id);
		return -ENOMEM;
	}
	err = xsk_umem__create(&q->umem, q->area, size, &q->fq, &q->cq, &ucfg);
	if (err) {
		q->umem = NULL;
		nb_log_printf(log, "afxdp: %s queue %u: cannot register the UMEM: %s\n", ap->ifname,
			      id, strerror(-err));
		return err;
	}
	err = xsk_socket__create(&q->xsk, ap->ifname, id, q->umem, &q->rx, &q->tx, &scfg);
	if (err) {
		q->xsk = NULL;
		if (err == -EBUSY && last_try)
			nb_log_printf(log, "afxdp: queue %u of %s already has an AF_XDP socket\n",
				      id, ap->ifname);
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
	/* the first half of the frames goes to the kernel for receiving */
	if (xsk_ring_prod__reserve(&q->fq, RING_SIZE, &idx) != RING_SIZE) {
		nb_log_printf(log, "afxdp: %s queue %u: the fill ring is short\n", ap->ifname, id);
		return -EIO;
	}
	for (u32 i = 0; i < RING_SIZE; i++)
		*xsk_ring_prod__fill_addr(&q->fq, idx + i) = (u64)i * FRAME_SIZE;
	xsk_ring_prod__submit(&q->fq, RING_SIZE);
	for (u32 i = 0; i < RING_SIZE; i++)
		q->tx_free[i] = TX_FRAMES_BASE + (u64)i * FRAME_SIZE;
	q->tx_nfree = RING_SIZE;
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
	/* the kernel's counters as last read on the datapath (every STATS_EVERY polls) */
	st->rx_packets = READ_ONCE(q->rx_packets);
	st->tx_packets = READ_ONCE(q->tx_packets);
	st->rx_kernel_drops = READ_ONCE(q->seen.rx_dropped) + READ_ONCE(q->seen.rx_ring_full);
	st->rx_too_big = READ_ONCE(q->rx_too_big);
	st->tx_errors = READ_ONCE(q->seen.tx_invalid_descs) + READ_ONCE(q->tx_full);
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
