/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive and transmit paths (the kernel's net/core/dev.c): a packet arriving on a device
 * passes the tc ingress hook and is delivered to the device's host side; a packet sent through a
 * device passes the tc egress hook and goes to the device's transmit queue; TC_ACT_REDIRECT at
 * either hook moves it to another device's receive or transmit path (skb_do_redirect).
 *
 * Every function here takes the packet: it is delivered, queued, dropped or consumed, and each
 * of these is counted on a device (struct nb_dev_stats). Per-worker state (the backlog, the
 * transmit queues, the nesting counters) lives in the worker's softnet data (nb_this_cpu()).
 */
#ifndef NB_NET_CORE_H
#define NB_NET_CORE_H

#include "common/types.h"

struct nb_pkt;
struct nb_dev;

/* Return values of the receive path (NET_RX_*) and the transmit path (NET_XMIT_*). */
#define NB_NET_RX_SUCCESS 0
#define NB_NET_RX_DROP 1
#define NB_NET_XMIT_SUCCESS 0
#define NB_NET_XMIT_DROP 1

/* Nested transmits one worker allows (XMIT_RECURSION_LIMIT); deeper ones drop. */
#define NB_XMIT_RECURSION_LIMIT 8
/*
 * Trips through the backlog (redirects and mirred into a receive path) one packet may take. The
 * kernel has no such limit (such loops go round its backlog for ever); netbpf drops the packet
 * on the hop after this many, counted as NB_DROP_RECURSION.
 */
#define NB_RX_REDIRECT_LIMIT 8
/* Packets a worker's backlog holds (netdev_max_backlog). */
#define NB_BACKLOG_MAX 1000

/* The receive path of pkt->dev (__netif_receive_skb): tc ingress, then the host side. */
int nb_netif_receive(struct nb_pkt *pkt);
/* Queue pkt for this worker's receive path (netif_rx): it runs at nb_net_flush. */
int nb_netif_rx(struct nb_pkt *pkt);
/* The transmit path of pkt->dev (dev_queue_xmit): tc egress, then the transmit queue. */
int nb_dev_queue_xmit(struct nb_pkt *pkt);
/* Act on TC_ACT_REDIRECT with this worker's redirect info (skb_do_redirect); -EAGAIN: peer. */
int nb_skb_do_redirect(struct nb_pkt *pkt);
/*
 * Send a packet to dev as bpf_redirect and bpf_clone_redirect do (__bpf_redirect): with
 * BPF_F_INGRESS into its receive path, otherwise its transmit path.
 */
int nb_bpf_redirect_pkt(struct nb_pkt *pkt, struct nb_dev *dev, u32 flags);

/* Transmit nesting of this worker (dev_xmit_recursion and its inc/dec). */
bool nb_dev_xmit_recursion(void);
void nb_dev_xmit_recursion_inc(void);
void nb_dev_xmit_recursion_dec(void);
/* Mirred nesting of this worker (mirred_nest_level): returns the new level. */
unsigned int nb_mirred_nest_inc(void);
void nb_mirred_nest_dec(void);

/* Run the backlog, then hand every transmit queue to its port: the end of a burst. */
void nb_net_flush(void);
/* Hand the transmit queues to the ports (dev_hard_start_xmit for the queued bursts). */
void nb_dev_xmit_flush(void);

#endif /* NB_NET_CORE_H */
