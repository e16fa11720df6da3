// SPDX-License-Identifier: GPL-2.0
/*
 * The JIT's frames are sized by the verified stack depth: a tail call from a program with a
 * small frame into one with a large frame and a bpf-to-bpf call below it keeps every frame's
 * bytes apart, on both engines; the frame each program makes is its own depth rounded to 16.
 */
#include <string.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "bpf/prog.h"
#include "bpf_asm.h"
#include "test.h"

/* Fill 256 bytes of stack with base + 0..31, call the subprogram, add two of our own words. */
static u32 build_deep(struct bpf_insn *p)
{
	u32 n = 0, call;

	for (s16 k = 0; k < 32; k++)
		p[n++] = NB_ST_MEM(BPF_DW, BPF_REG_10, -8 * (k + 1), k + 1);
	call = n;
	p[n++] = NB_CALL_REL(0);
	p[n++] = NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -256);
	p[n++] = NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1);
	p[n++] = NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8);
	p[n++] = NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1);
	p[n++] = NB_EXIT();
	p[call].imm = n - call - 1;
	/* The subprogram: its own 256 bytes, 1000 + 0..31; returns 1031 + 1000. */
	for (s16 k = 0; k < 32; k++)
		p[n++] = NB_ST_MEM(BPF_DW, BPF_REG_10, -8 * (k + 1), 1000 + k);
	p[n++] = NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -256);
	p[n++] = NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8);
	p[n++] = NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1);
	p[n++] = NB_EXIT();
	return n;
}

static struct nb_prog *load(const struct bpf_insn *insns, u32 cnt, bool interp)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = &log,
		.flags = interp ? NB_PROG_LOAD_INTERP : 0,
	};
	struct nb_prog *prog;

	if (nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, cnt, &opts, &prog))
		NB_FAIL("the verifier refuses the program: %s", nb_log_text(&log));
	nb_log_free(&log);
	return prog;
}

/* The frame prog's main function makes, also after a tail call: the imm32 of its sub rsp. */
static u32 tail_frame(const struct nb_prog *prog)
{
	const u8 *code = (const u8 *)prog->jit_image + prog->jit_insn_offs[0] - 7;
	u32 imm;

	NB_ASSERT(code);
	NB_ASSERT(code[0] == 0x48 && code[1] == 0x81 && code[2] == 0xec);
	memcpy(&imm, code + 3, 4);
	return imm;
}

NB_TEST(jit_frames_tail_call_depths)
{
	struct bpf_insn deep[128];
	u32 deep_n = build_deep(deep), key = 0, id;

	for (int e = 0; e < 2; e++) { /* 0: interpreter, 1: JIT */
		struct nb_map *arr;
		struct nb_prog *target, *caller;

		NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 1, NULL, &arr), 0);
		{
			struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_2, nb_map_id(arr)) };
			/* 8 bytes of stack, tail call slot 0; on a miss return them. */
			const struct bpf_insn small[] = {
				NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 5),
				ld[0], ld[1],
				NB_MOV64_IMM(BPF_REG_3, 0),
				NB_CALL_HELPER(BPF_FUNC_tail_call),
				NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -8),
				NB_EXIT(),
			};

			caller = load(small, ARRAY_SIZE(small), !e);
		}
		target = load(deep, deep_n, !e);
		NB_ASSERT_EQ(nb_prog_is_jited(caller), e);
		NB_ASSERT_EQ(nb_prog_is_jited(target), e);
		/* Both engines: the target alone, the miss, then the chain. */
		NB_ASSERT_EQ(nb_prog_run(target, NULL), 2031 + 32 + 1);
		NB_ASSERT_EQ(nb_prog_run(caller, NULL), 5);
		id = nb_prog_id(target);
		NB_ASSERT_EQ(nb_map_update_elem(arr, &key, &id, BPF_ANY), 0);
		NB_ASSERT_EQ(nb_prog_run(caller, NULL), 2031 + 32 + 1);
		if (e) {
			/* 8 bytes round up to 16; the target's main function has 256. */
			NB_ASSERT_EQ(tail_frame(caller), 16);
			NB_ASSERT_EQ(tail_frame(target), 256);
		}
		nb_map_release_uref(arr);
		nb_map_put(arr);
		nb_prog_put(caller);
		nb_prog_put(target);
	}
}

#ifdef __x86_64__
/*
 * Call a JIT-compiled program with known values in the SysV callee-saved registers it must
 * keep (rbp aside: the compiler's frame pointer); nonzero when one of them changed. The call
 * skips the red zone and keeps rsp's alignment.
 */
static __attribute__((noinline)) int clobbers_callee_saved(nb_jited_fn fn, u64 *r0)
{
	register u64 rbx asm("rbx") = 0x0b0b0b0b0b0b0b0bULL;
	register u64 r12 asm("r12") = 0x1212121212121212ULL;
	register u64 r13 asm("r13") = 0x1313131313131313ULL;
	register u64 r14 asm("r14") = 0x1414141414141414ULL;
	register u64 r15 asm("r15") = 0x1515151515151515ULL;
	register u64 rdi asm("rdi") = 0, rsi asm("rsi") = 0;
	u64 ret;

	asm volatile("sub $128, %%rsp\n\tcall *%[fn]\n\tadd $128, %%rsp"
		     : "=a"(ret), "+r"(rbx), "+r"(r12), "+r"(r13), "+r"(r14), "+r"(r15),
		       "+r"(rdi), "+r"(rsi)
		     : [fn] "r"(fn)
		     : "rcx", "rdx", "r8", "r9", "r10", "r11", "memory", "cc");
	*r0 = ret;
	return rbx != 0x0b0b0b0b0b0b0b0bULL || r12 != 0x1212121212121212ULL ||
	       r13 != 0x1313131313131313ULL || r14 != 0x1414141414141414ULL ||
	       r15 != 0x1515151515151515ULL;
}
#endif

/*
 * Each program saves only the callee-saved registers it uses (r6..r9 in rbx, r13..r15): a
 * chain between a program using none and one using all four leaves the caller's registers as
 * they were, whichever way the tail call goes.
 */
NB_TEST(jit_frames_callee_saved)
{
#ifdef __x86_64__
	struct nb_map *arr;
	struct nb_prog *light, *heavy;
	u32 key = 0, id;
	u64 r0;

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 1, NULL, &arr), 0);
	{
		struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_2, nb_map_id(arr)) };
		/* Uses r6..r9, tail calls slot 0, else returns r6 + r7 + r8 + r9. */
		const struct bpf_insn heavy_insns[] = {
			NB_MOV64_IMM(BPF_REG_6, 1000), NB_MOV64_IMM(BPF_REG_7, 100),
			NB_MOV64_IMM(BPF_REG_8, 20), NB_MOV64_IMM(BPF_REG_9, 3),
			ld[0], ld[1], NB_MOV64_IMM(BPF_REG_3, 0),
			NB_CALL_HELPER(BPF_FUNC_tail_call),
			NB_MOV64_REG(BPF_REG_0, BPF_REG_6),
			NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_7),
			NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_8),
			NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_9),
			NB_EXIT(),
		};
		/* Uses none of them, tail calls slot 0, else returns 7. */
		const struct bpf_insn light_insns[] = {
			ld[0], ld[1], NB_MOV64_IMM(BPF_REG_3, 0),
			NB_CALL_HELPER(BPF_FUNC_tail_call),
			NB_MOV64_IMM(BPF_REG_0, 7),
			NB_EXIT(),
		};

		heavy = load(heavy_insns, ARRAY_SIZE(heavy_insns), false);
		light = load(light_insns, ARRAY_SIZE(light_insns), false);
	}
	if (!heavy->jited || !light->jited)
		nb_test_skip("no JIT on this architecture");
	/* Misses first, then light -> heavy (heavy misses: its slot holds heavy itself). */
	NB_ASSERT_EQ(clobbers_callee_saved(heavy->jited, &r0), 0);
	NB_ASSERT_EQ(r0, 1123);
	NB_ASSERT_EQ(clobbers_callee_saved(light->jited, &r0), 0);
	NB_ASSERT_EQ(r0, 7);
	id = nb_prog_id(heavy);
	NB_ASSERT_EQ(nb_map_update_elem(arr, &key, &id, BPF_ANY), 0);
	/* light -> heavy -> heavy ... until the limit, then heavy returns 1123. */
	NB_ASSERT_EQ(clobbers_callee_saved(light->jited, &r0), 0);
	NB_ASSERT_EQ(r0, 1123);
	id = nb_prog_id(light);
	NB_ASSERT_EQ(nb_map_update_elem(arr, &key, &id, BPF_ANY), 0);
	/* heavy -> light -> light ... then light returns 7. */
	NB_ASSERT_EQ(clobbers_callee_saved(heavy->jited, &r0), 0);
	NB_ASSERT_EQ(r0, 7);
	nb_map_release_uref(arr);
	nb_map_put(arr);
	nb_prog_put(light);
	nb_prog_put(heavy);
#else
	nb_test_skip("the JIT is x86-64 only");
#endif
}
