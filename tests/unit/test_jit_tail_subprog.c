// SPDX-License-Identifier: GPL-2.0
/*
 * Tail calls from a subprogram on every mix of engines: the target returns to the
 * subprogram's caller, and the run keeps one count of tail calls, also when the target runs on
 * the interpreter under a JIT-compiled caller (the count lives in the caller's frame and the
 * interpreter goes on counting there).
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
#define R7 BPF_REG_7

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

NB_TEST(jit_tail_call_from_subprog)
{
	static const bool engines[][2] = { /* caller JIT, target JIT */
		{ false, false }, { true, true }, { true, false }, { false, true },
	};
	__u32 key = 0, id;

#ifndef __x86_64__
	nb_test_skip("no JIT on this architecture");
#endif
	for (size_t e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
		struct nb_map *arr;

		/* A program array takes programs of one engine: a new one per mix. */
		NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, NULL, &arr), 0);
		/* The target counts its runs in *ctx and tail-calls itself; r0 = 1000 + runs. */
		const struct bpf_insn target[] = {
			NB_MOV64_REG(R6, R1), NB_LDX_MEM(BPF_DW, R0, R6, 0),
			NB_ALU64_IMM(BPF_ADD, R0, 1), NB_STX_MEM(BPF_DW, R6, R0, 0),
			NB_MOV64_REG(R1, R6), NB_LD_MAP_ID(R2, arr->id), NB_MOV64_IMM(R3, 0),
			NB_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call),
			NB_LDX_MEM(BPF_DW, R0, R6, 0), NB_ALU64_IMM(BPF_ADD, R0, 1000), NB_EXIT(),
		};
		/*
		 * The caller's subprogram tail-calls; back in the main function with the target's
		 * r0, it tail-calls again: the run's count is spent, so that one misses.
		 */
		const struct bpf_insn caller[] = {
			NB_MOV64_REG(R6, R1), NB_CALL_REL(9), NB_MOV64_REG(R7, R0),
			NB_MOV64_REG(R1, R6), NB_LD_MAP_ID(R2, arr->id), NB_MOV64_IMM(R3, 0),
			NB_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call),
			NB_ALU64_IMM(BPF_ADD, R7, 1000000), NB_MOV64_REG(R0, R7), NB_EXIT(),
			/* the subprogram */
			NB_LD_MAP_ID(R2, arr->id), NB_MOV64_IMM(R3, 0),
			NB_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call),
			NB_MOV64_IMM(R0, 77), NB_EXIT(),
		};
		struct nb_prog *t = load(target, sizeof(target) / sizeof(target[0]),
					 engines[e][1]);
		struct nb_prog *c = load(caller, sizeof(caller) / sizeof(caller[0]),
					 engines[e][0]);
		__u64 runs = 0;

		id = nb_prog_id(t);
		NB_ASSERT_EQ(nb_map_update_elem(arr, &key, &id, BPF_ANY), 0);
		/* 33 tail calls in all: the subprogram's, then 32 of the target's own. */
		NB_ASSERT_EQ(nb_prog_run(c, &runs), 1000000 + 1000 + NB_MAX_TAIL_CALLS);
		NB_ASSERT_EQ(runs, NB_MAX_TAIL_CALLS);
		NB_ASSERT_EQ(nb_map_delete_elem(arr, &key), 0);
		/* An empty slot: the subprogram goes on. */
		runs = 0;
		NB_ASSERT_EQ(nb_prog_run(c, &runs), 1000000 + 77);
		NB_ASSERT_EQ(runs, 0);
		nb_prog_put(c);
		nb_prog_put(t);
		nb_map_release_uref(arr);
		nb_map_put(arr);
	}
}
