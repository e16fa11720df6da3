/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long a worker keeps polling queues that went quiet before it sleeps in poll() on their
 * fds: adaptive, as a low-latency datapath decides it. Polling on pays only when the next frame
 * comes within the spin; when it does not, the spin took the CPU from whatever else would have
 * run (on a small machine, the very stacks that make the traffic: iperf3's, the peer's TCP,
 * ping's reply), and the frame still waited for the wake-up.
 *
 * So each quiet spell is measured when it ends (from the first empty round to the round that
 * found work again, asleep or not): one that a spin of the longest allowed length would have
 * caught makes the spin at least twice its length (at most that longest); a longer one halves
 * the spin, which falls to nothing after a few (a ping every 20 ms, a flow that stopped). A
 * spin that runs out is followed by a sleep, and the spell it was part of is measured all the
 * same.
 */
#ifndef NB_NET_BUSY_POLL_H
#define NB_NET_BUSY_POLL_H

#include <stdbool.h>

#include "common/types.h"

/* A spin under this is no spin (a clock read costs about as much). */
#define NB_BUSY_POLL_MIN_NS 1000

enum nb_busy_poll_mode {
	NB_BUSY_POLL_ADAPTIVE,	/* the spin follows the quiet spells, up to max_ns */
	NB_BUSY_POLL_FIXED,	/* always max_ns */
};

struct nb_busy_poll {
	enum nb_busy_poll_mode mode;
	u64 max_ns;		/* the longest spin */
	u64 spin_ns;		/* the spin now */
	u64 quiet_since;	/* the first empty round of this quiet spell; 0: frames flow */
};

void nb_busy_poll_init(struct nb_busy_poll *bp, enum nb_busy_poll_mode mode, u64 max_ns);
/* A round that found work, at now_ns (a monotonic clock). */
void nb_busy_poll_work(struct nb_busy_poll *bp, u64 now_ns);
/* A round that found nothing, at now_ns: true when the worker should sleep now. */
bool nb_busy_poll_idle(struct nb_busy_poll *bp, u64 now_ns);

#endif /* NB_NET_BUSY_POLL_H */
