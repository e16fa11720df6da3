/* SPDX-License-Identifier: GPL-2.0 */
/* The tc words (tc.c, tc_filter.c, tc_action.c). */
#ifndef NB_CTL_TC_H
#define NB_CTL_TC_H

#include <limits.h>

#include <netbpf/tc.h>

#include "ctl/ctl.h"

/* A filter's action list as parsed, with room for the resolved object paths. */
struct nb_ctl_actions {
	struct nb_tc_action_opts a[NB_TC_MAX_ACTIONS];
	char paths[NB_TC_MAX_ACTIONS][PATH_MAX];
	unsigned int cnt;
};

/* "action ..." words from argv[*i] while they last; *i stops at the first other word. */
int nb_ctl_parse_actions(struct nb_ctl *ctl, int argc, char **argv, int *i,
			 struct nb_ctl_actions *acts);
/* "drop", "pass", "goto chain 3", ... */
const char *nb_ctl_control_name(int control, char *buf, size_t size);

/* A filter handle as tc prints it: 0x1, or u32's 800::800. */
const char *nb_ctl_handle_name(const char *kind, __u32 handle, char *buf, size_t size);

int nb_ctl_tc_qdisc(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_tc_filter(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_tc_actions(struct nb_ctl *ctl, int argc, char **argv);

/* Every filter of every device's hooks, for the run summary: fn(dev, hook, info, ctx). */
struct nb_dev;
typedef void (*nb_ctl_filter_fn)(struct nb_dev *dev, enum nb_tc_hook hook,
				 const struct nb_tc_filter_info *info, void *ctx);
void nb_ctl_for_each_filter(nb_ctl_filter_fn fn, void *ctx);

#endif /* NB_CTL_TC_H */
