// SPDX-License-Identifier: GPL-2.0
/*
 * The action API, the twin of the kernel's net/sched/act_api.c: the registry of action kinds,
 * each with its table of actions by index (tcf_idrinfo); actions shared between filters and the
 * standalone commands by reference and binding counts (tcf_idr_check_alloc, __tcf_idr_release);
 * building a filter's action list with its verdict words checked (tcf_action_check_ctrlact), and
 * running the list (tcf_action_exec): PIPE goes on to the next action, JUMP skips, GOTO_CHAIN
 * hands the chain to the classifier loop, any other verdict ends the list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/clock.h>
#include <netbpf/percpu.h>

#include "pkt/pkt.h"
#include "net/tc/pkt_cls.h"
#include "net/worker.h"
#include "common/opts.h"
#include "common/register.h"
#include "common/u64_stats.h"

static struct nb_tc_action_ops *act_base;	/* by kind name */
/* The kinds' names in the same order, NULL-terminated, for the commands that walk them all. */
static const char **act_kinds;
static unsigned int act_kind_cnt;

/* The jump count of a TC_ACT_JUMP verdict (the kernel's TCA_ACT_MAX_PRIO_MASK). */
#define ACT_JUMP_MASK 0x1ff

int nb_tc_action_register(struct nb_tc_action_ops *ops)
{
	struct nb_tc_action_ops **pp = &act_base;
	unsigned int n = 0;
	int err;

	while (*pp && strcmp((*pp)->kind, ops->kind) < 0) {
		pp = &(*pp)->next;
		n++;
	}
	if (*pp && !strcmp((*pp)->kind, ops->kind))
		return -EEXIST;
	err = nb_register_name_insert(&act_kinds, &act_kind_cnt, n, ops->kind);
	if (err)
		return err;
	ops->next = *pp;
	*pp = ops;
	return 0;
}

const char *const *nb_tc_action_kinds(void)
{
	static const char *const none[] = { NULL };

	return act_kinds ? act_kinds : none;
}

static struct nb_tc_action_ops *tc_lookup_action(const char *kind)
{
	for (struct nb_tc_action_ops *ops = act_base; ops; ops = ops->next)
		if (kind && !strcmp(ops->kind, kind))
			return ops;
	return NULL;
}

void nb_tcf_action_count(const struct nb_tc_action *a, const struct nb_pkt *pkt)
{
	struct nb_tc_pcpu_stats *s = nb_tc_this_stats(a->stats);
	u64 now = nb_worker_coarse_ns();

	nb_u64_stats_inc(&s->packets);
	nb_u64_stats_add(&s->bytes, pkt->len);
	WRITE_ONCE(s->lastuse, now);
	if (unlikely(!s->firstuse))
		WRITE_ONCE(s->firstuse, now);
}

/* The kind's index table (tcf_idrinfo): a list sorted by index, changed under the tc lock. */
static struct nb_tc_action *tcf_idr_find(const struct nb_tc_action_ops *ops, u32 index)
{
	for (struct nb_tc_action *a = ops->idr; a && a->index <= index; a = a->idr_next)
		if (a->index == index)
			return a;
	return NULL;
}

/* The lowest free index from 1 (idr_alloc_u32 from 1); 0 when every one is taken. */
static u32 tcf_idr_first_free(const struct nb_tc_action_ops *ops)
{
	u32 index = 1;

	for (const struct nb_tc_action *a = ops->idr; a && a->index == index; a = a->idr_next)
		index++;
	return index;
}

static void tcf_idr_insert(struct nb_tc_action_ops *ops, struct nb_tc_action *a)
{
	struct nb_tc_action **pp = &ops->idr;

	while (*pp && (*pp)->index < a->index)
		pp = &(*pp)->idr_next;
	a->idr_next = *pp;
	*pp = a;
}

static void tcf_idr_remove(struct nb_tc_action_ops *ops, struct nb_tc_action *a)
{
	for (struct nb_tc_action **pp = &ops->idr; *pp; pp = &(*pp)->idr_next) {
		if (*pp == a) {
			*pp = a->idr_next;
			return;
		}
	}
}

/* A verdict word is a TC_ACT value, "continue", or an extended opcode (jump, goto chain). */
static bool tcf_action_valid_control(int action)
{
	int opcode = TC_ACT_EXT_OPCODE(action);

	if (!opcode)
		return action <= TC_ACT_VALUE_MAX;
	return opcode <= TC_ACT_EXT_OPCODE_MAX || action == TC_ACT_UNSPEC;
}

/* Free the kind's part that init made (priv itself too). */
static void tcf_action_free_priv(const struct nb_tc_action *a, void *priv)
{
	struct nb_tc_action old = *a;

	old.priv = priv;
	if (a->ops->cleanup)
		a->ops->cleanup(&old);
	free(priv);
}

static void tcf_action_free(struct nb_tc_action *a)
{
	tcf_action_free_priv(a, a->priv);
	nb_tc_stats_free(a->stats);
	free(a);
}

/*
 * Drop a reference, or a binding and its reference (__tcf_idr_release); the last one frees the
 * action. No packet can be running it then: a filter bound to it was unlinked a grace period
 * ago, and an action nothing is bound to is on no packet's way.
 */
static void tcf_action_put(struct nb_tc_action *a, bool bind)
{
	if (bind)
		a->bindcnt--;
	if (--a->refcnt > 0)
		return;
	tcf_idr_remove((struct nb_tc_action_ops *)a->ops, a);
	tcf_action_free(a);
}

/*
 * The parameters of action number nr from opts into tmp (a copy of the action): verdict word,
 * goto chain and a fresh priv the kind's init fills (tcf_action_check_ctrlact and ops->init).
 */
static int tcf_action_init_params(struct nb_tc_action *tmp, struct nb_tcf_chain *chain,
				  const struct nb_tc_action_opts *opts, unsigned int nr,
				  struct nb_log *log)
{
	const struct nb_tc_action_ops *ops = tmp->ops;
	int err;

	tmp->control = opts->has_control ? opts->control : ops->default_control;
	tmp->goto_chain = NULL;
	if (!tcf_action_valid_control(tmp->control)) {
		nb_log_printf(log, "action %u (%s): invalid control action %d\n", nr + 1,
			      ops->kind, tmp->control);
		return -EINVAL;
	}
	if (TC_ACT_EXT_CMP(tmp->control, TC_ACT_GOTO_CHAIN)) {
		tmp->goto_chain = chain ? nb_tcf_chain_get(chain->block,
							   tmp->control & TC_ACT_EXT_VAL_MASK, true)
					: NULL;
		if (!tmp->goto_chain) {
			nb_log_printf(log, "action %u (%s): can't goto NULL chain\n", nr + 1,
				      ops->kind);
			return -EINVAL;
		}
	}
	tmp->priv = ops->priv_size ? calloc(1, ops->priv_size) : NULL;
	if (ops->priv_size && !tmp->priv)
		return -ENOMEM;
	err = ops->init(tmp, opts, log);
	if (err) {
		free(tmp->priv);
		tmp->priv = NULL;
	}
	return err;
}

/* A new action of ops with opts' parameters, in the kind's table (tcf_idr_create). */
static int tcf_action_create(struct nb_tc_action_ops *ops, struct nb_tcf_chain *chain,
			     const struct nb_tc_action_opts *opts, unsigned int nr, bool bind,
			     struct nb_tc_action **ap, struct nb_log *log)
{
	struct nb_tc_action *a;
	int err;

	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->ops = ops;
	a->index = opts->index ? opts->index : tcf_idr_first_free(ops);
	a->flags = opts->flags;
	a->refcnt = 1;
	a->bindcnt = bind;
	a->install_ns = nb_ktime_get_coarse_ns();
	a->stats = nb_tc_stats_alloc();
	if (!a->index) {
		nb_log_printf(log, "action %u (%s): every index is taken\n", nr + 1, ops->kind);
		err = -ENOSPC;
		goto err;
	}
	err = a->stats ? tcf_action_init_params(a, chain, opts, nr, log) : -ENOMEM;
	if (err)
		goto err;
	tcf_idr_insert(ops, a);
	*ap = a;
	return 0;
err:
	nb_tc_stats_free(a->stats);
	free(a);
	return err;
}

/*
 * Set an existing action's parameters anew (a replace): the new priv and verdict are published
 * with release stores, the old priv freed once no packet can still use it.
 */
static int tcf_action_replace(struct nb_tc_action *a, struct nb_tcf_chain *chain,
			      const struct nb_tc_action_opts *opts, unsigned int nr,
			      struct nb_log *log)
{
	struct nb_tc_action tmp = *a;
	void *old_priv = a->priv;
	int err;

	err = tcf_action_init_params(&tmp, chain, opts, nr, log);
	if (err)
		return err;
	__atomic_store_n(&a->goto_chain, tmp.goto_chain, __ATOMIC_RELEASE);
	__atomic_store_n(&a->priv, tmp.priv, __ATOMIC_RELEASE);
	__atomic_store_n(&a->control, tmp.control, __ATOMIC_RELEASE);
	a->flags = opts->flags;
	nb_tcf_synchronize();
	tcf_action_free_priv(a, old_priv);
	return 0;
}

/*
 * Action nr of a caller's list, whose stride is the caller's struct size (the first element's
 * sz): NULL, with the reason in log, when an element breaks the options rules or its size is not
 * the first's. Every field this library knows is read directly: sz must hold them all.
 */
static const struct nb_tc_action_opts *tc_action_opts_nth(const struct nb_tc_action_opts *opts,
							  unsigned int nr, struct nb_log *log)
{
	const struct nb_tc_action_opts *a;

	if (!opts || opts->sz < sizeof(*opts)) {
		nb_log_printf(log, "action %u: struct nb_tc_action_opts: sz %zu, at least %zu\n",
			      nr + 1, opts ? opts->sz : 0, sizeof(*opts));
		return NULL;
	}
	a = (const void *)((const char *)opts + (size_t)nr * opts->sz);
	if (a->sz != opts->sz) {
		nb_log_printf(log, "action %u: struct nb_tc_action_opts: sz %zu, the list's "
			      "is %zu\n", nr + 1, a->sz, opts->sz);
		return NULL;
	}
	if (nb_opts_check(a, sizeof(*a), sizeof(*a), "nb_tc_action_opts", log))
		return NULL;
	return a;
}

/*
 * One action of a list (tcf_action_init_1 with tcf_idr_check_alloc): an index that exists is
 * bound (filters) or replaced (replace) or refused (add); else a new action is made.
 * *created tells which, for undoing a failed list.
 */
static int tcf_action_init_1(struct nb_tcf_chain *chain, const struct nb_tc_action_opts *opts,
			     unsigned int nr, bool bind, bool replace, struct nb_tc_action **ap,
			     bool *created, struct nb_log *log)
{
	struct nb_tc_action_ops *ops = tc_lookup_action(opts->kind);
	struct nb_tc_action *a;
	int err;

	*created = false;
	if (!ops) {
		nb_log_printf(log, "action %u: unknown kind \"%s\"\n", nr + 1,
			      opts->kind ? opts->kind : "");
		return -ENOENT;
	}
	a = opts->index ? tcf_idr_find(ops, opts->index) : NULL;
	if (a && bind) {
		a->refcnt++;
		a->bindcnt++;
		*ap = a;
		return 0;
	}
	if (a && !replace) {
		nb_log_printf(log, "action %s index %u exists\n", ops->kind, a->index);
		return -EEXIST;
	}
	if (a) {
		err = tcf_action_replace(a, chain, opts, nr, log);
		if (!err)
			*ap = a;
		return err;
	}
	err = tcf_action_create(ops, chain, opts, nr, bind, ap, log);
	*created = !err;
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
		const struct nb_tc_action_opts *a = tc_action_opts_nth(opts, i, log);
		bool created;
		int err = a ? tcf_action_init_1(chain, a, i, true, false, &exts->actions[i],
						&created, log) : -EINVAL;

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
		tcf_action_put(exts->actions[i], true);
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

/* What show prints of an action (tcf_action_dump_1): ages from the stamps, summed counters. */
static void tcf_action_fill_info(const struct nb_tc_action *a, struct nb_tc_action_info *info)
{
	u64 now = nb_ktime_get_coarse_ns(), lastuse = a->install_ns, firstuse = 0;

	memset(info, 0, sizeof(*info));
	info->kind = a->ops->kind;
	info->control = a->control;
	info->index = a->index;
	info->refcnt = a->refcnt;
	info->bindcnt = a->bindcnt;
	info->flags = a->flags;
	nb_tc_stats_read(a->stats, &info->stats);
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++) {
		u64 last = READ_ONCE(a->stats[cpu].lastuse);
		u64 first = READ_ONCE(a->stats[cpu].firstuse);

		if (last > lastuse)
			lastuse = last;
		if (first && (!firstuse || first < firstuse))
			firstuse = first;
	}
	info->installed_ms = now > a->install_ns ? (now - a->install_ns) / 1000000 : 0;
	info->lastuse_ms = now > lastuse ? (now - lastuse) / 1000000 : 0;
	info->used = firstuse != 0;
	info->firstuse_ms = firstuse && now > firstuse ? (now - firstuse) / 1000000 : 0;
	if (a->ops->dump) {
		a->ops->dump(a, info);
	} else {
		char buf[32];

		nb_tc_print_string(&info->print, NB_TC_PRINT_FP, NULL, "%s ", info->kind);
		nb_tc_print_string(&info->print, NB_TC_PRINT_FP, NULL, "%s\n\t ",
				   nb_tc_control_name(info->control, buf, sizeof(buf)));
		nb_tc_print_control(&info->print, "control_action", info->control);
		nb_tcf_action_print_common(info);
		nb_tc_print_string(&info->print, NB_TC_PRINT_FP, NULL, "%s", "\n");
	}
}

/* tc prints an age in seconds only when the kernel's jiffies of it would not be 0. */
static bool tm_shown(u64 ms)
{
	return ms * NB_HZ / 1000 != 0;
}

void nb_tcf_action_print_common(struct nb_tc_action_info *info)
{
	struct nb_tc_print_list *l = &info->print;
	enum nb_tc_print_type stats = NB_TC_PRINT_ANY | NB_TC_PRINT_STATS;

	nb_tc_print_uint(l, NB_TC_PRINT_ANY, "index", "index %llu ", info->index);
	nb_tc_print_int(l, NB_TC_PRINT_ANY, "ref", "ref %lld ", info->refcnt);
	nb_tc_print_int(l, NB_TC_PRINT_ANY, "bind", "bind %lld", info->bindcnt);
	if (tm_shown(info->installed_ms))
		nb_tc_print_uint(l, stats, "installed", " installed %llu sec",
				 info->installed_ms / 1000);
	if (tm_shown(info->lastuse_ms))
		nb_tc_print_uint(l, stats, "last_used", " used %llu sec", info->lastuse_ms / 1000);
	if (info->used && tm_shown(info->firstuse_ms))
		nb_tc_print_uint(l, stats, "first_used", " firstused %llu sec",
				 info->firstuse_ms / 1000);
}

void nb_tcf_exts_dump(const struct nb_tcf_exts *exts, struct nb_tc_filter_info *info)
{
	info->action_cnt = exts->nr_actions;
	for (unsigned int i = 0; i < exts->nr_actions; i++)
		tcf_action_fill_info(exts->actions[i], &info->actions[i]);
}

/* "bpf, gact or mirred": the kinds built, for an error. */
static const char *action_kinds_list(char *buf, size_t size)
{
	const char *const *k = nb_tc_action_kinds();
	size_t n = 0;

	buf[0] = 0;
	for (; *k && n < size; k++)
		n += snprintf(buf + n, size - n, "%s%s", *k, !k[1] ? "" : !k[2] ? " or " : ", ");
	return buf;
}

int nb_tc_action_parse(struct nb_tc_words *w, struct nb_tc_action_opts *opts)
{
	const char *word = w->argv[w->pos];
	const struct nb_tc_action_ops *ops = tc_lookup_action(word);
	char buf[128];
	int control, err;

	if (ops) {
		w->pos++;
		err = nb_tc_action_parse_ops(w, ops, true, opts);
		goto out;
	}
	/* "action drop": a verdict alone names the kind whose verdict is the action */
	if (!nb_tc_control_parse(word, &control) || !strcmp(word, "goto") || !strcmp(word, "jump"))
		for (ops = act_base; ops; ops = ops->next)
			if (ops->verdict) {
				err = nb_tc_action_parse_ops(w, ops, false, opts);
				goto out;
			}
	return nb_tc_words_wrong(w, word, "unknown action, expected %s",
				 action_kinds_list(buf, sizeof(buf)));
out:
	if (err)
		nb_tc_action_opts_release(opts);
	return err;
}

void nb_tc_action_opts_release(struct nb_tc_action_opts *opts)
{
	free((void *)opts->kind_opts);
	opts->kind_opts = NULL;
}

const char *nb_tc_action_usage(const char *kind)
{
	const struct nb_tc_action_ops *ops = tc_lookup_action(kind);

	return ops ? ops->usage : NULL;
}

/* The standalone commands (tc actions ...), each under the tc lock. */

static struct nb_tc_action_ops *tc_action_kind(const char *kind, struct nb_log *log)
{
	struct nb_tc_action_ops *ops = tc_lookup_action(kind);

	if (!ops)
		nb_log_printf(log, "Specified TC action kind not found: \"%s\"\n",
			      kind ? kind : "");
	return ops;
}

int nb_tc_actions_add(const struct nb_tc_action_opts *opts, unsigned int cnt, bool replace,
		      __u32 *indexes, struct nb_log *log)
{
	struct nb_tc_action *acts[NB_TC_MAX_ACTIONS];
	bool created[NB_TC_MAX_ACTIONS];
	unsigned int i;
	int err = 0;

	if (!cnt || cnt > NB_TC_MAX_ACTIONS) {
		nb_log_printf(log, "tc actions: %u actions, 1 to %u are possible\n", cnt,
			      NB_TC_MAX_ACTIONS);
		return -EINVAL;
	}
	nb_tc_lock();
	for (i = 0; i < cnt && !err; i++) {
		const struct nb_tc_action_opts *a = tc_action_opts_nth(opts, i, log);

		created[i] = false;
		err = a ? tcf_action_init_1(NULL, a, i, false, replace, &acts[i], &created[i],
					    log) : -EINVAL;
	}
	if (err) {
		/* the list is made whole or not at all; replaced ones stay replaced */
		for (unsigned int k = 0; k + 1 < i; k++)
			if (created[k])
				tcf_action_put(acts[k], false);
	} else if (indexes) {
		for (i = 0; i < cnt; i++)
			indexes[i] = acts[i]->index;
	}
	nb_tc_unlock();
	return err;
}

static struct nb_tc_action *tc_action_lookup(const char *kind, __u32 index, struct nb_log *log)
{
	struct nb_tc_action_ops *ops = tc_action_kind(kind, log);
	struct nb_tc_action *a = ops ? tcf_idr_find(ops, index) : NULL;

	if (ops && !a)
		nb_log_printf(log, "TC action with specified index not found\n");
	return a;
}

int nb_tc_action_get(const char *kind, __u32 index, struct nb_tc_action_info *info,
		     struct nb_log *log)
{
	struct nb_tc_action *a;

	int err = -ENOENT;

	nb_tc_lock();
	a = tc_action_lookup(kind, index, log);
	if (a) {
		tcf_action_fill_info(a, info);
		err = info->print.err;
		if (err)
			nb_tc_action_info_release(info);
	}
	nb_tc_unlock();
	return err;
}

int nb_tc_action_del(const char *kind, __u32 index, struct nb_log *log)
{
	struct nb_tc_action *a;
	int err = 0;

	nb_tc_lock();
	a = tc_action_lookup(kind, index, log);
	if (!a) {
		err = -ENOENT;
	} else if (a->bindcnt) {
		/* tcf_idr_delete_index: a bound action stays */
		nb_log_printf(log, "Failed to delete TC action\n");
		err = -EPERM;
	} else {
		tcf_action_put(a, false);
	}
	nb_tc_unlock();
	return err;
}

int nb_tc_actions_flush(const char *kind, unsigned int *count, struct nb_log *log)
{
	struct nb_tc_action_ops *ops;
	int err = 0;

	*count = 0;
	nb_tc_lock();
	ops = tc_action_kind(kind, log);
	if (!ops) {
		nb_tc_unlock();
		return -ENOENT;
	}
	/* tcf_del_walker: in index order, stopping at the first bound action */
	for (struct nb_tc_action **pp = &ops->idr; *pp;) {
		struct nb_tc_action *a = *pp;

		if (a->bindcnt) {
			err = -EPERM;
			break;
		}
		(*count)++;
		if (a->refcnt > 1) {
			a->refcnt--;
			pp = &a->idr_next;
		} else {
			tcf_action_put(a, false);	/* unlinks *pp */
		}
	}
	nb_tc_unlock();
	if (err && *count) {
		nb_log_printf(log, "Unable to flush all TC actions\n");
		return 0;
	}
	if (err)
		nb_log_printf(log, "action %s: an action is bound to a filter\n", kind);
	return err;
}

int nb_tc_actions_walk(const char *kind, nb_tc_action_walk_fn fn, void *ctx, struct nb_log *log)
{
	struct nb_tc_action_info *info = malloc(sizeof(*info));
	struct nb_tc_action_ops *ops;
	int err = 0;

	if (!info)
		return -ENOMEM;
	nb_tc_lock();
	ops = tc_action_kind(kind, log);
	if (!ops)
		err = -ENOENT;
	for (struct nb_tc_action *a = ops ? ops->idr : NULL; a; a = a->idr_next) {
		int stop;

		tcf_action_fill_info(a, info);
		err = info->print.err;
		stop = err ? 1 : fn(info, ctx);
		nb_tc_action_info_release(info);
		if (stop)
			break;
	}
	nb_tc_unlock();
	free(info);
	return err;
}

void nb_tc_actions_destroy_unbound(void)
{
	nb_tc_lock();
	for (struct nb_tc_action_ops *ops = act_base; ops; ops = ops->next) {
		struct nb_tc_action **pp = &ops->idr;

		while (*pp) {
			struct nb_tc_action *a = *pp;

			if (a->bindcnt) {
				pp = &a->idr_next;
				continue;
			}
			a->refcnt = 1;
			tcf_action_put(a, false);
		}
	}
	nb_tc_unlock();
}
