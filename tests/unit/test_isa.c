// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction-set cases (isa_cases.c) on the checked interpreter, one registered test per
 * case ("isa/<case>"), and the limits the table cannot express: a ninth call frame and the
 * table's own soundness.
 */
#include <errno.h>

#include <netbpf/prog.h>

#include "bpf/disasm.h"
#include "bpf_asm.h"
#include "isa_cases.h"
#include "test.h"

static struct nb_prog *load_checked(const struct bpf_insn *insns, unsigned int cnt,
				    const char *name, struct nb_log *log)
{
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts),
		.name = name,
		/* The interpreter: test_jit_isa.c runs the same table on the JIT. */
		.flags = NB_PROG_LOAD_CHECKED | NB_PROG_LOAD_INTERP,
		.log = log,
	};
	struct nb_prog *prog = NULL;
	int err = nb_prog_load(BPF_PROG_TYPE_UNSPEC, insns, cnt, &opts, &prog);

	if (err)
		NB_FAIL("load failed (%d): %s", err, nb_log_text(log));
	return prog;
}

/* On failure the program is shown as text: the case's name alone rarely says enough. */
static void print_listing(const struct isa_case *c)
{
	for (unsigned int i = 0; i < c->insn_cnt;) {
		char text[128];
		int n = nb_disasm_insn(&c->insns[i], c->insn_cnt - i, text, sizeof(text));

		fprintf(stderr, "%4u: %s\n", i, text);
		i += n;
	}
}

static void test_isa_case(const void *arg)
{
	const struct isa_case *c = arg;
	struct nb_log log = { 0 };
	struct nb_prog *prog = load_checked(c->insns, c->insn_cnt, "isa", &log);
	void *mem = NULL;
	__u64 r0 = 0;
	int err;

	if (c->mem) {
		/* A private, 8-byte aligned copy: atomics on it must be aligned. */
		mem = aligned_alloc(8, (c->mem_len + 7) & ~7UL);
		NB_ASSERT(mem);
		memcpy(mem, c->mem, c->mem_len);
	}
	err = nb_prog_run_checked(prog, mem, c->mem_len, &r0, &log);
	if (err || r0 != c->expected)
		print_listing(c);
	if (err)
		NB_FAIL("run failed (%d): %s", err, nb_log_text(&log));
	if (r0 != c->expected)
		NB_FAIL("r0 = 0x%llx, expected 0x%llx", (unsigned long long)r0,
			(unsigned long long)c->expected);
	free(mem);
	nb_prog_put(prog);
	nb_log_free(&log);
}

static void __attribute__((constructor)) register_isa_cases(void)
{
	for (unsigned int i = 0; i < isa_case_cnt; i++) {
		char name[96];

		snprintf(name, sizeof(name), "isa/%s", isa_cases[i].name);
		nb_test_register(name, test_isa_case, &isa_cases[i]);
	}
}

/* Names unique, enough cases, memory only on cases the kernel cannot run. */
NB_TEST(isa_table)
{
	unsigned int kernel = 0;

	NB_ASSERT(isa_case_cnt >= 300);
	for (unsigned int i = 0; i < isa_case_cnt; i++) {
		const struct isa_case *c = &isa_cases[i];

		NB_ASSERT(c->insn_cnt > 0 && c->insns);
		NB_ASSERT(!(c->kernel && c->mem));
		kernel += c->kernel;
		for (unsigned int j = 0; j < i; j++)
			if (!strcmp(c->name, isa_cases[j].name))
				NB_FAIL("case name %s appears twice", c->name);
	}
	NB_ASSERT(kernel >= 300);
}

/* Eight frames run (call_depth_8); a ninth stops the run at the call that would make it. */
NB_TEST(isa_call_depth_9_faults)
{
	struct bpf_insn insns[8 * 4 + 2];
	struct nb_log log = { 0 };
	struct nb_prog *prog;
	__u64 r0;

	for (int i = 0; i < 8; i++) {
		insns[4 * i] = NB_MOV64_IMM(6, i);
		insns[4 * i + 1] = NB_CALL_REL(2);
		insns[4 * i + 2] = NB_ALU64_REG(BPF_ADD, 0, 6);
		insns[4 * i + 3] = NB_EXIT();
	}
	insns[32] = NB_MOV64_IMM(0, 0);
	insns[33] = NB_EXIT();
	prog = load_checked(insns, ARRAY_SIZE(insns), "depth9", &log);
	NB_ASSERT_EQ(nb_prog_run_checked(prog, NULL, 0, &r0, &log), -EFAULT);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "insn 29: call stack too deep");
	nb_prog_put(prog);
	nb_log_free(&log);
}
