// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's verdicts on real programs: every `core` program of the corpus compiled
 * from the kernel's samples/bpf and selftests/bpf (../shared/corpus: MANIFEST.tsv, described in
 * its README.md) is verified by netbpf on its own, as
 *
 *	netbpf prog verify OBJ sec SECTION program NAME type TYPE [--max-entries MAP=N]...
 *
 * does it (the object opened afresh, only that program loaded, the maps its tool sizes sized
 * as the manifest's max_entries_fixup says), and compared with the verdict and the processed
 * instruction count the kernel gave it. A program whose verdict differs is printed on a DIFF
 * line; the table after them counts agreements, netbpf's stricter and looser verdicts, and the
 * ratio of processed instructions (netbpf / kernel) over the programs both accept.
 *
 * tests/corpus/known_differences.tsv lists the differences known, each with its cause. The test
 * fails when a program differs and is not listed, or differs the other way from its entry,
 * and when a listed program now agrees: the list only shrinks. The manifest's load-error rows
 * (programs libbpf never handed to the kernel) have no verdict to compare with.
 *
 * The corpus is NB_CORPUS, else ../shared/corpus beside the repository, else
 * /work/shared/corpus; without one the test is skipped. NB_CORPUS_RESULTS=FILE writes every
 * program's two verdicts, counts and reasons there as a table, for whoever works through the
 * differences.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "corpus.h"
#include "test.h"
#include "tsv.h"

#define KNOWN_DIFFERENCES	"tests/corpus/known_differences.tsv"
/* Above this ratio a program misses issue 13's bound on processed instructions. */
#define RATIO_BOUND		1.5

enum verdict { ACCEPT, REJECT, LOAD_ERROR };

struct known_diff {
	const char *path, *program, *direction, *cause;
	unsigned int line;
	bool seen;
};

struct corpus_prog {
	const char *path, *section, *program, *type_word;
	enum bpf_prog_type type;
	enum verdict kernel;
	unsigned long kernel_processed;
	const char *kernel_reason;
	struct nb_object_map_size sizes[NB_CORPUS_MAX_SIZES];
	unsigned int size_cnt;
	char *size_names;		/* the names sizes[] point into */
	/* netbpf's verdict */
	bool accepted;
	unsigned int processed;
	char reason[240];
};

static int need_col(const struct nb_tsv *t, const char *file, const char *name)
{
	int c = nb_tsv_col(t, name);

	if (c < 0)
		NB_FAIL("%s has no column %s", file, name);
	return c;
}

/* The manifest's core rows. */
static struct corpus_prog *read_manifest(const char *file, struct nb_tsv *t, size_t *cnt)
{
	int c_path, c_sec, c_prog, c_type, c_verdict, c_processed, c_reason, c_stats, c_scope;
	struct corpus_prog *progs;
	char err[512];
	size_t n = 0;

	if (nb_tsv_read(file, t, err, sizeof(err)))
		NB_FAIL("%s", err);
	c_path = need_col(t, file, "path");
	c_sec = need_col(t, file, "section");
	c_prog = need_col(t, file, "program");
	c_type = need_col(t, file, "prog_type");
	c_verdict = need_col(t, file, "kernel_verdict");
	c_processed = need_col(t, file, "kernel_processed_insns");
	c_reason = need_col(t, file, "kernel_reject_reason");
	c_stats = need_col(t, file, "stats");
	c_scope = need_col(t, file, "scope");
	progs = calloc(t->nrows ? t->nrows : 1, sizeof(*progs));
	NB_ASSERT(progs);
	for (size_t i = 0; i < t->nrows; i++) {
		char **row = t->rows[i], where[64];
		struct corpus_prog *p = &progs[n];
		const char *v = row[c_verdict];

		if (strcmp(row[c_scope], "core"))
			continue;
		snprintf(where, sizeof(where), "MANIFEST.tsv:%u", t->lines[i]);
		p->path = row[c_path];
		/* libbpf's optional sections: SEC("?tc") is section tc */
		p->section = row[c_sec] + (row[c_sec][0] == '?');
		p->program = row[c_prog];
		p->type = nb_corpus_prog_type(row[c_type]);
		p->type_word = nb_corpus_type_word(row[c_type]);
		if (!p->type)
			NB_FAIL("%s: prog_type \"%s\" is unknown", where, row[c_type]);
		if (!strcmp(v, "accept"))
			p->kernel = ACCEPT;
		else if (!strcmp(v, "reject"))
			p->kernel = REJECT;
		else if (!strcmp(v, "load-error"))
			p->kernel = LOAD_ERROR;
		else
			NB_FAIL("%s: kernel_verdict \"%s\" is unknown", where, v);
		p->kernel_processed = strtoul(row[c_processed], NULL, 10);
		p->kernel_reason = row[c_reason];
		if (p->kernel == ACCEPT && !p->kernel_processed)
			NB_FAIL("%s: an accepted program without kernel_processed_insns", where);
		p->size_cnt = nb_corpus_map_sizes(row[c_stats], where, &p->size_names, p->sizes);
		n++;
	}
	*cnt = n;
	return progs;
}

static struct known_diff *read_known(struct nb_tsv *t, size_t *cnt)
{
	const char *file = KNOWN_DIFFERENCES;
	int c_path, c_prog, c_dir, c_cause;
	struct known_diff *known;
	char err[512];

	if (nb_tsv_read(file, t, err, sizeof(err)))
		NB_FAIL("%s", err);
	c_path = need_col(t, file, "path");
	c_prog = need_col(t, file, "program");
	c_dir = need_col(t, file, "direction");
	c_cause = need_col(t, file, "cause");
	known = calloc(t->nrows ? t->nrows : 1, sizeof(*known));
	NB_ASSERT(known);
	for (size_t i = 0; i < t->nrows; i++) {
		char **row = t->rows[i];
		struct known_diff *k = &known[i];

		*k = (struct known_diff){ row[c_path], row[c_prog], row[c_dir], row[c_cause],
					  t->lines[i], false };
		if (strcmp(k->direction, "stricter") && strcmp(k->direction, "looser"))
			NB_FAIL("%s:%u: direction \"%s\": stricter or looser", file, k->line,
				k->direction);
		if (!*k->cause)
			NB_FAIL("%s:%u: %s %s is listed without its cause", file, k->line,
				k->path, k->program);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(known[j].path, k->path) && !strcmp(known[j].program, k->program))
				NB_FAIL("%s:%u: %s %s is listed twice", file, k->line, k->path,
					k->program);
	}
	*cnt = t->nrows;
	return known;
}

/* The line of the loader's log that says why: the last one, but the "load failed" summary. */
static void take_reason(struct corpus_prog *p, const char *log)
{
	const char *best = NULL;
	size_t best_len = 0;

	for (const char *l = log; *l;) {
		size_t n = strcspn(l, "\n");

		if (n && !memmem(l, n, ": load failed: ", 15) && strncmp(l, "processed ", 10)) {
			best = l;
			best_len = n;
		}
		l += n + (l[n] == '\n');
	}
	if (!best)
		snprintf(p->reason, sizeof(p->reason), "(the log says nothing)");
	else
		snprintf(p->reason, sizeof(p->reason), "%.*s", (int)best_len, best);
	/* one field of a table row */
	for (char *c = p->reason; (c = strchr(c, '\t'));)
		*c = ' ';
}

static void verify(const char *corpus, struct corpus_prog *p, struct nb_log *log)
{
	struct nb_object_open_opts oo = { .sz = sizeof(oo), .log = log };
	struct nb_object_load_opts lo = {
		.sz = sizeof(lo),
		.prog_type = p->type,
		.log = log,
		.map_sizes = p->sizes,
		.map_size_cnt = p->size_cnt,
	};
	struct nb_object_prog *op, *chosen = NULL;
	struct nb_object *obj;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", corpus, p->path);
	nb_log_reset(log);
	if (nb_object_open_file(path, &oo, &obj)) {
		take_reason(p, nb_log_text(log));
		return;
	}
	nb_object_for_each_prog(op, obj) {
		bool want = !strcmp(nb_object_prog_name(op), p->program) &&
			    !strcmp(nb_object_prog_section(op), p->section);

		nb_object_prog_set_autoload(op, want);
		if (want)
			chosen = op;
	}
	if (!chosen)
		snprintf(p->reason, sizeof(p->reason), "netbpf finds no program %s in section %s",
			 p->program, p->section);
	else if (nb_object_load(obj, &lo))
		take_reason(p, nb_log_text(log));
	else if (nb_object_prog_prog(chosen)) {
		p->accepted = true;
		p->processed = nb_prog_verified_insns(nb_object_prog_prog(chosen));
	} else {
		snprintf(p->reason, sizeof(p->reason), "the object loaded without the program");
	}
	nb_object_close(obj);
	/* every program on its own, as kload clears the pin paths: nothing shared */
	nb_unpin_all();
}

/*
 * A refusal for what netbpf lacks rather than for what the kernel refuses: an agreement by
 * accident, which may turn looser when the feature comes.
 */
static bool lacks_feature(const char *reason)
{
	return strstr(reason, "not implemented by netbpf") ||
	       strstr(reason, "not supported by netbpf") ||
	       strstr(reason, "which netbpf does not implement");
}

static struct known_diff *find_known(struct known_diff *known, size_t cnt,
				     const struct corpus_prog *p)
{
	for (size_t i = 0; i < cnt; i++)
		if (!strcmp(known[i].path, p->path) && !strcmp(known[i].program, p->program))
			return &known[i];
	return NULL;
}

/* What a user runs to see the difference. */
static void print_command(const char *corpus, const struct corpus_prog *p)
{
	printf("\tnetbpf prog verify %s/%s sec %s program %s type %s", corpus, p->path,
	       p->section, p->program, p->type_word);
	for (unsigned int i = 0; i < p->size_cnt; i++)
		printf(" --max-entries %s=%u", p->sizes[i].name, p->sizes[i].max_entries);
	printf(" -v\n");
}

static const char *const verdict_words[] = { "accept", "reject", "load-error" };

static void write_results(const char *file, const struct corpus_prog *progs, size_t cnt)
{
	FILE *f = fopen(file, "w");

	if (!f)
		NB_FAIL("NB_CORPUS_RESULTS=%s: %s", file, strerror(errno));
	fprintf(f, "path\tsection\tprogram\tprog_type\tkernel_verdict\tkernel_processed_insns\t"
		"netbpf_verdict\tnetbpf_processed_insns\tnetbpf_reject_reason\t"
		"kernel_reject_reason\n");
	for (size_t i = 0; i < cnt; i++) {
		const struct corpus_prog *p = &progs[i];
		bool compared = p->kernel != LOAD_ERROR;

		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%lu\t%s\t%u\t%s\t%s\n", p->path, p->section,
			p->program, p->type_word, verdict_words[p->kernel], p->kernel_processed,
			!compared ? "-" : p->accepted ? "accept" : "reject", p->processed,
			p->reason, p->kernel_reason);
	}
	if (fclose(f))
		NB_FAIL("NB_CORPUS_RESULTS=%s: %s", file, strerror(errno));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted v[n]. */
static double percentile(const double *v, size_t n, double pct)
{
	size_t rank = (size_t)ceil(pct / 100.0 * n);

	return v[rank ? rank - 1 : 0];
}

static double median(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The closing table's figures. */
struct tally {
	unsigned int agree_accept, agree_reject, stricter, looser, not_loaded;
	unsigned int lacking;	/* of agree_reject: refused for a feature netbpf lacks */
	unsigned int above;	/* of agree_accept: processed above RATIO_BOUND x the kernel's */
	double *ratios;		/* processed netbpf / kernel, one per agree_accept */
	unsigned int problems;	/* differences not as the list says */
};

/* Count p's verdicts; "stricter" or "looser" when they differ, else NULL. */
static const char *count(struct tally *t, const struct corpus_prog *p)
{
	if (p->kernel == ACCEPT && p->accepted) {
		double ratio = (double)p->processed / p->kernel_processed;

		t->ratios[t->agree_accept++] = ratio;
		if (ratio > RATIO_BOUND) {
			t->above++;
			printf("COST %s %s: kernel %lu, netbpf %u processed (%.2fx)\n", p->path,
			       p->program, p->kernel_processed, p->processed, ratio);
		}
		return NULL;
	}
	if (p->kernel == REJECT && !p->accepted) {
		t->agree_reject++;
		t->lacking += lacks_feature(p->reason);
		return NULL;
	}
	if (p->kernel == ACCEPT) {
		t->stricter++;
		printf("DIFF %s %s: kernel accept %lu / netbpf reject: %s\n", p->path, p->program,
		       p->kernel_processed, p->reason);
		return "stricter";
	}
	t->looser++;
	printf("DIFF %s %s: kernel reject / netbpf accept %u\n", p->path, p->program,
	       p->processed);
	return "looser";
}

/* Hold a difference (direction, or NULL when none) to the list's entry k (or none). */
static void check_listed(struct tally *t, const char *corpus, const struct corpus_prog *p,
			 const char *direction, struct known_diff *k)
{
	if (k)
		k->seen = true;
	if (direction && !k) {
		t->problems++;
		printf("\tnot in %s: list it with its cause, or fix it:\n", KNOWN_DIFFERENCES);
		print_command(corpus, p);
	} else if (direction && strcmp(k->direction, direction)) {
		t->problems++;
		printf("\t%s:%u lists it as %s\n", KNOWN_DIFFERENCES, k->line, k->direction);
	} else if (!direction && k) {
		t->problems++;
		printf("AGREE %s %s: listed at %s:%u (%s) but netbpf now agrees with the kernel: "
		       "take it off the list\n", p->path, p->program, KNOWN_DIFFERENCES, k->line,
		       k->cause);
	}
}

static void report(struct tally *t, size_t nknown, double seconds)
{
	unsigned int n = t->agree_accept;

	nb_test_report("corpus: %u core programs compared in %.0f s (%u the kernel never loaded "
		       "left out): agree %u (accept %u, reject %u), netbpf stricter %u, netbpf "
		       "looser %u", n + t->agree_reject + t->stricter + t->looser, seconds,
		       t->not_loaded, n + t->agree_reject, n, t->agree_reject, t->stricter,
		       t->looser);
	nb_test_report("of the %u both reject, netbpf refuses %u for a feature it lacks "
		       "(helper, map field, kptr) rather than for the kernel's reason",
		       t->agree_reject, t->lacking);
	qsort(t->ratios, n, sizeof(*t->ratios), cmp_double);
	if (n)
		nb_test_report("processed instructions netbpf/kernel over the %u both accept: "
			       "median %.2fx, p90 %.2fx, max %.2fx; %u above %.1fx", n,
			       median(t->ratios, n), percentile(t->ratios, n, 90),
			       t->ratios[n - 1], t->above, RATIO_BOUND);
	nb_test_report("%zu known differences (%s)", nknown, KNOWN_DIFFERENCES);
}

NB_TEST(corpus_kernel_verdicts)
{
	const char *corpus = nb_corpus_dir();
	struct nb_tsv manifest, known_tsv;
	struct nb_log log = { 0 };
	struct tally t = { 0 };
	struct corpus_prog *progs;
	struct known_diff *known;
	size_t nprogs, nknown;
	double t0 = now_s();
	char file[4096];

	if (!corpus)
		nb_test_skip("no corpus: set NB_CORPUS, or put it at ../shared/corpus beside the "
			     "repository");
	snprintf(file, sizeof(file), "%s/MANIFEST.tsv", corpus);
	progs = read_manifest(file, &manifest, &nprogs);
	known = read_known(&known_tsv, &nknown);
	t.ratios = calloc(nprogs ? nprogs : 1, sizeof(*t.ratios));
	NB_ASSERT(t.ratios);
	printf("corpus %s: %zu core programs\n", corpus, nprogs);

	for (size_t i = 0; i < nprogs; i++) {
		struct corpus_prog *p = &progs[i];
		struct known_diff *k = find_known(known, nknown, p);

		if (p->kernel == LOAD_ERROR) {
			t.not_loaded++;
			if (k)
				NB_FAIL("%s:%u: %s %s: the kernel never loaded it: nothing to list",
					KNOWN_DIFFERENCES, k->line, p->path, p->program);
			continue;
		}
		verify(corpus, p, &log);
		check_listed(&t, corpus, p, count(&t, p), k);
	}
	for (size_t i = 0; i < nknown; i++) {
		if (known[i].seen)
			continue;
		t.problems++;
		printf("%s:%u: %s %s is not a core program of the corpus\n", KNOWN_DIFFERENCES,
		       known[i].line, known[i].path, known[i].program);
	}
	if (getenv("NB_CORPUS_RESULTS"))
		write_results(getenv("NB_CORPUS_RESULTS"), progs, nprogs);
	report(&t, nknown, now_s() - t0);

	for (size_t i = 0; i < nprogs; i++)
		free(progs[i].size_names);
	free(progs);
	free(known);
	free(t.ratios);
	nb_tsv_free(&manifest);
	nb_tsv_free(&known_tsv);
	nb_log_free(&log);
	if (t.problems)
		NB_FAIL("%u differences from the kernel's verdicts are not as %s lists them (see "
			"above)", t.problems, KNOWN_DIFFERENCES);
}
