// SPDX-License-Identifier: GPL-2.0
/*
 * The generic action, the twin of the kernel's net/sched/act_gact.c: its verdict word is its
 * result (ok/pass, drop/shot, pipe, reclassify, continue, stolen, trap, goto chain N, jump N).
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

static struct nb_tc_action_ops act_gact_ops = {
	.kind = "gact",
	.default_control = TC_ACT_OK,
	.act = tcf_gact_act,
	.init = tcf_gact_init,
};
NB_TC_ACTION_REGISTER(act_gact_ops)
