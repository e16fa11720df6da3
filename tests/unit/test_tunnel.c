// SPDX-License-Identifier: GPL-2.0
/*
 * Collect-metadata tunnels on the datapath, every kind: tests/bpf/tunnel_encap.o on a device's
 * ingress sets a tunnel key (and options) and redirects into the tunnel device; the frame that
 * leaves the underlay device is checked byte for byte against the RFC's layout written out
 * here (outer Ethernet from the neighbour table, outer IP from the key, the kind's header,
 * the payload), checksums recomputed from scratch. Then the same outer frame, received by a
 * device that has the outer destination address, is decapsulated into the tunnel device:
 * tests/bpf/tunnel_key.o's tunnel_key_rx reads the key and options there (into its map) and a
 * capture behind it must get the original payload, byte for byte.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_tunnel.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>

#include <netbpf/dev.h>
#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/tc.h>

#include "ctl/ctl.h"
#include "io/sink.h"
#include "net/core.h"
#include "net/dev.h"
#include "pkt/dst_metadata.h"
#include "bpf/epoch.h"
#include "pkt/pkt.h"
#include "test.h"

struct encap_cfg {
	u32 ifindex;
	u32 opt_len;
	u64 key_flags;
	struct bpf_tunnel_key key;
	u8 opt[32];
};

struct tun_cmd {	/* tests/bpf/tunnel_key.c */
	struct bpf_tunnel_key set;
	u32 set_size, set_opt_len;
	u64 set_flags;
	u8 set_opt[64];
	u32 get_size, get_opt_size;
	u64 get_flags;
	s32 rc_set, rc_set_opt, rc_get, rc_get_opt;
	struct bpf_tunnel_key got;
	u8 got_opt[64];
};

struct tcase {
	const char *name;
	const char *kind;	/* "vxlan external", ... */
	bool v6;		/* outer IPv6 */
	bool inner_v6;		/* IP kinds: the inner packet's family */
	u64 key_flags;
	u32 tos, ttl;
	u32 opt_len;
	/* the kind's header the frame must carry, after the outer IP (and UDP) header */
	const char *hdr;
	u32 hdr_len;
	u16 dport;		/* UDP kinds */
	u8 ipproto;		/* outer protocol */
	const char *rx_opt;	/* the options the far side reads, if not those sent */
};

#define ID 0x00012345
#define V6 BPF_F_TUNINFO_IPV6

static const struct tcase cases[] = {
	{ "vxlan4", "vxlan external", false, false, 0, 0, 0, 0,
	  "\x08\x00\x00\x00\x01\x23\x45\x00", 8, 4789, IPPROTO_UDP, NULL },
	{ "vxlan4_nocsum_df", "vxlan external", false, false,
	  BPF_F_ZERO_CSUM_TX | BPF_F_DONT_FRAGMENT, 0x10, 9, 0,
	  "\x08\x00\x00\x00\x01\x23\x45\x00", 8, 4789, IPPROTO_UDP, NULL },
	{ "vxlan6", "vxlan external", true, false, V6, 0, 0, 0,
	  "\x08\x00\x00\x00\x01\x23\x45\x00", 8, 4789, IPPROTO_UDP, NULL },
	{ "vxlan_port", "vxlan external dstport 8472", false, false, 0, 0, 0, 0,
	  "\x08\x00\x00\x00\x01\x23\x45\x00", 8, 8472, IPPROTO_UDP, NULL },
	/* GBP: the option's gbp 0xa3a2a1a0 (host order) has policy 0xa1a0, neither D nor A */
	{ "vxlan_gbp", "vxlan external gbp", false, false, 0, 0, 0, 4,
	  "\x88\x00\xa1\xa0\x01\x23\x45\x00", 8, 4789, IPPROTO_UDP, "\xa0\xa1\x00\x00" },
	{ "geneve4", "geneve external", false, false, 0, 0, 0, 0,
	  "\x00\x00\x65\x58\x01\x23\x45\x00", 8, 6081, IPPROTO_UDP, NULL },
	{ "geneve6_opts", "geneve external", true, false, V6, 0, 0, 8,
	  "\x02\x00\x65\x58\x01\x23\x45\x00\xa0\xa1\xa2\xa3\xa4\xa5\xa6\xa7", 16, 6081, IPPROTO_UDP, NULL },
	{ "gre_key_csum", "gre external", false, false, 0, 0, 0, 0,
	  "\xa0\x00\x08\x00\x00\x00\x00\x00\x00\x01\x23\x45", 12, 0, IPPROTO_GRE, NULL },
	{ "gre_seq_nokey", "gre external", false, false, BPF_F_SEQ_NUMBER | (1ULL << 4) |
	  BPF_F_ZERO_CSUM_TX, 0, 0, 0, "\x10\x00\x08\x00\x00\x00\x00\x00", 8, 0, IPPROTO_GRE, NULL },
	{ "gretap", "gretap external", false, false, BPF_F_ZERO_CSUM_TX, 0, 0, 0,
	  "\x20\x00\x65\x58\x00\x01\x23\x45", 8, 0, IPPROTO_GRE, NULL },
	{ "ip6gre", "ip6gre external", true, true, V6 | BPF_F_ZERO_CSUM_TX, 0, 0, 0,
	  "\x20\x00\x86\xdd\x00\x01\x23\x45", 8, 0, IPPROTO_GRE, NULL },
	{ "ip6gretap", "ip6gretap external", true, false, V6 | BPF_F_ZERO_CSUM_TX, 0, 0, 0,
	  "\x20\x00\x65\x58\x00\x01\x23\x45", 8, 0, IPPROTO_GRE, NULL },
	{ "ipip", "ipip external", false, false, 0, 0, 0, 0, "", 0, 0, IPPROTO_IPIP, NULL },
	{ "ip6tnl_ipip6", "ip6tnl external", true, false, V6, 0, 0, 0, "", 0, 0, IPPROTO_IPIP, NULL },
	{ "ip6tnl_ip6ip6", "ip6tnl mode ip6ip6 external", true, true, V6, 0, 33, 0, "", 0, 0,
	  IPPROTO_IPV6, NULL },
};

static bool l2_kind(const struct tcase *c)
{
	return !strncmp(c->kind, "vxlan", 5) || !strncmp(c->kind, "geneve", 6) ||
	       strstr(c->kind, "tap");
}

static void run_script(const char *text)
{
	struct nb_ctl ctl = { .out = stdout };

	if (nb_ctl_script_run(&ctl, "tunnel.tc", text, NULL, 0))
		NB_FAIL("%s", nb_log_text(&ctl.log));
	nb_log_free(&ctl.log);
}

static struct nb_dev *dev_named(const char *name)
{
	struct nb_dev *dev = nb_dev_get_by_name(name);

	NB_ASSERT(dev);
	nb_dev_put(dev);
	return dev;
}

static struct nb_object *load_obj(const char *rel)
{
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts),
					     .prog_type = BPF_PROG_TYPE_SCHED_CLS };
	struct nb_object *obj;
	char path[4096];

	NB_ASSERT_EQ(nb_object_open_file(nb_test_build_path(path, sizeof(path), rel), NULL,
					 &obj), 0);
	NB_ASSERT_EQ(nb_object_load(obj, &lopts), 0);
	return obj;
}

static void attach(struct nb_dev *dev, struct nb_object *obj, const char *name, u32 pref)
{
	NB_OPTS(nb_tc_bpf_opts, bpf, .direct_action = true);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "bpf",
				       .pref = pref, .kind_opts = &bpf };

	nb_tc_qdisc_add(dev, NB_TC_QDISC_CLSACT, NULL);	/* -EEXIST the second time */
	bpf.prog = nb_object_prog_prog(nb_object_find_prog(obj, NULL, name));
	NB_ASSERT(bpf.prog);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
}

static u32 sum16(const u8 *p, u32 len, u32 sum)
{
	for (u32 i = 0; i < len; i += 2)
		sum += (u32)p[i] << 8 | (i + 1 < len ? p[i + 1] : 0);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

/* The inner packet: an Ethernet frame (L2 kinds) or an IP packet, ECT(0), 54 payload bytes. */
static u32 inner_frame(const struct tcase *c, u8 *f)
{
	u32 off = 0, l3len;

	memcpy(f, "\x02\x00\x00\x00\x09\x09\x02\x00\x00\x00\x09\x08", 12);
	if (c->inner_v6) {
		/* built aligned, then copied: f + 14 is no place for a struct ipv6hdr */
		struct ipv6hdr hdr6 = { 0 }, *ip6 = &hdr6;
		__be32 w = htonl(0x60200000);		/* ECT(0) */

		f[12] = 0x86;
		f[13] = 0xdd;
		memcpy(ip6, &w, sizeof(w));
		ip6->payload_len = htons(54);
		ip6->nexthdr = 59;
		ip6->hop_limit = 21;
		inet_pton(AF_INET6, "fd00::1", &ip6->saddr);
		inet_pton(AF_INET6, "fd00::2", &ip6->daddr);
		memcpy(f + 14, ip6, sizeof(*ip6));
		l3len = 40 + 54;
	} else {
		struct iphdr hdr = { 0 }, *ip = &hdr;
		u16 sum;

		f[12] = 0x08;
		f[13] = 0x00;
		ip->version = 4;
		ip->ihl = 5;
		ip->tos = 2;	/* ECT(0) */
		ip->tot_len = htons(20 + 54);
		ip->ttl = 21;
		ip->protocol = 253;
		ip->saddr = inet_addr("192.168.7.1");
		ip->daddr = inet_addr("192.168.7.2");
		sum = (u16)~sum16((u8 *)ip, 20, 0);
		ip->check = htons(sum);
		memcpy(f + 14, ip, sizeof(*ip));
		l3len = 20 + 54;
	}
	for (u32 i = 0; i < 54; i++)
		f[14 + l3len - 54 + i] = (u8)(i * 3);
	(void)off;
	return 14 + l3len;
}

/* The world of one side: addresses, the underlay's neighbour, the tunnel device. */
static void world(const struct tcase *c, bool far)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "link add in0 type sink\n"
		 "link add out0 address 02:00:00:00:00:0a type sink keep 8\n"
		 "link add cap0 type sink keep 8\n"
		 "link add tun0 type %s\n"
		 "ip addr add 10.9.0.%d/24 dev out0\n"
		 "ip -6 addr add fd09::%d/64 dev out0\n"
		 "ip neigh add 10.9.0.2 lladdr 02:00:00:00:00:0b dev out0\n"
		 "ip -6 neigh add fd09::2 lladdr 02:00:00:00:00:0b dev out0\n",
		 c->kind, far ? 2 : 1, far ? 2 : 1);
	run_script(text);
}

static void expect_bytes(const char *what, const u8 *got, const u8 *want, u32 len)
{
	for (u32 i = 0; i < len; i++)
		if (got[i] != want[i])
			NB_FAIL("%s byte %u: %02x, want %02x", what, i, got[i], want[i]);
}

/* The outer frame the tunnel must make of inner for case c. */
static u32 expected_outer(const struct tcase *c, const u8 *inner, u32 inner_len, const u8 *got,
			  u8 *want)
{
	bool l2 = l2_kind(c), udp = c->ipproto == IPPROTO_UDP;
	const u8 *payload = l2 ? inner : inner + 14;
	u32 payload_len = l2 ? inner_len : inner_len - 14, hdr_len = c->hdr_len;
	u32 ip_len = c->v6 ? 40 : 20, off = 14 + ip_len, tun_len, total;
	bool df = c->key_flags & BPF_F_DONT_FRAGMENT, csum = !(c->key_flags & BPF_F_ZERO_CSUM_TX);
	u8 ttl = c->ttl ? (u8)c->ttl : udp ? 64 : 21;
	u8 tos = (u8)((c->tos & ~3u) | 2);	/* the inner ECT(0) */

	tun_len = (udp ? 8 : 0) + hdr_len;
	total = off + tun_len + payload_len;
	memset(want, 0, total);
	memcpy(want, "\x02\x00\x00\x00\x00\x0b\x02\x00\x00\x00\x00\x0a", 12);
	want[12] = c->v6 ? 0x86 : 0x08;
	want[13] = c->v6 ? 0xdd : 0x00;
	if (c->v6) {
		__be32 w = htonl(6u << 28 | (u32)tos << 20);

		memcpy(want + 14, &w, 4);
		want[18] = (u8)((tun_len + payload_len) >> 8);
		want[19] = (u8)(tun_len + payload_len);
		want[20] = c->ipproto;
		want[21] = ttl;
		inet_pton(AF_INET6, "fd09::1", want + 22);
		inet_pton(AF_INET6, "fd09::2", want + 38);
		if (!udp)	/* IP kinds pick an automatic flow label: take it from the frame */
			memcpy(want + 15, got + 15, 3), want[15] = (u8)((want[15] & 0xf0) |
									(got[15] & 0x0f));
	} else {
		u16 sum;

		want[14] = 0x45;
		want[15] = tos;
		want[16] = (u8)((20 + tun_len + payload_len) >> 8);
		want[17] = (u8)(20 + tun_len + payload_len);
		want[18] = got[18];	/* any ID will do, DF or not: the frame's */
		want[19] = got[19];
		want[20] = df ? 0x40 : 0;
		want[22] = ttl;
		want[23] = c->ipproto;
		memcpy(want + 26, "\x0a\x09\x00\x01\x0a\x09\x00\x02", 8);
		sum = (u16)~sum16(want + 14, 20, 0);
		want[24] = (u8)(sum >> 8);
		want[25] = (u8)sum;
	}
	if (udp) {
		u16 sport = (u16)(got[off] << 8 | got[off + 1]);

		NB_ASSERT(sport >= 32768 && sport < 61000);
		want[off] = got[off];
		want[off + 1] = got[off + 1];
		want[off + 2] = (u8)(c->dport >> 8);
		want[off + 3] = (u8)c->dport;
		want[off + 4] = (u8)((tun_len + payload_len) >> 8);
		want[off + 5] = (u8)(tun_len + payload_len);
	}
	memcpy(want + off + (udp ? 8 : 0), c->hdr, hdr_len);
	memcpy(want + off + tun_len, payload, payload_len);
	if (!strcmp(c->name, "gre_key_csum")) {
		u16 sum;

		memset(want + off + 4, 0, 4);
		sum = (u16)~sum16(want + off, tun_len + payload_len, 0);
		want[off + 4] = (u8)(sum >> 8);
		want[off + 5] = (u8)sum;
	}
	if (udp && csum) {
		u32 ps = c->v6 ? sum16(want + 22, 32, 0) : sum16(want + 26, 8, 0);
		u16 sum;

		ps = sum16((const u8 *)"\x00\x11", 2, ps) + tun_len + payload_len;
		sum = (u16)~sum16(want + off, tun_len + payload_len, ps);
		want[off + 6] = (u8)(sum >> 8);
		want[off + 7] = (u8)sum;
	}
	return total;
}

static void encap_case(const void *arg)
{
	const struct tcase *c = arg;
	struct encap_cfg cfg = { .opt_len = c->opt_len, .key_flags = c->key_flags };
	struct nb_object *obj;
	struct nb_pkt *pkt, *out;
	u8 inner[256], want[512];
	u32 len, zero = 0, wlen;

	world(c, false);
	obj = load_obj("tests/bpf/tunnel_encap.o");
	attach(dev_named("in0"), obj, "tunnel_encap", 1);
	cfg.ifindex = dev_named("tun0")->ifindex;
	cfg.key.tunnel_id = ID;
	cfg.key.tunnel_tos = (u8)c->tos;
	cfg.key.tunnel_ttl = (u8)c->ttl;
	if (c->v6) {
		inet_pton(AF_INET6, "fd09::2", cfg.key.remote_ipv6);
		inet_pton(AF_INET6, "fd09::1", cfg.key.local_ipv6);
	} else {
		cfg.key.remote_ipv4 = 0x0a090002;
	}
	for (u32 i = 0; i < sizeof(cfg.opt); i++)
		cfg.opt[i] = (u8)(0xa0 + i);
	NB_ASSERT_EQ(nb_map_update_elem(nb_object_map_map(nb_object_find_map(obj, "encap_cfg")),
					&zero, &cfg, 0), 0);

	len = inner_frame(c, inner);
	pkt = nb_pkt_alloc_data(inner, len);
	NB_ASSERT(pkt);
	pkt->dev = dev_named("in0");
	nb_eth_type_trans(pkt, pkt->dev);
	nb_netif_receive(pkt);
	nb_net_flush();
	out = nb_sink_take(dev_named("out0")->port);
	NB_ASSERT(out && !out->next);
	wlen = expected_outer(c, inner, len, out->data, want);
	NB_ASSERT_EQ(out->len, wlen);
	expect_bytes(c->name, out->data, want, wlen);

	/* the other side: the same frame, received where the outer destination is local */
	memcpy(want, out->data, wlen);
	nb_pkt_free(out);
	nb_object_close(obj);
	nb_dev_destroy_all();
	nb_epoch_barrier();
	{
		struct tun_cmd seen = { .get_flags = c->v6 ? V6 : 0, .get_size = 0,
					.get_opt_size = 5 };
		struct nb_map *seen_map;
		struct nb_object *rx;
		char line[256];

		world(c, true);
		rx = load_obj("tests/bpf/tunnel_key.o");
		attach(dev_named("tun0"), rx, "tunnel_key_rx", 1);
		snprintf(line, sizeof(line), "tc filter add dev tun0 ingress pref 2 matchall action "
			 "mirred egress redirect dev cap0\n");
		run_script(line);
		seen_map = nb_object_map_map(nb_object_find_map(rx, "seen"));
		NB_ASSERT_EQ(nb_map_update_elem(seen_map, &zero, &seen, 0), 0);
		pkt = nb_pkt_alloc_data(want, wlen);
		NB_ASSERT(pkt);
		pkt->dev = dev_named("out0");
		nb_eth_type_trans(pkt, pkt->dev);
		nb_netif_receive(pkt);
		nb_net_flush();
		out = nb_sink_take(dev_named("cap0")->port);
		NB_ASSERT(out && !out->next);
		/* an IP kind's packet has no link header: mirred sends it as it is */
		NB_ASSERT_EQ(out->len, l2_kind(c) ? len : len - 14);
		expect_bytes("decapsulated", out->data, l2_kind(c) ? inner : inner + 14, out->len);
		nb_pkt_free(out);
		NB_ASSERT_EQ(nb_map_lookup_elem(seen_map, &zero, &seen), 0);
		NB_ASSERT_EQ(seen.rc_get, 0);
		NB_ASSERT_EQ(seen.got.tunnel_id, c->ipproto == IPPROTO_GRE &&
			     (c->key_flags & (1ULL << 4)) ? 0 :
			     c->ipproto == IPPROTO_IPIP || c->ipproto == IPPROTO_IPV6 ? 0 :
			     c->ipproto == IPPROTO_UDP ? ID & 0xffffff : ID);
		if (!c->v6) {
			NB_ASSERT_EQ(seen.got.remote_ipv4, 0x0a090001);
			NB_ASSERT_EQ(seen.got.local_ipv4, 0x0a090002);
		}
		NB_ASSERT_EQ(seen.got.tunnel_ttl, want[c->v6 ? 21 : 22]);
		NB_ASSERT_EQ(seen.rc_get_opt, c->opt_len ? (s32)c->opt_len : -ENOENT);
		if (c->opt_len)
			NB_ASSERT_MEM_EQ(seen.got_opt, c->rx_opt ? (const u8 *)c->rx_opt : cfg.opt,
					 c->opt_len);
		nb_object_close(rx);
	}
	nb_dev_destroy_all();
	nb_epoch_barrier();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	NB_ASSERT_EQ(nb_tun_md_outstanding(), 0);
}

static void __attribute__((constructor)) register_tunnel_cases(void)
{
	static char names[ARRAY_SIZE(cases)][64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(names[i], sizeof(names[i]), "tunnel_%s", cases[i].name);
		nb_test_register(names[i], encap_case, &cases[i]);
	}
}

/*
 * The kernel's samples/bpf tc_l2_redirect_kern.o (from the corpus), as its script runs it: on
 * the near side a classifier on ve1's ingress sends the frames for the VIPs 10.10.1.0/24 and
 * 2401:face::/32 into an ipip or ip6tnl device named in the pinned map tun_iface, with the
 * sample's key (remote 10.2.1.102 or 2401:db02::66, TTL 64), the rest passing; on the far
 * side drop_non_tun_vip drops VIP frames that come untunnelled, and the tunnel device gives
 * back the inner packet, byte for byte. l2_to_iptun_ingress_forward does the far side's work
 * by redirecting IPIP packets into the tunnel device's ingress, where they are decapsulated.
 */
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

/* An Ethernet frame with an IPv4 or IPv6 packet to dst, protocol 253, 40 bytes of payload. */
static u32 l2_frame(u8 *f, const char *dst)
{
	bool v6 = strchr(dst, ':');
	u32 l3 = v6 ? 40 : 20;

	memset(f, 0, 14 + l3 + 40);
	memcpy(f, "\x02\x00\x00\x00\x01\x01\x02\x00\x00\x00\x01\x02", 12);
	if (v6) {
		f[12] = 0x86;
		f[13] = 0xdd;
		f[14] = 0x60;
		f[19] = 40;
		f[20] = 253;
		f[21] = 30;
		inet_pton(AF_INET6, "2401:beef::1", f + 22);
		inet_pton(AF_INET6, dst, f + 38);
	} else {
		u16 sum;

		f[12] = 0x08;
		f[14] = 0x45;
		f[17] = 60;
		f[22] = 30;
		f[23] = 253;
		inet_pton(AF_INET, "10.1.1.101", f + 26);
		inet_pton(AF_INET, dst, f + 30);
		sum = (u16)~sum16(f + 14, 20, 0);
		f[24] = (u8)(sum >> 8);
		f[25] = (u8)sum;
	}
	for (u32 i = 0; i < 40; i++)
		f[14 + l3 + i] = (u8)(i + 7);
	return 14 + l3 + 40;
}

static void receive(const char *dev, const u8 *f, u32 len)
{
	struct nb_pkt *pkt = nb_pkt_alloc_data(f, len);

	NB_ASSERT(pkt);
	pkt->dev = dev_named(dev);
	nb_eth_type_trans(pkt, pkt->dev);
	nb_netif_receive(pkt);
	nb_net_flush();
}

static void l2_redirect_teardown(void)
{
	nb_dev_destroy_all();
	nb_unpin_all();
	nb_epoch_barrier();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	NB_ASSERT_EQ(nb_tun_md_outstanding(), 0);
}

/* What the sample's user program does: the tunnel's ifindex into the pinned map. */
static void set_tun_iface(void)
{
	struct nb_map *tun_iface = nb_pin_get_map("tc/globals/tun_iface");
	int ifindex = (int)dev_named("ipt")->ifindex;
	u32 zero = 0;

	NB_ASSERT(tun_iface);
	NB_ASSERT_EQ(nb_map_update_elem(tun_iface, &zero, &ifindex, 0), 0);
	nb_map_put(tun_iface);
}

/* The far side: ve2 has the remote address; what ipt decapsulates goes to cap0. */
static void l2_redirect_far(const char *obj, const char *kind, const char *sec)
{
	char text[8192];

	snprintf(text, sizeof(text),
		 "link add ve2 address 02:00:00:00:00:0b type sink\n"
		 "link add cap0 type sink keep 8\n"
		 "link add ipt type %s external\n"
		 "ip addr add 10.2.1.102/24 dev ve2\n"
		 "ip -6 addr add 2401:db02::66/64 dev ve2\n"
		 "tc qdisc add dev ve2 clsact\n"
		 "tc filter add dev ve2 ingress bpf da obj %s sec %s\n"
		 "tc qdisc add dev ipt clsact\n"
		 "tc filter add dev ipt ingress protocol all u32 match ip protocol 253 0xff "
		 "action mirred egress redirect dev cap0\n"
		 "tc filter add dev ipt ingress protocol ipv6 u32 match ip6 protocol 253 0xff "
		 "action mirred egress redirect dev cap0\n",
		 kind, obj, sec);
	run_script(text);
	set_tun_iface();
}

static void l2_redirect_case(const void *arg)
{
	const bool v6_tunnel = arg != NULL;
	const char *kind = v6_tunnel ? "ip6tnl" : "ipip";
	static const char *const v4_dsts[] = { "10.10.1.5", "10.10.2.5" };
	static const char *const v6_dsts[] = { "2401:face::9", "2401:fade::9" };
	struct nb_dev_stats_total st;
	u8 f[256], outer[2][256];
	u32 len[2], olen[2] = { 0 }, n = 0;
	char obj[4096], text[8192];
	struct nb_pkt *out;

	corpus_path(obj, sizeof(obj), "linux-samples/tc_l2_redirect_kern.o");
	snprintf(text, sizeof(text),
		 "link add ve1 type sink\n"
		 "link add ve2 address 02:00:00:00:00:0a type sink keep 8\n"
		 "link add ipt type %s external\n"
		 "ip addr add 10.2.1.1/24 dev ve2\n"
		 "ip -6 addr add 2401:db02::1/64 dev ve2\n"
		 "ip neigh add 10.2.1.102 lladdr 02:00:00:00:00:0b dev ve2\n"
		 "ip -6 neigh add 2401:db02::66 lladdr 02:00:00:00:00:0b dev ve2\n"
		 "tc qdisc add dev ve1 clsact\n"
		 "tc filter add dev ve1 ingress bpf da obj %s sec %s\n",
		 kind, obj, v6_tunnel ? "l2_to_ip6tun_ingress_redirect" :
		 "l2_to_iptun_ingress_redirect");
	run_script(text);
	set_tun_iface();

	/* a VIP and a non-VIP destination of each family; the IPv4 sample tunnels only IPv4 */
	for (int fam = 0; fam < 2; fam++) {
		for (int vip = 0; vip < 2; vip++) {
			u32 l = l2_frame(f, (fam ? v6_dsts : v4_dsts)[vip]);
			bool tunnelled = vip == 0 && (fam == 0 || v6_tunnel);

			receive("ve1", f, l);
			out = nb_sink_take(dev_named("ve2")->port);
			NB_ASSERT_EQ(out != NULL, tunnelled);
			if (!out)
				continue;
			NB_ASSERT(!out->next);
			memcpy(outer[n], out->data, out->len);
			olen[n] = out->len;
			len[n] = l;
			n++;
			/* outer: Ethernet from the neighbour, IP from the sample's key, the packet */
			NB_ASSERT_MEM_EQ(out->data, "\x02\x00\x00\x00\x00\x0b\x02\x00\x00\x00\x00\x0a",
					 12);
			if (v6_tunnel) {
				u8 a[16];

				NB_ASSERT_EQ(out->len, 14 + 40 + l - 14);
				NB_ASSERT_EQ(out->data[12] << 8 | out->data[13], 0x86dd);
				NB_ASSERT_EQ(out->data[14] >> 4, 6);
				NB_ASSERT_EQ(out->data[20], fam ? IPPROTO_IPV6 : IPPROTO_IPIP);
				NB_ASSERT_EQ(out->data[21], 64);
				inet_pton(AF_INET6, "2401:db02::1", a);
				NB_ASSERT_MEM_EQ(out->data + 22, a, 16);
				inet_pton(AF_INET6, "2401:db02::66", a);
				NB_ASSERT_MEM_EQ(out->data + 38, a, 16);
				NB_ASSERT_MEM_EQ(out->data + 54, f + 14, l - 14);
			} else {
				NB_ASSERT_EQ(out->len, 14 + 20 + l - 14);
				NB_ASSERT_EQ(out->data[12] << 8 | out->data[13], 0x0800);
				NB_ASSERT_EQ(out->data[14], 0x45);
				NB_ASSERT_EQ(out->data[22], 64);
				NB_ASSERT_EQ(out->data[23], IPPROTO_IPIP);
				NB_ASSERT_EQ(sum16(out->data + 14, 20, 0), 0xffff);
				NB_ASSERT_MEM_EQ(out->data + 26, "\x0a\x02\x01\x01\x0a\x02\x01\x66", 8);
				NB_ASSERT_MEM_EQ(out->data + 34, f + 14, l - 14);
			}
			nb_pkt_free(out);
		}
	}
	NB_ASSERT_EQ(n, v6_tunnel ? 2u : 1u);
	nb_dev_stats_read(dev_named("ve1"), &st);
	NB_ASSERT_EQ(st.tc_redirect, n);
	NB_ASSERT_EQ(st.rx_dropped, 0);
	l2_redirect_teardown();

	/* the far side, both ways the sample has: the tunnel device's own receive, or forward */
	for (int way = 0; way < 2; way++) {
		l2_redirect_far(obj, kind, way ? "l2_to_iptun_ingress_forward" :
				"drop_non_tun_vip");
		for (u32 i = 0; i < n; i++) {
			receive("ve2", outer[i], olen[i]);
			out = nb_sink_take(dev_named("cap0")->port);
			NB_ASSERT(out && !out->next);
			NB_ASSERT_EQ(out->len, len[i] - 14);
			NB_ASSERT_MEM_EQ(out->data, outer[i] + olen[i] - out->len, out->len);
			nb_pkt_free(out);
		}
		if (!way) {	/* a VIP frame that did not come through the tunnel */
			receive("ve2", f, l2_frame(f, "10.10.1.5"));
			nb_dev_stats_read(dev_named("ve2"), &st);
			NB_ASSERT_EQ(st.drops[NB_DROP_TC_INGRESS], 1);
		} else {
			nb_dev_stats_read(dev_named("ve2"), &st);
			NB_ASSERT_EQ(st.tc_redirect, n);
		}
		NB_ASSERT(!nb_sink_take(dev_named("cap0")->port));
		l2_redirect_teardown();
	}
}

static void __attribute__((constructor)) register_l2_redirect(void)
{
	nb_test_register("tunnel_kernel_sample_tc_l2_redirect_ipip", l2_redirect_case, NULL);
	nb_test_register("tunnel_kernel_sample_tc_l2_redirect_ip6tnl", l2_redirect_case, "v6");
}

static u64 drops_of(enum nb_drop_reason reason)
{
	static const char *const names[] = { "in0", "out0", "tun0" };
	struct nb_dev_stats_total st;
	u64 n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		nb_dev_stats_read(dev_named(names[i]), &st);
		n += st.drops[reason];
	}
	return n;
}

/* One frame through tunnel_encap.o with key remote (IPv4, or IPv6 with V6 in flags). */
static void encap_one(struct nb_object *obj, const char *remote, u64 flags)
{
	struct encap_cfg cfg = { .key_flags = flags, .key.tunnel_id = 5 };
	const struct tcase c = { .inner_v6 = false };
	u8 inner[256];
	u32 zero = 0;

	cfg.ifindex = dev_named("tun0")->ifindex;
	if (flags & V6)
		inet_pton(AF_INET6, remote, cfg.key.remote_ipv6);
	else
		cfg.key.remote_ipv4 = ntohl(inet_addr(remote));
	NB_ASSERT_EQ(nb_map_update_elem(nb_object_map_map(nb_object_find_map(obj, "encap_cfg")),
					&zero, &cfg, 0), 0);
	receive("in0", inner, inner_frame(&c, inner));
}

/*
 * What a tunnel refuses, each counted under the kernel's drop reason: a packet without a key
 * or with a key of the wrong family (tunnel_txinfo), a remote without a route or neighbour,
 * and on receive a wrong UDP checksum, a VXLAN header with a reserved bit, and an outer CE
 * mark on an inner packet that is not ECN-capable (RFC 6040).
 */
NB_TEST(tunnel_drop_reasons)
{
	const struct tcase *vx = &cases[0];
	struct nb_object *obj;
	struct nb_pkt *out;
	u8 inner[256], frame[512], bad[512];
	u32 len, flen;

	run_script("link add in0 type sink\n"
		   "link add out0 address 02:00:00:00:00:0a type sink keep 8\n"
		   "link add tun0 type ipip external\n"
		   "ip addr add 10.9.0.1/24 dev out0\n"
		   "ip -6 addr add fd09::1/64 dev out0\n"
		   "ip neigh add 10.9.0.2 lladdr 02:00:00:00:00:0b dev out0\n");
	obj = load_obj("tests/bpf/tunnel_encap.o");
	attach(dev_named("in0"), obj, "tunnel_encap", 1);
	encap_one(obj, "fd09::2", V6);		/* ipip carries IPv4 outer headers only */
	NB_ASSERT_EQ(drops_of(NB_DROP_TUNNEL_TXINFO), 1);
	encap_one(obj, "10.99.0.1", 0);
	NB_ASSERT_EQ(drops_of(NB_DROP_NO_ROUTE), 1);
	encap_one(obj, "10.9.0.3", 0);
	NB_ASSERT_EQ(drops_of(NB_DROP_NO_NEIGH), 1);
	encap_one(obj, "10.9.0.2", 0);
	out = nb_sink_take(dev_named("out0")->port);
	NB_ASSERT(out && !out->next);	/* and the one that could go, went */
	nb_pkt_free(out);
	nb_object_close(obj);
	run_script("tc qdisc del dev in0 clsact\n"
		   "tc qdisc add dev in0 clsact\n"
		   "tc filter add dev in0 ingress matchall action mirred egress redirect dev tun0\n");
	len = inner_frame(vx, inner);
	receive("in0", inner, len);		/* no key at all */
	NB_ASSERT_EQ(drops_of(NB_DROP_TUNNEL_TXINFO), 2);
	nb_dev_destroy_all();
	nb_epoch_barrier();

	/* receive: a good VXLAN frame from the encapsulating side, then spoilt copies */
	world(vx, false);
	obj = load_obj("tests/bpf/tunnel_encap.o");
	attach(dev_named("in0"), obj, "tunnel_encap", 1);
	encap_one(obj, "10.9.0.2", 0);
	out = nb_sink_take(dev_named("out0")->port);
	NB_ASSERT(out);
	flen = out->len;
	memcpy(frame, out->data, flen);
	nb_pkt_free(out);
	nb_object_close(obj);
	nb_dev_destroy_all();
	nb_epoch_barrier();
	world(vx, true);
	memcpy(bad, frame, flen);
	bad[40] ^= 0xff;			/* the UDP checksum */
	receive("out0", bad, flen);
	NB_ASSERT_EQ(drops_of(NB_DROP_UDP_CSUM), 1);
	memcpy(bad, frame, flen);
	bad[42 + 2] |= 1;			/* a reserved VXLAN bit: fix the checksum */
	bad[40] = bad[41] = 0;			/* (no UDP checksum at all is allowed) */
	receive("out0", bad, flen);
	NB_ASSERT_EQ(drops_of(NB_DROP_TUNNEL_HDR), 1);
	memcpy(bad, frame, flen);
	bad[40] = bad[41] = 0;
	bad[15] |= 3;				/* outer CE, inner not-ECT: fix the IP checksum */
	bad[24] = bad[25] = 0;
	{
		u16 sum = (u16)~sum16(bad + 14, 20, 0);

		bad[24] = (u8)(sum >> 8);
		bad[25] = (u8)sum;
	}
	bad[50 + 15] &= (u8)~3;			/* the inner IPv4 TOS: not-ECT */
	bad[50 + 24] = bad[50 + 25] = 0;
	{
		u16 sum = (u16)~sum16(bad + 50 + 14, 20, 0);

		bad[50 + 24] = (u8)(sum >> 8);
		bad[50 + 25] = (u8)sum;
	}
	receive("out0", bad, flen);
	NB_ASSERT_EQ(drops_of(NB_DROP_TUNNEL_ECN), 1);
	bad[50 + 15] |= 2;			/* ECT(0): it goes through, marked CE */
	bad[50 + 24] = bad[50 + 25] = 0;
	{
		u16 sum = (u16)~sum16(bad + 50 + 14, 20, 0);

		bad[50 + 24] = (u8)(sum >> 8);
		bad[50 + 25] = (u8)sum;
	}
	receive("out0", bad, flen);
	NB_ASSERT_EQ(drops_of(NB_DROP_TUNNEL_ECN), 1);
	{
		struct nb_dev_stats_total st;

		nb_dev_stats_read(dev_named("tun0"), &st);
		NB_ASSERT_EQ(st.rx_packets, 1);
		NB_ASSERT_EQ(st.host_packets, 1);
	}
	NB_ASSERT_EQ(drops_of(NB_DROP_TUNNEL_HDR), 1);
	NB_ASSERT_EQ(drops_of(NB_DROP_UDP_CSUM), 1);
	nb_dev_destroy_all();
	nb_epoch_barrier();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	NB_ASSERT_EQ(nb_tun_md_outstanding(), 0);
}

/* The inner frame of an outer VXLAN/IPv4 frame, copied out whole (fragments included). */
static u32 vxlan_inner(const struct nb_pkt *outer, u8 *buf, u32 size)
{
	u32 len = outer->len - 50;

	NB_ASSERT(len <= size);
	NB_ASSERT_EQ(nb_pkt_copy_bits(outer, 50, buf, len), 0);
	return len;
}

/*
 * Frames bigger than a buffer and super-frames into a tunnel: a 9000-byte frame in fragments
 * goes out as one outer frame carrying all of it and comes back whole from the far side; a TCP
 * super-frame of three segments goes out as three outer frames, each with its segment.
 */
NB_TEST(tunnel_vxlan_jumbo_and_gso)
{
	static u8 jumbo[9000], got[9100];
	const struct tcase *vx = &cases[0];
	struct nb_object *obj;
	struct nb_pkt *pkt, *out;
	u32 n = 0, len;

	run_script("link add in0 type sink\n"
		   "link add out0 mtu 9100 address 02:00:00:00:00:0a type sink keep 8\n"
		   "link add tun0 mtu 9000 type vxlan external\n"
		   "ip addr add 10.9.0.1/24 dev out0\n"
		   "ip neigh add 10.9.0.2 lladdr 02:00:00:00:00:0b dev out0\n");
	obj = load_obj("tests/bpf/tunnel_encap.o");
	attach(dev_named("in0"), obj, "tunnel_encap", 1);
	inner_frame(vx, jumbo);
	for (u32 i = 34; i < sizeof(jumbo); i++)
		jumbo[i] = (u8)(i * 7 + i / 251);
	encap_one(obj, "10.9.0.2", 0);		/* the key; the frame it sent is ignored */
	nb_pkt_free_list(nb_sink_take(dev_named("out0")->port));
	pkt = nb_pkt_alloc_data(jumbo, sizeof(jumbo));
	NB_ASSERT(pkt && nb_pkt_is_nonlinear(pkt));
	pkt->dev = dev_named("in0");
	nb_eth_type_trans(pkt, pkt->dev);
	nb_netif_receive(pkt);
	nb_net_flush();
	out = nb_sink_take(dev_named("out0")->port);
	NB_ASSERT(out && !out->next);
	NB_ASSERT_EQ(out->len, sizeof(jumbo) + 50);
	len = vxlan_inner(out, got, sizeof(got));
	NB_ASSERT_EQ(len, sizeof(jumbo));
	expect_bytes("jumbo", got, jumbo, len);
	/* the UDP checksum covers every byte, those in fragments too */
	NB_ASSERT_EQ(nb_pkt_copy_bits(out, 0, got, out->len), 0);
	NB_ASSERT_EQ(sum16(got + 34, out->len - 34, sum16(got + 26, 8, 0) + 17 + out->len - 34),
		     0xffff);
	nb_pkt_free(out);

	/* a TCP super-frame: 3000 bytes of payload in segments of 1000 */
	{
		static u8 f[14 + 20 + 20 + 3000];
		struct iphdr hdr = { 0 }, *ip = &hdr;

		memcpy(f, "\x02\x00\x00\x00\x09\x09\x02\x00\x00\x00\x09\x08\x08\x00", 14);
		ip->version = 4;
		ip->ihl = 5;
		ip->tot_len = htons(20 + 20 + 3000);
		ip->ttl = 9;
		ip->protocol = IPPROTO_TCP;
		ip->saddr = inet_addr("192.168.7.1");
		ip->daddr = inet_addr("192.168.7.2");
		ip->check = htons((u16)~sum16((u8 *)ip, 20, 0));
		memcpy(f + 14, ip, sizeof(*ip));
		f[34 + 12] = 5 << 4;			/* doff */
		f[34 + 13] = 0x18;			/* PSH ACK */
		for (u32 i = 54; i < sizeof(f); i++)
			f[i] = (u8)i;
		pkt = nb_pkt_alloc_data(f, sizeof(f));
		NB_ASSERT(pkt);
		pkt->dev = dev_named("in0");
		nb_eth_type_trans(pkt, pkt->dev);
		pkt->gso_size = 1000;
		pkt->gso_type = NB_SKB_GSO_TCPV4;
		nb_netif_receive(pkt);
		nb_net_flush();
		out = nb_sink_take(dev_named("out0")->port);
		for (struct nb_pkt *o = out; o; o = o->next, n++) {
			len = vxlan_inner(o, got, sizeof(got));
			NB_ASSERT_EQ(len, 14 + 20 + 20 + 1000);
			/* the segment's payload, in order */
			expect_bytes("segment", got + 54, f + 54 + 1000 * n, 1000);
		}
		NB_ASSERT_EQ(n, 3);
		nb_pkt_free_list(out);
	}
	nb_object_close(obj);
	nb_dev_destroy_all();
	nb_epoch_barrier();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	NB_ASSERT_EQ(nb_tun_md_outstanding(), 0);
}
