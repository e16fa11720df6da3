// SPDX-License-Identifier: GPL-2.0
/*
 * The __sk_buff context of tc and socket filter programs: each readable field, narrow reads,
 * writes, the accesses the kernel refuses, packet pointers and LD_ABS/LD_IND, on a real nb_pkt.
 */
#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/pkt_cls.h>

#include "bpf_asm.h"
#include "ctx_rewrite.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "test.h"

/* Case tables leave their trailing flags out when they are false. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define SKB(f) offsetof(struct __sk_buff, f)

/* The fixture's values: every field distinct so that a wrong mapping shows. */
#define F_MARK	   0x11223344u
#define F_PRIO	   0x55667788u
#define F_TC_INDEX 0xabcd
#define F_QUEUE	   3
#define F_VLAN_TCI 0x0123
#define F_IIF	   5
#define F_IFINDEX  7
#define F_HASH	   0xdeadbeefu
#define F_CLASSID  0xbeef
#define F_TSTAMP   0x0102030405060708ull
#define F_WIRE_LEN 1234
#define F_GSO_SEGS 9
#define F_GSO_SIZE 1400
#define F_HWTSTAMP 77
#define FRAME_LEN  60

static struct nb_dev fixture_dev = { .ifindex = F_IFINDEX, .name = "fix0" };

/* Ethernet + IPv4 (10.0.0.1 -> 10.0.0.2, UDP) + UDP 1000 -> 2000, padded to 60 bytes. */
static void build_frame(u8 *f)
{
	static const u8 hdr[] = {
		0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00,	/* eth */
		0x45, 0, 0, 46, 0, 1, 0, 0, 64, 17, 0, 0,		/* ip */
		10, 0, 0, 1, 10, 0, 0, 2,
		0x03, 0xe8, 0x07, 0xd0, 0, 26, 0, 0,			/* udp */
	};

	memset(f, 0, FRAME_LEN);
	memcpy(f, hdr, sizeof(hdr));
	for (int i = sizeof(hdr); i < FRAME_LEN; i++)
		f[i] = (u8)i;
}

static struct nb_pkt *fixture_pkt(void)
{
	u8 frame[FRAME_LEN];
	struct nb_pkt *pkt;

	build_frame(frame);
	pkt = nb_pkt_alloc_data(frame, sizeof(frame));
	NB_ASSERT(pkt);
	nb_eth_type_trans(pkt, NULL);
	pkt->pkt_type = PACKET_OTHERHOST;
	pkt->mark = F_MARK;
	pkt->priority = F_PRIO;
	pkt->tc_index = F_TC_INDEX;
	pkt->queue_mapping = F_QUEUE;
	pkt->vlan_present = 1;
	pkt->vlan_tci = F_VLAN_TCI;
	pkt->vlan_proto = htons(ETH_P_8021Q);
	pkt->skb_iif = F_IIF;
	pkt->dev = &fixture_dev;
	pkt->hash = F_HASH;
	pkt->qdisc_cb.tc_classid = F_CLASSID;
	for (int i = 0; i < 20; i++)
		pkt->qdisc_cb.data[i] = (u8)(i + 1);
	pkt->qdisc_cb.pkt_len = F_WIRE_LEN;
	pkt->tstamp = F_TSTAMP;
	pkt->tstamp_type = BPF_SKB_TSTAMP_DELIVERY_MONO;
	pkt->gso_segs = F_GSO_SEGS;
	pkt->gso_size = F_GSO_SIZE;
	pkt->hwtstamp = F_HWTSTAMP;
	nb_pkt_compute_data_pointers(pkt);
	return pkt;
}

static u64 run_on(enum bpf_prog_type type, const struct bpf_insn *insns, unsigned int cnt,
		  struct nb_pkt *pkt)
{
	struct nb_prog *prog = ctx_test_load(type, 0, insns, cnt);
	u64 r0 = nb_prog_run(prog, pkt);

	nb_prog_put(prog);
	return r0;
}

struct read_case {
	const char *name;
	enum bpf_prog_type type;
	int off;
	int size;
	u64 expect;
	bool same_reg;		/* load into r1 itself: the rewrite may not need a second register */
	bool no_dev;		/* the packet has no device */
};

/*
 * Narrow reads follow the kernel: at least as wide as the field behind them, they read that
 * whole field wherever they point (protocol_u16_hi, pkt_type_u8_past, tc_classid_u16_hi).
 */
static const struct read_case read_cases[] = {
	{ "len", BPF_PROG_TYPE_SCHED_CLS, SKB(len), 4, FRAME_LEN },
	{ "len_u16", BPF_PROG_TYPE_SCHED_CLS, SKB(len), 2, FRAME_LEN },
	{ "len_u8_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(len) + 1, 1, 0 },
	{ "pkt_type", BPF_PROG_TYPE_SCHED_CLS, SKB(pkt_type), 4, PACKET_OTHERHOST },
	{ "pkt_type_u8", BPF_PROG_TYPE_SCHED_CLS, SKB(pkt_type), 1, PACKET_OTHERHOST },
	{ "pkt_type_u8_past", BPF_PROG_TYPE_SCHED_CLS, SKB(pkt_type) + 1, 1, PACKET_OTHERHOST },
	{ "mark", BPF_PROG_TYPE_SCHED_CLS, SKB(mark), 4, F_MARK },
	{ "mark_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(mark) + 2, 2, F_MARK >> 16 },
	{ "mark_u8_3", BPF_PROG_TYPE_SCHED_CLS, SKB(mark) + 3, 1, F_MARK >> 24 },
	{ "mark_same_reg", BPF_PROG_TYPE_SCHED_CLS, SKB(mark), 4, F_MARK, true },
	{ "queue_mapping", BPF_PROG_TYPE_SCHED_CLS, SKB(queue_mapping), 4, F_QUEUE },
	{ "protocol", BPF_PROG_TYPE_SCHED_CLS, SKB(protocol), 4, 0x0008 /* htons(0x0800) */ },
	{ "protocol_u8_0", BPF_PROG_TYPE_SCHED_CLS, SKB(protocol), 1, 0x08 },
	{ "protocol_u8_1", BPF_PROG_TYPE_SCHED_CLS, SKB(protocol) + 1, 1, 0x00 },
	{ "protocol_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(protocol) + 2, 2, 0x0008 },
	{ "vlan_present", BPF_PROG_TYPE_SCHED_CLS, SKB(vlan_present), 4, 1 },
	{ "vlan_tci", BPF_PROG_TYPE_SCHED_CLS, SKB(vlan_tci), 4, F_VLAN_TCI },
	{ "vlan_proto", BPF_PROG_TYPE_SCHED_CLS, SKB(vlan_proto), 4, 0x0081 /* htons(0x8100) */ },
	{ "priority", BPF_PROG_TYPE_SCHED_CLS, SKB(priority), 4, F_PRIO },
	{ "ingress_ifindex", BPF_PROG_TYPE_SCHED_CLS, SKB(ingress_ifindex), 4, F_IIF },
	{ "ifindex", BPF_PROG_TYPE_SCHED_CLS, SKB(ifindex), 4, F_IFINDEX },
	{ "ifindex_same_reg", BPF_PROG_TYPE_SCHED_CLS, SKB(ifindex), 4, F_IFINDEX, true },
	{ "ifindex_u8", BPF_PROG_TYPE_SCHED_CLS, SKB(ifindex), 1, F_IFINDEX },
	{ "ifindex_no_dev", BPF_PROG_TYPE_SCHED_CLS, SKB(ifindex), 4, 0, false, true },
	{ "tc_index", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_index), 4, F_TC_INDEX },
	{ "cb0", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[0]), 4, 0x04030201 },
	{ "cb1_u8_1", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[1]) + 1, 1, 6 },
	{ "cb0_u64", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[0]), 8, 0x0807060504030201ull },
	{ "cb4_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[4]) + 2, 2, 0x1413 },
	{ "hash", BPF_PROG_TYPE_SCHED_CLS, SKB(hash), 4, F_HASH },
	{ "hash_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(hash) + 2, 2, F_HASH >> 16 },
	{ "tc_classid", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_classid), 4, F_CLASSID },
	{ "tc_classid_u8_1", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_classid) + 1, 1, F_CLASSID >> 8 },
	{ "tc_classid_u16_hi", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_classid) + 2, 2, F_CLASSID },
	{ "napi_id", BPF_PROG_TYPE_SCHED_CLS, SKB(napi_id), 4, 0 },
	{ "tstamp", BPF_PROG_TYPE_SCHED_CLS, SKB(tstamp), 8, F_TSTAMP },
	{ "wire_len", BPF_PROG_TYPE_SCHED_CLS, SKB(wire_len), 4, F_WIRE_LEN },
	{ "gso_segs", BPF_PROG_TYPE_SCHED_CLS, SKB(gso_segs), 4, F_GSO_SEGS },
	{ "gso_size", BPF_PROG_TYPE_SCHED_CLS, SKB(gso_size), 4, F_GSO_SIZE },
	{ "tstamp_type", BPF_PROG_TYPE_SCHED_CLS, SKB(tstamp_type), 1,
	  BPF_SKB_TSTAMP_DELIVERY_MONO },
	{ "hwtstamp", BPF_PROG_TYPE_SCHED_CLS, SKB(hwtstamp), 8, F_HWTSTAMP },
	{ "act_mark", BPF_PROG_TYPE_SCHED_ACT, SKB(mark), 4, F_MARK },
	{ "sf_len", BPF_PROG_TYPE_SOCKET_FILTER, SKB(len), 4, FRAME_LEN },
	{ "sf_mark", BPF_PROG_TYPE_SOCKET_FILTER, SKB(mark), 4, F_MARK },
	{ "sf_protocol", BPF_PROG_TYPE_SOCKET_FILTER, SKB(protocol), 2, 0x0008 },
	{ "sf_cb2", BPF_PROG_TYPE_SOCKET_FILTER, SKB(cb[2]), 4, 0x0c0b0a09 },
	{ "sf_ifindex", BPF_PROG_TYPE_SOCKET_FILTER, SKB(ifindex), 4, F_IFINDEX },
};

static void run_read_case(const void *arg)
{
	const struct read_case *c = arg;
	struct nb_pkt *pkt = fixture_pkt();
	const struct bpf_insn same[] = {
		NB_LDX_MEM(c->size == 8 ? BPF_DW : c->size == 4 ? BPF_W :
			   c->size == 2 ? BPF_H : BPF_B, BPF_REG_1, BPF_REG_1, c->off),
		NB_MOV64_REG(BPF_REG_0, BPF_REG_1),
		NB_EXIT(),
	};
	const struct bpf_insn other[] = {
		NB_MOV64_IMM(BPF_REG_0, -1),	/* narrow loads must clear the upper bits */
		NB_LDX_MEM(c->size == 8 ? BPF_DW : c->size == 4 ? BPF_W :
			   c->size == 2 ? BPF_H : BPF_B, BPF_REG_0, BPF_REG_1, c->off),
		NB_EXIT(),
	};

	if (c->no_dev)
		pkt->dev = NULL;
	if (c->same_reg)
		NB_ASSERT_EQ(run_on(c->type, same, ARRAY_SIZE(same), pkt), c->expect);
	else
		NB_ASSERT_EQ(run_on(c->type, other, ARRAY_SIZE(other), pkt), c->expect);
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

struct write_case {
	const char *name;
	enum bpf_prog_type type;
	int off;
	int size;
	s32 value;
	bool imm;		/* BPF_ST with an immediate instead of BPF_STX */
	size_t pkt_off;		/* where the value lands in struct nb_pkt */
	u32 pkt_size;
	u64 expect;
};

#define PKT(m) offsetof(struct nb_pkt, m), sizeof(((struct nb_pkt *)0)->m)

static const struct write_case write_cases[] = {
	{ "mark", BPF_PROG_TYPE_SCHED_CLS, SKB(mark), 4, 0x0badf00d, false, PKT(mark),
	  0x0badf00d },
	{ "mark_imm", BPF_PROG_TYPE_SCHED_CLS, SKB(mark), 4, 0x1234, true, PKT(mark), 0x1234 },
	{ "priority", BPF_PROG_TYPE_SCHED_CLS, SKB(priority), 4, 0x10, false, PKT(priority),
	  0x10 },
	{ "tc_index_16bit", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_index), 4, 0x12345, false,
	  PKT(tc_index), 0x2345 },
	{ "tc_classid_16bit", BPF_PROG_TYPE_SCHED_CLS, SKB(tc_classid), 4, 0x10003, false,
	  PKT(qdisc_cb.tc_classid), 0x0003 },
	{ "queue_mapping", BPF_PROG_TYPE_SCHED_CLS, SKB(queue_mapping), 4, 9, false,
	  PKT(queue_mapping), 9 },
	{ "queue_mapping_none", BPF_PROG_TYPE_SCHED_CLS, SKB(queue_mapping), 4, 0xffff, false,
	  PKT(queue_mapping), F_QUEUE },
	{ "queue_mapping_none_imm", BPF_PROG_TYPE_SCHED_CLS, SKB(queue_mapping), 4, 0xffff,
	  true, PKT(queue_mapping), F_QUEUE },
	{ "cb2", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[2]), 4, 0x0a0b0c0d, false,
	  offsetof(struct nb_pkt, qdisc_cb.data) + 8, 4, 0x0a0b0c0d },
	{ "cb0_u8_1", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[0]) + 1, 1, 0x5a, false,
	  offsetof(struct nb_pkt, qdisc_cb.data), 4, 0x04035a01 },
	{ "cb2_u64", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[2]), 8, -2, false,
	  offsetof(struct nb_pkt, qdisc_cb.data) + 8, 8, (u64)-2 },
	{ "tstamp", BPF_PROG_TYPE_SCHED_CLS, SKB(tstamp), 8, 123456789, false, PKT(tstamp),
	  123456789 },
	{ "act_mark", BPF_PROG_TYPE_SCHED_ACT, SKB(mark), 4, 42, false, PKT(mark), 42 },
	{ "sf_cb4", BPF_PROG_TYPE_SOCKET_FILTER, SKB(cb[4]), 4, 0x01020304, false,
	  offsetof(struct nb_pkt, qdisc_cb.data) + 16, 4, 0x01020304 },
};

static void run_write_case(const void *arg)
{
	const struct write_case *c = arg;
	struct nb_pkt *pkt = fixture_pkt();
	u8 sz = c->size == 8 ? BPF_DW : c->size == 4 ? BPF_W : c->size == 2 ? BPF_H : BPF_B;
	const struct bpf_insn stx[] = {
		NB_MOV64_IMM(BPF_REG_2, c->value),
		NB_STX_MEM(sz, BPF_REG_1, BPF_REG_2, c->off),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_EXIT(),
	};
	const struct bpf_insn st[] = {
		NB_ST_MEM(sz, BPF_REG_1, c->off, c->value),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_EXIT(),
	};
	u64 got = 0;

	if (c->imm)
		run_on(c->type, st, ARRAY_SIZE(st), pkt);
	else
		run_on(c->type, stx, ARRAY_SIZE(stx), pkt);
	memcpy(&got, (u8 *)pkt + c->pkt_off, c->pkt_size);
	NB_ASSERT_EQ(got, c->expect);
	nb_pkt_free(pkt);
}

struct access_case {
	const char *name;
	enum bpf_prog_type type;
	int off;
	int size;
	enum nb_access_type access;
	bool ok;
	enum nb_ctx_reg_type reg_type;
};

static const struct access_case access_cases[] = {
	{ "tc_write_len", BPF_PROG_TYPE_SCHED_CLS, SKB(len), 4, NB_WRITE, false },
	{ "tc_write_protocol", BPF_PROG_TYPE_SCHED_CLS, SKB(protocol), 4, NB_WRITE, false },
	{ "tc_write_hash", BPF_PROG_TYPE_SCHED_CLS, SKB(hash), 4, NB_WRITE, false },
	{ "tc_write_ifindex", BPF_PROG_TYPE_SCHED_CLS, SKB(ifindex), 4, NB_WRITE, false },
	{ "tc_write_data", BPF_PROG_TYPE_SCHED_CLS, SKB(data), 4, NB_WRITE, false },
	{ "tc_write_mark_u16", BPF_PROG_TYPE_SCHED_CLS, SKB(mark), 2, NB_WRITE, false },
	{ "tc_write_tstamp_u32", BPF_PROG_TYPE_SCHED_CLS, SKB(tstamp), 4, NB_WRITE, false },
	{ "tc_write_tstamp_type", BPF_PROG_TYPE_SCHED_CLS, SKB(tstamp_type), 1, NB_WRITE, false },
	{ "tc_write_hwtstamp", BPF_PROG_TYPE_SCHED_CLS, SKB(hwtstamp), 8, NB_WRITE, false },
	{ "tc_write_wire_len", BPF_PROG_TYPE_SCHED_CLS, SKB(wire_len), 4, NB_WRITE, false },
	{ "tc_read_family", BPF_PROG_TYPE_SCHED_CLS, SKB(family), 4, NB_READ, false },
	{ "tc_read_remote_ip4", BPF_PROG_TYPE_SCHED_CLS, SKB(remote_ip4), 4, NB_READ, false },
	{ "tc_read_local_port", BPF_PROG_TYPE_SCHED_CLS, SKB(local_port), 4, NB_READ, false },
	{ "tc_read_sk", BPF_PROG_TYPE_SCHED_CLS, SKB(sk), 8, NB_READ, true,
	  NB_CTX_SOCK_COMMON_OR_NULL },
	{ "tc_read_sk_u32", BPF_PROG_TYPE_SCHED_CLS, SKB(sk), 4, NB_READ, false },
	{ "tc_write_sk", BPF_PROG_TYPE_SCHED_CLS, SKB(sk), 8, NB_WRITE, false },
	{ "sf_read_sk", BPF_PROG_TYPE_SOCKET_FILTER, SKB(sk), 8, NB_READ, true,
	  NB_CTX_SOCK_COMMON_OR_NULL },
	{ "tc_read_flow_keys", BPF_PROG_TYPE_SCHED_CLS, SKB(flow_keys), 8, NB_READ, false },
	{ "tc_read_data_u64", BPF_PROG_TYPE_SCHED_CLS, SKB(data), 8, NB_READ, false },
	{ "tc_read_data_u16", BPF_PROG_TYPE_SCHED_CLS, SKB(data), 2, NB_READ, false },
	{ "tc_read_mark_u64", BPF_PROG_TYPE_SCHED_CLS, SKB(mark), 8, NB_READ, false },
	{ "tc_read_mark_misaligned", BPF_PROG_TYPE_SCHED_CLS, SKB(mark) + 1, 2, NB_READ, false },
	{ "tc_read_cb4_u64", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[4]), 8, NB_READ, false },
	{ "tc_read_cb1_u64", BPF_PROG_TYPE_SCHED_CLS, SKB(cb[1]), 8, NB_READ, false },
	{ "tc_read_tstamp_u32", BPF_PROG_TYPE_SCHED_CLS, SKB(tstamp), 4, NB_READ, false },
	{ "tc_read_tstamp_type_u32", BPF_PROG_TYPE_SCHED_CLS, SKB(tstamp_type), 4, NB_READ,
	  false },
	{ "tc_read_padding", BPF_PROG_TYPE_SCHED_CLS, SKB(tstamp_type) + 1, 1, NB_READ, false },
	{ "tc_read_past_end", BPF_PROG_TYPE_SCHED_CLS, sizeof(struct __sk_buff), 4, NB_READ,
	  false },
	{ "tc_read_negative", BPF_PROG_TYPE_SCHED_CLS, -4, 4, NB_READ, false },
	{ "tc_read_data", BPF_PROG_TYPE_SCHED_CLS, SKB(data), 4, NB_READ, true, NB_CTX_PKT },
	{ "tc_read_data_meta", BPF_PROG_TYPE_SCHED_CLS, SKB(data_meta), 4, NB_READ, true,
	  NB_CTX_PKT_META },
	{ "tc_read_data_end", BPF_PROG_TYPE_SCHED_CLS, SKB(data_end), 4, NB_READ, true,
	  NB_CTX_PKT_END },
	{ "act_read_data", BPF_PROG_TYPE_SCHED_ACT, SKB(data), 4, NB_READ, true, NB_CTX_PKT },
	{ "tc_read_mark", BPF_PROG_TYPE_SCHED_CLS, SKB(mark), 4, NB_READ, true, NB_CTX_SCALAR },
	{ "sf_read_data", BPF_PROG_TYPE_SOCKET_FILTER, SKB(data), 4, NB_READ, false },
	{ "sf_read_data_end", BPF_PROG_TYPE_SOCKET_FILTER, SKB(data_end), 4, NB_READ, false },
	{ "sf_read_data_meta", BPF_PROG_TYPE_SOCKET_FILTER, SKB(data_meta), 4, NB_READ, false },
	{ "sf_read_tc_classid", BPF_PROG_TYPE_SOCKET_FILTER, SKB(tc_classid), 4, NB_READ, false },
	{ "sf_read_tstamp", BPF_PROG_TYPE_SOCKET_FILTER, SKB(tstamp), 8, NB_READ, false },
	{ "sf_read_wire_len", BPF_PROG_TYPE_SOCKET_FILTER, SKB(wire_len), 4, NB_READ, false },
	{ "sf_read_hwtstamp", BPF_PROG_TYPE_SOCKET_FILTER, SKB(hwtstamp), 8, NB_READ, false },
	{ "sf_write_mark", BPF_PROG_TYPE_SOCKET_FILTER, SKB(mark), 4, NB_WRITE, false },
	{ "sf_write_priority", BPF_PROG_TYPE_SOCKET_FILTER, SKB(priority), 4, NB_WRITE, false },
	{ "sf_write_cb0", BPF_PROG_TYPE_SOCKET_FILTER, SKB(cb[0]), 4, NB_WRITE, true },
	{ "sf_read_tstamp_type", BPF_PROG_TYPE_SOCKET_FILTER, SKB(tstamp_type), 1, NB_READ,
	  false },
};

static void run_access_case(const void *arg)
{
	const struct access_case *c = arg;
	struct nb_ctx_access_info info = { 0 };
	bool ok = ctx_test_access_ok(c->type, 0, c->off, c->size, c->access, &info);

	NB_ASSERT_EQ(ok, c->ok);
	if (ok)
		NB_ASSERT_EQ(info.reg_type, c->reg_type);
}

static void __attribute__((constructor)) register_cases(void)
{
	char name[96];

	for (size_t i = 0; i < ARRAY_SIZE(read_cases); i++) {
		snprintf(name, sizeof(name), "ctx_skb_read_%s", read_cases[i].name);
		nb_test_register(name, run_read_case, &read_cases[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(write_cases); i++) {
		snprintf(name, sizeof(name), "ctx_skb_write_%s", write_cases[i].name);
		nb_test_register(name, run_write_case, &write_cases[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(access_cases); i++) {
		snprintf(name, sizeof(name), "ctx_skb_access_%s", access_cases[i].name);
		nb_test_register(name, run_access_case, &access_cases[i]);
	}
}

/* data_end - data is the packet length, and a byte read through data is the frame's. */
NB_TEST(ctx_skb_packet_pointers)
{
	struct nb_pkt *pkt = fixture_pkt();
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, SKB(data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, SKB(data_end)),
		NB_LDX_MEM(BPF_W, BPF_REG_4, BPF_REG_1, SKB(data_meta)),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_MOV64_REG(BPF_REG_5, BPF_REG_2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_5, 15),
		NB_JMP_REG(BPF_JGT, BPF_REG_5, BPF_REG_3, 8),		/* bounds for the verifier */
		NB_MOV64_REG(BPF_REG_0, BPF_REG_3),
		NB_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_2),		/* len */
		NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 16),
		NB_LDX_MEM(BPF_B, BPF_REG_5, BPF_REG_2, 14),		/* 0x45 */
		NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_5),
		NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 8),
		NB_ALU64_REG(BPF_SUB, BPF_REG_2, BPF_REG_4),		/* meta_len */
		NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_2),
		NB_EXIT(),
	};

	pkt->meta_len = 8;
	nb_pkt_compute_data_pointers(pkt);
	NB_ASSERT_EQ(run_on(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns), pkt),
		     (u64)FRAME_LEN << 24 | 0x45 << 8 | 8);
	nb_pkt_free(pkt);
}

/* A direct packet write through data lands in the packet. */
NB_TEST(ctx_skb_direct_write)
{
	struct nb_pkt *pkt = fixture_pkt();
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, SKB(data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, SKB(data_end)),
		NB_MOV64_IMM(BPF_REG_0, TC_ACT_SHOT),
		NB_MOV64_REG(BPF_REG_4, BPF_REG_2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_4, 23),
		NB_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 2),		/* bounds for the verifier */
		NB_ST_MEM(BPF_B, BPF_REG_2, 22, 7),			/* ip ttl */
		NB_MOV64_IMM(BPF_REG_0, TC_ACT_OK),
		NB_EXIT(),
	};

	NB_ASSERT_EQ(run_on(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns), pkt), TC_ACT_OK);
	NB_ASSERT_EQ(pkt->data[22], 7);
	nb_pkt_free(pkt);
}

struct ld_case {
	const char *name;
	s32 off;
	u8 size;
	bool ind;	/* LD_IND with r7 = 10 and off - 10 as the immediate */
	u64 expect;
};

static const struct ld_case ld_cases[] = {
	{ "abs_b", 14, BPF_B, false, 0x45 },
	{ "abs_h", 12, BPF_H, false, ETH_P_IP },
	{ "abs_w", 26, BPF_W, false, 0x0a000001 },
	{ "ind_w", 30, BPF_W, true, 0x0a000002 },
	{ "abs_last_byte", FRAME_LEN - 1, BPF_B, false, FRAME_LEN - 1 },
	{ "net_off", SKF_NET_OFF + 9, BPF_B, false, IPPROTO_UDP },
	{ "ll_off", SKF_LL_OFF + 12, BPF_H, false, ETH_P_IP },
	{ "ll_off_udp_dport", SKF_LL_OFF + 36, BPF_H, false, 2000 },
	/* Failures end the program with r0 = 0 before it sets 42. */
	{ "abs_past_end", FRAME_LEN - 2, BPF_W, false, 0 },
	{ "ind_past_end", FRAME_LEN, BPF_B, true, 0 },
	{ "net_off_past_end", SKF_NET_OFF + FRAME_LEN - 14, BPF_B, false, 0 },
	{ "below_ll_off", SKF_LL_OFF - 4, BPF_B, false, 0 },
	/* The JIT's in-line reads: exactly at the end, one past, and offsets it leaves to ld_abs. */
	{ "abs_w_at_end", FRAME_LEN - 4, BPF_W, false, 0x38393a3b },
	{ "abs_h_one_past", FRAME_LEN - 1, BPF_H, false, 0 },
	{ "ind_h_at_end", FRAME_LEN - 2, BPF_H, true, 0x3a3b },
	{ "ind_net_off", SKF_NET_OFF + 9, BPF_B, true, IPPROTO_UDP },
	{ "ind_ll_off", SKF_LL_OFF + 12, BPF_H, true, ETH_P_IP },
	{ "abs_huge", INT32_MAX - 1, BPF_B, false, 0 },
};

static void run_ld_case(const void *arg)
{
	const struct ld_case *c = arg;
	struct nb_pkt *pkt = fixture_pkt();
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		NB_MOV64_IMM(BPF_REG_7, 10),
		NB_MOV64_IMM(BPF_REG_0, 99),
		c->ind ? NB_LD_IND(c->size, BPF_REG_7, c->off - 10) : NB_LD_ABS(c->size, c->off),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 1),
		NB_MOV64_IMM(BPF_REG_0, 42),
		NB_EXIT(),
	};

	struct nb_prog *jit;

	NB_ASSERT_EQ(run_on(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns), pkt), c->expect);
	/* The JIT reads in line what it can and must agree with the interpreter everywhere. */
	jit = ctx_test_load_engine(BPF_PROG_TYPE_SCHED_CLS, 0, insns, ARRAY_SIZE(insns), true);
	NB_ASSERT_EQ(nb_prog_run(jit, pkt), c->expect);
	nb_prog_put(jit);
	nb_pkt_free(pkt);
}

static void __attribute__((constructor)) register_ld_cases(void)
{
	char name[96];

	for (size_t i = 0; i < ARRAY_SIZE(ld_cases); i++) {
		snprintf(name, sizeof(name), "ctx_skb_ld_%s", ld_cases[i].name);
		nb_test_register(name, run_ld_case, &ld_cases[i]);
	}
}

NB_TEST(ctx_skb_type_properties)
{
	const struct nb_prog_type_ops *cls = nb_prog_type_ops(BPF_PROG_TYPE_SCHED_CLS);
	const struct nb_prog_type_ops *act = nb_prog_type_ops(BPF_PROG_TYPE_SCHED_ACT);
	const struct nb_prog_type_ops *sf = nb_prog_type_ops(BPF_PROG_TYPE_SOCKET_FILTER);

	NB_ASSERT(cls && act && sf);
	NB_ASSERT_EQ(cls->pkt_access, NB_PKT_ACCESS_WRITE);
	NB_ASSERT_EQ(act->pkt_access, NB_PKT_ACCESS_WRITE);
	NB_ASSERT_EQ(sf->pkt_access, NB_PKT_ACCESS_NONE);
	NB_ASSERT_EQ(cls->ctx_size, sizeof(struct __sk_buff));
	NB_ASSERT(cls->ld_abs && sf->ld_abs);
	/* tc programs reach the tc helpers; socket filters do not. */
	NB_ASSERT(cls->get_func_proto(BPF_FUNC_l3_csum_replace, NULL));
	NB_ASSERT(!sf->get_func_proto(BPF_FUNC_l3_csum_replace, NULL));
	NB_ASSERT(sf->get_func_proto(BPF_FUNC_skb_load_bytes, NULL));
	NB_ASSERT(cls->get_func_proto(BPF_FUNC_csum_diff, NULL));
	NB_ASSERT(!sf->get_func_proto(BPF_FUNC_csum_diff, NULL));
	NB_ASSERT(sf->get_func_proto(BPF_FUNC_map_lookup_elem, NULL));
}
