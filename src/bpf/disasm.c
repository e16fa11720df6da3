// SPDX-License-Identifier: GPL-2.0
/* Placeholder until the disassembler lands: raw fields, clearly marked. */
#include <stdio.h>

#include "bpf/disasm.h"

int nb_disasm_insn(const struct bpf_insn *insn, size_t remaining, char *buf, size_t size)
{
	snprintf(buf, size, "(code 0x%02x dst r%u src r%u off %d imm %d)", insn->code,
		 insn->dst_reg, insn->src_reg, insn->off, insn->imm);
	return insn_is_ldimm64(insn) && remaining > 1 ? 2 : 1;
}
