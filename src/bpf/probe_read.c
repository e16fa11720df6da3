// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_probe_read_{kernel,user}[_str]: reads of any address, offered by the kernel to privileged
 * loaders of every program type (bpf_base_func_proto under CAP_PERFMON). netbpf has one address
 * space: both kinds read the process's own memory without faulting (nofault.c). On failure the
 * destination is zeroed, so a program that ignores the error copies no stale bytes on.
 */
#include <string.h>

#include "bpf/helpers.h"
#include "bpf/nofault.h"

static u64 bpf_probe_read(u64 dst, u64 size, u64 unsafe_ptr, u64 r4, u64 r5)
{
	(void)r4;
	(void)r5;
	return (u64)nb_copy_nofault((void *)(uintptr_t)dst, (const void *)(uintptr_t)unsafe_ptr,
				    (u32)size);
}

static u64 bpf_probe_read_str(u64 dst, u64 size, u64 unsafe_ptr, u64 r4, u64 r5)
{
	char *d = (char *)(uintptr_t)dst;
	long ret;

	(void)r4;
	(void)r5;
	ret = nb_strncpy_nofault(d, (const void *)(uintptr_t)unsafe_ptr, (u32)size);
	if (ret < 0)
		memset(d, 0, (u32)size);
	return (u64)ret;
}

#define NB_PROBE_READ_PROTO(name, fn)                                                       \
	const struct nb_func_proto nb_##name##_proto = {                                     \
		.func = fn,                                                                  \
		.gpl_only = true,                                                            \
		.ret_type = NB_RET_INTEGER,                                                  \
		.arg_type = { NB_ARG_PTR_TO_UNINIT_MEM, NB_ARG_CONST_SIZE_OR_ZERO,           \
			      NB_ARG_ANYTHING },                                             \
	}

NB_PROBE_READ_PROTO(probe_read_kernel, bpf_probe_read);
NB_PROBE_READ_PROTO(probe_read_user, bpf_probe_read);
NB_PROBE_READ_PROTO(probe_read_kernel_str, bpf_probe_read_str);
NB_PROBE_READ_PROTO(probe_read_user_str, bpf_probe_read_str);
