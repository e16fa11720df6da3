// SPDX-License-Identifier: GPL-2.0
/* Hash maps (hash, percpu_hash, lru_hash, lru_percpu_hash): attributes, flags, iteration. */
#include <pthread.h>
#include <unistd.h>

#include "map_test.h"

struct bad_attr {
	const char *name;
	enum bpf_map_type type;
	__u32 key_size, value_size, max_entries, flags;
	int err;
	const char *msg;
};

static const struct bad_attr bad_attrs[] = {
	{ "key_size_0", BPF_MAP_TYPE_HASH, 0, 4, 4, 0, -EINVAL, "key_size is 0" },
	{ "value_size_0", BPF_MAP_TYPE_HASH, 4, 0, 4, 0, -EINVAL, "value_size is 0" },
	{ "max_entries_0", BPF_MAP_TYPE_HASH, 4, 4, 0, 0, -EINVAL, "max_entries is 0" },
	{ "key_value_too_big", BPF_MAP_TYPE_HASH, 1 << 21, 1 << 21, 4, 0, -E2BIG, "too large" },
	{ "value_too_big", BPF_MAP_TYPE_HASH, 4, 1 << 22, 4, 0, -E2BIG, "too large" },
	{ "max_entries_absurd", BPF_MAP_TYPE_HASH, 4, 4, 0x80000001, 0, -E2BIG, "max_entries" },
	{ "no_common_lru", BPF_MAP_TYPE_HASH, 4, 4, 4, BPF_F_NO_COMMON_LRU, -EINVAL,
	  "LRU maps only" },
	{ "lru_no_prealloc", BPF_MAP_TYPE_LRU_HASH, 4, 4, 4, BPF_F_NO_PREALLOC, -EOPNOTSUPP,
	  "preallocated" },
	{ "mmapable", BPF_MAP_TYPE_HASH, 4, 4, 4, BPF_F_MMAPABLE, -EINVAL, "map_flags 0x400" },
	{ "percpu_numa", BPF_MAP_TYPE_PERCPU_HASH, 4, 4, 4, BPF_F_NUMA_NODE, -EINVAL, "NUMA" },
	{ "percpu_value_too_big", BPF_MAP_TYPE_PERCPU_HASH, 4, 32769, 4, 0, -E2BIG, "limit" },
};

static void test_bad_attr(const void *arg)
{
	const struct bad_attr *t = arg;
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(mt_map_err(t->type, t->key_size, t->value_size, t->max_entries, t->flags,
				&log), t->err);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), t->msg);
	nb_log_free(&log);
}

/* The behaviour tests run for every hash type and allocation mode. */
struct variant {
	const char *name;
	enum bpf_map_type type;
	__u32 flags;
};

static const struct variant variants[] = {
	{ "hash", BPF_MAP_TYPE_HASH, 0 },
	{ "hash_no_prealloc", BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC },
	{ "hash_zero_seed", BPF_MAP_TYPE_HASH, BPF_F_ZERO_SEED },
	{ "percpu_hash", BPF_MAP_TYPE_PERCPU_HASH, 0 },
	{ "percpu_hash_no_prealloc", BPF_MAP_TYPE_PERCPU_HASH, BPF_F_NO_PREALLOC },
	{ "lru_hash", BPF_MAP_TYPE_LRU_HASH, 0 },
	{ "lru_percpu_hash", BPF_MAP_TYPE_LRU_PERCPU_HASH, 0 },
};

static bool is_percpu(const struct variant *v)
{
	return v->type == BPF_MAP_TYPE_PERCPU_HASH || v->type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool is_lru(const struct variant *v)
{
	return v->type == BPF_MAP_TYPE_LRU_HASH || v->type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

/* A 6-byte key (not a multiple of 4: the byte-wise jhash) and a u64 per CPU. */
struct key6 {
	__u8 b[6];
};

static struct key6 key6(unsigned int n)
{
	struct key6 k = { { (__u8)n, (__u8)(n >> 8), 0xaa, 0xbb, 0xcc, (__u8)(n * 7) } };

	return k;
}

static void set_values(__u64 *values, __u64 v)
{
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++)
		values[cpu] = v + cpu;
}

static void test_flags(const void *arg)
{
	const struct variant *v = arg;
	__u64 values[NB_MAX_CPUS], out[NB_MAX_CPUS];
	struct nb_map *map;
	struct key6 k;

	nb_set_nr_cpus(3);
	map = mt_map(v->type, sizeof(k), 8, 4, v->flags);
	NB_ASSERT_EQ(nb_map_user_value_size(map), is_percpu(v) ? 24 : 8);
	k = key6(1);
	set_values(values, 10);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &k, out), -ENOENT);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_EXIST), -ENOENT);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_NOEXIST), 0);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_NOEXIST), -EEXIST);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_EXIST + 1), -EINVAL);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_F_LOCK), -EINVAL);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &k, out), 0);
	NB_ASSERT_MEM_EQ(out, values, nb_map_user_value_size(map));
	set_values(values, 20);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_EXIST), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &k, out), 0);
	NB_ASSERT_MEM_EQ(out, values, nb_map_user_value_size(map));
	/* Fill up: a new key fails (LRU maps evict instead), an existing key still updates. */
	for (unsigned int i = 2; i <= 4; i++) {
		k = key6(i);
		NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_ANY), 0);
	}
	k = key6(5);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_ANY), is_lru(v) ? 0 : -E2BIG);
	k = key6(4);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_ANY), 0);
	k = key6(9);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &k), -ENOENT);
	k = key6(4);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &k), 0);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &k), -ENOENT);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &k, out), -ENOENT);
	/* A freed slot takes a new key at once, even before the old element's grace period. */
	k = key6(6);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_NOEXIST), 0);
	memset(out, 0, sizeof(out));
	NB_ASSERT_EQ(nb_map_lookup_and_delete_elem(map, &k, out), 0);
	NB_ASSERT_MEM_EQ(out, values, nb_map_user_value_size(map));
	NB_ASSERT_EQ(nb_map_lookup_and_delete_elem(map, &k, out), -ENOENT);
	nb_map_put(map);
}

static void test_get_next_key(const void *arg)
{
	const struct variant *v = arg;
	__u64 values[NB_MAX_CPUS] = { 0 };
	unsigned int seen[64] = { 0 }, n = 0;
	struct key6 k, next, missing = key6(1000);
	struct nb_map *map = mt_map(v->type, sizeof(k), 8, 64, v->flags);
	int err;

	NB_ASSERT_EQ(nb_map_get_next_key(map, NULL, &next), -ENOENT);
	for (unsigned int i = 0; i < 40; i++) {
		k = key6(i);
		NB_ASSERT_EQ(nb_map_update_elem(map, &k, values, BPF_NOEXIST), 0);
	}
	/* NULL and a missing key both start at the first key. */
	NB_ASSERT_EQ(nb_map_get_next_key(map, NULL, &k), 0);
	NB_ASSERT_EQ(nb_map_get_next_key(map, &missing, &next), 0);
	NB_ASSERT_MEM_EQ(&k, &next, sizeof(k));
	for (err = 0; !err; err = nb_map_get_next_key(map, &k, &k)) {
		NB_ASSERT(k.b[0] < 40 && k.b[5] == (__u8)(k.b[0] * 7));
		seen[k.b[0]]++;
		n++;
	}
	NB_ASSERT_EQ(err, -ENOENT);
	NB_ASSERT_EQ(n, 40);
	for (unsigned int i = 0; i < 40; i++)
		NB_ASSERT_EQ(seen[i], 1);
	nb_map_put(map);
}

static void __attribute__((constructor)) register_hash_tests(void)
{
	static char names[ARRAY_SIZE(bad_attrs) + 2 * ARRAY_SIZE(variants)][64];
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(bad_attrs); i++, n++) {
		snprintf(names[n], sizeof(names[n]), "map_hash_attr_%s", bad_attrs[i].name);
		nb_test_register(names[n], test_bad_attr, &bad_attrs[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++, n += 2) {
		snprintf(names[n], sizeof(names[n]), "map_hash_flags_%s", variants[i].name);
		nb_test_register(names[n], test_flags, &variants[i]);
		snprintf(names[n + 1], sizeof(names[n + 1]), "map_hash_next_key_%s",
			 variants[i].name);
		nb_test_register(names[n + 1], test_get_next_key, &variants[i]);
	}
}

/* Program: lookup key (u32 on the stack) and return the value, or -1. */
static __u64 prog_lookup(struct nb_map *map, __u32 key)
{
	return MT_RUN(NULL,
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, key),
		MT_STACK_PTR(BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),
		NB_MOV64_IMM(BPF_REG_0, -1),
		NB_EXIT(),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		NB_EXIT());
}

/* Program: update key with value and flags, return the helper's result. */
static __u64 prog_update(struct nb_map *map, __u32 key, __s32 value, __u32 flags)
{
	return MT_RUN(NULL,
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, key),
		MT_STACK_PTR(BPF_REG_2, -4),
		NB_ST_MEM(BPF_DW, BPF_REG_10, -16, value),
		MT_STACK_PTR(BPF_REG_3, -16),
		NB_MOV64_IMM(BPF_REG_4, flags),
		NB_CALL_HELPER(BPF_FUNC_map_update_elem),
		NB_EXIT());
}

static __u64 prog_delete(struct nb_map *map, __u32 key)
{
	return MT_RUN(NULL,
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, key),
		MT_STACK_PTR(BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_delete_elem),
		NB_EXIT());
}

NB_TEST(map_hash_prog_ops)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_HASH, 4, 8, 2, 0);
	__u32 key = 7;
	__u64 value;

	NB_ASSERT_EQ(prog_lookup(map, 7), (__u64)-1);
	NB_ASSERT_EQ(prog_update(map, 7, 70, BPF_EXIST), (__u64)-ENOENT);
	NB_ASSERT_EQ(prog_update(map, 7, 70, BPF_NOEXIST), 0);
	NB_ASSERT_EQ(prog_update(map, 7, 71, BPF_NOEXIST), (__u64)-EEXIST);
	NB_ASSERT_EQ(prog_lookup(map, 7), 70);
	NB_ASSERT_EQ(prog_update(map, 8, 80, BPF_ANY), 0);
	NB_ASSERT_EQ(prog_update(map, 9, 90, BPF_ANY), (__u64)-E2BIG);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &value), 0);
	NB_ASSERT_EQ(value, 70);
	NB_ASSERT_EQ(prog_delete(map, 7), 0);
	NB_ASSERT_EQ(prog_delete(map, 7), (__u64)-ENOENT);
	NB_ASSERT_EQ(prog_lookup(map, 7), (__u64)-1);
	NB_ASSERT_EQ(prog_update(map, 9, 90, BPF_ANY), 0);
	nb_map_put(map);
}

/* A program's update of a per-CPU hash sets its own CPU's value; a new key is 0 elsewhere. */
NB_TEST(map_percpu_hash_prog_cpu)
{
	struct nb_map *map;
	__u64 values[4];
	__u32 key = 3;

	NB_ASSERT_EQ(nb_set_nr_cpus(4), 0);
	map = mt_map(BPF_MAP_TYPE_PERCPU_HASH, 4, 8, 8, 0);
	NB_ASSERT_EQ(nb_set_this_cpu(1), 0);
	NB_ASSERT_EQ(prog_update(map, 3, 33, BPF_ANY), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, values), 0);
	NB_ASSERT_EQ(values[0], 0);
	NB_ASSERT_EQ(values[1], 33);
	NB_ASSERT_EQ(values[2], 0);
	NB_ASSERT_EQ(values[3], 0);
	for (int i = 0; i < 4; i++)
		values[i] = 100 + i;
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, values, BPF_EXIST), 0);
	NB_ASSERT_EQ(nb_set_this_cpu(3), 0);
	NB_ASSERT_EQ(prog_lookup(map, 3), 103);
	NB_ASSERT_EQ(prog_update(map, 3, 5, BPF_EXIST), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, values), 0);
	NB_ASSERT_EQ(values[2], 102);
	NB_ASSERT_EQ(values[3], 5);
	nb_map_put(map);
}

/* LRU: a full map evicts the least recently used key; a program's lookup protects a key. */
NB_TEST(map_lru_hash_eviction)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_LRU_HASH, 4, 8, 4, 0);
	__u64 value = 0;
	__u32 key, next;
	int n = 0;

	for (key = 1; key <= 4; key++)
		NB_ASSERT_EQ(nb_map_update_elem(map, &key, &value, BPF_NOEXIST), 0);
	NB_ASSERT_EQ(prog_lookup(map, 1), 0);	/* key 1 is oldest but used */
	key = 5;
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &value, BPF_NOEXIST), 0);
	key = 1;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &value), 0);
	key = 2;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &value), -ENOENT);
	key = 6;
	NB_ASSERT_EQ(prog_update(map, 6, 6, BPF_NOEXIST), 0);
	key = 3;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &value), -ENOENT);
	for (int err = nb_map_get_next_key(map, NULL, &next); !err;
	     err = nb_map_get_next_key(map, &next, &next))
		n++;
	NB_ASSERT_EQ(n, 4);
	nb_map_put(map);
}

/*
 * With BPF_F_ZERO_SEED the hash is a pure function of the key: two maps filled alike iterate
 * alike (tests/kernel compares that order with the kernel's). Updating an existing key moves
 * it to the head of its chain, as the kernel's replace-then-unlink does.
 */
static void collect(struct nb_map *map, __u32 *keys, unsigned int n)
{
	NB_ASSERT_EQ(nb_map_get_next_key(map, NULL, &keys[0]), 0);
	for (unsigned int i = 1; i < n; i++)
		NB_ASSERT_EQ(nb_map_get_next_key(map, &keys[i - 1], &keys[i]), 0);
	NB_ASSERT_EQ(nb_map_get_next_key(map, &keys[n - 1], &keys[0]), -ENOENT);
}

NB_TEST(map_hash_zero_seed_order)
{
	struct nb_map *a = mt_map(BPF_MAP_TYPE_HASH, 4, 8, 4, BPF_F_ZERO_SEED);
	struct nb_map *b = mt_map(BPF_MAP_TYPE_HASH, 4, 8, 4, BPF_F_ZERO_SEED);
	__u32 key, ka[4], kb[4];
	__u64 value = 0;

	for (key = 0; key < 4; key++) {
		NB_ASSERT_EQ(nb_map_update_elem(a, &key, &value, 0), 0);
		NB_ASSERT_EQ(nb_map_update_elem(b, &key, &value, 0), 0);
	}
	collect(a, ka, 4);
	collect(b, kb, 4);
	NB_ASSERT_MEM_EQ(ka, kb, sizeof(ka));
	nb_map_put(a);
	nb_map_put(b);
}

/*
 * Concurrency: readers run a lookup program in a loop while a writer replaces and deletes
 * elements. Each value encodes its key, so a reader that saw freed or reused memory would
 * return a mismatched value; ASan catches use after free.
 */
struct conc {
	struct nb_map *map;
	struct nb_prog *prog;
	int stop;
	unsigned long bad, hits;
};

static void *reader(void *arg)
{
	struct conc *c = arg;

	for (unsigned long i = 0; !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE); i++) {
		__u32 key = i % 64;
		__u64 r0 = nb_prog_run(c->prog, &key);

		if (r0 == (__u64)-1)
			continue;
		__atomic_add_fetch(&c->hits, 1, __ATOMIC_RELAXED);
		if ((r0 & 0xffffffff) != key)
			__atomic_add_fetch(&c->bad, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

NB_TEST(map_hash_concurrent)
{
	const struct bpf_insn insns[] = {
		/* r1 = ctx (a u32 key); lookup and return the value or -1 */
		NB_MOV64_REG(BPF_REG_2, BPF_REG_1),
		NB_LD_MAP_ID(BPF_REG_1, 0),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),
		NB_MOV64_IMM(BPF_REG_0, -1),
		NB_EXIT(),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		NB_EXIT(),
	};
	struct bpf_insn prog_insns[ARRAY_SIZE(insns)];
	struct conc c = { 0 };
	pthread_t threads[2];

	c.map = mt_map(BPF_MAP_TYPE_HASH, 4, 8, 64, 0);
	memcpy(prog_insns, insns, sizeof(insns));
	prog_insns[1].imm = (int)nb_map_id(c.map);
	c.prog = mt_load(prog_insns, ARRAY_SIZE(prog_insns));
	for (int i = 0; i < 2; i++)
		NB_ASSERT_EQ(pthread_create(&threads[i], NULL, reader, &c), 0);
	for (unsigned long round = 0; round < 60000; round++) {
		__u32 key = (round * 7) % 64;
		__u64 value = ((__u64)round << 32) | key;

		if (round % 3 == 2)
			nb_map_delete_elem(c.map, &key);
		else
			NB_ASSERT_EQ(nb_map_update_elem(c.map, &key, &value, BPF_ANY), 0);
	}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
	NB_ASSERT_EQ(c.bad, 0);
	NB_ASSERT(c.hits > 0);
	nb_prog_put(c.prog);
	nb_map_put(c.map);
}

/*
 * Programs on several threads update and delete the same small LRU and per-CPU maps while
 * others look up: every writer path runs concurrently with lock-free readers.
 */
struct prog_writers {
	struct nb_map *map;
	int stop;
	unsigned int cpu;
	bool percpu;
};

static void *prog_writer(void *arg)
{
	struct prog_writers *w = arg;

	nb_set_this_cpu(__atomic_fetch_add(&w->cpu, 1, __ATOMIC_RELAXED) % nb_nr_cpus());
	for (__u32 i = 0; !__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE); i++) {
		__u64 v;

		if (i % 3 == 2)
			prog_delete(w->map, i % 32);
		else
			prog_update(w->map, i % 32, (__s32)(i % 32), BPF_ANY);
		/* Values equal their keys; a per-CPU value another worker created may be 0. */
		v = prog_lookup(w->map, (i + 1) % 32);
		if (v != (__u64)-1 && v != (i + 1) % 32 && !(w->percpu && v == 0))
			__atomic_store_n(&w->stop, 2, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void check_prog_writers(enum bpf_map_type type)
{
	struct prog_writers w = { 0 };
	pthread_t threads[3];

	nb_set_nr_cpus(3);
	w.map = mt_map(type, 4, 8, 16, 0);
	w.percpu = type == BPF_MAP_TYPE_PERCPU_HASH;
	for (int i = 0; i < 3; i++)
		NB_ASSERT_EQ(pthread_create(&threads[i], NULL, prog_writer, &w), 0);
	usleep(300000);
	__atomic_compare_exchange_n(&w.stop, &(int){ 0 }, 1, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	for (int i = 0; i < 3; i++)
		pthread_join(threads[i], NULL);
	NB_ASSERT_EQ(w.stop, 1);	/* 2: a reader saw a value no writer stored */
	nb_map_put(w.map);
}

NB_TEST(map_lru_hash_concurrent_prog_writers)
{
	check_prog_writers(BPF_MAP_TYPE_LRU_HASH);
}

NB_TEST(map_percpu_hash_concurrent_prog_writers)
{
	check_prog_writers(BPF_MAP_TYPE_PERCPU_HASH);
}
