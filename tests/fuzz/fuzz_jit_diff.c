// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the JIT against the interpreter. The first byte chooses the input's use:
 *
 *   even  a seed for the program generator (tests/runner/bpf_gen.c), the rest is the memory
 *         block and the packet: checked and unchecked engine pairs must agree
 *   odd   raw instructions (8 bytes each) after a 64-byte memory block: the checked JIT and the
 *         checked interpreter must agree on r0, memory and the fault report. Programs with a
 *         backward jump are skipped (each could spend the whole instruction budget), and so
 *         are those using r10 other than as a base address: the engines' stacks lie at
 *         different addresses.
 *
 * Any difference aborts, so libFuzzer keeps the input. make fuzz runs it long, make check
 * briefly (tests/cli/fuzz_jit_diff.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_gen.h"
#include "jit_diff.h"

/* One binary per target: the shared test sources come in whole. */
#include "bpf_gen.c"
#include "jit_diff.c"

#define RAW_MEM 64
#define GEN_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool has_backward_jump(const struct bpf_insn *insns, u32 cnt)
{
	for (u32 i = 0; i < cnt; i++)
		if ((insn_is_ja(&insns[i]) || insn_is_cond_jmp(&insns[i])) &&
		    insn_jmp_off(&insns[i]) < 0)
			return true;
	return false;
}

static bool uses_frame_address(const struct bpf_insn *insns, u32 cnt)
{
	for (u32 i = 0; i < cnt; i++) {
		u8 cls = insn_class(&insns[i]);

		if (insn_is_ldimm64(&insns[i])) {
			i++;
			continue;
		}
		if (insns[i].src_reg == BPF_REG_10 && cls != BPF_LDX)
			return true;
		if (insns[i].dst_reg == BPF_REG_10 && cls != BPF_ST && cls != BPF_STX)
			return true;
	}
	return false;
}

static void check(enum nb_jit_diff_result res, const char *why)
{
	if (res == NB_JIT_DIFF_MISMATCH) {
		fprintf(stderr, "JIT and interpreter differ: %s\n", why);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bpf_insn gen[GEN_MAX];
	u8 mem[256] = { 0 }, pkt[64] = { 0 };
	char why[512];

	if (size < 1)
		return 0;
	if (!(data[0] & 1)) {
		struct nb_gen_opts o = { .max_insns = GEN_MAX, .ld_abs = true };
		u64 seed = 0;
		u32 cnt;

		memcpy(&seed, data + 1, size - 1 < 8 ? size - 1 : 8);
		if (size > 9)
			memcpy(mem, data + 9, size - 9 < sizeof(mem) ? size - 9 : sizeof(mem));
		memcpy(pkt, mem + 128, sizeof(pkt));
		o.mem_len = 16 + 8 * (data[0] >> 1) % 232;
		nb_jit_diff_set_packet(pkt, sizeof(pkt));
		cnt = nb_gen_prog(seed, &o, gen);
		if (cnt)
			check(nb_jit_diff(gen, cnt, mem, o.mem_len, true, why, sizeof(why)), why);
		return 0;
	}
	if (size < 1 + RAW_MEM + sizeof(struct bpf_insn))
		return 0;
	{
		u32 cnt = (size - 1 - RAW_MEM) / sizeof(struct bpf_insn);
		struct bpf_insn *insns = malloc(cnt * sizeof(*insns));

		if (!insns)
			return 0;
		memcpy(insns, data + 1 + RAW_MEM, cnt * sizeof(*insns));
		memcpy(mem, data + 1, RAW_MEM);
		memcpy(pkt, data + 1, sizeof(pkt));
		nb_jit_diff_set_packet(pkt, sizeof(pkt));
		if (!has_backward_jump(insns, cnt) && !uses_frame_address(insns, cnt))
			check(nb_jit_diff(insns, cnt, mem, RAW_MEM, false, why, sizeof(why)), why);
		free(insns);
	}
	return 0;
}
