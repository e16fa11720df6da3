// SPDX-License-Identifier: GPL-2.0
/*
 * Architecture dispatch for the JIT. Until an architecture back end exists, every program runs
 * on the interpreter.
 */
#include <errno.h>

#include "bpf/jit.h"

int nb_jit_compile(struct nb_prog *prog, struct nb_log *log)
{
	return -EOPNOTSUPP;
}

void nb_jit_free(struct nb_prog *prog)
{
}
