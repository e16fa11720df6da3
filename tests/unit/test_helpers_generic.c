// SPDX-License-Identifier: GPL-2.0
/* Generic helpers: time (deterministic mode), random, CPU ids, loops, checksums, protos. */
#include <netbpf/clock.h>

#include "map_test.h"
#include "bpf/helpers.h"

#define CALL0(id) MT_RUN(NULL, NB_CALL_HELPER(id), NB_EXIT())

NB_TEST(helpers_deterministic_clock)
{
	struct nb_deterministic_opts opts = {
		.sz = sizeof(opts), .start_ns = 4000000000ULL, .ns_per_packet = 1500000,
	};

	NB_ASSERT_EQ(nb_deterministic_enable(&opts), 0);
	NB_ASSERT_EQ(CALL0(BPF_FUNC_ktime_get_ns), 4000000000ULL);
	NB_ASSERT_EQ(CALL0(BPF_FUNC_ktime_get_boot_ns), 4000000000ULL);
	nb_clock_packet_tick();
	nb_clock_packet_tick();
	NB_ASSERT_EQ(CALL0(BPF_FUNC_ktime_get_ns), 4003000000ULL);
	/* Coarse time and jiffies move by whole ticks of 4 ms (HZ 250). */
	NB_ASSERT_EQ(CALL0(BPF_FUNC_ktime_get_coarse_ns), 4000000000ULL);
	NB_ASSERT_EQ(CALL0(BPF_FUNC_jiffies64), (__u64)(__u32)(-300 * NB_HZ) + 1000);
	nb_clock_packet_tick();
	NB_ASSERT_EQ(CALL0(BPF_FUNC_ktime_get_coarse_ns), 4004000000ULL);
	NB_ASSERT_EQ(CALL0(BPF_FUNC_jiffies64), (__u64)(__u32)(-300 * NB_HZ) + 1001);
	nb_deterministic_disable();
	NB_ASSERT(!nb_deterministic_enabled());
}

NB_TEST(helpers_real_clock)
{
	__u64 a = CALL0(BPF_FUNC_ktime_get_ns), b = CALL0(BPF_FUNC_ktime_get_ns);
	__u64 boot = CALL0(BPF_FUNC_ktime_get_boot_ns);

	NB_ASSERT(b >= a);
	NB_ASSERT(boot >= a);	/* boot time includes suspend: never behind monotonic */
	NB_ASSERT(CALL0(BPF_FUNC_ktime_get_coarse_ns) > 0);
	NB_ASSERT(CALL0(BPF_FUNC_jiffies64) >= (__u64)(__u32)(-300 * NB_HZ));
}

static void draw(__u32 *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = (__u32)CALL0(BPF_FUNC_get_prandom_u32);
}

NB_TEST(helpers_prandom_seeded)
{
	struct nb_deterministic_opts opts = { .sz = sizeof(opts), .seed = 1234 };
	__u32 a[8], b[8], c[8];

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	nb_deterministic_enable(&opts);
	draw(a, 8);
	nb_deterministic_enable(&opts);
	draw(b, 8);
	NB_ASSERT_MEM_EQ(a, b, sizeof(a));
	NB_ASSERT(a[0] != a[1] || a[1] != a[2]);
	/* Another worker draws from its own stream. */
	nb_deterministic_enable(&opts);
	NB_ASSERT_EQ(nb_set_this_cpu(1), 0);
	draw(c, 8);
	NB_ASSERT(memcmp(a, c, sizeof(a)) != 0);
	opts.seed = 1235;
	nb_deterministic_enable(&opts);
	NB_ASSERT_EQ(nb_set_this_cpu(0), 0);
	draw(c, 8);
	NB_ASSERT(memcmp(a, c, sizeof(a)) != 0);
}

/* No task_struct: 0, and a read through it faults as a read of any unmapped address does. */
NB_TEST(helpers_current_task_is_none)
{
	NB_ASSERT_EQ(CALL0(BPF_FUNC_get_current_task), 0);
	NB_ASSERT_EQ((__s64)MT_RUN(NULL, NB_CALL_HELPER(BPF_FUNC_get_current_task),
				   NB_MOV64_REG(BPF_REG_3, BPF_REG_0),
				   NB_ALU64_IMM(BPF_ADD, BPF_REG_3, 1268),
				   MT_STACK_PTR(BPF_REG_1, -8), NB_MOV64_IMM(BPF_REG_2, 4),
				   NB_CALL_HELPER(BPF_FUNC_probe_read_kernel), NB_EXIT()),
		     -EFAULT);
}

NB_TEST(helpers_cpu_numa)
{
	NB_ASSERT_EQ(nb_set_nr_cpus(3), 0);
	NB_ASSERT_EQ(CALL0(BPF_FUNC_get_smp_processor_id), 0);
	NB_ASSERT_EQ(nb_set_this_cpu(2), 0);
	NB_ASSERT_EQ(CALL0(BPF_FUNC_get_smp_processor_id), 2);
	NB_ASSERT_EQ(CALL0(BPF_FUNC_get_numa_node_id), 0);
}

/* bpf_loop(n, cb, &sum, flags): cb adds i to sum and stops once i == stop. r0 = ret<<32|sum */
static __u64 prog_loop(__u32 n, __u32 stop, __u32 flags)
{
	return MT_RUN(NULL,
		NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 0),
		NB_ST_MEM(BPF_DW, BPF_REG_10, -16, stop),
		NB_LD_IMM64(BPF_REG_1, n),
		MT_LD_FUNC(BPF_REG_2, 9),
		MT_STACK_PTR(BPF_REG_3, -16),
		NB_MOV64_IMM(BPF_REG_4, flags),
		NB_CALL_HELPER(BPF_FUNC_loop),
		NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 32),
		NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8),
		NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_1),
		NB_EXIT(),
		/* cb(i, ctx): ctx[8] += i; return i == ctx[0]. ctx is r10-16 of the caller. */
		NB_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 8),
		NB_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_1),
		NB_STX_MEM(BPF_DW, BPF_REG_2, BPF_REG_3, 8),
		NB_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 0),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_JMP_REG(BPF_JNE, BPF_REG_1, BPF_REG_3, 1),
		NB_MOV64_IMM(BPF_REG_0, 1),
		NB_EXIT());
}

NB_TEST(helpers_loop)
{
	NB_ASSERT_EQ(prog_loop(10, 100, 0), (10ULL << 32) | 45);
	NB_ASSERT_EQ(prog_loop(10, 5, 0), (6ULL << 32) | 15);
	NB_ASSERT_EQ(prog_loop(0, 5, 0), 0);
	NB_ASSERT_EQ(prog_loop(10, 5, 1) >> 32, (__u32)-EINVAL);
	NB_ASSERT_EQ(prog_loop((8 << 20) + 1, 5, 0) >> 32, (__u32)-E2BIG);
}

/* The 16-bit one's complement fold of a 32-bit partial sum. */
static __u16 fold(__u64 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)sum;
}

NB_TEST(helpers_csum_diff)
{
	__u32 from[2] = { 0x01020304, 0xa0b0c0d0 }, to[2] = { 0x01020305, 0xa0b0c0d0 };
	__u64 r0;

	/* csum_diff(from, 8, to, 8, seed): the change of one word shows as its difference. */
#define DIFF(fs, ts, seed)                                                                  \
	MT_RUN(NULL, NB_LD_IMM64(BPF_REG_1, (uintptr_t)from), NB_MOV64_IMM(BPF_REG_2, fs),  \
	       NB_LD_IMM64(BPF_REG_3, (uintptr_t)to), NB_MOV64_IMM(BPF_REG_4, ts),         \
	       NB_MOV64_IMM(BPF_REG_5, seed), NB_CALL_HELPER(BPF_FUNC_csum_diff), NB_EXIT())
	r0 = DIFF(8, 8, 0);
	NB_ASSERT_EQ(fold(r0), 1);
	/* Adding only 'to' sums its words; the seed adds in. */
	r0 = DIFF(0, 8, 0);
	NB_ASSERT_EQ(fold(r0), fold((__u64)0x01020305 + 0xa0b0c0d0));
	r0 = DIFF(0, 0, 77);
	NB_ASSERT_EQ(r0, 77);
	NB_ASSERT_EQ(DIFF(0, 0, 0x12345678), 0x1234 + 0x5678);
	/* Results are folded to 16 bits; sizes need not be multiples of 4 (Linux 6.13+). */
	NB_ASSERT(DIFF(8, 8, 0x12345678) <= 0xffff);
	NB_ASSERT_EQ(DIFF(0, 3, 0), fold(0x01020305 & 0xffffff));
#undef DIFF
	/* Removing and adding the same words cancels out: one's complement zero. */
	NB_ASSERT_EQ(fold(nb_csum_diff(from, 8, from, 8, 0)), 0xffff);
}

/* The kernel's ids and argument types for a few prototypes the verifier depends on. */
NB_TEST(helpers_protos)
{
	const struct nb_func_proto *p;

	p = nb_base_func_proto(BPF_FUNC_map_lookup_elem);
	NB_ASSERT(p && p->ret_type == NB_RET_PTR_TO_MAP_VALUE_OR_NULL);
	NB_ASSERT_EQ(p->arg_type[0], NB_ARG_CONST_MAP_PTR);
	NB_ASSERT_EQ(p->arg_type[1], NB_ARG_PTR_TO_MAP_KEY);
	p = nb_base_func_proto(BPF_FUNC_map_pop_elem);
	NB_ASSERT(p && p->arg_type[1] == NB_ARG_PTR_TO_UNINIT_MAP_VALUE);
	NB_ASSERT(p->map_type_cnt == 2);
	p = nb_base_func_proto(BPF_FUNC_trace_printk);
	NB_ASSERT(p && p->gpl_only);
	p = nb_base_func_proto(BPF_FUNC_ringbuf_reserve);
	NB_ASSERT(p && p->ret_type == NB_RET_PTR_TO_ALLOC_MEM_OR_NULL);
	NB_ASSERT_EQ(p->arg_type[1], NB_ARG_CONST_ALLOC_SIZE_OR_ZERO);
	p = nb_base_func_proto(BPF_FUNC_loop);
	NB_ASSERT(p && p->arg_type[1] == NB_ARG_PTR_TO_FUNC);
	p = nb_base_func_proto(BPF_FUNC_tail_call);
	NB_ASSERT(p && p->ret_type == NB_RET_VOID && p->map_types[0] == BPF_MAP_TYPE_PROG_ARRAY);
	NB_ASSERT(nb_base_func_proto(BPF_FUNC_redirect) == NULL);
}

/* A gpl_only helper in a program without a GPL license is refused at load. */
NB_TEST(helpers_gpl_only)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_IMM(BPF_REG_2, 0), NB_CALL_HELPER(BPF_FUNC_trace_printk), NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "Proprietary", .flags = MT_LOAD_FLAGS, .log = &log,
	};
	struct nb_prog *prog;

	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, 3, &opts, &prog), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "GPL-restricted function bpf_trace_printk");
	nb_log_free(&log);
}

/*
 * The same bpf_loop program through the verifier: callbacks resolve after its fixup, so the
 * descriptor must point at the subprogram as the verifier left it.
 */
NB_TEST(helpers_loop_verified)
{
	const struct bpf_insn insns[] = {
		NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 0),
		NB_ST_MEM(BPF_DW, BPF_REG_10, -16, 5),
		NB_MOV64_IMM(BPF_REG_1, 10),
		MT_LD_FUNC(BPF_REG_2, 9),
		MT_STACK_PTR(BPF_REG_3, -16),
		NB_MOV64_IMM(BPF_REG_4, 0),
		NB_CALL_HELPER(BPF_FUNC_loop),
		NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 32),
		NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8),
		NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_1),
		NB_EXIT(),
		NB_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 8),
		NB_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_1),
		NB_STX_MEM(BPF_DW, BPF_REG_2, BPF_REG_3, 8),
		NB_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 0),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_JMP_REG(BPF_JNE, BPF_REG_1, BPF_REG_3, 1),
		NB_MOV64_IMM(BPF_REG_0, 1),
		NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = &log };
	struct nb_prog *prog;
	int err = nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, ARRAY_SIZE(insns), &opts, &prog);

	if (err)
		NB_FAIL("the verifier refuses the bpf_loop program: %s", nb_log_text(&log));
	NB_ASSERT_EQ(nb_prog_run(prog, NULL), (6ULL << 32) | 15);
	nb_prog_put(prog);
	nb_log_free(&log);
}
