// SPDX-License-Identifier: GPL-2.0
/*
 * README.md's helper table (### Helpers) held to the code, so that it cannot go stale: a row
 * for every helper Linux offers tc, XDP or socket filter programs and for no other, each
 * column what nb_helper_avail answers (`yes`, `**no**`, `·` where the kernel does not offer
 * it either), a reason on every `**no**`, and the counts of the paragraph above it. Then every
 * helper of the table has a test that calls it: a `yes` one is called by an object the tests
 * run (build/tests/bpf, build/examples) or by bytecode a unit or kernel test assembles
 * (BPF_FUNC_name in tests/unit, tests/kernel); a `**no**` one is called here, and must be
 * refused as netbpf's gap, by name.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "bpf/helper_avail.h"
#include "bpf/helper_proto.h"
#include "bpf/prog_type.h"
#include "bpf_asm.h"
#include "test.h"

#define README "README.md"
#define TABLE_HEAD "| id | helper | tc | XDP | socket | netbpf |"

/* The table's columns: tc (classifiers and actions alike), XDP, socket filters. */
static const enum bpf_prog_type col_types[] = {
	BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_SOCKET_FILTER,
};
#define NCOLS ARRAY_SIZE(col_types)

struct row {
	bool present;
	char name[64];
	char cell[NCOLS][16];
	char note[512];
};

static struct row rows[NB_KERNEL_FUNC_MAX_ID];

static char *trim(char *s)
{
	char *e;

	while (*s == ' ')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '|'))
		*--e = '\0';
	return s;
}

/* One table line: "| id | `name` | tc | XDP | socket | note |". */
static void parse_row(char *line, unsigned int lineno, int *last_id)
{
	char *field[5], *p = line + 1, *bar;
	struct row *r;
	char *end;
	long id;

	for (int f = 0; f < 5; f++) {
		bar = strchr(p, '|');
		if (!bar)
			NB_FAIL(README ":%u: a helper row of fewer than 6 columns", lineno);
		*bar = '\0';
		field[f] = trim(p);
		p = bar + 1;
	}
	id = strtol(field[0], &end, 10);
	if (*end || id <= 0 || id >= NB_KERNEL_FUNC_MAX_ID)
		NB_FAIL(README ":%u: \"%s\" is no helper id of Linux 6.18", lineno, field[0]);
	if (id <= *last_id)
		NB_FAIL(README ":%u: helper %ld after %d: the rows go by id, once each", lineno, id,
			*last_id);
	*last_id = (int)id;
	r = &rows[id];
	r->present = true;
	snprintf(r->name, sizeof(r->name), "%s", field[1]);
	for (size_t c = 0; c < NCOLS; c++)
		snprintf(r->cell[c], sizeof(r->cell[c]), "%s", field[2 + c]);
	snprintf(r->note, sizeof(r->note), "%s", trim(p));
}

/*
 * The table's rows, and the paragraph before it, lines joined by spaces (where the counts are:
 * "tc has 82 of its 139, ...").
 */
static void read_table(char *prose, size_t size)
{
	FILE *f = fopen(README, "r");
	char line[2048];
	unsigned int lineno = 0;
	bool in_table = false, seen = false;
	size_t used = 0;
	int last_id = 0;

	if (!f)
		NB_FAIL("cannot open " README " (run from the source tree): %s", strerror(errno));
	prose[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (seen) {
			/* past the table */
		} else if (!strncmp(line, "### ", 4)) {
			used = 0;
			prose[0] = '\0';
		} else if (used + strlen(line) < size) {
			used += (size_t)snprintf(prose + used, size - used, "%s", line);
			prose[used - 1] = ' ';
		}
		if (!strncmp(line, TABLE_HEAD, strlen(TABLE_HEAD))) {
			if (seen)
				NB_FAIL(README ":%u: a second helper table", lineno);
			in_table = seen = true;
			continue;
		}
		if (!in_table)
			continue;
		if (line[0] != '|') {
			in_table = false;
			continue;
		}
		if (!strncmp(line, "| ---", 5))
			continue;
		parse_row(line, lineno, &last_id);
	}
	fclose(f);
	if (!seen)
		NB_FAIL(README " has no helper table (\"%s\")", TABLE_HEAD);
}

static const char *cell_for(enum nb_helper_avail st)
{
	switch (st) {
	case NB_HELPER_AVAILABLE:
		return "yes";
	case NB_HELPER_MISSING:
		return "**no**";
	default:
		return "·";
	}
}

NB_TEST(helper_table_readme)
{
	unsigned int have[NCOLS] = { 0 }, offered[NCOLS] = { 0 };
	static char prose[16384];
	char want[256];

	read_table(prose, sizeof(prose));
	for (s32 id = 1; id < NB_KERNEL_FUNC_MAX_ID; id++) {
		const struct row *r = &rows[id];
		bool any = false, missing = false;
		char name[72];

		/* tc's classifiers and actions share one list and one column */
		NB_ASSERT_EQ(nb_helper_avail(nb_prog_type_ops(BPF_PROG_TYPE_SCHED_CLS), id),
			     nb_helper_avail(nb_prog_type_ops(BPF_PROG_TYPE_SCHED_ACT), id));
		for (size_t c = 0; c < NCOLS; c++) {
			enum nb_helper_avail st = nb_helper_avail(nb_prog_type_ops(col_types[c]),
								  id);

			any |= st != NB_HELPER_NOT_OFFERED;
			missing |= st == NB_HELPER_MISSING;
			offered[c] += st != NB_HELPER_NOT_OFFERED;
			have[c] += st == NB_HELPER_AVAILABLE;
			if (r->present && strcmp(r->cell[c], cell_for(st)))
				NB_FAIL(README ": helper %d (%s), %s column: \"%s\", netbpf answers "
					"\"%s\"", id, nb_helper_name(id), nb_prog_type_ops(
					col_types[c])->name, r->cell[c], cell_for(st));
		}
		if (any != r->present)
			NB_FAIL(README ": helper %s#%d %s", nb_helper_name(id), id,
				any ? "has no row, and Linux offers it" :
				      "has a row, and no type here is offered it");
		if (!any)
			continue;
		snprintf(name, sizeof(name), "`%s`", nb_helper_name(id));
		if (strcmp(r->name, name))
			NB_FAIL(README ": helper %d is named %s, not %s", id, name, r->name);
		if (missing && strncmp(r->note, "not implemented: ", 17))
			NB_FAIL(README ": helper %s#%d is missing and its row does not say why "
				"(\"not implemented: REASON\")", nb_helper_name(id), id);
	}
	snprintf(want, sizeof(want), "tc has %u of its %u, XDP %u of %u, socket filters %u of %u",
		 have[0], offered[0], have[1], offered[1], have[2], offered[2]);
	if (!strstr(prose, want))
		NB_FAIL(README ": the helper counts should read \"%s\"", want);
	nb_test_report("%s", want);
}

/* Mark the helpers the programs of one object call. */
static void scan_object(const char *path, bool *called, unsigned int *objs)
{
	struct nb_object_prog *p;
	struct nb_object *obj;

	/* an object some test means to be refused at open is no caller of anything */
	if (nb_object_open_file(path, NULL, &obj))
		return;
	(*objs)++;
	nb_object_for_each_prog(p, obj) {
		unsigned int cnt;
		const struct bpf_insn *insn = nb_object_prog_insns(p, &cnt);

		for (unsigned int i = 0; i < cnt; i++)
			if (insn[i].code == (BPF_JMP | BPF_CALL) && insn[i].src_reg == 0 &&
			    insn[i].imm > 0 && insn[i].imm < NB_KERNEL_FUNC_MAX_ID)
				called[insn[i].imm] = true;
	}
	nb_object_close(obj);
}

static void scan_objects(const char *rel, bool *called, unsigned int *objs)
{
	char dir[4096], path[4352];
	struct dirent *de;
	DIR *d;

	nb_test_build_path(dir, sizeof(dir), rel);
	d = opendir(dir);
	if (!d)
		NB_FAIL("cannot open %s (make builds it): %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 3 || strcmp(de->d_name + n - 2, ".o"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		scan_object(path, called, objs);
	}
	closedir(d);
}

/* Whether a C test in dir names BPF_FUNC_<helper> (bytecode it assembles). */
static bool source_names(const char *dir, const char *helper)
{
	char word[96], path[4352], line[4096];
	bool found = false;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		NB_FAIL("cannot open %s (run from the source tree): %s", dir, strerror(errno));
	snprintf(word, sizeof(word), "BPF_FUNC_%s", helper + strlen("bpf_"));
	while (!found && (de = readdir(d))) {
		size_t n = strlen(de->d_name), wl = strlen(word);
		FILE *f;

		if (n < 3 || strcmp(de->d_name + n - 2, ".c") ||
		    !strcmp(de->d_name, "test_helper_table.c"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (!found && fgets(line, sizeof(line), f)) {
			for (char *p = strstr(line, word); p && !found; p = strstr(p + 1, word)) {
				char next = p[wl];

				found = !(next == '_' || (next >= 'a' && next <= 'z') ||
					  (next >= '0' && next <= '9'));
			}
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

/* A helper netbpf lacks, called: refused by name as netbpf's gap. */
static void expect_missing(enum bpf_prog_type type, s32 id)
{
	const struct bpf_insn insns[] = { NB_CALL_HELPER(id), NB_MOV64_IMM(0, 0), NB_EXIT() };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL" };
	struct nb_log log = { 0 };
	struct nb_prog *prog;
	char want[128];

	opts.log = &log;
	snprintf(want, sizeof(want), "helper %s#%d is not implemented by netbpf",
		 nb_helper_name(id), id);
	if (nb_prog_load(type, insns, ARRAY_SIZE(insns), &opts, &prog) >= 0) {
		nb_prog_put(prog);
		NB_FAIL("%s: a program calling %s loaded", nb_prog_type_ops(type)->name, want);
	}
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), want);
	nb_log_free(&log);
}

NB_TEST(helper_table_every_helper_tested)
{
	static bool called[NB_KERNEL_FUNC_MAX_ID];
	unsigned int objs = 0, by_object = 0, by_source = 0, refused = 0, untested = 0;

	scan_objects("tests/bpf", called, &objs);
	scan_objects("examples", called, &objs);
	for (s32 id = 1; id < NB_KERNEL_FUNC_MAX_ID; id++) {
		bool avail = false, tested;

		for (size_t c = 0; c < NCOLS; c++) {
			const struct nb_prog_type_ops *ops = nb_prog_type_ops(col_types[c]);

			switch (nb_helper_avail(ops, id)) {
			case NB_HELPER_MISSING:
				expect_missing(col_types[c], id);
				refused++;
				break;
			case NB_HELPER_AVAILABLE:
				avail = true;
				break;
			default:
				break;
			}
		}
		if (!avail)
			continue;
		if (called[id]) {
			by_object++;
			continue;
		}
		tested = source_names("tests/unit", nb_helper_name(id)) ||
			 source_names("tests/kernel", nb_helper_name(id));
		by_source += tested;
		if (!tested) {
			fprintf(stderr, "helper %s#%d: no test calls it\n", nb_helper_name(id), id);
			untested++;
		}
	}
	nb_test_report("helpers netbpf has: %u called by the %u test and example objects, %u by "
		       "bytecode in tests; %u (type, helper) pairs netbpf lacks refused by name",
		       by_object, objs, by_source, refused);
	NB_ASSERT_EQ(untested, 0);
}
