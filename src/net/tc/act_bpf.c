// SPDX-License-Identifier: GPL-2.0
/*
 * The bpf action, the twin of the kernel's net/sched/act_bpf.c: a SCHED_ACT program whose return
 * value is the action's verdict. PIPE, RECLASSIFY, OK, REDIRECT and SHOT pass through, UNSPEC
 * (-1) gives the verdict word configured for the action, anything else becomes UNSPEC.
 *
 *   action bpf [run] { obj | object-file } FILE [{ sec | section } NAME] [max-entries NAME=N]
 *              [CONTROL] [index N]
 *
 * The action takes a loaded program: the front end loads "obj FILE" (nb_tc_words.prog).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/prog.h"
#include "pkt/pkt.h"
#include "net/tc/pkt_cls.h"
#include "common/opts.h"
#include "common/u64_stats.h"

struct tcf_bpf {
	struct nb_prog *filter;
	char *name;		/* "FILE:[SEC]" for show, or NULL */
};

static int tcf_bpf_act(struct nb_pkt *pkt, const struct nb_tc_action *a,
		       struct nb_tcf_result *res)
{
	const struct tcf_bpf *prog = __atomic_load_n(&a->priv, __ATOMIC_ACQUIRE);
	int action, filter_res;

	nb_tcf_action_count(a, pkt);
	nb_pkt_compute_data_pointers(pkt);
	/* in nb_tc_run's read section: the kernel's act_bpf runs under rcu_read_lock */
	filter_res = (int)nb_prog_run_locked(prog->filter, pkt);

	switch (filter_res) {
	case TC_ACT_PIPE:
	case TC_ACT_RECLASSIFY:
	case TC_ACT_OK:
	case TC_ACT_REDIRECT:
		action = filter_res;
		break;
	case TC_ACT_SHOT:
		action = filter_res;
		nb_u64_stats_inc(&nb_tc_this_stats(a->stats)->drops);
		break;
	case TC_ACT_UNSPEC:
		action = READ_ONCE(a->control);
		break;
	default:
		action = TC_ACT_UNSPEC;
		break;
	}
	return action;
}

static int tcf_bpf_init(struct nb_tc_action *a, const struct nb_tc_action_opts *opts,
			struct nb_log *log)
{
	const struct nb_tc_act_bpf_opts *bo = NB_OPTS_GET(opts, kind_opts, NULL);
	struct tcf_bpf *prog = a->priv;
	struct nb_prog *filter;
	const char *name;
	int err;

	err = NB_OPTS_CHECK(bo, nb_tc_act_bpf_opts, prog, log);
	if (err)
		return err;
	if (!bo || !bo->prog) {
		nb_log_printf(log, "action bpf: no program given\n");
		return -EINVAL;
	}
	filter = nb_prog_get(bo->prog);
	if (nb_prog_type(filter) != BPF_PROG_TYPE_SCHED_ACT) {
		nb_log_printf(log, "action bpf: program \"%s\" is not of type sched_act\n",
			      nb_prog_name(filter));
		nb_prog_put(filter);
		return -EINVAL;
	}
	name = NB_OPTS_GET(bo, name, NULL);
	if (name) {
		prog->name = strdup(name);
		if (!prog->name) {
			nb_prog_put(filter);
			return -ENOMEM;
		}
	}
	prog->filter = filter;
	return 0;
}

static void tcf_bpf_cleanup(struct nb_tc_action *a)
{
	struct tcf_bpf *prog = a->priv;

	nb_prog_put(prog->filter);
	free(prog->name);
}

static void tcf_bpf_dump(const struct nb_tc_action *a, struct nb_tc_action_info *info)
{
	const struct tcf_bpf *prog = a->priv;

	struct nb_tc_print_list *l = &info->print;
	char buf[32];

	/* m_bpf.c's bpf_print_opt */
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "%s", "bpf ");
	if (prog->name && prog->name[0])
		nb_tc_print_string(l, NB_TC_PRINT_ANY, "bpf_name", "%s ", prog->name);
	nb_tc_print_prog(l, prog->filter);
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "default-action %s\n\t ",
			   nb_tc_control_name(info->control, buf, sizeof(buf)));
	nb_tc_print_control(l, "control_action", info->control);
	nb_tcf_action_print_common(info);
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "%s", "\n ");	/* m_bpf.c ends its lines so */
}

/* m_bpf.c's bpf_parse_opt: the program words; the verdict and index are every action's. */
static int tcf_bpf_parse(struct nb_tc_words *w, struct nb_tc_action_opts *opts)
{
	struct nb_tc_act_bpf_opts *bo = calloc(1, sizeof(*bo));

	if (!bo)
		return nb_tc_words_fail(w, -ENOMEM, "out of memory");
	bo->sz = sizeof(*bo);
	opts->kind_opts = bo;
	w->prog.type = BPF_PROG_TYPE_SCHED_ACT;
	w->prog.default_section = "action";
	w->prog.prog = &bo->prog;
	w->prog.name = &bo->name;
	for (; w->pos < w->argc; w->pos++) {
		int err = nb_tc_words_prog(w);

		if (err == -ENOENT)
			break;
		if (err)
			return err;
	}
	/* "action bpf index N" binds an existing action */
	if (!w->prog.file &&
	    (w->pos >= w->argc || strcmp(w->argv[w->pos], "index")))
		return nb_tc_words_usage(w, "action bpf needs \"obj FILE\"");
	return 0;
}

static struct nb_tc_action_ops act_bpf_ops = {
	.kind = "bpf",
	.usage = "bpf [run] obj FILE [sec NAME] [max-entries MAP=N]... [VERDICT]\n",
	.priv_size = sizeof(struct tcf_bpf),
	.default_control = TC_ACT_PIPE,
	.act = tcf_bpf_act,
	.parse = tcf_bpf_parse,
	.init = tcf_bpf_init,
	.cleanup = tcf_bpf_cleanup,
	.dump = tcf_bpf_dump,
};
NB_TC_ACTION_REGISTER(act_bpf_ops)
