// SPDX-License-Identifier: GPL-2.0
/* nb_prog_test_run, the BPF_PROG_TEST_RUN twin: its checks and outputs without a kernel. */
#include <errno.h>
#include <netbpf/test_run.h>

#include "bpf_asm.h"
#include "ctx_rewrite.h"
#include "pkt/pkt.h"
#include "test.h"

static const struct bpf_insn ret_len[] = {
	NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, offsetof(struct __sk_buff, len)),
	NB_EXIT(),
};

static u8 frame[60] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };

NB_TEST(test_run_skb_l2_and_l3)
{
	struct nb_prog *cls = ctx_test_load(BPF_PROG_TYPE_SCHED_CLS, 0, ret_len, 2);
	struct nb_prog *sf = ctx_test_load(BPF_PROG_TYPE_SOCKET_FILTER, 0, ret_len, 2);
	u8 out[128];
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = frame, .data_size_in = 60,
				      .data_out = out, .data_size_out = sizeof(out) };

	NB_ASSERT_EQ(nb_prog_test_run(cls, &o), 0);
	NB_ASSERT_EQ(o.retval, 60);			/* tc sees L2 */
	NB_ASSERT_EQ(o.data_size_out, 60);
	NB_ASSERT_MEM_EQ(out, frame, 60);
	o.data_size_out = sizeof(out);
	NB_ASSERT_EQ(nb_prog_test_run(sf, &o), 0);
	NB_ASSERT_EQ(o.retval, 46);			/* a socket filter starts at L3 */
	NB_ASSERT_MEM_EQ(out, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 14);	/* L2 comes back zeroed */
	NB_ASSERT_MEM_EQ(out + 14, frame + 14, 46);
	o.data_size_out = 10;
	NB_ASSERT_EQ(nb_prog_test_run(cls, &o), -ENOSPC);
	NB_ASSERT_EQ(o.data_size_out, 60);
	nb_prog_put(cls);
	nb_prog_put(sf);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(test_run_skb_ctx_checks)
{
	struct nb_prog *cls = ctx_test_load(BPF_PROG_TYPE_SCHED_CLS, 0, ret_len, 2);
	struct __sk_buff in = { 0 }, out;
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = frame, .data_size_in = 60,
				      .ctx_in = &in, .ctx_size_in = sizeof(in), .ctx_out = &out,
				      .ctx_size_out = sizeof(out) };

	in.mark = 9;
	in.cb[3] = 4;
	NB_ASSERT_EQ(nb_prog_test_run(cls, &o), 0);
	NB_ASSERT_EQ(out.mark, 9);
	NB_ASSERT_EQ(out.cb[3], 4);
	NB_ASSERT_EQ(out.ifindex, 1);		/* the loopback stand-in */
	NB_ASSERT_EQ(out.wire_len, 60);
	in.len = 1;				/* fields a test may not set */
	NB_ASSERT_EQ(nb_prog_test_run(cls, &o), -EINVAL);
	in.len = 0;
	in.tc_index = 1;
	NB_ASSERT_EQ(nb_prog_test_run(cls, &o), -EINVAL);
	in.tc_index = 0;
	in.wire_len = 59;			/* shorter than the packet */
	NB_ASSERT_EQ(nb_prog_test_run(cls, &o), -EINVAL);
	in.wire_len = 0;
	in.ifindex = 60000;			/* no such device */
	NB_ASSERT_EQ(nb_prog_test_run(cls, &o), -ENODEV);
	in.ifindex = 0;
	o.data_size_in = 13;
	NB_ASSERT_EQ(nb_prog_test_run(cls, &o), -EINVAL);
	nb_prog_put(cls);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(test_run_xdp_meta)
{
	static const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_meta)),
		NB_MOV64_REG(BPF_REG_0, BPF_REG_2),
		NB_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_3),
		NB_EXIT(),
	};
	struct nb_prog *prog = ctx_test_load(BPF_PROG_TYPE_XDP, 0, insns, ARRAY_SIZE(insns));
	struct nb_prog *devmap = ctx_test_load(BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP, insns,
					       ARRAY_SIZE(insns));
	u8 in[68] = { 1, 2, 3, 4, 5, 6, 7, 8 }, out[128];
	struct xdp_md ctx = { .data = 8, .data_end = 68 }, ctx_out;
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = in, .data_size_in = 68,
				      .data_out = out, .data_size_out = sizeof(out),
				      .ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
				      .ctx_out = &ctx_out, .ctx_size_out = sizeof(ctx_out) };

	NB_ASSERT_EQ(nb_prog_test_run(prog, &o), 0);
	NB_ASSERT_EQ(o.retval, 8);
	NB_ASSERT_EQ(o.data_size_out, 68);		/* metadata included */
	NB_ASSERT_MEM_EQ(out, in, 68);
	NB_ASSERT_EQ(ctx_out.data, 8);
	NB_ASSERT_EQ(ctx_out.data_end, 68);
	ctx.data = 6;					/* not a multiple of 4 */
	NB_ASSERT_EQ(nb_prog_test_run(prog, &o), -EINVAL);
	ctx.data = 8;
	ctx.data_end = 60;				/* must be the data size */
	NB_ASSERT_EQ(nb_prog_test_run(prog, &o), -EINVAL);
	ctx.data_end = 68;
	ctx.egress_ifindex = 1;
	NB_ASSERT_EQ(nb_prog_test_run(prog, &o), -EINVAL);
	ctx.egress_ifindex = 0;
	NB_ASSERT_EQ(nb_prog_test_run(devmap, &o), -EINVAL);	/* devmap programs cannot */
	nb_prog_put(prog);
	nb_prog_put(devmap);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/*
 * The kernel's test buffer is zeroed (bpf_test_init's kzalloc): bytes a program grows into
 * read zero, however the pool's buffer was used before. A socket filter run fills its buffer
 * with 0xff first; the XDP program then grows the frame by 16 bytes at the head and returns
 * the OR of the 16 bytes it finds there.
 */
NB_TEST(test_run_zeroes_around_the_packet)
{
	static const struct bpf_insn grow_head[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		NB_MOV64_IMM(BPF_REG_2, -16),
		NB_CALL_HELPER(BPF_FUNC_xdp_adjust_head),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 8),
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_6, offsetof(struct xdp_md, data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_6, offsetof(struct xdp_md, data_end)),
		NB_MOV64_REG(BPF_REG_4, BPF_REG_2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_4, 16),
		NB_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 4),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_2, 0),
		NB_LDX_MEM(BPF_DW, BPF_REG_5, BPF_REG_2, 8),
		NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_5),
		NB_EXIT(),
		NB_MOV64_IMM(BPF_REG_0, 99),
		NB_EXIT(),
	};
	struct nb_prog *filter = ctx_test_load(BPF_PROG_TYPE_SOCKET_FILTER, 0, ret_len, 2);
	struct nb_prog *xdp = ctx_test_load(BPF_PROG_TYPE_XDP, 0, grow_head,
					    ARRAY_SIZE(grow_head));
	static u8 ones[3000];
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = ones,
				      .data_size_in = sizeof(ones) };

	memset(ones, 0xff, sizeof(ones));
	NB_ASSERT_EQ(nb_prog_test_run(filter, &o), 0);
	o = (struct nb_test_run_opts){ .sz = sizeof(o), .data_in = frame,
				       .data_size_in = sizeof(frame) };
	NB_ASSERT_EQ(nb_prog_test_run(xdp, &o), 0);
	NB_ASSERT_EQ(o.retval, 0);
	nb_prog_put(filter);
	nb_prog_put(xdp);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
