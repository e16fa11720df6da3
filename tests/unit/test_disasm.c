// SPDX-License-Identifier: GPL-2.0
/*
 * The disassembler's text for every instruction form, one registered test per form
 * ("disasm/<form>"), plus the loaded-program forms: map pointers and value addresses by map id,
 * fixed-up helper calls by helper name.
 */
#include <netbpf/prog.h>

#include "bpf/disasm.h"
#include "bpf/map.h"
#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "bpf_asm.h"
#include "test.h"

struct disasm_case {
	const char *name;
	struct bpf_insn insns[2];
	unsigned int cnt;	/* instructions available from insns[0] */
	const char *text;
};

#define ONE(n, i, t)	 { .name = n, .insns = { i }, .cnt = 1, .text = t }
#define TWO(n, i, t)	 { .name = n, .insns = { i }, .cnt = 2, .text = t }

static const struct disasm_case cases[] = {
	/* ALU64 and ALU, register and immediate */
	ONE("add64_x", NB_ALU64_REG(BPF_ADD, 1, 2), "r1 += r2"),
	ONE("add64_k", NB_ALU64_IMM(BPF_ADD, 1, -5), "r1 += -5"),
	ONE("sub32_x", NB_ALU32_REG(BPF_SUB, 3, 4), "w3 -= w4"),
	ONE("mul32_k", NB_ALU32_IMM(BPF_MUL, 0, 7), "w0 *= 7"),
	ONE("div64_x", NB_ALU64_REG(BPF_DIV, 1, 2), "r1 /= r2"),
	ONE("mod32_k", NB_ALU32_IMM(BPF_MOD, 1, 10), "w1 %= 10"),
	ONE("or64_k", NB_ALU64_IMM(BPF_OR, 9, 0x40), "r9 |= 64"),
	ONE("and32_x", NB_ALU32_REG(BPF_AND, 5, 6), "w5 &= w6"),
	ONE("lsh64_k", NB_ALU64_IMM(BPF_LSH, 1, 63), "r1 <<= 63"),
	ONE("rsh32_x", NB_ALU32_REG(BPF_RSH, 1, 2), "w1 >>= w2"),
	ONE("arsh64_k", NB_ALU64_IMM(BPF_ARSH, 1, 3), "r1 s>>= 3"),
	ONE("arsh32_x", NB_ALU32_REG(BPF_ARSH, 1, 2), "w1 s>>= w2"),
	ONE("xor64_k", NB_ALU64_IMM(BPF_XOR, 1, -1), "r1 ^= -1"),
	ONE("mov64_k", NB_MOV64_IMM(0, 42), "r0 = 42"),
	ONE("mov64_x", NB_MOV64_REG(6, 1), "r6 = r1"),
	ONE("mov32_x", NB_MOV32_REG(1, 2), "w1 = w2"),
	ONE("mov32_k", NB_MOV32_IMM(1, -1), "w1 = -1"),
	ONE("neg64", NB_NEG64(2), "r2 = -r2"),
	ONE("neg32", NB_NEG32(1), "w1 = -w1"),
	ONE("sdiv64_x", NB_ALU64_SREG(BPF_DIV, 1, 2), "r1 s/= r2"),
	ONE("sdiv32_k", NB_ALU32_SIMM(BPF_DIV, 1, -3), "w1 s/= -3"),
	ONE("smod64_k", NB_ALU64_SIMM(BPF_MOD, 1, 3), "r1 s%= 3"),
	ONE("smod32_x", NB_ALU32_SREG(BPF_MOD, 1, 2), "w1 s%= w2"),
	ONE("movsx64_8", NB_MOVSX64_REG(1, 2, 8), "r1 = (s8)r2"),
	ONE("movsx64_16", NB_MOVSX64_REG(1, 2, 16), "r1 = (s16)r2"),
	ONE("movsx64_32", NB_MOVSX64_REG(1, 2, 32), "r1 = (s32)r2"),
	ONE("movsx32_8", NB_MOVSX32_REG(1, 2, 8), "w1 = (s8)w2"),
	ONE("movsx32_16", NB_MOVSX32_REG(1, 2, 16), "w1 = (s16)w2"),
	ONE("be16", NB_ENDIAN(BPF_TO_BE, 1, 16), "r1 = be16 r1"),
	ONE("be64", NB_ENDIAN(BPF_TO_BE, 3, 64), "r3 = be64 r3"),
	ONE("le32", NB_ENDIAN(BPF_TO_LE, 1, 32), "r1 = le32 r1"),
	ONE("bswap16", NB_BSWAP(1, 16), "r1 = bswap16 r1"),
	ONE("bswap64", NB_BSWAP(1, 64), "r1 = bswap64 r1"),
	/* memory */
	ONE("ldx_w", NB_LDX_MEM(BPF_W, 0, 1, 76), "r0 = *(u32 *)(r1 + 76)"),
	ONE("ldx_dw_neg", NB_LDX_MEM(BPF_DW, 3, 10, -8), "r3 = *(u64 *)(r10 - 8)"),
	ONE("ldx_b_zero", NB_LDX_MEM(BPF_B, 2, 1, 0), "r2 = *(u8 *)(r1 + 0)"),
	ONE("ldsx_b", NB_LDX_MEMSX(BPF_B, 0, 1, 2), "r0 = *(s8 *)(r1 + 2)"),
	ONE("ldsx_h", NB_LDX_MEMSX(BPF_H, 0, 1, 2), "r0 = *(s16 *)(r1 + 2)"),
	ONE("ldsx_w", NB_LDX_MEMSX(BPF_W, 0, 10, -512), "r0 = *(s32 *)(r10 - 512)"),
	ONE("stx_h", NB_STX_MEM(BPF_H, 10, 1, -8), "*(u16 *)(r10 - 8) = r1"),
	ONE("stx_dw", NB_STX_MEM(BPF_DW, 1, 2, 32767), "*(u64 *)(r1 + 32767) = r2"),
	ONE("st_w", NB_ST_MEM(BPF_W, 10, -4, 7), "*(u32 *)(r10 - 4) = 7"),
	ONE("st_b_neg", NB_ST_MEM(BPF_B, 10, -32768, -1), "*(u8 *)(r10 - 32768) = -1"),
	/* atomics */
	ONE("lock_add64", NB_ATOMIC_OP(BPF_DW, BPF_ADD, 10, 1, -8), "lock *(u64 *)(r10 - 8) += r1"),
	ONE("lock_or64", NB_ATOMIC_OP(BPF_DW, BPF_OR, 10, 1, -8), "lock *(u64 *)(r10 - 8) |= r1"),
	ONE("lock_and32", NB_ATOMIC_OP(BPF_W, BPF_AND, 10, 1, -4), "lock *(u32 *)(r10 - 4) &= w1"),
	ONE("lock_xor32", NB_ATOMIC_OP(BPF_W, BPF_XOR, 2, 3, 0), "lock *(u32 *)(r2 + 0) ^= w3"),
	ONE("fetch_add64", NB_ATOMIC_OP(BPF_DW, BPF_ADD | BPF_FETCH, 10, 1, -8),
	    "r1 = atomic64_fetch_add((u64 *)(r10 - 8), r1)"),
	ONE("fetch_or64", NB_ATOMIC_OP(BPF_DW, BPF_OR | BPF_FETCH, 10, 1, -8),
	    "r1 = atomic64_fetch_or((u64 *)(r10 - 8), r1)"),
	ONE("fetch_and32", NB_ATOMIC_OP(BPF_W, BPF_AND | BPF_FETCH, 10, 4, -8),
	    "w4 = atomic_fetch_and((u32 *)(r10 - 8), w4)"),
	ONE("fetch_xor32", NB_ATOMIC_OP(BPF_W, BPF_XOR | BPF_FETCH, 10, 4, -8),
	    "w4 = atomic_fetch_xor((u32 *)(r10 - 8), w4)"),
	ONE("xchg64", NB_ATOMIC_OP(BPF_DW, BPF_XCHG, 10, 1, -16),
	    "r1 = atomic64_xchg((u64 *)(r10 - 16), r1)"),
	ONE("xchg32", NB_ATOMIC_OP(BPF_W, BPF_XCHG, 10, 1, -16),
	    "w1 = atomic_xchg((u32 *)(r10 - 16), w1)"),
	ONE("cmpxchg64", NB_ATOMIC_OP(BPF_DW, BPF_CMPXCHG, 2, 3, 0),
	    "r0 = atomic64_cmpxchg((u64 *)(r2 + 0), r0, r3)"),
	ONE("cmpxchg32", NB_ATOMIC_OP(BPF_W, BPF_CMPXCHG, 2, 3, 4),
	    "w0 = atomic_cmpxchg((u32 *)(r2 + 4), w0, w3)"),
	/* legacy packet loads */
	ONE("ld_abs_b", NB_LD_ABS(BPF_B, 12), "r0 = *(u8 *)skb[12]"),
	ONE("ld_abs_w", NB_LD_ABS(BPF_W, 26), "r0 = *(u32 *)skb[26]"),
	ONE("ld_ind_h", NB_LD_IND(BPF_H, 3, 2), "r0 = *(u16 *)skb[r3 + 2]"),
	ONE("ld_ind_neg", NB_LD_IND(BPF_B, 3, -2), "r0 = *(u8 *)skb[r3 - 2]"),
	/* ldimm64 and its pseudo sources */
	TWO("ldimm64", NB_LD_IMM64(1, 0x1234), "r1 = 0x1234 ll"),
	TWO("ldimm64_full", NB_LD_IMM64(9, 0xfedcba9876543210ULL), "r9 = 0xfedcba9876543210 ll"),
	TWO("ld_map_id", NB_LD_MAP_ID(1, 3), "r1 = map[id:3]"),
	{ .name = "ld_map_value", .cnt = 2, .text = "r1 = map[id:3][0]+16",
	  .insns = { NB_INSN(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_VALUE, 0, 3),
		     NB_INSN(0, 0, 0, 0, 16) } },
	TWO("ld_map_idx", NB_LD_IMM64_RAW(2, BPF_PSEUDO_MAP_IDX, 1), "r2 = map[idx:1]"),
	{ .name = "ld_map_idx_value", .cnt = 2, .text = "r2 = map[idx:1][0]+8",
	  .insns = { NB_INSN(BPF_LD | BPF_DW | BPF_IMM, 2, BPF_PSEUDO_MAP_IDX_VALUE, 0, 1),
		     NB_INSN(0, 0, 0, 0, 8) } },
	TWO("ld_func", NB_LD_IMM64_RAW(2, BPF_PSEUDO_FUNC, 5), "r2 = func pc+5"),
	TWO("ld_btf_id", NB_LD_IMM64_RAW(2, BPF_PSEUDO_BTF_ID, 77), "r2 = btf[id:77]"),
	/* jumps */
	ONE("jgt_x", NB_JMP_REG(BPF_JGT, 2, 3, 5), "if r2 > r3 goto +5"),
	ONE("jeq_k", NB_JMP_IMM(BPF_JEQ, 1, 0, 1), "if r1 == 0 goto +1"),
	ONE("jne_k", NB_JMP_IMM(BPF_JNE, 1, 12345, -4), "if r1 != 12345 goto -4"),
	ONE("jge_x", NB_JMP_REG(BPF_JGE, 1, 2, 0), "if r1 >= r2 goto +0"),
	ONE("jlt_k", NB_JMP_IMM(BPF_JLT, 1, -1, 2), "if r1 < -1 goto +2"),
	ONE("jle_x", NB_JMP_REG(BPF_JLE, 1, 2, 2), "if r1 <= r2 goto +2"),
	ONE("jset_k", NB_JMP_IMM(BPF_JSET, 1, 64, 2), "if r1 & 64 goto +2"),
	ONE("jsgt_k", NB_JMP_IMM(BPF_JSGT, 1, -7, 2), "if r1 s> -7 goto +2"),
	ONE("jsge_x", NB_JMP_REG(BPF_JSGE, 1, 2, 2), "if r1 s>= r2 goto +2"),
	ONE("jslt_k", NB_JMP_IMM(BPF_JSLT, 1, 0, 2), "if r1 s< 0 goto +2"),
	ONE("jsle_x", NB_JMP_REG(BPF_JSLE, 1, 2, 2), "if r1 s<= r2 goto +2"),
	ONE("jslt32_k", NB_JMP32_IMM(BPF_JSLT, 2, 7, -3), "if w2 s< 7 goto -3"),
	ONE("jeq32_x", NB_JMP32_REG(BPF_JEQ, 1, 0, 3), "if w1 == w0 goto +3"),
	ONE("ja", NB_JA(3), "goto +3"),
	ONE("ja_back", NB_JA(-1), "goto -1"),
	ONE("gotol", NB_GOTOL(70000), "gotol +70000"),
	ONE("gotol_back", NB_GOTOL(-70000), "gotol -70000"),
	ONE("call_helper", NB_CALL_HELPER(BPF_FUNC_redirect), "call bpf_redirect#23"),
	ONE("call_lookup", NB_CALL_HELPER(BPF_FUNC_map_lookup_elem), "call bpf_map_lookup_elem#1"),
	ONE("call_unknown", NB_CALL_HELPER(100000), "call unknown#100000"),
	ONE("call_rel", NB_CALL_REL(5), "call pc+5"),
	ONE("call_rel_back", NB_CALL_REL(-9), "call pc-9"),
	ONE("call_kfunc", NB_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 12),
	    "call kfunc#12"),
	ONE("exit", NB_EXIT(), "exit"),
	ONE("tail_call", NB_INSN(NB_OP_TAIL_CALL, 0, 0, 0, 0), "tail_call"),
	/* undefined encodings */
	ONE("bad_class_op", NB_INSN(0xff, 0, 0, 0, 0), "invalid insn 0xff"),
	ONE("bad_alu_op", NB_INSN(BPF_ALU64 | 0xe0 | BPF_K, 0, 0, 0, 0), "invalid insn 0xe7"),
	ONE("bad_end_width", NB_ENDIAN(BPF_TO_BE, 1, 8), "invalid insn 0xdc"),
	ONE("bad_bswap_src", NB_INSN(BPF_ALU64 | BPF_END | BPF_TO_BE, 1, 0, 0, 16),
	    "invalid insn 0xdf"),
	ONE("bad_movsx32_32", NB_MOVSX32_REG(1, 2, 32), "invalid insn 0xbc"),
	ONE("bad_movsx_off", NB_MOVSX64_REG(1, 2, 4), "invalid insn 0xbf"),
	ONE("bad_sdiv_off", NB_INSN(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 2, 0), "invalid insn 0x3f"),
	ONE("bad_ldsx_dw", NB_LDX_MEMSX(BPF_DW, 0, 1, 0), "invalid insn 0x99"),
	ONE("bad_st_mode", NB_INSN(BPF_ST | BPF_W | BPF_ATOMIC, 10, 0, -4, 0), "invalid insn 0xc2"),
	ONE("bad_atomic_size", NB_ATOMIC_OP(BPF_H, BPF_ADD, 10, 1, -8), "invalid insn 0xcb"),
	ONE("bad_atomic_op", NB_ATOMIC_OP(BPF_DW, BPF_MUL, 10, 1, -8), "invalid insn 0xdb"),
	ONE("bad_ld_abs_dw", NB_LD_ABS(BPF_DW, 0), "invalid insn 0x38"),
	ONE("bad_ldimm64_half", NB_LD_IMM64(1, 1), "invalid insn 0x18"),
	TWO("bad_ldimm64_src", NB_LD_IMM64_RAW(1, 9, 1), "invalid insn 0x18"),
	ONE("bad_jmp32_call", NB_INSN(BPF_JMP32 | BPF_CALL, 0, 0, 0, 1), "invalid insn 0x86"),
	ONE("bad_jmp32_exit", NB_INSN(BPF_JMP32 | BPF_EXIT, 0, 0, 0, 0), "invalid insn 0x96"),
	ONE("bad_call_src", NB_INSN(BPF_JMP | BPF_CALL, 0, 7, 0, 1), "invalid insn 0x85"),
};

static void test_disasm_case(const void *arg)
{
	const struct disasm_case *c = arg;
	char text[128];
	int n = nb_disasm_insn(c->insns, c->cnt, text, sizeof(text));

	if (strcmp(text, c->text))
		NB_FAIL("expected \"%s\", got \"%s\"", c->text, text);
	NB_ASSERT_EQ(n, insn_is_ldimm64(c->insns) && c->cnt == 2 ? 2 : 1);
}

static void __attribute__((constructor)) register_disasm_cases(void)
{
	static char names[ARRAY_SIZE(cases)][64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(names[i], sizeof(names[i]), "disasm/%s", cases[i].name);
		nb_test_register(names[i], test_disasm_case, &cases[i]);
	}
}

/* A short buffer truncates the text and stays terminated. */
NB_TEST(disasm_truncates)
{
	struct bpf_insn insn = NB_ATOMIC_OP(BPF_DW, BPF_CMPXCHG, 2, 3, 0);
	char text[12];

	memset(text, 'x', sizeof(text));
	NB_ASSERT_EQ(nb_disasm_insn(&insn, 1, text, sizeof(text)), 1);
	NB_ASSERT(!strcmp(text, "r0 = atomic"));
	NB_ASSERT_EQ(nb_disasm_insn(&insn, 1, text, 0), 1);
}

/* Loaded programs: the loader's pointers print as map ids, fixed-up calls by helper name. */
static u64 fake_redirect(u64 a, u64 b, u64 c, u64 d, u64 e)
{
	return 0;
}

static const struct nb_func_proto fake_redirect_proto = { .func = fake_redirect };

static const struct nb_func_proto *fake_get_func_proto(enum bpf_func_id id,
						       const struct nb_prog *prog)
{
	return id == BPF_FUNC_redirect ? &fake_redirect_proto : NULL;
}

static const struct nb_prog_type_ops fake_type = {
	.name = "fake",
	.get_func_proto = fake_get_func_proto,
};

static u8 fake_values[64];

static int fake_direct_value_addr(const struct nb_map *map, u64 *addr, u32 off)
{
	*addr = (u64)(uintptr_t)fake_values + off;
	return 0;
}

static const struct nb_map_ops fake_map_ops = {
	.name = "fake",
	.map_direct_value_addr = fake_direct_value_addr,
};

NB_TEST(disasm_loaded)
{
	struct nb_map map = { .ops = &fake_map_ops, .id = 7, .value_size = sizeof(fake_values) };
	struct nb_map *used[] = { &map };
	nb_helper_fn helpers[] = { fake_redirect };
	struct nb_prog prog = {
		.ops = &fake_type,
		.used_maps = used,
		.used_map_cnt = 1,
		.helpers = helpers,
		.helper_cnt = 1,
	};
	struct bpf_insn ptr[] = { NB_LD_IMM64_RAW(1, BPF_PSEUDO_MAP_FD, (uintptr_t)&map) };
	struct bpf_insn val[] = {
		NB_LD_IMM64_RAW(2, BPF_PSEUDO_MAP_VALUE, (uintptr_t)fake_values + 24)
	};
	struct bpf_insn stray[] = { NB_LD_IMM64_RAW(2, BPF_PSEUDO_MAP_VALUE, 0x1000) };
	struct bpf_insn call = NB_CALL_HELPER(0);
	struct bpf_insn call_bad = NB_CALL_HELPER(1);
	char text[128];

	NB_ASSERT_EQ(nb_disasm_prog_insn(&prog, false, ptr, 2, text, sizeof(text)), 2);
	NB_ASSERT(!strcmp(text, "r1 = map[id:7]"));
	NB_ASSERT_EQ(nb_disasm_prog_insn(&prog, false, val, 2, text, sizeof(text)), 2);
	NB_ASSERT(!strcmp(text, "r2 = map[id:7][0]+24"));
	/* An address inside no map the program holds prints as the number it is. */
	nb_disasm_prog_insn(&prog, false, stray, 2, text, sizeof(text));
	NB_ASSERT(!strcmp(text, "r2 = 0x1000 ll"));
	nb_disasm_prog_insn(&prog, true, &call, 1, text, sizeof(text));
	NB_ASSERT(!strcmp(text, "call bpf_redirect#23"));
	nb_disasm_prog_insn(&prog, true, &call_bad, 1, text, sizeof(text));
	NB_ASSERT(!strcmp(text, "call helper[1]"));
	/* Not xlated: the call still holds the helper id. */
	call.imm = BPF_FUNC_redirect;
	nb_disasm_prog_insn(&prog, false, &call, 1, text, sizeof(text));
	NB_ASSERT(!strcmp(text, "call bpf_redirect#23"));
}

/*
 * Every instruction the structural checks accept has a text of its own, and no encoding of any
 * opcode crashes or overflows the disassembler. Returns whether the encoding loaded.
 */
static bool check_encoding(u8 code, u8 src, s16 off, s32 imm)
{
	struct bpf_insn prog[4] = {
		NB_INSN(code, 0, src, off, imm), NB_EXIT(), NB_EXIT(), NB_EXIT()
	};
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .flags = NB_PROG_LOAD_CHECKED };
	struct nb_prog *loaded = NULL;
	char text[64];

	if (insn_is_ldimm64(prog))
		prog[1] = NB_INSN(0, 0, 0, 0, 0);
	for (size_t remaining = 1; remaining <= 2; remaining++) {
		nb_disasm_insn(prog, remaining, text, sizeof(text));
		NB_ASSERT(text[0] != '\0' && strlen(text) < sizeof(text) - 1);
	}
	if (nb_prog_load(BPF_PROG_TYPE_UNSPEC, prog, ARRAY_SIZE(prog), &opts, &loaded))
		return false;
	nb_prog_put(loaded);
	nb_disasm_insn(prog, ARRAY_SIZE(prog), text, sizeof(text));
	if (!strncmp(text, "invalid", 7))
		NB_FAIL("code 0x%02x src %u off %d imm %d loads but prints \"%s\"", code, src, off,
			imm, text);
	return true;
}

NB_TEST(disasm_agrees_with_check)
{
	static const s16 offs[] = { 0, 1, 8, 16, 32, -1 };
	static const s32 imms[] = { 0, 1, 16, 32, 64, -1, BPF_ADD | BPF_FETCH, BPF_XCHG,
				    BPF_CMPXCHG, BPF_FUNC_redirect };
	unsigned int accepted = 0;

	for (unsigned int code = 0; code < 256; code++)
		for (u8 src = 0; src < 3; src++)
			for (size_t o = 0; o < ARRAY_SIZE(offs); o++)
				for (size_t m = 0; m < ARRAY_SIZE(imms); m++)
					accepted += check_encoding(code, src, offs[o], imms[m]);
	NB_ASSERT(accepted > 500);
}
