// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmarks' clock and report line (bench.h): shared by nb-bench and by netbpf bench,
 * whose kernel column measures with bench/kernel_baseline.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

static double clock_seconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void nb_bench_start(struct nb_bench_clock *clk)
{
	clk->wall = clock_seconds(CLOCK_MONOTONIC);
	clk->cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

void nb_bench_stop(struct nb_bench_clock *clk)
{
	clk->wall = clock_seconds(CLOCK_MONOTONIC) - clk->wall;
	clk->cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - clk->cpu;
}

double nb_bench_mpps(u64 ops, const struct nb_bench_clock *clk)
{
	return clk->cpu > 0 ? ops / clk->cpu / 1e6 : 0;
}

void nb_bench_report(const char *variant, u64 ops, const struct nb_bench_clock *clk,
		     const char *unit)
{
	double rate = nb_bench_mpps(ops, clk);

	printf("  %-44s %8.2f M%s  (%llu in %.3f s CPU, %.3f s wall)\n", variant, rate, unit,
	       (unsigned long long)ops, clk->cpu, clk->wall);
	fflush(stdout);
}

double nb_bench_scale(void)
{
	const char *s = getenv("NB_BENCH_SCALE");
	double v = s ? atof(s) : 1.0;

	return v > 0 ? v : 1.0;
}
