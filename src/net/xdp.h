/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The XDP datapath: the hook that runs a device's XDP program first on every received frame
 * (xdp.c, the twin of do_xdp_generic / bpf_prog_run_generic_xdp), and the redirect machinery
 * shared by XDP_TX, bpf_redirect and bpf_redirect_map (xdp_redirect.c, the twin of
 * xdp_do_redirect and the devmap bulk queues of kernel/bpf/devmap.c).
 *
 * A worker's poll reads a burst from a device, hands it to nb_xdp_rx_burst, gives the frames
 * that passed to the tc ingress path, and at the end of the poll calls nb_xdp_do_flush, which
 * transmits every bulk queue the burst filled. Frames wait in a queue only within one poll.
 */
#ifndef NB_NET_XDP_H
#define NB_NET_XDP_H

#include <errno.h>
#include <linux/bpf.h>
#include <linux/if_link.h>

#include <netbpf/dev.h>
#include <netbpf/log.h>
#include <netbpf/percpu.h>
#include <netbpf/xdp.h>

#include "bpf/map.h"
#include "bpf/prog.h"
#include "common/types.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/redirect.h"

struct nb_dev;
struct nb_prog;
struct nb_map;

/*
 * Bytes the kernel keeps at data_hard_start for the struct xdp_frame it builds on redirect:
 * neither data (xdp_adjust_head) nor data_meta (xdp_adjust_meta) may move below it.
 */
#define NB_XDP_FRAME_SIZE 40

/*
 * One worker's bulk queue towards one device (struct xdp_dev_bulk_queue). dev_rx and xdp_prog
 * are those of the first frame queued in a poll: one poll serves one receiving device, and a
 * device's devmap program comes with the entry that targets it.
 */
struct nb_xdp_bulk_queue {
	struct nb_pkt *q[NB_XDP_BULK_SIZE];
	unsigned int count;
	struct nb_xdp_bulk_queue *flush_next;	/* this worker's flush list */
	struct nb_dev *dev;			/* the device the frames leave from */
	struct nb_dev *dev_rx;			/* NULL: not on the flush list */
	struct nb_prog *xdp_prog;		/* devmap program, referenced until the flush */
};

/* XDP state of a device (dev->xdp), allocated at its first use. */
struct nb_xdp_dev {
	struct nb_prog *prog;		/* attached program, NULL: none; read under epoch */
	u32 attach_flags;		/* XDP_FLAGS_SKB_MODE / XDP_FLAGS_DRV_MODE of the attach */
	bool bulk_off;			/* transmit every frame at once (benchmark switch) */
	struct nb_xdp_rxq_info rxq;	/* what xdp_md->ingress_ifindex reads */
	struct nb_xdp_pcpu *pcpu;	/* nb_nr_cpus() entries */
};

struct nb_xdp_pcpu {
	struct nb_xdp_bulk_queue bq;
	struct nb_xdp_stats stats;
} __attribute__((aligned(64)));

/* The XDP state of dev, allocated on first use; NULL when memory runs out. */
struct nb_xdp_dev *nb_xdp_dev_state(struct nb_dev *dev);
/* Free dev's XDP state when the device goes away (its last reference). */
void nb_xdp_dev_free(struct nb_dev *dev);

/* Attach, replace, query, counters: include/netbpf/xdp.h */

/*
 * Run dev's XDP program on a received burst (NAPI poll of an XDP driver). Frames the program
 * consumes (drop, abort, tx, redirect) leave pkts; the ones that passed stay, in order, with
 * the program's changes (data, metadata) applied, for nb_netif_receive once the caller has
 * parsed them (nb_dev_rx_stack_prepare: the program may have moved the headers). Returns
 * their number.
 */
unsigned int nb_xdp_rx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n);

/* The drop reason of a redirect the target refused (the error of nb_xdp_enqueue and kin). */
static inline enum nb_drop_reason nb_xdp_redirect_drop_reason(int err)
{
	switch (err) {
	case -ENETDOWN:
		return NB_DROP_DEV_DOWN;
	case -EMSGSIZE:
		return NB_DROP_TOO_BIG;
	case -ENOSPC:
		return NB_DROP_XSK_FULL;
	case -ENOMEM:
		return NB_DROP_NOMEM;
	case -EINVAL:
	case -ENOENT:
	case -EOPNOTSUPP:
		return NB_DROP_NO_DEV;
	default:
		return NB_DROP_XDP_ABORTED;
	}
}

/*
 * Act on an XDP_REDIRECT verdict (xdp_do_redirect): queue pkt towards the target the helper
 * recorded in this worker's redirect info. 0: queued (pkt belongs to the queue); a negative
 * errno: the caller still owns pkt (and drops it). pkt holds the program's changes already.
 */
int nb_xdp_do_redirect(struct nb_dev *dev_rx, struct nb_pkt *pkt);
/* XDP_TX: queue pkt back out of the device it came from. Same return as nb_xdp_do_redirect. */
int nb_xdp_do_tx(struct nb_dev *dev_rx, struct nb_pkt *pkt);

/* One 802.1Q tag (VLAN_HLEN, not in the uapi headers). */
#define NB_VLAN_HLEN 4

/* May dev transmit a frame of len bytes (xdp_ok_fwd_dev)? 0 or -ENETDOWN, -EMSGSIZE, ... */
static inline int nb_xdp_ok_fwd_dev(const struct nb_dev *dev, u32 len)
{
	if (unlikely(!READ_ONCE(dev->up)))
		return -ENETDOWN;
	/* The kernel allows mtu + hard header + one VLAN tag. */
	if (unlikely(len > READ_ONCE(dev->mtu) + ETH_HLEN + NB_VLAN_HLEN))
		return -EMSGSIZE;
	return 0;
}

/*
 * Queue pkt for dev (dev_xdp_enqueue / dev_map_enqueue, with their __xdp_enqueue and
 * bq_enqueue): checks that dev can transmit it, then enqueues with the devmap program (NULL:
 * none) that runs at the flush; a full queue transmits first; the first frame of a poll puts
 * the queue on this worker's flush list, with references on dev_rx and the program until the
 * flush. A queued frame's dev is the device it leaves from, set as it is queued (the frame
 * still belongs to no one else; the queue's transmit then needs no pass over its frames).
 */
int nb_xdp_enqueue_slow(struct nb_dev *dev, struct nb_pkt *pkt, struct nb_dev *dev_rx,
			struct nb_prog *xdp_prog);

/*
 * nb_xdp_enqueue_slow in line for the frames of a poll after its first, while the queue has
 * room: every redirected frame comes this way, and the kernel's are static in devmap.c. The
 * rest goes out of line as a tail call, so that the way in line makes no call and saves no
 * register.
 */
static __always_inline int nb_xdp_enqueue(struct nb_dev *dev, struct nb_pkt *pkt,
					  struct nb_dev *dev_rx, struct nb_prog *xdp_prog)
{
	struct nb_xdp_dev *xd = __atomic_load_n(&dev->xdp, __ATOMIC_ACQUIRE);
	struct nb_xdp_bulk_queue *bq;

	if (likely(xd && dev->port && !nb_xdp_ok_fwd_dev(dev, pkt->len) &&
		   !READ_ONCE(xd->bulk_off))) {
		bq = &xd->pcpu[nb_this_cpu()].bq;
		if (likely(bq->dev_rx && bq->count < NB_XDP_BULK_SIZE)) {
			pkt->dev = dev;
			bq->q[bq->count++] = pkt;
			return 0;
		}
	}
	return nb_xdp_enqueue_slow(dev, pkt, dev_rx, xdp_prog);
}

/*
 * End of the poll (xdp_do_flush): transmit every bulk queue on this worker's flush list, then take
 * the frames queued for this worker in cpumap entries (nb_cpu_map_poll).
 */
void nb_xdp_do_flush(void);

/*
 * The record of the kernel's __bpf_xdp_redirect_map, shared by the map types' map_redirect: in
 * line in each, as the kernel's, so that lookup_elem is a direct call the compiler can inline.
 */
static __always_inline long nb_xdp_redirect_map(struct nb_map *map, u64 index, u64 flags,
						u64 flag_mask,
						void *(*lookup_elem)(struct nb_map *map, u32 key))
{
	struct nb_redirect_info *ri = nb_redirect_info_get();
	const u64 action_mask = XDP_ABORTED | XDP_DROP | XDP_PASS | XDP_TX;

	/* The low bits are the verdict when the key has no entry. */
	if (unlikely(flags & ~(action_mask | flag_mask)))
		return XDP_ABORTED;
	ri->tgt_value = lookup_elem(map, (u32)index);
	if (unlikely(!ri->tgt_value) && !(flags & BPF_F_BROADCAST)) {
		/* Forget earlier lookups too: the last one decides. */
		ri->map_id = NB_REDIRECT_IFINDEX_ID;
		ri->map_type = BPF_MAP_TYPE_UNSPEC;
		return flags & action_mask;
	}
	ri->tgt_index = (u32)index;
	ri->map_id = map->id;
	ri->map_type = map->map_type;
	if (flags & BPF_F_BROADCAST) {
		ri->map = map;
		ri->flags = (u32)flags;
	} else {
		ri->map = NULL;
		ri->flags = 0;
	}
	return XDP_REDIRECT;
}

/*
 * A frame that leaves through a bulk queue takes the program's moves of data, data_end and
 * data_meta (xdp_convert_buff_to_frame): no header parsing, as nothing on the transmit side of
 * XDP reads the headers. An XDP_PASS frame is parsed for the stack by nb_dev_rx_stack_prepare.
 */
static inline void nb_xdp_update_frame(const struct nb_xdp_buff *xdp, struct nb_pkt *pkt)
{
	nb_xdp_update_pkt_data(xdp, pkt);
}

/*
 * Before prog sees a frame with fragments (netif_skb_check_for_xdp): a program that handles
 * them (xdp.frags) gets them, each page its own to write (skb_cow_data_for_xdp); any other gets
 * the frame made linear, however long. 0 or -ENOMEM (the caller drops the frame).
 */
int nb_xdp_prepare_frags(const struct nb_prog *prog, struct nb_pkt *pkt);

/*
 * Run an XDP program on xdp and return its verdict; the twin of bpf_prog_run_xdp (the worker's
 * epoch section covers the map elements it reads: nb_xdp_rx_burst, nb_xdp_do_flush).
 */
static inline u32 nb_xdp_prog_run(const struct nb_prog *prog, struct nb_xdp_buff *xdp)
{
	return (u32)nb_prog_run_locked(prog, xdp);
}

#endif /* NB_NET_XDP_H */
