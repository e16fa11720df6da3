// SPDX-License-Identifier: GPL-2.0
/*
 * Metadata from XDP to tc through the worker's receive path: the XDP program reserves 4 bytes
 * in front of the frame (bpf_xdp_adjust_meta) and writes a tag, the tc ingress program reads it
 * at __sk_buff->data_meta, makes it the mark and redirects the packet to a sink, where the mark
 * is checked. The programs are bytecode twins of examples/xdp_meta_mark.c, verified.
 */
#include "net/worker.h"
#include "tc_test.h"
#include "xdp_test.h"

#define TAG 0x1011

NB_TEST(xdp_tc_metadata)
{
	const struct bpf_insn xdp_insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		NB_MOV64_IMM(BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_xdp_adjust_meta),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 6),
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_6, offsetof(struct xdp_md, data_meta)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_6, offsetof(struct xdp_md, data)),
		NB_MOV64_REG(BPF_REG_4, BPF_REG_2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_4, 4),
		NB_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 1),
		NB_ST_MEM(BPF_W, BPF_REG_2, 0, TAG),
		NB_MOV64_IMM(BPF_REG_0, XDP_PASS),
		NB_EXIT(),
	};
	struct nb_dev *rx = xt_dev("rx0", NULL), *out = xt_dev("out0", "keep 8");
	const struct bpf_insn tc_insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, SKB_OFF(data_meta)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, SKB_OFF(data)),
		NB_MOV64_REG(BPF_REG_4, BPF_REG_2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_4, 4),
		NB_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 2),
		NB_LDX_MEM(BPF_W, BPF_REG_5, BPF_REG_2, 0),
		NB_STX_MEM(BPF_W, BPF_REG_1, BPF_REG_5, SKB_OFF(mark)),
		NB_MOV64_IMM(BPF_REG_1, out->ifindex),
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_CALL_HELPER(BPF_FUNC_redirect),
		NB_EXIT(),
	};
	struct nb_prog *tcp = tc_prog(BPF_PROG_TYPE_SCHED_CLS, tc_insns, ARRAY_SIZE(tc_insns));
	NB_OPTS(nb_tc_bpf_opts, bpf, .prog = tcp, .direct_action = true);
	struct nb_tc_filter_opts f = { .sz = sizeof(f),
		.hook = NB_TC_INGRESS, .kind = "bpf",
		.kind_opts = &bpf,
	};
	struct nb_pkt *pkts[4], *pkt, *next;
	u32 n = 0;

	xt_attach(rx, xt_prog(xdp_insns, ARRAY_SIZE(xdp_insns), 0));
	tc_qdisc(rx);
	tc_add(rx, &f);
	nb_prog_put(tcp);
	xt_burst(rx, pkts, 0, 4);
	nb_worker_receive_burst(rx, pkts, 4);
	nb_worker_flush();
	for (pkt = nb_sink_take(out->port); pkt; pkt = next, n++) {
		next = pkt->next;
		NB_ASSERT_EQ(pkt->mark, TAG);
		NB_ASSERT_EQ(xt_seq(pkt), n);
		nb_pkt_free(pkt);
	}
	NB_ASSERT_EQ(n, 4);
	NB_ASSERT_EQ(xt_stats(rx).pass, 4);
	xt_teardown();
}
