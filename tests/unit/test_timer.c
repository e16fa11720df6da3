// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_timer at run time on the real clock (tests/bpf/timer.o; tests/cli/timers.sh replays it on
 * the virtual one): timers armed by a test run fire once their time has passed, when the next
 * run or nb_timers_run drives the CPU; a callback re-arms its timer; an update of the value
 * from userspace cancels and frees its timer (its callback never runs); with the object closed
 * and the pin gone, the map's last user reference cancels what is left and nothing is queued.
 * With the callback running on another thread (tests/bpf/timer_cancel.o), bpf_timer_cancel
 * waits for its end, and an update of the value frees the timer once the callback is done. A
 * map without users refuses new timers, one that has users again takes them. A worker loop's
 * round end (nb_worker_flush) fires the due timers of its CPU. A hash value's timer is handed
 * its key and goes with its element.
 */
#include <pthread.h>
#include <unistd.h>

#include <netbpf/percpu.h>
#include <netbpf/test_run.h>
#include <netbpf/worker.h>

#include "bpf/timer.h"
#include "elf_util.h"

struct tval {
	__u64 timer[2];
	__u64 fired;
	__u64 at_packet;
	__s64 ret;
	__s64 ret2;
};

static const __u8 frame[60] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00 };

static void run_packet(struct nb_prog *prog)
{
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = frame,
				      .data_size_in = sizeof(frame) };

	NB_ASSERT_EQ(nb_prog_test_run(prog, &o), 0);
}

static struct tval value(struct nb_map *map, __u32 key)
{
	struct tval v;

	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &v), 0);
	/* userspace never sees the timer's pointer */
	NB_ASSERT_EQ(v.timer[0], 0);
	NB_ASSERT_EQ(v.timer[1], 0);
	return v;
}

/* A 2 ms wait is far past every timer of timer.o (1 to 5 us). */
static void wait_past(void)
{
	usleep(2000);
}

static void check_timers(bool jit)
{
	struct nb_object *obj = elf_test_open_loaded("timer.o", jit);
	struct nb_prog *prog = elf_test_prog(obj, "timer_run");
	struct nb_map *map = elf_test_map(obj, "timers");
	unsigned int cpu = nb_this_cpu();
	struct tval v, zero = { 0 };
	char pin[256];
	__u32 key2 = 2;


	/* packet 1 arms the four timers: queued, none due yet */
	run_packet(prog);
	NB_ASSERT(nb_timers_sleep_ms(cpu, 1000) <= 1);
	/* packet 2, once they are due: they fire before it runs */
	wait_past();
	run_packet(prog);
	v = value(map, 0);
	NB_ASSERT_EQ(v.fired, 1);
	NB_ASSERT_EQ(v.at_packet, 1);
	v = value(map, 1);
	NB_ASSERT_EQ(v.fired, 1);	/* its cancel comes with packet 3 */
	v = value(map, 3);
	NB_ASSERT_EQ(v.fired, 1);
	NB_ASSERT_EQ(v.ret, -EDEADLK);
	/* the re-arming one: a second time, then a third, then no more */
	NB_ASSERT_EQ(value(map, 2).fired, 1);
	wait_past();
	NB_ASSERT_EQ(nb_timers_run(cpu), 1);
	NB_ASSERT_EQ(value(map, 2).fired, 2);
	/* re-armed again: an update from userspace cancels it, its callback never runs */
	NB_ASSERT_EQ(nb_map_update_elem(map, &key2, &zero, BPF_ANY), 0);
	wait_past();
	NB_ASSERT_EQ(nb_timers_run(cpu), 0);
	NB_ASSERT_EQ(value(map, 2).fired, 0);
	NB_ASSERT_EQ(nb_timers_sleep_ms(cpu, 1000), 1000);

	/* packet 3 cancels key 1's timer, which fired already: inactive, 0 */
	run_packet(prog);
	NB_ASSERT_EQ(value(map, 1).ret, 0);

	/* the last user reference goes: the map's timers with it (ASan: nothing leaks) */
	NB_ASSERT_EQ(nb_pin_get_path(map, pin, sizeof(pin)), 0);
	nb_object_close(obj);
	NB_ASSERT_EQ(nb_unpin(pin), 0);
	NB_ASSERT_EQ(nb_timers_sleep_ms(cpu, 1000), 1000);
}

/*
 * An embedder's own worker loop (include/netbpf/worker.h) ends each round with nb_worker_flush:
 * the timers due on its CPU fire there, as on the datapath's workers.
 */
NB_TEST(timer_fires_at_worker_flush)
{
	struct nb_object *obj = elf_test_open_loaded("timer.o", true);
	struct nb_map *map = elf_test_map(obj, "timers");
	unsigned int cpu = nb_this_cpu();
	char pin[256];

	run_packet(elf_test_prog(obj, "timer_run"));
	wait_past();
	nb_worker_flush();
	NB_ASSERT_EQ(value(map, 0).fired, 1);
	NB_ASSERT_EQ(value(map, 3).fired, 1);
	NB_ASSERT_EQ(nb_pin_get_path(map, pin, sizeof(pin)), 0);
	nb_object_close(obj);
	NB_ASSERT_EQ(nb_unpin(pin), 0);
	NB_ASSERT_EQ(nb_timers_sleep_ms(cpu, 1000), 1000);
}

NB_TEST(timer_run_interp)
{
	check_timers(false);
}

NB_TEST(timer_run_jit)
{
	check_timers(true);
}

struct cval {
	__u64 timer[2];
	__u64 done;
	__s64 ret;
	__s64 ret2;
};

struct hval {
	__u64 timer[2];
	__u64 fired;
	__u32 key_seen;
	__u32 pad;
};

struct runner {
	pthread_t thread;
	unsigned int cpu;
	unsigned int ran;
};

/* Another thread drives the CPU the timer is queued on: the callback runs there. */
static void *run_timers(void *arg)
{
	struct runner *r = arg;

	r->ran = nb_timers_run(r->cpu);
	return NULL;
}

/* Arms the slow timer and has another thread start its callback; returns once it has. */
static void start_slow_callback(struct nb_prog *arm, struct runner *r)
{
	run_packet(arm);
	NB_ASSERT_EQ(nb_timers_sleep_ms(r->cpu, 1000), 0);
	NB_ASSERT_EQ(pthread_create(&r->thread, NULL, run_timers, r), 0);
	/* Taken off the queue and marked running in one step: the callback runs (or ran). */
	for (int i = 0; nb_timers_sleep_ms(r->cpu, 1000) != 1000; i++) {
		if (i == 100000)
			NB_FAIL("the other thread never took the timer");
		usleep(100);
	}
}

NB_TEST(timer_cancel_waits_for_callback)
{
	struct nb_object *obj = elf_test_open_loaded("timer_cancel.o", true);
	struct nb_prog *arm = elf_test_prog(obj, "arm"), *cancel = elf_test_prog(obj, "cancel");
	struct nb_map *map = elf_test_map(obj, "slow_timer");
	struct runner r = { .cpu = nb_this_cpu() };
	struct cval v, zero = { 0 };
	__u32 key = 0;

	/*
	 * A cancel while the callback runs returns after it: its last write is seen, 0 (inactive).
	 * The callback's own cancel of an idle timer meanwhile is no deadlock: 0, not -EDEADLK.
	 */
	start_slow_callback(arm, &r);
	run_packet(cancel);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &v), 0);
	NB_ASSERT_EQ(v.done, 1);
	NB_ASSERT_EQ(v.ret, 0);
	NB_ASSERT_EQ(v.ret2, 0);
	pthread_join(r.thread, NULL);
	NB_ASSERT_EQ(r.ran, 1);

	/* An update while it runs: the timer goes, freed by the callback's thread (ASan). */
	start_slow_callback(arm, &r);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &zero, BPF_ANY), 0);
	pthread_join(r.thread, NULL);
	NB_ASSERT_EQ(r.ran, 1);
	NB_ASSERT_EQ(nb_timers_sleep_ms(r.cpu, 1000), 1000);
	/* the value has no timer any more: arm makes a new one */
	run_packet(arm);
	NB_ASSERT_EQ(nb_timers_sleep_ms(r.cpu, 1000), 0);
	nb_object_close(obj);
	NB_ASSERT_EQ(nb_timers_sleep_ms(r.cpu, 1000), 1000);
}

/* timer.o's packet count back to 0: its next packet arms the four timers again */
static void rewind_packets(struct nb_map *bss)
{
	__u64 zero = 0;
	__u32 key = 0;

	NB_ASSERT_EQ(nb_map_update_elem(bss, &key, &zero, BPF_ANY), 0);
}

/*
 * bpf_timer_init follows the map's user references: once the last one went it is refused
 * (-EPERM) while none holds the map, and allowed again while one does, even when the release
 * of the last one comes after a new user came (the two racing).
 */
NB_TEST(timer_init_follows_map_users)
{
	struct nb_object *obj = elf_test_open_loaded("timer.o", true);
	/* references of the test's own: they outlive the object */
	struct nb_prog *prog = nb_prog_get(elf_test_prog(obj, "timer_run"));
	struct nb_map *map = nb_map_get(elf_test_map(obj, "timers"));
	struct nb_map *bss = nb_map_get(elf_test_map(obj, ".bss"));
	unsigned int cpu = nb_this_cpu();
	char pin[256];

	NB_ASSERT_EQ(nb_pin_get_path(map, pin, sizeof(pin)), 0);
	NB_ASSERT_EQ(nb_unpin(pin), 0);
	nb_object_close(obj);

	/* no user: nothing is armed */
	run_packet(prog);
	NB_ASSERT_EQ(nb_timers_sleep_ms(cpu, 1000), 1000);
	/* a user again: armed */
	nb_map_get_uref(map);
	rewind_packets(bss);
	run_packet(prog);
	NB_ASSERT(nb_timers_sleep_ms(cpu, 1000) <= 1);
	/* a release that lost the race to that user: the timers go, new ones are armed */
	nb_map_release_uref(map);
	NB_ASSERT_EQ(nb_timers_sleep_ms(cpu, 1000), 1000);
	rewind_packets(bss);
	run_packet(prog);
	NB_ASSERT(nb_timers_sleep_ms(cpu, 1000) <= 1);
	/* the user goes: so do its timers */
	nb_map_put_uref(map);
	NB_ASSERT_EQ(nb_timers_sleep_ms(cpu, 1000), 1000);
	nb_map_put(bss);
	nb_map_put(map);
	nb_prog_put(prog);
}

/*
 * A timer in a hash value: its callback is handed the element's key, and a delete of the
 * element cancels and frees the queued timer (its callback never runs on the freed element).
 */
NB_TEST(timer_hash_key_and_delete)
{
	struct nb_object *obj = elf_test_open_loaded("timer_cancel.o", true);
	struct nb_prog *arm = elf_test_prog(obj, "arm_hash");
	struct nb_map *map = elf_test_map(obj, "hash_timers");
	unsigned int cpu = nb_this_cpu();
	struct hval v = { 0 };
	__u32 key = 7;

	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &v, BPF_ANY), 0);
	run_packet(arm);
	NB_ASSERT_EQ(nb_timers_run(cpu), 1);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &v), 0);
	NB_ASSERT_EQ(v.fired, 1);
	NB_ASSERT_EQ(v.key_seen, 7);
	/* queued again, then the element goes: so does its timer */
	run_packet(arm);
	NB_ASSERT_EQ(nb_timers_sleep_ms(cpu, 1000), 0);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), 0);
	NB_ASSERT_EQ(nb_timers_sleep_ms(cpu, 1000), 1000);
	NB_ASSERT_EQ(nb_timers_run(cpu), 0);
	nb_object_close(obj);
}
