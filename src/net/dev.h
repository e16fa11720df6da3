/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct nb_dev, the twin of the kernel's struct net_device: a registry entry with an ifindex
 * and a name, up/down, mtu, MAC, per-CPU counters and a port backend (io/port.h) that moves its
 * frames. The public calls are in <netbpf/dev.h>; this adds the layout and the datapath's side.
 */
#ifndef NB_NET_DEV_H
#define NB_NET_DEV_H

#include <net/if.h>
#include <linux/if_ether.h>
#include <netbpf/dev.h>
#include <netbpf/port.h>

#include <string.h>

#include "common/types.h"
#include "common/u64_stats.h"
#include "net/eth.h"
#include "pkt/pkt.h"

struct nb_pkt;
struct nb_port;
struct nb_log;
struct nb_xdp_dev;
struct nb_tc_dev;
struct nb_inet_dev;
struct nb_tunnel;
struct nb_bridge;
struct nb_br_port;

/* One worker's counters (the kernel's per-CPU rtnl_link_stats64 parts). */
struct nb_dev_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_packets;
	u64 tx_bytes;
	u64 host_packets;	/* delivered to the host side (tc ingress passed them) */
	u64 host_bytes;
	u64 consumed;		/* taken by tc: STOLEN, QUEUED, TRAP */
	u64 clones;		/* new packets made on this device's path (clone redirect, mirror) */
	u64 tc_redirect;	/* sent on by this device's tc hooks (see nb_dev_stats_total) */
	u64 drops[NB_DROP_REASON_MAX];
} __attribute__((aligned(64)));

struct nb_dev {
	u32 ifindex;
	char name[IFNAMSIZ];
	u32 mtu;
	u16 hard_header_len;		/* link header bytes in front of L3 (ETH_HLEN) */
	u8 addr[ETH_ALEN];
	bool up;
	struct nb_port *port;		/* backend that moves the frames; NULL: none */
	struct nb_dev_stats *stats;	/* nb_nr_cpus() entries */
	struct nb_dev *next;		/* registry list */
	struct nb_dev *peer;		/* pipe pairs: the other end (bpf_redirect_peer) */
	void *priv;			/* for the datapath layers above (tc, XDP hook) */
	struct nb_tc_dev *tc;		/* clsact/ingress qdisc: the tc hooks (net/tc) */
	struct nb_xdp_dev *xdp;		/* XDP program and bulk queues (net/xdp.h), NULL: unused */
	struct nb_inet_dev *inet;	/* addresses and IP switches (net/fib.h, inet.c) */
	struct nb_tunnel *tunnel;	/* a tunnel device's state (net/tunnel.h); NULL: none */
	struct nb_bridge *br;		/* a bridge device's state (net/bridge.c); NULL: none */
	struct nb_br_port *br_port;	/* its bridge port when enslaved (rx_handler_data) */
	/*
	 * A cache line of its own: every worker's XDP bulk queue takes a reference on the
	 * devices of a poll, and those writes must not evict the fields above, which every
	 * worker reads for every frame (the kernel keeps dev_refcnt per CPU for the same reason).
	 */
	int refcnt __attribute__((aligned(64)));
};

#define NB_DEV_DEFAULT_MTU 1500

/* The highest ifindex a device can have. */
#define NB_DEV_MAX_IFINDEX 65535

/* ifindex -> device (NULL: none), written under the registry's lock, read without it. */
extern struct nb_dev **nb_dev_table;

/*
 * Without a reference, for the datapath while the device list is stable (RCU readers): in line,
 * as XDP's bpf_redirect looks its target up for every frame (dev_get_by_index_rcu).
 */
static inline struct nb_dev *nb_dev_lookup_index(u32 ifindex)
{
	struct nb_dev **table = __atomic_load_n(&nb_dev_table, __ATOMIC_ACQUIRE);

	if (!table || ifindex == 0 || ifindex > NB_DEV_MAX_IFINDEX)
		return NULL;
	return __atomic_load_n(&table[ifindex], __ATOMIC_ACQUIRE);
}
/* The highest ifindex a device ever had: walks over the table need go no further. */
u32 nb_dev_max_ifindex(void);
/* nb_dev_set_port, nb_dev_port: include/netbpf/port.h */

/*
 * Device events for the layers above (the kernel's netdevice notifier): NB_DEV_UNREGISTER runs
 * when a device leaves the registry, before its last reference goes, so that tc can free its
 * qdisc and actions drop the device they point at. NB_DEV_REGISTER runs once a new device is
 * in the registry; NB_DEV_UP, NB_DEV_DOWN and NB_DEV_CHANGEMTU when nb_dev_set_up or
 * nb_dev_set_mtu change the state (NETDEV_UP, NETDEV_DOWN, NETDEV_CHANGEMTU), and
 * NB_DEV_CHANGEADDR when nb_dev_set_addr changes the address (NETDEV_CHANGEADDR).
 */
enum nb_dev_event {
	NB_DEV_UNREGISTER,
	NB_DEV_REGISTER,
	NB_DEV_UP,
	NB_DEV_DOWN,
	NB_DEV_CHANGEMTU,
	NB_DEV_CHANGEADDR,
};

struct nb_dev_notifier {
	void (*call)(struct nb_dev *dev, enum nb_dev_event event);
	struct nb_dev_notifier *next;
};

void nb_dev_register_notifier(struct nb_dev_notifier *nb);


/* Counting on this worker. */
struct nb_dev_stats *nb_dev_this_stats(struct nb_dev *dev);

static inline void nb_dev_count_rx(struct nb_dev *dev, u32 bytes)
{
	struct nb_dev_stats *s = nb_dev_this_stats(dev);

	nb_u64_stats_inc(&s->rx_packets);
	nb_u64_stats_add(&s->rx_bytes, bytes);
}

static inline void nb_dev_count_tx(struct nb_dev *dev, u32 bytes)
{
	struct nb_dev_stats *s = nb_dev_this_stats(dev);

	nb_u64_stats_inc(&s->tx_packets);
	nb_u64_stats_add(&s->tx_bytes, bytes);
}

static inline void nb_dev_count_drop(struct nb_dev *dev, enum nb_drop_reason reason)
{
	nb_u64_stats_inc(&nb_dev_this_stats(dev)->drops[reason]);
}

/* Drop a packet: count it on dev (when not NULL) for reason and free it (kfree_skb_reason). */
void nb_pkt_drop(struct nb_pkt *pkt, struct nb_dev *dev, enum nb_drop_reason reason);

/*
 * Receive a burst from the device's port (at most max, NB_BURST in the datapath), counting
 * rx, each frame prepared for the stack (nb_dev_rx_stack_prepare), for a caller that uses the
 * frames itself (the port benches); the worker's receive takes nb_dev_rx_poll's. Returns the
 * number received.
 */
unsigned int nb_dev_rx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int max);
/*
 * Frames received for dev by other means than its port (nb_worker_rx_burst): made dev's and
 * counted as a port's burst is. A down device drops and counts them; returns 0 then, else n.
 */
unsigned int nb_dev_rx_taken(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n);
/*
 * A worker's receive from one queue: the frames become dev's and are counted, but the stack's
 * view is left to nb_worker_receive_burst, after XDP, for the frames XDP passes: as the kernel
 * builds the skb only after its XDP hook, a frame XDP redirects, sends back or drops is never
 * parsed.
 */
unsigned int nb_dev_rx_poll(struct nb_dev *dev, unsigned int queue, struct nb_pkt **pkts,
			    unsigned int max);
/* nb_dev_rx_poll's queue for every queue of the port at once (nb_dev_rx_burst's) */
#define NB_DEV_RX_ALL_QUEUES (~0U)
/*
 * A received frame as the stack wants it (the kernel's skb from the driver): per-hop scratch
 * (qdisc cb, ingress mark, redirect nesting) cleared, the Ethernet header parsed
 * (eth_type_trans), the length for the qdisc layer.
 */
static inline void nb_dev_rx_stack_prepare(struct nb_pkt *pkt)
{
	pkt->tc_at_ingress = 0;
	pkt->redirect_depth = 0;
	memset(&pkt->qdisc_cb, 0, sizeof(pkt->qdisc_cb));
	nb_eth_type_trans(pkt, pkt->dev);
	pkt->qdisc_cb.pkt_len = pkt->len;
}
/*
 * Transmit a burst through the port. Every packet is consumed: sent ones count as tx, the rest
 * are dropped (device down, too big, port failure) and counted by reason. Returns the number
 * sent.
 */
unsigned int nb_dev_tx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n);

#endif /* NB_NET_DEV_H */
