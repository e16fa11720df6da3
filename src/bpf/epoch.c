// SPDX-License-Identifier: GPL-2.0
/*
 * Epoch-based reclamation (see epoch.h). A global epoch counter advances each time an object is
 * retired. Each reader thread has a record holding the epoch it saw at its last quiescent point,
 * or 0 while it is quiescent. An object retired at epoch E may be freed once a scan of the
 * records that began after its retirement finds every record 0 or above E: such a reader
 * started after the object was unlinked. The scan's own start counts: a record that read 0
 * says nothing about objects retired while the scan was running.
 *
 * Ordering: the reader stores its epoch and then issues a full fence before it reads any shared
 * pointer; the writer unlinks, bumps the epoch and issues a full fence before it scans the
 * records. Either the writer sees the reader's epoch, or the reader sees the unlink.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "bpf/epoch.h"
#include "common/barrier.h"

struct epoch_reader {
	u64 epoch;			/* 0: quiescent */
	bool online;			/* a worker between quiescent points */
	bool in_use;			/* owned by a live thread */
	struct epoch_reader *next;	/* the list only grows: records are reused */
};

static u64 global_epoch = 1;
static struct epoch_reader *readers;
static pthread_mutex_t readers_lock = PTHREAD_MUTEX_INITIALIZER;

static pthread_mutex_t limbo_lock = PTHREAD_MUTEX_INITIALIZER;
/* Oldest first: epochs are taken under limbo_lock, so the queue is sorted by epoch. */
static struct nb_epoch_head *limbo_head, **limbo_tail = &limbo_head;
static unsigned long limbo_cnt;

static pthread_key_t reader_key;
static pthread_once_t reader_key_once = PTHREAD_ONCE_INIT;
static __thread struct epoch_reader *self;
__thread unsigned int nb_epoch_depth __attribute__((tls_model("initial-exec")));

/* Reclaim without being asked once this many objects wait. */
#define EPOCH_RECLAIM_BATCH 256
/* A writer outside the datapath waits for a grace period once this many wait (throttle). */
#define EPOCH_BACKLOG_MAX 4096

static void reader_release(void *arg)
{
	struct epoch_reader *r = arg;

	__atomic_store_n(&r->epoch, 0, __ATOMIC_RELEASE);
	nb_epoch_depth = 0;
	r->online = false;
	__atomic_store_n(&r->in_use, false, __ATOMIC_RELEASE);
}

static void reader_key_init(void)
{
	pthread_key_create(&reader_key, reader_release);
}

static __cold struct epoch_reader *reader_register(void)
{
	struct epoch_reader *r;

	pthread_once(&reader_key_once, reader_key_init);
	pthread_mutex_lock(&readers_lock);
	for (r = readers; r; r = r->next)
		if (!__atomic_load_n(&r->in_use, __ATOMIC_ACQUIRE))
			break;
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			abort(); /* no way to read safely without a record */
		r->next = readers;
		__atomic_store_n(&readers, r, __ATOMIC_RELEASE);
	}
	r->in_use = true;
	pthread_mutex_unlock(&readers_lock);
	pthread_setspecific(reader_key, r);
	self = r;
	return r;
}

static inline struct epoch_reader *reader_self(void)
{
	return likely(self) ? self : reader_register();
}

static inline void reader_observe(struct epoch_reader *r)
{
	__atomic_store_n(&r->epoch, __atomic_load_n(&global_epoch, __ATOMIC_SEQ_CST),
			 __ATOMIC_SEQ_CST);
	smp_mb();
}

void nb_epoch_read_enter(void)
{
	reader_observe(reader_self());
}

void nb_epoch_read_exit(void)
{
	__atomic_store_n(&self->epoch, 0, __ATOMIC_RELEASE);
	nb_epoch_maybe_reclaim();
}

void nb_epoch_online(void)
{
	struct epoch_reader *r = reader_self();

	if (!r->online) {
		r->online = true;
		nb_epoch_depth++;	/* online is a section of its own until offline */
	}
	reader_observe(r);
}

void nb_epoch_quiescent(void)
{
	struct epoch_reader *r = reader_self();

	/* only between sections: the worker's own is the one left */
	if (r->online && nb_epoch_depth == 1) {
		reader_observe(r);
		nb_epoch_maybe_reclaim();
	}
}

void nb_epoch_offline(void)
{
	struct epoch_reader *r = reader_self();

	if (!r->online)
		return;
	r->online = false;
	if (--nb_epoch_depth == 0)
		__atomic_store_n(&r->epoch, 0, __ATOMIC_RELEASE);
}

/*
 * The oldest epoch a reader (other than skip) may still be in, or the epoch at the start of the
 * scan when none is. Never more than that: an object retired after the scan began (at that
 * epoch or later) may be held by a reader the scan saw quiescent and that entered since, so
 * the bound must not let it go even when every reader looked quiescent.
 */
static u64 oldest_reader_epoch(const struct epoch_reader *skip)
{
	u64 oldest;

	smp_mb();
	oldest = __atomic_load_n(&global_epoch, __ATOMIC_SEQ_CST);
	for (struct epoch_reader *r = __atomic_load_n(&readers, __ATOMIC_ACQUIRE); r;
	     r = r->next) {
		u64 e = __atomic_load_n(&r->epoch, __ATOMIC_SEQ_CST);

		if (r != skip && e && e < oldest)
			oldest = e;
	}
	return oldest;
}

/* Detach the objects retired before epoch 'before' (a prefix of the queue), run their callbacks. */
static unsigned int run_callbacks(u64 before)
{
	struct nb_epoch_head *done, *h;
	unsigned int n = 0;

	pthread_mutex_lock(&limbo_lock);
	done = limbo_head;
	for (h = limbo_head; h && h->epoch < before; h = h->next)
		n++;
	if (!n) {
		pthread_mutex_unlock(&limbo_lock);
		return 0;
	}
	limbo_head = h;
	if (!h)
		limbo_tail = &limbo_head;
	__atomic_sub_fetch(&limbo_cnt, n, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&limbo_lock);
	/* The first n of the old queue: their links are ours now. */
	for (unsigned int i = 0; i < n; i++) {
		h = done;
		done = h->next;
		h->func(h);
	}
	return n;
}

void nb_epoch_call(struct nb_epoch_head *head, void (*func)(struct nb_epoch_head *head))
{
	head->func = func;
	smp_mb();
	pthread_mutex_lock(&limbo_lock);
	head->epoch = __atomic_fetch_add(&global_epoch, 1, __ATOMIC_SEQ_CST);
	head->next = NULL;
	*limbo_tail = head;
	limbo_tail = &head->next;
	__atomic_add_fetch(&limbo_cnt, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&limbo_lock);
}

struct epoch_fn {
	struct nb_epoch_head head;
	void *obj;
	void (*fn)(void *obj);
};

static void epoch_fn_run(struct nb_epoch_head *head)
{
	struct epoch_fn *e = container_of(head, struct epoch_fn, head);

	e->fn(e->obj);
	free(e);
}

void nb_epoch_call_fn(void *obj, void (*fn)(void *obj))
{
	struct epoch_fn *e = malloc(sizeof(*e));

	if (!e) {
		nb_epoch_synchronize();
		fn(obj);
		return;
	}
	e->obj = obj;
	e->fn = fn;
	nb_epoch_call(&e->head, epoch_fn_run);
}

unsigned int nb_epoch_reclaim(void)
{
	return run_callbacks(oldest_reader_epoch(NULL));
}

void nb_epoch_maybe_reclaim(void)
{
	if (__atomic_load_n(&limbo_cnt, __ATOMIC_RELAXED) >= EPOCH_RECLAIM_BATCH)
		nb_epoch_reclaim();
}

void nb_epoch_throttle(void)
{
	const struct epoch_reader *r = self;

	/* A reader cannot wait for a grace period: it would wait for itself. */
	if (__atomic_load_n(&limbo_cnt, __ATOMIC_RELAXED) >= EPOCH_BACKLOG_MAX &&
	    (!r || !nb_epoch_depth))
		nb_epoch_synchronize();
	else
		nb_epoch_maybe_reclaim();
}

void nb_epoch_synchronize(void)
{
	u64 target = __atomic_fetch_add(&global_epoch, 1, __ATOMIC_SEQ_CST);
	struct timespec nap = { .tv_nsec = 20000 };

	/* Readers that observed target or older must reach a quiescent point. */
	while (oldest_reader_epoch(self) <= target)
		nanosleep(&nap, NULL);
	run_callbacks(target + 1);
}

void nb_epoch_barrier(void)
{
	nb_epoch_synchronize();
}

unsigned long nb_epoch_pending(void)
{
	return __atomic_load_n(&limbo_cnt, __ATOMIC_RELAXED);
}
