// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of program types, and the raw type of `netbpf vm`: no context, no helpers, r1 and
 * r2 describe a block of memory. Raw programs run only under the checked interpreter.
 */
#include <errno.h>

#include <netbpf/helpers.h>

#include "bpf/prog_type.h"

static const struct nb_prog_type_ops *prog_types[64] /* beyond every bpf_prog_type */;

int nb_prog_type_register(const struct nb_prog_type_ops *ops)
{
	if ((unsigned int)ops->type >= ARRAY_SIZE(prog_types))
		return -EINVAL;
	if (prog_types[ops->type])
		return -EEXIST;
	prog_types[ops->type] = ops;
	return 0;
}

const struct nb_prog_type_ops *nb_prog_type_ops(enum bpf_prog_type type)
{
	if ((unsigned int)type >= ARRAY_SIZE(prog_types))
		return NULL;
	return prog_types[type];
}

const char *nb_prog_type_name(enum bpf_prog_type type)
{
	const struct nb_prog_type_ops *ops = nb_prog_type_ops(type);

	return ops ? ops->name : NULL;
}

static const struct nb_func_proto *raw_get_func_proto(enum bpf_func_id id,
						      const struct nb_prog *prog)
{
	return NULL;
}

static const struct nb_prog_type_ops raw_prog_type = {
	.type = BPF_PROG_TYPE_UNSPEC,
	.name = "raw",
	.get_func_proto = raw_get_func_proto,
};
NB_PROG_TYPE_REGISTER(raw_prog_type)
