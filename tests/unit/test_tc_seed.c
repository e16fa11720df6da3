// SPDX-License-Identifier: GPL-2.0
/*
 * The three seed set-ups of the tc datapath, on in-memory ports: a generator device whose tc
 * ingress sends every packet out of the device with the next ifindex (a sink), by
 *   1. u32 match u32 0 0 flowid 1:2 action bpf obj tcbpf1.o sec clone_redirect_xmit drop
 *   2. u32 match u32 0 0 flowid 1:2 action bpf obj tcbpf1.o sec redirect_xmit drop
 *   3. bpf obj tcbpf1.o sec redirect_xmit da classid 1
 * The counters of both devices, the filter and its action prove where each packet went.
 */
#include <pthread.h>

#include "net/worker.h"
#include "tc_test.h"

#define SEED_COUNT 100
#define SEED_SIZE 64

struct seed {
	const char *section;
	bool direct_action;	/* 3: the bpf classifier itself */
	bool clone;		/* 1: the original is dropped, a clone goes out */
};

static void run_seed(const void *arg)
{
	const struct seed *seed = arg;
	struct nb_dev *gen = tc_make_dev("gen0", 0), *sink = tc_make_dev("sink0", 0);
	struct nb_dev *devs[] = { gen, sink };
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS };
	NB_OPTS(nb_tc_act_bpf_opts, act_bpf);
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind_opts = &act_bpf };
	NB_OPTS(nb_tc_bpf_opts, bpf);
	NB_OPTS(nb_tc_u32_opts, sel);
	struct nb_dev_stats_total gs, ss;
	struct nb_tc_filter_info info;
	struct nb_tc_filter_id id;
	struct nb_tc_stats hs;
	struct nb_sink_counts sc;
	struct nb_object *obj;
	struct nb_prog *prog;
	char words[128];

	NB_ASSERT_EQ(sink->ifindex, gen->ifindex + 1);
	snprintf(words, sizeof(words), "count %d pkt_size %d", SEED_COUNT, SEED_SIZE);
	tc_set_port(gen, "gen", words);
	tc_set_port(sink, "sink", "");
	tc_qdisc(gen);

	if (seed->direct_action) {
		prog = tc_example_prog("tcbpf1.o", seed->section, BPF_PROG_TYPE_SCHED_CLS, &obj);
		f.kind = "bpf";
		f.kind_opts = &bpf;
		bpf.prog = prog;
		bpf.direct_action = true;
		bpf.classid = 1;
	} else {
		prog = tc_example_prog("tcbpf1.o", seed->section, BPF_PROG_TYPE_SCHED_ACT, &obj);
		f.kind = "u32";
		f.kind_opts = &sel;
		NB_ASSERT_EQ(nb_tc_u32_match(&sel, NB_TC_U32_SIZE_32, 0, 0, 0, false, NULL), 0);
		sel.classid = TC_H_MAKE(1 << 16, 2);
		act.kind = "bpf";
		act_bpf.prog = prog;
		act.control = TC_ACT_SHOT;
		act.has_control = true;
		f.actions = &act;
		f.action_cnt = 1;
	}
	id = tc_add(gen, &f);
	nb_prog_put(prog);	/* the filter holds its own reference */

	nb_worker_run(devs, 2, NULL);

	gs = tc_stats(gen);
	ss = tc_stats(sink);
	NB_ASSERT_EQ(gs.rx_packets, SEED_COUNT);
	NB_ASSERT_EQ(ss.tx_packets, SEED_COUNT);
	NB_ASSERT_EQ(ss.tx_bytes, SEED_COUNT * SEED_SIZE);
	NB_ASSERT_EQ(nb_sink_counts(sink->port, &sc), 0);
	NB_ASSERT_EQ(sc.packets, SEED_COUNT);
	NB_ASSERT_EQ(gs.host_packets, 0);
	NB_ASSERT_EQ(ss.rx_dropped, 0);
	if (seed->clone) {
		NB_ASSERT_EQ(gs.clones, SEED_COUNT);
		NB_ASSERT_EQ(gs.drops[NB_DROP_TC_INGRESS], SEED_COUNT);
		NB_ASSERT_EQ(gs.rx_dropped, SEED_COUNT);
	} else {
		NB_ASSERT_EQ(gs.clones, 0);
		NB_ASSERT_EQ(gs.rx_dropped, 0);
	}

	/* the hook counts every frame; u32 its matches; cls_bpf nothing, as the kernel's */
	NB_ASSERT_EQ(nb_tc_hook_stats(gen, NB_TC_INGRESS, &hs), 0);
	NB_ASSERT_EQ(hs.packets, SEED_COUNT);
	NB_ASSERT_EQ(hs.drops, seed->clone ? SEED_COUNT : 0);
	info = tc_info(gen, &id);
	NB_ASSERT_EQ(info.stats.packets, seed->direct_action ? 0 : SEED_COUNT);
	NB_ASSERT_EQ(info.stats.drops, seed->clone && !seed->direct_action ? SEED_COUNT : 0);
	if (!seed->direct_action) {
		NB_ASSERT_EQ(info.action_cnt, 1);
		NB_ASSERT_EQ(info.actions[0].stats.packets, SEED_COUNT);
		NB_ASSERT_EQ(info.actions[0].stats.bytes, SEED_COUNT * SEED_SIZE);
		NB_ASSERT_EQ(info.actions[0].stats.drops, seed->clone ? SEED_COUNT : 0);
		NB_ASSERT_EQ(info.classid, 0x10002);
	} else {
		NB_ASSERT_EQ(nb_tc_filter_get(gen, &id, &info, NULL), 0);
		NB_ASSERT(info.no_stats);
		NB_ASSERT(nb_tc_print_find(&info.print, "direct-action"));
		NB_ASSERT_EQ(info.classid, 1);
		nb_tc_filter_info_release(&info);
	}

	tc_check_accounting(devs, 2);
	nb_dev_destroy_all();
	nb_object_close(obj);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static const struct seed seeds[] = {
	{ "clone_redirect_xmit", false, true },
	{ "redirect_xmit", false, false },
	{ "redirect_xmit", true, false },
};

static void __attribute__((constructor)) register_seeds(void)
{
	nb_test_register("tc_seed_u32_act_bpf_clone_redirect_xmit", run_seed, &seeds[0]);
	nb_test_register("tc_seed_u32_act_bpf_redirect_xmit", run_seed, &seeds[1]);
	nb_test_register("tc_seed_bpf_da_redirect_xmit", run_seed, &seeds[2]);
}

/* The same set-up with "obj F sec S" given to the API, which loads the section itself. */
NB_TEST(tc_seed_obj_sec_words)
{
	struct nb_dev *gen = tc_make_dev("gen0", 0), *sink = tc_make_dev("sink0", 0);
	struct nb_dev *devs[] = { gen, sink };
	NB_OPTS(nb_tc_u32_opts, sel);
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "u32",
				       .kind_opts = &sel };
	NB_OPTS(nb_tc_act_bpf_opts, act_bpf);
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "bpf", .control = TC_ACT_SHOT,
					 .has_control = true, .kind_opts = &act_bpf };
	struct nb_tc_filter_opts g = { .sz = sizeof(g), .hook = NB_TC_INGRESS, .pref = 5,
				       .kind = "bpf", .kind_opts = &bpf };
	struct nb_log log = { 0 };
	char path[4096];

	nb_test_build_path(path, sizeof(path), "examples/tcbpf1.o");
	tc_set_port(gen, "gen", "count 10 pkt_size 64");
	tc_set_port(sink, "sink", "");
	tc_qdisc(gen);
	NB_ASSERT_EQ(nb_tc_u32_match(&sel, NB_TC_U32_SIZE_32, 0, 0, 0, false, NULL), 0);
	sel.classid = 0x10002;
	NB_ASSERT_EQ(nb_object_load_section(path, "clone_redirect_xmit", BPF_PROG_TYPE_SCHED_ACT,
					    NULL, 0, &act_bpf.prog, NULL), 0);
	f.actions = &act;
	f.action_cnt = 1;
	tc_add(gen, &f);
	nb_prog_put(act_bpf.prog);
	nb_worker_run(devs, 2, NULL);
	NB_ASSERT_EQ(tc_stats(sink).tx_packets, 10);
	NB_ASSERT_EQ(tc_stats(gen).drops[NB_DROP_TC_INGRESS], 10);
	tc_check_accounting(devs, 2);

	/* a missing section is named in the log */
	NB_ASSERT_EQ(nb_object_load_section(path, "no_such_sec", BPF_PROG_TYPE_SCHED_CLS, NULL, 0,
					    &bpf.prog, &log), -ENOENT);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "no_such_sec");
	NB_ASSERT(bpf.prog == NULL);
	nb_log_free(&log);
	/* and the classifier takes a program only */
	g.log = &log;
	NB_ASSERT_EQ(nb_tc_filter_add(gen, &g, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "no program given");
	nb_log_free(&log);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

struct live_worker {
	struct nb_dev *devs[2];
};

/* Forwards until the generator has nothing more (a round that receives nothing). */
static void *live_worker_main(void *arg)
{
	struct live_worker *w = arg;

	nb_worker_run(w->devs, 2, NULL);
	return NULL;
}

/*
 * Filters change while a worker forwards: replace, add and delete run against a live datapath
 * (epoch-protected), and every packet is still accounted for once.
 */
NB_TEST(tc_seed_live_filter_updates)
{
	struct live_worker w = { 0 };
	struct nb_dev *gen = tc_make_dev("gen0", 0), *sink = tc_make_dev("sink0", 0);
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .pref = 1,
				       .kind = "bpf", .handle = 1, .kind_opts = &bpf };
	struct nb_tc_filter_id id = { .hook = NB_TC_INGRESS, .pref = 1,
				      .protocol = htons(ETH_P_ALL), .handle = 1 };
	struct nb_dev_stats_total gs, ss;
	struct nb_prog *redirect, *drop;
	struct nb_object *obj;
	pthread_t thread;

	tc_set_port(gen, "gen", "count 20000 pkt_size 60");
	tc_set_port(sink, "sink", "");
	tc_qdisc(gen);
	redirect = tc_example_prog("tcbpf1.o", "redirect_xmit", BPF_PROG_TYPE_SCHED_CLS, &obj);
	drop = tc_prog_ret(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_SHOT);
	bpf.direct_action = true;
	bpf.prog = redirect;
	NB_ASSERT_EQ(nb_tc_filter_add(gen, &f, NULL), 0);
	w.devs[0] = gen;
	w.devs[1] = sink;
	NB_ASSERT_EQ(pthread_create(&thread, NULL, live_worker_main, &w), 0);
	for (int i = 0; i < 200; i++) {
		bpf.prog = i & 1 ? redirect : drop;
		NB_ASSERT_EQ(nb_tc_filter_replace(gen, &f, NULL), 0);
		if (i % 50 == 25) {
			NB_ASSERT_EQ(nb_tc_filter_del(gen, &id, NULL), 0);
			NB_ASSERT_EQ(nb_tc_filter_add(gen, &f, NULL), 0);
		}
	}
	pthread_join(thread, NULL);
	gs = tc_stats(gen);
	ss = tc_stats(sink);
	NB_ASSERT_EQ(gs.rx_packets, 20000);
	NB_ASSERT_EQ(ss.tx_packets + gs.drops[NB_DROP_TC_INGRESS] + gs.host_packets, 20000);
	tc_check_accounting(w.devs, 2);
	nb_prog_put(redirect);
	nb_prog_put(drop);
	nb_dev_destroy_all();
	nb_object_close(obj);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

struct seed_worker {
	struct nb_dev *devs[2];
	unsigned int cpu;
};

static void *seed_worker_main(void *arg)
{
	struct seed_worker *w = arg;

	if (nb_set_this_cpu(w->cpu))
		return (void *)1;
	nb_worker_run(w->devs, 2, NULL);
	nb_pkt_pool_flush_cache();
	return NULL;
}

/*
 * Two workers, each polling its own generator whose tc ingress clone-redirects to the device
 * with the next ifindex (a sink): per-worker redirect state, transmit queues, packet caches and
 * counters stay apart and add up.
 */
NB_TEST(tc_seed_two_workers)
{
	NB_OPTS(nb_tc_act_bpf_opts, act_bpf);
	struct nb_tc_action_opts act = { .sz = sizeof(act), .kind = "bpf", .control = TC_ACT_SHOT,
					 .has_control = true, .kind_opts = &act_bpf };
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "matchall" };
	struct nb_dev *g0, *s0, *g1, *s1;
	struct seed_worker w[2];
	pthread_t threads[2];
	char path[4096];

	if (nb_set_nr_cpus(2))
		nb_test_skip("the number of workers is fixed already (%u)", nb_nr_cpus());
	nb_test_build_path(path, sizeof(path), "examples/tcbpf1.o");
	NB_ASSERT_EQ(nb_object_load_section(path, "clone_redirect_xmit", BPF_PROG_TYPE_SCHED_ACT,
					    NULL, 0, &act_bpf.prog, NULL), 0);
	f.actions = &act;
	f.action_cnt = 1;
	g0 = tc_make_dev("gen0", 1);
	s0 = tc_make_dev("sink0", 2);
	g1 = tc_make_dev("gen1", 3);
	s1 = tc_make_dev("sink1", 4);
	tc_set_port(g0, "gen", "count 5000 pkt_size 64");
	tc_set_port(g1, "gen", "count 7000 pkt_size 128");
	tc_set_port(s0, "sink", "");
	tc_set_port(s1, "sink", "");
	tc_qdisc(g0);
	tc_qdisc(g1);
	tc_add(g0, &f);
	tc_add(g1, &f);
	nb_prog_put(act_bpf.prog);	/* each filter's action holds it */
	w[0] = (struct seed_worker){ { g0, s0 }, 0 };
	w[1] = (struct seed_worker){ { g1, s1 }, 1 };
	for (int i = 0; i < 2; i++)
		NB_ASSERT_EQ(pthread_create(&threads[i], NULL, seed_worker_main, &w[i]), 0);
	for (int i = 0; i < 2; i++) {
		void *ret;

		pthread_join(threads[i], &ret);
		NB_ASSERT(ret == NULL);
	}
	NB_ASSERT_EQ(tc_stats(s0).tx_packets, 5000);
	NB_ASSERT_EQ(tc_stats(s0).tx_bytes, 5000 * 64);
	NB_ASSERT_EQ(tc_stats(s1).tx_packets, 7000);
	NB_ASSERT_EQ(tc_stats(s1).tx_bytes, 7000 * 128);
	NB_ASSERT_EQ(tc_stats(g0).clones, 5000);
	NB_ASSERT_EQ(tc_stats(g1).drops[NB_DROP_TC_INGRESS], 7000);
	tc_check_accounting((struct nb_dev *[]){ g0, s0, g1, s1 }, 4);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
