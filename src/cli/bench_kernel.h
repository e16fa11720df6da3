/* SPDX-License-Identifier: GPL-2.0 */
/* netbpf bench's kernel column (bench_kernel.c). */
#ifndef NB_CLI_BENCH_KERNEL_H
#define NB_CLI_BENCH_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

struct bench_kernel_result {
	double mpps;		/* frames per CPU second of the measuring child, in millions */
	double arrived_mpps;	/* the same, counted where the set-up sends them (0: not counted) */
	char why[256];		/* not empty: not measured, and why */
};

/*
 * Set-up setup ("cls_bpf da + bpf_redirect", ...) on the running kernel, on one CPU: the best
 * of rounds rounds of window seconds each. examples: the directory of the example objects.
 */
void bench_kernel_measure(const char *setup, const char *examples, unsigned int rounds,
			  double window, struct bench_kernel_result *res);
/* How the kernel's frames are made, for the table's note. */
extern const char bench_kernel_note[];

#endif /* NB_CLI_BENCH_KERNEL_H */
