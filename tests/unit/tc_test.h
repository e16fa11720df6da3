/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the tc tests: devices with ports, frames, programs (hand-assembled or from the
 * examples), filters, and the packet accounting every test ends with: each packet that entered
 * (received from a port, or made by a clone) is counted once as transmitted, delivered to the
 * host side, dropped or consumed, and the pool has no buffer out.
 */
#ifndef NB_TEST_TC_TEST_H
#define NB_TEST_TC_TEST_H

#include <errno.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/pkt_cls.h>
#include <linux/tc_act/tc_mirred.h>

#include <netbpf/object.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>
#include <netbpf/tc.h>

#include "bpf_asm.h"
#include "ctx_rewrite.h"
#include "io/port.h"
#include "io/sink.h"
#include "net/core.h"
#include "pkt/csum.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/tc/pkt_cls.h"
#include "test.h"

#define SKB_OFF(f) ((short)offsetof(struct __sk_buff, f))

static inline struct nb_dev *tc_make_dev(const char *name, u32 ifindex)
{
	struct nb_log log = { 0 };
	struct nb_dev *dev;
	int err = nb_dev_create(name, ifindex, &dev, &log);

	if (err)
		NB_FAIL("create %s: %d %s", name, err, nb_log_text(&log));
	nb_log_free(&log);
	nb_dev_set_up(dev, true);
	return dev;
}

static inline void tc_set_port(struct nb_dev *dev, const char *kind, const char *words)
{
	struct nb_log log = { 0 };
	struct nb_port *port;
	int err = nb_port_open_str(kind, words, &port, &log);

	if (err)
		NB_FAIL("%s %s: %d %s", kind, words, err, nb_log_text(&log));
	nb_log_free(&log);
	nb_dev_set_port(dev, port);
}

static inline void tc_qdisc(struct nb_dev *dev)
{
	struct nb_log log = { 0 };
	int err = nb_tc_qdisc_add(dev, NB_TC_QDISC_CLSACT, &log);

	if (err)
		NB_FAIL("qdisc add %s: %d %s", dev->name, err, nb_log_text(&log));
	nb_log_free(&log);
}

/*
 * A frame: Ethernet to dev's MAC, then IPv4/UDP (or TCP) with correct checksums. The headers are
 * built in aligned locals and copied: frame buffers carry no alignment.
 */
static inline u32 tc_frame_ipv4(u8 *buf, const struct nb_dev *dev, u8 proto, u32 saddr,
				u32 daddr, u16 sport, u16 dport, u32 payload)
{
	struct ethhdr eth = { .h_proto = htons(ETH_P_IP) };
	struct iphdr ip = { .version = 4, .ihl = 5, .ttl = 64 };
	u32 l4hlen = proto == IPPROTO_TCP ? sizeof(struct tcphdr) : sizeof(struct udphdr);
	u32 l4len = l4hlen + payload;
	u8 *l4 = buf + ETH_HLEN + sizeof(ip);
	u32 sum;
	u16 check;

	memset(buf, 0, ETH_HLEN + sizeof(ip) + l4len);
	memcpy(eth.h_dest, dev ? dev->addr : (const u8 *)"\x02\0\0\0\0\x01", ETH_ALEN);
	memcpy(eth.h_source, "\x02\0\0\0\0\x99", ETH_ALEN);
	ip.protocol = proto;
	ip.tot_len = htons(sizeof(ip) + l4len);
	ip.saddr = htonl(saddr);
	ip.daddr = htonl(daddr);
	ip.check = nb_csum_compute(&ip, sizeof(ip));
	memcpy(buf, &eth, ETH_HLEN);
	memcpy(buf + ETH_HLEN, &ip, sizeof(ip));
	for (u32 i = 0; i < payload; i++)
		l4[l4hlen + i] = (u8)(i * 7 + 1);
	if (proto == IPPROTO_TCP) {
		struct tcphdr th = { .source = htons(sport), .dest = htons(dport), .doff = 5,
				     .syn = 1, .window = htons(1024) };

		memcpy(l4, &th, sizeof(th));
	} else {
		struct udphdr uh = { .source = htons(sport), .dest = htons(dport),
				     .len = htons(l4len) };

		memcpy(l4, &uh, sizeof(uh));
	}
	/* pseudo header + L4, computed by the plain definition (RFC 1071) */
	sum = (saddr >> 16) + (saddr & 0xffff) + (daddr >> 16) + (daddr & 0xffff);
	sum += proto + l4len;
	for (u32 i = 0; i < l4len; i += 2)
		sum += (u32)l4[i] << 8 | (i + 1 < l4len ? l4[i + 1] : 0);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	if (proto == IPPROTO_TCP) {
		check = htons((u16)sum);
		memcpy(l4 + offsetof(struct tcphdr, check), &check, 2);
	} else {
		check = htons(sum ? (u16)sum : 0xffff);
		memcpy(l4 + offsetof(struct udphdr, check), &check, 2);
	}
	return ETH_HLEN + sizeof(ip) + l4len;
}

static inline u32 tc_frame_arp(u8 *buf)
{
	struct ethhdr *eth = (struct ethhdr *)buf;

	memset(buf, 0, 60);
	memset(eth->h_dest, 0xff, ETH_ALEN);
	memcpy(eth->h_source, "\x02\0\0\0\0\x99", ETH_ALEN);
	eth->h_proto = htons(ETH_P_ARP);
	buf[ETH_HLEN + 1] = 1;		/* htype Ethernet */
	buf[ETH_HLEN + 2] = 0x08;	/* ptype IPv4 */
	return 60;
}

/* IPv6 from ::1 to ::2 with nexthdr, 80 bytes, multicast Ethernet destination. */
static inline u32 tc_frame_ipv6(u8 *buf, u8 nexthdr)
{
	struct ipv6hdr ip6 = { .version = 6, .nexthdr = nexthdr, .hop_limit = 64 };

	memset(buf, 0, 80);
	memcpy(buf, "\x33\x33\0\0\0\x01\x02\0\0\0\0\x99\x86\xdd", ETH_HLEN);
	ip6.payload_len = htons(80 - ETH_HLEN - sizeof(ip6));
	ip6.saddr.s6_addr[15] = 1;
	ip6.daddr.s6_addr[15] = 2;
	memcpy(buf + ETH_HLEN, &ip6, sizeof(ip6));
	return 80;
}

/* A frame arriving on dev as a port would hand it over (counted as rx). */
static inline struct nb_pkt *tc_pkt(struct nb_dev *dev, const u8 *frame, u32 len)
{
	struct nb_pkt *pkt = nb_pkt_alloc_data(frame, len);

	NB_ASSERT(pkt);
	pkt->dev = dev;
	pkt->skb_iif = dev->ifindex;
	nb_eth_type_trans(pkt, dev);
	pkt->qdisc_cb.pkt_len = pkt->len;
	nb_dev_count_rx(dev, pkt->len);
	return pkt;
}

/* The same packet, not counted: for nb_tc_run on a hook directly; the caller frees it. */
static inline struct nb_pkt *tc_pkt_nocount(struct nb_dev *dev, const u8 *frame, u32 len)
{
	struct nb_pkt *pkt = nb_pkt_alloc_data(frame, len);

	NB_ASSERT(pkt);
	pkt->dev = dev;
	pkt->skb_iif = dev->ifindex;
	nb_eth_type_trans(pkt, dev);
	pkt->qdisc_cb.pkt_len = pkt->len;
	pkt->tc_at_ingress = 1;
	return pkt;
}

/* Classify a frame at dev's ingress hook: the verdict; *pktp (when asked) keeps the packet. */
static inline int tc_run_frame(struct nb_dev *dev, const u8 *frame, u32 len, struct nb_pkt **pktp)
{
	struct nb_pkt *pkt = tc_pkt_nocount(dev, frame, len);
	int ret = nb_tc_run(nb_tc_dev_block(dev, NB_TC_INGRESS, NULL), pkt);

	if (pktp)
		*pktp = pkt;
	else
		nb_pkt_free(pkt);
	return ret;
}

/* Receive one frame on dev and finish the burst. */
static inline int tc_receive(struct nb_dev *dev, const u8 *frame, u32 len)
{
	int ret = nb_netif_receive(tc_pkt(dev, frame, len));

	nb_net_flush();
	return ret;
}

static inline struct nb_dev_stats_total tc_stats(struct nb_dev *dev)
{
	struct nb_dev_stats_total t;

	nb_dev_stats_read(dev, &t);
	return t;
}

/*
 * Every packet that entered on devs (rx from ports, clones) is counted once as sent, delivered,
 * consumed or dropped; no buffer is out of the pool (after frames kept by sinks are freed).
 */
static inline void tc_check_accounting(struct nb_dev *const *devs, unsigned int n)
{
	u64 in = 0, out = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct nb_dev_stats_total t = tc_stats(devs[i]);

		in += t.rx_packets + t.clones;
		out += t.tx_packets + t.host_packets + t.consumed + t.rx_dropped;
	}
	NB_ASSERT_EQ(in, out);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A SCHED_CLS/SCHED_ACT program assembled by hand, loaded through the verifier. */
static inline struct nb_prog *tc_prog(enum bpf_prog_type type, const struct bpf_insn *insns,
				      unsigned int cnt)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = &log };
	struct nb_prog *prog;
	int err = nb_prog_load(type, insns, cnt, &opts, &prog);

	if (err)
		NB_FAIL("load: %d %s", err, nb_log_text(&log) ? nb_log_text(&log) : "");
	nb_log_free(&log);
	return prog;
}

/* r0 = ret; exit. */
static inline struct nb_prog *tc_prog_ret(enum bpf_prog_type type, int ret)
{
	const struct bpf_insn insns[] = { NB_MOV64_IMM(BPF_REG_0, ret), NB_EXIT() };

	return tc_prog(type, insns, ARRAY_SIZE(insns));
}

/* skb->tc_classid = classid; r0 = ret; exit. */
static inline struct nb_prog *tc_prog_classid_ret(enum bpf_prog_type type, u32 classid, int ret)
{
	const struct bpf_insn insns[] = {
		NB_ST_MEM(BPF_W, BPF_REG_1, SKB_OFF(tc_classid), (int)classid),
		NB_MOV64_IMM(BPF_REG_0, ret),
		NB_EXIT(),
	};

	return tc_prog(type, insns, ARRAY_SIZE(insns));
}

/* skb->mark += 1; r0 = ret: shows how often a program ran on a packet. */
static inline struct nb_prog *tc_prog_count_ret(enum bpf_prog_type type, int ret)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, SKB_OFF(mark)),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_2, 1),
		NB_STX_MEM(BPF_W, BPF_REG_1, BPF_REG_2, SKB_OFF(mark)),
		NB_MOV64_IMM(BPF_REG_0, ret),
		NB_EXIT(),
	};

	return tc_prog(type, insns, ARRAY_SIZE(insns));
}

/*
 * A program of an example object (build/examples/FILE) by section, as the given type, with
 * load flags (enum nb_prog_load_flags: NB_PROG_LOAD_INTERP for the interpreter).
 */
static inline struct nb_prog *tc_example_prog_flags(const char *file, const char *section,
						    enum bpf_prog_type type, unsigned int flags,
						    struct nb_object **objp)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts oopts = { .sz = sizeof(oopts), .log = &log };
	struct nb_object_load_opts lopts = {
		.sz = sizeof(lopts), .prog_type = type, .prog_flags = flags, .log = &log,
	};
	struct nb_object_prog *p;
	struct nb_object *obj;
	char rel[256], buf[4096];
	int err;

	snprintf(rel, sizeof(rel), "examples/%s", file);
	err = nb_object_open_file(nb_test_build_path(buf, sizeof(buf), rel), &oopts, &obj);
	if (err)
		NB_FAIL("open %s: %d %s", file, err, nb_log_text(&log));
	nb_object_for_each_prog(p, obj)
		nb_object_prog_set_autoload(p, !strcmp(nb_object_prog_section(p), section));
	p = nb_object_find_prog(obj, section, NULL);
	if (!p)
		NB_FAIL("%s has no section %s", file, section);
	err = nb_object_load(obj, &lopts);
	if (!err) {
		nb_log_free(&log);
		*objp = obj;
		return nb_prog_get(nb_object_prog_prog(p));
	}
	NB_FAIL("load %s sec %s: %d %s", file, section, err, nb_log_text(&log));
	return NULL;
}

/* The same with the default flags (verified, JIT-compiled when the JIT takes it). */
static inline struct nb_prog *tc_example_prog(const char *file, const char *section,
					      enum bpf_prog_type type, struct nb_object **objp)
{
	return tc_example_prog_flags(file, section, type, 0, objp);
}

static inline struct nb_tc_filter_id tc_add(struct nb_dev *dev, struct nb_tc_filter_opts *opts)
{
	struct nb_log log = { 0 };
	struct nb_tc_filter_id id;
	int err;

	opts->sz = sizeof(*opts);
	opts->log = &log;
	err = nb_tc_filter_add(dev, opts, &id);
	if (err)
		NB_FAIL("filter add on %s: %d %s", dev->name, err, nb_log_text(&log));
	nb_log_free(&log);
	opts->log = NULL;
	return id;
}

/* A filter's info without its print lists. */
static inline struct nb_tc_filter_info tc_info(struct nb_dev *dev, const struct nb_tc_filter_id *id)
{
	struct nb_tc_filter_info info;
	int err = nb_tc_filter_get(dev, id, &info, NULL);

	if (err)
		NB_FAIL("filter get: %d", err);
	/* the counters and ids stay; what show prints (heap lists) is dropped */
	nb_tc_filter_info_release(&info);
	return info;
}

#endif /* NB_TEST_TC_TEST_H */
