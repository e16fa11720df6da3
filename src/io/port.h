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

#include "common/register.h"
#include "common/types.h"
#include "common/u64_stats.h"

struct nb_pkt;
struct nb_dev;
struct nb_port;

/* Frames moved per call on the datapath. */
#define NB_BURST 32

/*
 * What a port's transmit takes as it is (the kernel's NETIF_F_* device features); the
 * datapath does the rest in software before tx_burst (nb_validate_xmit): a frame with
 * fragments is made linear without SG, a checksum left to the device (CHECKSUM_PARTIAL) is
 * completed without HW_CSUM, a super-frame is segmented without its GSO type.
 */
#define NB_NETIF_F_SG		(1U << 0)	/* fragments (scatter-gather) */
#define NB_NETIF_F_HW_CSUM	(1U << 1)	/* CHECKSUM_PARTIAL, any protocol */
#define NB_NETIF_F_TSO		(1U << 2)	/* TCP over IPv4 super-frames */
#define NB_NETIF_F_TSO6		(1U << 3)	/* TCP over IPv6 */
#define NB_NETIF_F_TSO_ECN	(1U << 4)	/* TCP super-frames with CWR set */
#define NB_NETIF_F_GSO_UDP_L4	(1U << 5)	/* UDP super-frames (USO) */
#define NB_NETIF_F_GSO_ANY	(1U << 6)	/* any super-frame, tunnels too: kept whole */
/* A port that takes every frame as it is: memory, files, the veth twin. */
#define NB_NETIF_F_ALL		(~0U)

/* One queue of a multi-queue port (afpacket, tap: `queues N`), for show output and tests. */
struct nb_port_queue_stats {
	u64 rx_packets;		/* frames handed to the datapath */
	u64 tx_packets;		/* frames the kernel took */
	u64 rx_kernel_drops;	/* frames the kernel dropped before we read them (ring full) */
	u64 rx_too_big;		/* frames above NB_PKT_MAX_LEN, dropped */
	u64 tx_errors;		/* frames the kernel refused */
};

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

struct nb_port_ops {
	const char *kind;		/* "gen", "sink", "pipe", "pcap", ... */
	size_t priv_size;		/* bytes of backend state behind port->priv */
	/*
	 * Parse the backend's words (iproute2 style: "count 100 pkt_size 64 ...") and open.
	 * Returns 0 or a negative errno with the word at fault named in log; on failure close
	 * is not called, so open frees what it took.
	 */
	int (*open)(struct nb_port *port, int argc, char **argv, struct nb_log *log);
	/* Up to max received frames into pkts; returns how many. NULL: the port never receives. */
	unsigned int (*rx_burst)(struct nb_port *port, struct nb_pkt **pkts, unsigned int max);
	/*
	 * Ports of several receive queues (afpacket, tap, afxdp: `queues N`): how many, and a
	 * burst from queue q alone, so that each datapath worker polls the queues it owns (the
	 * kernel's one NAPI context per queue). NULL: one queue, read by rx_burst.
	 */
	unsigned int (*rx_queues)(const struct nb_port *port);
	unsigned int (*rx_queue_burst)(struct nb_port *port, unsigned int q, struct nb_pkt **pkts,
				       unsigned int max);
	/*
	 * Transmit n frames. The port takes the first k it returns (it frees them or passes them
	 * on); the caller keeps pkts[k..n-1] (it drops and counts them). NULL: tx always fails.
	 */
	unsigned int (*tx_burst)(struct nb_port *port, struct nb_pkt **pkts, unsigned int n);
	/*
	 * Before the worker that owns receive queue q sleeps (it found no frame for a while):
	 * fill *pfd with an fd that poll() finds readable once frames may be there and return 1;
	 * 0 when no frame can come without the datapath's own doing (a generator that is done);
	 * -EAGAIN when the queue has work already or cannot be waited for, so the worker keeps
	 * polling. NULL: -EAGAIN.
	 */
	int (*rx_queue_wait)(struct nb_port *port, unsigned int q, struct pollfd *pfd);
	/*
	 * tx_burst may run on several workers at once (the kernel's NETIF_F_LLTX): the backend
	 * locks what it shares itself. Otherwise nb_port_tx_burst serialises it with the port's
	 * tx lock, as dev_queue_xmit does with HARD_TX_LOCK.
	 */
	bool lltx;
	/* NB_NETIF_F_*: what tx_burst takes, unless open sets port->features otherwise */
	u32 features;
	void (*close)(struct nb_port *port);
	/*
	 * One line describing the port (its configuration, files; counters only where the port
	 * has no queue_stats, which link show prints apart), for link show's "port" line.
	 */
	void (*describe)(const struct nb_port *port, char *buf, size_t size);
	/* Counters of queue q; -ENOENT past the last queue. NULL: a single queue, no counters. */
	int (*queue_stats)(const struct nb_port *port, unsigned int q,
			   struct nb_port_queue_stats *st);
};

struct nb_port {
	const struct nb_port_ops *ops;
	struct nb_dev *dev;		/* the device it serves, set by nb_dev_set_port */
	void *priv;
	pthread_spinlock_t tx_lock;	/* one transmitter at a time unless ops->lltx */
	u32 features;			/* NB_NETIF_F_*: ops->features, or what open found */
};

const struct nb_port_ops *nb_port_ops_find(const char *kind);
/* 0, or -EEXIST when the kind is registered already (-ENOMEM). */
int nb_port_register(const struct nb_port_ops *ops);

#define NB_PORT_REGISTER(ops)                                                               \
	NB_REGISTER_AT_LOAD(port_##ops, nb_port_register(&ops), "port kind", ops.kind)

/* Open a port of kind with its words; returns 0 and *portp, or a negative errno and a reason. */
int nb_port_open(const char *kind, int argc, char **argv, struct nb_port **portp,
		 struct nb_log *log);
/* The same from one string of words separated by blanks ("count 10 pkt_size 60"). */
int nb_port_open_str(const char *kind, const char *words, struct nb_port **portp,
		     struct nb_log *log);
void nb_port_close(struct nb_port *port);
/* A port of ops with zeroed private state, opened by its creator (no words): NULL on ENOMEM. */
struct nb_port *nb_port_alloc(const struct nb_port_ops *ops);

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
