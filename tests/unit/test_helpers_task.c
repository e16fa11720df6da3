// SPDX-License-Identifier: GPL-2.0
/*
 * What netbpf answers where the kernel's test run cannot be the reference: the current-task
 * helpers answer for the thread that runs the program (a named thread here, as a datapath
 * worker is), and the socket helpers answer as the kernel does for a packet without a socket
 * (the kernel's BPF_PROG_TEST_RUN gives its packets one). tests/bpf/helpers_misc.o runs the
 * operations; test_generic_helpers_kernel.c holds the rest to the kernel.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <netbpf/object.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "common/types.h"
#include "test.h"

#define CMD_OFF 14
#define OP_TASK 1
#define OP_NO_SOCKET 9

struct helper_cmd {	/* tests/bpf/helpers_misc.c */
	u32 op;
	u32 size_code;
	u64 flags;
	u64 arg1, arg2;
	u8 buf[64];
	u64 args[12];
	u32 str_idx;
	u32 ptr_mask;
	s64 rc[8];
	u64 val[8];
	u8 out[64];
};

static struct nb_object *open_obj(void)
{
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts) };
	struct nb_object *obj;
	char path[4096];

	nb_test_build_path(path, sizeof(path), "tests/bpf/helpers_misc.o");
	NB_ASSERT_EQ(nb_object_open_file(path, NULL, &obj), 0);
	NB_ASSERT_EQ(nb_object_load(obj, &lopts), 0);
	return obj;
}

/* Run one command through helpers_tc; *c gets the program's answers. */
static void run_cmd(struct nb_object *obj, struct helper_cmd *c)
{
	u8 frame[CMD_OFF + sizeof(*c)], out[sizeof(frame)];
	struct nb_test_run_opts opts = { .sz = sizeof(opts), .data_in = frame,
					 .data_size_in = sizeof(frame), .data_out = out,
					 .data_size_out = sizeof(out) };

	memset(frame, 0, CMD_OFF);
	frame[12] = 0x88;
	frame[13] = 0xb5;
	memcpy(frame + CMD_OFF, c, sizeof(*c));
	NB_ASSERT_EQ(nb_prog_test_run(nb_object_prog_prog(nb_object_find_prog(obj, NULL,
									       "helpers_tc")),
				      &opts), 0);
	memcpy(c, out + CMD_OFF, sizeof(*c));
}

struct worker {
	struct nb_object *obj;
	struct helper_cmd cmd;
	pid_t tid;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	pthread_setname_np(pthread_self(), "nb-worker-7");
	w->tid = gettid();
	run_cmd(w->obj, &w->cmd);
	return NULL;
}

/* A worker's program sees the worker: its thread id and name, the process's ids. */
NB_TEST(helpers_current_task_is_the_thread)
{
	struct worker w = { .cmd = { .op = OP_TASK, .size_code = 0 } };
	pthread_t t;

	w.obj = open_obj();
	NB_ASSERT_EQ(pthread_create(&t, NULL, worker_main, &w), 0);
	NB_ASSERT_EQ(pthread_join(t, NULL), 0);
	NB_ASSERT_EQ(w.cmd.val[0], (u64)getpid() << 32 | (u32)w.tid);
	NB_ASSERT(w.tid != gettid());
	NB_ASSERT_EQ(w.cmd.val[1], (u64)getgid() << 32 | getuid());
	NB_ASSERT_EQ(w.cmd.rc[0], 0);
	NB_ASSERT_MEM_EQ(w.cmd.out, "nb-worker-7\0\0\0\0\0", 16);
	/* the pid namespace of the thread: pid and tid as it sees them */
	NB_ASSERT_EQ(w.cmd.rc[1], (s64)-EINVAL);	/* dev and ino 0: another namespace */
	NB_ASSERT_EQ(w.cmd.val[4], 0);
	/* comm cut to the buffer, always terminated */
	w.cmd = (struct helper_cmd){ .op = OP_TASK, .size_code = 1 };
	NB_ASSERT_EQ(pthread_create(&t, NULL, worker_main, &w), 0);
	NB_ASSERT_EQ(pthread_join(t, NULL), 0);
	NB_ASSERT_MEM_EQ(w.cmd.out, "nb-\0", 4);
	nb_object_close(w.obj);
}

static u64 tai_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/*
 * A packet netbpf moves has no socket: cookie 0, the overflow uid, no cgroup or class id; the
 * network namespace's cookie is the one a socket of it reports. bpf_ktime_get_tai_ns reads
 * CLOCK_TAI.
 */
NB_TEST(helpers_packet_without_socket)
{
	struct helper_cmd c = { .op = OP_NO_SOCKET };
	struct nb_object *obj = open_obj();
	socklen_t len = sizeof(u64);
	u64 before, after, cookie = 0;
	unsigned int overflowuid = 65534;
	FILE *f;
	int fd;

	f = fopen("/proc/sys/kernel/overflowuid", "r");
	if (f) {
		NB_ASSERT_EQ(fscanf(f, "%u", &overflowuid), 1);
		fclose(f);
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	NB_ASSERT(fd >= 0);
	if (getsockopt(fd, SOL_SOCKET, 71 /* SO_NETNS_COOKIE */, &cookie, &len))
		cookie = 0;
	close(fd);
	before = tai_now();
	run_cmd(obj, &c);
	after = tai_now();
	NB_ASSERT_EQ(c.val[0], 0);
	NB_ASSERT_EQ(c.val[1], overflowuid);
	NB_ASSERT_EQ(c.val[2], 0);
	NB_ASSERT_EQ(c.val[3], 0);
	NB_ASSERT_EQ(c.val[4], 0);
	NB_ASSERT_EQ(c.val[5], cookie);
	NB_ASSERT_EQ(c.val[6], cookie);
	NB_ASSERT(c.val[7] >= before && c.val[7] <= after);
	nb_object_close(obj);
}
