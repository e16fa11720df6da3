/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The disassembler: BPF instructions in the kernel's verifier-log and llvm-objdump syntax, as
 * bpftool prog dump xlated prints them.
 */
#ifndef NETBPF_DISASM_H
#define NETBPF_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_prog;

/*
 * Write insn (and its second half for ldimm64) as text into buf, without a newline:
 * "r0 = *(u32 *)(r1 + 76)", "if r2 > r3 goto +5", "call bpf_redirect#23".
 * remaining counts the instructions from insn to the program's end. Returns the number of
 * instructions consumed (1, or 2 for ldimm64); never fails: undefined opcodes print as
 * "invalid insn 0x.." .
 */
int nb_disasm_insn(const struct bpf_insn *insn, size_t remaining, char *buf, size_t size);
/*
 * The same for an instruction of a loaded program: map pointers and value addresses that the
 * loader wrote into ldimm64 print as the map's id ("map[id:3]", "map[id:3][0]+16"), and with
 * xlated (the instructions of nb_prog_xlated) helper calls print by the helper they call.
 */
int nb_disasm_prog_insn(const struct nb_prog *prog, bool xlated, const struct bpf_insn *insn,
			size_t remaining, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_DISASM_H */
