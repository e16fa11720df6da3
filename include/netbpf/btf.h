/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BTF objects, the twin of BPF_BTF_LOAD: the raw type information of an object's .BTF
 * section. A program loaded with func_info and line_info (struct nb_prog_load_opts) names its
 * functions' prototypes and its source lines by type ids and string offsets into one of these,
 * and holds a reference on it for as long as it lives, as the kernel's programs do.
 */
#ifndef NETBPF_BTF_H
#define NETBPF_BTF_H

#include <stddef.h>

#include <linux/types.h>
#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_btf;

struct nb_btf_load_opts {
	size_t sz; /* sizeof(struct nb_btf_load_opts) */
	struct nb_log *log;
};

/* Parses size bytes of raw BTF (header, types, strings); the object keeps its own copy. */
int nb_btf_load(const void *data, size_t size, const struct nb_btf_load_opts *opts,
		struct nb_btf **btfp);
struct nb_btf *nb_btf_get(struct nb_btf *btf);
/* Its id, numbered from 1 in load order as the kernel numbers BTF objects: what btf_id shows. */
__u32 nb_btf_id(const struct nb_btf *btf);
void nb_btf_put(struct nb_btf *btf);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_BTF_H */
