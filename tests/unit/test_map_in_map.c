// SPDX-License-Identifier: GPL-2.0
/* array_of_maps and hash_of_maps: templates, ids, meta checks, program lookups through both. */
#include <bpf/btf.h>

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

/* A hash whose value is BTF type value_type of btf (8 or 24 bytes, by the type). */
static struct nb_map *typed_hash(const struct btf *btf, __u32 value_type)
{
	struct nb_map_create_opts opts = {
		.sz = sizeof(opts), .name = "typed", .btf = btf, .btf_value_type_id = value_type,
	};
	struct nb_map *map = NULL;

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_HASH, 4, btf__resolve_size(btf, value_type), 4,
				   &opts, &map), 0);
	return map;
}

/* Put inner into a fresh array of maps made from tmpl: 0 or the update's error. */
static int put_inner(struct nb_map *tmpl, struct nb_map *inner)
{
	__u32 key = 0, id = nb_map_id(inner);
	struct nb_map *map;
	int err;

	map = outer(BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, tmpl, &err, NULL);
	NB_ASSERT_EQ(err, 0);
	err = nb_map_update_elem(map, &key, &id, BPF_ANY);
	nb_map_put(map);
	return err;
}

/*
 * An inner map holds its bpf_spin_lock and bpf_timer where the template's value does (the
 * kernel's btf_record_equal): programs find them at the template's offsets.
 */
NB_TEST(map_in_map_inner_fields)
{
	struct btf *btf = btf__new_empty();
	int int_t, u64_t, lock, timer, lock_at4, lock_at0, plain, timer_at8, timer_at0;
	struct nb_map *tmpl, *inner;

	NB_ASSERT(btf);
	int_t = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	u64_t = btf__add_int(btf, "long long unsigned int", 8, 0);
	lock = btf__add_struct(btf, "bpf_spin_lock", 4);
	btf__add_field(btf, "val", int_t, 0, 0);
	timer = btf__add_struct(btf, "bpf_timer", 16);
	btf__add_field(btf, "a", u64_t, 0, 0);
	btf__add_field(btf, "b", u64_t, 64, 0);
	lock_at4 = btf__add_struct(btf, "lock_at4", 8);
	btf__add_field(btf, "a", int_t, 0, 0);
	btf__add_field(btf, "lock", lock, 32, 0);
	lock_at0 = btf__add_struct(btf, "lock_at0", 8);
	btf__add_field(btf, "lock", lock, 0, 0);
	btf__add_field(btf, "a", int_t, 32, 0);
	plain = btf__add_struct(btf, "plain", 8);
	btf__add_field(btf, "a", int_t, 0, 0);
	btf__add_field(btf, "b", int_t, 32, 0);
	timer_at8 = btf__add_struct(btf, "timer_at8", 24);
	btf__add_field(btf, "x", u64_t, 0, 0);
	btf__add_field(btf, "t", timer, 64, 0);
	timer_at0 = btf__add_struct(btf, "timer_at0", 24);
	btf__add_field(btf, "t", timer, 0, 0);
	btf__add_field(btf, "x", u64_t, 192, 0);
	NB_ASSERT(timer_at0 > 0);

	tmpl = typed_hash(btf, lock_at4);
	inner = typed_hash(btf, lock_at4);
	NB_ASSERT_EQ(put_inner(tmpl, inner), 0);
	nb_map_put(inner);
	inner = typed_hash(btf, lock_at0);
	NB_ASSERT_EQ(put_inner(tmpl, inner), -EINVAL);
	nb_map_put(inner);
	inner = typed_hash(btf, plain);
	NB_ASSERT_EQ(put_inner(tmpl, inner), -EINVAL);
	nb_map_put(inner);
	nb_map_put(tmpl);

	tmpl = typed_hash(btf, timer_at8);
	inner = typed_hash(btf, timer_at8);
	NB_ASSERT_EQ(put_inner(tmpl, inner), 0);
	nb_map_put(inner);
	inner = typed_hash(btf, timer_at0);
	NB_ASSERT_EQ(put_inner(tmpl, inner), -EINVAL);
	nb_map_put(inner);
	nb_map_put(tmpl);
	btf__free(btf);
}
