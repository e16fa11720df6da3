// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf bench's bar chart: one cluster per set-up (the seed's published figure, netbpf with
 * one worker and with several, the running kernel on one CPU), written as a gnuplot script
 * with the numbers inline and drawn by gnuplot's pngcairo terminal. Nothing of the chart's
 * shape is computed here: gnuplot lays it out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cli/bench_chart.h"

/* A bar's value, or NaN: gnuplot leaves the bar out. */
static void value(FILE *p, double v)
{
	if (v > 0)
		fprintf(p, " %.2f", v);
	else
		fprintf(p, " NaN");
}

int bench_chart_write(const char *path, const char *title, unsigned int workers,
		      const struct bench_chart_row *rows, unsigned int n, char *why,
		      size_t why_size)
{
	/*
	 * Both of gnuplot's streams to /dev/null, and the shell's "not found" with them: our
	 * stdout may be the -j document, and the exit status says all the caller needs.
	 */
	FILE *p = popen("gnuplot >/dev/null 2>&1", "w");
	int status;

	if (!p) {
		snprintf(why, why_size, "cannot run gnuplot: %s", strerror(errno));
		return -1;
	}
	fprintf(p, "set terminal pngcairo noenhanced size 1400,760 font 'sans,10'\n"
		"set output '%s'\n"
		"set title \"%s\"\n"
		"set style data histogram\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.85 border -1\n"
		"set boxwidth 0.9\n"
		"set datafile missing 'NaN'\n"
		"set ylabel 'Mpps (per CPU second)'\n"
		"set yrange [0:*]\n"
		"set grid ytics\n"
		"set key top left\n"
		"set xtics rotate by -25 scale 0 font ',9'\n"
		"set bmargin 9\n"
		"$d << EOD\n", path, title);
	for (unsigned int i = 0; i < n; i++) {
		/* the name up to its parenthesis: the label stays short */
		int len = (int)strcspn(rows[i].name, "(");

		while (len > 0 && rows[i].name[len - 1] == ' ')
			len--;
		fprintf(p, "\"%.*s\"", len, rows[i].name);
		value(p, rows[i].seed);
		value(p, rows[i].netbpf1);
		value(p, rows[i].netbpfn);
		value(p, rows[i].kernel);
		fputc('\n', p);
	}
	fprintf(p, "EOD\n"
		"plot $d using 2:xtic(1) title 'seed (the patches, one CPU)', "
		"'' using 3 title 'netbpf, 1 worker', "
		"'' using 4 title 'netbpf, %u workers', "
		"'' using 5 title 'running kernel, 1 CPU (this run)'\n", workers);
	status = pclose(p);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, why_size, "%s",
			 WIFEXITED(status) && WEXITSTATUS(status) == 127 ?
			 "gnuplot is not installed (scripts/install-deps.sh bench installs it)" :
			 "gnuplot failed on the chart's script");
		return -1;
	}
	return 0;
}
