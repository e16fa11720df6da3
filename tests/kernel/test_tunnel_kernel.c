// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel devices against the running kernel, for every kind the kernel has (this test probes
 * each one; a kind the kernel lacks, CONFIG_GENEVE unset say, is reported and left to
 * tests/unit/test_tunnel.c's byte layouts). In a private namespace and in netbpf alike: veth
 * pairs v1/v1p (where frames come in) and v2/v2p (the underlay, 10.9.0.1/24 and fd09::1/64,
 * a permanent neighbour at .2 and ::2), a collect-metadata device tun0.
 *   - encapsulation: tests/bpf/tunnel_encap.o on v1's ingress sets the key of each case and
 *     redirects into tun0; the kernel's frame is read off v2p, netbpf's off v2's sink, and
 *     they must be equal byte for byte but for the fields the kernel fills from a hash or a
 *     counter (the UDP source port and so the UDP checksum; the IPv4 ID, DF or not, and so
 *     the header checksum), whose form is checked instead;
 *   - decapsulation: hand-made outer frames enter v2 (the kernel's from v2p); on tun0's
 *     ingress tests/bpf/tunnel_key.o's tunnel_key_rx reads the key, its flags and options
 *     into a map, which must hold the same on both sides, as must which frames got through.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <linux/if_tunnel.h>
#include <linux/pkt_cls.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/tc.h>

#include "bpf/epoch.h"
#include "fib_world.h"
#include "io/port.h"
#include "io/sink.h"
#include "net/core.h"
#include "net/dev.h"
#include "pkt/dst_metadata.h"
#include "pkt/pkt.h"

struct encap_cfg {
	u32 ifindex;
	u32 opt_len;
	u64 key_flags;
	struct bpf_tunnel_key key;
	u8 opt[32];
};

struct tun_cmd {
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

#define FRAME_MAX 512
#define V6 BPF_F_TUNINFO_IPV6
/* struct vxlan_metadata's gbp bits (include/net/vxlan.h) */
#define VXLAN_GBP_DONT_LEARN (1U << 22)
#define VXLAN_GBP_POLICY_APPLIED (1U << 19)

static const char *const lines[] = {
	"ip addr add 10.9.0.1/24 dev v2",
	"ip -6 addr add fd09::1/64 dev v2 nodad",
	"ip neigh add 10.9.0.2 lladdr 02:00:00:00:00:0b dev v2 nud permanent",
	"ip -6 neigh add fd09::2 lladdr 02:00:00:00:00:0b dev v2 nud permanent",
};

/* The kinds this test can hold to the kernel, with the kernel's words to make them. */
static const struct {
	const char *kind, *words;
} kinds[] = {
	{ "vxlan", "vxlan external dstport 4789" },
	{ "vxlan gbp", "vxlan external dstport 4789 gbp" },
	{ "geneve", "geneve external" },
	{ "ipip", "ipip external" },
	{ "ip6tnl", "ip6tnl external" },
	{ "gre", "gre external" },
	{ "ip6gre", "ip6gre external" },
	{ "gretap", "gretap external" },
	{ "ip6gretap", "ip6gretap external" },
};

struct side {
	/* kernel */
	struct bpf_object *kenc, *krx;
	int kmap_cfg, kmap_seen, inject_fd, capture_fd;
	u32 ktun;
	/* netbpf */
	struct nb_object *nenc, *nrx;
	struct nb_map *nmap_cfg, *nmap_seen;
	struct nb_dev *v1, *v2, *tun;
};

static int packet_socket(const char *dev, bool capture)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
				   .sll_ifindex = (int)if_nametoindex(dev) };
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, capture ? htons(ETH_P_ALL) : 0);

	NB_ASSERT(fd >= 0);
	NB_ASSERT_EQ(bind(fd, (struct sockaddr *)&sll, sizeof(sll)), 0);
	return fd;
}

static struct bpf_object *kernel_obj(const char *rel)
{
	char path[4096];
	struct bpf_object *obj;

	nb_test_build_path(path, sizeof(path), rel);
	obj = bpf_object__open_file(path, NULL);
	NB_ASSERT(obj);
	if (bpf_object__load(obj))
		NB_FAIL("the kernel refuses %s: %s", path, strerror(errno));
	return obj;
}

static void kernel_attach(struct bpf_object *obj, const char *prog, const char *dev)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = (int)if_nametoindex(dev),
		    .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = 1, .priority = 1);
	int err = bpf_tc_hook_create(&hook);

	NB_ASSERT(!err || err == -EEXIST);
	opts.prog_fd = bpf_program__fd(bpf_object__find_program_by_name(obj, prog));
	NB_ASSERT_EQ(bpf_tc_attach(&hook, &opts), 0);
}

static struct nb_object *netbpf_obj(const char *rel)
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

static void netbpf_attach(struct nb_dev *dev, struct nb_object *obj, const char *prog, u32 pref)
{
	NB_OPTS(nb_tc_bpf_opts, bpf, .direct_action = true);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "bpf",
				       .pref = pref, .kind_opts = &bpf };

	nb_tc_qdisc_add(dev, NB_TC_QDISC_CLSACT, NULL);
	bpf.prog = nb_object_prog_prog(nb_object_find_prog(obj, NULL, prog));
	NB_ASSERT(bpf.prog);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
}

/* The underlay both sides share, and v2's netbpf twin keeping what it sends. */
static struct nb_dev *underlay(void)
{
	struct nb_log log = { 0 };
	struct nb_port *port;
	struct nb_dev *v2;

	fib_world_lines(lines, ARRAY_SIZE(lines));
	v2 = nb_dev_get_by_name("v2");
	NB_ASSERT(v2);
	nb_dev_put(v2);
	NB_ASSERT_EQ(nb_port_open_str("sink", "keep 100000", &port, &log), 0);
	nb_dev_set_port(v2, port);
	return v2;
}

/* Both worlds for kind; false when the kernel cannot make such a device. */
static bool setup(const char *words, struct side *s)
{
	char line[256];

	snprintf(line, sizeof(line), "ip link add tun0 type %s", words);
	if (fib_world_sh(line))
		return false;
	NB_ASSERT_EQ(fib_world_sh("ip link set dev tun0 up"), 0);
	s->ktun = if_nametoindex("tun0");
	snprintf(line, sizeof(line), "link add tun0 type %s", words);
	NB_ASSERT_EQ(fib_world_nb(line, stderr), 0);
	NB_ASSERT_EQ(fib_world_nb("link set tun0 up", stderr), 0);
	s->v1 = nb_dev_get_by_name("v1");
	s->tun = nb_dev_get_by_name("tun0");
	NB_ASSERT(s->v1 && s->tun);
	nb_dev_put(s->v1);
	nb_dev_put(s->tun);

	s->kenc = kernel_obj("tests/bpf/tunnel_encap.o");
	s->krx = kernel_obj("tests/bpf/tunnel_key.o");
	kernel_attach(s->kenc, "tunnel_encap", "v1");
	kernel_attach(s->krx, "tunnel_key_rx", "tun0");
	s->kmap_cfg = bpf_map__fd(bpf_object__find_map_by_name(s->kenc, "encap_cfg"));
	s->kmap_seen = bpf_map__fd(bpf_object__find_map_by_name(s->krx, "seen"));
	s->nenc = netbpf_obj("tests/bpf/tunnel_encap.o");
	s->nrx = netbpf_obj("tests/bpf/tunnel_key.o");
	netbpf_attach(s->v1, s->nenc, "tunnel_encap", 1);
	netbpf_attach(s->tun, s->nrx, "tunnel_key_rx", 1);
	s->nmap_cfg = nb_object_map_map(nb_object_find_map(s->nenc, "encap_cfg"));
	s->nmap_seen = nb_object_map_map(nb_object_find_map(s->nrx, "seen"));
	s->inject_fd = packet_socket("v1p", false);
	s->capture_fd = packet_socket("v2p", true);
	return true;
}

/* Each side back to the underlay alone, nothing held. */
static void teardown(struct side *s)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = (int)if_nametoindex("v1"),
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);

	close(s->inject_fd);
	close(s->capture_fd);
	bpf_tc_hook_destroy(&hook);
	NB_ASSERT_EQ(fib_world_sh("ip link del tun0"), 0);
	bpf_object__close(s->kenc);
	bpf_object__close(s->krx);
	NB_ASSERT_EQ(fib_world_nb("tc qdisc del dev v1 clsact", stderr), 0);
	NB_ASSERT_EQ(fib_world_nb("link del tun0", stderr), 0);
	nb_object_close(s->nenc);
	nb_object_close(s->nrx);
	nb_epoch_barrier();
	NB_ASSERT_EQ(nb_tun_md_outstanding(), 0);
}

/* An inner Ethernet frame: IPv4 (tos given), IPv6 or ARP, 64 bytes or more. */
static u32 inner_frame(u8 *f, int kind, u8 tos)
{
	memset(f, 0, 128);
	memcpy(f, "\x02\x00\x00\x00\x09\x09\x02\x00\x00\x00\x09\x08", 12);
	if (kind == 4) {
		u32 sum = 0;

		f[12] = 0x08;
		f[14] = 0x45;
		f[15] = tos;
		f[17] = 84;
		f[22] = 21;
		f[23] = 253;
		memcpy(f + 26, "\xc0\xa8\x07\x01\xc0\xa8\x07\x02", 8);
		for (int i = 14; i < 34; i += 2)
			sum += (u32)f[i] << 8 | f[i + 1];
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		f[24] = (u8)(~sum >> 8);
		f[25] = (u8)~sum;
	} else if (kind == 6) {
		f[12] = 0x86;
		f[13] = 0xdd;
		f[14] = 0x60 | (tos >> 4);
		f[15] = (u8)(tos << 4);
		f[19] = 44;
		f[20] = 59;
		f[21] = 21;
		inet_pton(AF_INET6, "fd00::1", f + 22);
		inet_pton(AF_INET6, "fd00::2", f + 38);
	} else {
		f[12] = 0x08;
		f[13] = 0x06;
		memcpy(f + 14, "\x00\x01\x08\x00\x06\x04\x00\x01", 8);
	}
	for (int i = 54; i < 98; i++)
		f[i] = (u8)i;
	return 98;
}

/* The kernel's outer frame, read off v2p: the first one of the tunnel's protocol. */
static int kernel_capture(struct side *s, u8 *buf, u32 want_proto, u16 dport)
{
	struct pollfd pfd = { .fd = s->capture_fd, .events = POLLIN };

	while (poll(&pfd, 1, 200) > 0) {
		ssize_t n = recv(s->capture_fd, buf, FRAME_MAX, 0);

		if (n < 34)
			continue;
		if (buf[12] == 0x08 && buf[13] == 0x00 && buf[23] == want_proto &&
		    (!dport || (buf[36] << 8 | buf[37]) == dport))
			return (int)n;
		if (buf[12] == 0x86 && buf[13] == 0xdd && n >= 58 && buf[20] == want_proto &&
		    (!dport || (buf[56] << 8 | buf[57]) == dport))
			return (int)n;
	}
	return 0;
}

static int netbpf_send_inner(struct side *s, const u8 *f, u32 len, u8 *out)
{
	struct nb_pkt *pkt = nb_pkt_alloc_data(f, len), *got;
	int n = 0;

	NB_ASSERT(pkt);
	pkt->dev = s->v1;
	nb_eth_type_trans(pkt, s->v1);
	nb_netif_receive(pkt);
	nb_net_flush();
	got = nb_sink_take(s->v2->port);
	if (got) {
		n = (int)got->len;
		memcpy(out, got->data, got->len);
		nb_pkt_free_list(got);
	}
	return n;
}

/*
 * The fields the kernel fills from a hash or a counter: their form is checked, their value
 * taken over, so that the rest compares byte for byte.
 */
static void mask_varying(u8 *k, u8 *n, u32 len, bool udp)
{
	bool v6 = k[12] == 0x86;
	u32 l4 = v6 ? 54 : 34;

	if (!v6) {	/* the ID (DF or not, as iptunnel_xmit), so the header checksum */
		u32 sum = 0;

		for (int i = 14; i < 34; i += 2)
			sum += (u32)n[i] << 8 | n[i + 1];
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		NB_ASSERT_EQ(sum, 0xffff);
		n[18] = k[18];
		n[19] = k[19];
		n[24] = k[24];
		n[25] = k[25];
	}
	if (udp && len >= l4 + 8) {
		u16 sport = (u16)(n[l4] << 8 | n[l4 + 1]);

		NB_ASSERT(sport >= 32768 && sport < 61000);
		n[l4] = k[l4];
		n[l4 + 1] = k[l4 + 1];
		if (n[l4 + 6] || n[l4 + 7]) {	/* the checksum follows the port */
			n[l4 + 6] = k[l4 + 6];
			n[l4 + 7] = k[l4 + 7];
		}
	}
}

struct encap_case {
	bool v6;
	int inner;		/* 4, 6 or 0 (ARP) */
	u8 inner_tos;
	u64 flags;
	u8 tos, ttl;
	u32 id, label;
	u32 opt_len;
	u32 gbp;		/* the option's first word (struct vxlan_metadata), if not 0 */
};

static unsigned int encap_cases(const char *kind, struct side *s, unsigned int *runs)
{
	static const struct encap_case cases[] = {
		{ false, 4, 0, 0, 0, 0, 10000, 0, 0, 0 },
		{ false, 4, 2, 0, 0x10, 9, 0x12345678, 0, 0, 0 },
		{ false, 4, 3, BPF_F_DONT_FRAGMENT, 0x20, 0, 1, 0, 0, 0 },
		{ false, 4, 1, BPF_F_ZERO_CSUM_TX, 0, 200, 7, 0, 0, 0 },
		{ false, 4, 0, BPF_F_ZERO_CSUM_TX | BPF_F_DONT_FRAGMENT | BPF_F_SEQ_NUMBER, 0xfc,
		  1, 0xffffff, 0, 0, 0 },
		{ false, 6, 0x02, 0, 0, 0, 42, 0, 0, 0 },
		{ false, 0, 0, 0, 0x08, 0, 42, 0, 0, 0 },
		{ false, 4, 0, 0, 0, 0, 43, 0, 8, 0 },
		{ true, 4, 2, V6, 0, 0, 10000, 0, 0, 0 },
		{ true, 6, 0x03, V6, 0x40, 77, 99, 0x12345, 0, 0 },
		{ true, 4, 0, V6 | BPF_F_ZERO_CSUM_TX, 0, 0, 5, 0xfffff, 0, 0 },
		{ true, 0, 0, V6 | BPF_F_DONT_FRAGMENT, 0, 0, 5, 1, 4, 0 },
		/* GBP: don't learn, policy applied, every bit, bits outside the header's only */
		{ false, 4, 0, 0, 0, 0, 44, 0, 4, VXLAN_GBP_DONT_LEARN | 0x1234 },
		{ false, 4, 0, 0, 0, 0, 44, 0, 8, VXLAN_GBP_POLICY_APPLIED | 0xffff },
		{ true, 6, 0, V6, 0, 0, 45, 0, 4, 0xffffffff },
		{ false, 4, 0, 0, 0, 0, 46, 0, 4, 0x80000000 },
	};
	u8 in[128], kout[FRAME_MAX], nout[FRAME_MAX];
	unsigned int diffs = 0;
	u32 zero = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct encap_case *c = &cases[i];
		struct encap_cfg cfg = { .opt_len = c->opt_len, .key_flags = c->flags };
		u32 len = inner_frame(in, c->inner, c->inner_tos);
		int klen, nlen;

		cfg.key.tunnel_id = c->id;
		cfg.key.tunnel_tos = c->tos;
		cfg.key.tunnel_ttl = c->ttl;
		cfg.key.tunnel_label = c->label;
		if (c->v6) {
			inet_pton(AF_INET6, "fd09::2", cfg.key.remote_ipv6);
			inet_pton(AF_INET6, "fd09::1", cfg.key.local_ipv6);
		} else {
			cfg.key.remote_ipv4 = 0x0a090002;
		}
		for (u32 b = 0; b < sizeof(cfg.opt); b++)
			cfg.opt[b] = (u8)(0x80 + b);
		if (c->gbp)
			memcpy(cfg.opt, &c->gbp, sizeof(c->gbp));
		cfg.ifindex = s->ktun;
		NB_ASSERT_EQ(bpf_map_update_elem(s->kmap_cfg, &zero, &cfg, 0), 0);
		cfg.ifindex = s->tun->ifindex;
		NB_ASSERT_EQ(nb_map_update_elem(s->nmap_cfg, &zero, &cfg, 0), 0);

		NB_ASSERT_EQ(send(s->inject_fd, in, len, 0), (ssize_t)len);
		klen = kernel_capture(s, kout, IPPROTO_UDP, 4789);
		nlen = netbpf_send_inner(s, in, len, nout);
		(*runs)++;
		if (klen && nlen == klen)
			mask_varying(kout, nout, (u32)nlen, true);
		if (klen == nlen && !memcmp(kout, nout, (size_t)klen))
			continue;
		fprintf(stderr, "%s encap case %zu: kernel %d bytes, netbpf %d\n", kind, i, klen,
			nlen);
		for (int b = 0; b < klen && b < nlen; b++)
			if (kout[b] != nout[b])
				fprintf(stderr, "  byte %d: kernel %02x netbpf %02x\n", b, kout[b],
					nout[b]);
		diffs++;
	}
	return diffs;
}

/* An outer VXLAN frame for v2 (from .2 to .1, or ::2 to ::1). */
static u32 vxlan_frame(u8 *f, bool v6, u8 tos, u8 ttl, u32 vni, __be32 flags, bool csum,
		       u32 label, u8 inner_tos)
{
	u8 inner[128];
	u32 ilen = inner_frame(inner, 4, inner_tos), l3 = 14, l4 = v6 ? 54 : 34, ulen = 16 + ilen;
	u32 sum = 0;

	memset(f, 0, FRAME_MAX);
	memcpy(f, "\x02\x00\x00\x00\x02\x01\x02\x00\x00\x00\x00\x0b", 12);
	if (v6) {
		__be32 w = htonl(6u << 28 | (u32)tos << 20 | label);

		f[12] = 0x86;
		f[13] = 0xdd;
		memcpy(f + l3, &w, 4);
		f[18] = (u8)(ulen >> 8);
		f[19] = (u8)ulen;
		f[20] = 17;
		f[21] = ttl;
		inet_pton(AF_INET6, "fd09::2", f + 22);
		inet_pton(AF_INET6, "fd09::1", f + 38);
	} else {
		f[12] = 0x08;
		f[14] = 0x45;
		f[15] = tos;
		f[16] = (u8)((20 + ulen) >> 8);
		f[17] = (u8)(20 + ulen);
		f[22] = ttl;
		f[23] = 17;
		memcpy(f + 26, "\x0a\x09\x00\x02\x0a\x09\x00\x01", 8);
		for (int i = 14; i < 34; i += 2)
			sum += (u32)f[i] << 8 | f[i + 1];
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		f[24] = (u8)(~sum >> 8);
		f[25] = (u8)~sum;
	}
	f[l4] = 0xab;
	f[l4 + 1] = 0xcd;
	f[l4 + 2] = 0x12;
	f[l4 + 3] = 0xb5;	/* 4789 */
	f[l4 + 4] = (u8)(ulen >> 8);
	f[l4 + 5] = (u8)ulen;
	memcpy(f + l4 + 8, &flags, 4);
	f[l4 + 12] = (u8)(vni >> 16);
	f[l4 + 13] = (u8)(vni >> 8);
	f[l4 + 14] = (u8)vni;
	memcpy(f + l4 + 16, inner, ilen);
	if (csum) {
		sum = 17 + ulen;
		for (u32 i = v6 ? 22 : 26; i < (v6 ? 54u : 34u); i += 2)
			sum += (u32)f[i] << 8 | f[i + 1];
		for (u32 i = 0; i < ulen; i += 2)
			sum += (u32)f[l4 + i] << 8 | (i + 1 < ulen ? f[l4 + i + 1] : 0);
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		sum = ~sum & 0xffff;
		if (!sum)
			sum = 0xffff;
		f[l4 + 6] = (u8)(sum >> 8);
		f[l4 + 7] = (u8)sum;
	}
	return l4 + ulen;
}

/* What tunnel_key_rx saw of the last frame (the sentinel when none came). */
static void seen_reset(struct side *s, u64 flags, u32 *zero)
{
	struct tun_cmd cmd = { .get_size = 0, .get_opt_size = 5, .get_flags = flags,
			       .rc_get = 0x5555 };

	NB_ASSERT_EQ(bpf_map_update_elem(s->kmap_seen, zero, &cmd, 0), 0);
	NB_ASSERT_EQ(nb_map_update_elem(s->nmap_seen, zero, &cmd, 0), 0);
}

static unsigned int decap_cases(struct side *s, unsigned int *runs, unsigned int *delivered)
{
	static const struct {
		bool v6;
		u8 tos, ttl;
		u32 vni;
		u32 flags;
		bool csum;
		u32 label;
		u8 inner_tos;
	} cases[] = {
		{ false, 0, 64, 10000, 0x08000000, true, 0, 2 },
		{ false, 0x13, 5, 0xabcdef, 0x08000000, false, 0, 2 },
		{ false, 3, 255, 1, 0x08000000, true, 0, 2 },	/* CE outer, ECT inner */
		{ false, 3, 255, 1, 0x08000000, true, 0, 0 },	/* CE outer, not-ECT: dropped */
		{ false, 0, 64, 7, 0x00000000, true, 0, 2 },	/* no I flag: dropped */
		{ false, 0, 64, 7, 0x08000100, true, 0, 2 },	/* a reserved bit: dropped */
		{ true, 0x40, 9, 123, 0x08000000, true, 0x54321, 2 },
		{ true, 0, 64, 0, 0x08000000, true, 0, 2 },
		{ true, 0x43, 9, 123, 0x08000000, true, 0, 0 },	/* CE outer, not-ECT: dropped */
		/* GBP's G, D and A flags and policy id: taken by a gbp device, else dropped */
		{ false, 0, 64, 9, 0x88401234, true, 0, 2 },
		{ false, 0, 64, 9, 0x880800ab, true, 0, 2 },
		{ true, 0, 64, 9, 0x88ffffff, true, 0, 2 },
		{ false, 0, 64, 9, 0x08001234, true, 0, 2 },	/* policy bits without G */
		{ false, 0, 64, 9, 0x80001234, true, 0, 2 },	/* G without I: dropped */
	};
	u8 f[FRAME_MAX];
	unsigned int diffs = 0;
	u32 zero = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 flags = BPF_F_TUNINFO_FLAGS | (cases[i].v6 ? V6 : 0);
		u32 len = vxlan_frame(f, cases[i].v6, cases[i].tos, cases[i].ttl, cases[i].vni,
				      htonl(cases[i].flags), cases[i].csum, cases[i].label,
				      cases[i].inner_tos);
		struct tun_cmd k, n;
		struct nb_pkt *pkt;
		int injector = packet_socket("v2p", false);

		seen_reset(s, flags, &zero);
		NB_ASSERT_EQ(send(injector, f, len, 0), (ssize_t)len);
		close(injector);
		pkt = nb_pkt_alloc_data(f, len);
		NB_ASSERT(pkt);
		pkt->dev = s->v2;
		nb_eth_type_trans(pkt, s->v2);
		nb_netif_receive(pkt);
		nb_net_flush();
		for (int tries = 0; tries < 20; tries++) {	/* the kernel's softirq */
			NB_ASSERT_EQ(bpf_map_lookup_elem(s->kmap_seen, &zero, &k), 0);
			if (k.rc_get != 0x5555)
				break;
			usleep(10000);
		}
		NB_ASSERT_EQ(nb_map_lookup_elem(s->nmap_seen, &zero, &n), 0);
		(*runs)++;
		*delivered += k.rc_get != 0x5555;
		if (!memcmp(&k, &n, sizeof(k)))
			continue;
		fprintf(stderr, "vxlan decap case %zu: kernel rc %d/%d flags %04x id %u tos %u "
			"ttl %u label %x; netbpf rc %d/%d flags %04x id %u tos %u ttl %u label %x\n",
			i, k.rc_get, k.rc_get_opt, ntohs(k.got.tunnel_flags), k.got.tunnel_id,
			k.got.tunnel_tos, k.got.tunnel_ttl, k.got.tunnel_label, n.rc_get,
			n.rc_get_opt, ntohs(n.got.tunnel_flags), n.got.tunnel_id, n.got.tunnel_tos,
			n.got.tunnel_ttl, n.got.tunnel_label);
		diffs++;
	}
	return diffs;
}

NB_TEST(tunnel_kernel)
{
	unsigned int diffs = 0, runs = 0, compared = 0, delivered = 0;
	char missing[256] = "";

	struct nb_dev *v2;

	fib_world_enter();
	v2 = underlay();
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct side s = { .v2 = v2 };

		if (!setup(kinds[i].words, &s)) {
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
				 "%s%s", missing[0] ? ", " : "", kinds[i].kind);
			continue;
		}
		compared++;
		if (!strncmp(kinds[i].kind, "vxlan", 5)) {
			diffs += encap_cases(kinds[i].kind, &s, &runs);
			diffs += decap_cases(&s, &runs, &delivered);
		} else {
			NB_FAIL("no cases for %s yet: the kernel here has it", kinds[i].kind);
		}
		teardown(&s);
	}
	if (!compared)
		nb_test_skip("the kernel has none of the tunnel kinds (%s)", missing);
	nb_test_report("tunnels: %u kinds against the kernel, %u frames (%u decapsulated, the "
		       "rest refused or encapsulated): %u differ; the kernel here has no %s "
		       "(tests/unit/test_tunnel.c checks their layouts)", compared, runs,
		       delivered, diffs, missing[0] ? missing : "missing kind");
	NB_ASSERT_EQ(diffs, 0);
}
