/* SPDX-License-Identifier: GPL-2.0 */
/* netbpf bench's bar chart (bench_chart.c). */
#ifndef NB_CLI_BENCH_CHART_H
#define NB_CLI_BENCH_CHART_H

#include <stddef.h>

/* One cluster of bars: a set-up's rates in Mpps; 0 leaves a bar out. */
struct bench_chart_row {
	const char *name;
	double seed, netbpf1, netbpfn, kernel;
};

/*
 * A PNG bar chart of rows at path, drawn by gnuplot (Debian's gnuplot-nox, installed for the
 * benchmarks by scripts/install-deps.sh bench). 0, or -1 with why filled in.
 */
int bench_chart_write(const char *path, const char *title, unsigned int workers,
		      const struct bench_chart_row *rows, unsigned int n, char *why,
		      size_t why_size);

#endif /* NB_CLI_BENCH_CHART_H */
