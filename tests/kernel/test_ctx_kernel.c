// SPDX-License-Identifier: GPL-2.0
/*
 * The packet program types against the running kernel: each case is loaded into the kernel with
 * libbpf and into netbpf, and run on the same frame with BPF_PROG_TEST_RUN and its twin
 * nb_prog_test_run; retval, data_out and ctx_out must be equal. This checks the __sk_buff and
 * xdp_md rewrites, LD_ABS and the packet helpers against the reference, field by field.
 */
#include "kcase.h"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define SKB(f)	  offsetof(struct __sk_buff, f)
#define XDP(f)	  offsetof(struct xdp_md, f)
#define FRAME_LEN 74
#define IP_OFF	  14
#define UDP_OFF	  34

/* r0 = one field of the context, at some size and offset. */
struct read_field {
	const char *name;
	enum bpf_prog_type type;
	s16 off;
	u8 size;	/* BPF_B, BPF_H, BPF_W, BPF_DW */
};

static const struct read_field read_fields[] = {
	{ "len", BPF_PROG_TYPE_SCHED_CLS, SKB(len), BPF_W },
	{ "len_u8", BPF_PROG_TYPE_SCHED_CLS, SKB(len), BPF_B },
	{ "pkt_type", BPF_PROG_TYPE_SCHED_CLS, SKB(pkt_type), BPF_W },
	{ "mark", BPF_PROG_TYPE_SCHED_CLS, SKB(mark), BPF_W },
	{ "mark_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(mark) + 2, BPF_H },
	{ "mark_u8_1", BPF_PROG_TYPE_SCHED_CLS, SKB(mark) + 1, BPF_B },
	{ "queue_mapping", BPF_PROG_TYPE_SCHED_CLS, SKB(queue_mapping), BPF_W },
	{ "protocol", BPF_PROG_TYPE_SCHED_CLS, SKB(protocol), BPF_W },
	{ "protocol_u8_1", BPF_PROG_TYPE_SCHED_CLS, SKB(protocol) + 1, BPF_B },
	{ "protocol_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(protocol) + 2, BPF_H },
	{ "pkt_type_u8_3", BPF_PROG_TYPE_SCHED_CLS, SKB(pkt_type) + 3, BPF_B },
	{ "pkt_type_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(pkt_type) + 2, BPF_H },
	{ "queue_mapping_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(queue_mapping) + 2, BPF_H },
	{ "vlan_present_u8_2", BPF_PROG_TYPE_SCHED_CLS, SKB(vlan_present) + 2, BPF_B },
	{ "tc_index_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_index) + 2, BPF_H },
	{ "tc_classid_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_classid) + 2, BPF_H },
	{ "tc_classid_u8_3", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_classid) + 3, BPF_B },
	{ "gso_segs_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(gso_segs) + 2, BPF_H },
	{ "gso_size_u8_1", BPF_PROG_TYPE_SCHED_CLS, SKB(gso_size) + 1, BPF_B },
	{ "wire_len_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(wire_len) + 2, BPF_H },
	{ "ifindex_u8", BPF_PROG_TYPE_SCHED_CLS, SKB(ifindex), BPF_B },
	{ "ingress_ifindex_u16", BPF_PROG_TYPE_SCHED_CLS, SKB(ingress_ifindex), BPF_H },
	{ "vlan_present", BPF_PROG_TYPE_SCHED_CLS, SKB(vlan_present), BPF_W },
	{ "vlan_tci", BPF_PROG_TYPE_SCHED_CLS, SKB(vlan_tci), BPF_W },
	{ "vlan_proto", BPF_PROG_TYPE_SCHED_CLS, SKB(vlan_proto), BPF_W },
	{ "priority", BPF_PROG_TYPE_SCHED_CLS, SKB(priority), BPF_W },
	{ "ingress_ifindex", BPF_PROG_TYPE_SCHED_CLS, SKB(ingress_ifindex), BPF_W },
	{ "ifindex", BPF_PROG_TYPE_SCHED_CLS, SKB(ifindex), BPF_W },
	{ "tc_index", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_index), BPF_W },
	{ "cb0", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[0]), BPF_W },
	{ "cb3_u8_2", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[3]) + 2, BPF_B },
	{ "cb2_u64", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[2]), BPF_DW },
	{ "hash", BPF_PROG_TYPE_SCHED_CLS, SKB(hash), BPF_W },
	{ "tc_classid", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_classid), BPF_W },
	{ "napi_id", BPF_PROG_TYPE_SCHED_CLS, SKB(napi_id), BPF_W },
	{ "tstamp", BPF_PROG_TYPE_SCHED_CLS, SKB(tstamp), BPF_DW },
	{ "wire_len", BPF_PROG_TYPE_SCHED_CLS, SKB(wire_len), BPF_W },
	{ "gso_segs", BPF_PROG_TYPE_SCHED_CLS, SKB(gso_segs), BPF_W },
	{ "gso_size", BPF_PROG_TYPE_SCHED_CLS, SKB(gso_size), BPF_W },
	{ "hwtstamp", BPF_PROG_TYPE_SCHED_CLS, SKB(hwtstamp), BPF_DW },
	{ "act_priority", BPF_PROG_TYPE_SCHED_ACT, SKB(priority), BPF_W },
	{ "sf_len", BPF_PROG_TYPE_SOCKET_FILTER, SKB(len), BPF_W },
	{ "sf_protocol", BPF_PROG_TYPE_SOCKET_FILTER, SKB(protocol), BPF_W },
	{ "sf_pkt_type", BPF_PROG_TYPE_SOCKET_FILTER, SKB(pkt_type), BPF_W },
	{ "sf_ifindex", BPF_PROG_TYPE_SOCKET_FILTER, SKB(ifindex), BPF_W },
	{ "sf_cb4", BPF_PROG_TYPE_SOCKET_FILTER, SKB(cb[4]), BPF_W },
	{ "xdp_ingress_ifindex", BPF_PROG_TYPE_XDP, XDP(ingress_ifindex), BPF_W },
	{ "xdp_rx_queue_index", BPF_PROG_TYPE_XDP, XDP(rx_queue_index), BPF_W },
};

static struct bpf_insn read_insns[ARRAY_SIZE(read_fields)][2];
static struct kcase read_cases[ARRAY_SIZE(read_fields)];
static char read_names[ARRAY_SIZE(read_fields)][48];

/* Writes, read back: the rewrite of both directions and the fields' widths. */
#define WRITE_READ(name, off, val)                                                          \
	static const struct bpf_insn name[] = {                                             \
		NB_MOV64_IMM(BPF_REG_2, val),                                               \
		NB_STX_MEM(BPF_W, BPF_REG_1, BPF_REG_2, off),                               \
		NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, off),                               \
		NB_EXIT(),                                                                  \
	}
WRITE_READ(w_mark, SKB(mark), 0x0badcafe);
WRITE_READ(w_priority, SKB(priority), 0x10);
WRITE_READ(w_tc_index, SKB(tc_index), 0x12345);
WRITE_READ(w_tc_classid, SKB(tc_classid), 0x10003);
WRITE_READ(w_queue_mapping, SKB(queue_mapping), 5);
WRITE_READ(w_queue_mapping_none, SKB(queue_mapping), 0xffff);
WRITE_READ(w_cb1, SKB(cb[1]), -7);

static const struct bpf_insn w_tstamp[] = {
	NB_LD_IMM64(BPF_REG_2, 0x1122334455667788ull),
	NB_STX_MEM(BPF_DW, BPF_REG_1, BPF_REG_2, SKB(tstamp)),
	NB_MOV64_IMM(BPF_REG_0, 0),
	NB_EXIT(),
};

static const struct bpf_insn w_cb_u8[] = {
	NB_MOV64_IMM(BPF_REG_2, 0x5a),
	NB_STX_MEM(BPF_B, BPF_REG_1, BPF_REG_2, SKB(cb[0]) + 3),
	NB_STX_MEM(BPF_H, BPF_REG_1, BPF_REG_2, SKB(cb[4]) + 2),
	NB_MOV64_IMM(BPF_REG_0, 0),
	NB_EXIT(),
};

/*
 * Sign-extending loads of a context field, whole and narrow: the high halves of the results
 * folded into the 32-bit return value, so a zero extension anywhere shows.
 */
static const struct bpf_insn ldsx_mark[] = {
	NB_LD_IMM64(BPF_REG_2, 0xf0f08081),
	NB_STX_MEM(BPF_W, BPF_REG_1, BPF_REG_2, SKB(mark)),
	NB_LDX_MEMSX(BPF_B, BPF_REG_3, BPF_REG_1, SKB(mark)),
	NB_LDX_MEMSX(BPF_H, BPF_REG_4, BPF_REG_1, SKB(mark) + 2),
	NB_LDX_MEMSX(BPF_W, BPF_REG_5, BPF_REG_1, SKB(mark)),
	NB_LDX_MEMSX(BPF_B, BPF_REG_6, BPF_REG_1, SKB(mark) + 1),
	NB_MOV64_REG(BPF_REG_0, BPF_REG_3),
	NB_ALU64_IMM(BPF_RSH, BPF_REG_0, 32),
	NB_ALU64_IMM(BPF_RSH, BPF_REG_4, 20),
	NB_ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_4),
	NB_ALU64_IMM(BPF_RSH, BPF_REG_5, 8),
	NB_ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_5),
	NB_ALU64_IMM(BPF_RSH, BPF_REG_6, 4),
	NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_6),
	NB_EXIT(),
};

/* data_end - data and data - data_meta, checked bounds, and a byte through data. */
static const struct bpf_insn pkt_pointers[] = {
	NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, SKB(data)),
	NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, SKB(data_end)),
	NB_LDX_MEM(BPF_W, BPF_REG_4, BPF_REG_1, SKB(data_meta)),
	NB_MOV64_IMM(BPF_REG_0, 0),
	NB_MOV64_REG(BPF_REG_5, BPF_REG_2),
	NB_ALU64_IMM(BPF_ADD, BPF_REG_5, 24),
	NB_JMP_REG(BPF_JGT, BPF_REG_5, BPF_REG_3, 10),
	NB_LDX_MEM(BPF_B, BPF_REG_0, BPF_REG_2, 23),		/* ip protocol */
	NB_ST_MEM(BPF_B, BPF_REG_2, 22, 1),			/* ttl = 1: a direct write */
	NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 16),
	NB_MOV64_REG(BPF_REG_5, BPF_REG_3),
	NB_ALU64_REG(BPF_SUB, BPF_REG_5, BPF_REG_2),
	NB_ALU64_IMM(BPF_LSH, BPF_REG_5, 8),
	NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_5),
	NB_MOV64_REG(BPF_REG_5, BPF_REG_2),
	NB_ALU64_REG(BPF_SUB, BPF_REG_5, BPF_REG_4),
	NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_5),
	NB_EXIT(),
};

static const struct bpf_insn xdp_pointers[] = {
	NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, XDP(data)),
	NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, XDP(data_end)),
	NB_LDX_MEM(BPF_W, BPF_REG_4, BPF_REG_1, XDP(data_meta)),
	NB_MOV64_IMM(BPF_REG_0, 0),
	NB_MOV64_REG(BPF_REG_5, BPF_REG_4),
	NB_ALU64_IMM(BPF_ADD, BPF_REG_5, 4),
	NB_JMP_REG(BPF_JGT, BPF_REG_5, BPF_REG_2, 11),		/* 4 bytes of metadata? */
	NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_4, 0),
	NB_ST_MEM(BPF_B, BPF_REG_4, 0, 0x77),			/* write the metadata */
	NB_ALU64_IMM(BPF_AND, BPF_REG_0, 0xff),
	NB_MOV64_REG(BPF_REG_5, BPF_REG_3),
	NB_ALU64_REG(BPF_SUB, BPF_REG_5, BPF_REG_2),
	NB_ALU64_IMM(BPF_LSH, BPF_REG_5, 8),
	NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_5),
	NB_MOV64_REG(BPF_REG_5, BPF_REG_2),
	NB_ALU64_REG(BPF_SUB, BPF_REG_5, BPF_REG_4),
	NB_ALU64_IMM(BPF_LSH, BPF_REG_5, 24),
	NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_5),
	NB_EXIT(),
};

/* LD_ABS and LD_IND, positive and negative offsets, and a load past the end (r0 = 0). */
#define LD(name, insn)                                                                      \
	static const struct bpf_insn name[] = {                                             \
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),                                         \
		NB_MOV64_IMM(BPF_REG_7, 20),                                                \
		NB_MOV64_IMM(BPF_REG_0, 42),                                                \
		insn,                                                                       \
		NB_EXIT(),                                                                  \
	}
LD(ld_abs_w, NB_LD_ABS(BPF_W, IP_OFF + 12));
LD(ld_abs_h, NB_LD_ABS(BPF_H, 12));
LD(ld_abs_b, NB_LD_ABS(BPF_B, IP_OFF));
LD(ld_ind_w, NB_LD_IND(BPF_W, BPF_REG_7, IP_OFF + 12 - 20));
LD(ld_net_off, NB_LD_ABS(BPF_B, SKF_NET_OFF + 9));
LD(ld_ll_off, NB_LD_ABS(BPF_H, SKF_LL_OFF + 36));
LD(ld_past_end, NB_LD_ABS(BPF_W, FRAME_LEN - 2));
LD(ld_ind_past_end, NB_LD_IND(BPF_B, BPF_REG_7, FRAME_LEN - 20));

/* csum_diff(from, from_size, to, to_size, seed) over words on the stack. */
#define CSUM_DIFF(name, from_size, to_size, seed)                                           \
	static const struct bpf_insn name[] = {                                             \
		NB_ST_MEM(BPF_W, BPF_REG_10, -8, 0x01020304),                               \
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0x0a0b0c0d),                               \
		NB_ST_MEM(BPF_W, BPF_REG_10, -16, 0x11223344),                              \
		NB_ST_MEM(BPF_W, BPF_REG_10, -12, (s32)0xf5667788),                         \
		NB_MOV64_REG(BPF_REG_1, BPF_REG_10),                                        \
		NB_ALU64_IMM(BPF_ADD, BPF_REG_1, -8),                                       \
		NB_MOV64_IMM(BPF_REG_2, from_size),                                         \
		NB_MOV64_REG(BPF_REG_3, BPF_REG_10),                                        \
		NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -16),                                      \
		NB_MOV64_IMM(BPF_REG_4, to_size),                                           \
		NB_MOV64_IMM(BPF_REG_5, seed),                                              \
		NB_CALL_HELPER(BPF_FUNC_csum_diff),                                         \
		NB_EXIT(),                                                                  \
	}
CSUM_DIFF(csum_diff_both, 8, 8, 0);
CSUM_DIFF(csum_diff_seed, 8, 8, 0x12345);
CSUM_DIFF(csum_diff_push, 0, 8, 0x7fff);
CSUM_DIFF(csum_diff_pull, 8, 0, 0x7fff);
CSUM_DIFF(csum_diff_uneven, 4, 8, 0);
CSUM_DIFF(csum_diff_none, 0, 0, 0x4242);
CSUM_DIFF(csum_diff_none_wide_seed, 0, 0, 0x12345678);
CSUM_DIFF(csum_diff_odd_size, 6, 8, 0);
CSUM_DIFF(csum_diff_odd_push, 0, 7, 0x10);

/* The TCP/UDP rewriter pattern: a new source address, both checksums fixed, then stored. */
static const struct bpf_insn rewrite_saddr[] = {
	NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
	NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0x4d01a8c0),		/* 192.168.1.77 */
	NB_MOV64_IMM(BPF_REG_2, UDP_OFF + 6),
	NB_MOV64_IMM(BPF_REG_3, 0x0100000a),			/* 10.0.0.1 */
	NB_MOV64_IMM(BPF_REG_4, 0x4d01a8c0),
	NB_MOV64_IMM(BPF_REG_5, BPF_F_PSEUDO_HDR | 4),
	NB_CALL_HELPER(BPF_FUNC_l4_csum_replace),
	NB_MOV64_REG(BPF_REG_7, BPF_REG_0),
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
	NB_MOV64_IMM(BPF_REG_2, IP_OFF + 10),
	NB_MOV64_IMM(BPF_REG_3, 0x0100000a),
	NB_MOV64_IMM(BPF_REG_4, 0x4d01a8c0),
	NB_MOV64_IMM(BPF_REG_5, 4),
	NB_CALL_HELPER(BPF_FUNC_l3_csum_replace),
	NB_ALU64_IMM(BPF_LSH, BPF_REG_7, 8),
	NB_ALU64_REG(BPF_OR, BPF_REG_7, BPF_REG_0),
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
	NB_MOV64_IMM(BPF_REG_2, IP_OFF + 12),
	NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
	NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -4),
	NB_MOV64_IMM(BPF_REG_4, 4),
	NB_MOV64_IMM(BPF_REG_5, BPF_F_RECOMPUTE_CSUM),
	NB_CALL_HELPER(BPF_FUNC_skb_store_bytes),
	NB_ALU64_IMM(BPF_LSH, BPF_REG_7, 8),
	NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_7),
	NB_EXIT(),
};

/* A 2-byte port change, a checksum difference, the error cases. */
static const struct bpf_insn csum_variants[] = {
	NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
	NB_MOV64_IMM(BPF_REG_2, UDP_OFF + 6),
	NB_MOV64_IMM(BPF_REG_3, 0x3500),			/* port 53 as stored */
	NB_MOV64_IMM(BPF_REG_4, 0x5000),			/* port 80 */
	NB_MOV64_IMM(BPF_REG_5, 2),
	NB_CALL_HELPER(BPF_FUNC_l4_csum_replace),
	NB_MOV64_REG(BPF_REG_7, BPF_REG_0),
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
	NB_MOV64_IMM(BPF_REG_2, IP_OFF + 10),
	NB_MOV64_IMM(BPF_REG_3, 0),
	NB_MOV64_IMM(BPF_REG_4, 0x1234abcd),			/* a difference */
	NB_MOV64_IMM(BPF_REG_5, 0),
	NB_CALL_HELPER(BPF_FUNC_l3_csum_replace),
	NB_ALU64_REG(BPF_ADD, BPF_REG_7, BPF_REG_0),
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
	NB_MOV64_IMM(BPF_REG_2, IP_OFF + 11),			/* odd offset: -EFAULT */
	NB_MOV64_IMM(BPF_REG_3, 0),
	NB_MOV64_IMM(BPF_REG_4, 0),
	NB_MOV64_IMM(BPF_REG_5, 2),
	NB_CALL_HELPER(BPF_FUNC_l3_csum_replace),
	NB_ALU64_IMM(BPF_MUL, BPF_REG_0, 3),
	NB_ALU64_REG(BPF_ADD, BPF_REG_7, BPF_REG_0),
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
	NB_MOV64_IMM(BPF_REG_2, UDP_OFF + 6),
	NB_MOV64_IMM(BPF_REG_3, 0),
	NB_MOV64_IMM(BPF_REG_4, 0),
	NB_MOV64_IMM(BPF_REG_5, 3),				/* bad size: -EINVAL */
	NB_CALL_HELPER(BPF_FUNC_l4_csum_replace),
	NB_ALU64_IMM(BPF_MUL, BPF_REG_0, 5),
	NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_7),
	NB_EXIT(),
};

/* skb_load_bytes in and past the packet; load_bytes_relative from both headers. */
static const struct bpf_insn load_bytes[] = {
	NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
	NB_MOV64_IMM(BPF_REG_2, IP_OFF + 12),
	NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
	NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
	NB_MOV64_IMM(BPF_REG_4, 8),
	NB_CALL_HELPER(BPF_FUNC_skb_load_bytes),
	NB_LDX_MEM(BPF_W, BPF_REG_7, BPF_REG_10, -4),		/* daddr */
	NB_ALU64_REG(BPF_ADD, BPF_REG_7, BPF_REG_0),
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
	NB_MOV64_IMM(BPF_REG_2, FRAME_LEN - 4),
	NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
	NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
	NB_MOV64_IMM(BPF_REG_4, 8),
	NB_CALL_HELPER(BPF_FUNC_skb_load_bytes),		/* -EFAULT, zeroed */
	NB_LDX_MEM(BPF_W, BPF_REG_8, BPF_REG_10, -8),
	NB_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_0),
	NB_ALU64_REG(BPF_XOR, BPF_REG_7, BPF_REG_8),
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
	NB_MOV64_IMM(BPF_REG_2, 9),
	NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
	NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
	NB_MOV64_IMM(BPF_REG_4, 1),
	NB_MOV64_IMM(BPF_REG_5, BPF_HDR_START_NET),
	NB_CALL_HELPER(BPF_FUNC_skb_load_bytes_relative),
	NB_LDX_MEM(BPF_B, BPF_REG_8, BPF_REG_10, -8),
	NB_ALU64_IMM(BPF_LSH, BPF_REG_8, 4),
	NB_ALU64_REG(BPF_XOR, BPF_REG_7, BPF_REG_8),
	NB_ALU64_REG(BPF_ADD, BPF_REG_7, BPF_REG_0),
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
	NB_MOV64_IMM(BPF_REG_2, 12),
	NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
	NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
	NB_MOV64_IMM(BPF_REG_4, 2),
	NB_MOV64_IMM(BPF_REG_5, BPF_HDR_START_MAC),
	NB_CALL_HELPER(BPF_FUNC_skb_load_bytes_relative),
	NB_LDX_MEM(BPF_H, BPF_REG_8, BPF_REG_10, -8),
	NB_ALU64_IMM(BPF_LSH, BPF_REG_8, 12),
	NB_ALU64_REG(BPF_XOR, BPF_REG_7, BPF_REG_8),
	NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_7),
	NB_EXIT(),
};

#define CASE(n, t, i, ctx) { n, t, i, ARRAY_SIZE(i), ctx }

static const struct kcase fixed_cases[] = {
	CASE("write_mark", BPF_PROG_TYPE_SCHED_CLS, w_mark, true),
	CASE("write_priority", BPF_PROG_TYPE_SCHED_CLS, w_priority, true),
	CASE("write_tc_index", BPF_PROG_TYPE_SCHED_CLS, w_tc_index, true),
	CASE("write_tc_classid", BPF_PROG_TYPE_SCHED_CLS, w_tc_classid, true),
	CASE("write_queue_mapping", BPF_PROG_TYPE_SCHED_CLS, w_queue_mapping, true),
	CASE("write_queue_mapping_none", BPF_PROG_TYPE_SCHED_CLS, w_queue_mapping_none, true),
	CASE("write_cb1", BPF_PROG_TYPE_SCHED_CLS, w_cb1, true),
	CASE("write_cb_narrow", BPF_PROG_TYPE_SCHED_CLS, w_cb_u8, true),
	CASE("write_tstamp", BPF_PROG_TYPE_SCHED_CLS, w_tstamp, true),
	CASE("sf_write_cb1", BPF_PROG_TYPE_SOCKET_FILTER, w_cb1, true),
	CASE("act_write_mark", BPF_PROG_TYPE_SCHED_ACT, w_mark, true),
	CASE("ldsx_mark", BPF_PROG_TYPE_SCHED_CLS, ldsx_mark, true),
	CASE("pkt_pointers", BPF_PROG_TYPE_SCHED_CLS, pkt_pointers, false),
	CASE("pkt_pointers_ctx", BPF_PROG_TYPE_SCHED_CLS, pkt_pointers, true),
	CASE("ld_abs_w", BPF_PROG_TYPE_SCHED_CLS, ld_abs_w, false),
	CASE("ld_abs_h", BPF_PROG_TYPE_SCHED_CLS, ld_abs_h, false),
	CASE("ld_abs_b", BPF_PROG_TYPE_SCHED_CLS, ld_abs_b, false),
	CASE("ld_ind_w", BPF_PROG_TYPE_SCHED_CLS, ld_ind_w, false),
	CASE("ld_net_off", BPF_PROG_TYPE_SCHED_CLS, ld_net_off, false),
	CASE("ld_ll_off", BPF_PROG_TYPE_SCHED_CLS, ld_ll_off, false),
	CASE("ld_past_end", BPF_PROG_TYPE_SCHED_CLS, ld_past_end, false),
	CASE("ld_ind_past_end", BPF_PROG_TYPE_SCHED_CLS, ld_ind_past_end, false),
	CASE("sf_ld_abs_w", BPF_PROG_TYPE_SOCKET_FILTER, ld_abs_w, false),
	CASE("sf_ld_abs_b", BPF_PROG_TYPE_SOCKET_FILTER, ld_abs_b, false),
	CASE("sf_ld_net_off", BPF_PROG_TYPE_SOCKET_FILTER, ld_net_off, false),
	CASE("sf_ld_ll_off", BPF_PROG_TYPE_SOCKET_FILTER, ld_ll_off, false),
	CASE("sf_ld_past_end", BPF_PROG_TYPE_SOCKET_FILTER, ld_past_end, false),
	CASE("csum_diff_both", BPF_PROG_TYPE_SCHED_CLS, csum_diff_both, false),
	CASE("csum_diff_seed", BPF_PROG_TYPE_SCHED_CLS, csum_diff_seed, false),
	CASE("csum_diff_push", BPF_PROG_TYPE_SCHED_CLS, csum_diff_push, false),
	CASE("csum_diff_pull", BPF_PROG_TYPE_SCHED_CLS, csum_diff_pull, false),
	CASE("csum_diff_uneven", BPF_PROG_TYPE_SCHED_CLS, csum_diff_uneven, false),
	CASE("csum_diff_none", BPF_PROG_TYPE_SCHED_CLS, csum_diff_none, false),
	CASE("csum_diff_none_wide_seed", BPF_PROG_TYPE_SCHED_CLS, csum_diff_none_wide_seed, false),
	CASE("csum_diff_odd_size", BPF_PROG_TYPE_SCHED_CLS, csum_diff_odd_size, false),
	CASE("csum_diff_odd_push", BPF_PROG_TYPE_SCHED_CLS, csum_diff_odd_push, false),
	CASE("xdp_csum_diff", BPF_PROG_TYPE_XDP, csum_diff_seed, false),
	CASE("rewrite_saddr", BPF_PROG_TYPE_SCHED_CLS, rewrite_saddr, false),
	CASE("csum_variants", BPF_PROG_TYPE_SCHED_CLS, csum_variants, false),
	CASE("load_bytes", BPF_PROG_TYPE_SCHED_CLS, load_bytes, false),
	CASE("sf_load_bytes", BPF_PROG_TYPE_SOCKET_FILTER, load_bytes, false),
	CASE("xdp_pointers", BPF_PROG_TYPE_XDP, xdp_pointers, false),
	{ "xdp_pointers_meta", BPF_PROG_TYPE_XDP, xdp_pointers, ARRAY_SIZE(xdp_pointers), true,
	  8 },
};

static void __attribute__((constructor)) register_ctx_kernel_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(read_fields); i++) {
		const struct read_field *f = &read_fields[i];

		read_insns[i][0] = NB_LDX_MEM(f->size, BPF_REG_0, BPF_REG_1, f->off);
		read_insns[i][1] = NB_EXIT();
		snprintf(read_names[i], sizeof(read_names[i]), "read_%s", f->name);
		read_cases[i] = (struct kcase){ read_names[i], f->type, read_insns[i], 2, true };
	}
	kcase_register("ctx-kernel", read_cases, ARRAY_SIZE(read_cases));
	kcase_register("ctx-kernel", fixed_cases, ARRAY_SIZE(fixed_cases));
}
