// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_timer_cancel and a value's update while the timer's callback runs on another thread
 * (tests/unit/test_timer.c): "arm" queues a timer due at once whose callback takes a while
 * (a long bpf_loop) and marks its end; "cancel" cancels it, which must wait for that end.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/time.h>
#include <bpf/bpf_helpers.h>

struct cval {
	struct bpf_timer t;
	__u64 done;		/* the callback ran to its end */
	__s64 ret;		/* what cancel returned */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cval);
} slow_timer SEC(".maps");

static long spin(__u64 i, void *ctx)
{
	return 0;
}

static int slow(void *map, __u32 *key, struct cval *v)
{
	/* Long enough that the canceller most likely calls while it runs. */
	bpf_loop(1 << 23, spin, NULL, 0);
	v->done = 1;
	return 0;
}

SEC("tc")
int arm(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct cval *v = bpf_map_lookup_elem(&slow_timer, &key);

	if (!v)
		return TC_ACT_SHOT;
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

char _license[] SEC("license") = "GPL";
