// SPDX-License-Identifier: GPL-2.0
/*
 * Hash maps, the twin of kernel/bpf/hashtab.c: BPF_MAP_TYPE_HASH, PERCPU_HASH, LRU_HASH and
 * LRU_PERCPU_HASH. Buckets are singly linked chains that programs walk without locks; writers
 * serialise on the map's lock, publish a new element at the head of its bucket before unlinking
 * the one it replaces (so a concurrent lookup always finds one of them), and hand unlinked
 * elements to the epoch reclaimer so that no reader ever touches freed memory. As in the kernel,
 * keys hash with jhash and a random seed (0 with BPF_F_ZERO_SEED), buckets are a power of two,
 * and get_next_key walks buckets in order and each chain from its head.
 *
 * Preallocated maps (the default) take elements from a pool sized at creation, so programs never
 * call malloc; an element returns to the pool after its grace period. LRU maps evict the least
 * recently used element (second chance over a list ordered by insertion) when full.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <netbpf/clock.h>

#include "bpf/maps/hashtab.h"
#include "bpf/maps/jhash.h"
#include "bpf/maps/gen_lookup.h"
#include "bpf/callback.h"

#define HTAB_CREATE_FLAG_MASK                                                               \
	(BPF_F_NO_PREALLOC | BPF_F_NO_COMMON_LRU | BPF_F_NUMA_NODE | NB_MAP_F_ACCESS_MASK |  \
	 BPF_F_ZERO_SEED)
#define NB_PCPU_MIN_UNIT_SIZE (32 * 1024)
/* The largest element the kernel's allocator gives (KMALLOC_MAX_SIZE on x86-64). */
#define NB_KMALLOC_MAX_SIZE (1U << 22)

static inline struct nb_htab *to_htab(const struct nb_map *map)
{
	return container_of(map, struct nb_htab, map);
}

static inline bool htab_is_percpu(const struct nb_htab *htab)
{
	return htab->map.ops->percpu;
}

int nb_htab_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	bool percpu = attr->ops->percpu;
	bool lru = attr->map_type == BPF_MAP_TYPE_LRU_HASH ||
		   attr->map_type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	bool prealloc = !(attr->map_flags & BPF_F_NO_PREALLOC);
	int err;

	err = nb_map_check_flags(attr, HTAB_CREATE_FLAG_MASK, log);
	if (err)
		return err;
	if (!lru && (attr->map_flags & BPF_F_NO_COMMON_LRU)) {
		nb_log_printf(log, "map %s: BPF_F_NO_COMMON_LRU is for LRU maps only\n",
			      attr->name);
		return -EINVAL;
	}
	if (lru && !prealloc) {
		nb_log_printf(log, "map %s: LRU maps are always preallocated: "
			      "BPF_F_NO_PREALLOC is not supported\n", attr->name);
		return -EOPNOTSUPP;
	}
	if ((attr->map_flags & BPF_F_NUMA_NODE) &&
	    (percpu || (attr->map_flags & BPF_F_NO_COMMON_LRU))) {
		nb_log_printf(log, "map %s: per-CPU maps take no NUMA node\n", attr->name);
		return -EINVAL;
	}
	err = nb_map_check_nonzero(attr, log);
	if (err)
		return err;
	if ((u64)attr->key_size + attr->value_size >=
	    NB_KMALLOC_MAX_SIZE - sizeof(struct htab_elem)) {
		nb_log_printf(log, "map %s: key_size + value_size %llu too large\n", attr->name,
			      (unsigned long long)attr->key_size + attr->value_size);
		return -E2BIG;
	}
	if (percpu && ((attr->value_size + 7) & ~7U) > NB_PCPU_MIN_UNIT_SIZE) {
		nb_log_printf(log, "map %s: per-CPU value_size %u above the limit of %u\n",
			      attr->name, attr->value_size, NB_PCPU_MIN_UNIT_SIZE);
		return -E2BIG;
	}
	return 0;
}

static u32 roundup_pow_of_two(u32 n)
{
	u32 p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

int nb_htab_map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	struct nb_htab *htab;
	u32 value_bytes;
	u64 pool_bytes;

	if (attr->max_entries > 1U << 31) {
		nb_log_printf(log, "map %s: max_entries %u above the limit of %u\n", attr->name,
			      attr->max_entries, 1U << 31);
		return -E2BIG;
	}
	htab = calloc(1, sizeof(*htab));
	if (!htab)
		return -ENOMEM;
	nb_map_init_from_attr(&htab->map, attr);
	if (attr->map_flags & BPF_F_NO_COMMON_LRU) {
		/* Per-CPU LRU lists split max_entries evenly: the kernel rounds it up. */
		u32 nr = nb_nr_cpus(), rounded = (attr->max_entries + nr - 1) / nr * nr;

		htab->map.max_entries = rounded >= attr->max_entries ? rounded
					: attr->max_entries / nr * nr;
	}
	htab->lru = attr->map_type == BPF_MAP_TYPE_LRU_HASH ||
		    attr->map_type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	htab->prealloc = !(attr->map_flags & BPF_F_NO_PREALLOC);
	htab->value_off = (attr->key_size + 7) & ~7U;
	htab->value_size = attr->value_size;
	value_bytes = attr->ops->percpu ? nb_map_percpu_slot(attr) * nb_nr_cpus()
					: (attr->value_size + 7) & ~7U;
	htab->elem_size = sizeof(struct htab_elem) + htab->value_off + value_bytes;
	htab->n_buckets = roundup_pow_of_two(htab->map.max_entries);
	htab->storage_refs = 1;
	/* the deterministic mode's seeded stream makes the walk order replay too */
	if (!(attr->map_flags & BPF_F_ZERO_SEED) && nb_deterministic_enabled())
		htab->hashrnd = nb_prandom_u32();
	else if (!(attr->map_flags & BPF_F_ZERO_SEED) &&
		 getrandom(&htab->hashrnd, sizeof(htab->hashrnd), 0) != sizeof(htab->hashrnd))
		htab->hashrnd = (u32)(uintptr_t)htab ^ 0x9e3779b9U;
	pthread_mutex_init(&htab->lock, NULL);
	pthread_mutex_init(&htab->free_lock, NULL);
	/* Memory is only touched as elements are used: a large map costs address space. */
	htab->buckets = calloc(htab->n_buckets, sizeof(*htab->buckets));
	if (!htab->buckets)
		goto nomem;
	if (htab->prealloc) {
		/*
		 * Room beyond max_entries for replaced elements waiting for their grace period
		 * (a worker frees its own only after its next quiescent point).
		 */
		htab->pool_cap = htab->map.max_entries + max_t(u32, 64 * nb_nr_cpus(), 512);
		pool_bytes = (u64)htab->pool_cap * htab->elem_size;
		htab->pool = pool_bytes < (1ULL << 40) ? malloc(pool_bytes) : NULL;
		if (!htab->pool)
			goto nomem;
	}
	*mapp = &htab->map;
	return 0;
nomem:
	nb_log_printf(log, "map %s: out of memory for %u entries of %u bytes\n", attr->name,
		      attr->max_entries, htab->elem_size);
	free(htab->buckets);
	free(htab);
	return -ENOMEM;
}

static void htab_storage_put(struct nb_htab *htab)
{
	if (__atomic_sub_fetch(&htab->storage_refs, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_mutex_destroy(&htab->lock);
	pthread_mutex_destroy(&htab->free_lock);
	free(htab->pool);
	free(htab->buckets);
	free(htab);
}

static void elem_release(struct htab_elem *l)
{
	struct nb_htab *htab = l->htab;

	if (htab->value_release)
		htab->value_release(l->key + htab->value_off);
	if (l->pooled) {
		pthread_mutex_lock(&htab->free_lock);
		l->free_next = htab->free_list;
		htab->free_list = l;
		pthread_mutex_unlock(&htab->free_lock);
	} else {
		free(l);
	}
}

static void elem_free_rcu(struct nb_epoch_head *head)
{
	struct htab_elem *l = container_of(head, struct htab_elem, rcu);
	struct nb_htab *htab = l->htab;

	elem_release(l);
	htab_storage_put(htab);
}

/* The element is unlinked: free it once no reader can hold it. */
static void elem_retire(struct nb_htab *htab, struct htab_elem *l)
{
	__atomic_add_fetch(&htab->storage_refs, 1, __ATOMIC_RELAXED);
	nb_epoch_call(&l->rcu, elem_free_rcu);
}

void nb_htab_map_free(struct nb_map *map)
{
	struct nb_htab *htab = to_htab(map);

	/* No program holds the map any more: free the live elements now. */
	for (u32 i = 0; i < htab->n_buckets; i++) {
		struct htab_elem *l = htab->buckets[i], *next;

		for (; l; l = next) {
			next = l->next;
			if (htab->value_release)
				htab->value_release(l->key + htab->value_off);
			if (!l->pooled)
				free(l);
		}
	}
	htab_storage_put(htab);
}

/*
 * Inlined into every lookup: a call per hash showed in profiles of the JIT'd programs. With len
 * a constant the compiler unrolls jhash2 to the few rounds a 4- or 8-byte key needs.
 */
static __always_inline u32 htab_hash_len(const struct nb_htab *htab, const void *key, u32 len)
{
	if (likely(len % 4 == 0))
		return nb_jhash2(key, len / 4, htab->hashrnd);
	return nb_jhash(key, len, htab->hashrnd);
}

static __always_inline u32 htab_hash(const struct nb_htab *htab, const void *key)
{
	return htab_hash_len(htab, key, htab->map.key_size);
}

static inline struct htab_elem **htab_bucket(const struct nb_htab *htab, u32 hash)
{
	return &htab->buckets[hash & (htab->n_buckets - 1)];
}

static inline struct htab_elem *elem_first(struct htab_elem *const *pp)
{
	return __atomic_load_n(pp, __ATOMIC_ACQUIRE);
}

/*
 * Every lookup compares keys: the common small sizes (an IPv4 address, a port pair, an address
 * and a port, an IPv6 address or an IPv4 flow's addresses, ports and protocol) as plain loads
 * instead of a call to memcmp. memcpy keeps the loads unaligned-safe.
 */
static __always_inline bool key_equal(const void *a, const void *b, u32 key_size)
{
	u32 a4, b4;
	u64 a8, b8, a16[2], b16[2];

	switch (key_size) {
	case 4:
		memcpy(&a4, a, 4);
		memcpy(&b4, b, 4);
		return a4 == b4;
	case 8:
		memcpy(&a8, a, 8);
		memcpy(&b8, b, 8);
		return a8 == b8;
	case 16:
		memcpy(a16, a, 16);
		memcpy(b16, b, 16);
		return ((a16[0] ^ b16[0]) | (a16[1] ^ b16[1])) == 0;
	default:
		return !memcmp(a, b, key_size);
	}
}

static __always_inline struct htab_elem *lookup_raw(struct htab_elem *const *bucket, u32 hash,
						    const void *key, u32 key_size)
{
	for (struct htab_elem *l = elem_first(bucket); l; l = elem_first(&l->next))
		if (l->hash == hash && key_equal(l->key, key, key_size))
			return l;
	return NULL;
}

/* The element for key; key_size a constant where the caller specialises. */
static __always_inline struct htab_elem *htab_lookup_sized(const struct nb_htab *htab,
							    const void *key, u32 key_size)
{
	u32 hash = htab_hash_len(htab, key, key_size);

	return lookup_raw(htab_bucket(htab, hash), hash, key, key_size);
}

/*
 * Keys of 4, 8 and 16 bytes (an address, a port pair, an address and a port, an IPv6 address or
 * an IPv4 flow) get their own code.
 */
struct htab_elem *nb_htab_lookup(struct nb_htab *htab, const void *key)
{
	switch (htab->map.key_size) {
	case 4:
		return htab_lookup_sized(htab, key, 4);
	case 8:
		return htab_lookup_sized(htab, key, 8);
	case 16:
		return htab_lookup_sized(htab, key, 16);
	default:
		return htab_lookup_sized(htab, key, htab->map.key_size);
	}
}

/*
 * The twins of the kernel's __htab_map_lookup_elem, which the in-line lookups call: the element
 * or NULL, one function per specialised key size, in the helpers' calling convention.
 */
#define HTAB_LOOKUP_ELEM_SIZED(size)                                                          \
	static u64 htab_lookup_elem_##size(u64 map, u64 key, u64 r3, u64 r4, u64 r5)          \
	{                                                                                     \
		return (u64)(uintptr_t)htab_lookup_sized(to_htab((void *)(uintptr_t)map),     \
							 (const void *)(uintptr_t)key, size); \
	}                                                                                     \
	NB_INTERNAL_FUNC(htab_lookup_elem_##size, "__htab_map_lookup_elem_" #size)

HTAB_LOOKUP_ELEM_SIZED(4)
HTAB_LOOKUP_ELEM_SIZED(8)
HTAB_LOOKUP_ELEM_SIZED(16)

static u64 htab_lookup_elem(u64 map, u64 key, u64 r3, u64 r4, u64 r5)
{
	struct nb_htab *htab = to_htab((void *)(uintptr_t)map);

	return (u64)(uintptr_t)htab_lookup_sized(htab, (const void *)(uintptr_t)key,
						 htab->map.key_size);
}
NB_INTERNAL_FUNC(htab_lookup_elem, "__htab_map_lookup_elem")

/*
 * The lookup in line (the kernel's htab_*_map_gen_lookup): call the element lookup, and on a
 * hit mark LRU elements used, step to the value, to this worker's value in per-CPU maps, and
 * through the value to the inner map in hash_of_maps. Key and value sizes come from the map in
 * r1's template, which every inner map matches.
 */
u32 nb_htab_gen_lookup(const struct nb_map *map, struct bpf_insn *buf, nb_helper_fn *fn,
		       bool slot)
{
	const struct nb_htab *htab = to_htab(map);
	bool percpu = htab_is_percpu(htab);
	s32 value_off = (s32)(offsetof(struct htab_elem, key) + htab->value_off);
	struct bpf_insn *insn = buf, *miss;

	if (percpu && nb_map_percpu_slot(map) * (u64)nb_nr_cpus() > INT32_MAX)
		return 0;
	*fn = map->key_size == 4 ? htab_lookup_elem_4
	      : map->key_size == 8 ? htab_lookup_elem_8
	      : map->key_size == 16 ? htab_lookup_elem_16 : htab_lookup_elem;
	*insn++ = gen_call_fixed();
	miss = insn++;
	if (htab->lru) {
		/* Used since the last scan: the relaxed hint htab_lru_map_lookup_elem sets. */
		*insn++ = gen_ldx_b(BPF_REG_1, BPF_REG_0, offsetof(struct htab_elem, ref));
		*insn++ = gen_jmp_imm(BPF_JNE, BPF_REG_1, 0, 1);
		*insn++ = gen_st_b(BPF_REG_0, offsetof(struct htab_elem, ref), 1);
	}
	*insn++ = gen_alu64_imm(BPF_ADD, BPF_REG_0, value_off);
	if (percpu) {
		*insn++ = gen_this_cpu(BPF_REG_1);
		*insn++ = gen_mul_const(BPF_REG_1, nb_map_percpu_slot(map));
		*insn++ = gen_alu64_reg(BPF_ADD, BPF_REG_0, BPF_REG_1);
	}
	if (slot)
		*insn++ = gen_ldx_dw(BPF_REG_0, BPF_REG_0, 0);
	*miss = gen_jmp_imm(BPF_JEQ, BPF_REG_0, 0, insn - miss - 1);
	return insn - buf;
}

static u32 htab_map_gen_lookup(const struct nb_map *map, struct bpf_insn *buf, nb_helper_fn *fn)
{
	return nb_htab_gen_lookup(map, buf, fn, false);
}

void *nb_htab_value(const struct nb_htab *htab, struct htab_elem *l, unsigned int cpu)
{
	return l->key + htab->value_off + (htab_is_percpu(htab) ? cpu * nb_map_percpu_slot(&htab->map)
								 : 0);
}

static void *htab_map_lookup_elem(struct nb_map *map, const void *key)
{
	struct htab_elem *l = nb_htab_lookup(to_htab(map), key);

	return l ? l->key + to_htab(map)->value_off : NULL;
}

static void *htab_percpu_map_lookup_elem(struct nb_map *map, const void *key)
{
	struct nb_htab *htab = to_htab(map);
	struct htab_elem *l = nb_htab_lookup(htab, key);

	return l ? nb_htab_value(htab, l, nb_this_cpu()) : NULL;
}

static void *htab_percpu_map_lookup_percpu_elem(struct nb_map *map, const void *key, u32 cpu)
{
	struct nb_htab *htab = to_htab(map);
	struct htab_elem *l;

	if (cpu >= nb_nr_cpus())
		return NULL;
	l = nb_htab_lookup(htab, key);
	if (!l)
		return NULL;
	/* an LRU element is marked used, as by a lookup on this worker */
	if (htab->map.map_type == BPF_MAP_TYPE_LRU_PERCPU_HASH &&
	    !__atomic_load_n(&l->ref, __ATOMIC_RELAXED))
		__atomic_store_n(&l->ref, 1, __ATOMIC_RELAXED);
	return nb_htab_value(htab, l, cpu);
}

/* Programs' lookups mark LRU elements used; userspace lookups do not (as in the kernel). */
static void *htab_lru_map_lookup_elem(struct nb_map *map, const void *key)
{
	struct nb_htab *htab = to_htab(map);
	struct htab_elem *l = nb_htab_lookup(htab, key);

	if (!l)
		return NULL;
	/* A hint, racing by design with the eviction scan: relaxed atomics, no ordering. */
	if (!__atomic_load_n(&l->ref, __ATOMIC_RELAXED))
		__atomic_store_n(&l->ref, 1, __ATOMIC_RELAXED);
	return nb_htab_value(htab, l, nb_this_cpu());
}

/* LRU list, under htab->lock. */
static void lru_unlink(struct nb_htab *htab, struct htab_elem *l)
{
	if (l->lru_prev)
		l->lru_prev->lru_next = l->lru_next;
	else
		htab->lru_first = l->lru_next;
	if (l->lru_next)
		l->lru_next->lru_prev = l->lru_prev;
	else
		htab->lru_last = l->lru_prev;
	l->lru_prev = l->lru_next = NULL;
}

static void lru_push_front(struct nb_htab *htab, struct htab_elem *l)
{
	l->lru_prev = NULL;
	l->lru_next = htab->lru_first;
	if (htab->lru_first)
		htab->lru_first->lru_prev = l;
	else
		htab->lru_last = l;
	htab->lru_first = l;
}

/* Unlink l from its bucket chain, under htab->lock; readers on l can still follow l->next. */
static void bucket_unlink(struct nb_htab *htab, struct htab_elem *l)
{
	struct htab_elem **pp = htab_bucket(htab, l->hash);

	while (*pp != l)
		pp = &(*pp)->next;
	__atomic_store_n(pp, l->next, __ATOMIC_RELEASE);
}

/* Remove a live element under htab->lock and retire it. */
static void elem_remove(struct nb_htab *htab, struct htab_elem *l)
{
	/* Its timer goes with it (free_htab_elem's bpf_obj_free_fields). */
	if (unlikely(htab->map.timer_off >= 0))
		nb_map_free_fields(&htab->map, l->key + htab->value_off);
	bucket_unlink(htab, l);
	if (htab->lru)
		lru_unlink(htab, l);
	htab->count--;
	elem_retire(htab, l);
}

/*
 * The least recently used element goes, under htab->lock: the oldest element not used since
 * the last scan; used ones lose their mark and move to the front (second chance).
 */
static void lru_evict_one(struct nb_htab *htab)
{
	for (u32 scanned = 0; htab->lru_last; scanned++) {
		struct htab_elem *l = htab->lru_last;

		if (__atomic_load_n(&l->ref, __ATOMIC_RELAXED) && scanned < 2 * htab->count) {
			__atomic_store_n(&l->ref, 0, __ATOMIC_RELAXED);
			lru_unlink(htab, l);
			lru_push_front(htab, l);
			continue;
		}
		elem_remove(htab, l);
		return;
	}
}

static struct htab_elem *pool_pop(struct nb_htab *htab)
{
	struct htab_elem *l = NULL;

	pthread_mutex_lock(&htab->free_lock);
	if (htab->free_list) {
		l = htab->free_list;
		htab->free_list = l->free_next;
	} else if (htab->pool_used < htab->pool_cap) {
		l = (struct htab_elem *)(htab->pool + (u64)htab->pool_used++ * htab->elem_size);
		l->pooled = 1;
	}
	pthread_mutex_unlock(&htab->free_lock);
	return l;
}

/* Under htab->lock. Never fails for lack of pool while the map is below max_entries. */
static struct htab_elem *elem_alloc(struct nb_htab *htab)
{
	struct htab_elem *l;

	if (htab->prealloc) {
		l = pool_pop(htab);
		if (!l && nb_epoch_pending() && nb_epoch_reclaim())
			l = pool_pop(htab);
		if (l)
			goto init;
	}
	/* Elements still waiting for their grace period: fall back to the allocator. */
	l = malloc(htab->elem_size);
	if (!l)
		return NULL;
	l->pooled = 0;
init:
	l->htab = htab;
	l->ref = 0;
	l->lru_prev = l->lru_next = NULL;
	return l;
}

static void copy_value(struct nb_htab *htab, struct htab_elem *l, const void *value,
		       bool onallcpus, bool fresh)
{
	u32 slot = nb_map_percpu_slot(&htab->map);
	unsigned int nr = nb_nr_cpus();

	if (!htab_is_percpu(htab)) {
		memcpy(l->key + htab->value_off, value, htab->value_size);
		/* A new element's lock and timer start zero, whatever the value passed. */
		if (nb_map_has_fields(&htab->map))
			nb_map_zero_fields(&htab->map, l->key + htab->value_off);
		return;
	}
	if (onallcpus) {
		/* Whole 8-byte slots, padding included, as the kernel's bpf_long_memcpy does. */
		memcpy(l->key + htab->value_off, value, (size_t)slot * nr);
		return;
	}
	/* A program's update sets its worker's value; a new element starts at 0 elsewhere. */
	if (fresh)
		memset(l->key + htab->value_off, 0, (size_t)slot * nr);
	memcpy(nb_htab_value(htab, l, nb_this_cpu()), value, htab->map.value_size);
}

long nb_htab_update(struct nb_htab *htab, const void *key, const void *value, u64 flags,
		    bool onallcpus)
{
	u32 hash = htab_hash(htab, key);
	struct htab_elem **bucket = htab_bucket(htab, hash);
	struct htab_elem *old, *l;
	long ret = 0;

	if (unlikely((flags & ~(u64)BPF_F_LOCK) > BPF_EXIST))
		return -EINVAL;
	if (unlikely((flags & BPF_F_LOCK) && htab->map.spin_lock_off < 0))
		return -EINVAL;
	pthread_mutex_lock(&htab->lock);
	old = lookup_raw(bucket, hash, key, htab->map.key_size);
	if (old && (flags & ~(u64)BPF_F_LOCK) == BPF_NOEXIST) {
		ret = -EEXIST;
		goto out;
	}
	if (!old && (flags & ~(u64)BPF_F_LOCK) == BPF_EXIST) {
		ret = -ENOENT;
		goto out;
	}
	/* BPF_F_LOCK updates an existing value in place, under its lock. */
	if (old && (flags & BPF_F_LOCK)) {
		nb_map_copy_value_locked(&htab->map, old->key + htab->value_off, value, false);
		goto out;
	}
	if (old && htab_is_percpu(htab)) {
		/* Per-CPU values are updated in place, as the kernel does. */
		copy_value(htab, old, value, onallcpus, false);
		if (htab->lru)
			__atomic_store_n(&old->ref, 1, __ATOMIC_RELAXED);
		goto out;
	}
	if (!old && htab->count >= htab->map.max_entries) {
		if (!htab->lru) {
			ret = -E2BIG;
			goto out;
		}
		lru_evict_one(htab);
	}
	l = elem_alloc(htab);
	if (!l) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(l->key, key, htab->map.key_size);
	l->hash = hash;
	copy_value(htab, l, value, onallcpus, true);
	/* Publish the new element before the old one goes: lookups always find one. */
	l->next = *bucket;
	__atomic_store_n(bucket, l, __ATOMIC_RELEASE);
	if (htab->lru)
		lru_push_front(htab, l);
	htab->count++;
	if (old)
		elem_remove(htab, old);
out:
	pthread_mutex_unlock(&htab->lock);
	return ret;
}

static long htab_map_update_elem(struct nb_map *map, const void *key, const void *value,
				 u64 flags)
{
	return nb_htab_update(to_htab(map), key, value, flags, false);
}

static int htab_map_update_elem_sys(struct nb_map *map, const void *key, const void *value,
				    u64 flags)
{
	return (int)nb_htab_update(to_htab(map), key, value, flags, true);
}

long nb_htab_map_delete_elem(struct nb_map *map, const void *key)
{
	struct nb_htab *htab = to_htab(map);
	struct htab_elem *l;
	long ret = 0;

	pthread_mutex_lock(&htab->lock);
	l = nb_htab_lookup(htab, key);
	if (l)
		elem_remove(htab, l);
	else
		ret = -ENOENT;
	pthread_mutex_unlock(&htab->lock);
	return ret;
}

static void copy_value_out(struct nb_htab *htab, struct htab_elem *l, void *value)
{
	u32 slot = nb_map_percpu_slot(&htab->map);

	if (!htab_is_percpu(htab)) {
		memcpy(value, l->key + htab->value_off, htab->value_size);
		return;
	}
	memcpy(value, l->key + htab->value_off, (size_t)slot * nb_nr_cpus());
}

static int htab_map_lookup_elem_sys(struct nb_map *map, const void *key, void *value)
{
	struct nb_htab *htab = to_htab(map);
	struct htab_elem *l = nb_htab_lookup(htab, key);

	if (!l)
		return -ENOENT;
	copy_value_out(htab, l, value);
	return 0;
}

static int htab_map_lookup_and_delete_elem_sys(struct nb_map *map, const void *key, void *value)
{
	struct nb_htab *htab = to_htab(map);
	struct htab_elem *l;
	int ret = 0;

	pthread_mutex_lock(&htab->lock);
	l = nb_htab_lookup(htab, key);
	if (l) {
		copy_value_out(htab, l, value);
		elem_remove(htab, l);
	} else {
		ret = -ENOENT;
	}
	pthread_mutex_unlock(&htab->lock);
	return ret;
}

int nb_htab_map_get_next_key(struct nb_map *map, const void *key, void *next_key)
{
	struct nb_htab *htab = to_htab(map);
	struct htab_elem *l, *next;
	u32 i = 0, hash;

	if (key) {
		hash = htab_hash(htab, key);
		l = lookup_raw(htab_bucket(htab, hash), hash, key, map->key_size);
		if (l) {
			/* The next element of the same chain, else the next non-empty bucket. */
			next = elem_first(&l->next);
			if (next) {
				memcpy(next_key, next->key, map->key_size);
				return 0;
			}
			i = (hash & (htab->n_buckets - 1)) + 1;
		}
	}
	for (; i < htab->n_buckets; i++) {
		next = elem_first(&htab->buckets[i]);
		if (next) {
			memcpy(next_key, next->key, map->key_size);
			return 0;
		}
	}
	return -ENOENT;
}

static long htab_map_for_each_callback(struct nb_map *map, void *callback_fn, void *callback_ctx,
				       u64 flags)
{
	struct nb_htab *htab = to_htab(map);
	unsigned int cpu = nb_this_cpu();
	long n = 0;

	if (flags)
		return -EINVAL;
	for (u32 i = 0; i < htab->n_buckets; i++) {
		/* The callback may delete the element: its next pointer stays valid. */
		for (struct htab_elem *l = elem_first(&htab->buckets[i]); l;
		     l = elem_first(&l->next)) {
			n++;
			if (nb_callback_run(callback_fn, (u64)(uintptr_t)map,
					    (u64)(uintptr_t)l->key,
					    (u64)(uintptr_t)nb_htab_value(htab, l, cpu),
					    (u64)(uintptr_t)callback_ctx, 0))
				return n;
		}
	}
	return n;
}

/* Every element's timer goes (the kernel's htab_free_malloced_timers_and_wq). */
static void htab_map_release_fields(struct nb_map *map)
{
	struct nb_htab *htab = to_htab(map);

	pthread_mutex_lock(&htab->lock);
	for (u32 i = 0; i < htab->n_buckets; i++)
		for (struct htab_elem *l = htab->buckets[i]; l; l = l->next)
			nb_map_free_fields(map, l->key + htab->value_off);
	pthread_mutex_unlock(&htab->lock);
}

u32 nb_htab_map_elem_count(const struct nb_map *map)
{
	return __atomic_load_n(&to_htab(map)->count, __ATOMIC_RELAXED);
}

#define HTAB_OPS(ops_name, map_type, type_name, is_percpu, lookup)                         \
	static const struct nb_map_ops ops_name = {                                        \
		.type = map_type,                                                          \
		.name = type_name,                                                         \
		.percpu = is_percpu,                                                       \
		.map_alloc_check = nb_htab_map_alloc_check,                                \
		.map_alloc = nb_htab_map_alloc,                                            \
		.map_free = nb_htab_map_free,                                              \
		.map_lookup_elem = lookup,                                                 \
		.map_lookup_percpu_elem = is_percpu ? htab_percpu_map_lookup_percpu_elem : NULL, \
		.map_gen_lookup = htab_map_gen_lookup,                                     \
		.map_update_elem = htab_map_update_elem,                                   \
		.map_delete_elem = nb_htab_map_delete_elem,                                \
		.map_for_each_callback = htab_map_for_each_callback,                       \
		.map_get_next_key = nb_htab_map_get_next_key,                              \
		.map_lookup_elem_sys = htab_map_lookup_elem_sys,                           \
		.map_update_elem_sys = htab_map_update_elem_sys,                           \
		.map_lookup_and_delete_elem_sys = htab_map_lookup_and_delete_elem_sys,     \
		.map_meta_equal = nb_map_meta_equal,                                       \
		.map_release_fields = htab_map_release_fields,                             \
		.map_elem_count = nb_htab_map_elem_count,                                  \
	};                                                                                 \
	NB_MAP_TYPE_REGISTER(ops_name)

HTAB_OPS(htab_map_ops, BPF_MAP_TYPE_HASH, "hash", false, htab_map_lookup_elem)
HTAB_OPS(htab_percpu_map_ops, BPF_MAP_TYPE_PERCPU_HASH, "percpu_hash", true,
	 htab_percpu_map_lookup_elem)
HTAB_OPS(htab_lru_map_ops, BPF_MAP_TYPE_LRU_HASH, "lru_hash", false, htab_lru_map_lookup_elem)
HTAB_OPS(htab_lru_percpu_map_ops, BPF_MAP_TYPE_LRU_PERCPU_HASH, "lru_percpu_hash", true,
	 htab_lru_map_lookup_elem)
