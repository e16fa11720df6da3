// SPDX-License-Identifier: GPL-2.0
/*
 * The xdp_md context of XDP programs: read-only, 4-byte accesses (xdp_is_valid_access); data,
 * data_end and data_meta are packet pointers; egress_ifindex exists only for programs that run
 * from a devmap entry (expected attach type BPF_XDP_DEVMAP). The rewrite reads struct
 * nb_xdp_buff (xdp_convert_ctx_access).
 */
#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "net/ctx_insn.h"
#include "net/filter.h"
#include "pkt/pkt.h"

#define XDP_OFF(f) offsetof(struct xdp_md, f)

static bool xdp_is_valid_access(int off, int size, enum nb_access_type type,
				const struct nb_prog *prog, struct nb_ctx_access_info *info)
{
	if (off == XDP_OFF(egress_ifindex) && prog->expected_attach_type != BPF_XDP_DEVMAP)
		return false;
	/* The kernel lets only device-bound programs write (rx_queue_index); none are here. */
	if (type == NB_WRITE)
		return false;

	switch (off) {
	case XDP_OFF(data):
		info->reg_type = NB_CTX_PKT;
		break;
	case XDP_OFF(data_meta):
		info->reg_type = NB_CTX_PKT_META;
		break;
	case XDP_OFF(data_end):
		info->reg_type = NB_CTX_PKT_END;
		break;
	}
	if (off < 0 || off >= (int)sizeof(struct xdp_md) || size != sizeof(__u32))
		return false;
	info->ctx_field_size = sizeof(__u32);
	return off % size == 0;
}

static u32 xdp_convert_ctx_access(enum nb_access_type type, const struct bpf_insn *si,
				  struct bpf_insn *insn_buf, const struct nb_prog *prog)
{
	struct bpf_insn *insn = insn_buf;
	u8 dst = si->dst_reg, src = si->src_reg;

	if (type != NB_READ)
		return 0;
	switch (si->off) {
	case XDP_OFF(data):
		*insn++ = ctx_ldx(sizeof(void *), dst, src, offsetof(struct nb_xdp_buff, data));
		break;
	case XDP_OFF(data_end):
		*insn++ = ctx_ldx(sizeof(void *), dst, src, offsetof(struct nb_xdp_buff, data_end));
		break;
	case XDP_OFF(data_meta):
		*insn++ = ctx_ldx(sizeof(void *), dst, src, offsetof(struct nb_xdp_buff, data_meta));
		break;
	case XDP_OFF(ingress_ifindex):
		*insn++ = ctx_ldx(sizeof(void *), dst, src, offsetof(struct nb_xdp_buff, rxq));
		*insn++ = ctx_ldx(4, dst, dst, offsetof(struct nb_xdp_rxq_info, ifindex));
		break;
	case XDP_OFF(rx_queue_index):
		*insn++ = ctx_ldx(sizeof(void *), dst, src, offsetof(struct nb_xdp_buff, rxq));
		*insn++ = ctx_ldx(4, dst, dst, offsetof(struct nb_xdp_rxq_info, queue_index));
		break;
	case XDP_OFF(egress_ifindex):
		*insn++ = ctx_ldx(sizeof(void *), dst, src, offsetof(struct nb_xdp_buff, txq));
		*insn++ = ctx_ldx(4, dst, dst, offsetof(struct nb_xdp_txq_info, ifindex));
		break;
	}
	return insn - insn_buf;
}

static const struct nb_func_proto *xdp_get_func_proto(enum bpf_func_id id,
						      const struct nb_prog *prog)
{
	const struct nb_func_proto *proto = nb_xdp_func_proto(id, prog);

	return proto ? proto : nb_base_func_proto(id);
}

static const struct nb_prog_type_ops xdp_prog_type = {
	.type = BPF_PROG_TYPE_XDP,
	.name = "xdp",
	.ctx_size = sizeof(struct xdp_md),
	.ctx_btf_name = "xdp_md",
	.kern_ctx_btf_name = "xdp_buff",
	.get_func_proto = xdp_get_func_proto,
	.kernel_funcs = &nb_xdp_kernel_funcs,
	.is_valid_access = xdp_is_valid_access,
	.convert_ctx_access = xdp_convert_ctx_access,
	.pkt_access = NB_PKT_ACCESS_WRITE,
};
NB_PROG_TYPE_REGISTER(xdp_prog_type)
