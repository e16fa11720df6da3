// SPDX-License-Identifier: GPL-2.0
/* The worker's adaptive busy-poll before it sleeps (busy_poll.h says why and how). */
#include "net/busy_poll.h"

void nb_busy_poll_init(struct nb_busy_poll *bp, enum nb_busy_poll_mode mode, u64 max_ns)
{
	*bp = (struct nb_busy_poll){ .mode = mode, .max_ns = max_ns };
	/* a fixed spin is what it says; an adaptive one starts from nothing, as a ping needs */
	if (mode == NB_BUSY_POLL_FIXED)
		bp->spin_ns = max_ns;
}

void nb_busy_poll_work(struct nb_busy_poll *bp, u64 now_ns)
{
	u64 spell;

	if (!bp->quiet_since)
		return;
	spell = now_ns > bp->quiet_since ? now_ns - bp->quiet_since : 0;
	bp->quiet_since = 0;
	if (bp->mode != NB_BUSY_POLL_ADAPTIVE)
		return;
	if (spell <= bp->max_ns) {
		/* a spin would have caught it, with room for the next spell to be longer */
		if (bp->spin_ns < 2 * spell)
			bp->spin_ns = 2 * spell;
	} else {
		bp->spin_ns /= 2;
	}
	if (bp->spin_ns > bp->max_ns)
		bp->spin_ns = bp->max_ns;
	if (bp->spin_ns < NB_BUSY_POLL_MIN_NS)
		bp->spin_ns = 0;
}

bool nb_busy_poll_idle(struct nb_busy_poll *bp, u64 now_ns)
{
	if (!bp->quiet_since) {
		bp->quiet_since = now_ns ? now_ns : 1;
		return !bp->spin_ns;
	}
	return now_ns - bp->quiet_since >= bp->spin_ns;
}
