/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Port backends: what moves a device's frames in and out, the twin of a driver. Each kind is one
 * ops table registered by name (gen, sink, pipe, pcap, afpacket, afxdp, tap are the library's);
 * an embedder adds its own the same way, or gives one device a port of its own ops:
 *
 *   static unsigned int my_tx(struct nb_port *port, struct nb_pkt **pkts, unsigned int n) {...}
 *   static const struct nb_port_ops my_ops = { .kind = "mine", .tx_burst = my_tx, ... };
 *
 *   nb_port_register(&my_ops);                 then nb_dev_attach_port(dev, "mine", words, log)
 *   port = nb_port_alloc(&my_ops);             or one port, set up by its creator:
 *   nb_dev_set_port(dev, port);
 *
 * The datapath calls rx_burst and tx_burst in bursts of at most NB_BURST frames, from its
 * workers; packets are made and read with include/netbpf/pkt.h.
 */
#ifndef NETBPF_PORT_H
#define NETBPF_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <poll.h>
#include <linux/types.h>

#include <netbpf/log.h>
#include <netbpf/pkt.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_dev;
struct nb_pkt;
struct nb_port;

/* Frames moved per call on the datapath. */
#define NB_BURST 32


/* One queue of a multi-queue port (afpacket, tap: `queues N`), for show output and tests. */
struct nb_port_queue_stats {
	__u64 rx_packets;	/* frames handed to the datapath */
	__u64 tx_packets;	/* frames the kernel took */
	__u64 rx_kernel_drops;	/* frames the kernel dropped before we read them (full) */
	__u64 rx_too_big;	/* frames above the largest linear packet, dropped */
	__u64 tx_errors;	/* frames the kernel refused */
	/* zero copy, counted by the ports that do it (zero_copy set): afxdp's UMEM frames */
	__u64 rx_lent;		/* frames whose receive buffer became the packet's, uncopied */
	__u64 tx_by_desc;	/* frames sent by descriptor, their buffer a frame already */
	__u32 zero_copy;	/* 1: the port counts rx_lent and tx_by_desc */
};

struct nb_port_ops {
	const char *kind;		/* "gen", "sink", "pipe", "pcap", ... */
	size_t priv_size;		/* bytes of backend state behind nb_port_priv() */
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
	 * locks what it shares itself. Otherwise the datapath serialises it with the port's tx
	 * lock, as dev_queue_xmit does with HARD_TX_LOCK.
	 */
	bool lltx;
	/* NB_NETIF_F_*: what tx_burst takes, unless open sets the port's features otherwise */
	__u32 features;
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

/* 0, or -EEXIST when the kind is registered already (-ENOMEM). */
int nb_port_register(const struct nb_port_ops *ops);
/* A port of ops with zeroed private state, opened by its creator (no words): NULL on ENOMEM. */
struct nb_port *nb_port_alloc(const struct nb_port_ops *ops);
/* Close a port no device holds (the device closes its own). */
void nb_port_close(struct nb_port *port);
/* The backend's state, ops->priv_size bytes. */
void *nb_port_priv(const struct nb_port *port);
/* The device the port serves (NULL until it is given one). */
struct nb_dev *nb_port_dev(const struct nb_port *port);
/* Give dev the port (it closes the port it had); the device owns it from then on. */
void nb_dev_set_port(struct nb_dev *dev, struct nb_port *port);
/* The device's port, or NULL. */
struct nb_port *nb_dev_port(const struct nb_dev *dev);

/* What a sink port counted: -EINVAL when port is not a sink. */
struct nb_sink_counts {
	__u64 packets;
	__u64 bytes;
};

int nb_sink_counts(const struct nb_port *port, struct nb_sink_counts *counts);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_PORT_H */
