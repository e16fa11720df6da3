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
	sum->rx_lent += nb_u64_stats_read(&src->rx_lent);
	sum->tx_by_desc += nb_u64_stats_read(&src->tx_by_desc);
	sum->zero_copy |= src->zero_copy;
}

/* struct nb_port_ops: include/netbpf/port.h */

/*
 * What a port asks of the device it serves. The ports sit below the datapath, as DPDK's ethdev
 * sits below its application: io never reads a struct nb_dev, it calls these, which the device
 * layer gives with the device (nb_dev_set_port, net/dev.c).
 */
struct nb_port_dev_ops {
	/* Count n frames the port dropped for reason, on this worker's counters. */
	void (*count_drops)(struct nb_dev *dev, enum nb_drop_reason reason, u64 n);
	/* The device is up: a pipe delivers only to a peer that is (veth's peer carrier). */
	bool (*is_up)(const struct nb_dev *dev);
	/* Its name, for a port's describe. */
	const char *(*name)(const struct nb_dev *dev);
};

struct nb_port {
	const struct nb_port_ops *ops;
	struct nb_dev *dev;		/* the device it serves (nb_port_set_dev); io never reads it */
	const struct nb_port_dev_ops *dev_ops;	/* how to ask dev for what the port needs */
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

/* The port serves dev from now on, which answers through ops (the device layer calls it). */
static inline void nb_port_set_dev(struct nb_port *port, struct nb_dev *dev,
				   const struct nb_port_dev_ops *ops)
{
	port->dev = dev;
	port->dev_ops = ops;
}

/* Count n frames dropped for reason on the port's device; a port without one counts nothing. */
static inline void nb_port_count_drops(struct nb_port *port, enum nb_drop_reason reason, u64 n)
{
	if (port->dev && n)
		port->dev_ops->count_drops(port->dev, reason, n);
}

/* Drop a frame the port holds: counted on its device for reason, and freed (nb_pkt_drop). */
static inline void nb_port_drop(struct nb_port *port, struct nb_pkt *pkt,
				enum nb_drop_reason reason)
{
	nb_port_count_drops(port, reason, 1);
	nb_pkt_free(pkt);
}

/* The port's device is up; a port that serves no device is taken as up. */
static inline bool nb_port_dev_is_up(const struct nb_port *port)
{
	return !port->dev || port->dev_ops->is_up(port->dev);
}

/* The name of the port's device, NULL when it serves none. */
static inline const char *nb_port_dev_name(const struct nb_port *port)
{
	return port->dev ? port->dev_ops->name(port->dev) : NULL;
}

/* Word parsing for the backends: a number, a MAC address; false when the word is not one. */
bool nb_port_parse_u64(const char *word, u64 *val);
bool nb_port_parse_mac(const char *word, u8 mac[6]);

#endif /* NB_IO_PORT_H */
