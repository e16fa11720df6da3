/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Epochs, the userspace twin of RCU that lets the datapath read maps and programs without locks.
 * An embedder meets them in three places:
 *   - the library's own calls (nb_prog_run, the map calls) enter their read-side sections
 *     themselves, for their callers;
 *   - memory that writers retired (a deleted map element, a replaced program) is freed once the
 *     workers have passed a quiescent point: a control loop that runs between commands calls
 *     nb_epoch_reclaim, which frees what may be freed and never waits;
 *   - before measuring memory or tearing everything down, nb_epoch_barrier waits for a grace
 *     period and frees everything retired;
 *   - a thread of the embedder's own that runs packets (include/netbpf/worker.h) reads all the
 *     time, as the datapath's workers do: it goes online once and says between bursts that it
 *     holds nothing (liburcu's rcu_thread_online and rcu_quiescent_state).
 */
#ifndef NETBPF_EPOCH_H
#define NETBPF_EPOCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* Free what retired objects' grace periods allow; never waits. Returns how many were freed. */
unsigned int nb_epoch_reclaim(void);
/*
 * Wait until every reader other than the calling thread has passed a quiescent point, then free
 * what became safe. The caller may hold no pointer it read before.
 */
void nb_epoch_synchronize(void);
/* Wait for a grace period and free everything retired. */
void nb_epoch_barrier(void);
/* Retired objects still waiting for their grace period. */
unsigned long nb_epoch_pending(void);

/*
 * A thread that runs packets: a reader from nb_epoch_online on, except at each
 * nb_epoch_quiescent (between bursts: it holds no pointer into the datapath there) and after
 * nb_epoch_offline (before it sleeps or ends, so that it holds up no grace period).
 */
void nb_epoch_online(void);
void nb_epoch_quiescent(void);
void nb_epoch_offline(void);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_EPOCH_H */
