// SPDX-License-Identifier: GPL-2.0
/*
 * The packet-changing helpers of tc programs (net/core/filter.c): VLAN push/pop, protocol and
 * type changes, growing and shrinking the packet at either end or between its headers, ECN.
 */
#include "net/filter.h"

const struct nb_func_proto *nb_tc_mangle_func_proto(enum bpf_func_id id)
{
	switch (id) {
	default:
		return NULL;
	}
}
