/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XDP sockets inside netbpf (include/netbpf/xsk.h): what XSKMAP slots hold and what an XDP
 * redirect into one delivers to (xsk.c, the twin of net/xdp/xsk.c's receive side; the map is
 * xskmap.c).
 */
#ifndef NB_NET_XSK_H
#define NB_NET_XSK_H

#include <pthread.h>
#include <netbpf/xsk.h>

#include "common/types.h"
#include "bpf/epoch.h"

struct nb_dev;
struct nb_pkt;
struct nb_xsk_map_node;

struct nb_xsk {
	/*
	 * First: a program that looks the socket up in an XSKMAP reads struct bpf_xdp_sock,
	 * whose only field is the queue id, at the pointer it gets.
	 */
	u32 queue_id;
	u32 id;
	struct nb_dev *dev;		/* bound to; referenced */
	int refcnt;			/* the creator's and one per XSKMAP slot */

	pthread_spinlock_t lock;	/* the ring: workers produce, the application consumes */
	struct nb_pkt **ring;
	u32 ring_size;			/* a power of 2 */
	u32 prod, cons;			/* free-running */
	u64 rx_packets;
	u64 rx_ring_full;

	/* The XSKMAP slots holding it (xs->map_list), under nb_xsk_lock. */
	struct nb_xsk_map_node *map_nodes;
	struct nb_epoch_head rcu;
};

/* One XSKMAP slot holding a socket (struct xsk_map_node). */
struct nb_xsk_map_node {
	struct nb_xsk_map_node *next;
	struct nb_xsk **slot;
};

/* Guards socket ids, XSKMAP updates and the sockets' slot lists (the maps' writers). */
extern pthread_mutex_t nb_xsk_lock;

/* A new reference on the socket with this id, or NULL; with nb_xsk_lock held. */
struct nb_xsk *nb_xsk_get_by_id_locked(u32 id);
struct nb_xsk *nb_xsk_get(struct nb_xsk *xs);
/* The last reference frees the socket after a grace period (programs may still hold it). */
void nb_xsk_put(struct nb_xsk *xs);

/*
 * Deliver pkt to xs (xsk_rcv): -EINVAL when the frame did not come from the device and queue
 * xs is bound to, -ENOSPC when the ring is full; 0 when the socket took it.
 */
int nb_xsk_rcv(struct nb_xsk *xs, struct nb_pkt *pkt, struct nb_dev *dev_rx, u32 queue_index);

/* xskmap.c: take xs out of every slot that holds it (the socket is closing). */
void nb_xsk_map_delete_sock(struct nb_xsk *xs);

#endif /* NB_NET_XSK_H */
