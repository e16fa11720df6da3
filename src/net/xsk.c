// SPDX-License-Identifier: GPL-2.0
/*
 * XDP sockets (include/netbpf/xsk.h), the receive side of net/xdp/xsk.c: a socket is bound to a
 * device's receive queue and holds the frames XDP programs redirect to it through an XSKMAP in
 * a ring until the application reads them. Workers deliver under the ring's spin lock; the
 * socket's memory outlives any program that found it in a map (the epoch reclaimer frees it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/dev.h>

#include "pkt/pkt.h"
#include "net/xsk.h"
#include "common/opts.h"

#define XSK_DEFAULT_RING_SIZE 2048

pthread_mutex_t nb_xsk_lock = PTHREAD_MUTEX_INITIALIZER;

/* Socket ids, under nb_xsk_lock: the values XSKMAP slots take where the kernel takes fds. */
static struct nb_xsk **xsk_by_id;
static u32 xsk_id_cap;
static u32 next_xsk_id = 1;

static int xsk_id_alloc(struct nb_xsk *xs)
{
	if (next_xsk_id >= xsk_id_cap) {
		u32 cap = xsk_id_cap ? xsk_id_cap * 2 : 16;
		struct nb_xsk **table = realloc(xsk_by_id, cap * sizeof(*table));

		if (!table)
			return -ENOMEM;
		memset(table + xsk_id_cap, 0, (cap - xsk_id_cap) * sizeof(*table));
		xsk_by_id = table;
		xsk_id_cap = cap;
	}
	xs->id = next_xsk_id++;
	xsk_by_id[xs->id] = xs;
	return 0;
}

struct nb_xsk *nb_xsk_get_by_id_locked(u32 id)
{
	if (id >= xsk_id_cap || !xsk_by_id[id])
		return NULL;
	return nb_xsk_get(xsk_by_id[id]);
}

int nb_xsk_create(struct nb_dev *dev, __u32 queue_id, const struct nb_xsk_opts *opts,
		  struct nb_xsk **xskp)
{
	unsigned int ring_size = NB_OPTS_GET(opts, ring_size, 0) ?: XSK_DEFAULT_RING_SIZE;
	struct nb_xsk *xs;
	int err;

	*xskp = NULL;
	err = NB_OPTS_CHECK(opts, nb_xsk_opts, sz, NULL);
	if (err)
		return err;
	if (!dev || (ring_size & (ring_size - 1)))
		return -EINVAL;
	xs = calloc(1, sizeof(*xs));
	if (!xs)
		return -ENOMEM;
	xs->ring = calloc(ring_size, sizeof(*xs->ring));
	if (!xs->ring) {
		free(xs);
		return -ENOMEM;
	}
	xs->ring_size = ring_size;
	xs->queue_id = queue_id;
	xs->refcnt = 1;
	pthread_spin_init(&xs->lock, PTHREAD_PROCESS_PRIVATE);
	pthread_mutex_lock(&nb_xsk_lock);
	err = xsk_id_alloc(xs);
	pthread_mutex_unlock(&nb_xsk_lock);
	if (err) {
		pthread_spin_destroy(&xs->lock);
		free(xs->ring);
		free(xs);
		return err;
	}
	xs->dev = nb_dev_get(dev);
	*xskp = xs;
	return 0;
}

struct nb_xsk *nb_xsk_get(struct nb_xsk *xs)
{
	__atomic_add_fetch(&xs->refcnt, 1, __ATOMIC_RELAXED);
	return xs;
}

static void xsk_free(struct nb_epoch_head *head)
{
	struct nb_xsk *xs = container_of(head, struct nb_xsk, rcu);

	for (u32 i = xs->cons; i != xs->prod; i++)
		nb_pkt_free(xs->ring[i & (xs->ring_size - 1)]);
	nb_dev_put(xs->dev);
	pthread_spin_destroy(&xs->lock);
	free(xs->ring);
	free(xs);
}

void nb_xsk_put(struct nb_xsk *xs)
{
	if (xs && __atomic_sub_fetch(&xs->refcnt, 1, __ATOMIC_ACQ_REL) == 0)
		nb_epoch_call(&xs->rcu, xsk_free);
}

void nb_xsk_close(struct nb_xsk *xs)
{
	if (!xs)
		return;
	pthread_mutex_lock(&nb_xsk_lock);
	xsk_by_id[xs->id] = NULL;
	nb_xsk_map_delete_sock(xs);
	pthread_mutex_unlock(&nb_xsk_lock);
	nb_xsk_put(xs);
}

__u32 nb_xsk_id(const struct nb_xsk *xs)
{
	return xs->id;
}

int nb_xsk_rcv(struct nb_xsk *xs, struct nb_pkt *pkt, struct nb_dev *dev_rx, u32 queue_index)
{
	int err = 0;

	/* xsk_rcv_check: a socket takes frames of its own device and queue only. */
	if (xs->dev != dev_rx || xs->queue_id != queue_index)
		return -EINVAL;
	pthread_spin_lock(&xs->lock);
	if (xs->prod - xs->cons == xs->ring_size) {
		xs->rx_ring_full++;
		err = -ENOSPC;
	} else {
		xs->ring[xs->prod++ & (xs->ring_size - 1)] = pkt;
		xs->rx_packets++;
	}
	pthread_spin_unlock(&xs->lock);
	return err;
}

int nb_xsk_recv(struct nb_xsk *xs, void *buf, size_t size)
{
	struct nb_pkt *pkt = NULL;
	int len = -EAGAIN;

	pthread_spin_lock(&xs->lock);
	if (xs->cons != xs->prod) {
		pkt = xs->ring[xs->cons & (xs->ring_size - 1)];
		if (pkt->len > size) {
			len = -EMSGSIZE;
			pkt = NULL;
		} else {
			xs->cons++;
		}
	}
	pthread_spin_unlock(&xs->lock);
	if (!pkt)
		return len;
	memcpy(buf, pkt->data, pkt->len);
	len = (int)pkt->len;
	nb_pkt_free(pkt);
	return len;
}

void nb_xsk_stats_read(const struct nb_xsk *xs, struct nb_xsk_stats *stats)
{
	struct nb_xsk *w = (struct nb_xsk *)xs;

	pthread_spin_lock(&w->lock);
	stats->rx_packets = xs->rx_packets;
	stats->rx_ring_full = xs->rx_ring_full;
	pthread_spin_unlock(&w->lock);
}
