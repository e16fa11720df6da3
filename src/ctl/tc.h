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

/* A filter's action list as parsed, with room for the resolved object paths. */
struct nb_ctl_actions {
	struct nb_tc_action_opts a[NB_TC_MAX_ACTIONS];
	/* bpf: "obj FILE sec SECTION", loaded by nb_ctl_actions_load (file NULL: none) */
	const char *files[NB_TC_MAX_ACTIONS];
	const char *sections[NB_TC_MAX_ACTIONS];
	char paths[NB_TC_MAX_ACTIONS][PATH_MAX];
	char names[NB_TC_MAX_ACTIONS][128];	/* bpf: "FILE:[SEC]" */
	struct nb_map_sizes sizes[NB_TC_MAX_ACTIONS];	/* bpf: "max-entries NAME=N" */
	unsigned int cnt;
};

/* "action ..." words from argv[*i] while they last; *i stops at the first other word. */
int nb_ctl_parse_actions(struct nb_ctl *ctl, int argc, char **argv, int *i,
			 struct nb_ctl_actions *acts);
/*
 * Load the programs the bpf actions name, as iproute2 loads them before it talks to the
 * kernel: each such action then holds its program. 0 or the loader's error in log.
 */
int nb_ctl_actions_load(struct nb_ctl_actions *acts, struct nb_log *log);
/* Drop the references nb_ctl_actions_load took (the actions made hold their own). */
void nb_ctl_actions_release(struct nb_ctl_actions *acts);
/*
 * "obj FILE sec SECTION" as tc loads it (NULL section: default_section), the maps of sizes
 * sized first: a reference to the program, or NULL with the reason in log.
 */
int nb_ctl_bpf_obj_load(const char *file, const char *section, const char *default_section,
			enum bpf_prog_type type, const struct nb_map_sizes *sizes,
			struct nb_prog **progp, struct nb_log *log);

/* How an action is shown: by tc actions (not_in_hw), with used_hw_stats (u32, matchall). */
#define NB_CTL_ACT_STANDALONE 1
#define NB_CTL_ACT_HW_STATS 2

struct nb_json;
struct nb_prog;
/* One action as tc prints it (m_gact.c, m_bpf.c, m_mirred.c): text, or an object into j. */
void nb_ctl_print_action(struct nb_ctl *ctl, struct nb_json *j, const struct nb_tc_action_info *a,
			 unsigned int order, unsigned int how);
/* bpf_dump_prog_info: "id N name P tag T jited " (text) or "prog": {...}; false when gone. */
bool nb_ctl_print_prog_info(struct nb_ctl *ctl, struct nb_json *j, __u32 id);
/* The kernel's tag of prog in hex. */
const char *nb_ctl_prog_tag(const struct nb_prog *prog, char buf[2 * BPF_TAG_SIZE + 1]);

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
