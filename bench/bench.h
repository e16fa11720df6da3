/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benchmarks of `make bench` (build/nb-bench): each file in bench/ registers its scenarios with
 * NB_BENCH; nb-bench runs them all, or those whose name contains one of its arguments, and
 * prints one line per measured variant, so that variants of one scenario read side by side.
 * Speeds are shown, never asserted.
 */
#ifndef NB_BENCH_H
#define NB_BENCH_H

#include "common/types.h"

struct nb_bench {
	const char *name;
	const char *desc;
	void (*run)(void);
	struct nb_bench *next;
};

void nb_bench_register(struct nb_bench *bench);

#define NB_BENCH(fn, text)                                                                  \
	static void fn(void);                                                               \
	static struct nb_bench nb_bench_##fn = { .name = #fn, .desc = text, .run = fn };    \
	static void __attribute__((constructor)) nb_bench_register_##fn(void)               \
	{                                                                                   \
		nb_bench_register(&nb_bench_##fn);                                          \
	}                                                                                   \
	static void fn(void)

/*
 * A measurement: wall and this thread's CPU seconds. The machine is shared, so rates are
 * computed from CPU time (what the code costs); the wall time is shown beside them.
 */
struct nb_bench_clock {
	double wall;
	double cpu;
};

void nb_bench_start(struct nb_bench_clock *clk);
/* Seconds since start, wall and CPU. */
void nb_bench_stop(struct nb_bench_clock *clk);
/* One result line: "  variant  123.45 Mpps  (n in c s CPU, w s wall)". */
void nb_bench_report(const char *variant, u64 ops, const struct nb_bench_clock *clk,
		     const char *unit);
/* The rate nb_bench_report prints, in millions per CPU second. */
double nb_bench_mpps(u64 ops, const struct nb_bench_clock *clk);
/* A scale factor from NB_BENCH_SCALE (default 1.0): CI or a quick look may shrink the runs. */
double nb_bench_scale(void);

#endif /* NB_BENCH_H */
