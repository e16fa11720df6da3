/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the context tests: load a program through the verifier, which checks its context
 * accesses with the type's is_valid_access and rewrites them with convert_ctx_access. While the
 * verifier is not built, a straight-line program whose context accesses go through r1 gets the
 * same checks and rewrite here and runs unverified on the interpreter, which is enough to check
 * the rewrite against a real nb_pkt or XDP buffer.
 */
#ifndef NB_TEST_CTX_REWRITE_H
#define NB_TEST_CTX_REWRITE_H

#include <errno.h>
#include <netbpf/prog.h>

#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "test.h"

static inline bool ctx_test_access_ok(enum bpf_prog_type type, enum bpf_attach_type attach,
				      int off, int size, enum nb_access_type access,
				      struct nb_ctx_access_info *info)
{
	const struct nb_prog_type_ops *ops = nb_prog_type_ops(type);
	struct nb_prog prog = { .type = type, .expected_attach_type = attach, .ops = ops };
	struct nb_ctx_access_info dummy = { 0 };

	NB_ASSERT(ops && ops->is_valid_access);
	return ops->is_valid_access(off, size, access, &prog, info ? info : &dummy);
}

static inline bool ctx_test_is_ctx_access(const struct bpf_insn *insn, enum nb_access_type *t)
{
	u8 cls = BPF_CLASS(insn->code);

	if (cls == BPF_LDX && BPF_MODE(insn->code) == BPF_MEM && insn->src_reg == BPF_REG_1) {
		*t = NB_READ;
		return true;
	}
	if ((cls == BPF_STX || cls == BPF_ST) && BPF_MODE(insn->code) == BPF_MEM &&
	    insn->dst_reg == BPF_REG_1) {
		*t = NB_WRITE;
		return true;
	}
	return false;
}

/* jit: let the JIT compile the program when it can (else the interpreter runs it). */
static inline struct nb_prog *ctx_test_load_engine(enum bpf_prog_type type,
						   enum bpf_attach_type attach,
						   const struct bpf_insn *insns, unsigned int cnt,
						   bool jit)
{
	const struct nb_prog_type_ops *ops = nb_prog_type_ops(type);
	struct nb_prog fake = { .type = type, .expected_attach_type = attach, .ops = ops };
	struct bpf_insn *out = calloc(cnt * NB_CTX_CONVERT_MAX, sizeof(*out));
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts),
		.expected_attach_type = attach,
		.license = "GPL",
	};
	struct nb_log log = { 0 };
	struct nb_prog *prog;
	unsigned int n = 0;
	bool grown = false;
	int err;

	NB_ASSERT(ops && out);
	opts.log = &log;
	/*
	 * With a verifier, the program is proven and rewritten by it. Until it is built (it says
	 * so with -EOPNOTSUPP), the rewrite below stands in for its fixup.
	 */
	opts.flags = jit ? 0 : NB_PROG_LOAD_INTERP;
	err = nb_prog_load(type, insns, cnt, &opts, &prog);
	if (!err) {
		nb_log_free(&log);
		free(out);
		return prog;
	}
	if (err != -EOPNOTSUPP)
		NB_FAIL("the verifier refuses the program (%d): %s", err,
			nb_log_text(&log) ? nb_log_text(&log) : "");
	nb_log_reset(&log);
	opts.flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY | (jit ? 0 : NB_PROG_LOAD_INTERP);
	for (unsigned int i = 0; i < cnt; i++) {
		struct nb_ctx_access_info info = { 0 };
		enum nb_access_type t;
		u32 k;

		if (!ctx_test_is_ctx_access(&insns[i], &t)) {
			out[n++] = insns[i];
			continue;
		}
		if (!ops->is_valid_access(insns[i].off, insn_size_bytes(&insns[i]), t, &fake,
					  &info))
			NB_FAIL("insn %u: %s refuses the context access at %d size %u", i,
				ops->name, insns[i].off, insn_size_bytes(&insns[i]));
		k = ops->convert_ctx_access(t, &insns[i], out + n, &fake);
		if (k == 0 || k > NB_CTX_CONVERT_MAX)
			NB_FAIL("insn %u: rewrite gave %u instructions", i, k);
		n += k;
		grown |= k > 1;
	}
	/* This stand-in does not move jump targets: such programs wait for the verifier. */
	for (unsigned int i = 0; grown && i < cnt; i++)
		if ((insn_is_ja(&insns[i]) || insn_is_cond_jmp(&insns[i])) && insns[i].off)
			NB_FAIL("insn %u: a jump over a grown context access needs the verifier", i);
	err = nb_prog_load(type, out, n, &opts, &prog);
	if (err)
		NB_FAIL("load failed (%d): %s", err, nb_log_text(&log) ? nb_log_text(&log) : "");
	nb_log_free(&log);
	free(out);
	return prog;
}

static inline struct nb_prog *ctx_test_load(enum bpf_prog_type type, enum bpf_attach_type attach,
					    const struct bpf_insn *insns, unsigned int cnt)
{
	return ctx_test_load_engine(type, attach, insns, cnt, false);
}

#endif /* NB_TEST_CTX_REWRITE_H */
