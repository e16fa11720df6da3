// SPDX-License-Identifier: GPL-2.0
/*
 * Routing on the datapath: routers made of bpf_fib_lookup forward between three devices that
 * got their addresses, routes, neighbours and forwarding switches from script lines, and every
 * frame that leaves is checked byte for byte against the frame that came in (MACs from the
 * neighbour table, TTL or hop limit minus one, IPv4 checksum right):
 *   - examples/xdp_router.o: XDP, bpf_fib_lookup + bpf_redirect_map through a devmap;
 *   - the kernel's own samples/bpf xdp_fwd_kern.o, both its programs (from the corpus);
 *   - examples/tc_router.o: tc, bpf_fib_lookup(SKIP_NEIGH) + bpf_redirect_neigh, with and
 *     without a nexthop, and a next hop without a neighbour entry dropped and counted.
 */
#include <stdlib.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>

#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/percpu.h>
#include <netbpf/tc.h>

#include "ctl/ctl.h"
#include "net/core.h"
#include "xdp_test.h"

static const char *const setup =
	"link add in0 type sink\n"
	"link add out1 type sink keep 64\n"
	"link add out2 type sink keep 64\n"
	"sysctl -w -q net.ipv4.conf.in0.forwarding=1 net.ipv6.conf.in0.forwarding=1\n"
	"ip addr add 10.1.0.1/24 dev in0\n"
	"ip addr add 10.2.0.1/24 dev out1\n"
	"ip addr add 10.3.0.1/24 dev out2\n"
	"ip -6 addr add 2001:db8:1::1/64 dev in0\n"
	"ip -6 addr add 2001:db8:2::1/64 dev out1\n"
	"ip -6 addr add 2001:db8:3::1/64 dev out2\n"
	"ip neigh add 10.2.0.2 lladdr 02:00:00:00:02:02 dev out1\n"
	"ip neigh add 10.3.0.2 lladdr 02:00:00:00:03:02 dev out2 nud stale\n"
	"ip -6 neigh add 2001:db8:2::2 lladdr 02:00:00:00:02:22 dev out1\n"
	"ip route add 10.20.0.0/16 via 10.2.0.2\n"
	"ip route add 10.30.0.0/16 via 10.3.0.2\n"
	"ip route add 10.31.0.0/16 via 10.3.0.9\n"
	"ip route add blackhole 10.40.0.0/16\n"
	"ip -6 route add 2001:db8:20::/48 via 2001:db8:2::2\n";

static void run_script(const char *text)
{
	struct nb_ctl ctl = { .out = stdout };

	if (nb_ctl_script_run(&ctl, "routing.tc", text, NULL, 0))
		NB_FAIL("%s", nb_log_text(&ctl.log));
	nb_log_free(&ctl.log);
}

static struct nb_dev *dev_named(const char *name)
{
	struct nb_dev *dev = nb_dev_get_by_name(name);

	NB_ASSERT(dev);
	nb_dev_put(dev);	/* the registry keeps it */
	return dev;
}

static u16 ip_csum(const u8 *p, u32 len)
{
	u32 sum = 0;

	for (u32 i = 0; i < len; i += 2)
		sum += (u32)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

/* An IPv4 UDP frame to dst (a.b.c.d) with ttl: 64 bytes, the IPv4 checksum right. */
static u32 frame4(u8 *f, const char *dst, u8 ttl)
{
	struct iphdr hdr = { 0 }, *ip = &hdr;	/* aligned, copied into f at the end */
	u16 c;

	memset(f, 0, 64);
	memcpy(f, "\x02\x00\x00\x00\x01\x01\x02\x00\x00\x00\x01\xee\x08\x00", ETH_HLEN);
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons(50);
	ip->ttl = ttl;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = inet_addr("10.1.0.9");
	ip->daddr = inet_addr(dst);
	c = ip_csum((u8 *)ip, 20);
	ip->check = htons(c);
	memcpy(f + ETH_HLEN, ip, sizeof(*ip));
	for (int i = 34; i < 64; i++)
		f[i] = (u8)i;
	return 64;
}

static u32 frame6(u8 *f, const char *dst, u8 hop)
{
	struct ipv6hdr hdr6 = { 0 }, *ip6 = &hdr6;	/* aligned, copied into f at the end */

	memset(f, 0, 80);
	memcpy(f, "\x02\x00\x00\x00\x01\x01\x02\x00\x00\x00\x01\xee\x86\xdd", ETH_HLEN);
	ip6->version = 6;
	ip6->payload_len = htons(26);
	ip6->nexthdr = IPPROTO_UDP;
	ip6->hop_limit = hop;
	NB_ASSERT_EQ(inet_pton(AF_INET6, "2001:db8:1::9", &ip6->saddr), 1);
	NB_ASSERT_EQ(inet_pton(AF_INET6, dst, &ip6->daddr), 1);
	memcpy(f + ETH_HLEN, ip6, sizeof(*ip6));
	for (int i = 54; i < 80; i++)
		f[i] = (u8)i;
	return 80;
}

/* What a router makes of frame f: the new MACs, TTL or hop limit one less, checksum anew. */
static void forwarded(u8 *want, const u8 *f, u32 len, const char *dmac, const u8 *smac)
{
	memcpy(want, f, len);
	memcpy(want, dmac, ETH_ALEN);
	memcpy(want + ETH_ALEN, smac, ETH_ALEN);
	if (want[12] == 0x08) {
		want[ETH_HLEN + 8]--;
		want[ETH_HLEN + 10] = want[ETH_HLEN + 11] = 0;
		u16 c = ip_csum(want + ETH_HLEN, 20);

		want[ETH_HLEN + 10] = (u8)(c >> 8);
		want[ETH_HLEN + 11] = (u8)c;
	} else {
		want[ETH_HLEN + 7]--;
	}
}

/* The sink must hold exactly the expected frames, in order. */
static void expect_frames(struct nb_dev *dev, u8 (*want)[96], const u32 *lens, unsigned int n)
{
	struct nb_pkt *pkt = nb_sink_take(dev->port), *next;
	unsigned int i = 0;

	for (; pkt; pkt = next, i++) {
		next = pkt->next;
		NB_ASSERT(i < n);
		NB_ASSERT_EQ(pkt->len, lens[i]);
		if (memcmp(pkt->data, want[i], lens[i])) {
			for (u32 b = 0; b < lens[i]; b++)
				if (pkt->data[b] != want[i][b])
					fprintf(stderr, "%s frame %u byte %u: %02x, not %02x\n",
						dev->name, i, b, pkt->data[b], want[i][b]);
			NB_FAIL("%s: frame %u is not what the router should make", dev->name, i);
		}
		nb_pkt_free(pkt);
	}
	NB_ASSERT_EQ(i, n);
}

static struct nb_object *load_obj(const char *path, enum bpf_prog_type type)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts oopts = { .sz = sizeof(oopts), .log = &log };
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts), .log = &log, .prog_type = type };
	struct nb_object *obj;
	int err = nb_object_open_file(path, &oopts, &obj);

	if (!err)
		err = nb_object_load(obj, &lopts);
	if (err)
		NB_FAIL("%s: %d %s", path, err, nb_log_text(&log));
	nb_log_free(&log);
	return obj;
}

/* Frames received on in0, through its XDP hook, then the flush. */
static void xdp_receive(struct nb_dev *in, u8 (*frames)[96], const u32 *lens, unsigned int n)
{
	struct nb_pkt *pkts[16];
	unsigned int passed;

	for (unsigned int i = 0; i < n; i++) {
		pkts[i] = nb_pkt_alloc_data(frames[i], lens[i]);
		NB_ASSERT(pkts[i]);
		pkts[i]->dev = in;
		pkts[i]->skb_iif = in->ifindex;
		nb_eth_type_trans(pkts[i], in);
	}
	passed = nb_xdp_rx_burst(in, pkts, n);
	xt_free(pkts, passed);
	nb_xdp_do_flush();
}

/*
 * One XDP router program (devmap tx_map keyed by ifindex, entries of value size vsize) over
 * the world of setup: the frames to out1, out2, the blackhole, nowhere and with TTL 1.
 */
static void xdp_router_world(struct nb_object *obj, const char *prog, const char *tx_map,
			     bool drops_rejected)
{
	struct nb_dev *in = dev_named("in0"), *out1 = dev_named("out1"), *out2 = dev_named("out2");
	struct nb_map *tx = nb_object_map_map(nb_object_find_map(obj, tx_map));
	struct nb_object_prog *p = nb_object_find_prog(obj, NULL, prog);
	u8 in_frames[8][96], want1[8][96], want2[8][96];
	u32 lens[8], lens1[8], lens2[8];
	unsigned int n = 0, n1 = 0, n2 = 0;
	struct nb_xdp_stats st;

	NB_ASSERT(tx && p);
	for (int o = 0; o < 2; o++) {
		u32 ifindex = o ? out2->ifindex : out1->ifindex;
		struct bpf_devmap_val val = { .ifindex = ifindex };

		NB_ASSERT_EQ(nb_map_update_elem(tx, &ifindex, &val, 0), 0);
	}
	xt_attach(in, nb_prog_get(nb_object_prog_prog(p)));

	lens[n] = frame4(in_frames[n], "10.20.1.1", 64);	/* via 10.2.0.2 on out1 */
	forwarded(want1[n1], in_frames[n], lens[n], "\x02\x00\x00\x00\x02\x02", out1->addr);
	lens1[n1++] = lens[n++];
	lens[n] = frame4(in_frames[n], "10.30.7.7", 2);		/* via a stale neighbour */
	forwarded(want2[n2], in_frames[n], lens[n], "\x02\x00\x00\x00\x03\x02", out2->addr);
	lens2[n2++] = lens[n++];
	lens[n] = frame6(in_frames[n], "2001:db8:20::5", 64);
	forwarded(want1[n1], in_frames[n], lens[n], "\x02\x00\x00\x00\x02\x22", out1->addr);
	lens1[n1++] = lens[n++];
	lens[n] = frame4(in_frames[n], "10.2.0.2", 9);		/* on out1's link */
	forwarded(want1[n1], in_frames[n], lens[n], "\x02\x00\x00\x00\x02\x02", out1->addr);
	lens1[n1++] = lens[n++];
	lens[n] = frame4(in_frames[n], "10.40.0.1", 64);	/* blackhole: dropped */
	n++;
	lens[n] = frame4(in_frames[n], "10.31.0.1", 64);	/* no neighbour: passed */
	n++;
	lens[n] = frame4(in_frames[n], "10.20.1.1", 1);		/* TTL 1: passed */
	n++;
	lens[n] = frame4(in_frames[n], "10.1.0.1", 64);		/* local: passed */
	n++;
	xdp_receive(in, in_frames, lens, n);
	expect_frames(out1, want1, lens1, n1);
	expect_frames(out2, want2, lens2, n2);
	st = xt_stats(in);
	NB_ASSERT_EQ(st.redirect, 4);
	/* xdp_router drops what the routes reject; xdp_fwd passes it up the stack */
	NB_ASSERT_EQ(st.drop, drops_rejected);
	NB_ASSERT_EQ(st.pass, 4 - drops_rejected);
}

NB_TEST(routing_xdp_router_example)
{
	char path[4096];
	struct nb_object *obj;
	struct nb_map *results;
	u64 counts[64];
	u32 key;

	run_script(setup);
	obj = load_obj(nb_test_build_path(path, sizeof(path), "examples/xdp_router.o"),
		       BPF_PROG_TYPE_XDP);
	xdp_router_world(obj, "xdp_router", "tx_ports", true);
	/* the return codes the router counted (the TTL 1 frame asked nothing) */
	results = nb_object_map_map(nb_object_find_map(obj, "fib_results"));
	for (key = 0; key < 16; key++) {
		u64 want = key == BPF_FIB_LKUP_RET_SUCCESS ? 4 : key == BPF_FIB_LKUP_RET_BLACKHOLE ||
			   key == BPF_FIB_LKUP_RET_NO_NEIGH || key == BPF_FIB_LKUP_RET_NOT_FWDED;

		NB_ASSERT_EQ(nb_map_lookup_elem(results, &key, counts), 0);
		NB_ASSERT_EQ(counts[0], want);
	}
	nb_object_close(obj);
	xt_teardown();
}

/* The corpus of kernel objects, when this machine has it. */
static const char *corpus_path(char *buf, size_t size, const char *rel)
{
	const char *dirs[] = { getenv("NETBPF_CORPUS"), "../shared/corpus", "/work/shared/corpus" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (!dirs[i])
			continue;
		snprintf(buf, size, "%s/%s", dirs[i], rel);
		if (!access(buf, R_OK))
			return buf;
	}
	nb_test_skip("no corpus with %s (set NETBPF_CORPUS)", rel);
}

static void kernel_xdp_fwd(const void *arg)
{
	const char *prog = arg;
	char path[4096];
	struct nb_object *obj;

	corpus_path(path, sizeof(path), "linux-samples/xdp_fwd_kern.o");
	run_script(setup);
	obj = load_obj(path, BPF_PROG_TYPE_XDP);
	xdp_router_world(obj, prog, "xdp_tx_ports", false);
	nb_object_close(obj);
	xt_teardown();
}

static void __attribute__((constructor)) register_xdp_fwd(void)
{
	nb_test_register("routing_kernel_sample_xdp_fwd", kernel_xdp_fwd, "xdp_fwd_prog");
	nb_test_register("routing_kernel_sample_xdp_fwd_direct", kernel_xdp_fwd,
			 "xdp_fwd_direct_prog");
}

NB_TEST(routing_tc_router_redirect_neigh)
{
	NB_OPTS(nb_tc_bpf_opts, bpf, .direct_action = true);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "bpf",
				       .kind_opts = &bpf };
	struct nb_dev *in, *out1, *out2;
	struct nb_dev_stats_total t;
	u8 frames[4][96], want1[4][96], want2[4][96];
	u32 lens[4], lens1[4], lens2[4];
	unsigned int n = 0, n1 = 0, n2 = 0;
	char path[4096];
	struct nb_object *obj;

	run_script(setup);
	in = dev_named("in0");
	out1 = dev_named("out1");
	out2 = dev_named("out2");
	obj = load_obj(nb_test_build_path(path, sizeof(path), "examples/tc_router.o"),
		       BPF_PROG_TYPE_SCHED_CLS);
	NB_ASSERT_EQ(nb_tc_qdisc_add(in, NB_TC_QDISC_CLSACT, NULL), 0);
	bpf.prog = nb_object_prog_prog(nb_object_find_prog(obj, NULL, "tc_router"));
	NB_ASSERT_EQ(nb_tc_filter_add(in, &f, NULL), 0);

	lens[n] = frame4(frames[n], "10.20.1.1", 64);
	forwarded(want1[n1], frames[n], lens[n], "\x02\x00\x00\x00\x02\x02", out1->addr);
	lens1[n1++] = lens[n++];
	lens[n] = frame6(frames[n], "2001:db8:20::5", 64);
	forwarded(want1[n1], frames[n], lens[n], "\x02\x00\x00\x00\x02\x22", out1->addr);
	lens1[n1++] = lens[n++];
	lens[n] = frame4(frames[n], "10.30.1.1", 30);
	forwarded(want2[n2], frames[n], lens[n], "\x02\x00\x00\x00\x03\x02", out2->addr);
	lens2[n2++] = lens[n++];
	lens[n] = frame4(frames[n], "10.31.1.1", 30);	/* 10.3.0.9 has no entry */
	n++;
	for (unsigned int i = 0; i < n; i++) {
		struct nb_pkt *pkt = nb_pkt_alloc_data(frames[i], lens[i]);

		NB_ASSERT(pkt);
		pkt->dev = in;
		pkt->skb_iif = in->ifindex;
		nb_eth_type_trans(pkt, in);
		nb_netif_receive(pkt);
	}
	nb_net_flush();
	expect_frames(out1, want1, lens1, n1);
	expect_frames(out2, want2, lens2, n2);
	nb_dev_stats_read(out2, &t);
	NB_ASSERT_EQ(t.drops[NB_DROP_NO_NEIGH], 1);
	nb_dev_stats_read(in, &t);
	NB_ASSERT_EQ(t.tc_redirect, 4);
	nb_object_close(obj);
	xt_teardown();
}
