/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Program types plug their context rules, context rewrite and helpers into the runtime through
 * this table, as the kernel's bpf_verifier_ops do. bpf/ knows no packet: net/ registers the tc
 * and XDP types.
 */
#ifndef NB_BPF_PROG_TYPE_H
#define NB_BPF_PROG_TYPE_H

#include <linux/bpf.h>

#include "common/register.h"
#include "bpf/helper_avail.h"
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
	NB_CTX_SOCK_COMMON_OR_NULL,	/* the packet's socket (__sk_buff->sk), NULL without one */
};

struct nb_ctx_access_info {
	enum nb_ctx_reg_type reg_type;
	u32 ctx_field_size;	/* size of the whole field, for narrow loads (informative) */
};

/* Direct packet access through NB_CTX_PKT pointers (the kernel's may_access_direct_pkt_data). */
enum nb_pkt_access {
	NB_PKT_ACCESS_NONE = 0,	/* no packet pointers at all (socket filters) */
	NB_PKT_ACCESS_READ,
	NB_PKT_ACCESS_WRITE,	/* read and write (tc, XDP) */
};

struct nb_prog_type_ops {
	enum bpf_prog_type type;
	const char *name;		/* bpftool's name: "sched_cls", "xdp", ... */
	u32 ctx_size;			/* bytes of the uapi context (__sk_buff, xdp_md); 0: none */
	/*
	 * The context's struct names in BTF: a global function's `struct NAME *` argument is the
	 * context when NAME is the uapi struct ("__sk_buff") or the kernel struct it projects
	 * ("sk_buff"), as the kernel's btf_is_prog_ctx_type decides. NULL: only `void *` tagged
	 * __arg_ctx.
	 */
	const char *ctx_btf_name;
	const char *kern_ctx_btf_name;

	/*
	 * The helper a call of id reaches, NULL if none. prog is NULL when the question is about
	 * the type (nb_helper_avail, netbpf feature probe): the answer for any program of it.
	 */
	const struct nb_func_proto *(*get_func_proto)(enum bpf_func_id id,
						      const struct nb_prog *prog);
	/*
	 * The helpers Linux offers this type beyond the base ones, netbpf's or not
	 * (helper_avail.h): what get_func_proto lacks of them is netbpf's gap. NULL: a type
	 * of netbpf's own (the raw type of netbpf vm).
	 */
	const struct nb_helper_ids *kernel_funcs;
	bool (*is_valid_access)(int off, int size, enum nb_access_type type,
				const struct nb_prog *prog, struct nb_ctx_access_info *info);
	/*
	 * Rewrite one context access into instructions over the datapath's own layout; returns
	 * the number written to insn_buf (at most NB_CTX_CONVERT_MAX), 0 when si is not an access
	 * is_valid_access accepted.
	 *
	 * si is the program's instruction as written, for any access is_valid_access accepted:
	 * BPF_LDX | BPF_MEM loads (narrow loads included: the rewrite reads exactly the bytes the
	 * program asked for and zero-extends them, so the verifier adds no shift or mask of its
	 * own), BPF_STX | BPF_MEM stores and BPF_ST | BPF_MEM stores (the kernel refuses BPF_ST into
	 * the context; a verifier that follows it never passes one). Sign-extending loads
	 * (BPF_MEMSX) from the context are refused by the kernel's verifier and are not converted.
	 * The rewrite uses only si's dst_reg and src_reg: no scratch register, no helper call.
	 */
	u32 (*convert_ctx_access)(enum nb_access_type type, const struct bpf_insn *si,
				  struct bpf_insn *insn_buf, const struct nb_prog *prog);
	/*
	 * Legacy LD_ABS/LD_IND: read size (1, 2, 4) bytes at off from the packet behind ctx into
	 * *val in host order. A negative return ends the program with r0 = 0, as in the kernel.
	 * NULL: the type has no packet and rejects these instructions.
	 */
	int (*ld_abs)(const void *ctx, s32 off, u32 size, u32 *val);
	/*
	 * Lets the JIT read LD_ABS/LD_IND in line, as the kernel's JIT does for skbs: when
	 * ld_abs_linear is set, ctx holds at ld_abs_data_off a pointer to the packet's first byte
	 * and at ld_abs_len_off its length (u32), less the u32 at ld_abs_data_len_off when that is
	 * not 0 (bytes beyond the linear part, skb->data_len), and for every off >= 0 ld_abs reads
	 * exactly data[off, off + size) when off + size is within that length. Negative offsets
	 * (SKF_NET_OFF, SKF_LL_OFF) and anything beyond still go through ld_abs.
	 */
	bool ld_abs_linear;
	u16 ld_abs_data_off;
	u16 ld_abs_len_off;
	u16 ld_abs_data_len_off;
	/* Direct packet access for NB_CTX_PKT registers; NONE also forbids packet pointers. */
	enum nb_pkt_access pkt_access;
	/*
	 * The range r0 must lie in at exit (check_return_code), filled into *min and *max with
	 * true; NULL or false: any value (tc and XDP programs: unknown verdicts are handled at
	 * run time, as in the kernel).
	 */
	bool (*retval_range)(const struct nb_prog *prog, s32 *min, s32 *max);
};

/* Most instructions one context access becomes. */
#define NB_CTX_CONVERT_MAX 16

const struct nb_prog_type_ops *nb_prog_type_ops(enum bpf_prog_type type);
/* 0, or -EEXIST when the type has ops already, -EINVAL when it is beyond the table. */
int nb_prog_type_register(const struct nb_prog_type_ops *ops);

/* Register a program type when the library is loaded (common/register.h). */
#define NB_PROG_TYPE_REGISTER(ops)                                                          \
	NB_REGISTER_AT_LOAD(ops, nb_prog_type_register(&ops), "program type", ops.name)

#endif /* NB_BPF_PROG_TYPE_H */
