/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helpers Linux offers each program type (helper_avail.c), known apart from the ones netbpf
 * implements, so that a missing helper is reported as netbpf's gap and not as the kernel's rule.
 */
#ifndef NB_BPF_HELPER_AVAIL_H
#define NB_BPF_HELPER_AVAIL_H

#include <stdbool.h>
#include <linux/bpf.h>

#include <netbpf/helpers.h>

#include "common/types.h"

/* The helper ids of Linux 6.18 newer than the uapi headers netbpf builds with. */
#define NB_FUNC_CGRP_STORAGE_GET	210
#define NB_FUNC_CGRP_STORAGE_DELETE	211

/* A list of helper ids: a program type's own (its ops' kernel_funcs). */
struct nb_helper_ids {
	const s32 *ids;
	u32 cnt;
};

struct nb_prog_type_ops;

/* Whether Linux offers helper id to programs of this type (a privileged loader's view). */
bool nb_kernel_offers_helper(const struct nb_prog_type_ops *ops, s32 id);

enum nb_helper_avail nb_helper_avail(const struct nb_prog_type_ops *ops, s32 id);

/* The types' own lists (src/net/kernel_helpers.c). */
extern const struct nb_helper_ids nb_tc_cls_act_kernel_funcs;
extern const struct nb_helper_ids nb_xdp_kernel_funcs;
extern const struct nb_helper_ids nb_sk_filter_kernel_funcs;

#endif /* NB_BPF_HELPER_AVAIL_H */
