// SPDX-License-Identifier: GPL-2.0
/*
 * Every common map kind in .maps: hash, array, percpu array and hash, lru and lru percpu hash,
 * lpm trie, a program array with `values`, an array and a hash of maps with `values`, ringbuf,
 * queue and stack, and programs that use them without touching their context.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} pcpu_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 16);
	__uint(key_size, 4);
	__uint(value_size, 8);
} pcpu_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 32);
	__type(key, __u64);
	__type(value, __u32);
} lru SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__uint(max_entries, 32);
	__type(key, __u32);
	__type(value, __u32);
} lru_pcpu SEC(".maps");

struct lpm_v4_key {
	__u32 prefixlen;
	__u8 addr[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct lpm_v4_key);
	__type(value, __u32);
} lpm SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 8);
	__type(value, __u32);
} queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(max_entries, 8);
	__type(value, __u32);
} stack SEC(".maps");

struct inner_array {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
};

struct inner_array inner_a SEC(".maps"), inner_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner_array);
} outer SEC(".maps") = {
	.values = { &inner_a, &inner_b },
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 8);
	__type(key, __u32);
	__array(values, struct inner_array);
} hash_outer SEC(".maps") = {
	.values = { [3] = &inner_a },
};

int tail_target(void *ctx);

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, int (void *));
} jmp_table SEC(".maps") = {
	.values = { [1] = (void *)&tail_target },
};

/* Reached through jmp_table[1]: returns 42. */
SEC("socket")
int tail_target(void *ctx)
{
	return 42;
}

/* Tail-calls jmp_table[1]; returns 1 only when the tail call fails. */
SEC("socket")
int use_tail(void *ctx)
{
	bpf_tail_call(ctx, &jmp_table, 1);
	return 1;
}

/* hash[1] = 11, array[2] = 22, lru[3] = 33; returns the sum read back (66). */
SEC("socket")
int use_basic(void *ctx)
{
	__u32 k32 = 1, v32;
	__u64 k64 = 3, v64 = 11, *p64;
	__u32 *p32, sum = 0;

	bpf_map_update_elem(&hash, &k32, &v64, BPF_ANY);
	p64 = bpf_map_lookup_elem(&hash, &k32);
	if (p64)
		sum += *p64;
	k32 = 2;
	v32 = 22;
	bpf_map_update_elem(&array, &k32, &v32, BPF_ANY);
	p32 = bpf_map_lookup_elem(&array, &k32);
	if (p32)
		sum += *p32;
	v32 = 33;
	bpf_map_update_elem(&lru, &k64, &v32, BPF_ANY);
	p32 = bpf_map_lookup_elem(&lru, &k64);
	if (p32)
		sum += *p32;
	return sum;
}

/* outer[1] is inner_b: inner_b[0] = 7; returns 7 read back through the outer map. */
SEC("socket")
int use_inner(void *ctx)
{
	__u32 outer_key = 1, key = 0;
	__u64 val = 7, *v;
	void *inner;

	inner = bpf_map_lookup_elem(&outer, &outer_key);
	if (!inner)
		return -1;
	bpf_map_update_elem(inner, &key, &val, BPF_ANY);
	v = bpf_map_lookup_elem(inner, &key);
	return v ? *v : -2;
}

/* Pushes 1, 2, 3 on both; pops: the queue yields 1, the stack 3; returns 10 * 1 + 3 = 13. */
SEC("socket")
int use_queue_stack(void *ctx)
{
	__u32 v1 = 1, v2 = 2, v3 = 3, a = 0, b = 0;

	bpf_map_push_elem(&queue, &v1, BPF_ANY);
	bpf_map_push_elem(&stack, &v1, BPF_ANY);
	bpf_map_push_elem(&queue, &v2, BPF_ANY);
	bpf_map_push_elem(&stack, &v2, BPF_ANY);
	bpf_map_push_elem(&queue, &v3, BPF_ANY);
	bpf_map_push_elem(&stack, &v3, BPF_ANY);
	bpf_map_pop_elem(&queue, &a);
	bpf_map_pop_elem(&stack, &b);
	return a * 10 + b;
}

/* 10.1.0.0/16 -> 16, then looks up 10.1.2.3/32: returns 16. */
SEC("socket")
int use_lpm(void *ctx)
{
	struct lpm_v4_key k = { .prefixlen = 16, .addr = { 10, 1, 0, 0 } };
	__u32 val = 16, *v;

	bpf_map_update_elem(&lpm, &k, &val, BPF_ANY);
	k.prefixlen = 32;
	k.addr[2] = 2;
	k.addr[3] = 3;
	v = bpf_map_lookup_elem(&lpm, &k);
	return v ? *v : 0;
}

/* Adds 5 to pcpu_array[0] and pcpu_hash[9], 1 to lru_pcpu[4]; writes 8 bytes to rb. */
SEC("socket")
int use_percpu(void *ctx)
{
	__u32 k = 0, one = 1;
	__u64 five = 5, *v, rec = 0x1122334455667788ULL;

	v = bpf_map_lookup_elem(&pcpu_array, &k);
	if (v)
		*v += 5;
	k = 9;
	bpf_map_update_elem(&pcpu_hash, &k, &five, BPF_ANY);
	k = 4;
	bpf_map_update_elem(&lru_pcpu, &k, &one, BPF_ANY);
	return bpf_ringbuf_output(&rb, &rec, sizeof(rec), 0);
}

char _license[] SEC("license") = "GPL";
