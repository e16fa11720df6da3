// SPDX-License-Identifier: GPL-2.0
/* nb-bench: runs the registered benchmarks (bench.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

static struct nb_bench *benches;

void nb_bench_register(struct nb_bench *bench)
{
	struct nb_bench **pp = &benches;

	/* Sorted by name, so that the output order does not depend on link order. */
	while (*pp && strcmp((*pp)->name, bench->name) < 0)
		pp = &(*pp)->next;
	bench->next = *pp;
	*pp = bench;
}

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

static bool selected(const struct nb_bench *b, int argc, char **argv)
{
	if (argc < 2)
		return true;
	for (int i = 1; i < argc; i++)
		if (strstr(b->name, argv[i]))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	int ran = 0;

	for (struct nb_bench *b = benches; b; b = b->next) {
		if (!selected(b, argc, argv))
			continue;
		printf("%s: %s\n", b->name, b->desc);
		fflush(stdout);
		b->run();
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "nb-bench: no benchmark matches\n");
		return 1;
	}
	return 0;
}
