// SPDX-License-Identifier: GPL-2.0
/*
 * The datapath on a thread of the embedder's own (include/netbpf/worker.h), written as an
 * embedder writes it, with the public headers alone: frames of the caller's own I/O through
 * nb_worker_rx_burst (counted as the device's receive, dropped as dev_down while it is down,
 * sent on only at nb_worker_flush), frames from ports through nb_worker_poll, and a port
 * backend of the caller's own (include/netbpf/port.h) taking what the datapath transmits.
 */
#include <errno.h>
#include <string.h>
#include <linux/pkt_cls.h>
#include <linux/tc_act/tc_mirred.h>

#include <netbpf/netbpf.h>

#include "test.h"

static const unsigned char frame[60] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };

/* A port backend of the test's own: it keeps the bytes of what it is given to send. */
struct capture {
	unsigned int frames;
	unsigned char last[64];
	unsigned int last_len;
};

static unsigned int capture_tx(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct capture *c = nb_port_priv(port);

	for (unsigned int i = 0; i < n; i++) {
		__u32 len;
		const void *bytes = nb_pkt_bytes(pkts[i], &len);

		if (bytes && len <= sizeof(c->last)) {
			memcpy(c->last, bytes, len);
			c->last_len = len;
		}
		c->frames++;
		nb_pkt_free(pkts[i]);
	}
	return n;
}

static const struct nb_port_ops capture_ops = {
	.kind = "test-capture",
	.priv_size = sizeof(struct capture),
	.features = NB_NETIF_F_ALL,
	.tx_burst = capture_tx,
};

static struct nb_dev *make_dev(const char *name)
{
	struct nb_log log = { 0 };
	struct nb_dev *dev;

	if (nb_dev_create(name, 0, &dev, &log))
		NB_FAIL("create %s: %s", name, nb_log_text(&log));
	nb_log_free(&log);
	return dev;
}

/* dev's tc ingress: every frame redirected out of to (matchall + mirred egress redirect). */
static void redirect_all(struct nb_dev *dev, struct nb_dev *to)
{
	NB_OPTS(nb_tc_act_mirred_opts, act_mirred, .eaction = TCA_EGRESS_REDIR,
		.ifindex = nb_dev_ifindex(to));
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "mirred",
					 .kind_opts = &act_mirred };
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "matchall", .actions = &act, .action_cnt = 1 };

	if (nb_tc_qdisc_add(dev, NB_TC_QDISC_CLSACT, NULL) || nb_tc_filter_add(dev, &f, NULL))
		NB_FAIL("tc on %s", nb_dev_name(dev));
}

static void alloc_burst(struct nb_pkt **pkts, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		pkts[i] = nb_pkt_alloc_data(frame, sizeof(frame));
		NB_ASSERT(pkts[i] != NULL);
	}
}

NB_TEST(worker_rx_burst_of_the_callers_own_frames)
{
	struct nb_dev *in = make_dev("in0"), *out = make_dev("out0");
	struct nb_port *port = nb_port_alloc(&capture_ops);
	struct nb_dev_stats_total st;
	struct nb_pkt *pkts[4];
	struct capture *c;

	NB_ASSERT(port != NULL);
	c = nb_port_priv(port);
	nb_dev_set_port(out, port);
	NB_ASSERT(nb_dev_port(out) == port);
	NB_ASSERT(nb_port_dev(port) == out);
	nb_dev_set_up(out, true);
	redirect_all(in, out);

	nb_set_this_cpu(0);
	nb_epoch_online();
	/* a device that is down takes the frames and drops them, counted */
	alloc_burst(pkts, 4);
	nb_worker_rx_burst(in, pkts, 4);
	nb_worker_flush();
	nb_dev_stats_read(in, &st);
	NB_ASSERT_EQ(st.drops[NB_DROP_DEV_DOWN], 4);
	NB_ASSERT_EQ(st.rx_packets, 0);
	NB_ASSERT_EQ(c->frames, 0);

	/* up: received, redirected, and sent only at the end of the burst */
	nb_dev_set_up(in, true);
	alloc_burst(pkts, 4);
	nb_worker_rx_burst(in, pkts, 4);
	NB_ASSERT_EQ(c->frames, 0);
	nb_worker_flush();
	nb_epoch_quiescent();
	NB_ASSERT_EQ(c->frames, 4);
	NB_ASSERT_EQ(c->last_len, sizeof(frame));
	NB_ASSERT_MEM_EQ(c->last, frame, sizeof(frame));
	nb_dev_stats_read(in, &st);
	NB_ASSERT_EQ(st.rx_packets, 4);
	NB_ASSERT_EQ(st.rx_bytes, 4 * sizeof(frame));
	nb_dev_stats_read(out, &st);
	NB_ASSERT_EQ(st.tx_packets, 4);
	nb_epoch_offline();

	nb_dev_destroy_all();
	nb_epoch_barrier();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(worker_poll_of_a_ports_frames)
{
	struct nb_dev *gen = make_dev("gen0"), *out = make_dev("out0");
	struct nb_sink_counts sc = { 0 };
	struct nb_log log = { 0 };
	unsigned int got = 0, round;

	if (nb_dev_attach_port(gen, "gen", "count 40 pkt_size 64", &log) ||
	    nb_dev_attach_port(out, "sink", "", &log))
		NB_FAIL("ports: %s", nb_log_text(&log));
	nb_log_free(&log);
	nb_dev_set_up(gen, true);
	nb_dev_set_up(out, true);
	redirect_all(gen, out);

	nb_set_this_cpu(0);
	nb_epoch_online();
	/* bursts of at most NB_BURST: 32, then the 8 left, then nothing */
	for (round = 0; round < 4; round++) {
		unsigned int n = nb_worker_poll(&gen, 1);

		NB_ASSERT(n <= NB_BURST);
		got += n;
		nb_epoch_quiescent();
	}
	nb_epoch_offline();
	NB_ASSERT_EQ(got, 40);
	NB_ASSERT_EQ(nb_sink_counts(nb_dev_port(out), &sc), 0);
	NB_ASSERT_EQ(sc.packets, 40);
	NB_ASSERT_EQ(nb_sink_counts(nb_dev_port(gen), &sc), -EINVAL);	/* not a sink */
	nb_dev_destroy_all();
}
