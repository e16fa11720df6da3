// SPDX-License-Identifier: GPL-2.0
/*
 * A helper netbpf lacks is netbpf's gap, not the kernel's rule, and reads so: "helper X#N is not
 * implemented by netbpf" where Linux offers X to the type, the kernel's "program of this type
 * cannot use helper" where it does not. And netbpf offers no helper the kernel refuses: every
 * helper a type's get_func_proto answers is one Linux offers that type. A program type netbpf
 * does not run is named.
 */
#include <errno.h>

#include <netbpf/prog.h>

#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "bpf_asm.h"
#include "test.h"

static const enum bpf_prog_type types[] = {
	BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SCHED_ACT, BPF_PROG_TYPE_XDP,
	BPF_PROG_TYPE_SOCKET_FILTER,
};

NB_TEST(helper_avail_netbpf_within_kernel)
{
	for (size_t t = 0; t < ARRAY_SIZE(types); t++) {
		const struct nb_prog_type_ops *ops = nb_prog_type_ops(types[t]);
		struct nb_prog prog = { .type = types[t], .ops = ops, .gpl_compatible = true };

		NB_ASSERT(ops && ops->kernel_funcs);
		for (s32 id = 1; id < __BPF_FUNC_MAX_ID; id++) {
			const struct nb_func_proto *p = ops->get_func_proto(id, &prog);

			if (p && p->func && !nb_kernel_offers_helper(ops, id))
				NB_FAIL("%s offers %s#%d, which Linux refuses to %s programs",
					ops->name, nb_helper_name(id), id, ops->name);
		}
	}
}

static void verify_call(enum bpf_prog_type type, s32 id, const char *want)
{
	const struct bpf_insn insns[] = { NB_CALL_HELPER(id), NB_MOV64_IMM(0, 0), NB_EXIT() };
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = &log };
	struct nb_prog *prog;

	NB_ASSERT(nb_prog_load(type, insns, ARRAY_SIZE(insns), &opts, &prog) < 0);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), want);
	nb_log_free(&log);
}

NB_TEST(helper_avail_messages)
{
	/* netbpf has no tasks to signal: Linux offers it, netbpf does not. */
	verify_call(BPF_PROG_TYPE_SCHED_CLS, BPF_FUNC_send_signal,
		    "0: (85) call bpf_send_signal#109\nhelper bpf_send_signal#109 is not "
		    "implemented by netbpf");
	/* A socket filter cannot redirect, in Linux as in netbpf. */
	verify_call(BPF_PROG_TYPE_SOCKET_FILTER, BPF_FUNC_redirect,
		    "program of this type cannot use helper bpf_redirect#23");
	verify_call(BPF_PROG_TYPE_XDP, BPF_FUNC_skb_load_bytes,
		    "program of this type cannot use helper bpf_skb_load_bytes#26");
}

/* A type netbpf does not run is named, with what netbpf runs. */
NB_TEST(prog_type_unsupported_named)
{
	const struct bpf_insn insns[] = { NB_MOV64_IMM(0, 0), NB_EXIT() };
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .log = &log };
	struct nb_prog *prog;

	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_KPROBE, insns, 2, &opts, &prog), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "unsupported program type kprobe (2): netbpf "
			       "runs tc (sched_cls, sched_act), XDP and socket filter programs "
			       "only");
	nb_log_free(&log);
}
