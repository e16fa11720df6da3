// SPDX-License-Identifier: GPL-2.0
/*
 * The packet-changing tc helpers against the running kernel: VLAN push/pop, change_proto,
 * change_type, change_tail, change_head, pull_data, ecn_set_ce and adjust_room, on plain,
 * VLAN, QinQ, ECN-capable and IPv6 frames. Each program calls the helper, then reads back the
 * fields it may have changed; retval and the resulting frame must equal the kernel's.
 */
#include "kcase.h"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define SKB(f) offsetof(struct __sk_buff, f)

/* Newer than the uapi headers of the build machine (Linux 6.3). */
#define DECAP_L3_IPV4 (1 << 7)

/* r0 = helper's return ^ the fields it may change, each shifted to its own place. */
#define MIX(field, shift)                                                                   \
	NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, SKB(field)),                                \
	NB_ALU64_IMM(BPF_LSH, BPF_REG_2, shift),                                            \
	NB_ALU64_REG(BPF_XOR, BPF_REG_7, BPF_REG_2)
#define READBACK                                                                            \
	NB_MOV64_REG(BPF_REG_7, BPF_REG_0),                                                 \
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6),                                                 \
	MIX(len, 20), MIX(protocol, 4), MIX(vlan_tci, 8), MIX(vlan_present, 31),            \
	MIX(vlan_proto, 12), MIX(pkt_type, 28),                                             \
	NB_MOV64_REG(BPF_REG_0, BPF_REG_7),                                                 \
	NB_EXIT()

#define ARGS(a2, a3, a4, a5)                                                                \
	NB_MOV64_REG(BPF_REG_1, BPF_REG_6), NB_MOV64_IMM(BPF_REG_2, a2),                    \
	NB_MOV64_IMM(BPF_REG_3, a3), NB_MOV64_IMM(BPF_REG_4, a4), NB_MOV64_IMM(BPF_REG_5, a5)

#define CALL1(name, id, a2, a3, a4, a5)                                                     \
	static const struct bpf_insn name[] = {                                             \
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),                                         \
		ARGS(a2, a3, a4, a5), NB_CALL_HELPER(id),                                   \
		READBACK,                                                                   \
	}
/* Two calls; the first one's result is folded in too. */
#define CALL2(name, id1, b2, b3, b4, b5, id2, a2, a3, a4, a5)                               \
	static const struct bpf_insn name[] = {                                             \
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),                                         \
		ARGS(b2, b3, b4, b5), NB_CALL_HELPER(id1),                                  \
		NB_MOV64_REG(BPF_REG_8, BPF_REG_0),                                         \
		ARGS(a2, a3, a4, a5), NB_CALL_HELPER(id2),                                  \
		NB_ALU64_IMM(BPF_LSH, BPF_REG_8, 16),                                       \
		NB_ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_8),                                \
		READBACK,                                                                   \
	}

#define Q	 0x0081		/* htons(ETH_P_8021Q) as a register holds it */
#define AD	 0xa888		/* htons(ETH_P_8021AD) */
#define IP4	 0x0008		/* htons(ETH_P_IP) */
#define IP6	 0xdd86		/* htons(ETH_P_IPV6) */
#define ARP	 0x0608		/* htons(ETH_P_ARP) */

CALL1(vlan_push_q, BPF_FUNC_skb_vlan_push, Q, 0x123, 0, 0);
CALL1(vlan_push_ad, BPF_FUNC_skb_vlan_push, AD, 7, 0, 0);
CALL1(vlan_push_bogus, BPF_FUNC_skb_vlan_push, 0x3412, 0xfff, 0, 0);
CALL2(vlan_push_twice, BPF_FUNC_skb_vlan_push, AD, 5, 0, 0, BPF_FUNC_skb_vlan_push, Q, 100, 0,
      0);
CALL1(vlan_pop, BPF_FUNC_skb_vlan_pop, 0, 0, 0, 0);
CALL2(vlan_push_pop, BPF_FUNC_skb_vlan_push, Q, 9, 0, 0, BPF_FUNC_skb_vlan_pop, 0, 0, 0, 0);
CALL2(vlan_pop_twice, BPF_FUNC_skb_vlan_pop, 0, 0, 0, 0, BPF_FUNC_skb_vlan_pop, 0, 0, 0, 0);
CALL1(change_proto_4to6, BPF_FUNC_skb_change_proto, IP6, 0, 0, 0);
CALL1(change_proto_6to4, BPF_FUNC_skb_change_proto, IP4, 0, 0, 0);
CALL1(change_proto_same, BPF_FUNC_skb_change_proto, IP4, 0, 0, 0);
CALL1(change_proto_arp, BPF_FUNC_skb_change_proto, ARP, 0, 0, 0);
CALL1(change_proto_flags, BPF_FUNC_skb_change_proto, IP6, 1, 0, 0);
CALL1(change_type_bcast, BPF_FUNC_skb_change_type, PACKET_BROADCAST, 0, 0, 0);
CALL1(change_type_host, BPF_FUNC_skb_change_type, PACKET_HOST, 0, 0, 0);
CALL1(change_type_bad, BPF_FUNC_skb_change_type, PACKET_LOOPBACK, 0, 0, 0);
CALL1(change_tail_grow, BPF_FUNC_skb_change_tail, 100, 0, 0, 0);
CALL1(change_tail_trim, BPF_FUNC_skb_change_tail, 50, 0, 0, 0);
CALL1(change_tail_to_l3, BPF_FUNC_skb_change_tail, 14, 0, 0, 0);
CALL1(change_tail_below_l3, BPF_FUNC_skb_change_tail, 13, 0, 0, 0);
CALL1(change_tail_flags, BPF_FUNC_skb_change_tail, 60, 1, 0, 0);
CALL1(change_tail_huge, BPF_FUNC_skb_change_tail, 20000, 0, 0, 0);
CALL1(change_head_eth, BPF_FUNC_skb_change_head, 14, 0, 0, 0);
CALL1(change_head_zero, BPF_FUNC_skb_change_head, 0, 0, 0, 0);
CALL1(change_head_flags, BPF_FUNC_skb_change_head, 8, 1, 0, 0);
CALL1(pull_data_all, BPF_FUNC_skb_pull_data, 0, 0, 0, 0);
CALL1(pull_data_some, BPF_FUNC_skb_pull_data, 20, 0, 0, 0);
CALL1(pull_data_past, BPF_FUNC_skb_pull_data, 200, 0, 0, 0);
CALL1(ecn_set_ce, BPF_FUNC_skb_ecn_set_ce, 0, 0, 0, 0);
CALL1(adjust_net_grow, BPF_FUNC_skb_adjust_room, 8, BPF_ADJ_ROOM_NET, 0, 0);
CALL1(adjust_net_shrink, BPF_FUNC_skb_adjust_room, -8, BPF_ADJ_ROOM_NET, 0, 0);
CALL1(adjust_mac_grow, BPF_FUNC_skb_adjust_room, 12, BPF_ADJ_ROOM_MAC, 0, 0);
CALL1(adjust_encap_ipip, BPF_FUNC_skb_adjust_room, 20, BPF_ADJ_ROOM_MAC,
      BPF_F_ADJ_ROOM_ENCAP_L3_IPV4, 0);
CALL1(adjust_encap_udp6, BPF_FUNC_skb_adjust_room, 48, BPF_ADJ_ROOM_MAC,
      BPF_F_ADJ_ROOM_ENCAP_L3_IPV6 | BPF_F_ADJ_ROOM_ENCAP_L4_UDP, 0);
CALL1(adjust_encap_both_l3, BPF_FUNC_skb_adjust_room, 20, BPF_ADJ_ROOM_MAC,
      BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L3_IPV6, 0);
CALL2(adjust_encap_twice, BPF_FUNC_skb_adjust_room, 20, BPF_ADJ_ROOM_MAC,
      BPF_F_ADJ_ROOM_ENCAP_L3_IPV4, 0, BPF_FUNC_skb_adjust_room, 20, BPF_ADJ_ROOM_MAC,
      BPF_F_ADJ_ROOM_ENCAP_L3_IPV4, 0);
CALL2(encap_then_change_tail, BPF_FUNC_skb_adjust_room, 20, BPF_ADJ_ROOM_MAC,
      BPF_F_ADJ_ROOM_ENCAP_L3_IPV4, 0, BPF_FUNC_skb_change_tail, 80, 0, 0, 0);
CALL1(adjust_decap_ipv4, BPF_FUNC_skb_adjust_room, -20, BPF_ADJ_ROOM_MAC, DECAP_L3_IPV4, 0);
CALL1(adjust_decap_grow, BPF_FUNC_skb_adjust_room, 20, BPF_ADJ_ROOM_MAC, DECAP_L3_IPV4, 0);
CALL1(adjust_shrink_encap_flag, BPF_FUNC_skb_adjust_room, -8, BPF_ADJ_ROOM_NET,
      BPF_F_ADJ_ROOM_ENCAP_L3_IPV4, 0);
CALL1(adjust_shrink_fixed_gso, BPF_FUNC_skb_adjust_room, -8, BPF_ADJ_ROOM_NET,
      BPF_F_ADJ_ROOM_FIXED_GSO | BPF_F_ADJ_ROOM_NO_CSUM_RESET, 0);
CALL1(adjust_bad_mode, BPF_FUNC_skb_adjust_room, 8, 2, 0, 0);
CALL1(adjust_too_far, BPF_FUNC_skb_adjust_room, 0x1000, BPF_ADJ_ROOM_NET, 0, 0);
CALL1(adjust_bad_flag, BPF_FUNC_skb_adjust_room, 8, BPF_ADJ_ROOM_NET, 1 << 9, 0);
CALL1(adjust_shrink_too_much, BPF_FUNC_skb_adjust_room, -100, BPF_ADJ_ROOM_NET, 0, 0);
CALL1(adjust_shrink_all, BPF_FUNC_skb_adjust_room, -40, BPF_ADJ_ROOM_NET, 0, 0);

/* set_tstamp, then tstamp_type and tstamp read back. */
#define SET_TSTAMP(name, ts, type)                                                          \
	static const struct bpf_insn name[] = {                                             \
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),                                         \
		NB_MOV64_IMM(BPF_REG_2, ts),                                                \
		NB_MOV64_IMM(BPF_REG_3, type),                                              \
		NB_CALL_HELPER(BPF_FUNC_skb_set_tstamp),                                    \
		NB_MOV64_REG(BPF_REG_1, BPF_REG_6),                                         \
		NB_LDX_MEM(BPF_B, BPF_REG_2, BPF_REG_1, SKB(tstamp_type)),                  \
		NB_ALU64_IMM(BPF_LSH, BPF_REG_2, 8),                                        \
		NB_ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_2),                                \
		NB_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, SKB(tstamp)),                      \
		NB_ALU64_IMM(BPF_LSH, BPF_REG_2, 12),                                       \
		NB_ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_2),                                \
		NB_EXIT(),                                                                  \
	}
SET_TSTAMP(tstamp_realtime, 1234, 0);
SET_TSTAMP(tstamp_realtime_zero, 0, 0);
SET_TSTAMP(tstamp_mono, 5678, 1);
SET_TSTAMP(tstamp_mono_zero, 0, 1);
SET_TSTAMP(tstamp_tai, 99, 2);
SET_TSTAMP(tstamp_tai_zero, 0, 2);
SET_TSTAMP(tstamp_bad_type, 99, 3);

#define MCASE(n, i, f)	  { n, BPF_PROG_TYPE_SCHED_CLS, i, ARRAY_SIZE(i), true, 0, f, true }
/* The same on a GSO packet (as a test run makes it with gso_size in ctx_in). */
#define MCASE_GSO(n, i, f) { n, BPF_PROG_TYPE_SCHED_CLS, i, ARRAY_SIZE(i), true, 0, f, false }

static const struct kcase mangle_cases[] = {
	MCASE("vlan_push_q", vlan_push_q, KFRAME_UDP),
	MCASE("vlan_push_ad", vlan_push_ad, KFRAME_UDP),
	MCASE("vlan_push_bogus_proto", vlan_push_bogus, KFRAME_UDP),
	MCASE("vlan_push_twice", vlan_push_twice, KFRAME_UDP),
	MCASE("vlan_push_on_tagged", vlan_push_q, KFRAME_VLAN),
	MCASE("vlan_pop_untagged", vlan_pop, KFRAME_UDP),
	MCASE("vlan_pop_tagged", vlan_pop, KFRAME_VLAN),
	MCASE("vlan_pop_qinq", vlan_pop, KFRAME_QINQ),
	MCASE("vlan_pop_twice_qinq", vlan_pop_twice, KFRAME_QINQ),
	MCASE("vlan_push_pop", vlan_push_pop, KFRAME_UDP),
	MCASE("vlan_push_pop_tagged", vlan_push_pop, KFRAME_VLAN),
	MCASE("change_proto_4to6", change_proto_4to6, KFRAME_UDP),
	MCASE("change_proto_6to4", change_proto_6to4, KFRAME_UDP6),
	MCASE("change_proto_same", change_proto_same, KFRAME_UDP),
	MCASE("change_proto_arp", change_proto_arp, KFRAME_UDP),
	MCASE("change_proto_flags", change_proto_flags, KFRAME_UDP),
	MCASE("change_proto_vlan", change_proto_4to6, KFRAME_VLAN),
	MCASE("change_type_bcast", change_type_bcast, KFRAME_UDP),
	MCASE("change_type_host", change_type_host, KFRAME_UDP),
	MCASE("change_type_bad", change_type_bad, KFRAME_UDP),
	MCASE("change_tail_grow", change_tail_grow, KFRAME_UDP),
	MCASE("change_tail_trim", change_tail_trim, KFRAME_UDP),
	MCASE("change_tail_to_l3", change_tail_to_l3, KFRAME_UDP),
	MCASE("change_tail_below_l3", change_tail_below_l3, KFRAME_UDP),
	MCASE("change_tail_flags", change_tail_flags, KFRAME_UDP),
	MCASE("change_tail_huge", change_tail_huge, KFRAME_UDP),
	MCASE("change_head_eth", change_head_eth, KFRAME_UDP),
	MCASE("change_head_zero", change_head_zero, KFRAME_UDP),
	MCASE("change_head_flags", change_head_flags, KFRAME_UDP),
	MCASE("pull_data_all", pull_data_all, KFRAME_UDP),
	MCASE("pull_data_some", pull_data_some, KFRAME_UDP),
	MCASE("pull_data_past", pull_data_past, KFRAME_UDP),
	MCASE("ecn_not_ect", ecn_set_ce, KFRAME_UDP),
	MCASE("ecn_ect0", ecn_set_ce, KFRAME_ECT),
	MCASE("ecn_ipv6", ecn_set_ce, KFRAME_UDP6),
	MCASE("adjust_net_grow", adjust_net_grow, KFRAME_UDP),
	MCASE("adjust_net_grow_ipv6", adjust_net_grow, KFRAME_UDP6),
	MCASE("adjust_net_shrink", adjust_net_shrink, KFRAME_UDP),
	MCASE("adjust_mac_grow", adjust_mac_grow, KFRAME_UDP),
	MCASE("adjust_encap_ipip", adjust_encap_ipip, KFRAME_UDP),
	MCASE("adjust_encap_udp6", adjust_encap_udp6, KFRAME_UDP),
	MCASE("adjust_encap_both_l3", adjust_encap_both_l3, KFRAME_UDP),
	MCASE("adjust_encap_twice", adjust_encap_twice, KFRAME_UDP),
	MCASE("encap_then_change_tail", encap_then_change_tail, KFRAME_UDP),
	MCASE("adjust_decap_ipv4", adjust_decap_ipv4, KFRAME_UDP),
	MCASE("adjust_decap_grow", adjust_decap_grow, KFRAME_UDP),
	MCASE("adjust_shrink_encap_flag", adjust_shrink_encap_flag, KFRAME_UDP),
	MCASE("adjust_shrink_fixed_gso", adjust_shrink_fixed_gso, KFRAME_UDP),
	MCASE("adjust_bad_mode", adjust_bad_mode, KFRAME_UDP),
	MCASE("adjust_too_far", adjust_too_far, KFRAME_UDP),
	MCASE("adjust_bad_flag", adjust_bad_flag, KFRAME_UDP),
	MCASE("adjust_shrink_too_much", adjust_shrink_too_much, KFRAME_UDP),
	MCASE("adjust_shrink_all", adjust_shrink_all, KFRAME_UDP),
	MCASE("adjust_on_vlan", adjust_net_grow, KFRAME_VLAN),
	MCASE("set_tstamp_realtime", tstamp_realtime, KFRAME_UDP),
	MCASE("set_tstamp_realtime_zero", tstamp_realtime_zero, KFRAME_UDP),
	MCASE("set_tstamp_mono", tstamp_mono, KFRAME_UDP),
	MCASE("set_tstamp_mono_zero", tstamp_mono_zero, KFRAME_UDP),
	MCASE("set_tstamp_tai", tstamp_tai, KFRAME_UDP),
	MCASE("set_tstamp_tai_zero", tstamp_tai_zero, KFRAME_UDP),
	MCASE("set_tstamp_bad_type", tstamp_bad_type, KFRAME_UDP),
	MCASE("set_tstamp_vlan", tstamp_mono, KFRAME_VLAN),
	MCASE_GSO("gso_adjust_net_grow", adjust_net_grow, KFRAME_UDP),
	MCASE_GSO("gso_change_tail_grow", change_tail_grow, KFRAME_UDP),
	MCASE_GSO("gso_change_tail_trim", change_tail_trim, KFRAME_UDP),
	MCASE_GSO("gso_change_head_eth", change_head_eth, KFRAME_UDP),
	MCASE_GSO("gso_change_proto_4to6", change_proto_4to6, KFRAME_UDP),
	MCASE_GSO("gso_vlan_push_q", vlan_push_q, KFRAME_UDP),
};

static void __attribute__((constructor)) register_mangle_kernel_cases(void)
{
	kcase_register("mangle-kernel", mangle_cases, ARRAY_SIZE(mangle_cases));
}
