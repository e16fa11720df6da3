// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_timer_init, bpf_timer_set_callback, bpf_timer_start and bpf_timer_cancel, the twins of
 * kernel/bpf/helpers.c's bpf_hrtimer: the 16 bytes of a struct bpf_timer in a map value hold a
 * pointer to a struct nb_timer that bpf_timer_init allocates, and the value owns it: an update
 * or delete of the element, the last user reference of the map and the map's end cancel and
 * free it (nb_timer_cancel_and_free, called by the maps).
 *
 * Each CPU (worker) has a timer base, a min-heap on the expiry time. bpf_timer_start queues the
 * timer on the base of the CPU that runs it (the kernel's hrtimer does the same); the thread
 * that drives that CPU runs the callbacks that are due (nb_timers_run): a worker loop at the end
 * of each round (nb_worker_flush: the datapath's workers, whose sleep ends at the next expiry,
 * and an embedder's own loop alike), `prog run` after each packet, a test run between batches.
 * In the deterministic mode expiries are on the virtual clock, and the worker runs the due
 * timers before each packet: a replay fires them between the same two packets.
 *
 * One lock guards every base and timer: timers are armed and fired far less often than
 * packets move, and a single lock makes cancel's wait for a running callback and the kernel's
 * -EDEADLK cases plain. Callbacks run without it, inside an epoch read section, so the value
 * they are handed stays allocated while they run.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include <netbpf/clock.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>

#include "bpf/callback.h"
#include "bpf/epoch.h"
#include "bpf/helpers.h"
#include "bpf/map.h"
#include "bpf/maps/array.h"
#include "bpf/timer.h"
#include "common/barrier.h"

#define PTR(x) ((void *)(uintptr_t)(x))

/* Linux 6.18's flags of bpf_timer_start (newer than some uapi headers). */
#define NB_F_TIMER_ABS		(1ULL << 0)	/* nsecs is an absolute time of the clock */
#define NB_F_TIMER_CPU_PIN	(1ULL << 1)	/* stay on the CPU that started it */

#define NOT_QUEUED ((u32)-1)
/* The kernel's MAX_CLOCKS: clock ids a program may name are below it. */
#define NB_MAX_CLOCKS 16

struct nb_timer {
	struct nb_map *map;		/* no reference: the map frees its timers first */
	void *value;			/* the map value holding the struct bpf_timer */
	struct nb_timer **field;	/* its first 8 bytes, which point here */
	const void *callback;		/* a struct nb_callback of prog; NULL: none set */
	struct nb_prog *prog;		/* a reference while a callback is set */
	int clockid;
	u64 expires;			/* on the monotonic clock (the virtual one if deterministic) */
	u32 cpu;			/* the base it is queued on */
	u32 heap_idx;			/* NOT_QUEUED: not queued */
	u32 waiters;			/* threads waiting in bpf_timer_cancel for its callback */
	u32 cancelling;			/* of them, callbacks (the kernel's count): see the cancel */
	bool running;			/* its callback runs now */
	bool dead;			/* gone from its value while running: the last waiter frees it */
};

struct timer_base {
	struct nb_timer **heap;
	u32 n, cap;
	/* The earliest expiry plus one, 0: none. Read without the lock by nb_timers_run. */
	u64 next;
};

static struct timer_base bases[NB_MAX_CPUS];
static pthread_mutex_t timers_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t callback_done = PTHREAD_COND_INITIALIZER;
static void (*kick_cpu)(unsigned int cpu);
/* The timer whose callback this thread runs (the kernel's per-CPU hrtimer_running). */
static __thread struct nb_timer *running_timer;

void nb_timers_set_kick(void (*kick)(unsigned int cpu))
{
	__atomic_store_n(&kick_cpu, kick, __ATOMIC_RELEASE);
}

static u64 now_ns(void)
{
	return nb_ktime_get_ns();
}

/* Heap order, under timers_lock. */
static void heap_set(struct timer_base *b, u32 i, struct nb_timer *t)
{
	b->heap[i] = t;
	t->heap_idx = i;
}

static void heap_up(struct timer_base *b, u32 i)
{
	struct nb_timer *t = b->heap[i];

	while (i) {
		u32 parent = (i - 1) / 2;

		if (b->heap[parent]->expires <= t->expires)
			break;
		heap_set(b, i, b->heap[parent]);
		i = parent;
	}
	heap_set(b, i, t);
}

static void heap_down(struct timer_base *b, u32 i)
{
	struct nb_timer *t = b->heap[i];

	for (;;) {
		u32 child = 2 * i + 1;

		if (child >= b->n)
			break;
		if (child + 1 < b->n && b->heap[child + 1]->expires < b->heap[child]->expires)
			child++;
		if (t->expires <= b->heap[child]->expires)
			break;
		heap_set(b, i, b->heap[child]);
		i = child;
	}
	heap_set(b, i, t);
}

static void base_update_next(struct timer_base *b)
{
	__atomic_store_n(&b->next, b->n ? b->heap[0]->expires + 1 : 0, __ATOMIC_RELEASE);
}

/* Takes t off its base; whether it was queued (the kernel's "active"). */
static bool timer_dequeue(struct nb_timer *t)
{
	struct timer_base *b;
	u32 i = t->heap_idx;

	if (i == NOT_QUEUED)
		return false;
	b = &bases[t->cpu];
	t->heap_idx = NOT_QUEUED;
	if (i != --b->n) {
		heap_set(b, i, b->heap[b->n]);
		heap_up(b, i);
		heap_down(b, b->heap[i] == t ? i : b->heap[i]->heap_idx);
	}
	base_update_next(b);
	return true;
}

static int timer_enqueue(struct nb_timer *t, u32 cpu)
{
	struct timer_base *b = &bases[cpu];

	if (b->n == b->cap) {
		u32 cap = b->cap ? 2 * b->cap : 16;
		struct nb_timer **heap = realloc(b->heap, cap * sizeof(*heap));

		if (!heap)
			return -ENOMEM;
		b->heap = heap;
		b->cap = cap;
	}
	t->cpu = cpu;
	heap_set(b, b->n, t);
	heap_up(b, b->n++);
	base_update_next(b);
	return 0;
}

/* The timer's clock now, for absolute expiries. */
static u64 clock_now(int clockid)
{
	switch (clockid) {
	case CLOCK_REALTIME:
		return nb_realtime_ns();
	case CLOCK_BOOTTIME:
		return nb_ktime_get_boot_ns();
	default:
		return nb_ktime_get_ns();
	}
}

static u64 add_sat(u64 a, u64 b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* The kernel's map->usercnt test: only a map that userspace holds takes new timers. */
static bool map_has_users(const struct nb_map *map)
{
	return __atomic_load_n(&map->usercnt, __ATOMIC_SEQ_CST) > 0;
}

static u64 bpf_timer_init(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_timer **field = PTR(r1);
	struct nb_map *map = PTR(r2);
	struct nb_timer *t;
	u64 flags = r3;
	int ret = 0;

	/* The clock ids the kernel's hrtimers take from a program. */
	if (flags >= NB_MAX_CLOCKS || !((1ULL << flags) & ((1ULL << CLOCK_MONOTONIC) |
							 (1ULL << CLOCK_REALTIME) |
							 (1ULL << CLOCK_BOOTTIME))))
		return -EINVAL;
	pthread_mutex_lock(&timers_lock);
	if (*field) {
		ret = -EBUSY;
		goto out;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		ret = -ENOMEM;
		goto out;
	}
	t->map = map;
	t->value = (u8 *)field - map->timer_off;
	t->field = field;
	t->clockid = (int)flags;
	t->heap_idx = NOT_QUEUED;
	__atomic_store_n(field, t, __ATOMIC_SEQ_CST);
	/*
	 * A map no user holds has its timers cancelled: a new one would run unowned (-EPERM).
	 * Read after the store, as nb_map_release_uref reads the fields after its decrement: a
	 * timer stored while the last user goes is seen by one of the two (the kernel's order).
	 */
	smp_mb();
	if (!map_has_users(map)) {
		__atomic_store_n(field, NULL, __ATOMIC_RELAXED);
		free(t);
		ret = -EPERM;
	}
out:
	pthread_mutex_unlock(&timers_lock);
	return ret;
}

const struct nb_func_proto nb_timer_init_proto = {
	.func = bpf_timer_init,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_TIMER, NB_ARG_CONST_MAP_PTR, NB_ARG_ANYTHING },
};

static u64 bpf_timer_set_callback(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_timer **field = PTR(r1);
	const struct nb_callback *cb = PTR(r2);
	struct nb_prog *old = NULL;
	struct nb_timer *t;
	int ret = 0;

	pthread_mutex_lock(&timers_lock);
	t = *field;
	if (!t) {
		ret = -EINVAL;
		goto out;
	}
	if (!map_has_users(t->map)) {
		ret = -EPERM;
		goto out;
	}
	/* The callback's program stays loaded while the timer may call it. */
	if (t->prog != cb->prog) {
		old = t->prog;
		t->prog = nb_prog_get((struct nb_prog *)cb->prog);
	}
	t->callback = cb;
out:
	pthread_mutex_unlock(&timers_lock);
	nb_prog_put(old);
	return ret;
}

const struct nb_func_proto nb_timer_set_callback_proto = {
	.func = bpf_timer_set_callback,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_TIMER, NB_ARG_PTR_TO_FUNC },
};

static u64 bpf_timer_start(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_timer **field = PTR(r1);
	u64 nsecs = r2, flags = r3;
	void (*kick)(unsigned int cpu);
	unsigned int cpu = nb_this_cpu() % NB_MAX_CPUS;
	struct nb_timer *t;
	u64 now = now_ns();
	bool first = false;
	int ret;

	if (flags & ~(NB_F_TIMER_ABS | NB_F_TIMER_CPU_PIN))
		return -EINVAL;
	pthread_mutex_lock(&timers_lock);
	t = *field;
	if (!t || !t->callback) {
		ret = -EINVAL;
		goto out;
	}
	timer_dequeue(t);
	if (flags & NB_F_TIMER_ABS) {
		u64 clk = clock_now(t->clockid);

		t->expires = nsecs > clk ? add_sat(now, nsecs - clk) : now;
	} else {
		t->expires = add_sat(now, nsecs);
	}
	ret = timer_enqueue(t, cpu);
	first = !ret && bases[cpu].heap[0] == t;
out:
	pthread_mutex_unlock(&timers_lock);
	/* An earlier expiry than the sleeping worker of that CPU waits for. */
	kick = __atomic_load_n(&kick_cpu, __ATOMIC_ACQUIRE);
	if (first && kick)
		kick(cpu);
	return ret;
}

const struct nb_func_proto nb_timer_start_proto = {
	.func = bpf_timer_start,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_TIMER, NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

/* Under timers_lock: a dead timer nobody runs or waits for any more is freed by the caller. */
static bool timer_unused(const struct nb_timer *t)
{
	return t->dead && !t->running && !t->waiters;
}

static u64 bpf_timer_cancel(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_timer **field = PTR(r1);
	struct nb_timer *t, *cur = running_timer, *free_t = NULL;
	int ret;

	pthread_mutex_lock(&timers_lock);
	t = *field;
	if (!t) {
		ret = -EINVAL;
		goto out;
	}
	/* A callback waiting for itself to end would wait forever. */
	if (cur == t) {
		ret = -EDEADLK;
		goto out;
	}
	/*
	 * A callback that cancels a timer while another callback waits for this one to end: the
	 * two would wait for each other (the kernel refuses the same way). A program outside a
	 * callback waiting for it is no such risk: nothing waits for that program.
	 */
	if (cur && cur->cancelling) {
		ret = -EDEADLK;
		goto out;
	}
	t->waiters++;
	t->cancelling += !!cur;
	while (t->running)
		pthread_cond_wait(&callback_done, &timers_lock);
	t->waiters--;
	t->cancelling -= !!cur;
	/* Queued again by the callback it waited for, or never run: active either way. */
	ret = timer_dequeue(t);
	if (timer_unused(t))
		free_t = t;
out:
	pthread_mutex_unlock(&timers_lock);
	free(free_t);
	return ret;
}

const struct nb_func_proto nb_timer_cancel_proto = {
	.func = bpf_timer_cancel,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_TIMER },
};

void nb_timer_cancel_and_free(void *field)
{
	struct nb_timer **slot = field, *t;
	struct nb_prog *prog = NULL;

	if (!__atomic_load_n(slot, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&timers_lock);
	t = *slot;
	if (t) {
		__atomic_store_n(slot, NULL, __ATOMIC_RELEASE);
		timer_dequeue(t);
		prog = t->prog;
		t->prog = NULL;
		t->callback = NULL;
		t->dead = true;
		/* Its callback (maybe this thread's) still runs: the last one out frees it. */
		if (!timer_unused(t))
			t = NULL;
	}
	pthread_mutex_unlock(&timers_lock);
	free(t);
	/* Last: the program's end may free maps, whose timers take the lock. */
	nb_prog_put(prog);
}

/* The key the callback receives: an array's index, a hash element's key before its value. */
static void *value_key(struct nb_map *map, void *value, u32 *index)
{
	if (map->map_type == BPF_MAP_TYPE_ARRAY) {
		struct nb_array *array = container_of(map, struct nb_array, map);

		*index = (u32)(((u8 *)value - array->values) / array->elem_size);
		return index;
	}
	return (u8 *)value - ((map->key_size + 7) & ~7U);
}

unsigned int nb_timers_run(unsigned int cpu)
{
	struct timer_base *b = &bases[cpu % NB_MAX_CPUS];
	u64 next = __atomic_load_n(&b->next, __ATOMIC_ACQUIRE), now;
	unsigned int ran = 0, due;

	if (!next)
		return 0;
	now = now_ns();
	if (now < next - 1)
		return 0;
	/* Before the lock: a value whose timer is taken off the heap stays allocated. */
	nb_epoch_read_lock();
	pthread_mutex_lock(&timers_lock);
	/*
	 * At most the timers queued now: one that its callback re-arms for "now" (the virtual
	 * clock stands still between packets) runs again at the next call, not forever here.
	 */
	due = b->n;
	while (b->n && b->heap[0]->expires <= now && ran < due) {
		struct nb_timer *t = b->heap[0], *prev = running_timer;
		struct nb_prog *prog = nb_prog_get(t->prog);
		const void *cb = t->callback;
		u32 index;

		timer_dequeue(t);
		t->running = true;
		pthread_mutex_unlock(&timers_lock);
		running_timer = t;
		nb_callback_run(cb, (u64)(uintptr_t)t->map,
				(u64)(uintptr_t)value_key(t->map, t->value, &index),
				(u64)(uintptr_t)t->value, 0, 0);
		running_timer = prev;
		pthread_mutex_lock(&timers_lock);
		t->running = false;
		pthread_cond_broadcast(&callback_done);
		if (timer_unused(t))
			free(t);
		ran++;
		if (prog) {
			pthread_mutex_unlock(&timers_lock);
			nb_prog_put(prog);
			pthread_mutex_lock(&timers_lock);
		}
	}
	pthread_mutex_unlock(&timers_lock);
	nb_epoch_read_unlock();
	return ran;
}

int nb_timers_sleep_ms(unsigned int cpu, int max_ms)
{
	u64 next = __atomic_load_n(&bases[cpu % NB_MAX_CPUS].next, __ATOMIC_ACQUIRE), now, ms;

	if (!next || nb_deterministic_enabled())
		return max_ms;
	now = now_ns();
	if (now >= next - 1)
		return 0;
	/* Rounded up: a wake-up before the expiry would only sleep again. */
	ms = (next - 1 - now + 999999) / 1000000;
	return ms < (u64)max_ms || max_ms < 0 ? (int)ms : max_ms;
}
