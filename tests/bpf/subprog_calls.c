// SPDX-License-Identifier: GPL-2.0
/*
 * How bpf-to-bpf calls run when the object carries BTF (clang -g): a tail call from a
 * subprogram, whose target returns to the subprogram's caller; one count of tail calls for the
 * whole run, however the calls nest (33 at most, as the kernel's); an LD_ABS that fails in a
 * subprogram, which returns 0 from that subprogram only; global functions, verified on their
 * own and run as any other call. tests/unit/test_subprog_calls.c checks the results on the
 * interpreter and the JIT, tests/kernel/test_diff_kernel.c against the running kernel.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#define __noinline __attribute__((noinline))

/* Tail calls made by the hierarchy programs, counted per run. */
__u32 hierarchy_runs;
__u32 global_hierarchy_runs;

unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");

int tail_target(struct __sk_buff *skb);
int hierarchy(struct __sk_buff *skb);
int global_hierarchy(struct __sk_buff *skb);

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, int(struct __sk_buff *));
} jumps SEC(".maps") = {
	.values = {
		[0] = (void *)&tail_target,
		[1] = (void *)&hierarchy,
		[2] = (void *)&global_hierarchy,
	},
};

/* The tail call's target's result, or the packet's length plus 1000 when it misses. */
static __noinline int tail_from_subprog(struct __sk_buff *skb, __u32 slot)
{
	bpf_tail_call(skb, &jumps, slot);
	return skb->len + 1000;
}

__noinline int tail_from_global(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jumps, 2);
	return skb->len + 1000;
}

/* A byte of the packet plus one, or 0 when the load fails (the subprogram returns early). */
static __noinline int byte_plus_one(struct __sk_buff *skb, __u32 off)
{
	return load_byte(skb, off) + 1;
}

__noinline int add(int a, int b)
{
	return a + b;
}

__noinline int first_byte_or(const __u8 *p, int dflt)
{
	if (!p)
		return dflt;
	return *p;
}

SEC("tc")
int tail_target(struct __sk_buff *skb)
{
	return 7;
}

/* 107: the target's 7 comes back to the subprogram's caller. */
SEC("tc")
int tail_in_subprog(struct __sk_buff *skb)
{
	return tail_from_subprog(skb, 0) + 100;
}

/* The length plus 1100: slot 3 is empty, the subprogram goes on. */
SEC("tc")
int tail_in_subprog_miss(struct __sk_buff *skb)
{
	return tail_from_subprog(skb, 3) + 100;
}

/*
 * Each run calls itself through two subprograms' tail calls; every call counts against the
 * run's 33, so a run runs the program 34 times whatever the nesting.
 */
SEC("tc")
int hierarchy(struct __sk_buff *skb)
{
	hierarchy_runs++;
	tail_from_subprog(skb, 1);
	tail_from_subprog(skb, 1);
	return 0;
}

/* The same through a global function's tail call. */
SEC("tc")
int global_hierarchy(struct __sk_buff *skb)
{
	global_hierarchy_runs++;
	tail_from_global(skb);
	return tail_from_global(skb);
}

/* The first byte plus 6, or 5 when the packet is too short for the load at 14. */
SEC("tc")
int ld_abs_in_subprog(struct __sk_buff *skb)
{
	return byte_plus_one(skb, 0) + byte_plus_one(skb, 14) * 0x100 + 5;
}

SEC("tc")
int global_scalar_and_mem(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	const __u8 *first = data + 1 <= end ? data : NULL;

	return add(skb->len, first_byte_or(first, 1000));
}

char _license[] SEC("license") = "GPL";
