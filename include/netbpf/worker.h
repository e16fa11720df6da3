/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The datapath on a thread of the embedder's own, run to completion as a DPDK lcore runs its
 * loop, instead of on nb_datapath's workers (include/netbpf/datapath.h). The thread names its
 * worker index once (nb_set_this_cpu: per-CPU maps and counters use it; two threads running
 * packets at once need two indexes) and is an epoch reader while it runs packets
 * (include/netbpf/epoch.h):
 *
 *	nb_set_this_cpu(0);
 *	nb_epoch_online();
 *	while (running) {
 *		nb_worker_poll(devs, n);	   frames from the devices' ports, or
 *		nb_worker_rx_burst(dev, pkts, k);  frames of the caller's own I/O, then
 *		nb_worker_flush();
 *		nb_epoch_quiescent();
 *	}
 *	nb_epoch_offline();
 */
#ifndef NETBPF_WORKER_H
#define NETBPF_WORKER_H

#ifdef __cplusplus
extern "C" {
#endif

struct nb_dev;
struct nb_pkt;

/*
 * One round over devs: a burst of up to NB_BURST frames from each device's port through its
 * receive path (XDP, tc ingress, delivery, redirects), then nb_worker_flush. Returns the frames
 * received.
 */
unsigned int nb_worker_poll(struct nb_dev *const *devs, unsigned int n);
/*
 * Frames the caller received for dev by its own means (packets of nb_pkt_alloc_data, at most
 * NB_BURST): counted as dev's receive and run through its receive path, as a burst from its
 * port is. The datapath takes every packet (a down device drops and counts them). What they
 * make the datapath send is queued until nb_worker_flush.
 */
void nb_worker_rx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n);
/*
 * The end of a burst: XDP's redirect queues, the backlog, then the transmit queues to ports;
 * last, the callbacks of the bpf_timers queued on this CPU that are due.
 */
void nb_worker_flush(void);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_WORKER_H */
