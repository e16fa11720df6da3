/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Objects: the clang-compiled ELF files that tc, ip and libbpf load, in libbpf's shape. Open parses
 * the file (programs, their linked instructions, map definitions, global data); load creates the
 * maps, loads the programs and fills program arrays and maps of maps; close releases everything.
 *
 *	struct nb_object *obj;
 *	nb_object_open_file("prog.o", NULL, &obj);
 *	nb_object_set_rodata(obj, "debug", &one, sizeof(one));
 *	nb_object_load(obj, NULL);
 *	prog = nb_object_find_prog(obj, "classifier", NULL);
 *	...
 *	nb_object_close(obj);
 *
 * Every call returns a negative errno on failure and leaves a line in the log naming the file,
 * section, symbol or relocation at fault.
 */
#ifndef NETBPF_OBJECT_H
#define NETBPF_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>

#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_object;
struct nb_object_prog;	/* libbpf's struct bpf_program */
struct nb_object_map;	/* libbpf's struct bpf_map */
struct nb_prog;
struct nb_map;

struct nb_object_open_opts {
	size_t sz; /* sizeof(struct nb_object_open_opts) */
	/* Name used in messages and listings; default: the file name without directories. */
	const char *name;
	struct nb_log *log;
};

int nb_object_open_file(const char *path, const struct nb_object_open_opts *opts,
			struct nb_object **objp);
/* The buffer is copied: the caller may free it after the call. */
int nb_object_open_mem(const void *buf, size_t size, const struct nb_object_open_opts *opts,
		       struct nb_object **objp);

/* A map sized at load, as its tool does ("--max-entries NAME=N"). */
struct nb_object_map_size {
	const char *name;
	__u32 max_entries;
};

struct nb_object_load_opts {
	size_t sz; /* sizeof(struct nb_object_load_opts) */
	/*
	 * Load every program as this type, as iproute2 does with the type its command gives
	 * (BPF_PROG_TYPE_UNSPEC: the type guessed from each section name).
	 */
	enum bpf_prog_type prog_type;
	unsigned int prog_flags;	/* enum nb_prog_load_flags, for every program */
	bool maps_only;			/* create and fill the maps, load no program */
	/*
	 * Load only the programs of this section and iproute2's "ID/KEY" tail-call sections, as
	 * `tc filter ... bpf obj OBJ sec SECTION` does (NULL: every program).
	 */
	const char *section;
	struct nb_log *log;
	/*
	 * Maps to size before they are created, by name (nb_object_map_set_max_entries for each):
	 * the objects whose tool sizes some maps (max_entries 0 in the file: xdp-bench's per-CPU
	 * counters, the samples' xdp_router_ipv4) need it. A name no map has is an error.
	 */
	const struct nb_object_map_size *map_sizes;
	unsigned int map_size_cnt;
};

int nb_object_load(struct nb_object *obj, const struct nb_object_load_opts *opts);
void nb_object_close(struct nb_object *obj);

const char *nb_object_name(const struct nb_object *obj);
const char *nb_object_license(const struct nb_object *obj);
bool nb_object_loaded(const struct nb_object *obj);

/*
 * Set a global variable of .rodata, .data or .bss before load: size must be the variable's.
 * const volatile variables in .rodata become constants for the programs, as with libbpf's
 * skeletons. -ENOENT when no such variable, -EBUSY after load.
 */
int nb_object_set_rodata(struct nb_object *obj, const char *name, const void *value, size_t size);
/* Size of a global variable in bytes, or -ENOENT. */
int nb_object_var_size(const struct nb_object *obj, const char *name);

/* Programs: one per global function of an executable section. */
struct nb_object_prog *nb_object_next_prog(const struct nb_object *obj,
					   const struct nb_object_prog *prev);
#define nb_object_for_each_prog(pos, obj)                                                   \
	for ((pos) = nb_object_next_prog((obj), NULL); (pos);                                \
	     (pos) = nb_object_next_prog((obj), (pos)))
/* Match by section and/or function name; NULL for either matches any. */
struct nb_object_prog *nb_object_find_prog(const struct nb_object *obj, const char *section,
					   const char *name);

const char *nb_object_prog_name(const struct nb_object_prog *prog);
const char *nb_object_prog_section(const struct nb_object_prog *prog);
/* The type guessed from the section name (or set), BPF_PROG_TYPE_UNSPEC when unknown. */
enum bpf_prog_type nb_object_prog_type(const struct nb_object_prog *prog);
int nb_object_prog_set_type(struct nb_object_prog *prog, enum bpf_prog_type type);
enum bpf_attach_type nb_object_prog_expected_attach_type(const struct nb_object_prog *prog);
/*
 * Whether load loads the program: true, but false for libbpf's optional sections (SEC("?tc"),
 * whose programs load only when chosen) until set.
 */
bool nb_object_prog_autoload(const struct nb_object_prog *prog);
void nb_object_prog_set_autoload(struct nb_object_prog *prog, bool autoload);
/*
 * Whether the object itself puts the program into a program array at load: iproute2's
 * "ID/KEY" sections and the `values` initialisers of .maps program arrays. A program loaded
 * alone (autoload) tail-calls these only if they are loaded beside it.
 */
bool nb_object_prog_tail_call_target(const struct nb_object_prog *prog);
/*
 * Instructions after linking: the function, then every subprogram it calls; map references are
 * BPF_PSEUDO_MAP_IDX / BPF_PSEUDO_MAP_IDX_VALUE indexes into nb_object_map_array's order.
 */
const struct bpf_insn *nb_object_prog_insns(const struct nb_object_prog *prog, unsigned int *cnt);
/* The loaded program (the object keeps the reference), or NULL before load. */
struct nb_prog *nb_object_prog_prog(const struct nb_object_prog *prog);

/* Maps: .maps, maps, then one per global data section. */
struct nb_object_map *nb_object_next_map(const struct nb_object *obj,
					 const struct nb_object_map *prev);
#define nb_object_for_each_map(pos, obj)                                                    \
	for ((pos) = nb_object_next_map((obj), NULL); (pos);                                 \
	     (pos) = nb_object_next_map((obj), (pos)))
struct nb_object_map *nb_object_find_map(const struct nb_object *obj, const char *name);
unsigned int nb_object_map_cnt(const struct nb_object *obj);

const char *nb_object_map_name(const struct nb_object_map *map);
enum bpf_map_type nb_object_map_type(const struct nb_object_map *map);
__u32 nb_object_map_key_size(const struct nb_object_map *map);
__u32 nb_object_map_value_size(const struct nb_object_map *map);
__u32 nb_object_map_max_entries(const struct nb_object_map *map);
__u32 nb_object_map_flags(const struct nb_object_map *map);
/*
 * Size a map before load (libbpf's bpf_map__set_max_entries), as the tools that leave
 * max_entries 0 in the object do: loading such a map without a size fails and says so.
 * -EBUSY after load, -EINVAL for 0 or a local-storage map (the kernel sizes those).
 */
int nb_object_map_set_max_entries(struct nb_object_map *map, __u32 max_entries);
/*
 * A map of maps' inner map template: a `values` definition of .maps (never created alone), or
 * the legacy map named by iproute2's inner_id or the samples' inner_map_idx. NULL otherwise.
 */
const struct nb_object_map *nb_object_map_inner(const struct nb_object_map *map);
/* 0: none; else the path under which the map is shared (nb_pin_get_map). */
const char *nb_object_map_pin_path(const struct nb_object_map *map);
/* The created map (the object keeps the reference), or NULL before load. */
struct nb_map *nb_object_map_map(const struct nb_object_map *map);

/*
 * The pin registry, the in-process twin of bpffs: maps with pinning set in their definition
 * (iproute2's PIN_GLOBAL_NS and PIN_OBJECT_NS, libbpf's LIBBPF_PIN_BY_NAME) are shared by path
 * between the objects loaded into one process. "tc/globals/NAME" is the path of
 * PIN_GLOBAL_NS and of LIBBPF_PIN_BY_NAME, as with iproute2; PIN_OBJECT_NS maps live under
 * "tc/OBJECT-HASH/NAME". The registry holds a reference until unpinned.
 */
int nb_pin_map(const char *path, struct nb_map *map);	/* -EEXIST when taken */
struct nb_map *nb_pin_get_map(const char *path);		/* new reference, or NULL */
/* The path map is pinned at (the first, when several): 0, -ENOENT, -ENAMETOOLONG. */
int nb_pin_get_path(const struct nb_map *map, char *buf, size_t size);
int nb_unpin(const char *path);					/* -ENOENT when not pinned */
void nb_unpin_all(void);

/*
 * tc's "obj FILE sec SECTION" (iproute2's bpf_load_common): open file, load it as type with
 * section's program first (the load's section option, so iproute2's "ID/KEY" tail-call sections
 * load with it) and take a reference to that program into *progp. The object is closed: its
 * programs keep their maps, and pinned maps stay in the pin registry (a tail-call table outlives
 * the object). sizes size the maps the object leaves to its tool. -ENOENT names a section
 * without a program.
 */
int nb_object_load_section(const char *file, const char *section, enum bpf_prog_type type,
			   const struct nb_object_map_size *sizes, unsigned int size_cnt,
			   struct nb_prog **progp, struct nb_log *log);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_OBJECT_H */
