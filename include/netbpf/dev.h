/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Devices, the twins of the kernel's net_devices, and the ports that move their frames. The
 * calls map onto the ip link words:
 *
 *   ip link add gen0 type gen count 1000 pkt_size 64      nb_dev_create("gen0", 0, &dev, log);
 *                                                          nb_dev_attach_port(dev, "gen",
 *                                                              "count 1000 pkt_size 64", log)
 *   ip link add a type veth peer name b                    nb_dev_create a and b;
 *                                                          nb_dev_pipe_pair(a, b, log)
 *   ip link set dev gen0 up / mtu 9000 / address M          nb_dev_set_up, nb_dev_set_mtu,
 *                                                          nb_dev_set_addr
 *   ip -s link show dev gen0                               nb_dev_stats_read
 *   ip link del dev gen0                                   nb_dev_destroy
 *
 * Port kinds: gen (a pktgen-like generator), sink (counts, "pcap FILE", "keep N"), pipe (the veth
 * twin) and pcap ("rx FILE", "tx FILE", "loop N"); their words are described in src/io/<kind>.c.
 * Every fallible call returns 0 or a negative errno with the reason in log.
 */
#ifndef NETBPF_DEV_H
#define NETBPF_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include <netbpf/log.h>
#include <netbpf/pkt.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_dev;

/* A device's counters summed over every worker. */
struct nb_dev_stats_total {
	__u64 rx_packets;
	__u64 rx_bytes;
	__u64 tx_packets;
	__u64 tx_bytes;
	__u64 host_packets;	/* delivered to the host side (tc ingress passed them) */
	__u64 host_bytes;
	__u64 consumed;		/* taken by tc: STOLEN, QUEUED, TRAP */
	__u64 clones;		/* new packets made on this device's path (clone redirect, mirror) */
	/*
	 * Packets (or copies) this device's tc hooks sent to another device or hook: bpf_redirect
	 * and bpf_redirect_peer verdicts, bpf_clone_redirect, mirred; counted whether or not the
	 * target took them. The kernel has no such counter; XDP's are in nb_xdp_stats.
	 */
	__u64 tc_redirect;
	__u64 rx_dropped;	/* sum of drops */
	__u64 drops[NB_DROP_REASON_MAX];
};

/*
 * Create a device named name (unique, at most 15 characters) with the next free ifindex, or
 * ifindex when not 0. Devices start down, with mtu 1500 and a locally administered MAC derived
 * from the ifindex. The registry holds the reference *devp names until nb_dev_destroy.
 */
int nb_dev_create(const char *name, __u32 ifindex, struct nb_dev **devp, struct nb_log *log);
/* Unregister and free (when the last reference goes); the port is closed. */
void nb_dev_destroy(struct nb_dev *dev);
/* Destroy every device (tests, exit). */
void nb_dev_destroy_all(void);
struct nb_dev *nb_dev_get(struct nb_dev *dev);
void nb_dev_put(struct nb_dev *dev);
/* Lookups return a reference (put it) or NULL (dev_get_by_index, dev_get_by_name). */
struct nb_dev *nb_dev_get_by_index(__u32 ifindex);
struct nb_dev *nb_dev_get_by_name(const char *name);

/*
 * The devices in ifindex order: the first max, each referenced (put them), into devs; returns
 * how many exist (ip link show).
 */
unsigned int nb_dev_list(struct nb_dev **devs, unsigned int max);

__u32 nb_dev_ifindex(const struct nb_dev *dev);
const char *nb_dev_name(const struct nb_dev *dev);
bool nb_dev_is_up(const struct nb_dev *dev);
__u32 nb_dev_mtu(const struct nb_dev *dev);
const __u8 *nb_dev_addr(const struct nb_dev *dev);

int nb_dev_set_up(struct nb_dev *dev, bool up);
int nb_dev_set_mtu(struct nb_dev *dev, __u32 mtu, struct nb_log *log);
void nb_dev_set_addr(struct nb_dev *dev, const __u8 addr[6]);

/*
 * Give dev a port of kind opened with words ("count 10 pkt_size 64"); a port the device had is
 * closed. -EOPNOTSUPP names an unknown kind, -EINVAL the word at fault.
 */
int nb_dev_attach_port(struct nb_dev *dev, const char *kind, const char *words,
		       struct nb_log *log);
/* Join a and b (both without a port) as a veth pair: each one's tx is the other's rx. */
int nb_dev_pipe_pair(struct nb_dev *a, struct nb_dev *b, struct nb_log *log);
/* One line on the port's configuration ("gen count 100", "afpacket dev eth1 queues 2 ..."). */
void nb_dev_port_describe(const struct nb_dev *dev, char *buf, size_t size);

/* The port's own counters, of one queue or of all (nb_dev_port_stats). */
struct nb_dev_port_stats {
	__u64 rx_packets;	/* frames the port handed to the datapath (a generator: made) */
	__u64 tx_packets;	/* frames the port took to send (a sink: kept, a pcap: written) */
	__u64 rx_ring_drops;	/* frames the kernel dropped before the port read them */
	__u64 rx_too_big;	/* frames above the longest netbpf carries, dropped unread */
	__u64 tx_errors;	/* frames the kernel refused */
	/* zero copy, where the port does it (zero_copy set; afxdp): frames that moved uncopied */
	__u64 rx_lent;		/* received: the kernel's buffer became the packet's */
	__u64 tx_by_desc;	/* sent by descriptor: the packet's buffer was a frame of the ring */
	__u32 zero_copy;	/* 1: the port counts rx_lent and tx_by_desc */
};

#define NB_DEV_PORT_ALL_QUEUES (~0U)

/*
 * Queue q's counters, or with NB_DEV_PORT_ALL_QUEUES every queue's summed. -ENOENT past the
 * last queue, -EOPNOTSUPP for a device whose port keeps none (a tunnel, no port).
 */
int nb_dev_port_stats(const struct nb_dev *dev, unsigned int q, struct nb_dev_port_stats *st);

void nb_dev_stats_read(const struct nb_dev *dev, struct nb_dev_stats_total *total);
void nb_dev_stats_reset(struct nb_dev *dev);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_DEV_H */
