/* SPDX-License-Identifier: GPL-2.0 */
/* The object loader's .BTF.ext reader (btf_ext.c): function and line records per program. */
#ifndef NB_BPF_BTF_EXT_H
#define NB_BPF_BTF_EXT_H

#include <netbpf/prog.h>

#include "bpf/object.h"

/* A function copied into a linked program, and where its first instruction landed. */
struct nb_btf_ext_unit {
	const struct nb_elf_func *func;
	u32 pos;
};

/* Reads .BTF.ext into obj->btf_ext (left NULL without one, or when it cannot be read). */
int nb_btf_ext_parse(struct nb_object *obj);
void nb_btf_ext_free(struct nb_btf_ext *ext);
/* Gives prog the func_info and line_info of the functions it was linked from. */
int nb_btf_ext_link_prog(struct nb_object *obj, struct nb_object_prog *prog,
			 const struct nb_btf_ext_unit *units, u32 unit_cnt);

/*
 * Fills po's BTF fields for prog (BPF_PROG_LOAD's prog_btf_fd, func_info, line_info): the
 * object's .BTF becomes its programs' BTF object on first use.
 */
int nb_btf_ext_prog_opts(struct nb_object *obj, const struct nb_object_prog *prog,
			 struct nb_prog_load_opts *po);

#endif /* NB_BPF_BTF_EXT_H */
