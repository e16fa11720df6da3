/* SPDX-License-Identifier: GPL-2.0 */
/* The disassembler: instructions in the kernel's verifier-log / llvm-objdump syntax. */
#ifndef NB_BPF_DISASM_H
#define NB_BPF_DISASM_H

#include <stddef.h>

#include <netbpf/disasm.h>

#include "bpf/insn.h"

/* nb_disasm_insn and nb_disasm_prog_insn are public: include/netbpf/disasm.h */

#endif /* NB_BPF_DISASM_H */
