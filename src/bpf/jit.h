/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JIT entry points. nb_jit_compile leaves prog->jited NULL when the architecture has no JIT or
 * the program cannot be compiled; the interpreter then runs it.
 */
#ifndef NB_BPF_JIT_H
#define NB_BPF_JIT_H

#include "bpf/prog.h"

int nb_jit_compile(struct nb_prog *prog, struct nb_log *log);
void nb_jit_free(struct nb_prog *prog);

#endif /* NB_BPF_JIT_H */
