// SPDX-License-Identifier: GPL-2.0
/*
 * The generic action, the twin of the kernel's net/sched/act_gact.c: its verdict word is its
 * result (ok/pass, drop/shot, pipe, reclassify, continue, stolen, trap, goto chain N, jump N).
 *
 *   action [gact] { pass | ok | drop | shot | pipe | reclassify | continue | trap |
 *                   goto chain N | jump N } [index N]
 *
 * The verdict is every action's (tc_words.c); gact is the kind a verdict alone names.
 */
#include "net/tc/pkt_cls.h"
#include "common/u64_stats.h"

static int tcf_gact_act(struct nb_pkt *pkt, const struct nb_tc_action *a,
			struct nb_tcf_result *res)
{
	int action = READ_ONCE(a->control);

	nb_tcf_action_count(a, pkt);
	if (action == TC_ACT_SHOT)
		nb_u64_stats_inc(&nb_tc_this_stats(a->stats)->drops);
	return action;
}

static int tcf_gact_init(struct nb_tc_action *a, const struct nb_tc_action_opts *opts,
			 struct nb_log *log)
{
	return 0;
}

/* m_gact.c's print_gact: the probability part shows even when there is none. */
static void tcf_gact_dump(const struct nb_tc_action *a, struct nb_tc_action_info *info)
{
	struct nb_tc_print_list *l = &info->print;
	char buf[32];

	(void)a;
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "gact action %s\n",
			   nb_tc_control_name(info->control, buf, sizeof(buf)));
	nb_tc_print_control(l, "control_action", info->control);
	nb_tc_print_open(l, "prob");
	nb_tc_print_string(l, NB_TC_PRINT_ANY, "random_type", "\t random type %s", "none");
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, " %s", "pass");
	nb_tc_print_control(l, "control_action", TC_ACT_OK);
	nb_tc_print_int(l, NB_TC_PRINT_ANY, "val", " val %lld\n\t ", 0);
	nb_tc_print_close(l);
	nb_tcf_action_print_common(info);
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "%s", "\n");
}

static struct nb_tc_action_ops act_gact_ops = {
	.kind = "gact",
	.usage = "gact VERDICT | VERDICT\n",
	.default_control = TC_ACT_OK,
	.verdict = true,	/* "action gact drop", "action drop" */
	.act = tcf_gact_act,
	.init = tcf_gact_init,
	.dump = tcf_gact_dump,
};
NB_TC_ACTION_REGISTER(act_gact_ops)
