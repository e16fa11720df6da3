// SPDX-License-Identifier: GPL-2.0
/* Array and per-CPU array maps: attributes, flags, iteration, programs, global data. */
#include "map_test.h"

struct bad_attr {
	const char *name;
	enum bpf_map_type type;
	__u32 key_size, value_size, max_entries, flags;
	int err;
	const char *msg;
};

static const struct bad_attr bad_attrs[] = {
	{ "array_key_size_8", BPF_MAP_TYPE_ARRAY, 8, 4, 4, 0, -EINVAL, "key_size 8" },
	{ "array_key_size_0", BPF_MAP_TYPE_ARRAY, 0, 4, 4, 0, -EINVAL, "key_size is 0" },
	{ "array_value_size_0", BPF_MAP_TYPE_ARRAY, 4, 0, 4, 0, -EINVAL, "value_size is 0" },
	{ "array_max_entries_0", BPF_MAP_TYPE_ARRAY, 4, 4, 0, 0, -EINVAL, "max_entries is 0" },
	{ "array_no_prealloc", BPF_MAP_TYPE_ARRAY, 4, 4, 4, BPF_F_NO_PREALLOC, -EINVAL,
	  "map_flags 0x1" },
	{ "array_rdonly_wronly_prog", BPF_MAP_TYPE_ARRAY, 4, 4, 4,
	  BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG, -EINVAL, "exclude" },
	{ "array_rdonly_wronly", BPF_MAP_TYPE_ARRAY, 4, 4, 4, BPF_F_RDONLY | BPF_F_WRONLY,
	  -EINVAL, "exclude" },
	{ "array_absurd_size", BPF_MAP_TYPE_ARRAY, 4, 1 << 20, 1 << 20, 0, -ENOMEM,
	  "do not fit" },
	{ "percpu_array_numa", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 4, BPF_F_NUMA_NODE, -EINVAL,
	  "NUMA" },
	{ "percpu_array_mmapable", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 4, BPF_F_MMAPABLE, -EINVAL,
	  "MMAPABLE" },
	{ "percpu_array_value_too_big", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 32769, 4, 0, -E2BIG,
	  "limit" },
	{ "array_preserve_elems", BPF_MAP_TYPE_ARRAY, 4, 4, 4, BPF_F_PRESERVE_ELEMS, -EINVAL,
	  "PRESERVE" },
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

static void __attribute__((constructor)) register_bad_attrs(void)
{
	static char names[ARRAY_SIZE(bad_attrs)][64];

	for (size_t i = 0; i < ARRAY_SIZE(bad_attrs); i++) {
		snprintf(names[i], sizeof(names[i]), "map_array_attr_%s", bad_attrs[i].name);
		nb_test_register(names[i], test_bad_attr, &bad_attrs[i]);
	}
}

NB_TEST(map_array_names)
{
	struct nb_log log = { 0 };
	struct nb_map_create_opts opts = { .sz = sizeof(opts), .name = "a-b", .log = &log };
	struct nb_map *map;

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, &opts, &map), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "invalid character '-'");
	/* Long names are cut to 15 characters, as libbpf does. */
	opts.name = "a_rather_long_map_name";
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, &opts, &map), 0);
	NB_ASSERT(!strcmp(nb_map_name(map), "a_rather_long_m"));
	nb_map_put(map);
	opts.name = "m";
	opts.map_flags = BPF_F_NUMA_NODE;
	opts.numa_node = 1;
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, &opts, &map), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "NUMA node 1");
	nb_log_free(&log);
}

NB_TEST(map_array_update_flags)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 12, 4, 0);
	__u8 value[12] = { 1, 2, 3 }, out[12] = { 0xff };
	__u32 key = 2;

	/* Elements exist from the start, zeroed. */
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, out), 0);
	NB_ASSERT_EQ(out[0], 0);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, value, BPF_NOEXIST), -EEXIST);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, value, BPF_EXIST), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, out), 0);
	NB_ASSERT_MEM_EQ(out, value, sizeof(value));
	value[0] = 9;
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, value, BPF_ANY), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, out), 0);
	NB_ASSERT_EQ(out[0], 9);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, value, BPF_EXIST + 1), -EINVAL);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, value, BPF_F_LOCK), -EINVAL);
	key = 4;
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, value, BPF_ANY), -E2BIG);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, out), -ENOENT);
	key = 1;
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), -EINVAL);
	NB_ASSERT_EQ(nb_map_lookup_and_delete_elem(map, &key, out), -EOPNOTSUPP);
	nb_map_put(map);
}

NB_TEST(map_array_get_next_key)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 3, 0);
	__u32 key, next = 77;

	NB_ASSERT_EQ(nb_map_get_next_key(map, NULL, &next), 0);
	NB_ASSERT_EQ(next, 0);
	key = 0;
	NB_ASSERT_EQ(nb_map_get_next_key(map, &key, &next), 0);
	NB_ASSERT_EQ(next, 1);
	key = 1;
	NB_ASSERT_EQ(nb_map_get_next_key(map, &key, &next), 0);
	NB_ASSERT_EQ(next, 2);
	key = 2;
	NB_ASSERT_EQ(nb_map_get_next_key(map, &key, &next), -ENOENT);
	key = 1000;	/* out of range restarts at 0 */
	NB_ASSERT_EQ(nb_map_get_next_key(map, &key, &next), 0);
	NB_ASSERT_EQ(next, 0);
	nb_map_put(map);
}

NB_TEST(map_array_access_flags)
{
	struct nb_map *ro = mt_map(BPF_MAP_TYPE_ARRAY, 4, 4, 2, BPF_F_RDONLY);
	struct nb_map *wo = mt_map(BPF_MAP_TYPE_ARRAY, 4, 4, 2, BPF_F_WRONLY);
	struct nb_map *prog_ro = mt_map(BPF_MAP_TYPE_ARRAY, 4, 4, 2, BPF_F_RDONLY_PROG);
	__u32 key = 0, value = 5, next;

	NB_ASSERT_EQ(nb_map_update_elem(ro, &key, &value, 0), -EPERM);
	NB_ASSERT_EQ(nb_map_lookup_elem(ro, &key, &value), 0);
	NB_ASSERT_EQ(nb_map_update_elem(wo, &key, &value, 0), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(wo, &key, &value), -EPERM);
	NB_ASSERT_EQ(nb_map_get_next_key(wo, NULL, &next), -EPERM);
	/* Program-side flags are recorded for the verifier; userspace may still write. */
	NB_ASSERT_EQ(nb_map_flags(prog_ro), BPF_F_RDONLY_PROG);
	NB_ASSERT_EQ(nb_map_update_elem(prog_ro, &key, &value, 0), 0);
	nb_map_put(ro);
	nb_map_put(wo);
	nb_map_put(prog_ro);
}

/* r0 = map[key] (u64) + 1 after an atomic add by the program; -1 when out of range. */
static __u64 prog_lookup_add(struct nb_map *map, __u32 key)
{
	return MT_RUN(NULL,
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, key),
		MT_STACK_PTR(BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),
		NB_MOV64_IMM(BPF_REG_0, -1),
		NB_EXIT(),
		NB_MOV64_IMM(BPF_REG_1, 1),
		NB_ATOMIC_OP(BPF_DW, BPF_ADD, BPF_REG_0, BPF_REG_1, 0),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		NB_EXIT());
}

NB_TEST(map_array_prog_lookup)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	__u64 value = 41;
	__u32 key = 3;

	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &value, 0), 0);
	NB_ASSERT_EQ(prog_lookup_add(map, 3), 42);
	NB_ASSERT_EQ(prog_lookup_add(map, 3), 43);
	NB_ASSERT_EQ(prog_lookup_add(map, 0), 1);
	NB_ASSERT_EQ(prog_lookup_add(map, 4), (__u64)-1);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &value), 0);
	NB_ASSERT_EQ(value, 43);
	nb_map_put(map);
}

NB_TEST(map_array_prog_update)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	__u64 value;
	__u32 key = 1;

	/* update(map, &1, &0x1234, flags): r0 is the helper's return. */
#define UPDATE(k, flags)                                                                    \
	MT_RUN(NULL, NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),                              \
	       NB_ST_MEM(BPF_W, BPF_REG_10, -4, k), MT_STACK_PTR(BPF_REG_2, -4),           \
	       NB_ST_MEM(BPF_DW, BPF_REG_10, -16, 0x1234), MT_STACK_PTR(BPF_REG_3, -16),   \
	       NB_MOV64_IMM(BPF_REG_4, flags), NB_CALL_HELPER(BPF_FUNC_map_update_elem),   \
	       NB_EXIT())
	NB_ASSERT_EQ(UPDATE(1, BPF_ANY), 0);
	NB_ASSERT_EQ(UPDATE(1, BPF_NOEXIST), (__u64)-EEXIST);
	NB_ASSERT_EQ(UPDATE(9, BPF_ANY), (__u64)-E2BIG);
	NB_ASSERT_EQ(UPDATE(1, 7), (__u64)-EINVAL);
#undef UPDATE
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &value), 0);
	NB_ASSERT_EQ(value, 0x1234);
	nb_map_put(map);
}

NB_TEST(map_percpu_array_values)
{
	struct nb_map *map;
	__u32 values[4 * 2] = { 0 }, key = 1;

	NB_ASSERT_EQ(nb_set_nr_cpus(4), 0);
	map = mt_map(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 2, 0);
	NB_ASSERT_EQ(nb_set_nr_cpus(8), -EBUSY);
	NB_ASSERT_EQ(nb_map_user_value_size(map), 4 * 8);
	/* Userspace values: one per CPU, each in an 8-byte slot. */
	for (int cpu = 0; cpu < 4; cpu++)
		values[cpu * 2] = 100 + cpu;
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, values, 0), 0);
	NB_ASSERT_EQ(nb_set_this_cpu(2), 0);
	NB_ASSERT_EQ(prog_lookup_add(map, 1) & 0xffffffff, 103);
	memset(values, 0xff, sizeof(values));
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, values), 0);
	NB_ASSERT_EQ(values[0], 100);
	NB_ASSERT_EQ(values[1], 0);	/* padding as written: 0 */
	NB_ASSERT_EQ(values[2], 101);
	NB_ASSERT_EQ(values[4], 103);
	NB_ASSERT_EQ(values[6], 103);
	NB_ASSERT_EQ(nb_set_this_cpu(4), -EINVAL);
	nb_map_put(map);
}

NB_TEST(map_array_direct_value)
{
	struct nb_map *data = mt_map(BPF_MAP_TYPE_ARRAY, 4, 16, 1, 0);
	struct nb_map *two = mt_map(BPF_MAP_TYPE_ARRAY, 4, 16, 2, 0);
	__u64 value[2] = { 5, 7 };
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .flags = MT_LOAD_FLAGS, .log = &log };
	struct bpf_insn bad[] = {
		NB_INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_VALUE, 0,
			(int)nb_map_id(two)),
		NB_INSN(0, 0, 0, 0, 0),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_EXIT(),
	};
	struct nb_prog *prog;
	__u32 key = 0;

	NB_ASSERT_EQ(nb_map_update_elem(data, &key, value, 0), 0);
	/* .data-style access: the second u64, then a store through the same address. */
	NB_ASSERT_EQ(MT_RUN(NULL,
		NB_INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_VALUE, 0,
			(int)nb_map_id(data)),
		NB_INSN(0, 0, 0, 0, 8),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0),
		NB_ST_MEM(BPF_DW, BPF_REG_1, 0, 99),
		NB_EXIT()), 7);
	NB_ASSERT_EQ(nb_map_lookup_elem(data, &key, value), 0);
	NB_ASSERT_EQ(value[1], 99);
	NB_ASSERT(nb_prog_load(BPF_PROG_TYPE_SYSCALL, bad, ARRAY_SIZE(bad), &opts, &prog) < 0);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "no direct value access");
	nb_log_free(&log);
	nb_map_put(data);
	nb_map_put(two);
}

/* for_each_map_elem over an array: the callback sums values, stops when it sees 30. */
NB_TEST(map_array_for_each)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 5, 0);
	__u64 v;

	for (__u32 k = 0; k < 5; k++) {
		v = (k + 1) * 10;
		NB_ASSERT_EQ(nb_map_update_elem(map, &k, &v, 0), 0);
	}
	/*
	 * main: ctx[-8] = 0; r0 = for_each(map, cb, &ctx, 0); return r0 << 32 | ctx
	 * cb(map, key, value, ctx): *ctx += *value; return *value == 30
	 */
	NB_ASSERT_EQ(MT_RUN(NULL,
		NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 0),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		MT_LD_FUNC(BPF_REG_2, 9),
		MT_STACK_PTR(BPF_REG_3, -8),
		NB_MOV64_IMM(BPF_REG_4, 0),
		NB_CALL_HELPER(BPF_FUNC_for_each_map_elem),
		NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 32),
		NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8),
		NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_1),
		NB_EXIT(),
		/* callback */
		NB_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_3, 0),
		NB_LDX_MEM(BPF_DW, BPF_REG_5, BPF_REG_4, 0),
		NB_ALU64_REG(BPF_ADD, BPF_REG_5, BPF_REG_3),
		NB_STX_MEM(BPF_DW, BPF_REG_4, BPF_REG_5, 0),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_JMP_IMM(BPF_JNE, BPF_REG_3, 30, 1),
		NB_MOV64_IMM(BPF_REG_0, 1),
		NB_EXIT()), (3ULL << 32) | 60);
	nb_map_put(map);
}

/* BPF_MAP_FREEZE: userspace writes stop, reads and program writes go on. */
NB_TEST(map_array_freeze)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 2, 0);
	__u64 value = 1;
	__u32 key = 0;

	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &value, 0), 0);
	NB_ASSERT_EQ(nb_map_freeze(map), 0);
	NB_ASSERT_EQ(nb_map_freeze(map), -EPERM);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &value, 0), -EPERM);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), -EPERM);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &value), 0);
	NB_ASSERT_EQ(prog_lookup_add(map, 0), 2);
	nb_map_put(map);
}

/* A lookup-and-count program through the verifier (null check, atomic add on the value). */
NB_TEST(map_array_prog_verified)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	const struct bpf_insn insns[] = {
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, 2),
		MT_STACK_PTR(BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),
		NB_MOV64_IMM(BPF_REG_0, -1),
		NB_EXIT(),
		NB_MOV64_IMM(BPF_REG_1, 1),
		NB_ATOMIC_OP(BPF_DW, BPF_ADD, BPF_REG_0, BPF_REG_1, 0),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = &log };
	struct nb_prog *prog;
	__u32 key = 2;
	__u64 value;

	if (nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, ARRAY_SIZE(insns), &opts, &prog))
		NB_FAIL("the verifier refuses the program: %s", nb_log_text(&log));
	NB_ASSERT_EQ(nb_prog_run(prog, NULL), 1);
	NB_ASSERT_EQ(nb_prog_run(prog, NULL), 2);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &value), 0);
	NB_ASSERT_EQ(value, 2);
	nb_prog_put(prog);
	nb_map_put(map);
	nb_log_free(&log);
}
