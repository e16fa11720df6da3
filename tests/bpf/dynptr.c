// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer dynptrs at run time (tests/unit/test_dynptr.c): each packet reserves a 16-byte
 * sample through a dynptr, writes the packet's length at 0 with bpf_dynptr_write and a marker
 * through a slice at 8, reads the length back with bpf_dynptr_read, and submits the sample,
 * or discards it when the packet is shorter than 60 bytes. A reservation larger than the ring
 * fails (its result and a read of the null dynptr are kept in results), and must still be
 * discarded. A write, a read and a slice that reach past the sample's end fail at run time.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} samples SEC(".maps");

struct results {
	__s64 reserve;		/* the last packet's reservation */
	__s64 read;		/* bpf_dynptr_read of it */
	__u64 read_back;	/* what it read */
	__s64 too_big;		/* a reservation larger than the ring */
	__s64 read_null;	/* a read of that null dynptr */
	__s64 write_over;	/* a write of 8 bytes at 12 of the 16 */
	__s64 read_over;	/* a read of 8 bytes at 12 */
	__u64 slice_over;	/* whether a slice of 8 bytes at 12 was given */
} results;

SEC("tc")
int dynptr_sample(struct __sk_buff *skb)
{
	struct bpf_dynptr ptr, big;
	__u64 len = skb->len, back = 0, scratch = 0;
	__u8 *slice;

	results.reserve = bpf_ringbuf_reserve_dynptr(&samples, 16, 0, &ptr);
	bpf_dynptr_write(&ptr, 0, &len, sizeof(len), 0);
	slice = bpf_dynptr_data(&ptr, 8, 8);
	if (slice) {
		slice[0] = 0xd1;
		slice[7] = 0x9e;
	}
	results.read = bpf_dynptr_read(&back, sizeof(back), &ptr, 0, 0);
	results.read_back = back;
	results.write_over = bpf_dynptr_write(&ptr, 12, &len, sizeof(len), 0);
	results.read_over = bpf_dynptr_read(&scratch, sizeof(scratch), &ptr, 12, 0);
	results.slice_over = bpf_dynptr_data(&ptr, 12, 8) != NULL;
	if (len < 60)
		bpf_ringbuf_discard_dynptr(&ptr, 0);
	else
		bpf_ringbuf_submit_dynptr(&ptr, 0);

	results.too_big = bpf_ringbuf_reserve_dynptr(&samples, 8192, 0, &big);
	results.read_null = bpf_dynptr_read(&scratch, sizeof(scratch), &big, 0, 0);
	bpf_ringbuf_discard_dynptr(&big, 0);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
