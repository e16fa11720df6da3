/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU data in userspace: a "CPU" is a datapath worker. The number of workers is fixed before
 * the first map exists (per-CPU maps size their values by it); each worker thread names its
 * index once, and helpers and per-CPU maps use it.
 */
#ifndef NETBPF_PERCPU_H
#define NETBPF_PERCPU_H

#ifdef __cplusplus
extern "C" {
#endif

/* The most workers a datapath may have. */
#define NB_MAX_CPUS 256

/*
 * Set the number of workers (1..NB_MAX_CPUS). Allowed once, before any map exists and before
 * nb_nr_cpus() was first asked; otherwise -EBUSY. The default is the number of online CPUs.
 */
int nb_set_nr_cpus(unsigned int nr);
/* The number of workers; fixed from the first call on. */
unsigned int nb_nr_cpus(void);
/* This thread's worker index (0 for threads that never set one): read in line, per packet. */
extern __thread unsigned int nb_percpu_this_cpu __attribute__((tls_model("initial-exec")));

static inline unsigned int nb_this_cpu(void)
{
	return nb_percpu_this_cpu;
}
/* Called by a worker thread once at start: its index, below nb_nr_cpus(). */
int nb_set_this_cpu(unsigned int cpu);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_PERCPU_H */
