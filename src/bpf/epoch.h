/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Epoch-based reclamation, the userspace twin of RCU for the datapath. Programs read maps without
 * locks; writers unlink an element and hand it to nb_epoch_call, which runs the free function only
 * once every reader that might still hold the element has passed a quiescent point.
 *
 * Readers come in two kinds:
 *   - datapath workers go online once (nb_epoch_online) and report a quiescent point between
 *     bursts (nb_epoch_quiescent), which costs one store and one fence per burst;
 *   - any other thread brackets its reads with nb_epoch_read_lock/unlock (nb_prog_run and the
 *     userspace map commands do it for their callers). Sections nest.
 * The calls an embedder needs are public (include/netbpf/epoch.h); the datapath's are here.
 */
#ifndef NB_BPF_EPOCH_H
#define NB_BPF_EPOCH_H

#include <netbpf/epoch.h>

#include "common/types.h"

struct nb_epoch_head {
	struct nb_epoch_head *next;
	u64 epoch;		/* global epoch when the object was retired */
	void (*func)(struct nb_epoch_head *head);
};

/*
 * Read-side sections this thread is in, plus one while it is an online worker (which reads
 * always, except at its quiescent points): a section nested in another, or entered by an
 * online worker, is only this count, in line, so that the datapath can bracket each program
 * run or lookup as the kernel's rcu_read_lock does without paying a call for it.
 */
extern __thread unsigned int nb_epoch_depth __attribute__((tls_model("initial-exec")));

/* The outermost section of a thread that is not online: it publishes the epoch it reads at. */
void nb_epoch_read_enter(void);
void nb_epoch_read_exit(void);

static inline void nb_epoch_read_lock(void)
{
	if (nb_epoch_depth++ == 0)
		nb_epoch_read_enter();
}

static inline void nb_epoch_read_unlock(void)
{
	if (--nb_epoch_depth == 0)
		nb_epoch_read_exit();
}


/*
 * Run func(head) once no reader can hold the object any more; the caller has already unlinked
 * it. Never runs func in the caller's frame while the caller may hold a lock that func takes:
 * callbacks run from nb_epoch_reclaim, nb_epoch_synchronize and nb_epoch_barrier only.
 */
void nb_epoch_call(struct nb_epoch_head *head, void (*func)(struct nb_epoch_head *head));
/*
 * Call fn(obj) after a grace period, for objects with no nb_epoch_head of their own (a program
 * or map reference dropped by a map slot). Waits for the grace period when memory is short.
 */
void nb_epoch_call_fn(void *obj, void (*fn)(void *obj));
/* nb_epoch_reclaim once enough objects wait; writers call it after dropping their locks. */
void nb_epoch_maybe_reclaim(void);
/*
 * For writers outside the datapath (userspace map updates and deletes), after dropping their
 * locks: nb_epoch_maybe_reclaim, and once thousands of objects wait, a wait for a grace period,
 * so that a control thread updating a map in a loop cannot outrun the workers' quiescent
 * points and take memory without bound (RCU's answer to a callback flood). Never waits in a
 * read-side section or on an online worker.
 */
void nb_epoch_throttle(void);
/*
 * nb_epoch_reclaim, nb_epoch_synchronize, nb_epoch_barrier and the workers' nb_epoch_online,
 * nb_epoch_quiescent, nb_epoch_offline: include/netbpf/epoch.h
 */

#endif /* NB_BPF_EPOCH_H */
