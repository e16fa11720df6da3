// SPDX-License-Identifier: GPL-2.0
/*
 * Packet helpers of tc programs: loads, stores (private data first), checksum fixes checked
 * against checksums recomputed from scratch with a plain RFC 1071 sum, hashes.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <linux/pkt_cls.h>

#include "bpf_asm.h"
#include "ctx_rewrite.h"
#include "net/eth.h"
#include "pkt/pkt.h"
#include "test.h"

#define IP_OFF	  14
#define UDP_OFF	  34
#define FRAME_LEN 74	/* eth + ip + udp + 32 bytes of payload */

/* RFC 1071 over big-endian 16-bit words plus an initial sum; 0 when the data checks out. */
static u16 ref_csum(const u8 *p, size_t len, u32 sum)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (u32)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (u32)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

static bool ip_csum_ok(const u8 *f)
{
	return ref_csum(f + IP_OFF, 20, 0) == 0;
}

static bool udp_csum_ok(const u8 *f)
{
	u32 sum = 0;

	for (int i = 0; i < 8; i += 2)		/* source and destination addresses */
		sum += (u32)f[IP_OFF + 12 + i] << 8 | f[IP_OFF + 13 + i];
	sum += IPPROTO_UDP + (FRAME_LEN - UDP_OFF);
	return ref_csum(f + UDP_OFF, FRAME_LEN - UDP_OFF, sum) == 0;
}

/* A frame whose checksums are computed here, independently of the datapath's code. */
static struct nb_pkt *udp_pkt(void)
{
	u8 f[FRAME_LEN] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00,
			    0x45, 0, 0, 60, 0x12, 0x34, 0x40, 0, 64, 17, 0, 0,
			    10, 0, 0, 1, 10, 0, 0, 2,
			    0x30, 0x39, 0x00, 0x35, 0, 40, 0, 0 };
	u16 c;
	u32 sum = 0;
	struct nb_pkt *pkt;

	for (int i = 42; i < FRAME_LEN; i++)
		f[i] = (u8)(i * 7);
	c = ref_csum(f + IP_OFF, 20, 0);
	f[IP_OFF + 10] = (u8)(c >> 8);
	f[IP_OFF + 11] = (u8)c;
	for (int i = 0; i < 8; i += 2)
		sum += (u32)f[IP_OFF + 12 + i] << 8 | f[IP_OFF + 13 + i];
	sum += IPPROTO_UDP + (FRAME_LEN - UDP_OFF);
	c = ref_csum(f + UDP_OFF, FRAME_LEN - UDP_OFF, sum);
	f[UDP_OFF + 6] = (u8)(c >> 8);
	f[UDP_OFF + 7] = (u8)c;
	pkt = nb_pkt_alloc_data(f, sizeof(f));
	NB_ASSERT(pkt);
	nb_eth_type_trans(pkt, NULL);
	nb_pkt_compute_data_pointers(pkt);
	NB_ASSERT(ip_csum_ok(pkt->data) && udp_csum_ok(pkt->data));
	return pkt;
}

static nb_helper_fn tc_helper(enum bpf_func_id id)
{
	const struct nb_func_proto *proto =
		nb_prog_type_ops(BPF_PROG_TYPE_SCHED_CLS)->get_func_proto(id, NULL);

	NB_ASSERT(proto && proto->func);
	return proto->func;
}

#define CALL(id, a, b, c, d, e)                                                             \
	((s64)tc_helper(id)((u64)(uintptr_t)(a), (u64)(b), (u64)(c), (u64)(d), (u64)(e)))
#define PTRARG(p) ((u64)(uintptr_t)(p))

/* The rewrite of the tc TCP/UDP rewriter example: a new source address, both checksums fixed. */
NB_TEST(filter_rewrite_saddr_fix_checksums)
{
	struct nb_pkt *pkt = udp_pkt();
	u32 old, new = htonl(0xc0a8014d);	/* 192.168.1.77 */

	memcpy(&old, pkt->data + IP_OFF + 12, 4);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l4_csum_replace, pkt, UDP_OFF + 6, old, new,
			  BPF_F_PSEUDO_HDR | sizeof(new)), 0);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l3_csum_replace, pkt, IP_OFF + 10, old, new, sizeof(new)), 0);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_store_bytes, pkt, IP_OFF + 12, PTRARG(&new), 4, 0), 0);
	NB_ASSERT(ip_csum_ok(pkt->data));
	NB_ASSERT(udp_csum_ok(pkt->data));
	nb_pkt_free(pkt);
}

/* 2-byte fields: a new destination port and a new TTL. */
NB_TEST(filter_csum_replace_2)
{
	struct nb_pkt *pkt = udp_pkt();
	u16 old, new = htons(8053), oldw, neww;

	memcpy(&old, pkt->data + UDP_OFF + 2, 2);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l4_csum_replace, pkt, UDP_OFF + 6, old, new, 2), 0);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_store_bytes, pkt, UDP_OFF + 2, PTRARG(&new), 2, 0), 0);
	NB_ASSERT(udp_csum_ok(pkt->data));
	memcpy(&oldw, pkt->data + IP_OFF + 8, 2);	/* ttl and protocol */
	pkt->data[IP_OFF + 8] = 3;
	memcpy(&neww, pkt->data + IP_OFF + 8, 2);
	NB_ASSERT(!ip_csum_ok(pkt->data));
	NB_ASSERT_EQ(CALL(BPF_FUNC_l3_csum_replace, pkt, IP_OFF + 10, oldw, neww, 2), 0);
	NB_ASSERT(ip_csum_ok(pkt->data));
	nb_pkt_free(pkt);
}

/* csum_diff of old and new bytes, applied as a difference (size 0 in the flags). */
NB_TEST(filter_csum_diff_applied)
{
	struct nb_pkt *pkt = udp_pkt();
	u8 oldb[8], newb[8] = { 172, 16, 0, 9, 172, 16, 0, 10 };	/* both addresses */
	s64 diff;

	memcpy(oldb, pkt->data + IP_OFF + 12, 8);
	diff = CALL(BPF_FUNC_csum_diff, oldb, 8, PTRARG(newb), 8, 0);
	NB_ASSERT(diff >= 0 && diff <= 0xffff);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_store_bytes, pkt, IP_OFF + 12, PTRARG(newb), 8, 0), 0);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l3_csum_replace, pkt, IP_OFF + 10, 0, diff, 0), 0);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l4_csum_replace, pkt, UDP_OFF + 6, 0, diff,
			  BPF_F_PSEUDO_HDR), 0);
	NB_ASSERT(ip_csum_ok(pkt->data));
	NB_ASSERT(udp_csum_ok(pkt->data));
	/* "from" must be 0 with a difference */
	NB_ASSERT_EQ(CALL(BPF_FUNC_l3_csum_replace, pkt, IP_OFF + 10, 1, diff, 0), -EINVAL);
	nb_pkt_free(pkt);
}

/* csum_diff alone: pushing, pulling, sizes, seed; checked against the plain sum. */
NB_TEST(filter_csum_diff_values)
{
	static const u8 a[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0xfe, 0xfd, 0xfc };
	nb_helper_fn fn = tc_helper(BPF_FUNC_csum_diff);
	u64 pushed, pulled;
	u16 folded;

	/* pushing: the one's complement sum of the words, folded, in memory order */
	pushed = fn(0, 0, PTRARG(a), sizeof(a), 0);
	folded = (u16)~ref_csum(a, sizeof(a), 0);	/* sum, big-endian */
	NB_ASSERT_EQ(pushed, (u16)(folded >> 8 | folded << 8));
	/* pulling the same words from that sum gives back 0 (as one's complement zero) */
	pulled = fn(PTRARG(a), sizeof(a), 0, 0, pushed);
	NB_ASSERT(pulled == 0 || pulled == 0xffff);
	NB_ASSERT_EQ(fn(0, 0, 0, 0, 0x1234), 0x1234);
	/* any sizes: the odd tail counts as if zero padded */
	NB_ASSERT_EQ(fn(0, 0, PTRARG(a), 3, 0), 0x0201 + 0x03);
	/* identical blocks differ by nothing */
	NB_ASSERT_EQ(fn(PTRARG(a), 8, PTRARG(a), 8, 0) % 0xffff, 0);
}

NB_TEST(filter_csum_errors)
{
	struct nb_pkt *pkt = udp_pkt();
	u8 before[FRAME_LEN];

	memcpy(before, pkt->data, FRAME_LEN);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l3_csum_replace, pkt, IP_OFF + 11, 0, 0, 4), -EFAULT);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l3_csum_replace, pkt, FRAME_LEN - 1, 0, 0, 4), -EFAULT);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l3_csum_replace, pkt, 0x10000, 0, 0, 4), -EFAULT);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l3_csum_replace, pkt, IP_OFF + 10, 0, 0, 3), -EINVAL);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l3_csum_replace, pkt, IP_OFF + 10, 0, 0, BPF_F_PSEUDO_HDR),
		     -EINVAL);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l4_csum_replace, pkt, UDP_OFF + 6, 0, 0, 1 << 8), -EINVAL);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l4_csum_replace, pkt, UDP_OFF + 6, 0, 0, 8), -EINVAL);
	NB_ASSERT_MEM_EQ(pkt->data, before, FRAME_LEN);
	nb_pkt_free(pkt);
}

/* BPF_F_MARK_MANGLED_0: a UDP checksum of 0 ("none") stays 0; a result of 0 becomes 0xffff. */
NB_TEST(filter_l4_mangled_0)
{
	struct nb_pkt *pkt = udp_pkt();
	u16 sum;

	pkt->data[UDP_OFF + 6] = 0;
	pkt->data[UDP_OFF + 7] = 0;
	NB_ASSERT_EQ(CALL(BPF_FUNC_l4_csum_replace, pkt, UDP_OFF + 6, 1, 2,
			  BPF_F_MARK_MANGLED_0 | 2), 0);
	NB_ASSERT_EQ(pkt->data[UDP_OFF + 6] | pkt->data[UDP_OFF + 7], 0);
	/* ~(~S + ~0 + S) is 0: mangled to 0xffff; without the flag it stays 0. */
	sum = 0x1234;
	memcpy(pkt->data + UDP_OFF + 6, &sum, 2);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l4_csum_replace, pkt, UDP_OFF + 6, 0, 0x1234,
			  BPF_F_MARK_MANGLED_0 | 2), 0);
	memcpy(&sum, pkt->data + UDP_OFF + 6, 2);
	NB_ASSERT_EQ(sum, 0xffff);
	sum = 0x1234;
	memcpy(pkt->data + UDP_OFF + 6, &sum, 2);
	NB_ASSERT_EQ(CALL(BPF_FUNC_l4_csum_replace, pkt, UDP_OFF + 6, 0, 0x1234, 2), 0);
	memcpy(&sum, pkt->data + UDP_OFF + 6, 2);
	NB_ASSERT_EQ(sum, 0);
	/* BPF_F_MARK_ENFORCE: a zero field is updated all the same. */
	NB_ASSERT_EQ(CALL(BPF_FUNC_l4_csum_replace, pkt, UDP_OFF + 6, 0, 1,
			  BPF_F_MARK_MANGLED_0 | BPF_F_MARK_ENFORCE | 2), 0);
	memcpy(&sum, pkt->data + UDP_OFF + 6, 2);
	NB_ASSERT_EQ(sum, 0xfffe);
	nb_pkt_free(pkt);
}

/* A store into shared data takes a private copy: the clone's sharer keeps its bytes. */
NB_TEST(filter_store_bytes_unshares)
{
	struct nb_pkt *pkt = udp_pkt(), *clone = nb_pkt_clone(pkt);
	static const u8 mac[6] = { 0x02, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa };
	u8 orig[6];

	memcpy(orig, pkt->data, 6);
	clone->hash = 77;
	clone->l4_hash = 1;
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_store_bytes, clone, 0, PTRARG(mac), 6,
			  BPF_F_INVALIDATE_HASH), 0);
	NB_ASSERT_MEM_EQ(clone->data, mac, 6);
	NB_ASSERT_MEM_EQ(pkt->data, orig, 6);
	NB_ASSERT_EQ(clone->hash, 0);
	NB_ASSERT_EQ(clone->l4_hash, 0);
	NB_ASSERT_EQ(clone->bpf_data_end, clone->data + FRAME_LEN);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_store_bytes, clone, FRAME_LEN - 5, PTRARG(mac), 6, 0),
		     -EFAULT);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_store_bytes, clone, 0x80000000u, PTRARG(mac), 6, 0),
		     -EFAULT);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_store_bytes, clone, 0, PTRARG(mac), 6, 4), -EINVAL);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_store_bytes, clone, FRAME_LEN - 6, PTRARG(mac), 6,
			  BPF_F_RECOMPUTE_CSUM), 0);
	nb_pkt_free(pkt);
	nb_pkt_free(clone);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(filter_load_bytes)
{
	struct nb_pkt *pkt = udp_pkt();
	u8 buf[8];

	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_load_bytes, pkt, IP_OFF + 12, PTRARG(buf), 8, 0), 0);
	NB_ASSERT_MEM_EQ(buf, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	memset(buf, 0x55, sizeof(buf));
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_load_bytes, pkt, FRAME_LEN - 4, PTRARG(buf), 8, 0),
		     -EFAULT);
	NB_ASSERT_MEM_EQ(buf, "\0\0\0\0\0\0\0\0", 8);	/* zeroed on failure */
	/* relative to the network header (at 14) and the mac header (at 0) */
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_load_bytes_relative, pkt, 9, PTRARG(buf), 1,
			  BPF_HDR_START_NET), 0);
	NB_ASSERT_EQ(buf[0], IPPROTO_UDP);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_load_bytes_relative, pkt, 12, PTRARG(buf), 2,
			  BPF_HDR_START_MAC), 0);
	NB_ASSERT_MEM_EQ(buf, "\x08\x00", 2);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_load_bytes_relative, pkt, FRAME_LEN - 14, PTRARG(buf), 1,
			  BPF_HDR_START_NET), -EFAULT);
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_load_bytes_relative, pkt, 0, PTRARG(buf), 1, 2), -EFAULT);
	pkt->mac_header = NB_PKT_HDR_UNSET;
	NB_ASSERT_EQ(CALL(BPF_FUNC_skb_load_bytes_relative, pkt, 0, PTRARG(buf), 1,
			  BPF_HDR_START_MAC), -EFAULT);
	nb_pkt_free(pkt);
}

NB_TEST(filter_hash)
{
	struct nb_pkt *a = udp_pkt(), *b = udp_pkt(), *c = udp_pkt();
	u32 ha, hc;

	c->data[UDP_OFF] ^= 1;		/* another source port: another flow */
	ha = (u32)CALL(BPF_FUNC_get_hash_recalc, a, 0, 0, 0, 0);
	hc = (u32)CALL(BPF_FUNC_get_hash_recalc, c, 0, 0, 0, 0);
	NB_ASSERT(ha != 0 && ha == a->hash);
	NB_ASSERT_EQ(a->l4_hash, 1);
	NB_ASSERT_EQ((u32)CALL(BPF_FUNC_get_hash_recalc, b, 0, 0, 0, 0), ha);
	NB_ASSERT(hc != ha);
	CALL(BPF_FUNC_set_hash, a, 0x1234, 0, 0, 0);
	NB_ASSERT_EQ((u32)CALL(BPF_FUNC_get_hash_recalc, a, 0, 0, 0, 0), 0x1234);
	NB_ASSERT(a->sw_hash && !a->l4_hash);
	CALL(BPF_FUNC_set_hash_invalid, a, 0, 0, 0, 0);
	NB_ASSERT_EQ(a->hash, 0);
	NB_ASSERT_EQ((u32)CALL(BPF_FUNC_get_hash_recalc, a, 0, 0, 0, 0), ha);
	NB_ASSERT_EQ(CALL(BPF_FUNC_get_cgroup_classid, a, 0, 0, 0, 0), 0);
	NB_ASSERT_EQ(CALL(BPF_FUNC_get_route_realm, a, 0, 0, 0, 0), 0);
	nb_pkt_free(a);
	nb_pkt_free(b);
	nb_pkt_free(c);
}

/* A program calls the helpers: resolution through the tc type's table works end to end. */
NB_TEST(filter_helper_from_program)
{
	struct nb_pkt *pkt = udp_pkt();
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		/* *(u8 *)(r10 - 1) = 5; skb_store_bytes(skb, 22, r10 - 1, 1, 0): ttl = 5 */
		NB_ST_MEM(BPF_B, BPF_REG_10, -1, 5),
		NB_MOV64_IMM(BPF_REG_2, IP_OFF + 8),
		NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -1),
		NB_MOV64_IMM(BPF_REG_4, 1),
		NB_MOV64_IMM(BPF_REG_5, 0),
		NB_CALL_HELPER(BPF_FUNC_skb_store_bytes),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
		NB_MOV64_IMM(BPF_REG_0, TC_ACT_SHOT),
		NB_EXIT(),
	};
	struct nb_prog *prog = ctx_test_load(BPF_PROG_TYPE_SCHED_CLS, 0, insns,
					     ARRAY_SIZE(insns));

	NB_ASSERT_EQ(nb_prog_run(prog, pkt), TC_ACT_SHOT);
	NB_ASSERT_EQ(pkt->data[IP_OFF + 8], 5);
	nb_prog_put(prog);
	nb_pkt_free(pkt);
}
