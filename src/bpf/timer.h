/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf_timer at run time (timer.c): the struct bpf_timer of a map value points to a timer that
 * bpf_timer_init allocates; bpf_timer_start queues it on the timer base of the CPU (worker) that
 * started it, and whoever drives that CPU runs its due callbacks between packets: a worker
 * loop at the end of each round (nb_worker_flush), `prog run` between packets, a test run between batches.
 */
#ifndef NB_BPF_TIMER_H
#define NB_BPF_TIMER_H

#include "common/types.h"

/*
 * Run the callbacks of cpu's timers that are due, on the calling thread (which becomes that
 * CPU for them). Cheap when none is queued. Returns how many ran.
 */
unsigned int nb_timers_run(unsigned int cpu);

/*
 * How long cpu's worker may sleep before its next timer is due, in milliseconds, at most
 * max_ms (the deterministic mode's clock does not move while nothing arrives: max_ms then).
 */
int nb_timers_sleep_ms(unsigned int cpu, int max_ms);

/* The datapath's way to wake a sleeping worker when a timer is queued on its CPU. */
void nb_timers_set_kick(void (*kick)(unsigned int cpu));

/*
 * The kernel's bpf_timer_cancel_and_free: the struct bpf_timer at field goes with its value
 * (an update or delete of the element, the map's last user reference, the map's end). A
 * callback running now finishes first; the timer is freed after it.
 */
void nb_timer_cancel_and_free(void *field);

#endif /* NB_BPF_TIMER_H */
