/* SPDX-License-Identifier: GPL-2.0 */
/* The disassembler: instructions in the kernel's verifier-log / llvm-objdump syntax. */
#ifndef NB_BPF_DISASM_H
#define NB_BPF_DISASM_H

#include <stddef.h>

#include <netbpf/disasm.h>

#include "bpf/insn.h"

/* nb_disasm_insn, nb_disasm_prog_insn and nb_disasm_xlated_insn are public: netbpf/disasm.h */

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
