// SPDX-License-Identifier: GPL-2.0
/*
 * The bridge device (src/net/bridge.c): learning, forwarding by the database, flooding of
 * unknown unicast, broadcast and multicast to every port but the ingress, the bridge's own
 * and its ports' addresses going up the bridge, link-local frames, bad sources, a learned
 * address moving, aging on the deterministic clock, releasing a port, the bridge's transmit,
 * and a port's tc ingress hook running before the bridge. Ports are sinks; frames go in
 * through the receive path as a port would hand them over.
 */
#include <netbpf/bridge.h>
#include <netbpf/clock.h>

#include "tc_test.h"

#define NPORTS 3

static const u8 br_mac[6] = { 0x02, 0xb0, 0, 0, 0, 0x0c };
static const u8 mac_a[6] = { 0x02, 0xaa, 0, 0, 0, 0x01 };
static const u8 mac_b[6] = { 0x02, 0xbb, 0, 0, 0, 0x02 };
static const u8 mac_x[6] = { 0x02, 0xcc, 0, 0, 0, 0x09 };
static const u8 bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const u8 mcast[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };

struct world {
	struct nb_dev *br;
	struct nb_dev *port[NPORTS];
};

static void make_world(struct world *w)
{
	struct nb_bridge_opts opts = { .sz = sizeof(opts) };
	struct nb_log log = { 0 };
	char name[16];

	NB_ASSERT_EQ(nb_bridge_create("br0", 0, &opts, &w->br, &log), 0);
	nb_dev_set_addr(w->br, br_mac);
	nb_dev_set_up(w->br, true);
	for (int i = 0; i < NPORTS; i++) {
		snprintf(name, sizeof(name), "p%d", i + 1);
		w->port[i] = tc_make_dev(name, 0);
		tc_set_port(w->port[i], "sink", "keep 64");
		NB_ASSERT_EQ(nb_bridge_add_port(w->br, w->port[i], &log), 0);
	}
	nb_log_free(&log);
}

/* A frame from src to dst arriving on port, received and the burst finished. */
static void rx(struct nb_dev *port, const u8 *dst, const u8 *src, u8 tag)
{
	u8 f[60] = { 0 };

	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = 0x88;
	f[13] = 0xb5;
	f[14] = tag;
	tc_receive(port, f, sizeof(f));
}

static u64 sent(struct nb_dev *dev)
{
	return tc_stats(dev).tx_packets;
}

/* The tx counts of the ports, as a number with one decimal digit per port. */
static u64 sent_all(const struct world *w)
{
	u64 v = 0;

	for (int i = 0; i < NPORTS; i++)
		v = v * 10 + sent(w->port[i]);
	return v;
}

static void reset(const struct world *w)
{
	nb_dev_stats_reset(w->br);
	for (int i = 0; i < NPORTS; i++) {
		struct nb_pkt *kept = nb_sink_take(w->port[i]->port);

		nb_pkt_free_list(kept);
		nb_dev_stats_reset(w->port[i]);
	}
}

/* The entry for addr: its ifindex, 0 when there is none; *state its state. */
static u32 fdb_port(const struct world *w, const u8 *addr, enum nb_bridge_fdb_state *state)
{
	struct nb_bridge_fdb_entry e[32];
	unsigned int n = nb_bridge_fdb_dump(w->br, e, 32);

	NB_ASSERT(n <= 32);
	for (unsigned int i = 0; i < n; i++) {
		if (memcmp(e[i].addr, addr, 6))
			continue;
		if (state)
			*state = e[i].state;
		return e[i].ifindex;
	}
	return 0;
}

/*
 * What entered (port receives, bridge copies) left once: sent by a port, delivered up a port
 * or the bridge, consumed or dropped; no buffer is out.
 */
static void check_accounting(const struct world *w)
{
	struct nb_dev_stats_total b = tc_stats(w->br);
	u64 in = b.clones, out = b.host_packets + b.rx_dropped;

	for (int i = 0; i < NPORTS; i++) {
		struct nb_dev_stats_total t = tc_stats(w->port[i]);

		in += t.rx_packets;
		out += t.tx_packets + t.host_packets + t.consumed + t.rx_dropped;
	}
	NB_ASSERT_EQ(in, out);
	for (int i = 0; i < NPORTS; i++)
		nb_pkt_free_list(nb_sink_take(w->port[i]->port));
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(bridge_learn_forward_flood)
{
	enum nb_bridge_fdb_state st = NB_BRIDGE_FDB_PERMANENT;
	struct world w;

	make_world(&w);
	/* unknown unicast: every port but the ingress, not up the bridge; a is learned */
	rx(w.port[0], mac_x, mac_a, 1);
	NB_ASSERT_EQ(sent_all(&w), 11);
	NB_ASSERT_EQ(tc_stats(w.br).host_packets, 0);
	NB_ASSERT_EQ(tc_stats(w.br).clones, 1);
	NB_ASSERT_EQ(fdb_port(&w, mac_a, &st), w.port[0]->ifindex);
	NB_ASSERT_EQ(st, NB_BRIDGE_FDB_DYNAMIC);
	/* known unicast: only its port */
	rx(w.port[1], mac_a, mac_b, 2);
	NB_ASSERT_EQ(sent_all(&w), 111);
	NB_ASSERT_EQ(fdb_port(&w, mac_b, NULL), w.port[1]->ifindex);
	/* broadcast and multicast: every other port, and up the bridge */
	rx(w.port[2], bcast, mac_x, 3);
	NB_ASSERT_EQ(sent_all(&w), 221);
	rx(w.port[2], mcast, mac_x, 4);
	NB_ASSERT_EQ(sent_all(&w), 331);
	NB_ASSERT_EQ(tc_stats(w.br).host_packets, 2);
	NB_ASSERT_EQ(tc_stats(w.br).rx_packets, 2);
	/* the bridge's address and a port's: up the bridge, to no port */
	rx(w.port[0], br_mac, mac_a, 5);
	rx(w.port[0], w.port[1]->addr, mac_a, 6);
	NB_ASSERT_EQ(sent_all(&w), 331);
	NB_ASSERT_EQ(tc_stats(w.br).host_packets, 4);
	/* to the port it came in by: dropped, counted */
	rx(w.port[0], mac_a, mac_x, 7);
	NB_ASSERT_EQ(sent_all(&w), 331);
	NB_ASSERT_EQ(tc_stats(w.br).drops[NB_DROP_NO_TX_TARGET], 1);
	/* x was learned on p3, then on p1: it moved */
	NB_ASSERT_EQ(fdb_port(&w, mac_x, &st), w.port[0]->ifindex);
	NB_ASSERT_EQ(st, NB_BRIDGE_FDB_DYNAMIC);
	check_accounting(&w);
	nb_dev_destroy_all();
}

NB_TEST(bridge_link_local_and_bad_sources)
{
	static const u8 lldp[6] = { 0x01, 0x80, 0xc2, 0, 0, 0x0e };
	static const u8 pause[6] = { 0x01, 0x80, 0xc2, 0, 0, 0x01 };
	static const u8 stp[6] = { 0x01, 0x80, 0xc2, 0, 0, 0x00 };
	static const u8 zero[6] = { 0 };
	struct world w;

	make_world(&w);
	/* LLDP goes up the port itself, learned; pause frames are dropped */
	rx(w.port[0], lldp, mac_a, 1);
	NB_ASSERT_EQ(tc_stats(w.port[0]).host_packets, 1);
	NB_ASSERT_EQ(fdb_port(&w, mac_a, NULL), w.port[0]->ifindex);
	rx(w.port[0], pause, mac_a, 2);
	NB_ASSERT_EQ(tc_stats(w.port[0]).drops[NB_DROP_MAC_IEEE_MAC_CONTROL], 1);
	/* the STP group address is forwarded while STP is off */
	rx(w.port[0], stp, mac_a, 3);
	NB_ASSERT_EQ(sent_all(&w), 11);
	/* multicast or zero sources are dropped and never learned */
	rx(w.port[1], mac_a, bcast, 4);
	rx(w.port[1], mac_a, zero, 5);
	NB_ASSERT_EQ(tc_stats(w.port[1]).drops[NB_DROP_MAC_INVALID_SOURCE], 2);
	NB_ASSERT_EQ(sent_all(&w), 11);
	/* a port's own address as a source changes nothing */
	rx(w.port[1], mac_x, w.port[0]->addr, 6);
	NB_ASSERT_EQ(fdb_port(&w, w.port[0]->addr, NULL), w.port[0]->ifindex);
	check_accounting(&w);
	nb_dev_destroy_all();
}

NB_TEST(bridge_aging_on_the_datapath_clock)
{
	struct nb_deterministic_opts det = { .sz = sizeof(det) };
	struct nb_log log = { 0 };
	struct world w;

	make_world(&w);
	/* 100 centiseconds: one second of the virtual clock */
	NB_ASSERT_EQ(nb_bridge_set_ageing_time(w.br, 100, &log), 0);
	NB_ASSERT_EQ(nb_bridge_ageing_time(w.br), 100);
	nb_deterministic_enable(&det);
	rx(w.port[0], mac_x, mac_a, 1);
	reset(&w);
	det.start_ns = 900000000;	/* 0.9 s later: still known */
	nb_deterministic_enable(&det);
	rx(w.port[1], mac_a, mac_b, 2);
	NB_ASSERT_EQ(sent_all(&w), 100);
	det.start_ns = 1000000000;	/* a refresh keeps it: 0.9 s after it still there... */
	nb_deterministic_enable(&det);
	rx(w.port[0], mac_x, mac_a, 3);
	reset(&w);
	det.start_ns = 1900000000ULL;
	nb_deterministic_enable(&det);
	NB_ASSERT_EQ(fdb_port(&w, mac_a, NULL), w.port[0]->ifindex);
	det.start_ns = 2000000000ULL;	/* ... and gone 1 s after it */
	nb_deterministic_enable(&det);
	NB_ASSERT_EQ(fdb_port(&w, mac_a, NULL), 0);
	/* an aged address floods again, and is learned anew */
	rx(w.port[1], mac_a, mac_b, 4);
	NB_ASSERT_EQ(sent_all(&w), 101);
	/* permanent entries never age */
	NB_ASSERT_EQ(fdb_port(&w, w.port[2]->addr, NULL), w.port[2]->ifindex);
	NB_ASSERT_EQ(fdb_port(&w, br_mac, NULL), w.br->ifindex);
	nb_deterministic_disable();
	nb_log_free(&log);
	check_accounting(&w);
	nb_dev_destroy_all();
}

NB_TEST(bridge_static_entries_ports_and_transmit)
{
	struct nb_log log = { 0 };
	enum nb_bridge_fdb_state st;
	struct nb_pkt *pkt;
	struct world w;
	u8 f[60] = { 0 };

	make_world(&w);
	NB_ASSERT_EQ(nb_bridge_fdb_add(w.br, w.port[2], mac_b, NB_BRIDGE_FDB_STATIC, false, &log),
		     0);
	NB_ASSERT_EQ(nb_bridge_fdb_add(w.br, w.port[1], mac_b, NB_BRIDGE_FDB_STATIC, false, &log),
		     -EEXIST);
	NB_ASSERT_EQ(fdb_port(&w, mac_b, &st), w.port[2]->ifindex);
	NB_ASSERT_EQ(st, NB_BRIDGE_FDB_STATIC);
	rx(w.port[0], mac_b, mac_a, 1);
	NB_ASSERT_EQ(sent_all(&w), 1);
	/* the bridge transmits by the same table: a to p1, unknown x to every port */
	memcpy(f, mac_a, 6);
	memcpy(f + 6, br_mac, 6);
	pkt = nb_pkt_alloc_data(f, sizeof(f));
	pkt->dev = w.br;
	nb_dev_queue_xmit(pkt);
	nb_net_flush();
	NB_ASSERT_EQ(sent_all(&w), 101);
	memcpy(f, mac_x, 6);
	pkt = nb_pkt_alloc_data(f, sizeof(f));
	pkt->dev = w.br;
	nb_dev_queue_xmit(pkt);
	nb_net_flush();
	NB_ASSERT_EQ(sent_all(&w), 212);
	NB_ASSERT_EQ(tc_stats(w.br).tx_packets, 2);
	/* a released port takes its entries along and gets no more floods */
	NB_ASSERT_EQ(nb_bridge_del_port(w.port[2], &log), 0);
	NB_ASSERT_EQ(nb_bridge_del_port(w.port[2], &log), -ENOENT);
	NB_ASSERT_EQ(fdb_port(&w, mac_b, NULL), 0);
	NB_ASSERT(!nb_bridge_master(w.port[2]));
	rx(w.port[1], mac_x, mac_b, 2);
	NB_ASSERT_EQ(sent_all(&w), 312);
	/* the bridge down: its ports drop what they receive */
	nb_dev_set_up(w.br, false);
	rx(w.port[1], mac_x, mac_b, 3);
	NB_ASSERT_EQ(sent_all(&w), 312);
	NB_ASSERT_EQ(tc_stats(w.port[1]).drops[NB_DROP_DEV_DOWN], 1);
	/* a port cannot join twice, nor a bridge join a bridge */
	NB_ASSERT_EQ(nb_bridge_add_port(w.br, w.port[0], &log), -EBUSY);
	NB_ASSERT_EQ(nb_bridge_add_port(w.br, w.br, &log), -EINVAL);
	nb_log_free(&log);
	/* deleting the bridge releases its ports */
	nb_dev_destroy(w.br);
	NB_ASSERT(!nb_bridge_master(w.port[0]));
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A port's tc ingress runs first: a drop there never reaches the bridge. */
NB_TEST(bridge_port_tc_ingress_first)
{
	struct world w;

	make_world(&w);
	tc_qdisc(w.port[0]);
	{
		NB_OPTS(nb_tc_bpf_opts, bpf);
		struct nb_tc_filter_opts fo = { .hook = NB_TC_INGRESS, .pref = 1, .kind = "bpf",
						.kind_opts = &bpf };

		bpf.prog = tc_prog_ret(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_SHOT);
		bpf.direct_action = true;
		tc_add(w.port[0], &fo);
		nb_prog_put(bpf.prog);
	}
	rx(w.port[0], bcast, mac_a, 1);
	NB_ASSERT_EQ(sent_all(&w), 0);
	NB_ASSERT_EQ(tc_stats(w.port[0]).drops[NB_DROP_TC_INGRESS], 1);
	NB_ASSERT_EQ(fdb_port(&w, mac_a, NULL), 0);
	check_accounting(&w);
	nb_dev_destroy_all();
}
