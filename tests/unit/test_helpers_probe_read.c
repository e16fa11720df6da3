// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_probe_read_{kernel,user}[_str] in verified tc programs: reads of any address that fail
 * with -EFAULT and a zeroed destination instead of faulting, strings truncated to the buffer
 * with their NUL, and a string ending just before an unreadable page read without touching it.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include <netbpf/prog.h>

#include "bpf_asm.h"
#include "test.h"

#define DST_OFF (-16)

/*
 * r1 = fp-16 (pre-filled with 0xff), r2 = size, r3 = addr; call; return the helper's result
 * when want_ret, else the 8 bytes at fp-16 afterwards.
 */
static __u64 run_probe(enum bpf_func_id func, __u64 addr, __u32 size, bool want_ret)
{
	const struct bpf_insn insns[] = {
		NB_ST_MEM(BPF_DW, BPF_REG_10, DST_OFF, -1),
		NB_ST_MEM(BPF_DW, BPF_REG_10, DST_OFF + 8, -1),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_1, DST_OFF),
		NB_MOV64_IMM(BPF_REG_2, size),
		NB_LD_IMM64(BPF_REG_3, addr),
		NB_CALL_HELPER(func),
		want_ret ? NB_MOV64_REG(BPF_REG_0, BPF_REG_0)
			 : NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, DST_OFF),
		NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = &log };
	struct nb_prog *prog;
	__u64 r0;
	int err = nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns), &opts, &prog);

	if (err)
		NB_FAIL("load: %d: %s", err, nb_log_text(&log));
	nb_log_free(&log);
	r0 = nb_prog_run(prog, NULL);
	nb_prog_put(prog);
	return r0;
}

static const __u64 word = 0x1122334455667788ULL;

NB_TEST(helpers_probe_read_kernel)
{
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel, (uintptr_t)&word, 8, true), 0);
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel, (uintptr_t)&word, 8, false), word);
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_user, (uintptr_t)&word, 8, false), word);
}

NB_TEST(helpers_probe_read_bad_address_zeroes)
{
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel, 0x10, 8, true), (__u64)-EFAULT);
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel, 0x10, 8, false), 0);
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_user, ~0ULL - 4, 8, true), (__u64)-EFAULT);
	/* Nothing to read: nothing to fault on. */
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel, 0x10, 0, true), 0);
}

NB_TEST(helpers_probe_read_str)
{
	static const char name[] = "eth0";
	__u64 bytes;

	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel_str, (uintptr_t)name, 16, true), 5);
	bytes = run_probe(BPF_FUNC_probe_read_kernel_str, (uintptr_t)name, 16, false);
	NB_ASSERT(!memcmp(&bytes, "eth0\0", 5));
	/* Truncated to the buffer, still terminated. */
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_user_str, (uintptr_t)name, 3, true), 3);
	bytes = run_probe(BPF_FUNC_probe_read_user_str, (uintptr_t)name, 3, false);
	NB_ASSERT(!memcmp(&bytes, "et\0", 3));
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel_str, 0x10, 16, true), (__u64)-EFAULT);
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel_str, 0x10, 16, false), 0);
}

NB_TEST(helpers_probe_read_str_stops_before_unreadable_page)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	char *str;

	NB_ASSERT(map != MAP_FAILED);
	/* A guard page, not a hole: the program's own load may map memory into a hole. */
	NB_ASSERT_EQ(mprotect(map + page, page, PROT_NONE), 0);
	str = map + page - 4;
	memcpy(str, "abc", 4);
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel_str, (uintptr_t)str, 16, true), 4);
	/* Without a NUL before the hole the read fails, whole. */
	str[3] = 'd';
	NB_ASSERT_EQ(run_probe(BPF_FUNC_probe_read_kernel_str, (uintptr_t)str, 16, true),
		     (__u64)-EFAULT);
	munmap(map, 2 * page);
}
