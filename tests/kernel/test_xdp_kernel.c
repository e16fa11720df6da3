// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP examples against the running kernel: each object is loaded by libbpf into the kernel
 * and by netbpf's loader, the same maps are filled on both sides, the same frame runs through
 * the same program (BPF_PROG_TEST_RUN there, the XDP program on an XDP buffer here), and the
 * verdict, the bytes out (from data_meta, as the kernel returns them) and the named map
 * contents must agree. The kernel's verdict is also checked against what the example promises.
 */
#include <errno.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/percpu.h>

#include "bpf_asm.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/xdp.h"
#include "test.h"
#include "kernel_probe.h"

enum xk_packet { PKT_UDP, PKT_ARP, PKT_SHORT };
/*
 * Devmap programs (xdp_devmap_smac) are not here: BPF_PROG_TEST_RUN refuses programs with
 * expected attach type BPF_XDP_DEVMAP, so tests/unit/test_xdp_devmap.c covers them alone.
 */
enum xk_setup { SETUP_NONE, SETUP_TX_PORT, SETUP_FLOOD };

struct xk_case {
	const char *name;
	const char *object;
	const char *prog;
	enum xk_packet pkt;
	enum xk_setup setup;
	u32 retval;
	const char *percpu_map;		/* a per-CPU u64 array compared by sum, or NULL */
	u32 percpu_key;
};

static const struct xk_case cases[] = {
	{ "xdp_kernel_drop_proto_udp", "xdp_drop_proto.o", "xdp_drop_proto", PKT_UDP, SETUP_NONE,
	  XDP_DROP, "proto_count", IPPROTO_UDP },
	{ "xdp_kernel_drop_proto_arp", "xdp_drop_proto.o", "xdp_drop_proto", PKT_ARP, SETUP_NONE,
	  XDP_DROP, "proto_count", 0 },
	{ "xdp_kernel_swap_mac_tx", "xdp_swap_mac_tx.o", "xdp_swap_mac_tx", PKT_UDP, SETUP_NONE,
	  XDP_TX, NULL, 0 },
	{ "xdp_kernel_drop_proto_short", "xdp_drop_proto.o", "xdp_drop_proto", PKT_SHORT,
	  SETUP_NONE, XDP_DROP, "proto_count", 0 },
	{ "xdp_kernel_redirect_ifindex", "xdp_redirect_ifindex.o", "xdp_redirect_ifindex",
	  PKT_UDP, SETUP_NONE, XDP_REDIRECT, NULL, 0 },
	{ "xdp_kernel_redirect_map_hit", "xdp_redirect_map.o", "xdp_redirect_map", PKT_UDP,
	  SETUP_TX_PORT, XDP_REDIRECT, NULL, 0 },
	{ "xdp_kernel_redirect_map_miss", "xdp_redirect_map.o", "xdp_redirect_map", PKT_UDP,
	  SETUP_NONE, XDP_PASS, NULL, 0 },
	{ "xdp_kernel_broadcast", "xdp_broadcast.o", "xdp_broadcast", PKT_UDP, SETUP_FLOOD,
	  XDP_REDIRECT, NULL, 0 },
	{ "xdp_kernel_devmap_feed", "xdp_devmap_smac.o", "xdp_to_port0", PKT_UDP, SETUP_NONE,
	  XDP_ABORTED, NULL, 0 },
	{ "xdp_kernel_ipip_encap", "xdp_ipip_encap.o", "xdp_ipip_encap", PKT_UDP, SETUP_NONE,
	  XDP_TX, NULL, 0 },
	{ "xdp_kernel_ipip_pass", "xdp_ipip_encap.o", "xdp_ipip_encap", PKT_ARP, SETUP_NONE,
	  XDP_PASS, NULL, 0 },
	{ "xdp_kernel_ipip_short", "xdp_ipip_encap.o", "xdp_ipip_encap", PKT_SHORT, SETUP_NONE,
	  XDP_PASS, NULL, 0 },
	{ "xdp_kernel_meta_tag", "xdp_meta_mark.o", "xdp_meta_tag", PKT_UDP, SETUP_NONE,
	  XDP_PASS, NULL, 0 },
};

/* The loopback device is the one ifindex every kernel has: the frames "arrive" on it. */
#define XK_IFINDEX 1

static u32 make_packet(enum xk_packet kind, u8 *buf)
{
	static const u8 dst[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x0b };
	static const u8 src[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x0a };
	struct ethhdr eth = { 0 };
	struct iphdr ip = { 0 };
	struct udphdr udp = { 0 };
	u16 words[sizeof(ip) / 2];
	u32 sum = 0;

	memset(buf, 0, 128);
	memcpy(eth.h_dest, dst, ETH_ALEN);
	memcpy(eth.h_source, src, ETH_ALEN);
	switch (kind) {
	case PKT_SHORT:
		/* an IPv4 ethertype and no IPv4 header: the shortest frame the kernel runs */
		eth.h_proto = htons(ETH_P_IP);
		memcpy(buf, &eth, sizeof(eth));
		return ETH_HLEN;
	case PKT_ARP:
		eth.h_proto = htons(ETH_P_ARP);
		memcpy(buf, &eth, sizeof(eth));
		return 60;
	case PKT_UDP:
		break;
	}
	eth.h_proto = htons(ETH_P_IP);
	ip.version = 4;
	ip.ihl = 5;
	ip.tot_len = htons(64 - ETH_HLEN);
	ip.ttl = 64;
	ip.protocol = IPPROTO_UDP;
	ip.saddr = htonl(0xc0a80001);
	ip.daddr = htonl(0xc0a80002);
	memcpy(words, &ip, sizeof(ip));
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		sum += words[i];
	sum = (sum & 0xffff) + (sum >> 16);
	ip.check = (u16)~((sum & 0xffff) + (sum >> 16));
	udp.source = htons(1000);
	udp.dest = htons(2000);
	udp.len = htons(64 - ETH_HLEN - sizeof(ip));
	memcpy(buf, &eth, sizeof(eth));
	memcpy(buf + ETH_HLEN, &ip, sizeof(ip));
	memcpy(buf + ETH_HLEN + sizeof(ip), &udp, sizeof(udp));
	for (int i = 42; i < 64; i++)
		buf[i] = (u8)i;
	return 64;
}

static const char *object_path(const char *object)
{
	static char buf[4096];
	char rel[256];

	snprintf(rel, sizeof(rel), "examples/%s", object);
	return nb_test_build_path(buf, sizeof(buf), rel);
}

/* What one side produced. */
struct xk_result {
	u32 retval;
	u8 data[512];
	u32 len;
	u64 percpu_sum;
};

/* Map setup of a case, written once for both sides through an update callback. */
typedef void (*xk_update_fn)(void *side, const char *map, u32 key, const void *val);

static void apply_setup(enum xk_setup setup, xk_update_fn update, void *side)
{
	struct bpf_devmap_val dv = { .ifindex = XK_IFINDEX };
	u32 ifindex = XK_IFINDEX;

	switch (setup) {
	case SETUP_TX_PORT:
		update(side, "tx_port", XK_IFINDEX, &dv);
		break;
	case SETUP_FLOOD:
		update(side, "flood_ports", XK_IFINDEX, &ifindex);
		break;
	case SETUP_NONE:
		break;
	}
}

static void kernel_update(void *side, const char *name, u32 key, const void *val)
{
	struct bpf_map *map = bpf_object__find_map_by_name(side, name);

	NB_ASSERT(map);
	if (bpf_map_update_elem(bpf_map__fd(map), &key, val, BPF_ANY))
		NB_FAIL("kernel update %s[%u]: %s", name, key, strerror(errno));
}

static void run_kernel(const struct xk_case *c, const u8 *pkt, u32 len, struct xk_result *r)
{
	struct bpf_object *obj = bpf_object__open_file(object_path(c->object), NULL);
	struct xdp_md ctx_in = { .data_end = len, .ingress_ifindex = XK_IFINDEX };
	struct bpf_program *prog;
	int err;

	if (!obj)
		NB_FAIL("libbpf open %s: %s", c->object, strerror(errno));
	err = bpf_object__load(obj);
	if (err)
		NB_FAIL("libbpf load %s: %d", c->object, err);
	prog = bpf_object__find_program_by_name(obj, c->prog);
	NB_ASSERT(prog);
	apply_setup(c->setup, kernel_update, obj);
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = len,
		    .data_out = r->data, .data_size_out = sizeof(r->data), .ctx_in = &ctx_in,
		    .ctx_size_in = sizeof(ctx_in), .repeat = 1);
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err)
		NB_FAIL("BPF_PROG_TEST_RUN %s: %s", c->prog, strerror(errno));
	r->retval = opts.retval;
	r->len = opts.data_size_out;
	if (c->percpu_map) {
		int ncpu = libbpf_num_possible_cpus();
		u64 vals[ncpu];
		struct bpf_map *m = bpf_object__find_map_by_name(obj, c->percpu_map);

		NB_ASSERT(m && ncpu > 0);
		NB_ASSERT_EQ(bpf_map_lookup_elem(bpf_map__fd(m), &c->percpu_key, vals), 0);
		for (int i = 0; i < ncpu; i++)
			r->percpu_sum += vals[i];
	}
	bpf_object__close(obj);
}

static void netbpf_update(void *side, const char *name, u32 key, const void *val)
{
	struct nb_object_map *m = nb_object_find_map(side, name);
	int err;

	NB_ASSERT(m && nb_object_map_map(m));
	err = nb_map_update_elem(nb_object_map_map(m), &key, val, BPF_ANY);
	if (err)
		NB_FAIL("netbpf update %s[%u]: %d", name, key, err);
}

/* false: netbpf cannot load verified programs yet (the reason in *why). */
static bool run_netbpf(const struct xk_case *c, const u8 *data, u32 len, struct xk_result *r,
		       u32 kernel_retval, char *why, size_t why_size)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts oopts = { .sz = sizeof(oopts), .log = &log };
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts), .log = &log };
	struct nb_xdp_rxq_info rxq = { .ifindex = XK_IFINDEX };
	struct nb_xdp_txq_info txq = { .ifindex = 0 };
	struct nb_object_prog *p;
	struct nb_xdp_buff xdp;
	struct nb_object *obj;
	struct nb_dev *dev;
	struct nb_pkt *pkt;
	int err;

	err = nb_dev_create("lo", XK_IFINDEX, &dev, &log);
	if (err)
		NB_FAIL("netbpf device: %d %s", err, nb_log_text(&log));
	nb_dev_set_up(dev, true);
	rxq.dev = dev;
	err = nb_object_open_file(object_path(c->object), &oopts, &obj);
	if (err)
		NB_FAIL("netbpf open %s: %d %s", c->object, err, nb_log_text(&log));
	err = nb_object_load(obj, &lopts);
	if (err) {
		const char *text = nb_log_text(&log) ? nb_log_text(&log) : "";

		if (!strstr(text, "verifier is not built"))
			NB_FAIL("netbpf load %s: %d %s", c->object, err, text);
		snprintf(why, why_size, "netbpf verifier not built yet (kernel verdict %u "
			 "checked)", kernel_retval);
		nb_object_close(obj);
		nb_log_free(&log);
		nb_dev_destroy(dev);
		return false;
	}
	apply_setup(c->setup, netbpf_update, obj);
	p = nb_object_find_prog(obj, NULL, c->prog);
	NB_ASSERT(p && nb_object_prog_prog(p));
	pkt = nb_pkt_alloc_data(data, len);
	NB_ASSERT(pkt);
	pkt->dev = dev;
	nb_pkt_to_xdp(pkt, &xdp, &rxq);
	if (nb_object_prog_expected_attach_type(p) == BPF_XDP_DEVMAP)
		xdp.txq = &txq;
	r->retval = nb_xdp_prog_run(nb_object_prog_prog(p), &xdp);
	r->len = (u32)(xdp.data_end - xdp.data_meta);
	memcpy(r->data, xdp.data_meta, r->len);
	nb_pkt_free(pkt);
	if (c->percpu_map) {
		struct nb_object_map *m = nb_object_find_map(obj, c->percpu_map);
		u64 vals[NB_MAX_CPUS];

		NB_ASSERT(m);
		NB_ASSERT_EQ(nb_map_lookup_elem(nb_object_map_map(m), &c->percpu_key, vals), 0);
		for (unsigned int i = 0; i < nb_nr_cpus(); i++)
			r->percpu_sum += vals[i];
	}
	nb_object_close(obj);
	nb_log_free(&log);
	nb_dev_destroy(dev);
	return true;
}

static void xdp_kernel_case(const void *arg)
{
	const struct xk_case *c = arg;
	struct xk_result k = { 0 }, n = { 0 };
	u8 pkt[128];
	u32 len = make_packet(c->pkt, pkt);
	char why[256];

	need_kernel_prog(BPF_PROG_TYPE_XDP);
	run_kernel(c, pkt, len, &k);
	NB_ASSERT_EQ(k.retval, c->retval);
	if (c->percpu_map)
		NB_ASSERT_EQ(k.percpu_sum, 1);
	if (!run_netbpf(c, pkt, len, &n, k.retval, why, sizeof(why)))
		nb_test_skip("%s", why);
	NB_ASSERT_EQ(n.retval, k.retval);
	NB_ASSERT_EQ(n.len, k.len);
	NB_ASSERT_MEM_EQ(n.data, k.data, k.len);
	NB_ASSERT_EQ(n.percpu_sum, k.percpu_sum);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static void __attribute__((constructor)) register_xdp_kernel_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		nb_test_register(cases[i].name, xdp_kernel_case, &cases[i]);
}
