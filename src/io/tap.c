// SPDX-License-Identifier: GPL-2.0
/*
 * The tap port: a TAP interface of the kernel (/dev/net/tun, IFF_TAP | IFF_NO_PI), the host
 * side of the datapath. Frames the kernel sends out of the tap are what this port receives;
 * what the port transmits enters the kernel's stack as received on the tap. Words:
 *
 *   dev IFNAME   the tap: created when missing (and gone when the port closes, unless it was
 *                made persistent by someone else), attached to when it exists
 *   queues N     N file descriptors on a multi-queue tap (IFF_MULTI_QUEUE; the kernel spreads
 *                flows over them); rx polls them all, tx uses fd (worker index mod N)
 *   offload on|off   frames carry their offloads in a virtio_net_hdr (IFF_VNET_HDR, default
 *                on), and the tap takes checksums and segmentation left to it (TUNSETOFFLOAD):
 *                the host stack's super-frames and partial checksums move whole both ways,
 *                as between a guest and vhost-net
 *
 * The interface is brought up (SIOCSIFFLAGS) so that frames flow. Reads are non-blocking, a
 * burst of them per poll; writes go one frame per call (a tap takes one frame per write), its
 * pieces gathered (writev). A frame beyond a page is read into the linear part and a buffer of
 * the queue, whose bytes become fragments; one longer than NB_PKT_MAX_FRAME is read whole,
 * dropped and counted as too_big.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/if_tun.h>

#include <netbpf/percpu.h>

#include "io/port.h"
#include "io/vnet_hdr.h"
#include "pkt/pkt.h"
#include "common/u64_stats.h"

#define TAP_MAX_QUEUES 64
/*
 * What a read puts past the linear part lands here: up to the longest frame, the rest of it
 * fragments; one byte more tells a frame too long to keep.
 */
#define TAP_OVERFLOW_SIZE (NB_PKT_MAX_FRAME - NB_PKT_MAX_LEN + 1)
/* Newer than the build machine's uapi headers (Linux 6.2): UDP segmentation (USO). */
#ifndef TUN_F_USO4
#define TUN_F_USO4 0x20
#define TUN_F_USO6 0x40
#endif

struct tap_queue {
	int fd;
	pthread_spinlock_t rx_lock;
	pthread_spinlock_t tx_lock;
	u8 *overflow;			/* TAP_OVERFLOW_SIZE bytes, used under rx_lock */
	struct nb_port_queue_stats stats;
};

struct tap_port {
	struct nb_port *port;
	char ifname[IFNAMSIZ];
	unsigned int nr_queues;
	bool vnet;			/* IFF_VNET_HDR: offloads travel with the frames */
	bool uso;			/* the tap takes UDP super-frames too */
	u32 rx_start;
	struct tap_queue *queues;
};

static void count_drop(struct tap_port *tp, enum nb_drop_reason reason)
{
	nb_port_count_drops(tp->port, reason, 1);
}

static unsigned int queue_rx(struct tap_port *tp, struct tap_queue *q, struct nb_pkt **pkts,
			     unsigned int max)
{
	unsigned int n = 0;

	while (n < max) {
		struct nb_pkt *pkt = nb_pkt_alloc();
		u32 hlen = tp->vnet ? sizeof(struct virtio_net_hdr) : 0;
		struct virtio_net_hdr vh;
		struct iovec iov[3];
		ssize_t len;

		if (unlikely(!pkt)) {
			count_drop(tp, NB_DROP_NOMEM);
			break;
		}
		iov[0] = (struct iovec){ .iov_base = &vh, .iov_len = hlen };
		iov[1] = (struct iovec){ .iov_base = pkt->data, .iov_len = NB_PKT_MAX_LEN };
		iov[2] = (struct iovec){ .iov_base = q->overflow, .iov_len = TAP_OVERFLOW_SIZE };
		len = readv(q->fd, iov + !hlen, 3 - !hlen);
		if (len <= (ssize_t)hlen) {
			nb_pkt_free(pkt);
			break;		/* EAGAIN: nothing more; other errors: try next poll */
		}
		len -= hlen;
		if (unlikely(len > NB_PKT_MAX_FRAME)) {
			nb_u64_stats_inc(&q->stats.rx_too_big);
			nb_port_drop(tp->port, pkt, NB_DROP_TOO_BIG);
			continue;
		}
		nb_pkt_put(pkt, min_t(u32, (u32)len, NB_PKT_MAX_LEN));
		if (len > NB_PKT_MAX_LEN &&
		    nb_pkt_append(pkt, q->overflow, (u32)len - NB_PKT_MAX_LEN)) {
			nb_port_drop(tp->port, pkt, NB_DROP_NOMEM);
			continue;
		}
		if (hlen && unlikely(nb_vnet_hdr_to_pkt(pkt, &vh))) {
			nb_port_drop(tp->port, pkt, NB_DROP_OFFLOAD);
			continue;
		}
		pkts[n++] = pkt;
	}
	nb_u64_stats_add(&q->stats.rx_packets, n);
	return n;
}

static unsigned int tap_rx_queues(const struct nb_port *port)
{
	const struct tap_port *tp = port->priv;

	return tp->nr_queues;
}

/* The queue a worker owns: the try-lock only meets another poller while queues change hands. */
static unsigned int tap_rx_queue_burst(struct nb_port *port, unsigned int qi,
				       struct nb_pkt **pkts, unsigned int max)
{
	struct tap_port *tp = port->priv;
	struct tap_queue *q = &tp->queues[qi % tp->nr_queues];
	unsigned int n;

	if (pthread_spin_trylock(&q->rx_lock))
		return 0;
	n = queue_rx(tp, q, pkts, max);
	pthread_spin_unlock(&q->rx_lock);
	return n;
}

static int tap_rx_queue_wait(struct nb_port *port, unsigned int qi, struct pollfd *pfd)
{
	struct tap_port *tp = port->priv;

	*pfd = (struct pollfd){ .fd = tp->queues[qi % tp->nr_queues].fd, .events = POLLIN };
	return 1;
}

static unsigned int tap_rx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int max)
{
	struct tap_port *tp = port->priv;
	u32 start = __atomic_fetch_add(&tp->rx_start, 1, __ATOMIC_RELAXED);
	unsigned int n = 0;

	for (unsigned int k = 0; k < tp->nr_queues && n < max; k++) {
		struct tap_queue *q = &tp->queues[(start + k) % tp->nr_queues];

		if (pthread_spin_trylock(&q->rx_lock))
			continue;
		n += queue_rx(tp, q, pkts + n, max - n);
		pthread_spin_unlock(&q->rx_lock);
	}
	return n;
}

static unsigned int tap_tx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct tap_port *tp = port->priv;
	struct tap_queue *q = &tp->queues[nb_this_cpu() % tp->nr_queues];
	unsigned int sent = 0, failed = 0;

	pthread_spin_lock(&q->tx_lock);
	for (unsigned int i = 0; i < n; i++) {
		struct nb_pkt *pkt = pkts[i];
		const struct nb_skb_shared_info *sh = nb_pkt_shinfo(pkt);
		struct iovec iov[NB_MAX_SKB_FRAGS + 2];
		struct virtio_net_hdr vh;
		unsigned int cnt = 0;
		ssize_t want = pkt->len;

		if (tp->vnet) {
			if (nb_vnet_hdr_from_pkt(pkt, &vh)) {
				nb_u64_stats_inc(&q->stats.tx_errors);
				pkts[failed++] = pkt;
				continue;
			}
			iov[cnt++] = (struct iovec){ .iov_base = &vh, .iov_len = sizeof(vh) };
			want += sizeof(vh);
		}
		iov[cnt++] = (struct iovec){ .iov_base = pkt->data, .iov_len = nb_pkt_headlen(pkt) };
		for (unsigned int f = 0; pkt->data_len && f < sh->nr_frags; f++)
			iov[cnt++] = (struct iovec){ .iov_base = sh->frags[f].page + sh->frags[f].off,
						     .iov_len = sh->frags[f].size };
		if (writev(q->fd, iov, (int)cnt) == want) {
			nb_pkt_free(pkt);
			sent++;
			continue;
		}
		/* a full queue (EAGAIN) or a refusal: the caller drops and counts it */
		if (errno != EAGAIN)
			nb_u64_stats_inc(&q->stats.tx_errors);
		pkts[failed++] = pkt;
	}
	nb_u64_stats_add(&q->stats.tx_packets, sent);
	pthread_spin_unlock(&q->tx_lock);
	/* the taken frames are freed; the refused ones go to the end for the caller */
	memmove(pkts + sent, pkts, failed * sizeof(*pkts));
	return sent;
}

static void queue_close(struct tap_queue *q)
{
	if (q->fd >= 0)
		close(q->fd);
	free(q->overflow);
	pthread_spin_destroy(&q->rx_lock);
	pthread_spin_destroy(&q->tx_lock);
}

static void tap_close(struct nb_port *port)
{
	struct tap_port *tp = port->priv;

	for (unsigned int i = 0; i < tp->nr_queues; i++)
		queue_close(&tp->queues[i]);
	free(tp->queues);
}

/*
 * What the tap may hand us whole: checksums and TCP segmentation, UDP's too where the kernel
 * knows it (Linux 6.2); the kernel segments and checksums in software what we do not take.
 */
static int set_offload(struct tap_port *tp, struct tap_queue *q, struct nb_log *log)
{
	unsigned int base = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6 | TUN_F_TSO_ECN;
	int hdr = sizeof(struct virtio_net_hdr);

	if (ioctl(q->fd, TUNSETVNETHDRSZ, &hdr)) {
		nb_log_printf(log, "tap: dev %s: TUNSETVNETHDRSZ: %s\n", tp->ifname,
			      strerror(errno));
		return -errno;
	}
	tp->uso = !ioctl(q->fd, TUNSETOFFLOAD, base | TUN_F_USO4 | TUN_F_USO6);
	if (!tp->uso && ioctl(q->fd, TUNSETOFFLOAD, base)) {
		nb_log_printf(log, "tap: dev %s: TUNSETOFFLOAD: %s\n", tp->ifname,
			      strerror(errno));
		return -errno;
	}
	return 0;
}

static int queue_open(struct tap_port *tp, struct tap_queue *q, struct nb_log *log)
{
	struct ifreq ifr = { 0 };
	int err;

	pthread_spin_init(&q->rx_lock, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_init(&q->tx_lock, PTHREAD_PROCESS_PRIVATE);
	q->overflow = malloc(TAP_OVERFLOW_SIZE);
	if (!q->overflow)
		return -ENOMEM;
	q->fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (q->fd < 0) {
		err = -errno;
		nb_log_printf(log, "tap: dev %s: cannot open /dev/net/tun: %s\n", tp->ifname,
			      strerror(-err));
		return err;
	}
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | (tp->nr_queues > 1 ? IFF_MULTI_QUEUE : 0) |
			(tp->vnet ? IFF_VNET_HDR : 0);
	strcpy(ifr.ifr_name, tp->ifname);
	if (!ioctl(q->fd, TUNSETIFF, &ifr))
		return tp->vnet ? set_offload(tp, q, log) : 0;
	err = -errno;
	if (err == -EPERM || err == -EACCES)
		nb_log_printf(log, "tap: dev %s: creating or attaching a tap needs CAP_NET_ADMIN "
			      "(run as root)\n", tp->ifname);
	else if (err == -EBUSY)
		nb_log_printf(log, "tap: dev %s: already attached (open elsewhere, or its "
			      "multi-queue flag differs from queues %u)\n", tp->ifname,
			      tp->nr_queues);
	else if (err == -EINVAL)
		nb_log_printf(log, "tap: dev %s: exists and is not a tap with these flags (%s)\n",
			      tp->ifname, tp->nr_queues > 1 ? "multi-queue" : "single queue");
	else
		nb_log_printf(log, "tap: dev %s: TUNSETIFF: %s\n", tp->ifname, strerror(-err));
	return err;
}

/* Frames flow only through an interface that is up. */
static int set_up(struct tap_port *tp, struct nb_log *log)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		nb_log_printf(log, "tap: dev %s: no socket for SIOCSIFFLAGS: %s\n", tp->ifname,
			      strerror(errno));
		return -errno;
	}
	strcpy(ifr.ifr_name, tp->ifname);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			err = -errno;
	} else if (!(ifr.ifr_flags & IFF_UP)) {
		err = -errno;
	}
	if (err)
		nb_log_printf(log, "tap: dev %s: bringing it up: %s\n", tp->ifname,
			      strerror(-err));
	close(fd);
	return err;
}

static int tap_open(struct nb_port *port, int argc, char **argv, struct nb_log *log)
{
	struct tap_port *tp = port->priv;
	const char *ifname = NULL;
	u64 queues = 1;
	unsigned int i;
	int err = 0;

	tp->port = port;
	tp->vnet = true;
	for (int a = 0; a < argc; a += 2) {
		const char *key = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;

		if (!val) {
			nb_log_printf(log, "tap: \"%s\" needs a value\n", key);
			return -EINVAL;
		}
		if (!strcmp(key, "dev")) {
			ifname = val;
		} else if (!strcmp(key, "queues") && nb_port_parse_u64(val, &queues) && queues &&
			   queues <= TAP_MAX_QUEUES) {
		} else if (!strcmp(key, "offload") && (!strcmp(val, "on") || !strcmp(val, "off"))) {
			tp->vnet = val[1] == 'n';
		} else {
			nb_log_printf(log, "tap: \"%s %s\" is wrong: expected dev IFNAME, "
				      "queues N (1 to %d) or offload on|off\n", key, val,
				      TAP_MAX_QUEUES);
			return -EINVAL;
		}
	}
	if (!ifname) {
		nb_log_printf(log, "tap: needs \"dev IFNAME\"\n");
		return -EINVAL;
	}
	if (strlen(ifname) >= IFNAMSIZ) {
		nb_log_printf(log, "tap: dev \"%s\": interface names are shorter than %d\n", ifname,
			      IFNAMSIZ);
		return -EINVAL;
	}
	strcpy(tp->ifname, ifname);
	tp->nr_queues = (unsigned int)queues;
	tp->queues = calloc(tp->nr_queues, sizeof(*tp->queues));
	if (!tp->queues)
		return -ENOMEM;
	for (i = 0; i < tp->nr_queues; i++)
		tp->queues[i].fd = -1;
	for (i = 0; i < tp->nr_queues && !err; i++)
		err = queue_open(tp, &tp->queues[i], log);
	if (!err)
		err = set_up(tp, log);
	/* what transmit takes whole: with the header, the offloads; frames in pieces always */
	port->features = tp->vnet ? NB_VNET_HDR_FEATURES : NB_NETIF_F_SG;
	if (err) {
		/* queue_open initialised the locks of every queue it reached */
		for (unsigned int k = 0; k < i; k++)
			queue_close(&tp->queues[k]);
		free(tp->queues);
		tp->queues = NULL;
	}
	return err;
}

static void tap_describe(const struct nb_port *port, char *buf, size_t size)
{
	const struct tap_port *tp = port->priv;

	snprintf(buf, size, "tap dev %s queues %u offload %s", tp->ifname, tp->nr_queues,
		 tp->vnet ? (tp->uso ? "on (uso)" : "on") : "off");
}

static int tap_queue_stats(const struct nb_port *port, unsigned int q,
			   struct nb_port_queue_stats *st)
{
	const struct tap_port *tp = port->priv;

	if (q >= tp->nr_queues)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	nb_port_queue_stats_sum(st, &tp->queues[q].stats);
	return 0;
}

static const struct nb_port_ops tap_port_ops = {
	.kind = "tap",
	.priv_size = sizeof(struct tap_port),
	.open = tap_open,
	.rx_burst = tap_rx_burst,
	.rx_queues = tap_rx_queues,
	.rx_queue_burst = tap_rx_queue_burst,
	.rx_queue_wait = tap_rx_queue_wait,
	.tx_burst = tap_tx_burst,
	.lltx = true,		/* a lock per queue */
	.close = tap_close,
	.describe = tap_describe,
	.queue_stats = tap_queue_stats,
};
NB_PORT_REGISTER(tap_port_ops)
