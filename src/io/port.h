/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Port backends: what moves a device's frames in and out. Each backend is one file with one ops
 * table (gen, sink, pipe, pcap, afpacket, afxdp, tap), registered by kind name, as the
 * kernel's rtnl_link_ops are. The datapath calls rx_burst and tx_burst in bursts of NB_BURST.
 */
#ifndef NB_IO_PORT_H
#define NB_IO_PORT_H

#include <errno.h>
#include <poll.h>
#include <pthread.h>

#include <netbpf/log.h>
#include <netbpf/port.h>

#include "common/register.h"
#include "common/types.h"
#include "common/u64_stats.h"

struct nb_pkt;
struct nb_dev;
struct nb_port;

/* NB_BURST, NB_NETIF_F_*, struct nb_port_queue_stats: include/netbpf/port.h */

/* Add queue src's counters to *sum, each read whole while the queue's owner counts on. */
static inline void nb_port_queue_stats_sum(struct nb_port_queue_stats *sum,
					   const struct nb_port_queue_stats *src)
{
	sum->rx_packets += nb_u64_stats_read(&src->rx_packets);
	sum->tx_packets += nb_u64_stats_read(&src->tx_packets);
	sum->rx_kernel_drops += nb_u64_stats_read(&src->rx_kernel_drops);
	sum->rx_too_big += nb_u64_stats_read(&src->rx_too_big);
	sum->tx_errors += nb_u64_stats_read(&src->tx_errors);
}

/* struct nb_port_ops: include/netbpf/port.h */

struct nb_port {
	const struct nb_port_ops *ops;
	struct nb_dev *dev;		/* the device it serves, set by nb_dev_set_port */
	void *priv;
	pthread_spinlock_t tx_lock;	/* one transmitter at a time unless ops->lltx */
	u32 features;			/* NB_NETIF_F_*: ops->features, or what open found */
};

const struct nb_port_ops *nb_port_ops_find(const char *kind);

#define NB_PORT_REGISTER(ops)                                                               \
	NB_REGISTER_AT_LOAD(port_##ops, nb_port_register(&ops), "port kind", ops.kind)

/* Open a port of kind with its words; returns 0 and *portp, or a negative errno and a reason. */
int nb_port_open(const char *kind, int argc, char **argv, struct nb_port **portp,
		 struct nb_log *log);
/* The same from one string of words separated by blanks ("count 10 pkt_size 60"). */
int nb_port_open_str(const char *kind, const char *words, struct nb_port **portp,
		     struct nb_log *log);
/* nb_port_alloc, nb_port_close, nb_port_priv, nb_port_dev: include/netbpf/port.h */

static inline unsigned int nb_port_rx_burst(struct nb_port *port, struct nb_pkt **pkts,
					    unsigned int max)
{
	return port->ops->rx_burst ? port->ops->rx_burst(port, pkts, max) : 0;
}

/* Receive queues of the port: 0 when it never receives. */
static inline unsigned int nb_port_rx_queues(const struct nb_port *port)
{
	if (!port->ops->rx_burst)
		return 0;
	return port->ops->rx_queues ? port->ops->rx_queues(port) : 1;
}

static inline int nb_port_rx_queue_wait(struct nb_port *port, unsigned int q, struct pollfd *pfd)
{
	if (port->ops->rx_queue_wait)
		return port->ops->rx_queue_wait(port, q, pfd);
	/* a port that never receives has nothing to wait for */
	return port->ops->rx_burst || port->ops->rx_queue_burst ? -EAGAIN : 0;
}

/* A burst from queue q (below nb_port_rx_queues); a single-queue port reads its one queue. */
static inline unsigned int nb_port_rx_queue_burst(struct nb_port *port, unsigned int q,
						  struct nb_pkt **pkts, unsigned int max)
{
	if (port->ops->rx_queue_burst)
		return port->ops->rx_queue_burst(port, q, pkts, max);
	return nb_port_rx_burst(port, pkts, max);
}

static inline unsigned int nb_port_tx_burst(struct nb_port *port, struct nb_pkt **pkts,
					    unsigned int n)
{
	unsigned int sent;

	if (!port->ops->tx_burst)
		return 0;
	if (port->ops->lltx)
		return port->ops->tx_burst(port, pkts, n);
	pthread_spin_lock(&port->tx_lock);
	sent = port->ops->tx_burst(port, pkts, n);
	pthread_spin_unlock(&port->tx_lock);
	return sent;
}

static inline int nb_port_queue_stats(const struct nb_port *port, unsigned int q,
				      struct nb_port_queue_stats *st)
{
	return port->ops->queue_stats ? port->ops->queue_stats(port, q, st) : -EOPNOTSUPP;
}

/* Word parsing for the backends: a number, a MAC address; false when the word is not one. */
bool nb_port_parse_u64(const char *word, u64 *val);
bool nb_port_parse_mac(const char *word, u8 mac[6]);

#endif /* NB_IO_PORT_H */
