// SPDX-License-Identifier: GPL-2.0
/*
 * Maps against the running kernel: the same maps are created with libbpf (bpf_map_create) and
 * with nb_map_create, the same userspace operations are applied to both, and every result
 * (errno, value, next key) must agree. Hash maps use BPF_F_ZERO_SEED, so even their
 * get_next_key order is compared. Scripted sequences cover the edge cases; seeded random
 * sequences cover the rest ("maps-kernel/<name>").
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <netbpf/map.h>
#include <netbpf/percpu.h>

#include "common/types.h"
#include "test.h"
#include "kernel_probe.h"

/* The kernel's ENOTSUPP, returned by bpf(2) for commands a map type does not have. */
#define KERNEL_ENOTSUPP 524
#define MAX_VALUE 512

struct twin {
	struct nb_map *nb;
	int fd;
	__u32 key_size, value_size;	/* value_size as userspace sees it (per-CPU: all CPUs) */
	const char *what;
	unsigned int step;		/* operation counter, for messages */
};

/* Kernel errors as netbpf reports them: ENOTSUPP is not a userspace errno. */
static int kerr(int ret)
{
	if (ret >= 0)
		return 0;
	return ret == -KERNEL_ENOTSUPP ? -EOPNOTSUPP : ret;
}

/* The per-CPU maps' values must have the kernel's layout: as many workers as possible CPUs. */
static void match_cpus(void)
{
	int n = libbpf_num_possible_cpus();

	NB_ASSERT(n > 0 && n <= NB_MAX_CPUS);
	NB_ASSERT_EQ(nb_set_nr_cpus((unsigned int)n), 0);
}

/* Create both; both must fail alike or both succeed. Returns the (shared) error. */
static int twin_create(struct twin *t, enum bpf_map_type type, __u32 key_size, __u32 value_size,
		       __u32 max_entries, __u32 flags, const struct twin *inner)
{
	struct bpf_map_create_opts kopts = { .sz = sizeof(kopts), .map_flags = flags };
	struct nb_map_create_opts nopts = { .sz = sizeof(nopts), .name = "twin",
					    .map_flags = flags };
	int nerr, kfd;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (inner) {
		kopts.inner_map_fd = inner->fd;
		nopts.inner_map = inner->nb;
	}
	kfd = bpf_map_create(type, "twin", key_size, value_size, max_entries, &kopts);
	nerr = nb_map_create(type, key_size, value_size, max_entries, &nopts, &t->nb);
	if (kerr(kfd) != nerr)
		NB_FAIL("create type %d key %u value %u max %u flags 0x%x: kernel %d, netbpf %d",
			type, key_size, value_size, max_entries, flags, kerr(kfd), nerr);
	if (kfd < 0)
		return nerr;
	t->fd = kfd;
	{
		/* The attributes as created: max_entries may be rounded (per-CPU LRU). */
		struct bpf_map_info info = { 0 };
		__u32 len = sizeof(info);

		NB_ASSERT_EQ(bpf_obj_get_info_by_fd(kfd, &info, &len), 0);
		NB_ASSERT_EQ(nb_map_max_entries(t->nb), info.max_entries);
		NB_ASSERT_EQ(nb_map_key_size(t->nb), info.key_size);
		NB_ASSERT_EQ(nb_map_value_size(t->nb), info.value_size);
		NB_ASSERT_EQ(nb_map_flags(t->nb), info.map_flags);
	}
	t->key_size = key_size;
	t->value_size = nb_map_user_value_size(t->nb);
	return 0;
}

static void twin_close(struct twin *t)
{
	if (t->fd >= 0)
		close(t->fd);
	nb_map_put(t->nb);
}

static void same_err(struct twin *t, const char *op, int kret, int nret)
{
	t->step++;
	if (kerr(kret) != nret)
		NB_FAIL("%s step %u %s: kernel %d, netbpf %d", t->what, t->step, op, kerr(kret),
			nret);
}

static int t_update(struct twin *t, const void *key, const void *value, __u64 flags)
{
	int k = bpf_map_update_elem(t->fd, key, value, flags);
	int n = nb_map_update_elem(t->nb, key, value, flags);

	same_err(t, "update", k, n);
	return n;
}

static int t_delete(struct twin *t, const void *key)
{
	int k = bpf_map_delete_elem(t->fd, key);
	int n = nb_map_delete_elem(t->nb, key);

	same_err(t, "delete", k, n);
	return n;
}

static int t_lookup(struct twin *t, const void *key, void *value_out)
{
	__u8 kv[MAX_VALUE * NB_MAX_CPUS / 8], nv[MAX_VALUE * NB_MAX_CPUS / 8];
	int k, n;

	NB_ASSERT(t->value_size <= sizeof(kv));
	memset(kv, 0xa5, sizeof(kv));
	memset(nv, 0xa5, sizeof(nv));
	k = bpf_map_lookup_elem(t->fd, key, kv);
	n = nb_map_lookup_elem(t->nb, key, nv);
	same_err(t, "lookup", k, n);
	if (!n && memcmp(kv, nv, t->value_size))
		NB_FAIL("%s step %u lookup: values differ", t->what, t->step);
	if (value_out)
		memcpy(value_out, nv, t->value_size);
	return n;
}

static int t_lookup_and_delete(struct twin *t, const void *key)
{
	__u8 kv[MAX_VALUE * NB_MAX_CPUS / 8], nv[MAX_VALUE * NB_MAX_CPUS / 8];
	int k, n;

	memset(kv, 0, sizeof(kv));
	memset(nv, 0, sizeof(nv));
	k = bpf_map_lookup_and_delete_elem(t->fd, key, kv);
	n = nb_map_lookup_and_delete_elem(t->nb, key, nv);
	same_err(t, "lookup_and_delete", k, n);
	if (!n && memcmp(kv, nv, t->value_size))
		NB_FAIL("%s step %u lookup_and_delete: values differ", t->what, t->step);
	return n;
}

static int t_next(struct twin *t, const void *key, void *next_out)
{
	__u8 kn[512] = { 0 }, nn[512] = { 0 };
	int k = bpf_map_get_next_key(t->fd, key, kn);
	int n = nb_map_get_next_key(t->nb, key, nn);

	same_err(t, "get_next_key", k, n);
	if (!n && memcmp(kn, nn, t->key_size))
		NB_FAIL("%s step %u get_next_key: next keys differ", t->what, t->step);
	if (next_out)
		memcpy(next_out, nn, t->key_size);
	return n;
}

/* Walk every key from NULL with both, comparing each step: same keys in the same order. */
static unsigned int t_walk(struct twin *t)
{
	__u8 key[512];
	unsigned int n = 0;

	if (t_next(t, NULL, key))
		return 0;
	do {
		n++;
		t_lookup(t, key, NULL);
	} while (!t_next(t, key, key) && n < 100000);
	return n;
}

/* Attribute checks: each row is created with both; the errors must agree. */
struct attr_case {
	const char *name;
	enum bpf_map_type type;
	__u32 key_size, value_size, max_entries, flags;
};

static const struct attr_case attr_cases[] = {
	{ "array_ok", BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0 },
	{ "array_key_8", BPF_MAP_TYPE_ARRAY, 8, 8, 4, 0 },
	{ "array_value_0", BPF_MAP_TYPE_ARRAY, 4, 0, 4, 0 },
	{ "array_max_0", BPF_MAP_TYPE_ARRAY, 4, 4, 0, 0 },
	{ "array_no_prealloc", BPF_MAP_TYPE_ARRAY, 4, 4, 4, BPF_F_NO_PREALLOC },
	{ "array_rdonly_wronly_prog", BPF_MAP_TYPE_ARRAY, 4, 4, 4,
	  BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG },
	{ "array_rdonly_wronly", BPF_MAP_TYPE_ARRAY, 4, 4, 4, BPF_F_RDONLY | BPF_F_WRONLY },
	{ "array_preserve", BPF_MAP_TYPE_ARRAY, 4, 4, 4, BPF_F_PRESERVE_ELEMS },
	{ "array_mmapable", BPF_MAP_TYPE_ARRAY, 4, 4, 4, BPF_F_MMAPABLE },
	{ "percpu_array_mmapable", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 4, BPF_F_MMAPABLE },
	{ "percpu_array_value_32k", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 32768, 1, 0 },
	{ "percpu_array_value_big", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 32769, 1, 0 },
	{ "hash_ok", BPF_MAP_TYPE_HASH, 6, 8, 4, 0 },
	{ "hash_key_0", BPF_MAP_TYPE_HASH, 0, 8, 4, 0 },
	{ "hash_value_0", BPF_MAP_TYPE_HASH, 4, 0, 4, 0 },
	{ "hash_max_0", BPF_MAP_TYPE_HASH, 4, 4, 0, 0 },
	{ "hash_key_513", BPF_MAP_TYPE_HASH, 513, 4, 4, 0 },
	{ "hash_key_512", BPF_MAP_TYPE_HASH, 512, 4, 4, 0 },
	{ "hash_no_common_lru", BPF_MAP_TYPE_HASH, 4, 4, 4, BPF_F_NO_COMMON_LRU },
	{ "hash_mmapable", BPF_MAP_TYPE_HASH, 4, 4, 4, BPF_F_MMAPABLE },
	{ "hash_zero_seed", BPF_MAP_TYPE_HASH, 4, 4, 4, BPF_F_ZERO_SEED },
	{ "hash_max_absurd", BPF_MAP_TYPE_HASH, 4, 4, 0x80000001, BPF_F_NO_PREALLOC },
	{ "lru_no_prealloc", BPF_MAP_TYPE_LRU_HASH, 4, 4, 4, BPF_F_NO_PREALLOC },
	{ "lru_no_common_lru", BPF_MAP_TYPE_LRU_HASH, 4, 4, 4, BPF_F_NO_COMMON_LRU },
	{ "lru_no_common_lru_odd", BPF_MAP_TYPE_LRU_HASH, 4, 4, 3, BPF_F_NO_COMMON_LRU },
	{ "lru_percpu_no_common_lru", BPF_MAP_TYPE_LRU_PERCPU_HASH, 4, 4, 5, BPF_F_NO_COMMON_LRU },
	{ "percpu_hash_value_big", BPF_MAP_TYPE_PERCPU_HASH, 4, 32769, 4, 0 },
	{ "lpm_ok", BPF_MAP_TYPE_LPM_TRIE, 8, 4, 4, BPF_F_NO_PREALLOC },
	{ "lpm_prealloc", BPF_MAP_TYPE_LPM_TRIE, 8, 4, 4, 0 },
	{ "lpm_key_4", BPF_MAP_TYPE_LPM_TRIE, 4, 4, 4, BPF_F_NO_PREALLOC },
	{ "lpm_key_260", BPF_MAP_TYPE_LPM_TRIE, 260, 4, 4, BPF_F_NO_PREALLOC },
	{ "lpm_key_261", BPF_MAP_TYPE_LPM_TRIE, 261, 4, 4, BPF_F_NO_PREALLOC },
	{ "lpm_value_0", BPF_MAP_TYPE_LPM_TRIE, 8, 0, 4, BPF_F_NO_PREALLOC },
	{ "lpm_max_0", BPF_MAP_TYPE_LPM_TRIE, 8, 4, 0, BPF_F_NO_PREALLOC },
	{ "lpm_zero_seed", BPF_MAP_TYPE_LPM_TRIE, 8, 4, 4, BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED },
	{ "queue_ok", BPF_MAP_TYPE_QUEUE, 0, 4, 4, 0 },
	{ "queue_key_4", BPF_MAP_TYPE_QUEUE, 4, 4, 4, 0 },
	{ "queue_value_0", BPF_MAP_TYPE_QUEUE, 0, 0, 4, 0 },
	{ "stack_max_0", BPF_MAP_TYPE_STACK, 0, 4, 0, 0 },
	{ "stack_no_prealloc", BPF_MAP_TYPE_STACK, 0, 4, 4, BPF_F_NO_PREALLOC },
	{ "ringbuf_ok", BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0 },
	{ "ringbuf_key", BPF_MAP_TYPE_RINGBUF, 4, 0, 4096, 0 },
	{ "ringbuf_not_pow2", BPF_MAP_TYPE_RINGBUF, 0, 0, 3 * 4096, 0 },
	{ "ringbuf_small", BPF_MAP_TYPE_RINGBUF, 0, 0, 2048, 0 },
	{ "prog_array_ok", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 0 },
	{ "prog_array_value_8", BPF_MAP_TYPE_PROG_ARRAY, 4, 8, 4, 0 },
	{ "prog_array_rdonly_prog", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, BPF_F_RDONLY_PROG },
	{ "perf_event_array_ok", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 4, 0 },
	{ "perf_event_array_value_8", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 8, 4, 0 },
	{ "array_of_maps_no_inner", BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 4, 0 },
	/* Maps of kernel objects netbpf has none of: created alike, then empty. */
	{ "sockmap_ok", BPF_MAP_TYPE_SOCKMAP, 4, 4, 4, 0 },
	{ "sockmap_value_8", BPF_MAP_TYPE_SOCKMAP, 4, 8, 4, 0 },
	{ "sockmap_value_2", BPF_MAP_TYPE_SOCKMAP, 4, 2, 4, 0 },
	{ "sockmap_key_8", BPF_MAP_TYPE_SOCKMAP, 8, 4, 4, 0 },
	{ "sockmap_max_0", BPF_MAP_TYPE_SOCKMAP, 4, 4, 0, 0 },
	{ "sockmap_no_prealloc", BPF_MAP_TYPE_SOCKMAP, 4, 4, 4, BPF_F_NO_PREALLOC },
	{ "sockmap_rdonly", BPF_MAP_TYPE_SOCKMAP, 4, 4, 4, BPF_F_RDONLY },
	{ "sockmap_rdonly_prog", BPF_MAP_TYPE_SOCKMAP, 4, 4, 4, BPF_F_RDONLY_PROG },
	{ "sockhash_ok", BPF_MAP_TYPE_SOCKHASH, 12, 8, 4, 0 },
	{ "sockhash_key_0", BPF_MAP_TYPE_SOCKHASH, 0, 4, 4, 0 },
	{ "sockhash_key_512", BPF_MAP_TYPE_SOCKHASH, 512, 4, 4, 0 },
	{ "sockhash_key_513", BPF_MAP_TYPE_SOCKHASH, 513, 4, 4, 0 },
	{ "sockhash_key_513_value_2", BPF_MAP_TYPE_SOCKHASH, 513, 2, 4, 0 },
	{ "sockhash_max_0", BPF_MAP_TYPE_SOCKHASH, 4, 4, 0, 0 },
	{ "sockhash_zero_seed", BPF_MAP_TYPE_SOCKHASH, 4, 4, 4, BPF_F_ZERO_SEED },
	{ "reuseport_ok", BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 4, 4, 0 },
	{ "reuseport_value_8", BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 8, 4, 0 },
	{ "reuseport_value_2", BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 2, 4, 0 },
	{ "reuseport_key_8", BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 8, 4, 4, 0 },
	{ "reuseport_max_0", BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 4, 0, 0 },
	{ "reuseport_mmapable", BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 4, 4, BPF_F_MMAPABLE },
	{ "reuseport_rdonly_prog", BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 4, 4, BPF_F_RDONLY_PROG },
	{ "cgroup_array_ok", BPF_MAP_TYPE_CGROUP_ARRAY, 4, 4, 4, 0 },
	{ "cgroup_array_value_8", BPF_MAP_TYPE_CGROUP_ARRAY, 4, 8, 4, 0 },
	{ "cgroup_array_max_0", BPF_MAP_TYPE_CGROUP_ARRAY, 4, 4, 0, 0 },
	{ "cgroup_array_rdonly_prog", BPF_MAP_TYPE_CGROUP_ARRAY, 4, 4, 4, BPF_F_RDONLY_PROG },
	{ "cgroup_storage_ok", BPF_MAP_TYPE_CGROUP_STORAGE,
	  sizeof(struct bpf_cgroup_storage_key), 8, 0, 0 },
	{ "cgroup_storage_key_8", BPF_MAP_TYPE_CGROUP_STORAGE, 8, 8, 0, 0 },
	{ "cgroup_storage_key_4", BPF_MAP_TYPE_CGROUP_STORAGE, 4, 8, 0, 0 },
	{ "cgroup_storage_max_1", BPF_MAP_TYPE_CGROUP_STORAGE, 8, 8, 1, 0 },
	{ "cgroup_storage_value_0", BPF_MAP_TYPE_CGROUP_STORAGE, 8, 0, 0, 0 },
	{ "cgroup_storage_value_max", BPF_MAP_TYPE_CGROUP_STORAGE, 8, 65407, 0, 0 },
	{ "cgroup_storage_value_big", BPF_MAP_TYPE_CGROUP_STORAGE, 8, 65408, 0, 0 },
	{ "cgroup_storage_no_prealloc", BPF_MAP_TYPE_CGROUP_STORAGE, 8, 8, 0, BPF_F_NO_PREALLOC },
	{ "cgroup_storage_rdonly_prog", BPF_MAP_TYPE_CGROUP_STORAGE, 8, 8, 0, BPF_F_RDONLY_PROG },
	{ "percpu_cgroup_storage_ok", BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, 8, 8, 0, 0 },
	{ "percpu_cgroup_storage_value_max", BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, 8, 32768, 0, 0 },
	{ "percpu_cgroup_storage_value_big", BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, 8, 32769, 0, 0 },
	{ "user_ringbuf_ok", BPF_MAP_TYPE_USER_RINGBUF, 0, 0, 4096, 0 },
	{ "user_ringbuf_key", BPF_MAP_TYPE_USER_RINGBUF, 4, 0, 4096, 0 },
	{ "user_ringbuf_not_pow2", BPF_MAP_TYPE_USER_RINGBUF, 0, 0, 3 * 4096, 0 },
	{ "xskmap_ok", BPF_MAP_TYPE_XSKMAP, 4, 4, 4, 0 },
	{ "xskmap_value_8", BPF_MAP_TYPE_XSKMAP, 4, 8, 4, 0 },
	{ "xskmap_max_0", BPF_MAP_TYPE_XSKMAP, 4, 4, 0, 0 },
	{ "xskmap_no_prealloc", BPF_MAP_TYPE_XSKMAP, 4, 4, 4, BPF_F_NO_PREALLOC },
	{ "xskmap_rdonly_prog", BPF_MAP_TYPE_XSKMAP, 4, 4, 4, BPF_F_RDONLY_PROG },
};

static void test_attr(const void *arg)
{
	const struct attr_case *c = arg;
	struct twin t;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	if (!twin_create(&t, c->type, c->key_size, c->value_size, c->max_entries, c->flags,
			 NULL))
		twin_close(&t);
}

/* Scripted edge cases. */
static void test_array_ops(const void *arg)
{
	struct twin t;
	__u64 v = 5;
	__u32 k;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	NB_ASSERT_EQ(twin_create(&t, BPF_MAP_TYPE_ARRAY, 4, 8, 3, 0, NULL), 0);
	t.what = "array";
	for (k = 0; k < 5; k++) {
		t_update(&t, &k, &v, BPF_ANY);
		t_update(&t, &k, &v, BPF_NOEXIST);
		t_update(&t, &k, &v, BPF_EXIST);
		t_update(&t, &k, &v, BPF_EXIST + 1);
		t_update(&t, &k, &v, BPF_F_LOCK);
		t_lookup(&t, &k, NULL);
		t_delete(&t, &k);
		t_lookup_and_delete(&t, &k);
		t_next(&t, &k, NULL);
		v += 7;
	}
	k = 0xffffffff;
	t_next(&t, &k, NULL);
	/* Frozen: writes are refused, and so is a second freeze. */
	same_err(&t, "freeze", bpf_map_freeze(t.fd), nb_map_freeze(t.nb));
	same_err(&t, "freeze", bpf_map_freeze(t.fd), nb_map_freeze(t.nb));
	k = 1;
	t_update(&t, &k, &v, BPF_ANY);
	t_delete(&t, &k);
	t_lookup(&t, &k, NULL);
	t_next(&t, NULL, NULL);
	NB_ASSERT_EQ(t_walk(&t), 3);
	twin_close(&t);
}

static void test_percpu_ops(const void *arg)
{
	enum bpf_map_type types[] = { BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
				      BPF_MAP_TYPE_LRU_PERCPU_HASH };
	__u32 values[NB_MAX_CPUS * 2];

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		struct twin t;

		NB_ASSERT_EQ(twin_create(&t, types[i], 4, 4, 4, 0, NULL), 0);
		t.what = "percpu";
		for (__u32 k = 0; k < 6; k++) {
			for (unsigned int c = 0; c < nb_nr_cpus() * 2; c++)
				values[c] = k * 100 + c;
			t_update(&t, &k, values, BPF_NOEXIST);
			t_update(&t, &k, values, BPF_ANY);
			t_lookup(&t, &k, NULL);
		}
		twin_close(&t);
	}
}

/* Hash maps with a zero seed: same buckets, so the same iteration order as the kernel. */
struct hash_case {
	const char *name;
	enum bpf_map_type type;
	__u32 key_size, flags;
};

static const struct hash_case hash_cases[] = {
	{ "hash_key4", BPF_MAP_TYPE_HASH, 4, BPF_F_ZERO_SEED },
	{ "hash_key6", BPF_MAP_TYPE_HASH, 6, BPF_F_ZERO_SEED },
	{ "hash_key16", BPF_MAP_TYPE_HASH, 16, BPF_F_ZERO_SEED },
	{ "hash_key13_no_prealloc", BPF_MAP_TYPE_HASH, 13, BPF_F_ZERO_SEED | BPF_F_NO_PREALLOC },
	{ "percpu_hash_key4", BPF_MAP_TYPE_PERCPU_HASH, 4, BPF_F_ZERO_SEED },
};

/* splitmix-style generator: the same sequences on every run. */
static __u32 rnd(__u64 *state)
{
	__u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (__u32)((z ^ (z >> 31)) >> 16);
}

static void make_key(__u8 *key, __u32 key_size, __u32 n)
{
	memset(key, 0, key_size);
	for (__u32 i = 0; i < key_size; i++)
		key[i] = (__u8)(n >> (8 * (i % 4))) ^ (__u8)(i * 31);
}

static void test_hash_random(const void *arg)
{
	const struct hash_case *c = arg;
	__u8 key[16], value[16 * NB_MAX_CPUS];
	__u64 state = 42;
	struct twin t;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	NB_ASSERT_EQ(twin_create(&t, c->type, c->key_size, 8, 24, c->flags, NULL), 0);
	t.what = c->name;
	for (int op = 0; op < 1500; op++) {
		__u32 r = rnd(&state), n = r % 40;

		make_key(key, c->key_size, n);
		for (unsigned int i = 0; i < t.value_size; i++)
			value[i] = (__u8)(r >> (i % 24));
		switch (r % 7) {
		case 0:
		case 1:
			t_update(&t, key, value, (r >> 8) % 3);
			break;
		case 2:
			t_delete(&t, key);
			break;
		case 3:
			t_lookup(&t, key, NULL);
			break;
		case 4:
			t_next(&t, key, NULL);
			break;
		case 5:
			t_lookup_and_delete(&t, key);
			break;
		default:
			t_walk(&t);
			break;
		}
	}
	t_walk(&t);
	twin_close(&t);
}

/* LPM tries: random prefixes of random lengths, longest-prefix lookups, deletes, walks. */
static void test_lpm(const void *arg)
{
	struct {
		__u32 prefixlen;
		__u8 data[4];
	} key;
	__u32 value;
	__u64 state = 7;
	struct twin t;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	NB_ASSERT_EQ(twin_create(&t, BPF_MAP_TYPE_LPM_TRIE, sizeof(key), 4, 20,
				 BPF_F_NO_PREALLOC, NULL), 0);
	t.what = "lpm";
	for (int op = 0; op < 2000; op++) {
		__u32 r = rnd(&state), ip = rnd(&state);

		/* Few distinct prefixes, so that updates, deletes and overlaps collide. */
		ip &= 0xf0f0c0e0;
		memcpy(key.data, &ip, 4);
		key.prefixlen = r % 34;	/* 33 is invalid */
		value = r;
		switch (r % 6) {
		case 0:
		case 1:
			t_update(&t, &key, &value, (r >> 8) % 3);
			break;
		case 2:
			t_delete(&t, &key);
			break;
		case 3:
			key.prefixlen = 32;
			t_lookup(&t, &key, NULL);
			break;
		case 4:
			t_next(&t, &key, NULL);
			break;
		default:
			t_walk(&t);
			break;
		}
	}
	t_lookup_and_delete(&t, &key);
	t_walk(&t);
	twin_close(&t);
}

static void test_queue_stack(const void *arg)
{
	enum bpf_map_type types[] = { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK };
	__u64 state = 99;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		struct twin t;
		__u32 v, next;

		NB_ASSERT_EQ(twin_create(&t, types[i], 0, 4, 5, 0, NULL), 0);
		t.what = i ? "stack" : "queue";
		for (int op = 0; op < 600; op++) {
			__u32 r = rnd(&state);

			v = r;
			switch (r % 5) {
			case 0:
			case 1:
				t_update(&t, NULL, &v, (r >> 8) % 4);
				break;
			case 2:
				t_lookup(&t, NULL, NULL);
				break;
			case 3:
				t_lookup_and_delete(&t, NULL);
				break;
			default:
				t_delete(&t, NULL);
				t_next(&t, NULL, &next);
				break;
			}
		}
		twin_close(&t);
	}
}

/* Map-in-map: templates, meta checks and flags agree; lookups name the same inner map. */
static void test_map_in_map(const void *arg)
{
	enum bpf_map_type types[] = { BPF_MAP_TYPE_ARRAY_OF_MAPS, BPF_MAP_TYPE_HASH_OF_MAPS };
	struct twin tmpl, inner, other, outer, nested;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	NB_ASSERT_EQ(twin_create(&tmpl, BPF_MAP_TYPE_ARRAY, 4, 8, 2, 0, NULL), 0);
	NB_ASSERT_EQ(twin_create(&inner, BPF_MAP_TYPE_ARRAY, 4, 8, 2, 0, NULL), 0);
	NB_ASSERT_EQ(twin_create(&other, BPF_MAP_TYPE_ARRAY, 4, 8, 3, 0, NULL), 0);
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		__u32 key = 1, kid, nid, kv, nv;

		NB_ASSERT_EQ(twin_create(&outer, types[i], 4, 4, 4, 0, &tmpl), 0);
		outer.what = i ? "hash_of_maps" : "array_of_maps";
		NB_ASSERT_EQ(twin_create(&nested, types[i], 4, 4, 4, 0, &outer), -EINVAL);
		NB_ASSERT_EQ(twin_create(&nested, types[i], 4, 8, 4, 0, &tmpl), -EINVAL);
		/* The ids differ between the two worlds: each side stores its own. */
		kid = (__u32)inner.fd;
		nid = nb_map_id(inner.nb);
		same_err(&outer, "update", bpf_map_update_elem(outer.fd, &key, &kid, BPF_ANY),
			 nb_map_update_elem(outer.nb, &key, &nid, BPF_ANY));
		same_err(&outer, "update noexist",
			 bpf_map_update_elem(outer.fd, &key, &kid, BPF_NOEXIST),
			 nb_map_update_elem(outer.nb, &key, &nid, BPF_NOEXIST));
		kid = (__u32)other.fd;
		nid = nb_map_id(other.nb);
		same_err(&outer, "update mismatch",
			 bpf_map_update_elem(outer.fd, &key, &kid, BPF_ANY),
			 nb_map_update_elem(outer.nb, &key, &nid, BPF_ANY));
		same_err(&outer, "lookup", bpf_map_lookup_elem(outer.fd, &key, &kv),
			 nb_map_lookup_elem(outer.nb, &key, &nv));
		NB_ASSERT_EQ(nv, nb_map_id(inner.nb));
		{
			struct bpf_map_info info = { 0 };
			__u32 len = sizeof(info);

			NB_ASSERT_EQ(bpf_obj_get_info_by_fd(inner.fd, &info, &len), 0);
			NB_ASSERT_EQ(kv, info.id);
		}
		t_next(&outer, NULL, NULL);
		t_next(&outer, &key, NULL);
		t_delete(&outer, &key);
		t_delete(&outer, &key);
		t_lookup(&outer, &key, NULL);
		key = 9;
		t_delete(&outer, &key);
		twin_close(&outer);
	}
	twin_close(&other);
	twin_close(&inner);
	twin_close(&tmpl);
}

/*
 * Which types may be inner maps, and which of their attributes an inner map must share with the
 * template: every type the kernel takes (devmap, ringbuf, queue, ...), max_entries free for a
 * hash, fixed for an array unless BPF_F_INNER_MAP, fixed for a per-CPU array and an xskmap.
 */
struct inner_case {
	const char *what;
	enum bpf_map_type type;
	__u32 key_size, value_size, max_entries, other_max, flags;
};

static const struct inner_case inner_cases[] = {
	{ "array", BPF_MAP_TYPE_ARRAY, 4, 8, 4, 8, 0 },
	{ "array inner_map", BPF_MAP_TYPE_ARRAY, 4, 8, 4, 8, BPF_F_INNER_MAP },
	{ "percpu_array", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 4, 8, 0 },
	{ "hash", BPF_MAP_TYPE_HASH, 4, 8, 4, 8, 0 },
	{ "lru_hash", BPF_MAP_TYPE_LRU_HASH, 4, 8, 16, 32, 0 },
	{ "percpu_hash", BPF_MAP_TYPE_PERCPU_HASH, 4, 8, 4, 8, 0 },
	{ "lpm_trie", BPF_MAP_TYPE_LPM_TRIE, 8, 4, 4, 8, BPF_F_NO_PREALLOC },
	{ "devmap", BPF_MAP_TYPE_DEVMAP, 4, 4, 4, 8, 0 },
	{ "devmap_hash", BPF_MAP_TYPE_DEVMAP_HASH, 4, 4, 4, 8, 0 },
	{ "cpumap", BPF_MAP_TYPE_CPUMAP, 4, 4, 2, 4, 0 },
	{ "xskmap", BPF_MAP_TYPE_XSKMAP, 4, 4, 4, 8, 0 },
	{ "ringbuf", BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 8192, 0 },
	{ "user_ringbuf", BPF_MAP_TYPE_USER_RINGBUF, 0, 0, 4096, 8192, 0 },
	{ "queue", BPF_MAP_TYPE_QUEUE, 0, 4, 4, 8, 0 },
	{ "stack", BPF_MAP_TYPE_STACK, 0, 4, 4, 8, 0 },
	{ "perf_event_array", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 4, 8, 0 },
	{ "sockmap", BPF_MAP_TYPE_SOCKMAP, 4, 4, 4, 8, 0 },
	{ "sockhash", BPF_MAP_TYPE_SOCKHASH, 4, 4, 4, 8, 0 },
	{ "cgroup_array", BPF_MAP_TYPE_CGROUP_ARRAY, 4, 4, 4, 8, 0 },
	{ "prog_array", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 8, 0 },
};

static void test_map_in_map_inner_types(const void *arg)
{
	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	for (size_t i = 0; i < ARRAY_SIZE(inner_cases); i++) {
		const struct inner_case *c = &inner_cases[i];
		struct twin tmpl, same, other, outer;
		__u32 key = 0, kid, nid;

		NB_ASSERT_EQ(twin_create(&tmpl, c->type, c->key_size, c->value_size,
					 c->max_entries, c->flags, NULL), 0);
		if (twin_create(&outer, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 2, 0, &tmpl)) {
			twin_close(&tmpl);
			continue;	/* both refuse the type as an inner map */
		}
		outer.what = c->what;
		NB_ASSERT_EQ(twin_create(&same, c->type, c->key_size, c->value_size,
					 c->max_entries, c->flags, NULL), 0);
		NB_ASSERT_EQ(twin_create(&other, c->type, c->key_size, c->value_size,
					 c->other_max, c->flags, NULL), 0);
		kid = (__u32)same.fd;
		nid = nb_map_id(same.nb);
		same_err(&outer, "update same", bpf_map_update_elem(outer.fd, &key, &kid, BPF_ANY),
			 nb_map_update_elem(outer.nb, &key, &nid, BPF_ANY));
		kid = (__u32)other.fd;
		nid = nb_map_id(other.nb);
		same_err(&outer, "update other max_entries",
			 bpf_map_update_elem(outer.fd, &key, &kid, BPF_ANY),
			 nb_map_update_elem(outer.nb, &key, &nid, BPF_ANY));
		twin_close(&outer);
		twin_close(&other);
		twin_close(&same);
		twin_close(&tmpl);
	}
}

static void test_ringbuf_ops(const void *arg)
{
	struct twin t;
	__u32 k = 0, v = 0;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	NB_ASSERT_EQ(twin_create(&t, BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0, NULL), 0);
	t.what = "ringbuf";
	/* A key for a map without keys is refused first; without one, the command is. */
	same_err(&t, "lookup", bpf_map_lookup_elem(t.fd, &k, &v), nb_map_lookup_elem(t.nb, &k, &v));
	same_err(&t, "lookup", bpf_map_lookup_elem(t.fd, NULL, &v),
		 nb_map_lookup_elem(t.nb, NULL, &v));
	same_err(&t, "update", bpf_map_update_elem(t.fd, NULL, &v, 0),
		 nb_map_update_elem(t.nb, NULL, &v, 0));
	same_err(&t, "delete", bpf_map_delete_elem(t.fd, NULL), nb_map_delete_elem(t.nb, NULL));
	same_err(&t, "lookup_and_delete", bpf_map_lookup_and_delete_elem(t.fd, NULL, &v),
		 nb_map_lookup_and_delete_elem(t.nb, NULL, &v));
	same_err(&t, "update", bpf_map_update_elem(t.fd, &k, &v, 0),
		 nb_map_update_elem(t.nb, &k, &v, 0));
	same_err(&t, "delete", bpf_map_delete_elem(t.fd, &k), nb_map_delete_elem(t.nb, &k));
	same_err(&t, "next", bpf_map_get_next_key(t.fd, NULL, &k),
		 nb_map_get_next_key(t.nb, NULL, &k));
	same_err(&t, "next", bpf_map_get_next_key(t.fd, &k, &k),
		 nb_map_get_next_key(t.nb, &k, &k));
	twin_close(&t);
}

/*
 * Maps of sockets, cgroups and XDP sockets, empty on both sides: every command on them, with an
 * fd (here an id) that names nothing open, must fail alike.
 */
struct absent_case {
	const char *name;
	enum bpf_map_type type;
	__u32 key_size, value_size, max_entries;
};

static const struct absent_case absent_cases[] = {
	{ "sockmap", BPF_MAP_TYPE_SOCKMAP, 4, 4, 4 },
	{ "sockmap_cookie", BPF_MAP_TYPE_SOCKMAP, 4, 8, 4 },
	{ "sockhash", BPF_MAP_TYPE_SOCKHASH, 12, 4, 4 },
	{ "sockhash_cookie", BPF_MAP_TYPE_SOCKHASH, 4, 8, 4 },
	{ "reuseport", BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 4, 4 },
	{ "reuseport_cookie", BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 8, 4 },
	{ "cgroup_array", BPF_MAP_TYPE_CGROUP_ARRAY, 4, 4, 4 },
	{ "cgroup_storage", BPF_MAP_TYPE_CGROUP_STORAGE, sizeof(struct bpf_cgroup_storage_key),
	  8, 0 },
	{ "cgroup_storage_u64", BPF_MAP_TYPE_CGROUP_STORAGE, 8, 8, 0 },
	{ "percpu_cgroup_storage", BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, 8, 8, 0 },
	{ "user_ringbuf", BPF_MAP_TYPE_USER_RINGBUF, 0, 0, 4096 },
	{ "xskmap", BPF_MAP_TYPE_XSKMAP, 4, 4, 4 },
};

static void test_absent_ops(const void *arg)
{
	const struct absent_case *c = arg;
	/*
	 * none open: one that fits, one above S32_MAX, one whose low half fits; and a file
	 * that is no socket (ENOTSOCK from the kernel's sockfd_lookup)
	 */
	__u64 fds[] = { 1000000, 0x80000000ULL, 0x100000000ULL + 1000000, 0 };
	int null_fd = open("/dev/null", O_RDONLY);
	__u8 key[16] = { 0 }, next[16];
	__u64 value[NB_MAX_CPUS] = { 0 };
	const void *k = c->key_size ? key : NULL;
	struct twin t;

	NB_ASSERT(null_fd >= 0);
	fds[3] = (__u64)null_fd;
	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	match_cpus();
	NB_ASSERT_EQ(twin_create(&t, c->type, c->key_size, c->value_size, c->max_entries, 0,
				 NULL), 0);
	t.what = c->name;
	t_lookup(&t, k, NULL);
	/* netbpf's xskmap takes its sockets' ids, not fds: an open file means nothing there */
	for (size_t f = 0; f < ARRAY_SIZE(fds) - (c->type == BPF_MAP_TYPE_XSKMAP); f++) {
		/* the fd as the value holds it: 4 bytes, or 8 */
		memcpy(value, &fds[f], sizeof(value[0]));
		for (__u64 flags = BPF_ANY; flags <= BPF_EXIST + 1; flags++)
			t_update(&t, k, value, flags);
	}
	for (__u32 i = 0; i <= c->max_entries + 1 && c->key_size == 4; i += c->max_entries) {
		memcpy(key, &i, sizeof(i));
		t_update(&t, key, value, BPF_ANY);
		t_delete(&t, key);
		t_lookup(&t, key, NULL);
		t_next(&t, key, next);
		if (!c->max_entries)
			break;
	}
	memset(key, 0, sizeof(key));
	t_delete(&t, k);
	t_next(&t, NULL, next);
	t_lookup_and_delete(&t, k);
	NB_ASSERT(nb_map_absent_objects(t.nb) || c->type == BPF_MAP_TYPE_XSKMAP ||
		  c->type == BPF_MAP_TYPE_USER_RINGBUF);
	twin_close(&t);
	close(null_fd);
}

/*
 * sk_storage wants BTF for its key and value (it is dumped by socket): the kernel's side gets an
 * int, netbpf reads no BTF. Keys are socket fds: none is open here.
 */
static void test_sk_storage(const void *arg)
{
	static const struct {
		__u32 key_size, value_size, max_entries, flags;
	} cases[] = {
		{ 4, 4, 0, BPF_F_NO_PREALLOC }, { 4, 4, 0, 0 }, { 4, 4, 1, BPF_F_NO_PREALLOC },
		{ 8, 4, 0, BPF_F_NO_PREALLOC }, { 4, 0, 0, BPF_F_NO_PREALLOC },
		{ 4, 4, 0, BPF_F_NO_PREALLOC | BPF_F_CLONE },
		{ 4, 4, 0, BPF_F_NO_PREALLOC | BPF_F_RDONLY_PROG },
		{ 4, 65408, 0, BPF_F_NO_PREALLOC },
	};
	struct btf *btf = btf__new_empty();
	int fd = 1000000, v = 0, next;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	NB_ASSERT(btf && btf__add_int(btf, "int", 4, BTF_INT_SIGNED) == 1);
	NB_ASSERT_EQ(btf__load_into_kernel(btf), 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		LIBBPF_OPTS(bpf_map_create_opts, kopts, .map_flags = cases[i].flags,
			    .btf_fd = btf__fd(btf), .btf_key_type_id = 1, .btf_value_type_id = 1);
		struct nb_map_create_opts nopts = { .sz = sizeof(nopts), .name = "sk",
						    .map_flags = cases[i].flags };
		struct twin t = { .what = "sk_storage", .key_size = 4, .value_size = 4 };
		int kfd = bpf_map_create(BPF_MAP_TYPE_SK_STORAGE, "sk", cases[i].key_size,
					 cases[i].value_size, cases[i].max_entries, &kopts);
		int nerr = nb_map_create(BPF_MAP_TYPE_SK_STORAGE, cases[i].key_size,
					 cases[i].value_size, cases[i].max_entries, &nopts, &t.nb);

		if (kerr(kfd) != nerr)
			NB_FAIL("sk_storage case %zu: kernel %d, netbpf %d", i, kerr(kfd), nerr);
		if (kfd < 0)
			continue;
		t.fd = kfd;
		t_lookup(&t, &fd, NULL);
		t_update(&t, &fd, &v, BPF_ANY);
		t_delete(&t, &fd);
		same_err(&t, "next", bpf_map_get_next_key(t.fd, NULL, &next),
			 nb_map_get_next_key(t.nb, NULL, &next));
		NB_ASSERT(!strcmp(nb_map_absent_objects(t.nb), "sockets"));
		twin_close(&t);
	}
	btf__free(btf);
}

static void __attribute__((constructor)) register_maps_kernel(void)
{
	static char names[ARRAY_SIZE(attr_cases) + ARRAY_SIZE(hash_cases)][80];
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(attr_cases); i++, n++) {
		snprintf(names[n], sizeof(names[n]), "maps-kernel/attr_%s", attr_cases[i].name);
		nb_test_register(names[n], test_attr, &attr_cases[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(hash_cases); i++, n++) {
		snprintf(names[n], sizeof(names[n]), "maps-kernel/random_%s", hash_cases[i].name);
		nb_test_register(names[n], test_hash_random, &hash_cases[i]);
	}
	nb_test_register("maps-kernel/array_ops", test_array_ops, NULL);
	nb_test_register("maps-kernel/percpu_ops", test_percpu_ops, NULL);
	nb_test_register("maps-kernel/lpm_random", test_lpm, NULL);
	nb_test_register("maps-kernel/queue_stack_random", test_queue_stack, NULL);
	nb_test_register("maps-kernel/map_in_map", test_map_in_map, NULL);
	nb_test_register("maps-kernel/map_in_map_inner_types", test_map_in_map_inner_types, NULL);
	nb_test_register("maps-kernel/ringbuf_ops", test_ringbuf_ops, NULL);
	nb_test_register("maps-kernel/sk_storage", test_sk_storage, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(absent_cases); i++) {
		static char absent_names[ARRAY_SIZE(absent_cases)][64];

		snprintf(absent_names[i], sizeof(absent_names[i]), "maps-kernel/empty_%s",
			 absent_cases[i].name);
		nb_test_register(absent_names[i], test_absent_ops, &absent_cases[i]);
	}
}
