// SPDX-License-Identifier: GPL-2.0
/* Epoch reclamation: a retired object outlives every reader that might hold it. */
#include <pthread.h>
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
