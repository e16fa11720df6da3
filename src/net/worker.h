/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The datapath worker's poll loop (DESIGN.md, "A packet's way"): receive a burst from each port,
 * run the XDP hook, pass what is left to the receive path (tc ingress, delivery, redirects), and
 * at the end of the burst flush the XDP redirect queues and the transmit queues to the ports.
 */
#ifndef NB_NET_WORKER_H
#define NB_NET_WORKER_H

#include <netbpf/worker.h>

#include "common/types.h"

struct nb_dev;
struct nb_pkt;

/*
 * The XDP hook's place in the loop. The XDP layer (src/net/xdp*.c) fills these in: until then a
 * burst passes unchanged. nb_worker_xdp_burst runs the device's XDP program on each packet and
 * compacts pkts to the XDP_PASS ones, returning their number (the others are dropped, sent back
 * or redirected by it); nb_worker_xdp_flush is xdp_do_flush at the end of the burst.
 */
struct nb_worker_xdp_hooks {
	unsigned int (*burst)(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n);
	void (*flush)(void);
	/* frames wait for this worker outside its queues (cpumap entries): it may not sleep */
	bool (*pending)(void);
};

/* Set by the XDP layer at start-up (NULL members: no XDP). */
void nb_worker_set_xdp_hooks(const struct nb_worker_xdp_hooks *hooks);

/*
 * The receive path of one burst from dev whose packets are dev's already (nb_dev_rx_poll,
 * nb_dev_rx_taken), the XDP hook first, then the stack's view of those it passes. In the
 * deterministic mode it takes the packets one at a time, advancing the virtual clock a step
 * for each.
 */
void nb_worker_receive_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n);
/*
 * The coarse clock as the current burst began, the twin of reading jiffies: the time actions
 * stamp their last use with, read once per burst instead of once per packet. Outside a burst
 * (test runs, the backlog, the control plane) it reads the clock.
 */
u64 nb_worker_coarse_ns(void);
/* nb_worker_rx_burst, nb_worker_flush, nb_worker_poll: include/netbpf/worker.h */

/*
 * Waiting for work, as a low-latency datapath does: a worker keeps polling while frames flow
 * and, after the last one, for as long as recent quiet spells say a spin would catch the next
 * (net/busy_poll.h), at most NB_WORKER_BUSY_POLL_NS (the kernel's busy-poll default), then
 * sleeps in poll() on its queues' fds until one is readable, or until nb_worker_kick.
 */
#define NB_WORKER_BUSY_POLL_NS 50000

/*
 * A worker's time slice: the shortest the kernel allows. EEVDF lets a waking thread preempt
 * the one running only when its slice is shorter; with equal slices the wakee waits until the
 * other's slice is used up (up to milliseconds under load), and so does the frame that woke it.
 */
#define NB_WORKER_SLICE_NS 100000
/*
 * The calling thread's time slice, ns (sched_attr's sched_runtime, SCHED_OTHER; a kernel
 * before 6.12 ignores it). 0 or a negative errno.
 */
int nb_worker_set_slice(u64 ns);

/* One receive queue a worker sleeps on. */
struct nb_worker_queue {
	struct nb_dev *dev;
	unsigned int queue;
};

/*
 * Sleep until a frame may be waiting on one of the n queues, nb_worker_kick is called for this
 * worker, or timeout_ms passes (-1: no limit). Returns at once, false, when a queue has work or
 * cannot be waited for (nb_port_rx_queue_wait), or when wake(arg) says the caller has other
 * work (read after the worker shows it sleeps: a kick after that work is made is never lost);
 * true after a sleep. The caller is a worker that is an online epoch reader: it is offline
 * while it sleeps.
 */
bool nb_worker_sleep(const struct nb_worker_queue *queues, unsigned int n, int timeout_ms,
		     bool (*wake)(void *arg), void *arg);
/* Wake worker cpu should it sleep (a frame queued for it, a stop, a new plan). */
void nb_worker_kick(unsigned int cpu);
/* Is worker cpu asleep in nb_worker_sleep (the idle test of a drain)? */
bool nb_worker_sleeping(unsigned int cpu);

/*
 * Poll until *stop is set (read atomically), or (stop NULL) until a round receives nothing.
 * The caller is a worker thread with its index set (nb_set_this_cpu); it is an epoch reader
 * while it runs.
 */
void nb_worker_run(struct nb_dev *const *devs, unsigned int n, const volatile bool *stop);

#endif /* NB_NET_WORKER_H */
