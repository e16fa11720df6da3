/* SPDX-License-Identifier: GPL-2.0 */
/* netbpf bench jit (bench_jit.c): the JIT per run against the kernel's. */
#ifndef NB_CLI_BENCH_JIT_H
#define NB_CLI_BENCH_JIT_H

/* The words after "bench jit"; an NB_EXIT_* status. */
int nb_cli_bench_jit(int argc, char **argv);

#endif /* NB_CLI_BENCH_JIT_H */
