// SPDX-License-Identifier: GPL-2.0
/*
 * tc actions, and the "action ..." words of filters, as iproute2's m_action.c reads them: each
 * kind reads its own words in its own file (src/net/tc/act_*.c, nb_tc_action_parse), and the
 * programs they name are loaded here, before the add, as iproute2 loads them. How an action
 * prints is its kind's too (its dump's print items).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pkt_cls.h>

#include <netbpf/prog.h>

#include "ctl/args.h"
#include "ctl/json.h"
#include "ctl/print.h"
#include "ctl/tc.h"

int nb_ctl_prog_words(struct nb_ctl *ctl, const struct nb_tc_prog_words *req,
		      struct nb_ctl_prog *prog)
{
	const char *base;

	prog->req = *req;
	if (!req->file)
		return 0;
	if (!req->prog || !req->name || !req->default_section) {
		prog->req.file = NULL;
		return nb_ctl_fail(ctl, -EINVAL, "\"%s\": this kind takes no program", req->file);
	}
	nb_ctl_obj_path(ctl, req->file, prog->path, sizeof(prog->path));
	/* iproute2 annotates the filter or action "FILE:[SECTION]" */
	base = strrchr(req->file, '/') ? strrchr(req->file, '/') + 1 : req->file;
	snprintf(prog->name, sizeof(prog->name), "%s:[%s]", base,
		 req->section ? req->section : req->default_section);
	*req->name = prog->name;
	for (unsigned int n = 0; n < req->max_entries_cnt; n++) {
		const char *why = nb_map_sizes_add(&prog->sizes, req->max_entries[n]);

		if (why)
			return nb_ctl_wrong(ctl, req->max_entries[n], "%s", why);
	}
	return 0;
}

int nb_ctl_prog_load(struct nb_ctl_prog *prog, struct nb_log *log)
{
	const struct nb_tc_prog_words *req = &prog->req;

	if (!req->file || *req->prog)
		return 0;
	return nb_object_load_section(prog->path, req->section ? req->section :
				      req->default_section, req->type, prog->sizes.s,
				      prog->sizes.cnt, req->prog, log);
}

void nb_ctl_prog_release(struct nb_ctl_prog *prog)
{
	if (prog->req.file && *prog->req.prog) {
		nb_prog_put(*prog->req.prog);
		*prog->req.prog = NULL;
	}
}

/* The front end's words struct over argc/argv: errors land in ctl's log. */
static void words_init(struct nb_ctl *ctl, struct nb_tc_words *w, int argc, char **argv, int pos)
{
	memset(w, 0, sizeof(*w));
	w->argc = argc;
	w->argv = argv;
	w->pos = pos;
	w->log = &ctl->log;
}

static int words_done(struct nb_ctl *ctl, const struct nb_tc_words *w, int err)
{
	if (w->usage)
		ctl->usage = true;
	return err;
}

int nb_ctl_parse_actions(struct nb_ctl *ctl, int argc, char **argv, int *i,
			 struct nb_ctl_actions *acts)
{
	while (*i < argc && (!strcmp(argv[*i], "action") || !strcmp(argv[*i], "actions"))) {
		struct nb_tc_action_opts *a;
		struct nb_tc_words w;
		int err;

		if (acts->cnt >= NB_TC_MAX_ACTIONS)
			return nb_ctl_wrong(ctl, argv[*i], "at most %d actions", NB_TC_MAX_ACTIONS);
		a = &acts->a[acts->cnt];
		memset(a, 0, sizeof(*a));
		a->sz = sizeof(*a);
		if (++*i >= argc)
			return nb_ctl_usage(ctl, "\"action\" needs a kind");
		words_init(ctl, &w, argc, argv, *i);
		err = words_done(ctl, &w, nb_tc_action_parse(&w, a));
		*i = w.pos;
		if (err)
			return err;
		err = nb_ctl_prog_words(ctl, &w.prog, &acts->progs[acts->cnt]);
		if (err) {
			nb_tc_action_opts_release(a);	/* not counted: release has no word of it */
			return err;
		}
		acts->cnt++;
	}
	return 0;
}

/* A classifier's "action ..." words, for its parse (nb_tc_words.actions). */
static int filter_actions(struct nb_tc_words *w)
{
	struct nb_ctl_filter_words *fw = w->ctx;

	return nb_ctl_parse_actions(fw->ctl, w->argc, w->argv, &w->pos, fw->acts);
}

int nb_ctl_parse_filter_words(struct nb_ctl *ctl, int argc, char **argv, int *i,
			      struct nb_tc_filter_opts *f, struct nb_ctl_actions *acts,
			      struct nb_ctl_prog *prog)
{
	struct nb_ctl_filter_words fw = { ctl, acts };
	struct nb_tc_words w;
	int err;

	words_init(ctl, &w, argc, argv, *i);
	w.actions = filter_actions;
	w.ctx = &fw;
	err = words_done(ctl, &w, nb_tc_filter_parse(f->kind, &w, f));
	*i = w.pos;
	if (!err)
		err = nb_ctl_prog_words(ctl, &w.prog, prog);
	return err;
}

int nb_ctl_actions_load(struct nb_ctl_actions *acts, struct nb_log *log)
{
	for (unsigned int n = 0; n < acts->cnt; n++) {
		int err = nb_ctl_prog_load(&acts->progs[n], log);

		if (err)
			return err;
	}
	return 0;
}

void nb_ctl_actions_release(struct nb_ctl_actions *acts)
{
	for (unsigned int n = 0; n < acts->cnt; n++) {
		/* the program's reference first: the kind's options hold the pointer to it */
		nb_ctl_prog_release(&acts->progs[n]);
		nb_tc_action_opts_release(&acts->a[n]);
	}
}

/*
 * tc_print_one_action: "action order N: ", what the kind's dump wrote (its words, "index N ref R
 * bind B" and the ages with -s), then the counters and flags every action has.
 */
void nb_ctl_print_action(struct nb_ctl *ctl, struct nb_json *j, const struct nb_tc_action_info *a,
			 unsigned int order, unsigned int how)
{
	struct nb_print p = { .f = ctl->out, .j = j };
	FILE *f = ctl->out;

	nb_print_open_object(&p, NULL);
	nb_print_uint(&p, NB_PRINT_ANY, "order", "\taction order %llu: ", order);
	nb_print_string(&p, NB_PRINT_JSON, "kind", NULL, a->kind);
	nb_ctl_print_tc_items(&p, &a->print, ctl->stats);
	if (j) {
		if (ctl->stats) {
			nb_json_start_object(j, "stats");
			nb_json_uint(j, "bytes", a->stats.bytes);
			nb_json_uint(j, "packets", a->stats.packets);
			nb_json_uint(j, "drops", a->stats.drops);
			nb_json_uint(j, "overlimits", a->stats.overlimits);
			nb_json_uint(j, "requeues", 0);
			nb_json_uint(j, "backlog", 0);
			nb_json_uint(j, "qlen", 0);
			nb_json_end_object(j);
		}
		if (a->flags & TCA_ACT_FLAGS_NO_PERCPU_STATS)
			nb_json_bool(j, "no_percpu", true);
		if (how & NB_CTL_ACT_STANDALONE)
			nb_json_bool(j, "not_in_hw", true);
		if (how & NB_CTL_ACT_HW_STATS) {
			nb_json_start_array(j, "used_hw_stats");
			nb_json_string(j, NULL, "disabled");
			nb_json_end_array(j);
		}
		nb_print_close_object(&p);
		return;
	}
	if (ctl->stats)
		fprintf(f, "\tAction statistics:\n\tSent %llu bytes %llu pkt (dropped %llu, "
			"overlimits %llu requeues 0) \n\tbacklog 0b 0p requeues 0\n",
			(unsigned long long)a->stats.bytes, (unsigned long long)a->stats.packets,
			(unsigned long long)a->stats.drops,
			(unsigned long long)a->stats.overlimits);
	if (a->flags & TCA_ACT_FLAGS_NO_PERCPU_STATS)
		fprintf(f, "\tno_percpu\n");
	if (how & NB_CTL_ACT_STANDALONE)
		fprintf(f, "\tnot_in_hw\n");
	if (how & NB_CTL_ACT_HW_STATS)
		fprintf(f, "\tused_hw_stats disabled\n");
}

struct actions_show {
	struct nb_ctl *ctl;
	struct nb_json *j;
	unsigned int order;
};

static int action_show_one(const struct nb_tc_action_info *info, void *arg)
{
	struct actions_show *as = arg;

	if (!as->j)
		fprintf(as->ctl->out, "\n");
	nb_ctl_print_action(as->ctl, as->j, info, as->order++,
			    NB_CTL_ACT_STANDALONE | NB_CTL_ACT_HW_STATS);
	return 0;
}

static int count_one(const struct nb_tc_action_info *info, void *arg)
{
	(void)info;
	++*(unsigned int *)arg;
	return 0;
}

/* print_action's frame: "total acts N" then the actions; JSON [{"total acts": N}, {"actions"}]. */
static struct nb_json *actions_head(struct actions_show *as, unsigned int total)
{
	struct nb_ctl *ctl = as->ctl;

	if (!ctl->json) {
		fprintf(ctl->out, "total acts %u\n", total);
		return NULL;
	}
	as->j = nb_json_new(ctl->out, ctl->pretty);
	nb_json_start_array(as->j, NULL);
	nb_json_start_object(as->j, NULL);
	nb_json_uint(as->j, "total acts", total);
	nb_json_end_object(as->j);
	nb_json_start_object(as->j, NULL);
	nb_json_start_array(as->j, "actions");
	return as->j;
}

static void actions_tail(struct actions_show *as)
{
	if (!as->j)
		return;
	nb_json_end_array(as->j);
	nb_json_end_object(as->j);
	nb_json_end_array(as->j);
	nb_json_free(as->j);
	as->j = NULL;
}

static int log_fail(struct nb_ctl *ctl, int err, struct nb_log *log)
{
	const char *t = nb_log_text(log);

	/* the kernel's messages, as iproute2 prints its extack: "Error: MSG." */
	if (err)
		nb_ctl_fail(ctl, err, "%.*s%s", (int)strcspn(t, "\n"), t[0] ? t : strerror(-err),
			    t[0] ? "." : "");
	nb_log_free(log);
	return err;
}

/* "action KIND index N" for get and delete (tc_action_gd); *i past them. */
static int parse_kind_index(struct nb_ctl *ctl, int argc, char **argv, int *i, const char **kind,
			    __u32 *index)
{
	const char *val;

	if (!strcmp(argv[*i], "action") && ++*i >= argc)
		return nb_ctl_usage(ctl, "\"action\" needs a kind");
	*kind = argv[*i];
	if (++*i >= argc || strcmp(argv[*i], "index"))
		return nb_ctl_usage(ctl, "no index specified action: %s", *kind);
	val = nb_ctl_next(ctl, argc, argv, i);
	if (!val)
		return -EINVAL;
	if (!nb_ctl_parse_u32(val, index, 10))
		return nb_ctl_wrong(ctl, val, "Illegal \"index\"");
	++*i;
	return 0;
}

static bool known_kind(const char *kind)
{
	for (const char *const *k = nb_tc_action_kinds(); *k; k++)
		if (!strcmp(*k, kind))
			return true;
	return false;
}

static int actions_get_del(struct nb_ctl *ctl, int argc, char **argv, bool del)
{
	struct actions_show as = { .ctl = ctl, .order = 1 };
	int i = 1, err = 0;
	char kbuf[128];

	if (argc < 2)
		return nb_ctl_usage(ctl, "tc actions %s action KIND index N", del ? "del" : "get");
	while (i < argc && !err) {
		struct nb_tc_action_info info;
		struct nb_log log = { 0 };
		const char *kind = NULL;
		__u32 index = 0;

		err = parse_kind_index(ctl, argc, argv, &i, &kind, &index);
		if (err)
			break;
		if (!known_kind(kind)) {
			/* the actions printed before it are closed as a failed get closes them */
			err = nb_ctl_wrong(ctl, kind, "unknown action, expected %s",
					   nb_ctl_kinds_list(nb_tc_action_kinds(), kbuf,
							     sizeof(kbuf)));
			break;
		}
		if (del) {
			err = log_fail(ctl, nb_tc_action_del(kind, index, &log), &log);
			continue;
		}
		err = log_fail(ctl, nb_tc_action_get(kind, index, &info, &log), &log);
		if (err)
			break;
		/* RTM_GETACTION answers carry no count: tc prints "total acts 0" */
		if (as.order == 1)
			actions_head(&as, 0);
		if (!ctl->json)
			fprintf(ctl->out, "\n");
		nb_ctl_print_action(ctl, as.j, &info, as.order++,
				    NB_CTL_ACT_STANDALONE | NB_CTL_ACT_HW_STATS);
		nb_tc_action_info_release(&info);
	}
	actions_tail(&as);
	return err;
}

static int actions_list_flush(struct nb_ctl *ctl, int argc, char **argv, bool flush)
{
	struct actions_show as = { .ctl = ctl };
	struct nb_log log = { 0 };
	unsigned int total = 0;
	const char *kind;
	char kbuf[128];
	int i = 1, err;

	if (i < argc && !strcmp(argv[i], "action"))
		i++;
	if (i >= argc)
		return nb_ctl_usage(ctl, "tc actions %s action KIND", flush ? "flush" : "list");
	kind = argv[i++];
	if (!known_kind(kind))
		return nb_ctl_wrong(ctl, kind, "unknown action, expected %s",
				    nb_ctl_kinds_list(nb_tc_action_kinds(), kbuf, sizeof(kbuf)));
	if (i < argc)
		return nb_ctl_wrong(ctl, argv[i], "tc actions %s takes one action kind",
				    flush ? "flush" : "list");
	if (flush) {
		err = nb_tc_actions_flush(kind, &total, &log);
		if (!err && nb_log_text(&log)[0])
			fprintf(stderr, "Warning: %.*s.\n", (int)strcspn(nb_log_text(&log), "\n"),
				nb_log_text(&log));
		return log_fail(ctl, err, &log);
	}
	err = nb_tc_actions_walk(kind, count_one, &total, &log);
	if (!err) {
		actions_head(&as, total);
		err = nb_tc_actions_walk(kind, action_show_one, &as, &log);
		actions_tail(&as);
	}
	return log_fail(ctl, err, &log);
}

static int actions_add(struct nb_ctl *ctl, int argc, char **argv, bool replace)
{
	struct nb_ctl_actions *acts = calloc(1, sizeof(*acts));
	struct nb_log log = { 0 };
	int i = 1, err;

	if (!acts)
		return nb_ctl_fail(ctl, -ENOMEM, "out of memory");
	if (i >= argc || strcmp(argv[i], "action")) {
		err = i < argc ? nb_ctl_wrong(ctl, argv[i], "expected \"action KIND ...\"")
			       : nb_ctl_usage(ctl, "tc actions add action KIND ...");
		goto out;
	}
	err = nb_ctl_parse_actions(ctl, argc, argv, &i, acts);
	if (!err && i < argc)
		err = nb_ctl_wrong(ctl, argv[i], "expected \"action KIND ...\"");
	if (!err)
		err = nb_ctl_actions_load(acts, &log);
	if (!err)
		err = nb_tc_actions_add(acts->a, acts->cnt, replace, NULL, &log);
	err = log_fail(ctl, err, &log);
	nb_ctl_actions_release(acts);
out:
	free(acts);
	return err;
}

/*
 * tc actions { add | replace | change } action KIND ... [index N] [action ...]
 * tc actions { get | delete } action KIND index N [action KIND index N ...]
 * tc actions { list | ls | show | flush } action KIND
 */
int nb_ctl_tc_actions(struct nb_ctl *ctl, int argc, char **argv)
{
	if (argc < 1)
		return nb_ctl_usage(ctl, "tc actions { add | change | replace | get | delete | "
				    "list | flush } action KIND ...");
	if (nb_matches(argv[0], "add"))
		return actions_add(ctl, argc, argv, false);
	if (nb_matches(argv[0], "change") || nb_matches(argv[0], "replace"))
		return actions_add(ctl, argc, argv, true);
	if (nb_matches(argv[0], "get"))
		return actions_get_del(ctl, argc, argv, false);
	if (nb_matches(argv[0], "delete"))
		return actions_get_del(ctl, argc, argv, true);
	if (nb_matches(argv[0], "list") || nb_matches(argv[0], "ls") ||
	    nb_matches(argv[0], "show"))
		return actions_list_flush(ctl, argc, argv, false);
	if (nb_matches(argv[0], "flush"))
		return actions_list_flush(ctl, argc, argv, true);
	return nb_ctl_wrong(ctl, argv[0], "unknown actions command, expected add, change, "
			    "replace, get, delete, list or flush");
}
