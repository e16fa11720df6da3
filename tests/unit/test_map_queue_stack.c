// SPDX-License-Identifier: GPL-2.0
/* Queue and stack maps: order, overwrite with BPF_EXIST, errors, program push/pop/peek. */
#include "map_test.h"

NB_TEST(map_queue_stack_attrs)
{
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_QUEUE, 4, 4, 4, 0, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "key_size must be 0");
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_STACK, 0, 0, 4, 0, &log), -EINVAL);
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_STACK, 0, 4, 0, 0, &log), -EINVAL);
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_QUEUE, 0, 4, 4, BPF_F_NO_PREALLOC, &log), -EINVAL);
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_QUEUE, 0, (1 << 22) + 1, 4, 0, &log), -E2BIG);
	nb_log_free(&log);
}

static void check_order(enum bpf_map_type type, const __u32 *expect)
{
	struct nb_map *map = mt_map(type, 0, 4, 3, 0);
	__u32 v, next;

	for (v = 1; v <= 3; v++)
		NB_ASSERT_EQ(nb_map_update_elem(map, NULL, &v, BPF_ANY), 0);
	v = 4;
	NB_ASSERT_EQ(nb_map_update_elem(map, NULL, &v, BPF_ANY), -E2BIG);
	NB_ASSERT_EQ(nb_map_update_elem(map, NULL, &v, BPF_NOEXIST), -EINVAL);
	/* BPF_EXIST on a full map drops the oldest value. */
	NB_ASSERT_EQ(nb_map_update_elem(map, NULL, &v, BPF_EXIST), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, NULL, &v), 0);	/* peek */
	NB_ASSERT_EQ(v, expect[0]);
	for (int i = 0; i < 3; i++) {
		NB_ASSERT_EQ(nb_map_lookup_and_delete_elem(map, NULL, &v), 0);	/* pop */
		NB_ASSERT_EQ(v, expect[i]);
	}
	v = 55;
	NB_ASSERT_EQ(nb_map_lookup_and_delete_elem(map, NULL, &v), -ENOENT);
	NB_ASSERT_EQ(v, 0);	/* the kernel zeroes the value of a failed pop */
	NB_ASSERT_EQ(nb_map_lookup_elem(map, NULL, &v), -ENOENT);
	NB_ASSERT_EQ(nb_map_delete_elem(map, NULL), -EINVAL);
	NB_ASSERT_EQ(nb_map_get_next_key(map, NULL, &next), -EINVAL);
	nb_map_put(map);
}

NB_TEST(map_queue_order)
{
	static const __u32 fifo[] = { 2, 3, 4 };

	check_order(BPF_MAP_TYPE_QUEUE, fifo);
}

NB_TEST(map_stack_order)
{
	static const __u32 lifo[] = { 4, 3, 2 };

	check_order(BPF_MAP_TYPE_STACK, lifo);
}

/* Many pushes and pops around the ring's end keep FIFO order. */
NB_TEST(map_queue_wraps)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_QUEUE, 0, 8, 5, 0);
	__u64 in = 0, out = 0, v;

	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < 3; i++, in++)
			NB_ASSERT_EQ(nb_map_update_elem(map, NULL, &in, 0), 0);
		for (int i = 0; i < 3; i++, out++) {
			NB_ASSERT_EQ(nb_map_lookup_and_delete_elem(map, NULL, &v), 0);
			NB_ASSERT_EQ(v, out);
		}
	}
	nb_map_put(map);
}

/* push(v), push(v+1), peek, pop from a program: r0 = peeked * 1000 + popped. */
static __u64 prog_push_peek_pop(struct nb_map *map)
{
	return MT_RUN(NULL,
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 7),
		MT_STACK_PTR(BPF_REG_2, -8),
		NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_map_push_elem),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 8),
		MT_STACK_PTR(BPF_REG_2, -8),
		NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_map_push_elem),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		MT_STACK_PTR(BPF_REG_2, -16),
		NB_CALL_HELPER(BPF_FUNC_map_peek_elem),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		MT_STACK_PTR(BPF_REG_2, -24),
		NB_CALL_HELPER(BPF_FUNC_map_pop_elem),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -16),
		NB_ALU64_IMM(BPF_MUL, BPF_REG_0, 1000),
		NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -24),
		NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1),
		NB_EXIT());
}

NB_TEST(map_queue_stack_prog)
{
	struct nb_map *queue = mt_map(BPF_MAP_TYPE_QUEUE, 0, 8, 4, 0);
	struct nb_map *stack = mt_map(BPF_MAP_TYPE_STACK, 0, 8, 4, 0);
	__u64 v;

	NB_ASSERT_EQ(prog_push_peek_pop(queue), 7007);
	NB_ASSERT_EQ(prog_push_peek_pop(stack), 8008);
	NB_ASSERT_EQ(nb_map_lookup_and_delete_elem(queue, NULL, &v), 0);
	NB_ASSERT_EQ(v, 8);
	NB_ASSERT_EQ(nb_map_lookup_and_delete_elem(stack, NULL, &v), 0);
	NB_ASSERT_EQ(v, 7);
	/* A program's pop of an empty map returns -ENOENT. */
	NB_ASSERT_EQ(MT_RUN(NULL, NB_LD_MAP_ID(BPF_REG_1, nb_map_id(queue)),
			    MT_STACK_PTR(BPF_REG_2, -8), NB_CALL_HELPER(BPF_FUNC_map_pop_elem),
			    NB_EXIT()), (__u64)-ENOENT);
	nb_map_put(queue);
	nb_map_put(stack);
}
