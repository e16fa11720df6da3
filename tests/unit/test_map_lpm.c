// SPDX-License-Identifier: GPL-2.0
/* LPM trie maps: longest-prefix matches for IPv4 and IPv6, flags, delete, post-order keys. */
#include "map_test.h"

struct key4 {
	__u32 prefixlen;
	__u8 ip[4];
};

struct key6 {
	__u32 prefixlen;
	__u8 ip[16];
};

static struct key4 k4(__u32 len, __u8 a, __u8 b, __u8 c, __u8 d)
{
	struct key4 k = { len, { a, b, c, d } };

	return k;
}

static struct nb_map *lpm4(__u32 max_entries)
{
	return mt_map(BPF_MAP_TYPE_LPM_TRIE, sizeof(struct key4), 8, max_entries,
		      BPF_F_NO_PREALLOC);
}

static void add4(struct nb_map *map, struct key4 k, __u64 value)
{
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_ANY), 0);
}

/* The value of the longest prefix matching a full address, or 0 when none does. */
static __u64 match4(struct nb_map *map, __u8 a, __u8 b, __u8 c, __u8 d)
{
	struct key4 k = k4(32, a, b, c, d);
	__u64 value;

	return nb_map_lookup_elem(map, &k, &value) ? 0 : value;
}

NB_TEST(map_lpm_attrs)
{
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_LPM_TRIE, 8, 8, 16, 0, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "BPF_F_NO_PREALLOC");
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_LPM_TRIE, 4, 8, 16, BPF_F_NO_PREALLOC, &log),
		     -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "key_size 4 outside 5..260");
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_LPM_TRIE, 261, 8, 16, BPF_F_NO_PREALLOC, &log),
		     -EINVAL);
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_LPM_TRIE, 8, 0, 16, BPF_F_NO_PREALLOC, &log),
		     -EINVAL);
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_LPM_TRIE, 8, 8, 0, BPF_F_NO_PREALLOC, &log),
		     -EINVAL);
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_LPM_TRIE, 8, 8, 16,
				BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED, &log), -EINVAL);
	nb_log_free(&log);
}

NB_TEST(map_lpm_ipv4_longest_match)
{
	struct nb_map *map = lpm4(16);
	struct key4 k;
	__u64 value = 0;

	NB_ASSERT_EQ(match4(map, 10, 1, 2, 3), 0);
	add4(map, k4(8, 10, 0, 0, 0), 1);
	add4(map, k4(16, 10, 1, 0, 0), 2);
	add4(map, k4(24, 10, 1, 2, 0), 3);
	add4(map, k4(16, 192, 168, 0, 0), 4);
	NB_ASSERT_EQ(match4(map, 8, 8, 8, 8), 0);
	add4(map, k4(0, 0, 0, 0, 0), 5);
	NB_ASSERT_EQ(match4(map, 10, 1, 2, 3), 3);
	NB_ASSERT_EQ(match4(map, 10, 1, 3, 3), 2);
	NB_ASSERT_EQ(match4(map, 10, 2, 0, 1), 1);
	NB_ASSERT_EQ(match4(map, 192, 168, 5, 5), 4);
	NB_ASSERT_EQ(match4(map, 192, 169, 5, 5), 5);
	NB_ASSERT_EQ(match4(map, 8, 8, 8, 8), 5);
	/* A lookup key's own prefix length bounds the match. */
	k = k4(12, 10, 1, 2, 3);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &k, &value), 0);
	NB_ASSERT_EQ(value, 1);
	/* Delete the /16: 10.1.3.3 falls back to the /8, 10.1.2.3 keeps its /24. */
	k = k4(16, 10, 1, 0, 0);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &k), 0);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &k), -ENOENT);
	NB_ASSERT_EQ(match4(map, 10, 1, 3, 3), 1);
	NB_ASSERT_EQ(match4(map, 10, 1, 2, 3), 3);
	k = k4(0, 0, 0, 0, 0);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &k), 0);
	NB_ASSERT_EQ(match4(map, 8, 8, 8, 8), 0);
	nb_map_put(map);
}

NB_TEST(map_lpm_flags)
{
	struct nb_map *map = lpm4(2);
	struct key4 k = k4(24, 10, 0, 0, 0);
	__u64 value = 7;

	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_EXIST), -ENOENT);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_NOEXIST), 0);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_NOEXIST), -EEXIST);
	value = 8;
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_EXIST), 0);
	NB_ASSERT_EQ(match4(map, 10, 0, 0, 1), 8);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_EXIST + 1), -EINVAL);
	k.prefixlen = 33;
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_ANY), -EINVAL);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &k), -EINVAL);
	k = k4(16, 10, 0, 0, 0);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_ANY), 0);
	/* Full: a new prefix is refused, replacing an existing one is not. */
	k = k4(8, 11, 0, 0, 0);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_ANY), -ENOSPC);
	k = k4(16, 10, 0, 0, 0);
	NB_ASSERT_EQ(nb_map_update_elem(map, &k, &value, BPF_ANY), 0);
	/* Delete needs the exact prefix. */
	k = k4(20, 10, 0, 0, 0);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &k), -ENOENT);
	NB_ASSERT_EQ(nb_map_lookup_and_delete_elem(map, &k, &value), -EOPNOTSUPP);
	nb_map_put(map);
}

NB_TEST(map_lpm_get_next_key_postorder)
{
	struct nb_map *map = lpm4(16);
	struct key4 k, expect[] = {
		k4(24, 192, 168, 0, 0), k4(24, 192, 168, 1, 0), k4(23, 192, 168, 0, 0),
		k4(16, 192, 168, 0, 0), k4(8, 200, 0, 0, 0),
	};
	int err;

	NB_ASSERT_EQ(nb_map_get_next_key(map, NULL, &k), -ENOENT);
	add4(map, k4(16, 192, 168, 0, 0), 1);
	add4(map, k4(24, 192, 168, 0, 0), 2);
	add4(map, k4(24, 192, 168, 1, 0), 3);
	add4(map, k4(23, 192, 168, 0, 0), 4);
	add4(map, k4(8, 200, 0, 0, 0), 5);
	err = nb_map_get_next_key(map, NULL, &k);
	for (size_t i = 0; i < ARRAY_SIZE(expect); i++) {
		NB_ASSERT_EQ(err, 0);
		NB_ASSERT_EQ(k.prefixlen, expect[i].prefixlen);
		NB_ASSERT_MEM_EQ(k.ip, expect[i].ip, 4);
		err = nb_map_get_next_key(map, &k, &k);
	}
	NB_ASSERT_EQ(err, -ENOENT);
	/* A missing key restarts at the leftmost prefix. */
	k = k4(25, 1, 2, 3, 4);
	NB_ASSERT_EQ(nb_map_get_next_key(map, &k, &k), 0);
	NB_ASSERT_EQ(k.prefixlen, 24);
	NB_ASSERT_MEM_EQ(k.ip, expect[0].ip, 4);
	nb_map_put(map);
}

NB_TEST(map_lpm_ipv6)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_LPM_TRIE, sizeof(struct key6), 4, 8,
				    BPF_F_NO_PREALLOC);
	struct key6 a = { 32, { 0x20, 0x01, 0x0d, 0xb8 } };
	struct key6 b = { 48, { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01 } };
	struct key6 q = { 128, { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, [15] = 5 } };
	__u32 v;

	v = 1;
	NB_ASSERT_EQ(nb_map_update_elem(map, &a, &v, 0), 0);
	v = 2;
	NB_ASSERT_EQ(nb_map_update_elem(map, &b, &v, 0), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &q, &v), 0);
	NB_ASSERT_EQ(v, 2);
	q.ip[5] = 2;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &q, &v), 0);
	NB_ASSERT_EQ(v, 1);
	q.ip[3] = 0xb9;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &q, &v), -ENOENT);
	q.prefixlen = 129;
	NB_ASSERT_EQ(nb_map_update_elem(map, &q, &v, 0), -EINVAL);
	nb_map_put(map);
}

/* Programs look up a trie the same way: r0 = value of the match for 10.1.2.3, or -1. */
NB_TEST(map_lpm_prog_lookup)
{
	struct nb_map *map = lpm4(4);

	add4(map, k4(8, 10, 0, 0, 0), 100);
	add4(map, k4(24, 10, 1, 2, 0), 124);
#define LOOKUP(ip)                                                                          \
	MT_RUN(NULL, NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),                              \
	       NB_ST_MEM(BPF_W, BPF_REG_10, -8, 32), NB_ST_MEM(BPF_W, BPF_REG_10, -4, ip), \
	       MT_STACK_PTR(BPF_REG_2, -8), NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),      \
	       NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2), NB_MOV64_IMM(BPF_REG_0, -1),          \
	       NB_EXIT(), NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0), NB_EXIT())
	/* Addresses in network order as stored in a u32 on a little-endian stack. */
	NB_ASSERT_EQ(LOOKUP(0x0302010a), 124);
	NB_ASSERT_EQ(LOOKUP(0x0303010a), 100);
	NB_ASSERT_EQ(LOOKUP(0x0303010b), (__u64)-1);
#undef LOOKUP
	nb_map_put(map);
}

/*
 * Concurrency: two threads look up addresses through a program while the main thread adds and
 * removes overlapping prefixes. The /8 that covers every address stays: a lookup must always
 * find a value, and it must be one of the values stored (ASan/TSan catch freed nodes).
 */
#include <pthread.h>

struct lpm_conc {
	struct nb_prog *prog;
	int stop;
	unsigned long misses, hits;
};

static void *lpm_reader(void *arg)
{
	struct lpm_conc *c = arg;

	for (__u32 i = 0; !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE); i++) {
		struct key4 k = k4(32, 10, (__u8)i, (__u8)(i >> 8), 1);
		__u64 r0 = nb_prog_run(c->prog, &k);

		if (r0 != 8 && r0 != 16 && r0 != 24)
			__atomic_add_fetch(&c->misses, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&c->hits, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

NB_TEST(map_lpm_concurrent)
{
	struct nb_map *map = lpm4(1024);
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_2, BPF_REG_1),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),
		NB_MOV64_IMM(BPF_REG_0, -1),
		NB_EXIT(),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		NB_EXIT(),
	};
	struct lpm_conc c = { .prog = mt_load(insns, ARRAY_SIZE(insns)) };
	pthread_t threads[2];

	add4(map, k4(8, 10, 0, 0, 0), 8);
	for (int i = 0; i < 2; i++)
		NB_ASSERT_EQ(pthread_create(&threads[i], NULL, lpm_reader, &c), 0);
	/* Until the readers have run too: on a loaded machine they may start late. */
	for (__u32 round = 0;
	     round < 20000 || __atomic_load_n(&c.hits, __ATOMIC_RELAXED) < 1000; round++) {
		__u8 b = (__u8)(round * 37), d = (__u8)(round * 11);
		struct key4 k16 = k4(16, 10, b, 0, 0), k24 = k4(24, 10, b, d, 0);

		if (round & 1) {
			nb_map_delete_elem(map, &k24);
			nb_map_delete_elem(map, &k16);
		} else {
			add4(map, k16, 16);
			add4(map, k24, 24);
		}
	}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
	NB_ASSERT_EQ(c.misses, 0);
	NB_ASSERT(c.hits > 0);
	nb_prog_put(c.prog);
	nb_map_put(map);
}
