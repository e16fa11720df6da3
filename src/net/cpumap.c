// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_CPUMAP (kernel/bpf/cpumap.c): u32 keys, one per worker (netbpf's "CPU"), values
 * struct bpf_cpumap_val: the length of the entry's queue (qsize) and, in the 8-byte form, a
 * program: the id of an XDP program loaded with expected attach type BPF_XDP_CPUMAP, where the
 * kernel takes an fd (lookups return its id, as the kernel's do). Programs cannot read the map;
 * they send frames to a worker with bpf_redirect_map(&cpumap, cpu, 0).
 *
 * A redirected frame goes into the entry's queue (the kernel's ptr_ring), and the entry's worker
 * takes it at the end of its next poll (nb_cpu_map_poll, the twin of the entry's kthread): the
 * entry's program runs on it (XDP_PASS goes on, XDP_REDIRECT is redirected again, anything else
 * drops it) and what passes goes up that worker's receive path (netif_receive_skb_list): tc
 * ingress, then the host side; the worker's own backlog and transmit queues follow in the same
 * flush. Frames hold a reference on their receiving device while they wait.
 *
 * Entries change under running traffic: an update builds a new entry and swaps the pointer; the
 * old one leaves its worker's list and goes to the epoch reclaimer, which frees the frames still
 * queued in it (the kernel's __cpu_map_entry_free flushes them into the stack instead; here they
 * are dropped and counted). As in the kernel, a redirect first gathers frames in the sending
 * worker's bulk queue of the entry (CPU_MAP_BULK_SIZE, bq_enqueue): a full one, and every one
 * at the end of the poll (__cpu_map_flush), moves its frames into the entry's queue under one
 * lock and wakes the entry's worker once. A worker index without a polling thread never
 * drains its queues.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/percpu.h>

#include "bpf/epoch.h"
#include "bpf/map.h"
#include "bpf/maps/array.h"
#include "bpf/prog.h"
#include "net/core.h"
#include "net/worker.h"
#include "net/cpumap.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/redirect.h"
#include "net/xdp.h"

/* The kernel's sanity limit on an entry's queue length. */
#define CPU_MAP_QSIZE_MAX 16384
/* Frames a worker takes from one queue at a time. */
#define CPU_MAP_BATCH 64
/* Frames a sending worker gathers for an entry before it takes the entry's lock (the kernel's). */
#define CPU_MAP_BULK_SIZE 8

struct nb_cpu_map_entry;

/* One sending worker's frames for one entry (struct xdp_bulk_queue), valid within a poll. */
struct cpu_map_bulkq {
	struct nb_pkt *q[CPU_MAP_BULK_SIZE];
	unsigned int count;
	struct nb_cpu_map_entry *rcpu;
	struct cpu_map_bulkq *flush_next;	/* the next on the worker's flush list */
	bool listed;				/* on that list */
} __attribute__((aligned(64)));

struct nb_cpu_map_entry {
	u32 cpu;
	struct bpf_cpumap_val value;	/* what lookups return: qsize and program id */
	struct nb_prog *prog;		/* referenced; NULL: none */
	pthread_mutex_t lock;		/* the queue: any worker adds, the entry's worker takes */
	struct nb_pkt *head, **tail;
	u32 count;
	struct nb_cpu_map_entry *rcv_next;	/* the worker's list of entries */
	struct cpu_map_bulkq *bulkq;		/* one per sending worker (nb_nr_cpus()) */
	struct nb_epoch_head rcu;
};

/* This worker's bulk queues that hold frames of the running poll. */
static __thread struct cpu_map_bulkq *cpu_flush_list;

struct nb_cpu_map {
	struct nb_map map;
	struct nb_cpu_map_entry **cpu_map;	/* one slot per key */
	pthread_mutex_t lock;			/* writers */
};

#define to_cmap(m) container_of(m, struct nb_cpu_map, map)

/*
 * Each worker's entries, from every cpumap: written under rcv_lock, read by the worker inside
 * its epoch section (an unlinked entry stays valid until the reclaimer frees it).
 */
static pthread_mutex_t rcv_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_cpu_map_entry *rcv_list[NB_MAX_CPUS];

static int cpu_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	int err = nb_map_check_flags(attr, BPF_F_NUMA_NODE, log);

	if (!err)
		err = nb_map_check_nonzero(attr, log);
	if (!err)
		err = nb_map_check_key_size(attr, sizeof(u32), log);
	if (err)
		return err;
	if (attr->value_size != sizeof(__u32) &&
	    attr->value_size != sizeof(struct bpf_cpumap_val)) {
		nb_log_printf(log, "map %s: value_size %u is neither 4 (qsize) nor %zu "
			      "(struct bpf_cpumap_val)\n", attr->name, attr->value_size,
			      sizeof(struct bpf_cpumap_val));
		return -EINVAL;
	}
	if (attr->max_entries > NB_MAX_CPUS) {
		nb_log_printf(log, "map %s: max_entries %u is more than the %d workers netbpf can "
			      "have\n", attr->name, attr->max_entries, NB_MAX_CPUS);
		return -E2BIG;
	}
	return 0;
}

static int cpu_map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	struct nb_cpu_map *cmap = calloc(1, sizeof(*cmap));

	if (!cmap)
		return -ENOMEM;
	nb_map_init_from_attr(&cmap->map, attr);
	cmap->cpu_map = calloc(attr->max_entries, sizeof(*cmap->cpu_map));
	if (!cmap->cpu_map) {
		nb_log_printf(log, "map %s: no memory for %u entries\n", attr->name,
			      attr->max_entries);
		free(cmap);
		return -ENOMEM;
	}
	pthread_mutex_init(&cmap->lock, NULL);
	*mapp = &cmap->map;
	return 0;
}

/* The frames still queued are dropped on their device. */
static void entry_free(struct nb_cpu_map_entry *rcpu)
{
	struct nb_pkt *pkt = rcpu->head, *next;

	for (; pkt; pkt = next) {
		struct nb_dev *dev = pkt->dev;

		next = pkt->next;
		pkt->next = NULL;
		nb_pkt_drop(pkt, dev, NB_DROP_NO_DEV);
		nb_dev_put(dev);
	}
	nb_prog_put(rcpu->prog);
	pthread_mutex_destroy(&rcpu->lock);
	/* the bulk queues were flushed at the end of the polls the grace period waited for */
	free(rcpu->bulkq);
	free(rcpu);
}

static void entry_free_rcu(struct nb_epoch_head *head)
{
	entry_free(container_of(head, struct nb_cpu_map_entry, rcu));
}

static void rcv_link(struct nb_cpu_map_entry *rcpu)
{
	pthread_mutex_lock(&rcv_lock);
	rcpu->rcv_next = rcv_list[rcpu->cpu];
	__atomic_store_n(&rcv_list[rcpu->cpu], rcpu, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&rcv_lock);
}

static void rcv_unlink(struct nb_cpu_map_entry *rcpu)
{
	struct nb_cpu_map_entry **pp;

	pthread_mutex_lock(&rcv_lock);
	for (pp = &rcv_list[rcpu->cpu]; *pp; pp = &(*pp)->rcv_next) {
		if (*pp == rcpu) {
			__atomic_store_n(pp, rcpu->rcv_next, __ATOMIC_RELEASE);
			break;
		}
	}
	pthread_mutex_unlock(&rcv_lock);
}

/* Put new (may be NULL) at key, retire what was there (__cpu_map_entry_replace). */
static void entry_replace(struct nb_cpu_map *cmap, u32 key, struct nb_cpu_map_entry *rcpu)
{
	struct nb_cpu_map_entry *old;

	pthread_mutex_lock(&cmap->lock);
	if (rcpu)
		rcv_link(rcpu);
	old = __atomic_exchange_n(&cmap->cpu_map[key], rcpu, __ATOMIC_ACQ_REL);
	if (old)
		rcv_unlink(old);
	pthread_mutex_unlock(&cmap->lock);
	if (old)
		nb_epoch_call(&old->rcu, entry_free_rcu);
}

static void cpu_map_free(struct nb_map *map)
{
	struct nb_cpu_map *cmap = to_cmap(map);

	/* No program holds the map any more: no frame can arrive. */
	for (u32 i = 0; i < map->max_entries; i++)
		if (cmap->cpu_map[i])
			entry_replace(cmap, i, NULL);
	pthread_mutex_destroy(&cmap->lock);
	free(cmap->cpu_map);
	free(cmap);
}

/* The entry at key, for the datapath (__cpu_map_lookup_elem). */
static void *cpu_map_lookup_entry(struct nb_map *map, u32 key)
{
	if (key >= map->max_entries)
		return NULL;
	return __atomic_load_n(&to_cmap(map)->cpu_map[key], __ATOMIC_ACQUIRE);
}

static void *cpu_map_lookup_elem(struct nb_map *map, const void *key)
{
	struct nb_cpu_map_entry *rcpu = cpu_map_lookup_entry(map, *(const u32 *)key);

	return rcpu ? &rcpu->value : NULL;
}

/*
 * A program must be an XDP program loaded for cpumap entries that matches the map's owner, or
 * claims it (__cpu_map_load_bpf_program, bpf_prog_map_compatible: map_prog_owner.c). Any
 * failure is -ENOMEM, as the kernel reports every failed entry allocation (a wrong program
 * included: tests/kernel/test_cpumap_kernel.c).
 */
static int entry_alloc(struct nb_map *map, const struct bpf_cpumap_val *val, u32 cpu,
		       bool with_prog, struct nb_cpu_map_entry **rcpup)
{
	struct nb_cpu_map_entry *rcpu = calloc(1, sizeof(*rcpu));
	struct nb_prog *prog = NULL;

	if (!rcpu)
		return -ENOMEM;
	if (with_prog && val->bpf_prog.fd > 0) {
		prog = nb_prog_get_by_id((u32)val->bpf_prog.fd);
		if (!prog) {
			free(rcpu);
			return -ENOMEM;
		}
		if (prog->type != BPF_PROG_TYPE_XDP ||
		    prog->expected_attach_type != BPF_XDP_CPUMAP ||
		    nb_map_claim_prog_owner(map, prog, true, NULL)) {
			nb_prog_put(prog);
			free(rcpu);
			return -ENOMEM;
		}
	}
	rcpu->bulkq = aligned_alloc(64, nb_nr_cpus() * sizeof(*rcpu->bulkq));
	if (!rcpu->bulkq) {
		nb_prog_put(prog);
		free(rcpu);
		return -ENOMEM;
	}
	memset(rcpu->bulkq, 0, nb_nr_cpus() * sizeof(*rcpu->bulkq));
	for (unsigned int i = 0; i < nb_nr_cpus(); i++)
		rcpu->bulkq[i].rcpu = rcpu;
	rcpu->cpu = cpu;
	rcpu->prog = prog;
	rcpu->value.qsize = val->qsize;
	rcpu->value.bpf_prog.id = prog ? prog->id : 0;
	rcpu->tail = &rcpu->head;
	pthread_mutex_init(&rcpu->lock, NULL);
	*rcpup = rcpu;
	return 0;
}

static int cpu_map_update_elem_sys(struct nb_map *map, const void *key, const void *value,
				   u64 flags)
{
	struct bpf_cpumap_val val = { 0 };
	struct nb_cpu_map_entry *rcpu = NULL;
	u32 cpu = *(const u32 *)key;
	int err;

	memcpy(&val, value, map->value_size);
	if (flags > BPF_EXIST)
		return -EINVAL;
	if (cpu >= map->max_entries)
		return -E2BIG;
	/* Every slot of an array exists. */
	if (flags == BPF_NOEXIST)
		return -EEXIST;
	if (val.qsize > CPU_MAP_QSIZE_MAX)
		return -EOVERFLOW;
	/* A CPU the kernel could never have: a worker index beyond the workers. */
	if (cpu >= nb_nr_cpus())
		return -ENODEV;
	/* qsize 0 empties the slot. */
	if (val.qsize) {
		err = entry_alloc(map, &val, cpu, map->value_size == sizeof(val), &rcpu);
		if (err)
			return err;
	}
	entry_replace(to_cmap(map), cpu, rcpu);
	return 0;
}

static long cpu_map_delete_elem(struct nb_map *map, const void *key)
{
	u32 cpu = *(const u32 *)key;

	if (cpu >= map->max_entries)
		return -EINVAL;
	entry_replace(to_cmap(map), cpu, NULL);
	return 0;
}

static long cpu_map_redirect(struct nb_map *map, u64 index, u64 flags)
{
	/* No broadcast to CPUs: only the verdict bits for a missing entry. */
	return nb_xdp_redirect_map(map, index, flags, 0, cpu_map_lookup_entry);
}

/*
 * The bulk queue's frames into the entry's queue under one lock (bq_flush_to_queue); what does
 * not fit is dropped. A frame takes a reference on its receiving device for its wait.
 */
static void bq_flush_to_queue(struct cpu_map_bulkq *bq)
{
	struct nb_cpu_map_entry *rcpu = bq->rcpu;
	unsigned int n = bq->count, queued = 0;

	if (unlikely(!n))
		return;
	for (unsigned int i = 0; i < n; i++) {
		nb_dev_get(bq->q[i]->dev);
		bq->q[i]->next = NULL;
	}
	pthread_mutex_lock(&rcpu->lock);
	while (queued < n && rcpu->count + queued < rcpu->value.qsize) {
		*rcpu->tail = bq->q[queued];
		rcpu->tail = &bq->q[queued]->next;
		queued++;
	}
	__atomic_add_fetch(&rcpu->count, queued, __ATOMIC_RELAXED);	/* read by sleepers */
	pthread_mutex_unlock(&rcpu->lock);
	/* The kernel drops them when the ring is full: not an error. */
	for (unsigned int i = queued; i < n; i++) {
		struct nb_dev *dev_rx = bq->q[i]->dev;

		nb_pkt_drop(bq->q[i], dev_rx, NB_DROP_CPUMAP_FULL);
		nb_dev_put(dev_rx);
	}
	bq->count = 0;
}

int nb_cpu_map_enqueue(struct nb_cpu_map_entry *rcpu, struct nb_pkt *pkt, struct nb_dev *dev_rx)
{
	struct cpu_map_bulkq *bq = &rcpu->bulkq[nb_this_cpu()];

	/* no reference yet: the poll that received it holds the device until its flush */
	pkt->dev = dev_rx;
	if (unlikely(bq->count == CPU_MAP_BULK_SIZE))
		bq_flush_to_queue(bq);
	bq->q[bq->count++] = pkt;
	if (!bq->listed) {
		bq->listed = true;
		bq->flush_next = cpu_flush_list;
		cpu_flush_list = bq;
	}
	return 0;
}

void nb_cpu_map_flush(void)
{
	struct cpu_map_bulkq *bq = cpu_flush_list;

	cpu_flush_list = NULL;
	while (bq) {
		struct cpu_map_bulkq *next = bq->flush_next;

		bq_flush_to_queue(bq);
		bq->flush_next = NULL;
		bq->listed = false;
		/* the entry's worker may sleep: wake_up_process of the kthread */
		nb_worker_kick(bq->rcpu->cpu);
		bq = next;
	}
}

bool nb_cpu_map_pending(void)
{
	for (struct nb_cpu_map_entry *rcpu = __atomic_load_n(&rcv_list[nb_this_cpu()],
							     __ATOMIC_ACQUIRE);
	     rcpu; rcpu = __atomic_load_n(&rcpu->rcv_next, __ATOMIC_ACQUIRE))
		if (__atomic_load_n(&rcpu->count, __ATOMIC_SEQ_CST))
			return true;
	return false;
}

/* One frame on the entry's worker. */
static void cpu_map_run_frame(struct nb_cpu_map_entry *rcpu, struct nb_pkt *pkt)
{
	struct nb_dev *dev_rx = pkt->dev;
	struct nb_xdp_rxq_info rxq = { .dev = dev_rx, .ifindex = dev_rx->ifindex };
	struct nb_xdp_buff xdp;
	u32 act = XDP_PASS;

	if (rcpu->prog && nb_xdp_prepare_frags(rcpu->prog, pkt)) {
		nb_pkt_drop(pkt, dev_rx, NB_DROP_NOMEM);
		nb_dev_put(dev_rx);
		return;
	}
	nb_pkt_to_xdp(pkt, &xdp, &rxq);
	if (rcpu->prog)
		act = nb_xdp_prog_run(rcpu->prog, &xdp);
	switch (act) {
	case XDP_PASS:
		/*
		 * The stack's view of the frame, as cpu_map_build_skb builds a new skb: parsed
		 * (eth_type_trans), no qdisc cb, ingress or nesting mark an earlier hop left.
		 */
		nb_xdp_update_pkt_data(&xdp, pkt);
		nb_dev_rx_stack_prepare(pkt);
		nb_netif_receive(pkt);
		break;
	case XDP_REDIRECT:
		nb_xdp_update_frame(&xdp, pkt);
		if (nb_xdp_do_redirect(dev_rx, pkt))
			nb_pkt_drop(pkt, dev_rx, NB_DROP_XDP_ABORTED);
		break;
	case XDP_DROP:
		nb_pkt_drop(pkt, dev_rx, NB_DROP_XDP);
		break;
	default:
		/* XDP_TX and unknown verdicts are invalid here: the kernel's bpf_warn_invalid */
		nb_pkt_drop(pkt, dev_rx, NB_DROP_XDP_ABORTED);
		break;
	}
	nb_dev_put(dev_rx);
}

unsigned int nb_cpu_map_poll(void)
{
	struct nb_cpu_map_entry *rcpu;
	unsigned int cpu = nb_this_cpu(), total = 0;

	if (likely(!__atomic_load_n(&rcv_list[cpu], __ATOMIC_ACQUIRE)))
		return 0;
	for (rcpu = __atomic_load_n(&rcv_list[cpu], __ATOMIC_ACQUIRE); rcpu;
	     rcpu = __atomic_load_n(&rcpu->rcv_next, __ATOMIC_ACQUIRE)) {
		/* What is queued now, not what arrives while it runs: a poll ends. */
		u32 budget = rcpu->value.qsize;

		while (budget) {
			struct nb_pkt *batch[CPU_MAP_BATCH];
			unsigned int n = 0;

			pthread_mutex_lock(&rcpu->lock);
			while (n < CPU_MAP_BATCH && n < budget && rcpu->head) {
				batch[n++] = rcpu->head;
				rcpu->head = rcpu->head->next;
			}
			if (!rcpu->head)
				rcpu->tail = &rcpu->head;
			/* read by sleepers without the lock: once for the batch, as it is added */
			__atomic_sub_fetch(&rcpu->count, n, __ATOMIC_RELAXED);
			pthread_mutex_unlock(&rcpu->lock);
			if (!n)
				break;
			budget -= n;
			total += n;
			for (unsigned int i = 0; i < n; i++) {
				batch[i]->next = NULL;
				cpu_map_run_frame(rcpu, batch[i]);
			}
		}
	}
	return total;
}

static const struct nb_map_ops cpu_map_ops = {
	.type = BPF_MAP_TYPE_CPUMAP,
	.name = "cpumap",
	.map_alloc_check = cpu_map_alloc_check,
	.map_alloc = cpu_map_alloc,
	.map_free = cpu_map_free,
	.map_lookup_elem = cpu_map_lookup_elem,
	.map_delete_elem = cpu_map_delete_elem,
	.map_update_elem_sys = cpu_map_update_elem_sys,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_redirect = cpu_map_redirect,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(cpu_map_ops)
