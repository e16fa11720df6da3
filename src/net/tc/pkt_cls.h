/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tc layer inside: the twins of the kernel's struct tcf_proto, tcf_proto_ops, tcf_chain,
 * tcf_block, tc_action, tc_action_ops and tcf_result (include/net/sch_generic.h, act_api.h,
 * pkt_cls.h). A classifier or an action is one file with one ops table registered by kind.
 *
 * The datapath reads these structures without locks; the control plane publishes changes with
 * release stores and frees what it unlinked only after nb_tcf_synchronize() (an epoch grace
 * period: no worker can still hold it).
 */
#ifndef NB_NET_TC_PKT_CLS_H
#define NB_NET_TC_PKT_CLS_H

#include <linux/bpf.h>
#include <netbpf/tc.h>

#include "common/register.h"
#include "common/types.h"

struct nb_pkt;
struct nb_dev;
struct nb_tcf_proto;
struct nb_tcf_chain;

/* An internal verdict after TC_ACT_VALUE_MAX: the packet went on elsewhere (TC_ACT_CONSUMED). */
#define NB_TC_ACT_CONSUMED (TC_ACT_VALUE_MAX + 1)

/* Reclassify and goto-chain restarts one classification may take (max_reclassify_loop). */
#define NB_TC_MAX_RECLASSIFY_LOOP 16

/* One worker's counters of a filter, an action or a hook. */
struct nb_tc_pcpu_stats {
	u64 packets;
	u64 bytes;
	u64 drops;
	u64 overlimits;
	u64 lastuse;		/* actions: nb_ktime_get_coarse_ns() of the last packet here */
	u64 firstuse;		/* and of the first one (0: none yet) */
} __attribute__((aligned(64)));

struct nb_tc_pcpu_stats *nb_tc_stats_alloc(void);
void nb_tc_stats_free(struct nb_tc_pcpu_stats *stats);
struct nb_tc_pcpu_stats *nb_tc_this_stats(struct nb_tc_pcpu_stats *stats);
void nb_tc_stats_read(const struct nb_tc_pcpu_stats *stats, struct nb_tc_stats *sum);
void nb_tc_stats_update(struct nb_tc_pcpu_stats *stats, const struct nb_pkt *pkt);

/* What a classification found (struct tcf_result). */
struct nb_tcf_result {
	u32 classid;
	const struct nb_tcf_proto *goto_tp;	/* first filter of the chain a goto names */
};

/* Actions. */
struct nb_tc_action;

struct nb_tc_action_ops {
	const char *kind;
	/*
	 * The kind's words for help, as iproute2's explain() prints them: one alternative of
	 * "ACTION := ...", the kind's name first, each line ending in a newline, continuation
	 * lines indented (nb_tc_action_usage).
	 */
	const char *usage;
	size_t priv_size;
	int default_control;	/* the verdict word iproute2 gives when none is written */
	int (*act)(struct nb_pkt *pkt, const struct nb_tc_action *a, struct nb_tcf_result *res);
	/*
	 * Read the kind's own words into opts (include/netbpf/tc.h: nb_tc_action_parse), leaving
	 * w->pos at the first word that is not the kind's. NULL: the kind has none. The kind
	 * allocates its own options struct (sz first, one allocation, nothing it points to owned)
	 * into opts->kind_opts, which init checks and reads and nb_tc_action_opts_release frees.
	 */
	int (*parse)(struct nb_tc_words *w, struct nb_tc_action_opts *opts);
	/*
	 * The verdict word is the action (gact): "action drop" names this kind, and the words
	 * need a verdict unless they bind an existing action by index.
	 */
	bool verdict;
	/*
	 * Take the kind's arguments from opts into a->priv (zeroed, priv_size bytes); the common
	 * fields are set already. On error nothing is left for cleanup. A replace initialises a
	 * fresh priv the same way and swaps it in.
	 */
	int (*init)(struct nb_tc_action *a, const struct nb_tc_action_opts *opts,
		    struct nb_log *log);
	/* Free what init took (a->priv itself is freed by the caller). */
	void (*cleanup)(struct nb_tc_action *a);
	/*
	 * Fill the kind's part of info (program, target device) and what show prints of it into
	 * info->print, between "action order N: " and the counters, with the common part
	 * (nb_tcf_action_print_common) where the kind's line has it. NULL: "KIND CONTROL" only.
	 */
	void (*dump)(const struct nb_tc_action *a, struct nb_tc_action_info *info);
	struct nb_tc_action *idr;	/* the kind's actions by index (tcf_idrinfo), tc lock */
	struct nb_tc_action_ops *next;
};

/*
 * The twin of struct tc_action. The control plane (under the tc lock) owns refcnt, bindcnt and
 * the index table; the datapath reads ops, control, goto_chain, stats and priv, which a replace
 * swaps with a release store (act functions load a->priv once).
 */
struct nb_tc_action {
	const struct nb_tc_action_ops *ops;
	int control;			/* tcf_action: the verdict word */
	struct nb_tcf_chain *goto_chain;	/* for TC_ACT_GOTO_CHAIN controls */
	u32 index;
	u32 flags;			/* TCA_ACT_FLAGS_* as given */
	int refcnt;			/* tcfa_refcnt */
	int bindcnt;			/* tcfa_bindcnt */
	u64 install_ns;			/* nb_ktime_get_coarse_ns() when made */
	struct nb_tc_pcpu_stats *stats;
	void *priv;
	struct nb_tc_action *idr_next;	/* next higher index of the kind */
};

/* 0, or -EEXIST when the kind is registered already (-ENOMEM). */
int nb_tc_action_register(struct nb_tc_action_ops *ops);

#define NB_TC_ACTION_REGISTER(ops)                                                          \
	NB_REGISTER_AT_LOAD(act_##ops, nb_tc_action_register(&ops), "tc action", ops.kind)

/* For an action's dump: "index N ref R bind B" and, with tc -s, the ages (tcf_action_dump_1). */
void nb_tcf_action_print_common(struct nb_tc_action_info *info);

/* One action's words after its kind (named) or from a bare verdict (tc_words.c). */
int nb_tc_action_parse_ops(struct nb_tc_words *w, const struct nb_tc_action_ops *ops,
			   bool named, struct nb_tc_action_opts *a);

/* Count a packet on this worker and stamp its use (bstats update and tcf_lastuse_update). */
void nb_tcf_action_count(const struct nb_tc_action *a, const struct nb_pkt *pkt);

/* The actions of one filter (struct tcf_exts). */
struct nb_tcf_exts {
	unsigned int nr_actions;
	struct nb_tc_action *actions[NB_TC_MAX_ACTIONS];
};

/*
 * Build a filter's actions from their opts (tcf_exts_validate): each is made, or bound when its
 * index exists; on error nothing is left.
 */
int nb_tcf_exts_init(struct nb_tcf_exts *exts, struct nb_tcf_chain *chain,
		     const struct nb_tc_action_opts *opts, unsigned int cnt, struct nb_log *log);
/* Unbind the actions, freeing those left without references (after a grace period). */
void nb_tcf_exts_destroy(struct nb_tcf_exts *exts);
/* Run the actions (tcf_exts_exec): TC_ACT_OK when there are none. */
int nb_tcf_exts_exec(struct nb_pkt *pkt, const struct nb_tcf_exts *exts, struct nb_tcf_result *res);
/* Describe them for filter show. */
void nb_tcf_exts_dump(const struct nb_tcf_exts *exts, struct nb_tc_filter_info *info);

/* Classifiers. */
typedef int (*nb_tcf_walk_fn)(struct nb_tcf_proto *tp, void *fh, void *arg);

struct nb_tcf_proto_ops {
	const char *kind;
	/*
	 * The kind's words for help, as iproute2's explain() prints them: "KIND OPTIONS", each
	 * line ending in a newline, continuation lines indented (nb_tc_filter_usage).
	 */
	const char *usage;
	int (*classify)(struct nb_pkt *pkt, const struct nb_tcf_proto *tp,
			struct nb_tcf_result *res);
	int (*init)(struct nb_tcf_proto *tp);
	/*
	 * Read the kind's words after its name to the end (nb_tc_filter_parse), through
	 * nb_tc_words_filter: the kind gives its own words only. The kind allocates its own
	 * options struct (sz first, one allocation, nothing it points to owned) into
	 * opts->kind_opts, which change checks and reads and nb_tc_filter_opts_release frees.
	 */
	int (*parse)(struct nb_tc_words *w, struct nb_tc_filter_opts *opts);
	/* Free everything (after a grace period: no reader left). */
	void (*destroy)(struct nb_tcf_proto *tp);
	/* The filter with handle, or NULL. */
	void *(*get)(struct nb_tcf_proto *tp, u32 handle);
	/*
	 * Add a filter (old NULL; handle 0: the classifier picks one) or replace old. The filter
	 * takes exts (moved: the caller's copy is emptied). Returns 0 and *handlep.
	 */
	int (*change)(struct nb_tcf_proto *tp, void *old, u32 handle,
		      const struct nb_tc_filter_opts *opts, struct nb_tcf_exts *exts,
		      u32 *handlep, struct nb_log *log);
	/* Unlink fh and free it after a grace period; *last tells whether tp is now empty. */
	int (*delete)(struct nb_tcf_proto *tp, void *fh, bool *last);
	/* Every filter in order; stops when fn returns non-zero. */
	void (*walk)(struct nb_tcf_proto *tp, nb_tcf_walk_fn fn, void *arg);
	/* Fill handle, classid, stats, actions and what show prints of the options (info->print). */
	void (*dump)(const struct nb_tcf_proto *tp, const void *fh, struct nb_tc_filter_info *info);
	/* The kind's handle words ("800::1" for u32); NULL: one number, printed 0x%x. */
	int (*handle_parse)(const char *word, u32 *handle);
	const char *(*handle_name)(u32 handle, char *buf, size_t size);
	struct nb_tcf_proto_ops *next;
};

/*
 * For a kind's dump: what show prints of its options (struct nb_tc_print_item), appended to
 * list (tc_print.c). An item that cannot be stored sets list->err and show fails with it.
 */
void nb_tc_print_string(struct nb_tc_print_list *list, enum nb_tc_print_type type,
			const char *key, const char *fmt, const char *value);
void nb_tc_print_uint(struct nb_tc_print_list *list, enum nb_tc_print_type type,
		      const char *key, const char *fmt, u64 value);
void nb_tc_print_int(struct nb_tc_print_list *list, enum nb_tc_print_type type,
		     const char *key, const char *fmt, s64 value);
void nb_tc_print_hex(struct nb_tc_print_list *list, enum nb_tc_print_type type, const char *key,
		     const char *fmt, u64 value);
void nb_tc_print_bool(struct nb_tc_print_list *list, enum nb_tc_print_type type,
		      const char *key, const char *fmt);
void nb_tc_print_open(struct nb_tc_print_list *list, const char *key);
void nb_tc_print_close(struct nb_tc_print_list *list);
/* print_action_control's JSON object: {"type": "goto", "chain": N} and the like. */
void nb_tc_print_control(struct nb_tc_print_list *list, const char *key, int control);

struct nb_tcf_proto {
	struct nb_tcf_proto *next;	/* the chain, by prio */
	void *root;			/* the classifier's data */
	const struct nb_tcf_proto_ops *ops;
	__be16 protocol;
	u32 prio;			/* pref << 16 */
	struct nb_tcf_chain *chain;
};

/*
 * For a kind's parse (tc_words.c): errors as iproute2 prints them, into w->log. Each returns
 * the error to pass on (-EINVAL; fail's err).
 */
int nb_tc_words_wrong(struct nb_tc_words *w, const char *word, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int nb_tc_words_usage(struct nb_tc_words *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int nb_tc_words_fail(struct nb_tc_words *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The argument of the word at pos (pos moves onto it), or NULL after a usage error. */
const char *nb_tc_words_next(struct nb_tc_words *w);
/* The word at pos starts an action list ("action", "actions"). */
bool nb_tc_words_at_action(const struct nb_tc_words *w);
/* "action ...": the front end's parser; pos is left at the first word after the actions. */
int nb_tc_words_actions(struct nb_tc_words *w);
/*
 * The words classifiers share: "classid/flowid X" into *classid, "skip_hw", "verbose" (no
 * hardware: software is all there is), "skip_sw" refused. -ENOENT: the word is none of them.
 */
int nb_tc_words_common(struct nb_tc_words *w, u32 *classid);
/* "obj F", "sec S", "max-entries NAME=N", "run": the program words (bpf_parse_common). */
int nb_tc_words_prog(struct nb_tc_words *w);
/*
 * One word of a classifier's own (and its arguments, pos left on the last it took): 0, an
 * error, or -ENOENT when the word is not the kind's.
 */
typedef int (*nb_tc_filter_word_fn)(struct nb_tc_words *w, void *kopts);
/*
 * The frame of every classifier's parse (f_*.c's parse_fopt loop), to the last word: "action"
 * hands over to the front end's action parser, then the shared words (nb_tc_words_common, into
 * *classid), then the kind's own through word (NULL: it has none); any other word is an
 * "unknown KIND option".
 */
int nb_tc_words_filter(struct nb_tc_words *w, const char *kind, u32 *classid,
		       nb_tc_filter_word_fn word, void *kopts);

/* 0, or -EEXIST when the kind is registered already. */
int nb_tcf_proto_register(struct nb_tcf_proto_ops *ops);

#define NB_TCF_PROTO_REGISTER(ops)                                                          \
	NB_REGISTER_AT_LOAD(cls_##ops, nb_tcf_proto_register(&ops), "classifier", ops.kind)

struct nb_tcf_block;

struct nb_tcf_chain {
	struct nb_tcf_chain *next;
	struct nb_tcf_block *block;
	struct nb_tcf_proto *filter_chain;	/* read by the datapath */
	u32 index;
};

/* The filters of one hook (struct tcf_block with the mini_Qdisc's counters). */
struct nb_tcf_block {
	struct nb_tcf_chain *chains;		/* chain 0 first once created */
	struct nb_tcf_chain *chain0;
	struct nb_tc_pcpu_stats *stats;		/* every packet the hook classified */
	/*
	 * The qdisc the block belongs to (its nb_tc_dev): u32 shares its hash tables among the
	 * blocks of one qdisc, as the kernel keys tc_u_common by the Qdisc. NULL: the block alone.
	 */
	const void *owner;
};

/* The chain with index in block, created when create is set (NULL on ENOMEM or missing). */
struct nb_tcf_chain *nb_tcf_chain_get(struct nb_tcf_block *block, u32 index, bool create);

/* Classify along a chain from tp (tcf_classify): a TC_ACT_* verdict, TC_ACT_UNSPEC for none. */
int nb_tcf_classify(struct nb_pkt *pkt, const struct nb_tcf_proto *tp, struct nb_tcf_result *res);

struct nb_tcf_block *nb_tcf_block_create(void);
void nb_tcf_block_destroy(struct nb_tcf_block *block);

/* The control plane's lock (rtnl): every command of include/netbpf/tc.h takes it. */
void nb_tc_lock(void);
void nb_tc_unlock(void);

/* Wait until no worker can hold what the control plane just unlinked. */
void nb_tcf_synchronize(void);

/* The tc state of a device (its clsact or ingress qdisc). */
struct nb_tc_dev {
	enum nb_tc_qdisc_kind kind;
	struct nb_tcf_block *block[NB_TC_HOOK_MAX];	/* egress NULL for the ingress qdisc */
};

/* The hook's block of dev, or NULL with a reason in log. */
struct nb_tcf_block *nb_tc_dev_block(struct nb_dev *dev, enum nb_tc_hook hook, struct nb_log *log);

/* Twin of tc_run: classify at a hook, count, set tc_index; the verdict. */
int nb_tc_run(struct nb_tcf_block *block, struct nb_pkt *pkt);

/* The mirred nesting limit (MIRRED_NEST_LIMIT). */
#define NB_MIRRED_NEST_LIMIT 4

#endif /* NB_NET_TC_PKT_CLS_H */
