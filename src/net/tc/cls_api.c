// SPDX-License-Identifier: GPL-2.0
/*
 * The classifier API, the twin of the kernel's net/sched/cls_api.c: the registry of classifier
 * kinds, blocks and chains, filters (tcf_proto) ordered by prio with the kernel's automatic prio,
 * the classification loop with protocol matching, reclassify and goto chain, and the filter
 * commands of include/netbpf/tc.h (tc_new_tfilter, tc_del_tfilter, tc_dump_tfilter).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/pkt_sched.h>
#include <netbpf/percpu.h>

#include "bpf/epoch.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/tc/pkt_cls.h"
#include "common/u64_stats.h"
#include "common/opts.h"
#include "common/parse.h"
#include "common/register.h"

static struct nb_tcf_proto_ops *tcf_proto_base;	/* by kind name */
/* The kinds' names in the same order, NULL-terminated. */
static const char **tcf_proto_kinds;
static unsigned int tcf_proto_kind_cnt;

/*
 * The control plane's lock, the twin of the rtnl mutex: commands run one at a time; the
 * datapath never takes it.
 */
static pthread_mutex_t tc_lock = PTHREAD_MUTEX_INITIALIZER;

void nb_tc_lock(void)
{
	pthread_mutex_lock(&tc_lock);
}

void nb_tc_unlock(void)
{
	pthread_mutex_unlock(&tc_lock);
}

static const struct nb_tcf_proto_ops *tcf_proto_lookup_ops(const char *kind)
{
	for (const struct nb_tcf_proto_ops *ops = tcf_proto_base; ops; ops = ops->next)
		if (kind && !strcmp(ops->kind, kind))
			return ops;
	return NULL;
}

int nb_tcf_proto_register(struct nb_tcf_proto_ops *ops)
{
	struct nb_tcf_proto_ops **pp = &tcf_proto_base;
	unsigned int n = 0;
	int err;

	while (*pp && strcmp((*pp)->kind, ops->kind) < 0) {
		pp = &(*pp)->next;
		n++;
	}
	if (*pp && !strcmp((*pp)->kind, ops->kind))
		return -EEXIST;
	err = nb_register_name_insert(&tcf_proto_kinds, &tcf_proto_kind_cnt, n, ops->kind);
	if (err)
		return err;
	ops->next = *pp;
	*pp = ops;
	return 0;
}

/* Counters. */

struct nb_tc_pcpu_stats *nb_tc_stats_alloc(void)
{
	size_t size = nb_nr_cpus() * sizeof(struct nb_tc_pcpu_stats);
	struct nb_tc_pcpu_stats *stats = aligned_alloc(64, size);

	if (stats)
		memset(stats, 0, size);
	return stats;
}

void nb_tc_stats_free(struct nb_tc_pcpu_stats *stats)
{
	free(stats);
}

struct nb_tc_pcpu_stats *nb_tc_this_stats(struct nb_tc_pcpu_stats *stats)
{
	return &stats[nb_this_cpu()];
}

void nb_tc_stats_update(struct nb_tc_pcpu_stats *stats, const struct nb_pkt *pkt)
{
	struct nb_tc_pcpu_stats *s = nb_tc_this_stats(stats);

	nb_u64_stats_inc(&s->packets);
	nb_u64_stats_add(&s->bytes, pkt->len);
}

void nb_tc_stats_read(const struct nb_tc_pcpu_stats *stats, struct nb_tc_stats *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++) {
		sum->packets += READ_ONCE(stats[cpu].packets);
		sum->bytes += READ_ONCE(stats[cpu].bytes);
		sum->drops += READ_ONCE(stats[cpu].drops);
		sum->overlimits += READ_ONCE(stats[cpu].overlimits);
	}
}

void nb_tcf_synchronize(void)
{
	nb_epoch_synchronize();
}

/* Blocks and chains. */

struct nb_tcf_block *nb_tcf_block_create(void)
{
	struct nb_tcf_block *block = calloc(1, sizeof(*block));

	if (!block)
		return NULL;
	block->stats = nb_tc_stats_alloc();
	if (!block->stats) {
		free(block);
		return NULL;
	}
	return block;
}

struct nb_tcf_chain *nb_tcf_chain_get(struct nb_tcf_block *block, u32 index, bool create)
{
	struct nb_tcf_chain *chain, **pp;

	for (pp = &block->chains; (chain = *pp); pp = &chain->next)
		if (chain->index == index)
			return chain;
	if (!create)
		return NULL;
	chain = calloc(1, sizeof(*chain));
	if (!chain)
		return NULL;
	chain->block = block;
	chain->index = index;
	__atomic_store_n(pp, chain, __ATOMIC_RELEASE);
	if (index == 0)
		__atomic_store_n(&block->chain0, chain, __ATOMIC_RELEASE);
	return chain;
}

static void tcf_proto_destroy(struct nb_tcf_proto *tp)
{
	tp->ops->destroy(tp);
	free(tp);
}

/* Unlink every filter of chain and free them after a grace period (tcf_chain_flush). */
static void tcf_chain_flush(struct nb_tcf_chain *chain)
{
	struct nb_tcf_proto *tp = chain->filter_chain;

	__atomic_store_n(&chain->filter_chain, NULL, __ATOMIC_RELEASE);
	if (!tp)
		return;
	nb_tcf_synchronize();
	while (tp) {
		struct nb_tcf_proto *next = tp->next;

		tcf_proto_destroy(tp);
		tp = next;
	}
}

void nb_tcf_block_destroy(struct nb_tcf_block *block)
{
	struct nb_tcf_chain *chain, *next;

	if (!block)
		return;
	for (chain = block->chains; chain; chain = chain->next)
		tcf_chain_flush(chain);
	for (chain = block->chains; chain; chain = next) {
		next = chain->next;
		free(chain);
	}
	nb_tc_stats_free(block->stats);
	free(block);
}

/* Classification. */

/* The protocol filters match: the outer one, an offloaded VLAN tag's when present. */
static __be16 pkt_tc_protocol(const struct nb_pkt *pkt)
{
	return pkt->vlan_present ? pkt->vlan_proto : pkt->protocol;
}

int nb_tcf_classify(struct nb_pkt *pkt, const struct nb_tcf_proto *tp, struct nb_tcf_result *res)
{
	const struct nb_tcf_proto *orig_tp = tp, *first_tp;
	int limit = 0;

reclassify:
	for (; tp; tp = __atomic_load_n(&tp->next, __ATOMIC_ACQUIRE)) {
		__be16 protocol = pkt_tc_protocol(pkt);
		int err;

		if (tp->protocol != protocol && tp->protocol != htons(ETH_P_ALL))
			continue;
		err = tp->ops->classify(pkt, tp, res);
		if (unlikely(err == TC_ACT_RECLASSIFY)) {
			first_tp = orig_tp;
			goto reset;
		} else if (unlikely(TC_ACT_EXT_CMP(err, TC_ACT_GOTO_CHAIN))) {
			first_tp = res->goto_tp;
			goto reset;
		}
		if (err >= 0)
			return err;
	}
	return TC_ACT_UNSPEC;

reset:
	/* A loop of reclassify and goto chain ends in a drop, as in the kernel. */
	if (unlikely(limit++ >= NB_TC_MAX_RECLASSIFY_LOOP))
		return TC_ACT_SHOT;
	tp = first_tp;
	goto reclassify;
}

int nb_tc_run(struct nb_tcf_block *block, struct nb_pkt *pkt)
{
	struct nb_tcf_chain *chain0 = __atomic_load_n(&block->chain0, __ATOMIC_ACQUIRE);
	const struct nb_tcf_proto *tp;
	struct nb_tcf_result res = { 0 };
	int ret;

	/* Without filters on chain 0 the hook has no mini qdisc: nothing runs or counts. */
	tp = chain0 ? __atomic_load_n(&chain0->filter_chain, __ATOMIC_ACQUIRE) : NULL;
	if (!tp)
		return TC_ACT_UNSPEC;
	nb_tc_stats_update(block->stats, pkt);
	/*
	 * One read section for the filters and their programs and actions, as the kernel's
	 * hook runs under rcu_read_lock_bh: on a worker, which is always in one, two counts.
	 */
	nb_epoch_read_lock();
	ret = nb_tcf_classify(pkt, tp, &res);
	nb_epoch_read_unlock();
	switch (ret) {
	case TC_ACT_SHOT:
		nb_u64_stats_inc(&nb_tc_this_stats(block->stats)->drops);
		break;
	case TC_ACT_OK:
	case TC_ACT_RECLASSIFY:
		pkt->tc_index = (u16)TC_H_MIN(res.classid);
		break;
	}
	return ret;
}

/* The filter commands. */

enum filter_cmd {
	CMD_ADD,	/* NLM_F_CREATE | NLM_F_EXCL */
	CMD_REPLACE,	/* NLM_F_CREATE */
	CMD_CHANGE,	/* no flags: must exist */
};

static const char *const hook_names[NB_TC_HOOK_MAX] = { "ingress", "egress" };

/* The next prio the kernel picks (tcf_auto_prio): one below the filter at the insert point. */
static u32 tcf_auto_prio(const struct nb_tcf_proto *tp)
{
	u32 first = TC_H_MAKE(0xC0000000U, 0U);

	if (tp)
		first = tp->prio - 1;
	return TC_H_MAJ(first);
}

/*
 * Find the filter with prio in chain (tcf_chain_tp_find): *pprevp is where a new one goes, the
 * first with a prio at least as high. -EINVAL for a prio taken by another protocol.
 */
static int tcf_chain_tp_find(struct nb_tcf_chain *chain, __be16 protocol, u32 prio,
			     bool prio_allocate, struct nb_tcf_proto ***pprevp,
			     struct nb_tcf_proto **tpp)
{
	struct nb_tcf_proto **pprev, *tp;

	*tpp = NULL;
	for (pprev = &chain->filter_chain; (tp = *pprev); pprev = &tp->next) {
		if (tp->prio >= prio) {
			if (tp->prio == prio) {
				if (prio_allocate || (tp->protocol != protocol && protocol))
					return -EINVAL;
				*tpp = tp;
			}
			break;
		}
	}
	*pprevp = pprev;
	return 0;
}

static int tc_new_tfilter_locked(struct nb_dev *dev, const struct nb_tc_filter_opts *opts,
				 struct nb_tc_filter_id *id, enum filter_cmd cmd)
{
	struct nb_log *log = opts->log;
	bool create = cmd != CMD_CHANGE, prio_allocate = false, tp_created = false;
	struct nb_tcf_proto **pprev, *tp;
	struct nb_tcf_exts exts = { 0 };
	struct nb_tcf_block *block;
	struct nb_tcf_chain *chain;
	__be16 protocol = opts->protocol;
	u32 prio, handle = opts->handle;
	void *fh;
	int err;

	if ((unsigned int)opts->hook >= NB_TC_HOOK_MAX) {
		nb_log_printf(log, "filter: hook %d is neither ingress nor egress\n", opts->hook);
		return -EINVAL;
	}
	block = nb_tc_dev_block(dev, opts->hook, log);
	if (!block)
		return -EINVAL;
	if (opts->pref > 0xffff) {
		nb_log_printf(log, "filter: pref %u is above 65535\n", opts->pref);
		return -EINVAL;
	}
	prio = opts->pref << 16;
	if (!prio) {
		if (!create) {
			nb_log_printf(log, "filter: change needs a pref\n");
			return -ENOENT;
		}
		prio = TC_H_MAKE(0x80000000U, 0U);
		prio_allocate = true;
	}
	if (create && !protocol)
		protocol = htons(ETH_P_ALL);	/* iproute2's default for add and replace */
	if (opts->chain > TC_ACT_EXT_VAL_MASK) {
		nb_log_printf(log, "filter: chain %u is above the limit\n", opts->chain);
		return -EINVAL;
	}
	chain = nb_tcf_chain_get(block, opts->chain, create);
	if (!chain) {
		nb_log_printf(log, "filter: cannot find chain %u on %s %s\n", opts->chain,
			      dev->name, hook_names[opts->hook]);
		return create ? -ENOMEM : -EINVAL;
	}
	err = tcf_chain_tp_find(chain, protocol, prio, prio_allocate, &pprev, &tp);
	if (err) {
		nb_log_printf(log, "filter: pref %u is taken by another protocol\n", prio >> 16);
		return err;
	}
	if (!tp) {
		const struct nb_tcf_proto_ops *ops;

		if (!opts->kind || !protocol) {
			nb_log_printf(log, "filter: kind and protocol must be given\n");
			return -EINVAL;
		}
		if (!create) {
			nb_log_printf(log, "filter: no filter with pref %u to change\n",
				      prio >> 16);
			return -ENOENT;
		}
		ops = tcf_proto_lookup_ops(opts->kind);
		if (!ops) {
			nb_log_printf(log, "filter: unknown classifier \"%s\"\n", opts->kind);
			return -ENOENT;
		}
		if (prio_allocate)
			prio = tcf_auto_prio(*pprev);
		tp = calloc(1, sizeof(*tp));
		if (!tp)
			return -ENOMEM;
		tp->ops = ops;
		tp->protocol = protocol;
		tp->prio = prio;
		tp->chain = chain;
		err = ops->init(tp);
		if (err) {
			free(tp);
			return err;
		}
		tp_created = true;
	} else if (opts->kind && strcmp(opts->kind, tp->ops->kind)) {
		nb_log_printf(log, "filter: kind \"%s\" does not match the existing \"%s\"\n",
			      opts->kind, tp->ops->kind);
		return -EINVAL;
	}

	fh = handle ? tp->ops->get(tp, handle) : NULL;
	if (!fh) {
		if (!create) {
			nb_log_printf(log, "filter: no filter with handle 0x%x to change\n", handle);
			err = -ENOENT;
			goto errout;
		}
	} else if (cmd == CMD_ADD) {
		nb_log_printf(log, "filter: handle 0x%x already exists\n", handle);
		err = -EEXIST;
		goto errout;
	}

	err = nb_tcf_exts_init(&exts, chain, opts->actions, opts->action_cnt, log);
	if (err)
		goto errout;
	err = tp->ops->change(tp, fh, handle, opts, &exts, &handle, log);
	nb_tcf_exts_destroy(&exts);	/* empty unless change failed */
	if (err)
		goto errout;
	if (tp_created) {
		tp->next = *pprev;
		__atomic_store_n(pprev, tp, __ATOMIC_RELEASE);
	}
	if (id) {
		id->hook = opts->hook;
		id->chain = opts->chain;
		id->pref = tp->prio >> 16;
		id->protocol = tp->protocol;
		id->handle = handle;
	}
	return 0;

errout:
	if (tp_created)
		tcf_proto_destroy(tp);
	return err;
}

static int tc_new_tfilter(struct nb_dev *dev, const struct nb_tc_filter_opts *opts,
			  struct nb_tc_filter_id *id, enum filter_cmd cmd)
{
	int err;

	if (!opts)
		return -EINVAL;
	err = NB_OPTS_CHECK(opts, nb_tc_filter_opts, log, NB_OPTS_GET(opts, log, NULL));
	if (err)
		return err;
	nb_tc_lock();
	err = tc_new_tfilter_locked(dev, opts, id, cmd);
	nb_tc_unlock();
	return err;
}

int nb_tc_filter_add(struct nb_dev *dev, const struct nb_tc_filter_opts *opts,
		     struct nb_tc_filter_id *id)
{
	return tc_new_tfilter(dev, opts, id, CMD_ADD);
}

int nb_tc_filter_replace(struct nb_dev *dev, const struct nb_tc_filter_opts *opts,
			 struct nb_tc_filter_id *id)
{
	return tc_new_tfilter(dev, opts, id, CMD_REPLACE);
}

int nb_tc_filter_change(struct nb_dev *dev, const struct nb_tc_filter_opts *opts,
			struct nb_tc_filter_id *id)
{
	return tc_new_tfilter(dev, opts, id, CMD_CHANGE);
}

/* Unlink tp from its chain and free it after a grace period. */
static void tcf_chain_tp_remove(struct nb_tcf_chain *chain, struct nb_tcf_proto *tp)
{
	for (struct nb_tcf_proto **pp = &chain->filter_chain; *pp; pp = &(*pp)->next) {
		if (*pp == tp) {
			__atomic_store_n(pp, tp->next, __ATOMIC_RELEASE);
			break;
		}
	}
	nb_tcf_synchronize();
	tcf_proto_destroy(tp);
}

static int nb_tc_filter_del_locked(struct nb_dev *dev, const struct nb_tc_filter_id *id,
				   struct nb_log *log)
{
	struct nb_tcf_proto **pprev, *tp;
	struct nb_tcf_block *block;
	struct nb_tcf_chain *chain;
	bool last = false;
	void *fh;
	int err;

	if ((unsigned int)id->hook >= NB_TC_HOOK_MAX || id->pref > 0xffff) {
		nb_log_printf(log, "filter del: bad hook or pref\n");
		return -EINVAL;
	}
	block = nb_tc_dev_block(dev, id->hook, log);
	if (!block)
		return -EINVAL;
	if (!id->pref && (id->protocol || id->handle)) {
		nb_log_printf(log, "filter del: cannot flush filters with protocol or handle set\n");
		return -ENOENT;
	}
	chain = nb_tcf_chain_get(block, id->chain, false);
	if (!chain) {
		nb_log_printf(log, "filter del: cannot find chain %u\n", id->chain);
		return -EINVAL;
	}
	if (!id->pref) {
		tcf_chain_flush(chain);
		return 0;
	}
	err = tcf_chain_tp_find(chain, id->protocol, id->pref << 16, false, &pprev, &tp);
	if (err || !tp) {
		nb_log_printf(log, "filter del: no filter with pref %u and that protocol\n",
			      id->pref);
		return -ENOENT;
	}
	if (!id->handle) {
		tcf_chain_tp_remove(chain, tp);
		return 0;
	}
	fh = tp->ops->get(tp, id->handle);
	if (!fh) {
		nb_log_printf(log, "filter del: no filter with handle 0x%x\n", id->handle);
		return -ENOENT;
	}
	err = tp->ops->delete(tp, fh, &last);
	if (err)
		return err;
	if (last)
		tcf_chain_tp_remove(chain, tp);
	return 0;
}

/* Show. */

struct dump_arg {
	nb_tc_filter_walk_fn fn;
	void *ctx;
	enum nb_tc_hook hook;
	u32 handle;		/* get: the one wanted */
	struct nb_tc_filter_info *info;	/* get: where it goes */
	int stop;
};

/* Fill info as show prints it: 0, or -ENOMEM when an item of what it prints was lost. */
static int fill_info(const struct nb_tcf_proto *tp, const void *fh, enum nb_tc_hook hook,
		     struct nb_tc_filter_info *info)
{
	int err;

	memset(info, 0, sizeof(*info));
	info->id.hook = hook;
	info->id.chain = tp->chain->index;
	info->id.pref = tp->prio >> 16;
	info->id.protocol = tp->protocol;
	info->kind = tp->ops->kind;
	tp->ops->dump(tp, fh, info);
	err = info->print.err;
	for (unsigned int a = 0; a < info->action_cnt && !err; a++)
		err = info->actions[a].print.err;
	if (err)
		nb_tc_filter_info_release(info);
	return err;
}

static int dump_one(struct nb_tcf_proto *tp, void *fh, void *varg)
{
	struct dump_arg *arg = varg;
	struct nb_tc_filter_info *info;
	int err;

	if (arg->info) {
		err = fill_info(tp, fh, arg->hook, arg->info);
		if (err) {
			arg->stop = err;
			return 1;
		}
		if (arg->info->id.handle != arg->handle) {
			nb_tc_filter_info_release(arg->info);
			return 0;
		}
		arg->stop = 1;
		return 1;
	}
	info = malloc(sizeof(*info));
	if (!info) {
		arg->stop = -ENOMEM;
		return 1;
	}
	err = fill_info(tp, fh, arg->hook, info);
	if (err) {
		arg->stop = err;
	} else {
		arg->stop = arg->fn ? arg->fn(info, arg->ctx) : 0;
		nb_tc_filter_info_release(info);
	}
	free(info);
	return arg->stop;
}

static int nb_tc_filter_show_locked(struct nb_dev *dev, enum nb_tc_hook hook,
				    nb_tc_filter_walk_fn fn, void *ctx, struct nb_log *log)
{
	struct dump_arg arg = { .fn = fn, .ctx = ctx, .hook = hook };
	struct nb_tcf_block *block;

	if ((unsigned int)hook >= NB_TC_HOOK_MAX)
		return -EINVAL;
	block = nb_tc_dev_block(dev, hook, log);
	if (!block)
		return -EINVAL;
	for (struct nb_tcf_chain *chain = block->chains; chain; chain = chain->next) {
		for (struct nb_tcf_proto *tp = chain->filter_chain; tp; tp = tp->next) {
			tp->ops->walk(tp, dump_one, &arg);
			if (arg.stop)
				return arg.stop < 0 ? arg.stop : 0;
		}
	}
	return 0;
}

static int nb_tc_filter_get_locked(struct nb_dev *dev, const struct nb_tc_filter_id *id,
				   struct nb_tc_filter_info *info, struct nb_log *log)
{
	struct dump_arg arg = { .hook = id->hook, .handle = id->handle, .info = info };
	struct nb_tcf_proto **pprev, *tp;
	struct nb_tcf_block *block;
	struct nb_tcf_chain *chain;

	if ((unsigned int)id->hook >= NB_TC_HOOK_MAX || id->pref > 0xffff)
		return -EINVAL;
	block = nb_tc_dev_block(dev, id->hook, log);
	if (!block)
		return -EINVAL;
	chain = nb_tcf_chain_get(block, id->chain, false);
	if (!chain || tcf_chain_tp_find(chain, id->protocol, id->pref << 16, false, &pprev, &tp) ||
	    !tp) {
		nb_log_printf(log, "filter get: no filter with pref %u\n", id->pref);
		return -ENOENT;
	}
	tp->ops->walk(tp, dump_one, &arg);
	if (arg.stop < 0)
		return arg.stop;
	if (!arg.stop) {
		nb_log_printf(log, "filter get: no filter with handle 0x%x\n", id->handle);
		return -ENOENT;
	}
	return 0;
}

int nb_tc_hook_stats(struct nb_dev *dev, enum nb_tc_hook hook, struct nb_tc_stats *stats)
{
	struct nb_tcf_block *block;

	if ((unsigned int)hook >= NB_TC_HOOK_MAX)
		return -EINVAL;
	nb_tc_lock();
	block = nb_tc_dev_block(dev, hook, NULL);
	if (block)
		nb_tc_stats_read(block->stats, stats);
	nb_tc_unlock();
	return block ? 0 : -EINVAL;
}

int nb_tc_filter_del(struct nb_dev *dev, const struct nb_tc_filter_id *id, struct nb_log *log)
{
	int err;

	nb_tc_lock();
	err = nb_tc_filter_del_locked(dev, id, log);
	nb_tc_unlock();
	return err;
}

int nb_tc_filter_show(struct nb_dev *dev, enum nb_tc_hook hook, nb_tc_filter_walk_fn fn,
		      void *ctx, struct nb_log *log)
{
	int err;

	nb_tc_lock();
	err = nb_tc_filter_show_locked(dev, hook, fn, ctx, log);
	nb_tc_unlock();
	return err;
}

int nb_tc_filter_get(struct nb_dev *dev, const struct nb_tc_filter_id *id,
		     struct nb_tc_filter_info *info, struct nb_log *log)
{
	int err;

	nb_tc_lock();
	err = nb_tc_filter_get_locked(dev, id, info, log);
	nb_tc_unlock();
	return err;
}

int nb_tc_filter_parse(const char *kind, struct nb_tc_words *w, struct nb_tc_filter_opts *opts)
{
	const struct nb_tcf_proto_ops *ops = tcf_proto_lookup_ops(kind);
	int err;

	if (!ops)
		return nb_tc_words_wrong(w, kind ? kind : "", "unknown classifier");
	err = ops->parse(w, opts);
	if (err)
		nb_tc_filter_opts_release(opts);
	return err;
}

void nb_tc_filter_opts_release(struct nb_tc_filter_opts *opts)
{
	free((void *)opts->kind_opts);
	opts->kind_opts = NULL;
}

const char *nb_tc_filter_usage(const char *kind)
{
	const struct nb_tcf_proto_ops *ops = tcf_proto_lookup_ops(kind);

	return ops ? ops->usage : NULL;
}

/* Handles: one number unless the kind reads its own ("800::1"). */
int nb_tc_filter_handle_parse(const char *kind, const char *word, __u32 *handle)
{
	const struct nb_tcf_proto_ops *ops = tcf_proto_lookup_ops(kind);

	if (ops && ops->handle_parse)
		return ops->handle_parse(word, handle);
	return nb_parse_u32(word, handle, 0) ? 0 : -EINVAL;
}

const char *nb_tc_filter_handle_name(const char *kind, __u32 handle, char *buf, size_t size)
{
	const struct nb_tcf_proto_ops *ops = tcf_proto_lookup_ops(kind);

	if (ops && ops->handle_name)
		return ops->handle_name(handle, buf, size);
	snprintf(buf, size, "0x%x", handle);
	return buf;
}

/* Class ids, as tc reads and prints them (get_tc_classid, sprint_tc_classid). */
int nb_tc_classid_parse(const char *w, __u32 *h)
{
	unsigned long maj, min;
	char *p;

	if (!strcmp(w, "root")) {
		*h = TC_H_ROOT;
		return 0;
	}
	if (!strcmp(w, "none")) {
		*h = TC_H_UNSPEC;
		return 0;
	}
	maj = strtoul(w, &p, 16);
	if (p == w && *p != ':')
		return -EINVAL;
	if (*p != ':') {
		if (*p || maj > 0xffffffffUL)
			return -EINVAL;
		*h = (__u32)maj;
		return 0;
	}
	if (maj >= 1 << 16)
		return -EINVAL;
	w = p + 1;
	min = strtoul(w, &p, 16);
	if (*p || min >= 1 << 16)
		return -EINVAL;
	*h = (__u32)(maj << 16 | min);
	return 0;
}

const char *nb_tc_classid_name(__u32 h, char *buf, size_t size)
{
	if (h == TC_H_ROOT)
		snprintf(buf, size, "root");
	else if (!TC_H_MAJ(h))
		snprintf(buf, size, ":%x", TC_H_MIN(h));
	else if (!TC_H_MIN(h))
		snprintf(buf, size, "%x:", TC_H_MAJ(h) >> 16);
	else
		snprintf(buf, size, "%x:%x", TC_H_MAJ(h) >> 16, TC_H_MIN(h));
	return buf;
}

const char *const *nb_tc_filter_kinds(void)
{
	static const char *const none[] = { NULL };

	return tcf_proto_kinds ? tcf_proto_kinds : none;
}
