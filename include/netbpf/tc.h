/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traffic control: the clsact and ingress qdiscs, filters (classifiers bpf, u32, matchall, fw) and
 * their actions (gact, bpf, mirred), with the kernel's semantics (net/sched). The structs map one
 * to one onto the tc command words:
 *
 *   tc qdisc add dev X clsact                      nb_tc_qdisc_add(dev, NB_TC_QDISC_CLSACT)
 *   tc filter add dev X ingress pref 10 protocol ip \
 *      bpf da obj F sec S classid 1                nb_tc_filter_add(dev, &opts) with
 *        .hook = NB_TC_INGRESS, .pref = 10, .protocol = htons(ETH_P_IP), .kind = "bpf",
 *        .kind_opts = &bpf, NB_OPTS(nb_tc_bpf_opts, bpf, .prog = P, .direct_action = true,
 *        .classid = 1)
 *   ... u32 match u32 0 0 flowid 1:2 \
 *      action bpf obj F sec S drop                 .kind = "u32", .kind_opts = &u32,
 *        nb_tc_u32_match(&u32, NB_TC_U32_SIZE_32, 0, 0, 0, false), u32.classid = 0x10002,
 *        .actions = { { .kind = "bpf", .kind_opts = &abpf, .control = TC_ACT_SHOT,
 *        .has_control = true } }, NB_OPTS(nb_tc_act_bpf_opts, abpf, .prog = P)
 *
 * A kind's own options are opaque to the filter and action structs, as TCA_OPTIONS is to the
 * kernel's cls_api and act_api: kind_opts points at the kind's options struct (sz first,
 * include/netbpf/opts.h), which the kind checks; NULL is the kind's defaults. So a new kind adds
 * its own struct (or keeps it private to its file, as fw does) and changes nothing here.
 *
 * The classifier and the action take a loaded program (the filter takes a reference), as the
 * kernel's take an fd: "obj F sec S" is the loader's, nb_object_load_section
 * (include/netbpf/object.h), which the tc command calls as iproute2 does before it asks the
 * kernel.
 *
 * Every call returns 0 or a negative errno with the reason in opts->log (or the log argument).
 * Values use the uapi encodings of <linux/pkt_cls.h> (TC_ACT_*, TC_H_*) and
 * <linux/tc_act/tc_mirred.h> (TCA_EGRESS_REDIR, ...).
 */
#ifndef NETBPF_TC_H
#define NETBPF_TC_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>

#include <netbpf/log.h>
#include <netbpf/opts.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_dev;
struct nb_prog;

/* Qdiscs that carry the tc hooks: clsact has ingress and egress, ingress only ingress. */
enum nb_tc_qdisc_kind {
	NB_TC_QDISC_CLSACT,	/* tc qdisc add dev X clsact */
	NB_TC_QDISC_INGRESS,	/* tc qdisc add dev X ingress */
};

int nb_tc_qdisc_add(struct nb_dev *dev, enum nb_tc_qdisc_kind kind, struct nb_log *log);
/* Removes the qdisc with every filter and action under it. */
int nb_tc_qdisc_del(struct nb_dev *dev, enum nb_tc_qdisc_kind kind, struct nb_log *log);

/* The hook a filter hangs on: the "ingress" / "egress" parent words. */
enum nb_tc_hook {
	NB_TC_INGRESS,
	NB_TC_EGRESS,
	NB_TC_HOOK_MAX,
};

/* The most actions one filter carries (TCA_ACT_MAX_PRIO). */
#define NB_TC_MAX_ACTIONS 32
/* The most keys one u32 selector carries (iproute2's limit). */
#define NB_TC_U32_MAX_KEYS 128

/*
 * One action of a filter's action list: "action KIND ARGS... [CONTROL]". An options struct
 * (include/netbpf/opts.h) in a list: every element has the same sz, which is the list's stride,
 * so a list built against a longer struct is read element by element all the same.
 */
struct nb_tc_action_opts {
	size_t sz;		/* sizeof(struct nb_tc_action_opts) */
	const char *kind;	/* "gact", "bpf", "mirred" */
	/*
	 * The verdict word (TC_ACT_OK "pass/ok", TC_ACT_SHOT "drop", TC_ACT_PIPE "pipe",
	 * TC_ACT_RECLASSIFY "reclassify", TC_ACT_UNSPEC "continue", TC_ACT_STOLEN "stolen",
	 * TC_ACT_TRAP "trap", TC_ACT_GOTO_CHAIN | N "goto chain N", TC_ACT_JUMP | N "jump N").
	 * gact: its verdict; bpf: what TC_ACT_UNSPEC from the program becomes; mirred: what
	 * follows the mirror/redirect. Without has_control the kind's default as iproute2 sets
	 * it: gact pass, bpf pipe, mirred redirect stolen, mirror pipe.
	 */
	int control;
	bool has_control;
	/*
	 * "index N": the action's number within its kind (0: the lowest free one). On a filter,
	 * an index that exists binds that action (the words besides are ignored, as the kernel
	 * does); "tc actions add" refuses it with -EEXIST, replace and change set it anew.
	 */
	__u32 index;
	__u32 flags;		/* TCA_ACT_FLAGS_NO_PERCPU_STATS ("no_percpu"), ..._SKIP_HW */
	/*
	 * The kind's own options, opaque here: its options struct, sz first (bpf: struct
	 * nb_tc_act_bpf_opts, mirred: struct nb_tc_act_mirred_opts); NULL: the kind's defaults.
	 * nb_tc_action_parse makes it, one allocation that nb_tc_action_opts_release frees.
	 */
	const void *kind_opts;
};

/* Action bpf: "action bpf obj F sec S", an options struct for nb_tc_action_opts.kind_opts. */
struct nb_tc_act_bpf_opts {
	size_t sz;		/* sizeof(struct nb_tc_act_bpf_opts) */
	struct nb_prog *prog;	/* a SCHED_ACT program; referenced */
	const char *name;	/* shown by show ("FILE:[SEC]"); default: none */
};

/* Action mirred: "action mirred egress redirect dev Y", for nb_tc_action_opts.kind_opts. */
struct nb_tc_act_mirred_opts {
	size_t sz;		/* sizeof(struct nb_tc_act_mirred_opts) */
	int eaction;		/* TCA_EGRESS_REDIR, TCA_EGRESS_MIRROR, TCA_INGRESS_* */
	__u32 ifindex;		/* "dev Y" */
};

/*
 * Classifier bpf: "bpf [da] obj F sec S [classid X]", an options struct for
 * nb_tc_filter_opts.kind_opts.
 */
struct nb_tc_bpf_opts {
	size_t sz;		/* sizeof(struct nb_tc_bpf_opts) */
	struct nb_prog *prog;	/* a SCHED_CLS program; referenced */
	bool direct_action;	/* "da": TCA_BPF_FLAG_ACT_DIRECT */
	__u32 classid;		/* "classid/flowid MAJ:MIN" as TC_H_MAKE; 0: none */
	const char *name;	/* shown by filter show; default: the program's name */
};

/* One 32-bit key of a u32 selector (struct tc_u32_key): (word at off ^ val) & mask == 0. */
struct nb_tc_u32_key {
	__be32 val;
	__be32 mask;
	int off;		/* from the network header, a multiple of 4 */
	int offmask;		/* -1 for "nexthdr+" keys (relative to the next header), else 0 */
};

/*
 * A u32 filter: a node of keys in a hash table, or a new hash table (divisor). The filters of
 * one qdisc share their tables, as the kernel's do: every u32 pref has a root table (800:, 801:,
 * ...), "ht" puts a node in another table and bucket, and a matching node with "link" goes on in
 * the linked table, in the bucket its "hashkey" word gives ((word & hmask) >> its lowest set
 * bit, masked by the divisor). An options struct for nb_tc_filter_opts.kind_opts; the calls
 * below fill its keys, and refuse a struct whose sz does not reach them (declare it with
 * NB_OPTS).
 */
struct nb_tc_u32_opts {
	size_t sz;		/* sizeof(struct nb_tc_u32_opts) */
	__u32 classid;		/* "flowid/classid MAJ:MIN" */
	__u32 divisor;		/* "divisor N": a new hash table of N buckets (2^k, at most 256) */
	__u32 htid;		/* "ht HT:[BKT:]", "sample": the node's table and bucket; 0: root */
	__u32 link;		/* "link HT:": the table matching goes on in */
	__be32 hmask;		/* "hashkey mask M at OFF": link's bucket from the word at hoff */
	int hoff;		/* from the network header, a multiple of 4 */
	unsigned int nkeys;
	struct nb_tc_u32_key keys[NB_TC_U32_MAX_KEYS];
};

enum nb_tc_u32_size {
	NB_TC_U32_SIZE_8 = 1,	/* "match u8 VAL MASK at OFF" */
	NB_TC_U32_SIZE_16 = 2,	/* "match u16 ..." */
	NB_TC_U32_SIZE_32 = 4,	/* "match u32 ..." */
};

/* "match u32|u16|u8 VAL MASK at [nexthdr+]OFF"; keys on one word merge as iproute2 does. */
int nb_tc_u32_match(struct nb_tc_u32_opts *u32, enum nb_tc_u32_size size, __u32 val, __u32 mask,
		    int off, bool nexthdr, struct nb_log *log);

/* The shorthands of iproute2's u32: each is a fixed size and offset. */
enum nb_tc_u32_field {
	NB_TC_U32_IP_SRC,	/* match ip src A.B.C.D/LEN: val, mask in host order */
	NB_TC_U32_IP_DST,
	NB_TC_U32_IP_TOS,	/* ip tos / dsfield VAL MASK */
	NB_TC_U32_IP_IHL,
	NB_TC_U32_IP_PROTOCOL,	/* ip protocol VAL MASK */
	NB_TC_U32_IP_SPORT,	/* ip sport VAL MASK (assumes a 20-byte IPv4 header) */
	NB_TC_U32_IP_DPORT,
	NB_TC_U32_IP_ICMP_TYPE,
	NB_TC_U32_IP_ICMP_CODE,
	NB_TC_U32_IP6_PROTOCOL,	/* ip6 protocol VAL MASK (next header of the fixed header) */
	NB_TC_U32_IP6_SPORT,	/* ip6 sport VAL MASK (assumes no extension header) */
	NB_TC_U32_IP6_DPORT,
	NB_TC_U32_IP6_ICMP_TYPE,
	NB_TC_U32_IP6_ICMP_CODE,
	NB_TC_U32_TCP_SRC,	/* tcp src / udp src VAL MASK: nexthdr+0 */
	NB_TC_U32_TCP_DST,	/* nexthdr+2 */
	NB_TC_U32_UDP_SRC,
	NB_TC_U32_UDP_DST,
	NB_TC_U32_ICMP_TYPE,	/* icmp type VAL MASK: nexthdr+0 */
	NB_TC_U32_ICMP_CODE,
};

int nb_tc_u32_match_field(struct nb_tc_u32_opts *u32, enum nb_tc_u32_field field, __u32 val,
			  __u32 mask, struct nb_log *log);
/*
 * "sample SELECTOR [divisor N]": put the node in the bucket of table htid that the one key of
 * sample hashes to (divisor: the table's buckets; 0 means 256), as iproute2 computes it.
 */
int nb_tc_u32_sample(struct nb_tc_u32_opts *u32, const struct nb_tc_u32_opts *sample,
		     __u32 divisor, struct nb_log *log);
/* "match ip src|dst ADDR/LEN", "match ip6 src|dst ADDR/LEN" (addr in network order). */
int nb_tc_u32_match_ip(struct nb_tc_u32_opts *u32, bool dst, __be32 addr, unsigned int plen,
		       struct nb_log *log);
int nb_tc_u32_match_ip6(struct nb_tc_u32_opts *u32, bool dst, const void *addr16,
			unsigned int plen, struct nb_log *log);

/*
 * Classifier matchall: "matchall [classid X]", an options struct (include/netbpf/opts.h) that
 * nb_tc_filter_opts.kind_opts points at.
 */
struct nb_tc_matchall_opts {
	size_t sz;		/* sizeof(struct nb_tc_matchall_opts) */
	__u32 classid;
};

struct nb_tc_filter_opts {
	size_t sz;			/* sizeof(struct nb_tc_filter_opts) */
	enum nb_tc_hook hook;		/* "ingress" / "egress" */
	__u32 chain;			/* "chain N" */
	__u32 pref;			/* "pref/prio N"; 0: chosen as the kernel does */
	__be16 protocol;		/* "protocol P" in network order; 0: all (ETH_P_ALL) */
	__u32 handle;			/* "handle H"; 0: chosen by the classifier */
	const char *kind;		/* "bpf", "u32", "matchall", "fw" */
	const struct nb_tc_action_opts *actions;	/* "action ..." list, in order */
	unsigned int action_cnt;
	struct nb_log *log;
	/*
	 * The kind's own options, opaque here as TCA_OPTIONS is to the kernel's cls_api: the
	 * kind's options struct, sz first (struct nb_tc_bpf_opts, nb_tc_u32_opts,
	 * nb_tc_matchall_opts). nb_tc_filter_parse makes it, one allocation that
	 * nb_tc_filter_opts_release frees; NULL: the kind's defaults.
	 */
	const void *kind_opts;
};

/*
 * "obj F [sec S] [max-entries NAME=N]...": the program a kind's words name, which the front end
 * loads before the add, as iproute2 loads it before it asks the kernel (the classifier and the
 * action take a program, as the kernel's take an fd).
 */
#define NB_TC_MAX_ENTRIES_WORDS 16
struct nb_tc_prog_words {
	const char *file;		/* as written; NULL: the words name no program */
	const char *section;		/* NULL: default_section */
	const char *default_section;	/* iproute2's: "classifier", "action" */
	enum bpf_prog_type type;
	struct nb_prog **prog;		/* the opts' member the loaded program goes to */
	const char **name;		/* and the one "FILE:[SECTION]" goes to, for show */
	const char *max_entries[NB_TC_MAX_ENTRIES_WORDS];	/* "NAME=N" as written */
	unsigned int max_entries_cnt;
};

/*
 * A kind's command words, read by the kind's own file as iproute2's parse_fopt and parse_aopt
 * read theirs. argv[pos] is the word being read; the kind leaves pos past the words it took.
 * Errors are written to log as iproute2 prints them ("Error: argument \"W\" is wrong: ...",
 * "Error: ...") and usage is set for a usage error (tc exits 2 for those).
 */
struct nb_tc_words {
	int argc;
	char **argv;
	int pos;
	struct nb_log *log;
	bool usage;
	/* The front end's "action ..." parser, which a classifier calls at such a word. */
	int (*actions)(struct nb_tc_words *w);
	void *ctx;			/* the front end's */
	struct nb_tc_prog_words prog;	/* what the words asked to load, for the front end */
};

/*
 * A classifier's words, from the one after the kind to the end ("u32 match ip src 1.2.3.4/32
 * flowid 1:1 action drop"): into opts, the actions through w->actions. Release opts after the
 * add (nothing is left to release on error).
 */
int nb_tc_filter_parse(const char *kind, struct nb_tc_words *w, struct nb_tc_filter_opts *opts);
/*
 * Free what nb_tc_filter_parse allocated into opts (kind_opts, which is then NULL); not for
 * options the caller pointed kind_opts at.
 */
void nb_tc_filter_opts_release(struct nb_tc_filter_opts *opts);
/*
 * One action's words from its kind ("mirred egress redirect dev b index 3 pipe"), or from a
 * verdict alone ("drop": gact's shorthand), to the first word that is not the action's (the next
 * "action", or the classifier's): into opts (zeroed, its sz set by the caller), kind included.
 * Release opts after the add (nothing is left to release on error).
 */
int nb_tc_action_parse(struct nb_tc_words *w, struct nb_tc_action_opts *opts);
/*
 * Free what nb_tc_action_parse allocated into opts (kind_opts, which is then NULL); not for
 * options the caller pointed kind_opts at.
 */
void nb_tc_action_opts_release(struct nb_tc_action_opts *opts);

/* "classid/flowid" words as tc reads them: "MAJ:MIN" in hex, ":MIN", "MAJ:", "root", "none". */
int nb_tc_classid_parse(const char *word, __u32 *classid);
/* As tc prints a class id: "1:5", ":1", "1:", "root". */
const char *nb_tc_classid_name(__u32 classid, char *buf, size_t size);
/* The classifier kinds built ("bpf", "fw", "matchall", "u32", ...), NULL-terminated. */
const char *const *nb_tc_filter_kinds(void);
/*
 * A kind's words as help prints them ("matchall [{ classid | flowid } X] [action ...]\n",
 * continuation lines indented), from the kind's own file; NULL for a kind not built.
 */
const char *nb_tc_filter_usage(const char *kind);

/* Where a filter sits: what add returns and what del and the counters take. */
struct nb_tc_filter_id {
	enum nb_tc_hook hook;
	__u32 chain;
	__u32 pref;
	__be16 protocol;
	__u32 handle;
};

/* tc filter add: a new filter (-EEXIST when the handle is taken). id may be NULL. */
int nb_tc_filter_add(struct nb_dev *dev, const struct nb_tc_filter_opts *opts,
		     struct nb_tc_filter_id *id);
/* tc filter replace: add, or replace the filter with the same pref, protocol and handle. */
int nb_tc_filter_replace(struct nb_dev *dev, const struct nb_tc_filter_opts *opts,
			 struct nb_tc_filter_id *id);
/* tc filter change: replace an existing one (-ENOENT when there is none). */
int nb_tc_filter_change(struct nb_dev *dev, const struct nb_tc_filter_opts *opts,
			struct nb_tc_filter_id *id);
/*
 * tc filter del: with a handle the one filter; with pref only (handle 0) every filter of that
 * pref; with pref 0 every filter of the chain (the hook's chain).
 */
int nb_tc_filter_del(struct nb_dev *dev, const struct nb_tc_filter_id *id, struct nb_log *log);

/* Counters, summed over the workers. */
struct nb_tc_stats {
	__u64 packets;
	__u64 bytes;
	__u64 drops;
	__u64 overlimits;
};

/*
 * What show prints of a classifier's or an action's own options, written by the kind's dump in
 * iproute2's print_* manner: each item is a JSON member (key) and its text form (fmt, one value),
 * or text only (NB_TC_PRINT_FP), or JSON only; OPEN and CLOSE nest an object. The front end
 * prints the items in order, in text or JSON, and knows no kind by name.
 */
enum nb_tc_print_type {
	NB_TC_PRINT_FP = 1,
	NB_TC_PRINT_JSON = 2,
	NB_TC_PRINT_ANY = 3,
	NB_TC_PRINT_STATS = 4,	/* with FP/JSON/ANY: only when counters are asked for (tc -s) */
};

enum nb_tc_print_value {
	NB_TC_PRINT_STRING,
	NB_TC_PRINT_UINT,
	NB_TC_PRINT_INT,
	NB_TC_PRINT_HEX,	/* a JSON string in hex */
	NB_TC_PRINT_BOOL,	/* a true flag: the text is fmt as it is */
	NB_TC_PRINT_OPEN,	/* an object named key */
	NB_TC_PRINT_CLOSE,
};

struct nb_tc_print_item {
	__u8 type;		/* enum nb_tc_print_type */
	__u8 value_type;	/* enum nb_tc_print_value */
	const char *key;	/* static strings */
	const char *fmt;
	__u64 u;		/* UINT, HEX; INT as __s64 */
	char *s;		/* STRING: owned by the list */
};

/* The items of one filter or action, as many as its kind writes (a u32 node: 6 per key). */
struct nb_tc_print_list {
	struct nb_tc_print_item *items;
	unsigned int cnt;
	unsigned int cap;
	int err;		/* -ENOMEM when an item was lost: show fails rather than lie */
};

/* The first item with key, or NULL: what a caller reads of a kind's options. */
const struct nb_tc_print_item *nb_tc_print_find(const struct nb_tc_print_list *list,
						const char *key);
/*
 * iproute2's bpf_dump_prog_info, which tc and ip print a program with: "id N name P tag T
 * [jited ]" or the "prog" object, appended to list.
 */
void nb_tc_print_prog(struct nb_tc_print_list *list, const struct nb_prog *prog);
/* Free what a list holds and empty it. */
void nb_tc_print_list_free(struct nb_tc_print_list *list);

/* What tc actions show and filter show print for one action. */
struct nb_tc_action_info {
	const char *kind;		/* "gact", "bpf", "mirred" (static) */
	int control;
	__u32 index;			/* the action's number within its kind */
	int refcnt;			/* references: tc actions add's own and one per binding */
	int bindcnt;			/* filters bound to it */
	__u32 flags;			/* TCA_ACT_FLAGS_* */
	/* ages in ms: since made, since last used (since made when never), since first used */
	__u64 installed_ms;
	__u64 lastuse_ms;
	__u64 firstuse_ms;
	bool used;			/* a packet ran it: firstuse_ms means something */
	struct nb_tc_stats stats;
	/*
	 * The kind's part of what show prints, its options included: a caller reads them by key
	 * (nb_tc_print_find: bpf's "id" and "bpf_name", mirred's "to_dev", ...), so that a new
	 * kind adds no member here.
	 */
	struct nb_tc_print_list print;
};

/*
 * Shared actions, as the kernel's act_api keeps them: each kind numbers its actions (index),
 * and an action lives while it has references: "tc actions add" holds one, every filter bound
 * to it one more. Filters and standalone commands reach the same objects, so their counters
 * are shared.
 *
 * tc actions add: make cnt actions (all or none); -EEXIST when an index is taken. replace
 * (also "change", which the kernel treats alike) sets an existing action's parameters anew or
 * makes it. indexes (may be NULL) receives each action's index.
 */
int nb_tc_actions_add(const struct nb_tc_action_opts *opts, unsigned int cnt, bool replace,
		      __u32 *indexes, struct nb_log *log);
/* tc actions get: -ENOENT when there is no such action; release info after use. */
int nb_tc_action_get(const char *kind, __u32 index, struct nb_tc_action_info *info,
		     struct nb_log *log);
/* tc actions del: -ENOENT when missing, -EPERM while a filter is bound to it. */
int nb_tc_action_del(const char *kind, __u32 index, struct nb_log *log);
/*
 * tc actions flush action KIND: drop tc actions add's reference of each action in index order,
 * stopping at the first bound one (-EPERM, or 0 with a warning in log once some went).
 * *count: how many were released.
 */
int nb_tc_actions_flush(const char *kind, unsigned int *count, struct nb_log *log);
typedef int (*nb_tc_action_walk_fn)(const struct nb_tc_action_info *info, void *ctx);
/* tc actions list action KIND: every action of the kind in index order; fn may stop it (!0). */
int nb_tc_actions_walk(const char *kind, nb_tc_action_walk_fn fn, void *ctx, struct nb_log *log);
/* The kinds built, in a stable order, NULL-terminated ("bpf", "gact", "mirred"). */
const char *const *nb_tc_action_kinds(void);
/*
 * An action kind's words as help prints them, one alternative of "ACTION := ..." without the
 * index every action takes ("mirred { egress | ingress } ... dev DEV [VERDICT]\n"); NULL for a
 * kind not built.
 */
const char *nb_tc_action_usage(const char *kind);
/* Release every action no filter is bound to (a namespace going away; process exit). */
void nb_tc_actions_destroy_unbound(void);

/* What filter show prints for one filter. */
struct nb_tc_filter_info {
	struct nb_tc_filter_id id;
	const char *kind;
	__u32 classid;
	struct nb_tc_stats stats;	/* the filter's: matched packets, drops by its verdict */
	bool no_stats;			/* keeps no counters, as the kernel's cls_bpf (stats zero) */
	bool no_match;			/* holds filters but matches nothing itself (u32 tables) */
	bool actions_hw_stats;		/* its actions show used_hw_stats (matchall asks for
					 * offload even without hardware) */
	unsigned int action_cnt;
	struct nb_tc_action_info actions[NB_TC_MAX_ACTIONS];
	/* the classifier's options as show prints them */
	struct nb_tc_print_list print;
};

/* Free what an info's print lists hold (after nb_tc_filter_get or nb_tc_action_get). */
void nb_tc_filter_info_release(struct nb_tc_filter_info *info);
void nb_tc_action_info_release(struct nb_tc_action_info *info);

/* A filter handle as the kind reads and prints it ("0x1", u32's "800::800"). */
int nb_tc_filter_handle_parse(const char *kind, const char *word, __u32 *handle);
const char *nb_tc_filter_handle_name(const char *kind, __u32 handle, char *buf, size_t size);

/* A verdict as tc prints it: "drop", "pass", "goto chain 3", ... */
const char *nb_tc_control_name(int control, char *buf, size_t size);
/* A verdict word without argument ("drop", "shot", "pass", "ok", "pipe", ...): 0 or -EINVAL. */
int nb_tc_control_parse(const char *word, int *control);

typedef int (*nb_tc_filter_walk_fn)(const struct nb_tc_filter_info *info, void *ctx);

/*
 * tc filter show dev X HOOK: every filter, chains in the order they were made (as the kernel
 * dumps them), then pref and handle order; fn may stop it (!0).
 * Commands run one at a time under one lock: fn may not call this API.
 */
int nb_tc_filter_show(struct nb_dev *dev, enum nb_tc_hook hook, nb_tc_filter_walk_fn fn,
		      void *ctx, struct nb_log *log);
/* One filter's info (-ENOENT when it does not exist); release it after use. */
int nb_tc_filter_get(struct nb_dev *dev, const struct nb_tc_filter_id *id,
		     struct nb_tc_filter_info *info, struct nb_log *log);

/* The hook's own counters (the qdisc's: every packet classified, and drops). */
int nb_tc_hook_stats(struct nb_dev *dev, enum nb_tc_hook hook, struct nb_tc_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_TC_H */
