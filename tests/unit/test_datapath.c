// SPDX-License-Identifier: GPL-2.0
/*
 * The datapath object (<netbpf/datapath.h>) as an embedder drives it, through public headers
 * only: queues spread evenly over the workers and sticky across syncs, queue k of every
 * multi-queue device on worker k, a packet budget made exactly, a drain that ends with every
 * counter settled, devices added and deleted while the workers run, and the errors of its
 * options.
 */
#include <errno.h>
#include <time.h>
#include <netbpf/datapath.h>
#include <netbpf/dev.h>
#include <netbpf/percpu.h>

#include "test.h"

static struct nb_dev *make_dev(const char *name, const char *kind, const char *words)
{
	struct nb_log log = { 0 };
	struct nb_dev *dev;

	if (nb_dev_create(name, 0, &dev, &log) || nb_dev_attach_port(dev, kind, words, &log))
		NB_FAIL("device %s: %s", name, nb_log_text(&log));
	nb_dev_set_up(dev, true);
	nb_log_free(&log);
	return dev;
}

static struct nb_datapath *make_dp(unsigned int workers, __u64 packets)
{
	struct nb_log log = { 0 };
	struct nb_datapath_opts opts = { .sz = sizeof(opts), .workers = workers,
					 .packets = packets, .log = &log };
	struct nb_datapath *dp;

	if (nb_datapath_create(&opts, &dp))
		NB_FAIL("datapath: %s", nb_log_text(&log));
	nb_log_free(&log);
	return dp;
}

/* How many queues each worker owns, and that no queue is owned twice. */
static void queue_counts(struct nb_datapath *dp, unsigned int *counts, unsigned int nw)
{
	struct nb_datapath_queue seen[64], q[64];
	unsigned int nseen = 0;

	for (unsigned int w = 0; w < nw; w++) {
		int n = nb_datapath_worker_queues(dp, w, q, 64);

		NB_ASSERT(n >= 0 && n <= 64);
		counts[w] = (unsigned int)n;
		for (int i = 0; i < n; i++) {
			for (unsigned int k = 0; k < nseen; k++)
				NB_ASSERT(seen[k].ifindex != q[i].ifindex ||
					  seen[k].queue != q[i].queue);
			seen[nseen++] = q[i];
		}
	}
	NB_ASSERT_EQ(nb_datapath_worker_queues(dp, nw, q, 64), -ENOENT);
}

NB_TEST(datapath_queues_even_and_sticky)
{
	struct nb_dev *g[3], *a, *b, *s;
	struct nb_datapath *dp;
	struct nb_datapath_queue q[8];
	unsigned int counts[2];

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	for (int i = 0; i < 3; i++) {
		char name[8];

		snprintf(name, sizeof(name), "g%d", i);
		g[i] = make_dev(name, "gen", "count 0");
	}
	s = make_dev("s", "sink", "");
	dp = make_dp(2, 0);
	NB_ASSERT_EQ(nb_datapath_nr_workers(dp), 2);
	NB_ASSERT_EQ(nb_datapath_sync(dp), 0);
	/* three receive queues (a sink has none): 2 and 1 */
	queue_counts(dp, counts, 2);
	NB_ASSERT_EQ(counts[0], 2);
	NB_ASSERT_EQ(counts[1], 1);

	/* a pipe pair adds two queues: the less busy worker takes the first */
	NB_ASSERT_EQ(nb_dev_create("a", 0, &a, NULL), 0);
	NB_ASSERT_EQ(nb_dev_create("b", 0, &b, NULL), 0);
	NB_ASSERT_EQ(nb_dev_pipe_pair(a, b, NULL), 0);
	NB_ASSERT_EQ(nb_datapath_sync(dp), 0);
	queue_counts(dp, counts, 2);
	NB_ASSERT_EQ(counts[0], 3);
	NB_ASSERT_EQ(counts[1], 2);

	/* deleting g0 (worker 0's) moves nothing else: worker 1 keeps g1 and its pipe end */
	NB_ASSERT_EQ(nb_datapath_worker_queues(dp, 1, q, 8), 2);
	NB_ASSERT_EQ(q[0].ifindex, nb_dev_ifindex(g[1]));
	nb_dev_destroy(g[0]);
	NB_ASSERT_EQ(nb_datapath_sync(dp), 0);
	queue_counts(dp, counts, 2);
	NB_ASSERT_EQ(counts[0], 2);
	NB_ASSERT_EQ(counts[1], 2);
	NB_ASSERT_EQ(nb_datapath_worker_queues(dp, 1, q, 8), 2);
	NB_ASSERT_EQ(q[0].ifindex, nb_dev_ifindex(g[1]));
	(void)s;
	nb_datapath_destroy(dp);
	nb_dev_destroy_all();
}

/* The worker that owns queue q of dev, -1: none. */
static int queue_owner(struct nb_datapath *dp, struct nb_dev *dev, unsigned int queue)
{
	struct nb_datapath_queue q[64];

	for (unsigned int w = 0; w < nb_datapath_nr_workers(dp); w++) {
		int n = nb_datapath_worker_queues(dp, w, q, 64);

		for (int i = 0; i < n; i++)
			if (q[i].ifindex == nb_dev_ifindex(dev) && q[i].queue == queue)
				return (int)w;
	}
	return -1;
}

/*
 * Queue k of every multi-queue device is worker k's, whatever single-queue devices came
 * between them: a flow the kernel hashes to queue k of both ports stays on one worker.
 */
NB_TEST(datapath_queue_k_on_worker_k)
{
	struct nb_dev *a, *x, *b, *c;
	struct nb_datapath *dp;
	unsigned int counts[2];

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	a = make_dev("a", "gen", "count 0 queues 2");
	x = make_dev("x", "gen", "count 0");
	b = make_dev("b", "gen", "count 0 queues 2");
	dp = make_dp(2, 0);
	NB_ASSERT_EQ(nb_datapath_sync(dp), 0);
	for (unsigned int k = 0; k < 2; k++) {
		NB_ASSERT_EQ(queue_owner(dp, a, k), (int)k);
		NB_ASSERT_EQ(queue_owner(dp, b, k), (int)k);
	}
	/* the single-queue device went to the worker with the fewest: worker 0, then 1 */
	NB_ASSERT_EQ(queue_owner(dp, x, 0), 0);
	/* a device of 3 queues on 2 workers: its third queue wraps to worker 0 */
	c = make_dev("c", "gen", "count 0 queues 3");
	NB_ASSERT_EQ(nb_datapath_sync(dp), 0);
	for (unsigned int k = 0; k < 3; k++)
		NB_ASSERT_EQ(queue_owner(dp, c, k), (int)(k % 2));
	queue_counts(dp, counts, 2);
	NB_ASSERT_EQ(counts[0], 5);
	NB_ASSERT_EQ(counts[1], 3);
	nb_datapath_destroy(dp);
	nb_dev_destroy_all();
}

NB_TEST(datapath_budget_exact_and_drained)
{
	struct nb_dev_stats_total st1, st2;
	struct nb_datapath_progress p;
	struct nb_datapath_worker_info wi;
	struct nb_datapath *dp;
	struct nb_dev *g1, *g2;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	g1 = make_dev("g1", "gen", "count 0");
	g2 = make_dev("g2", "gen", "count 0");
	dp = make_dp(2, 100003);
	NB_ASSERT_EQ(nb_datapath_start(dp), 0);
	NB_ASSERT_EQ(nb_datapath_start(dp), -EALREADY);
	NB_ASSERT(nb_datapath_running(dp));
	do {
		struct timespec nap = { .tv_nsec = 1000000 };

		nanosleep(&nap, NULL);
		nb_datapath_progress(dp, &p);
	} while (!p.generators_done);
	/*
	 * The budget holds while the workers keep asking for more: each one's reservation dips
	 * it below zero for a moment, which the other may not take for "no budget".
	 */
	nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
	NB_ASSERT_EQ(nb_datapath_drain(dp, 10000), 0);
	nb_dev_stats_read(g1, &st1);
	nb_dev_stats_read(g2, &st2);
	/* exactly the budget, whichever worker made which burst, all delivered */
	NB_ASSERT_EQ(st1.rx_packets + st2.rx_packets, 100003);
	NB_ASSERT_EQ(st1.host_packets + st2.host_packets, 100003);
	NB_ASSERT(p.has_generators);
	NB_ASSERT_EQ(p.goal, 100003);
	NB_ASSERT_EQ(p.generated, 100003);
	/* drained: a later look, after the workers went round again, sees nothing move */
	nanosleep(&(struct timespec){ .tv_nsec = 50000000 }, NULL);
	NB_ASSERT(nb_datapath_idle(dp));
	NB_ASSERT_EQ(nb_datapath_worker_info(dp, 0, &wi), 0);
	NB_ASSERT(wi.rounds > 0 && wi.nr_queues == 1);
	NB_ASSERT_EQ(wi.cpu, -1);	/* left to the scheduler: the default */
	NB_ASSERT_EQ(nb_datapath_worker_info(dp, 2, &wi), -ENOENT);
	nb_datapath_stop(dp);
	NB_ASSERT(!nb_datapath_running(dp));
	nb_datapath_destroy(dp);
	nb_dev_destroy_all();
}

/*
 * Devices come and go while two workers forward: a generator added after the start is polled,
 * one deleted under traffic is released (ASan watches for a use after free), and the rest go on.
 */
NB_TEST(datapath_devices_change_while_running)
{
	struct nb_datapath_worker_info wi0, wi1;
	struct nb_dev_stats_total st;
	struct nb_datapath *dp;
	struct nb_dev *g1, *g2, *g3;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	g1 = make_dev("g1", "gen", "count 0 rate 1000000");
	dp = make_dp(2, 0);
	NB_ASSERT_EQ(nb_datapath_start(dp), 0);
	g2 = make_dev("g2", "gen", "count 5000");
	NB_ASSERT_EQ(nb_datapath_sync(dp), 0);
	for (int i = 0; i < 20; i++) {
		char name[8];

		/* an endless generator made and deleted again, under traffic */
		snprintf(name, sizeof(name), "t%d", i);
		g3 = make_dev(name, "gen", "count 0");
		NB_ASSERT_EQ(nb_datapath_sync(dp), 0);
		nb_dev_destroy(g3);
		NB_ASSERT_EQ(nb_datapath_sync(dp), 0);
	}
	/*
	 * The drain stops the generators: first g2 makes its 5000 and the paced g1 some frames,
	 * however slow or fast the machine.
	 */
	for (int i = 0; i < 1000; i++) {
		struct timespec nap = { .tv_nsec = 10 * 1000 * 1000 };
		struct nb_dev_stats_total st1;

		nb_dev_stats_read(g2, &st);
		nb_dev_stats_read(g1, &st1);
		if (st.rx_packets >= 5000 && st1.rx_packets > 0)
			break;
		nanosleep(&nap, NULL);
	}
	NB_ASSERT_EQ(nb_datapath_drain(dp, 10000), 0);
	nb_dev_stats_read(g2, &st);
	NB_ASSERT_EQ(st.rx_packets, 5000);
	NB_ASSERT_EQ(st.host_packets, 5000);
	nb_dev_stats_read(g1, &st);
	NB_ASSERT(st.rx_packets > 0);
	NB_ASSERT_EQ(st.rx_packets, st.host_packets);
	NB_ASSERT_EQ(nb_datapath_worker_info(dp, 0, &wi0), 0);
	NB_ASSERT_EQ(nb_datapath_worker_info(dp, 1, &wi1), 0);
	NB_ASSERT_EQ(wi0.nr_queues + wi1.nr_queues, 2);
	nb_datapath_destroy(dp);
	nb_dev_destroy_all();
}

NB_TEST(datapath_errors)
{
	struct nb_log log = { 0 };
	struct nb_datapath_opts opts = { .sz = sizeof(opts), .workers = 3, .log = &log };
	struct nb_datapath *dp;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	NB_ASSERT_EQ(nb_datapath_create(&opts, &dp), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "3 workers");
	NB_ASSERT(!dp);
	/* too small to hold the log: refused, and the log, beyond sz, is not touched */
	nb_log_free(&log);
	opts.sz = 4;
	opts.workers = 1;
	NB_ASSERT_EQ(nb_datapath_create(&opts, &dp), -EINVAL);
	NB_ASSERT_EQ(nb_log_text(&log)[0], '\0');
	NB_ASSERT(!dp);
	nb_log_free(&log);
	/* a busy-poll beyond a second is refused, naming it */
	opts.sz = sizeof(opts);
	opts.busy_poll_us = 2000000;
	NB_ASSERT_EQ(nb_datapath_create(&opts, &dp), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "busy-poll of 2000000 us");
	NB_ASSERT(!dp);
	nb_log_free(&log);
	/* no options: one worker per per-CPU slot */
	NB_ASSERT_EQ(nb_datapath_create(NULL, &dp), 0);
	NB_ASSERT_EQ(nb_datapath_nr_workers(dp), 2);
	/* no devices: drained at once */
	NB_ASSERT_EQ(nb_datapath_start(dp), 0);
	NB_ASSERT_EQ(nb_datapath_drain(dp, 1000), 0);
	nb_datapath_destroy(dp);
}
