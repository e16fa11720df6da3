/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The datapath as an object: worker threads, each a "CPU" of the per-CPU maps (nb_set_nr_cpus),
 * pinned to a CPU, each owning receive queues of the devices' ports and running the kernel's
 * receive path on what they read (the XDP hook, tc, redirects, transmit). `netbpf run`, `netbpf
 * daemon` and programs that embed netbpf drive it the same way:
 *
 *   nb_set_nr_cpus(2);                          before the first map and device
 *   ... devices, qdiscs, filters, XDP programs (netbpf/dev.h, netbpf/tc.h) ...
 *   nb_datapath_create(&opts, &dp);             opts.workers = 2
 *   nb_datapath_start(dp);                      the workers poll the devices' queues
 *   ... nb_datapath_sync(dp) after devices come or go ...
 *   nb_datapath_drain(dp, 5000);                generators stop, every queue empties
 *   nb_datapath_destroy(dp);                    the workers end
 *
 * Queues are assigned evenly: each receive queue of each device with a port goes to the worker
 * that owns the fewest (a port of N kernel queues spreads over up to N workers), and a queue
 * stays with its worker until its device goes, so no queue is ever polled by two workers. The
 * workers read their assignment without locks; a change publishes a new one and the old one is
 * freed once every worker has passed a quiescent point (the epoch reclaimer).
 *
 * Every fallible call returns 0 or a negative errno with the reason in opts->log.
 */
#ifndef NETBPF_DATAPATH_H
#define NETBPF_DATAPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_datapath;

enum nb_datapath_flags {
	/*
	 * The workers' CPU affinity is the scheduler's (the default; the flag is kept for callers
	 * that name it, and wins over NB_DATAPATH_PIN).
	 */
	NB_DATAPATH_NO_PIN = 1U << 0,
	/*
	 * Worker n runs on the nth CPU the process may use: for CPUs kept for the datapath. A
	 * worker sleeps in poll() when its queues are quiet, and a pinned one woken while its
	 * CPU runs other work waits for that CPU, where an unpinned one is placed on an idle one.
	 */
	NB_DATAPATH_PIN = 1U << 1,
	/*
	 * The workers keep the scheduler's default time slice. Without it each asks for the
	 * shortest (100 us, sched_attr's sched_runtime, Linux 6.12 and later), so that a worker
	 * woken by a frame preempts what runs on the CPU at once rather than at the end of that
	 * task's slice: on a busy machine the difference between a ping's 0.2 and 2 ms.
	 */
	NB_DATAPATH_DEFAULT_SLICE = 1U << 2,
};

struct nb_datapath_opts {
	size_t sz;		/* sizeof(struct nb_datapath_opts) */
	unsigned int workers;	/* worker threads, at most nb_nr_cpus(); 0: nb_nr_cpus() */
	unsigned int flags;	/* enum nb_datapath_flags */
	/*
	 * Generators (gen ports) make exactly this many frames in all, then stop; 0: each makes
	 * its own count. The workers take bursts from one shared budget.
	 */
	__u64 packets;
	struct nb_log *log;
	/*
	 * How long a worker polls queues that went quiet before it sleeps in poll() on their fds.
	 * 0: adaptive (the default): it polls on only while the recent quiet spells were short
	 * enough for a spin of at most 50 us to catch them, and sleeps at once otherwise (a ping
	 * every few ms); > 0: always that many us (NB_DATAPATH_BUSY_POLL_MAX_US at most); < 0:
	 * never, it sleeps at once.
	 */
	int busy_poll_us;
};

#define NB_DATAPATH_BUSY_POLL_MAX_US 1000000

int nb_datapath_create(const struct nb_datapath_opts *opts, struct nb_datapath **dpp);
/* Stops the workers (without draining) and frees the datapath. */
void nb_datapath_destroy(struct nb_datapath *dp);

/* Assign the devices' queues and start the workers. -EALREADY when running. */
int nb_datapath_start(struct nb_datapath *dp);
/*
 * Take the devices as they are now: queues of new devices go to the least busy workers, those
 * of deleted devices are dropped (the device is released once no worker can still hold it).
 * Callers change devices, then sync; a running datapath never polls a device it was not given.
 */
int nb_datapath_sync(struct nb_datapath *dp);
/* Generators make no more frames; the rest of the datapath goes on. */
void nb_datapath_stop_generators(struct nb_datapath *dp);
/*
 * One look at the datapath: true when nothing moved since the previous look (every worker
 * finished at least two rounds that received nothing, and no device counter changed). Two
 * true looks in a row, a few milliseconds apart, after the generators stopped: drained.
 */
bool nb_datapath_idle(struct nb_datapath *dp);
/*
 * Stop the generators and wait until the datapath is drained (two idle looks 2 ms apart), at
 * most timeout_ms: -ETIMEDOUT when frames still move then (an endless source, a loop).
 */
int nb_datapath_drain(struct nb_datapath *dp, unsigned int timeout_ms);
/* End the workers (frames still queued inside stay there; drain first). */
void nb_datapath_stop(struct nb_datapath *dp);

bool nb_datapath_running(const struct nb_datapath *dp);
unsigned int nb_datapath_nr_workers(const struct nb_datapath *dp);

/* What the generators made: the run's progress. */
struct nb_datapath_progress {
	__u64 generated;	/* frames made by every gen port */
	__u64 goal;		/* the counts they were given, summed (0 when one is endless) */
	bool has_generators;
	bool generators_done;	/* every generator has a count and made it */
};

void nb_datapath_progress(struct nb_datapath *dp, struct nb_datapath_progress *p);

/* One worker as `stats` shows it. */
struct nb_datapath_worker_info {
	int cpu;		/* the CPU it is pinned to, -1: not pinned */
	__u64 rounds;		/* rounds over its queues */
	__u64 idle_rounds;	/* of those, rounds that received nothing */
	__u64 packets;		/* frames it received from its queues */
	unsigned int nr_queues;	/* queues it owns */
	__u64 cpu_ns;		/* CPU time its thread used (so far, while it runs) */
};

/* The queues of one worker: ifindex and queue number, in polling order. */
struct nb_datapath_queue {
	__u32 ifindex;
	unsigned int queue;
};

/* -ENOENT past the last worker. */
int nb_datapath_worker_info(struct nb_datapath *dp, unsigned int worker,
			    struct nb_datapath_worker_info *info);
/* Up to max queues of worker into queues; returns how many it owns (or -ENOENT). */
int nb_datapath_worker_queues(struct nb_datapath *dp, unsigned int worker,
			      struct nb_datapath_queue *queues, unsigned int max);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_DATAPATH_H */
