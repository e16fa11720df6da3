// SPDX-License-Identifier: GPL-2.0
/* Epoch reclamation: a retired object outlives every reader that might hold it. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "bpf/epoch.h"

struct obj {
	struct nb_epoch_head head;
	int freed;
};

static void obj_free(struct nb_epoch_head *head)
{
	container_of(head, struct obj, head)->freed = 1;
}

struct reader_ctl {
	volatile int entered, release, online;
};

static void *reader(void *arg)
{
	struct reader_ctl *r = arg;

	if (r->online)
		nb_epoch_online();
	else
		nb_epoch_read_lock();
	__atomic_store_n(&r->entered, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&r->release, __ATOMIC_ACQUIRE))
		usleep(100);
	if (r->online)
		nb_epoch_offline();
	else
		nb_epoch_read_unlock();
	return NULL;
}

static void check_reader_blocks(int online)
{
	struct reader_ctl r = { .online = online };
	struct obj o = { .freed = 0 };
	pthread_t t;

	NB_ASSERT_EQ(pthread_create(&t, NULL, reader, &r), 0);
	while (!__atomic_load_n(&r.entered, __ATOMIC_ACQUIRE))
		usleep(100);
	nb_epoch_call(&o.head, obj_free);
	NB_ASSERT_EQ(nb_epoch_pending(), 1);
	nb_epoch_reclaim();
	NB_ASSERT_EQ(o.freed, 0);	/* the reader may still hold it */
	__atomic_store_n(&r.release, 1, __ATOMIC_RELEASE);
	nb_epoch_synchronize();		/* waits for the reader to leave */
	NB_ASSERT_EQ(o.freed, 1);
	NB_ASSERT_EQ(nb_epoch_pending(), 0);
	pthread_join(t, NULL);
}

NB_TEST(epoch_read_section_blocks_free)
{
	check_reader_blocks(0);
}

NB_TEST(epoch_online_worker_blocks_free)
{
	check_reader_blocks(1);
}

/* A reader that enters after the retirement cannot hold the object: no wait for it. */
NB_TEST(epoch_late_reader_does_not_block)
{
	struct obj o = { .freed = 0 };

	nb_epoch_call(&o.head, obj_free);
	nb_epoch_read_lock();
	nb_epoch_read_lock();	/* sections nest */
	nb_epoch_read_unlock();
	/* This thread is still inside: reclaim must not free what it may hold... */
	nb_epoch_reclaim();
	NB_ASSERT_EQ(o.freed, 1);	/* ...but it entered after the retirement */
	nb_epoch_read_unlock();
}

/* An online worker's quiescent point lets older objects go. */
NB_TEST(epoch_quiescent_point)
{
	struct obj o = { .freed = 0 };

	nb_epoch_online();
	nb_epoch_call(&o.head, obj_free);
	nb_epoch_reclaim();
	NB_ASSERT_EQ(o.freed, 0);
	nb_epoch_quiescent();
	nb_epoch_reclaim();
	NB_ASSERT_EQ(o.freed, 1);
	nb_epoch_offline();
}

/*
 * A reclaimer that found every reader quiescent must still not free what is retired after its
 * scan began: a reader that entered meanwhile may hold it. Here the reader retires an object
 * inside its own section (call_rcu under rcu_read_lock) and watches it, while another thread
 * reclaims in a loop. Idle records ahead of the reader's make each scan long, and the reader
 * spends most of its time inside a section, so that a reclaimer preempted between its scan and
 * its use of it finds the reader inside on its return: before the scan bounded itself by the
 * epoch it started at, this caught a premature free in every run.
 */
#define RACE_IDLE_READERS 256
#define RACE_OBJS 1024
#define RACE_ROUNDS 100000
#define RACE_WATCH 2000

struct race {
	struct obj objs[RACE_OBJS];
	pthread_barrier_t idle_in, idle_out;
	int stop;
};

static void obj_free_atomic(struct nb_epoch_head *head)
{
	__atomic_store_n(&container_of(head, struct obj, head)->freed, 1, __ATOMIC_RELEASE);
}

static void *race_idle_reader(void *arg)
{
	struct race *r = arg;

	nb_epoch_read_lock();
	nb_epoch_read_unlock();
	pthread_barrier_wait(&r->idle_in);
	pthread_barrier_wait(&r->idle_out);
	return NULL;
}

static void *race_reclaimer(void *arg)
{
	struct race *r = arg;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
		nb_epoch_reclaim();
	return NULL;
}

NB_TEST(epoch_reclaim_scan_bounds_itself)
{
	static struct race r;
	pthread_t idle[RACE_IDLE_READERS], reclaimer;
	unsigned long early = 0;
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	pthread_barrier_init(&r.idle_in, NULL, RACE_IDLE_READERS + 1);
	pthread_barrier_init(&r.idle_out, NULL, RACE_IDLE_READERS + 1);
	/* Their records go on the list before this thread's: each scan reads them after ours. */
	for (int i = 0; i < RACE_IDLE_READERS; i++)
		NB_ASSERT_EQ(pthread_create(&idle[i], &attr, race_idle_reader, &r), 0);
	pthread_barrier_wait(&r.idle_in);
	for (int i = 0; i < RACE_OBJS; i++)
		r.objs[i].freed = 1;
	NB_ASSERT_EQ(pthread_create(&reclaimer, NULL, race_reclaimer, &r), 0);
	for (int i = 0; i < RACE_ROUNDS; i++) {
		struct obj *o = &r.objs[i % RACE_OBJS];

		while (!__atomic_load_n(&o->freed, __ATOMIC_ACQUIRE))
			nb_epoch_reclaim();
		o->freed = 0;
		nb_epoch_read_lock();
		nb_epoch_call(&o->head, obj_free_atomic);
		for (int s = 0; s < RACE_WATCH; s++) {
			if (__atomic_load_n(&o->freed, __ATOMIC_ACQUIRE)) {
				early++;
				break;
			}
		}
		nb_epoch_read_unlock();
	}
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	pthread_join(reclaimer, NULL);
	pthread_barrier_wait(&r.idle_out);
	for (int i = 0; i < RACE_IDLE_READERS; i++)
		pthread_join(idle[i], NULL);
	nb_epoch_barrier();
	pthread_attr_destroy(&attr);
	NB_ASSERT_EQ(early, 0);	/* freed while this thread's section held it */
}

/*
 * A control thread that retires objects faster than the workers pass quiescent points (a map
 * updated in a loop) waits for a grace period once thousands wait, instead of piling them up:
 * nb_epoch_throttle. An online worker inside a round holds every object; the throttle lets the
 * control thread go only after the worker's next quiescent point freed them all. The worker
 * itself never waits in the throttle: it would wait for itself.
 */
#define THROTTLE_OBJS 5000

struct slow_worker {
	volatile int entered, stop;
};

static void *slow_worker(void *arg)
{
	struct slow_worker *w = arg;

	nb_epoch_online();
	__atomic_store_n(&w->entered, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		usleep(5000);	/* a long round */
		nb_epoch_quiescent();
	}
	nb_epoch_offline();
	return NULL;
}

NB_TEST(epoch_throttle_bounds_the_backlog)
{
	static struct obj objs[THROTTLE_OBJS];
	struct slow_worker w = { 0 };
	pthread_t t;
	int freed = 0;

	/* an online reader (this thread, as a worker) is never made to wait */
	nb_epoch_online();
	for (int i = 0; i < THROTTLE_OBJS; i++)
		nb_epoch_call(&objs[i].head, obj_free);
	nb_epoch_throttle();
	NB_ASSERT_EQ(nb_epoch_pending(), THROTTLE_OBJS);
	nb_epoch_offline();
	nb_epoch_barrier();
	memset(objs, 0, sizeof(objs));

	NB_ASSERT_EQ(pthread_create(&t, NULL, slow_worker, &w), 0);
	while (!__atomic_load_n(&w.entered, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int i = 0; i < THROTTLE_OBJS; i++)
		nb_epoch_call(&objs[i].head, obj_free);
	/* the worker, inside its round, may hold them all: the throttle waits for its next
	 * quiescent point */
	nb_epoch_throttle();
	for (int i = 0; i < THROTTLE_OBJS; i++)
		freed += objs[i].freed;
	NB_ASSERT_EQ(freed, THROTTLE_OBJS);
	NB_ASSERT_EQ(nb_epoch_pending(), 0);
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
}
