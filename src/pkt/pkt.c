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

#include "common/asan.h"
#include "pkt/csum.h"
#include "pkt/dst_metadata.h"
#include "pkt/pkt.h"

#define VLAN_HLEN_BYTES 4	/* an 802.1Q tag: TPID and TCI */

/*
 * A data buffer: the reference count of its sharers and where it goes back to, then the bytes
 * (the skb head, or a fragment's page). Pages are NB_PKT_BUF_SIZE bytes; big buffers
 * NB_PKT_BIG_BUF_SIZE, for a frame made linear whole; an owner's buffers (an AF_XDP UMEM's
 * frames) owner->buf_size, in memory the owner keeps, this header in the NB_PKT_BUF_HDR bytes
 * it leaves before each.
 */
enum nb_pkt_buf_kind {
	NB_PKT_BUF_PAGE,	/* the pool's pages: the only kind the fast path tests for */
	NB_PKT_BUF_BIG,
	NB_PKT_BUF_OWNED,
};

struct nb_pkt_buf {
	int refcnt;
	u8 kind;			/* enum nb_pkt_buf_kind */
	struct nb_pkt_buf_owner *owner;	/* NB_PKT_BUF_OWNED: who takes it back */
	u8 data[] __attribute__((aligned(64)));
};

_Static_assert(offsetof(struct nb_pkt_buf, data) == NB_PKT_BUF_HDR,
	       "an owner leaves NB_PKT_BUF_HDR bytes before each buffer for its header");

#define CACHE_MAX   64	/* objects a thread keeps */
#define CACHE_BATCH 32	/* objects moved between a thread and the shared pool at once */
#define BIG_CACHE_MAX	8	/* big buffers a thread keeps: each is 72 KiB */
#define BIG_CACHE_BATCH 4

struct obj_pool {
	size_t obj_size;
	size_t chunk_objs;	/* objects the shared pool adds when it runs dry */
	pthread_mutex_t lock;
	void **free;		/* stack of free objects */
	size_t nfree, cap;
	void **chunks;
	size_t nchunks;
	size_t created;		/* objects ever made */
	size_t max_objs;	/* 0: no cap (nb_pkt_pool_set_max) */
};

struct obj_cache {
	void *objs[CACHE_MAX];
	unsigned int n;
};

/* One thread's caches, linked in a list so that the accounting can see every thread. */
struct thread_caches {
	struct obj_cache pkt;
	struct obj_cache buf;
	struct obj_cache big;
	bool registered;
	struct thread_caches *next;
};

static struct obj_pool pkt_pool = {
	.obj_size = (sizeof(struct nb_pkt) + 63) & ~(size_t)63,
	.chunk_objs = 256,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};
static struct obj_pool buf_pool = {
	.obj_size = sizeof(struct nb_pkt_buf) + NB_PKT_BUF_SIZE,
	.chunk_objs = 256,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};
static struct obj_pool big_pool = {
	.obj_size = sizeof(struct nb_pkt_buf) + NB_PKT_BIG_BUF_SIZE,
	.chunk_objs = 16,
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

	if (pool->max_objs && pool->created >= pool->max_objs)
		return -ENOBUFS;
	/* The stack must hold every object ever made: all may come back at once. */
	if (pool->created + pool->chunk_objs > pool->cap) {
		size_t cap = pool->cap ? pool->cap * 2 : 4 * pool->chunk_objs;

		while (cap < pool->created + pool->chunk_objs)
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
	chunk = aligned_alloc(64, pool->obj_size * pool->chunk_objs);
	if (!chunk)
		return -ENOMEM;
	pool->chunks[pool->nchunks++] = chunk;
	for (size_t i = 0; i < pool->chunk_objs; i++) {
		void *obj = chunk + i * pool->obj_size;

		POISON(obj, pool->obj_size);
		pool->free[pool->nfree++] = obj;
	}
	pool->created += pool->chunk_objs;
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
	cache_flush(&big_pool, &tc->big);
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

static __always_inline void *obj_alloc(struct obj_pool *pool, struct obj_cache *cache,
				       unsigned int batch)
{
	void *obj;

	if (unlikely(!cache->n)) {
		cache->n = pool_get_batch(pool, cache->objs, batch);
		if (!cache->n)
			return NULL;
	}
	obj = cache->objs[--cache->n];
	UNPOISON(obj, pool->obj_size);
	return obj;
}

static __always_inline void obj_free(struct obj_pool *pool, struct obj_cache *cache, void *obj,
				     unsigned int max, unsigned int batch)
{
	POISON(obj, pool->obj_size);
	if (unlikely(cache->n == max)) {
		cache->n -= batch;
		pool_put_batch(pool, cache->objs + cache->n, batch);
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

void nb_pkt_pool_set_max(unsigned long packets)
{
	struct obj_pool *pools[] = { &pkt_pool, &buf_pool, &big_pool };
	/* a big buffer holds as much as 18 page buffers */
	unsigned long max[] = { packets, packets, packets ? (packets + 17) / 18 : 0 };

	for (unsigned int i = 0; i < ARRAY_SIZE(pools); i++) {
		pthread_mutex_lock(&pools[i]->lock);
		pools[i]->max_objs = max[i];
		pthread_mutex_unlock(&pools[i]->lock);
	}
}

long nb_pkt_pool_outstanding(void)
{
	size_t pkts_cached = 0, bufs_cached = 0, bigs_cached = 0;

	pthread_mutex_lock(&caches_lock);
	for (struct thread_caches *tc = all_caches; tc; tc = tc->next) {
		pkts_cached += READ_ONCE(tc->pkt.n);
		bufs_cached += READ_ONCE(tc->buf.n);
		bigs_cached += READ_ONCE(tc->big.n);
	}
	pthread_mutex_unlock(&caches_lock);
	return (long)(pool_outstanding(&pkt_pool, pkts_cached) +
		      pool_outstanding(&buf_pool, bufs_cached) +
		      pool_outstanding(&big_pool, bigs_cached));
}

void nb_pkt_pool_flush_cache(void)
{
	struct thread_caches *tc = thread_caches();

	cache_flush(&pkt_pool, &tc->pkt);
	cache_flush(&buf_pool, &tc->buf);
	cache_flush(&big_pool, &tc->big);
}

static __always_inline struct nb_pkt *desc_alloc(struct thread_caches *tc)
{
	return obj_alloc(&pkt_pool, &tc->pkt, CACHE_BATCH);
}

static __always_inline void desc_free(struct thread_caches *tc, struct nb_pkt *pkt)
{
	obj_free(&pkt_pool, &tc->pkt, pkt, CACHE_MAX, CACHE_BATCH);
}

static struct nb_pkt_buf *buf_alloc(struct thread_caches *tc, bool big)
{
	struct nb_pkt_buf *buf;

	if (likely(!big))
		buf = obj_alloc(&buf_pool, &tc->buf, CACHE_BATCH);
	else
		buf = obj_alloc(&big_pool, &tc->big, BIG_CACHE_BATCH);
	if (buf) {
		buf->refcnt = 1;
		buf->kind = big ? NB_PKT_BUF_BIG : NB_PKT_BUF_PAGE;
	}
	return buf;
}

/* A big buffer to its pool, an owner's back to its owner (out of line: the rare kinds). */
static __attribute__((noinline)) void buf_free_other(struct thread_caches *tc,
						     struct nb_pkt_buf *buf)
{
	if (buf->kind == NB_PKT_BUF_BIG)
		obj_free(&big_pool, &tc->big, buf, BIG_CACHE_MAX, BIG_CACHE_BATCH);
	else
		buf->owner->release(buf->owner, buf->data);
}

static __always_inline void buf_free(struct thread_caches *tc, struct nb_pkt_buf *buf)
{
	if (likely(buf->kind == NB_PKT_BUF_PAGE))
		obj_free(&buf_pool, &tc->buf, buf, CACHE_MAX, CACHE_BATCH);
	else
		buf_free_other(tc, buf);
}

/* Drop a reference; the last one frees. A sole owner needs no atomic. */
static bool buf_put_last(struct nb_pkt_buf *buf)
{
	return __atomic_load_n(&buf->refcnt, __ATOMIC_ACQUIRE) == 1 ||
	       __atomic_sub_fetch(&buf->refcnt, 1, __ATOMIC_ACQ_REL) == 0;
}

static inline struct nb_pkt_buf *page_buf(const u8 *page)
{
	return container_of(page, struct nb_pkt_buf, data);
}

static inline u32 buf_end(const struct nb_pkt_buf *buf)
{
	if (likely(buf->kind == NB_PKT_BUF_PAGE))
		return NB_PKT_BUF_SIZE - NB_PKT_TAILROOM;
	if (buf->kind == NB_PKT_BUF_BIG)
		return NB_PKT_BIG_BUF_SIZE - NB_PKT_TAILROOM;
	return buf->owner->buf_size - NB_PKT_TAILROOM;
}

static void page_get(u8 *page)
{
	__atomic_add_fetch(&page_buf(page)->refcnt, 1, __ATOMIC_RELAXED);
}

static void page_put(struct thread_caches *tc, u8 *page)
{
	struct nb_pkt_buf *buf = page_buf(page);

	if (buf_put_last(buf))
		buf_free(tc, buf);
}

static bool page_shared(const u8 *page)
{
	return __atomic_load_n(&page_buf(page)->refcnt, __ATOMIC_ACQUIRE) > 1;
}

u8 *nb_pkt_frag_page_alloc(void)
{
	struct nb_pkt_buf *buf = buf_alloc(thread_caches(), false);

	return buf ? buf->data : NULL;
}

void nb_pkt_frag_page_free(u8 *page)
{
	page_put(thread_caches(), page);
}

/*
 * A linear buffer whose last sharer lets go: its fragments (data_len says whether it has any;
 * the list is not read otherwise, to keep the buffer's end out of the cache) go with it.
 */
static __always_inline void head_release(struct thread_caches *tc, struct nb_pkt_buf *buf,
					 bool has_frags)
{
	if (unlikely(has_frags)) {
		struct nb_skb_shared_info *sh = (void *)(buf->data + buf_end(buf));

		for (unsigned int i = 0; i < sh->nr_frags; i++)
			page_put(tc, sh->frags[i].page);
		sh->nr_frags = 0;
	}
	buf_free(tc, buf);
}

/*
 * Zero a descriptor with plain vector stores: for its ~180 bytes, the "rep stos" a memset
 * becomes costs more than the rest of an allocation.
 */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
/* in line: a call per packet would cost a fifth of the zeroing */
static __always_inline void pkt_zero(struct nb_pkt *pkt)
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

static __always_inline struct nb_pkt *pkt_alloc(struct thread_caches *tc)
{
	struct nb_pkt *pkt = desc_alloc(tc);
	struct nb_pkt_buf *buf;

	if (unlikely(!pkt))
		return NULL;
	buf = buf_alloc(tc, false);
	if (unlikely(!buf)) {
		desc_free(tc, pkt);
		return NULL;
	}
	pkt_init(pkt, buf);
	return pkt;
}

struct nb_pkt *nb_pkt_alloc(void)
{
	return pkt_alloc(thread_caches());
}

/* A packet of the burst from objects taken from the caches: its buffer's fields, then itself. */
static __always_inline struct nb_pkt *bulk_init(struct nb_pkt *pkt, struct nb_pkt_buf *buf)
{
	UNPOISON(pkt, pkt_pool.obj_size);
	UNPOISON(buf, buf_pool.obj_size);
	buf->refcnt = 1;
	buf->kind = NB_PKT_BUF_PAGE;
	pkt_init(pkt, buf);
	return pkt;
}

unsigned int nb_pkt_alloc_bulk(struct nb_pkt **pkts, unsigned int n)
{
	struct thread_caches *tc = thread_caches();
	unsigned int i;

	/*
	 * Both caches hold the burst (a worker gets back what it sent, so they mostly do): take
	 * it from their tops at once, as rte_mempool_get_bulk takes from its cache, without a
	 * test per object of whether the cache ran dry.
	 */
	if (likely(tc->pkt.n >= n && tc->buf.n >= n)) {
		void **d = tc->pkt.objs + tc->pkt.n, **b = tc->buf.objs + tc->buf.n;

		tc->pkt.n -= n;
		tc->buf.n -= n;
		for (i = 0; i < n; i++)
			pkts[i] = bulk_init(*--d, *--b);
		return n;
	}
	for (i = 0; i < n; i++) {
		struct nb_pkt *pkt = pkt_alloc(tc);

		if (unlikely(!pkt))
			break;
		pkts[i] = pkt;
	}
	return i;
}

struct nb_pkt *nb_pkt_alloc_owned(struct nb_pkt_buf_owner *owner, u8 *head, u32 headroom,
				  u32 len)
{
	struct nb_pkt_buf *buf = container_of(head, struct nb_pkt_buf, data);
	struct nb_pkt *pkt;

	if (unlikely((u64)headroom + len > owner->buf_size - NB_PKT_TAILROOM))
		return NULL;
	pkt = desc_alloc(thread_caches());
	if (unlikely(!pkt))
		return NULL;
	buf->refcnt = 1;
	buf->kind = NB_PKT_BUF_OWNED;
	buf->owner = owner;
	pkt_init(pkt, buf);
	pkt->data = head + headroom;
	pkt->end = owner->buf_size - NB_PKT_TAILROOM;
	pkt->len = len;
	return pkt;
}

bool nb_pkt_head_stealable(const struct nb_pkt *pkt, const struct nb_pkt_buf_owner *owner)
{
	return pkt->buf->kind == NB_PKT_BUF_OWNED && pkt->buf->owner == owner &&
	       !nb_pkt_is_nonlinear(pkt) && !nb_pkt_shared_data(pkt);
}

bool nb_pkt_steal_head(struct nb_pkt *pkt, const struct nb_pkt_buf_owner *owner)
{
	if (!nb_pkt_head_stealable(pkt, owner))
		return false;
	if (unlikely(pkt->tun_md))
		nb_tun_md_put(pkt->tun_md);
	desc_free(thread_caches(), pkt);
	return true;
}

void nb_pkt_add_frag(struct nb_pkt *pkt, u8 *page, u32 off, u32 size)
{
	struct nb_skb_shared_info *sh = nb_pkt_shinfo(pkt);
	struct nb_skb_frag *frag;

	/* the list is read only while data_len says there are fragments */
	if (!pkt->data_len)
		sh->nr_frags = 0;
	frag = &sh->frags[sh->nr_frags++];
	frag->page = page;
	frag->off = off;
	frag->size = size;
	pkt->len += size;
	pkt->data_len += size;
}

/* Room left in the page of the last fragment, when the packet may write there. */
static u32 last_frag_room(const struct nb_pkt *pkt)
{
	const struct nb_skb_shared_info *sh = nb_pkt_shinfo(pkt);
	const struct nb_skb_frag *frag;

	if (!pkt->data_len || nb_pkt_shared_data(pkt))
		return 0;
	frag = &sh->frags[sh->nr_frags - 1];
	if (page_shared(frag->page))
		return 0;
	return NB_PKT_BUF_SIZE - frag->off - frag->size;
}

int nb_pkt_append(struct nb_pkt *pkt, const void *data, u32 len)
{
	u32 nr_frags = pkt->data_len ? nb_pkt_shinfo(pkt)->nr_frags : 0;
	u32 room = nb_pkt_tailroom(pkt), linear = min_t(u32, len, room);
	u32 last = min_t(u32, len - linear, last_frag_room(pkt));
	const u8 *from = data;

	if (len - linear - last > (NB_MAX_SKB_FRAGS - nr_frags) * NB_PKT_BUF_SIZE)
		return -EMSGSIZE;
	memcpy(nb_pkt_put(pkt, linear), from, linear);
	from += linear;
	len -= linear;
	if (last) {
		struct nb_skb_frag *frag = &nb_pkt_shinfo(pkt)->frags[nr_frags - 1];

		memcpy(frag->page + frag->off + frag->size, from, last);
		frag->size += last;
		pkt->len += last;
		pkt->data_len += last;
		from += last;
		len -= last;
	}
	while (len) {
		u32 n = min_t(u32, len, NB_PKT_BUF_SIZE);
		u8 *page = nb_pkt_frag_page_alloc();

		if (unlikely(!page))
			return -ENOMEM;
		memcpy(page, from, n);
		nb_pkt_add_frag(pkt, page, 0, n);
		from += n;
		len -= n;
	}
	return 0;
}

struct nb_pkt *nb_pkt_alloc_data(const void *data, u32 len)
{
	struct nb_pkt *pkt;

	if (len > NB_PKT_MAX_FRAME)
		return NULL;
	pkt = nb_pkt_alloc();
	if (pkt && nb_pkt_append(pkt, data, len)) {
		nb_pkt_free(pkt);
		return NULL;
	}
	return pkt;
}

const void *nb_pkt_bytes(struct nb_pkt *pkt, u32 *len)
{
	if (nb_pkt_linearize(pkt))
		return NULL;
	*len = pkt->len;
	return pkt->data;
}

static __always_inline void pkt_free(struct thread_caches *tc, struct nb_pkt *pkt)
{
	if (unlikely(pkt->tun_md))
		nb_tun_md_put(pkt->tun_md);
	/* A packet that was never cloned owns its buffer: no atomic on the common path. */
	if (likely(!pkt->cloned) || buf_put_last(pkt->buf))
		head_release(tc, pkt->buf, pkt->data_len);
	desc_free(tc, pkt);
}

void nb_pkt_free(struct nb_pkt *pkt)
{
	if (pkt)
		pkt_free(thread_caches(), pkt);
}

void nb_pkt_free_bulk(struct nb_pkt *const *pkts, unsigned int n)
{
	struct thread_caches *tc = thread_caches();
	unsigned int i = 0;

	/*
	 * Both caches have room for the burst (they mostly do: a worker frees what it took): the
	 * packets that own a linear buffer of their own go onto them without a test per object of
	 * whether a cache is full; from the first other packet on, the way of nb_pkt_free.
	 */
	if (likely(tc->pkt.n + n <= CACHE_MAX && tc->buf.n + n <= CACHE_MAX)) {
		unsigned int pn = tc->pkt.n, bn = tc->buf.n;

		for (; i < n; i++) {
			struct nb_pkt *pkt = pkts[i];
			struct nb_pkt_buf *buf = pkt->buf;

			if (unlikely(pkt->tun_md || pkt->cloned || pkt->data_len ||
				     buf->kind != NB_PKT_BUF_PAGE))
				break;
			POISON(buf, buf_pool.obj_size);
			tc->buf.objs[bn++] = buf;
			POISON(pkt, pkt_pool.obj_size);
			tc->pkt.objs[pn++] = pkt;
		}
		tc->pkt.n = pn;
		tc->buf.n = bn;
	}
	for (; i < n; i++)
		pkt_free(tc, pkts[i]);
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
	struct nb_pkt *clone = desc_alloc(thread_caches());

	if (unlikely(!clone))
		return NULL;
	*clone = *pkt;
	clone->next = NULL;
	clone->sk = NULL;	/* a clone has no socket (__skb_clone) */
	if (unlikely(clone->tun_md))
		nb_tun_md_get(clone->tun_md);
	__atomic_add_fetch(&pkt->buf->refcnt, 1, __ATOMIC_RELAXED);
	pkt->cloned = 1;
	clone->cloned = 1;
	return clone;
}

bool nb_pkt_buf_shared(const struct nb_pkt *pkt)
{
	return __atomic_load_n(&pkt->buf->refcnt, __ATOMIC_ACQUIRE) > 1;
}

/*
 * Move pkt onto buf: a copy of its bytes from head to the end of the linear part at the same
 * offsets, and of its fragment list, each page with a new reference (pskb_expand_head). The
 * old buffer is the caller's to let go.
 */
static void pkt_rebase(struct nb_pkt *pkt, struct nb_pkt_buf *buf)
{
	u32 used = nb_pkt_headroom(pkt) + nb_pkt_headlen(pkt);
	ptrdiff_t delta = buf->data - pkt->head;

	memcpy(buf->data, pkt->head, used);
	if (pkt->data_len) {
		const struct nb_skb_shared_info *old = nb_pkt_shinfo(pkt);
		struct nb_skb_shared_info *sh = (void *)(buf->data + buf_end(buf));

		sh->nr_frags = old->nr_frags;
		memcpy(sh->frags, old->frags, old->nr_frags * sizeof(old->frags[0]));
		for (unsigned int i = 0; i < sh->nr_frags; i++)
			page_get(sh->frags[i].page);
	}
	pkt->buf = buf;
	pkt->head += delta;
	pkt->data += delta;
	pkt->end = buf_end(buf);
	nb_pkt_compute_data_pointers(pkt);
}

/* Let go of the buffer pkt left for a new one (its fragments keep the references pkt took). */
static void head_put(struct thread_caches *tc, struct nb_pkt_buf *old, bool was_cloned,
		     bool has_frags)
{
	if (!was_cloned || buf_put_last(old))
		head_release(tc, old, has_frags);
}

/*
 * Give pkt a private linear buffer of its own, big when need bytes from head do not fit a
 * page: the twin of pskb_expand_head, which the kernel calls to unshare a head or grow it.
 */
static int pkt_expand_head(struct nb_pkt *pkt, u32 need)
{
	struct thread_caches *tc = thread_caches();
	bool big = need > NB_PKT_BUF_SIZE - NB_PKT_TAILROOM;
	struct nb_pkt_buf *old = pkt->buf, *buf;

	if (need > NB_PKT_BIG_BUF_SIZE - NB_PKT_TAILROOM)
		return -ENOMEM;
	buf = buf_alloc(tc, big);
	if (unlikely(!buf))
		return -ENOMEM;
	pkt_rebase(pkt, buf);
	head_put(tc, old, pkt->cloned, pkt->data_len);
	pkt->cloned = 0;
	return 0;
}

struct nb_pkt *nb_pkt_copy(const struct nb_pkt *pkt)
{
	struct thread_caches *tc = thread_caches();
	struct nb_pkt *copy = desc_alloc(tc);
	struct nb_pkt_buf *buf;

	if (unlikely(!copy))
		return NULL;
	buf = buf_alloc(tc, pkt->buf->kind == NB_PKT_BUF_BIG);
	if (unlikely(!buf)) {
		desc_free(tc, copy);
		return NULL;
	}
	*copy = *pkt;
	copy->next = NULL;
	copy->cloned = 0;
	copy->sk = NULL;	/* a copy has no socket (skb_copy) */
	/* the fragments are shared, read-only, as pskb_copy shares them */
	if (unlikely(copy->tun_md))
		nb_tun_md_get(copy->tun_md);
	pkt_rebase(copy, buf);
	return copy;
}

int nb_pkt_unclone(struct nb_pkt *pkt)
{
	if (!nb_pkt_shared_data(pkt)) {
		pkt->cloned = 0;
		return 0;
	}
	return pkt_expand_head(pkt, pkt->end);
}

/* Drop the first n bytes of the fragments (the kernel's pull of frags in __pskb_pull_tail). */
static void frags_pull(struct thread_caches *tc, struct nb_pkt *pkt, u32 n)
{
	struct nb_skb_shared_info *sh = nb_pkt_shinfo(pkt);
	unsigned int k = 0;

	for (unsigned int i = 0; i < sh->nr_frags; i++) {
		struct nb_skb_frag *frag = &sh->frags[i];

		if (n >= frag->size) {
			n -= frag->size;
			page_put(tc, frag->page);
			continue;
		}
		frag->off += n;
		frag->size -= n;
		n = 0;
		sh->frags[k++] = *frag;
	}
	sh->nr_frags = (u8)k;
}

int nb_pkt_pull_tail(struct nb_pkt *pkt, u32 len)
{
	u32 headlen = nb_pkt_headlen(pkt), eat;
	int err;

	if (likely(len <= headlen))
		return 0;
	if (len > pkt->len)
		return -EINVAL;
	eat = len - headlen;
	/* the linear part grows: it must be ours, with room at its end */
	if (nb_pkt_shared_data(pkt) || nb_pkt_headroom(pkt) + len > pkt->end) {
		err = pkt_expand_head(pkt, max_t(u32, nb_pkt_headroom(pkt) + len, pkt->end));
		if (err)
			return err;
	}
	pkt->cloned = 0;
	nb_pkt_copy_bits(pkt, headlen, pkt->data + headlen, eat);
	frags_pull(thread_caches(), pkt, eat);
	pkt->data_len -= eat;
	nb_pkt_compute_data_pointers(pkt);
	return 0;
}

int nb_pkt_grow_tailroom(struct nb_pkt *pkt, u32 tailroom)
{
	int err;

	if (nb_pkt_is_nonlinear(pkt))
		return -EINVAL;
	err = nb_pkt_unclone(pkt);
	if (err || nb_pkt_tailroom(pkt) >= tailroom)
		return err;
	return pkt_expand_head(pkt, nb_pkt_headroom(pkt) + pkt->len + tailroom);
}

int nb_pkt_frags_make_private(struct nb_pkt *pkt)
{
	struct thread_caches *tc = thread_caches();
	struct nb_skb_shared_info *sh;
	int err;

	if (!pkt->data_len)
		return 0;
	err = nb_pkt_unclone(pkt);
	if (err)
		return err;
	sh = nb_pkt_shinfo(pkt);
	for (unsigned int i = 0; i < sh->nr_frags; i++) {
		struct nb_skb_frag *frag = &sh->frags[i];
		struct nb_pkt_buf *buf;

		if (!page_shared(frag->page))
			continue;
		buf = buf_alloc(tc, false);
		if (!buf)
			return -ENOMEM;
		memcpy(buf->data + frag->off, frag->page + frag->off, frag->size);
		page_put(tc, frag->page);
		frag->page = buf->data;
	}
	return 0;
}

void nb_pkt_trim(struct nb_pkt *pkt, u32 len)
{
	struct thread_caches *tc = thread_caches();
	u32 headlen = nb_pkt_headlen(pkt), keep;
	struct nb_skb_shared_info *sh;
	unsigned int i;

	if (len >= pkt->len)
		return;
	if (!pkt->data_len) {
		pkt->len = len;
		return;
	}
	/*
	 * The fragment list changes: a shared one is copied first. Without memory for the copy
	 * the packet keeps its own length and only its descriptor shrinks, as far as the linear
	 * part allows, which never happens for a packet no one cloned.
	 */
	if (nb_pkt_unclone(pkt)) {
		if (len < headlen) {
			pkt->len = len;
			pkt->data_len = 0;
		}
		return;
	}
	sh = nb_pkt_shinfo(pkt);
	keep = len > headlen ? len - headlen : 0;
	for (i = 0; i < sh->nr_frags && keep; i++) {
		if (sh->frags[i].size >= keep) {
			sh->frags[i].size = keep;
			keep = 0;
		} else {
			keep -= sh->frags[i].size;
		}
	}
	for (unsigned int k = i; k < sh->nr_frags; k++)
		page_put(tc, sh->frags[k].page);
	sh->nr_frags = (u8)i;
	pkt->len = len;
	pkt->data_len = len > headlen ? len - headlen : 0;
}

/*
 * Walk the bytes [off, off + len) of a packet piece by piece (the linear part, then each
 * fragment), calling fn on each piece with its position within the range. -EFAULT when the
 * packet does not hold them.
 */
static int pkt_walk(const struct nb_pkt *pkt, u32 off, u32 len,
		    void (*fn)(u8 *piece, u32 n, u32 pos, void *arg), void *arg)
{
	u32 headlen = nb_pkt_headlen(pkt), pos = 0;
	const struct nb_skb_shared_info *sh;

	if ((u64)off + len > pkt->len)
		return -EFAULT;
	if (off < headlen) {
		u32 n = min_t(u32, len, headlen - off);

		fn(pkt->data + off, n, 0, arg);
		pos = n;
		len -= n;
		off = headlen;
	}
	if (!len)
		return 0;
	off -= headlen;
	sh = nb_pkt_shinfo(pkt);
	for (unsigned int i = 0; i < sh->nr_frags && len; i++) {
		const struct nb_skb_frag *frag = &sh->frags[i];
		u32 n;

		if (off >= frag->size) {
			off -= frag->size;
			continue;
		}
		n = min_t(u32, len, frag->size - off);
		fn(frag->page + frag->off + off, n, pos, arg);
		pos += n;
		len -= n;
		off = 0;
	}
	return 0;
}

static void copy_out(u8 *piece, u32 n, u32 pos, void *arg)
{
	memcpy((u8 *)arg + pos, piece, n);
}

static void copy_in(u8 *piece, u32 n, u32 pos, void *arg)
{
	memcpy(piece, (const u8 *)arg + pos, n);
}

int nb_pkt_copy_bits(const struct nb_pkt *pkt, u32 off, void *to, u32 len)
{
	return pkt_walk(pkt, off, len, copy_out, to);
}

struct append_state {
	struct nb_pkt *to;
	int err;
};

static void append_piece(u8 *piece, u32 n, u32 pos, void *arg)
{
	struct append_state *st = arg;

	(void)pos;
	if (!st->err)
		st->err = nb_pkt_append(st->to, piece, n);
}

int nb_pkt_append_from(struct nb_pkt *to, const struct nb_pkt *from, u32 off, u32 len)
{
	struct append_state st = { .to = to };
	int err = pkt_walk(from, off, len, append_piece, &st);

	return err ? err : st.err;
}

void nb_pkt_copy_header(struct nb_pkt *to, const struct nb_pkt *from)
{
	struct nb_pkt keep = *to;
	int delta = (int)nb_pkt_headroom(to) - (int)nb_pkt_headroom(from);

	*to = *from;
	to->next = keep.next;
	to->buf = keep.buf;
	to->head = keep.head;
	to->data = keep.data;
	to->len = keep.len;
	to->data_len = keep.data_len;
	to->end = keep.end;
	to->cloned = keep.cloned;
	to->sk = keep.sk;	/* the socket is not part of the header (__copy_skb_header) */
	if (to->mac_header != NB_PKT_HDR_UNSET)
		to->mac_header = (u16)(to->mac_header + delta);
	if (to->network_header != NB_PKT_HDR_UNSET)
		to->network_header = (u16)(to->network_header + delta);
	if (to->transport_header != NB_PKT_HDR_UNSET)
		to->transport_header = (u16)(to->transport_header + delta);
	if (to->ip_summed == NB_CHECKSUM_PARTIAL)
		to->csum_start = (u16)(to->csum_start + delta);
	/* the tunnel key is shared: a reference for to, the one it had let go */
	if (unlikely(to->tun_md))
		nb_tun_md_get(to->tun_md);
	if (unlikely(keep.tun_md))
		nb_tun_md_put(keep.tun_md);
	nb_pkt_compute_data_pointers(to);
}

int nb_pkt_store_bits(struct nb_pkt *pkt, u32 off, const void *from, u32 len)
{
	return pkt_walk(pkt, off, len, copy_in, (void *)from);
}

/* csum_block_add: a piece at an odd position has its bytes in the other halves of the words. */
static void csum_piece(u8 *piece, u32 n, u32 pos, void *arg)
{
	u32 *sum = arg, part = nb_csum_partial(piece, n, 0);

	if (pos & 1)
		part = part >> 8 | part << 24;
	*sum = nb_csum_add(*sum, part);
}

u32 nb_pkt_checksum(const struct nb_pkt *pkt, u32 off, u32 len, u32 sum)
{
	pkt_walk(pkt, off, len, csum_piece, &sum);
	return sum;
}

bool nb_pkt_partial_csum_set(struct nb_pkt *pkt, u32 start, u32 off)
{
	u32 csum_end = start + off + sizeof(u16), csum_start = nb_pkt_headroom(pkt) + start;

	if (csum_start >= 0xffff || csum_end > nb_pkt_headlen(pkt))
		return false;
	pkt->ip_summed = NB_CHECKSUM_PARTIAL;
	pkt->csum_start = (u16)csum_start;
	pkt->csum_offset = (u16)off;
	pkt->transport_header = (u16)csum_start;
	return true;
}

int nb_pkt_checksum_help(struct nb_pkt *pkt)
{
	int start = nb_pkt_checksum_start_offset(pkt);
	u32 field;
	u16 csum;
	int err;

	if (pkt->ip_summed != NB_CHECKSUM_PARTIAL)
		return 0;
	if (start < 0 || (u32)start >= nb_pkt_headlen(pkt))
		return -EINVAL;
	field = (u32)start + pkt->csum_offset;
	if (field + sizeof(u16) > nb_pkt_headlen(pkt))
		return -EINVAL;
	err = nb_pkt_ensure_writable(pkt, field + sizeof(u16));
	if (err)
		return err;
	csum = nb_csum_fold(nb_pkt_checksum(pkt, (u32)start, pkt->len - (u32)start, 0));
	if (!csum)
		csum = 0xffff;	/* CSUM_MANGLED_0: 0 means "no checksum" to UDP */
	memcpy(pkt->data + field, &csum, sizeof(csum));
	pkt->ip_summed = NB_CHECKSUM_NONE;
	return 0;
}

int nb_pkt_make_writable(struct nb_pkt *pkt, u32 write_len)
{
	int err;

	if (write_len > pkt->len)
		return -ENOMEM;
	err = nb_pkt_may_pull(pkt, write_len);
	if (err)
		return err == -EINVAL ? -ENOMEM : err;
	return nb_pkt_unclone(pkt);
}

int nb_pkt_cow_head(struct nb_pkt *pkt, u32 headroom)
{
	u32 have, need, headlen = nb_pkt_headlen(pkt);
	int err = nb_pkt_unclone(pkt);

	if (err)
		return err;
	have = nb_pkt_headroom(pkt);
	if (have >= headroom)
		return 0;
	need = headroom - have;
	if (pkt->end - have - headlen < need) {
		/* no room to move within this buffer: a big one has it */
		if (pkt->buf->kind == NB_PKT_BUF_BIG)
			return -ENOMEM;
		err = pkt_expand_head(pkt, NB_PKT_BIG_BUF_SIZE - NB_PKT_TAILROOM);
		if (err)
			return err;
	}
	/*
	 * The whole used part of the buffer moves, headroom included, so that metadata and
	 * headers in front of data (a mac header at L3) move with it.
	 */
	memmove(pkt->head + need, pkt->head, have + headlen);
	pkt->data += need;
	if (pkt->mac_header != NB_PKT_HDR_UNSET)
		pkt->mac_header += need;
	if (pkt->network_header != NB_PKT_HDR_UNSET)
		pkt->network_header += need;
	if (pkt->transport_header != NB_PKT_HDR_UNSET)
		pkt->transport_header += need;
	if (pkt->ip_summed == NB_CHECKSUM_PARTIAL)
		pkt->csum_start += need;
	nb_pkt_compute_data_pointers(pkt);
	return 0;
}

int nb_pkt_vlan_insert_tag(struct nb_pkt *pkt, __be16 proto, u16 tci)
{
	__be16 ntci = htons(tci);
	int err;

	if (nb_pkt_headlen(pkt) < 2 * ETH_ALEN)
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

/*
 * Fragments of multi-buffer XDP frames: each one a whole data buffer of the pool, used from its
 * first byte (a page of the kernel's, offset 0), listed in the linear buffer's tailroom.
 */
int nb_xdp_frag_append(struct nb_xdp_buff *xdp, const void *data, u32 len)
{
	struct nb_skb_shared_info *sinfo = nb_xdp_get_shared_info(xdp);
	struct nb_skb_frag *frag;
	u8 *page;

	if (!nb_xdp_buff_has_frags(xdp)) {
		sinfo->nr_frags = 0;
		sinfo->xdp_frags_size = 0;
		xdp->flags |= NB_XDP_FLAGS_HAS_FRAGS;
	}
	if (len > NB_PKT_BUF_SIZE)
		return -EINVAL;
	if (sinfo->nr_frags == NB_XDP_MAX_FRAGS)
		return -ENOMEM;
	page = nb_pkt_frag_page_alloc();
	if (!page)
		return -ENOMEM;
	frag = &sinfo->frags[sinfo->nr_frags++];
	frag->page = page;
	frag->off = 0;
	frag->size = len;
	memcpy(frag->page, data, len);
	sinfo->xdp_frags_size += len;
	return 0;
}

void nb_xdp_frag_release(struct nb_skb_frag *frag)
{
	page_put(thread_caches(), frag->page);
	frag->page = NULL;
	frag->size = 0;
}

void nb_xdp_frags_free(struct nb_xdp_buff *xdp)
{
	struct nb_skb_shared_info *sinfo = nb_xdp_get_shared_info(xdp);

	if (!nb_xdp_buff_has_frags(xdp))
		return;
	for (unsigned int i = 0; i < sinfo->nr_frags; i++)
		nb_xdp_frag_release(&sinfo->frags[i]);
	sinfo->nr_frags = 0;
	sinfo->xdp_frags_size = 0;
	xdp->flags &= ~NB_XDP_FLAGS_HAS_FRAGS;
	if (xdp->pkt)
		xdp->pkt->data_len = 0;
}
