// SPDX-License-Identifier: GPL-2.0
/*
 * Verifier cases of ring buffer dynptrs, each a case of tests/kernel/verifier_cases.c with the
 * kernel's verdict: a sample reserved through a dynptr, written, read back, sliced and
 * submitted or discarded; a dynptr never released, its bytes stored to or loaded from, a helper
 * writing over it, one released twice or never made, a slice used after the submit or past its
 * length, and a reservation into the middle of another dynptr are refused.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

SEC("tc")
int ok_tc_dynptr_submit(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;
	__u64 word = skb->len;
	__u8 *slice;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &ptr);
	bpf_dynptr_write(&ptr, 0, &word, sizeof(word), 0);
	slice = bpf_dynptr_data(&ptr, 8, 8);
	if (slice)
		slice[7] = 1;
	bpf_ringbuf_submit_dynptr(&ptr, 0);
	return TC_ACT_OK;
}

SEC("tc")
int ok_tc_dynptr_read_discard(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;
	__u64 word = 7, back = 0;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &ptr);
	bpf_dynptr_write(&ptr, 0, &word, sizeof(word), 0);
	bpf_dynptr_read(&back, sizeof(back), &ptr, 0, 0);
	bpf_ringbuf_discard_dynptr(&ptr, 0);
	return back == 7 ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc")
int bad_tc_dynptr_leak(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &ptr);
	if (skb->len > 100)
		bpf_ringbuf_submit_dynptr(&ptr, 0);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_dynptr_store(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &ptr);
	*(volatile __u64 *)&ptr = 0;
	bpf_ringbuf_submit_dynptr(&ptr, 0);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_dynptr_load(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;
	__u64 v;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &ptr);
	v = *(volatile __u64 *)&ptr;
	bpf_ringbuf_submit_dynptr(&ptr, 0);
	return v & 1;
}

SEC("tc")
int bad_tc_dynptr_helper_write(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &ptr);
	bpf_dynptr_read(&ptr, 8, &ptr, 0, 0);
	bpf_ringbuf_submit_dynptr(&ptr, 0);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_dynptr_release_twice(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &ptr);
	bpf_ringbuf_submit_dynptr(&ptr, 0);
	bpf_ringbuf_discard_dynptr(&ptr, 0);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_dynptr_use_after_submit(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;
	__u64 back;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &ptr);
	bpf_ringbuf_submit_dynptr(&ptr, 0);
	bpf_dynptr_read(&back, sizeof(back), &ptr, 0, 0);
	return back & 1;
}

SEC("tc")
int bad_tc_dynptr_slice_after_submit(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;
	__u8 *slice;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &ptr);
	slice = bpf_dynptr_data(&ptr, 0, 8);
	bpf_ringbuf_submit_dynptr(&ptr, 0);
	if (slice)
		slice[0] = 1;
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_dynptr_slice_past_end(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr;
	__u8 *slice;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &ptr);
	slice = bpf_dynptr_data(&ptr, 0, 8);
	if (slice)
		slice[8] = 1;
	bpf_ringbuf_submit_dynptr(&ptr, 0);
	return TC_ACT_OK;
}

SEC("tc")
int bad_tc_dynptr_reserve_over(struct __sk_buff *skb)
{
	struct bpf_dynptr ptrs[2];

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &ptrs[0]);
	/* 8 bytes into the first: its second half */
	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, (struct bpf_dynptr *)((__u64 *)&ptrs[0] + 1));
	bpf_ringbuf_submit_dynptr(&ptrs[0], 0);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
