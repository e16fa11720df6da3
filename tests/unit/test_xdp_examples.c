// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP examples loaded from their objects (ELF loader, verifier) and run on the datapath
 * through the worker's poll: a generator device, its XDP program and the devices it sends to.
 * tests/kernel/test_xdp_kernel.c checks the same programs against the kernel frame by frame;
 * here the redirects really happen.
 */
#include <arpa/inet.h>

#include <netbpf/object.h>
#include <netbpf/percpu.h>

#include "net/worker.h"
#include "xdp_test.h"

#define FRAMES 100

static struct nb_object *example(const char *file)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts oopts = { .sz = sizeof(oopts), .log = &log };
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts), .log = &log };
	struct nb_object *obj;
	char rel[256], buf[4096];
	int err;

	snprintf(rel, sizeof(rel), "examples/%s", file);
	err = nb_object_open_file(nb_test_build_path(buf, sizeof(buf), rel), &oopts, &obj);
	if (!err)
		err = nb_object_load(obj, &lopts);
	if (err)
		NB_FAIL("%s: %d %s", file, err, nb_log_text(&log));
	nb_log_free(&log);
	return obj;
}

static struct nb_prog *example_prog(struct nb_object *obj, const char *name)
{
	struct nb_object_prog *p = nb_object_find_prog(obj, NULL, name);

	NB_ASSERT(p && nb_object_prog_prog(p));
	return nb_prog_get(nb_object_prog_prog(p));
}

static struct nb_map *example_map(struct nb_object *obj, const char *name)
{
	struct nb_object_map *m = nb_object_find_map(obj, name);

	NB_ASSERT(m && nb_object_map_map(m));
	return nb_object_map_map(m);
}

/* A fresh generator port for dev (the old port is closed). */
static void set_gen(struct nb_dev *dev, const char *words)
{
	struct nb_log log = { 0 };
	struct nb_port *port;
	int err = nb_port_open_str("gen", words, &port, &log);

	if (err)
		NB_FAIL("gen: %d %s", err, nb_log_text(&log));
	nb_log_free(&log);
	nb_dev_set_port(dev, port);
}

static struct nb_dev *gen_dev(const char *name, const char *words)
{
	struct nb_dev *dev = xt_dev(name, NULL);

	set_gen(dev, words);
	return dev;
}

static void poll_all(struct nb_dev **devs, unsigned int n)
{
	nb_worker_run(devs, n, NULL);
}

/* xdp_redirect_map: the entry at the receiving ifindex names the device to send to. */
NB_TEST(xdp_example_redirect_map)
{
	struct nb_object *obj = example("xdp_redirect_map.o");
	struct nb_dev *rx = gen_dev("gen0", "count 100"), *out = xt_dev("out0", "keep 100");
	struct nb_dev *other = gen_dev("gen1", "count 10");
	struct bpf_devmap_val val = { .ifindex = out->ifindex };
	struct nb_dev *devs[] = { rx, other, out };
	struct nb_dev_stats_total t;

	NB_ASSERT_EQ(nb_map_update_elem(example_map(obj, "tx_port"), &rx->ifindex, &val, 0), 0);
	xt_attach(rx, example_prog(obj, "xdp_redirect_map"));
	xt_attach(other, example_prog(obj, "xdp_redirect_map"));
	poll_all(devs, ARRAY_SIZE(devs));
	NB_ASSERT_EQ(xt_sink_packets(out), FRAMES);
	NB_ASSERT_EQ(xt_stats(out).flush_sizes[NB_XDP_BULK_SIZE], 6);	/* 3 full polls */
	/* gen1 has no entry: XDP_PASS, the frames go up the stack */
	NB_ASSERT_EQ(xt_stats(other).pass, 10);
	nb_dev_stats_read(other, &t);
	NB_ASSERT_EQ(t.tx_packets, 0);
	nb_object_close(obj);
	xt_teardown();
}

/* xdp_broadcast: every flood port but the ingress one gets a copy. */
NB_TEST(xdp_example_broadcast)
{
	struct nb_object *obj = example("xdp_broadcast.o");
	struct nb_dev *a = gen_dev("a0", "count 100"), *b = xt_dev("b0", "keep 100");
	struct nb_dev *c = xt_dev("c0", "keep 100");
	struct nb_map *ports = example_map(obj, "flood_ports");
	struct nb_dev *devs[] = { a, b, c };
	struct nb_dev_stats_total t;

	for (unsigned int i = 0; i < ARRAY_SIZE(devs); i++)
		NB_ASSERT_EQ(nb_map_update_elem(ports, &devs[i]->ifindex, &devs[i]->ifindex, 0), 0);
	xt_attach(a, example_prog(obj, "xdp_broadcast"));
	poll_all(devs, ARRAY_SIZE(devs));
	NB_ASSERT_EQ(xt_sink_packets(b), FRAMES);
	NB_ASSERT_EQ(xt_sink_packets(c), FRAMES);
	nb_dev_stats_read(a, &t);
	NB_ASSERT_EQ(t.tx_packets, 0);		/* the ingress device is excluded */
	nb_object_close(obj);
	xt_teardown();
}

/* xdp_devmap_smac: the devmap entry's program writes the egress device's MAC at flush time. */
NB_TEST(xdp_example_devmap_smac)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct nb_object *obj = example("xdp_devmap_smac.o");
	struct nb_dev *rx = gen_dev("gen0", "count 20"), *out = xt_dev("out0", "keep 20");
	struct nb_prog *egress = example_prog(obj, "xdp_devmap_smac");
	struct bpf_devmap_val val = { .ifindex = out->ifindex,
				      .bpf_prog.fd = (int)nb_prog_id(egress) };
	struct nb_dev *devs[] = { rx, out };
	struct nb_pkt *pkt, *next;
	u32 key = 0, n = 0;

	NB_ASSERT_EQ(nb_map_update_elem(example_map(obj, "out_ports"), &key, &val, 0), 0);
	NB_ASSERT_EQ(nb_map_update_elem(example_map(obj, "egress_macs"), &out->ifindex, mac, 0),
		     0);
	xt_attach(rx, example_prog(obj, "xdp_to_port0"));
	poll_all(devs, ARRAY_SIZE(devs));
	for (pkt = nb_sink_take(out->port); pkt; pkt = next, n++) {
		next = pkt->next;
		NB_ASSERT_MEM_EQ(pkt->data + ETH_ALEN, mac, ETH_ALEN);
		nb_pkt_free(pkt);
	}
	NB_ASSERT_EQ(n, 20);
	/* without a MAC for the device the egress program drops */
	NB_ASSERT_EQ(nb_map_delete_elem(example_map(obj, "egress_macs"), &out->ifindex), 0);
	set_gen(rx, "count 5");
	poll_all(devs, ARRAY_SIZE(devs));
	NB_ASSERT_EQ(xt_sink_packets(out), 20);
	NB_ASSERT_EQ(xt_stats(out).xmit_prog_drops, 5);
	nb_prog_put(egress);
	nb_object_close(obj);
	xt_teardown();
}

/* xdp_swap_mac_tx and xdp_ipip_encap send frames back out of the receiving device. */
NB_TEST(xdp_example_tx)
{
	struct nb_object *swap = example("xdp_swap_mac_tx.o"), *ipip = example("xdp_ipip_encap.o");
	struct nb_dev *rx = gen_dev("gen0", "count 40 pkt_size 64");
	struct nb_dev *devs[] = { rx };
	struct nb_dev_stats_total t;

	xt_attach(rx, example_prog(swap, "xdp_swap_mac_tx"));
	poll_all(devs, 1);
	nb_dev_stats_read(rx, &t);
	NB_ASSERT_EQ(t.tx_packets, 40);
	NB_ASSERT_EQ(t.tx_bytes, 40 * 64);
	NB_ASSERT_EQ(xt_stats(rx).tx, 40);
	nb_dev_stats_reset(rx);
	set_gen(rx, "count 40 pkt_size 64");
	xt_attach(rx, example_prog(ipip, "xdp_ipip_encap"));
	poll_all(devs, 1);
	nb_dev_stats_read(rx, &t);
	NB_ASSERT_EQ(t.tx_packets, 40);
	NB_ASSERT_EQ(t.tx_bytes, 40 * (64 + 20));	/* an outer IPv4 header each */
	nb_object_close(swap);
	nb_object_close(ipip);
	xt_teardown();
}

/* xdp_drop_proto: every frame dropped and counted under its IP protocol. */
NB_TEST(xdp_example_drop_proto)
{
	struct nb_object *obj = example("xdp_drop_proto.o");
	struct nb_dev *rx = gen_dev("gen0", "count 64 proto tcp");
	struct nb_dev *devs[] = { rx };
	u64 vals[NB_MAX_CPUS] = { 0 }, sum = 0;
	u32 key = IPPROTO_TCP;

	xt_attach(rx, example_prog(obj, "xdp_drop_proto"));
	poll_all(devs, 1);
	NB_ASSERT_EQ(nb_map_lookup_elem(example_map(obj, "proto_count"), &key, vals), 0);
	for (unsigned int i = 0; i < nb_nr_cpus(); i++)
		sum += vals[i];
	NB_ASSERT_EQ(sum, 64);
	NB_ASSERT_EQ(xt_stats(rx).drop, 64);
	nb_object_close(obj);
	xt_teardown();
}
