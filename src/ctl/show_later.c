// SPDX-License-Identifier: GPL-2.0
/*
 * The show lines of a script that netbpf run holds until its datapath has run. A script sets
 * the datapath up and the traffic flows after its last line, so a `link show` or `tc -s filter
 * show` run in its place would always print counters of 0: the lines that only print are
 * checked in their place (run once with their output thrown away, so that a wrong word stops
 * the script before any traffic, as every other error does) and run again, in their order,
 * once the traffic is through, before the summary. Every line that prints is one of them (a
 * sysctl read too), so that what they print keeps the script's order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/types.h"
#include "ctl/args.h"
#include "ctl/ctl.h"

struct nb_ctl_later_line {
	int argc;
	char **argv;		/* one allocation: the pointers, then the words */
	char *where;		/* "FILE:LINE: in \"...\"", for an error */
};

struct nb_ctl_later {
	struct nb_ctl_later_line *lines;
	unsigned int cnt, cap;
};

/* The words of the objects whose verbs below only read: ip and tc name an object first. */
static bool reads_only(const char *verb)
{
	static const char *const exact[] = { "ls", "lookup", "getnext", "get", "dump" };

	if (nb_matches(verb, "show") || nb_matches(verb, "list"))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(verb, exact[i]))
			return true;
	return false;
}

bool nb_ctl_line_shows(int argc, char **argv)
{
	int i = 1;

	if (argc < 1)
		return false;
	if (!strcmp(argv[0], "stats"))
		return true;
	if (!strcmp(argv[0], "sysctl")) {	/* a read, unless it writes */
		for (i = 1; i < argc; i++)
			if (!strcmp(argv[i], "-w") || strchr(argv[i], '='))
				return false;
		return true;
	}
	if (strcmp(argv[0], "link") && strcmp(argv[0], "tc") && strcmp(argv[0], "ip") &&
	    strcmp(argv[0], "map") && strcmp(argv[0], "prog"))
		return false;
	while (i < argc && argv[i][0] == '-')	/* the line's own options: tc -s, ip -j -6 */
		i++;
	if (!strcmp(argv[0], "tc") || !strcmp(argv[0], "ip"))
		i++;				/* the object: filter, qdisc, link, route, ... */
	/* ip link, tc filter alone: show, as in iproute2 */
	return i >= argc ? strcmp(argv[0], "map") && strcmp(argv[0], "prog") : reads_only(argv[i]);
}

struct nb_ctl_later *nb_ctl_later_new(void)
{
	return calloc(1, sizeof(struct nb_ctl_later));
}

void nb_ctl_later_free(struct nb_ctl_later *later)
{
	if (!later)
		return;
	for (unsigned int i = 0; i < later->cnt; i++) {
		free(later->lines[i].argv);
		free(later->lines[i].where);
	}
	free(later->lines);
	free(later);
}

/* A copy of the words, in one allocation. */
static char **copy_words(int argc, char **argv)
{
	size_t size = (argc + 1) * sizeof(char *);
	char **copy, *p;

	for (int i = 0; i < argc; i++)
		size += strlen(argv[i]) + 1;
	copy = malloc(size);
	if (!copy)
		return NULL;
	p = (char *)(copy + argc + 1);
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;

		copy[i] = memcpy(p, argv[i], n);
		p += n;
	}
	copy[argc] = NULL;
	return copy;
}

int nb_ctl_later_hold(struct nb_ctl *ctl, int argc, char **argv, const char *name, int lineno,
		      const char *line)
{
	struct nb_ctl_later *later = ctl->later;
	FILE *out = ctl->out, *null = fopen("/dev/null", "w");
	struct nb_ctl_later_line *l;
	int err;

	if (!null)
		return nb_ctl_fail(ctl, -errno, "cannot open /dev/null: %s", strerror(errno));
	/* checked now: a wrong word stops the script before the traffic */
	ctl->out = null;
	err = nb_ctl_exec(ctl, argc, argv);
	ctl->out = out;
	fclose(null);
	if (err)
		return err;
	if (later->cnt == later->cap) {
		unsigned int cap = later->cap ? 2 * later->cap : 8;
		struct nb_ctl_later_line *bigger = realloc(later->lines, cap * sizeof(*bigger));

		if (!bigger)
			return nb_ctl_fail(ctl, -ENOMEM, "out of memory");
		later->lines = bigger;
		later->cap = cap;
	}
	l = &later->lines[later->cnt];
	l->argc = argc;
	l->argv = copy_words(argc, argv);
	if (l->argv && asprintf(&l->where, "%s:%d: in \"%s\"", name, lineno, line) < 0)
		l->where = NULL;
	if (!l->argv || !l->where) {
		free(l->argv);
		return nb_ctl_fail(ctl, -ENOMEM, "out of memory");
	}
	later->cnt++;
	return 0;
}

int nb_ctl_later_run(struct nb_ctl *ctl, struct nb_ctl_later *later)
{
	int err = 0;

	for (unsigned int i = 0; later && i < later->cnt && !err; i++) {
		err = nb_ctl_exec(ctl, later->lines[i].argc, later->lines[i].argv);
		if (err)
			nb_log_printf(&ctl->log, "%s\n", later->lines[i].where);
	}
	return err;
}
