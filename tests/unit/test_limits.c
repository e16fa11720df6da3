// SPDX-License-Identifier: GPL-2.0
/*
 * Limits end in clear errors, never in a crash, a hang or a silent loss: program size, the
 * verifier's budget of processed instructions (which bounds its time and memory), map sizes
 * and the memory they take, devices, filter priorities, workers, the packet pools. The loops a
 * program can make are bounded where the kernel bounds them: tail calls at 33
 * (tests/unit/test_map_prog_array.c), redirects back into a receive path at
 * NB_RX_REDIRECT_LIMIT with a recursion drop (tests/unit/test_tc_redirect.c); tests/cli/limits.sh
 * runs out of packet buffers under netbpf run.
 */
#include <errno.h>
#include <stdlib.h>

#include <netbpf/dev.h>
#include <netbpf/map.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>
#include <netbpf/tc.h>

#include "bpf/insn.h"
#include "pkt/pkt.h"
#include "bpf_asm.h"
#include "test.h"

static int load(const struct bpf_insn *insns, u32 cnt, struct nb_log *log)
{
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = log };
	struct nb_prog *prog = NULL;
	int err = nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &opts, &prog);

	nb_prog_put(prog);
	return err;
}

/* One instruction past the kernel's limit for privileged programs (BPF_COMPLEXITY_LIMIT_INSNS). */
NB_TEST(limit_program_size)
{
	u32 cnt = NB_MAX_INSNS + 1;
	struct bpf_insn *insns = calloc(cnt, sizeof(*insns));
	struct nb_log log = { 0 };

	NB_ASSERT(insns);
	for (u32 i = 0; i < cnt - 1; i++)
		insns[i] = NB_MOV64_IMM(BPF_REG_0, 0);
	insns[cnt - 1] = NB_EXIT();
	NB_ASSERT_EQ(load(insns, cnt, &log), -E2BIG);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "more than the limit of 1000000");
	nb_log_free(&log);
	free(insns);
}

/*
 * A loop the verifier must walk two million times: it stops at 1,000,000 processed
 * instructions with the kernel's message, in bounded time and memory.
 */
NB_TEST(limit_verifier_budget)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_0, 1),
		NB_JMP_IMM(BPF_JLT, BPF_REG_0, 1000000, -2),
		NB_EXIT(),
	};
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(load(insns, ARRAY_SIZE(insns), &log), -E2BIG);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "BPF program is too large. Processed 1000001 insn");
	nb_log_free(&log);
}

static int map(enum bpf_map_type type, u32 key, u32 value, u32 max, u32 flags,
	       struct nb_log *log)
{
	struct nb_map_create_opts o = { .sz = sizeof(o), .name = "big", .map_flags = flags,
					.log = log };
	struct nb_map *m = NULL;
	int err = nb_map_create(type, key, value, max, &o, &m);

	nb_map_put(m);
	return err;
}

/* Map sizes the kernel refuses, and maps that would not fit in memory. */
NB_TEST(limit_map_sizes)
{
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(map(BPF_MAP_TYPE_HASH, 4, 8, (1U << 31) + 1, 0, &log), -E2BIG);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "above the limit");
	nb_log_free(&log);
	NB_ASSERT_EQ(map(BPF_MAP_TYPE_HASH, 4, 1 << 22, 4, 0, &log), -E2BIG);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "too large");
	nb_log_free(&log);
	/* 4 GiB of array: more than the kernel's vmalloc gives */
	NB_ASSERT_EQ(map(BPF_MAP_TYPE_ARRAY, 4, 1 << 16, 1 << 16, 0, &log), -ENOMEM);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "do not fit in memory");
	nb_log_free(&log);
	/* a preallocated hash of 2^31 elements of 256 KiB: its pool cannot be had */
	NB_ASSERT_EQ(map(BPF_MAP_TYPE_HASH, 8, 256 << 10, 1U << 31, 0, &log), -ENOMEM);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "out of memory for 2147483648 entries");
	nb_log_free(&log);
}

/* Devices are named by ifindex up to 65535: past it, an error that says so. */
NB_TEST(limit_devices)
{
	struct nb_log log = { 0 };
	struct nb_dev *dev;

	NB_ASSERT_EQ(nb_dev_create("toomany", 65536, &dev, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "ifindex 65536 is above the limit of 65535");
	nb_log_free(&log);
}

/* A filter's priority is 16 bits, as tc's. */
NB_TEST(limit_filter_pref)
{
	struct nb_log log = { 0 };
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "matchall",
				       .pref = 0x10000, .log = &log };
	struct nb_tc_filter_id id;
	struct nb_dev *dev;

	NB_ASSERT_EQ(nb_dev_create("prefs", 0, &dev, &log), 0);
	NB_ASSERT_EQ(nb_tc_qdisc_add(dev, NB_TC_QDISC_CLSACT, &log), 0);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, &id), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "pref 65536 is above 65535");
	nb_log_free(&log);
	nb_dev_destroy_all();
}

/* Workers: 1 to NB_MAX_CPUS. */
NB_TEST(limit_workers)
{
	NB_ASSERT_EQ(nb_set_nr_cpus(0), -EINVAL);
	NB_ASSERT_EQ(nb_set_nr_cpus(NB_MAX_CPUS + 1), -EINVAL);
}

/*
 * A capped packet pool runs dry: allocations fail as they would without memory, nothing
 * blocks, and every buffer handed out comes back.
 */
NB_TEST(limit_packet_pool)
{
	static struct nb_pkt *held[4096];
	unsigned int n = 0;

	nb_pkt_pool_set_max(256);
	while (n < ARRAY_SIZE(held) && (held[n] = nb_pkt_alloc()))
		n++;
	NB_ASSERT(n >= 200 && n <= 256 + 64);	/* the cap, give or take a thread's cache */
	NB_ASSERT(!nb_pkt_alloc_data("\x02\x00", 2));
	NB_ASSERT_EQ(nb_pkt_alloc_bulk(held + n, 32), 0);	/* a burst finds none either */
	while (n)
		nb_pkt_free(held[--n]);
	held[0] = nb_pkt_alloc();
	NB_ASSERT(held[0]);	/* freed buffers are there again */
	nb_pkt_free(held[0]);
	nb_pkt_pool_set_max(0);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
