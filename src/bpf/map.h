/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct nb_map and struct nb_map_ops, the twins of the kernel's bpf_map and bpf_map_ops. Each
 * map type is one file under maps/ with one ops table; the generic code never switches on the
 * map type.
 */
#ifndef NB_BPF_MAP_H
#define NB_BPF_MAP_H

#include <netbpf/map.h>
#include <netbpf/percpu.h>

#include "common/register.h"
#include "common/types.h"
#include "bpf/helper_proto.h"

struct nb_map;
struct nb_prog;

struct nb_map_ops {
	enum bpf_map_type type;
	const char *name;		/* bpftool's name: "hash", "prog_array", ... */
	bool percpu;			/* userspace values hold one per worker */
	/*
	 * Programs may read what a lookup returns but never write it, whatever the map's flags
	 * (xskmap: the kernel's PTR_TO_XDP_SOCK).
	 */
	bool prog_rdonly;
	/*
	 * The kernel objects the elements are (sockets, cgroups) where netbpf has none: the map
	 * is created and stays empty, and updates fail (nb_map_absent_objects). NULL: a real map.
	 */
	const char *absent_objects;
	/* Check attributes before allocation; the message names the bad attribute. */
	int (*map_alloc_check)(const struct nb_map *attr, struct nb_log *log);
	/*
	 * Allocate a map; the type embeds struct nb_map and copies attr's generic fields into it.
	 * Returns 0 or a negative errno with the reason in log.
	 */
	int (*map_alloc)(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log);
	void (*map_free)(struct nb_map *map);

	/*
	 * Program side: lock-free, any worker. For prog_array and the map-in-map types,
	 * map_lookup_elem returns the slot holding the inner pointer (tail calls read it); the
	 * verifier never lets a program call it on them directly.
	 */
	void *(*map_lookup_elem)(struct nb_map *map, const void *key);
	/* Per-CPU types: the value of worker cpu (bpf_map_lookup_percpu_elem), NULL past them. */
	void *(*map_lookup_percpu_elem)(struct nb_map *map, const void *key, u32 cpu);
	long (*map_update_elem)(struct nb_map *map, const void *key, const void *value, u64 flags);
	long (*map_delete_elem)(struct nb_map *map, const void *key);
	long (*map_push_elem)(struct nb_map *map, const void *value, u64 flags);
	long (*map_pop_elem)(struct nb_map *map, void *value);
	long (*map_peek_elem)(struct nb_map *map, void *value);
	long (*map_for_each_callback)(struct nb_map *map, void *callback_fn, void *callback_ctx,
				      u64 flags);
	/*
	 * bpf_redirect_map on this map (devmap, devmap_hash, later cpumap and xskmap): record the
	 * target of index in the worker's redirect info and return the XDP verdict.
	 */
	long (*map_redirect)(struct nb_map *map, u64 index, u64 flags);

	/* Userspace side (bpf(2) syscall twins); per-CPU maps copy every worker's value. */
	int (*map_get_next_key)(struct nb_map *map, const void *key, void *next_key);
	int (*map_lookup_elem_sys)(struct nb_map *map, const void *key, void *value);
	int (*map_update_elem_sys)(struct nb_map *map, const void *key, const void *value,
				   u64 flags);
	int (*map_lookup_and_delete_elem_sys)(struct nb_map *map, const void *key, void *value);

	/*
	 * The kernel's map_gen_lookup: the instructions that replace a verified program's
	 * bpf_map_lookup_elem(r1 = this map, r2 = key) with r0 = value or NULL, clobbering at
	 * most r1..r5 as the call did. At most NB_MAP_GEN_LOOKUP_MAX of them; a call among them
	 * has src_reg NB_CALL_FIXED and calls *fn (the fixup fills in its imm). Returns the count,
	 * 0 to keep the helper call.
	 */
	u32 (*map_gen_lookup)(const struct nb_map *map, struct bpf_insn *buf, nb_helper_fn *fn);

	/* Address of the value at off for BPF_PSEUDO_MAP_VALUE (array maps: global data). */
	int (*map_direct_value_addr)(const struct nb_map *map, u64 *addr, u32 off);
	/* The last user reference is gone (bpf_map_put_uref): prog arrays drop their programs. */
	void (*map_release_uref)(struct nb_map *map);
	/*
	 * Cancel and free the special fields of every value (nb_map_free_fields): at the last
	 * user reference and at the map's end, as the kernel's map_release_uref frees timers.
	 */
	void (*map_release_fields)(struct nb_map *map);
	/*
	 * The elements held now, for the types whose memory grows with them (hashes without
	 * preallocation, LPM tries, devmap_hash): what the kernel's map_mem_usage counts.
	 */
	u32 (*map_elem_count)(const struct nb_map *map);
	/* Check an inner map template against this outer map type. */
	bool (*map_meta_equal)(const struct nb_map *meta0, const struct nb_map *meta1);
};

struct nb_map {
	const struct nb_map_ops *ops;
	u32 id;
	int refcnt;
	int usercnt;			/* objects and pins holding it (map->usercnt) */
	enum bpf_map_type map_type;
	u32 key_size;
	u32 value_size;			/* one value; per-CPU maps hold one per worker */
	u32 max_entries;
	u32 map_flags;
	u32 numa_node;
	char name[BPF_OBJ_NAME_LEN];
	struct nb_map *inner_map_meta;	/* map-in-map template */
	bool frozen;			/* .rodata after load: no more userspace writes */
	/*
	 * prog_array, devmap, devmap_hash, cpumap: what every program in it, and every program
	 * that loads using it, must share (the kernel's map->owner), one word so that the first
	 * claim sets it all at once: 0 (no owner yet) or map_prog_owner.c's encoding.
	 */
	u32 prog_owner;
	/*
	 * Fields of the value with rules of their own (the kernel's btf_record, map_fields.c),
	 * their offsets; -1: none.
	 */
	s32 spin_lock_off;		/* struct bpf_spin_lock */
	s32 timer_off;			/* struct bpf_timer */
	/*
	 * The kernel's map->btf and the key's and value's types: map dump's typed form. btf is
	 * btf_obj's parse, which the map holds a reference on.
	 */
	struct nb_btf *btf_obj;
	struct btf *btf;
	u32 btf_key_type_id;
	u32 btf_value_type_id;
	/*
	 * The kernel struct of the map's type (struct bpf_array, ...) as the running kernel lays
	 * it out, with what netbpf knows of the map filled in (map_kstruct.c): what a program
	 * reads through a map pointer. NULL until a verified program reads it.
	 */
	void *kstruct;
};

#define NB_MAP_GEN_LOOKUP_MAX 16

struct nb_btf;

/*
 * map_kstruct.c: the name of the kernel struct behind a map of this type (its ops' map_btf_id:
 * "bpf_array", "bpf_htab", ...), NULL when the kernel has none.
 */
const char *nb_map_kstruct_name(enum bpf_map_type type);
/*
 * Lays out map->kstruct as struct type_id of btf (the kernel's BTF) with the map's attributes
 * in their fields; once per map, later calls keep the first. 0 or -ENOMEM / -EINVAL.
 */
int nb_map_kstruct_init(struct nb_map *map, const struct nb_btf *btf, u32 type_id);
/*
 * Lays out map->kstruct as the kernel's BTF (vmlinux_btf.c) lays out the struct of its type:
 * the struct's size in bytes, -ENOENT when there is no BTF or the kernel has no such struct,
 * -ENOMEM.
 */
int nb_map_kstruct_layout(struct nb_map *map);
/*
 * An inner map put into a map of maps whose template programs read through (meta has an
 * image) gets its own, so that those programs read its attributes. 0 or -ENOMEM.
 */
int nb_map_kstruct_follow(struct nb_map *inner, const struct nb_map *meta);
/*
 * The inner maps already in the map of maps outer get their images as nb_map_kstruct_follow
 * gives one put in later, for a template that got its image after they were put in (the first
 * program reading through it loaded after outer was filled). 0 or -ENOMEM.
 */
int nb_map_kstruct_follow_inner_maps(struct nb_map *outer);

struct btf;

/*
 * map_fields.c: the special fields of the value type value_type_id of btf (0: untyped), set in
 * map; -E2BIG for two of a kind, -EOPNOTSUPP for a map type that cannot hold one.
 */
int nb_map_fields_parse(struct nb_map *map, const struct btf *btf, u32 value_type_id,
			struct nb_log *log);
bool nb_map_has_fields(const struct nb_map *map);
/* The kernel's copy_map_value: one value from src to dst, the special fields left as they are. */
void nb_map_copy_value(const struct nb_map *map, void *dst, const void *src);
/* The kernel's check_and_init_map_value: the special fields of a value zeroed. */
void nb_map_zero_fields(const struct nb_map *map, void *value);
/*
 * The kernel's bpf_obj_free_fields: the value's timer is cancelled and freed, when the value is
 * overwritten or deleted or the map ends.
 */
void nb_map_free_fields(const struct nb_map *map, void *value);
/* Whether bytes first..last of a value touch a special field; *name: its struct's name. */
bool nb_map_overlaps_field(const struct nb_map *map, s64 first, s64 last, const char **name);
/* spin_lock.c: a copy into or out of the value under its bpf_spin_lock (BPF_F_LOCK). */
void nb_map_copy_value_locked(const struct nb_map *map, void *dst, const void *src,
			      bool lock_src);

/*
 * map_prog_owner.c: the owner of a map that holds programs (the kernel's struct bpf_map_owner):
 * program arrays, devmaps, devmap hashes and cpumaps. nb_map_type_contains_progs (the kernel's
 * map_type_contains_progs) tells the types a loading program claims: not devmap hashes, which
 * only their entries' programs claim. nb_map_prog_owner is prog's owner word (type, JIT state,
 * xdp_has_frags, expected attach type); nb_map_claim_prog_owner makes prog map's owner when map
 * has none (one compare-and-swap), for a program stored in map (stored) or one that uses it,
 * and returns 0 when prog matches the owner, -EINVAL when not, the owner then in *owner when
 * owner is not NULL (the kernel's __bpf_prog_map_compatible). The attach type counts for
 * program arrays only, and the engine only among the programs stored in a program array.
 * nb_map_prog_owner_str describes an owner word.
 */
bool nb_map_type_contains_progs(enum bpf_map_type type);
u32 nb_map_prog_owner(const struct nb_prog *prog);
int nb_map_claim_prog_owner(struct nb_map *map, const struct nb_prog *prog, bool stored,
			    u32 *owner);
void nb_map_prog_owner_str(u32 owner, char *buf, size_t size);

/* 0, or -EEXIST when the type has ops already, -EINVAL when it is beyond the table. */
int nb_map_type_register(const struct nb_map_ops *ops);
const struct nb_map_ops *nb_map_type_ops(enum bpf_map_type type);

#define NB_MAP_TYPE_REGISTER(ops)                                                           \
	NB_REGISTER_AT_LOAD(ops, nb_map_type_register(&ops), "map type", ops.name)

/* For BPF_PSEUDO_MAP_VALUE ldimm64: the address off bytes into the map's value area. */
int nb_map_direct_value_addr(const struct nb_map *map, u32 off, u64 *addr);

/*
 * Checks shared by the types' map_alloc_check, each with the kernel's errno and a message that
 * names the map and the attribute: flags outside allowed, RDONLY_PROG with WRONLY_PROG.
 */
int nb_map_check_flags(const struct nb_map *attr, u32 allowed, struct nb_log *log);
/* key_size, value_size and max_entries must be exactly / at least what the type needs. */
int nb_map_check_key_size(const struct nb_map *attr, u32 key_size, struct nb_log *log);
int nb_map_check_value_size(const struct nb_map *attr, u32 value_size, struct nb_log *log);
int nb_map_check_nonzero(const struct nb_map *attr, struct nb_log *log);
/* The kernel's bpf_map_meta_equal: an inner map matches its outer map's template. */
bool nb_map_meta_equal(const struct nb_map *meta0, const struct nb_map *meta1);
/* Copy attr's generic fields into a newly allocated map. */
void nb_map_init_from_attr(struct nb_map *map, const struct nb_map *attr);

/* Bytes of a per-CPU value slot: value_size rounded up to 8, as the kernel lays them out. */
static inline u32 nb_map_percpu_slot(const struct nb_map *map)
{
	return (map->value_size + 7) & ~7U;
}

/* Flags a map carries for programs (the verifier enforces them). */
static inline bool nb_map_prog_rdonly(const struct nb_map *map)
{
	return map->map_flags & BPF_F_RDONLY_PROG;
}

static inline bool nb_map_prog_wronly(const struct nb_map *map)
{
	return map->map_flags & BPF_F_WRONLY_PROG;
}

/* The kernel's access flag mask (BPF_F_ACCESS_MASK is not uapi). */
#define NB_MAP_F_ACCESS_MASK (BPF_F_RDONLY | BPF_F_RDONLY_PROG | BPF_F_WRONLY | BPF_F_WRONLY_PROG)

#endif /* NB_BPF_MAP_H */
