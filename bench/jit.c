// SPDX-License-Identifier: GPL-2.0
/*
 * The JIT against the interpreter, and both against the kernel's JIT: ns per run of the same
 * bytecode. Four programs are socket filters, so the very same instructions load into the
 * kernel (BPF_PROG_SOCKET_FILTER) and run through BPF_PROG_TEST_RUN with repeat = N on both
 * sides (nb_prog_test_run is its twin: same packet set-up, same mean duration per run):
 *
 *   classify   a protocol classifier: skb->protocol, IPv4/IPv6, TCP/UDP ports via LD_ABS/LD_IND
 *   map        parse the IPv4 destination, look it up in a hash map, count atomically
 *   checksum   a loop-heavy ones' complement sum over 256 bytes of stack, 8 times
 *   straight   1,000 ALU instructions
 *
 * A fifth, classify_mem, parses the packet as a memory block behind r1 (r2 = length) with
 * direct loads; it has no socket-filter form, so it runs on the two engines only, called
 * directly. Times are the best of a few trials (the machine is shared); the kernel column
 * needs root and BPF, and says why when it is missing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/if_ether.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "bench.h"
#include "bpf/epoch.h"
#include "bpf/map.h"
#include "bpf/prog.h"
#include "bpf_asm.h"

#define TRIALS	  5
#define MAX_INSNS 1200

struct asm_prog {
	struct bpf_insn insns[MAX_INSNS];
	u32 n;
	u32 label[16];
	struct {
		u32 at;
		u32 label;
	} fix[32];
	u32 nfix;
};

static void emit(struct asm_prog *a, struct bpf_insn insn)
{
	if (a->n < MAX_INSNS)
		a->insns[a->n++] = insn;
}

/* A jump whose target is a label bound later (or earlier). */
static void emit_jmp(struct asm_prog *a, struct bpf_insn insn, u32 label)
{
	a->fix[a->nfix].at = a->n;
	a->fix[a->nfix++].label = label;
	emit(a, insn);
}

static void bind(struct asm_prog *a, u32 label)
{
	a->label[label] = a->n;
}

static void resolve(struct asm_prog *a)
{
	for (u32 i = 0; i < a->nfix; i++)
		a->insns[a->fix[i].at].off = a->label[a->fix[i].label] - a->fix[i].at - 1;
}

/* Ethernet, IPv4 (ihl 5), TCP 1234 -> 443: 64 bytes. */
static const u8 packet[64] = {
	0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02, 0x08, 0x00,
	0x45, 0x00, 0x00, 0x32, 0x00, 0x01, 0x00, 0x00, 0x40, 0x06, 0x00, 0x00,
	0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01,
	0x04, 0xd2, 0x01, 0xbb, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02, 0x20, 0x00,
};

enum { L_V6, L_L4, L_TCP, L_UDP, L_OUT0, L_NOT80, L_TCP_END, L_UDP_END, L_MISS, L_LOOP, L_INNER };

/* Ports and protocols into a class, shared by both classifiers: r7 = proto, r9 = dport. */
static void classify_l4(struct asm_prog *a)
{
	bind(a, L_L4);
	emit_jmp(a, NB_JMP_IMM(BPF_JEQ, BPF_REG_7, 6, 0), L_TCP);
	emit_jmp(a, NB_JMP_IMM(BPF_JEQ, BPF_REG_7, 17, 0), L_UDP);
	emit(a, NB_MOV64_IMM(BPF_REG_0, 1));
	emit(a, NB_EXIT());
	bind(a, L_TCP);
	emit(a, NB_MOV64_IMM(BPF_REG_0, 2));
	emit_jmp(a, NB_JMP_IMM(BPF_JNE, BPF_REG_9, 80, 0), L_NOT80);
	emit(a, NB_MOV64_IMM(BPF_REG_0, 10));
	bind(a, L_NOT80);
	emit_jmp(a, NB_JMP_IMM(BPF_JNE, BPF_REG_9, 443, 0), L_TCP_END);
	emit(a, NB_MOV64_IMM(BPF_REG_0, 11));
	bind(a, L_TCP_END);
	emit(a, NB_EXIT());
	bind(a, L_UDP);
	emit(a, NB_MOV64_IMM(BPF_REG_0, 3));
	emit_jmp(a, NB_JMP_IMM(BPF_JNE, BPF_REG_9, 53, 0), L_UDP_END);
	emit(a, NB_MOV64_IMM(BPF_REG_0, 20));
	bind(a, L_UDP_END);
	emit(a, NB_EXIT());
	bind(a, L_OUT0);
	emit(a, NB_MOV64_IMM(BPF_REG_0, 0));
	emit(a, NB_EXIT());
}

/* Socket filter: data starts at L3; the EtherType is skb->protocol (network order). */
static void build_classify(struct asm_prog *a)
{
	emit(a, NB_MOV64_REG(BPF_REG_6, BPF_REG_1));
	emit(a, NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct __sk_buff, protocol)));
	emit_jmp(a, NB_JMP_IMM(BPF_JEQ, BPF_REG_2, 0xdd86, 0), L_V6);
	emit_jmp(a, NB_JMP_IMM(BPF_JNE, BPF_REG_2, 0x0008, 0), L_OUT0);
	emit(a, NB_LD_ABS(BPF_B, 9));
	emit(a, NB_MOV64_REG(BPF_REG_7, BPF_REG_0));
	emit(a, NB_LD_ABS(BPF_B, 0));
	emit(a, NB_ALU64_IMM(BPF_AND, BPF_REG_0, 0xf));
	emit(a, NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 2));
	emit(a, NB_MOV64_REG(BPF_REG_8, BPF_REG_0));
	emit(a, NB_LD_IND(BPF_H, BPF_REG_8, 2));
	emit(a, NB_MOV64_REG(BPF_REG_9, BPF_REG_0));
	emit_jmp(a, NB_JA(0), L_L4);
	bind(a, L_V6);
	emit(a, NB_LD_ABS(BPF_B, 6));
	emit(a, NB_MOV64_REG(BPF_REG_7, BPF_REG_0));
	emit(a, NB_LD_ABS(BPF_H, 42));
	emit(a, NB_MOV64_REG(BPF_REG_9, BPF_REG_0));
	classify_l4(a);
	resolve(a);
}

/* Memory block: r1 = frame from L2, r2 = its length; every load is bounds-checked. */
static void build_classify_mem(struct asm_prog *a)
{
	emit_jmp(a, NB_JMP_IMM(BPF_JLT, BPF_REG_2, 54, 0), L_OUT0);
	emit(a, NB_LDX_MEM(BPF_H, BPF_REG_3, BPF_REG_1, 12));
	emit_jmp(a, NB_JMP_IMM(BPF_JEQ, BPF_REG_3, 0xdd86, 0), L_V6);
	emit_jmp(a, NB_JMP_IMM(BPF_JNE, BPF_REG_3, 0x0008, 0), L_OUT0);
	emit(a, NB_LDX_MEM(BPF_B, BPF_REG_7, BPF_REG_1, 23));
	emit(a, NB_LDX_MEM(BPF_B, BPF_REG_4, BPF_REG_1, 14));
	emit(a, NB_ALU64_IMM(BPF_AND, BPF_REG_4, 0xf));
	emit(a, NB_ALU64_IMM(BPF_LSH, BPF_REG_4, 2));
	emit(a, NB_ALU64_IMM(BPF_ADD, BPF_REG_4, 14 + 4));
	emit_jmp(a, NB_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_2, 0), L_OUT0);
	emit(a, NB_ALU64_REG(BPF_ADD, BPF_REG_4, BPF_REG_1));
	emit(a, NB_LDX_MEM(BPF_H, BPF_REG_9, BPF_REG_4, -2));
	emit(a, NB_ENDIAN(BPF_TO_BE, BPF_REG_9, 16));
	emit_jmp(a, NB_JA(0), L_L4);
	bind(a, L_V6);
	emit_jmp(a, NB_JMP_IMM(BPF_JLT, BPF_REG_2, 58, 0), L_OUT0);
	emit(a, NB_LDX_MEM(BPF_B, BPF_REG_7, BPF_REG_1, 20));
	emit(a, NB_LDX_MEM(BPF_H, BPF_REG_9, BPF_REG_1, 56));
	emit(a, NB_ENDIAN(BPF_TO_BE, BPF_REG_9, 16));
	classify_l4(a);
	resolve(a);
}

/* Look the IPv4 destination up in a hash map; count hits atomically. map_ref: id or fd. */
static void build_map(struct asm_prog *a, u32 map_ref)
{
	struct bpf_insn ld_map[] = { NB_LD_MAP_ID(BPF_REG_1, map_ref) };

	emit(a, NB_MOV64_REG(BPF_REG_6, BPF_REG_1));
	emit(a, NB_LD_ABS(BPF_W, 16));
	emit(a, NB_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, -4));
	emit(a, ld_map[0]);
	emit(a, ld_map[1]);
	emit(a, NB_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(a, NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4));
	emit(a, NB_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	emit_jmp(a, NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0), L_MISS);
	emit(a, NB_MOV64_IMM(BPF_REG_1, 1));
	emit(a, NB_ATOMIC_OP(BPF_DW, BPF_ADD, BPF_REG_0, BPF_REG_1, 0));
	emit(a, NB_MOV64_IMM(BPF_REG_0, 1));
	emit(a, NB_EXIT());
	bind(a, L_MISS);
	emit(a, NB_MOV64_IMM(BPF_REG_0, 0));
	emit(a, NB_EXIT());
	resolve(a);
}

/* Ones' complement sum of 128 16-bit words on the stack, eight times over, folded. */
static void build_checksum(struct asm_prog *a)
{
	for (s16 k = 0; k < 32; k++)
		emit(a, NB_ST_MEM(BPF_DW, BPF_REG_10, -256 + 8 * k, 0x9e3779b9 * (k + 1)));
	emit(a, NB_MOV64_IMM(BPF_REG_0, 0));
	emit(a, NB_MOV64_IMM(BPF_REG_3, 8));
	bind(a, L_LOOP);
	emit(a, NB_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(a, NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -256));
	emit(a, NB_MOV64_IMM(BPF_REG_4, 128));
	bind(a, L_INNER);
	emit(a, NB_LDX_MEM(BPF_H, BPF_REG_5, BPF_REG_2, 0));
	emit(a, NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_5));
	emit(a, NB_ALU64_IMM(BPF_ADD, BPF_REG_2, 2));
	emit(a, NB_ALU64_IMM(BPF_SUB, BPF_REG_4, 1));
	emit_jmp(a, NB_JMP_IMM(BPF_JNE, BPF_REG_4, 0, 0), L_INNER);
	emit(a, NB_ALU64_IMM(BPF_SUB, BPF_REG_3, 1));
	emit_jmp(a, NB_JMP_IMM(BPF_JNE, BPF_REG_3, 0, 0), L_LOOP);
	for (int i = 0; i < 2; i++) {
		emit(a, NB_MOV64_REG(BPF_REG_1, BPF_REG_0));
		emit(a, NB_ALU64_IMM(BPF_RSH, BPF_REG_1, 16));
		emit(a, NB_ALU64_IMM(BPF_AND, BPF_REG_0, 0xffff));
		emit(a, NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
	}
	emit(a, NB_EXIT());
	resolve(a);
}

/* 1,000 ALU instructions over eight registers, chosen by a fixed pseudo-random sequence. */
static void build_straight(struct asm_prog *a)
{
	static const u8 regs[] = { 0, 2, 3, 4, 5, 7, 8, 9 };
	static const u8 ops[] = { BPF_ADD, BPF_SUB, BPF_XOR, BPF_OR, BPF_AND, BPF_MUL, BPF_LSH,
				  BPF_RSH };
	u64 rng = 1;

	for (u32 i = 0; i < ARRAY_SIZE(regs); i++)
		emit(a, NB_MOV64_IMM(regs[i], 0x1234567 * (i + 1)));
	while (a->n < 1000 - ARRAY_SIZE(regs)) {
		u8 op, dst, src, cls;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		op = ops[(rng >> 33) % ARRAY_SIZE(ops)];
		dst = regs[(rng >> 40) % ARRAY_SIZE(regs)];
		src = regs[(rng >> 45) % ARRAY_SIZE(regs)];
		cls = (rng >> 50) & 1 ? BPF_ALU64 : BPF_ALU;
		if (op == BPF_LSH || op == BPF_RSH || (rng >> 52) & 1)
			emit(a, NB_INSN(cls | op | BPF_K, dst, 0, 0,
					op == BPF_LSH || op == BPF_RSH ? (s32)((rng >> 55) % 31 + 1)
								      : (s32)(rng >> 20)));
		else
			emit(a, NB_INSN(cls | op | BPF_X, dst, src, 0, 0));
	}
	for (u32 i = 1; i < ARRAY_SIZE(regs); i++)
		emit(a, NB_ALU64_REG(BPF_XOR, BPF_REG_0, regs[i]));
	emit(a, NB_EXIT());
}

static u32 runs(u32 base)
{
	double n = base * nb_bench_scale();

	return n < 1000 ? 1000 : (u32)n;
}

/*
 * Our engines through nb_prog_test_run: best mean ns per run of TRIALS, in this thread's CPU
 * time. The kernel's duration leaves out the time its loop is preempted (bpf_test_timer); CPU
 * time does the same for us on a shared machine.
 */
static double ours_ns(const struct nb_prog *prog, u32 repeat, u32 *retval)
{
	double best = 1e30;

	for (int t = 0; t < TRIALS; t++) {
		struct nb_test_run_opts o = {
			.sz = sizeof(o), .data_in = packet, .data_size_in = sizeof(packet),
			.repeat = repeat,
		};
		struct nb_bench_clock clk;

		nb_bench_start(&clk);
		if (nb_prog_test_run(prog, &o))
			return -1;
		nb_bench_stop(&clk);
		*retval = o.retval;
		if (clk.cpu * 1e9 / repeat < best)
			best = clk.cpu * 1e9 / repeat;
	}
	return best;
}

/* The kernel: load as a socket filter, BPF_PROG_TEST_RUN; -1 and why when unavailable. */
static double kernel_ns(const struct bpf_insn *insns, u32 cnt, u32 repeat, u32 *retval,
			const char **why)
{
	char log[4096] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, lo, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 0);
	double best = 1e30;
	int fd;

	if (geteuid() != 0) {
		*why = "needs root";
		return -1;
	}
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "nb_bench", "GPL", insns, cnt, &lo);
	if (fd < 0) {
		*why = "kernel refused the program";
		return -1;
	}
	for (int t = 0; t < TRIALS; t++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = packet,
			    .data_size_in = sizeof(packet), .repeat = repeat);

		if (bpf_prog_test_run_opts(fd, &o)) {
			*why = "BPF_PROG_TEST_RUN failed";
			close(fd);
			return -1;
		}
		*retval = o.retval;
		if (o.duration < best)
			best = o.duration;
	}
	close(fd);
	return best;
}

static struct nb_prog *load(enum bpf_prog_type type, const struct asm_prog *a,
			    unsigned int flags, const char **how)
{
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .name = "bench", .license = "GPL", .flags = flags,
	};
	struct nb_prog *prog;

	*how = "verified";
	if (!nb_prog_load(type, a->insns, a->n, &opts, &prog))
		return prog;
	/* Speed needs no proof: say so when our verifier refuses. */
	*how = "unverified";
	opts.flags |= NB_PROG_LOAD_UNSAFE_NO_VERIFY;
	if (!nb_prog_load(type, a->insns, a->n, &opts, &prog))
		return prog;
	return NULL;
}

static void print_row(const char *name, u32 cnt, const char *how, double interp, double jit,
		      double kernel, const char *why, u32 ri, u32 rj, u32 rk)
{
	printf("  %-12s %5u insns %-10s interp %8.1f ns  jit %7.1f ns  (%5.1fx)", name, cnt, how,
	       interp, jit, jit > 0 ? interp / jit : 0);
	if (kernel >= 0)
		printf("  kernel %7.1f ns  (jit/kernel %.2f)", kernel, kernel > 0 ? jit / kernel : 0);
	else
		printf("  kernel: %s", why);
	if (ri != rj || (kernel >= 0 && rj != rk))
		printf("  RESULTS DIFFER: %u %u %u", ri, rj, rk);
	printf("\n");
	fflush(stdout);
}

static void bench_socket_filter(const char *name, const struct asm_prog *ours,
				const struct asm_prog *kern, u32 repeat)
{
	const char *how, *how_i, *why = "";
	struct nb_prog *pj = load(BPF_PROG_TYPE_SOCKET_FILTER, ours, 0, &how);
	struct nb_prog *pi = load(BPF_PROG_TYPE_SOCKET_FILTER, ours, NB_PROG_LOAD_INTERP, &how_i);
	u32 ri = 0, rj = 0, rk = 0;
	double ti, tj, tk;

	if (!pj || !pi || !nb_prog_is_jited(pj)) {
		printf("  %-12s cannot load or JIT-compile\n", name);
		nb_prog_put(pj);
		nb_prog_put(pi);
		return;
	}
	ti = ours_ns(pi, repeat, &ri);
	tj = ours_ns(pj, repeat, &rj);
	tk = kernel_ns(kern->insns, kern->n, repeat, &rk, &why);
	print_row(name, ours->n, how, ti, tj, tk, why, ri, rj, rk);
	nb_prog_put(pj);
	nb_prog_put(pi);
}

/* The memory-block classifier, both engines called directly; CPU time per run. */
static void bench_classify_mem(u32 repeat)
{
	static struct asm_prog a;
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY,
	};
	u8 mem[sizeof(packet)];
	struct nb_prog *p;
	double t[2];
	u64 r[2] = { 0 };

	memset(&a, 0, sizeof(a));
	build_classify_mem(&a);
	memcpy(mem, packet, sizeof(mem));
	if (nb_prog_load(BPF_PROG_TYPE_UNSPEC, a.insns, a.n, &opts, &p) || !p->jited) {
		printf("  classify_mem cannot load or JIT-compile\n");
		return;
	}
	for (int e = 0; e < 2; e++) {
		t[e] = 1e30;
		for (int k = 0; k < TRIALS; k++) {
			struct nb_bench_clock clk;

			nb_bench_start(&clk);
			for (u32 i = 0; i < repeat; i++)
				r[e] += e ? p->jited((u64)(uintptr_t)mem, sizeof(mem))
					  : nb_interp_run(p, (u64)(uintptr_t)mem, sizeof(mem));
			nb_bench_stop(&clk);
			if (clk.cpu * 1e9 / repeat < t[e])
				t[e] = clk.cpu * 1e9 / repeat;
		}
	}
	print_row("classify_mem", a.n, "direct", t[0], t[1], -1,
		  "no socket-filter form (direct packet access)", r[0] / (TRIALS * repeat),
		  r[1] / (TRIALS * repeat), 0);
	nb_prog_put(p);
}

NB_BENCH(jit_vs_interp, "ns per run, interpreter vs JIT vs the kernel's JIT (same bytecode)")
{
	static struct asm_prog ours, kern;
	u32 key = 0x0a000001, repeat = runs(200000);
	u64 zero = 0;
	struct nb_map *map;
	int kfd = -1;

	/*
	 * Run as a datapath worker does: inside the epoch for good (the kernel's test run holds
	 * rcu_read_lock across its loop), so a run costs the program and not a fence.
	 */
	nb_epoch_online();
	memset(&ours, 0, sizeof(ours));
	build_classify(&ours);
	bench_socket_filter("classify", &ours, &ours, repeat);

	memset(&ours, 0, sizeof(ours));
	memset(&kern, 0, sizeof(kern));
	if (!nb_map_create(BPF_MAP_TYPE_HASH, 4, 8, 1024, NULL, &map)) {
		/* LD_ABS reads the destination in host order: the key is that number. */
		nb_map_update_elem(map, &key, &zero, BPF_ANY);
		build_map(&ours, map->id);
		if (geteuid() == 0) {
			kfd = bpf_map_create(BPF_MAP_TYPE_HASH, NULL, 4, 8, 1024, NULL);
			if (kfd >= 0)
				bpf_map_update_elem(kfd, &key, &zero, BPF_ANY);
		}
		build_map(&kern, kfd);
		bench_socket_filter("map", &ours, &kern, repeat);
		if (kfd >= 0)
			close(kfd);
		nb_map_put(map);
	}

	memset(&ours, 0, sizeof(ours));
	build_checksum(&ours);
	bench_socket_filter("checksum", &ours, &ours, runs(20000));

	memset(&ours, 0, sizeof(ours));
	build_straight(&ours);
	bench_socket_filter("straight", &ours, &ours, runs(20000));

	bench_classify_mem(runs(2000000));
	nb_epoch_offline();
}
