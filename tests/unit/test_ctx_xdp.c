// SPDX-License-Identifier: GPL-2.0
/*
 * The xdp_md context: each field read from a real XDP buffer over an nb_pkt, egress_ifindex only
 * for devmap programs, and the accesses the kernel refuses.
 */
#include <arpa/inet.h>

#include "bpf_asm.h"
#include "ctx_rewrite.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "test.h"

#define XDP(f) offsetof(struct xdp_md, f)

static u64 run_xdp(enum bpf_attach_type attach, int off, struct nb_xdp_buff *xdp)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_1, off),	/* dst == src on purpose */
		NB_MOV64_REG(BPF_REG_0, BPF_REG_1),
		NB_EXIT(),
	};
	struct nb_prog *prog = ctx_test_load(BPF_PROG_TYPE_XDP, attach, insns, ARRAY_SIZE(insns));
	u64 r0 = nb_prog_run(prog, xdp);

	nb_prog_put(prog);
	return r0;
}

NB_TEST(ctx_xdp_fields)
{
	static const u8 frame[64] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1,
				      0x08, 0x06 };
	struct nb_xdp_rxq_info rxq = { .ifindex = 4, .queue_index = 2 };
	struct nb_xdp_txq_info txq = { .ifindex = 9 };
	struct nb_pkt *pkt = nb_pkt_alloc_data(frame, sizeof(frame));
	struct nb_xdp_buff xdp;

	NB_ASSERT(pkt);
	pkt->meta_len = 4;
	nb_pkt_to_xdp(pkt, &xdp, &rxq);
	xdp.txq = &txq;
	NB_ASSERT_EQ(run_xdp(0, XDP(data), &xdp), (u64)(uintptr_t)pkt->data);
	NB_ASSERT_EQ(run_xdp(0, XDP(data_end), &xdp), (u64)(uintptr_t)(pkt->data + 64));
	NB_ASSERT_EQ(run_xdp(0, XDP(data_meta), &xdp), (u64)(uintptr_t)(pkt->data - 4));
	NB_ASSERT_EQ(run_xdp(0, XDP(ingress_ifindex), &xdp), 4);
	NB_ASSERT_EQ(run_xdp(0, XDP(rx_queue_index), &xdp), 2);
	NB_ASSERT_EQ(run_xdp(BPF_XDP_DEVMAP, XDP(egress_ifindex), &xdp), 9);
	NB_ASSERT_EQ(xdp.data_hard_start + NB_PKT_HEADROOM, xdp.data);
	NB_ASSERT_EQ(xdp.frame_sz, NB_PKT_BUF_SIZE);
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(ctx_xdp_access_rules)
{
	struct nb_ctx_access_info info = { 0 };

	NB_ASSERT(ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(data), 4, NB_READ, &info));
	NB_ASSERT_EQ(info.reg_type, NB_CTX_PKT);
	NB_ASSERT(ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(data_end), 4, NB_READ, &info));
	NB_ASSERT_EQ(info.reg_type, NB_CTX_PKT_END);
	NB_ASSERT(ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(data_meta), 4, NB_READ, &info));
	NB_ASSERT_EQ(info.reg_type, NB_CTX_PKT_META);
	info.reg_type = NB_CTX_SCALAR;
	NB_ASSERT(ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(rx_queue_index), 4, NB_READ,
				     &info));
	NB_ASSERT_EQ(info.reg_type, NB_CTX_SCALAR);
	/* read-only, whole fields, inside the struct, egress_ifindex for devmap programs only */
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(data), 4, NB_WRITE, NULL));
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(rx_queue_index), 4, NB_WRITE,
				      NULL));
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(data), 8, NB_READ, NULL));
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(ingress_ifindex), 2, NB_READ,
				      NULL));
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(ingress_ifindex) + 1, 1,
				      NB_READ, NULL));
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, sizeof(struct xdp_md), 4, NB_READ,
				      NULL));
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, -4, 4, NB_READ, NULL));
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, 0, XDP(egress_ifindex), 4, NB_READ,
				      NULL));
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, BPF_XDP_CPUMAP, XDP(egress_ifindex), 4,
				      NB_READ, NULL));
	NB_ASSERT(ctx_test_access_ok(BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP, XDP(egress_ifindex), 4,
				     NB_READ, NULL));
	NB_ASSERT(!ctx_test_access_ok(BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP, XDP(egress_ifindex), 4,
				      NB_WRITE, NULL));
	NB_ASSERT_EQ(nb_prog_type_ops(BPF_PROG_TYPE_XDP)->pkt_access, NB_PKT_ACCESS_WRITE);
	NB_ASSERT(!nb_prog_type_ops(BPF_PROG_TYPE_XDP)->ld_abs);
}

/*
 * XDP_PASS carries the program's moves of data and data_meta into the packet, and the stack's
 * view parses the header the program wrote.
 */
NB_TEST(ctx_xdp_to_pkt_keeps_meta)
{
	u8 frame[64] = { 2, 0, 0, 0, 0, 9, 2, 0, 0, 0, 0, 1, 0x86, 0xdd };
	struct nb_xdp_rxq_info rxq = { .ifindex = 1 };
	struct nb_pkt *pkt = nb_pkt_alloc_data(frame, sizeof(frame));
	struct nb_xdp_buff xdp;

	NB_ASSERT(pkt);
	nb_pkt_to_xdp(pkt, &xdp, &rxq);
	/* what xdp_adjust_head(-14) and xdp_adjust_meta(-8) would do, plus a new header */
	xdp.data -= 14;
	xdp.data_meta = xdp.data - 8;
	memcpy(xdp.data, frame, 12);
	xdp.data[12] = 0x08;
	xdp.data[13] = 0x00;
	memset(xdp.data_meta, 0xab, 8);
	nb_xdp_update_pkt_data(&xdp, pkt);
	nb_dev_rx_stack_prepare(pkt);
	NB_ASSERT_EQ(pkt->len, 78);
	NB_ASSERT_EQ(pkt->meta_len, 8);
	NB_ASSERT_EQ(nb_pkt_headroom(pkt), NB_PKT_HEADROOM - 14);
	NB_ASSERT_EQ(pkt->protocol, htons(ETH_P_IP));
	NB_ASSERT_EQ(pkt->mac_header, NB_PKT_HEADROOM - 14);
	NB_ASSERT_EQ(pkt->network_header, NB_PKT_HEADROOM);
	NB_ASSERT_EQ(pkt->data[-8], 0xab);
	nb_pkt_free(pkt);
}
