// SPDX-License-Identifier: GPL-2.0
/* Program arrays: ids in and out, owner type, tail calls from programs, the chain limit. */
#include <pthread.h>

#include "map_test.h"
#include "bpf/epoch.h"

static struct nb_prog *ret_prog(int value)
{
	const struct bpf_insn insns[] = { NB_MOV64_IMM(BPF_REG_0, value), NB_EXIT() };

	return mt_load(insns, ARRAY_SIZE(insns));
}

/* tail_call(ctx, map, index); return 99 when it falls through. */
static struct nb_prog *caller_prog(struct nb_map *map, __u32 index)
{
	const struct bpf_insn insns[] = {
		NB_LD_MAP_ID(BPF_REG_2, nb_map_id(map)),
		NB_MOV64_IMM(BPF_REG_3, index),
		NB_CALL_HELPER(BPF_FUNC_tail_call),
		NB_MOV64_IMM(BPF_REG_0, 99),
		NB_EXIT(),
	};

	return mt_load(insns, ARRAY_SIZE(insns));
}

NB_TEST(map_prog_array_attrs)
{
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_PROG_ARRAY, 4, 8, 4, 0, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "value_size 8, prog_array maps need 4");
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, BPF_F_RDONLY_PROG, &log),
		     -EINVAL);
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_PROG_ARRAY, 8, 4, 4, 0, &log), -EINVAL);
	nb_log_free(&log);
}

NB_TEST(map_prog_array_tail_call)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0);
	struct nb_prog *target = ret_prog(7), *caller = caller_prog(map, 0);
	struct nb_prog *far = caller_prog(map, 5);
	__u32 key = 0, id = nb_prog_id(target), out;

	NB_ASSERT_EQ(nb_prog_run(caller, NULL), 99);	/* empty slot: falls through */
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &out), -ENOENT);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_NOEXIST), -EINVAL);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &out), 0);
	NB_ASSERT_EQ(out, id);
	NB_ASSERT_EQ(nb_prog_run(caller, NULL), 7);
	NB_ASSERT_EQ(nb_prog_run(far, NULL), 99);	/* index beyond max_entries */
	key = 2;
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), -E2BIG);
	key = 1;
	id = 123456;
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), -EBADF);
	key = 0;
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), 0);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), -ENOENT);
	NB_ASSERT_EQ(nb_prog_run(caller, NULL), 99);
	nb_prog_put(caller);
	nb_prog_put(far);
	nb_prog_put(target);
	nb_map_put(map);
	nb_epoch_synchronize();
}

/* The first program fixes the type: a raw (checked) program is refused afterwards. */
NB_TEST(map_prog_array_owner_type)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0);
	const struct bpf_insn insns[] = { NB_MOV64_IMM(BPF_REG_0, 1), NB_EXIT() };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .flags = NB_PROG_LOAD_CHECKED };
	struct nb_prog *test = ret_prog(1), *raw;
	__u32 key = 0, id;

	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_UNSPEC, insns, 2, &opts, &raw), 0);
	id = nb_prog_id(test);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), 0);
	key = 1;
	id = nb_prog_id(raw);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), -EINVAL);
	nb_map_put(map);
	nb_prog_put(test);
	nb_prog_put(raw);
}

struct owner_race {
	pthread_barrier_t *go;
	struct nb_map *map;
	__u32 key, id;
	int err;
};

static void *owner_race_store(void *arg)
{
	struct owner_race *r = arg;

	pthread_barrier_wait(r->go);
	r->err = nb_map_update_elem(r->map, &r->key, &r->id, BPF_ANY);
	return NULL;
}

/*
 * Two first stores of programs of different types racing into an empty array: exactly one
 * wins, every time (were both kept, a tail call would enter the other type's program).
 */
NB_TEST(map_prog_array_owner_race)
{
	const struct bpf_insn insns[] = { NB_MOV64_IMM(BPF_REG_0, 1), NB_EXIT() };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .flags = NB_PROG_LOAD_CHECKED };
	struct nb_prog *test = ret_prog(1), *raw;
	pthread_barrier_t go;

	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_UNSPEC, insns, 2, &opts, &raw), 0);
	NB_ASSERT_EQ(pthread_barrier_init(&go, NULL, 2), 0);
	for (int round = 0; round < 2000; round++) {
		struct nb_map *map = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0);
		struct owner_race r[2] = {
			{ &go, map, 0, nb_prog_id(test), 0 },
			{ &go, map, 1, nb_prog_id(raw), 0 },
		};
		pthread_t t;

		NB_ASSERT_EQ(pthread_create(&t, NULL, owner_race_store, &r[1]), 0);
		owner_race_store(&r[0]);
		NB_ASSERT_EQ(pthread_join(t, NULL), 0);
		NB_ASSERT((r[0].err == 0) != (r[1].err == 0));
		NB_ASSERT_EQ(r[0].err + r[1].err, -EINVAL);
		nb_map_put(map);
	}
	pthread_barrier_destroy(&go);
	nb_prog_put(test);
	nb_prog_put(raw);
	nb_epoch_synchronize();
}

/*
 * A program that counts its runs in an array and tail-calls itself: the kernel allows 33 tail
 * calls, so it runs 34 times.
 */
NB_TEST(map_prog_array_chain_limit)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 1, 0);
	struct nb_map *count = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(count)),
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		MT_STACK_PTR(BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_MOV64_IMM(BPF_REG_1, 1),
		NB_ATOMIC_OP(BPF_DW, BPF_ADD, BPF_REG_0, BPF_REG_1, 0),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
		NB_LD_MAP_ID(BPF_REG_2, nb_map_id(map)),
		NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_tail_call),
		NB_MOV64_IMM(BPF_REG_0, 5),
		NB_EXIT(),
	};
	struct nb_prog *prog = mt_load(insns, ARRAY_SIZE(insns));
	__u32 key = 0, id = nb_prog_id(prog);
	__u64 runs;

	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &id, BPF_ANY), 0);
	NB_ASSERT_EQ(nb_prog_run(prog, NULL), 5);
	NB_ASSERT_EQ(nb_map_lookup_elem(count, &key, &runs), 0);
	NB_ASSERT_EQ(runs, 34);
	/* The user's reference goes: the array lets its programs go, breaking the cycle. */
	nb_map_release_uref(map);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &id), -ENOENT);
	nb_prog_put(prog);
	nb_map_put(map);
	nb_map_put(count);
	nb_epoch_synchronize();
}

/*
 * A constant index decides which program a tail call runs: the kernel keeps it for a direct
 * jump (record_func_key) and marks it precise, so paths that reach the call with different
 * indexes are not pruned into each other: here the second path goes on to the call (18
 * instructions, the kernel's count in tests/kernel/verifier_cases.c), as tailcall5.o of the
 * corpus processes the kernel's 24.
 */
NB_TEST(map_prog_array_constant_index_is_precise)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0);
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		/* Enough instructions before the join that the walk keeps a state there. */
		NB_MOV64_IMM(BPF_REG_7, 0),
		NB_MOV64_IMM(BPF_REG_8, 0),
		NB_MOV64_IMM(BPF_REG_9, 0),
		NB_CALL_HELPER(BPF_FUNC_get_prandom_u32),
		NB_MOV32_IMM(BPF_REG_3, 0),
		NB_JMP32_IMM(BPF_JEQ, BPF_REG_0, 5, 1),
		NB_MOV32_IMM(BPF_REG_3, 1),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
		NB_LD_MAP_ID(BPF_REG_2, nb_map_id(map)),
		NB_CALL_HELPER(BPF_FUNC_tail_call),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = &log };
	struct nb_prog *prog;

	if (nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns), &opts, &prog))
		NB_FAIL("load: %s", nb_log_text(&log));
	NB_ASSERT_EQ(nb_prog_verified_insns(prog), 18);
	nb_prog_put(prog);
	nb_log_free(&log);
	nb_map_put(map);
}
