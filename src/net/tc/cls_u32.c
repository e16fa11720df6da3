// SPDX-License-Identifier: GPL-2.0
/*
 * The u32 classifier, the twin of the kernel's net/sched/cls_u32.c for its root hash table
 * (800:): nodes in handle order, each a selector of 32-bit keys read at offsets from the network
 * header. A node matches when every key does; a key whose word lies past the packet's end ends
 * the classification with no match, as in the kernel. A matching node is terminal when it has a
 * classid or actions (iproute2 sets TC_U32_TERMINAL then): its classid is the result and its
 * actions run; a negative action verdict goes on to the next node.
 *
 * The key packing of iproute2's f_u32.c (u8/u16 keys shifted into their word, keys on one word
 * merged, the ip/ip6/tcp/udp/icmp shorthands) is here too, behind include/netbpf/tc.h.
 * Not here: hash tables other than the root, link, hashkey, offset/nexthdr computation (keys
 * "at nexthdr+N" read at N from the network header, as the kernel does without an offset).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "net/pkt.h"
#include "net/tc/pkt_cls.h"
#include "common/u64_stats.h"

#define U32_ROOT_HTID 0x80000000U	/* 800: */
#define U32_NODE_MASK 0xfffU
#define U32_FIRST_NODE 0x800U

struct u32_knode {
	struct u32_knode *next;
	u32 handle;
	u32 classid;
	bool terminal;
	unsigned int nkeys;
	struct nb_tcf_exts exts;
	struct nb_tc_pcpu_stats *stats;
	struct nb_tc_u32_key keys[];
};

struct u32_head {
	struct u32_knode *list;		/* by node id */
};

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

static int u32_classify(struct nb_pkt *pkt, const struct nb_tcf_proto *tp,
			struct nb_tcf_result *res)
{
	const struct u32_head *ht = __atomic_load_n(&tp->root, __ATOMIC_ACQUIRE);
	int off = pkt->network_header == NB_PKT_HDR_UNSET ?
			  0 : (int)pkt->network_header - (int)nb_pkt_headroom(pkt);
	const int off2 = 0;	/* no "offset" support: nexthdr keys are network relative */
	const struct u32_knode *n;

	for (n = __atomic_load_n(&ht->list, __ATOMIC_ACQUIRE); n;
	     n = __atomic_load_n(&n->next, __ATOMIC_ACQUIRE)) {
		const struct nb_tc_u32_key *key = n->keys;
		bool match = true;
		int r;

		for (unsigned int i = 0; i < n->nkeys; i++, key++) {
			int toff = off + key->off + (off2 & key->offmask);
			u8 buf[4];
			const u8 *data = u32_word(pkt, toff, buf);
			__be32 word;

			if (!data)
				return -1;
			memcpy(&word, data, 4);
			if ((word ^ key->val) & key->mask) {
				match = false;
				break;
			}
		}
		if (!match || !n->terminal)
			continue;
		res->classid = n->classid;
		nb_tc_stats_update(n->stats, pkt);
		r = nb_tcf_exts_exec(pkt, &n->exts, res);
		if (r < 0)
			continue;
		if (r == TC_ACT_SHOT)
			nb_u64_stats_inc(&nb_tc_this_stats(n->stats)->drops);
		return r;
	}
	return -1;
}

static int u32_init(struct nb_tcf_proto *tp)
{
	tp->root = calloc(1, sizeof(struct u32_head));
	return tp->root ? 0 : -ENOBUFS;
}

static void u32_free_knode(struct u32_knode *n)
{
	nb_tcf_exts_destroy(&n->exts);
	nb_tc_stats_free(n->stats);
	free(n);
}

static void u32_destroy(struct nb_tcf_proto *tp)
{
	struct u32_head *ht = tp->root;
	struct u32_knode *n, *next;

	for (n = ht->list; n; n = next) {
		next = n->next;
		u32_free_knode(n);
	}
	free(ht);
}

static void *u32_get(struct nb_tcf_proto *tp, u32 handle)
{
	struct u32_head *ht = tp->root;

	for (struct u32_knode *n = ht->list; n; n = n->next)
		if (n->handle == handle)
			return n;
	return NULL;
}

/* gen_new_kid: the smallest free node id from 0x800 in the root table. */
static u32 u32_new_handle(struct nb_tcf_proto *tp)
{
	for (u32 id = U32_FIRST_NODE; id <= U32_NODE_MASK; id++)
		if (!u32_get(tp, U32_ROOT_HTID | id))
			return U32_ROOT_HTID | id;
	return 0;
}

static int u32_change(struct nb_tcf_proto *tp, void *fh, u32 handle,
		      const struct nb_tc_filter_opts *opts, struct nb_tcf_exts *exts, u32 *handlep,
		      struct nb_log *log)
{
	const struct nb_tc_u32_opts *sel = &opts->u32;
	struct u32_head *ht = tp->root;
	struct u32_knode *old = fh, *n, **pp;

	if (sel->nkeys > NB_TC_U32_MAX_KEYS) {
		nb_log_printf(log, "u32: %u keys, at most %u\n", sel->nkeys, NB_TC_U32_MAX_KEYS);
		return -EINVAL;
	}
	if (handle && ((handle & ~U32_NODE_MASK) != U32_ROOT_HTID || !(handle & U32_NODE_MASK))) {
		nb_log_printf(log, "u32: handle 0x%x is not a node of table 800:\n", handle);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < sel->nkeys; i++) {
		if (sel->keys[i].off % 4) {
			nb_log_printf(log, "u32: key %u offset %d is not a multiple of 4\n", i,
				      sel->keys[i].off);
			return -EINVAL;
		}
	}
	if (!handle) {
		handle = u32_new_handle(tp);
		if (!handle) {
			nb_log_printf(log, "u32: table 800: is full\n");
			return -ENOMEM;
		}
	}
	n = calloc(1, sizeof(*n) + sel->nkeys * sizeof(n->keys[0]));
	if (!n)
		return -ENOBUFS;
	n->stats = nb_tc_stats_alloc();
	if (!n->stats) {
		free(n);
		return -ENOBUFS;
	}
	n->handle = handle;
	n->classid = sel->classid;
	n->terminal = sel->classid || exts->nr_actions;
	n->nkeys = sel->nkeys;
	memcpy(n->keys, sel->keys, sel->nkeys * sizeof(n->keys[0]));
	n->exts = *exts;
	exts->nr_actions = 0;

	if (old) {
		n->next = old->next;
		for (pp = &ht->list; *pp != old; pp = &(*pp)->next)
			;
		__atomic_store_n(pp, n, __ATOMIC_RELEASE);
		nb_tcf_synchronize();
		u32_free_knode(old);
	} else {
		for (pp = &ht->list; *pp && ((*pp)->handle & U32_NODE_MASK) <
						    (handle & U32_NODE_MASK);
		     pp = &(*pp)->next)
			;
		n->next = *pp;
		__atomic_store_n(pp, n, __ATOMIC_RELEASE);
	}
	*handlep = handle;
	return 0;
}

static int u32_delete(struct nb_tcf_proto *tp, void *fh, bool *last)
{
	struct u32_head *ht = tp->root;
	struct u32_knode *n = fh, **pp;

	for (pp = &ht->list; *pp && *pp != n; pp = &(*pp)->next)
		;
	if (!*pp)
		return -ENOENT;
	__atomic_store_n(pp, n->next, __ATOMIC_RELEASE);
	nb_tcf_synchronize();
	u32_free_knode(n);
	*last = !ht->list;
	return 0;
}

static void u32_walk(struct nb_tcf_proto *tp, nb_tcf_walk_fn fn, void *arg)
{
	struct u32_head *ht = tp->root;

	for (struct u32_knode *n = ht->list; n; n = n->next)
		if (fn(tp, n, arg))
			break;
}

static void u32_dump(const struct nb_tcf_proto *tp, const void *fh, struct nb_tc_filter_info *info)
{
	const struct u32_knode *n = fh;

	info->id.handle = n->handle;
	info->classid = n->classid;
	nb_tc_stats_read(n->stats, &info->stats);
	nb_tcf_exts_dump(&n->exts, info);
}

static struct nb_tcf_proto_ops cls_u32_ops = {
	.kind = "u32",
	.classify = u32_classify,
	.init = u32_init,
	.destroy = u32_destroy,
	.get = u32_get,
	.change = u32_change,
	.delete = u32_delete,
	.walk = u32_walk,
	.dump = u32_dump,
};
NB_TCF_PROTO_REGISTER(cls_u32_ops)

/* Key packing, as iproute2's pack_key: keys on the same word merge, conflicting ones fail. */
static int pack_key(struct nb_tc_u32_opts *sel, __be32 val, __be32 mask, int off, int offmask,
		    struct nb_log *log)
{
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
