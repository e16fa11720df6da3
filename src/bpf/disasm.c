// SPDX-License-Identifier: GPL-2.0
/*
 * The disassembler: one instruction as text in the syntax of the kernel's verifier log and
 * llvm-objdump, the two places a BPF developer reads bytecode. Where they differ we take
 * llvm-objdump's spacing ("(r1 + 76)", "goto +3") and decimal immediates, and the kernel's names
 * for what llvm 14 does not print (sign-extending moves and loads, bswap, atomics).
 *
 * Undefined encodings print as "invalid insn 0x.." rather than failing: the disassembler shows
 * what a file holds, the structural checks decide whether it loads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bpf/disasm.h"
#include "bpf/helper_proto.h"
#include "bpf/map.h"
#include "bpf/prog.h"
#include "bpf/prog_type.h"

void dis_emit(struct dis_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->len >= o->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += n;
}

/* What the disassembler knows about the program around the instruction (NULL: raw bytes). */
struct dis_ctx {
	const struct nb_prog *prog;
	bool xlated;
};

const char *const dis_alu_op_str[16] = {
	[BPF_ADD >> 4] = "+=",	 [BPF_SUB >> 4] = "-=",	 [BPF_MUL >> 4] = "*=",
	[BPF_DIV >> 4] = "/=",	 [BPF_OR >> 4] = "|=",	 [BPF_AND >> 4] = "&=",
	[BPF_LSH >> 4] = "<<=",	 [BPF_RSH >> 4] = ">>=", [BPF_MOD >> 4] = "%=",
	[BPF_XOR >> 4] = "^=",	 [BPF_MOV >> 4] = "=",	 [BPF_ARSH >> 4] = "s>>=",
};

const char *const dis_jmp_cond_str[16] = {
	[BPF_JEQ >> 4] = "==",	 [BPF_JGT >> 4] = ">",	 [BPF_JGE >> 4] = ">=",
	[BPF_JSET >> 4] = "&",	 [BPF_JNE >> 4] = "!=",	 [BPF_JSGT >> 4] = "s>",
	[BPF_JSGE >> 4] = "s>=", [BPF_JLT >> 4] = "<",	 [BPF_JLE >> 4] = "<=",
	[BPF_JSLT >> 4] = "s<",	 [BPF_JSLE >> 4] = "s<=",
};

const char *const dis_atomic_op_str[16] = {
	[BPF_ADD >> 4] = "add", [BPF_OR >> 4] = "or", [BPF_AND >> 4] = "and",
	[BPF_XOR >> 4] = "xor",
};

const char *dis_mem_size_str(const struct bpf_insn *insn, bool sign)
{
	switch (BPF_SIZE(insn->code)) {
	case BPF_B:
		return sign ? "s8" : "u8";
	case BPF_H:
		return sign ? "s16" : "u16";
	case BPF_W:
		return sign ? "s32" : "u32";
	default:
		return sign ? NULL : "u64";
	}
}

static void emit_invalid(struct dis_out *o, const struct bpf_insn *insn)
{
	o->len = 0;
	dis_emit(o, "invalid insn 0x%02x", insn->code);
}

/* "(r1 + 76)", "(r10 - 8)": the address of a memory operand. */
static void emit_addr(struct dis_out *o, u8 reg, s16 off)
{
	dis_emit(o, "(r%u %c %d)", reg, off < 0 ? '-' : '+', off < 0 ? -(int)off : off);
}

static void disasm_alu(struct dis_out *o, const struct bpf_insn *insn)
{
	bool alu64 = insn_class(insn) == BPF_ALU64;
	char r = alu64 ? 'r' : 'w';
	u8 op = BPF_OP(insn->code);
	bool is_x = BPF_SRC(insn->code) == BPF_X;

	switch (op) {
	case BPF_NEG:
		dis_emit(o, "%c%u = -%c%u", r, insn->dst_reg, r, insn->dst_reg);
		return;
	case BPF_END:
		if (insn->imm != 16 && insn->imm != 32 && insn->imm != 64)
			break;
		/* The source bit picks the byte order in ALU; ALU64 END is the plain bswap. */
		if (alu64 && is_x)
			break;
		dis_emit(o, "r%u = %s%d r%u", insn->dst_reg,
			 alu64 ? "bswap" : is_x ? "be" : "le", insn->imm, insn->dst_reg);
		return;
	case BPF_DIV:
	case BPF_MOD:
		if (insn->off != 0 && insn->off != 1)
			break;
		dis_emit(o, "%c%u %s%s ", r, insn->dst_reg, insn->off ? "s" : "",
			 dis_alu_op_str[op >> 4]);
		if (is_x)
			dis_emit(o, "%c%u", r, insn->src_reg);
		else
			dis_emit(o, "%d", insn->imm);
		return;
	case BPF_MOV:
		if (is_x && insn->off) {
			/* movsx: 8 and 16 in both classes, 32 only in ALU64. */
			if (insn->off != 8 && insn->off != 16 && !(alu64 && insn->off == 32))
				break;
			dis_emit(o, "%c%u = (s%d)%c%u", r, insn->dst_reg, insn->off, r,
				 insn->src_reg);
			return;
		}
		if (insn->off)
			break;
		/* fall through */
	case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_OR: case BPF_AND:
	case BPF_LSH: case BPF_RSH: case BPF_XOR: case BPF_ARSH:
		dis_emit(o, "%c%u %s ", r, insn->dst_reg, dis_alu_op_str[op >> 4]);
		if (is_x)
			dis_emit(o, "%c%u", r, insn->src_reg);
		else
			dis_emit(o, "%d", insn->imm);
		return;
	}
	emit_invalid(o, insn);
}

static void disasm_ldx(struct dis_out *o, const struct bpf_insn *insn)
{
	u8 mode = BPF_MODE(insn->code);
	const char *size = dis_mem_size_str(insn, mode == BPF_MEMSX);

	if ((mode != BPF_MEM && mode != BPF_MEMSX) || !size) {
		emit_invalid(o, insn);
		return;
	}
	dis_emit(o, "r%u = *(%s *)", insn->dst_reg, size);
	emit_addr(o, insn->src_reg, insn->off);
}

static void disasm_st(struct dis_out *o, const struct bpf_insn *insn)
{
	if (BPF_MODE(insn->code) != BPF_MEM) {
		emit_invalid(o, insn);
		return;
	}
	dis_emit(o, "*(%s *)", dis_mem_size_str(insn, false));
	emit_addr(o, insn->dst_reg, insn->off);
	dis_emit(o, " = %d", insn->imm);
}

/*
 * Atomics read as the kernel's verifier log prints them: "lock *(u64 *)(r10 - 8) += r1" for the
 * plain read-modify-write, function-call form for those that return the old value. 32-bit forms
 * name their value registers wN, as llvm-objdump does, since only the low half takes part.
 */
static void disasm_atomic(struct dis_out *o, const struct bpf_insn *insn)
{
	bool dw = BPF_SIZE(insn->code) == BPF_DW;
	const char *size = dis_mem_size_str(insn, false);
	const char *bits = dw ? "64" : "";
	char r = dw ? 'r' : 'w';
	s32 op = insn->imm & ~BPF_FETCH;

	if (BPF_SIZE(insn->code) != BPF_W && !dw) {
		emit_invalid(o, insn);
		return;
	}
	switch (insn->imm) {
	case BPF_ADD: case BPF_OR: case BPF_AND: case BPF_XOR:
		dis_emit(o, "lock *(%s *)", size);
		emit_addr(o, insn->dst_reg, insn->off);
		dis_emit(o, " %s %c%u", dis_alu_op_str[op >> 4], r, insn->src_reg);
		return;
	case BPF_ADD | BPF_FETCH: case BPF_OR | BPF_FETCH:
	case BPF_AND | BPF_FETCH: case BPF_XOR | BPF_FETCH:
		dis_emit(o, "%c%u = atomic%s_fetch_%s((%s *)", r, insn->src_reg, bits,
			 dis_atomic_op_str[op >> 4], size);
		emit_addr(o, insn->dst_reg, insn->off);
		dis_emit(o, ", %c%u)", r, insn->src_reg);
		return;
	case BPF_XCHG:
		dis_emit(o, "%c%u = atomic%s_xchg((%s *)", r, insn->src_reg, bits, size);
		emit_addr(o, insn->dst_reg, insn->off);
		dis_emit(o, ", %c%u)", r, insn->src_reg);
		return;
	case BPF_CMPXCHG:
		dis_emit(o, "%c0 = atomic%s_cmpxchg((%s *)", r, bits, size);
		emit_addr(o, insn->dst_reg, insn->off);
		dis_emit(o, ", %c0, %c%u)", r, r, insn->src_reg);
		return;
	}
	emit_invalid(o, insn);
}

static void disasm_stx(struct dis_out *o, const struct bpf_insn *insn)
{
	switch (BPF_MODE(insn->code)) {
	case BPF_MEM:
		dis_emit(o, "*(%s *)", dis_mem_size_str(insn, false));
		emit_addr(o, insn->dst_reg, insn->off);
		dis_emit(o, " = r%u", insn->src_reg);
		return;
	case BPF_ATOMIC:
		disasm_atomic(o, insn);
		return;
	}
	emit_invalid(o, insn);
}

const struct nb_map *nb_disasm_used_map(const struct nb_prog *prog, u64 addr, bool value,
					u32 *off)
{
	for (u32 i = 0; prog && i < prog->used_map_cnt; i++) {
		const struct nb_map *map = prog->used_maps[i];
		u64 base;

		if (!value) {
			if ((u64)(uintptr_t)map == addr)
				return map;
			continue;
		}
		if (nb_map_direct_value_addr(map, 0, &base) == 0 && addr >= base &&
		    addr - base < map->value_size) {
			*off = addr - base;
			return map;
		}
	}
	return NULL;
}

/*
 * ldimm64 and its pseudo sources. Raw and loaded forms read alike: "r1 = map[id:3]" for a map,
 * "r1 = map[id:3][0]+16" for an address inside its value; before load the map may also be named
 * by its index in the load's map table ("map[idx:1]"). "r1 = func pc+5" loads a subprogram's
 * address, "r1 = 0x1234 ll" a plain constant.
 */
static void disasm_ldimm64(struct dis_out *o, const struct dis_ctx *ctx,
			   const struct bpf_insn *insn)
{
	u64 val = insn_ldimm64_val(insn);
	const struct nb_map *map;
	u32 off = 0;

	dis_emit(o, "r%u = ", insn->dst_reg);
	switch (insn->src_reg) {
	case 0:
		dis_emit(o, "0x%llx ll", (unsigned long long)val);
		return;
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_VALUE:
		if (ctx && ctx->prog) {
			/* Loaded: the loader replaced the id with a pointer. */
			map = nb_disasm_used_map(ctx->prog, val,
						 insn->src_reg == BPF_PSEUDO_MAP_VALUE, &off);
			if (!map)
				dis_emit(o, "0x%llx ll", (unsigned long long)val);
			else if (insn->src_reg == BPF_PSEUDO_MAP_FD)
				dis_emit(o, "map[id:%u]", map->id);
			else
				dis_emit(o, "map[id:%u][0]+%u", map->id, off);
			return;
		}
		dis_emit(o, "map[id:%u]", (u32)insn[0].imm);
		if (insn->src_reg == BPF_PSEUDO_MAP_VALUE)
			dis_emit(o, "[0]+%u", (u32)insn[1].imm);
		return;
	case BPF_PSEUDO_MAP_IDX:
		dis_emit(o, "map[idx:%u]", (u32)insn[0].imm);
		return;
	case BPF_PSEUDO_MAP_IDX_VALUE:
		dis_emit(o, "map[idx:%u][0]+%u", (u32)insn[0].imm, (u32)insn[1].imm);
		return;
	case BPF_PSEUDO_BTF_ID:
		dis_emit(o, "btf[id:%u]", (u32)insn[0].imm);
		return;
	case BPF_PSEUDO_FUNC:
		dis_emit(o, "func pc%+d", insn[0].imm);
		return;
	}
	emit_invalid(o, insn);
}

static void disasm_ld(struct dis_out *o, const struct dis_ctx *ctx, const struct bpf_insn *insn,
		      size_t remaining)
{
	u8 mode = BPF_MODE(insn->code);

	if (insn_is_ldimm64(insn)) {
		if (remaining < 2)
			emit_invalid(o, insn);
		else
			disasm_ldimm64(o, ctx, insn);
		return;
	}
	if (insn->code == NB_OP_THIS_CPU && ctx && ctx->xlated) {
		/* Written by the fixup for per-CPU map lookups: the worker index. */
		dis_emit(o, "r%u = this_cpu", insn->dst_reg);
		return;
	}
	if ((mode != BPF_ABS && mode != BPF_IND) || BPF_SIZE(insn->code) == BPF_DW) {
		emit_invalid(o, insn);
		return;
	}
	/* Legacy packet loads: r0 = the packet's bytes at imm (+ src), in network order. */
	dis_emit(o, "r0 = *(%s *)skb[", dis_mem_size_str(insn, false));
	if (mode == BPF_ABS)
		dis_emit(o, "%d]", insn->imm);
	else
		dis_emit(o, "r%u %c %lld]", insn->src_reg, insn->imm < 0 ? '-' : '+',
			 llabs((long long)insn->imm));
}

s32 nb_disasm_helper_id(const struct nb_prog *prog, s32 idx)
{
	nb_helper_fn fn;

	if (idx < 0 || (u32)idx >= prog->helper_cnt || !prog->ops || !prog->ops->get_func_proto)
		return -1;
	fn = prog->helpers[idx];
	for (s32 id = 1; id < __BPF_FUNC_MAX_ID; id++) {
		const struct nb_func_proto *proto = prog->ops->get_func_proto(id, prog);

		if (proto && proto->func == fn)
			return id;
	}
	return -1;
}

const char *nb_disasm_internal_name(const struct nb_prog *prog, s32 idx)
{
	if (idx < 0 || (u32)idx >= prog->helper_cnt)
		return NULL;
	return nb_internal_func_name(prog->helpers[idx]);
}

static void disasm_call(struct dis_out *o, const struct dis_ctx *ctx, const struct bpf_insn *insn)
{
	const char *name;
	s32 id = insn->imm;

	switch (insn->src_reg) {
	case 0:
		if (ctx && ctx->xlated) {
			id = nb_disasm_helper_id(ctx->prog, insn->imm);
			name = id < 0 ? nb_disasm_internal_name(ctx->prog, insn->imm) : NULL;
			if (name) {
				/* A map's own lookup, called by the fixup's in-line code. */
				dis_emit(o, "call %s", name);
				return;
			}
			if (id < 0) {
				dis_emit(o, "call helper[%d]", insn->imm);
				return;
			}
		}
		name = nb_helper_name(id);
		dis_emit(o, "call %s#%d", name ? name : "unknown", id);
		return;
	case BPF_PSEUDO_CALL:
		dis_emit(o, "call pc%+d", insn->imm);
		return;
	case BPF_PSEUDO_KFUNC_CALL:
		dis_emit(o, "call kfunc#%d", insn->imm);
		return;
	}
	emit_invalid(o, insn);
}

static void disasm_jmp(struct dis_out *o, const struct dis_ctx *ctx, const struct bpf_insn *insn)
{
	bool jmp32 = insn_class(insn) == BPF_JMP32;
	char r = jmp32 ? 'w' : 'r';
	u8 op = BPF_OP(insn->code);

	switch (op) {
	case BPF_JA:
		if (jmp32)
			dis_emit(o, "gotol %+d", insn->imm);
		else
			dis_emit(o, "goto %+d", insn->off);
		return;
	case BPF_CALL:
		if (jmp32)
			break;
		disasm_call(o, ctx, insn);
		return;
	case BPF_EXIT:
		if (jmp32)
			break;
		dis_emit(o, "exit");
		return;
	case BPF_JCOND:
		if (jmp32 || insn->src_reg != 0)
			break;
		dis_emit(o, "may_goto %+d", insn->off);
		return;
	case BPF_OP(NB_OP_TAIL_CALL):
		/* Only the fixup writes it: bpf_tail_call(ctx = r1, map = r2, index = r3). */
		if (jmp32)
			break;
		dis_emit(o, "tail_call");
		return;
	default:
		dis_emit(o, "if %c%u %s ", r, insn->dst_reg, dis_jmp_cond_str[op >> 4]);
		if (BPF_SRC(insn->code) == BPF_X)
			dis_emit(o, "%c%u", r, insn->src_reg);
		else
			dis_emit(o, "%d", insn->imm);
		dis_emit(o, " goto %+d", insn->off);
		return;
	}
	emit_invalid(o, insn);
}

static int disasm(const struct dis_ctx *ctx, const struct bpf_insn *insn, size_t remaining,
		  char *buf, size_t size)
{
	struct dis_out o = { .buf = buf, .size = size };

	if (size)
		buf[0] = '\0';
	switch (insn_class(insn)) {
	case BPF_ALU:
	case BPF_ALU64:
		disasm_alu(&o, insn);
		break;
	case BPF_LDX:
		disasm_ldx(&o, insn);
		break;
	case BPF_ST:
		disasm_st(&o, insn);
		break;
	case BPF_STX:
		disasm_stx(&o, insn);
		break;
	case BPF_LD:
		disasm_ld(&o, ctx, insn, remaining);
		break;
	default:
		disasm_jmp(&o, ctx, insn);
		break;
	}
	return insn_is_ldimm64(insn) && remaining > 1 ? 2 : 1;
}

int nb_disasm_insn(const struct bpf_insn *insn, size_t remaining, char *buf, size_t size)
{
	return disasm(NULL, insn, remaining, buf, size);
}

int nb_disasm_prog_insn(const struct nb_prog *prog, bool xlated, const struct bpf_insn *insn,
			size_t remaining, char *buf, size_t size)
{
	const struct dis_ctx ctx = { .prog = prog, .xlated = xlated };

	return disasm(&ctx, insn, remaining, buf, size);
}
