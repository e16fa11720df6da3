/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hash table core shared by hash, percpu_hash, lru_hash, lru_percpu_hash and hash_of_maps:
 * the twin of kernel/bpf/hashtab.c.
 */
#ifndef NB_BPF_MAPS_HASHTAB_H
#define NB_BPF_MAPS_HASHTAB_H

#include <pthread.h>

#include "bpf/map.h"
#include "bpf/epoch.h"

struct nb_htab;

struct htab_elem {
	struct htab_elem *next;		/* bucket chain: readers follow it without locks */
	union {
		struct nb_epoch_head rcu;	/* unlinked, waiting for its grace period */
		struct htab_elem *free_next;	/* on the pool's free list */
	};
	struct htab_elem *lru_prev, *lru_next;	/* LRU maps: newest at lru_first */
	struct nb_htab *htab;
	u32 hash;
	u8 ref;				/* LRU: used since the last eviction scan */
	u8 pooled;			/* from the preallocated pool, returns to it */
	char key[] __attribute__((aligned(8)));	/* key, padded to 8, then the value(s) */
};

struct nb_htab {
	struct nb_map map;
	struct htab_elem **buckets;
	u32 n_buckets;
	u32 hashrnd;
	u32 count;			/* live elements, under lock */
	u32 elem_size;
	u32 value_size;			/* bytes of one value as stored (hash_of_maps: a pointer) */
	u32 value_off;			/* key_size rounded up to 8 */
	bool lru;
	bool prealloc;
	pthread_mutex_t lock;		/* writers; readers take no lock */
	/* Preallocated pool: bump allocation, then a free list of recycled elements. */
	u8 *pool;
	u32 pool_cap, pool_used;
	struct htab_elem *free_list;
	pthread_mutex_t free_lock;
	/* The map's storage lives until the map is freed and no element waits for its grace. */
	long storage_refs;
	struct htab_elem *lru_first, *lru_last;
	/* hash_of_maps: drop what a value holds when its element is finally freed. */
	void (*value_release)(void *value);
};

int nb_htab_map_alloc_check(const struct nb_map *attr, struct nb_log *log);
int nb_htab_map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log);
void nb_htab_map_free(struct nb_map *map);
u32 nb_htab_map_elem_count(const struct nb_map *map);
/* The element's value for this worker (per-CPU maps) or the value. */
struct htab_elem *nb_htab_lookup(struct nb_htab *htab, const void *key);
void *nb_htab_value(const struct nb_htab *htab, struct htab_elem *l, unsigned int cpu);
/* map_gen_lookup for every hash type; slot: the value holds the inner map (hash_of_maps). */
u32 nb_htab_gen_lookup(const struct nb_map *map, struct bpf_insn *buf, nb_helper_fn *fn,
		       bool slot);
long nb_htab_update(struct nb_htab *htab, const void *key, const void *value, u64 flags,
		    bool onallcpus);
long nb_htab_map_delete_elem(struct nb_map *map, const void *key);
int nb_htab_map_get_next_key(struct nb_map *map, const void *key, void *next_key);

#endif /* NB_BPF_MAPS_HASHTAB_H */
