/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which helpers a program of each type may call here, and which Linux offers the type that
 * netbpf does not implement (what `netbpf feature probe` lists): a program that needs a helper
 * netbpf lacks is netbpf's gap, not the kernel's rule.
 */
#ifndef NETBPF_HELPERS_H
#define NETBPF_HELPERS_H

#include <linux/bpf.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One past the largest helper id Linux 6.18 has (newer than some uapi headers). */
#define NB_KERNEL_FUNC_MAX_ID 212

/* What a program of a type finds when it calls a helper. */
enum nb_helper_avail {
	NB_HELPER_NOT_OFFERED,	/* the kernel does not offer it to the type either */
	NB_HELPER_MISSING,	/* the kernel offers it; netbpf does not implement it */
	NB_HELPER_AVAILABLE,	/* netbpf has it for the type */
};

/* "bpf_redirect" for BPF_FUNC_redirect; NULL for an unknown id. */
const char *nb_helper_name(__s32 id);
/*
 * Helper id as a program of type finds it: an enum nb_helper_avail, or -EOPNOTSUPP when netbpf
 * has no list of the kernel's helpers for the type (a type it does not load).
 */
int nb_prog_type_helper_avail(enum bpf_prog_type type, __s32 id);
/* The type's name as bpftool and libbpf write it ("sched_cls"); NULL for a type netbpf lacks. */
const char *nb_prog_type_name(enum bpf_prog_type type);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_HELPERS_H */
