// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_spin_lock at run time (tests/unit/test_spin_lock.c): two counters moved together under
 * the lock of a hash map value and under a global variable's lock, from several threads at
 * once; any lost update shows as counters that differ from the runs made.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct counted {
	__u64 a;
	struct bpf_spin_lock lock;
	__u64 b;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct counted);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct counted);
} slots SEC(".maps");

struct bpf_spin_lock global_lock SEC(".data.lock");
__u64 global_a SEC(".data.lock");
__u64 global_b SEC(".data.lock");

/* Read, then write back one more, each counter: without the lock, runs overlap and lose some. */
static __always_inline void bump(volatile __u64 *a, volatile __u64 *b)
{
	__u64 x = *a, y = *b;

	*a = x + 1;
	*b = y + 1;
}

SEC("tc")
int hash_locked_add(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct counted *v = bpf_map_lookup_elem(&counters, &key);

	if (!v)
		return TC_ACT_SHOT;
	bpf_spin_lock(&v->lock);
	bump(&v->a, &v->b);
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}

SEC("tc")
int array_locked_add(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct counted *v = bpf_map_lookup_elem(&slots, &key);

	if (!v)
		return TC_ACT_SHOT;
	bpf_spin_lock(&v->lock);
	bump(&v->a, &v->b);
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}

SEC("tc")
int global_locked_add(struct __sk_buff *skb)
{
	bpf_spin_lock(&global_lock);
	bump(&global_a, &global_b);
	bpf_spin_unlock(&global_lock);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
