// SPDX-License-Identifier: GPL-2.0
/*
 * The ISA differential against the running kernel: 10,000 random verifier-valid programs
 * (isa_gen.c) load into the kernel as SCHED_CLS and run with BPF_PROG_TEST_RUN, and load into
 * netbpf through its verifier and run with nb_prog_test_run on the interpreter and on the JIT;
 * both halves of r0 must agree (the low half is the return value, the high half comes back in
 * skb->cb[0]), and both verifiers must accept every program. Ten shards of 1,000 programs.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "bpf_asm.h"
#include "isa_gen.h"
#include "test.h"

#define SHARDS	      10
#define PER_SHARD     1000
#define KLOG_SIZE     (1U << 16)

static char shard_names[SHARDS][40];

static void print_prog(const struct bpf_insn *insns, unsigned int cnt)
{
	for (unsigned int i = 0; i < cnt; i++)
		fprintf(stderr, "  %3u: %02x %u %u %6d %d\n", i, insns[i].code, insns[i].dst_reg,
			insns[i].src_reg, insns[i].off, insns[i].imm);
}

/* The kernel's r0 (both halves) for insns, or a failure naming the seed. */
static u64 kernel_r0(u64 seed, const struct bpf_insn *insns, unsigned int cnt, const u8 *frame,
		     u32 len, char *klog)
{
	LIBBPF_OPTS(bpf_prog_load_opts, lopts, .log_buf = klog, .log_size = KLOG_SIZE);
	struct __sk_buff ctx_out;
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = frame, .data_size_in = len,
		    .ctx_out = &ctx_out, .ctx_size_out = sizeof(ctx_out), .repeat = 1);
	int fd;

	klog[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "isadiff", "GPL", insns, cnt, &lopts);
	if (fd < 0) {
		if (errno == EPERM || errno == EACCES)
			nb_test_skip("loading BPF programs is not permitted (uid %u)",
				     (unsigned int)geteuid());
		print_prog(insns, cnt);
		NB_FAIL("seed %llu: the kernel refuses the program: %s\n%s",
			(unsigned long long)seed, strerror(errno), klog);
	}
	memset(&ctx_out, 0, sizeof(ctx_out));
	if (bpf_prog_test_run_opts(fd, &topts))
		NB_FAIL("seed %llu: kernel test run: %s", (unsigned long long)seed,
			strerror(errno));
	close(fd);
	return (u64)ctx_out.cb[0] << 32 | topts.retval;
}

static u64 netbpf_r0(u64 seed, const struct bpf_insn *insns, unsigned int cnt, const u8 *frame,
		     u32 len, bool jit, bool *ran_jit)
{
	struct nb_prog_load_opts lopts = { .sz = sizeof(lopts), .license = "GPL" };
	struct __sk_buff ctx_out;
	struct nb_test_run_opts topts = {
		.sz = sizeof(topts), .data_in = frame, .data_size_in = len,
		.ctx_out = &ctx_out, .ctx_size_out = sizeof(ctx_out),
	};
	struct nb_log log = { 0 };
	struct nb_prog *prog;
	int err;

	lopts.log = &log;
	lopts.flags = jit ? 0 : NB_PROG_LOAD_INTERP;
	err = nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, insns, cnt, &lopts, &prog);
	if (err) {
		print_prog(insns, cnt);
		NB_FAIL("seed %llu: netbpf refuses the program the kernel takes (%d): %s",
			(unsigned long long)seed, err, nb_log_text(&log));
	}
	nb_log_free(&log);
	*ran_jit = nb_prog_is_jited(prog);
	memset(&ctx_out, 0, sizeof(ctx_out));
	err = nb_prog_test_run(prog, &topts);
	nb_prog_put(prog);
	if (err)
		NB_FAIL("seed %llu: netbpf test run: %d", (unsigned long long)seed, err);
	return (u64)ctx_out.cb[0] << 32 | topts.retval;
}

static void run_shard(const void *arg)
{
	unsigned long shard = (unsigned long)arg;
	struct bpf_insn insns[ISA_GEN_MAX_INSNS];
	unsigned int jited = 0;
	char *klog = malloc(KLOG_SIZE);
	u8 frame[64];

	NB_ASSERT(klog);
	memset(frame, 0, sizeof(frame));
	frame[12] = 0x88;	/* an ethertype nothing parses: the frame is only a carrier */
	frame[13] = 0xb5;
	for (u64 seed = shard * PER_SHARD; seed < (shard + 1) * PER_SHARD; seed++) {
		unsigned int cnt = isa_gen_prog(seed, insns);
		u64 k = kernel_r0(seed, insns, cnt, frame, sizeof(frame), klog);

		for (int jit = 0; jit < 2; jit++) {
			bool ran_jit;
			u64 n = netbpf_r0(seed, insns, cnt, frame, sizeof(frame), jit, &ran_jit);

			if (n != k) {
				print_prog(insns, cnt);
				NB_FAIL("seed %llu: r0: kernel 0x%llx, netbpf %s 0x%llx",
					(unsigned long long)seed, (unsigned long long)k,
					ran_jit ? "JIT" : "interpreter", (unsigned long long)n);
			}
			jited += ran_jit;
		}
	}
	free(klog);
	nb_test_report("isa-diff shard %lu: %u programs, 0 mismatches (%u netbpf runs on the JIT)",
		       shard, PER_SHARD, jited);
}

static void __attribute__((constructor)) register_isa_diff(void)
{
	for (unsigned long i = 0; i < SHARDS; i++) {
		snprintf(shard_names[i], sizeof(shard_names[i]), "isa-diff-kernel/shard%lu", i);
		nb_test_register(shard_names[i], run_shard, (const void *)i);
	}
}
