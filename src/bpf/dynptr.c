// SPDX-License-Identifier: GPL-2.0
/*
 * The dynptr helpers every dynptr type shares (the kernel's bpf_dynptr_read, bpf_dynptr_write
 * and bpf_dynptr_data in kernel/bpf/helpers.c): reads and writes at an offset into the
 * dynptr's memory, checked against its size at run time. The ring buffer's own dynptr helpers
 * are in maps/ringbuf.c; the verifier's side in verifier/dynptr.c.
 */
#include <errno.h>
#include <string.h>

#include "bpf/dynptr.h"
#include "bpf/helpers.h"

#define PTR(x) ((void *)(uintptr_t)(x))

static u32 dynptr_size(const struct nb_dynptr_kern *ptr)
{
	return ptr->size & NB_DYNPTR_SIZE_MASK;
}

static bool dynptr_rdonly(const struct nb_dynptr_kern *ptr)
{
	return ptr->size & NB_DYNPTR_RDONLY_BIT;
}

/* bpf_dynptr_check_off_len */
static int check_off_len(const struct nb_dynptr_kern *ptr, u32 offset, u32 len)
{
	u32 size = dynptr_size(ptr);

	if (len > size || offset > size - len)
		return -E2BIG;
	return 0;
}

static u64 bpf_dynptr_read(u64 dst, u64 len, u64 src, u64 offset, u64 flags)
{
	const struct nb_dynptr_kern *ptr = PTR(src);
	int err;

	if (!ptr->data || flags)
		return (u64)-EINVAL;
	err = check_off_len(ptr, (u32)offset, (u32)len);
	if (err)
		return (u64)(s64)err;
	memmove(PTR(dst), (u8 *)ptr->data + ptr->offset + (u32)offset, (u32)len);
	return 0;
}

const struct nb_func_proto nb_dynptr_read_proto = {
	.func = bpf_dynptr_read,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_UNINIT_MEM, NB_ARG_CONST_SIZE_OR_ZERO, NB_ARG_PTR_TO_DYNPTR,
		      NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

static u64 bpf_dynptr_write(u64 dst, u64 offset, u64 src, u64 len, u64 flags)
{
	const struct nb_dynptr_kern *ptr = PTR(dst);
	int err;

	if (!ptr->data || dynptr_rdonly(ptr))
		return (u64)-EINVAL;
	err = check_off_len(ptr, (u32)offset, (u32)len);
	if (err)
		return (u64)(s64)err;
	if (flags)
		return (u64)-EINVAL;
	/* Source and destination may overlap. */
	memmove((u8 *)ptr->data + ptr->offset + (u32)offset, PTR(src), (u32)len);
	return 0;
}

const struct nb_func_proto nb_dynptr_write_proto = {
	.func = bpf_dynptr_write,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_DYNPTR, NB_ARG_ANYTHING, NB_ARG_PTR_TO_MEM,
		      NB_ARG_CONST_SIZE_OR_ZERO, NB_ARG_ANYTHING },
};

static u64 bpf_dynptr_data(u64 p, u64 offset, u64 len, u64 r4, u64 r5)
{
	const struct nb_dynptr_kern *ptr = PTR(p);

	if (!ptr->data || check_off_len(ptr, (u32)offset, (u32)len) || dynptr_rdonly(ptr))
		return 0;
	return (u64)(uintptr_t)((u8 *)ptr->data + ptr->offset + (u32)offset);
}

const struct nb_func_proto nb_dynptr_data_proto = {
	.func = bpf_dynptr_data,
	.ret_type = NB_RET_PTR_TO_DYNPTR_MEM_OR_NULL,
	.arg_type = { NB_ARG_PTR_TO_DYNPTR, NB_ARG_ANYTHING, NB_ARG_CONST_ALLOC_SIZE_OR_ZERO },
};
