// SPDX-License-Identifier: GPL-2.0
/*
 * Structural checks every program passes before anything else looks at it, as the first passes of
 * the kernel's bpf_check do: each opcode is defined with its reserved fields zero, ldimm64 comes
 * in pairs, registers exist (and r10 is never written by a program that runs without a proof),
 * jumps and calls land on instructions inside their own subprogram, and no subprogram can fall
 * off its end. The verifier and the checked interpreter both rely on these facts, so undefined
 * opcodes never reach an engine.
 */
#include <errno.h>
#include <stdlib.h>

#include "bpf/prog.h"
#include "bpf/prog_type.h"

#define reject(log, i, ...)                                                                 \
	({                                                                                  \
		nb_log_printf(log, "insn %u: ", (unsigned int)(i));                          \
		nb_log_printf(log, __VA_ARGS__);                                            \
		nb_log_printf(log, "\n");                                                   \
		-EINVAL;                                                                    \
	})

static bool is_valid_end_width(s32 imm)
{
	return imm == 16 || imm == 32 || imm == 64;
}

static int check_alu(const struct bpf_insn *insn, u32 i, struct nb_log *log)
{
	bool alu64 = insn_class(insn) == BPF_ALU64;
	u8 op = BPF_OP(insn->code);
	bool is_x = BPF_SRC(insn->code) == BPF_X;
	const char *cls = alu64 ? "BPF_ALU64" : "BPF_ALU";

	switch (op) {
	case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_OR: case BPF_AND:
	case BPF_LSH: case BPF_RSH: case BPF_XOR: case BPF_ARSH:
		if (insn->off != 0 || (is_x ? insn->imm != 0 : insn->src_reg != 0))
			return reject(log, i, "%s uses reserved fields", cls);
		return 0;
	case BPF_DIV: case BPF_MOD:
		if ((insn->off != 0 && insn->off != 1) ||
		    (is_x ? insn->imm != 0 : insn->src_reg != 0))
			return reject(log, i, "%s uses reserved fields", cls);
		return 0;
	case BPF_MOV:
		if (!is_x) {
			if (insn->off != 0 || insn->src_reg != 0)
				return reject(log, i, "%s uses reserved fields", cls);
			return 0;
		}
		if (insn->imm != 0)
			return reject(log, i, "%s uses reserved fields", cls);
		if (insn->off != 0 && insn->off != 8 && insn->off != 16 &&
		    !(alu64 && insn->off == 32))
			return reject(log, i, "invalid movsx offset %d", insn->off);
		return 0;
	case BPF_NEG:
		if (is_x || insn->src_reg != 0 || insn->off != 0 || insn->imm != 0)
			return reject(log, i, "BPF_NEG uses reserved fields");
		return 0;
	case BPF_END:
		/* ALU64 end is the unconditional bswap: its source bit must be clear. */
		if (insn->src_reg != 0 || insn->off != 0 || (alu64 && is_x))
			return reject(log, i, "BPF_END uses reserved fields");
		if (!is_valid_end_width(insn->imm))
			return reject(log, i, "invalid END width %d", insn->imm);
		return 0;
	default:
		return reject(log, i, "unknown opcode 0x%02x", insn->code);
	}
}

static int check_jmp(const struct bpf_insn *insn, u32 i, struct nb_log *log)
{
	bool jmp32 = insn_class(insn) == BPF_JMP32;
	u8 op = BPF_OP(insn->code);
	bool is_x = BPF_SRC(insn->code) == BPF_X;

	switch (op) {
	case BPF_JA:
		if (is_x || insn->src_reg != 0 || insn->dst_reg != 0 ||
		    (jmp32 ? insn->off != 0 : insn->imm != 0))
			return reject(log, i, "BPF_JA uses reserved fields");
		return 0;
	case BPF_CALL:
		if (jmp32 || is_x || insn->off != 0 || insn->dst_reg != 0)
			return reject(log, i, "BPF_CALL uses reserved fields");
		if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL)
			return reject(log, i, "kernel function calls are not supported");
		if (insn->src_reg != 0 && insn->src_reg != BPF_PSEUDO_CALL)
			return reject(log, i, "BPF_CALL uses reserved fields");
		return 0;
	case BPF_EXIT:
		if (jmp32 || is_x || insn->src_reg != 0 || insn->dst_reg != 0 || insn->off != 0 ||
		    insn->imm != 0)
			return reject(log, i, "BPF_EXIT uses reserved fields");
		return 0;
	case BPF_JCOND:
		/* may_goto is its one condition, and only BPF_JMP | BPF_JCOND | BPF_K exists. */
		if (jmp32 || is_x)
			return reject(log, i, "unknown opcode 0x%02x", insn->code);
		if (insn->src_reg != BPF_MAY_GOTO || insn->dst_reg != 0 || insn->imm != 0)
			return reject(log, i, "invalid may_goto imm %d", insn->imm);
		return 0;
	case BPF_JEQ: case BPF_JGT: case BPF_JGE: case BPF_JSET: case BPF_JNE:
	case BPF_JSGT: case BPF_JSGE: case BPF_JLT: case BPF_JLE: case BPF_JSLT: case BPF_JSLE:
		if (is_x ? insn->imm != 0 : insn->src_reg != 0)
			return reject(log, i, "BPF_JMP/JMP32 uses reserved fields");
		return 0;
	default:
		return reject(log, i, "unknown opcode 0x%02x", insn->code);
	}
}

static int check_ld(const struct bpf_insn *insn, u32 i, u32 len, struct nb_log *log)
{
	u8 mode = BPF_MODE(insn->code);

	if (insn_is_ldimm64(insn)) {
		const struct bpf_insn *hi = insn + 1;

		if (i + 1 >= len || hi->code != 0 || hi->dst_reg != 0 || hi->src_reg != 0 ||
		    hi->off != 0)
			return reject(log, i, "invalid bpf_ld_imm64 insn");
		if (insn->off != 0)
			return reject(log, i, "BPF_LD_IMM uses reserved fields");
		switch (insn->src_reg) {
		case 0:
		case BPF_PSEUDO_MAP_FD:
		case BPF_PSEUDO_MAP_VALUE:
		case BPF_PSEUDO_MAP_IDX:
		case BPF_PSEUDO_MAP_IDX_VALUE:
			return 0;
		case BPF_PSEUDO_FUNC:
			if (hi->imm != 0)
				return reject(log, i, "BPF_PSEUDO_FUNC uses reserved fields");
			return 0;
		case BPF_PSEUDO_BTF_ID:
			return reject(log, i, "ldimm64 of kernel BTF ids is not supported");
		default:
			return reject(log, i, "unrecognized bpf_ld_imm64 insn");
		}
	}
	if ((mode == BPF_ABS || mode == BPF_IND) && BPF_SIZE(insn->code) != BPF_DW) {
		if (insn->dst_reg != 0 || insn->off != 0 || (mode == BPF_ABS && insn->src_reg != 0))
			return reject(log, i, "BPF_LD_[ABS|IND] uses reserved fields");
		return 0;
	}
	return reject(log, i, "unknown opcode 0x%02x", insn->code);
}

static int check_mem(const struct bpf_insn *insn, u32 i, struct nb_log *log)
{
	u8 mode = BPF_MODE(insn->code);
	u8 size = BPF_SIZE(insn->code);

	switch (insn_class(insn)) {
	case BPF_LDX:
		if (mode != BPF_MEM && !(mode == BPF_MEMSX && size != BPF_DW))
			return reject(log, i, "unknown opcode 0x%02x", insn->code);
		if (insn->imm != 0)
			return reject(log, i, "BPF_LDX uses reserved fields");
		return 0;
	case BPF_ST:
		if (mode != BPF_MEM)
			return reject(log, i, "unknown opcode 0x%02x", insn->code);
		if (insn->src_reg != 0)
			return reject(log, i, "BPF_ST uses reserved fields");
		return 0;
	default: /* BPF_STX */
		if (mode == BPF_MEM) {
			if (insn->imm != 0)
				return reject(log, i, "BPF_STX uses reserved fields");
			return 0;
		}
		if (mode != BPF_ATOMIC || (size != BPF_W && size != BPF_DW))
			return reject(log, i, "unknown opcode 0x%02x", insn->code);
		switch (insn->imm) {
		case BPF_ADD: case BPF_ADD | BPF_FETCH:
		case BPF_AND: case BPF_AND | BPF_FETCH:
		case BPF_OR: case BPF_OR | BPF_FETCH:
		case BPF_XOR: case BPF_XOR | BPF_FETCH:
		case BPF_XCHG: case BPF_CMPXCHG:
			return 0;
		default:
			return reject(log, i, "BPF_ATOMIC uses invalid atomic opcode 0x%02x",
				      insn->imm);
		}
	}
}

/*
 * Registers read and written: none beyond r10. For a program run without a proof, r10 is
 * never written anywhere; the verifier checks it only on the paths it walks, as the kernel's
 * does (a write in code no path reaches is no error, and never runs).
 */
static int check_regs(const struct bpf_insn *insn, u32 i, bool unverified, struct nb_log *log)
{
	u8 cls = insn_class(insn);
	bool writes_dst = cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX ||
			  insn_is_ldimm64(insn);

	if (insn->dst_reg >= NB_MAX_BPF_REG)
		return reject(log, i, "R%d is invalid", insn->dst_reg);
	if (insn->src_reg >= NB_MAX_BPF_REG && !insn_is_ldimm64(insn) && !insn_is_call(insn))
		return reject(log, i, "R%d is invalid", insn->src_reg);
	if (!unverified)
		return 0;
	if (writes_dst && insn->dst_reg == BPF_REG_10)
		return reject(log, i, "frame pointer is read only");
	if (insn_is_atomic(insn) && (insn->imm & BPF_FETCH) && insn->imm != BPF_CMPXCHG &&
	    insn->src_reg == BPF_REG_10)
		return reject(log, i, "frame pointer is read only");
	return 0;
}

static int check_opcode(const struct bpf_insn *insn, u32 i, u32 len, struct nb_log *log)
{
	switch (insn_class(insn)) {
	case BPF_ALU:
	case BPF_ALU64:
		return check_alu(insn, i, log);
	case BPF_JMP:
	case BPF_JMP32:
		return check_jmp(insn, i, log);
	case BPF_LD:
		return check_ld(insn, i, len, log);
	default:
		return check_mem(insn, i, log);
	}
}

/* Subprogram boundaries: insn 0 and every target of a bpf-to-bpf call or callback reference. */
static int mark_subprogs(const struct bpf_insn *insns, u32 len, const bool *second_half,
			 bool *subprog_start, struct nb_log *log)
{
	subprog_start[0] = true;
	for (u32 i = 0; i < len; i++) {
		const struct bpf_insn *insn = &insns[i];
		s64 target;

		if (second_half[i])
			continue;
		if (!insn_is_pseudo_call(insn) &&
		    !(insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC))
			continue;
		target = (s64)i + 1 + insn->imm;
		if (target < 0 || target >= len)
			return reject(log, i, "call to invalid destination %lld",
				      (long long)target);
		if (second_half[target])
			return reject(log, i, "call into the middle of ldimm64 insn %lld",
				      (long long)target - 1);
		subprog_start[target] = true;
	}
	return 0;
}

/* Jumps stay inside their subprogram and never land on an ldimm64's second half. */
static int check_subprog_cfg(const struct bpf_insn *insns, u32 start, u32 end,
			     const bool *second_half, struct nb_log *log)
{
	u32 last = end - 1;

	for (u32 i = start; i < end; i++) {
		const struct bpf_insn *insn = &insns[i];
		s64 target;

		if (second_half[i] || !(insn_is_ja(insn) || insn_is_cond_jmp(insn)))
			continue;
		target = (s64)i + 1 + insn_jmp_off(insn);
		if (target < start || target >= end)
			return reject(log, i, "jump out of range from insn %u to %lld", i,
				      (long long)target);
		if (second_half[target])
			return reject(log, i, "jump into the middle of ldimm64 insn %lld",
				      (long long)target - 1);
	}
	if (second_half[last])
		last--;
	if (!insn_is_exit(&insns[last]) && !insn_is_ja(&insns[last]))
		return reject(log, last, "last insn is not an exit or jmp");
	return 0;
}

static int check_cfg(const struct bpf_insn *insns, u32 len, const bool *second_half,
		     const bool *subprog_start, struct nb_log *log)
{
	u32 start = 0;

	for (u32 end = 1; end <= len; end++) {
		int err;

		if (end < len && !subprog_start[end])
			continue;
		err = check_subprog_cfg(insns, start, end, second_half, log);
		if (err)
			return err;
		start = end;
	}
	return 0;
}

int nb_check_insns(struct nb_prog *prog, struct nb_log *log)
{
	const struct bpf_insn *insns = prog->insns;
	bool unverified = prog->load_flags & (NB_PROG_LOAD_CHECKED | NB_PROG_LOAD_UNSAFE_NO_VERIFY);
	u32 len = prog->len;
	bool *second_half, *subprog_start;
	int err = 0;

	if (len == 0) {
		nb_log_printf(log, "program is empty\n");
		return -EINVAL;
	}
	if (len > NB_MAX_INSNS) {
		nb_log_printf(log, "program has %u instructions, more than the limit of %u\n", len,
			      NB_MAX_INSNS);
		return -E2BIG;
	}
	second_half = calloc(len, sizeof(*second_half));
	subprog_start = calloc(len, sizeof(*subprog_start));
	if (!second_half || !subprog_start) {
		err = -ENOMEM;
		goto out;
	}
	for (u32 i = 0; i < len; i++) {
		const struct bpf_insn *insn = &insns[i];

		err = check_opcode(insn, i, len, log);
		if (!err)
			err = check_regs(insn, i, unverified, log);
		if (!err && insn_class(insn) == BPF_LD && !insn_is_ldimm64(insn) &&
		    !prog->ops->ld_abs)
			err = reject(log, i, "BPF_LD_[ABS|IND] instructions not allowed for "
				     "program type %s", prog->ops->name);
		if (err)
			goto out;
		if (insn_is_ldimm64(insn))
			second_half[++i] = true;
	}
	err = mark_subprogs(insns, len, second_half, subprog_start, log);
	if (!err)
		err = check_cfg(insns, len, second_half, subprog_start, log);
out:
	free(second_half);
	free(subprog_start);
	return err;
}
