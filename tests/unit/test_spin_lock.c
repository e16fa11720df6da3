// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_spin_lock at run time (tests/bpf/spin_lock.c), on the interpreter and the JIT: threads
 * that run the same program at once move two counters together under the lock of a hash
 * value, an array value and a global variable, and no update is lost. Userspace copies pass
 * over the lock: a lookup shows it zero, an update leaves it free, BPF_F_LOCK copies under it
 * and is refused for maps without one.
 */
#include <pthread.h>

#include <netbpf/test_run.h>

#include "bpf/map.h"
#include "elf_util.h"

#define THREADS 2
/* Enough that the threads overlap on a loaded machine: an unlocked add loses thousands. */
#define RUNS 1000000

struct counted {
	__u64 a;
	__u32 lock;
	__u32 pad;
	__u64 b;
};

static const __u8 frame[64] = { 0x02, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };

static pthread_barrier_t start;

static void *run_many(void *arg)
{
	const struct nb_prog *prog = arg;
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = frame,
				      .data_size_in = sizeof(frame), .repeat = RUNS };

	pthread_barrier_wait(&start);
	return (void *)(long)(nb_prog_test_run(prog, &o) ?: (int)o.retval);
}

/* THREADS threads run prog RUNS times each, at once. */
static void run_concurrently(struct nb_object *obj, const char *name)
{
	struct nb_object_prog *p = nb_object_find_prog(obj, NULL, name);
	pthread_t t[THREADS];
	void *ret;

	NB_ASSERT(p && nb_object_prog_prog(p));
	NB_ASSERT_EQ(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++)
		NB_ASSERT_EQ(pthread_create(&t[i], NULL, run_many, nb_object_prog_prog(p)), 0);
	for (int i = 0; i < THREADS; i++) {
		NB_ASSERT_EQ(pthread_join(t[i], &ret), 0);
		NB_ASSERT_EQ((long)ret, 0);	/* TC_ACT_OK */
	}
	pthread_barrier_destroy(&start);
}

static void check_counted(struct nb_map *map, __u32 key)
{
	struct counted v;

	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &v), 0);
	NB_ASSERT_EQ(v.a, (__u64)THREADS * RUNS);
	NB_ASSERT_EQ(v.b, (__u64)THREADS * RUNS);
	NB_ASSERT_EQ(v.lock, 0);
}

static void check_engine(bool jit)
{
	struct nb_object *obj = elf_test_open_loaded("spin_lock.o", jit);
	struct nb_map *counters = elf_test_map(obj, "counters");
	struct nb_map *slots = elf_test_map(obj, "slots");
	struct counted v = { 0 };
	__u32 zero = 0;
	__u64 words[3];

	NB_ASSERT_EQ(nb_map_update_elem(counters, &zero, &v, BPF_ANY), 0);
	run_concurrently(obj, "hash_locked_add");
	check_counted(counters, 0);
	run_concurrently(obj, "array_locked_add");
	check_counted(slots, 0);
	run_concurrently(obj, "global_locked_add");
	NB_ASSERT_EQ(nb_map_lookup_elem(elf_test_map(obj, ".data.lock"), &zero, words), 0);
	NB_ASSERT_EQ(words[0], 0);	/* the lock, with its padding */
	NB_ASSERT_EQ(words[1], (__u64)THREADS * RUNS);
	NB_ASSERT_EQ(words[2], (__u64)THREADS * RUNS);
	nb_object_close(obj);
}

NB_TEST(spin_lock_run_interp)
{
	check_engine(false);
}

NB_TEST(spin_lock_run_jit)
{
	check_engine(true);
}

static __u32 run_once(struct nb_object *obj, const char *name)
{
	struct nb_object_prog *p = nb_object_find_prog(obj, NULL, name);
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = frame,
				      .data_size_in = sizeof(frame) };

	NB_ASSERT(p && nb_object_prog_prog(p));
	NB_ASSERT_EQ(nb_prog_test_run(nb_object_prog_prog(p), &o), 0);
	return o.retval;
}

NB_TEST(spin_lock_userspace_copies)
{
	struct nb_object *obj = elf_test_open_loaded("spin_lock.o", false);
	struct nb_map *slots = elf_test_map(obj, "slots");
	struct nb_map *counters = elf_test_map(obj, "counters");
	struct nb_map_create_opts mo = { .sz = sizeof(mo) };
	struct counted v = { .a = 5, .lock = 0xffffffff, .b = 6 }, out;
	struct nb_map *plain;
	__u32 zero = 0, *raw;
	__u64 addr;

	/* An update leaves the lock as it is: free, whatever the value passed. */
	NB_ASSERT_EQ(nb_map_update_elem(slots, &zero, &v, BPF_ANY), 0);
	NB_ASSERT_EQ(nb_map_direct_value_addr(slots, 0, &addr), 0);
	raw = (__u32 *)(uintptr_t)(addr + 8);
	NB_ASSERT_EQ(*raw, 0);
	NB_ASSERT_EQ(run_once(obj, "array_locked_add"), 0);
	/* Held, it still reads zero. */
	*raw = 1;
	NB_ASSERT_EQ(nb_map_lookup_elem(slots, &zero, &out), 0);
	NB_ASSERT_EQ(out.lock, 0);
	NB_ASSERT_EQ(out.a, 6);
	NB_ASSERT_EQ(nb_map_update_elem(slots, &zero, &v, BPF_ANY), 0);
	NB_ASSERT_EQ(*raw, 1);
	*raw = 0;
	/* BPF_F_LOCK copies under the lock, and leave it free. */
	NB_ASSERT_EQ(nb_map_lookup_elem_flags(slots, &zero, &out, BPF_F_LOCK), 0);
	NB_ASSERT_EQ(out.b, 6);
	NB_ASSERT_EQ(nb_map_update_elem(slots, &zero, &v, BPF_F_LOCK), 0);
	NB_ASSERT_EQ(*raw, 0);
	NB_ASSERT_EQ(nb_map_update_elem(counters, &zero, &v, BPF_ANY), 0);
	NB_ASSERT_EQ(nb_map_update_elem(counters, &zero, &v, BPF_F_LOCK | BPF_NOEXIST), -EEXIST);
	v.a = 9;
	NB_ASSERT_EQ(nb_map_update_elem(counters, &zero, &v, BPF_F_LOCK | BPF_EXIST), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem_flags(counters, &zero, &out, BPF_F_LOCK), 0);
	NB_ASSERT_EQ(out.lock, 0);
	NB_ASSERT_EQ(out.a, 9);
	NB_ASSERT_EQ(run_once(obj, "hash_locked_add"), 0);
	/* A value without a lock refuses BPF_F_LOCK, as the kernel's. */
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY, 4, sizeof(v), 1, &mo, &plain), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem_flags(plain, &zero, &out, BPF_F_LOCK), -EINVAL);
	NB_ASSERT_EQ(nb_map_update_elem(plain, &zero, &v, BPF_F_LOCK), -EINVAL);
	nb_map_put(plain);
	nb_object_close(obj);
}
