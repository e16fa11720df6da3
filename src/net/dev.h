/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct nb_dev, the twin of the kernel's struct net_device: a registry entry with an ifindex
 * and a name, up/down, mtu, MAC, per-CPU counters and a port backend (io/port.h) that moves its
 * frames.
 */
#ifndef NB_NET_DEV_H
#define NB_NET_DEV_H

#include <net/if.h>
#include <linux/if_ether.h>

#include "common/types.h"

struct nb_pkt;
struct nb_port;
struct nb_log;
struct nb_xdp_dev;
struct nb_tc_dev;

/* Why a packet was dropped, as the kernel's skb_drop_reason (the ones this datapath has). */
enum nb_drop_reason {
	NB_DROP_NOT_SPECIFIED = 0,
	NB_DROP_DEV_DOWN,	/* device is down */
	NB_DROP_NO_DEV,		/* redirect target missing */
	NB_DROP_TC_INGRESS,	/* TC_ACT_SHOT at ingress */
	NB_DROP_TC_EGRESS,	/* TC_ACT_SHOT at egress */
	NB_DROP_XDP,		/* XDP_DROP */
	NB_DROP_XDP_ABORTED,	/* XDP_ABORTED or an unknown XDP verdict */
	NB_DROP_RECURSION,	/* redirect nesting limit */
	NB_DROP_TX_ERROR,	/* the port could not transmit */
	NB_DROP_TOO_BIG,	/* longer than the mtu or the buffer */
	NB_DROP_NOMEM,		/* no packet buffer */
	NB_DROP_REASON_MAX,
};

const char *nb_drop_reason_name(enum nb_drop_reason reason);

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
	u64 drops[NB_DROP_REASON_MAX];
} __attribute__((aligned(64)));

/* The sum over every worker. */
struct nb_dev_stats_total {
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_packets;
	u64 tx_bytes;
	u64 host_packets;
	u64 host_bytes;
	u64 consumed;
	u64 clones;
	u64 rx_dropped;		/* sum of drops */
	u64 drops[NB_DROP_REASON_MAX];
};

struct nb_dev {
	u32 ifindex;
	char name[IFNAMSIZ];
	u32 mtu;
	u8 addr[ETH_ALEN];
	bool up;
	int refcnt;
	struct nb_port *port;		/* backend that moves the frames; NULL: none */
	struct nb_dev_stats *stats;	/* nb_nr_cpus() entries */
	struct nb_dev *next;		/* registry list */
	struct nb_dev *peer;		/* pipe pairs: the other end (bpf_redirect_peer) */
	void *priv;			/* for the datapath layers above (tc, XDP hook) */
	struct nb_tc_dev *tc;		/* clsact/ingress qdisc: the tc hooks (net/tc) */
	struct nb_xdp_dev *xdp;		/* XDP program and bulk queues (net/xdp.h), NULL: unused */
};

#define NB_DEV_DEFAULT_MTU 1500

/*
 * Create a device named name (unique) with the next free ifindex, or ifindex when not 0.
 * Devices start down, with the default mtu and a locally administered MAC derived from the
 * ifindex. Returns 0 or a negative errno with the reason in log.
 */
int nb_dev_create(const char *name, u32 ifindex, struct nb_dev **devp, struct nb_log *log);
/* Unregister and free (when the last reference goes); the port is closed. */
void nb_dev_destroy(struct nb_dev *dev);
struct nb_dev *nb_dev_get(struct nb_dev *dev);
void nb_dev_put(struct nb_dev *dev);
/* Lookups return a reference (put it) or NULL (dev_get_by_index, dev_get_by_name). */
struct nb_dev *nb_dev_get_by_index(u32 ifindex);
struct nb_dev *nb_dev_get_by_name(const char *name);
/* Without a reference, for the datapath while the device list is stable (RCU readers). */
struct nb_dev *nb_dev_lookup_index(u32 ifindex);
/* Destroy every device (tests, exit). */
void nb_dev_destroy_all(void);

int nb_dev_set_up(struct nb_dev *dev, bool up);
int nb_dev_set_mtu(struct nb_dev *dev, u32 mtu, struct nb_log *log);
void nb_dev_set_addr(struct nb_dev *dev, const u8 addr[ETH_ALEN]);
/* Attach a port backend (the device takes it; closed with the device). */
void nb_dev_set_port(struct nb_dev *dev, struct nb_port *port);

/*
 * Device events for the layers above (the kernel's netdevice notifier): NB_DEV_UNREGISTER runs
 * when a device leaves the registry, before its last reference goes, so that tc can free its
 * qdisc and actions drop the device they point at.
 */
enum nb_dev_event {
	NB_DEV_UNREGISTER,
};

struct nb_dev_notifier {
	void (*call)(struct nb_dev *dev, enum nb_dev_event event);
	struct nb_dev_notifier *next;
};

void nb_dev_register_notifier(struct nb_dev_notifier *nb);

void nb_dev_stats_read(const struct nb_dev *dev, struct nb_dev_stats_total *total);
void nb_dev_stats_reset(struct nb_dev *dev);

/* Counting on this worker. */
struct nb_dev_stats *nb_dev_this_stats(struct nb_dev *dev);

static inline void nb_dev_count_rx(struct nb_dev *dev, u32 bytes)
{
	struct nb_dev_stats *s = nb_dev_this_stats(dev);

	s->rx_packets++;
	s->rx_bytes += bytes;
}

static inline void nb_dev_count_tx(struct nb_dev *dev, u32 bytes)
{
	struct nb_dev_stats *s = nb_dev_this_stats(dev);

	s->tx_packets++;
	s->tx_bytes += bytes;
}

static inline void nb_dev_count_drop(struct nb_dev *dev, enum nb_drop_reason reason)
{
	nb_dev_this_stats(dev)->drops[reason]++;
}

/* Drop a packet: count it on dev (when not NULL) for reason and free it (kfree_skb_reason). */
void nb_pkt_drop(struct nb_pkt *pkt, struct nb_dev *dev, enum nb_drop_reason reason);

/*
 * Receive a burst from the device's port (at most max, NB_BURST in the datapath), counting
 * rx. Returns the number received.
 */
unsigned int nb_dev_rx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int max);
/*
 * Transmit a burst through the port. Every packet is consumed: sent ones count as tx, the rest
 * are dropped (device down, too big, port failure) and counted by reason. Returns the number
 * sent.
 */
unsigned int nb_dev_tx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n);

#endif /* NB_NET_DEV_H */
