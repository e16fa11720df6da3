// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU in userspace: the worker count is fixed once (per-CPU maps are sized by it) and each
 * worker thread carries its index in a thread-local variable, which is what smp_processor_id()
 * is to the kernel.
 */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include <netbpf/percpu.h>

#include "common/types.h"
#include "bpf/percpu_tls.h"

static pthread_mutex_t nr_cpus_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int nr_cpus;	/* 0 until fixed */
/*
 * Initial-exec: in the static TLS block, at one offset from the thread pointer in every thread,
 * so JIT-compiled code reads it in one instruction (nb_this_cpu_tp_offset), and so does C
 * (nb_this_cpu, in line).
 */
__thread unsigned int nb_percpu_this_cpu __attribute__((tls_model("initial-exec")));

static unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > NB_MAX_CPUS ? NB_MAX_CPUS : (unsigned int)n;
}

int nb_set_nr_cpus(unsigned int nr)
{
	int err = 0;

	if (nr < 1 || nr > NB_MAX_CPUS)
		return -EINVAL;
	pthread_mutex_lock(&nr_cpus_lock);
	if (READ_ONCE(nr_cpus) && nr_cpus != nr)
		err = -EBUSY;
	else
		__atomic_store_n(&nr_cpus, nr, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&nr_cpus_lock);
	return err;
}

unsigned int nb_nr_cpus(void)
{
	unsigned int n = __atomic_load_n(&nr_cpus, __ATOMIC_ACQUIRE);

	if (likely(n))
		return n;
	pthread_mutex_lock(&nr_cpus_lock);
	if (!nr_cpus)
		__atomic_store_n(&nr_cpus, online_cpus(), __ATOMIC_RELEASE);
	n = nr_cpus;
	pthread_mutex_unlock(&nr_cpus_lock);
	return n;
}

unsigned int nb_nr_cpus_if_fixed(void)
{
	return __atomic_load_n(&nr_cpus, __ATOMIC_ACQUIRE);
}

long nb_this_cpu_tp_offset(void)
{
	return (long)((char *)&nb_percpu_this_cpu - (char *)__builtin_thread_pointer());
}

int nb_set_this_cpu(unsigned int cpu)
{
	if (cpu >= nb_nr_cpus())
		return -EINVAL;
	nb_percpu_this_cpu = cpu;
	return 0;
}
