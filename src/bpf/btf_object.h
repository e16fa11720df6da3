/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct nb_btf, a reference-counted wrapper of libbpf's parsed BTF, and the few type queries
 * the verifier asks of a program's BTF. BTF comes from users: every lookup may fail (an id or
 * a string offset out of range, a chain of modifiers that loops) and says so with NULL or a
 * negative errno rather than trusting the data.
 */
#ifndef NB_BPF_BTF_OBJECT_H
#define NB_BPF_BTF_OBJECT_H

#include <netbpf/btf.h>

#include "common/types.h"

struct btf;
struct btf_type;

struct nb_btf {
	int refcnt;
	u32 id;
	struct btf *btf;	/* libbpf's parse of the raw data */
};

/* The type with this id, or NULL when the id is out of range. */
const struct btf_type *nb_btf_type(const struct nb_btf *btf, u32 id);
/* The string at this offset of the string section, or NULL when the offset is out of range. */
const char *nb_btf_str(const struct nb_btf *btf, u32 off);
/*
 * The type behind id with const, volatile, restrict and type tags skipped (typedefs too when
 * skip_typedef); *res_id receives its id when not NULL. NULL for a bad id or a chain of more
 * than a few dozen modifiers (a loop).
 */
const struct btf_type *nb_btf_skip_modifiers(const struct nb_btf *btf, u32 id, bool skip_typedef,
					     u32 *res_id);

#endif /* NB_BPF_BTF_OBJECT_H */
