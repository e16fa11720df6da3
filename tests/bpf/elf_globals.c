// SPDX-License-Identifier: GPL-2.0
/*
 * Global data and linking: const volatile .rodata set before load, .data, .bss, a string in
 * .rodata.str1.1, .text subprograms (static and global) shared by several programs, two
 * programs in one section, and a bpf_loop callback whose address a ldimm64 takes.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 factor = 3;
const volatile __u64 offset_ro = 0;
__u64 data_counter = 5;
__u32 table[4] = { 1, 2, 3, 4 };
__u64 bss_counter;
__u32 bss_seen;

static __attribute__((noinline)) __u64 scale(__u64 x)
{
	return x * factor + offset_ro;
}

__attribute__((noinline)) int add_bss(int n)
{
	bss_counter += n;
	return bss_counter;
}

/* data_counter = 6; returns 6 * factor + offset_ro. */
SEC("socket")
int prog_a(void *ctx)
{
	data_counter += 1;
	return scale(data_counter);
}

/* add_bss(table[2]) + scale(2): 3 + 2 * factor + offset_ro on the first run. */
SEC("socket")
int prog_b(void *ctx)
{
	return add_bss(table[2]) + scale(2);
}

static int loop_step(__u32 i, void *data)
{
	__u64 *sum = data;

	*sum += table[i & 3];
	return 0;
}

/* Sums table[0..3] with bpf_loop (10), stores it in bss_seen and returns it. */
SEC("classifier")
int prog_loop(void *ctx)
{
	__u64 sum = 0;

	bpf_loop(4, loop_step, &sum, 0);
	bss_seen = sum;
	return sum;
}

/* A string literal: .rodata.str1.1; returns its third character ('c'). */
SEC("classifier")
int prog_str(void *ctx)
{
	static const char msg[] = "abcdef";
	volatile const char *p = msg;

	return p[2] + add_bss(0) * 0;
}

char _license[] SEC("license") = "GPL";
