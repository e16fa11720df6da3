// SPDX-License-Identifier: GPL-2.0
/*
 * A multi-buffer XDP program (section "xdp.frags", BPF_F_XDP_HAS_FRAGS) whose work is read from
 * the first bytes of the frame, so that one program serves a table of cases
 * (tests/kernel/test_xdp_frags_kernel.c, tests/unit/test_xdp_frags.c): it writes the buffer
 * length and the linear length into the frame, copies 16 bytes from one offset to another
 * reversed (bpf_xdp_load_bytes / bpf_xdp_store_bytes, across fragment boundaries when the
 * offsets say so), then moves the tail up to twice (bpf_xdp_adjust_tail). The verdict packs
 * the four helpers' errors, one byte each (negated errno, 0 for success or not called).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct frags_cmd {
	__u16 load_off;		/* where the 16 bytes come from; 0: no copy */
	__u16 store_off;	/* where they go, reversed; 0: loaded only */
	__s32 tail[2];		/* bpf_xdp_adjust_tail offsets; 0: no call */
	__u32 buff_len;		/* out: bpf_xdp_get_buff_len before any change */
	__u32 linear_len;	/* out: data_end - data */
};

#define COPY_LEN 16

static __always_inline __u32 err_byte(long err, int shift)
{
	return (__u32)(__u8)-err << shift;
}

SEC("xdp.frags")
int xdp_frags_ops(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct frags_cmd *cmd = data;
	__u16 load_off, store_off;
	__u8 buf[COPY_LEN], tmp;
	__s32 tail0, tail1;
	__u32 verdict = 0;
	long err;

	if ((void *)(cmd + 1) > data_end)
		return XDP_ABORTED;
	load_off = cmd->load_off;
	store_off = cmd->store_off;
	tail0 = cmd->tail[0];
	tail1 = cmd->tail[1];
	cmd->buff_len = (__u32)bpf_xdp_get_buff_len(ctx);
	cmd->linear_len = (__u32)(data_end - data);

	if (load_off) {
		err = bpf_xdp_load_bytes(ctx, load_off, buf, COPY_LEN);
		verdict |= err_byte(err, 0);
		if (!err && store_off) {
#pragma unroll
			for (int i = 0; i < COPY_LEN / 2; i++) {
				tmp = buf[i];
				buf[i] = buf[COPY_LEN - 1 - i];
				buf[COPY_LEN - 1 - i] = tmp;
			}
			err = bpf_xdp_store_bytes(ctx, store_off, buf, COPY_LEN);
			verdict |= err_byte(err, 8);
		}
	}
	if (tail0)
		verdict |= err_byte(bpf_xdp_adjust_tail(ctx, tail0), 16);
	if (tail1)
		verdict |= err_byte(bpf_xdp_adjust_tail(ctx, tail1), 24);
	return (int)verdict;
}

/* The buffer length as the verdict: the corpus sees every size class through it. */
SEC("xdp.frags")
int xdp_frags_len(struct xdp_md *ctx)
{
	return (int)bpf_xdp_get_buff_len(ctx);
}

char _license[] SEC("license") = "GPL";
