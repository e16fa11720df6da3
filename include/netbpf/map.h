/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Maps: the userspace side of BPF maps (bpf(BPF_MAP_*) twins). Maps are named by id, as the
 * kernel's are by fd; a program holds a reference on each map it uses.
 */
#ifndef NETBPF_MAP_H
#define NETBPF_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>

#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_map;
struct nb_btf;
struct btf;

struct nb_map_create_opts {
	size_t sz; /* sizeof(struct nb_map_create_opts) */
	const char *name;
	__u32 map_flags;	/* BPF_F_NO_PREALLOC, BPF_F_RDONLY_PROG, ... */
	__u32 numa_node;
	struct nb_map *inner_map; /* template for array_of_maps / hash_of_maps */
	struct nb_log *log;
	/*
	 * The value's BTF type (libbpf's struct btf, the kernel's btf_value_type_id): its
	 * struct bpf_spin_lock and struct bpf_timer get their rules. NULL or 0: untyped bytes.
	 */
	const struct btf *btf;
	__u32 btf_value_type_id;
	/*
	 * The key's BTF type (btf_key_type_id; 0: none, as for global data). With btf, the map
	 * keeps a copy of it and both types, as the kernel keeps map->btf, for the BTF-typed form
	 * of map dump; map types the kernel gives no BTF (program and device arrays, map-in-map,
	 * queues, ring buffers, ...) keep none.
	 */
	__u32 btf_key_type_id;
	/*
	 * The BTF object (nb_btf_load, the kernel's btf_fd) btf is the parse of: the map takes a
	 * reference on it and shows its id (nb_map_btf_id), the id its object's programs show.
	 * NULL: the map makes a BTF object of its own of btf, with an id of its own.
	 */
	struct nb_btf *btf_object;
};

int nb_map_create(enum bpf_map_type type, __u32 key_size, __u32 value_size, __u32 max_entries,
		  const struct nb_map_create_opts *opts, struct nb_map **mapp);
/* The BTF the map keeps and its key and value types (0: none), or NULL. */
const struct btf *nb_map_btf(const struct nb_map *map, __u32 *key_type_id, __u32 *value_type_id);
/* The id of the BTF object the map keeps (nb_btf_id), 0 without one: map show's btf_id. */
__u32 nb_map_btf_id(const struct nb_map *map);
struct nb_map *nb_map_get(struct nb_map *map);
void nb_map_put(struct nb_map *map);
/*
 * BPF_MAP_FREEZE: userspace may no longer write the map (programs still may, unless the map is
 * BPF_F_RDONLY_PROG). -EPERM when already frozen or BPF_F_RDONLY, as the kernel's.
 */
int nb_map_freeze(struct nb_map *map);
/*
 * User references, the kernel's map->usercnt: what the kernel counts as open fds and pins, here
 * the objects that loaded the map and the pin registry. nb_map_get_uref takes a reference and a
 * user reference; when nb_map_put_uref drops the last user reference, nb_map_release_uref runs:
 * a program array empties its slots, which breaks the reference cycle between a program array
 * and the programs that tail-call through it. Programs hold plain references (nb_map_get).
 */
struct nb_map *nb_map_get_uref(struct nb_map *map);
void nb_map_put_uref(struct nb_map *map);
void nb_map_release_uref(struct nb_map *map);
/* A new reference on the map with this id, or NULL. */
struct nb_map *nb_map_get_by_id(__u32 id);
/* The next map id above start_id (0: the first), as BPF_MAP_GET_NEXT_ID; -ENOENT: none. */
int nb_map_get_next_id(__u32 start_id, __u32 *next_id);

__u32 nb_map_id(const struct nb_map *map);
const char *nb_map_name(const struct nb_map *map);
enum bpf_map_type nb_map_type(const struct nb_map *map);
__u32 nb_map_key_size(const struct nb_map *map);
/* Bytes of one value as userspace sees it: per-CPU maps hold one per worker. */
__u32 nb_map_value_size(const struct nb_map *map);
__u32 nb_map_max_entries(const struct nb_map *map);
/* Bytes a lookup writes: value_size, or nb_nr_cpus() slots of value_size rounded up to 8. */
__u32 nb_map_user_value_size(const struct nb_map *map);
__u32 nb_map_flags(const struct nb_map *map);
/*
 * What the kernel would charge for a map like it on this machine (its map_mem_usage, bpftool's
 * memlock): the type's kernel struct, its slots, its elements, per-CPU parts per possible CPU.
 */
__u64 nb_map_memlock(const struct nb_map *map);
/* Whether nb_map_freeze froze the map (.rodata once its object loaded). */
bool nb_map_frozen(const struct nb_map *map);
/*
 * The owner of a program array, devmap, devmap hash or cpumap (the kernel's fdinfo
 * owner_prog_type and owner_jited): 0 with the program type and JIT state of the first program
 * that used the map or was stored in it (of the first store, once one fixed the JIT state of a
 * program array), -ENOENT when none has yet or the map holds no programs.
 */
int nb_map_owner(const struct nb_map *map, enum bpf_prog_type *type, bool *jited);

/*
 * The bpf(2) commands, with the kernel's errors. Values of per-CPU maps are nb_nr_cpus() values,
 * each value_size rounded up to 8 bytes. Queue and stack maps take a NULL key: update pushes,
 * lookup peeks, lookup_and_delete pops. Program arrays take and return program ids, map-in-map
 * types map ids (the kernel's fds). A NULL key to get_next_key yields the first key.
 */
int nb_map_lookup_elem(struct nb_map *map, const void *key, void *value);
/*
 * flags BPF_F_LOCK (lookup and update): the value is copied under its struct bpf_spin_lock, for
 * maps whose BTF value type has one (-EINVAL otherwise). Copies out show the lock zero; copies
 * in leave it as it is.
 */
int nb_map_lookup_elem_flags(struct nb_map *map, const void *key, void *value, __u64 flags);
int nb_map_update_elem(struct nb_map *map, const void *key, const void *value, __u64 flags);
int nb_map_delete_elem(struct nb_map *map, const void *key);
int nb_map_get_next_key(struct nb_map *map, const void *key, void *next_key);
int nb_map_lookup_and_delete_elem(struct nb_map *map, const void *key, void *value);
/*
 * BPF_MAP_LOOKUP_BATCH: up to *count elements after the key in_batch (NULL: from the start),
 * keys and values packed one after another; out_batch (key_size bytes) receives where the next
 * call goes on. *count becomes the number found; -ENOENT when the walk reached the end.
 */
int nb_map_lookup_batch(struct nb_map *map, const void *in_batch, void *out_batch, void *keys,
			void *values, __u32 *count);
/* BPF_MAP_UPDATE_BATCH: *count elements; *count becomes the number written before an error. */
int nb_map_update_batch(struct nb_map *map, const void *keys, const void *values, __u32 *count,
			__u64 elem_flags);
/*
 * For maps of kernel objects netbpf does not have (sockmap, sockhash, reuseport_sockarray,
 * sk_storage, cgroup_array, cgroup_storage): "sockets" or "cgroups", the objects an update
 * would need and netbpf lacks; NULL for every other map. Such maps stay empty.
 */
const char *nb_map_absent_objects(const struct nb_map *map);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_MAP_H */
