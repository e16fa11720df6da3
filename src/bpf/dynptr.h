/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct bpf_dynptr as the helpers see it, the twin of the kernel's bpf_dynptr_kern: the 16
 * bytes of a program's struct bpf_dynptr (on its stack; the verifier lets only the dynptr
 * helpers touch them) hold where the memory is, its size and type, and an offset into it.
 */
#ifndef NB_BPF_DYNPTR_H
#define NB_BPF_DYNPTR_H

#include "common/types.h"

/* The kernel's enum bpf_dynptr_type (the values it logs and compares). */
enum nb_dynptr_type {
	NB_DYNPTR_TYPE_INVALID = 0,
	NB_DYNPTR_TYPE_LOCAL,		/* memory of the program (bpf_dynptr_from_mem) */
	NB_DYNPTR_TYPE_RINGBUF,		/* a ring buffer sample (bpf_ringbuf_reserve_dynptr) */
};

struct nb_dynptr_kern {
	void *data;		/* NULL: a null dynptr (a failed reservation) */
	/* The size in the low 24 bits, the type above them, read-only in the top bit. */
	u32 size;
	u32 offset;
} __attribute__((aligned(8)));

#define NB_DYNPTR_MAX_SIZE	((1U << 24) - 1)	/* DYNPTR_MAX_SIZE */
#define NB_DYNPTR_TYPE_SHIFT	28
#define NB_DYNPTR_SIZE_MASK	0xffffff
#define NB_DYNPTR_RDONLY_BIT	(1U << 31)

static inline void nb_dynptr_init(struct nb_dynptr_kern *ptr, void *data,
				  enum nb_dynptr_type type, u32 offset, u32 size)
{
	ptr->data = data;
	ptr->offset = offset;
	ptr->size = size | ((u32)type << NB_DYNPTR_TYPE_SHIFT);
}

static inline void nb_dynptr_set_null(struct nb_dynptr_kern *ptr)
{
	*ptr = (struct nb_dynptr_kern){ 0 };
}

#endif /* NB_BPF_DYNPTR_H */
