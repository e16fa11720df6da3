// SPDX-License-Identifier: GPL-2.0
/*
 * The done-when, through the worker's poll loop: a generator device, its XDP program
 * redirecting (bpf_redirect_map through a devmap, or bpf_redirect), a second device (or the
 * same one) and a sink that must see every frame, in order, with bulking on and off; the
 * bulk-queue counters show 16-frame transmits for full bursts.
 */
#include <arpa/inet.h>

#include "net/worker.h"
#include "xdp_test.h"

#define E2E_FRAMES 1000

static struct nb_dev *gen_dev(const char *name)
{
	struct nb_log log = { 0 };
	struct nb_port *port;
	struct nb_dev *dev = xt_dev(name, NULL);
	int err = nb_port_open_str("gen", "count 1000 pkt_size 64", &port, &log);

	if (err)
		NB_FAIL("gen: %d %s", err, nb_log_text(&log));
	nb_log_free(&log);
	nb_dev_set_port(dev, port);
	return dev;
}

/* The kept frames carry the generator's pktgen sequence numbers 0, 1, 2, ... */
static void expect_sequence(struct nb_dev *sink_dev, u32 n)
{
	struct nb_pkt *pkt = nb_sink_take(sink_dev->port), *next;
	u32 i = 0, magic, seq;

	for (; pkt; pkt = next, i++) {
		next = pkt->next;
		memcpy(&magic, pkt->data + 42, 4);
		memcpy(&seq, pkt->data + 46, 4);
		NB_ASSERT_EQ(ntohl(magic), 0xbe9be955);
		NB_ASSERT_EQ(ntohl(seq), i);
		nb_pkt_free(pkt);
	}
	NB_ASSERT_EQ(i, n);
}

static void check_counters(struct nb_dev *tx, bool bulk)
{
	struct nb_xdp_stats st = xt_stats(tx);
	struct nb_dev_stats_total t;

	nb_dev_stats_read(tx, &t);
	NB_ASSERT_EQ(t.tx_packets, E2E_FRAMES);
	NB_ASSERT_EQ(st.xmit_sent, E2E_FRAMES);
	NB_ASSERT_EQ(st.xmit_drops, 0);
	if (bulk) {
		/* 31 polls of 32 frames: two 16-frame transmits each; then 8 frames */
		NB_ASSERT_EQ(st.flush_sizes[NB_XDP_BULK_SIZE], 62);
		NB_ASSERT_EQ(st.flush_sizes[8], 1);
	} else {
		NB_ASSERT_EQ(st.flush_sizes[1], E2E_FRAMES);
	}
}

static void e2e_redirect_map(bool bulk)
{
	struct nb_dev *rx = gen_dev("gen0"), *tx = xt_dev("out0", "keep 1000");
	struct nb_map_create_opts opts = { .sz = sizeof(opts) };
	struct bpf_devmap_val val = { .ifindex = tx->ifindex };
	struct nb_dev *devs[] = { rx, tx };
	struct nb_map *map;
	u32 key = 0;

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_DEVMAP, 4, sizeof(val), 4, &opts, &map), 0);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, &val, BPF_ANY), 0);
	NB_ASSERT_EQ(nb_dev_xdp_set_bulk(tx, bulk), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 0, 0));
	nb_worker_run(devs, ARRAY_SIZE(devs), NULL);
	NB_ASSERT_EQ(xt_sink_packets(tx), E2E_FRAMES);
	expect_sequence(tx, E2E_FRAMES);
	check_counters(tx, bulk);
	NB_ASSERT_EQ(xt_stats(rx).redirect, E2E_FRAMES);
	nb_map_put(map);
	xt_teardown();
}

NB_TEST(xdp_e2e_redirect_map_bulk)
{
	e2e_redirect_map(true);
}

NB_TEST(xdp_e2e_redirect_map_nobulk)
{
	e2e_redirect_map(false);
}

/*
 * bpf_redirect back out of the receiving device: the generator's port is its transmit side too
 * (it counts and frees what it is sent), so the device's tx counters see every frame.
 */
static void e2e_redirect_same(bool bulk)
{
	struct nb_dev *dev = gen_dev("gen0");
	struct nb_dev *devs[] = { dev };

	NB_ASSERT_EQ(nb_dev_xdp_set_bulk(dev, bulk), 0);
	xt_attach(dev, xt_prog_redirect(dev->ifindex, 0));
	nb_worker_run(devs, 1, NULL);
	check_counters(dev, bulk);
	NB_ASSERT_EQ(xt_stats(dev).redirect, E2E_FRAMES);
	xt_teardown();
}

NB_TEST(xdp_e2e_redirect_same_device_bulk)
{
	e2e_redirect_same(true);
}

NB_TEST(xdp_e2e_redirect_same_device_nobulk)
{
	e2e_redirect_same(false);
}
