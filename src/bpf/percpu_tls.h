/* SPDX-License-Identifier: GPL-2.0 */
/* The worker index's place in thread-local storage, for code that reads it without a call. */
#ifndef NB_BPF_PERCPU_TLS_H
#define NB_BPF_PERCPU_TLS_H

#include <netbpf/percpu.h>

/*
 * Offset of this thread's worker index (nb_this_cpu) from the thread pointer (fs on x86-64):
 * the same in every thread, since the variable lives in the static TLS block.
 */
long nb_this_cpu_tp_offset(void);

/*
 * The number of workers if it is fixed already, else 0, without fixing it: for per-CPU data
 * that must not decide the number (a program's run statistics, which size themselves by
 * NB_MAX_CPUS when it is still open).
 */
unsigned int nb_nr_cpus_if_fixed(void);

#endif /* NB_BPF_PERCPU_TLS_H */
