// SPDX-License-Identifier: GPL-2.0
/*
 * devmap and devmap_hash: the kernel's update rules, bpf_redirect_map through them (bursts,
 * misses, broadcast, exclude ingress), devmap programs at flush time, and updates while
 * frames flow.
 */
#include <pthread.h>

#include "ctx_rewrite.h"
#include "map_test.h"
#include "xdp_test.h"

static int set(struct nb_map *map, u32 key, u32 ifindex, s32 prog_id, u64 flags)
{
	struct bpf_devmap_val val = { .ifindex = ifindex, .bpf_prog.fd = prog_id };

	return nb_map_update_elem(map, &key, &val, flags);
}

NB_TEST(xdp_devmap_create_rules)
{
	struct nb_map_create_opts opts = { .sz = sizeof(opts) };
	struct nb_map *map;

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_DEVMAP, 8, 4, 4, &opts, &map), -EINVAL);
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_DEVMAP, 4, 6, 4, &opts, &map), -EINVAL);
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_DEVMAP_HASH, 4, 8, 0, &opts, &map), -EINVAL);
	opts.map_flags = BPF_F_NO_PREALLOC;
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_DEVMAP, 4, 4, 4, &opts, &map), -EINVAL);
	map = mt_map(BPF_MAP_TYPE_DEVMAP, 4, 4, 4, 0);
	NB_ASSERT(nb_map_flags(map) & BPF_F_RDONLY_PROG);
	nb_map_put(map);
	map = mt_map(BPF_MAP_TYPE_DEVMAP_HASH, 4, 8, 4, 0);
	NB_ASSERT(nb_map_flags(map) & BPF_F_RDONLY_PROG);
	nb_map_put(map);
}

NB_TEST(xdp_devmap_update_rules)
{
	const struct bpf_insn ret[] = { NB_MOV64_IMM(BPF_REG_0, XDP_PASS), NB_EXIT() };
	struct nb_dev *a = xt_dev("a0", NULL), *b = xt_dev("b0", NULL);
	struct nb_map *map = mt_map(BPF_MAP_TYPE_DEVMAP, 4, 8, 4, 0);
	struct nb_prog *dp = xt_prog(ret, 2, BPF_XDP_DEVMAP), *plain = xt_prog_ret(XDP_PASS);
	struct bpf_devmap_val val;
	u32 key, next;

	NB_ASSERT_EQ(set(map, 4, a->ifindex, 0, 0), -E2BIG);
	NB_ASSERT_EQ(set(map, 0, a->ifindex, 0, BPF_NOEXIST), -EEXIST);	/* slots always exist */
	NB_ASSERT_EQ(set(map, 0, a->ifindex, 0, BPF_F_LOCK), -EINVAL);
	NB_ASSERT_EQ(set(map, 0, a->ifindex, 0, 3), -EINVAL);
	NB_ASSERT_EQ(set(map, 0, 999, 0, 0), -EINVAL);			/* no such device */
	NB_ASSERT_EQ(set(map, 0, a->ifindex, (s32)nb_prog_id(plain), 0), -EINVAL);
	NB_ASSERT_EQ(set(map, 0, a->ifindex, 99999, 0), -EINVAL);
	NB_ASSERT_EQ(set(map, 0, 0, (s32)nb_prog_id(dp), 0), -EINVAL);	/* no device, prog */
	NB_ASSERT_EQ(set(map, 0, a->ifindex, (s32)nb_prog_id(dp), BPF_EXIST), 0);
	NB_ASSERT_EQ(set(map, 2, b->ifindex, -1, BPF_ANY), 0);		/* fd <= 0: none */
	key = 0;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &val), 0);
	NB_ASSERT_EQ(val.ifindex, a->ifindex);
	NB_ASSERT_EQ(val.bpf_prog.id, nb_prog_id(dp));
	key = 2;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &val), 0);
	NB_ASSERT_EQ(val.ifindex, b->ifindex);
	NB_ASSERT_EQ(val.bpf_prog.id, 0);
	key = 1;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &val), -ENOENT);
	/* ifindex 0 empties a slot */
	NB_ASSERT_EQ(set(map, 2, 0, 0, 0), 0);
	key = 2;
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
	nb_map_put(map);
	nb_prog_put(dp);
	nb_prog_put(plain);
	xt_teardown();
}

NB_TEST(xdp_devmap_hash_update_rules)
{
	struct nb_dev *a = xt_dev("a0", NULL), *b = xt_dev("b0", NULL);
	struct nb_map *map = mt_map(BPF_MAP_TYPE_DEVMAP_HASH, 4, 4, 2, 0);
	u32 key, next, seen = 0, ifindex;

	NB_ASSERT_EQ(set(map, 7, 0, 0, 0), -EINVAL);		/* ifindex 0: invalid here */
	NB_ASSERT_EQ(set(map, 7, a->ifindex, 0, 4), -EINVAL);
	NB_ASSERT_EQ(set(map, 7, a->ifindex, 0, BPF_EXIST), 0);	/* as the kernel: no check */
	NB_ASSERT_EQ(set(map, 7, b->ifindex, 0, BPF_NOEXIST), -EEXIST);
	NB_ASSERT_EQ(set(map, 7, b->ifindex, 0, BPF_ANY), 0);	/* replaces */
	NB_ASSERT_EQ(set(map, 1000, a->ifindex, 0, BPF_NOEXIST), 0);
	NB_ASSERT_EQ(set(map, 5, a->ifindex, 0, 0), -E2BIG);	/* full */
	NB_ASSERT_EQ(set(map, 1000, b->ifindex, 0, 0), 0);	/* replacing in a full map is fine */
	key = 7;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &ifindex), 0);
	NB_ASSERT_EQ(ifindex, b->ifindex);
	for (int r = nb_map_get_next_key(map, NULL, &next); !r;
	     key = next, r = nb_map_get_next_key(map, &key, &next))
		seen |= next == 7 ? 1 : next == 1000 ? 2 : 4;
	NB_ASSERT_EQ(seen, 3);
	key = 1000;
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), 0);
	NB_ASSERT_EQ(nb_map_delete_elem(map, &key), -ENOENT);
	NB_ASSERT_EQ(set(map, 5, a->ifindex, 0, 0), 0);		/* room again */
	nb_map_put(map);
	xt_teardown();
}

/* Generator device -> redirect_map -> second device, both map types, bulking on and off. */
static void redirect_map_delivers(enum bpf_map_type type, bool bulk)
{
	struct nb_dev *rx = xt_dev("rx0", NULL), *tx = xt_dev("tx0", "keep 96");
	struct nb_map *map = mt_map(type, 4, 4, 8, 0);
	struct nb_pkt *pkts[32];
	struct nb_xdp_stats st;

	NB_ASSERT_EQ(set(map, 5, tx->ifindex, 0, 0), 0);
	NB_ASSERT_EQ(nb_dev_xdp_set_bulk(tx, bulk), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 5, 0));
	for (u32 i = 0; i < 3; i++) {
		xt_burst(rx, pkts, 32 * i, 32);
		NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 32), 0);
		nb_xdp_do_flush();
	}
	xt_sink_expect(tx, 0, 96);
	st = xt_stats(tx);
	NB_ASSERT_EQ(st.xmit_sent, 96);
	if (bulk)
		NB_ASSERT_EQ(st.flush_sizes[NB_XDP_BULK_SIZE], 6);
	else
		NB_ASSERT_EQ(st.flush_sizes[1], 96);
	nb_map_put(map);
	xt_teardown();
}

static void redirect_map_case(const void *arg)
{
	uintptr_t v = (uintptr_t)arg;

	redirect_map_delivers(v & 1 ? BPF_MAP_TYPE_DEVMAP_HASH : BPF_MAP_TYPE_DEVMAP, v & 2);
}

static void __attribute__((constructor)) register_redirect_map_cases(void)
{
	nb_test_register("xdp_devmap_redirect_bulk", redirect_map_case, (void *)2);
	nb_test_register("xdp_devmap_redirect_nobulk", redirect_map_case, (void *)0);
	nb_test_register("xdp_devmap_hash_redirect_bulk", redirect_map_case, (void *)3);
	nb_test_register("xdp_devmap_hash_redirect_nobulk", redirect_map_case, (void *)1);
}

/* A key without entry: the low two flag bits are the verdict; other flags abort. */
NB_TEST(xdp_devmap_redirect_miss)
{
	struct nb_dev *rx = xt_dev("rx0", "keep 8");
	struct nb_map *map = mt_map(BPF_MAP_TYPE_DEVMAP, 4, 4, 4, 0);
	struct nb_pkt *pkts[2];
	struct nb_xdp_stats st;

	xt_attach(rx, xt_prog_redirect_map(map, 3, XDP_PASS));
	xt_burst(rx, pkts, 0, 2);
	NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 2), 2);
	xt_free(pkts, 2);
	xt_attach(rx, xt_prog_redirect_map(map, 3, XDP_DROP));
	xt_burst(rx, pkts, 0, 2);
	NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 2), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 3, XDP_TX));
	xt_burst(rx, pkts, 0, 2);
	NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 2), 0);
	nb_xdp_do_flush();
	xt_sink_expect(rx, 0, 2);
	xt_attach(rx, xt_prog_redirect_map(map, 3, 0));
	xt_burst(rx, pkts, 0, 2);
	nb_xdp_rx_burst(rx, pkts, 2);
	xt_attach(rx, xt_prog_redirect_map(map, 100, XDP_PASS));	/* past max_entries */
	xt_burst(rx, pkts, 0, 2);
	NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 2), 2);
	xt_free(pkts, 2);
	/* an entry exists, but a flag outside the mask aborts */
	NB_ASSERT_EQ(set(map, 3, rx->ifindex, 0, 0), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 3, 1U << 5));
	xt_burst(rx, pkts, 0, 2);
	nb_xdp_rx_burst(rx, pkts, 2);
	st = xt_stats(rx);
	NB_ASSERT_EQ(st.pass, 4);
	NB_ASSERT_EQ(st.drop, 2);
	NB_ASSERT_EQ(st.tx, 2);
	NB_ASSERT_EQ(st.aborted, 4);
	nb_map_put(map);
	xt_teardown();
}

/* BPF_F_BROADCAST: a copy to every entry; BPF_F_EXCLUDE_INGRESS leaves out the receiver. */
static void broadcast(enum bpf_map_type type)
{
	struct nb_dev *d[3] = { xt_dev("d0", "keep 32"), xt_dev("d1", "keep 32"),
				xt_dev("d2", "keep 32") };
	struct nb_dev *down = xt_dev("d3", "keep 32");
	struct nb_map *map = mt_map(type, 4, 4, 8, 0);
	struct nb_dev_stats_total before, after;
	struct nb_pkt *pkts[20];

	for (u32 i = 0; i < 3; i++)
		NB_ASSERT_EQ(set(map, 2 * i + 1, d[i]->ifindex, 0, 0), 0);
	NB_ASSERT_EQ(set(map, 7, down->ifindex, 0, 0), 0);
	nb_dev_set_up(down, false);	/* not a valid destination: skipped */
	/* key 0 has no entry: broadcast ignores the key */
	xt_attach(d[0], xt_prog_redirect_map(map, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS));
	xt_burst(d[0], pkts, 0, 20);
	NB_ASSERT_EQ(nb_xdp_rx_burst(d[0], pkts, 20), 0);
	nb_xdp_do_flush();
	xt_sink_expect(d[0], 0, 0);
	xt_sink_expect(d[1], 0, 20);
	xt_sink_expect(d[2], 0, 20);
	xt_sink_expect(down, 0, 0);
	NB_ASSERT_EQ(xt_stats(d[0]).redirect, 20);
	/* without exclusion the receiver gets its copy too */
	xt_attach(d[0], xt_prog_redirect_map(map, 0, BPF_F_BROADCAST));
	xt_burst(d[0], pkts, 50, 3);
	nb_xdp_rx_burst(d[0], pkts, 3);
	nb_xdp_do_flush();
	for (u32 i = 0; i < 3; i++)
		xt_sink_expect(d[i], 50, 3);
	nb_map_put(map);
	/* an empty map consumes the frame: a redirect, as in the kernel, and a counted drop */
	map = mt_map(type, 4, 4, 8, 0);
	xt_attach(d[0], xt_prog_redirect_map(map, 0, BPF_F_BROADCAST));
	xt_burst(d[0], pkts, 0, 2);
	nb_dev_stats_read(d[0], &before);
	NB_ASSERT_EQ(nb_xdp_rx_burst(d[0], pkts, 2), 0);
	NB_ASSERT_EQ(xt_stats(d[0]).redirect_err, 0);
	nb_dev_stats_read(d[0], &after);
	NB_ASSERT_EQ(after.drops[NB_DROP_NO_DEV] - before.drops[NB_DROP_NO_DEV], 2);
	/* the copies of the first bursts were clones of d0: 20 + 3 * 2 */
	NB_ASSERT_EQ(after.clones, 26);
	nb_map_put(map);
	xt_teardown();
}

NB_TEST(xdp_devmap_broadcast)
{
	broadcast(BPF_MAP_TYPE_DEVMAP);
}

NB_TEST(xdp_devmap_hash_broadcast)
{
	broadcast(BPF_MAP_TYPE_DEVMAP_HASH);
}

/* A devmap program that writes egress_ifindex into the first byte of the source MAC. */
static struct nb_prog *egress_marker(u32 act)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, egress_ifindex)),
		NB_LDX_MEM(BPF_W, BPF_REG_4, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data)),
		NB_LDX_MEM(BPF_W, BPF_REG_5, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		/* The verifier wants the bytes proven inside the packet. */
		NB_MOV64_REG(BPF_REG_6, BPF_REG_3),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_6, ETH_ALEN + 2),
		NB_JMP_REG(BPF_JGT, BPF_REG_6, BPF_REG_5, 2),
		NB_STX_MEM(BPF_B, BPF_REG_3, BPF_REG_2, ETH_ALEN),
		NB_STX_MEM(BPF_B, BPF_REG_3, BPF_REG_4, ETH_ALEN + 1),
		NB_MOV64_IMM(BPF_REG_0, act),
		NB_EXIT(),
	};

	return ctx_test_load(BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP, insns, ARRAY_SIZE(insns));
}

NB_TEST(xdp_devmap_programs)
{
	struct nb_dev *rx = xt_dev("rx0", NULL), *tx = xt_dev("tx0", "keep 40");
	struct nb_dev *tx2 = xt_dev("tx1", "keep 40");
	struct nb_map *map = mt_map(BPF_MAP_TYPE_DEVMAP, 4, 8, 4, 0);
	struct nb_prog *pass = egress_marker(XDP_PASS), *drop = egress_marker(XDP_DROP);
	struct nb_prog *bad = egress_marker(XDP_TX);
	struct nb_pkt *pkts[20], *out;
	struct nb_xdp_stats st;

	NB_ASSERT_EQ(set(map, 0, tx->ifindex, (s32)nb_prog_id(pass), 0), 0);
	NB_ASSERT_EQ(set(map, 1, tx2->ifindex, (s32)nb_prog_id(drop), 0), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 0, 0));
	xt_burst(rx, pkts, 0, 20);
	nb_xdp_rx_burst(rx, pkts, 20);
	nb_xdp_do_flush();
	out = nb_sink_take(tx->port);
	for (u32 i = 0; out; i++) {
		struct nb_pkt *next = out->next;

		NB_ASSERT_EQ(xt_seq(out), i);
		NB_ASSERT_EQ(out->data[ETH_ALEN], tx->ifindex);
		NB_ASSERT_EQ(out->data[ETH_ALEN + 1], rx->ifindex);
		nb_pkt_free(out);
		out = next;
	}
	NB_ASSERT_EQ(xt_sink_packets(tx), 20);
	/* DROP frees at the flush; counted as transmit drops of the target */
	xt_attach(rx, xt_prog_redirect_map(map, 1, 0));
	xt_burst(rx, pkts, 0, 20);
	nb_xdp_rx_burst(rx, pkts, 20);
	nb_xdp_do_flush();
	NB_ASSERT_EQ(xt_sink_packets(tx2), 0);
	st = xt_stats(tx2);
	NB_ASSERT_EQ(st.xmit_prog_drops, 20);
	NB_ASSERT_EQ(st.xmit_drops, 20);
	NB_ASSERT_EQ(st.flush_sizes[16], 1);
	NB_ASSERT_EQ(st.flush_sizes[4], 1);
	/* XDP_TX is no verdict for a devmap program: dropped as an exception */
	NB_ASSERT_EQ(set(map, 1, tx2->ifindex, (s32)nb_prog_id(bad), 0), 0);
	xt_burst(rx, pkts, 0, 4);
	nb_xdp_rx_burst(rx, pkts, 4);
	nb_xdp_do_flush();
	NB_ASSERT_EQ(xt_sink_packets(tx2), 0);
	NB_ASSERT_EQ(xt_stats(tx2).aborted, 4);
	nb_map_put(map);
	nb_prog_put(pass);
	nb_prog_put(drop);
	nb_prog_put(bad);
	xt_teardown();
}

/* Userspace moves an entry between two devices while another thread sends bursts. */
struct updater {
	struct nb_map *map;
	u32 a, b;
	bool stop;
	int errors;
};

static void *update_loop(void *arg)
{
	struct updater *u = arg;

	for (u32 i = 0; i < 20000 && !__atomic_load_n(&u->stop, __ATOMIC_ACQUIRE); i++) {
		if (set(u->map, 0, i & 1 ? u->a : u->b, 0, 0))
			u->errors++;
		nb_epoch_reclaim();
	}
	return NULL;
}

NB_TEST(xdp_devmap_update_while_running)
{
	struct nb_dev *rx = xt_dev("rx0", NULL), *a = xt_dev("a0", NULL), *b = xt_dev("b0", NULL);
	struct nb_map *map = mt_map(BPF_MAP_TYPE_DEVMAP, 4, 4, 1, 0);
	struct updater u = { .map = map };
	struct nb_dev_stats_total ta, tb;
	struct nb_log log = { 0 };
	struct nb_port *pa, *pb;
	struct nb_pkt *pkts[32];
	pthread_t t;

	NB_ASSERT_EQ(nb_port_open_str("sink", "", &pa, &log), 0);
	NB_ASSERT_EQ(nb_port_open_str("sink", "", &pb, &log), 0);
	nb_dev_set_port(a, pa);
	nb_dev_set_port(b, pb);
	u.a = a->ifindex;
	u.b = b->ifindex;
	NB_ASSERT_EQ(set(map, 0, a->ifindex, 0, 0), 0);
	xt_attach(rx, xt_prog_redirect_map(map, 0, 0));
	nb_epoch_online();
	NB_ASSERT_EQ(pthread_create(&t, NULL, update_loop, &u), 0);
	for (u32 i = 0; i < 500; i++) {
		xt_burst(rx, pkts, i * 32, 32);
		NB_ASSERT_EQ(nb_xdp_rx_burst(rx, pkts, 32), 0);
		nb_xdp_do_flush();
		nb_epoch_quiescent();
	}
	__atomic_store_n(&u.stop, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	nb_epoch_offline();
	NB_ASSERT_EQ(u.errors, 0);
	nb_dev_stats_read(a, &ta);
	nb_dev_stats_read(b, &tb);
	NB_ASSERT_EQ(ta.tx_packets + tb.tx_packets, 500 * 32);
	NB_ASSERT_EQ(xt_stats(rx).redirect, 500 * 32);
	nb_map_put(map);
	xt_teardown();
}

/* A device that goes away leaves every devmap (dev_map_notification). */
static void unregister_removes(enum bpf_map_type type)
{
	struct nb_dev *a = xt_dev("a0", NULL), *b = xt_dev("b0", NULL);
	struct nb_map *map = mt_map(type, 4, 4, 4, 0);
	u32 ifindex, key;

	NB_ASSERT_EQ(set(map, 0, a->ifindex, 0, 0), 0);
	NB_ASSERT_EQ(set(map, 1, b->ifindex, 0, 0), 0);
	NB_ASSERT_EQ(set(map, 3, a->ifindex, 0, 0), 0);
	nb_dev_destroy(a);
	key = 0;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &ifindex), -ENOENT);
	key = 3;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &ifindex), -ENOENT);
	key = 1;
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &ifindex), 0);
	NB_ASSERT_EQ(ifindex, b->ifindex);
	if (type == BPF_MAP_TYPE_DEVMAP_HASH) {
		/* the freed room counts again */
		NB_ASSERT_EQ(set(map, 5, b->ifindex, 0, 0), 0);
		NB_ASSERT_EQ(set(map, 6, b->ifindex, 0, 0), 0);
		NB_ASSERT_EQ(set(map, 7, b->ifindex, 0, 0), 0);
		NB_ASSERT_EQ(set(map, 8, b->ifindex, 0, 0), -E2BIG);
	}
	nb_map_put(map);
	xt_teardown();
}

NB_TEST(xdp_devmap_unregister_removes_entries)
{
	unregister_removes(BPF_MAP_TYPE_DEVMAP);
}

NB_TEST(xdp_devmap_hash_unregister_removes_entries)
{
	unregister_removes(BPF_MAP_TYPE_DEVMAP_HASH);
}

/*
 * bpf_redirect_map takes the devmap types, cpumap (test_cpumap.c) and xskmap (test_xskmap.c);
 * the verifier refuses any other map.
 */
NB_TEST(xdp_redirect_map_types)
{
	struct nb_log log = { 0 };
	struct nb_map_create_opts opts = { .sz = sizeof(opts), .log = &log };
	struct nb_map *map;
	struct nb_prog *prog;

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_HASH, 4, 4, 4, &opts, &map), 0);
	{
		const struct bpf_insn insns[] = {
			NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
			NB_MOV64_IMM(BPF_REG_2, 0),
			NB_MOV64_IMM(BPF_REG_3, 0),
			NB_CALL_HELPER(BPF_FUNC_redirect_map),
			NB_EXIT(),
		};
		struct nb_prog_load_opts popts = { .sz = sizeof(popts), .log = &log };

		nb_log_reset(&log);
		NB_ASSERT(nb_prog_load(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns), &popts,
				       &prog) < 0);
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "redirect_map");
	}
	nb_map_put(map);
	nb_log_free(&log);
}
