/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program's instructions as bpftool prog dump xlated prints them (prog_xlated.c): the prog
 * words of scripts and daemons, and netbpf prog dump xlated on an object file.
 */
#ifndef NB_CTL_PROG_XLATED_H
#define NB_CTL_PROG_XLATED_H

#include <stdio.h>

struct nb_json;
struct nb_prog;

/* bpftool's options of prog dump xlated. */
#define NB_XLATED_OPCODES (1U << 0)	/* each instruction's bytes */
#define NB_XLATED_LINUM (1U << 1)	/* the file, line and column of each source line */

/*
 * Every instruction of nb_prog_xlated in the kernel's syntax, each function's prototype and
 * the source lines before the instructions they made (when the program has BTF), as text on
 * out or, with j, bpftool's JSON array (j's member name; NULL: a value) of instruction objects
 * ("proto", "src", "disasm", "opcodes").
 */
void nb_ctl_prog_dump_xlated(FILE *out, struct nb_json *j, const char *name,
			     const struct nb_prog *prog, unsigned int flags);

#endif /* NB_CTL_PROG_XLATED_H */
