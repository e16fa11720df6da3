/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The devmap and devmap_hash map types (devmap.c): entries name a device and, optionally, a
 * devmap program. The redirect path (xdp_redirect.c) queues frames through them.
 */
#ifndef NB_NET_DEVMAP_H
#define NB_NET_DEVMAP_H

#include "common/types.h"

struct nb_dev;
struct nb_map;
struct nb_pkt;
struct nb_dtab_netdev;

/* Queue pkt for the device of entry dst with the entry's program (dev_map_enqueue). */
int nb_dev_map_enqueue(struct nb_dtab_netdev *dst, struct nb_pkt *pkt, struct nb_dev *dev_rx);
/*
 * BPF_F_BROADCAST: a copy of pkt to every entry of map that can take it, minus dev_rx when
 * exclude_ingress (dev_map_enqueue_multi). Consumes pkt on success (also when no entry takes
 * it); on error the caller still owns pkt.
 */
int nb_dev_map_enqueue_multi(struct nb_pkt *pkt, struct nb_dev *dev_rx, struct nb_map *map,
			     bool exclude_ingress);

#endif /* NB_NET_DEVMAP_H */
