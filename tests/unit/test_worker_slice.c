// SPDX-License-Identifier: GPL-2.0
/*
 * A datapath's workers ask the scheduler for the shortest time slice (net/worker.h,
 * NB_WORKER_SLICE_NS), so that one woken by a frame preempts what runs; with
 * NB_DATAPATH_DEFAULT_SLICE they keep the default. Read back from /proc (se.slice).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netbpf/datapath.h>
#include <netbpf/percpu.h>

#include "net/worker.h"
#include "test.h"

/*
 * Threads of this process whose scheduler slice (se.slice in /proc, Linux 6.12 and later) is
 * slice_ns; -1 when the kernel shows no slice.
 */
static int threads_with_slice(unsigned long long slice_ns)
{
	char path[300], line[256];
	struct dirent *e;
	int n = 0, seen = 0;
	DIR *d = opendir("/proc/self/task");

	NB_ASSERT(d);
	while ((e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/sched", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (strncmp(line, "se.slice", 8))
				continue;
			seen = 1;
			n += strtoull(strchr(line, ':') + 1, NULL, 10) == slice_ns;
		}
		fclose(f);
	}
	closedir(d);
	return seen ? n : -1;
}

static int wait_threads_with_slice(unsigned long long slice_ns, int want)
{
	int n = 0;

	for (int i = 0; i < 500 && (n = threads_with_slice(slice_ns)) != want && n >= 0; i++)
		usleep(2000);
	return n;
}

static void *try_slice(void *arg)
{
	(void)arg;
	return (void *)(long)-nb_worker_set_slice(NB_WORKER_SLICE_NS);
}

/*
 * The workers ask for the shortest time slice, so that one woken by a frame runs at once; with
 * NB_DATAPATH_DEFAULT_SLICE they keep the scheduler's.
 */
NB_TEST(datapath_workers_short_slice)
{
	struct nb_datapath_opts opts = { .sz = sizeof(opts), .workers = 2 };
	struct nb_datapath *dp;

	pthread_t t;
	void *err;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	if (threads_with_slice(100000) < 0)
		nb_test_skip("the kernel shows no scheduler slice (before 6.12)");
	/* a sandbox may refuse sched_setattr: the workers then keep the default, as they should */
	NB_ASSERT_EQ(pthread_create(&t, NULL, try_slice, NULL), 0);
	NB_ASSERT_EQ(pthread_join(t, &err), 0);
	if (err)
		nb_test_skip("sched_setattr is refused here: %s", strerror((int)(long)err));
	NB_ASSERT_EQ(threads_with_slice(100000), 0);
	NB_ASSERT_EQ(nb_datapath_create(&opts, &dp), 0);
	NB_ASSERT_EQ(nb_datapath_start(dp), 0);
	NB_ASSERT_EQ(wait_threads_with_slice(100000, 2), 2);
	nb_datapath_destroy(dp);
	NB_ASSERT_EQ(threads_with_slice(100000), 0);
	opts.flags = NB_DATAPATH_DEFAULT_SLICE;
	NB_ASSERT_EQ(nb_datapath_create(&opts, &dp), 0);
	NB_ASSERT_EQ(nb_datapath_start(dp), 0);
	NB_ASSERT_EQ(nb_datapath_drain(dp, 1000), 0);
	NB_ASSERT_EQ(threads_with_slice(100000), 0);
	nb_datapath_destroy(dp);
}
