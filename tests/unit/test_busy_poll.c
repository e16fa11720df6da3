// SPDX-License-Identifier: GPL-2.0
/*
 * The worker's adaptive busy-poll (net/busy_poll.h), driven with made-up clock readings: it
 * sleeps at once while quiet spells are long (a ping every 20 ms), spins once they are short
 * enough for a spin to catch (a TCP flow), never beyond its longest, and falls back to sleeping
 * at once when the spells grow long again. A fixed spin stays what it was given.
 */
#include "test.h"
#include "net/busy_poll.h"

#define US 1000ull
#define MAX (50 * US)

/* One quiet spell: the first empty round at t, work found again spell ns later. */
static bool spell(struct nb_busy_poll *bp, u64 *t, u64 spell_ns)
{
	bool slept_at_once = nb_busy_poll_idle(bp, *t);

	*t += spell_ns;
	nb_busy_poll_work(bp, *t);
	*t += 10 * US;		/* frames flow a while */
	return slept_at_once;
}

NB_TEST(busy_poll_adaptive_sleeps_at_once_on_long_spells)
{
	struct nb_busy_poll bp;
	u64 t = 1000 * US;

	nb_busy_poll_init(&bp, NB_BUSY_POLL_ADAPTIVE, MAX);
	for (int i = 0; i < 10; i++)
		NB_ASSERT(spell(&bp, &t, 20000 * US));
	NB_ASSERT_EQ(bp.spin_ns, 0);
}

NB_TEST(busy_poll_adaptive_spins_on_short_spells)
{
	struct nb_busy_poll bp;
	u64 t = 1000 * US;

	nb_busy_poll_init(&bp, NB_BUSY_POLL_ADAPTIVE, MAX);
	/* the first short spell is slept through; it teaches the spin */
	NB_ASSERT(spell(&bp, &t, 5 * US));
	NB_ASSERT_EQ(bp.spin_ns, 10 * US);
	/* the next empty round does not sleep, nor does one within the spin */
	NB_ASSERT(!nb_busy_poll_idle(&bp, t));
	NB_ASSERT(!nb_busy_poll_idle(&bp, t + 9 * US));
	/* past the spin it does */
	NB_ASSERT(nb_busy_poll_idle(&bp, t + 10 * US));
	nb_busy_poll_work(&bp, t + 12 * US);
	NB_ASSERT_EQ(bp.spin_ns, 24 * US);
	/* a spell a longest spin catches still sets it, but never beyond the longest */
	t += 100 * US;
	NB_ASSERT(!spell(&bp, &t, 40 * US));
	NB_ASSERT_EQ(bp.spin_ns, MAX);
}

NB_TEST(busy_poll_adaptive_backs_off_when_spells_grow)
{
	struct nb_busy_poll bp;
	u64 t = 1000 * US;
	int spins = 0;

	nb_busy_poll_init(&bp, NB_BUSY_POLL_ADAPTIVE, MAX);
	spell(&bp, &t, 20 * US);
	NB_ASSERT_EQ(bp.spin_ns, 40 * US);
	/* the flow stopped: pings every 20 ms; the spin halves each time, then is gone */
	for (int i = 0; i < 10; i++)
		spins += !spell(&bp, &t, 20000 * US);
	NB_ASSERT_EQ(bp.spin_ns, 0);
	NB_ASSERT(spins <= 6);
	NB_ASSERT(spell(&bp, &t, 20000 * US));
}

NB_TEST(busy_poll_fixed_spins_what_it_was_given)
{
	struct nb_busy_poll bp;
	u64 t = 1000 * US;

	nb_busy_poll_init(&bp, NB_BUSY_POLL_FIXED, MAX);
	for (int i = 0; i < 5; i++)
		NB_ASSERT(!spell(&bp, &t, 20000 * US));
	NB_ASSERT_EQ(bp.spin_ns, MAX);
	NB_ASSERT(!nb_busy_poll_idle(&bp, t));
	NB_ASSERT(!nb_busy_poll_idle(&bp, t + MAX - 1));
	NB_ASSERT(nb_busy_poll_idle(&bp, t + MAX));
	/* none: asleep at the first empty round */
	nb_busy_poll_init(&bp, NB_BUSY_POLL_FIXED, 0);
	NB_ASSERT(nb_busy_poll_idle(&bp, t));
}
