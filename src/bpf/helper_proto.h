/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helper prototypes, the twin of the kernel's struct bpf_func_proto: what the verifier checks at
 * each call and the function the engines call. Helpers take five u64 arguments and return one.
 */
#ifndef NB_BPF_HELPER_PROTO_H
#define NB_BPF_HELPER_PROTO_H

#include <linux/bpf.h>

#include <netbpf/helpers.h>

#include "common/register.h"
#include "common/types.h"

typedef u64 (*nb_helper_fn)(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5);

enum nb_arg_type {
	NB_ARG_DONTCARE = 0,		/* unused argument */
	NB_ARG_ANYTHING,		/* any initialised value */
	NB_ARG_CONST_MAP_PTR,		/* const struct nb_map * */
	NB_ARG_PTR_TO_MAP_KEY,		/* key_size readable bytes */
	NB_ARG_PTR_TO_MAP_VALUE,	/* value_size readable bytes */
	NB_ARG_PTR_TO_UNINIT_MAP_VALUE,	/* value_size writable bytes */
	NB_ARG_PTR_TO_MEM,		/* readable, size in the next argument */
	NB_ARG_PTR_TO_MEM_OR_NULL,
	NB_ARG_PTR_TO_UNINIT_MEM,	/* written by the helper, size in the next argument */
	NB_ARG_CONST_SIZE,		/* size of the previous memory argument, > 0 */
	NB_ARG_CONST_SIZE_OR_ZERO,
	NB_ARG_CONST_ALLOC_SIZE_OR_ZERO, /* size of the memory returned (ringbuf reserve) */
	NB_ARG_PTR_TO_CTX,
	NB_ARG_PTR_TO_CTX_OR_NULL,
	NB_ARG_PTR_TO_LONG,		/* 8 writable bytes */
	NB_ARG_PTR_TO_INT,		/* 4 writable bytes */
	NB_ARG_PTR_TO_FUNC,		/* callback subprogram (bpf_loop, for_each_map_elem, timers) */
	NB_ARG_PTR_TO_STACK_OR_NULL,	/* callback context */
	NB_ARG_PTR_TO_ALLOC_MEM,	/* memory from ringbuf reserve, released by the call */
	NB_ARG_CONST_STR,		/* read-only NUL-terminated string in a map value */
	NB_ARG_PTR_TO_SOCK_COMMON,	/* a socket of any view (ARG_PTR_TO_SOCK_COMMON) */
	/* the same, as the BTF-typed helpers take it (ARG_PTR_TO_BTF_ID_SOCK_COMMON) */
	NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON,
	NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON_OR_NULL,
	/* an acquired socket, whose reference the call releases (bpf_sk_release) */
	NB_ARG_PTR_TO_SOCK_COMMON_RELEASE,
	NB_ARG_PTR_TO_MAP_VALUE_OR_NULL, /* value_size readable bytes, or NULL */
	NB_ARG_PTR_TO_SPIN_LOCK,	/* the struct bpf_spin_lock of a map value */
	NB_ARG_PTR_TO_TIMER,		/* the struct bpf_timer of a map value */
	NB_ARG_PTR_TO_DYNPTR,		/* an initialised struct bpf_dynptr on the stack */
	/* a struct bpf_dynptr on the stack the helper makes a ring buffer dynptr of */
	NB_ARG_PTR_TO_DYNPTR_RINGBUF_UNINIT,
	/* a ring buffer dynptr the helper ends (submit, discard): its reference released */
	NB_ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE,
};

enum nb_ret_type {
	NB_RET_INTEGER = 0,
	NB_RET_VOID,
	NB_RET_PTR_TO_MAP_VALUE_OR_NULL,
	NB_RET_PTR_TO_ALLOC_MEM_OR_NULL, /* size from the NB_ARG_CONST_ALLOC_SIZE_OR_ZERO argument */
	NB_RET_PTR_TO_SOCKET_OR_NULL,
	NB_RET_PTR_TO_SOCK_COMMON_OR_NULL,
	NB_RET_PTR_TO_TCP_SOCK_OR_NULL,
	/* memory of a dynptr, size from the NB_ARG_CONST_ALLOC_SIZE_OR_ZERO argument */
	NB_RET_PTR_TO_DYNPTR_MEM_OR_NULL,
	NB_RET_PTR_TO_BTF_ID_OR_NULL,	/* a kernel struct, ret_btf_struct, of vmlinux BTF */
};

struct nb_func_proto {
	nb_helper_fn func;
	bool gpl_only;
	bool pkt_access;	/* may be passed packet pointers */
	bool changes_pkt_data;	/* invalidates every packet pointer after the call */
	enum nb_ret_type ret_type;
	const char *ret_btf_struct;	/* NB_RET_PTR_TO_BTF_ID_OR_NULL: the struct's name */
	enum nb_arg_type arg_type[5];
	/* For NB_ARG_CONST_MAP_PTR: map types accepted; empty means any. */
	const enum bpf_map_type *map_types;
	u32 map_type_cnt;
};

/*
 * Functions the fixup calls that are no helper (the twins of the kernel's __htab_map_lookup_elem
 * and the like, called by the maps' in-line lookups): registered with a name for the xlated dump.
 */
struct nb_internal_func {
	nb_helper_fn fn;
	const char *name;
	struct nb_internal_func *next;
};

/* 0, or -EEXIST when the function or the name is registered already. */
int nb_internal_func_register(struct nb_internal_func *func);
/* The registered name of fn, NULL for any other function. */
const char *nb_internal_func_name(nb_helper_fn fn);

#define NB_INTERNAL_FUNC(func, fname)                                                       \
	static struct nb_internal_func nb_internal_##func = { .fn = func, .name = fname };  \
	NB_REGISTER_AT_LOAD(internal_##func, nb_internal_func_register(&nb_internal_##func), \
			    "internal function", fname)

/* Helpers every program type may call (the twin of bpf_base_func_proto). */
const struct nb_func_proto *nb_base_func_proto(enum bpf_func_id id);
/* nb_helper_name: include/netbpf/helpers.h */

#endif /* NB_BPF_HELPER_PROTO_H */
