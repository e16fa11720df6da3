/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Program types plug their context rules, context rewrite and helpers into the runtime through
 * this table, as the kernel's bpf_verifier_ops do. bpf/ knows no packet: net/ registers the tc
 * and XDP types.
 */
#ifndef NB_BPF_PROG_TYPE_H
#define NB_BPF_PROG_TYPE_H

#include <linux/bpf.h>

#include "bpf/helper_proto.h"

struct nb_prog;

/* The kernel's enum bpf_access_type, which is not uapi. */
enum nb_access_type {
	NB_READ = 1,
	NB_WRITE = 2,
};

/* What a valid context access yields, filled in by is_valid_access. */
enum nb_ctx_reg_type {
	NB_CTX_SCALAR = 0,	/* a plain value */
	NB_CTX_PKT,		/* packet data start */
	NB_CTX_PKT_META,	/* packet metadata start */
	NB_CTX_PKT_END,		/* packet data end */
};

struct nb_ctx_access_info {
	enum nb_ctx_reg_type reg_type;
	u32 ctx_field_size;	/* size of the whole field, for narrow loads */
};

struct nb_prog_type_ops {
	enum bpf_prog_type type;
	const char *name;		/* bpftool's name: "sched_cls", "xdp", ... */
	u32 ctx_size;			/* bytes of the uapi context (__sk_buff, xdp_md); 0: none */

	const struct nb_func_proto *(*get_func_proto)(enum bpf_func_id id,
						      const struct nb_prog *prog);
	bool (*is_valid_access)(int off, int size, enum nb_access_type type,
				const struct nb_prog *prog, struct nb_ctx_access_info *info);
	/*
	 * Rewrite one context access into instructions over the datapath's own layout; returns
	 * the number written to insn_buf (at most 16).
	 */
	u32 (*convert_ctx_access)(enum nb_access_type type, const struct bpf_insn *si,
				  struct bpf_insn *insn_buf, const struct nb_prog *prog);
	/*
	 * Legacy LD_ABS/LD_IND: read size (1, 2, 4) bytes at off from the packet behind ctx into
	 * *val in host order. A negative return ends the program with r0 = 0, as in the kernel.
	 * NULL: the type has no packet and rejects these instructions.
	 */
	int (*ld_abs)(const void *ctx, s32 off, u32 size, u32 *val);
};

const struct nb_prog_type_ops *nb_prog_type_ops(enum bpf_prog_type type);
void nb_prog_type_register(const struct nb_prog_type_ops *ops);

/* Register a program type at start-up; the object file must be linked whole. */
#define NB_PROG_TYPE_REGISTER(ops)                                                          \
	static void __attribute__((constructor)) nb_register_##ops(void)                    \
	{                                                                                   \
		nb_prog_type_register(&ops);                                                \
	}

#endif /* NB_BPF_PROG_TYPE_H */
