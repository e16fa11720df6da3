/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counters one worker writes and any thread reads, the twin of the kernel's u64_stats_t on
 * 64-bit machines (where u64_stats_sync compiles to nothing and the counter is a local64_t):
 * the writer, the only one of its slot (a per-worker copy, or a queue under its lock), adds
 * with a whole load and a whole store, no lock and no locked instruction; a reader loads the
 * whole word, so a value is never seen half-written. On x86-64 and arm64 these are the plain
 * moves a `+=` compiles to; the relaxed atomics tell the compiler (no split or merged access)
 * and ThreadSanitizer (no data race) what the code relies on.
 */
#ifndef NB_COMMON_U64_STATS_H
#define NB_COMMON_U64_STATS_H

#include "common/types.h"

static inline void nb_u64_stats_add(u64 *c, u64 n)
{
	WRITE_ONCE(*c, READ_ONCE(*c) + n);
}

static inline void nb_u64_stats_inc(u64 *c)
{
	nb_u64_stats_add(c, 1);
}

static inline u64 nb_u64_stats_read(const u64 *c)
{
	return READ_ONCE(*c);
}

#endif /* NB_COMMON_U64_STATS_H */
