// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel metadata objects: reference counted, kept on a free list so that tunnel traffic does
 * not call malloc per packet (a thread keeps a few at hand, the rest go back to the shared
 * list under its lock).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pkt/dst_metadata.h"

#define MD_CACHE 16

static pthread_mutex_t md_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_tun_md *md_free;
static long md_outstanding;

static __thread struct {
	struct nb_tun_md *list;
	unsigned int n;
	bool registered;
} md_cache;

static pthread_key_t md_key;
static pthread_once_t md_once = PTHREAD_ONCE_INIT;

/* A thread that ends gives its cached objects back to the shared list. */
static void md_cache_flush(void *arg)
{
	struct nb_tun_md *md = md_cache.list, *next;

	pthread_mutex_lock(&md_lock);
	for (; md; md = next) {
		next = md->next;
		md->next = md_free;
		md_free = md;
	}
	pthread_mutex_unlock(&md_lock);
	md_cache.list = NULL;
	md_cache.n = 0;
}

static void md_key_create(void)
{
	pthread_key_create(&md_key, md_cache_flush);
}

static void md_cache_register(void)
{
	if (likely(md_cache.registered))
		return;
	pthread_once(&md_once, md_key_create);
	pthread_setspecific(md_key, &md_cache);
	md_cache.registered = true;
}

struct nb_tun_md *nb_tun_md_alloc(void)
{
	struct nb_tun_md *md;

	md_cache_register();
	md = md_cache.list;

	if (md) {
		md_cache.list = md->next;
		md_cache.n--;
	} else {
		pthread_mutex_lock(&md_lock);
		md = md_free;
		if (md)
			md_free = md->next;
		pthread_mutex_unlock(&md_lock);
		if (!md)
			md = malloc(sizeof(*md));
		if (!md)
			return NULL;
	}
	__atomic_add_fetch(&md_outstanding, 1, __ATOMIC_RELAXED);
	memset(md, 0, offsetof(struct nb_tun_md, info.options));
	md->refcnt = 1;
	return md;
}

struct nb_tun_md *nb_tun_md_get(struct nb_tun_md *md)
{
	__atomic_add_fetch(&md->refcnt, 1, __ATOMIC_RELAXED);
	return md;
}

void nb_tun_md_put(struct nb_tun_md *md)
{
	if (!md || __atomic_sub_fetch(&md->refcnt, 1, __ATOMIC_ACQ_REL))
		return;
	__atomic_sub_fetch(&md_outstanding, 1, __ATOMIC_RELAXED);
	md_cache_register();
	if (md_cache.n < MD_CACHE) {
		md->next = md_cache.list;
		md_cache.list = md;
		md_cache.n++;
		return;
	}
	pthread_mutex_lock(&md_lock);
	md->next = md_free;
	md_free = md;
	pthread_mutex_unlock(&md_lock);
}

long nb_tun_md_outstanding(void)
{
	return __atomic_load_n(&md_outstanding, __ATOMIC_RELAXED);
}

void nb_pkt_tun_drop(struct nb_pkt *pkt)
{
	nb_tun_md_put(pkt->tun_md);
	pkt->tun_md = NULL;
}
