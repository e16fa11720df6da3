// SPDX-License-Identifier: GPL-2.0
/*
 * Verifier cases of bpf_spin_lock, each a case of tests/kernel/verifier_cases.c with the
 * kernel's verdict: the lock of a map value taken and released around plain accesses, in a
 * static function too; two locks, an exit or a helper call under the lock, an unlock without
 * a lock or of another value, the lock's bytes read or written, a lock at the wrong offset or
 * in a map without one are refused.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct locked {
	int cnt;
	struct bpf_spin_lock lock;
	int other;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct locked);
} locked_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} plain_map SEC(".maps");

static __noinline int add_under_lock(struct locked *v)
{
	v->cnt++;
	return v->cnt;
}

SEC("tc")
int ok_tc_spin_lock(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct locked *v = bpf_map_lookup_elem(&locked_map, &key);
	int ret;

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	ret = add_under_lock(v);
	bpf_spin_unlock(&v->lock);
	return ret & 1;
}

SEC("tc")
int bad_tc_spin_lock_twice(struct __sk_buff *skb)
{
	__u32 key = 0, key2 = 1;
	struct locked *v = bpf_map_lookup_elem(&locked_map, &key);
	struct locked *w = bpf_map_lookup_elem(&locked_map, &key2);

	if (!v || !w)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	bpf_spin_lock(&w->lock);
	bpf_spin_unlock(&w->lock);
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_spin_lock_exit(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct locked *v = bpf_map_lookup_elem(&locked_map, &key);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	if (skb->len > 100)
		return TC_ACT_SHOT;
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_spin_lock_helper(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct locked *v = bpf_map_lookup_elem(&locked_map, &key);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	v->cnt = bpf_get_prandom_u32();
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_spin_unlock_unlocked(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct locked *v = bpf_map_lookup_elem(&locked_map, &key);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_spin_unlock_other(struct __sk_buff *skb)
{
	__u32 key = 0, key2 = 1;
	struct locked *v = bpf_map_lookup_elem(&locked_map, &key);
	struct locked *w = bpf_map_lookup_elem(&locked_map, &key2);

	if (!v || !w)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&w->lock);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_spin_lock_read(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct locked *v = bpf_map_lookup_elem(&locked_map, &key);

	if (!v)
		return TC_ACT_OK;
	return *(volatile __u32 *)&v->lock;
}

SEC("tc")
int bad_tc_spin_lock_offset(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct locked *v = bpf_map_lookup_elem(&locked_map, &key);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock((struct bpf_spin_lock *)&v->other);
	bpf_spin_unlock((struct bpf_spin_lock *)&v->other);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_spin_lock_no_lock(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&plain_map, &key);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock((struct bpf_spin_lock *)v);
	bpf_spin_unlock((struct bpf_spin_lock *)v);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
