// SPDX-License-Identifier: GPL-2.0
/*
 * The datapath object (include/netbpf/datapath.h): worker threads over the devices' receive
 * queues. Each worker is a "CPU" (nb_set_this_cpu), pinned to one, and runs the twin of a NAPI
 * poll on every queue it owns in turn (src/net/worker.c), then the end of the round (flush) and
 * a quiescent point for the epoch reclaimer.
 *
 * A worker polls its queues while frames flow and, when they go quiet, for as long as recent
 * quiet spells say a spin would pay (net/busy_poll.h, at most NB_WORKER_BUSY_POLL_NS), then
 * sleeps in poll() on their fds (nb_worker_sleep) until a frame may be there, or until the
 * control side kicks it (a new plan, the stop). Its time slice is the shortest the scheduler
 * gives (NB_WORKER_SLICE_NS), so that when a frame wakes it, it runs at once.
 *
 * A worker's queues are a plan: an array the worker reads without a lock at the start of each
 * round. nb_datapath_sync builds new plans under the datapath's lock, publishes them with a
 * release store and retires the old ones through the epoch reclaimer; a plan holds a reference
 * on each of its devices, so a deleted device stays valid until no worker can be polling it.
 * Queues are sticky: one that exists in both the old and the new device list stays with its
 * worker, so no two workers ever poll one queue (single-queue ports such as gen and pipe are
 * not safe for two pollers).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netbpf/datapath.h>
#include <netbpf/percpu.h>

#include "bpf/epoch.h"
#include "bpf/timer.h"
#include "io/gen.h"
#include "io/port.h"
#include "net/busy_poll.h"
#include "net/dev.h"
#include "net/worker.h"
#include "common/opts.h"

/* A drain's look interval; two idle looks in a row end it. */
#define DRAIN_LOOK_NS 2000000
/* Queues a worker sleeps on at most; one with more polls on. */
#define DP_SLEEP_MAX_QUEUES 64
/* A sleep's limit, should every wake-up fail: a worker never sleeps longer. */
#define DP_SLEEP_TIMEOUT_MS 1000

struct dp_queue {
	struct nb_dev *dev;	/* a reference, held by the plan */
	unsigned int queue;
	bool gen;		/* a generator: its bursts come from the shared budget */
};

/* One worker's queues, read by it without a lock; replaced as a whole. */
struct dp_plan {
	struct nb_epoch_head rcu;
	unsigned int n;
	struct dp_queue q[];
};

struct dp_worker {
	struct nb_datapath *dp;
	pthread_t thread;
	unsigned int index;	/* its "CPU" for per-CPU data */
	int cpu;		/* the CPU it is pinned to, -1: none */
	struct dp_plan *plan;	/* published by sync (release), read each round (acquire) */
	/* written by the worker, read by the control side (relaxed atomics) */
	u64 rounds;
	u64 idle_rounds;
	u64 packets;
	bool idle;		/* its last round received nothing */
	u64 cpu_ns;		/* its thread's CPU time when it ended */
	u64 looked_rounds;	/* the control side's: rounds at the previous look */
	struct nb_busy_poll busy_poll;	/* the worker's own */
} __attribute__((aligned(64)));

struct nb_datapath {
	pthread_mutex_t lock;	/* start, sync, stop: the control side */
	unsigned int nr_workers;
	unsigned int flags;
	bool running;
	bool stop;		/* the workers end */
	bool stop_gens;		/* generators make no more frames */
	u64 packets;		/* the budget the run started with; 0: none */
	long long gen_budget;	/* frames generators may still make (with packets) */
	u64 looked_sum;		/* device counters at the previous look */
	bool looked;
	struct dp_worker *workers;
};

static void plan_free(struct dp_plan *plan)
{
	if (!plan)
		return;
	for (unsigned int i = 0; i < plan->n; i++)
		nb_dev_put(plan->q[i].dev);
	free(plan);
}

static void plan_free_rcu(struct nb_epoch_head *head)
{
	plan_free(container_of(head, struct dp_plan, rcu));
}

/*
 * Up to a burst from a generator, taken from the shared budget: what the generator did not
 * make goes back. With no budget, simply a burst.
 */
static unsigned int gen_burst(struct nb_datapath *dp, const struct dp_queue *q,
			      struct nb_pkt **pkts)
{
	long long left;
	unsigned int k;

	/*
	 * Whether there is a budget is fixed at create: the budget itself dips below zero while
	 * another worker holds a reservation it has not given back, which is not "no limit".
	 */
	if (!dp->packets)
		return nb_dev_rx_poll(q->dev, q->queue, pkts, NB_BURST);
	left = __atomic_sub_fetch(&dp->gen_budget, NB_BURST, __ATOMIC_ACQ_REL) + NB_BURST;
	if (left <= 0) {
		__atomic_add_fetch(&dp->gen_budget, NB_BURST, __ATOMIC_RELAXED);
		return 0;
	}
	k = nb_dev_rx_poll(q->dev, q->queue, pkts, left < NB_BURST ? (unsigned int)left : NB_BURST);
	__atomic_add_fetch(&dp->gen_budget, NB_BURST - k, __ATOMIC_RELAXED);
	return k;
}

static u64 clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

static u64 mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

struct sleep_check {
	struct nb_datapath *dp;
	struct dp_worker *w;
	const struct dp_plan *plan;
};

/* Work a sleeping worker would miss: the stop, or a new plan. */
static bool worker_has_news(void *arg)
{
	const struct sleep_check *c = arg;

	return __atomic_load_n(&c->dp->stop, __ATOMIC_SEQ_CST) ||
	       __atomic_load_n(&c->w->plan, __ATOMIC_SEQ_CST) != c->plan;
}

/* The worker's queues went quiet: sleep on them. false: it cannot (it polls on then). */
static bool worker_sleep(struct nb_datapath *dp, struct dp_worker *w, const struct dp_plan *plan)
{
	struct nb_worker_queue queues[DP_SLEEP_MAX_QUEUES];
	struct sleep_check check = { .dp = dp, .w = w, .plan = plan };
	unsigned int n = plan ? plan->n : 0;

	if (n > DP_SLEEP_MAX_QUEUES)
		return false;
	for (unsigned int i = 0; i < n; i++)
		queues[i] = (struct nb_worker_queue){ plan->q[i].dev, plan->q[i].queue };
	/* A timer queued on this worker's CPU ends the sleep when it is due. */
	return nb_worker_sleep(queues, n, nb_timers_sleep_ms(w->index, DP_SLEEP_TIMEOUT_MS),
			       worker_has_news, &check);
}

static void *worker_main(void *arg)
{
	struct dp_worker *w = arg;
	struct nb_datapath *dp = w->dp;
	struct nb_pkt *pkts[NB_BURST];

	nb_set_this_cpu(w->index);
	/* a kernel without custom slices keeps its own: latency, not correctness */
	if (!(dp->flags & NB_DATAPATH_DEFAULT_SLICE))
		nb_worker_set_slice(NB_WORKER_SLICE_NS);
	nb_epoch_online();
	while (!__atomic_load_n(&dp->stop, __ATOMIC_ACQUIRE)) {
		const struct dp_plan *plan = __atomic_load_n(&w->plan, __ATOMIC_ACQUIRE);
		bool gens_off = __atomic_load_n(&dp->stop_gens, __ATOMIC_ACQUIRE);
		unsigned int got = 0;

		for (unsigned int i = 0; plan && i < plan->n; i++) {
			const struct dp_queue *q = &plan->q[i];
			unsigned int k;

			if (q->gen) {
				if (gens_off)
					continue;
				k = gen_burst(dp, q, pkts);
			} else {
				k = nb_dev_rx_poll(q->dev, q->queue, pkts, NB_BURST);
			}
			if (k)
				nb_worker_receive_burst(q->dev, pkts, k);
			got += k;
		}
		nb_worker_flush();
		nb_epoch_quiescent();
		__atomic_store_n(&w->packets, w->packets + got, __ATOMIC_RELAXED);
		if (!got)
			__atomic_store_n(&w->idle_rounds, w->idle_rounds + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&w->idle, got == 0, __ATOMIC_RELEASE);
		__atomic_store_n(&w->rounds, w->rounds + 1, __ATOMIC_RELEASE);
		if (got) {
			if (w->busy_poll.quiet_since)
				nb_busy_poll_work(&w->busy_poll, mono_ns());
		} else if (nb_busy_poll_idle(&w->busy_poll, mono_ns())) {
			/* a queue that cannot be waited for (a paced generator) is polled on */
			if (!worker_sleep(dp, w, plan))
				sched_yield();
		}
	}
	nb_epoch_offline();
	/* what it used, for worker_info once the thread is gone */
	__atomic_store_n(&w->cpu_ns, clock_ns(CLOCK_THREAD_CPUTIME_ID), __ATOMIC_RELAXED);
	return NULL;
}

int nb_datapath_create(const struct nb_datapath_opts *opts, struct nb_datapath **dpp)
{
	struct nb_log *log = NB_OPTS_GET(opts, log, NULL);
	unsigned int nr;
	int busy_us;
	struct nb_datapath *dp;
	int err;

	*dpp = NULL;
	err = NB_OPTS_CHECK(opts, nb_datapath_opts, log, log);
	if (err)
		return err;
	nr = opts && opts->workers ? opts->workers : nb_nr_cpus();
	if (nr > nb_nr_cpus()) {
		nb_log_printf(log, "datapath: %u workers, but per-CPU data is sized for %u "
			      "(nb_set_nr_cpus before the first map and device)\n", nr,
			      nb_nr_cpus());
		return -EINVAL;
	}
	busy_us = NB_OPTS_GET(opts, busy_poll_us, 0);
	if (busy_us > NB_DATAPATH_BUSY_POLL_MAX_US) {
		nb_log_printf(log, "datapath: a busy-poll of %d us, but a second is the most\n",
			      busy_us);
		return -EINVAL;
	}
	dp = calloc(1, sizeof(*dp));
	if (!dp)
		return -ENOMEM;
	dp->workers = aligned_alloc(64, nr * sizeof(*dp->workers));
	if (!dp->workers) {
		free(dp);
		return -ENOMEM;
	}
	memset(dp->workers, 0, nr * sizeof(*dp->workers));
	pthread_mutex_init(&dp->lock, NULL);
	dp->nr_workers = nr;
	dp->flags = opts ? opts->flags : 0;
	dp->packets = opts ? opts->packets : 0;
	dp->gen_budget = (long long)dp->packets;
	for (unsigned int i = 0; i < nr; i++) {
		if (!busy_us)
			nb_busy_poll_init(&dp->workers[i].busy_poll, NB_BUSY_POLL_ADAPTIVE,
					  NB_WORKER_BUSY_POLL_NS);
		else
			nb_busy_poll_init(&dp->workers[i].busy_poll, NB_BUSY_POLL_FIXED,
					  busy_us < 0 ? 0 : (u64)busy_us * 1000);
		dp->workers[i].dp = dp;
		dp->workers[i].index = i;
		dp->workers[i].cpu = -1;
	}
	*dpp = dp;
	return 0;
}

/* The devices now, each referenced; *np of them. NULL with *np 0 when there are none. */
static struct nb_dev **list_devs(unsigned int *np)
{
	struct nb_dev **devs = NULL;
	unsigned int n = nb_dev_list(NULL, 0), got;

	for (;;) {
		struct nb_dev **bigger = realloc(devs, (n ? n : 1) * sizeof(*devs));

		if (!bigger) {
			free(devs);
			*np = 0;
			return NULL;
		}
		devs = bigger;
		got = nb_dev_list(devs, n);
		if (got <= n)
			break;
		/* devices came meanwhile: the first n were referenced, try again */
		for (unsigned int i = 0; i < n; i++)
			nb_dev_put(devs[i]);
		n = got;
	}
	*np = got;
	return devs;
}

struct wanted {
	struct nb_dev *dev;
	unsigned int queue;
	bool gen;
	int worker;		/* -1: not assigned yet */
};

static struct wanted *find_wanted(struct wanted *want, unsigned int n, const struct dp_queue *q)
{
	for (unsigned int i = 0; i < n; i++)
		if (want[i].dev == q->dev && want[i].queue == q->queue)
			return &want[i];
	return NULL;
}

/* The plan of worker w out of the assignment (references taken); NULL on ENOMEM. */
static struct dp_plan *plan_build(const struct wanted *want, unsigned int n, int w)
{
	unsigned int cnt = 0;
	struct dp_plan *plan;

	for (unsigned int i = 0; i < n; i++)
		cnt += want[i].worker == w;
	plan = calloc(1, sizeof(*plan) + cnt * sizeof(plan->q[0]));
	if (!plan)
		return NULL;
	for (unsigned int i = 0; i < n; i++) {
		if (want[i].worker != w)
			continue;
		plan->q[plan->n].dev = nb_dev_get(want[i].dev);
		plan->q[plan->n].queue = want[i].queue;
		plan->q[plan->n].gen = want[i].gen;
		plan->n++;
	}
	return plan;
}

static bool plan_same(const struct dp_plan *plan, const struct wanted *want, unsigned int n, int w)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (want[i].worker != w)
			continue;
		if (!plan || k >= plan->n || plan->q[k].dev != want[i].dev ||
		    plan->q[k].queue != want[i].queue)
			return false;
		k++;
	}
	return (plan ? plan->n : 0) == k;
}

static int sync_locked(struct nb_datapath *dp)
{
	unsigned int nr_devs, n = 0, *load = NULL;
	struct dp_plan **plans = NULL;
	struct wanted *want = NULL;
	struct nb_dev **devs = list_devs(&nr_devs);
	bool retired = false;
	int err = 0;

	if (!devs && nr_devs)
		return -ENOMEM;
	for (unsigned int d = 0; d < nr_devs; d++)
		n += devs[d]->port ? nb_port_rx_queues(devs[d]->port) : 0;
	want = calloc(n ? n : 1, sizeof(*want));
	load = calloc(dp->nr_workers, sizeof(*load));
	plans = calloc(dp->nr_workers, sizeof(*plans));
	if (!want || !load || !plans) {
		err = -ENOMEM;
		goto out;
	}
	n = 0;
	for (unsigned int d = 0; d < nr_devs; d++) {
		struct nb_port *port = devs[d]->port;
		unsigned int nq = port ? nb_port_rx_queues(port) : 0;
		u64 made, count;

		for (unsigned int q = 0; q < nq; q++) {
			want[n].dev = devs[d];
			want[n].queue = q;
			want[n].gen = !nb_gen_progress(port, &made, &count);
			want[n].worker = -1;
			n++;
		}
	}
	/* queues that stay keep their worker */
	for (unsigned int w = 0; w < dp->nr_workers; w++) {
		const struct dp_plan *plan = dp->workers[w].plan;

		for (unsigned int i = 0; plan && i < plan->n; i++) {
			struct wanted *x = find_wanted(want, n, &plan->q[i]);

			if (x && x->worker < 0) {
				x->worker = (int)w;
				load[w]++;
			}
		}
	}
	/*
	 * New queues: queue q of a device of several goes to worker q mod workers, as a NIC's
	 * queue q interrupts CPU q, so that queue k of every port is one worker's whatever other
	 * devices came between (a flow the kernel hashes to queue k both ways meets one worker);
	 * the queue of a single-queue device goes to the worker that owns the fewest (the lowest
	 * index among equals).
	 */
	for (unsigned int i = 0; i < n; i++) {
		unsigned int best = 0;

		if (want[i].worker >= 0)
			continue;
		if (nb_port_rx_queues(want[i].dev->port) > 1)
			best = want[i].queue % dp->nr_workers;
		else
			for (unsigned int w = 1; w < dp->nr_workers; w++)
				if (load[w] < load[best])
					best = w;
		want[i].worker = (int)best;
		load[best]++;
	}
	/* a plan lists its queues in device order; only a worker whose queues changed gets one */
	for (unsigned int w = 0; w < dp->nr_workers; w++) {
		if (plan_same(dp->workers[w].plan, want, n, (int)w))
			continue;
		plans[w] = plan_build(want, n, (int)w);
		if (!plans[w]) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (unsigned int w = 0; w < dp->nr_workers; w++) {
		struct dp_plan *old = dp->workers[w].plan;

		if (!plans[w])
			continue;
		__atomic_store_n(&dp->workers[w].plan, plans[w], __ATOMIC_SEQ_CST);
		plans[w] = NULL;
		/* a sleeping worker sleeps on its old queues: it takes the new ones now */
		if (dp->running)
			nb_worker_kick(dp->workers[w].index);
		if (old && dp->running) {
			nb_epoch_call(&old->rcu, plan_free_rcu);
			retired = true;
		} else {
			plan_free(old);
		}
	}
	/* a deleted device is released here, once no worker can be polling it */
	if (retired)
		nb_epoch_synchronize();
out:
	for (unsigned int w = 0; plans && w < dp->nr_workers; w++)
		plan_free(plans[w]);
	for (unsigned int d = 0; d < nr_devs; d++)
		nb_dev_put(devs[d]);
	free(devs);
	free(want);
	free(load);
	free(plans);
	return err;
}

int nb_datapath_sync(struct nb_datapath *dp)
{
	int err;

	pthread_mutex_lock(&dp->lock);
	err = sync_locked(dp);
	pthread_mutex_unlock(&dp->lock);
	return err;
}

/* The nth CPU this process may run on (n modulo their number); -1 when unknown. */
static int nth_allowed_cpu(unsigned int n)
{
	cpu_set_t set;
	int count;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	count = CPU_COUNT(&set);
	if (!count)
		return -1;
	n %= (unsigned int)count;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && n-- == 0)
			return cpu;
	return -1;
}

static int start_worker(struct nb_datapath *dp, struct dp_worker *w)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	err = pthread_attr_init(&attr);
	if (err)
		return -err;
	w->cpu = (dp->flags & (NB_DATAPATH_PIN | NB_DATAPATH_NO_PIN)) == NB_DATAPATH_PIN ?
		 nth_allowed_cpu(w->index) : -1;
	if (w->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		if (pthread_attr_setaffinity_np(&attr, sizeof(set), &set))
			w->cpu = -1;
	}
	err = pthread_create(&w->thread, &attr, worker_main, w);
	pthread_attr_destroy(&attr);
	return -err;
}

static void stop_locked(struct nb_datapath *dp, unsigned int started)
{
	__atomic_store_n(&dp->stop, true, __ATOMIC_SEQ_CST);
	for (unsigned int i = 0; i < started; i++)
		nb_worker_kick(dp->workers[i].index);
	for (unsigned int i = 0; i < started; i++)
		pthread_join(dp->workers[i].thread, NULL);
	dp->running = false;
}

int nb_datapath_start(struct nb_datapath *dp)
{
	int err;

	pthread_mutex_lock(&dp->lock);
	if (dp->running) {
		err = -EALREADY;
		goto out;
	}
	err = sync_locked(dp);
	if (err)
		goto out;
	__atomic_store_n(&dp->stop, false, __ATOMIC_RELEASE);
	dp->looked = false;
	for (unsigned int i = 0; i < dp->nr_workers; i++) {
		err = start_worker(dp, &dp->workers[i]);
		if (err) {
			stop_locked(dp, i);
			goto out;
		}
	}
	dp->running = true;
out:
	pthread_mutex_unlock(&dp->lock);
	return err;
}

void nb_datapath_stop_generators(struct nb_datapath *dp)
{
	__atomic_store_n(&dp->stop_gens, true, __ATOMIC_RELEASE);
}

/* What moves when a frame moves anywhere: received, sent, dropped, delivered, consumed. */
static u64 counters_sum(void)
{
	unsigned int n;
	struct nb_dev **devs = list_devs(&n);
	u64 sum = 0;

	for (unsigned int d = 0; d < n; d++) {
		struct nb_dev_stats_total s;

		nb_dev_stats_read(devs[d], &s);
		sum += s.rx_packets + s.tx_packets + s.rx_dropped + s.host_packets + s.consumed;
		nb_dev_put(devs[d]);
	}
	free(devs);
	return sum;
}

bool nb_datapath_idle(struct nb_datapath *dp)
{
	bool idle = true, first;
	u64 sum;

	pthread_mutex_lock(&dp->lock);
	/*
	 * Every worker has finished a whole round that began after the previous look (two more
	 * than then) and received nothing: a frame queued for a port then would have been found.
	 */
	for (unsigned int i = 0; i < dp->nr_workers && dp->running; i++) {
		struct dp_worker *w = &dp->workers[i];
		u64 r = __atomic_load_n(&w->rounds, __ATOMIC_ACQUIRE);

		/* a worker asleep found its queues empty and would wake for a frame */
		if (!__atomic_load_n(&w->idle, __ATOMIC_ACQUIRE) ||
		    (r < w->looked_rounds + 2 && !nb_worker_sleeping(w->index)))
			idle = false;
		w->looked_rounds = r;
	}
	sum = counters_sum();
	first = !dp->looked;
	if (first || sum != dp->looked_sum)
		idle = false;
	dp->looked_sum = sum;
	dp->looked = true;
	pthread_mutex_unlock(&dp->lock);
	return idle;
}

int nb_datapath_drain(struct nb_datapath *dp, unsigned int timeout_ms)
{
	struct timespec nap = { .tv_nsec = DRAIN_LOOK_NS };
	u64 looks = (u64)timeout_ms * 1000000 / DRAIN_LOOK_NS + 2;
	unsigned int quiet = 0;

	nb_datapath_stop_generators(dp);
	for (u64 i = 0; i < looks; i++) {
		quiet = nb_datapath_idle(dp) ? quiet + 1 : 0;
		if (quiet >= 2)
			return 0;
		nanosleep(&nap, NULL);
	}
	return -ETIMEDOUT;
}

void nb_datapath_stop(struct nb_datapath *dp)
{
	pthread_mutex_lock(&dp->lock);
	if (dp->running)
		stop_locked(dp, dp->nr_workers);
	pthread_mutex_unlock(&dp->lock);
}

void nb_datapath_destroy(struct nb_datapath *dp)
{
	if (!dp)
		return;
	nb_datapath_stop(dp);
	for (unsigned int i = 0; i < dp->nr_workers; i++)
		plan_free(dp->workers[i].plan);
	pthread_mutex_destroy(&dp->lock);
	free(dp->workers);
	free(dp);
}

bool nb_datapath_running(const struct nb_datapath *dp)
{
	return __atomic_load_n(&dp->running, __ATOMIC_RELAXED);
}

unsigned int nb_datapath_nr_workers(const struct nb_datapath *dp)
{
	return dp->nr_workers;
}

void nb_datapath_progress(struct nb_datapath *dp, struct nb_datapath_progress *p)
{
	unsigned int n;
	struct nb_dev **devs = list_devs(&n);
	bool all_counted = true;

	memset(p, 0, sizeof(*p));
	for (unsigned int d = 0; d < n; d++) {
		u64 made, count;

		if (devs[d]->port && !nb_gen_progress(devs[d]->port, &made, &count)) {
			p->has_generators = true;
			p->generated += made;
			p->goal += count;
			if (!count || made < count)
				all_counted = false;
			if (!count)
				p->goal = 0;
		}
		nb_dev_put(devs[d]);
	}
	free(devs);
	if (!all_counted)
		p->goal = 0;
	if (dp->packets)
		p->goal = dp->packets;
	p->generators_done = all_counted || (dp->packets && p->generated >= dp->packets);
}

int nb_datapath_worker_info(struct nb_datapath *dp, unsigned int worker,
			    struct nb_datapath_worker_info *info)
{
	struct dp_worker *w;

	if (worker >= dp->nr_workers)
		return -ENOENT;
	w = &dp->workers[worker];
	pthread_mutex_lock(&dp->lock);
	info->cpu_ns = __atomic_load_n(&w->cpu_ns, __ATOMIC_RELAXED);
	if (dp->running) {
		clockid_t id;

		if (!pthread_getcpuclockid(w->thread, &id))
			info->cpu_ns = clock_ns(id);
	}
	info->cpu = w->cpu;
	info->rounds = __atomic_load_n(&w->rounds, __ATOMIC_RELAXED);
	info->idle_rounds = __atomic_load_n(&w->idle_rounds, __ATOMIC_RELAXED);
	info->packets = __atomic_load_n(&w->packets, __ATOMIC_RELAXED);
	info->nr_queues = w->plan ? w->plan->n : 0;
	pthread_mutex_unlock(&dp->lock);
	return 0;
}

int nb_datapath_worker_queues(struct nb_datapath *dp, unsigned int worker,
			      struct nb_datapath_queue *queues, unsigned int max)
{
	const struct dp_plan *plan;
	unsigned int n;

	if (worker >= dp->nr_workers)
		return -ENOENT;
	pthread_mutex_lock(&dp->lock);
	plan = dp->workers[worker].plan;
	n = plan ? plan->n : 0;
	for (unsigned int i = 0; i < n && i < max; i++) {
		queues[i].ifindex = nb_dev_ifindex(plan->q[i].dev);
		queues[i].queue = plan->q[i].queue;
	}
	pthread_mutex_unlock(&dp->lock);
	return (int)n;
}
