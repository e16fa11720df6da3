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
 *
 * The interface is brought up (SIOCSIFFLAGS) so that frames flow. Reads are non-blocking, a
 * burst of them per poll; writes go one frame per call (a tap takes one frame per write). A
 * frame longer than NB_PKT_MAX_LEN is read whole, dropped and counted as too_big.
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
#include "net/dev.h"
#include "net/pkt.h"
#include "common/u64_stats.h"

#define TAP_MAX_QUEUES 64
/* A frame read past NB_PKT_MAX_LEN lands here, so that its length is known and it is dropped. */
#define TAP_OVERFLOW_SIZE 65536

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
	u32 rx_start;
	struct tap_queue *queues;
};

static void count_drop(struct tap_port *tp, enum nb_drop_reason reason)
{
	if (tp->port->dev)
		nb_dev_count_drop(tp->port->dev, reason);
}

static unsigned int queue_rx(struct tap_port *tp, struct tap_queue *q, struct nb_pkt **pkts,
			     unsigned int max)
{
	unsigned int n = 0;

	while (n < max) {
		struct nb_pkt *pkt = nb_pkt_alloc();
		struct iovec iov[2];
		ssize_t len;

		if (unlikely(!pkt)) {
			count_drop(tp, NB_DROP_NOMEM);
			break;
		}
		iov[0] = (struct iovec){ .iov_base = pkt->data, .iov_len = NB_PKT_MAX_LEN };
		iov[1] = (struct iovec){ .iov_base = q->overflow, .iov_len = TAP_OVERFLOW_SIZE };
		len = readv(q->fd, iov, 2);
		if (len <= 0) {
			nb_pkt_free(pkt);
			break;		/* EAGAIN: nothing more; other errors: try next poll */
		}
		if (unlikely(len > NB_PKT_MAX_LEN)) {
			nb_u64_stats_inc(&q->stats.rx_too_big);
			nb_pkt_drop(pkt, tp->port->dev, NB_DROP_TOO_BIG);
			continue;
		}
		nb_pkt_put(pkt, (u32)len);
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

		if (write(q->fd, pkt->data, pkt->len) == (ssize_t)pkt->len) {
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
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | (tp->nr_queues > 1 ? IFF_MULTI_QUEUE : 0);
	strcpy(ifr.ifr_name, tp->ifname);
	if (!ioctl(q->fd, TUNSETIFF, &ifr))
		return 0;
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
		} else {
			nb_log_printf(log, "tap: \"%s %s\" is wrong: expected dev IFNAME or "
				      "queues N (1 to %d)\n", key, val, TAP_MAX_QUEUES);
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
	struct nb_port_queue_stats t = { 0 };

	for (unsigned int i = 0; i < tp->nr_queues; i++)
		nb_port_queue_stats_sum(&t, &tp->queues[i].stats);
	snprintf(buf, size, "tap dev %s queues %u, %llu received, %llu sent, %llu too big, "
		 "%llu tx errors", tp->ifname, tp->nr_queues, (unsigned long long)t.rx_packets,
		 (unsigned long long)t.tx_packets, (unsigned long long)t.rx_too_big,
		 (unsigned long long)t.tx_errors);
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
	.tx_burst = tap_tx_burst,
	.lltx = true,		/* a lock per queue */
	.close = tap_close,
	.describe = tap_describe,
	.queue_stats = tap_queue_stats,
};
NB_PORT_REGISTER(tap_port_ops)
