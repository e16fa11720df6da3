// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction-set cases (isa_cases.c) on the JIT: each case runs on the checked JIT and the
 * checked interpreter with identical results (r0, memory, fault report), kernel-expressible
 * cases also on the unchecked pair, and the JIT's r0 must be the table's expectation.
 */
#include <stdlib.h>
#include <string.h>

#include <netbpf/prog.h>

#include "isa_cases.h"
#include "jit_diff.h"
#include "test.h"

static void test_jit_isa_case(const void *arg)
{
	const struct isa_case *c = arg;
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .flags = NB_PROG_LOAD_CHECKED };
	struct nb_log log = { 0 };
	struct nb_prog *prog;
	enum nb_jit_diff_result res;
	void *mem = NULL;
	char why[512];
	__u64 r0 = 0;
	int err;

	res = nb_jit_diff(c->insns, c->insn_cnt, c->mem, c->mem ? c->mem_len : 0, c->kernel, why,
			  sizeof(why));
	if (res == NB_JIT_DIFF_NO_JIT)
		nb_test_skip("no JIT on this architecture");
	if (res != NB_JIT_DIFF_SAME)
		NB_FAIL("%s", why);

	opts.log = &log;
	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_UNSPEC, c->insns, c->insn_cnt, &opts, &prog), 0);
	NB_ASSERT(nb_prog_is_jited(prog));
	if (c->mem) {
		mem = aligned_alloc(8, (c->mem_len + 7) & ~7UL);
		NB_ASSERT(mem);
		memcpy(mem, c->mem, c->mem_len);
	}
	err = nb_prog_run_checked(prog, mem, c->mem_len, &r0, &log);
	if (err)
		NB_FAIL("run failed (%d): %s", err, nb_log_text(&log));
	if (r0 != c->expected)
		NB_FAIL("r0 = 0x%llx, expected 0x%llx", (unsigned long long)r0,
			(unsigned long long)c->expected);
	free(mem);
	nb_prog_put(prog);
	nb_log_free(&log);
}

static void __attribute__((constructor)) register_jit_isa_cases(void)
{
	static char (*names)[96];

	names = calloc(isa_case_cnt, sizeof(*names));
	if (!names)
		return;
	for (unsigned int i = 0; i < isa_case_cnt; i++) {
		snprintf(names[i], sizeof(names[i]), "jit_isa/%s", isa_cases[i].name);
		nb_test_register(names[i], test_jit_isa_case, &isa_cases[i]);
	}
}
