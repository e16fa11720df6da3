/* SPDX-License-Identifier: GPL-2.0 */
/* The disassembler: instructions in the kernel's verifier-log / llvm-objdump syntax. */
#ifndef NB_BPF_DISASM_H
#define NB_BPF_DISASM_H

#include <stddef.h>

#include "bpf/insn.h"

/*
 * Write insn (and its second half for ldimm64) as text into buf, without a newline:
 * "r0 = *(u32 *)(r1 + 76)", "if r2 > r3 goto +5", "call bpf_redirect#23".
 * remaining counts the instructions from insn to the program's end. Returns the number of
 * instructions consumed (1, or 2 for ldimm64); never fails: undefined opcodes print as
 * "invalid insn 0x.." .
 */
int nb_disasm_insn(const struct bpf_insn *insn, size_t remaining, char *buf, size_t size);

struct nb_prog;

/*
 * The same for an instruction of a loaded program: map pointers and value addresses that the
 * loader wrote into ldimm64 print as the map's id ("map[id:3]", "map[id:3][0]+16"), and with
 * xlated (prog->insns, after the fixup) helper calls print by the helper they call.
 */
int nb_disasm_prog_insn(const struct nb_prog *prog, bool xlated, const struct bpf_insn *insn,
			size_t remaining, char *buf, size_t size);

#endif /* NB_BPF_DISASM_H */
