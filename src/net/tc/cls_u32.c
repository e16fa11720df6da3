// SPDX-License-Identifier: GPL-2.0
/*
 * The u32 classifier, the twin of the kernel's net/sched/cls_u32.c. The u32 filters of one qdisc
 * share a set of hash tables (tc_u_common): each filter (tcf_proto) has a root table of one
 * bucket (800: for the first, then 801:, 802:, ... cyclically), and "divisor N" makes more tables
 * of N buckets. A table's nodes sit in buckets in node-id order, each a selector of 32-bit keys
 * read at offsets from the network header. A node matches when every key does; a key whose word
 * lies past the packet's end ends the classification with no match, as in the kernel. A matching
 * node with a link goes on in the linked table, in the bucket its hashkey word picks, and comes
 * back to the node when nothing there decided (at most TC_U32_MAXDEPTH links deep). A matching
 * node is terminal when it has a classid or actions (iproute2 sets TC_U32_TERMINAL then): its
 * classid is the result and its actions run; a negative action verdict goes on to the next node.
 *
 * The key packing of iproute2's f_u32.c (u8/u16 keys shifted into their word, keys on one word
 * merged, the ip/ip6/tcp/udp/icmp shorthands, sample) is here too, behind include/netbpf/tc.h.
 * Not here: "offset" (variable header lengths) and "eat": keys "at nexthdr+N" read at N from the
 * network header, as the kernel does without an offset.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "pkt/pkt.h"
#include "net/tc/pkt_cls.h"
#include "common/opts.h"
#include "common/parse.h"
#include "common/u64_stats.h"

#define U32_FIRST_HTID 0x80000000U	/* 800:, the first filter's root table */
#define U32_FIRST_NODE 0x800U		/* node ids a table gives out start here */
#define U32_MAX_DIVISOR 256U

struct u32_hnode;
struct u32_common;

/* A node (tc_u_knode). handle comes first: the walk tells nodes from tables by its key bits. */
struct u32_knode {
	u32 handle;
	struct u32_knode *next;		/* the bucket's next node, by node id */
	struct u32_hnode *ht_up;	/* the table it sits in */
	struct u32_hnode *ht_down;	/* "link": the table matching goes on in, or NULL */
	u32 classid;
	bool terminal;
	u8 fshift;			/* the lowest set bit of hmask: the bucket's shift */
	__be32 hmask;
	int hoff;
	struct nb_tcf_exts exts;
	struct nb_tc_pcpu_stats *stats;
	unsigned int nkeys;
	struct nb_tc_u32_key keys[];
};

/* A hash table (tc_u_hnode). */
struct u32_hnode {
	u32 handle;			/* HT:, key bits 0 */
	struct u32_hnode *next;		/* the common's tables, newest first */
	struct u32_common *tp_c;
	u32 prio;			/* the pref it was made under: show lists it there */
	int refcnt;			/* 1 while listed, one more per node linking to it */
	bool is_root;
	unsigned int divisor;		/* buckets - 1, a mask */
	struct u32_knode *ht[];
};

/* The tables of one qdisc's u32 filters (tc_u_common), under the tc lock. */
struct u32_common {
	struct u32_common *next;
	const void *key;		/* the qdisc (block owner) */
	struct u32_hnode *hlist;
	int refcnt;			/* u32 filters (tcf_proto) sharing it */
	unsigned long knodes;		/* nodes in all its tables */
	u32 last_id;			/* the cyclic table id generator's last id */
};

static struct u32_common *u32_commons;

static inline unsigned int u32_hash_fold(__be32 key, const struct u32_knode *n)
{
	return ntohl(key & n->hmask) >> n->fshift;
}

/*
 * The word at toff from data, or NULL past the packet (skb_header_pointer): in the linear part
 * or its headroom directly, in the fragments through buf.
 */
static const u8 *u32_word(const struct nb_pkt *pkt, int toff, u8 buf[4])
{
	const u8 *p = pkt->data + toff;

	if (p < pkt->head)
		return NULL;
	if (toff < 0)
		return p + 4 <= pkt->data + nb_pkt_headlen(pkt) ? p : NULL;
	return nb_pkt_header_pointer(pkt, (u32)toff, 4, buf);
}

static bool u32_keys_match(const struct nb_pkt *pkt, const struct u32_knode *n, int off,
			   bool *past_end)
{
	const int off2 = 0;	/* no "offset" support: nexthdr keys are network relative */
	const struct nb_tc_u32_key *key = n->keys;

	for (unsigned int i = 0; i < n->nkeys; i++, key++) {
		int toff = off + key->off + (off2 & key->offmask);
		u8 buf[4];
		const u8 *data = u32_word(pkt, toff, buf);
		__be32 word;

		if (!data) {
			*past_end = true;
			return false;
		}
		memcpy(&word, data, 4);
		if ((word ^ key->val) & key->mask)
			return false;
	}
	return true;
}

static int u32_classify(struct nb_pkt *pkt, const struct nb_tcf_proto *tp,
			struct nb_tcf_result *res)
{
	struct {
		const struct u32_knode *knode;
		int off;
	} stack[TC_U32_MAXDEPTH];
	const struct u32_hnode *ht = __atomic_load_n(&tp->root, __ATOMIC_ACQUIRE);
	int off = pkt->network_header == NB_PKT_HDR_UNSET ?
			  0 : (int)pkt->network_header - (int)nb_pkt_headroom(pkt);
	const struct u32_knode *n;
	unsigned int sel = 0;
	int sdepth = 0, r;

next_ht:
	n = __atomic_load_n(&ht->ht[sel], __ATOMIC_ACQUIRE);
next_knode:
	if (n) {
		bool past_end = false;

		if (!u32_keys_match(pkt, n, off, &past_end)) {
			if (past_end)
				return -1;
			n = __atomic_load_n(&n->next, __ATOMIC_ACQUIRE);
			goto next_knode;
		}
		ht = __atomic_load_n(&n->ht_down, __ATOMIC_ACQUIRE);
		if (!ht) {
check_terminal:
			if (!n->terminal) {
				n = __atomic_load_n(&n->next, __ATOMIC_ACQUIRE);
				goto next_knode;
			}
			res->classid = n->classid;
			nb_tc_stats_update(n->stats, pkt);
			r = nb_tcf_exts_exec(pkt, &n->exts, res);
			if (r < 0) {
				n = __atomic_load_n(&n->next, __ATOMIC_ACQUIRE);
				goto next_knode;
			}
			if (r == TC_ACT_SHOT)
				nb_u64_stats_inc(&nb_tc_this_stats(n->stats)->drops);
			return r;
		}
		/* link: go on in the linked table, in the bucket the hash key picks */
		if (sdepth >= TC_U32_MAXDEPTH)
			return -1;	/* a loop of links: no match, as the kernel's deadloop */
		stack[sdepth].knode = n;
		stack[sdepth].off = off;
		sdepth++;
		sel = 0;
		if (ht->divisor) {
			u8 buf[4];
			const u8 *data = u32_word(pkt, off + n->hoff, buf);
			__be32 word;

			if (!data)
				return -1;
			memcpy(&word, data, 4);
			sel = ht->divisor & u32_hash_fold(word, n);
		}
		goto next_ht;
	}
	/* nothing decided in this table: back to the node that linked here */
	if (sdepth--) {
		n = stack[sdepth].knode;
		ht = n->ht_up;
		off = stack[sdepth].off;
		goto check_terminal;
	}
	return -1;
}

/* Control: every function below runs under the tc lock. */

static struct u32_common *u32_common_find(const void *key)
{
	for (struct u32_common *tp_c = u32_commons; tp_c; tp_c = tp_c->next)
		if (tp_c->key == key)
			return tp_c;
	return NULL;
}

static struct u32_hnode *u32_lookup_ht(const struct u32_common *tp_c, u32 htid)
{
	for (struct u32_hnode *ht = tp_c->hlist; ht; ht = ht->next)
		if (ht->handle == htid)
			return ht;
	return NULL;
}

static struct u32_knode *u32_lookup_key(const struct u32_hnode *ht, u32 handle)
{
	unsigned int bkt = TC_U32_HASH(handle);

	if (bkt > ht->divisor)
		return NULL;
	for (struct u32_knode *n = ht->ht[bkt]; n; n = n->next)
		if (n->handle == handle)
			return n;
	return NULL;
}

/* gen_new_htid: table ids 801: to ffe: given out cyclically; 0 when all are taken. */
static u32 u32_gen_new_htid(struct u32_common *tp_c)
{
	for (u32 i = 0; i < 0x7fe; i++) {
		u32 id = tp_c->last_id % 0x7fe + 1;

		tp_c->last_id = id;
		if (!u32_lookup_ht(tp_c, (id | 0x800U) << 20))
			return (id | 0x800U) << 20;
	}
	return 0;
}

static struct u32_hnode *u32_hnode_alloc(struct u32_common *tp_c, u32 handle, u32 prio,
					 unsigned int buckets)
{
	struct u32_hnode *ht = calloc(1, sizeof(*ht) + buckets * sizeof(ht->ht[0]));

	if (!ht)
		return NULL;
	ht->handle = handle;
	ht->tp_c = tp_c;
	ht->prio = prio;
	ht->refcnt = 1;
	ht->divisor = buckets - 1;
	return ht;
}

static void u32_hnode_publish(struct u32_common *tp_c, struct u32_hnode *ht)
{
	ht->next = tp_c->hlist;
	__atomic_store_n(&tp_c->hlist, ht, __ATOMIC_RELEASE);
}

static int u32_init(struct nb_tcf_proto *tp)
{
	const struct nb_tcf_block *block = tp->chain->block;
	const void *key = block->owner ? block->owner : block;
	struct u32_common *tp_c = u32_common_find(key);
	struct u32_hnode *root;
	u32 handle = U32_FIRST_HTID;

	if (tp_c) {
		handle = u32_gen_new_htid(tp_c);
		if (!handle)
			return -ENOSPC;
	}
	root = u32_hnode_alloc(tp_c, handle, tp->prio, 1);
	if (!root)
		return -ENOBUFS;
	root->is_root = true;
	if (!tp_c) {
		tp_c = calloc(1, sizeof(*tp_c));
		if (!tp_c) {
			free(root);
			return -ENOBUFS;
		}
		tp_c->key = key;
		tp_c->next = u32_commons;
		u32_commons = tp_c;
		root->tp_c = tp_c;
	}
	tp_c->refcnt++;
	u32_hnode_publish(tp_c, root);
	tp->root = root;
	return 0;
}

static void u32_free_knode(struct u32_knode *n)
{
	if (n->ht_down)
		n->ht_down->refcnt--;
	nb_tcf_exts_destroy(&n->exts);
	nb_tc_stats_free(n->stats);
	free(n);
}

/* u32_clear_hnode: free every node of ht (unreachable by now). */
static void u32_clear_hnode(struct u32_hnode *ht)
{
	for (unsigned int h = 0; h <= ht->divisor; h++) {
		struct u32_knode *n, *next;

		for (n = ht->ht[h]; n; n = next) {
			next = n->next;
			u32_free_knode(n);
			ht->tp_c->knodes--;
		}
		ht->ht[h] = NULL;
	}
}

static void u32_unlink_hnode(struct u32_hnode *ht)
{
	struct u32_hnode **pp;

	for (pp = &ht->tp_c->hlist; *pp; pp = &(*pp)->next) {
		if (*pp == ht) {
			__atomic_store_n(pp, ht->next, __ATOMIC_RELEASE);
			return;
		}
	}
}

/* Called once tp is unreachable: its root table goes, the common with its last filter. */
static void u32_destroy(struct nb_tcf_proto *tp)
{
	struct u32_hnode *root = tp->root, *ht;
	struct u32_common *tp_c = root->tp_c, **pp;

	u32_unlink_hnode(root);
	u32_clear_hnode(root);
	free(root);
	if (--tp_c->refcnt)
		return;
	/* the last u32 filter of the qdisc: no reader can reach the tables left */
	for (ht = tp_c->hlist; ht; ht = ht->next)
		u32_clear_hnode(ht);
	while ((ht = tp_c->hlist)) {
		tp_c->hlist = ht->next;
		free(ht);
	}
	for (pp = &u32_commons; *pp != tp_c; pp = &(*pp)->next)
		;
	*pp = tp_c->next;
	free(tp_c);
}

static void *u32_get(struct nb_tcf_proto *tp, u32 handle)
{
	struct u32_hnode *root = tp->root, *ht;

	if (TC_U32_HTID(handle) == TC_U32_ROOT)
		ht = root;
	else
		ht = u32_lookup_ht(root->tp_c, TC_U32_HTID(handle));
	if (!ht)
		return NULL;
	if (!TC_U32_KEY(handle))
		return ht;
	return u32_lookup_key(ht, handle);
}

/* gen_new_kid: the smallest free node id from 800 in the bucket htid names. */
static u32 u32_gen_new_kid(const struct u32_hnode *ht, u32 htid)
{
	for (u32 id = U32_FIRST_NODE; id <= 0xfff; id++)
		if (!u32_lookup_key(ht, htid | id))
			return htid | id;
	return 0;
}

/* "divisor N": a new table, made under tp (its prio lists it in show). */
static int u32_new_hnode(struct nb_tcf_proto *tp, u32 handle, const struct nb_tc_u32_opts *sel,
			 u32 *handlep, struct nb_log *log)
{
	struct u32_common *tp_c = ((struct u32_hnode *)tp->root)->tp_c;
	struct u32_hnode *ht;

	if (sel->divisor > U32_MAX_DIVISOR || (sel->divisor & (sel->divisor - 1))) {
		nb_log_printf(log, "u32: divisor %u is not a power of 2 up to %u\n", sel->divisor,
			      U32_MAX_DIVISOR);
		return -EINVAL;
	}
	if (TC_U32_KEY(handle)) {
		nb_log_printf(log, "u32: divisor makes a hash table: its handle is HT: alone\n");
		return -EINVAL;
	}
	if (!handle) {
		handle = u32_gen_new_htid(tp_c);
		if (!handle) {
			nb_log_printf(log, "u32: every hash table id is taken\n");
			return -ENOSPC;
		}
	} else if (u32_lookup_ht(tp_c, handle) || handle == TC_U32_ROOT) {
		nb_log_printf(log, "u32: hash table %x: exists\n", TC_U32_USERHTID(handle));
		return -EEXIST;
	}
	ht = u32_hnode_alloc(tp_c, handle, tp->prio, sel->divisor);
	if (!ht)
		return -ENOBUFS;
	u32_hnode_publish(tp_c, ht);
	*handlep = handle;
	return 0;
}

static int u32_check_sel(const struct nb_tc_u32_opts *sel, struct nb_log *log)
{
	if (sel->nkeys > NB_TC_U32_MAX_KEYS) {
		nb_log_printf(log, "u32: %u keys, at most %u\n", sel->nkeys, NB_TC_U32_MAX_KEYS);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < sel->nkeys; i++) {
		if (sel->keys[i].off % 4) {
			nb_log_printf(log, "u32: key %u offset %d is not a multiple of 4\n", i,
				      sel->keys[i].off);
			return -EINVAL;
		}
	}
	if (sel->hoff % 4) {
		nb_log_printf(log, "u32: hashkey offset %d is not a multiple of 4\n", sel->hoff);
		return -EINVAL;
	}
	return 0;
}

/* "link HT:": the table, which must exist and not be a filter's root. */
static int u32_find_link(const struct u32_common *tp_c, u32 link, struct u32_hnode **htp,
			 struct nb_log *log)
{
	struct u32_hnode *ht;

	*htp = NULL;
	if (!link)
		return 0;
	if (TC_U32_KEY(link)) {
		nb_log_printf(log, "u32: link %x is not a hash table (HT:)\n", link);
		return -EINVAL;
	}
	ht = u32_lookup_ht(tp_c, link);
	if (!ht) {
		nb_log_printf(log, "u32: link hash table %x: not found\n", TC_U32_USERHTID(link));
		return -EINVAL;
	}
	if (ht->is_root) {
		nb_log_printf(log, "u32: link %x: is a filter's root table\n",
			      TC_U32_USERHTID(link));
		return -EINVAL;
	}
	*htp = ht;
	return 0;
}

static int u32_change(struct nb_tcf_proto *tp, void *fh, u32 handle,
		      const struct nb_tc_filter_opts *opts, struct nb_tcf_exts *exts, u32 *handlep,
		      struct nb_log *log)
{
	static const struct nb_tc_u32_opts no_keys = { .sz = sizeof(no_keys) };
	const struct nb_tc_u32_opts *sel = NB_OPTS_GET(opts, kind_opts, NULL);
	struct u32_hnode *root = tp->root, *ht, *down;
	struct u32_common *tp_c = root->tp_c;
	struct u32_knode *old = fh, *n, **pp;
	u32 htid;
	int err;

	/* the fields are read directly, the keys last: sz must hold them all */
	err = NB_OPTS_CHECK(sel, nb_tc_u32_opts, keys, log);
	if (err)
		return err;
	if (!sel)
		sel = &no_keys;
	err = u32_check_sel(sel, log);
	if (err)
		return err;
	if (old && !TC_U32_KEY(old->handle)) {
		nb_log_printf(log, "u32: hash table %x: cannot be changed\n",
			      TC_U32_USERHTID(old->handle));
		return -EINVAL;
	}
	if (sel->divisor) {
		if (old) {
			nb_log_printf(log, "u32: divisor makes a hash table, not a node\n");
			return -EINVAL;
		}
		return u32_new_hnode(tp, handle, sel, handlep, log);
	}
	if (old) {
		ht = old->ht_up;
		htid = TC_U32_HTID(old->handle) | (old->handle & 0xff000);
	} else if (sel->htid && TC_U32_HTID(sel->htid) != TC_U32_ROOT) {
		ht = u32_lookup_ht(tp_c, TC_U32_HTID(sel->htid));
		if (!ht) {
			nb_log_printf(log, "u32: hash table %x: not found\n",
				      TC_U32_USERHTID(sel->htid));
			return -EINVAL;
		}
		htid = sel->htid & ~TC_U32_NODE(~0U);
	} else {
		ht = root;
		htid = ht->handle | (sel->htid & 0xff000);
	}
	if (TC_U32_HASH(htid) > ht->divisor) {
		nb_log_printf(log, "u32: bucket %x is past the %u buckets of table %x:\n",
			      TC_U32_HASH(htid), ht->divisor + 1, TC_U32_USERHTID(htid));
		return -EINVAL;
	}
	if (!old && handle) {
		if (TC_U32_HTID(handle) && TC_U32_HTID(handle ^ htid)) {
			nb_log_printf(log, "u32: handle %x is not in table %x:\n", handle,
				      TC_U32_USERHTID(htid));
			return -EINVAL;
		}
		if (!TC_U32_NODE(handle)) {
			nb_log_printf(log, "u32: a node's handle needs a node id (HT:BKT:NODE)\n");
			return -EINVAL;
		}
		handle = htid | TC_U32_NODE(handle);
		if (u32_lookup_key(ht, handle)) {
			nb_log_printf(log, "u32: filter %x exists\n", handle);
			return -EEXIST;
		}
	} else if (!old) {
		handle = u32_gen_new_kid(ht, htid);
		if (!handle) {
			nb_log_printf(log, "u32: bucket %x of table %x: is full\n",
				      TC_U32_HASH(htid), TC_U32_USERHTID(htid));
			return -ENOSPC;
		}
	} else {
		handle = old->handle;
	}
	err = u32_find_link(tp_c, sel->link, &down, log);
	if (err)
		return err;

	n = calloc(1, sizeof(*n) + sel->nkeys * sizeof(n->keys[0]));
	if (!n)
		return -ENOBUFS;
	n->stats = nb_tc_stats_alloc();
	if (!n->stats) {
		free(n);
		return -ENOBUFS;
	}
	n->handle = handle;
	n->ht_up = ht;
	n->ht_down = down;
	if (down)
		down->refcnt++;
	n->classid = sel->classid;
	n->terminal = sel->classid || exts->nr_actions;
	n->hmask = sel->hmask;
	n->fshift = sel->hmask ? (u8)(__builtin_ffs((int)ntohl(sel->hmask)) - 1) : 0;
	n->hoff = sel->hoff;
	n->nkeys = sel->nkeys;
	memcpy(n->keys, sel->keys, sel->nkeys * sizeof(n->keys[0]));
	n->exts = *exts;
	exts->nr_actions = 0;

	pp = &ht->ht[TC_U32_HASH(handle)];
	if (old) {
		n->next = old->next;
		for (; *pp != old; pp = &(*pp)->next)
			;
		__atomic_store_n(pp, n, __ATOMIC_RELEASE);
		nb_tcf_synchronize();
		u32_free_knode(old);
	} else {
		for (; *pp && TC_U32_NODE((*pp)->handle) < TC_U32_NODE(handle); pp = &(*pp)->next)
			;
		n->next = *pp;
		__atomic_store_n(pp, n, __ATOMIC_RELEASE);
		tp_c->knodes++;
	}
	*handlep = handle;
	return 0;
}

static int u32_delete(struct nb_tcf_proto *tp, void *fh, bool *last)
{
	struct u32_hnode *root = tp->root, *ht = fh;
	struct u32_common *tp_c = root->tp_c;
	struct u32_knode *n = fh, **pp;

	if (!TC_U32_KEY(ht->handle)) {
		/* a table: not a filter's root, and not while a node links to it */
		if (ht->is_root)
			return -EINVAL;
		if (ht->refcnt > 1)
			return -EBUSY;
		u32_unlink_hnode(ht);
		nb_tcf_synchronize();
		u32_clear_hnode(ht);
		free(ht);
	} else {
		for (pp = &n->ht_up->ht[TC_U32_HASH(n->handle)]; *pp && *pp != n;
		     pp = &(*pp)->next)
			;
		if (!*pp)
			return -ENOENT;
		__atomic_store_n(pp, n->next, __ATOMIC_RELEASE);
		nb_tcf_synchronize();
		u32_free_knode(n);
		tp_c->knodes--;
	}
	*last = tp_c->refcnt == 1 && !tp_c->knodes;
	return 0;
}

/* Every table made under this filter's pref, each followed by its nodes bucket by bucket. */
static void u32_walk(struct nb_tcf_proto *tp, nb_tcf_walk_fn fn, void *arg)
{
	const struct u32_hnode *root = tp->root;

	for (struct u32_hnode *ht = root->tp_c->hlist; ht; ht = ht->next) {
		if (ht->prio != tp->prio)
			continue;
		if (fn(tp, ht, arg))
			return;
		for (unsigned int h = 0; h <= ht->divisor; h++)
			for (struct u32_knode *n = ht->ht[h]; n; n = n->next)
				if (fn(tp, n, arg))
					return;
	}
}

/* u32 handles "HT:BKT:NODE" (hex each, empty parts 0), or one number. */
static int u32_handle_parse(const char *w, u32 *h)
{
	unsigned long part[3] = { 0 };
	const char *p = w;
	int n = 0;

	if (!strchr(w, ':'))
		return nb_tc_filter_handle_parse(NULL, w, h);
	for (; n < 3; n++) {
		char *end;

		part[n] = *p && *p != ':' ? strtoul(p, &end, 16) : 0;
		if (*p && *p != ':')
			p = end;
		if (!*p)
			break;
		if (*p != ':')
			return -EINVAL;
		p++;
	}
	if (*p || part[0] > 0xfff || part[1] > 0xff || part[2] > 0xfff)
		return -EINVAL;
	*h = (u32)(part[0] << 20 | part[1] << 12 | part[2]);
	return 0;
}

/* iproute2's sprint_u32_handle: "HT:", then "BKT" and ":NODE" unless 0 (800:, 800::800). */
static const char *u32_handle_name(u32 h, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	if (!h) {
		snprintf(buf, size, "none");
		return buf;
	}
	if (TC_U32_HTID(h))
		n += snprintf(buf + n, size - n, "%x:", TC_U32_USERHTID(h));
	if (TC_U32_HASH(h) && n < size)
		n += snprintf(buf + n, size - n, "%x", TC_U32_HASH(h));
	if (TC_U32_NODE(h) && n < size)
		snprintf(buf + n, size - n, ":%x", TC_U32_NODE(h));
	return buf;
}

/* f_u32.c's u32_print_opt: a hash table's line, or a node with its keys. */
static void u32_dump(const struct nb_tcf_proto *tp, const void *fh, struct nb_tc_filter_info *info)
{
	const struct u32_hnode *ht = fh;
	const struct u32_knode *n = fh;
	struct nb_tc_print_list *l = &info->print;
	u32 h = ht->handle;
	char buf[32];

	(void)tp;
	info->id.handle = h;
	nb_tc_print_string(l, NB_TC_PRINT_ANY, "fh", "fh %s ", u32_handle_name(h, buf, sizeof(buf)));
	if (TC_U32_NODE(h))
		nb_tc_print_uint(l, NB_TC_PRINT_ANY, "order", "order %llu ", TC_U32_NODE(h));
	if (!TC_U32_KEY(h)) {
		/* a table: no counters, no match of its own */
		info->no_match = true;
		nb_tc_print_uint(l, NB_TC_PRINT_ANY, "ht_divisor", "ht divisor %llu ",
				 ht->divisor + 1);
		return;
	}
	info->classid = n->classid;
	nb_tc_stats_read(n->stats, &info->stats);
	nb_tcf_exts_dump(&n->exts, info);
	snprintf(buf, sizeof(buf), "%x", TC_U32_USERHTID(h));
	nb_tc_print_string(l, NB_TC_PRINT_ANY, "key_ht", "key ht %s ", buf);
	snprintf(buf, sizeof(buf), "%x", TC_U32_HASH(h));
	nb_tc_print_string(l, NB_TC_PRINT_ANY, "bkt", "bkt %s ", buf);
	if (n->classid) {
		if (n->terminal)
			nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "%s", "*");
		nb_tc_print_string(l, NB_TC_PRINT_ANY, "flowid", "flowid %s ",
				   nb_tc_classid_name(n->classid, buf, sizeof(buf)));
	} else if (n->terminal) {
		nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "%s", "terminal flowid ");
	}
	if (n->ht_down)
		nb_tc_print_string(l, NB_TC_PRINT_ANY, "link", "link %s ",
				   u32_handle_name(n->ht_down->handle, buf, sizeof(buf)));
	nb_tc_print_bool(l, NB_TC_PRINT_ANY, "not_in_hw", "not_in_hw ");
	for (unsigned int k = 0; k < n->nkeys; k++) {
		const struct nb_tc_u32_key *key = &n->keys[k];

		nb_tc_print_open(l, "match");
		nb_tc_print_hex(l, NB_TC_PRINT_ANY, "value", "\n  match %08llx", ntohl(key->val));
		nb_tc_print_hex(l, NB_TC_PRINT_ANY, "mask", "/%08llx ", ntohl(key->mask));
		nb_tc_print_string(l, NB_TC_PRINT_ANY, "offmask", "at %s",
				   key->offmask ? "nexthdr+" : "");
		nb_tc_print_int(l, NB_TC_PRINT_ANY, "off", "%lld", key->off);
		nb_tc_print_close(l);
	}
	if (n->hmask) {
		nb_tc_print_hex(l, NB_TC_PRINT_ANY, "hash_mask", "\n    hash mask %08llx ",
				ntohl(n->hmask));
		nb_tc_print_int(l, NB_TC_PRINT_ANY, "hash_off", "at %lld ", n->hoff);
	}
}

static int u32_parse(struct nb_tc_words *w, struct nb_tc_filter_opts *opts);

static struct nb_tcf_proto_ops cls_u32_ops = {
	.kind = "u32",
	.usage = "u32 { match { u32 | u16 | u8 } VAL MASK at [nexthdr+]OFF\n"
		 "     | match ip { src | dst } ADDR/LEN\n"
		 "     | match ip { protocol | tos | dsfield | ihl | sport | dport | icmp_type |\n"
		 "                  icmp_code } VAL MASK\n"
		 "     | match ip6 { src | dst } ADDR/LEN\n"
		 "     | match ip6 { protocol | sport | dport | icmp_type | icmp_code } VAL MASK\n"
		 "     | match { tcp | udp } { src | dst } VAL MASK\n"
		 "     | match icmp { type | code } VAL MASK }...\n"
		 "     [divisor N] [ht HT:[BKT:] | sample SELECTOR [divisor N]] [order N]\n"
		 "     [link HT:] [hashkey mask M at OFF] [{ flowid | classid } X] [action ...]\n",
	.classify = u32_classify,
	.init = u32_init,
	.destroy = u32_destroy,
	.get = u32_get,
	.change = u32_change,
	.delete = u32_delete,
	.walk = u32_walk,
	.dump = u32_dump,
	.parse = u32_parse,
	.handle_parse = u32_handle_parse,
	.handle_name = u32_handle_name,
};
NB_TCF_PROTO_REGISTER(cls_u32_ops)

/*
 * The builders below read and write a caller's struct: of one built against an older header
 * (a smaller sz, or none set) no key past its end is touched.
 */
static int u32_opts_hold_keys(const struct nb_tc_u32_opts *sel, const char *what,
			     struct nb_log *log)
{
	if (!sel) {
		nb_log_printf(log, "u32: no %s to fill\n", what);
		return -EINVAL;
	}
	return NB_OPTS_CHECK(sel, nb_tc_u32_opts, keys, log);
}

/* Key packing, as iproute2's pack_key: keys on the same word merge, conflicting ones fail. */
static int pack_key(struct nb_tc_u32_opts *sel, __be32 val, __be32 mask, int off, int offmask,
		    struct nb_log *log)
{
	int err = u32_opts_hold_keys(sel, "selector", log);

	if (err)
		return err;
	val &= mask;
	for (unsigned int i = 0; i < sel->nkeys; i++) {
		struct nb_tc_u32_key *key = &sel->keys[i];

		if (key->off == off && key->offmask == offmask) {
			if ((val ^ key->val) & mask & key->mask) {
				nb_log_printf(log, "u32: match at %d conflicts with an earlier one\n",
					      off);
				return -EINVAL;
			}
			key->val |= val;
			key->mask |= mask;
			return 0;
		}
	}
	if (sel->nkeys >= NB_TC_U32_MAX_KEYS) {
		nb_log_printf(log, "u32: more than %u keys\n", NB_TC_U32_MAX_KEYS);
		return -EINVAL;
	}
	if (off % 4) {
		nb_log_printf(log, "u32: offset %d is not a multiple of 4\n", off);
		return -EINVAL;
	}
	sel->keys[sel->nkeys++] = (struct nb_tc_u32_key){ val, mask, off, offmask };
	return 0;
}

int nb_tc_u32_match(struct nb_tc_u32_opts *sel, enum nb_tc_u32_size size, u32 val, u32 mask,
		    int off, bool nexthdr, struct nb_log *log)
{
	int offmask = nexthdr ? -1 : 0;
	int shift;

	switch (size) {
	case NB_TC_U32_SIZE_32:
		break;
	case NB_TC_U32_SIZE_16:
		if (val > 0xffff || mask > 0xffff || (off & 1)) {
			nb_log_printf(log, "u32: u16 match 0x%x 0x%x at %d is invalid\n", val, mask,
				      off);
			return -EINVAL;
		}
		shift = (off & 3) ? 0 : 16;
		val <<= shift;
		mask <<= shift;
		break;
	case NB_TC_U32_SIZE_8:
		if (val > 0xff || mask > 0xff) {
			nb_log_printf(log, "u32: u8 match 0x%x 0x%x is invalid\n", val, mask);
			return -EINVAL;
		}
		shift = (3 - (off & 3)) * 8;
		val <<= shift;
		mask <<= shift;
		break;
	default:
		nb_log_printf(log, "u32: match size %d is not u8, u16 or u32\n", size);
		return -EINVAL;
	}
	/* floor to the word: negative offsets reach back into the mac header */
	off -= ((off % 4) + 4) % 4;
	return pack_key(sel, htonl(val), htonl(mask), off, offmask, log);
}

struct u32_field {
	enum nb_tc_u32_size size;
	int off;
	bool nexthdr;
};

static const struct u32_field u32_fields[] = {
	[NB_TC_U32_IP_SRC] = { NB_TC_U32_SIZE_32, 12, false },
	[NB_TC_U32_IP_DST] = { NB_TC_U32_SIZE_32, 16, false },
	[NB_TC_U32_IP_TOS] = { NB_TC_U32_SIZE_8, 1, false },
	[NB_TC_U32_IP_IHL] = { NB_TC_U32_SIZE_8, 0, false },
	[NB_TC_U32_IP_PROTOCOL] = { NB_TC_U32_SIZE_8, 9, false },
	[NB_TC_U32_IP_SPORT] = { NB_TC_U32_SIZE_16, 20, false },
	[NB_TC_U32_IP_DPORT] = { NB_TC_U32_SIZE_16, 22, false },
	[NB_TC_U32_IP_ICMP_TYPE] = { NB_TC_U32_SIZE_8, 20, false },
	[NB_TC_U32_IP_ICMP_CODE] = { NB_TC_U32_SIZE_8, 21, false },
	[NB_TC_U32_IP6_PROTOCOL] = { NB_TC_U32_SIZE_8, 6, false },
	[NB_TC_U32_IP6_SPORT] = { NB_TC_U32_SIZE_16, 40, false },
	[NB_TC_U32_IP6_DPORT] = { NB_TC_U32_SIZE_16, 42, false },
	[NB_TC_U32_IP6_ICMP_TYPE] = { NB_TC_U32_SIZE_8, 40, false },
	[NB_TC_U32_IP6_ICMP_CODE] = { NB_TC_U32_SIZE_8, 41, false },
	[NB_TC_U32_TCP_SRC] = { NB_TC_U32_SIZE_16, 0, true },
	[NB_TC_U32_TCP_DST] = { NB_TC_U32_SIZE_16, 2, true },
	[NB_TC_U32_UDP_SRC] = { NB_TC_U32_SIZE_16, 0, true },
	[NB_TC_U32_UDP_DST] = { NB_TC_U32_SIZE_16, 2, true },
	[NB_TC_U32_ICMP_TYPE] = { NB_TC_U32_SIZE_8, 0, true },
	[NB_TC_U32_ICMP_CODE] = { NB_TC_U32_SIZE_8, 1, true },
};

int nb_tc_u32_match_field(struct nb_tc_u32_opts *sel, enum nb_tc_u32_field field, u32 val,
			  u32 mask, struct nb_log *log)
{
	const struct u32_field *f;

	if ((unsigned int)field >= ARRAY_SIZE(u32_fields)) {
		nb_log_printf(log, "u32: unknown match field %d\n", field);
		return -EINVAL;
	}
	f = &u32_fields[field];
	return nb_tc_u32_match(sel, f->size, val, mask, f->off, f->nexthdr, log);
}

static u32 prefix_mask(unsigned int plen)
{
	return plen ? 0xffffffffU << (32 - plen) : 0;
}

int nb_tc_u32_match_ip(struct nb_tc_u32_opts *sel, bool dst, __be32 addr, unsigned int plen,
		       struct nb_log *log)
{
	if (plen > 32) {
		nb_log_printf(log, "u32: ip prefix length %u is above 32\n", plen);
		return -EINVAL;
	}
	return pack_key(sel, addr, htonl(prefix_mask(plen)), dst ? 16 : 12, 0, log);
}

int nb_tc_u32_match_ip6(struct nb_tc_u32_opts *sel, bool dst, const void *addr16,
			unsigned int plen, struct nb_log *log)
{
	int off = dst ? 24 : 8;
	__be32 words[4];

	if (plen > 128) {
		nb_log_printf(log, "u32: ip6 prefix length %u is above 128\n", plen);
		return -EINVAL;
	}
	memcpy(words, addr16, sizeof(words));
	for (unsigned int i = 0; i < plen; i += 32) {
		u32 mask = i + 31 < plen ? 0xffffffffU : prefix_mask(plen - i);
		int err = pack_key(sel, words[i / 32], htonl(mask), off + 4 * (int)(i / 32), 0,
				   log);

		if (err)
			return err;
	}
	return 0;
}

int nb_tc_u32_sample(struct nb_tc_u32_opts *sel, const struct nb_tc_u32_opts *sample,
		     u32 divisor, struct nb_log *log)
{
	const struct nb_tc_u32_key *key;
	u32 mask, hash;
	int err = u32_opts_hold_keys(sel, "selector", log);

	if (!err)
		err = u32_opts_hold_keys(sample, "sample", log);
	if (err)
		return err;
	key = &sample->keys[0];
	mask = ntohl(key->mask);
	if (sample->nkeys != 1) {
		nb_log_printf(log, "u32: sample must hold exactly one key, not %u\n",
			      sample->nkeys);
		return -EINVAL;
	}
	if (!divisor)
		divisor = U32_MAX_DIVISOR;
	if (divisor > U32_MAX_DIVISOR || (divisor & (divisor - 1))) {
		nb_log_printf(log, "u32: sample divisor %u is not a power of 2 up to %u\n", divisor,
			      U32_MAX_DIVISOR);
		return -EINVAL;
	}
	/* iproute2 folds the key as the kernel folds a hash key: shifted to its lowest bit */
	hash = ntohl(key->val & key->mask) >> (mask ? __builtin_ffs((int)mask) - 1 : 0);
	sel->htid = TC_U32_HTID(sel->htid) | (hash % divisor) << 12;
	return 0;
}

/*
 * The words of iproute2's f_u32.c, read into struct nb_tc_u32_opts with the key packing above:
 *
 *   u32 { match { u32 | u16 | u8 } VAL MASK at [nexthdr+]OFF
 *       | match ip { src | dst } A/L | match ip { protocol | tos | dsfield | ihl | sport |
 *         dport | icmp_type | icmp_code } VAL MASK | match ip6 { src | dst } A/L
 *       | match ip6 { protocol | sport | dport | icmp_type | icmp_code } VAL MASK
 *       | match { tcp | udp } { src | dst } VAL MASK | match icmp { type | code } VAL MASK
 *       }... [ht HT:[BKT:] | sample SELECTOR [divisor N]] [order N] [link HT:]
 *       [hashkey mask M at OFF] [{ flowid | classid } X] [action ...]
 *   u32 divisor N
 */

/* An error of the key packing above, as tc prints the kernel's: "Error: " and its text. */
static int u32_words_err(struct nb_tc_words *w, int err, struct nb_log *log)
{
	const char *t = nb_log_text(log);
	size_t n = strlen(t);

	if (err && !n)
		nb_tc_words_fail(w, err, "%s", strerror(-err));
	else if (err)	/* the text ends its line already */
		nb_tc_words_fail(w, err, "%.*s", (int)(t[n - 1] == '\n' ? n - 1 : n), t);
	nb_log_free(log);
	return err;
}

static int u32_parse_match(struct nb_tc_words *w, struct nb_tc_u32_opts *u)
{
	const char *what = nb_tc_words_next(w), *sel;
	struct nb_log log = { 0 };
	__u32 val, mask;

	if (!what)
		return -EINVAL;
	if (!strcmp(what, "u32") || !strcmp(what, "u16") || !strcmp(what, "u8")) {
		enum nb_tc_u32_size size = what[1] == '3' ? NB_TC_U32_SIZE_32 :
					   what[1] == '1' ? NB_TC_U32_SIZE_16 : NB_TC_U32_SIZE_8;
		bool nexthdr = false;
		const char *off;
		int offset = 0;

		if (w->pos + 3 > w->argc)
			return nb_tc_words_usage(w, "match %s needs VAL MASK [at OFF]", what);
		if (!nb_parse_u32(w->argv[w->pos + 1], &val, 0))
			return nb_tc_words_wrong(w, w->argv[w->pos + 1], "illegal \"match\" value");
		if (!nb_parse_u32(w->argv[w->pos + 2], &mask, 0))
			return nb_tc_words_wrong(w, w->argv[w->pos + 2], "illegal \"match\" mask");
		w->pos += 2;
		if (w->pos + 1 < w->argc && !strcmp(w->argv[w->pos + 1], "at")) {
			char *end;

			++w->pos;
			off = nb_tc_words_next(w);
			if (!off)
				return -EINVAL;
			if (!strncmp(off, "nexthdr+", 8)) {
				nexthdr = true;
				off += 8;
			}
			offset = (int)strtol(off, &end, 0);
			if (!*off || *end)
				return nb_tc_words_wrong(w, w->argv[w->pos], "illegal \"at\" offset");
		}
		return u32_words_err(w, nb_tc_u32_match(u, size, val, mask, offset, nexthdr, &log),
				     &log);
	}
	sel = nb_tc_words_next(w);
	if (!sel)
		return -EINVAL;
	if ((!strcmp(what, "ip") || !strcmp(what, "ip6")) &&
	    (!strcmp(sel, "src") || !strcmp(sel, "dst"))) {
		const char *addr = nb_tc_words_next(w);
		char buf[64], *slash;
		unsigned int plen = !strcmp(what, "ip") ? 32 : 128;
		unsigned char a[16];

		if (!addr)
			return -EINVAL;
		snprintf(buf, sizeof(buf), "%s", addr);
		slash = strchr(buf, '/');
		if (slash) {
			*slash = 0;
			if (!nb_parse_u32(slash + 1, &plen, 10) ||
			    plen > (!strcmp(what, "ip") ? 32u : 128u))
				return nb_tc_words_wrong(w, addr, "illegal prefix length");
		}
		if (inet_pton(!strcmp(what, "ip") ? AF_INET : AF_INET6, buf, a) != 1)
			return nb_tc_words_wrong(w, addr, "expected an %s address",
						 !strcmp(what, "ip") ? "IPv4" : "IPv6");
		if (!strcmp(what, "ip")) {
			__be32 v4;

			memcpy(&v4, a, 4);
			return u32_words_err(w, nb_tc_u32_match_ip(u, sel[0] == 'd', v4, plen,
								   &log), &log);
		}
		return u32_words_err(w, nb_tc_u32_match_ip6(u, sel[0] == 'd', a, plen, &log),
				     &log);
	}
	{
		static const struct { const char *what, *sel; enum nb_tc_u32_field field; } f[] = {
			{ "ip", "protocol", NB_TC_U32_IP_PROTOCOL }, { "ip", "tos", NB_TC_U32_IP_TOS },
			{ "ip", "dsfield", NB_TC_U32_IP_TOS }, { "ip", "ihl", NB_TC_U32_IP_IHL },
			{ "ip", "sport", NB_TC_U32_IP_SPORT }, { "ip", "dport", NB_TC_U32_IP_DPORT },
			{ "ip", "icmp_type", NB_TC_U32_IP_ICMP_TYPE },
			{ "ip", "icmp_code", NB_TC_U32_IP_ICMP_CODE },
			{ "ip6", "protocol", NB_TC_U32_IP6_PROTOCOL },
			{ "ip6", "sport", NB_TC_U32_IP6_SPORT }, { "ip6", "dport", NB_TC_U32_IP6_DPORT },
			{ "ip6", "icmp_type", NB_TC_U32_IP6_ICMP_TYPE },
			{ "ip6", "icmp_code", NB_TC_U32_IP6_ICMP_CODE },
			{ "tcp", "src", NB_TC_U32_TCP_SRC }, { "tcp", "dst", NB_TC_U32_TCP_DST },
			{ "udp", "src", NB_TC_U32_UDP_SRC }, { "udp", "dst", NB_TC_U32_UDP_DST },
			{ "icmp", "type", NB_TC_U32_ICMP_TYPE }, { "icmp", "code", NB_TC_U32_ICMP_CODE },
		};
		bool known_what = false;

		for (size_t k = 0; k < ARRAY_SIZE(f); k++) {
			if (strcmp(what, f[k].what))
				continue;
			known_what = true;
			if (strcmp(sel, f[k].sel))
				continue;
			if (w->pos + 2 >= w->argc)
				return nb_tc_words_usage(w, "match %s %s needs VAL MASK", what, sel);
			if (!nb_parse_u32(w->argv[w->pos + 1], &val, 0))
				return nb_tc_words_wrong(w, w->argv[w->pos + 1],
							 "illegal \"match\" value");
			if (!nb_parse_u32(w->argv[w->pos + 2], &mask, 0))
				return nb_tc_words_wrong(w, w->argv[w->pos + 2],
							 "illegal \"match\" mask");
			w->pos += 2;
			return u32_words_err(w, nb_tc_u32_match_field(u, f[k].field, val, mask,
								      &log), &log);
		}
		if (known_what)
			return nb_tc_words_wrong(w, sel, "unknown \"match %s\" selector", what);
		return nb_tc_words_wrong(w, what, "illegal \"match\", expected u32, u16, u8, ip, "
					 "ip6, tcp, udp or icmp");
	}
}

static bool u32_parse_divisor(const char *w, __u32 *divisor)
{
	return nb_parse_u32(w, divisor, 0) && *divisor && *divisor <= 256 &&
	       !(*divisor & (*divisor - 1));
}

/* "hashkey mask M at OFF": the word whose masked bits pick the linked table's bucket. */
static int u32_parse_hashkey(struct nb_tc_words *w, struct nb_tc_u32_opts *u)
{
	bool any = false;

	while (w->pos + 2 < w->argc &&
	       (!strcmp(w->argv[w->pos + 1], "mask") || !strcmp(w->argv[w->pos + 1], "at"))) {
		const char *word = w->argv[++w->pos], *val = w->argv[++w->pos];
		__u32 v;
		char *end;

		if (word[0] == 'm') {
			if (!nb_parse_u32(val, &v, 16))
				return nb_tc_words_wrong(w, val, "illegal \"hashkey\" mask");
			u->hmask = htonl(v);
		} else {
			long off = strtol(val, &end, 0);

			if (!*val || *end || off % 4 || off < -65536 || off > 65536)
				return nb_tc_words_wrong(w, val, "illegal \"hashkey\" offset: a "
							 "multiple of 4");
			u->hoff = (int)off;
		}
		any = true;
	}
	if (!any)
		return nb_tc_words_usage(w, "hashkey needs \"mask M\" and \"at OFF\"");
	return 0;
}

/* "sample SELECTOR [divisor N]": the node's bucket is the one the selector's key hashes to. */
static int u32_parse_sample(struct nb_tc_words *w, struct nb_tc_u32_opts *u)
{
	struct nb_tc_u32_opts *sample = calloc(1, sizeof(*sample));
	struct nb_log log = { 0 };
	__u32 divisor = 0;
	int err;

	if (!sample)
		return nb_tc_words_fail(w, -ENOMEM, "out of memory");
	sample->sz = sizeof(*sample);
	err = u32_parse_match(w, sample);
	if (!err && w->pos + 1 < w->argc && !strcmp(w->argv[w->pos + 1], "divisor")) {
		const char *val;

		++w->pos;
		val = nb_tc_words_next(w);

		if (!val)
			err = -EINVAL;
		else if (!u32_parse_divisor(val, &divisor))
			err = nb_tc_words_wrong(w, val, "illegal sample \"divisor\"");
	}
	if (!err)
		err = u32_words_err(w, nb_tc_u32_sample(u, sample, divisor, &log), &log);
	free(sample);
	return err;
}

/* The parse of one u32: "sample" puts the node in a bucket that a later "ht" keeps. */
struct u32_words {
	struct nb_tc_u32_opts *sel;
	bool sampled;
	u32 order;
};

/* One of u32's own words (f_u32.c's u32_parse_opt). */
static int u32_parse_word(struct nb_tc_words *w, void *kopts)
{
	struct u32_words *uw = kopts;
	struct nb_tc_u32_opts *u = uw->sel;
	const char *word = w->argv[w->pos], *val;
	u32 h;
	int err;

	if (!strcmp(word, "match"))
		return u32_parse_match(w, u);
	if (!strcmp(word, "ht") || !strcmp(word, "link")) {
		if (!(val = nb_tc_words_next(w)))
			return -EINVAL;
		if (u32_handle_parse(val, &h))
			return nb_tc_words_wrong(w, val, "illegal \"%s\"", word);
		if (TC_U32_NODE(h))
			return nb_tc_words_wrong(w, val, "\"%s\" must be a hash table", word);
		if (word[0] == 'l')
			u->link = h;
		else if (uw->sampled)
			u->htid = TC_U32_HTID(h) | (u->htid & 0xff000);
		else
			u->htid = h & 0xfffff000;
		return 0;
	}
	if (!strcmp(word, "divisor")) {
		if (!(val = nb_tc_words_next(w)))
			return -EINVAL;
		if (!u32_parse_divisor(val, &u->divisor))
			return nb_tc_words_wrong(w, val, "illegal \"divisor\": a power of 2 "
						 "from 1 to 256");
		return 0;
	}
	if (!strcmp(word, "hashkey"))
		return u32_parse_hashkey(w, u);
	if (!strcmp(word, "sample")) {
		err = u32_parse_sample(w, u);
		if (!err)
			uw->sampled = true;
		return err;
	}
	if (!strcmp(word, "order")) {
		if (!(val = nb_tc_words_next(w)))
			return -EINVAL;
		if (!nb_parse_u32(val, &uw->order, 0) || !uw->order || uw->order > 0xfff)
			return nb_tc_words_wrong(w, val, "illegal \"order\"");
		return 0;
	}
	if (!strcmp(word, "offset"))
		return nb_tc_words_wrong(w, word, "u32 offset (variable header lengths) is "
					 "not built: keys at nexthdr+N read N bytes past the "
					 "network header");
	return -ENOENT;
}

static int u32_parse(struct nb_tc_words *w, struct nb_tc_filter_opts *opts)
{
	struct nb_tc_u32_opts *sel = calloc(1, sizeof(*sel));
	struct u32_words uw = { .sel = sel };
	int err;

	if (!sel)
		return nb_tc_words_fail(w, -ENOMEM, "out of memory");
	sel->sz = sizeof(*sel);
	opts->kind_opts = sel;
	err = nb_tc_words_filter(w, "u32", &sel->classid, u32_parse_word, &uw);
	if (err)
		return err;
	if (uw.order) {
		if (TC_U32_NODE(opts->handle) && uw.order != TC_U32_NODE(opts->handle))
			return nb_tc_words_wrong(w, "order", "\"order\" contradicts \"handle\"");
		opts->handle |= uw.order;
	}
	return 0;
}
