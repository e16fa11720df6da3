// SPDX-License-Identifier: GPL-2.0
/*
 * A worker's time slice as the scheduler gives it (EEVDF's custom slice, sched_attr's
 * sched_runtime for a SCHED_OTHER thread, Linux 6.12 and later). Apart from datapath.c: the
 * uapi's struct sched_attr and glibc's <sched.h> do not mix in one file.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/sched.h>
#include <linux/sched/types.h>

#include "net/worker.h"

int nb_worker_set_slice(u64 ns)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_NORMAL,
		.sched_runtime = ns,
	};

	return syscall(SYS_sched_setattr, 0, &attr, 0) ? -errno : 0;
}
