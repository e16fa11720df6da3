// SPDX-License-Identifier: GPL-2.0
/*
 * The soundness fuzzer's parts (tests/runner/sound_gen.c, sound_run.c) the way
 * tests/fuzz/fuzz_soundness.c uses them: generated programs of every type pass the verifier
 * often enough to be worth running, and the engines agree on them; and the oracle catches the
 * accesses a verifier bug would let through. For the latter a proven program is changed after
 * its load the way such a bug would leave it (one byte past the packet, below its frame, into
 * a map value's padding); under AddressSanitizer (make check SANITIZE=1) the run must end in
 * a report, elsewhere the tests are skipped.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf/prog.h"
#include "bpf_asm.h"
#include "sound_gen.h"
#include "sound_run.h"
#include "test.h"

/* Generator input for seed i: eight bytes spread from it. */
static void seed_bytes(u32 i, u8 data[8])
{
	for (int k = 0; k < 8; k++)
		data[k] = (u8)((i * 2654435761u) >> (k * 3));
}

/*
 * Inputs the fuzz target found problems with, each kept as it was found (the fuzz target's
 * layout, sr_input_split) with what the problem was.
 */
static const struct {
	const char *what;
	u8 input[16];
	size_t len;
} fuzz_findings[] = {
	{ "tc: bpf_skb_change_tail grows the packet into fragments; the runner compared only "
	  "one buffer of it (index 4096 out of bounds)",
	  { 0x03, 0x01, 0x00, 0x00, 0x15, 0x01, 0xff, 0xfc }, 8 },
};

NB_TEST(sound_fuzz_findings)
{
	static struct bpf_insn insns[1024];

	for (size_t i = 0; i < ARRAY_SIZE(fuzz_findings); i++) {
		struct sg_opts o = { .max_insns = ARRAY_SIZE(insns) };
		struct sr_result r;
		struct sr_input in;
		struct sg_prog p;

		NB_ASSERT(sr_input_split(fuzz_findings[i].input, fuzz_findings[i].len, &in));
		o.prog_type = in.type;
		o.maps = sr_maps(&o.map_cnt);
		p = sg_gen(in.choices, in.choices_len, &o, insns);
		NB_ASSERT(p.cnt);
		sr_run(in.type, insns, p.cnt, &(struct sr_opts){ .compare = !p.leaks_addresses },
		       in.env, in.env_len, &r);
		if (r.verdict == SR_MISMATCH)
			NB_FAIL("%s: %s", fuzz_findings[i].what, r.why);
	}
}

NB_TEST(sound_generated_programs)
{
	static const enum bpf_prog_type types[] = {
		BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SOCKET_FILTER,
	};
	static struct bpf_insn insns[1024];
	u32 generated = 0, accepted = 0, compared = 0;

	for (u32 t = 0; t < ARRAY_SIZE(types); t++) {
		for (u32 i = 0; i < 200; i++) {
			struct sg_opts o = { .prog_type = types[t], .max_insns = 1024 };
			struct sr_result r;
			struct sg_prog p;
			u8 data[8];

			o.maps = sr_maps(&o.map_cnt);
			seed_bytes(i, data);
			p = sg_gen(data, sizeof(data), &o, insns);
			if (!p.cnt)
				continue;
			generated++;
			sr_run(types[t], insns, p.cnt,
			       &(struct sr_opts){ .compare = !p.leaks_addresses }, data,
			       sizeof(data), &r);
			if (r.verdict == SR_MISMATCH)
				NB_FAIL("type %d seed %u: %s", types[t], i, r.why);
			accepted += r.verdict == SR_RAN;
			compared += r.verdict == SR_RAN && r.compare == SR_COMPARED;
		}
	}
	nb_test_report("%u programs, %u accepted, %u compared with the JIT", generated, accepted,
		       compared);
	/* a generator that writes mostly rejects tests little */
	NB_ASSERT(accepted * 2 > generated);
	NB_ASSERT(compared * 2 > accepted);
	sr_cleanup();
}

/* ---- stack a program never wrote ---- */

#define FP BPF_REG_10

/*
 * A privileged loader's verifier lets a program read stack it never wrote (the bytes are an
 * unknown scalar); the verifier of a loader without CAP_PERFMON (NB_PROG_LOAD_NO_UNINIT_STACK)
 * refuses it, as the kernel's does. Whatever each engine's stack held is then the program's
 * result, so the harness compares the engines only on programs the latter accepts. It asks
 * the latter only when the first load (NB_PROG_LOAD_NOTE_UNINIT_STACK) says its walk used such
 * bytes: each program here that the latter refuses must be noted, the others not.
 */
static const struct {
	const char *what;
	const char *strict_err;		/* NULL: any loader's verifier accepts it */
	u32 cnt;
	struct bpf_insn insns[12];
} stack_cases[] = {
	{ "a load of stack never written", "invalid read from stack off -8+0 size 8", 2,
	  { NB_LDX_MEM(BPF_DW, BPF_REG_0, FP, -8), NB_EXIT() } },
	{ "a load of stack written", NULL, 3,
	  { NB_ST_MEM(BPF_DW, FP, -8, 3), NB_LDX_MEM(BPF_DW, BPF_REG_0, FP, -8), NB_EXIT() } },
	{ "an atomic add to stack never written", "invalid read from stack off -8+0 size 8", 4,
	  { NB_MOV64_IMM(BPF_REG_0, 1),
	    NB_ATOMIC_OP(BPF_DW, BPF_ADD | BPF_FETCH, FP, BPF_REG_0, -8),
	    NB_ALU64_IMM(BPF_AND, BPF_REG_0, 1), NB_EXIT() } },
	/* the helper's memory may be unwritten on entry at a constant offset (raw mode) */
	{ "bpf_probe_read_kernel into stack never written, then a load of it", NULL, 8,
	  { NB_MOV64_REG(BPF_REG_3, BPF_REG_1), NB_MOV64_REG(BPF_REG_1, FP),
	    NB_ALU64_IMM(BPF_ADD, BPF_REG_1, -8), NB_MOV64_IMM(BPF_REG_2, 8),
	    NB_CALL_HELPER(BPF_FUNC_probe_read_kernel), NB_LDX_MEM(BPF_W, BPF_REG_0, FP, -8),
	    NB_ALU64_IMM(BPF_AND, BPF_REG_0, 0), NB_EXIT() } },
	/* a write at fp-16 or fp-8 leaves the other never written, but both count as written */
	{ "a variable-offset write over stack never written",
	  "uninit stack in range of var-offset write prohibited for !root", 8,
	  { NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
	    NB_ALU64_IMM(BPF_AND, BPF_REG_2, 8), NB_MOV64_REG(BPF_REG_3, FP),
	    NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -16), NB_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_2),
	    NB_ST_MEM(BPF_B, BPF_REG_3, 0, 1), NB_LDX_MEM(BPF_B, BPF_REG_0, FP, -16),
	    NB_EXIT() } },
	/*
	 * The path that skips the write meets, at insn 9, the state kept there by the path that
	 * made the byte misc (unaligned: no spill of the constant), which covers it only if
	 * never-written bytes read as unknown: pruned for a privileged loader without a read of
	 * its own, walked on (and refused) for any other.
	 */
	{ "a path pruned because never-written stack reads as unknown",
	  "invalid read from stack off -7+0 size 1", 12,
	  { NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
	    NB_MOV64_IMM(BPF_REG_3, 0), NB_JMP_IMM(BPF_JEQ, BPF_REG_2, 0, 6),
	    NB_JMP_IMM(BPF_JEQ, BPF_REG_2, 1, 0), NB_JMP_IMM(BPF_JEQ, BPF_REG_2, 2, 0),
	    NB_ST_MEM(BPF_B, FP, -7, 1), NB_MOV64_IMM(BPF_REG_3, 1), NB_MOV64_IMM(BPF_REG_3, 2),
	    NB_MOV64_IMM(BPF_REG_3, 3), NB_LDX_MEM(BPF_B, BPF_REG_0, FP, -7),
	    NB_ALU64_IMM(BPF_AND, BPF_REG_0, 1), NB_EXIT() } },
	{ "a variable-offset write over stack written", NULL, 10,
	  { NB_ST_MEM(BPF_DW, FP, -16, 0), NB_ST_MEM(BPF_DW, FP, -8, 0),
	    NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
	    NB_ALU64_IMM(BPF_AND, BPF_REG_2, 8), NB_MOV64_REG(BPF_REG_3, FP),
	    NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -16), NB_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_2),
	    NB_ST_MEM(BPF_B, BPF_REG_3, 0, 1), NB_LDX_MEM(BPF_B, BPF_REG_0, FP, -16),
	    NB_EXIT() } },
};

NB_TEST(sound_uninit_stack_not_compared)
{
	for (size_t i = 0; i < ARRAY_SIZE(stack_cases); i++) {
		const struct bpf_insn *insns = stack_cases[i].insns;
		const char *strict_err = stack_cases[i].strict_err;
		u32 cnt = stack_cases[i].cnt;
		struct nb_prog_load_opts o = { .sz = sizeof(o), .license = "GPL" };
		struct nb_log log = { 0 };
		struct nb_prog *prog;
		struct sr_result r;
		int err;

		nb_test_report("%s", stack_cases[i].what);
		NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &o, &prog), 0);
		nb_prog_put(prog);
		o.flags = NB_PROG_LOAD_NOTE_UNINIT_STACK;
		NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &o, &prog), 0);
		NB_ASSERT_EQ(prog->uninit_stack_used, strict_err != NULL);
		nb_prog_put(prog);
		o.flags = NB_PROG_LOAD_NO_UNINIT_STACK;
		o.log = &log;
		err = nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &o, &prog);
		nb_prog_put(prog);
		if (strict_err) {
			NB_ASSERT(err < 0);
			NB_ASSERT_STR_CONTAINS(nb_log_text(&log), strict_err);
		} else {
			NB_ASSERT_EQ(err, 0);
		}
		nb_log_free(&log);

		sr_run(BPF_PROG_TYPE_XDP, insns, cnt, &(struct sr_opts){ .compare = true }, NULL, 0,
		       &r);
		NB_ASSERT_EQ(r.verdict, SR_RAN);
		NB_ASSERT_EQ(r.compare, (strict_err ? SR_UNINIT_STACK : SR_COMPARED));
		if (strict_err)
			NB_ASSERT_STR_CONTAINS(r.why, strict_err);
	}
	sr_cleanup();
}

/* ---- the oracle ---- */

#ifdef __SANITIZE_ADDRESS__
#define HAVE_ASAN 1
#else
#define HAVE_ASAN 0
#endif

struct tamper {
	u8 code;	/* the last xlated instruction with this opcode ... */
	s16 off;	/* ... gets this offset */
	s32 depth;	/* >= 0: the main function's recorded stack depth */
};

static void tamper_prog(struct nb_prog *prog, void *arg)
{
	const struct tamper *t = arg;

	/* the last one: the fixup's in-line lookups come before the program's own loads */
	for (u32 i = prog->len; t->code && i-- > 0;) {
		if (prog->insns[i].code == t->code) {
			prog->insns[i].off = t->off;
			break;
		}
	}
	if (t->depth >= 0 && prog->func_cnt)
		prog->funcs[0].stack_depth = (u32)t->depth;
}

/*
 * Run insns in a child (with t applied when not NULL). Returns whether it ended in an
 * AddressSanitizer report; fails the test when it ended any other way but cleanly.
 */
static bool asan_reports(enum bpf_prog_type type, const struct bpf_insn *insns, u32 cnt,
			 struct tamper *t, const u8 *env, size_t env_len)
{
	char buf[8192];
	size_t len = 0;
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	NB_ASSERT_EQ(pipe(pipefd), 0);
	fflush(NULL);
	pid = fork();
	NB_ASSERT(pid >= 0);
	if (pid == 0) {
		struct sr_opts opts = { .tamper = t ? tamper_prog : NULL, .arg = t };
		struct sr_result r;

		close(pipefd[0]);
		dup2(pipefd[1], STDERR_FILENO);
		sr_run(type, insns, cnt, &opts, env, env_len, &r);
		_exit(r.verdict == SR_RAN ? 0 : 2);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = 0;
	close(pipefd[0]);
	NB_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return false;
	if (!strstr(buf, "AddressSanitizer"))
		NB_FAIL("the run ended with status 0x%x and no sanitizer report:\n%s", status, buf);
	return true;
}

static void check_oracle(enum bpf_prog_type type, const struct bpf_insn *insns, u32 cnt,
			 struct tamper t, const u8 *env, size_t env_len)
{
	if (!HAVE_ASAN)
		nb_test_skip("the oracle needs AddressSanitizer (make check SANITIZE=1)");
	NB_ASSERT(!asan_reports(type, insns, cnt, NULL, env, env_len));
	NB_ASSERT(asan_reports(type, insns, cnt, &t, env, env_len));
}

/* if (data + 1 <= data_end) r0 = data[0]; the tampered load reads data[1] of a 1-byte frame */
NB_TEST(sound_oracle_packet_past_end)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		NB_MOV64_REG(BPF_REG_4, BPF_REG_2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_4, 1),
		NB_MOV64_IMM(BPF_REG_0, 2),
		NB_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 1),
		NB_LDX_MEM(BPF_B, BPF_REG_0, BPF_REG_2, 0),
		NB_EXIT(),
	};
	const u8 env[] = { 1, 0, 0x42 };	/* one byte, no metadata */

	check_oracle(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns),
		     (struct tamper){ .code = BPF_LDX | BPF_MEM | BPF_B, .off = 1, .depth = -1 },
		     env, sizeof(env));
}

/* The frame's depth says 8 bytes; the program uses 16. */
NB_TEST(sound_oracle_stack_below_frame)
{
	const struct bpf_insn insns[] = {
		NB_ST_MEM(BPF_DW, BPF_REG_10, -16, 7),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -16),
		NB_EXIT(),
	};

	check_oracle(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns),
		     (struct tamper){ .depth = 8 }, NULL, 0);
}

/* A value of map 0 holds 44 bytes: the tampered load reads bytes 41..44. */
NB_TEST(sound_oracle_map_value_padding)
{
	const struct bpf_insn insns[] = {
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		NB_LD_MAP_IDX(BPF_REG_1, 0),
		NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_0, 40),
		NB_EXIT(),
	};

	check_oracle(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns),
		     (struct tamper){ .code = BPF_LDX | BPF_MEM | BPF_W, .off = 41, .depth = -1 },
		     NULL, 0);
}
