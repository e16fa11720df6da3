/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time and randomness as programs see them (bpf_ktime_get_ns, bpf_jiffies64,
 * bpf_get_prandom_u32), and the deterministic mode that makes test runs reproducible: a virtual
 * clock that advances by a fixed step per packet, and per-worker random streams from one seed.
 */
#ifndef NETBPF_CLOCK_H
#define NETBPF_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tick of bpf_jiffies64, the kernel's CONFIG_HZ on common distributions. */
#define NB_HZ 250

struct nb_deterministic_opts {
	size_t sz;		/* sizeof(struct nb_deterministic_opts) */
	__u64 start_ns;		/* the virtual clock's first reading */
	__u64 ns_per_packet;	/* how far each packet advances it (0: 1000, a microsecond) */
	__u64 seed;		/* random streams: worker n starts from a function of (seed, n) */
};

/* Switch to the virtual clock and seeded random streams (NULL: start 0, seed 0). */
int nb_deterministic_enable(const struct nb_deterministic_opts *opts);
/* Back to the system clocks and unpredictable random numbers. */
void nb_deterministic_disable(void);
bool nb_deterministic_enabled(void);
/*
 * The datapath calls this once per packet a device receives (and a test run once per run):
 * it advances the virtual clock by one step.
 */
void nb_clock_packet_tick(void);

/* What the helpers return. */
__u64 nb_ktime_get_ns(void);		/* CLOCK_MONOTONIC */
__u64 nb_ktime_get_boot_ns(void);	/* CLOCK_BOOTTIME */
__u64 nb_ktime_get_coarse_ns(void);	/* CLOCK_MONOTONIC_COARSE */
__u64 nb_ktime_get_tai_ns(void);	/* CLOCK_TAI */
__u64 nb_jiffies64(void);
/*
 * The time of day for timestamps in output files (pcap records): CLOCK_REALTIME, or in the
 * deterministic mode the virtual clock, so that two runs write the same bytes.
 */
__u64 nb_realtime_ns(void);
__u32 nb_prandom_u32(void);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_CLOCK_H */
