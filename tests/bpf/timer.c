// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_timer at run time (tests/cli/timers.sh): the first packet arms four timers of an array
 * and later packets act on them. Each callback writes its value: how often it fired and at
 * which packet (the program counts packets), so that a deterministic run (a clock step of
 * 1 us per packet) shows exactly when each fired.
 *
 *   key 0: armed for 5 us, fires once
 *   key 1: armed for 5 us, cancelled by packet 3 (ret: 1, it was active), cancelled again by
 *          packet 4 (ret2: 0, it was not)
 *   key 2: armed for 2 us, its callback re-arms it for 2 us until it fired 3 times
 *   key 3: armed for 1 us, its callback cancels its own timer (ret: -EDEADLK)
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/time.h>
#include <bpf/bpf_helpers.h>

struct tval {
	struct bpf_timer t;
	__u64 fired;
	__u64 at_packet;
	__s64 ret;
	__s64 ret2;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct tval);
	/* tc keeps the program, not the object: the pin keeps a user of the map (its timers) */
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} timers SEC(".maps");

__u64 packets;

static int fire_once(void *map, __u32 *key, struct tval *v)
{
	v->fired++;
	v->at_packet = packets;
	return 0;
}

static int fire_rearm(void *map, __u32 *key, struct tval *v)
{
	v->fired++;
	v->at_packet = packets;
	if (v->fired < 3)
		bpf_timer_start(&v->t, 2000, 0);
	return 0;
}

static int fire_self_cancel(void *map, __u32 *key, struct tval *v)
{
	v->fired++;
	v->at_packet = packets;
	v->ret = bpf_timer_cancel(&v->t);
	return 0;
}

static __always_inline struct tval *value(__u32 key)
{
	return bpf_map_lookup_elem(&timers, &key);
}

static __always_inline void arm(__u32 key, void *cb, __u64 ns)
{
	struct tval *v = value(key);

	if (!v)
		return;
	bpf_timer_init(&v->t, &timers, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->t, cb);
	bpf_timer_start(&v->t, ns, 0);
}

SEC("tc")
int timer_run(struct __sk_buff *skb)
{
	__u64 n = ++packets;
	struct tval *v;

	if (n == 1) {
		arm(0, fire_once, 5000);
		arm(1, fire_once, 5000);
		arm(2, fire_rearm, 2000);
		arm(3, fire_self_cancel, 1000);
	}
	v = value(1);
	if (v && n == 3)
		v->ret = bpf_timer_cancel(&v->t);
	if (v && n == 4)
		v->ret2 = bpf_timer_cancel(&v->t);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
