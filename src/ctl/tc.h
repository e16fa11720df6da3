/* SPDX-License-Identifier: GPL-2.0 */
/* The tc words (tc.c, tc_filter.c, tc_action.c). */
#ifndef NB_CTL_TC_H
#define NB_CTL_TC_H

#include <limits.h>
#include <stdbool.h>
#include <linux/bpf.h>

#include <netbpf/tc.h>

#include "ctl/args.h"
#include "ctl/ctl.h"

/* A program some words named ("obj FILE sec SECTION"), loaded before the add, as iproute2 does. */
struct nb_ctl_prog {
	struct nb_tc_prog_words req;	/* as the kind read it; req.file NULL: none */
	char path[PATH_MAX];		/* the file, found as nb_ctl_obj_path finds it */
	char name[NAME_MAX + 80];	/* "FILE:[SECTION]", for show */
	struct nb_map_sizes sizes;	/* "max-entries NAME=N" */
};

/* Take the program words a kind's parse left in req (a usage error is ctl's). */
int nb_ctl_prog_words(struct nb_ctl *ctl, const struct nb_tc_prog_words *req,
		      struct nb_ctl_prog *prog);
/* Load it into the kind's opts (*req.prog): 0 or the loader's error in log. */
int nb_ctl_prog_load(struct nb_ctl_prog *prog, struct nb_log *log);
/* Drop the reference the load took (the filter or action made holds its own). */
void nb_ctl_prog_release(struct nb_ctl_prog *prog);

/* A filter's action list as parsed, with the programs its actions name. */
struct nb_ctl_actions {
	struct nb_tc_action_opts a[NB_TC_MAX_ACTIONS];
	struct nb_ctl_prog progs[NB_TC_MAX_ACTIONS];
	unsigned int cnt;
};

/* "action ..." words from argv[*i] while they last; *i stops at the first other word. */
int nb_ctl_parse_actions(struct nb_ctl *ctl, int argc, char **argv, int *i,
			 struct nb_ctl_actions *acts);
/* A classifier's words after its kind, read by the kind, its actions into acts. */
struct nb_ctl_filter_words {
	struct nb_ctl *ctl;
	struct nb_ctl_actions *acts;
};
int nb_ctl_parse_filter_words(struct nb_ctl *ctl, int argc, char **argv, int *i,
			      struct nb_tc_filter_opts *f, struct nb_ctl_actions *acts,
			      struct nb_ctl_prog *prog);
/* "bpf, gact or mirred": a registry's kinds, for an error. */
const char *nb_ctl_kinds_list(const char *const *kinds, char *buf, size_t size);
/* Load the programs the actions name: each such action then holds its program. */
int nb_ctl_actions_load(struct nb_ctl_actions *acts, struct nb_log *log);
/* Drop the references nb_ctl_actions_load took (the actions made hold their own). */
void nb_ctl_actions_release(struct nb_ctl_actions *acts);

/* How an action is shown: by tc actions (not_in_hw), with used_hw_stats (u32, matchall). */
#define NB_CTL_ACT_STANDALONE 1
#define NB_CTL_ACT_HW_STATS 2

struct nb_json;
/* One action as tc prints it (m_gact.c, m_bpf.c, m_mirred.c): text, or an object into j. */
void nb_ctl_print_action(struct nb_ctl *ctl, struct nb_json *j, const struct nb_tc_action_info *a,
			 unsigned int order, unsigned int how);

struct nb_print;
/* What a kind's dump wrote for show (struct nb_tc_print_list), in text or JSON; stats: tc -s. */
void nb_ctl_print_tc_items(struct nb_print *p, const struct nb_tc_print_list *list, bool stats);

int nb_ctl_tc_qdisc(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_tc_filter(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_tc_actions(struct nb_ctl *ctl, int argc, char **argv);

/* Every filter of every device's hooks, for the run summary: fn(dev, hook, info, ctx). */
struct nb_dev;
typedef void (*nb_ctl_filter_fn)(struct nb_dev *dev, enum nb_tc_hook hook,
				 const struct nb_tc_filter_info *info, void *ctx);
void nb_ctl_for_each_filter(nb_ctl_filter_fn fn, void *ctx);

#endif /* NB_CTL_TC_H */
