// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf bench jit [--quick] [--rounds N] [--repeat N]
 *
 * netbpf's JIT against the kernel's, per run: each program of a few example objects is loaded
 * into the running kernel and into netbpf (netbpf diff's loading, src/kcompare/diff.c) and run on
 * the same 64-byte TCP/IPv4 frame, repeat times in one BPF_PROG_TEST_RUN on the kernel's side
 * and in one nb_prog_test_run on netbpf's, in turn, for a few rounds. The figure is the calling
 * thread's CPU time per run over the whole call, the best of the rounds: the repeat loop with
 * its set-up spread over the runs, free of the time a loaded machine gives to others, and not
 * rounded to whole ns as the mean duration each side reports (shown beside it) is. The
 * kernel's loop does per run what bpf_test_run does around the program (bottom halves off,
 * the net context set, the timer's resched check); netbpf's, nb_prog_test_run's loop.
 */
#include <stdio.h>
#include <string.h>

#include "cli/bench_jit.h"
#include "cli/cli.h"
#include "kcompare/diff.h"
#include "ctl/ctl.h"
#include "ctl/json.h"

#define JIT_MAX_ROUNDS 20
#define JIT_MAX_REPEAT 100000000

struct jit_case {
	const char *name;	/* what the program does */
	const char *object;	/* in the examples directory */
	const char *section;
	unsigned int base;	/* the case of the empty program of its type */
};

static const struct jit_case cases[] = {
	{ "XDP_PASS", "pass.o", "xdp", 0 },
	{ "XDP parse, per-CPU count, DROP", "xdp_drop_proto.o", "xdp", 0 },
	{ "XDP parse, swap MACs, TX", "xdp_swap_mac_tx.o", "xdp", 0 },
	{ "XDP bpf_redirect_map, no entry", "xdp_redirect_map.o", "xdp", 0 },
	{ "TC_ACT_OK", "pass.o", "tc", 4 },
	{ "tc parse, count per flow (hash)", "tc_flow_count.o", "tc", 4 },
	{ "tc rewrite TCP/IPv4 (LD_ABS, csum)", "tcbpf1.o", "classifier", 4 },
	{ "tc bpf_redirect", "tcbpf1.o", "redirect_xmit", 4 },
};

#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

/* Ethernet, IPv4 (ihl 5, checksum right), TCP 1234 -> 80: 64 bytes. */
static const unsigned char frame[64] = {
	0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,
	0x45, 0x00, 0x00, 0x32, 0x00, 0x01, 0x40, 0x00, 0x40, 0x06, 0x26, 0xc1,
	10, 0, 0, 1, 10, 0, 0, 2,
	0x04, 0xd2, 0x00, 0x50, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x00,
};

struct jit_result {
	struct nb_diff_time best;	/* per side, the round with the least CPU time */
	bool kernel;			/* the kernel side ran */
	bool same_retval;		/* in every round */
	char why[256];			/* not empty: not measured (why), or the kernel's absence */
};

struct jit_opts {
	unsigned int rounds, repeat;
};

static void log_to(char *buf, size_t size, const struct nb_log *log, const char *fallback)
{
	const char *text = nb_log_text(log);
	size_t n;

	snprintf(buf, size, "%s", text && *text ? text : fallback);
	/* the log's last line break, and any before it, read as one line in a table */
	for (n = strlen(buf); n && buf[n - 1] == '\n'; n--)
		buf[n - 1] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

static void measure(const struct jit_case *c, const char *examples, const struct jit_opts *o,
		    struct jit_result *r)
{
	char path[4096];
	struct nb_diff_opts dopts = { .section = c->section, .kernel_optional = true };
	struct nb_log log = { 0 };
	struct nb_diff *d;
	int err;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/%s", examples, c->object);
	dopts.obj_path = path;
	err = nb_diff_open(&dopts, &d, &log);
	if (err) {
		log_to(r->why, sizeof(r->why), &log, strerror(-err));
		nb_log_free(&log);
		return;
	}
	r->kernel = nb_diff_has_kernel(d);
	if (!r->kernel)
		log_to(r->why, sizeof(r->why), &log, "the kernel cannot be reached");
	nb_log_reset(&log);
	r->same_retval = true;
	for (unsigned int round = 0; round < o->rounds; round++) {
		struct nb_diff_time t;

		err = nb_diff_time(d, frame, sizeof(frame), o->repeat, &t, &log);
		if (err) {
			log_to(r->why, sizeof(r->why), &log, strerror(-err));
			r->kernel = false;
			r->best.netbpf_cpu_ns = 0;
			break;
		}
		if (r->kernel && t.kernel_retval != t.netbpf_retval)
			r->same_retval = false;
		if (!round || t.kernel_cpu_ns < r->best.kernel_cpu_ns) {
			r->best.kernel_cpu_ns = t.kernel_cpu_ns;
			r->best.kernel_duration = t.kernel_duration;
			r->best.kernel_retval = t.kernel_retval;
		}
		if (!round || t.netbpf_cpu_ns < r->best.netbpf_cpu_ns) {
			r->best.netbpf_cpu_ns = t.netbpf_cpu_ns;
			r->best.netbpf_duration = t.netbpf_duration;
			r->best.netbpf_retval = t.netbpf_retval;
		}
	}
	nb_log_free(&log);
	nb_diff_close(d);
}

static bool measured(const struct jit_result *r)
{
	return r->best.netbpf_cpu_ns > 0;
}

static bool compared(const struct jit_result *r)
{
	return measured(r) && r->kernel && r->best.kernel_cpu_ns > 0;
}

/* A side's time beyond its empty program's: what the program's own code costs. */
static double own(const struct jit_result *res, unsigned int i, bool kernel)
{
	const struct nb_diff_time *t = &res[i].best, *b = &res[cases[i].base].best;

	return kernel ? t->kernel_cpu_ns - b->kernel_cpu_ns : t->netbpf_cpu_ns - b->netbpf_cpu_ns;
}

/* Times below this are the rounds' noise, not a program's cost to divide by. */
#define JIT_MIN_OWN_NS 0.5

static void print_text(const struct jit_opts *o, const struct jit_result *res)
{
	printf("netbpf bench jit: ns per run of the same program on the same 64-byte TCP/IPv4 "
	       "frame, BPF_PROG_TEST_RUN\nwith repeat %u in the kernel beside netbpf's test "
	       "run: the calling thread's CPU time per run over\nthe call, best of %u round%s (in "
	       "parentheses the mean duration each side reports); \"own\": the\ntime beyond the "
	       "empty program of its type on the same side (XDP_PASS, TC_ACT_OK): its code's\n\n",
	       o->repeat, o->rounds, o->rounds > 1 ? "s" : "");
	printf("%-54s %13s %13s %8s %7s %7s %6s\n", "program (object section)", "kernel",
	       "netbpf", "n / k", "k own", "n own", "n / k");
	for (unsigned int i = 0; i < NR_CASES; i++) {
		const struct jit_result *r = &res[i];
		char name[128], k[32] = "-", n[32] = "-", ratio[32] = "-";
		char kown[16] = "-", nown[16] = "-", oratio[16] = "-";

		snprintf(name, sizeof(name), "%s (%s %s)", cases[i].name, cases[i].object,
			 cases[i].section);
		if (measured(r))
			snprintf(n, sizeof(n), "%.2f (%u)", r->best.netbpf_cpu_ns,
				 r->best.netbpf_duration);
		if (compared(r)) {
			snprintf(k, sizeof(k), "%.2f (%u)", r->best.kernel_cpu_ns,
				 r->best.kernel_duration);
			snprintf(ratio, sizeof(ratio), "%.2f%s",
				 r->best.netbpf_cpu_ns / r->best.kernel_cpu_ns,
				 r->same_retval ? "" : " RETVAL DIFFERS");
		}
		if (compared(r) && compared(&res[cases[i].base]) && cases[i].base != i) {
			snprintf(kown, sizeof(kown), "%.2f", own(res, i, true));
			snprintf(nown, sizeof(nown), "%.2f", own(res, i, false));
			if (own(res, i, true) >= JIT_MIN_OWN_NS)
				snprintf(oratio, sizeof(oratio), "%.2f",
					 (own(res, i, false) > 0 ? own(res, i, false) : 0) /
					 own(res, i, true));
		}
		printf("%-54s %13s %13s %8s %7s %7s %6s\n", name, k, n, ratio, kown, nown,
		       oratio);
		/* diff.c's kernel reasons start with the side they are about: said once */
		if (r->why[0] && measured(r))
			printf("    kernel not measured: %s\n",
			       strncmp(r->why, "kernel: ", 8) ? r->why : r->why + 8);
		else if (r->why[0])
			printf("    not measured: %s\n", r->why);
	}
	printf("\ngoal: netbpf / kernel <= 1.00 (the JIT no slower per run than the kernel's)\n");
}

static void print_json(const struct jit_opts *o, const struct jit_result *res)
{
	struct nb_json *j = nb_json_new(stdout, nb_cli.pretty);

	nb_json_start_object(j, NULL);
	nb_json_uint(j, "repeat", o->repeat);
	nb_json_uint(j, "rounds", o->rounds);
	nb_json_double(j, "goal", 1.0);
	nb_json_start_array(j, "programs");
	for (unsigned int i = 0; i < NR_CASES; i++) {
		const struct jit_result *r = &res[i];

		nb_json_start_object(j, NULL);
		nb_json_string(j, "program", cases[i].name);
		nb_json_string(j, "object", cases[i].object);
		nb_json_string(j, "section", cases[i].section);
		if (measured(r)) {
			nb_json_double(j, "netbpf_ns", r->best.netbpf_cpu_ns);
			nb_json_uint(j, "netbpf_duration", r->best.netbpf_duration);
			nb_json_uint(j, "netbpf_retval", r->best.netbpf_retval);
		}
		if (compared(r)) {
			nb_json_double(j, "kernel_ns", r->best.kernel_cpu_ns);
			nb_json_uint(j, "kernel_duration", r->best.kernel_duration);
			nb_json_uint(j, "kernel_retval", r->best.kernel_retval);
			nb_json_double(j, "netbpf_over_kernel",
				       r->best.netbpf_cpu_ns / r->best.kernel_cpu_ns);
			nb_json_bool(j, "same_retval", r->same_retval);
			if (cases[i].base != i && compared(&res[cases[i].base])) {
				nb_json_double(j, "kernel_own_ns", own(res, i, true));
				nb_json_double(j, "netbpf_own_ns", own(res, i, false));
			}
		}
		if (r->why[0])
			nb_json_string(j, "missing", r->why);
		nb_json_end_object(j);
	}
	nb_json_end_array(j);
	nb_json_end_object(j);
	nb_json_free(j);
	putchar('\n');
}

int nb_cli_bench_jit(int argc, char **argv)
{
	struct jit_opts o = { .rounds = 3, .repeat = 1000000 };
	struct jit_result res[NR_CASES];
	const char *examples;
	bool differs = false;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "--quick")) {
			o.rounds = 1;
			o.repeat = 100000;
		} else if (!strcmp(w, "--rounds") && i + 1 < argc) {
			if (!nb_ctl_parse_u32(argv[++i], &o.rounds, 10) || !o.rounds ||
			    o.rounds > JIT_MAX_ROUNDS) {
				nb_cli_error("Error: argument \"%s\" is wrong: --rounds takes 1 to %d",
					     argv[i], JIT_MAX_ROUNDS);
				return NB_EXIT_USAGE;
			}
		} else if (!strcmp(w, "--repeat") && i + 1 < argc) {
			if (!nb_ctl_parse_u32(argv[++i], &o.repeat, 10) || !o.repeat ||
			    o.repeat > JIT_MAX_REPEAT) {
				nb_cli_error("Error: argument \"%s\" is wrong: --repeat takes 1 to "
					     "%d", argv[i], JIT_MAX_REPEAT);
				return NB_EXIT_USAGE;
			}
		} else {
			nb_cli_error("Error: argument \"%s\" is wrong: bench jit takes --quick, "
				     "--rounds N and --repeat N", w);
			return NB_EXIT_USAGE;
		}
	}
	examples = nb_cli_examples_dir();
	if (!examples) {
		fprintf(stderr, "Error: the example objects (pass.o, tcbpf1.o, ...) are not next "
			"to this netbpf (build/examples or PREFIX/share/netbpf/examples): run make\n");
		return NB_EXIT_ERR;
	}
	for (unsigned int i = 0; i < NR_CASES; i++) {
		measure(&cases[i], examples, &o, &res[i]);
		differs |= compared(&res[i]) && !res[i].same_retval;
	}
	if (nb_cli.json)
		print_json(&o, res);
	else
		print_text(&o, res);
	for (unsigned int i = 0; i < NR_CASES; i++)
		if (!measured(&res[i]))
			return NB_EXIT_ERR;
	/* the two sides must have done the same work for the times to compare */
	return differs ? NB_EXIT_ERR : NB_EXIT_OK;
}
