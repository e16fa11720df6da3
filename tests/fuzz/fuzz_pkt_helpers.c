// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the packet helpers on hostile frames. The input describes a frame (length
 * 0 to a full buffer, headroom, metadata, XDP fragments, bytes) and a sequence of helper calls
 * with their arguments; each call goes to the helper the program type offers (the tc or the
 * XDP table), as a verified program would make it: memory arguments are allocations of exactly
 * the size passed, so that a helper reading or writing past them is an ASan report. After
 * every call the packet must still describe memory inside its buffer.
 *
 *   byte 0        0: tc (sched_cls), 1: XDP
 *   bytes 1..2    frame length (little endian, wrapped to the buffer)
 *   byte 3        headroom (tc) / metadata length (XDP); tc with the top bit: a frame beyond a
 *                 page, in fragments
 *   byte 4        XDP: fragments to append (0..3)
 *   then          the frame's bytes, then calls: helper (1 byte) and five u32 arguments
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/prog.h>

#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "bpf_asm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const u8 *p;
	size_t len, pos;
};

static u8 in_byte(struct input *in)
{
	return in->pos < in->len ? in->p[in->pos++] : 0;
}

/* Arguments lean to the edges: small offsets, lengths near the frame's, -1, huge values. */
static u32 in_arg(struct input *in)
{
	u32 v = in_byte(in);

	switch (v >> 6) {
	case 0:
		return v & 0x3f;
	case 1:
		return (u32)-(s32)(v & 0x3f);
	case 2:
		return (v & 0x3f) << 4 | in_byte(in) >> 4;
	default:
		v = in_byte(in) | (u32)in_byte(in) << 8;
		return v | (u32)in_byte(in) << 16 | (u32)in_byte(in) << 24;
	}
}

static const int tc_helpers[] = {
	BPF_FUNC_skb_load_bytes, BPF_FUNC_skb_load_bytes_relative, BPF_FUNC_skb_store_bytes,
	BPF_FUNC_l3_csum_replace, BPF_FUNC_l4_csum_replace, BPF_FUNC_csum_diff,
	BPF_FUNC_get_hash_recalc, BPF_FUNC_set_hash, BPF_FUNC_skb_vlan_push,
	BPF_FUNC_skb_vlan_pop, BPF_FUNC_skb_change_proto, BPF_FUNC_skb_change_type,
	BPF_FUNC_skb_change_tail, BPF_FUNC_skb_change_head, BPF_FUNC_skb_pull_data,
	BPF_FUNC_skb_ecn_set_ce, BPF_FUNC_skb_adjust_room,
};

static const int xdp_helpers[] = {
	BPF_FUNC_xdp_adjust_head, BPF_FUNC_xdp_adjust_tail, BPF_FUNC_xdp_adjust_meta,
	BPF_FUNC_xdp_load_bytes, BPF_FUNC_xdp_store_bytes, BPF_FUNC_xdp_get_buff_len,
	BPF_FUNC_csum_diff,
};

static struct nb_prog *progs[2];
static struct nb_dev *dev;

static void setup(void)
{
	const struct bpf_insn insns[] = { NB_MOV64_IMM(BPF_REG_0, 0), NB_EXIT() };
	const enum bpf_prog_type types[2] = { BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_XDP };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL" };
	struct nb_log log = { 0 };

	for (int i = 0; i < 2; i++)
		if (nb_prog_load(types[i], insns, 2, &opts, &progs[i]))
			__builtin_trap();
	if (nb_dev_create("hostile0", 0, &dev, &log))
		__builtin_trap();
	nb_dev_set_up(dev, true);
}

/* The packet describes memory of its buffer: the invariant every helper must keep. */
static void check_pkt(const struct nb_pkt *pkt, const struct nb_xdp_buff *xdp)
{
	if (xdp) {
		if (xdp->data_meta > xdp->data || xdp->data > xdp->data_end ||
		    xdp->data_meta < xdp->data_hard_start ||
		    xdp->data_end > xdp->data_hard_start + xdp->frame_sz - NB_PKT_TAILROOM)
			__builtin_trap();
		return;
	}
	u32 linear = pkt->len - pkt->data_len;

	if (pkt->data_len > pkt->len || pkt->data < pkt->head ||
	    pkt->data + linear > pkt->head + pkt->end || pkt->bpf_data_end != pkt->data + linear ||
	    pkt->data - pkt->meta_len < pkt->head)
		__builtin_trap();
}

/* Memory arguments: exactly as large as the size argument says. */
static void *mem(u32 size, struct input *in)
{
	u8 *m = malloc(size ? size : 1);

	if (!m)
		__builtin_trap();
	for (u32 i = 0; i < size; i++)
		m[i] = in_byte(in);
	return m;
}

static void call(const struct nb_func_proto *proto, void *ctx, struct input *in)
{
	u64 a[5] = { (u64)(uintptr_t)ctx, in_arg(in), in_arg(in), in_arg(in), in_arg(in) };
	void *bufs[2] = { NULL, NULL };
	int nbuf = 0;

	/* pointer arguments get memory of the size that follows them (at most a page) */
	for (int i = 0; i < 5; i++) {
		enum nb_arg_type t = proto->arg_type[i];

		if (t == NB_ARG_PTR_TO_MEM || t == NB_ARG_PTR_TO_UNINIT_MEM ||
		    t == NB_ARG_PTR_TO_MEM_OR_NULL) {
			u32 sz = i + 1 < 5 ? (u32)a[i + 1] % 4097 : 0;

			if (i + 1 < 5)
				a[i + 1] = sz;
			if (t == NB_ARG_PTR_TO_MEM_OR_NULL && !sz) {
				a[i] = 0;
				continue;
			}
			if (sz == 0 && proto->arg_type[i + 1] == NB_ARG_CONST_SIZE)
				a[i + 1] = sz = 1;
			bufs[nbuf] = mem(sz, in);
			a[i] = (u64)(uintptr_t)bufs[nbuf++];
		}
	}
	proto->func(a[0], a[1], a[2], a[3], a[4]);
	for (int i = 0; i < nbuf; i++)
		free(bufs[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { .p = data, .len = size };
	struct nb_xdp_rxq_info rxq = { 0 };
	struct nb_xdp_buff xdp;
	struct nb_prog *prog;
	struct nb_pkt *pkt;
	bool is_xdp;
	u32 len, room, frags;

	if (!progs[0])
		setup();
	is_xdp = in_byte(&in) & 1;
	prog = progs[is_xdp];
	len = in_byte(&in) | (u32)in_byte(&in) << 8;
	room = in_byte(&in);
	frags = in_byte(&in) % 4;
	if (!is_xdp && (room & 0x80)) {
		/* a frame beyond a page: its tail in fragments (bytes the input need not hold) */
		static u8 big[3 * NB_PKT_BUF_SIZE];

		len = NB_PKT_MAX_LEN + len % (sizeof(big) - NB_PKT_MAX_LEN);
		for (u32 i = 0; i < len; i++)
			big[i] = in_byte(&in);
		pkt = nb_pkt_alloc_data(big, len);
		if (!pkt)
			return 0;
	} else {
		pkt = nb_pkt_alloc();
		if (!pkt)
			return 0;
		if (is_xdp) {
			len %= NB_PKT_MAX_LEN + 1;
			pkt->data = pkt->head + NB_PKT_HEADROOM;
			pkt->meta_len = (u8)(4 * (room % 9));
		} else {
			len %= NB_PKT_BUF_SIZE - NB_PKT_TAILROOM - room + 1;
			pkt->data = pkt->head + room;
		}
		for (u8 *p = nb_pkt_put(pkt, len), *end = p + len; p < end; p++)
			*p = in_byte(&in);
	}
	pkt->dev = dev;
	if (is_xdp) {
		rxq = (struct nb_xdp_rxq_info){ .dev = dev, .ifindex = dev->ifindex,
						.frag_size = NB_PKT_BUF_SIZE };
		nb_pkt_to_xdp(pkt, &xdp, &rxq);
		for (u32 i = 0; i < frags; i++) {
			u8 frag[512];
			u32 flen = (in_byte(&in) * 2U) % sizeof(frag);

			for (u32 k = 0; k < flen; k++)
				frag[k] = in_byte(&in);
			if (nb_xdp_frag_append(&xdp, frag, flen))
				break;
		}
	} else {
		nb_eth_type_trans(pkt, dev);
		nb_pkt_compute_data_pointers(pkt);
	}
	while (in.pos < in.len) {
		u8 sel = in_byte(&in);
		int id = is_xdp ? xdp_helpers[sel % ARRAY_SIZE(xdp_helpers)]
				: tc_helpers[sel % ARRAY_SIZE(tc_helpers)];
		const struct nb_func_proto *proto = prog->ops->get_func_proto(id, prog);

		if (!proto)
			__builtin_trap();	/* the tables above name the type's own helpers */
		call(proto, is_xdp ? (void *)&xdp : (void *)pkt, &in);
		check_pkt(pkt, is_xdp ? &xdp : NULL);
	}
	if (is_xdp)
		nb_xdp_frags_free(&xdp);
	nb_pkt_free(pkt);
	return 0;
}
