// SPDX-License-Identifier: GPL-2.0
/*
 * cpumap (src/net/cpumap.c): the kernel's attribute and update rules, bpf_redirect_map from one
 * worker into another worker's queue, the entry's program on the receiving worker, a full queue,
 * an entry removed with frames waiting, and two worker threads at once.
 */
#include <pthread.h>

#include <netbpf/percpu.h>

#include "net/cpumap.h"
#include "ctx_rewrite.h"
#include "map_test.h"
#include "tc_test.h"
#include "xdp_test.h"

static int set(struct nb_map *map, u32 key, u32 qsize, s32 prog_id, u64 flags)
{
	struct bpf_cpumap_val val = { .qsize = qsize, .bpf_prog.fd = prog_id };

	return nb_map_update_elem(map, &key, &val, flags);
}

/*
 * A cpumap program: writes the frame's ingress_ifindex into byte 7 (the receiving device must
 * still be the frame's), then bpf_redirect(ifindex) when ifindex is not 0, else returns act.
 */
static struct nb_prog *entry_prog(u32 act, u32 ifindex)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_4, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data)),
		NB_LDX_MEM(BPF_W, BPF_REG_5, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		NB_MOV64_REG(BPF_REG_6, BPF_REG_3),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_6, ETH_ALEN + 2),
		NB_JMP_REG(BPF_JGT, BPF_REG_6, BPF_REG_5, 1),
		NB_STX_MEM(BPF_B, BPF_REG_3, BPF_REG_4, ETH_ALEN + 1),
		NB_MOV64_IMM(BPF_REG_0, act),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, XDP_REDIRECT, 1),
		NB_EXIT(),
		NB_MOV64_IMM(BPF_REG_1, ifindex),
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_CALL_HELPER(BPF_FUNC_redirect),
		NB_EXIT(),
	};

	return ctx_test_load(BPF_PROG_TYPE_XDP, BPF_XDP_CPUMAP, insns, ARRAY_SIZE(insns));
}

static u64 drops(struct nb_dev *dev, enum nb_drop_reason reason)
{
	struct nb_dev_stats_total t;

	nb_dev_stats_read(dev, &t);
	return t.drops[reason];
}

static u64 host_packets(struct nb_dev *dev)
{
	struct nb_dev_stats_total t;

	nb_dev_stats_read(dev, &t);
	return t.host_packets;
}

/* n frames from first received on rx by worker cpu, then that worker's flush. */
static void receive_on(unsigned int cpu, struct nb_dev *rx, u32 first, u32 n)
{
	struct nb_pkt *pkts[64];

	NB_ASSERT(n <= ARRAY_SIZE(pkts));
	NB_ASSERT_EQ(nb_set_this_cpu(cpu), 0);
	xt_burst(rx, pkts, first, n);
	NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, n), 0);
	nb_xdp_do_flush();
}

static void poll_on(unsigned int cpu)
{
	NB_ASSERT_EQ(nb_set_this_cpu(cpu), 0);
	nb_xdp_do_flush();
}

NB_TEST(cpumap_create_rules)
{
	struct nb_map_create_opts opts = { .sz = sizeof(opts) };
	struct nb_map *map;

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_CPUMAP, 8, 4, 4, &opts, &map), -EINVAL);
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_CPUMAP, 4, 6, 4, &opts, &map), -EINVAL);
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_CPUMAP, 4, 12, 4, &opts, &map), -EINVAL);
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_CPUMAP, 4, 4, 0, &opts, &map), -EINVAL);
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_CPUMAP, 4, 4, NB_MAX_CPUS + 1, &opts, &map),
		     -E2BIG);
	opts.map_flags = BPF_F_RDONLY;
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_CPUMAP, 4, 4, 4, &opts, &map), -EINVAL);
	opts.map_flags = BPF_F_NO_PREALLOC;
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_CPUMAP, 4, 4, 4, &opts, &map), -EINVAL);
	opts.map_flags = 0;
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_CPUMAP, 4, 4, NB_MAX_CPUS, &opts, &map), 0);
	nb_map_put(map);
	map = mt_map(BPF_MAP_TYPE_CPUMAP, 4, 8, 4, 0);
	nb_map_put(map);
}

NB_TEST(cpumap_update_rules)
{
	struct nb_prog *ep, *plain;
	struct nb_map *map, *small;
	struct bpf_cpumap_val val;
	u32 key, next, qsize;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	map = mt_map(BPF_MAP_TYPE_CPUMAP, 4, 8, 4, 0);
	small = mt_map(BPF_MAP_TYPE_CPUMAP, 4, 4, 4, 0);
	ep = entry_prog(XDP_PASS, 0);
	plain = xt_prog_ret(XDP_PASS);
	NB_ASSERT_EQ(set(map, 4, 8, 0, 0), -E2BIG);
	NB_ASSERT_EQ(set(map, 0, 8, 0, BPF_NOEXIST), -EEXIST);	/* slots always exist */
	NB_ASSERT_EQ(set(map, 0, 8, 0, 3), -EINVAL);
	NB_ASSERT_EQ(set(map, 0, 16385, 0, 0), -EOVERFLOW);
	NB_ASSERT_EQ(set(map, 2, 8, 0, 0), -ENODEV);		/* no worker 2 */
	/* a wrong program fails as the kernel's entry allocation does */
	NB_ASSERT_EQ(set(map, 0, 8, (s32)nb_prog_id(plain), 0), -ENOMEM);
	NB_ASSERT_EQ(set(map, 0, 8, 99999, 0), -ENOMEM);
	NB_ASSERT_EQ(set(map, 0, 16384, (s32)nb_prog_id(ep), BPF_EXIST), 0);
	NB_ASSERT_EQ(set(map, 1, 8, -1, BPF_ANY), 0);		/* fd <= 0: none */
	key = 0;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &val), 0);
	NB_ASSERT_EQ(val.qsize, 16384);
	NB_ASSERT_EQ(val.bpf_prog.id, nb_prog_id(ep));
	key = 1;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &val), 0);
	NB_ASSERT_EQ(val.qsize, 8);
	NB_ASSERT_EQ(val.bpf_prog.id, 0);
	/* qsize 0 empties a slot */
	NB_ASSERT_EQ(set(map, 1, 0, 0, 0), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &val), -ENOENT);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), 0);		/* empty: still 0 */
	key = 4;
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), -EINVAL);
	/* keys walk like an array's */
	NB_ASSERT_EQ(nb_map_get_next_key(map, NULL, &next), 0);
	NB_ASSERT_EQ(next, 0);
	key = 2;
	NB_ASSERT_EQ(nb_map_get_next_key(map, &key, &next), 0);
	NB_ASSERT_EQ(next, 3);
	key = 3;
	NB_ASSERT_EQ(nb_map_get_next_key(map, &key, &next), -ENOENT);
	key = 0;
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &val), -ENOENT);
	/* the 4-byte form: qsize alone, no program */
	qsize = 5;
	NB_ASSERT_EQ(nb_map_update_elem(small, &key, &qsize, 0), 0);
	qsize = 0;
	NB_ASSERT_EQ(nb_map_lookup_elem(small, &key, &qsize), 0);
	NB_ASSERT_EQ(qsize, 5);
	nb_map_put(map);
	nb_map_put(small);
	nb_prog_put(ep);
	nb_prog_put(plain);
	xt_teardown();
}

/*
 * Worker 0 redirects into worker 1's entry: nothing happens until worker 1 polls, which runs
 * the entry's program (it sees the receiving device) and its redirect out of tx.
 */
NB_TEST(cpumap_redirect_to_other_worker)
{
	struct nb_dev *rx, *tx;
	struct nb_map *map;
	struct nb_prog *ep;
	struct nb_pkt *out;
	u32 i = 0;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	rx = xt_dev("rx0", NULL);
	tx = xt_dev("tx0", "keep 64");
	map = mt_map(BPF_MAP_TYPE_CPUMAP, 4, 8, 2, 0);
	ep = entry_prog(XDP_REDIRECT, tx->ifindex);
	NB_ASSERT_EQ(set(map, 1, 64, (s32)nb_prog_id(ep), 0), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 1, 0));
	receive_on(0, rx, 0, 10);
	NB_ASSERT_EQ(xt_stats(rx).redirect, 10);
	NB_ASSERT_EQ(xt_sink_packets(tx), 0);
	poll_on(0);					/* not worker 0's queue */
	NB_ASSERT_EQ(xt_sink_packets(tx), 0);
	poll_on(1);
	NB_ASSERT_EQ(xt_sink_packets(tx), 10);
	for (out = nb_sink_take(tx->port); out; i++) {
		struct nb_pkt *next = out->next;

		NB_ASSERT_EQ(xt_seq(out), i);
		NB_ASSERT_EQ(out->data[ETH_ALEN + 1], rx->ifindex);
		nb_pkt_free(out);
		out = next;
	}
	NB_ASSERT_EQ(i, 10);
	/* a key without an entry: the low flag bits are the verdict, nothing is queued */
	xt_attach(rx, xt_prog_redirect_map(map, 0, XDP_DROP));
	receive_on(0, rx, 0, 3);
	NB_ASSERT_EQ(xt_stats(rx).drop, 3);
	poll_on(1);
	NB_ASSERT_EQ(xt_sink_packets(tx), 10);
	nb_map_put(map);
	nb_prog_put(ep);
	xt_teardown();
}

/*
 * No program: frames go up worker 1's receive path; a queue of 4 drops the rest, and has room
 * for 4 again once worker 1 has taken them.
 */
NB_TEST(cpumap_pass_and_full_queue)
{
	struct nb_dev *rx;
	struct nb_map *map;
	struct nb_prog *drop;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	rx = xt_dev("rx0", NULL);
	map = mt_map(BPF_MAP_TYPE_CPUMAP, 4, 8, 2, 0);
	drop = entry_prog(XDP_DROP, 0);
	NB_ASSERT_EQ(set(map, 1, 4, 0, 0), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 1, 0));
	receive_on(0, rx, 0, 10);
	NB_ASSERT_EQ(drops(rx, NB_DROP_CPUMAP_FULL), 6);
	NB_ASSERT_EQ(host_packets(rx), 0);
	poll_on(1);
	NB_ASSERT_EQ(host_packets(rx), 4);
	receive_on(0, rx, 10, 4);
	NB_ASSERT_EQ(drops(rx, NB_DROP_CPUMAP_FULL), 6);
	poll_on(1);
	NB_ASSERT_EQ(host_packets(rx), 8);
	/* the entry's program decides: XDP_DROP */
	NB_ASSERT_EQ(set(map, 1, 4, (s32)nb_prog_id(drop), 0), 0);
	receive_on(0, rx, 0, 2);
	poll_on(1);
	NB_ASSERT_EQ(drops(rx, NB_DROP_XDP), 2);
	NB_ASSERT_EQ(host_packets(rx), 8);
	nb_map_put(map);
	nb_prog_put(drop);
	xt_teardown();
}

/*
 * A frame a cpumap passes reaches the stack as a new skb (cpu_map_build_skb): what an earlier
 * hop left in its qdisc cb (a pipe's sender, its tc egress program's cb[]) is gone, as the
 * receive path before XDP no longer clears it. tc ingress passes only frames whose cb[0] is 0.
 */
NB_TEST(cpumap_pass_clears_the_stack_scratch)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, SKB_OFF(cb[0])),
		NB_MOV64_IMM(BPF_REG_0, TC_ACT_OK),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_2, 0, 1),
		NB_MOV64_IMM(BPF_REG_0, TC_ACT_SHOT),
		NB_EXIT(),
	};
	NB_OPTS(nb_tc_bpf_opts, bpf, .direct_action = true);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "bpf",
				       .kind_opts = &bpf };
	struct nb_pkt *pkts[4];
	struct nb_dev *rx;
	struct nb_map *map;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	rx = xt_dev("rx0", NULL);
	map = mt_map(BPF_MAP_TYPE_CPUMAP, 4, 8, 2, 0);
	NB_ASSERT_EQ(set(map, 1, 64, 0, 0), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 1, 0));
	bpf.prog = tc_prog(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns));
	tc_qdisc(rx);
	tc_add(rx, &f);
	nb_prog_put(bpf.prog);
	NB_ASSERT_EQ(nb_set_this_cpu(0), 0);
	xt_burst(rx, pkts, 0, 4);
	for (unsigned int i = 0; i < 4; i++)
		memset(pkts[i]->qdisc_cb.data, 0x5a, sizeof(pkts[i]->qdisc_cb.data));
	NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 4), 0);
	nb_xdp_do_flush();
	poll_on(1);
	NB_ASSERT_EQ(host_packets(rx), 4);
	NB_ASSERT_EQ(tc_stats(rx).drops[NB_DROP_TC_INGRESS], 0);
	nb_map_put(map);
	xt_teardown();
}

/*
 * A sending worker gathers 8 frames per entry before they move to the entry's queue (the
 * kernel's CPU_MAP_BULK_SIZE); the rest move at the end of its poll.
 */
NB_TEST(cpumap_bulk_of_8)
{
	struct nb_pkt *pkts[10];
	struct nb_dev *rx;
	struct nb_map *map;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	rx = xt_dev("rx0", NULL);
	map = mt_map(BPF_MAP_TYPE_CPUMAP, 4, 4, 2, 0);
	NB_ASSERT_EQ(set(map, 1, 64, 0, 0), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 1, 0));
	NB_ASSERT_EQ(nb_set_this_cpu(0), 0);
	xt_burst(rx, pkts, 0, 10);
	NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 10), 0);	/* worker 0's poll, not flushed yet */
	/* worker 1 drains its entries' queues (its flush would be this thread's, worker 0's) */
	NB_ASSERT_EQ(nb_set_this_cpu(1), 0);
	NB_ASSERT_EQ(nb_cpu_map_poll(), 8);		/* the first full bulk */
	NB_ASSERT_EQ(host_packets(rx), 8);
	poll_on(0);					/* the end of worker 0's poll */
	NB_ASSERT_EQ(nb_set_this_cpu(1), 0);
	NB_ASSERT_EQ(nb_cpu_map_poll(), 2);
	NB_ASSERT_EQ(host_packets(rx), 10);
	nb_map_put(map);
	xt_teardown();
}

/* An entry replaced while frames wait: they are dropped with it, none is lost or leaked. */
NB_TEST(cpumap_entry_removed_with_frames)
{
	struct nb_dev *rx;
	struct nb_map *map;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	rx = xt_dev("rx0", NULL);
	map = mt_map(BPF_MAP_TYPE_CPUMAP, 4, 4, 2, 0);
	NB_ASSERT_EQ(set(map, 1, 16, 0, 0), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 1, 0));
	receive_on(0, rx, 0, 5);
	NB_ASSERT_EQ(set(map, 1, 16, 0, 0), 0);		/* a new entry: the old one goes */
	receive_on(0, rx, 5, 2);
	nb_epoch_barrier();
	NB_ASSERT_EQ(drops(rx, NB_DROP_NO_DEV), 5);
	poll_on(1);
	NB_ASSERT_EQ(host_packets(rx), 2);
	receive_on(0, rx, 0, 3);
	nb_map_put(map);				/* frames still queued: freed with it */
	NB_ASSERT_EQ(nb_dev_xdp_attach(rx, NULL, 0, NULL), 0);
	/* the program goes after a grace period, the map with it, its entries after another */
	nb_epoch_barrier();
	nb_epoch_barrier();
	NB_ASSERT_EQ(drops(rx, NB_DROP_NO_DEV), 8);
	xt_teardown();
}

/* Two worker threads: 0 receives and redirects every frame to 1, which takes them. */
struct worker_arg {
	struct nb_dev *rx;
	unsigned int cpu;
	u32 frames;
	const volatile bool *stop;
};

static void *sender(void *arg)
{
	struct worker_arg *w = arg;
	struct nb_pkt *pkts[32];

	nb_set_this_cpu(w->cpu);
	nb_epoch_online();
	for (u32 sent = 0; sent < w->frames; sent += 32) {
		xt_burst(w->rx, pkts, sent, 32);
		nb_xdp_rx_burst(w->rx, pkts, 32);
		nb_xdp_do_flush();
		nb_epoch_quiescent();
	}
	nb_epoch_offline();
	return NULL;
}

static void *receiver(void *arg)
{
	struct worker_arg *w = arg;

	nb_set_this_cpu(w->cpu);
	nb_epoch_online();
	while (!__atomic_load_n(w->stop, __ATOMIC_ACQUIRE)) {
		nb_xdp_do_flush();
		nb_epoch_quiescent();
	}
	nb_xdp_do_flush();
	nb_epoch_offline();
	return NULL;
}

NB_TEST(cpumap_two_workers)
{
	bool stop = false;
	struct worker_arg s = { .cpu = 0, .frames = 32 * 200, .stop = &stop };
	struct worker_arg r = { .cpu = 1, .stop = &stop };
	pthread_t ts, tr;
	struct nb_map *map;
	u64 got;

	NB_ASSERT_EQ(nb_set_nr_cpus(2), 0);
	s.rx = r.rx = xt_dev("rx0", NULL);
	map = mt_map(BPF_MAP_TYPE_CPUMAP, 4, 8, 2, 0);
	NB_ASSERT_EQ(set(map, 1, 16384, 0, 0), 0);
	xt_attach(s.rx, xt_prog_redirect_map(map, 1, 0));
	NB_ASSERT_EQ(pthread_create(&tr, NULL, receiver, &r), 0);
	NB_ASSERT_EQ(pthread_create(&ts, NULL, sender, &s), 0);
	pthread_join(ts, NULL);
	__atomic_store_n(&stop, true, __ATOMIC_RELEASE);
	pthread_join(tr, NULL);
	got = host_packets(s.rx);
	/* every frame arrived or was dropped at a full queue, nothing else */
	NB_ASSERT_EQ(got + drops(s.rx, NB_DROP_CPUMAP_FULL), s.frames);
	NB_ASSERT(got > 0);
	nb_map_put(map);
	xt_teardown();
}
