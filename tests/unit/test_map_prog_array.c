// SPDX-License-Identifier: GPL-2.0
/*
 * Program arrays: ids in and out, the owner (set by a store or by a program loading with the
 * array), tail calls from programs, the chain limit.
 */
#include <pthread.h>

#include "map_test.h"
#include "elf_util.h"
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
 * Load "tail_call(ctx, map, 0); return 99" as type with flags (unverified) and attach type: 0
 * or the error, the log in *log.
 */
static int load_user(struct nb_map *map, enum bpf_prog_type type, unsigned int flags,
		     enum bpf_attach_type attach, struct nb_log *log, struct nb_prog **progp)
{
	const struct bpf_insn insns[] = {
		NB_LD_MAP_ID(BPF_REG_2, nb_map_id(map)),
		NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_tail_call),
		NB_MOV64_IMM(BPF_REG_0, 99),
		NB_EXIT(),
	};
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .name = "user", .license = "GPL", .log = log,
		.flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY | flags, .expected_attach_type = attach,
	};

	return nb_prog_load(type, insns, ARRAY_SIZE(insns), &opts, progp);
}

/* "return value" as type with flags (unverified, interpreted) and attach type. */
static struct nb_prog *load_target(enum bpf_prog_type type, unsigned int flags,
				   enum bpf_attach_type attach, int value)
{
	const struct bpf_insn insns[] = { NB_MOV64_IMM(BPF_REG_0, value), NB_EXIT() };
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = &log, .expected_attach_type = attach,
		.flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY | NB_PROG_LOAD_INTERP | flags,
	};
	struct nb_prog *prog;

	if (nb_prog_load(type, insns, ARRAY_SIZE(insns), &opts, &prog))
		NB_FAIL("load: %s", nb_log_text(&log));
	nb_log_free(&log);
	return prog;
}

static int store(struct nb_map *map, __u32 key, const struct nb_prog *prog)
{
	__u32 id = nb_prog_id(prog);

	return nb_map_update_elem(map, &key, &id, BPF_ANY);
}

/*
 * A program of another type than the array's programs cannot load using it (the kernel's
 * bpf_check_tail_call): -EINVAL, a log naming the program, the map and both kinds, nothing
 * left allocated. One of the same type loads, and its tail call runs the array's program.
 */
NB_TEST(map_prog_array_owner_checked_at_load)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0);
	struct nb_prog *target = ret_prog(7), *prog = (void *)1;
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(store(map, 0, target), 0);
	NB_ASSERT_EQ(load_user(map, BPF_PROG_TYPE_SOCKET_FILTER, NB_PROG_LOAD_INTERP, 0, &log,
			       &prog), -EINVAL);
	NB_ASSERT(prog == NULL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "program user (socket_filter, not JIT-compiled) "
			       "cannot use prog_array map m (id ");
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "whose programs are syscall, not JIT-compiled");
	nb_log_free(&log);
	/* the same type loads, on either engine, and tail-calls into the target */
	for (int jit = 0; jit < 2; jit++) {
		NB_ASSERT_EQ(load_user(map, BPF_PROG_TYPE_SYSCALL, jit ? 0 : NB_PROG_LOAD_INTERP, 0,
				       &log, &prog), 0);
		NB_ASSERT_EQ(nb_prog_run(prog, NULL), 7);
		nb_prog_put(prog);
	}
	nb_log_free(&log);
	nb_map_release_uref(map);
	nb_map_put(map);
	nb_prog_put(target);
	nb_epoch_synchronize();
}

/*
 * Loading claims an empty array: a store of another type is refused afterwards, as is a
 * program of another type loading with it; one of the loader's type goes in and runs.
 */
NB_TEST(map_prog_array_owner_claimed_at_load)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0);
	struct nb_prog *user, *other, *same = load_target(BPF_PROG_TYPE_SOCKET_FILTER, 0, 0, 5);
	struct nb_prog *syscall = ret_prog(7);
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(load_user(map, BPF_PROG_TYPE_SOCKET_FILTER, 0, 0, &log, &user), 0);
	NB_ASSERT_EQ(store(map, 0, syscall), -EINVAL);
	NB_ASSERT_EQ(load_user(map, BPF_PROG_TYPE_SYSCALL, 0, 0, &log, &other), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "whose programs are socket_filter, any engine");
	NB_ASSERT_EQ(nb_prog_run(user, NULL), 99);
	NB_ASSERT_EQ(store(map, 0, same), 0);
	NB_ASSERT_EQ(nb_prog_run(user, NULL), 5);
	nb_log_free(&log);
	nb_map_release_uref(map);
	nb_map_put(map);
	nb_prog_put(user);
	nb_prog_put(same);
	nb_prog_put(syscall);
	nb_epoch_synchronize();
}

/*
 * The kernel's owner also holds xdp_has_frags and, for program arrays, the expected attach
 * type: an XDP program without frags and attach type claims the array, one with either is
 * refused at load and at store.
 */
NB_TEST(map_prog_array_owner_frags_and_attach_type)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0);
	struct nb_prog *user, *other;
	struct nb_prog *frags = load_target(BPF_PROG_TYPE_XDP, NB_PROG_LOAD_XDP_HAS_FRAGS, 0, 1);
	struct nb_prog *devmap = load_target(BPF_PROG_TYPE_XDP, 0, BPF_XDP_DEVMAP, 2);
	struct nb_prog *plain = load_target(BPF_PROG_TYPE_XDP, 0, 0, 3);
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(load_user(map, BPF_PROG_TYPE_XDP, 0, 0, &log, &user), 0);
	NB_ASSERT_EQ(load_user(map, BPF_PROG_TYPE_XDP, NB_PROG_LOAD_XDP_HAS_FRAGS, 0, &log,
			       &other), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "(xdp, JIT-compiled, with frags) cannot use");
	NB_ASSERT_EQ(load_user(map, BPF_PROG_TYPE_XDP, 0, BPF_XDP, &log, &other), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "expected attach type xdp) cannot use");
	NB_ASSERT_EQ(store(map, 0, frags), -EINVAL);
	NB_ASSERT_EQ(store(map, 0, devmap), -EINVAL);
	NB_ASSERT_EQ(store(map, 0, plain), 0);
	NB_ASSERT_EQ(nb_prog_run(user, NULL), 3);
	nb_log_free(&log);
	nb_map_release_uref(map);
	nb_map_put(map);
	nb_prog_put(user);
	nb_prog_put(frags);
	nb_prog_put(devmap);
	nb_prog_put(plain);
	nb_epoch_synchronize();
}

/*
 * netbpf's engines tail-call into each other, so a program using the array leaves the engine
 * open; the first store fixes it for the programs stored after it, as in the kernel. The owner
 * shown (bpftool's owner_prog_type and owner_jited) is the first claimer's, then the store's.
 */
NB_TEST(map_prog_array_owner_engine_fixed_by_store)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0);
	struct nb_prog *interp = ret_prog(4), *jited, *user;
	enum bpf_prog_type type;
	struct nb_log log = { 0 };
	bool owner_jited;

	NB_ASSERT_EQ(nb_map_owner(map, &type, &owner_jited), -ENOENT);
	NB_ASSERT_EQ(load_user(map, BPF_PROG_TYPE_SYSCALL, 0, 0, &log, &user), 0);
	if (!nb_prog_is_jited(user))
		nb_test_skip("no JIT here");
	NB_ASSERT_EQ(nb_map_owner(map, &type, &owner_jited), 0);
	NB_ASSERT_EQ(type, BPF_PROG_TYPE_SYSCALL);
	NB_ASSERT(owner_jited);
	NB_ASSERT_EQ(load_user(map, BPF_PROG_TYPE_SYSCALL, 0, 0, &log, &jited), 0);
	NB_ASSERT_EQ(store(map, 0, interp), 0);
	NB_ASSERT_EQ(nb_map_owner(map, &type, &owner_jited), 0);
	NB_ASSERT(!owner_jited);
	NB_ASSERT_EQ(store(map, 1, jited), -EINVAL);
	NB_ASSERT_EQ(nb_prog_run(user, NULL), 4);
	nb_log_free(&log);
	nb_map_release_uref(map);
	nb_map_put(map);
	nb_prog_put(user);
	nb_prog_put(jited);
	nb_prog_put(interp);
	nb_epoch_synchronize();
}

/*
 * Through the object loader: an object's program that would use a pinned array another
 * object's programs of another type own fails to load, and the log names the file, the
 * program, its section and the map.
 */
NB_TEST(map_prog_array_owner_object_load)
{
	struct nb_object *a = elf_test_open("elf_self_tail.o");
	struct nb_object *b = elf_test_open("elf_self_tail.o");
	struct nb_log log = { 0 };
	struct nb_object_load_opts opts = {
		.sz = sizeof(opts),
		.prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
		.prog_flags = NB_PROG_LOAD_INTERP | NB_PROG_LOAD_UNSAFE_NO_VERIFY,
		.log = &log,
	};

	elf_test_load(a);	/* BPF_PROG_TYPE_SYSCALL: the pinned array is theirs */
	NB_ASSERT_EQ(nb_object_load(b, &opts), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "program again_pinned (socket_filter, not "
			       "JIT-compiled) cannot use prog_array map self_jmp_pinned");
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "elf_self_tail.o: program again_pinned "
			       "(section socket): load failed: Invalid argument");
	nb_log_free(&log);
	nb_object_close(b);
	nb_object_close(a);
	NB_ASSERT_EQ(nb_unpin("tc/globals/self_jmp_pinned"), 0);
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
