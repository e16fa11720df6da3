// SPDX-License-Identifier: GPL-2.0
/*
 * The matchall classifier, the twin of the kernel's net/sched/cls_matchall.c: one filter per
 * tcf_proto that matches every packet, gives its classid and runs its actions.
 *
 *   tc filter add dev DEV ingress pref P matchall [{ classid | flowid } X] [action ...]
 */
#include <errno.h>
#include <stdlib.h>

#include "pkt/pkt.h"
#include "net/tc/pkt_cls.h"
#include "common/opts.h"
#include "common/u64_stats.h"

struct cls_mall_head {
	u32 handle;
	u32 classid;
	struct nb_tcf_exts exts;
	struct nb_tc_pcpu_stats *stats;
};

static int mall_classify(struct nb_pkt *pkt, const struct nb_tcf_proto *tp,
			 struct nb_tcf_result *res)
{
	const struct cls_mall_head *head = __atomic_load_n(&tp->root, __ATOMIC_ACQUIRE);
	int ret;

	if (!head)
		return -1;
	res->classid = head->classid;
	nb_tc_stats_update(head->stats, pkt);
	ret = nb_tcf_exts_exec(pkt, &head->exts, res);
	if (ret == TC_ACT_SHOT)
		nb_u64_stats_inc(&nb_tc_this_stats(head->stats)->drops);
	return ret;
}

static int mall_init(struct nb_tcf_proto *tp)
{
	return 0;
}

static void mall_free(struct cls_mall_head *head)
{
	nb_tcf_exts_destroy(&head->exts);
	nb_tc_stats_free(head->stats);
	free(head);
}

static void mall_destroy(struct nb_tcf_proto *tp)
{
	if (tp->root)
		mall_free(tp->root);
}

static void *mall_get(struct nb_tcf_proto *tp, u32 handle)
{
	struct cls_mall_head *head = tp->root;

	return head && head->handle == handle ? head : NULL;
}

static int mall_change(struct nb_tcf_proto *tp, void *fh, u32 handle,
		       const struct nb_tc_filter_opts *opts, struct nb_tcf_exts *exts, u32 *handlep,
		       struct nb_log *log)
{
	const struct nb_tc_matchall_opts *mo = NB_OPTS_GET(opts, kind_opts, NULL);
	struct cls_mall_head *head;
	int err;

	err = NB_OPTS_CHECK(mo, nb_tc_matchall_opts, sz, log);
	if (err)
		return err;
	if (tp->root) {
		/* one filter per matchall: replace is refused as in the kernel */
		nb_log_printf(log, "matchall: the filter with this pref exists already\n");
		return -EEXIST;
	}
	head = calloc(1, sizeof(*head));
	if (!head)
		return -ENOBUFS;
	head->stats = nb_tc_stats_alloc();
	if (!head->stats) {
		free(head);
		return -ENOBUFS;
	}
	head->handle = handle ? handle : 1;
	head->classid = NB_OPTS_GET(mo, classid, 0);
	head->exts = *exts;
	exts->nr_actions = 0;
	__atomic_store_n(&tp->root, head, __ATOMIC_RELEASE);
	*handlep = head->handle;
	return 0;
}

static int mall_delete(struct nb_tcf_proto *tp, void *fh, bool *last)
{
	struct cls_mall_head *head = tp->root;

	__atomic_store_n(&tp->root, NULL, __ATOMIC_RELEASE);
	nb_tcf_synchronize();
	mall_free(head);
	*last = true;
	return 0;
}

static void mall_walk(struct nb_tcf_proto *tp, nb_tcf_walk_fn fn, void *arg)
{
	if (tp->root)
		fn(tp, tp->root, arg);
}

static void mall_dump(const struct nb_tcf_proto *tp, const void *fh,
		      struct nb_tc_filter_info *info)
{
	const struct cls_mall_head *head = fh;
	struct nb_tc_print_list *l = &info->print;
	char buf[16];

	(void)tp;
	info->id.handle = head->handle;
	info->classid = head->classid;
	info->actions_hw_stats = true;	/* matchall asks for offload, even without hardware */
	nb_tc_stats_read(head->stats, &info->stats);
	nb_tcf_exts_dump(&head->exts, info);
	/* f_matchall.c's matchall_print_opt: the hit counter with -s */
	nb_tc_print_uint(l, NB_TC_PRINT_ANY, "handle", "handle 0x%llx ", head->handle);
	if (head->classid)
		nb_tc_print_string(l, NB_TC_PRINT_ANY, "flowid", "flowid %s ",
				   nb_tc_classid_name(head->classid, buf, sizeof(buf)));
	nb_tc_print_bool(l, NB_TC_PRINT_ANY, "not_in_hw", "\n  not_in_hw");
	nb_tc_print_uint(l, NB_TC_PRINT_ANY | NB_TC_PRINT_STATS, "rule_hit", " (rule hit %llu)",
			 info->stats.packets);
}

/* f_matchall.c's matchall_parse_opt: "matchall [{ classid | flowid } X] [action ...]". */
static int mall_parse(struct nb_tc_words *w, struct nb_tc_filter_opts *opts)
{
	struct nb_tc_matchall_opts *mo = calloc(1, sizeof(*mo));

	if (!mo)
		return nb_tc_words_fail(w, -ENOMEM, "out of memory");
	mo->sz = sizeof(*mo);
	opts->kind_opts = mo;
	return nb_tc_words_filter(w, "matchall", &mo->classid, NULL, NULL);
}

static struct nb_tcf_proto_ops cls_mall_ops = {
	.kind = "matchall",
	.usage = "matchall [{ classid | flowid } X] [action ...]\n",
	.classify = mall_classify,
	.init = mall_init,
	.parse = mall_parse,
	.destroy = mall_destroy,
	.get = mall_get,
	.change = mall_change,
	.delete = mall_delete,
	.walk = mall_walk,
	.dump = mall_dump,
};
NB_TCF_PROTO_REGISTER(cls_mall_ops)
