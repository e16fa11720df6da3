// SPDX-License-Identifier: GPL-2.0
/*
 * The bounds differential against the running kernel: what netbpf's verifier knows of a scalar
 * must be what the kernel's knows. Random programs (bounds_gen.c) give registers many shapes on
 * many paths; for some registers, netbpf's largest and smallest unsigned and signed values, in
 * 64 and in 32 bits, are found by bisecting the probe "rX op K" over K (the program passes iff
 * the verifier proves the probe false on every path); then the kernel must accept the probe at
 * that bound and refuse it one step inside. A difference names the seed, the register, the
 * bound each verifier knows, the program and the kernel's log of the refusal. A probe the kernel
 * refuses with "verifier bug" (its own, -EFAULT) is counted and not compared. Four shards of
 * 50 programs in `make check`; NB_BOUNDS_DIFF_SEEDS=N runs N programs per shard instead,
 * NB_BOUNDS_DIFF_SEED=S the program of seed S alone.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <netbpf/prog.h>

#include "bounds_gen.h"
#include "bpf/disasm.h"
#include "test.h"

#define SHARDS	  4
#define PER_SHARD 50
#define KLOG_SIZE (1U << 22)

static char shard_names[SHARDS][40];

static void print_prog(const struct bpf_insn *insns, unsigned int cnt)
{
	char buf[128];

	for (unsigned int i = 0; i < cnt; i++) {
		nb_disasm_insn(&insns[i], cnt - i, buf, sizeof(buf));
		fprintf(stderr, "  %3u: %s\n", i, buf);
	}
}

/* Prints the last n non-empty lines of log. */
static void print_tail(const char *who, const char *log, int n)
{
	const char *p = log + strlen(log);
	int lines = 0;

	while (p > log && lines <= n)
		lines += *--p == '\n';
	fprintf(stderr, "%s:\n%s\n", who, p == log ? p : p + 1);
}

/* One bound: the probe's condition, and whether a larger K makes it easier to prove false. */
struct relation {
	const char *name;
	u8 cls, op;
	bool up;	/* accepted for K at or above the bound (else at or below it) */
	bool is_signed;
};

static const struct relation relations[] = {
	{ "umax", BPF_JMP, BPF_JGT, true, false },
	{ "umin", BPF_JMP, BPF_JLT, false, false },
	{ "smax", BPF_JMP, BPF_JSGT, true, true },
	{ "smin", BPF_JMP, BPF_JSLT, false, true },
	{ "umax32", BPF_JMP32, BPF_JGT, true, false },
	{ "umin32", BPF_JMP32, BPF_JLT, false, false },
	{ "smax32", BPF_JMP32, BPF_JSGT, true, true },
	{ "smin32", BPF_JMP32, BPF_JSLT, false, true },
};

static bool netbpf_accepts(const struct bpf_insn *insns, unsigned int cnt)
{
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL",
					  .flags = NB_PROG_LOAD_INTERP };
	struct nb_prog *prog = NULL;
	int err;

	err = nb_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, cnt, &opts, &prog);
	nb_prog_put(prog);
	return !err;
}

/* The kernel's verifier stopped on a bug of its own (-EFAULT, "verifier bug" in the log). */
static bool kernel_bug(const char *klog)
{
	return errno == EFAULT && strstr(klog, "verifier bug");
}

static bool kernel_accepts(const struct bpf_insn *insns, unsigned int cnt, char *klog)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = klog, .log_size = KLOG_SIZE,
		    .log_level = 1);
	int fd;

	klog[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bounds", "GPL", insns, cnt, &opts);
	if (fd < 0 && (errno == EPERM || errno == ENOSYS) && !klog[0])
		nb_test_skip("the kernel refuses BPF programs: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* The relation's order (unsigned or signed, in its width), numbered from 0, to K. */
static u64 unkey(const struct relation *r, u64 k)
{
	if (r->cls == BPF_JMP32)
		return r->is_signed ? (u32)(k ^ 0x80000000U) : k;
	return r->is_signed ? k ^ (1ULL << 63) : k;
}

/*
 * The bound netbpf knows: the smallest K (in the relation's order) it accepts the probe with
 * when "up", the largest otherwise. The probe at the order's far end is always false.
 */
static u64 netbpf_bound(const struct relation *r, struct bpf_insn *insns, unsigned int len,
			u8 reg)
{
	u64 lo = 0, hi = r->cls == BPF_JMP32 ? UINT32_MAX : UINT64_MAX;

	while (lo < hi) {
		u64 mid = r->up ? lo + (hi - lo) / 2 : hi - (hi - lo) / 2;
		unsigned int cnt = bounds_gen_probe(insns, len, r->cls, r->op, reg,
						    unkey(r, mid));
		bool ok = netbpf_accepts(insns, cnt);

		if (r->up) {
			if (ok)
				hi = mid;
			else
				lo = mid + 1;
		} else {
			if (ok)
				lo = mid;
			else
				hi = mid - 1;
		}
	}
	return lo;
}

static void run_shard(const void *arg)
{
	unsigned long shard = (unsigned long)arg, per = PER_SHARD, bounds = 0, kernel_bugs = 0;
	const char *env = getenv("NB_BOUNDS_DIFF_SEEDS"), *one = getenv("NB_BOUNDS_DIFF_SEED");
	struct bpf_insn insns[BOUNDS_GEN_MAX_INSNS];
	char *klog = malloc(KLOG_SIZE);
	u64 first, end;

	NB_ASSERT(klog);
	if (env && atol(env) > 0)
		per = atol(env);
	first = shard * per;
	end = first + per;
	if (one) {
		/* One program again, in the first shard (a failure names its seed). */
		if (shard)
			nb_test_skip("NB_BOUNDS_DIFF_SEED runs in shard0");
		first = strtoull(one, NULL, 0);
		end = first + 1;
		per = 1;
	}
	for (u64 seed = first; seed < end; seed++) {
		unsigned int len = bounds_gen_body(seed, insns);

		for (u8 reg = BPF_REG_1 + seed % 3; reg <= BPF_REG_9; reg += 3) {
			for (u32 i = 0; i < ARRAY_SIZE(relations); i++) {
				const struct relation *r = &relations[i];
				u64 b = netbpf_bound(r, insns, len, reg), edge;
				unsigned int cnt;
				bool at, inside = false;

				edge = r->up ? 0 : r->cls == BPF_JMP32 ? UINT32_MAX : UINT64_MAX;
				cnt = bounds_gen_probe(insns, len, r->cls, r->op, reg, unkey(r, b));
				at = kernel_accepts(insns, cnt, klog);
				if (!at && kernel_bug(klog)) {
					kernel_bugs++;
					continue;
				}
				if (at && b != edge) {
					cnt = bounds_gen_probe(insns, len, r->cls, r->op, reg,
							       unkey(r, r->up ? b - 1 : b + 1));
					inside = kernel_accepts(insns, cnt, klog);
					if (!inside && kernel_bug(klog)) {
						kernel_bugs++;
						continue;
					}
				}
				bounds++;
				if (at && !inside)
					continue;
				print_prog(insns, cnt);
				print_tail("kernel", klog, 14);
				NB_FAIL("seed %llu: R%u %s: netbpf knows %#llx, the kernel %s",
					(unsigned long long)seed, reg, r->name,
					(unsigned long long)unkey(r, b),
					at ? "knows a tighter one" : "does not know it");
			}
		}
	}
	free(klog);
	nb_test_report("bounds-diff shard %lu: %lu programs, %lu bounds the kernel knows alike (%lu "
		       "probes not compared: the kernel's verifier failed on a bug of its own)",
		       shard, per, bounds, kernel_bugs);
}

static void __attribute__((constructor)) register_bounds_diff(void)
{
	for (unsigned long i = 0; i < SHARDS; i++) {
		snprintf(shard_names[i], sizeof(shard_names[i]), "verifier-bounds-kernel/shard%lu",
			 i);
		nb_test_register(shard_names[i], run_shard, (const void *)i);
	}
}
