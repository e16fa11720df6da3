// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_fib_lookup and bpf_check_mtu driven by the frame: after an Ethernet header (ethertype
 * 0x88b5, so nothing parses the rest) comes the helper's input, and the program writes the
 * helper's output and return value back in its place. One program per hook and helper serves
 * the table of cases of tests/kernel/test_fib_kernel.c, which runs them in the kernel and in
 * netbpf on the same routes, neighbours and devices and compares the frames.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#define CMD_OFF 14

struct fib_cmd {
	struct bpf_fib_lookup params;	/* in and out */
	__u32 flags;
	__u32 plen_short;		/* plen is sizeof(params) minus this (0..63) */
	__s32 rc;			/* out */
	__u32 pad;
};

struct mtu_cmd {
	__u32 ifindex;
	__u32 mtu_len;			/* in and out */
	__s32 len_diff;
	__u32 flags;
	__s32 rc;			/* out */
	__u32 pad;
};

SEC("tc")
int fib_tc(struct __sk_buff *skb)
{
	struct fib_cmd cmd;
	__u32 plen;

	if (bpf_skb_load_bytes(skb, CMD_OFF, &cmd, sizeof(cmd)))
		return TC_ACT_SHOT;
	plen = sizeof(cmd.params) - (cmd.plen_short & 63);
	cmd.rc = (__s32)bpf_fib_lookup(skb, &cmd.params, plen, cmd.flags);
	bpf_skb_store_bytes(skb, CMD_OFF, &cmd, sizeof(cmd), 0);
	return TC_ACT_OK;
}

SEC("xdp")
int fib_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct fib_cmd cmd, *pkt = data + CMD_OFF;
	__u32 plen;

	if ((void *)(pkt + 1) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(&cmd, pkt, sizeof(cmd));
	plen = sizeof(cmd.params) - (cmd.plen_short & 63);
	cmd.rc = (__s32)bpf_fib_lookup(ctx, &cmd.params, plen, cmd.flags);
	__builtin_memcpy(pkt, &cmd, sizeof(cmd));
	return XDP_PASS;
}

SEC("tc")
int mtu_tc(struct __sk_buff *skb)
{
	struct mtu_cmd cmd;

	if (bpf_skb_load_bytes(skb, CMD_OFF, &cmd, sizeof(cmd)))
		return TC_ACT_SHOT;
	cmd.rc = (__s32)bpf_check_mtu(skb, cmd.ifindex, &cmd.mtu_len, cmd.len_diff, cmd.flags);
	bpf_skb_store_bytes(skb, CMD_OFF, &cmd, sizeof(cmd), 0);
	return TC_ACT_OK;
}

SEC("xdp")
int mtu_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct mtu_cmd cmd, *pkt = data + CMD_OFF;

	if ((void *)(pkt + 1) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(&cmd, pkt, sizeof(cmd));
	cmd.rc = (__s32)bpf_check_mtu(ctx, cmd.ifindex, &cmd.mtu_len, cmd.len_diff, cmd.flags);
	__builtin_memcpy(pkt, &cmd, sizeof(cmd));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
