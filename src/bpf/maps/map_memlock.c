// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel would charge for a map (its map_mem_usage, bpftool's memlock): the map
 * type's struct, its preallocated slots and elements, and for the types that allocate as they
 * go, what their elements hold now. The figures are built of kernel struct sizes, read from the
 * running kernel's BTF (Linux 6.18's on x86-64 without it), and of the kernel's CPU count
 * (num_possible_cpus), not netbpf's workers: per-CPU storage is the kernel's, per possible CPU.
 */
#include <pthread.h>

#include <bpf/libbpf.h>

#include "bpf/map.h"
#include "bpf/vmlinux_btf.h"

#define KERNEL_PAGE_SIZE 4096ULL
/* Per-CPU lock counters of a hash map (HASHTAB_MAP_LOCK_COUNT ints per CPU). */
#define HTAB_MAP_LOCK_COUNT 8
/* struct llist_node: a non-preallocated element's free-list link (bpf_mem_alloc). */
#define LLIST_NODE_SIZE 8
/* offsetof(struct bpf_lpm_trie_key_u8, data): the prefix length before the data. */
#define LPM_KEY_PREFIXLEN_SIZE 4

enum kstruct {
	K_ARRAY, K_HTAB, K_HTAB_ELEM, K_HTAB_BUCKET, K_DTAB, K_DTAB_NETDEV, K_CPU_MAP, K_XSK_MAP,
	K_QUEUE_STACK, K_RINGBUF_MAP, K_RINGBUF, K_LPM_TRIE_NODE, K_STAB, K_SHTAB,
	K_SHTAB_BUCKET, K_REUSEPORT_ARRAY, K_LOCAL_STORAGE_MAP, K_LOCAL_STORAGE_BUCKET, K_COUNT
};

static struct {
	const char *name;
	u64 size;	/* Linux 6.18's on x86-64 until the kernel's BTF says otherwise */
} kstructs[K_COUNT] = {
	[K_ARRAY] = { "bpf_array", 312 },
	[K_HTAB] = { "bpf_htab", 896 },
	[K_HTAB_ELEM] = { "htab_elem", 48 },
	[K_HTAB_BUCKET] = { "bucket", 16 },
	[K_DTAB] = { "bpf_dtab", 344 },
	[K_DTAB_NETDEV] = { "bpf_dtab_netdev", 64 },
	[K_CPU_MAP] = { "bpf_cpu_map", 304 },
	[K_XSK_MAP] = { "xsk_map", 304 },
	[K_QUEUE_STACK] = { "bpf_queue_stack", 312 },
	[K_RINGBUF_MAP] = { "bpf_ringbuf_map", 304 },
	[K_RINGBUF] = { "bpf_ringbuf", 3 * KERNEL_PAGE_SIZE },
	[K_LPM_TRIE_NODE] = { "lpm_trie_node", 24 },
	[K_STAB] = { "bpf_stab", 376 },
	[K_SHTAB] = { "bpf_shtab", 384 },
	[K_SHTAB_BUCKET] = { "bpf_shtab_bucket", 16 },
	[K_REUSEPORT_ARRAY] = { "reuseport_array", 296 },
	[K_LOCAL_STORAGE_MAP] = { "bpf_local_storage_map", 480 },
	[K_LOCAL_STORAGE_BUCKET] = { "bpf_local_storage_map_bucket", 16 },
};

static pthread_once_t kstructs_once = PTHREAD_ONCE_INIT;
static u64 possible_cpus;

/* The sizes looked up once: each lookup walks the kernel's hundred thousand types. */
static void kstructs_read(void)
{
	int n = libbpf_num_possible_cpus();

	for (int i = 0; i < K_COUNT; i++)
		kstructs[i].size = nb_vmlinux_struct_size(kstructs[i].name, kstructs[i].size);
	possible_cpus = n > 0 ? (u64)n : nb_nr_cpus();
}

static u64 ksize(enum kstruct k)
{
	return kstructs[k].size;
}

static u64 round_up8(u64 v)
{
	return (v + 7) & ~7ULL;
}

static u64 page_align(u64 v)
{
	return (v + KERNEL_PAGE_SIZE - 1) & ~(KERNEL_PAGE_SIZE - 1);
}

static u64 pow2_roundup(u64 v)
{
	u64 p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static u64 elem_count(const struct nb_map *map)
{
	return map->ops->map_elem_count ? map->ops->map_elem_count(map) : 0;
}

/* Arrays, and the arrays of descriptors (programs, maps, perf events) whose slots hold pointers. */
static u64 array_usage(const struct nb_map *map)
{
	u64 elem = round_up8(map->value_size), n = map->max_entries, usage = ksize(K_ARRAY);

	if (map->map_type == BPF_MAP_TYPE_PERCPU_ARRAY)
		return usage + n * sizeof(void *) + n * elem * possible_cpus;
	if (map->map_flags & BPF_F_MMAPABLE)
		return page_align(usage) + page_align(n * elem);
	return usage + n * elem;
}

static u64 htab_usage(const struct nb_map *map)
{
	enum bpf_map_type t = map->map_type;
	bool percpu = t == BPF_MAP_TYPE_PERCPU_HASH || t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	bool lru = t == BPF_MAP_TYPE_LRU_HASH || t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	bool prealloc = !(map->map_flags & BPF_F_NO_PREALLOC);
	u64 value = round_up8(map->value_size), cpus = possible_cpus, n;
	u64 elem = ksize(K_HTAB_ELEM) + round_up8(map->key_size) +
		   (percpu ? sizeof(void *) : value);
	u64 usage = ksize(K_HTAB) + ksize(K_HTAB_BUCKET) * pow2_roundup(map->max_entries) +
		    sizeof(int) * cpus * HTAB_MAP_LOCK_COUNT;

	if (!prealloc) {
		n = elem_count(map);
		usage += (elem + LLIST_NODE_SIZE) * n;
		if (percpu)
			usage += (LLIST_NODE_SIZE + sizeof(void *)) * n + value * cpus * n;
		return usage;
	}
	n = map->max_entries;
	/* a spare element per CPU for updates in place, but not in per-CPU, LRU or fd maps */
	if (!percpu && !lru && t != BPF_MAP_TYPE_HASH_OF_MAPS)
		n += cpus;
	usage += elem * n;
	if (percpu)
		usage += value * cpus * n;
	else if (!lru)
		usage += sizeof(void *) * cpus;	/* the per-CPU pointers to those spares */
	return usage;
}

static u64 ringbuf_usage(const struct nb_map *map)
{
	/* the header pages: the struct ends where the data pages begin */
	u64 meta = ksize(K_RINGBUF) / KERNEL_PAGE_SIZE, data = map->max_entries / KERNEL_PAGE_SIZE;

	return ksize(K_RINGBUF_MAP) + (meta + data) * KERNEL_PAGE_SIZE +
	       (meta + 2 * data) * sizeof(void *);	/* the pages' array and its double map */
}

static u64 local_storage_usage(void)
{
	u64 buckets = pow2_roundup(possible_cpus);

	return ksize(K_LOCAL_STORAGE_MAP) +
	       ksize(K_LOCAL_STORAGE_BUCKET) * (buckets < 2 ? 2 : buckets);
}

u64 nb_map_memlock(const struct nb_map *map)
{
	u64 n = map->max_entries;

	pthread_once(&kstructs_once, kstructs_read);
	switch (map->map_type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		return array_usage(map);
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return htab_usage(map);
	case BPF_MAP_TYPE_DEVMAP:
		return ksize(K_DTAB) + n * sizeof(void *);
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return ksize(K_DTAB) + pow2_roundup(n) * sizeof(void *) +
		       elem_count(map) * ksize(K_DTAB_NETDEV);
	case BPF_MAP_TYPE_CPUMAP:
		return ksize(K_CPU_MAP) + n * sizeof(void *);
	case BPF_MAP_TYPE_XSKMAP:
		return ksize(K_XSK_MAP) + n * sizeof(void *);
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		return ksize(K_QUEUE_STACK) + (n + 1) * map->value_size;
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
		return ringbuf_usage(map);
	case BPF_MAP_TYPE_LPM_TRIE:
		/* the stored prefixes only, not the branch points between them */
		return (ksize(K_LPM_TRIE_NODE) + map->key_size - LPM_KEY_PREFIXLEN_SIZE +
			map->value_size) * elem_count(map);
	case BPF_MAP_TYPE_SOCKMAP:
		return ksize(K_STAB) + n * sizeof(void *);
	case BPF_MAP_TYPE_SOCKHASH:	/* netbpf's stays empty: no elements to count */
		return ksize(K_SHTAB) + pow2_roundup(n) * ksize(K_SHTAB_BUCKET);
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY:
		return ksize(K_REUSEPORT_ARRAY) + n * sizeof(void *);
	case BPF_MAP_TYPE_SK_STORAGE:
		return local_storage_usage();
	default:
		return 0;
	}
}
