/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cpumap map type (cpumap.c): entries name a worker ("CPU"); bpf_redirect_map moves a frame
 * into the entry's queue and that worker receives it at the end of its next poll.
 */
#ifndef NB_NET_CPUMAP_H
#define NB_NET_CPUMAP_H

#include "common/types.h"

struct nb_dev;
struct nb_pkt;
struct nb_cpu_map_entry;

/*
 * Queue pkt for the entry's worker (cpu_map_enqueue): into this worker's bulk queue of the
 * entry, which moves into the entry's queue when full or at nb_cpu_map_flush; a full entry
 * queue drops it. Takes pkt; dev_rx must stay valid until the flush (the poll's).
 */
int nb_cpu_map_enqueue(struct nb_cpu_map_entry *rcpu, struct nb_pkt *pkt, struct nb_dev *dev_rx);
/* The end of a poll (__cpu_map_flush): every bulk queue of this worker into its entry's queue. */
void nb_cpu_map_flush(void);
/*
 * This worker's side (cpu_map_kthread_run): every frame queued for it runs the entry's program
 * and what passes goes up its receive path; what the programs redirect waits in the bulk queues
 * for the caller's flush. Returns the frames taken from the queues.
 */
unsigned int nb_cpu_map_poll(void);
/* Do frames wait in this worker's entries (it may not sleep then)? */
bool nb_cpu_map_pending(void);

#endif /* NB_NET_CPUMAP_H */
