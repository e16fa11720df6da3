// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers that ask about the current task: bpf_get_current_pid_tgid, _uid_gid, _comm, _task,
 * _cgroup_id, _ancestor_cgroup_id, bpf_current_task_under_cgroup, bpf_get_ns_current_pid_tgid
 * and (for XDP and socket filters) bpf_get_cgroup_classid. A tc or XDP program runs in
 * softirq, where the kernel answers for whatever task the interrupt found running;
 * BPF_PROG_TEST_RUN answers for the task that asked. netbpf answers for the thread that runs
 * the program: a datapath worker, or the caller of nb_prog_test_run, so that a test run
 * answers as the kernel's test run does for the same thread.
 *
 * Identifiers are read as the process sees them: pid and tid in its own pid namespace, uid and
 * gid in its user namespace, the cgroup from /proc (the kernel's are global; they agree unless
 * netbpf runs in a namespace of those kinds). What needs a file read (the cgroup ids, the
 * net_cls class id) is kept per thread and read again at most once a second, or after fork.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "bpf/helpers.h"
#include "bpf/map.h"

#define CGROUP2_SUPER_MAGIC 0x63677270
/* The root cgroup's id in every kernel: the first kernfs node id. */
#define CGROUP_ROOT_ID 1
/* The deepest cgroup whose ancestors are remembered. */
#define CGROUP_MAX_LEVEL 32
#define REFRESH_NS 1000000000ULL

struct task_cache {
	unsigned int fork_gen;		/* the process this was read in */
	u64 read_ns;			/* CLOCK_MONOTONIC_COARSE of the last read */
	u32 cgroup_level;		/* depth of the thread's cgroup2 cgroup */
	u64 cgroup_ids[CGROUP_MAX_LEVEL + 1];	/* of it and its ancestors, by level */
	u32 classid;			/* net_cls, cgroup v1 */
	bool valid;
};

static unsigned int fork_gen;
static __thread struct task_cache cache;

static void after_fork(void)
{
	fork_gen++;
}

static void __attribute__((constructor)) task_init(void)
{
	pthread_atfork(NULL, NULL, after_fork);
}

static u64 coarse_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* Where the cgroup2 hierarchy is mounted: /sys/fs/cgroup, its unified/, or mountinfo's. */
static bool cgroup2_root(char *buf, size_t size)
{
	static const char *const usual[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	struct statfs st;
	char line[1024];
	FILE *f;

	for (size_t i = 0; i < ARRAY_SIZE(usual); i++) {
		if (!statfs(usual[i], &st) && st.f_type == CGROUP2_SUPER_MAGIC) {
			snprintf(buf, size, "%s", usual[i]);
			return true;
		}
	}
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - cgroup2 "), mnt[512];

		if (sep && sscanf(line, "%*s %*s %*s %*s %511s", mnt) == 1) {
			snprintf(buf, size, "%s", mnt);
			fclose(f);
			return true;
		}
	}
	fclose(f);
	return false;
}

/* The thread's cgroup2 path ("0::/a/b") and its net_cls v1 path, from /proc. */
static void read_cgroup_paths(char *dfl, size_t dfl_size, char *cls, size_t cls_size)
{
	char line[1024];
	FILE *f = fopen("/proc/thread-self/cgroup", "re");

	dfl[0] = cls[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *path;

		if (!ctrl || !(path = strchr(ctrl + 1, ':')))
			continue;
		path[strcspn(path, "\n")] = 0;
		if (!strncmp(line, "0::", 3))
			snprintf(dfl, dfl_size, "%s", path + 1);
		else if (strstr(ctrl, "net_cls") && strstr(ctrl, "net_cls") < path)
			snprintf(cls, cls_size, "%s", path + 1);
	}
	fclose(f);
}

/* The cgroup ids of path and its ancestors: each directory's inode number. */
static void read_cgroup_ids(struct task_cache *c, const char *path)
{
	char root[512], dir[1024];
	struct stat st;
	size_t len;

	c->cgroup_ids[0] = CGROUP_ROOT_ID;
	c->cgroup_level = 0;
	if (!path[0] || !strcmp(path, "/"))
		return;
	if (!cgroup2_root(root, sizeof(root)))
		return;		/* no way to name them: the root alone is known */
	len = (size_t)snprintf(dir, sizeof(dir), "%s", root);
	for (const char *p = path; *p && c->cgroup_level < CGROUP_MAX_LEVEL;) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (!n || len + 1 + n >= sizeof(dir))
			break;
		dir[len++] = '/';
		memcpy(dir + len, p, n);
		len += n;
		dir[len] = 0;
		p += n;
		if (stat(dir, &st))
			break;
		c->cgroup_ids[++c->cgroup_level] = st.st_ino;
	}
}

static u32 read_classid(const char *path)
{
	char file[1024], buf[32];
	ssize_t n;
	int fd;

	if (!path[0])
		return 0;
	snprintf(file, sizeof(file), "/sys/fs/cgroup/net_cls%s/net_cls.classid",
		 strcmp(path, "/") ? path : "");
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return (u32)strtoul(buf, NULL, 10);
}

static struct task_cache *task_cache(void)
{
	struct task_cache *c = &cache;
	u64 now = coarse_ns();
	char dfl[1024], cls[1024];

	if (c->valid && c->fork_gen == fork_gen && now - c->read_ns < REFRESH_NS)
		return c;
	read_cgroup_paths(dfl, sizeof(dfl), cls, sizeof(cls));
	read_cgroup_ids(c, dfl);
	c->classid = read_classid(cls);
	c->fork_gen = fork_gen;
	c->read_ns = now;
	c->valid = true;
	return c;
}

static u64 bpf_get_current_pid_tgid(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return (u64)getpid() << 32 | (u32)gettid();
}

const struct nb_func_proto nb_get_current_pid_tgid_proto = {
	.func = bpf_get_current_pid_tgid,
	.ret_type = NB_RET_INTEGER,
};

/*
 * The current task_struct: netbpf has none, and answers 0, a pointer to nothing. A program
 * that reads through it (bpf_probe_read_kernel(&v, n, &task->tgid)) gets -EFAULT and zeroes, as
 * for any address that faults; one that tests it sees no task. The kernel's is never 0.
 */
static u64 bpf_get_current_task(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return 0;
}

const struct nb_func_proto nb_get_current_task_proto = {
	.func = bpf_get_current_task,
	.ret_type = NB_RET_INTEGER,
};

static u64 bpf_get_current_uid_gid(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return (u64)getgid() << 32 | getuid();
}

const struct nb_func_proto nb_get_current_uid_gid_proto = {
	.func = bpf_get_current_uid_gid,
	.ret_type = NB_RET_INTEGER,
};

/* The thread's name, cut to size - 1 bytes, the rest zeroed (strscpy_pad). */
static u64 bpf_get_current_comm(u64 buf, u64 size, u64 r3, u64 r4, u64 r5)
{
	char comm[16] = "";
	size_t n;

	(void)r3, (void)r4, (void)r5;
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	comm[sizeof(comm) - 1] = 0;
	n = strnlen(comm, size - 1);
	memcpy((void *)(uintptr_t)buf, comm, n);
	memset((char *)(uintptr_t)buf + n, 0, size - n);
	return 0;
}

const struct nb_func_proto nb_get_current_comm_proto = {
	.func = bpf_get_current_comm,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_UNINIT_MEM, NB_ARG_CONST_SIZE },
};

static u64 bpf_get_current_cgroup_id(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct task_cache *c = task_cache();

	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return c->cgroup_ids[c->cgroup_level];
}

const struct nb_func_proto nb_get_current_cgroup_id_proto = {
	.func = bpf_get_current_cgroup_id,
	.ret_type = NB_RET_INTEGER,
};

/* The ancestor at level (0: the root), 0 below the thread's own cgroup (cgroup_ancestor). */
static u64 bpf_get_current_ancestor_cgroup_id(u64 level, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct task_cache *c = task_cache();
	s32 l = (s32)level;

	(void)r2, (void)r3, (void)r4, (void)r5;
	if (l < 0 || (u32)l > c->cgroup_level)
		return 0;
	return c->cgroup_ids[l];
}

const struct nb_func_proto nb_get_current_ancestor_cgroup_id_proto = {
	.func = bpf_get_current_ancestor_cgroup_id,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_ANYTHING },
};

/*
 * bpf_current_task_under_cgroup(map, index): whether the thread is in the cgroup of a cgroup
 * array's slot, or below it. The kernel's checks come first, and they are all there is to
 * answer here: a cgroup array of netbpf takes no cgroup (src/bpf/maps/sock_cgroup_maps.c), so
 * a slot is past the array (-E2BIG) or empty (-EAGAIN), as in a kernel array nothing filled.
 */
static u64 bpf_current_task_under_cgroup(u64 r1, u64 index, u64 r3, u64 r4, u64 r5)
{
	const struct nb_map *map = (const struct nb_map *)(uintptr_t)r1;

	(void)r3, (void)r4, (void)r5;
	if ((u32)index >= map->max_entries)
		return (u64)-E2BIG;
	return (u64)-EAGAIN;
}

static const enum bpf_map_type cgroup_array_types[] = { BPF_MAP_TYPE_CGROUP_ARRAY };

const struct nb_func_proto nb_current_task_under_cgroup_proto = {
	.func = bpf_current_task_under_cgroup,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_ANYTHING },
	.map_types = cgroup_array_types,
	.map_type_cnt = ARRAY_SIZE(cgroup_array_types),
};

/*
 * pid and tid in the pid namespace named by the device and inode of its nsfs file; -EINVAL
 * (and nsdata zeroed) for another namespace, a device that does not fit a dev_t or a size
 * other than struct bpf_pidns_info's.
 */
static u64 bpf_get_ns_current_pid_tgid(u64 dev, u64 ino, u64 nsdata, u64 size, u64 r5)
{
	struct bpf_pidns_info *info = (struct bpf_pidns_info *)(uintptr_t)nsdata;
	struct stat st;

	(void)r5;
	if (size != sizeof(*info) || (u64)(u32)dev != dev ||
	    stat("/proc/thread-self/ns/pid", &st))
		goto clear;
	/* the kernel's dev_t: major in the top 12 bits, minor in the low 20 */
	if (((u64)major(st.st_dev) << 20 | minor(st.st_dev)) != dev || st.st_ino != ino)
		goto clear;
	info->pid = (u32)gettid();
	info->tgid = (u32)getpid();
	return 0;
clear:
	memset(info, 0, (size_t)(u32)size);
	return (u64)-EINVAL;
}

const struct nb_func_proto nb_get_ns_current_pid_tgid_proto = {
	.func = bpf_get_ns_current_pid_tgid,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_ANYTHING, NB_ARG_ANYTHING, NB_ARG_PTR_TO_UNINIT_MEM,
		      NB_ARG_CONST_SIZE },
};

/* bpf_get_cgroup_classid_curr: the thread's net_cls class id, 0 without net_cls. */
static u64 bpf_get_cgroup_classid_curr(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return task_cache()->classid;
}

const struct nb_func_proto nb_get_cgroup_classid_curr_proto = {
	.func = bpf_get_cgroup_classid_curr,
	.ret_type = NB_RET_INTEGER,
};
