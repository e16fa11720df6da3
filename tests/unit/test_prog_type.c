// SPDX-License-Identifier: GPL-2.0
/*
 * A program type for tests only: no context, the generic helpers of every type. It lets the
 * tests of maps, helpers and the loader run programs before any datapath type exists. It takes
 * BPF_PROG_TYPE_SYSCALL's number, which the datapath never registers.
 */
#include "bpf/prog_type.h"

static const struct nb_func_proto *test_get_func_proto(enum bpf_func_id id,
						       const struct nb_prog *prog)
{
	return nb_base_func_proto(id);
}

static const struct nb_prog_type_ops test_prog_type = {
	.type = BPF_PROG_TYPE_SYSCALL,
	.name = "test",
	.get_func_proto = test_get_func_proto,
};
NB_PROG_TYPE_REGISTER(test_prog_type)
