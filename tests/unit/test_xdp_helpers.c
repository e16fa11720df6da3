// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP helpers called as programs call them, on a real XDP buffer: the adjust helpers at
 * and beyond the kernel's limits, byte access, the buffer length, and bpf_redirect's flags.
 */
#include "bpf/prog_type.h"
#include "net/redirect.h"
#include "xdp_test.h"

static u64 call(enum bpf_func_id id, u64 r1, u64 r2, u64 r3, u64 r4)
{
	const struct nb_prog_type_ops *ops = nb_prog_type_ops(BPF_PROG_TYPE_XDP);
	struct nb_prog prog = { .type = BPF_PROG_TYPE_XDP, .ops = ops };
	const struct nb_func_proto *proto = ops->get_func_proto(id, &prog);

	NB_ASSERT(proto && proto->func);
	return proto->func(r1, r2, r3, r4, 0);
}

#define CTX(x) ((u64)(uintptr_t)(x))

static struct nb_pkt *frame_xdp(u32 len, struct nb_xdp_buff *xdp)
{
	static const struct nb_xdp_rxq_info rxq = { .ifindex = 1 };
	struct nb_pkt *pkt = xt_frame(0x11223344, len);

	nb_pkt_to_xdp(pkt, xdp, &rxq);
	return pkt;
}

NB_TEST(xdp_helper_adjust_head)
{
	struct nb_xdp_buff xdp;
	struct nb_pkt *pkt = frame_xdp(64, &xdp);
	u8 *data = xdp.data;
	const s64 room = NB_PKT_HEADROOM - NB_XDP_FRAME_SIZE;

	/* the front may grow down to the xdp_frame room, not one byte further */
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_head, CTX(&xdp), -(room + 1), 0, 0), (u64)-EINVAL);
	NB_ASSERT_EQ(xdp.data, data);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_head, CTX(&xdp), -room, 0, 0), 0);
	NB_ASSERT_EQ(xdp.data, xdp.data_hard_start + NB_XDP_FRAME_SIZE);
	NB_ASSERT_EQ(xdp.data_meta, xdp.data);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_head, CTX(&xdp), room, 0, 0), 0);
	/* shrinking leaves at least an Ethernet header */
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_head, CTX(&xdp), 64 - ETH_HLEN + 1, 0, 0),
		     (u64)-EINVAL);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_head, CTX(&xdp), 64 - ETH_HLEN, 0, 0), 0);
	NB_ASSERT_EQ(xdp.data_end - xdp.data, ETH_HLEN);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_head, CTX(&xdp), -(64 - ETH_HLEN), 0, 0), 0);
	/* metadata moves with data and counts against the front room */
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), -8, 0, 0), 0);
	memcpy(xdp.data_meta, "metadata", 8);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_head, CTX(&xdp), -(room - 8 + 1), 0, 0),
		     (u64)-EINVAL);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_head, CTX(&xdp), -(room - 8), 0, 0), 0);
	NB_ASSERT_EQ(xdp.data - xdp.data_meta, 8);
	NB_ASSERT_MEM_EQ(xdp.data_meta, "metadata", 8);
	nb_pkt_free(pkt);
}

NB_TEST(xdp_helper_adjust_tail)
{
	struct nb_xdp_buff xdp;
	struct nb_pkt *pkt = frame_xdp(64, &xdp);
	const s64 grow = NB_PKT_BUF_SIZE - NB_PKT_TAILROOM - NB_PKT_HEADROOM - 64;

	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_tail, CTX(&xdp), grow + 1, 0, 0), (u64)-EINVAL);
	memset(xdp.data_end, 0xee, 16);		/* stale bytes past the end */
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_tail, CTX(&xdp), grow, 0, 0), 0);
	NB_ASSERT_EQ(xdp.data_end, xdp.data_hard_start + NB_PKT_BUF_SIZE - NB_PKT_TAILROOM);
	for (int i = 64; i < 80; i++)
		NB_ASSERT_EQ(xdp.data[i], 0);		/* grown bytes are zeroed */
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_get_buff_len, CTX(&xdp), 0, 0, 0), 64 + grow);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_tail, CTX(&xdp), -(64 + grow - ETH_HLEN + 1), 0, 0),
		     (u64)-EINVAL);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_tail, CTX(&xdp), -(64 + grow - ETH_HLEN), 0, 0), 0);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_get_buff_len, CTX(&xdp), 0, 0, 0), ETH_HLEN);
	nb_pkt_free(pkt);
}

NB_TEST(xdp_helper_adjust_meta)
{
	struct nb_xdp_buff xdp;
	struct nb_pkt *pkt = frame_xdp(64, &xdp);
	const s64 room = NB_PKT_HEADROOM - NB_XDP_FRAME_SIZE;

	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), -2, 0, 0), (u64)-EACCES);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), 4, 0, 0), (u64)-EINVAL);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), -(room + 4), 0, 0), (u64)-EINVAL);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), -room, 0, 0), 0);
	NB_ASSERT_EQ(xdp.data - xdp.data_meta, room);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), room - 4, 0, 0), 0);
	NB_ASSERT_EQ(xdp.data - xdp.data_meta, 4);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), 4, 0, 0), 0);
	NB_ASSERT_EQ(xdp.data_meta, xdp.data);
	/* with more headroom the limit is the one-byte meta_len: 252 in whole words */
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_head, CTX(&xdp), 40, 0, 0), 0);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), -256, 0, 0), (u64)-EACCES);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), -252, 0, 0), 0);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), 252, 0, 0), 0);
	/* a buffer without metadata support */
	xdp.data_meta = xdp.data + 1;
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_adjust_meta, CTX(&xdp), -4, 0, 0), (u64)-524);
	nb_pkt_free(pkt);
}

NB_TEST(xdp_helper_load_store_bytes)
{
	struct nb_xdp_buff xdp;
	struct nb_pkt *pkt = frame_xdp(64, &xdp);
	u8 buf[8] = { 0 };
	u32 seq;

	NB_ASSERT_EQ(call(BPF_FUNC_xdp_load_bytes, CTX(&xdp), ETH_HLEN, CTX(&seq), 4), 0);
	NB_ASSERT_EQ(seq, 0x11223344);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_load_bytes, CTX(&xdp), 56, CTX(buf), 8), 0);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_load_bytes, CTX(&xdp), 57, CTX(buf), 8), (u64)-EINVAL);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_load_bytes, CTX(&xdp), 0x10000, CTX(buf), 8),
		     (u64)-EFAULT);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_load_bytes, CTX(&xdp), (u64)-1, CTX(buf), 8),
		     (u64)-EFAULT);
	memcpy(buf, "ABCDEFGH", 8);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_store_bytes, CTX(&xdp), 56, CTX(buf), 8), 0);
	NB_ASSERT_MEM_EQ(xdp.data + 56, "ABCDEFGH", 8);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_store_bytes, CTX(&xdp), 60, CTX(buf), 8), (u64)-EINVAL);
	NB_ASSERT_MEM_EQ(xdp.data + 56, "ABCDEFGH", 8);
	NB_ASSERT_EQ(call(BPF_FUNC_xdp_get_buff_len, CTX(&xdp), 0, 0, 0), 64);
	nb_pkt_free(pkt);
}

NB_TEST(xdp_helper_redirect_records)
{
	struct nb_redirect_info *ri = nb_redirect_info_get();

	NB_ASSERT_EQ(call(BPF_FUNC_redirect, 7, 0, 0, 0), XDP_REDIRECT);
	NB_ASSERT_EQ(ri->tgt_index, 7);
	NB_ASSERT_EQ(ri->map_type, BPF_MAP_TYPE_UNSPEC);
	NB_ASSERT_EQ(ri->map_id, NB_REDIRECT_IFINDEX_ID);
	NB_ASSERT_EQ(call(BPF_FUNC_redirect, 9, BPF_F_INGRESS, 0, 0), XDP_ABORTED);
	NB_ASSERT_EQ(ri->tgt_index, 7);		/* unchanged */
	NB_ASSERT_EQ(call(BPF_FUNC_redirect, 9, 1ULL << 40, 0, 0), XDP_ABORTED);
}

/* The helpers XDP programs may call from this file, and the map types redirect_map takes. */
NB_TEST(xdp_helper_protos)
{
	const struct nb_prog_type_ops *ops = nb_prog_type_ops(BPF_PROG_TYPE_XDP);
	struct nb_prog prog = { .type = BPF_PROG_TYPE_XDP, .ops = ops };
	const struct nb_func_proto *p = ops->get_func_proto(BPF_FUNC_redirect_map, &prog);

	NB_ASSERT(p && p->map_type_cnt == 4);
	NB_ASSERT_EQ(p->map_types[0], BPF_MAP_TYPE_DEVMAP);
	NB_ASSERT_EQ(p->map_types[1], BPF_MAP_TYPE_DEVMAP_HASH);
	NB_ASSERT_EQ(p->map_types[2], BPF_MAP_TYPE_CPUMAP);
	NB_ASSERT_EQ(p->map_types[3], BPF_MAP_TYPE_XSKMAP);
	NB_ASSERT(ops->get_func_proto(BPF_FUNC_xdp_adjust_head, &prog)->changes_pkt_data);
	NB_ASSERT(ops->get_func_proto(BPF_FUNC_xdp_adjust_tail, &prog)->changes_pkt_data);
	NB_ASSERT(ops->get_func_proto(BPF_FUNC_xdp_adjust_meta, &prog)->changes_pkt_data);
	NB_ASSERT(ops->get_func_proto(BPF_FUNC_csum_diff, &prog));
	/* skb helpers are not XDP helpers */
	NB_ASSERT(!ops->get_func_proto(BPF_FUNC_skb_load_bytes, &prog));
	NB_ASSERT(!nb_prog_type_ops(BPF_PROG_TYPE_SCHED_CLS)->get_func_proto(
		BPF_FUNC_xdp_adjust_head, &prog));
}
