/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the XDP tests: devices with sink ports, numbered Ethernet frames, XDP programs
 * built from instructions (verified, as users' programs are), counters, and the teardown that
 * checks that every packet buffer came back.
 */
#ifndef NB_TEST_XDP_TEST_H
#define NB_TEST_XDP_TEST_H

#include <errno.h>
#include <string.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "bpf/epoch.h"
#include "bpf/prog.h"
#include "io/port.h"
#include "io/sink.h"
#include "net/dev.h"
#include "net/filter.h"
#include "pkt/pkt.h"
#include "net/xdp.h"
#include "bpf_asm.h"
#include "test.h"

/* A device that is up; with sink words it transmits into a sink port ("keep 64"). */
static inline struct nb_dev *xt_dev(const char *name, const char *sink_words)
{
	struct nb_log log = { 0 };
	struct nb_port *port;
	struct nb_dev *dev;
	int err = nb_dev_create(name, 0, &dev, &log);

	if (err)
		NB_FAIL("create %s: %d %s", name, err, nb_log_text(&log));
	if (sink_words) {
		err = nb_port_open_str("sink", sink_words, &port, &log);
		if (err)
			NB_FAIL("sink %s: %d %s", sink_words, err, nb_log_text(&log));
		nb_dev_set_port(dev, port);
	}
	nb_log_free(&log);
	nb_dev_set_up(dev, true);
	return dev;
}

static inline struct nb_prog *xt_prog(const struct bpf_insn *insns, unsigned int cnt,
				      enum bpf_attach_type attach)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts),
		.expected_attach_type = attach,
		.license = "GPL",
		.log = &log,
	};
	struct nb_prog *prog;
	int err = nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &opts, &prog);

	if (err)
		NB_FAIL("load: %d %s", err, nb_log_text(&log) ? nb_log_text(&log) : "");
	nb_log_free(&log);
	return prog;
}

/* A program that returns act. */
static inline struct nb_prog *xt_prog_ret(u32 act)
{
	const struct bpf_insn insns[] = { NB_MOV64_IMM(BPF_REG_0, act), NB_EXIT() };

	return xt_prog(insns, ARRAY_SIZE(insns), 0);
}

/* bpf_redirect(ifindex, flags). */
static inline struct nb_prog *xt_prog_redirect(u32 ifindex, u32 flags)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_IMM(BPF_REG_1, ifindex),
		NB_MOV64_IMM(BPF_REG_2, flags),
		NB_CALL_HELPER(BPF_FUNC_redirect),
		NB_EXIT(),
	};

	return xt_prog(insns, ARRAY_SIZE(insns), 0);
}

/* bpf_redirect_map(map, key, flags). */
static inline struct nb_prog *xt_prog_redirect_map(struct nb_map *map, u32 key, u64 flags)
{
	const struct bpf_insn insns[] = {
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_MOV64_IMM(BPF_REG_2, key),
		NB_LD_IMM64(BPF_REG_3, flags),
		NB_CALL_HELPER(BPF_FUNC_redirect_map),
		NB_EXIT(),
	};

	return xt_prog(insns, ARRAY_SIZE(insns), 0);
}

static inline void xt_attach(struct nb_dev *dev, struct nb_prog *prog)
{
	struct nb_log log = { 0 };
	int err = nb_dev_xdp_attach(dev, prog, 0, &log);

	if (err)
		NB_FAIL("attach to %s: %d %s", dev->name, err, nb_log_text(&log));
	nb_log_free(&log);
	/* The device holds its own reference. */
	nb_prog_put(prog);
}

/* An Ethernet frame of len bytes (>= 18) whose IPv4 ethertype is followed by seq. */
static inline struct nb_pkt *xt_frame(u32 seq, u32 len)
{
	u8 buf[2048] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x00 };
	struct nb_pkt *pkt;

	memcpy(buf + ETH_HLEN, &seq, sizeof(seq));
	pkt = nb_pkt_alloc_data(buf, len);
	NB_ASSERT(pkt);
	return pkt;
}

static inline u32 xt_seq(const struct nb_pkt *pkt)
{
	u32 seq;

	memcpy(&seq, pkt->data + ETH_HLEN, sizeof(seq));
	return seq;
}

/* n frames numbered from first, received on dev (what nb_dev_rx_burst prepares). */
static inline void xt_burst(struct nb_dev *dev, struct nb_pkt **pkts, u32 first, u32 n)
{
	for (u32 i = 0; i < n; i++) {
		pkts[i] = xt_frame(first + i, 64);
		pkts[i]->dev = dev;
		pkts[i]->skb_iif = dev->ifindex;
		nb_eth_type_trans(pkts[i], dev);
	}
}

static inline u64 xt_sink_packets(struct nb_dev *dev)
{
	struct nb_sink_counts c;

	NB_ASSERT_EQ(nb_sink_counts(dev->port, &c), 0);
	return c.packets;
}

/* The frames a sink kept must be first, first + 1, ... first + n - 1; they are freed. */
static inline void xt_sink_expect(struct nb_dev *dev, u32 first, u32 n)
{
	struct nb_pkt *pkt = nb_sink_take(dev->port), *next;
	u32 i = 0;

	for (; pkt; pkt = next, i++) {
		next = pkt->next;
		if (i < n)
			NB_ASSERT_EQ(xt_seq(pkt), first + i);
		nb_pkt_free(pkt);
	}
	NB_ASSERT_EQ(i, n);
}

/* Free frames the hook handed back (XDP_PASS). */
static inline void xt_free(struct nb_pkt **pkts, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		nb_pkt_free(pkts[i]);
}

static inline struct nb_xdp_stats xt_stats(struct nb_dev *dev)
{
	struct nb_xdp_stats st;

	nb_dev_xdp_stats_read(dev, &st);
	return st;
}

/* Everything returned: devices, retired programs and entries, packets. */
static inline void xt_teardown(void)
{
	nb_xdp_do_flush();
	nb_dev_destroy_all();
	nb_epoch_barrier();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

#endif /* NB_TEST_XDP_TEST_H */
