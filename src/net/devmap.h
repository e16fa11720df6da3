/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The devmap and devmap_hash map types (devmap.c): entries name a device and, optionally, a
 * devmap program. The redirect path (xdp_redirect.c) queues frames through them.
 */
#ifndef NB_NET_DEVMAP_H
#define NB_NET_DEVMAP_H

#include <linux/bpf.h>

#include "bpf/epoch.h"
#include "common/types.h"
#include "net/xdp.h"

struct nb_dev;
struct nb_map;
struct nb_pkt;

/* An entry of either type (struct bpf_dtab_netdev): what bpf_redirect_map records. */
struct nb_dtab_netdev {
	struct nb_dev *dev;		/* referenced while the entry lives */
	struct nb_prog *xdp_prog;	/* devmap program, referenced; NULL: none */
	struct nb_dtab_netdev *hash_next;	/* devmap_hash bucket chain */
	u32 idx;			/* the key */
	struct bpf_devmap_val val;	/* what lookups return: ifindex and program id */
	struct nb_epoch_head rcu;
};

/*
 * Queue pkt for the device of entry dst with the entry's program (dev_map_enqueue): in line in
 * xdp_do_redirect, as the kernel's is a direct call there, so that the enqueue's own in-line
 * part runs without a call between.
 */
static inline int nb_dev_map_enqueue(struct nb_dtab_netdev *dst, struct nb_pkt *pkt,
				     struct nb_dev *dev_rx)
{
	return nb_xdp_enqueue(dst->dev, pkt, dev_rx, dst->xdp_prog);
}
/*
 * BPF_F_BROADCAST: a copy of pkt to every entry of map that can take it, minus dev_rx when
 * exclude_ingress (dev_map_enqueue_multi). Consumes pkt on success (also when no entry takes
 * it); on error the caller still owns pkt.
 */
int nb_dev_map_enqueue_multi(struct nb_pkt *pkt, struct nb_dev *dev_rx, struct nb_map *map,
			     bool exclude_ingress);

#endif /* NB_NET_DEVMAP_H */
