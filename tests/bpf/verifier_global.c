// SPDX-License-Identifier: GPL-2.0
/*
 * Global (non-static) functions and the kernel's subprogram rules, each program a case of
 * tests/kernel/test_global_func_kernel.c with the running kernel's verdict: ok_* programs are
 * accepted, bad_* rejected for the one mistake their comment names. A global function is
 * verified once, on its own, from its BTF prototype: int and enum arguments are any scalar, a
 * pointer to the context struct is the context, any other pointer is memory of the pointee's
 * size that may be NULL (arg:nonnull: may not); every caller must pass what the prototype says
 * and gets an unknown scalar back.
 */
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#define __noinline	__attribute__((noinline))
/* Functions written in assembly, where clang would fold what the cases need left alone. */
#define __naked		__attribute__((naked))
#define __imm(name)	[name] "i"(name)
#define __imm_addr(name) [name] "i"(&name)
#define __clobber_all	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"
#define __arg_ctx	__attribute__((btf_decl_tag("arg:ctx")))
#define __arg_nonnull	__attribute__((btf_decl_tag("arg:nonnull")))

struct big {
	__u64 words[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct big);
} table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} jumps SEC(".maps");

/* Set by the loader before load, zero here: the verifier reads it as a known 0. */
const volatile int never;
const int fixed = 1;

unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");

__noinline int g_scale(int x)
{
	return x * 3;
}

__noinline int g_len_over(struct __sk_buff *skb)
{
	return skb->len > 100;
}

__noinline int g_read_or_zero(int *p)
{
	if (!p)
		return 0;
	return *p;
}

__noinline int g_read(int *p)
{
	return *p;
}

__noinline int g_read_nonnull(int *p __arg_nonnull)
{
	return *p;
}

__noinline int g_last_word(struct big *b)
{
	if (!b)
		return 0;
	return b->words[7];
}

__noinline int g_write(int *p)
{
	if (!p)
		return 0;
	*p = 1;
	return 0;
}

__noinline int g_write_byte(char *p)
{
	if (p)
		*p = 1;
	return 0;
}

__noinline void g_mark(struct __sk_buff *skb)
{
	skb->mark = 1;
}

__noinline int g_is_set(void *p)
{
	return p != NULL;
}

__noinline int g_pull(struct __sk_buff *skb)
{
	return bpf_skb_pull_data(skb, 0);
}

__noinline int g_tail(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jumps, 0);
	return 1;
}

__noinline int g_hash(void *ctx __arg_ctx)
{
	return bpf_get_hash_recalc(ctx) & 1;
}

__noinline int g_wrong_ctx_tag(struct xdp_md *ctx __arg_ctx)
{
	return ctx != NULL;
}

__noinline int g_xdp_len(struct xdp_md *ctx)
{
	return ctx->data_end - ctx->data > 60;
}

/* The kernel's own name of a tc program's context: the kernel takes it for the context too. */
struct sk_buff {
	__u32 len;
};

__noinline int g_kernel_ctx(struct sk_buff *skb)
{
	return bpf_get_hash_recalc((void *)skb) & 1;
}

__noinline int g_kernel_ctx_tagged(struct sk_buff *skb __arg_ctx)
{
	return bpf_get_hash_recalc((void *)skb) & 1;
}

__noinline int g_twice(int x)
{
	return g_scale(x) + g_scale(x + 1);
}

__noinline int g_leak_ctx(struct __sk_buff *skb)
{
	return (long)skb;
}

__noinline struct big *g_lookup(int k)
{
	return bpf_map_lookup_elem(&table, &k);
}

__noinline int g_negative(int x)
{
	return x < 0;
}

static __noinline int s_tail(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jumps, 0);
	return skb->len;
}

static __noinline void s_tail_void(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jumps, 0);
}

/* Tags are for global functions: on a static one the kernel only stops using the prototype. */
static __noinline int s_tagged(void *ctx __arg_ctx)
{
	return bpf_get_hash_recalc(ctx) & 1;
}

static __noinline int s_first_byte(struct __sk_buff *skb)
{
	return load_byte(skb, 0) + 1;
}

static __noinline void s_first_byte_void(struct __sk_buff *skb)
{
	skb->mark = load_byte(skb, 0);
}

/* 1 when the tail call misses; when it hits, whatever its target returns. */
static __noinline __naked __attribute__((used)) int s_tail_then_one(void)
{
	asm volatile("r2 = %[jumps] ll;"
		     "r3 = 0;"
		     "call %[bpf_tail_call];"
		     "r0 = 1;"
		     "exit;"
		     :
		     : __imm_addr(jumps), __imm(bpf_tail_call)
		     : __clobber_all);
}

/* 1 when the load succeeds, 0 when it fails and returns early. */
static __noinline __naked __attribute__((used)) int s_ld_abs_then_one(void)
{
	asm volatile("r6 = r1;"
		     "r0 = *(u8 *)skb[0];"
		     "r0 = 1;"
		     "exit;"
		     ::: __clobber_all);
}

SEC("tc")
int ok_scalar_arg(struct __sk_buff *skb)
{
	return g_scale(skb->len) & 1;
}

SEC("tc")
int ok_ctx_arg(struct __sk_buff *skb)
{
	return g_len_over(skb);
}

/* A pointer to a copy on the stack is not the context. */
SEC("tc")
int bad_ctx_arg_not_ctx(struct __sk_buff *skb)
{
	struct __sk_buff copy = { .len = skb->len };

	return g_len_over(&copy);
}

/* The context must be passed whole, at its start. */
SEC("tc")
int bad_ctx_arg_modified(struct __sk_buff *skb)
{
	return g_len_over((void *)skb + 4);
}

SEC("tc")
int ok_mem_arg_null_checked(struct __sk_buff *skb)
{
	int v = skb->len;

	return g_read_or_zero(&v) & 1;
}

/* The function reads its argument without the NULL check its prototype calls for. */
SEC("tc")
int bad_mem_arg_unchecked(struct __sk_buff *skb)
{
	int v = skb->len;

	return g_read(&v) & 1;
}

SEC("tc")
int ok_nonnull_arg(struct __sk_buff *skb)
{
	int v = skb->len;

	return g_read_nonnull(&v) & 1;
}

SEC("tc")
int ok_nullable_maybe_null(struct __sk_buff *skb)
{
	__u32 k = skb->len & 15;

	return g_read_or_zero(bpf_map_lookup_elem(&table, &k)) & 1;
}

/* A lookup result that may be NULL for an argument tagged arg:nonnull. */
SEC("tc")
int bad_nonnull_maybe_null(struct __sk_buff *skb)
{
	__u32 k = skb->len & 15;

	return g_read_nonnull(bpf_map_lookup_elem(&table, &k)) & 1;
}

/* NULL itself for an argument tagged arg:nonnull. */
SEC("tc")
int bad_nonnull_null(struct __sk_buff *skb)
{
	return g_read_nonnull(NULL) & 1;
}

SEC("tc")
int ok_mem_map_value(struct __sk_buff *skb)
{
	__u32 k = skb->len & 15;

	return g_last_word(bpf_map_lookup_elem(&table, &k)) & 1;
}

/* 16 bytes of stack where the prototype says 64. */
SEC("tc")
int bad_mem_too_small(struct __sk_buff *skb)
{
	__u64 v[2] = { skb->len, 0 };

	return g_last_word((struct big *)v) & 1;
}

SEC("tc")
int ok_mem_packet(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;

	if (data + sizeof(struct big) > end)
		return 0;
	return g_last_word(data) & 1;
}

/* 32 bytes of packet proven where the prototype says 64. */
SEC("tc")
int bad_mem_packet_short(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;

	if (data + 32 > end)
		return 0;
	return g_last_word(data) & 1;
}

/* A number is no pointer. */
SEC("tc")
int bad_mem_scalar(struct __sk_buff *skb)
{
	return g_last_word((struct big *)(long)skb->len) & 1;
}

/* The callee may write what it is given: not read-only data. */
SEC("tc")
int bad_mem_rdonly(struct __sk_buff *skb)
{
	return g_write((int *)&fixed);
}

/* Global functions must return a scalar. */
SEC("tc")
int bad_void_return(struct __sk_buff *skb)
{
	g_mark(skb);
	return 0;
}

SEC("tc")
int bad_pointer_return(struct __sk_buff *skb)
{
	struct big *b = g_lookup(skb->len & 15);

	return b ? 1 : 0;
}

/* What a function returns must be a scalar on every path. */
SEC("tc")
int bad_returns_ctx(struct __sk_buff *skb)
{
	return g_leak_ctx(skb) & 1;
}

/* void * has no size: no memory argument can be made of it. */
SEC("tc")
int bad_void_pointer_arg(struct __sk_buff *skb)
{
	int v = 0;

	return g_is_set(&v);
}

/* The caller knows nothing of the result: 0 or 1 in fact, an unknown scalar to the verifier. */
SEC("tc")
int bad_result_unknown(struct __sk_buff *skb)
{
	__u64 slots[4] = { 1, 2, 3, 4 };
	int i = g_negative(skb->len);

	return slots[i] & 1;
}

SEC("tc")
int ok_global_calls_global(struct __sk_buff *skb)
{
	return g_twice(skb->len) & 1;
}

/* Only called where the verifier knows the program never goes: never verified. */
SEC("tc")
int ok_dead_global(struct __sk_buff *skb)
{
	int v = 0;

	if (never)
		return g_read(&v);
	return 0;
}

/* The function may move the packet data: the caller's packet pointer is stale after it. */
SEC("tc")
int bad_stale_pkt_after_pull(struct __sk_buff *skb)
{
	int *p = (void *)(long)skb->data;

	if ((void *)(p + 1) > (void *)(long)skb->data_end)
		return 0;
	g_pull(skb);
	*p = 42;
	return 0;
}

SEC("tc")
int ok_pkt_after_plain_call(struct __sk_buff *skb)
{
	int *p = (void *)(long)skb->data;

	if ((void *)(p + 1) > (void *)(long)skb->data_end)
		return 0;
	g_len_over(skb);
	*p = 42;
	return 0;
}

/* A tail call's target may move the packet data before the function returns. */
SEC("tc")
int bad_stale_pkt_after_global_tail_call(struct __sk_buff *skb)
{
	int *p = (void *)(long)skb->data;

	if ((void *)(p + 1) > (void *)(long)skb->data_end)
		return 0;
	g_tail(skb);
	*p = 42;
	return 0;
}

SEC("tc")
int bad_stale_pkt_after_static_tail_call(struct __sk_buff *skb)
{
	int *p = (void *)(long)skb->data;

	if ((void *)(p + 1) > (void *)(long)skb->data_end)
		return 0;
	s_tail(skb);
	*p = 42;
	return 0;
}

SEC("tc")
int ok_pkt_after_main_tail_call(struct __sk_buff *skb)
{
	int *p = (void *)(long)skb->data;

	if ((void *)(p + 1) > (void *)(long)skb->data_end)
		return 0;
	bpf_tail_call(skb, &jumps, 0);
	*p = 42;
	return 0;
}

SEC("tc")
int ok_tail_call_in_static(struct __sk_buff *skb)
{
	return s_tail(skb) & 1;
}

SEC("tc")
int ok_tail_call_in_global(struct __sk_buff *skb)
{
	return g_tail(skb);
}

/* A function that tail-calls must return an int. */
SEC("tc")
int bad_tail_call_void_subprog(struct __sk_buff *skb)
{
	s_tail_void(skb);
	return 0;
}

/* 304 bytes of callers' frames below a function that tail-calls: the limit is 256. */
SEC("tc")
int bad_tail_call_deep_stack(struct __sk_buff *skb)
{
	char buf[300];

	if (bpf_skb_load_bytes(skb, 0, buf, sizeof(buf)))
		return 0;
	return s_tail(skb) + buf[0] + buf[299];
}

SEC("tc")
int ok_tail_call_stack_240(struct __sk_buff *skb)
{
	char buf[240];

	if (bpf_skb_load_bytes(skb, 0, buf, sizeof(buf)))
		return 0;
	return s_tail(skb) + buf[0] + buf[239];
}

SEC("tc")
int ok_ld_abs_in_subprog(struct __sk_buff *skb)
{
	return s_first_byte(skb) & 1;
}

/* A function with LD_ABS may return early, with 0: it must return an int. */
SEC("tc")
int bad_ld_abs_void_subprog(struct __sk_buff *skb)
{
	s_first_byte_void(skb);
	return 0;
}

SEC("tc")
int ok_ctx_tag_void_pointer(struct __sk_buff *skb)
{
	return g_hash(skb);
}

/* arg:ctx on a pointer to another program type's context. */
SEC("tc")
int bad_ctx_tag_wrong_type(struct __sk_buff *skb)
{
	return g_wrong_ctx_tag((void *)skb);
}

SEC("tc")
int ok_kernel_ctx_type(struct __sk_buff *skb)
{
	return g_kernel_ctx((void *)skb);
}

/* With arg:ctx the pointer must be void * or the uapi struct. */
SEC("tc")
int bad_ctx_tag_kernel_type(struct __sk_buff *skb)
{
	return g_kernel_ctx_tagged((void *)skb);
}

SEC("tc")
int ok_ctx_tag_on_static(struct __sk_buff *skb)
{
	return s_tagged(skb);
}

SEC("xdp")
int ok_xdp_ctx_arg(struct xdp_md *ctx)
{
	return g_xdp_len(ctx) ? XDP_PASS : XDP_DROP;
}

/* struct __sk_buff is not an XDP program's context: plain memory, which ctx is not. */
SEC("xdp")
int bad_xdp_skb_arg(struct xdp_md *ctx)
{
	return g_len_over((void *)ctx) ? XDP_PASS : XDP_DROP;
}

/* A tail call that hits returns its target's r0 to the caller: any value, not 1. */
SEC("tc")
__naked int bad_tail_call_result_as_offset(void)
{
	asm volatile("call s_tail_then_one;"
		     "r1 = r10;"
		     "r1 += -8;"
		     "r1 += r0;"
		     "r0 = 0;"
		     "*(u8 *)(r1 + 0) = r0;"
		     "exit;"
		     ::: __clobber_all);
}

/* An LD_ABS that fails returns 0 early: the caller's check of r0 takes the other branch. */
SEC("tc")
__naked int bad_ld_abs_early_return(void)
{
	asm volatile("call s_ld_abs_then_one;"
		     "if r0 != 0 goto 1f;"
		     "r0 = r9;"
		     "1: r0 = 0;"
		     "exit;"
		     ::: __clobber_all);
}

/*
 * The callee may write any byte its argument may point to, at a variable offset too: the
 * pointer spilled there is a scalar after the call.
 */
SEC("tc")
__naked int bad_var_off_arg_clobbers_spill(void)
{
	asm volatile("*(u64 *)(r10 - 8) = r1;"
		     "r2 = *(u32 *)(r1 + 0);"
		     "r2 &= 7;"
		     "r1 = r10;"
		     "r1 += -8;"
		     "r1 += r2;"
		     "call g_write_byte;"
		     "r1 = *(u64 *)(r10 - 8);"
		     "r0 = *(u32 *)(r1 + 0);"
		     "exit;"
		     ::: __clobber_all);
}

char _license[] SEC("license") = "GPL";
