// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_timer_cancel and a value's update while the timer's callback runs on another thread
 * (tests/unit/test_timer.c): "arm" queues a timer due at once whose callback takes a while
 * (a long bpf_loop), then cancels the idle timer of key 1 and marks its end; "cancel" cancels
 * key 0's, which must wait for that end. The callback's own cancel is not refused while a
 * program that is no callback waits for it: only a waiting callback could deadlock.
 * "arm_hash" queues a timer due at once in the value of key 7 of a hash map, whose callback
 * records the key it is handed; a delete of the element takes the timer with it.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/time.h>
#include <bpf/bpf_helpers.h>

struct cval {
	struct bpf_timer t;
	__u64 done;		/* the callback ran to its end */
	__s64 ret;		/* what cancel returned */
	__s64 ret2;		/* what the callback's cancel of key 1 returned */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct cval);
} slow_timer SEC(".maps");

struct hval {
	struct bpf_timer t;
	__u64 fired;
	__u32 key_seen;		/* the key the callback was handed */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct hval);
} hash_timers SEC(".maps");

static long spin(__u64 i, void *ctx)
{
	return 0;
}

static int slow(void *map, __u32 *key, struct cval *v)
{
	__u32 idle_key = 1;
	struct cval *idle;

	/* Long enough that the canceller most likely calls while it runs. */
	bpf_loop(1 << 23, spin, NULL, 0);
	idle = bpf_map_lookup_elem(&slow_timer, &idle_key);
	if (idle)
		v->ret2 = bpf_timer_cancel(&idle->t);
	v->done = 1;
	return 0;
}

SEC("tc")
int arm(struct __sk_buff *skb)
{
	__u32 key = 0, idle_key = 1;
	struct cval *v = bpf_map_lookup_elem(&slow_timer, &key);
	struct cval *idle = bpf_map_lookup_elem(&slow_timer, &idle_key);

	if (!v || !idle)
		return TC_ACT_SHOT;
	/* key 1: a timer that is never started, for the callback to cancel */
	bpf_timer_init(&idle->t, &slow_timer, CLOCK_MONOTONIC);
	bpf_timer_init(&v->t, &slow_timer, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->t, slow);
	bpf_timer_start(&v->t, 0, 0);
	return TC_ACT_OK;
}

SEC("tc")
int cancel(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct cval *v = bpf_map_lookup_elem(&slow_timer, &key);

	if (!v)
		return TC_ACT_SHOT;
	v->ret = bpf_timer_cancel(&v->t);
	return TC_ACT_OK;
}

static int hash_fired(void *map, __u32 *key, struct hval *v)
{
	v->fired++;
	v->key_seen = *key;
	return 0;
}

SEC("tc")
int arm_hash(struct __sk_buff *skb)
{
	__u32 key = 7;
	struct hval *v = bpf_map_lookup_elem(&hash_timers, &key);

	if (!v)
		return TC_ACT_SHOT;
	bpf_timer_init(&v->t, &hash_timers, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->t, hash_fired);
	bpf_timer_start(&v->t, 0, 0);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
