// SPDX-License-Identifier: GPL-2.0
/*
 * A loaded program's instructions as bpftool prog dump xlated prints them. Two steps, as in the
 * kernel: the instruction is first put back into the form BPF_OBJ_GET_INFO_BY_FD hands out
 * (bpf_insn_prepare_dump: a map pointer becomes the map's id, a value address the id and the
 * offset, the fixup's tail call the call of bpf_tail_call it was), then printed in the syntax of
 * the kernel's print_bpf_insn with bpftool's callbacks: the opcode in hex first, "(r10 -4)",
 * "goto pc+3", comparisons with hex immediates, "map[id:3]", helpers as "name#id".
 *
 * Where netbpf's fixup differs from the kernel's the instructions differ, not the syntax: a
 * helper call keeps the helper's id where the kernel's holds a kernel address (bpftool then
 * names the kernel function it finds there), a hash lookup calls the map's own lookup
 * function by netbpf's name, and the per-CPU index load prints as "this_cpu".
 */
#include "bpf/callback.h"
#include "bpf/disasm.h"
#include "bpf/helper_proto.h"
#include "bpf/map.h"
#include "bpf/prog.h"

static const char *const kclass_str[8] = {
	[BPF_LD] = "ld",   [BPF_LDX] = "ldx", [BPF_ST] = "st",	   [BPF_STX] = "stx",
	[BPF_ALU] = "alu", [BPF_JMP] = "jmp", [BPF_JMP32] = "jmp32", [BPF_ALU64] = "alu64",
};

/*
 * The instruction as the kernel hands it out (bpf_insn_prepare_dump), into dump: one
 * instruction, two for ldimm64.
 */
static void prepare(const struct nb_prog *prog, const struct bpf_insn *insn, size_t remaining,
		    struct bpf_insn *dump)
{
	bool ldimm64 = insn_is_ldimm64(insn) && remaining > 1;

	dump[0] = insn[0];
	if (ldimm64)
		dump[1] = insn[1];
	if (insn->code == NB_OP_TAIL_CALL) {
		dump->code = BPF_JMP | BPF_CALL;
		dump->imm = BPF_FUNC_tail_call;
	} else if (insn->code == (BPF_JMP | BPF_CALL) && !insn->src_reg) {
		s32 id = nb_disasm_helper_id(prog, insn->imm);

		if (id >= 0)
			dump->imm = id;
	} else if (ldimm64 && insn->src_reg == BPF_PSEUDO_FUNC) {
		/* the callback's descriptor back to the subprogram's offset */
		for (u32 k = 0; k < prog->callback_cnt; k++) {
			const struct nb_callback *cb = &prog->callbacks[k];

			if ((u64)(uintptr_t)cb != insn_ldimm64_val(insn) || insn < prog->insns ||
			    insn >= prog->insns + prog->len)
				continue;
			dump[0].imm = (s32)cb->insn_off - (s32)(insn - prog->insns) - 1;
			dump[1].imm = 0;
		}
	} else if (ldimm64 && (insn->src_reg == BPF_PSEUDO_MAP_FD ||
			       insn->src_reg == BPF_PSEUDO_MAP_VALUE)) {
		bool value = insn->src_reg == BPF_PSEUDO_MAP_VALUE;
		const struct nb_map *map;
		u32 off = 0;

		map = nb_disasm_used_map(prog, insn_ldimm64_val(insn), value, &off);
		if (map) {
			dump[0].imm = map->id;
			dump[1].imm = off;
		}
	}
}

static void kalu(struct dis_out *o, const struct bpf_insn *insn)
{
	char r = insn_class(insn) == BPF_ALU ? 'w' : 'r';
	u8 op = BPF_OP(insn->code);

	if (op == BPF_END) {
		if (insn_class(insn) == BPF_ALU64)
			dis_emit(o, "(%02x) r%d = bswap%d r%d", insn->code, insn->dst_reg,
				 insn->imm, insn->dst_reg);
		else
			dis_emit(o, "(%02x) r%d = %s%d r%d", insn->code, insn->dst_reg,
				 BPF_SRC(insn->code) == BPF_TO_BE ? "be" : "le", insn->imm,
				 insn->dst_reg);
	} else if (op == BPF_NEG) {
		dis_emit(o, "(%02x) %c%d = -%c%d", insn->code, r, insn->dst_reg, r, insn->dst_reg);
	} else if (BPF_SRC(insn->code) == BPF_X && op == BPF_MOV && insn->off) {
		dis_emit(o, "(%02x) %c%d = (s%d)%c%d", insn->code, r, insn->dst_reg, insn->off, r,
			 insn->src_reg);
	} else {
		bool sign = (op == BPF_DIV || op == BPF_MOD) && insn->off == 1;

		dis_emit(o, "(%02x) %c%d %s%s ", insn->code, r, insn->dst_reg, sign ? "s" : "",
			 dis_alu_op_str[op >> 4] ?: "?");
		if (BPF_SRC(insn->code) == BPF_X)
			dis_emit(o, "%c%d", r, insn->src_reg);
		else
			dis_emit(o, "%d", insn->imm);
	}
}

static void kstx(struct dis_out *o, const struct bpf_insn *insn)
{
	const char *size = dis_mem_size_str(insn, false);
	bool dw = BPF_SIZE(insn->code) == BPF_DW;
	s32 op = insn->imm & ~BPF_FETCH;

	if (BPF_MODE(insn->code) == BPF_MEM) {
		dis_emit(o, "(%02x) *(%s *)(r%d %+d) = r%d", insn->code, size, insn->dst_reg,
			 insn->off, insn->src_reg);
		return;
	}
	if (BPF_MODE(insn->code) != BPF_ATOMIC) {
		dis_emit(o, "BUG_%02x", insn->code);
		return;
	}
	switch (insn->imm) {
	case BPF_ADD: case BPF_AND: case BPF_OR: case BPF_XOR:
		dis_emit(o, "(%02x) lock *(%s *)(r%d %+d) %s r%d", insn->code, size, insn->dst_reg,
			 insn->off, dis_alu_op_str[insn->imm >> 4], insn->src_reg);
		return;
	case BPF_ADD | BPF_FETCH: case BPF_AND | BPF_FETCH:
	case BPF_OR | BPF_FETCH: case BPF_XOR | BPF_FETCH:
		dis_emit(o, "(%02x) r%d = atomic%s_fetch_%s((%s *)(r%d %+d), r%d)", insn->code,
			 insn->src_reg, dw ? "64" : "", dis_atomic_op_str[op >> 4], size,
			 insn->dst_reg, insn->off, insn->src_reg);
		return;
	case BPF_CMPXCHG:
		dis_emit(o, "(%02x) r0 = atomic%s_cmpxchg((%s *)(r%d %+d), r0, r%d)", insn->code,
			 dw ? "64" : "", size, insn->dst_reg, insn->off, insn->src_reg);
		return;
	case BPF_XCHG:
		dis_emit(o, "(%02x) r%d = atomic%s_xchg((%s *)(r%d %+d), r%d)", insn->code,
			 insn->src_reg, dw ? "64" : "", size, insn->dst_reg, insn->off,
			 insn->src_reg);
		return;
	}
	dis_emit(o, "BUG_%02x", insn->code);
}

static void kldx(struct dis_out *o, const struct bpf_insn *insn)
{
	u8 mode = BPF_MODE(insn->code);

	if ((mode != BPF_MEM && mode != BPF_MEMSX) ||
	    (mode == BPF_MEMSX && BPF_SIZE(insn->code) == BPF_DW)) {
		dis_emit(o, "BUG_ldx_%02x", insn->code);
		return;
	}
	dis_emit(o, "(%02x) r%d = *(%s *)(r%d %+d)", insn->code, insn->dst_reg,
		 dis_mem_size_str(insn, mode == BPF_MEMSX), insn->src_reg, insn->off);
}

/* bpftool's print_imm: the map an ldimm64 names, or the constant. */
static void kldimm64(struct dis_out *o, const struct bpf_insn *insn)
{
	dis_emit(o, "(%02x) r%d = ", insn->code, insn->dst_reg);
	switch (insn->src_reg) {
	case BPF_PSEUDO_MAP_FD:
		dis_emit(o, "map[id:%u]", (u32)insn[0].imm);
		return;
	case BPF_PSEUDO_MAP_VALUE:
		dis_emit(o, "map[id:%u][0]+%u", (u32)insn[0].imm, (u32)insn[1].imm);
		return;
	case BPF_PSEUDO_MAP_IDX_VALUE:
		dis_emit(o, "map[idx:%u]+%u", (u32)insn[0].imm, (u32)insn[1].imm);
		return;
	case BPF_PSEUDO_FUNC:
		dis_emit(o, "subprog[%+d]", insn->imm);
		return;
	}
	dis_emit(o, "0x%llx", (unsigned long long)insn_ldimm64_val(insn));
}

static void kld(struct dis_out *o, const struct bpf_insn *insn, size_t remaining)
{
	if (BPF_MODE(insn->code) == BPF_ABS)
		dis_emit(o, "(%02x) r0 = *(%s *)skb[%d]", insn->code,
			 dis_mem_size_str(insn, false), insn->imm);
	else if (BPF_MODE(insn->code) == BPF_IND)
		dis_emit(o, "(%02x) r0 = *(%s *)skb[r%d + %d]", insn->code,
			 dis_mem_size_str(insn, false), insn->src_reg, insn->imm);
	else if (insn_is_ldimm64(insn) && remaining > 1)
		kldimm64(o, insn);
	else if (insn->code == NB_OP_THIS_CPU)
		dis_emit(o, "(%02x) r%d = this_cpu", insn->code, insn->dst_reg);
	else
		dis_emit(o, "BUG_ld_%02x", insn->code);
}

/*
 * A call: a helper by the kernel's name and its id, a function of the fixup's own by netbpf's
 * name and its table index, a subprogram by its offset (bpftool's form for a program without
 * JIT symbols).
 */
static void kcall(struct dis_out *o, const struct nb_prog *prog, const struct bpf_insn *dump,
		  const struct bpf_insn *insn)
{
	const char *name = NULL;

	if (dump->src_reg == BPF_PSEUDO_CALL) {
		dis_emit(o, "(%02x) call pc%+d", dump->code, dump->imm);
		return;
	}
	if (!dump->src_reg && dump->imm >= 0 && dump->imm < __BPF_FUNC_MAX_ID &&
	    (insn->code == NB_OP_TAIL_CALL || nb_disasm_helper_id(prog, insn->imm) >= 0))
		name = nb_helper_name(dump->imm);
	else if (!dump->src_reg)
		name = nb_disasm_internal_name(prog, insn->imm);
	dis_emit(o, "(%02x) call %s#%d", dump->code, name ?: "unknown", dump->imm);
}

static void kjmp(struct dis_out *o, const struct nb_prog *prog, const struct bpf_insn *dump,
		 const struct bpf_insn *insn)
{
	char r = insn_class(dump) == BPF_JMP32 ? 'w' : 'r';
	u8 op = BPF_OP(dump->code);

	if (op == BPF_CALL && insn_class(dump) == BPF_JMP)
		kcall(o, prog, dump, insn);
	else if (dump->code == (BPF_JMP | BPF_JA))
		dis_emit(o, "(%02x) goto pc%+d", dump->code, dump->off);
	else if (dump->code == (BPF_JMP32 | BPF_JA))
		dis_emit(o, "(%02x) gotol pc%+d", dump->code, dump->imm);
	else if (dump->code == (BPF_JMP | BPF_JCOND))
		dis_emit(o, "(%02x) may_goto pc%+d", dump->code, dump->off);
	else if (dump->code == (BPF_JMP | BPF_EXIT))
		dis_emit(o, "(%02x) exit", dump->code);
	else if (!dis_jmp_cond_str[op >> 4])
		dis_emit(o, "(%02x) %s", dump->code, kclass_str[insn_class(dump)]);
	else if (BPF_SRC(dump->code) == BPF_X)
		dis_emit(o, "(%02x) if %c%d %s %c%d goto pc%+d", dump->code, r, dump->dst_reg,
			 dis_jmp_cond_str[op >> 4], r, dump->src_reg, dump->off);
	else
		dis_emit(o, "(%02x) if %c%d %s 0x%x goto pc%+d", dump->code, r, dump->dst_reg,
			 dis_jmp_cond_str[op >> 4], (u32)dump->imm, dump->off);
}

int nb_disasm_xlated_insn(const struct nb_prog *prog, const struct bpf_insn *insn,
			  size_t remaining, struct bpf_insn dump[2], char *buf, size_t size)
{
	struct dis_out o = { .buf = buf, .size = size };
	int n = insn_is_ldimm64(insn) && remaining > 1 ? 2 : 1;

	if (size)
		buf[0] = '\0';
	prepare(prog, insn, remaining, dump);
	switch (insn_class(dump)) {
	case BPF_ALU:
	case BPF_ALU64:
		kalu(&o, dump);
		break;
	case BPF_STX:
		kstx(&o, dump);
		break;
	case BPF_ST:
		if (BPF_MODE(dump->code) != BPF_MEM)
			dis_emit(&o, "BUG_st_%02x", dump->code);
		else
			dis_emit(&o, "(%02x) *(%s *)(r%d %+d) = %d", dump->code,
				 dis_mem_size_str(dump, false), dump->dst_reg, dump->off,
				 dump->imm);
		break;
	case BPF_LDX:
		kldx(&o, dump);
		break;
	case BPF_LD:
		kld(&o, dump, remaining);
		break;
	default:
		kjmp(&o, prog, dump, insn);
		break;
	}
	return n;
}
