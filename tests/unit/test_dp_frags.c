// SPDX-License-Identifier: GPL-2.0
/*
 * Frames beyond a page on the datapath: tc programs see the linear part from data to data_end
 * and reach the rest through the helpers (bpf_skb_load_bytes, LD_ABS/LD_IND on both engines,
 * bpf_skb_pull_data), an xdp.frags program gets the fragments, any other XDP program the frame
 * made linear, and every byte arrives where it is sent.
 */
#include "tc_test.h"
#include "xdp_test.h"

#define JUMBO 9000

static u8 pattern(u32 i)
{
	return (u8)(i * 13 + i / 509);
}

/* A 9000-byte frame to dev's MAC: an IPv4 ethertype, then the pattern. */
static struct nb_pkt *jumbo_pkt(struct nb_dev *dev)
{
	static u8 f[JUMBO];
	struct nb_pkt *pkt;

	for (u32 i = 0; i < JUMBO; i++)
		f[i] = pattern(i);
	memcpy(f, dev->addr, ETH_ALEN);
	memcpy(f + 12, "\x08\x00", 2);
	pkt = nb_pkt_alloc_data(f, JUMBO);
	NB_ASSERT(pkt);
	NB_ASSERT(nb_pkt_is_nonlinear(pkt));
	pkt->dev = dev;
	pkt->skb_iif = dev->ifindex;
	nb_eth_type_trans(pkt, dev);
	pkt->qdisc_cb.pkt_len = pkt->len;
	nb_dev_count_rx(dev, pkt->len);
	return pkt;
}

/* The 4 bytes at off as LD_ABS/LD_IND read them: network order. */
static u32 be32_at(u32 off)
{
	return (u32)pattern(off) << 24 | (u32)pattern(off + 1) << 16 | (u32)pattern(off + 2) << 8 |
	       pattern(off + 3);
}

static u64 run_ld(struct nb_dev *dev, const struct bpf_insn *insns, unsigned int cnt, bool jit)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = &log,
					  .flags = jit ? 0 : NB_PROG_LOAD_INTERP };
	struct nb_pkt *pkt = jumbo_pkt(dev);
	struct nb_prog *prog;
	u64 ret;

	if (nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, insns, cnt, &opts, &prog))
		NB_FAIL("load: %s", nb_log_text(&log));
	NB_ASSERT_EQ(nb_prog_is_jited(prog), jit);
	nb_pkt_compute_data_pointers(pkt);
	ret = nb_prog_run(prog, pkt);
	nb_prog_put(prog);
	nb_pkt_free(pkt);
	nb_log_free(&log);
	return ret;
}

/* LD_ABS and LD_IND read the fragments beyond the linear part, on the JIT as in the interpreter. */
NB_TEST(dp_frags_ld_abs)
{
	struct nb_dev *dev = tc_make_dev("j0", 0);

	for (int jit = 0; jit < 2; jit++) {
		const struct bpf_insn abs_in[] = {
			NB_MOV64_REG(BPF_REG_6, BPF_REG_1), NB_LD_ABS(BPF_W, 100), NB_EXIT() };
		const struct bpf_insn abs_frag[] = {
			NB_MOV64_REG(BPF_REG_6, BPF_REG_1), NB_LD_ABS(BPF_W, 8000), NB_EXIT() };
		const struct bpf_insn abs_across[] = {
			NB_MOV64_REG(BPF_REG_6, BPF_REG_1), NB_LD_ABS(BPF_W, NB_PKT_MAX_LEN - 2),
			NB_EXIT() };
		const struct bpf_insn abs_past[] = {
			NB_MOV64_REG(BPF_REG_6, BPF_REG_1), NB_LD_ABS(BPF_W, JUMBO - 3), NB_EXIT() };
		/* r0 is also the index register: the in-line part must not lose it */
		const struct bpf_insn ind_r0[] = {
			NB_MOV64_REG(BPF_REG_6, BPF_REG_1), NB_MOV64_IMM(BPF_REG_0, 7990),
			NB_LD_IND(BPF_H, BPF_REG_0, 10), NB_EXIT() };
		const struct bpf_insn ind_lin[] = {
			NB_MOV64_REG(BPF_REG_6, BPF_REG_1), NB_MOV64_IMM(BPF_REG_7, 3000),
			NB_LD_IND(BPF_B, BPF_REG_7, 17), NB_EXIT() };

		NB_ASSERT_EQ(run_ld(dev, abs_in, ARRAY_SIZE(abs_in), jit), be32_at(100));
		NB_ASSERT_EQ(run_ld(dev, abs_frag, ARRAY_SIZE(abs_frag), jit), be32_at(8000));
		NB_ASSERT_EQ(run_ld(dev, abs_across, ARRAY_SIZE(abs_across), jit),
			     be32_at(NB_PKT_MAX_LEN - 2));
		NB_ASSERT_EQ(run_ld(dev, abs_past, ARRAY_SIZE(abs_past), jit), 0);
		NB_ASSERT_EQ(run_ld(dev, ind_r0, ARRAY_SIZE(ind_r0), jit),
			     be32_at(8000) >> 16);
		NB_ASSERT_EQ(run_ld(dev, ind_lin, ARRAY_SIZE(ind_lin), jit), pattern(3017));
	}
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	nb_dev_destroy_all();
}

/*
 * A tc program on a 9000-byte frame: skb->len is 9000 and data_end - data the linear 3520;
 * bpf_skb_load_bytes reads the fragments, bpf_skb_pull_data(6000) brings 6000 bytes within
 * reach; the frame leaves for the sink whole.
 */
NB_TEST(dp_frags_tc_helpers)
{
	struct nb_dev *in = tc_make_dev("j0", 0), *out = tc_make_dev("j1", 0);
	struct nb_dev *devs[] = { in, out };
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_6, SKB_OFF(len)),
		NB_STX_MEM(BPF_W, BPF_REG_6, BPF_REG_2, SKB_OFF(mark)),
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_6, SKB_OFF(data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_6, SKB_OFF(data_end)),
		NB_ALU64_REG(BPF_SUB, BPF_REG_3, BPF_REG_2),
		NB_STX_MEM(BPF_W, BPF_REG_6, BPF_REG_3, SKB_OFF(priority)),
		/* bpf_skb_load_bytes(skb, 8990, fp - 8, 4) into cb[0] */
		NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
		NB_MOV64_IMM(BPF_REG_2, 8990),
		NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
		NB_MOV64_IMM(BPF_REG_4, 4),
		NB_CALL_HELPER(BPF_FUNC_skb_load_bytes),
		NB_STX_MEM(BPF_W, BPF_REG_6, BPF_REG_0, SKB_OFF(cb[2])),
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_10, -8),
		NB_STX_MEM(BPF_W, BPF_REG_6, BPF_REG_2, SKB_OFF(cb[0])),
		/* bpf_skb_pull_data(skb, 6000), then the new data_end - data into cb[1] */
		NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
		NB_MOV64_IMM(BPF_REG_2, 6000),
		NB_CALL_HELPER(BPF_FUNC_skb_pull_data),
		NB_STX_MEM(BPF_W, BPF_REG_6, BPF_REG_0, SKB_OFF(cb[3])),
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_6, SKB_OFF(data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_6, SKB_OFF(data_end)),
		NB_ALU64_REG(BPF_SUB, BPF_REG_3, BPF_REG_2),
		NB_STX_MEM(BPF_W, BPF_REG_6, BPF_REG_3, SKB_OFF(cb[1])),
		/* bpf_redirect(out, 0) */
		NB_MOV64_IMM(BPF_REG_1, (int)out->ifindex),
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_CALL_HELPER(BPF_FUNC_redirect),
		NB_EXIT(),
	};
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "bpf", .kind_opts = &bpf };
	struct nb_pkt *pkt, *got;
	u32 word;
	u8 want[4];

	tc_set_port(out, "sink", "keep 1");
	tc_qdisc(in);
	bpf.prog = tc_prog(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns));
	bpf.direct_action = true;
	tc_add(in, &f);
	nb_prog_put(bpf.prog);
	pkt = jumbo_pkt(in);
	nb_netif_receive(pkt);
	nb_net_flush();
	got = nb_sink_take(out->port);
	NB_ASSERT(got && !got->next);
	NB_ASSERT_EQ(got->mark, JUMBO);
	NB_ASSERT_EQ(got->priority, NB_PKT_MAX_LEN);
	for (int i = 0; i < 4; i++)
		want[i] = pattern(8990 + i);
	memcpy(&word, got->qdisc_cb.data, 4);
	NB_ASSERT_MEM_EQ(&word, want, 4);
	memcpy(&word, got->qdisc_cb.data + 8, 4);
	NB_ASSERT_EQ(word, 0);				/* load_bytes' return */
	memcpy(&word, got->qdisc_cb.data + 12, 4);
	NB_ASSERT_EQ(word, 0);				/* pull_data's return */
	memcpy(&word, got->qdisc_cb.data + 4, 4);
	NB_ASSERT(word >= 6000);
	NB_ASSERT_EQ(got->len, JUMBO);
	for (u32 i = ETH_HLEN; i < JUMBO; i += 97) {
		u8 b;

		NB_ASSERT_EQ(nb_pkt_copy_bits(got, i, &b, 1), 0);
		NB_ASSERT_EQ(b, pattern(i));
	}
	nb_pkt_free(got);
	NB_ASSERT_EQ(tc_stats(out).tx_bytes, JUMBO);
	tc_check_accounting(devs, 2);
	nb_dev_destroy_all();
}

/* r0 = XDP_PASS when data_end - data == linear and bpf_xdp_get_buff_len == total, else DROP. */
static struct nb_prog *xdp_len_prog(u32 linear, u32 total, bool frags)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_6, offsetof(struct xdp_md, data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_6, offsetof(struct xdp_md, data_end)),
		NB_ALU64_REG(BPF_SUB, BPF_REG_3, BPF_REG_2),
		NB_MOV64_IMM(BPF_REG_0, XDP_DROP),
		NB_JMP_IMM(BPF_JNE, BPF_REG_3, (int)linear, 4),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_6),
		NB_CALL_HELPER(BPF_FUNC_xdp_get_buff_len),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, (int)total, 2),
		NB_MOV64_IMM(BPF_REG_0, XDP_PASS),
		NB_EXIT(),
		NB_MOV64_IMM(BPF_REG_0, XDP_DROP),
		NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = &log,
					  .flags = frags ? NB_PROG_LOAD_XDP_HAS_FRAGS : 0 };
	struct nb_prog *prog;

	if (nb_prog_load(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns), &opts, &prog))
		NB_FAIL("load: %s", nb_log_text(&log));
	nb_log_free(&log);
	return prog;
}

/*
 * The XDP hook on a jumbo frame: an xdp.frags program sees the linear 3520 bytes and a buffer
 * of 9000; any other program sees 9000 linear bytes (the frame moved to a big buffer). Both
 * pass it on whole.
 */
NB_TEST(dp_frags_xdp)
{
	struct nb_dev *dev = tc_make_dev("j0", 0);
	struct nb_pkt *pkt;
	struct nb_xdp_stats st;

	/* a frags program that insists on 9000 linear bytes drops: it gets fragments */
	xt_attach(dev, xdp_len_prog(JUMBO, JUMBO, true));
	pkt = jumbo_pkt(dev);
	NB_ASSERT_EQ(nb_xdp_rx_burst(dev, &pkt, 1), 0);
	xt_attach(dev, xdp_len_prog(NB_PKT_MAX_LEN, JUMBO, true));
	pkt = jumbo_pkt(dev);
	NB_ASSERT_EQ(nb_xdp_rx_burst(dev, &pkt, 1), 1);
	NB_ASSERT_EQ(pkt->len, JUMBO);
	NB_ASSERT(nb_pkt_is_nonlinear(pkt));
	nb_pkt_free(pkt);
	/* without frags support the program gets the whole frame linear */
	xt_attach(dev, xdp_len_prog(JUMBO, JUMBO, false));
	pkt = jumbo_pkt(dev);
	NB_ASSERT_EQ(nb_xdp_rx_burst(dev, &pkt, 1), 1);
	NB_ASSERT(!nb_pkt_is_nonlinear(pkt));
	NB_ASSERT_EQ(pkt->len, JUMBO);
	NB_ASSERT_EQ(pkt->data[JUMBO - 1], pattern(JUMBO - 1));
	nb_pkt_free(pkt);
	st = xt_stats(dev);
	NB_ASSERT_EQ(st.pass, 2);
	NB_ASSERT_EQ(st.drop, 1);
	xt_teardown();
}
