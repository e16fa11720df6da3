// SPDX-License-Identifier: GPL-2.0
/*
 * may_goto's loop budget on both engines: NB_MAX_LOOPS fall-throughs per function call, whole
 * again at the next run, in each call of a subprogram (the caller's kept for it), and in a
 * tail call's target, on every mix of engines.
 */
#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "bpf/map.h"
#include "bpf/prog.h"
#include "bpf_asm.h"
#include "test.h"

#define R0 BPF_REG_0
#define R1 BPF_REG_1
#define R2 BPF_REG_2
#define R3 BPF_REG_3
#define R6 BPF_REG_6

#define ARRAY_CNT(a) (sizeof(a) / sizeof((a)[0]))

static struct nb_prog *load(const struct bpf_insn *insns, unsigned int cnt, bool jit)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .log = &log,
		.flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY | (jit ? 0 : NB_PROG_LOAD_INTERP),
	};
	struct nb_prog *p;

	if (nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, cnt, &opts, &p))
		NB_FAIL("load: %s", nb_log_text(&log));
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_prog_is_jited(p), jit);
	return p;
}

static void skip_without_jit(void)
{
#ifndef __x86_64__
	nb_test_skip("no JIT on this architecture");
#endif
}

/* r0 = the turns of a loop only may_goto ends. */
#define COUNT_TURNS(r)                                                                      \
	NB_MOV64_IMM(r, 0), NB_MAY_GOTO(2), NB_ALU64_IMM(BPF_ADD, r, 1), NB_JA(-3)

NB_TEST(may_goto_budget_per_run)
{
	static const struct bpf_insn prog[] = { COUNT_TURNS(R0), NB_EXIT() };

	skip_without_jit();
	for (int jit = 0; jit <= 1; jit++) {
		struct nb_prog *p = load(prog, ARRAY_CNT(prog), jit);
		__u64 ctx = 0;

		/* The second run has the whole budget again. */
		NB_ASSERT_EQ(nb_prog_run(p, &ctx), NB_MAX_LOOPS);
		NB_ASSERT_EQ(nb_prog_run(p, &ctx), NB_MAX_LOOPS);
		nb_prog_put(p);
	}
}

NB_TEST(may_goto_budget_per_function_call)
{
	/* The subprogram spends its own budget: the main function's is whole after the call. */
	static const struct bpf_insn prog[] = {
		NB_CALL_REL(7), NB_MOV64_REG(R6, R0), COUNT_TURNS(R0),
		NB_ALU64_REG(BPF_ADD, R0, R6), NB_EXIT(),
		/* the subprogram */
		COUNT_TURNS(R0), NB_EXIT(),
	};

	skip_without_jit();
	for (int jit = 0; jit <= 1; jit++) {
		struct nb_prog *p = load(prog, ARRAY_CNT(prog), jit);
		__u64 ctx = 0;

		NB_ASSERT_EQ(nb_prog_run(p, &ctx), 2 * NB_MAX_LOOPS);
		nb_prog_put(p);
	}
}

NB_TEST(may_goto_budget_whole_in_tail_call_target)
{
	static const bool engines[][2] = { /* caller JIT, target JIT */
		{ false, false }, { true, true }, { true, false }, { false, true },
	};
	static const struct bpf_insn target[] = { COUNT_TURNS(R0), NB_EXIT() };
	__u32 key = 0, id;

	skip_without_jit();
	for (size_t e = 0; e < ARRAY_CNT(engines); e++) {
		struct nb_map *arr;

		NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, NULL, &arr), 0);
		/*
		 * The caller spends its budget, then tail-calls from its main function (the
		 * target's r0 is the run's) or, when the slot is empty, returns 1.
		 */
		const struct bpf_insn caller[] = {
			NB_MOV64_REG(R6, R1), COUNT_TURNS(R0), NB_MOV64_REG(R1, R6),
			NB_LD_MAP_ID(R2, arr->id), NB_MOV64_IMM(R3, 0),
			NB_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call),
			NB_MOV64_IMM(R0, 1), NB_EXIT(),
		};
		struct nb_prog *t = load(target, ARRAY_CNT(target), engines[e][1]);
		struct nb_prog *c = load(caller, ARRAY_CNT(caller), engines[e][0]);
		__u64 ctx = 0;

		NB_ASSERT_EQ(nb_prog_run(c, &ctx), 1);
		id = nb_prog_id(t);
		NB_ASSERT_EQ(nb_map_update_elem(arr, &key, &id, BPF_ANY), 0);
		NB_ASSERT_EQ(nb_prog_run(c, &ctx), NB_MAX_LOOPS);
		nb_prog_put(c);
		nb_prog_put(t);
		nb_map_release_uref(arr);
		nb_map_put(arr);
	}
}
