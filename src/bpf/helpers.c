// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers every program type may call, the twin of bpf_base_func_proto. The generic helpers
 * (maps, time, random, ringbuf, ...) are added here with the map types.
 */
#include "bpf/helper_proto.h"

const struct nb_func_proto *nb_base_func_proto(enum bpf_func_id id)
{
	return NULL;
}
