// SPDX-License-Identifier: GPL-2.0
/*
 * Verifier cases of bpf_timer, each a case of tests/kernel/verifier_cases.c with the kernel's
 * verdict: a timer of a hash value and of an array value armed with a callback that writes
 * its value, and one of an inner map's value initialised with that inner map; a timer
 * initialised with another map or another inner map of the same outer map (the kernel's
 * map_uid tells them apart), a callback that returns 1 or a value without bounds, the
 * timer's bytes written, a timer at the wrong offset or in a map without one, a timer helper
 * under a bpf_spin_lock and a callback that writes its key are refused.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/time.h>
#include <bpf/bpf_helpers.h>

struct timed {
	__u64 fired;
	struct bpf_timer timer;
	__u64 other;
};

struct locked_timed {
	struct bpf_spin_lock lock;
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct timed);
} timed_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct timed);
} timed_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct locked_timed);
} locked_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} plain_map SEC(".maps");

/* Timers in inner maps: each lookup of the outer map is an inner map of its own. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct {
		__uint(type, BPF_MAP_TYPE_ARRAY);
		__uint(max_entries, 1);
		__type(key, __u32);
		__type(value, struct timed);
	});
} timed_outer SEC(".maps");

static int count_fired(void *map, __u32 *key, struct timed *v)
{
	v->fired++;
	return 0;
}

static int return_one(void *map, __u32 *key, struct timed *v)
{
	return 1;
}

/* whatever the value holds: a scalar with no bounds */
static long return_fired(void *map, __u32 *key, struct timed *v)
{
	return v->fired;
}

static int write_key(void *map, __u32 *key, struct timed *v)
{
	*key = 1;
	return 0;
}

static __always_inline struct timed *lookup(void *map)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(map, &key);
}

SEC("tc")
int ok_tc_timer_hash(struct __sk_buff *skb)
{
	struct timed *v = lookup(&timed_hash);

	if (!v)
		return TC_ACT_OK;
	bpf_timer_init(&v->timer, &timed_hash, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->timer, count_fired);
	bpf_timer_start(&v->timer, 1000, 0);
	return TC_ACT_OK;
}

SEC("tc")
int ok_tc_timer_array_cancel(struct __sk_buff *skb)
{
	struct timed *v = lookup(&timed_array);

	if (!v)
		return TC_ACT_OK;
	bpf_timer_init(&v->timer, &timed_array, CLOCK_BOOTTIME);
	bpf_timer_set_callback(&v->timer, count_fired);
	bpf_timer_start(&v->timer, 1000, 0);
	return bpf_timer_cancel(&v->timer) == 1 ? TC_ACT_OK : TC_ACT_SHOT;
}

static __always_inline void *lookup_key(void *map, __u32 key)
{
	return bpf_map_lookup_elem(map, &key);
}

SEC("tc")
int ok_tc_timer_inner_map(struct __sk_buff *skb)
{
	void *inner = lookup_key(&timed_outer, 0);
	struct timed *v;

	if (!inner)
		return TC_ACT_OK;
	v = lookup(inner);
	if (!v)
		return TC_ACT_OK;
	bpf_timer_init(&v->timer, inner, CLOCK_MONOTONIC);
	return TC_ACT_OK;
}

/* The timer of one inner map's value initialised with another inner map of the same outer. */
SEC("tc")
int bad_tc_timer_other_inner_map(struct __sk_buff *skb)
{
	void *inner = lookup_key(&timed_outer, 0), *other = lookup_key(&timed_outer, 1);
	struct timed *v;

	if (!inner || !other)
		return TC_ACT_OK;
	v = lookup(inner);
	if (!v)
		return TC_ACT_OK;
	bpf_timer_init(&v->timer, other, CLOCK_MONOTONIC);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_timer_other_map(struct __sk_buff *skb)
{
	struct timed *v = lookup(&timed_hash);

	if (!v)
		return TC_ACT_OK;
	bpf_timer_init(&v->timer, &timed_array, CLOCK_MONOTONIC);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_timer_callback_return(struct __sk_buff *skb)
{
	struct timed *v = lookup(&timed_hash);

	if (!v)
		return TC_ACT_OK;
	bpf_timer_init(&v->timer, &timed_hash, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->timer, return_one);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_timer_callback_unknown_return(struct __sk_buff *skb)
{
	struct timed *v = lookup(&timed_hash);

	if (!v)
		return TC_ACT_OK;
	bpf_timer_init(&v->timer, &timed_hash, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->timer, return_fired);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_timer_callback_key(struct __sk_buff *skb)
{
	struct timed *v = lookup(&timed_hash);

	if (!v)
		return TC_ACT_OK;
	bpf_timer_init(&v->timer, &timed_hash, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->timer, write_key);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_timer_write(struct __sk_buff *skb)
{
	struct timed *v = lookup(&timed_hash);

	if (!v)
		return TC_ACT_OK;
	*(volatile __u64 *)&v->timer = 0;
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_timer_offset(struct __sk_buff *skb)
{
	struct timed *v = lookup(&timed_hash);

	if (!v)
		return TC_ACT_OK;
	bpf_timer_init((struct bpf_timer *)&v->other, &timed_hash, CLOCK_MONOTONIC);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_timer_no_timer(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&plain_map, &key);

	if (!v)
		return TC_ACT_OK;
	bpf_timer_init((struct bpf_timer *)v, &plain_map, CLOCK_MONOTONIC);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_timer_under_lock(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct locked_timed *v = bpf_map_lookup_elem(&locked_array, &key);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	bpf_timer_cancel(&v->timer);
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
