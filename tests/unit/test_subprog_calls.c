// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-to-bpf calls at run time, on the interpreter and the JIT (tests/bpf/subprog_calls.c):
 * a tail call from a subprogram returns its target's r0 to the subprogram's caller; one count
 * of 33 tail calls holds for the whole run however deep the calls that make them; an LD_ABS
 * that fails returns 0 from its subprogram only; global functions run as any call.
 * tests/kernel/test_diff_kernel.c holds the same object to the running kernel.
 */
#include <netbpf/test_run.h>

#include "bpf/map.h"
#include "elf_util.h"
#include "pkt/pkt.h"

/* An Ethernet + IPv4 frame: byte 0 is 0x02, byte 14 (the IP header's first) is 0x45. */
static const __u8 frame[64] = { 0x02, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };
/* An Ethernet header alone (of an ARP frame: test runs refuse IP frames without their header). */
static const __u8 header_only[14] = { 0x02, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x06 };

static struct nb_object *load(bool jit)
{
	struct nb_object *obj = elf_test_open_loaded("subprog_calls.o", jit);

	if (jit) {
		struct nb_object_prog *p;

		nb_object_for_each_prog(p, obj)
			if (!nb_prog_is_jited(nb_object_prog_prog(p)))
				NB_FAIL("%s was not JIT-compiled", nb_object_prog_name(p));
	}
	return obj;
}

static __u32 run(struct nb_object *obj, const char *name, __u32 len)
{
	struct nb_object_prog *p = nb_object_find_prog(obj, NULL, name);
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = len < 64 ? header_only : frame,
				      .data_size_in = len };

	NB_ASSERT(p && nb_object_prog_prog(p));
	NB_ASSERT_EQ(nb_prog_test_run(nb_object_prog_prog(p), &o), 0);
	return o.retval;
}

static __u32 bss_word(struct nb_object *obj, unsigned int index)
{
	__u32 words[2] = { 0 }, zero = 0;

	NB_ASSERT_EQ(nb_map_lookup_elem(elf_test_map(obj, ".bss"), &zero, words), 0);
	return words[index];
}

static void check_runs(bool jit)
{
	struct nb_object *obj = load(jit);

	/* The target's 7 comes back through the subprogram; a miss goes on in it. */
	NB_ASSERT_EQ(run(obj, "tail_in_subprog", 64), 107);
	NB_ASSERT_EQ(run(obj, "tail_in_subprog_miss", 64), 64 + 1100);
	/* Two tail calls per run, nested 33 deep: the run's one count stops them at 33. */
	NB_ASSERT_EQ(run(obj, "hierarchy", 64), 0);
	NB_ASSERT_EQ(bss_word(obj, 0), 34);
	NB_ASSERT_EQ(run(obj, "hierarchy", 64), 0);
	NB_ASSERT_EQ(bss_word(obj, 0), 68);
	NB_ASSERT_EQ(run(obj, "global_hierarchy", 64), 64 + 1000);
	NB_ASSERT_EQ(bss_word(obj, 1), 34);
	/* Both loads succeed on 64 bytes; on 14 the load at 14 returns 0 from its subprogram. */
	NB_ASSERT_EQ(run(obj, "ld_abs_in_subprog", 64), 0x02 + 1 + (0x45 + 1) * 0x100 + 5);
	NB_ASSERT_EQ(run(obj, "ld_abs_in_subprog", 14), 0x02 + 1 + 5);
	NB_ASSERT_EQ(run(obj, "global_scalar_and_mem", 64), 64 + 0x02);
	nb_object_close(obj);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(subprog_calls_interp)
{
	check_runs(false);
}

NB_TEST(subprog_calls_jit)
{
#ifdef __x86_64__
	check_runs(true);
#else
	nb_test_skip("no JIT on this architecture");
#endif
}
