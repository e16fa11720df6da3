// SPDX-License-Identifier: GPL-2.0
/*
 * The bpf classifier, the twin of the kernel's net/sched/cls_bpf.c. One filter (tcf_proto) holds
 * a list of programs, the newest first; each runs on the packet in turn:
 *
 * - direct action ("da", TCA_BPF_FLAG_ACT_DIRECT): the program's return value is the verdict.
 *   tc_classid is preset to the filter's classid before the run; the result's classid is the
 *   major of the filter's classid with the program's tc_classid. OK, SHOT, STOLEN, TRAP, REDIRECT
 *   and UNSPEC pass through, any other value becomes UNSPEC, and UNSPEC goes on to the next
 *   program and filter. Attached actions never run.
 * - classic: 0 is no match, -1 the filter's classid, any other value the classid; then the
 *   filter's actions run, and a negative action verdict goes on to the next program.
 *
 * The kernel pushes the mac header back before an ingress run; here the packet data always
 * starts at the mac header (pkt.h), so the program sees the same bytes without the push.
 *
 *   tc filter add dev DEV ingress pref P bpf [run] { obj | object-file } F
 *      [{ sec | section } S] [max-entries NAME=N] [da | direct-action | integ_act]
 *      [{ classid | flowid } X] [action ...]
 *
 * The filter takes a loaded program: the front end loads "obj F" (nb_tc_words.prog).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>

#include "bpf/prog.h"
#include "pkt/pkt.h"
#include "net/tc/pkt_cls.h"
#include "common/opts.h"

struct cls_bpf_prog {
	struct cls_bpf_prog *next;
	struct nb_prog *filter;
	u32 handle;
	u32 classid;			/* prog->res.classid */
	bool exts_integrated;		/* direct action */
	char *name;
	struct nb_tcf_exts exts;
	/* no counters: the kernel's cls_bpf keeps none (its actions and the qdisc count) */
};

struct cls_bpf_head {
	struct cls_bpf_prog *plist;
};

static int cls_bpf_exec_opcode(int code)
{
	switch (code) {
	case TC_ACT_OK:
	case TC_ACT_SHOT:
	case TC_ACT_STOLEN:
	case TC_ACT_TRAP:
	case TC_ACT_REDIRECT:
	case TC_ACT_UNSPEC:
		return code;
	default:
		return TC_ACT_UNSPEC;
	}
}

static int cls_bpf_classify(struct nb_pkt *pkt, const struct nb_tcf_proto *tp,
			    struct nb_tcf_result *res)
{
	const struct cls_bpf_head *head = __atomic_load_n(&tp->root, __ATOMIC_ACQUIRE);
	const struct cls_bpf_prog *prog;
	int ret = -1;

	for (prog = __atomic_load_n(&head->plist, __ATOMIC_ACQUIRE); prog;
	     prog = __atomic_load_n(&prog->next, __ATOMIC_ACQUIRE)) {
		int filter_res;

		/* tc_classid is 16 bits: the minor of the filter's classid */
		pkt->qdisc_cb.tc_classid = (u16)prog->classid;
		nb_pkt_compute_data_pointers(pkt);
		/* in nb_tc_run's read section: the kernel's cls_bpf runs under rcu_read_lock */
		filter_res = (int)nb_prog_run_locked(prog->filter, pkt);

		if (prog->exts_integrated) {
			res->classid = TC_H_MAJ(prog->classid) | pkt->qdisc_cb.tc_classid;
			ret = cls_bpf_exec_opcode(filter_res);
			if (ret == TC_ACT_UNSPEC)
				continue;
			break;
		}

		if (filter_res == 0)
			continue;
		res->classid = filter_res != -1 ? (u32)filter_res : prog->classid;
		ret = nb_tcf_exts_exec(pkt, &prog->exts, res);
		if (ret < 0)
			continue;
		break;
	}
	return ret;
}

static int cls_bpf_init(struct nb_tcf_proto *tp)
{
	tp->root = calloc(1, sizeof(struct cls_bpf_head));
	return tp->root ? 0 : -ENOBUFS;
}

static void cls_bpf_free_prog(struct cls_bpf_prog *prog)
{
	nb_tcf_exts_destroy(&prog->exts);
	nb_prog_put(prog->filter);
	free(prog->name);
	free(prog);
}

static void cls_bpf_destroy(struct nb_tcf_proto *tp)
{
	struct cls_bpf_head *head = tp->root;
	struct cls_bpf_prog *prog, *next;

	for (prog = head->plist; prog; prog = next) {
		next = prog->next;
		cls_bpf_free_prog(prog);
	}
	free(head);
}

static void *cls_bpf_get(struct nb_tcf_proto *tp, u32 handle)
{
	struct cls_bpf_head *head = tp->root;

	for (struct cls_bpf_prog *prog = head->plist; prog; prog = prog->next)
		if (prog->handle == handle)
			return prog;
	return NULL;
}

/* The smallest free handle from 1 (the kernel's idr_alloc_u32 from 1 to INT_MAX). */
static u32 cls_bpf_new_handle(struct nb_tcf_proto *tp)
{
	for (u32 handle = 1; handle < INT_MAX; handle++)
		if (!cls_bpf_get(tp, handle))
			return handle;
	return 0;
}

static int cls_bpf_change(struct nb_tcf_proto *tp, void *fh, u32 handle,
			  const struct nb_tc_filter_opts *opts, struct nb_tcf_exts *exts,
			  u32 *handlep, struct nb_log *log)
{
	struct cls_bpf_head *head = tp->root;
	struct cls_bpf_prog *oldprog = fh, *prog, **pp;
	const struct nb_tc_bpf_opts *bpf = NB_OPTS_GET(opts, kind_opts, NULL);
	struct nb_prog *filter = NULL;
	const char *name;
	int err;

	if (oldprog && handle && oldprog->handle != handle)
		return -EINVAL;
	err = NB_OPTS_CHECK(bpf, nb_tc_bpf_opts, prog, log);
	if (err)
		return err;
	if (!bpf || !bpf->prog) {
		nb_log_printf(log, "bpf: no program given\n");
		return -EINVAL;
	}
	filter = nb_prog_get(bpf->prog);
	if (nb_prog_type(filter) != BPF_PROG_TYPE_SCHED_CLS) {
		nb_log_printf(log, "bpf: program \"%s\" is not of type sched_cls\n",
			      nb_prog_name(filter));
		nb_prog_put(filter);
		return -EINVAL;
	}
	prog = calloc(1, sizeof(*prog));
	if (!prog) {
		nb_prog_put(filter);
		return -ENOBUFS;
	}
	prog->handle = handle ? handle : cls_bpf_new_handle(tp);
	name = NB_OPTS_GET(bpf, name, NULL);
	prog->name = strdup(name ? name : nb_prog_name(filter));
	if (!prog->handle || !prog->name) {
		err = prog->handle ? -ENOMEM : -ENOSPC;
		nb_prog_put(filter);
		free(prog->name);
		free(prog);
		return err;
	}
	prog->filter = filter;
	prog->classid = NB_OPTS_GET(bpf, classid, 0);
	prog->exts_integrated = NB_OPTS_GET(bpf, direct_action, false);
	prog->exts = *exts;
	exts->nr_actions = 0;

	if (oldprog) {
		prog->next = oldprog->next;
		for (pp = &head->plist; *pp != oldprog; pp = &(*pp)->next)
			;
		__atomic_store_n(pp, prog, __ATOMIC_RELEASE);
		nb_tcf_synchronize();
		cls_bpf_free_prog(oldprog);
	} else {
		prog->next = head->plist;
		__atomic_store_n(&head->plist, prog, __ATOMIC_RELEASE);
	}
	*handlep = prog->handle;
	return 0;
}

static int cls_bpf_delete(struct nb_tcf_proto *tp, void *fh, bool *last)
{
	struct cls_bpf_head *head = tp->root;
	struct cls_bpf_prog *prog = fh, **pp;

	for (pp = &head->plist; *pp && *pp != prog; pp = &(*pp)->next)
		;
	if (!*pp)
		return -ENOENT;
	__atomic_store_n(pp, prog->next, __ATOMIC_RELEASE);
	nb_tcf_synchronize();
	cls_bpf_free_prog(prog);
	*last = !head->plist;
	return 0;
}

static void cls_bpf_walk(struct nb_tcf_proto *tp, nb_tcf_walk_fn fn, void *arg)
{
	struct cls_bpf_head *head = tp->root;

	for (struct cls_bpf_prog *prog = head->plist; prog; prog = prog->next)
		if (fn(tp, prog, arg))
			break;
}

static void cls_bpf_dump(const struct nb_tcf_proto *tp, const void *fh,
			 struct nb_tc_filter_info *info)
{
	const struct cls_bpf_prog *prog = fh;

	struct nb_tc_print_list *l = &info->print;
	char buf[16];

	(void)tp;
	info->id.handle = prog->handle;
	info->classid = prog->classid;
	info->no_stats = true;	/* its actions and the device count, as the kernel's */
	nb_tcf_exts_dump(&prog->exts, info);
	/* f_bpf.c's bpf_print_opt */
	snprintf(buf, sizeof(buf), "0x%x", prog->handle);
	nb_tc_print_string(l, NB_TC_PRINT_ANY, "handle", "handle %s ", buf);
	if (prog->classid)
		nb_tc_print_string(l, NB_TC_PRINT_ANY, "flowid", "flowid %s ",
				   nb_tc_classid_name(prog->classid, buf, sizeof(buf)));
	if (prog->name)
		nb_tc_print_string(l, NB_TC_PRINT_ANY, "bpf_name", "%s ", prog->name);
	if (prog->exts_integrated)
		nb_tc_print_bool(l, NB_TC_PRINT_ANY, "direct-action", "direct-action ");
	nb_tc_print_bool(l, NB_TC_PRINT_ANY, "not_in_hw", "not_in_hw ");
	nb_tc_print_prog(l, prog->filter);
}

/* One of bpf's own words: the program words and "da". */
static int cls_bpf_parse_word(struct nb_tc_words *w, void *kopts)
{
	struct nb_tc_bpf_opts *bpf = kopts;
	const char *word = w->argv[w->pos];
	int err = nb_tc_words_prog(w);

	if (err != -ENOENT)
		return err;
	if (strcmp(word, "da") && strcmp(word, "direct-action") && strcmp(word, "integ_act"))
		return -ENOENT;
	bpf->direct_action = true;
	return 0;
}

/* f_bpf.c's bpf_parse_opt: the program words, "da", the class id and the actions. */
static int cls_bpf_parse(struct nb_tc_words *w, struct nb_tc_filter_opts *opts)
{
	struct nb_tc_bpf_opts *bpf = calloc(1, sizeof(*bpf));
	int err;

	if (!bpf)
		return nb_tc_words_fail(w, -ENOMEM, "out of memory");
	bpf->sz = sizeof(*bpf);
	opts->kind_opts = bpf;
	w->prog.type = BPF_PROG_TYPE_SCHED_CLS;
	w->prog.default_section = "classifier";
	w->prog.prog = &bpf->prog;
	w->prog.name = &bpf->name;
	err = nb_tc_words_filter(w, "bpf", &bpf->classid, cls_bpf_parse_word, bpf);
	if (!err && !w->prog.file)
		return nb_tc_words_usage(w, "bpf needs \"obj FILE\"");
	return err;
}

static struct nb_tcf_proto_ops cls_bpf_ops = {
	.kind = "bpf",
	.usage = "bpf [run] { obj | object-file } FILE [{ sec | section } NAME]\n"
		 "       [da | direct-action | integ_act] [max-entries MAP=N]...\n"
		 "       [{ classid | flowid } X] [action ...]\n",
	.classify = cls_bpf_classify,
	.init = cls_bpf_init,
	.parse = cls_bpf_parse,
	.destroy = cls_bpf_destroy,
	.get = cls_bpf_get,
	.change = cls_bpf_change,
	.delete = cls_bpf_delete,
	.walk = cls_bpf_walk,
	.dump = cls_bpf_dump,
};
NB_TCF_PROTO_REGISTER(cls_bpf_ops)
