// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction-set cases against the running kernel: every case the kernel can express is
 * loaded as a socket filter with libbpf and run with BPF_PROG_TEST_RUN, and the kernel's r0 must
 * equal the same hand-worked expectation the interpreter meets (test_isa.c). The expectations
 * are thereby checked by the reference, one registered test per case ("isa-kernel/<case>").
 *
 * The test run returns only the low 32 bits of r0, so each case runs twice: as written (low
 * half), and with "r0 >>= 32" inserted before every exit of its main program (high half).
 */
#include <errno.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "bpf_asm.h"
#include "../unit/isa_cases.h"
#include "test.h"
#include "kernel_probe.h"

#define VERIFIER_LOG_SIZE (1U << 20)

/* The main program ends where the first subprogram (a call or func target) starts. */
static unsigned int main_prog_end(const struct bpf_insn *insns, unsigned int cnt)
{
	unsigned int end = cnt;

	for (unsigned int i = 0; i < cnt; i++) {
		bool to_func = insn_is_pseudo_call(&insns[i]) ||
			       (insn_is_ldimm64(&insns[i]) && insns[i].src_reg == BPF_PSEUDO_FUNC);
		long long target = (long long)i + 1 + insns[i].imm;

		if (to_func && target > 0 && target < end)
			end = target;
		if (insn_is_ldimm64(&insns[i]))
			i++;
	}
	return end;
}

/*
 * Copy insns with "r0 >>= 32" before every exit of the main program. Every jump, call and func
 * reference is retargeted; a jump to an instrumented exit lands on its shift.
 */
static struct bpf_insn *with_high_half_exits(const struct bpf_insn *insns, unsigned int cnt,
					     unsigned int *out_cnt)
{
	unsigned int main_end = main_prog_end(insns, cnt);
	unsigned int *start = calloc(cnt + 1, sizeof(*start)); /* new index of a jump target */
	unsigned int *pos = calloc(cnt + 1, sizeof(*pos));     /* new index of the insn itself */
	struct bpf_insn *out;
	unsigned int added = 0;

	NB_ASSERT(start && pos);
	for (unsigned int i = 0; i <= cnt; i++) {
		start[i] = i + added;
		if (i < main_end && insn_is_exit(&insns[i]))
			added++;
		pos[i] = i + added;
	}
	out = calloc(cnt + added, sizeof(*out));
	NB_ASSERT(out);
	for (unsigned int i = 0; i < cnt; i++) {
		struct bpf_insn insn = insns[i];
		long long target = (long long)i + 1 + insn_jmp_off(&insn);

		if (start[i] != pos[i])
			out[start[i]] = NB_ALU64_IMM(BPF_RSH, 0, 32);
		if (insn_is_ldimm64(&insn) && insn.src_reg == BPF_PSEUDO_FUNC) {
			target = (long long)i + 1 + insn.imm;
			insn.imm = (s32)(start[target] - pos[i] - 1);
		} else if (insn_is_pseudo_call(&insn)) {
			target = (long long)i + 1 + insn.imm;
			insn.imm = (s32)(start[target] - pos[i] - 1);
		} else if (insn_is_ja(&insn) && insn_class(&insn) == BPF_JMP32) {
			insn.imm = (s32)(start[target] - pos[i] - 1);
		} else if (insn_is_ja(&insn) || insn_is_cond_jmp(&insn)) {
			insn.off = (s16)(start[target] - pos[i] - 1);
		}
		out[pos[i]] = insn;
		if (insn_is_ldimm64(&insn) && i + 1 < cnt) {
			i++;
			out[pos[i]] = insns[i];
		}
	}
	free(start);
	free(pos);
	*out_cnt = cnt + added;
	return out;
}

/* Load as a socket filter; on rejection fail with the kernel's verifier log. */
static int kernel_load(const struct isa_case *c, const struct bpf_insn *insns, unsigned int cnt,
		       const char *what)
{
	char *log = malloc(VERIFIER_LOG_SIZE);
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = VERIFIER_LOG_SIZE);
	int fd;

	NB_ASSERT(log);
	log[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "isa", "GPL", insns, cnt, &opts);
	if (fd < 0) {
		fprintf(stderr, "kernel verifier log for %s (%s):\n%s\n", c->name, what, log);
		NB_FAIL("the kernel rejects %s (%s): %s", c->name, what, strerror(errno));
	}
	free(log);
	return fd;
}

static __u32 kernel_run(const struct isa_case *c, int fd, const char *what)
{
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);

	if (bpf_prog_test_run_opts(fd, &topts))
		NB_FAIL("BPF_PROG_TEST_RUN of %s (%s): %s", c->name, what, strerror(errno));
	return topts.retval;
}

/* Instructions of cpu v4 (Linux 6.6): sign extension, signed div/mod, bswap, gotol. */
static bool uses_cpu_v4(const struct isa_case *c)
{
	for (unsigned int i = 0; i < c->insn_cnt; i++) {
		const struct bpf_insn *insn = &c->insns[i];

		if (insn_is_movsx(insn) || insn_is_signed_divmod(insn) ||
		    (insn_class(insn) == BPF_LDX && BPF_MODE(insn->code) == BPF_MEMSX) ||
		    insn->code == (BPF_ALU64 | BPF_END | BPF_TO_LE) ||
		    insn->code == (BPF_JMP32 | BPF_JA))
			return true;
	}
	return false;
}

/* A kernel older than cpu v4 cannot be the reference for those cases: say so, skip them. */
static void skip_without_cpu_v4(const struct isa_case *c)
{
	const struct bpf_insn prog[] = {
		NB_MOV64_IMM(1, 0x80), NB_MOVSX64_REG(0, 1, 8), NB_EXIT()
	};
	struct utsname uts;
	int fd;

	if (!uses_cpu_v4(c))
		return;
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "probe_v4", "GPL", prog, 3, NULL);
	if (fd >= 0) {
		close(fd);
		return;
	}
	uname(&uts);
	nb_test_skip("kernel %s lacks cpu v4 instructions (Linux 6.6+): %s", uts.release,
		     strerror(errno));
}

static void test_isa_kernel_case(const void *arg)
{
	const struct isa_case *c = arg;
	struct bpf_insn *high;
	unsigned int high_cnt;
	__u32 lo, hi;
	int fd;

	need_kernel_prog(BPF_PROG_TYPE_SOCKET_FILTER);
	skip_without_cpu_v4(c);
	fd = kernel_load(c, c->insns, c->insn_cnt, "low half");
	lo = kernel_run(c, fd, "low half");
	close(fd);

	high = with_high_half_exits(c->insns, c->insn_cnt, &high_cnt);
	fd = kernel_load(c, high, high_cnt, "high half");
	hi = kernel_run(c, fd, "high half");
	close(fd);
	free(high);

	if (lo != (__u32)c->expected || hi != (__u32)(c->expected >> 32))
		NB_FAIL("kernel r0 = 0x%08x%08x, expected 0x%016llx", hi, lo,
			(unsigned long long)c->expected);
}

static void __attribute__((constructor)) register_isa_kernel_cases(void)
{
	for (unsigned int i = 0; i < isa_case_cnt; i++) {
		char name[96];

		if (!isa_cases[i].kernel)
			continue;
		snprintf(name, sizeof(name), "isa-kernel/%s", isa_cases[i].name);
		nb_test_register(name, test_isa_kernel_case, &isa_cases[i]);
	}
}

/* The rewrite that exposes the high half keeps every jump and call on its target. */
NB_TEST(isa_kernel_high_half_rewrite)
{
	const struct bpf_insn prog[] = {
		NB_MOV64_IMM(0, 1),		/* 0 */
		NB_JMP_IMM(BPF_JEQ, 0, 1, 0),	/* 1 -> 2 */
		NB_EXIT(),			/* 2 */
		NB_CALL_REL(1),			/* 3 -> 5 */
		NB_EXIT(),			/* 4 */
		NB_JA(-1),			/* 5: subprogram, -> 5 */
	};
	unsigned int cnt;
	struct bpf_insn *out = with_high_half_exits(prog, ARRAY_SIZE(prog), &cnt);

	/* 0 mov, 1 jeq, 2 rsh, 3 exit, 4 call, 5 rsh, 6 exit, 7 ja */
	NB_ASSERT_EQ(cnt, 8);
	NB_ASSERT_EQ(out[1].off, 0);	/* to the old exit at 2: now its shift */
	NB_ASSERT_EQ(out[2].code, BPF_ALU64 | BPF_RSH | BPF_K);
	NB_ASSERT_EQ(out[2].imm, 32);
	NB_ASSERT(insn_is_exit(&out[3]));
	NB_ASSERT_EQ(out[4].imm, 2);	/* to the subprogram, now at 7 */
	NB_ASSERT_EQ(out[5].code, BPF_ALU64 | BPF_RSH | BPF_K);
	NB_ASSERT(insn_is_exit(&out[6]));
	NB_ASSERT_EQ(out[7].off, -1);	/* subprogram exits and jumps untouched */
	free(out);
}
