/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The object loader's inside, shared by its files: elf.c reads the ELF file into sections and
 * symbols, legacy_maps.c and btf_maps.c parse map definitions, data_maps.c turns global data into
 * maps, reloc.c links each program, object.c loads, pinning.c shares maps by path.
 */
#ifndef NB_BPF_OBJECT_H
#define NB_BPF_OBJECT_H

#include <gelf.h>
#include <netbpf/object.h>

#include "common/types.h"

struct btf;
struct nb_btf;
struct nb_btf_ext;

enum nb_sec_kind {
	NB_SEC_OTHER = 0,
	NB_SEC_PROG,		/* executable, not .text: holds programs */
	NB_SEC_TEXT,		/* .text: subprograms */
	NB_SEC_LEGACY_MAPS,	/* maps, maps/NAME: struct bpf_map_def / struct bpf_elf_map */
	NB_SEC_BTF_MAPS,	/* .maps */
	NB_SEC_DATA,		/* .rodata*, .data*, .bss* */
	NB_SEC_LICENSE,
};

struct nb_elf_reloc {
	u64 offset;		/* bytes into the section it applies to */
	u32 sym;		/* index into obj->syms */
	u32 type;		/* R_BPF_* */
	u32 index;		/* entry number in its relocation section, for messages */
};

struct nb_elf_sec {
	const char *name;
	u32 idx;
	GElf_Shdr shdr;
	const u8 *data;		/* NULL for SHT_NOBITS */
	size_t size;
	enum nb_sec_kind kind;
	const char *rel_name;	/* its relocation section, for messages */
	struct nb_elf_reloc *relocs; /* sorted by offset */
	u32 reloc_cnt;
	int data_map;		/* NB_SEC_DATA: index into obj->maps, -1 when empty */
};

struct nb_elf_sym {
	const char *name;	/* "" when unnamed */
	GElf_Sym sym;
};

/* A function of an executable section: the unit the linker copies. */
struct nb_elf_func {
	const char *name;
	u32 sec;		/* section index */
	u32 start;		/* first instruction, in the section */
	u32 len;		/* instructions */
	bool global;
};

struct nb_object_prog {
	struct nb_object *obj;
	const char *name;
	const char *sec_name;
	struct nb_elf_func *func;
	enum bpf_prog_type type;	/* guessed or set */
	enum bpf_attach_type attach_type;
	bool autoload;
	struct bpf_insn *insns;		/* linked */
	u32 insn_cnt;
	/* .BTF.ext records of the linked functions (btf_ext.c), instruction indexes linked. */
	struct bpf_func_info *func_info;
	u32 func_info_cnt;
	struct bpf_line_info *line_info;
	u32 line_info_cnt;
	struct nb_prog *prog;		/* after load */
	/*
	 * Why the program cannot be linked (a kfunc, a __ksym or __kconfig variable, an extern
	 * function): as with libbpf, only the programs that reach such a symbol fail, at load,
	 * with this message; the object opens. NULL when linked.
	 */
	char *link_err;
	/* iproute2 "ID/KEY" section: goes into the program array with that id at key. */
	bool tail_call_sec;
	u32 tail_map_id;
	u32 tail_key;
};

enum nb_map_origin {
	NB_MAP_BTF,		/* .maps */
	NB_MAP_LEGACY,		/* maps */
	NB_MAP_DATA,		/* global data */
};

/* One initial slot of a program array or map of maps from a `values` initialiser. */
struct nb_map_init {
	u32 slot;
	int target;		/* index into obj->progs or obj->maps */
};

struct nb_object_map {
	struct nb_object *obj;
	char *name;
	enum nb_map_origin origin;
	u32 sec;		/* its section; the relocation key with sec_off */
	u64 sec_off;
	u64 def_size;		/* bytes of the definition (symbol size) */

	enum bpf_map_type type;
	u32 key_size;
	u32 value_size;
	u32 max_entries;
	u32 map_flags;
	u32 numa_node;
	u32 pinning;		/* as written: LIBBPF_PIN_* for .maps, PIN_* for maps */
	char *pin_path;		/* NULL: not shared */
	/* Cilium's CILIUM_PIN_REPLACE: a fresh map that takes over the pin once loaded. */
	bool pin_replace;

	/* iproute2's struct bpf_elf_map tail. */
	u32 id;
	u32 inner_id;
	s32 inner_idx;
	/*
	 * The samples' struct bpf_load_map_def: a map of maps names its template by position,
	 * inner_map_idx, among the definitions of its section (sec_nth: each one's, by offset).
	 */
	bool samples_def;
	u32 sec_nth;
	u32 inner_map_idx;

	/* .maps map of maps: the inner map's definition (a template, never in obj->maps). */
	struct nb_object_map *inner;
	s64 values_off;		/* .maps: offset of the `values` member, -1 without one */
	bool values_are_progs;
	struct nb_map_init *inits;
	u32 init_cnt;

	/* The value's BTF type in obj->btf (its lock and timer fields), 0: untyped. */
	u32 btf_value_type_id;
	u32 btf_key_type_id;	/* the key's, 0: none (global data, or untyped) */
	u8 *data;		/* NB_MAP_DATA: the section's bytes, settable before load */
	struct nb_map *map;	/* after load */
};

struct nb_object {
	char *path;		/* for messages: the file, or the name given */
	char *name;
	/*
	 * libbpf's name of the object, the prefix of its global data maps' kernel names: the file's
	 * name up to its first '.' (btfcmp.o: btfcmp), or the name given to open, 15 characters.
	 */
	char libbpf_name[BPF_OBJ_NAME_LEN];
	u8 *buf;		/* the whole file, owned */
	size_t size;
	Elf *elf;
	u64 hash;		/* of the file's bytes: PIN_OBJECT_NS namespace */

	struct nb_elf_sec *secs;
	u32 sec_cnt;
	struct nb_elf_sym *syms;
	u32 sym_cnt;
	int symtab_sec;
	int text_sec;		/* -1: none */
	int btf_maps_sec;	/* .maps, -1: none */
	struct btf *btf;	/* NULL without .BTF */
	struct nb_btf_ext *btf_ext;	/* NULL without a readable .BTF.ext */
	/*
	 * .BTF as a BTF object (BPF_BTF_LOAD's twin), made at load once a map or a program needs
	 * it: the maps and programs share it, as libbpf loads an object's BTF once, so map show
	 * and prog show give the same btf_id.
	 */
	struct nb_btf *prog_btf;
	char license[128];

	struct nb_elf_func *funcs;
	u32 func_cnt;
	struct nb_object_prog *progs;
	u32 prog_cnt;
	struct nb_object_map *maps;
	u32 map_cnt;
	struct nb_map **map_ptrs;	/* the maps array handed to nb_prog_load */

	bool loaded;
	struct nb_log *log;	/* of the call under way */
};

/* "FILE: " + message + "\n" into obj->log. */
void nb_obj_err(const struct nb_object *obj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* elf.c */
int nb_elf_parse(struct nb_object *obj);
const struct nb_elf_sym *nb_elf_sym(const struct nb_object *obj, u32 idx);
const struct nb_elf_reloc *nb_elf_find_reloc(const struct nb_elf_sec *sec, u64 offset);
struct nb_elf_func *nb_elf_find_func(const struct nb_object *obj, u32 sec, u32 start);

/*
 * Cilium's pinning value (CILIUM_PIN_REPLACE, in iproute2's and libbpf's pinning field alike):
 * the map is pinned by name, but a map pinned there before is replaced, not reused.
 */
#define NB_PIN_REPLACE 16

/* legacy_maps.c, btf_maps.c, data_maps.c */
int nb_legacy_maps_parse(struct nb_object *obj);
int nb_btf_maps_parse(struct nb_object *obj);
int nb_btf_maps_parse_inits(struct nb_object *obj);
int nb_data_maps_parse(struct nb_object *obj);
/*
 * The name the kernel is given for the global data map of section sec_name, libbpf's
 * internal_map_name: the object's libbpf_name, cut to leave the section 7 characters at least,
 * then the section (btfcmp.data, my_objec.rodata); a section with a second dot (.data.custom)
 * alone; what the kernel refuses in a name as '_'.
 */
void nb_data_map_kernel_name(const struct nb_object *obj, const char *sec_name,
			     char name[BPF_OBJ_NAME_LEN]);
int nb_object_add_map(struct nb_object *obj, struct nb_object_map **mapp);
/*
 * Checks every definition shares: sizes and counts a map can be created with. max_entries 0
 * passes here: tools size such maps between open and load; create_map refuses what is left.
 */
int nb_object_map_check(const struct nb_object *obj, const struct nb_object_map *m);
/* Makes obj->prog_btf of .BTF unless it is made: 0, or the error said in obj's log. */
int nb_object_load_btf(struct nb_object *obj);
/* Map types whose max_entries must stay 0 (local storage): the kernel sizes them itself. */
bool nb_map_type_unsized(enum bpf_map_type type);
void nb_object_map_release(struct nb_object_map *m);
struct nb_object_map *nb_object_map_by_sec_off(const struct nb_object *obj, u32 sec, u64 off);

/* reloc.c */
int nb_object_link_progs(struct nb_object *obj);

/* section.c */
void nb_guess_prog_type(const char *sec_name, enum bpf_prog_type *type,
			enum bpf_attach_type *attach_type);

/* pinning.c: attach a map definition to its pinned twin or pin a new map. */
int nb_pin_reuse_check(const struct nb_object *obj, const struct nb_object_map *m,
		       struct nb_map *pinned);

#endif /* NB_BPF_OBJECT_H */
