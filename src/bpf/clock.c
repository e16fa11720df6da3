// SPDX-License-Identifier: GPL-2.0
/*
 * Clocks and random numbers behind the time and prandom helpers, with the deterministic mode:
 * the virtual clock stands still within a packet and moves by a fixed step between packets, and
 * each worker draws from its own seeded stream, so a run replays bit for bit.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <netbpf/clock.h>
#include <netbpf/percpu.h>

#include "common/opts.h"
#include "common/types.h"

#define NSEC_PER_SEC 1000000000ULL
/* The kernel's jiffies start 5 minutes before wrapping 32 bits (INITIAL_JIFFIES). */
#define NB_INITIAL_JIFFIES ((u64)(u32)(-300 * NB_HZ))

static bool deterministic;
static u64 virtual_ns;
static u64 ns_per_packet = 1000;
/* One stream per worker; in deterministic mode, seeded at enable time. */
static u64 det_state[NB_MAX_CPUS];
static __thread u64 rnd_state;

/* splitmix64: a full-period 64-bit generator with a good output mix. */
static inline u64 splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int nb_deterministic_enable(const struct nb_deterministic_opts *opts)
{
	u64 seed = NB_OPTS_GET(opts, seed, 0);
	int err = NB_OPTS_CHECK(opts, nb_deterministic_opts, sz, NULL);

	if (err)
		return err;
	virtual_ns = NB_OPTS_GET(opts, start_ns, 0);
	ns_per_packet = NB_OPTS_GET(opts, ns_per_packet, 0) ?: 1000;
	for (unsigned int cpu = 0; cpu < NB_MAX_CPUS; cpu++) {
		u64 s = seed ^ ((u64)cpu << 32);

		det_state[cpu] = splitmix64(&s);
	}
	__atomic_store_n(&deterministic, true, __ATOMIC_RELEASE);
	return 0;
}

void nb_deterministic_disable(void)
{
	__atomic_store_n(&deterministic, false, __ATOMIC_RELEASE);
}

bool nb_deterministic_enabled(void)
{
	return __atomic_load_n(&deterministic, __ATOMIC_ACQUIRE);
}

void nb_clock_packet_tick(void)
{
	if (nb_deterministic_enabled())
		__atomic_add_fetch(&virtual_ns, ns_per_packet, __ATOMIC_RELAXED);
}

static u64 clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

__u64 nb_ktime_get_ns(void)
{
	if (nb_deterministic_enabled())
		return __atomic_load_n(&virtual_ns, __ATOMIC_RELAXED);
	return clock_ns(CLOCK_MONOTONIC);
}

__u64 nb_ktime_get_boot_ns(void)
{
	if (nb_deterministic_enabled())
		return __atomic_load_n(&virtual_ns, __ATOMIC_RELAXED);
	return clock_ns(CLOCK_BOOTTIME);
}

__u64 nb_ktime_get_tai_ns(void)
{
	if (nb_deterministic_enabled())
		return __atomic_load_n(&virtual_ns, __ATOMIC_RELAXED);
	return clock_ns(CLOCK_TAI);
}

__u64 nb_ktime_get_coarse_ns(void)
{
	u64 ns;

	if (!nb_deterministic_enabled())
		return clock_ns(CLOCK_MONOTONIC_COARSE);
	/* The coarse clock moves by whole ticks. */
	ns = __atomic_load_n(&virtual_ns, __ATOMIC_RELAXED);
	return ns - ns % (NSEC_PER_SEC / NB_HZ);
}

__u64 nb_realtime_ns(void)
{
	if (nb_deterministic_enabled())
		return __atomic_load_n(&virtual_ns, __ATOMIC_RELAXED);
	return clock_ns(CLOCK_REALTIME);
}

__u64 nb_jiffies64(void)
{
	return NB_INITIAL_JIFFIES + nb_ktime_get_coarse_ns() / (NSEC_PER_SEC / NB_HZ);
}

__u32 nb_prandom_u32(void)
{
	if (nb_deterministic_enabled())
		return (u32)(splitmix64(&det_state[nb_this_cpu() % NB_MAX_CPUS]) >> 32);
	if (unlikely(!rnd_state) &&
	    getrandom(&rnd_state, sizeof(rnd_state), 0) != sizeof(rnd_state))
		rnd_state = clock_ns(CLOCK_MONOTONIC) ^ (u64)(uintptr_t)&rnd_state;
	return (u32)(splitmix64(&rnd_state) >> 32);
}
