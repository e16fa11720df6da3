// SPDX-License-Identifier: GPL-2.0
/*
 * The __sk_buff context of the skb program types: SCHED_CLS and SCHED_ACT (tc classifiers and
 * actions) and SOCKET_FILTER. Which fields a program may read and write, at which sizes
 * (bpf_skb_is_valid_access, tc_cls_act_is_valid_access, sk_filter_is_valid_access), and the
 * rewrite of each access into loads and stores over struct nb_pkt (bpf_convert_ctx_access),
 * plus the legacy LD_ABS/LD_IND packet loads (bpf_skb_load_helper_*).
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/filter.h>

#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "net/ctx_insn.h"
#include "net/dev.h"
#include "net/filter.h"
#include "pkt/pkt.h"

#define SKB_OFF(f)	 offsetof(struct __sk_buff, f)
#define SKB_END(f)	 offsetofend(struct __sk_buff, f)
/* All byte offsets of a field, for case labels (bpf_ctx_range). */
#define SKB_RANGE(f)	 SKB_OFF(f) ... SKB_END(f) - 1
#define SKB_RANGE_TILL(a, b) SKB_OFF(a) ... SKB_END(b) - 1

/* Where a field of __sk_buff lives in struct nb_pkt. */
enum skb_field_kind {
	FIELD_PLAIN,		/* an integer field of nb_pkt, zero-extended to the ctx field */
	FIELD_ZERO,		/* nothing here to show: always reads 0 */
	FIELD_IFINDEX,		/* pkt->dev->ifindex, 0 without a device */
	FIELD_PTR,		/* a pointer (packet, socket): the access loads the whole pointer */
	FIELD_CB,		/* cb[]: byte-addressed, any size */
	FIELD_QUEUE_MAPPING,	/* writes of the "no queue" value are ignored */
};

struct skb_field {
	u16 ctx_off;
	u16 ctx_size;
	u16 pkt_off;
	u8 pkt_size;
	u8 kind;
};

#define PKT_FIELD(f, m)                                                                     \
	{ SKB_OFF(f), sizeof_field(struct __sk_buff, f), offsetof(struct nb_pkt, m),        \
	  sizeof_field(struct nb_pkt, m), FIELD_PLAIN }
#define SPECIAL_FIELD(f, m, kind)                                                           \
	{ SKB_OFF(f), sizeof_field(struct __sk_buff, f), offsetof(struct nb_pkt, m),        \
	  sizeof_field(struct nb_pkt, m), kind }
#define ZERO_FIELD(f) { SKB_OFF(f), sizeof_field(struct __sk_buff, f), 0, 0, FIELD_ZERO }

static const struct skb_field skb_fields[] = {
	PKT_FIELD(len, len),
	PKT_FIELD(pkt_type, pkt_type),
	PKT_FIELD(mark, mark),
	SPECIAL_FIELD(queue_mapping, queue_mapping, FIELD_QUEUE_MAPPING),
	PKT_FIELD(protocol, protocol),
	PKT_FIELD(vlan_present, vlan_present),
	PKT_FIELD(vlan_tci, vlan_tci),
	PKT_FIELD(vlan_proto, vlan_proto),
	PKT_FIELD(priority, priority),
	PKT_FIELD(ingress_ifindex, skb_iif),
	SPECIAL_FIELD(ifindex, dev, FIELD_IFINDEX),
	PKT_FIELD(tc_index, tc_index),
	SPECIAL_FIELD(cb, qdisc_cb.data, FIELD_CB),
	PKT_FIELD(hash, hash),
	PKT_FIELD(tc_classid, qdisc_cb.tc_classid),
	SPECIAL_FIELD(data, data, FIELD_PTR),
	SPECIAL_FIELD(data_end, bpf_data_end, FIELD_PTR),
	ZERO_FIELD(napi_id),
	SPECIAL_FIELD(data_meta, bpf_data_meta, FIELD_PTR),
	PKT_FIELD(tstamp, tstamp),
	PKT_FIELD(wire_len, qdisc_cb.pkt_len),
	PKT_FIELD(gso_segs, gso_segs),
	PKT_FIELD(gso_size, gso_size),
	PKT_FIELD(tstamp_type, tstamp_type),
	PKT_FIELD(hwtstamp, hwtstamp),
	/*
	 * The packet's socket: NULL on the datapath (netbpf has no sockets), a test run's own
	 * socket in a test run, whose first member is the struct bpf_sock programs read.
	 */
	SPECIAL_FIELD(sk, sk, FIELD_PTR),
};

static const struct skb_field *skb_field_at(int off)
{
	for (size_t i = 0; i < ARRAY_SIZE(skb_fields); i++) {
		const struct skb_field *f = &skb_fields[i];

		if (off >= f->ctx_off && off < f->ctx_off + f->ctx_size)
			return f;
	}
	return NULL;
}

/*
 * The rules every skb type shares (bpf_skb_is_valid_access). Reads of u32 fields may be narrow
 * (1, 2 or 4 bytes, aligned); writes are whole fields; cb[] takes any aligned size within it.
 * The socket's fields through __sk_buff (family, addresses, ports) are refused, as the kernel
 * refuses them to tc and socket filters; sk itself is a pointer to the packet's socket (NULL
 * but in a test run), read whole. Flow dissection fields are refused.
 */
static bool skb_is_valid_access(int off, int size, enum nb_access_type type,
				struct nb_ctx_access_info *info)
{
	if (off < 0 || off >= (int)sizeof(struct __sk_buff) || size <= 0)
		return false;
	if (off % size != 0)
		return false;

	switch (off) {
	case SKB_RANGE_TILL(cb[0], cb[4]):
		if (off + size > (int)SKB_END(cb[4]))
			return false;
		info->ctx_field_size = size;
		return true;
	case SKB_RANGE(data):
	case SKB_RANGE(data_meta):
	case SKB_RANGE(data_end):
		return size == sizeof(__u32);
	case SKB_RANGE_TILL(family, local_port):
	case SKB_RANGE(flow_keys):
	case SKB_OFF(tstamp_type):
	case SKB_END(tstamp_type) ... SKB_OFF(hwtstamp) - 1:
		return false;
	case SKB_RANGE(hwtstamp):
		return type == NB_READ && size == sizeof(__u64);
	case SKB_RANGE(sk):
		if (type == NB_WRITE || off != SKB_OFF(sk) || size != sizeof(__u64))
			return false;
		info->reg_type = NB_CTX_SOCK_COMMON_OR_NULL;
		info->ctx_field_size = sizeof(__u64);
		return true;
	case SKB_RANGE(tstamp):
		info->ctx_field_size = sizeof(__u64);
		return size == sizeof(__u64);
	default:
		info->ctx_field_size = sizeof(__u32);
		if (type == NB_WRITE)
			return size == sizeof(__u32);
		return size <= (int)sizeof(__u32) && (size & (size - 1)) == 0;
	}
}

/* tc_cls_act_is_valid_access */
static bool tc_cls_act_is_valid_access(int off, int size, enum nb_access_type type,
				       const struct nb_prog *prog,
				       struct nb_ctx_access_info *info)
{
	if (type == NB_WRITE) {
		switch (off) {
		case SKB_RANGE(mark):
		case SKB_RANGE(tc_index):
		case SKB_RANGE(priority):
		case SKB_RANGE(tc_classid):
		case SKB_RANGE_TILL(cb[0], cb[4]):
		case SKB_RANGE(tstamp):
		case SKB_RANGE(queue_mapping):
			break;
		default:
			return false;
		}
	}

	switch (off) {
	case SKB_RANGE(data):
		info->reg_type = NB_CTX_PKT;
		break;
	case SKB_RANGE(data_meta):
		info->reg_type = NB_CTX_PKT_META;
		break;
	case SKB_RANGE(data_end):
		info->reg_type = NB_CTX_PKT_END;
		break;
	case SKB_RANGE_TILL(family, local_port):
		return false;
	case SKB_OFF(tstamp_type):
		/* Read-only, one byte: tc programs may see how tstamp was stamped. */
		info->ctx_field_size = 1;
		return size == 1;
	}
	return skb_is_valid_access(off, size, type, info);
}

/* sk_filter_is_valid_access: no packet pointers, no tc fields, writes to cb[] only. */
static bool sk_filter_is_valid_access(int off, int size, enum nb_access_type type,
				      const struct nb_prog *prog,
				      struct nb_ctx_access_info *info)
{
	switch (off) {
	case SKB_RANGE(tc_classid):
	case SKB_RANGE(data):
	case SKB_RANGE(data_meta):
	case SKB_RANGE(data_end):
	case SKB_RANGE_TILL(family, local_port):
	case SKB_RANGE(tstamp):
	case SKB_RANGE(wire_len):
	case SKB_RANGE(hwtstamp):
		return false;
	}
	if (type == NB_WRITE) {
		switch (off) {
		case SKB_RANGE_TILL(cb[0], cb[4]):
			break;
		default:
			return false;
		}
	}
	return skb_is_valid_access(off, size, type, info);
}

/*
 * A read of size bytes at byte k of a ctx field backed by an integer of tsize bytes at toff from
 * base, with the kernel's narrow-load result (convert_ctx_accesses): a read at least as wide as
 * the target loads the whole target, wherever in the field it points (a u16 read of
 * protocol + 2 yields protocol); a narrower one yields the target's bytes k.. shifted down,
 * zero past the target. Both sides are little-endian, so that is a narrower load of the same
 * bytes.
 */
static struct bpf_insn *emit_read(struct bpf_insn *insn, u8 dst, u8 base, u32 size, u32 k,
				  u32 tsize, u32 toff)
{
	if (size >= tsize)
		*insn++ = ctx_ldx(tsize, dst, base, (s16)toff);
	else if (k >= tsize)
		*insn++ = ctx_mov_imm(dst, 0);
	else
		*insn++ = ctx_ldx(min_t(u32, size, tsize - k), dst, base, (s16)(toff + k));
	return insn;
}

static u32 skb_convert_ctx_access(enum nb_access_type type, const struct bpf_insn *si,
				  struct bpf_insn *insn_buf, const struct nb_prog *prog)
{
	const struct skb_field *f = skb_field_at(si->off);
	u32 size = insn_size_bytes(si);
	struct bpf_insn *insn = insn_buf;
	u32 k;

	if (!f)
		return 0;
	k = si->off - f->ctx_off;

	if (type == NB_WRITE) {
		switch (f->kind) {
		case FIELD_CB:
			*insn++ = ctx_store_like(si, size, (s16)(f->pkt_off + k));
			break;
		case FIELD_QUEUE_MAPPING:
			/* NO_QUEUE_MAPPING (0xffff) and above leave the field alone. */
			if (BPF_CLASS(si->code) == BPF_ST) {
				if ((u32)si->imm >= 0xffff)
					*insn++ = ctx_nop(si->dst_reg);
				else
					*insn++ = ctx_store_like(si, f->pkt_size, f->pkt_off);
				break;
			}
			*insn++ = ctx_jmp_imm(BPF_JGE, si->src_reg, 0xffff, 1);
			*insn++ = ctx_store_like(si, f->pkt_size, f->pkt_off);
			break;
		case FIELD_PLAIN:
			/* Whole-field stores; tc_index and tc_classid keep the low 16 bits. */
			*insn++ = ctx_store_like(si, f->pkt_size, f->pkt_off);
			break;
		default:
			return 0;
		}
		return insn - insn_buf;
	}

	switch (f->kind) {
	case FIELD_PLAIN:
	case FIELD_QUEUE_MAPPING:
		insn = emit_read(insn, si->dst_reg, si->src_reg, size, k, f->pkt_size, f->pkt_off);
		break;
	case FIELD_CB:
		*insn++ = ctx_ldx(size, si->dst_reg, si->src_reg, (s16)(f->pkt_off + k));
		break;
	case FIELD_ZERO:
		*insn++ = ctx_mov_imm(si->dst_reg, 0);
		break;
	case FIELD_PTR:
		*insn++ = ctx_ldx(sizeof(void *), si->dst_reg, si->src_reg, f->pkt_off);
		break;
	case FIELD_IFINDEX:
		*insn++ = ctx_ldx(sizeof(void *), si->dst_reg, si->src_reg, f->pkt_off);
		*insn++ = ctx_jmp_imm(BPF_JEQ, si->dst_reg, 0, 1);
		insn = emit_read(insn, si->dst_reg, si->dst_reg, size, k,
				 sizeof_field(struct nb_dev, ifindex), offsetof(struct nb_dev, ifindex));
		break;
	}
	return insn - insn_buf;
}

/*
 * Negative LD_ABS offsets address from the network header (SKF_NET_OFF) or the mac header
 * (SKF_LL_OFF), within the buffer (bpf_internal_load_pointer_neg_helper).
 */
static const u8 *skb_neg_ptr(const struct nb_pkt *pkt, s32 k, u32 size)
{
	const u8 *ptr;

	if (k >= SKF_NET_OFF) {
		if (pkt->network_header == NB_PKT_HDR_UNSET)
			return NULL;
		ptr = nb_pkt_network_header(pkt) + (k - SKF_NET_OFF);
	} else if (k >= SKF_LL_OFF) {
		if (pkt->mac_header == NB_PKT_HDR_UNSET)
			return NULL;
		ptr = nb_pkt_mac_header(pkt) + (k - SKF_LL_OFF);
	} else {
		return NULL;
	}
	if (ptr >= pkt->head && ptr + size <= pkt->data + nb_pkt_headlen(pkt))
		return ptr;
	return NULL;
}

/*
 * LD_ABS/LD_IND: size bytes at off in network order, as a host-order value. For off >= 0 within
 * the linear part (len - data_len) this is a read at data + off, which the JIT repeats in line;
 * beyond it the bytes come from the fragments (bpf_skb_load_helper's skb_header_pointer).
 */
#define SKB_LD_ABS_LINEAR                                                  \
	.ld_abs_linear = true, .ld_abs_data_off = offsetof(struct nb_pkt, data), \
	.ld_abs_len_off = offsetof(struct nb_pkt, len),                          \
	.ld_abs_data_len_off = offsetof(struct nb_pkt, data_len)

/* LD_ABS/LD_IND: size bytes at off in network order, as a host-order value. */
static int skb_ld_abs(const void *ctx, s32 off, u32 size, u32 *val)
{
	const struct nb_pkt *pkt = ctx;
	const u8 *p;
	u8 buf[4];

	if (off >= 0) {
		p = nb_pkt_header_pointer(pkt, (u32)off, size, buf);
		if (!p)
			return -EFAULT;
	} else {
		p = skb_neg_ptr(pkt, off, size);
		if (!p)
			return -EFAULT;
	}
	switch (size) {
	case 1:
		*val = p[0];
		break;
	case 2:
		*val = (u32)p[0] << 8 | p[1];
		break;
	default:
		*val = (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
		break;
	}
	return 0;
}

static const struct nb_func_proto *tc_cls_act_get_func_proto(enum bpf_func_id id,
							     const struct nb_prog *prog)
{
	const struct nb_func_proto *proto = nb_tc_func_proto(id, prog);

	return proto ? proto : nb_base_func_proto(id);
}

static const struct nb_func_proto *sk_filter_get_func_proto(enum bpf_func_id id,
							    const struct nb_prog *prog)
{
	const struct nb_func_proto *proto = nb_sk_filter_func_proto(id, prog);

	/* The generic table serves csum_diff to every type; the kernel's socket filters lack it. */
	if (id == BPF_FUNC_csum_diff)
		return NULL;
	return proto ? proto : nb_base_func_proto(id);
}

/* tc classifiers and actions share one context and one set of rules. */
#define TC_PROG_TYPE(prog_type, type_name)                                                  \
	{                                                                                   \
		.type = prog_type,                                                          \
		.name = type_name,                                                          \
		.ctx_size = sizeof(struct __sk_buff),                                       \
		.ctx_btf_name = "__sk_buff",                                                \
		.kern_ctx_btf_name = "sk_buff",                                             \
		.get_func_proto = tc_cls_act_get_func_proto,                                \
		.kernel_funcs = &nb_tc_cls_act_kernel_funcs,                                \
		.is_valid_access = tc_cls_act_is_valid_access,                              \
		.convert_ctx_access = skb_convert_ctx_access,                               \
		.ld_abs = skb_ld_abs,                                                       \
		SKB_LD_ABS_LINEAR,                                                          \
		.pkt_access = NB_PKT_ACCESS_WRITE,                                          \
	}

static const struct nb_prog_type_ops sched_cls_prog_type =
	TC_PROG_TYPE(BPF_PROG_TYPE_SCHED_CLS, "sched_cls");
NB_PROG_TYPE_REGISTER(sched_cls_prog_type)

static const struct nb_prog_type_ops sched_act_prog_type =
	TC_PROG_TYPE(BPF_PROG_TYPE_SCHED_ACT, "sched_act");
NB_PROG_TYPE_REGISTER(sched_act_prog_type)

static const struct nb_prog_type_ops socket_filter_prog_type = {
	.type = BPF_PROG_TYPE_SOCKET_FILTER,
	.name = "socket_filter",
	.ctx_size = sizeof(struct __sk_buff),
	.ctx_btf_name = "__sk_buff",
	.kern_ctx_btf_name = "sk_buff",
	.get_func_proto = sk_filter_get_func_proto,
	.kernel_funcs = &nb_sk_filter_kernel_funcs,
	.is_valid_access = sk_filter_is_valid_access,
	.convert_ctx_access = skb_convert_ctx_access,
	.ld_abs = skb_ld_abs,
	SKB_LD_ABS_LINEAR,
	.pkt_access = NB_PKT_ACCESS_NONE,
};
NB_PROG_TYPE_REGISTER(socket_filter_prog_type)
