// SPDX-License-Identifier: GPL-2.0
/*
 * BTF objects (BPF_BTF_LOAD's twin): raw BTF parsed by libbpf, shared by reference between the
 * object that loaded it and every program that names its types.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf/btf_object.h"
#include "common/opts.h"

/* Longest chain of modifiers followed before the chain counts as a loop (the kernel's 32). */
#define NB_BTF_MAX_RESOLVE_DEPTH 32

/* The last BTF id given: ids are never reused, as the kernel's cyclic btf_idr seldom does. */
static u32 last_btf_id;

int nb_btf_load(const void *data, size_t size, const struct nb_btf_load_opts *opts,
		struct nb_btf **btfp)
{
	struct nb_log *log = NB_OPTS_GET(opts, log, NULL);
	struct nb_btf *btf;
	int err;

	*btfp = NULL;
	err = NB_OPTS_CHECK(opts, nb_btf_load_opts, sz, log);
	if (err)
		return err;
	if (!data || !size || size > UINT32_MAX) {
		nb_log_printf(log, "BTF: %zu bytes is no BTF\n", size);
		return -EINVAL;
	}
	btf = calloc(1, sizeof(*btf));
	if (!btf)
		return -ENOMEM;
	btf->refcnt = 1;
	btf->btf = btf__new(data, size);
	if (!btf->btf) {
		err = -errno ?: -EINVAL;
		nb_log_printf(log, "BTF: invalid type information: %s\n", strerror(-err));
		free(btf);
		return err;
	}
	btf->id = __atomic_add_fetch(&last_btf_id, 1, __ATOMIC_RELAXED);
	*btfp = btf;
	return 0;
}

__u32 nb_btf_id(const struct nb_btf *btf)
{
	return btf->id;
}

struct nb_btf *nb_btf_get(struct nb_btf *btf)
{
	__atomic_add_fetch(&btf->refcnt, 1, __ATOMIC_RELAXED);
	return btf;
}

void nb_btf_put(struct nb_btf *btf)
{
	if (!btf || __atomic_sub_fetch(&btf->refcnt, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	btf__free(btf->btf);
	free(btf);
}

const struct btf_type *nb_btf_type(const struct nb_btf *btf, u32 id)
{
	return btf__type_by_id(btf->btf, id);
}

const char *nb_btf_str(const struct nb_btf *btf, u32 off)
{
	return btf__name_by_offset(btf->btf, off);
}

const struct btf_type *nb_btf_skip_modifiers(const struct nb_btf *btf, u32 id, bool skip_typedef,
					     u32 *res_id)
{
	const struct btf_type *t = nb_btf_type(btf, id);

	for (int depth = 0; t && (btf_is_mod(t) || (skip_typedef && btf_is_typedef(t)));
	     depth++) {
		if (depth >= NB_BTF_MAX_RESOLVE_DEPTH)
			return NULL;
		id = t->type;
		t = nb_btf_type(btf, id);
	}
	if (t && res_id)
		*res_id = id;
	return t;
}
