// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP redirect path of "xdp: Introduce bulking for non-map XDP_REDIRECT": bpf_redirect,
 * bpf_redirect_map and XDP_TX all end in one per-worker, per-device bulk queue of
 * NB_XDP_BULK_SIZE frames (kernel/bpf/devmap.c: bq_enqueue, bq_xmit_all, __dev_flush;
 * net/core/filter.c: xdp_do_redirect).
 *
 * The first frame a poll queues for a device puts that device's queue on the worker's flush
 * list; a queue that is full transmits before it takes the next frame; nb_xdp_do_flush at the
 * end of the poll transmits what is left on every listed queue. The devmap program of the entry
 * that sent the frames runs at transmit time, with egress_ifindex set.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/percpu.h>

#include "bpf/epoch.h"
#include "bpf/map.h"
#include "bpf/prog.h"
#include "net/cpumap.h"
#include "net/dev.h"
#include "net/devmap.h"
#include "net/redirect.h"
#include "net/xdp.h"
#include "net/xsk.h"
#include "common/u64_stats.h"

/* This worker's flush list: the queues that hold frames of the running poll. */
static __thread struct nb_xdp_bulk_queue *flush_list;

struct nb_xdp_dev *nb_xdp_dev_state(struct nb_dev *dev)
{
	struct nb_xdp_dev *xd = __atomic_load_n(&dev->xdp, __ATOMIC_ACQUIRE), *expected = NULL;
	unsigned int ncpu;

	if (likely(xd))
		return xd;
	/* First use: any worker may get here at once; the first store wins. */
	ncpu = nb_nr_cpus();
	xd = calloc(1, sizeof(*xd));
	if (!xd)
		return NULL;
	xd->pcpu = aligned_alloc(64, ncpu * sizeof(*xd->pcpu));
	if (!xd->pcpu) {
		free(xd);
		return NULL;
	}
	memset(xd->pcpu, 0, ncpu * sizeof(*xd->pcpu));
	for (unsigned int cpu = 0; cpu < ncpu; cpu++)
		xd->pcpu[cpu].bq.dev = dev;
	xd->rxq.dev = dev;
	xd->rxq.ifindex = dev->ifindex;
	if (!__atomic_compare_exchange_n(&dev->xdp, &expected, xd, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		free(xd->pcpu);
		free(xd);
		return expected;
	}
	return xd;
}

void nb_xdp_dev_free(struct nb_dev *dev)
{
	struct nb_xdp_dev *xd = dev->xdp;

	if (!xd)
		return;
	/* Queues are empty outside a poll; a device goes away only with its last reference. */
	nb_prog_put(xd->prog);
	free(xd->pcpu);
	free(xd);
	dev->xdp = NULL;
}

static inline struct nb_xdp_pcpu *this_pcpu(struct nb_xdp_dev *xd)
{
	return &xd->pcpu[nb_this_cpu()];
}

/*
 * The devmap program of the queue's entry on every frame (dev_map_bpf_prog_run): XDP_PASS
 * keeps a frame (with the program's changes), anything else frees it; an action other than
 * PASS, DROP and ABORTED is invalid here and counted with the aborts. Returns the frames kept,
 * moved to the front of the queue in order.
 */
static unsigned int devmap_prog_run(struct nb_xdp_bulk_queue *bq, struct nb_xdp_stats *st)
{
	struct nb_xdp_txq_info txq = { .dev = bq->dev, .ifindex = bq->dev->ifindex };
	struct nb_xdp_rxq_info rxq = { .dev = bq->dev_rx, .ifindex = bq->dev_rx->ifindex };
	unsigned int kept = 0;

	for (unsigned int i = 0; i < bq->count; i++) {
		struct nb_pkt *pkt = bq->q[i];
		struct nb_xdp_buff xdp;
		u32 act;

		if (nb_xdp_prepare_frags(bq->xdp_prog, pkt)) {
			nb_u64_stats_inc(&st->xmit_prog_drops);
			nb_pkt_free(pkt);
			continue;
		}
		nb_pkt_to_xdp(pkt, &xdp, &rxq);
		xdp.txq = &txq;
		act = nb_xdp_prog_run(bq->xdp_prog, &xdp);
		if (act == XDP_PASS) {
			nb_xdp_update_frame(&xdp, pkt);
			bq->q[kept++] = pkt;
			continue;
		}
		if (act != XDP_DROP)
			nb_u64_stats_inc(&st->aborted);
		nb_u64_stats_inc(&st->xmit_prog_drops);
		nb_pkt_free(pkt);
	}
	return kept;
}

/* Transmit every frame of the queue (bq_xmit_all); the queue is empty afterwards. */
static void bq_xmit_all(struct nb_xdp_bulk_queue *bq)
{
	struct nb_dev *dev = bq->dev;
	/* an atomic load, as everywhere: another worker's nb_xdp_dev_state may CAS it meanwhile */
	struct nb_xdp_stats *st = &this_pcpu(__atomic_load_n(&dev->xdp, __ATOMIC_ACQUIRE))->stats;
	unsigned int cnt = bq->count, to_send = cnt, sent = 0;

	if (unlikely(!cnt))
		return;
	if (bq->xdp_prog) {
		to_send = devmap_prog_run(bq, st);
		if (!to_send)
			goto out;
	}
	/* A device that cannot transmit at all is the kernel's ndo_xdp_xmit error. */
	if (unlikely(!READ_ONCE(dev->up) || !dev->port))
		nb_u64_stats_inc(&st->xmit_errors);
	/* Transmits what the port takes, frees and counts the rest. */
	sent = nb_dev_tx_burst(dev, bq->q, to_send);
out:
	bq->count = 0;
	nb_u64_stats_inc(&st->xmit_calls);
	nb_u64_stats_add(&st->xmit_sent, sent);
	nb_u64_stats_add(&st->xmit_drops, cnt - sent);
	nb_u64_stats_inc(&st->flush_sizes[cnt]);
}

/*
 * Queue pkt for dev (bq_enqueue). A full queue transmits first. The first frame of a poll
 * records the receiving device and the devmap program, and puts the queue on the flush list;
 * the queue holds a reference on both until the flush, so that neither can go while frames
 * wait.
 */
static void bq_enqueue(struct nb_xdp_dev *xd, struct nb_pkt *pkt, struct nb_dev *dev_rx,
		       struct nb_prog *xdp_prog)
{
	struct nb_xdp_bulk_queue *bq = &this_pcpu(xd)->bq;

	if (unlikely(bq->count == NB_XDP_BULK_SIZE))
		bq_xmit_all(bq);
	if (!bq->dev_rx) {
		bq->dev_rx = nb_dev_get(dev_rx);
		bq->xdp_prog = xdp_prog ? nb_prog_get(xdp_prog) : NULL;
		nb_dev_get(bq->dev);
		bq->flush_next = flush_list;
		flush_list = bq;
	}
	pkt->dev = bq->dev;
	bq->q[bq->count++] = pkt;
	if (unlikely(READ_ONCE(xd->bulk_off)))
		bq_xmit_all(bq);
}

int nb_xdp_enqueue_slow(struct nb_dev *dev, struct nb_pkt *pkt, struct nb_dev *dev_rx,
			struct nb_prog *xdp_prog)
{
	struct nb_xdp_dev *xd;
	int err;

	/* No port: the device has no transmit side (no ndo_xdp_xmit). */
	if (unlikely(!dev->port))
		return -EOPNOTSUPP;
	err = nb_xdp_ok_fwd_dev(dev, pkt->len);
	if (unlikely(err))
		return err;
	xd = __atomic_load_n(&dev->xdp, __ATOMIC_ACQUIRE);
	if (unlikely(!xd)) {
		xd = nb_xdp_dev_state(dev);
		if (!xd)
			return -ENOMEM;
	}
	bq_enqueue(xd, pkt, dev_rx, xdp_prog);
	return 0;
}

int nb_xdp_do_tx(struct nb_dev *dev_rx, struct nb_pkt *pkt)
{
	return nb_xdp_enqueue(dev_rx, pkt, dev_rx, NULL);
}

/* bpf_redirect's target by its ifindex (the lookup is in line: no call, no saved register). */
static inline int redirect_ifindex(u32 ifindex, struct nb_pkt *pkt, struct nb_dev *dev_rx)
{
	struct nb_dev *fwd = nb_dev_lookup_index(ifindex);

	if (unlikely(!fwd))
		return -EINVAL;
	return nb_xdp_enqueue(fwd, pkt, dev_rx, NULL);
}

int nb_xdp_do_redirect(struct nb_dev *dev_rx, struct nb_pkt *pkt)
{
	struct nb_redirect_info *ri = nb_redirect_info_get();
	enum bpf_map_type map_type = ri->map_type;
	u32 map_id = ri->map_id, flags = ri->flags;
	struct nb_map *map;

	/* The verdict consumes the record: a later XDP_REDIRECT needs a new helper call. */
	ri->map_id = 0;
	ri->flags = 0;
	ri->map_type = BPF_MAP_TYPE_UNSPEC;

	/* the two common targets first, without the switch's table */
	if (likely(map_type == BPF_MAP_TYPE_DEVMAP || map_type == BPF_MAP_TYPE_DEVMAP_HASH) &&
	    likely(!(flags & BPF_F_BROADCAST)))
		return nb_dev_map_enqueue(ri->tgt_value, pkt, dev_rx);
	if (map_type == BPF_MAP_TYPE_UNSPEC && map_id == NB_REDIRECT_IFINDEX_ID)
		return redirect_ifindex((u32)ri->tgt_index, pkt, dev_rx);

	switch (map_type) {
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		if (unlikely(flags & BPF_F_BROADCAST)) {
			map = ri->map;
			if (unlikely(!map))
				return -ENOENT;
			ri->map = NULL;
			return nb_dev_map_enqueue_multi(pkt, dev_rx, map,
							flags & BPF_F_EXCLUDE_INGRESS);
		}
		return nb_dev_map_enqueue(ri->tgt_value, pkt, dev_rx);
	case BPF_MAP_TYPE_CPUMAP:
		return nb_cpu_map_enqueue(ri->tgt_value, pkt, dev_rx);
	case BPF_MAP_TYPE_XSKMAP:
		/* The datapath's devices receive on queue 0 (their one xdp_rxq_info). */
		return nb_xsk_rcv(ri->tgt_value, pkt, dev_rx, 0);
	case BPF_MAP_TYPE_UNSPEC:
		if (map_id == NB_REDIRECT_IFINDEX_ID)
			return redirect_ifindex((u32)ri->tgt_index, pkt, dev_rx);
		return -EBADRQC;
	default:
		return -EBADRQC;
	}
}

static void xdp_flush_queues(void)
{
	struct nb_xdp_bulk_queue *bq = flush_list;

	flush_list = NULL;
	while (bq) {
		struct nb_xdp_bulk_queue *next = bq->flush_next;
		struct nb_dev *dev = bq->dev, *dev_rx = bq->dev_rx;
		struct nb_prog *prog = bq->xdp_prog;

		bq_xmit_all(bq);
		bq->dev_rx = NULL;
		bq->xdp_prog = NULL;
		bq->flush_next = NULL;
		nb_prog_put(prog);
		nb_dev_put(dev_rx);
		/* Last: the queue lives in dev's state, which this put may free. */
		nb_dev_put(dev);
		bq = next;
	}
}

void nb_xdp_do_flush(void)
{
	xdp_flush_queues();
	nb_cpu_map_flush();
	/* the frames other workers sent this one through a cpumap, and what its programs redirect */
	if (nb_cpu_map_poll()) {
		xdp_flush_queues();
		nb_cpu_map_flush();
	}
}

int nb_dev_xdp_set_bulk(struct nb_dev *dev, bool on)
{
	struct nb_xdp_dev *xd = nb_xdp_dev_state(dev);

	if (!xd)
		return -ENOMEM;
	WRITE_ONCE(xd->bulk_off, !on);
	return 0;
}

void nb_dev_xdp_stats_read(struct nb_dev *dev, struct nb_xdp_stats *total)
{
	struct nb_xdp_dev *xd = __atomic_load_n(&dev->xdp, __ATOMIC_ACQUIRE);
	const size_t n = sizeof(*total) / sizeof(u64);

	memset(total, 0, sizeof(*total));
	if (!xd)
		return;
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++) {
		const u64 *src = (const u64 *)&xd->pcpu[cpu].stats;
		u64 *dst = (u64 *)total;

		for (size_t i = 0; i < n; i++)
			dst[i] += READ_ONCE(src[i]);
	}
}

void nb_dev_xdp_stats_reset(struct nb_dev *dev)
{
	struct nb_xdp_dev *xd = __atomic_load_n(&dev->xdp, __ATOMIC_ACQUIRE);

	if (!xd)
		return;
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++)
		memset(&xd->pcpu[cpu].stats, 0, sizeof(xd->pcpu[cpu].stats));
}
