// SPDX-License-Identifier: GPL-2.0
/*
 * Changes under traffic, with nothing lost: two workers forward two generators' frames while
 * this thread, 1,000 times over, replaces both devices' XDP programs (ip -force link set ...
 * xdp, and XDP_FLAGS_REPLACE over the expected program) and tc filters (tc filter replace), and keeps rewriting a devmap entry the XDP program
 * redirects through; every few rounds it takes a sink down and up again, and adds and deletes a
 * device. Every configuration delivers every frame somewhere (a devmap entry's sink, or XDP_PASS
 * into tc, whose filter redirects to a sink), except into the sink while it is down, which
 * drops them and counts them as dev_down. At the end the accounting is exact:
 *
 *   generated = redirected by XDP + passed to tc, per generator, and passed = sent on by tc
 *   generated (both) = transmitted by the sinks + dropped (dev_down only)
 *   each sink's port received what its device counted as transmitted
 *
 * ThreadSanitizer runs it too (make check SANITIZE=thread): no report may come.
 */
#include <pthread.h>
#include <time.h>

#include <netbpf/datapath.h>
#include <netbpf/tc.h>

#include "map_test.h"
#include "tc_test.h"
#include "xdp_test.h"

#define ROUNDS 1000
#define NR_GENS 2
#define NR_SINKS 3

struct stress {
	struct nb_dev *gens[NR_GENS], *sinks[NR_SINKS];
	struct nb_map *devmap;
	struct nb_prog *xdp[2];		/* redirect_map(devmap, 0, XDP_PASS); XDP_PASS */
	struct nb_prog *tc[2];		/* bpf_redirect(sink 1); bpf_redirect(sink 2) */
	struct nb_tc_filter_id ids[NR_GENS];
	struct nb_datapath *dp;
	unsigned int xdp_replaced, tc_replaced, map_updates, flaps, link_changes;
};

static struct nb_prog *tc_redirect_prog(u32 ifindex)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_IMM(BPF_REG_1, ifindex),
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_CALL_HELPER(BPF_FUNC_redirect),
		NB_EXIT(),
	};

	return tc_prog(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns));
}

static void set_filter(struct stress *s, unsigned int g, struct nb_prog *prog, bool replace)
{
	NB_OPTS(nb_tc_bpf_opts, bpf, .prog = prog, .direct_action = true);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 10,
				       .handle = 1, .kind = "bpf",
				       .kind_opts = &bpf };
	struct nb_log log = { 0 };
	int err;

	f.log = &log;
	err = replace ? nb_tc_filter_replace(s->gens[g], &f, &s->ids[g]) :
			nb_tc_filter_add(s->gens[g], &f, &s->ids[g]);
	if (err)
		NB_FAIL("filter on %s: %d %s", nb_dev_name(s->gens[g]), err, nb_log_text(&log));
	nb_log_free(&log);
}

/* ip -force link set dev gN xdpgeneric ..., or XDP_FLAGS_REPLACE over the expected one. */
static void set_xdp(struct stress *s, unsigned int g, struct nb_prog *prog,
		    struct nb_prog *expected)
{
	struct nb_log log = { 0 };
	int err = expected ? nb_dev_xdp_replace(s->gens[g], prog, expected, XDP_FLAGS_SKB_MODE,
						&log) :
			     nb_dev_xdp_attach(s->gens[g], prog, XDP_FLAGS_SKB_MODE, &log);

	if (err)
		NB_FAIL("xdp on %s: %d %s", nb_dev_name(s->gens[g]), err, nb_log_text(&log));
	nb_log_free(&log);
}

static void set_entry(struct stress *s, unsigned int sink)
{
	struct bpf_devmap_val v = { .ifindex = nb_dev_ifindex(s->sinks[sink]) };
	__u32 key = 0;

	NB_ASSERT_EQ(nb_map_update_elem(s->devmap, &key, &v, BPF_ANY), 0);
	s->map_updates++;
}

static void setup(struct stress *s)
{
	struct nb_datapath_opts opts = { .sz = sizeof(opts), .workers = 2 };
	char name[8];

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	for (unsigned int i = 0; i < NR_GENS; i++) {
		snprintf(name, sizeof(name), "g%u", i);
		s->gens[i] = tc_make_dev(name, 0);
		tc_set_port(s->gens[i], "gen", "count 0 pkt_size 64");
		nb_dev_set_up(s->gens[i], true);
		tc_qdisc(s->gens[i]);
	}
	for (unsigned int i = 0; i < NR_SINKS; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		s->sinks[i] = xt_dev(name, "");
	}
	s->devmap = mt_map(BPF_MAP_TYPE_DEVMAP, 4, sizeof(struct bpf_devmap_val), 4, 0);
	s->xdp[0] = xt_prog_redirect_map(s->devmap, 0, XDP_PASS);
	s->xdp[1] = xt_prog_ret(XDP_PASS);
	s->tc[0] = tc_redirect_prog(nb_dev_ifindex(s->sinks[1]));
	s->tc[1] = tc_redirect_prog(nb_dev_ifindex(s->sinks[2]));
	set_entry(s, 0);
	for (unsigned int g = 0; g < NR_GENS; g++) {
		set_xdp(s, g, s->xdp[g], NULL);
		set_filter(s, g, s->tc[0], false);
	}
	NB_ASSERT_EQ(nb_datapath_create(&opts, &s->dp), 0);
	NB_ASSERT_EQ(nb_datapath_start(s->dp), 0);
}

/* The control plane's side: each round changes everything once. */
static void churn(struct stress *s)
{
	__u32 key = 0;

	for (unsigned int r = 0; r < ROUNDS; r++) {
		for (unsigned int g = 0; g < NR_GENS; g++) {
			struct nb_prog *now = s->xdp[(r + g) % 2], *next = s->xdp[(r + g + 1) % 2];

			/* the odd rounds replace only what they expect to find */
			set_xdp(s, g, next, r % 2 ? now : NULL);
			set_filter(s, g, s->tc[(r + g + 1) % 2], true);
		}
		s->xdp_replaced += NR_GENS;
		s->tc_replaced += NR_GENS;
		/* the entry moves between two sinks, and sometimes goes (XDP_PASS then) */
		set_entry(s, r % 2);
		if (r % 3 == 0) {
			NB_ASSERT_EQ(nb_map_delete_elem(s->devmap, &key), 0);
			s->map_updates++;
		}
		set_entry(s, (r + 1) % 2);
		if (r % 10 == 5) {
			/* sink 2 (one of tc's targets) goes down for a moment */
			nb_dev_set_up(s->sinks[2], false);
			sched_yield();
			nb_dev_set_up(s->sinks[2], true);
			s->flaps++;
		}
		if (r % 50 == 25) {
			/* a device that comes, is polled, and goes while the others forward */
			struct nb_dev *t = tc_make_dev("tmp", 0);

			tc_set_port(t, "gen", "count 100");
			nb_dev_set_up(t, true);
			NB_ASSERT_EQ(nb_datapath_sync(s->dp), 0);
			sched_yield();
			nb_dev_destroy(t);
			NB_ASSERT_EQ(nb_datapath_sync(s->dp), 0);
			s->link_changes += 2;
		}
		nb_epoch_reclaim();
	}
}

static u64 sink_port_packets(struct nb_dev *dev)
{
	struct nb_sink_counts c;

	NB_ASSERT_EQ(nb_sink_counts(dev->port, &c), 0);
	return c.packets;
}

NB_TEST(datapath_changes_under_traffic_lose_nothing)
{
	struct stress s = { 0 };
	u64 generated = 0, delivered = 0, dropped = 0;

	setup(&s);
	/* XDP_FLAGS_REPLACE over a program that is not the attached one changes nothing */
	NB_ASSERT_EQ(nb_dev_xdp_replace(s.gens[0], s.xdp[1], s.xdp[1], XDP_FLAGS_SKB_MODE, NULL),
		     -EEXIST);
	churn(&s);
	NB_ASSERT_EQ(nb_datapath_drain(s.dp, 30000), 0);
	nb_datapath_stop(s.dp);
	for (unsigned int g = 0; g < NR_GENS; g++) {
		struct nb_dev_stats_total st = tc_stats(s.gens[g]);
		struct nb_xdp_stats x = xt_stats(s.gens[g]);

		NB_ASSERT(st.rx_packets > 0);
		NB_ASSERT_EQ(st.rx_dropped, 0);
		NB_ASSERT_EQ(x.aborted + x.drop + x.invalid + x.redirect_err, 0);
		/* every frame the XDP program saw went to the devmap or on to tc */
		NB_ASSERT_EQ(x.run, st.rx_packets);
		NB_ASSERT_EQ(x.redirect + x.pass, st.rx_packets);
		/* and tc sent every frame XDP passed on */
		NB_ASSERT_EQ(st.tc_redirect, x.pass);
		NB_ASSERT_EQ(st.host_packets, 0);
		generated += st.rx_packets;
	}
	for (unsigned int i = 0; i < NR_SINKS; i++) {
		struct nb_dev_stats_total st = tc_stats(s.sinks[i]);
		struct nb_xdp_stats x = xt_stats(s.sinks[i]);

		NB_ASSERT_EQ(sink_port_packets(s.sinks[i]), st.tx_packets);
		for (unsigned int r = 0; r < NB_DROP_REASON_MAX; r++)
			if (r != NB_DROP_DEV_DOWN && st.drops[r])
				nb_test_report("sink %u: %llu drops for reason %u", i,
					       (unsigned long long)st.drops[r], r);
		NB_ASSERT_EQ(st.rx_dropped, st.drops[NB_DROP_DEV_DOWN]);
		NB_ASSERT_EQ(x.xmit_drops, 0);
		delivered += st.tx_packets;
		dropped += st.rx_dropped;
	}
	NB_ASSERT_EQ(generated, delivered + dropped);
	nb_test_report("%u XDP and %u tc replaces, %u map updates, %u sink flaps, %u link "
		       "changes: %llu generated = %llu delivered + %llu dropped (dev_down)",
		       s.xdp_replaced, s.tc_replaced, s.map_updates, s.flaps, s.link_changes,
		       (unsigned long long)generated, (unsigned long long)delivered,
		       (unsigned long long)dropped);
	nb_datapath_destroy(s.dp);
	for (unsigned int i = 0; i < 2; i++) {
		nb_prog_put(s.xdp[i]);
		nb_prog_put(s.tc[i]);
	}
	nb_map_put(s.devmap);
	xt_teardown();
}
