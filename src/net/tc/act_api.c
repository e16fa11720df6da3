// SPDX-License-Identifier: GPL-2.0
/*
 * The action API, the twin of the kernel's net/sched/act_api.c: the registry of action kinds,
 * building a filter's action list with its verdict words checked (tcf_action_check_ctrlact), and
 * running the list (tcf_action_exec): PIPE goes on to the next action, JUMP skips, GOTO_CHAIN
 * hands the chain to the classifier loop, any other verdict ends the list.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "net/pkt.h"
#include "net/tc/pkt_cls.h"

static struct nb_tc_action_ops *act_base;
static u32 act_next_index;	/* indexes are unique across kinds here; the kernel's per kind */

/* The jump count of a TC_ACT_JUMP verdict (the kernel's TCA_ACT_MAX_PRIO_MASK). */
#define ACT_JUMP_MASK 0x1ff

void nb_tc_action_register(struct nb_tc_action_ops *ops)
{
	ops->next = act_base;
	act_base = ops;
}

static const struct nb_tc_action_ops *tc_lookup_action(const char *kind)
{
	for (const struct nb_tc_action_ops *ops = act_base; ops; ops = ops->next)
		if (kind && !strcmp(ops->kind, kind))
			return ops;
	return NULL;
}

/* A verdict word is a TC_ACT value, "continue", or an extended opcode (jump, goto chain). */
static bool tcf_action_valid_control(int action)
{
	int opcode = TC_ACT_EXT_OPCODE(action);

	if (!opcode)
		return action <= TC_ACT_VALUE_MAX;
	return opcode <= TC_ACT_EXT_OPCODE_MAX || action == TC_ACT_UNSPEC;
}

static void tcf_action_free(struct nb_tc_action *a)
{
	if (!a)
		return;
	if (a->ops->cleanup)
		a->ops->cleanup(a);
	nb_tc_stats_free(a->stats);
	free(a->priv);
	free(a);
}

static int tcf_action_init_1(struct nb_tcf_chain *chain, const struct nb_tc_action_opts *opts,
			     unsigned int nr, struct nb_tc_action **ap, struct nb_log *log)
{
	const struct nb_tc_action_ops *ops = tc_lookup_action(opts->kind);
	struct nb_tc_action *a;
	int err;

	if (!ops) {
		nb_log_printf(log, "action %u: unknown kind \"%s\"\n", nr + 1,
			      opts->kind ? opts->kind : "");
		return -ENOENT;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->ops = ops;
	a->control = opts->has_control ? opts->control : ops->default_control;
	a->stats = nb_tc_stats_alloc();
	a->priv = ops->priv_size ? calloc(1, ops->priv_size) : NULL;
	if (!a->stats || (ops->priv_size && !a->priv)) {
		err = -ENOMEM;
		goto err;
	}
	if (!tcf_action_valid_control(a->control)) {
		nb_log_printf(log, "action %u (%s): invalid control action %d\n", nr + 1,
			      ops->kind, a->control);
		err = -EINVAL;
		goto err;
	}
	if (TC_ACT_EXT_CMP(a->control, TC_ACT_GOTO_CHAIN)) {
		a->goto_chain = chain ? nb_tcf_chain_get(chain->block,
							 a->control & TC_ACT_EXT_VAL_MASK, true)
				      : NULL;
		if (!a->goto_chain) {
			nb_log_printf(log, "action %u (%s): can't goto NULL chain\n", nr + 1,
				      ops->kind);
			err = -EINVAL;
			goto err;
		}
	}
	err = ops->init(a, opts, log);
	if (err) {
		/* init failed and left nothing for cleanup */
		nb_tc_stats_free(a->stats);
		free(a->priv);
		free(a);
		return err;
	}
	a->index = __atomic_add_fetch(&act_next_index, 1, __ATOMIC_RELAXED);
	*ap = a;
	return 0;
err:
	tcf_action_free(a);
	return err;
}

int nb_tcf_exts_init(struct nb_tcf_exts *exts, struct nb_tcf_chain *chain,
		     const struct nb_tc_action_opts *opts, unsigned int cnt, struct nb_log *log)
{
	memset(exts, 0, sizeof(*exts));
	if (cnt > NB_TC_MAX_ACTIONS) {
		nb_log_printf(log, "filter: %u actions, at most %u\n", cnt, NB_TC_MAX_ACTIONS);
		return -E2BIG;
	}
	for (unsigned int i = 0; i < cnt; i++) {
		int err = tcf_action_init_1(chain, &opts[i], i, &exts->actions[i], log);

		if (err) {
			nb_tcf_exts_destroy(exts);
			return err;
		}
		exts->nr_actions = i + 1;
	}
	return 0;
}

void nb_tcf_exts_destroy(struct nb_tcf_exts *exts)
{
	for (unsigned int i = 0; i < exts->nr_actions; i++)
		tcf_action_free(exts->actions[i]);
	exts->nr_actions = 0;
}

/* The twin of tcf_action_exec. */
static int tcf_action_exec(struct nb_pkt *pkt, struct nb_tc_action *const *actions,
			   int nr_actions, struct nb_tcf_result *res)
{
	u32 jmp_prgcnt = 0;
	u32 jmp_ttl = TCA_ACT_MAX_PRIO;	/* as many jumps as a filter has actions */
	int ret = TC_ACT_OK;

restart_act_graph:
	for (int i = 0; i < nr_actions; i++) {
		const struct nb_tc_action *a = actions[i];
		int repeat_ttl = 32;

		if (jmp_prgcnt > 0) {
			jmp_prgcnt -= 1;
			continue;
		}
repeat:
		ret = a->ops->act(pkt, a, res);
		if (unlikely(ret == TC_ACT_REPEAT)) {
			if (--repeat_ttl != 0)
				goto repeat;
			return TC_ACT_OK;	/* suspicious opcode: stop the list */
		}
		if (TC_ACT_EXT_CMP(ret, TC_ACT_JUMP)) {
			jmp_prgcnt = ret & ACT_JUMP_MASK;
			if (!jmp_prgcnt || jmp_prgcnt > (u32)nr_actions)
				return TC_ACT_OK;	/* faulty opcode: stop the list */
			if (--jmp_ttl > 0)
				goto restart_act_graph;
			return TC_ACT_OK;		/* faulty graph: stop the list */
		} else if (TC_ACT_EXT_CMP(ret, TC_ACT_GOTO_CHAIN)) {
			if (unlikely(!a->goto_chain))
				return TC_ACT_SHOT;
			res->goto_tp = __atomic_load_n(&a->goto_chain->filter_chain,
						       __ATOMIC_ACQUIRE);
		}
		if (ret != TC_ACT_PIPE)
			break;
	}
	return ret;
}

int nb_tcf_exts_exec(struct nb_pkt *pkt, const struct nb_tcf_exts *exts, struct nb_tcf_result *res)
{
	if (exts->nr_actions)
		return tcf_action_exec(pkt, exts->actions, (int)exts->nr_actions, res);
	return TC_ACT_OK;
}

void nb_tcf_exts_dump(const struct nb_tcf_exts *exts, struct nb_tc_filter_info *info)
{
	info->action_cnt = exts->nr_actions;
	for (unsigned int i = 0; i < exts->nr_actions; i++) {
		const struct nb_tc_action *a = exts->actions[i];

		info->actions[i].kind = a->ops->kind;
		info->actions[i].control = a->control;
		info->actions[i].index = a->index;
		nb_tc_stats_read(a->stats, &info->actions[i].stats);
	}
}
