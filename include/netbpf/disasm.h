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

/*
 * An instruction of nb_prog_xlated as bpftool prog dump xlated prints it, in the kernel's
 * syntax (print_bpf_insn): "(bf) r6 = r1", "(15) if r0 == 0x0 goto pc+1", "(18) r1 =
 * map[id:3]", "(85) call bpf_redirect#23". dump (room for two) receives the instruction as the
 * kernel hands it out (bpf_insn_prepare_dump): a map pointer as the map's id, a helper call
 * with the helper's id, the tail call as the call of bpf_tail_call; the bytes bpftool's
 * "opcodes" prints. Returns the instructions consumed, 1 or 2 (ldimm64).
 */
int nb_disasm_xlated_insn(const struct nb_prog *prog, const struct bpf_insn *insn,
			  size_t remaining, struct bpf_insn dump[2], char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_DISASM_H */
