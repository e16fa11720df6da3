// SPDX-License-Identifier: GPL-2.0
/* Devices: the registry, state, counters, and receive/transmit through ports. */
#include <errno.h>
#include <arpa/inet.h>

#include "io/port.h"
#include "io/sink.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "test.h"

static struct nb_dev *make_dev(const char *name, u32 ifindex)
{
	struct nb_log log = { 0 };
	struct nb_dev *dev;
	int err = nb_dev_create(name, ifindex, &dev, &log);

	if (err)
		NB_FAIL("create %s: %d %s", name, err, nb_log_text(&log));
	nb_log_free(&log);
	return dev;
}

static struct nb_port *make_port(const char *kind, const char *words)
{
	struct nb_log log = { 0 };
	struct nb_port *port;
	int err = nb_port_open_str(kind, words, &port, &log);

	if (err)
		NB_FAIL("%s %s: %d %s", kind, words, err, nb_log_text(&log));
	nb_log_free(&log);
	return port;
}

NB_TEST(dev_registry)
{
	struct nb_dev *a = make_dev("a0", 0), *b = make_dev("b0", 0), *c = make_dev("c0", 42), *x;
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(a->ifindex, 1);
	NB_ASSERT_EQ(b->ifindex, 2);
	NB_ASSERT_EQ(c->ifindex, 42);
	NB_ASSERT_EQ(a->mtu, NB_DEV_DEFAULT_MTU);
	NB_ASSERT(!a->up);
	NB_ASSERT_EQ(a->addr[0] & 3, 2);	/* locally administered unicast */
	NB_ASSERT(memcmp(a->addr, b->addr, ETH_ALEN) != 0);
	NB_ASSERT_EQ(nb_dev_lookup_index(42), c);
	NB_ASSERT_EQ(nb_dev_lookup_index(7), NULL);
	NB_ASSERT_EQ(nb_dev_lookup_index(0), NULL);
	x = nb_dev_get_by_name("b0");
	NB_ASSERT_EQ(x, b);
	nb_dev_put(x);
	x = nb_dev_get_by_index(1);
	NB_ASSERT_EQ(x, a);
	nb_dev_put(x);
	NB_ASSERT_EQ(nb_dev_get_by_name("zz"), NULL);

	NB_ASSERT_EQ(nb_dev_create("a0", 0, &x, &log), -EEXIST);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "a0");
	NB_ASSERT_EQ(nb_dev_create("d0", 42, &x, &log), -EBUSY);
	NB_ASSERT_EQ(nb_dev_create("bad/name", 0, &x, &log), -EINVAL);
	NB_ASSERT_EQ(nb_dev_create("0123456789abcdef", 0, &x, &log), -EINVAL);
	NB_ASSERT_EQ(nb_dev_create("", 0, &x, &log), -EINVAL);
	NB_ASSERT_EQ(nb_dev_create("e0", 70000, &x, &log), -EINVAL);
	NB_ASSERT(x == NULL);
	nb_log_free(&log);

	/* A reference keeps a destroyed device alive but out of the registry. */
	x = nb_dev_get_by_index(2);
	nb_dev_destroy(b);
	NB_ASSERT_EQ(nb_dev_lookup_index(2), NULL);
	NB_ASSERT_EQ(nb_dev_get_by_name("b0"), NULL);
	NB_ASSERT_EQ(x->ifindex, 2);
	nb_dev_put(x);
	x = make_dev("b0", 0);		/* the name is free again; ifindex goes on */
	NB_ASSERT_EQ(x->ifindex, 3);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_dev_lookup_index(1), NULL);
}

NB_TEST(dev_mtu)
{
	struct nb_dev *dev = make_dev("m0", 0);
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(nb_dev_set_mtu(dev, 65536, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "m0");
	NB_ASSERT_EQ(nb_dev_set_mtu(dev, 67, &log), -EINVAL);
	NB_ASSERT_EQ(nb_dev_set_mtu(dev, 68, &log), 0);
	/* jumbo frames: beyond a page, in fragments */
	NB_ASSERT_EQ(nb_dev_set_mtu(dev, 9000, &log), 0);
	NB_ASSERT_EQ(dev->mtu, 9000);
	NB_ASSERT_EQ(nb_dev_set_mtu(dev, 65535, &log), 0);
	nb_log_free(&log);
	nb_dev_destroy_all();
}

/* A generator device receives; a sink device transmits; the counters add up. */
NB_TEST(dev_rx_tx_counters)
{
	struct nb_dev *in = make_dev("gen0", 0), *out = make_dev("sink0", 0);
	struct nb_pkt *pkts[NB_BURST];
	struct nb_dev_stats_total st;
	struct nb_sink_counts sc;
	unsigned int n, total = 0;

	nb_dev_set_port(in, make_port("gen", "count 100 pkt_size 70"));
	nb_dev_set_port(out, make_port("sink", ""));
	/* Down devices neither receive nor transmit. */
	NB_ASSERT_EQ(nb_dev_rx_burst(in, pkts, NB_BURST), 0);
	nb_dev_set_up(in, true);
	n = nb_dev_rx_burst(in, pkts, NB_BURST);
	NB_ASSERT_EQ(n, NB_BURST);
	NB_ASSERT_EQ(pkts[0]->dev, in);
	NB_ASSERT_EQ(pkts[0]->skb_iif, in->ifindex);
	NB_ASSERT_EQ(pkts[0]->protocol, htons(ETH_P_IP));
	NB_ASSERT_EQ(pkts[0]->qdisc_cb.pkt_len, 70);
	NB_ASSERT_EQ(nb_dev_tx_burst(out, pkts, n), 0);		/* sink0 is down */
	nb_dev_set_up(out, true);
	while ((n = nb_dev_rx_burst(in, pkts, NB_BURST)) > 0) {
		NB_ASSERT_EQ(nb_dev_tx_burst(out, pkts, n), n);
		total += n;
	}
	NB_ASSERT_EQ(total, 100 - NB_BURST);

	nb_dev_stats_read(in, &st);
	NB_ASSERT_EQ(st.rx_packets, 100);
	NB_ASSERT_EQ(st.rx_bytes, 7000);
	NB_ASSERT_EQ(st.tx_packets, 0);
	nb_dev_stats_read(out, &st);
	NB_ASSERT_EQ(st.tx_packets, 100 - NB_BURST);
	NB_ASSERT_EQ(st.tx_bytes, 70 * (100 - NB_BURST));
	NB_ASSERT_EQ(st.drops[NB_DROP_DEV_DOWN], NB_BURST);
	NB_ASSERT_EQ(st.rx_dropped, NB_BURST);
	NB_ASSERT_EQ(nb_sink_counts(out->port, &sc), 0);
	NB_ASSERT_EQ(sc.packets, 100 - NB_BURST);
	NB_ASSERT_EQ(sc.bytes, 70 * (100 - NB_BURST));
	NB_ASSERT_EQ(nb_sink_counts(in->port, &sc), -EINVAL);
	nb_dev_stats_reset(out);
	nb_dev_stats_read(out, &st);
	NB_ASSERT_EQ(st.tx_packets, 0);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A device without a port drops what it should send, counted as a transmit error. */
NB_TEST(dev_tx_without_port)
{
	struct nb_dev *dev = make_dev("np0", 0);
	struct nb_pkt *pkts[2] = { nb_pkt_alloc_data("ab", 2), nb_pkt_alloc_data("cd", 2) };
	struct nb_dev_stats_total st;

	nb_dev_set_up(dev, true);
	NB_ASSERT_EQ(nb_dev_tx_burst(dev, pkts, 2), 0);
	nb_dev_stats_read(dev, &st);
	NB_ASSERT_EQ(st.drops[NB_DROP_TX_ERROR], 2);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	nb_pkt_drop(nb_pkt_alloc(), dev, NB_DROP_TC_INGRESS);
	nb_dev_stats_read(dev, &st);
	NB_ASSERT_EQ(st.drops[NB_DROP_TC_INGRESS], 1);
	NB_ASSERT_EQ(st.rx_dropped, 3);
	NB_ASSERT_STR_CONTAINS(nb_drop_reason_name(NB_DROP_TC_INGRESS), "tc_ingress");
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A frame with an offloaded VLAN tag leaves the port with the tag in its bytes. */
NB_TEST(dev_tx_vlan_in_frame)
{
	u8 f[60] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };
	struct nb_dev *dev = make_dev("tag0", 0);
	struct nb_pkt *pkt = nb_pkt_alloc_data(f, sizeof(f)), *kept;
	struct nb_dev_stats_total st;

	nb_dev_set_port(dev, make_port("sink", "keep 1"));
	nb_dev_set_up(dev, true);
	nb_eth_type_trans(pkt, dev);
	pkt->vlan_present = 1;
	pkt->vlan_proto = htons(ETH_P_8021Q);
	pkt->vlan_tci = 42;
	NB_ASSERT_EQ(nb_dev_tx_burst(dev, &pkt, 1), 1);
	kept = nb_sink_take(dev->port);
	NB_ASSERT(kept);
	NB_ASSERT_EQ(kept->len, 64);
	NB_ASSERT_MEM_EQ(kept->data + 12, "\x81\x00\x00\x2a\x08\x00", 6);
	nb_dev_stats_read(dev, &st);
	NB_ASSERT_EQ(st.tx_bytes, 64);
	nb_pkt_free(kept);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
