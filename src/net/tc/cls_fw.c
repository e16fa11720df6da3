// SPDX-License-Identifier: GPL-2.0
/*
 * The fw classifier, the twin of the kernel's net/sched/cls_fw.c: each filter's handle is a
 * firewall mark, and a packet whose skb->mark equals it gets the filter's classid and runs its
 * actions. A classifier in one file: its datapath, its words (as iproute2's tc/f_fw.c reads
 * them) and what show prints of it.
 *
 *   tc filter add dev DEV ingress pref P handle MARK fw [{ classid | flowid } X] [action ...]
 *
 * Not here: the "MARK/MASK" handle form (the mask is 0xffffffff) and "indev".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pkt/pkt.h"
#include "net/tc/pkt_cls.h"
#include "common/opts.h"
#include "common/u64_stats.h"

#define FW_HTSIZE 256U

struct fw_filter {
	struct fw_filter *next;
	u32 id;				/* the mark */
	u32 classid;
	struct nb_tcf_exts exts;
	struct nb_tc_pcpu_stats *stats;
};

/*
 * fw's options (nb_tc_filter_opts.kind_opts), its own as TCA_FW_* are f_fw.c's and cls_fw.c's:
 * made by its parse, so a new classifier adds nothing to the public header.
 */
struct fw_opts {
	size_t sz;
	u32 classid;
};

struct fw_head {
	struct fw_filter *ht[FW_HTSIZE];	/* by fw_hash(id), newest first */
};

static unsigned int fw_hash(u32 handle)
{
	handle ^= handle >> 16;
	handle ^= handle >> 8;
	return handle % FW_HTSIZE;
}

static int fw_classify(struct nb_pkt *pkt, const struct nb_tcf_proto *tp,
		       struct nb_tcf_result *res)
{
	const struct fw_head *head = __atomic_load_n(&tp->root, __ATOMIC_ACQUIRE);
	u32 id = pkt->mark;
	const struct fw_filter *f;

	for (f = __atomic_load_n(&head->ht[fw_hash(id)], __ATOMIC_ACQUIRE); f;
	     f = __atomic_load_n(&f->next, __ATOMIC_ACQUIRE)) {
		int r;

		if (f->id != id)
			continue;
		res->classid = f->classid;
		nb_tc_stats_update(f->stats, pkt);
		r = nb_tcf_exts_exec(pkt, &f->exts, res);
		if (r < 0)
			continue;
		if (r == TC_ACT_SHOT)
			nb_u64_stats_inc(&nb_tc_this_stats(f->stats)->drops);
		return r;
	}
	return -1;
}

static int fw_init(struct nb_tcf_proto *tp)
{
	tp->root = calloc(1, sizeof(struct fw_head));
	return tp->root ? 0 : -ENOBUFS;
}

static void fw_free(struct fw_filter *f)
{
	nb_tcf_exts_destroy(&f->exts);
	nb_tc_stats_free(f->stats);
	free(f);
}

static void fw_destroy(struct nb_tcf_proto *tp)
{
	struct fw_head *head = tp->root;

	for (unsigned int h = 0; h < FW_HTSIZE; h++) {
		struct fw_filter *f, *next;

		for (f = head->ht[h]; f; f = next) {
			next = f->next;
			fw_free(f);
		}
	}
	free(head);
}

static void *fw_get(struct nb_tcf_proto *tp, u32 handle)
{
	struct fw_head *head = tp->root;

	for (struct fw_filter *f = head->ht[fw_hash(handle)]; f; f = f->next)
		if (f->id == handle)
			return f;
	return NULL;
}

/* One of fw's own words: none is built yet ("indev" matches the input device in f_fw.c). */
static int fw_parse_word(struct nb_tc_words *w, void *kopts)
{
	(void)kopts;
	if (!strcmp(w->argv[w->pos], "indev"))
		return nb_tc_words_wrong(w, w->argv[w->pos], "fw indev is not built");
	return -ENOENT;
}

/* f_fw.c's fw_parse_opt: "fw [{ classid | flowid } X] [action ...]". */
static int fw_parse(struct nb_tc_words *w, struct nb_tc_filter_opts *opts)
{
	struct fw_opts *fo = calloc(1, sizeof(*fo));

	if (!fo)
		return nb_tc_words_fail(w, -ENOMEM, "out of memory");
	fo->sz = sizeof(*fo);
	opts->kind_opts = fo;
	return nb_tc_words_filter(w, "fw", &fo->classid, fw_parse_word, NULL);
}

static int fw_change(struct nb_tcf_proto *tp, void *fh, u32 handle,
		     const struct nb_tc_filter_opts *opts, struct nb_tcf_exts *exts, u32 *handlep,
		     struct nb_log *log)
{
	struct fw_head *head = tp->root;
	const struct fw_opts *fo = NB_OPTS_GET(opts, kind_opts, NULL);
	struct fw_filter *old = fh, *f, **pp;
	int err;

	if (!handle) {
		nb_log_printf(log, "fw: the filter's handle is the mark it matches: "
			      "\"handle MARK\"\n");
		return -EINVAL;
	}
	err = NB_OPTS_CHECK(fo, fw_opts, classid, log);
	if (err)
		return err;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOBUFS;
	f->stats = nb_tc_stats_alloc();
	if (!f->stats) {
		free(f);
		return -ENOBUFS;
	}
	f->id = handle;
	f->classid = fo ? fo->classid : 0;
	f->exts = *exts;
	exts->nr_actions = 0;
	pp = &head->ht[fw_hash(handle)];
	if (old) {
		for (; *pp != old; pp = &(*pp)->next)
			;
		f->next = old->next;
		__atomic_store_n(pp, f, __ATOMIC_RELEASE);
		nb_tcf_synchronize();
		fw_free(old);
	} else {
		f->next = *pp;
		__atomic_store_n(pp, f, __ATOMIC_RELEASE);
	}
	*handlep = handle;
	return 0;
}

static int fw_delete(struct nb_tcf_proto *tp, void *fh, bool *last)
{
	struct fw_head *head = tp->root;
	struct fw_filter *f = fh, **pp;

	for (pp = &head->ht[fw_hash(f->id)]; *pp && *pp != f; pp = &(*pp)->next)
		;
	if (!*pp)
		return -ENOENT;
	__atomic_store_n(pp, f->next, __ATOMIC_RELEASE);
	nb_tcf_synchronize();
	fw_free(f);
	*last = true;
	for (unsigned int h = 0; h < FW_HTSIZE && *last; h++)
		*last = !head->ht[h];
	return 0;
}

static void fw_walk(struct nb_tcf_proto *tp, nb_tcf_walk_fn fn, void *arg)
{
	struct fw_head *head = tp->root;

	for (unsigned int h = 0; h < FW_HTSIZE; h++)
		for (struct fw_filter *f = head->ht[h]; f; f = f->next)
			if (fn(tp, f, arg))
				return;
}

/* f_fw.c's fw_print_opt: the mark (and mask) under "handle", the classid, the actions' line. */
static void fw_dump(const struct nb_tcf_proto *tp, const void *fh, struct nb_tc_filter_info *info)
{
	const struct fw_filter *f = fh;
	char buf[16];

	(void)tp;
	info->id.handle = f->id;
	info->classid = f->classid;
	nb_tc_stats_read(f->stats, &info->stats);
	nb_tcf_exts_dump(&f->exts, info);
	nb_tc_print_open(&info->print, "handle");
	nb_tc_print_hex(&info->print, NB_TC_PRINT_ANY, "mark", "handle 0x%llx ", f->id);
	nb_tc_print_hex(&info->print, NB_TC_PRINT_JSON, "mask", NULL, 0xffffffff);
	nb_tc_print_close(&info->print);
	if (f->classid)
		nb_tc_print_string(&info->print, NB_TC_PRINT_ANY, "classid", "classid %s ",
				   nb_tc_classid_name(f->classid, buf, sizeof(buf)));
	if (f->exts.nr_actions)
		nb_tc_print_string(&info->print, NB_TC_PRINT_FP, NULL, "%s", "\n");
}

static struct nb_tcf_proto_ops cls_fw_ops = {
	.kind = "fw",
	.usage = "fw [{ classid | flowid } X] [action ...]\n"
		 "       (with handle MARK: the packets whose mark is MARK)\n",
	.classify = fw_classify,
	.init = fw_init,
	.parse = fw_parse,
	.destroy = fw_destroy,
	.get = fw_get,
	.change = fw_change,
	.delete = fw_delete,
	.walk = fw_walk,
	.dump = fw_dump,
};
NB_TCF_PROTO_REGISTER(cls_fw_ops)
