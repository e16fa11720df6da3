// SPDX-License-Identifier: GPL-2.0
/*
 * The pipe port, the veth twin: frames one end transmits wait in the other end's receive ring
 * until that end's device polls it. A full ring refuses the rest of a burst (the caller drops
 * and counts them, as veth counts a full backlog). An end without a peer, or whose peer device
 * is down, refuses everything (veth drops what its down peer cannot receive).
 * Words: "ring N" (default 1024 frames, a power of two).
 *
 * A worker that sleeps on an end (rx_queue_wait) waits on its eventfd: the peer rings it after
 * a burst only while the end says it is waited on, so a busy pipe makes no system call.
 */
#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "io/pipe.h"
#include "io/port.h"
#include "pkt/pkt.h"
#include "common/barrier.h"
#include "common/u64_stats.h"

struct pipe_end {
	struct pipe_end *peer;
	struct nb_port *port;		/* this end: its device's state decides delivery */
	pthread_spinlock_t lock;	/* taken once per burst, by the writer and the reader */
	struct nb_pkt **ring;
	u32 size;			/* power of two */
	u32 head;			/* next to read */
	u32 tail;			/* next to write */
	u64 rx_packets;
	u64 tx_packets;
	int efd;			/* rung for a sleeping reader; -1 until one sleeps */
	int waited;			/* a reader sleeps on efd */
};

static const struct nb_port_ops pipe_port_ops;

static unsigned int pipe_tx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct pipe_end *self = port->priv, *peer = self->peer;
	unsigned int done;

	/* No peer, or a peer device that is down: the frames cannot be delivered. */
	if (!peer || !nb_port_dev_is_up(peer->port))
		return 0;
	pthread_spin_lock(&peer->lock);
	for (done = 0; done < n && peer->tail - peer->head < peer->size; done++) {
		peer->ring[peer->tail & (peer->size - 1)] = pkts[done];
		/* the receiver peeks at tail without the lock */
		WRITE_ONCE(peer->tail, peer->tail + 1);
	}
	/* every sender through self holds this lock */
	nb_u64_stats_add(&self->tx_packets, done);
	pthread_spin_unlock(&peer->lock);
	/* the frames are there before the reader's sleep is looked at (it looks the other way) */
	smp_mb();
	if (done && __atomic_load_n(&peer->waited, __ATOMIC_SEQ_CST) &&
	    __atomic_exchange_n(&peer->waited, 0, __ATOMIC_SEQ_CST)) {
		u64 one = 1;
		ssize_t put = write(peer->efd, &one, sizeof(one));

		(void)put;
	}
	return done;
}

static unsigned int pipe_rx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int max)
{
	struct pipe_end *self = port->priv;
	unsigned int n;

	if (READ_ONCE(self->tail) == READ_ONCE(self->head))
		return 0;
	pthread_spin_lock(&self->lock);
	for (n = 0; n < max && self->head != self->tail; n++) {
		struct nb_pkt *pkt = self->ring[self->head & (self->size - 1)];

		WRITE_ONCE(self->head, self->head + 1);
		pkt->next = NULL;
		pkts[n] = pkt;
	}
	nb_u64_stats_add(&self->rx_packets, n);
	pthread_spin_unlock(&self->lock);
	return n;
}

static int pipe_rx_queue_wait(struct nb_port *port, unsigned int q, struct pollfd *pfd)
{
	struct pipe_end *self = port->priv;
	u64 val;

	(void)q;
	if (self->efd < 0) {
		/* only the reader's worker makes it, before the first sleep; writers read it after */
		int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

		if (efd < 0)
			return -EAGAIN;
		__atomic_store_n(&self->efd, efd, __ATOMIC_RELEASE);
	} else if (read(self->efd, &val, sizeof(val)) < 0) {
		/* nothing rung since the last sleep */
	}
	__atomic_store_n(&self->waited, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&self->tail, __ATOMIC_SEQ_CST) !=
	    __atomic_load_n(&self->head, __ATOMIC_RELAXED)) {
		__atomic_store_n(&self->waited, 0, __ATOMIC_RELAXED);
		return -EAGAIN;		/* frames came meanwhile */
	}
	*pfd = (struct pollfd){ .fd = self->efd, .events = POLLIN };
	return 1;
}

static void pipe_close(struct nb_port *port)
{
	struct pipe_end *self = port->priv;

	if (self->peer)
		self->peer->peer = NULL;
	while (self->head != self->tail)
		nb_pkt_free(self->ring[self->head++ & (self->size - 1)]);
	free(self->ring);
	if (self->efd >= 0)
		close(self->efd);
	pthread_spin_destroy(&self->lock);
}

static int pipe_open(struct nb_port *port, int argc, char **argv, struct nb_log *log)
{
	struct pipe_end *self = port->priv;
	u64 size = 1024;

	for (int i = 0; i < argc; i += 2) {
		if (!strcmp(argv[i], "ring") && i + 1 < argc && nb_port_parse_u64(argv[i + 1], &size) &&
		    size >= 1 && size <= (1u << 20) && !(size & (size - 1)))
			continue;
		nb_log_printf(log, "pipe: \"%s\" is wrong: expected ring N (a power of two)\n",
			      argv[i]);
		return -EINVAL;
	}
	self->ring = calloc(size, sizeof(*self->ring));
	if (!self->ring)
		return -ENOMEM;
	self->size = (u32)size;
	self->port = port;
	self->efd = -1;
	pthread_spin_init(&self->lock, PTHREAD_PROCESS_PRIVATE);
	return 0;
}

static void pipe_describe(const struct nb_port *port, char *buf, size_t size)
{
	const struct pipe_end *self = port->priv;
	const char *peer = self->peer ? nb_port_dev_name(self->peer->port) : NULL;

	if (peer)
		snprintf(buf, size, "pipe peer %s", peer);
	else
		snprintf(buf, size, "pipe unconnected");
}

static int pipe_queue_stats(const struct nb_port *port, unsigned int q,
			    struct nb_port_queue_stats *st)
{
	const struct pipe_end *self = port->priv;

	if (q)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->rx_packets = nb_u64_stats_read(&self->rx_packets);
	st->tx_packets = nb_u64_stats_read(&self->tx_packets);
	return 0;
}

int nb_pipe_connect(struct nb_port *a, struct nb_port *b)
{
	struct pipe_end *ea, *eb;

	if (a->ops != &pipe_port_ops || b->ops != &pipe_port_ops || a == b)
		return -EINVAL;
	ea = a->priv;
	eb = b->priv;
	if (ea->peer || eb->peer)
		return -EBUSY;
	ea->peer = eb;
	eb->peer = ea;
	return 0;
}

static const struct nb_port_ops pipe_port_ops = {
	.kind = "pipe",
	.features = NB_NETIF_F_ALL,	/* the veth twin: a frame moves as it is */
	.priv_size = sizeof(struct pipe_end),
	.open = pipe_open,
	.rx_burst = pipe_rx_burst,
	.rx_queue_wait = pipe_rx_queue_wait,
	.tx_burst = pipe_tx_burst,
	.lltx = true,		/* the peer's ring has its lock */
	.close = pipe_close,
	.describe = pipe_describe,
	.queue_stats = pipe_queue_stats,
};
NB_PORT_REGISTER(pipe_port_ops)
