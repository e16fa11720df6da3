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

#endif /* NB_BPF_PERCPU_TLS_H */
