// SPDX-License-Identifier: GPL-2.0
/* nb-bench: runs the registered benchmarks (bench.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
