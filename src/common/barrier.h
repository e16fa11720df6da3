/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's smp_mb(): a full memory barrier, for a store that must be seen before a later
 * load, as where a waker makes work and then looks whether the worker sleeps while the worker
 * shows itself asleep and then looks for work. ThreadSanitizer models no fences, and GCC
 * refuses them under it (-Wtsan): there a sequentially consistent read-modify-write of a word
 * of the file's own stands in, which is a full barrier on x86 too.
 */
#ifndef NB_COMMON_BARRIER_H
#define NB_COMMON_BARRIER_H

#include "common/types.h"

#ifdef __SANITIZE_THREAD__
static u64 nb_smp_mb_word __maybe_unused;
#define smp_mb() ((void)__atomic_fetch_add(&nb_smp_mb_word, 0, __ATOMIC_SEQ_CST))
#else
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

#endif /* NB_COMMON_BARRIER_H */
