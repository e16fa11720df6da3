// SPDX-License-Identifier: GPL-2.0
/* array_of_maps and hash_of_maps: templates, ids, meta checks, program lookups through both. */
#include "map_test.h"
#include "bpf/epoch.h"

static struct nb_map *outer(enum bpf_map_type type, __u32 key_size, struct nb_map *inner,
			    int *err, struct nb_log *log)
{
	struct nb_map_create_opts opts = {
		.sz = sizeof(opts), .name = "outer", .inner_map = inner, .log = log,
	};
	struct nb_map *map = NULL;

	*err = nb_map_create(type, key_size, 4, 4, &opts, &map);
	return map;
}

NB_TEST(map_in_map_templates)
{
	struct nb_map *tmpl = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0), *aom;
	struct nb_map *progs = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 0);
	struct nb_log log = { 0 };
	int err;

	NB_ASSERT(!outer(BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, NULL, &err, &log));
	NB_ASSERT_EQ(err, -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "need an inner map template");
	aom = outer(BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, tmpl, &err, &log);
	NB_ASSERT_EQ(err, 0);
	/* One level only. */
	NB_ASSERT(!outer(BPF_MAP_TYPE_HASH_OF_MAPS, 4, aom, &err, &log));
	NB_ASSERT_EQ(err, -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "one level only");
	/* A program array's owner is bound at run time: never an inner map. */
	NB_ASSERT(!outer(BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, progs, &err, &log));
	NB_ASSERT_EQ(err, -EOPNOTSUPP);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "cannot be inner maps");
	nb_map_put(aom);
	nb_map_put(tmpl);
	nb_map_put(progs);
	nb_log_free(&log);
}

/* outer[okey] -> inner[0] from a program: the inner value, or -1. */
static __u64 prog_double_lookup(struct nb_map *map, __u32 okey)
{
	return MT_RUN(NULL,
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, okey),
		MT_STACK_PTR(BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 6),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_0),
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		MT_STACK_PTR(BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),
		NB_MOV64_IMM(BPF_REG_0, -1),
		NB_EXIT(),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		NB_EXIT());
}

static void check_outer(enum bpf_map_type type)
{
	struct nb_map *tmpl = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	struct nb_map *inner = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	struct nb_map *other = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 2, 0);
	struct nb_map *map;
	__u32 key = 1, id = nb_map_id(inner), out, zero = 0;
	__u64 value = 4242;
	int err;

	map = outer(type, 4, tmpl, &err, NULL);
	NB_ASSERT_EQ(err, 0);
	NB_ASSERT_EQ(nb_map_update_elem(inner, &zero, &value, 0), 0);
	NB_ASSERT_EQ(prog_double_lookup(map, 1), (__u64)-1);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &out), 0);
	NB_ASSERT_EQ(out, id);
	NB_ASSERT_EQ(prog_double_lookup(map, 1), 4242);
	/* Another max_entries does not match the template; nor does a missing id. */
	id = nb_map_id(other);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), -EINVAL);
	id = 99999;
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), -EBADF);
	id = nb_map_id(inner);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_NOEXIST),
		     type == BPF_MAP_TYPE_HASH_OF_MAPS ? -EEXIST : -EINVAL);
	/* The outer map keeps the inner one alive. */
	nb_map_put(inner);
	NB_ASSERT_EQ(prog_double_lookup(map, 1), 4242);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), 0);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), -ENOENT);
	NB_ASSERT_EQ(prog_double_lookup(map, 1), (__u64)-1);
	nb_map_put(map);
	nb_map_put(other);
	nb_map_put(tmpl);
	nb_epoch_synchronize();
}

NB_TEST(map_array_of_maps)
{
	check_outer(BPF_MAP_TYPE_ARRAY_OF_MAPS);
}

NB_TEST(map_hash_of_maps)
{
	check_outer(BPF_MAP_TYPE_HASH_OF_MAPS);
}

/* BPF_F_INNER_MAP lets inner arrays of any size share one template. */
NB_TEST(map_in_map_inner_map_flag)
{
	struct nb_map *tmpl = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, BPF_F_INNER_MAP);
	struct nb_map *big = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 64, BPF_F_INNER_MAP);
	struct nb_map *map;
	__u32 key = 0, id = nb_map_id(big);
	int err;

	map = outer(BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, tmpl, &err, NULL);
	NB_ASSERT_EQ(err, 0);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), 0);
	nb_map_put(map);
	nb_map_put(big);
	nb_map_put(tmpl);
}
