/* SPDX-License-Identifier: GPL-2.0 */
/* The disassembler: instructions in the kernel's verifier-log / llvm-objdump syntax. */
#ifndef NB_BPF_DISASM_H
#define NB_BPF_DISASM_H

#include <stddef.h>

#include <netbpf/disasm.h>

#include "bpf/insn.h"

/* nb_disasm_insn, nb_disasm_prog_insn and nb_disasm_xlated_insn are public: netbpf/disasm.h */

/*
 * The pieces disasm.c (llvm-objdump's syntax) and disasm_xlated.c (the kernel's) share. The
 * text being built, with snprintf semantics: a short buffer truncates but never overflows.
 */
struct dis_out {
	char *buf;
	size_t size;
	size_t len;
};

void dis_emit(struct dis_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The operators both syntaxes spell alike, by BPF_OP(code) >> 4; NULL where there is none. */
extern const char *const dis_alu_op_str[16];
extern const char *const dis_jmp_cond_str[16];
extern const char *const dis_atomic_op_str[16];

/* "u8".."u64", or "s8".."s32" for a sign-extending load (NULL: there is no s64 load). */
const char *dis_mem_size_str(const struct bpf_insn *insn, bool sign);

/*
 * Shared by both syntaxes, on a loaded program's instructions: the map a resolved ldimm64
 * points at (value: into its value, *off the offset there), NULL when the program holds no
 * such map; the helper id behind a fixed-up call's table index (-1: no helper, a function of
 * the fixup's own); the name of such a function (NULL: none).
 */
struct nb_map;
struct nb_prog;

const struct nb_map *nb_disasm_used_map(const struct nb_prog *prog, u64 addr, bool value,
					u32 *off);
s32 nb_disasm_helper_id(const struct nb_prog *prog, s32 idx);
const char *nb_disasm_internal_name(const struct nb_prog *prog, s32 idx);

#endif /* NB_BPF_DISASM_H */
