// SPDX-License-Identifier: GPL-2.0
/*
 * A program whose only purpose is to make clang emit many instruction forms, so that
 * tests/cli/vm_dis.sh can compare netbpf's disassembly with llvm-objdump's line by line.
 * It is never run.
 */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))

unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");
unsigned long long load_half(void *skb, unsigned long long off) asm("llvm.bpf.load.half");
unsigned long long load_word(void *skb, unsigned long long off) asm("llvm.bpf.load.word");

static long (*bpf_redirect)(__u32 ifindex, __u64 flags) = (void *)BPF_FUNC_redirect;
static long (*bpf_skb_pull_data)(struct __sk_buff *skb, __u32 len) = (void *)BPF_FUNC_skb_pull_data;

static __attribute__((noinline)) __u64 mix(__u64 a, __u64 b)
{
	a ^= b << 7;
	a |= b >> 3;
	a &= ~(b * 5);
	a -= (__s64)b >> 9;
	return a + 0x1234567890ull;
}

static __attribute__((noinline)) __u32 mix32(__u32 a, __u32 b)
{
	a ^= b << 3;
	a |= b >> 5;
	a &= b * 7;
	a -= (__s32)b >> 2;
	a /= (b | 1);
	a %= (b | 3);
	return -a;
}

SEC("tc") int forms(struct __sk_buff *skb)
{
	volatile __u64 v64 = skb->len;
	volatile __u32 v32 = skb->mark;
	volatile __u16 v16 = skb->protocol;
	volatile __u8 v8 = skb->pkt_type;
	__u64 x, y;
	__s64 s;

	__sync_fetch_and_add(&v64, 3);
	__sync_fetch_and_or(&v64, skb->hash);
	__sync_fetch_and_and(&v64, skb->priority);
	__sync_fetch_and_xor(&v64, skb->ifindex);
	__sync_fetch_and_add(&v32, 5);
	__sync_fetch_and_xor(&v32, skb->hash);
	x = __sync_fetch_and_add(&v64, skb->tc_index);
	x += __sync_fetch_and_or(&v64, skb->queue_mapping);
	x += __sync_fetch_and_and(&v32, skb->vlan_tci);
	x += __sync_fetch_and_xor(&v32, skb->vlan_proto);
	x += __sync_val_compare_and_swap(&v64, 1, x);
	x += __sync_lock_test_and_set(&v64, 9);
	x += __builtin_bswap16(v16) + __builtin_bswap32(v32) + __builtin_bswap64(v64) + v8;
	x += load_byte(skb, 12) + load_half(skb, 20) + load_word(skb, x & 63);
	y = mix(x, v64) + mix32(x, v32);
	s = (__s64)y;
	if (s < -7)
		y += 11;
	if (y > 0x7fffffff)
		y /= skb->len | 1;
	if ((__s32)y >= 12)
		y %= skb->mark | 1;
	if ((__u32)y <= 99)
		y *= 3;
	if (y & 0x40)
		y = y * y;
	if ((__s32)v32 != (__s32)y)
		y <<= skb->cb[0] & 31;
	if (v64 == 12345)
		return bpf_skb_pull_data(skb, 14);
	if (y == 0xffffffffffull)
		return bpf_redirect(skb->ifindex, 0);
	return y;
}

char _license[] SEC("license") = "GPL";
