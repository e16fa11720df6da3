// SPDX-License-Identifier: GPL-2.0
/*
 * Packets and their pool. Descriptors (struct nb_pkt) and data buffers (struct nb_pkt_buf) come
 * from two object pools; each thread keeps a small cache of both and trades with the shared
 * pool in batches under a lock, so that the datapath takes no lock and calls no malloc per
 * packet (the shape of DPDK's mempool caches). The shared pools grow by whole chunks and never
 * shrink: chunks stay reachable until exit.
 *
 * Under AddressSanitizer a free object is poisoned, so that a use after nb_pkt_free() is still
 * reported although the memory stays in the pool.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "net/dev.h"
#include "net/pkt.h"

#define VLAN_HLEN_BYTES 4	/* an 802.1Q tag: TPID and TCI */

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n)   ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n)   ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* A data buffer: the reference count of its sharers, then the bytes (the skb head). */
struct nb_pkt_buf {
	int refcnt;
	u8 data[NB_PKT_BUF_SIZE] __attribute__((aligned(64)));
};

#define CACHE_MAX   64	/* objects a thread keeps */
#define CACHE_BATCH 32	/* objects moved between a thread and the shared pool at once */
#define CHUNK_OBJS  256	/* objects the shared pool adds when it runs dry */

struct obj_pool {
	size_t obj_size;
	pthread_mutex_t lock;
	void **free;		/* stack of free objects */
	size_t nfree, cap;
	void **chunks;
	size_t nchunks;
	size_t created;		/* objects ever made */
};

struct obj_cache {
	void *objs[CACHE_MAX];
	unsigned int n;
};

/* One thread's caches, linked in a list so that the accounting can see every thread. */
struct thread_caches {
	struct obj_cache pkt;
	struct obj_cache buf;
	bool registered;
	struct thread_caches *next;
};

static struct obj_pool pkt_pool = {
	.obj_size = (sizeof(struct nb_pkt) + 63) & ~(size_t)63,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};
static struct obj_pool buf_pool = {
	.obj_size = sizeof(struct nb_pkt_buf),
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

static pthread_mutex_t caches_lock = PTHREAD_MUTEX_INITIALIZER;
static struct thread_caches *all_caches;
static pthread_key_t caches_key;
static pthread_once_t caches_once = PTHREAD_ONCE_INIT;
static __thread struct thread_caches this_caches;

/* Grow the shared pool by a chunk; called with the lock held. */
static int pool_grow(struct obj_pool *pool)
{
	void **chunks, **free;
	u8 *chunk;

	/* The stack must hold every object ever made: all may come back at once. */
	if (pool->created + CHUNK_OBJS > pool->cap) {
		size_t cap = pool->cap ? pool->cap * 2 : 4 * CHUNK_OBJS;

		while (cap < pool->created + CHUNK_OBJS)
			cap *= 2;
		free = realloc(pool->free, cap * sizeof(*free));
		if (!free)
			return -ENOMEM;
		pool->free = free;
		pool->cap = cap;
	}
	chunks = realloc(pool->chunks, (pool->nchunks + 1) * sizeof(*chunks));
	if (!chunks)
		return -ENOMEM;
	pool->chunks = chunks;
	chunk = aligned_alloc(64, pool->obj_size * CHUNK_OBJS);
	if (!chunk)
		return -ENOMEM;
	pool->chunks[pool->nchunks++] = chunk;
	for (size_t i = 0; i < CHUNK_OBJS; i++) {
		void *obj = chunk + i * pool->obj_size;

		POISON(obj, pool->obj_size);
		pool->free[pool->nfree++] = obj;
	}
	pool->created += CHUNK_OBJS;
	return 0;
}

static void pool_put_batch(struct obj_pool *pool, void **objs, unsigned int n)
{
	pthread_mutex_lock(&pool->lock);
	/* The stack holds every object ever made, so it has room. */
	memcpy(pool->free + pool->nfree, objs, n * sizeof(*objs));
	pool->nfree += n;
	pthread_mutex_unlock(&pool->lock);
}

static unsigned int pool_get_batch(struct obj_pool *pool, void **objs, unsigned int n)
{
	pthread_mutex_lock(&pool->lock);
	if (pool->nfree < n)
		pool_grow(pool);
	if (n > pool->nfree)
		n = pool->nfree;
	pool->nfree -= n;
	memcpy(objs, pool->free + pool->nfree, n * sizeof(*objs));
	pthread_mutex_unlock(&pool->lock);
	return n;
}

static void cache_flush(struct obj_pool *pool, struct obj_cache *cache)
{
	if (cache->n)
		pool_put_batch(pool, cache->objs, cache->n);
	cache->n = 0;
}

/* A thread that ends hands its cached objects back. */
static void caches_destructor(void *arg)
{
	struct thread_caches *tc = arg, **pp;

	cache_flush(&pkt_pool, &tc->pkt);
	cache_flush(&buf_pool, &tc->buf);
	pthread_mutex_lock(&caches_lock);
	for (pp = &all_caches; *pp; pp = &(*pp)->next) {
		if (*pp == tc) {
			*pp = tc->next;
			break;
		}
	}
	pthread_mutex_unlock(&caches_lock);
	tc->registered = false;
}

static void caches_key_create(void)
{
	pthread_key_create(&caches_key, caches_destructor);
}

static struct thread_caches *thread_caches(void)
{
	struct thread_caches *tc = &this_caches;

	if (unlikely(!tc->registered)) {
		pthread_once(&caches_once, caches_key_create);
		pthread_setspecific(caches_key, tc);
		pthread_mutex_lock(&caches_lock);
		tc->next = all_caches;
		all_caches = tc;
		pthread_mutex_unlock(&caches_lock);
		tc->registered = true;
	}
	return tc;
}

static __always_inline void *obj_alloc(struct obj_pool *pool, struct obj_cache *cache)
{
	void *obj;

	if (unlikely(!cache->n)) {
		cache->n = pool_get_batch(pool, cache->objs, CACHE_BATCH);
		if (!cache->n)
			return NULL;
	}
	obj = cache->objs[--cache->n];
	UNPOISON(obj, pool->obj_size);
	return obj;
}

static __always_inline void obj_free(struct obj_pool *pool, struct obj_cache *cache, void *obj)
{
	POISON(obj, pool->obj_size);
	if (unlikely(cache->n == CACHE_MAX)) {
		cache->n -= CACHE_BATCH;
		pool_put_batch(pool, cache->objs + cache->n, CACHE_BATCH);
	}
	cache->objs[cache->n++] = obj;
}

static size_t pool_outstanding(struct obj_pool *pool, size_t cached)
{
	size_t out;

	pthread_mutex_lock(&pool->lock);
	out = pool->created - pool->nfree;
	pthread_mutex_unlock(&pool->lock);
	return out - cached;
}

long nb_pkt_pool_outstanding(void)
{
	size_t pkts_cached = 0, bufs_cached = 0;

	pthread_mutex_lock(&caches_lock);
	for (struct thread_caches *tc = all_caches; tc; tc = tc->next) {
		pkts_cached += READ_ONCE(tc->pkt.n);
		bufs_cached += READ_ONCE(tc->buf.n);
	}
	pthread_mutex_unlock(&caches_lock);
	return (long)(pool_outstanding(&pkt_pool, pkts_cached) +
		      pool_outstanding(&buf_pool, bufs_cached));
}

void nb_pkt_pool_flush_cache(void)
{
	struct thread_caches *tc = thread_caches();

	cache_flush(&pkt_pool, &tc->pkt);
	cache_flush(&buf_pool, &tc->buf);
}

static struct nb_pkt_buf *buf_alloc(struct thread_caches *tc)
{
	struct nb_pkt_buf *buf = obj_alloc(&buf_pool, &tc->buf);

	if (buf)
		buf->refcnt = 1;
	return buf;
}

static void buf_put(struct nb_pkt_buf *buf)
{
	if (__atomic_sub_fetch(&buf->refcnt, 1, __ATOMIC_ACQ_REL) == 0)
		obj_free(&buf_pool, &thread_caches()->buf, buf);
}

/*
 * Zero a descriptor with plain vector stores: for its ~170 bytes, the "rep stos" a memset
 * becomes costs more than the rest of an allocation.
 */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
static void pkt_zero(struct nb_pkt *pkt)
{
	u64 *w = (u64 *)pkt;

	_Static_assert(sizeof(*pkt) % sizeof(u64) == 0, "nb_pkt is a whole number of words");
#pragma GCC unroll 32
	for (size_t i = 0; i < sizeof(*pkt) / sizeof(u64); i++)
		w[i] = 0;
}

static void pkt_init(struct nb_pkt *pkt, struct nb_pkt_buf *buf)
{
	pkt_zero(pkt);
	pkt->buf = buf;
	pkt->head = buf->data;
	pkt->data = buf->data + NB_PKT_HEADROOM;
	pkt->end = NB_PKT_BUF_SIZE - NB_PKT_TAILROOM;
	pkt->mac_header = NB_PKT_HDR_UNSET;
	pkt->network_header = NB_PKT_HDR_UNSET;
	pkt->transport_header = NB_PKT_HDR_UNSET;
}

struct nb_pkt *nb_pkt_alloc(void)
{
	struct thread_caches *tc = thread_caches();
	struct nb_pkt *pkt = obj_alloc(&pkt_pool, &tc->pkt);
	struct nb_pkt_buf *buf;

	if (unlikely(!pkt))
		return NULL;
	buf = buf_alloc(tc);
	if (unlikely(!buf)) {
		obj_free(&pkt_pool, &tc->pkt, pkt);
		return NULL;
	}
	pkt_init(pkt, buf);
	return pkt;
}

struct nb_pkt *nb_pkt_alloc_data(const void *data, u32 len)
{
	struct nb_pkt *pkt;

	if (len > NB_PKT_MAX_LEN)
		return NULL;
	pkt = nb_pkt_alloc();
	if (pkt)
		memcpy(nb_pkt_put(pkt, len), data, len);
	return pkt;
}

void nb_pkt_free(struct nb_pkt *pkt)
{
	struct thread_caches *tc;

	if (!pkt)
		return;
	tc = thread_caches();
	/* A packet that was never cloned owns its buffer: no atomic on the common path. */
	if (likely(!pkt->cloned))
		obj_free(&buf_pool, &tc->buf, pkt->buf);
	else
		buf_put(pkt->buf);
	obj_free(&pkt_pool, &tc->pkt, pkt);
}

void nb_pkt_free_list(struct nb_pkt *pkt)
{
	while (pkt) {
		struct nb_pkt *next = pkt->next;

		nb_pkt_free(pkt);
		pkt = next;
	}
}

struct nb_pkt *nb_pkt_clone(struct nb_pkt *pkt)
{
	struct nb_pkt *clone = obj_alloc(&pkt_pool, &thread_caches()->pkt);

	if (unlikely(!clone))
		return NULL;
	*clone = *pkt;
	clone->next = NULL;
	__atomic_add_fetch(&pkt->buf->refcnt, 1, __ATOMIC_RELAXED);
	pkt->cloned = 1;
	clone->cloned = 1;
	return clone;
}

bool nb_pkt_shared_data(const struct nb_pkt *pkt)
{
	return pkt->cloned && __atomic_load_n(&pkt->buf->refcnt, __ATOMIC_ACQUIRE) > 1;
}

/* Move pkt onto buf, a copy of its bytes from head to the end of the data, same offsets. */
static void pkt_rebase(struct nb_pkt *pkt, struct nb_pkt_buf *buf)
{
	u32 used = (u32)(pkt->data - pkt->head) + pkt->len;
	ptrdiff_t delta = buf->data - pkt->head;

	memcpy(buf->data, pkt->head, used);
	pkt->buf = buf;
	pkt->head += delta;
	pkt->data += delta;
	nb_pkt_compute_data_pointers(pkt);
}

struct nb_pkt *nb_pkt_copy(const struct nb_pkt *pkt)
{
	struct thread_caches *tc = thread_caches();
	struct nb_pkt *copy = obj_alloc(&pkt_pool, &tc->pkt);
	struct nb_pkt_buf *buf;

	if (unlikely(!copy))
		return NULL;
	buf = buf_alloc(tc);
	if (unlikely(!buf)) {
		obj_free(&pkt_pool, &tc->pkt, copy);
		return NULL;
	}
	*copy = *pkt;
	copy->next = NULL;
	copy->cloned = 0;
	pkt_rebase(copy, buf);
	return copy;
}

int nb_pkt_unclone(struct nb_pkt *pkt)
{
	struct nb_pkt_buf *buf, *old = pkt->buf;

	if (!nb_pkt_shared_data(pkt)) {
		pkt->cloned = 0;
		return 0;
	}
	buf = buf_alloc(thread_caches());
	if (unlikely(!buf))
		return -ENOMEM;
	pkt_rebase(pkt, buf);
	pkt->cloned = 0;
	buf_put(old);
	return 0;
}

int nb_pkt_ensure_writable(struct nb_pkt *pkt, u32 write_len)
{
	if (write_len > pkt->len)
		return -ENOMEM;
	return nb_pkt_unclone(pkt);
}

int nb_pkt_cow_head(struct nb_pkt *pkt, u32 headroom)
{
	u32 have, need;
	int err = nb_pkt_unclone(pkt);

	if (err)
		return err;
	have = nb_pkt_headroom(pkt);
	if (have >= headroom)
		return 0;
	need = headroom - have;
	if (nb_pkt_tailroom(pkt) < need)
		return -ENOMEM;
	/*
	 * The whole used part of the buffer moves, headroom included, so that metadata and
	 * headers in front of data (a mac header at L3) move with it.
	 */
	memmove(pkt->head + need, pkt->head, have + pkt->len);
	pkt->data += need;
	if (pkt->mac_header != NB_PKT_HDR_UNSET)
		pkt->mac_header += need;
	if (pkt->network_header != NB_PKT_HDR_UNSET)
		pkt->network_header += need;
	if (pkt->transport_header != NB_PKT_HDR_UNSET)
		pkt->transport_header += need;
	nb_pkt_compute_data_pointers(pkt);
	return 0;
}

int nb_pkt_vlan_insert_tag(struct nb_pkt *pkt, __be16 proto, u16 tci)
{
	__be16 ntci = htons(tci);
	int err;

	if (pkt->len < 2 * ETH_ALEN)
		return -EINVAL;
	err = nb_pkt_cow_head(pkt, VLAN_HLEN_BYTES);
	if (err)
		return err;
	nb_pkt_push(pkt, VLAN_HLEN_BYTES);
	memmove(pkt->data, pkt->data + VLAN_HLEN_BYTES, 2 * ETH_ALEN);
	memcpy(pkt->data + 2 * ETH_ALEN, &proto, 2);
	memcpy(pkt->data + 2 * ETH_ALEN + 2, &ntci, 2);
	if (pkt->mac_header != NB_PKT_HDR_UNSET)
		pkt->mac_header -= VLAN_HLEN_BYTES;
	nb_pkt_compute_data_pointers(pkt);
	return 0;
}

int nb_pkt_vlan_push_inside(struct nb_pkt *pkt)
{
	int err;

	if (!pkt->vlan_present)
		return 0;
	err = nb_pkt_vlan_insert_tag(pkt, pkt->vlan_proto, pkt->vlan_tci);
	if (err)
		return err;
	pkt->protocol = pkt->vlan_proto;
	pkt->vlan_present = 0;
	pkt->vlan_tci = 0;
	pkt->vlan_proto = 0;
	return 0;
}

void nb_eth_type_trans(struct nb_pkt *pkt, const struct nb_dev *dev)
{
	const struct ethhdr *eth = (const struct ethhdr *)pkt->data;
	u16 proto;

	nb_pkt_reset_mac_header(pkt);
	if (pkt->len < ETH_HLEN) {
		pkt->network_header = NB_PKT_HDR_UNSET;
		pkt->protocol = 0;
		pkt->pkt_type = PACKET_HOST;
		return;
	}
	nb_pkt_set_network_header(pkt, ETH_HLEN);
	if (eth->h_dest[0] & 1) {
		static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

		pkt->pkt_type = memcmp(eth->h_dest, bcast, ETH_ALEN) ? PACKET_MULTICAST :
								       PACKET_BROADCAST;
	} else if (dev && memcmp(eth->h_dest, dev->addr, ETH_ALEN)) {
		pkt->pkt_type = PACKET_OTHERHOST;
	} else {
		pkt->pkt_type = PACKET_HOST;
	}
	proto = ntohs(eth->h_proto);
	if (proto >= ETH_P_802_3_MIN) {
		pkt->protocol = eth->h_proto;
	} else if (pkt->len >= ETH_HLEN + 2 &&
		   pkt->data[ETH_HLEN] == 0xff && pkt->data[ETH_HLEN + 1] == 0xff) {
		/* Novell raw IPX over 802.3 */
		pkt->protocol = htons(ETH_P_802_3);
	} else {
		pkt->protocol = htons(ETH_P_802_2);
	}
}

void nb_pkt_to_xdp(struct nb_pkt *pkt, struct nb_xdp_buff *xdp, const struct nb_xdp_rxq_info *rxq)
{
	xdp->data_hard_start = pkt->head;
	xdp->data = pkt->data;
	xdp->data_end = pkt->data + pkt->len;
	xdp->data_meta = pkt->data - pkt->meta_len;
	xdp->rxq = rxq;
	xdp->txq = NULL;
	xdp->frame_sz = NB_PKT_BUF_SIZE;
	xdp->flags = 0;
	xdp->pkt = pkt;
}

void nb_xdp_to_pkt(const struct nb_xdp_buff *xdp, struct nb_pkt *pkt)
{
	pkt->data = xdp->data;
	pkt->len = (u32)(xdp->data_end - xdp->data);
	pkt->meta_len = (u8)(xdp->data - xdp->data_meta);
	nb_eth_type_trans(pkt, pkt->dev);
	nb_pkt_compute_data_pointers(pkt);
}

/*
 * Fragments of multi-buffer XDP frames: each one a whole data buffer of the pool, used from its
 * first byte (a page of the kernel's, offset 0), listed in the linear buffer's tailroom.
 */
int nb_xdp_frag_append(struct nb_xdp_buff *xdp, const void *data, u32 len)
{
	struct nb_xdp_shared_info *sinfo = nb_xdp_get_shared_info(xdp);
	struct nb_xdp_frag *frag;
	struct nb_pkt_buf *buf;

	if (!nb_xdp_buff_has_frags(xdp)) {
		sinfo->nr_frags = 0;
		sinfo->xdp_frags_size = 0;
		xdp->flags |= NB_XDP_FLAGS_HAS_FRAGS;
	}
	if (len > NB_PKT_BUF_SIZE)
		return -EINVAL;
	if (sinfo->nr_frags == NB_XDP_MAX_FRAGS)
		return -ENOMEM;
	buf = buf_alloc(thread_caches());
	if (!buf)
		return -ENOMEM;
	frag = &sinfo->frags[sinfo->nr_frags++];
	frag->page = buf->data;
	frag->off = 0;
	frag->size = len;
	memcpy(frag->page, data, len);
	sinfo->xdp_frags_size += len;
	return 0;
}

void nb_xdp_frag_release(struct nb_xdp_frag *frag)
{
	struct nb_pkt_buf *buf = container_of(frag->page, struct nb_pkt_buf, data[0]);

	obj_free(&buf_pool, &thread_caches()->buf, buf);
	frag->page = NULL;
	frag->size = 0;
}

void nb_xdp_frags_free(struct nb_xdp_buff *xdp)
{
	struct nb_xdp_shared_info *sinfo = nb_xdp_get_shared_info(xdp);

	if (!nb_xdp_buff_has_frags(xdp))
		return;
	for (unsigned int i = 0; i < sinfo->nr_frags; i++)
		nb_xdp_frag_release(&sinfo->frags[i]);
	sinfo->nr_frags = 0;
	sinfo->xdp_frags_size = 0;
	xdp->flags &= ~NB_XDP_FLAGS_HAS_FRAGS;
}
