// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_redirect through the bulk queues: full and partial bursts, the flush at the end of the
 * poll, bulking off, redirect to the receiving device, and targets that refuse frames.
 */
#include "xdp_test.h"

/* 32 frames: the 17th enqueue transmits the first 16, the flush the other 16, in order. */
NB_TEST(xdp_redirect_full_burst)
{
	struct nb_dev *rx = xt_dev("rx0", NULL), *tx = xt_dev("tx0", "keep 64");
	struct nb_pkt *pkts[32];
	struct nb_xdp_stats st;

	xt_attach(rx, xt_prog_redirect(tx->ifindex, 0));
	xt_burst(rx, pkts, 0, 32);
	NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 32), 0);
	NB_ASSERT_EQ(xt_sink_packets(tx), 16);
	nb_xdp_do_flush();
	NB_ASSERT_EQ(xt_sink_packets(tx), 32);
	xt_burst(rx, pkts, 32, 32);
	nb_xdp_rx_burst(rx, pkts, 32);
	nb_xdp_do_flush();
	xt_sink_expect(tx, 0, 64);
	st = xt_stats(tx);
	NB_ASSERT_EQ(st.flush_sizes[NB_XDP_BULK_SIZE], 4);
	NB_ASSERT_EQ(st.xmit_calls, 4);
	NB_ASSERT_EQ(st.xmit_sent, 64);
	NB_ASSERT_EQ(st.xmit_drops, 0);
	NB_ASSERT_EQ(xt_stats(rx).redirect, 64);
	xt_teardown();
}

/* A partial burst waits in the queue until the flush delivers it. */
NB_TEST(xdp_redirect_partial_burst)
{
	struct nb_dev *rx = xt_dev("rx0", NULL), *tx = xt_dev("tx0", "keep 64");
	struct nb_pkt *pkts[32];

	xt_attach(rx, xt_prog_redirect(tx->ifindex, 0));
	xt_burst(rx, pkts, 0, 5);
	nb_xdp_rx_burst(rx, pkts, 5);
	NB_ASSERT_EQ(xt_sink_packets(tx), 0);
	nb_xdp_do_flush();
	NB_ASSERT_EQ(xt_sink_packets(tx), 5);
	xt_burst(rx, pkts, 5, 21);
	nb_xdp_rx_burst(rx, pkts, 21);
	nb_xdp_do_flush();
	nb_xdp_do_flush();	/* an empty flush list is harmless */
	xt_sink_expect(tx, 0, 26);
	NB_ASSERT_EQ(xt_stats(tx).flush_sizes[5], 2);	/* 5, then 16 + 5 */
	NB_ASSERT_EQ(xt_stats(tx).flush_sizes[16], 1);
	xt_teardown();
}

/* Bulking off: every frame leaves at once, one transmit each. */
NB_TEST(xdp_redirect_bulk_off)
{
	struct nb_dev *rx = xt_dev("rx0", NULL), *tx = xt_dev("tx0", "keep 64");
	struct nb_pkt *pkts[32];

	NB_ASSERT_EQ(nb_dev_xdp_set_bulk(tx, false), 0);
	xt_attach(rx, xt_prog_redirect(tx->ifindex, 0));
	xt_burst(rx, pkts, 0, 32);
	nb_xdp_rx_burst(rx, pkts, 32);
	NB_ASSERT_EQ(xt_sink_packets(tx), 32);
	nb_xdp_do_flush();
	xt_sink_expect(tx, 0, 32);
	NB_ASSERT_EQ(xt_stats(tx).flush_sizes[1], 32);
	NB_ASSERT_EQ(xt_stats(tx).xmit_calls, 32);
	/* and on again */
	NB_ASSERT_EQ(nb_dev_xdp_set_bulk(tx, true), 0);
	xt_burst(rx, pkts, 0, 32);
	nb_xdp_rx_burst(rx, pkts, 32);
	nb_xdp_do_flush();
	NB_ASSERT_EQ(xt_stats(tx).flush_sizes[16], 2);
	xt_teardown();
}

/* bpf_redirect to the receiving device itself. */
NB_TEST(xdp_redirect_same_device)
{
	struct nb_dev *dev = xt_dev("x0", "keep 64");
	struct nb_pkt *pkts[32];

	xt_attach(dev, xt_prog_redirect(dev->ifindex, 0));
	xt_burst(dev, pkts, 100, 32);
	nb_xdp_rx_burst(dev, pkts, 32);
	nb_xdp_do_flush();
	xt_sink_expect(dev, 100, 32);
	NB_ASSERT_EQ(xt_stats(dev).flush_sizes[16], 2);
	xt_teardown();
}

/* Two receiving devices in one poll feed one target queue. */
NB_TEST(xdp_redirect_two_sources)
{
	struct nb_dev *a = xt_dev("a0", NULL), *b = xt_dev("b0", NULL);
	struct nb_dev *tx = xt_dev("tx0", "keep 64");
	struct nb_pkt *pkts[8];

	xt_attach(a, xt_prog_redirect(tx->ifindex, 0));
	xt_attach(b, xt_prog_redirect(tx->ifindex, 0));
	xt_burst(a, pkts, 0, 8);
	nb_xdp_rx_burst(a, pkts, 8);
	xt_burst(b, pkts, 8, 8);
	nb_xdp_rx_burst(b, pkts, 8);
	nb_xdp_do_flush();
	xt_sink_expect(tx, 0, 16);
	NB_ASSERT_EQ(xt_stats(tx).flush_sizes[16], 1);
	xt_teardown();
}

static void expect_redirect_drop(struct nb_dev *rx, enum nb_drop_reason reason, u64 count)
{
	struct nb_dev_stats_total t;

	nb_dev_stats_read(rx, &t);
	NB_ASSERT_EQ(t.drops[reason], count);
}

/* Targets that refuse: missing, down, no port, frame too long; flags; no helper call. */
NB_TEST(xdp_redirect_refused)
{
	struct nb_dev *rx = xt_dev("rx0", NULL), *tx = xt_dev("tx0", "keep 8");
	struct nb_dev *noport = xt_dev("np0", NULL);
	struct nb_pkt *pkts[4];

	xt_attach(rx, xt_prog_redirect(999, 0));
	xt_burst(rx, pkts, 0, 4);
	NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 4), 0);
	expect_redirect_drop(rx, NB_DROP_NO_DEV, 4);

	xt_attach(rx, xt_prog_redirect(noport->ifindex, 0));
	xt_burst(rx, pkts, 0, 4);
	nb_xdp_rx_burst(rx, pkts, 4);
	expect_redirect_drop(rx, NB_DROP_NO_DEV, 8);

	xt_attach(rx, xt_prog_redirect(tx->ifindex, 0));
	nb_dev_set_up(tx, false);
	xt_burst(rx, pkts, 0, 4);
	nb_xdp_rx_burst(rx, pkts, 4);
	expect_redirect_drop(rx, NB_DROP_DEV_DOWN, 4);
	nb_dev_set_up(tx, true);

	NB_ASSERT_EQ(nb_dev_set_mtu(tx, 100, NULL), 0);
	pkts[0] = xt_frame(0, 100 + ETH_HLEN + 4);	/* mtu + header + one VLAN tag: fits */
	pkts[1] = xt_frame(1, 100 + ETH_HLEN + 5);
	pkts[0]->dev = pkts[1]->dev = rx;
	nb_xdp_rx_burst(rx, pkts, 2);
	expect_redirect_drop(rx, NB_DROP_TOO_BIG, 1);
	nb_xdp_do_flush();
	xt_sink_expect(tx, 0, 1);
	NB_ASSERT_EQ(xt_stats(rx).redirect_err, 13);

	/* flags are reserved: XDP_ABORTED */
	xt_attach(rx, xt_prog_redirect(tx->ifindex, 1));
	xt_burst(rx, pkts, 0, 4);
	nb_xdp_rx_burst(rx, pkts, 4);
	NB_ASSERT_EQ(xt_stats(rx).aborted, 4);

	/* XDP_REDIRECT with no helper call: nothing recorded (-EBADRQC) */
	xt_attach(rx, xt_prog_ret(XDP_REDIRECT));
	xt_burst(rx, pkts, 0, 4);
	nb_xdp_rx_burst(rx, pkts, 4);
	expect_redirect_drop(rx, NB_DROP_XDP_ABORTED, 8);
	nb_xdp_do_flush();
	NB_ASSERT_EQ(xt_sink_packets(tx), 1);	/* the one that fitted the mtu */
	xt_teardown();
}

/* A device that goes down between enqueue and flush: the transmit fails as a whole. */
NB_TEST(xdp_redirect_xmit_error)
{
	struct nb_dev *rx = xt_dev("rx0", NULL), *tx = xt_dev("tx0", "keep 8");
	struct nb_pkt *pkts[3];
	struct nb_xdp_stats st;

	xt_attach(rx, xt_prog_redirect(tx->ifindex, 0));
	xt_burst(rx, pkts, 0, 3);
	nb_xdp_rx_burst(rx, pkts, 3);
	nb_dev_set_up(tx, false);
	nb_xdp_do_flush();
	st = xt_stats(tx);
	NB_ASSERT_EQ(st.xmit_sent, 0);
	NB_ASSERT_EQ(st.xmit_drops, 3);
	NB_ASSERT_EQ(st.xmit_errors, 1);
	NB_ASSERT_EQ(xt_sink_packets(tx), 0);
	xt_teardown();
}
