// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_LPM_TRIE, the twin of kernel/bpf/lpm_trie.c: a binary path-compressed trie of
 * prefixes keyed by struct bpf_lpm_trie_key_u8 (a u32 prefix length, then the data, most
 * significant bit first). Lookups return the value of the longest stored prefix that matches the
 * key. Intermediate nodes (no value) keep every branch node at exactly two children, so the
 * shape, and therefore the get_next_key order (post-order), are the kernel's.
 *
 * Readers walk the trie without locks. Writers serialise on the map's lock, build each new node
 * completely before publishing it with one pointer store, and free replaced nodes after a grace
 * period.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/map.h"
#include "bpf/epoch.h"

#define LPM_DATA_SIZE_MAX 256
#define LPM_DATA_SIZE_MIN 1
#define LPM_KEY_HDR 4		/* the u32 prefixlen before the data */
#define LPM_VAL_SIZE_MIN 1
#define LPM_VAL_SIZE_MAX ((1U << 22) - LPM_DATA_SIZE_MAX - 64)
#define LPM_CREATE_FLAG_MASK (BPF_F_NO_PREALLOC | BPF_F_NUMA_NODE | NB_MAP_F_ACCESS_MASK)

struct lpm_node {
	struct lpm_node *child[2];
	struct nb_epoch_head rcu;
	u32 prefixlen;
	bool intermediate;	/* a branch point, not a stored prefix */
	u8 data[] __attribute__((aligned(8)));	/* data_size bytes, then the value at 8 */
};

struct lpm_trie {
	struct nb_map map;
	struct lpm_node *root;
	u32 n_entries;
	u32 data_size;
	u32 value_off;		/* data_size rounded up to 8 */
	u32 max_prefixlen;
	pthread_mutex_t lock;
};

struct lpm_key {
	u32 prefixlen;
	u8 data[];
};

static inline struct lpm_trie *to_trie(const struct nb_map *map)
{
	return container_of(map, struct lpm_trie, map);
}

static inline struct lpm_node *node_load(struct lpm_node *const *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void node_publish(struct lpm_node **p, struct lpm_node *n)
{
	__atomic_store_n(p, n, __ATOMIC_RELEASE);
}

/* Bit index of data, counting from the most significant bit of byte 0. */
static inline u32 extract_bit(const u8 *data, u32 index)
{
	return !!(data[index / 8] & (1 << (7 - (index % 8))));
}

/* How many leading bits of node and key agree, up to the shorter of the two prefixes. */
static u32 longest_prefix_match(const struct lpm_trie *trie, const struct lpm_node *node,
				const struct lpm_key *key)
{
	u32 limit = min_t(u32, node->prefixlen, key->prefixlen);
	u32 prefixlen = 0;

	for (u32 i = 0; i < trie->data_size; i++) {
		u8 diff = node->data[i] ^ key->data[i];

		if (diff) {
			prefixlen += __builtin_clz((u32)diff) - 24;
			break;
		}
		prefixlen += 8;
		if (prefixlen >= limit)
			break;
	}
	return min_t(u32, prefixlen, limit);
}

static int trie_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	int err;

	if (!attr->max_entries) {
		nb_log_printf(log, "map %s: max_entries is 0\n", attr->name);
		return -EINVAL;
	}
	if (!(attr->map_flags & BPF_F_NO_PREALLOC)) {
		nb_log_printf(log, "map %s: lpm_trie maps need BPF_F_NO_PREALLOC\n", attr->name);
		return -EINVAL;
	}
	err = nb_map_check_flags(attr, LPM_CREATE_FLAG_MASK, log);
	if (err)
		return err;
	if (attr->key_size < LPM_KEY_HDR + LPM_DATA_SIZE_MIN ||
	    attr->key_size > LPM_KEY_HDR + LPM_DATA_SIZE_MAX) {
		nb_log_printf(log, "map %s: key_size %u outside %u..%u (a u32 prefixlen and 1 to "
			      "%u bytes of data)\n", attr->name, attr->key_size,
			      LPM_KEY_HDR + LPM_DATA_SIZE_MIN, LPM_KEY_HDR + LPM_DATA_SIZE_MAX,
			      LPM_DATA_SIZE_MAX);
		return -EINVAL;
	}
	if (attr->value_size < LPM_VAL_SIZE_MIN || attr->value_size > LPM_VAL_SIZE_MAX) {
		nb_log_printf(log, "map %s: value_size %u outside %u..%u\n", attr->name,
			      attr->value_size, LPM_VAL_SIZE_MIN, LPM_VAL_SIZE_MAX);
		return -EINVAL;
	}
	return 0;
}

static int trie_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	struct lpm_trie *trie = calloc(1, sizeof(*trie));

	if (!trie)
		return -ENOMEM;
	nb_map_init_from_attr(&trie->map, attr);
	trie->data_size = attr->key_size - LPM_KEY_HDR;
	trie->value_off = (trie->data_size + 7) & ~7U;
	trie->max_prefixlen = trie->data_size * 8;
	pthread_mutex_init(&trie->lock, NULL);
	*mapp = &trie->map;
	return 0;
}

static void free_subtree(struct lpm_node *node)
{
	if (!node)
		return;
	free_subtree(node->child[0]);
	free_subtree(node->child[1]);
	free(node);
}

static void trie_free(struct nb_map *map)
{
	struct lpm_trie *trie = to_trie(map);

	free_subtree(trie->root);
	pthread_mutex_destroy(&trie->lock);
	free(trie);
}

static void node_free_rcu(struct nb_epoch_head *head)
{
	free(container_of(head, struct lpm_node, rcu));
}

static void node_retire(struct lpm_node *node)
{
	if (node)
		nb_epoch_call(&node->rcu, node_free_rcu);
}

static struct lpm_node *node_alloc(struct lpm_trie *trie, const void *value)
{
	struct lpm_node *node = malloc(sizeof(*node) + trie->value_off +
				       (value ? trie->map.value_size : 0));

	if (!node)
		return NULL;
	node->child[0] = node->child[1] = NULL;
	node->intermediate = !value;
	if (value)
		memcpy(node->data + trie->value_off, value, trie->map.value_size);
	return node;
}

static void *trie_lookup_elem(struct nb_map *map, const void *_key)
{
	struct lpm_trie *trie = to_trie(map);
	const struct lpm_key *key = _key;
	struct lpm_node *node, *found = NULL;

	/* Walk down while the node's whole prefix matches; remember the last real prefix. */
	for (node = node_load(&trie->root); node;) {
		u32 matchlen = longest_prefix_match(trie, node, key);

		if (matchlen == trie->max_prefixlen) {
			found = node;
			break;
		}
		if (matchlen < node->prefixlen)
			break;
		if (!node->intermediate)
			found = node;
		node = node_load(&node->child[extract_bit(key->data, node->prefixlen)]);
	}
	return found ? found->data + trie->value_off : NULL;
}

/* A new prefix: BPF_EXIST fails, and a full trie refuses it. */
static long check_add_elem(struct lpm_trie *trie, u64 flags)
{
	if (flags == BPF_EXIST)
		return -ENOENT;
	if (trie->n_entries == trie->map.max_entries)
		return -ENOSPC;
	trie->n_entries++;
	return 0;
}

static long trie_update_elem(struct nb_map *map, const void *_key, const void *value, u64 flags)
{
	struct lpm_trie *trie = to_trie(map);
	const struct lpm_key *key = _key;
	struct lpm_node *node, *new_node, *im_node, **slot;
	u32 matchlen = 0;
	long ret = 0;

	if (unlikely(flags > BPF_EXIST))
		return -EINVAL;
	if (key->prefixlen > trie->max_prefixlen)
		return -EINVAL;
	new_node = node_alloc(trie, value);
	if (!new_node)
		return -ENOMEM;
	new_node->prefixlen = key->prefixlen;
	memcpy(new_node->data, key->data, trie->data_size);

	pthread_mutex_lock(&trie->lock);
	/* Find the slot where the new prefix belongs. */
	slot = &trie->root;
	while ((node = *slot)) {
		matchlen = longest_prefix_match(trie, node, key);
		if (node->prefixlen != matchlen || node->prefixlen == key->prefixlen)
			break;
		slot = &node->child[extract_bit(key->data, node->prefixlen)];
	}
	if (!node) {
		/* An empty slot: the new prefix is a leaf. */
		ret = check_add_elem(trie, flags);
		if (!ret)
			node_publish(slot, new_node);
		goto out;
	}
	if (node->prefixlen == matchlen) {
		/* The same prefix: replace the node, keeping its children. */
		if (!node->intermediate)
			ret = flags == BPF_NOEXIST ? -EEXIST : 0;
		else
			ret = check_add_elem(trie, flags);
		if (ret)
			goto out;
		new_node->child[0] = node->child[0];
		new_node->child[1] = node->child[1];
		node_publish(slot, new_node);
		node_retire(node);
		goto out;
	}
	ret = check_add_elem(trie, flags);
	if (ret)
		goto out;
	if (matchlen == key->prefixlen) {
		/* The new prefix covers node: it goes above it. */
		new_node->child[extract_bit(node->data, matchlen)] = node;
		node_publish(slot, new_node);
		goto out;
	}
	/* The prefixes diverge at matchlen: a branch node takes both. */
	im_node = node_alloc(trie, NULL);
	if (!im_node) {
		trie->n_entries--;
		ret = -ENOMEM;
		goto out;
	}
	im_node->prefixlen = matchlen;
	memcpy(im_node->data, node->data, trie->data_size);
	if (extract_bit(key->data, matchlen)) {
		im_node->child[0] = node;
		im_node->child[1] = new_node;
	} else {
		im_node->child[0] = new_node;
		im_node->child[1] = node;
	}
	node_publish(slot, im_node);
out:
	pthread_mutex_unlock(&trie->lock);
	if (ret)
		free(new_node);
	return ret;
}

static long trie_delete_elem(struct nb_map *map, const void *_key)
{
	struct lpm_trie *trie = to_trie(map);
	const struct lpm_key *key = _key;
	struct lpm_node *node, *parent = NULL, **trim, **trim2;
	u32 matchlen = 0;
	long ret = 0;

	if (key->prefixlen > trie->max_prefixlen)
		return -EINVAL;
	pthread_mutex_lock(&trie->lock);
	/* Find the exact prefix, its slot, its parent and the parent's slot. */
	trim = trim2 = &trie->root;
	while ((node = *trim)) {
		matchlen = longest_prefix_match(trie, node, key);
		if (node->prefixlen != matchlen || node->prefixlen == key->prefixlen)
			break;
		parent = node;
		trim2 = trim;
		trim = &node->child[extract_bit(key->data, node->prefixlen)];
	}
	if (!node || node->prefixlen != key->prefixlen || node->prefixlen != matchlen ||
	    node->intermediate) {
		ret = -ENOENT;
		goto out;
	}
	trie->n_entries--;
	if (node->child[0] && node->child[1]) {
		/* Still a branch point: it only stops being a prefix. */
		WRITE_ONCE(node->intermediate, true);
		goto out;
	}
	if (parent && parent->intermediate && !node->child[0] && !node->child[1]) {
		/* A leaf under a branch node: the sibling takes the branch node's place. */
		node_publish(trim2, parent->child[node == parent->child[0] ? 1 : 0]);
		node_retire(parent);
		node_retire(node);
		goto out;
	}
	node_publish(trim, node->child[0] ? node->child[0] : node->child[1]);
	node_retire(node);
out:
	pthread_mutex_unlock(&trie->lock);
	return ret;
}

static void copy_key(const struct lpm_trie *trie, const struct lpm_node *node, void *next_key)
{
	struct lpm_key *out = next_key;

	out->prefixlen = node->prefixlen;
	memcpy(out->data, node->data, trie->data_size);
}

/* Post-order: the leftmost prefix first, a prefix after everything below it. */
static int trie_get_next_key(struct nb_map *map, const void *_key, void *next_key)
{
	struct lpm_trie *trie = to_trie(map);
	const struct lpm_key *key = _key;
	struct lpm_node *stack[LPM_DATA_SIZE_MAX * 8 + 1];
	struct lpm_node *node, *next = NULL, *search_root = node_load(&trie->root);
	int sp = -1;
	u32 matchlen = 0;

	if (!search_root)
		return -ENOENT;
	if (!key || key->prefixlen > trie->max_prefixlen)
		goto find_leftmost;
	for (node = search_root; node;) {
		stack[++sp] = node;
		matchlen = longest_prefix_match(trie, node, key);
		if (node->prefixlen != matchlen || node->prefixlen == key->prefixlen)
			break;
		node = node_load(&node->child[extract_bit(key->data, node->prefixlen)]);
	}
	if (!node || node->prefixlen != matchlen || node->intermediate)
		goto find_leftmost;
	/* The key exists: go up until a right sibling subtree or a real parent follows. */
	node = stack[sp];
	while (sp > 0) {
		struct lpm_node *parent = stack[sp - 1];

		if (node_load(&parent->child[0]) == node) {
			search_root = node_load(&parent->child[1]);
			if (search_root)
				goto find_leftmost;
		}
		if (!parent->intermediate) {
			copy_key(trie, parent, next_key);
			return 0;
		}
		node = parent;
		sp--;
	}
	return -ENOENT;
find_leftmost:
	/* Branch nodes always have two children, so this ends on a real prefix. */
	for (node = search_root; node;) {
		if (node->intermediate) {
			node = node_load(&node->child[0]);
		} else {
			next = node;
			node = node_load(&node->child[0]);
			if (!node)
				node = node_load(&next->child[1]);
		}
	}
	if (!next)
		return -ENOENT;
	copy_key(trie, next, next_key);
	return 0;
}

/* The stored prefixes, not the branch points between them (the kernel's n_entries). */
static u32 trie_elem_count(const struct nb_map *map)
{
	return __atomic_load_n(&container_of(map, struct lpm_trie, map)->n_entries,
			       __ATOMIC_RELAXED);
}

static const struct nb_map_ops trie_map_ops = {
	.type = BPF_MAP_TYPE_LPM_TRIE,
	.name = "lpm_trie",
	.map_alloc_check = trie_alloc_check,
	.map_alloc = trie_alloc,
	.map_free = trie_free,
	.map_lookup_elem = trie_lookup_elem,
	.map_update_elem = trie_update_elem,
	.map_delete_elem = trie_delete_elem,
	.map_get_next_key = trie_get_next_key,
	.map_meta_equal = nb_map_meta_equal,
	.map_elem_count = trie_elem_count,
};
NB_MAP_TYPE_REGISTER(trie_map_ops)
