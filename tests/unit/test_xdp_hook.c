// SPDX-License-Identifier: GPL-2.0
/* The XDP hook: every verdict on a burst, attach rules, and what PASS hands on. */
#include "xdp_test.h"

/* A burst of 4 through a program that returns act: how many frames the hook hands back. */
static unsigned int run_act(struct nb_dev *dev, u32 act, struct nb_pkt **pkts)
{
	xt_attach(dev, xt_prog_ret(act));
	xt_burst(dev, pkts, 0, 4);
	return nb_xdp_rx_burst(dev, pkts, 4);
}

NB_TEST(xdp_hook_actions)
{
	struct nb_dev *dev = xt_dev("x0", "keep 8");
	struct nb_dev_stats_total dst;
	struct nb_pkt *pkts[4];
	struct nb_xdp_stats st;
	unsigned int n;

	n = run_act(dev, XDP_PASS, pkts);
	NB_ASSERT_EQ(n, 4);
	for (unsigned int i = 0; i < n; i++)
		NB_ASSERT_EQ(xt_seq(pkts[i]), i);
	xt_free(pkts, n);
	NB_ASSERT_EQ(run_act(dev, XDP_DROP, pkts), 0);
	NB_ASSERT_EQ(run_act(dev, XDP_ABORTED, pkts), 0);
	NB_ASSERT_EQ(run_act(dev, 7, pkts), 0);		/* no XDP action */
	NB_ASSERT_EQ(run_act(dev, XDP_TX, pkts), 0);
	NB_ASSERT_EQ(xt_sink_packets(dev), 0);		/* queued until the flush */
	nb_xdp_do_flush();
	xt_sink_expect(dev, 0, 4);

	st = xt_stats(dev);
	NB_ASSERT_EQ(st.run, 20);
	NB_ASSERT_EQ(st.pass, 4);
	NB_ASSERT_EQ(st.drop, 4);
	NB_ASSERT_EQ(st.aborted, 4);
	NB_ASSERT_EQ(st.invalid, 4);
	NB_ASSERT_EQ(st.tx, 4);
	NB_ASSERT_EQ(st.xmit_sent, 4);
	nb_dev_stats_read(dev, &dst);
	NB_ASSERT_EQ(dst.drops[NB_DROP_XDP], 4);
	/* aborts and unknown verdicts are both exceptions */
	NB_ASSERT_EQ(dst.drops[NB_DROP_XDP_ABORTED], 8);
	NB_ASSERT_EQ(dst.tx_packets, 4);
	xt_teardown();
}

/* Without a program every frame passes untouched. */
NB_TEST(xdp_hook_no_program)
{
	struct nb_dev *dev = xt_dev("x0", NULL);
	struct nb_pkt *pkts[3];

	xt_burst(dev, pkts, 10, 3);
	NB_ASSERT_EQ(nb_xdp_rx_burst(dev, pkts, 3), 3);
	NB_ASSERT_EQ(xt_seq(pkts[2]), 12);
	xt_free(pkts, 3);
	xt_attach(dev, xt_prog_ret(XDP_DROP));
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, NULL, 0, NULL), 0);	/* removed */
	xt_burst(dev, pkts, 10, 3);
	NB_ASSERT_EQ(nb_xdp_rx_burst(dev, pkts, 3), 3);
	xt_free(pkts, 3);
	xt_teardown();
}

/* A drop that keeps only every other frame: the ones that pass keep their order. */
NB_TEST(xdp_hook_pass_keeps_order)
{
	/* even seq: PASS, odd: DROP (r0 = XDP_PASS - (seq & 1)), seq from bpf_xdp_load_bytes */
	const struct bpf_insn prog[] = {
		NB_MOV64_IMM(BPF_REG_2, ETH_HLEN),
		NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
		NB_MOV64_IMM(BPF_REG_4, 4),
		NB_CALL_HELPER(BPF_FUNC_xdp_load_bytes),
		NB_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_10, -8),
		NB_ALU64_IMM(BPF_AND, BPF_REG_1, 1),
		NB_MOV64_IMM(BPF_REG_0, XDP_PASS),
		NB_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1),
		NB_EXIT(),
	};
	struct nb_dev *dev = xt_dev("x0", NULL);
	struct nb_pkt *pkts[32];
	unsigned int n;

	xt_attach(dev, xt_prog(prog, ARRAY_SIZE(prog), 0));
	xt_burst(dev, pkts, 0, 32);
	n = nb_xdp_rx_burst(dev, pkts, 32);
	NB_ASSERT_EQ(n, 16);
	for (unsigned int i = 0; i < n; i++)
		NB_ASSERT_EQ(xt_seq(pkts[i]), 2 * i);
	xt_free(pkts, n);
	NB_ASSERT_EQ(xt_stats(dev).drop, 16);
	xt_teardown();
}

/*
 * PASS carries data and metadata moves into the packet the tc path sees, once the worker has
 * parsed it for the stack.
 */
NB_TEST(xdp_hook_pass_meta_and_head)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		NB_MOV64_IMM(BPF_REG_2, -8),
		NB_CALL_HELPER(BPF_FUNC_xdp_adjust_meta),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
		NB_MOV64_IMM(BPF_REG_2, -20),
		NB_CALL_HELPER(BPF_FUNC_xdp_adjust_head),
		NB_MOV64_IMM(BPF_REG_0, XDP_PASS),
		NB_EXIT(),
	};
	struct nb_dev *dev = xt_dev("x0", NULL);
	struct nb_pkt *pkt;

	xt_attach(dev, xt_prog(insns, ARRAY_SIZE(insns), 0));
	xt_burst(dev, &pkt, 5, 1);
	NB_ASSERT_EQ(nb_xdp_rx_burst(dev, &pkt, 1), 1);
	NB_ASSERT_EQ(pkt->len, 84);
	NB_ASSERT_EQ(pkt->meta_len, 8);
	NB_ASSERT_EQ(nb_pkt_headroom(pkt), NB_PKT_HEADROOM - 20);
	nb_dev_rx_stack_prepare(pkt);
	NB_ASSERT_EQ(pkt->mac_header, NB_PKT_HEADROOM - 20);
	nb_pkt_free(pkt);
	xt_teardown();
}

/* A cloned frame is made private before the program may write it. */
NB_TEST(xdp_hook_clone_made_private)
{
	const struct bpf_insn insns[] = {
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0x55555555),
		NB_MOV64_IMM(BPF_REG_2, ETH_HLEN),
		NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -4),
		NB_MOV64_IMM(BPF_REG_4, 4),
		NB_CALL_HELPER(BPF_FUNC_xdp_store_bytes),
		NB_MOV64_IMM(BPF_REG_0, XDP_PASS),
		NB_EXIT(),
	};
	struct nb_dev *dev = xt_dev("x0", NULL);
	struct nb_pkt *pkt, *clone;

	xt_attach(dev, xt_prog(insns, ARRAY_SIZE(insns), 0));
	xt_burst(dev, &pkt, 9, 1);
	clone = nb_pkt_clone(pkt);
	NB_ASSERT(clone);
	NB_ASSERT_EQ(nb_xdp_rx_burst(dev, &pkt, 1), 1);
	NB_ASSERT_EQ(xt_seq(pkt), 0x55555555);
	NB_ASSERT_EQ(xt_seq(clone), 9);
	nb_pkt_free(pkt);
	nb_pkt_free(clone);
	xt_teardown();
}

NB_TEST(xdp_attach_rules)
{
	const struct bpf_insn ret[] = { NB_MOV64_IMM(BPF_REG_0, XDP_PASS), NB_EXIT() };
	struct nb_dev *dev = xt_dev("x0", NULL);
	struct nb_prog *p1 = xt_prog_ret(XDP_PASS), *p2 = xt_prog_ret(XDP_DROP), *cur;
	struct nb_prog *devmap_prog = xt_prog(ret, ARRAY_SIZE(ret), BPF_XDP_DEVMAP);
	struct nb_log log = { 0 };
	struct nb_prog *tc;
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts),
	};
	u32 flags;

	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, ret, 2, &opts, &tc), 0);
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, p1, XDP_FLAGS_UPDATE_IF_NOEXIST | XDP_FLAGS_SKB_MODE,
				       &log), 0);
	cur = nb_dev_xdp_prog(dev, &flags);
	NB_ASSERT_EQ(cur, p1);
	NB_ASSERT(flags & XDP_FLAGS_SKB_MODE);
	nb_prog_put(cur);
	/* replacing needs -force, i.e. no XDP_FLAGS_UPDATE_IF_NOEXIST */
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, p2, XDP_FLAGS_UPDATE_IF_NOEXIST | XDP_FLAGS_SKB_MODE,
				       &log), -EBUSY);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "already attached");
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, p2, XDP_FLAGS_DRV_MODE, &log), -EEXIST);
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, p2, XDP_FLAGS_SKB_MODE, &log), 0);
	cur = nb_dev_xdp_prog(dev, NULL);
	NB_ASSERT_EQ(cur, p2);
	nb_prog_put(cur);
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, p1, XDP_FLAGS_HW_MODE, &log), -EOPNOTSUPP);
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, p1, XDP_FLAGS_SKB_MODE | XDP_FLAGS_DRV_MODE, &log),
		     -EINVAL);
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, p1, 1U << 10, &log), -EINVAL);
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, devmap_prog, 0, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "devmap");
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, tc, 0, &log), -EINVAL);
	/* XDP_FLAGS_REPLACE: only over the expected program, and only through replace */
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, p1, XDP_FLAGS_REPLACE, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "nb_dev_xdp_replace");
	NB_ASSERT_EQ(nb_dev_xdp_replace(dev, p1, p1, XDP_FLAGS_SKB_MODE, &log), -EEXIST);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "not the one to replace");
	NB_ASSERT_EQ(nb_dev_xdp_replace(dev, p1, p2, XDP_FLAGS_SKB_MODE, &log), 0);
	cur = nb_dev_xdp_prog(dev, &flags);
	NB_ASSERT_EQ(cur, p1);
	NB_ASSERT_EQ(flags, XDP_FLAGS_SKB_MODE);
	nb_prog_put(cur);
	/* removal, then a different mode is fine */
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, NULL, XDP_FLAGS_SKB_MODE, &log), 0);
	NB_ASSERT_EQ(nb_dev_xdp_replace(dev, p2, p1, 0, &log), -EEXIST);	/* none attached */
	NB_ASSERT_EQ(nb_dev_xdp_prog(dev, NULL), NULL);
	NB_ASSERT_EQ(nb_dev_xdp_attach(dev, p1, XDP_FLAGS_DRV_MODE | XDP_FLAGS_UPDATE_IF_NOEXIST,
				       &log), 0);
	nb_log_free(&log);
	nb_prog_put(p1);
	nb_prog_put(p2);
	nb_prog_put(devmap_prog);
	nb_prog_put(tc);
	xt_teardown();
}

/* A frame that arrives with less headroom gets XDP_PACKET_HEADROOM back before the program. */
NB_TEST(xdp_hook_restores_headroom)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_IMM(BPF_REG_2, -(NB_PKT_HEADROOM - NB_XDP_FRAME_SIZE)),
		NB_CALL_HELPER(BPF_FUNC_xdp_adjust_head),
		NB_MOV64_IMM(BPF_REG_1, XDP_PASS),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		NB_MOV64_IMM(BPF_REG_1, XDP_DROP),
		NB_MOV64_REG(BPF_REG_0, BPF_REG_1),
		NB_EXIT(),
	};
	struct nb_dev *dev = xt_dev("x0", NULL);
	struct nb_pkt *pkt;

	xt_attach(dev, xt_prog(insns, ARRAY_SIZE(insns), 0));
	xt_burst(dev, &pkt, 3, 1);
	/* what an encapsulation on an earlier hop leaves: 56 bytes of headroom less */
	memmove(pkt->data - 56, pkt->data, pkt->len);
	pkt->data -= 56;
	nb_eth_type_trans(pkt, dev);
	NB_ASSERT_EQ(nb_pkt_headroom(pkt), NB_PKT_HEADROOM - 56);
	NB_ASSERT_EQ(nb_xdp_rx_burst(dev, &pkt, 1), 1);
	NB_ASSERT_EQ(nb_pkt_headroom(pkt), NB_XDP_FRAME_SIZE);
	NB_ASSERT_EQ(pkt->len, 64 + NB_PKT_HEADROOM - NB_XDP_FRAME_SIZE);
	nb_pkt_free(pkt);
	xt_teardown();
}
