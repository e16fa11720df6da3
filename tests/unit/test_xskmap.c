// SPDX-License-Identifier: GPL-2.0
/*
 * XSKMAP and netbpf's XDP sockets (include/netbpf/xsk.h) as an application uses them: a socket
 * bound to a device's queue, its id in an XSKMAP slot, an XDP program that redirects by
 * rx_queue_index as libxdp's default program does, the frames read back in order, a full
 * ring's drops counted, a socket of another device refused, a closed socket gone from its
 * slot; the slot rules of xsk_map_update_elem, and what a program may do with a lookup.
 */
#include <netbpf/xsk.h>

#include "map_test.h"
#include "xdp_test.h"

/* bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS), libxdp's default program. */
static struct nb_prog *redirect_by_queue(struct nb_map *xsks)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, rx_queue_index)),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(xsks)),
		NB_MOV64_IMM(BPF_REG_3, XDP_PASS),
		NB_CALL_HELPER(BPF_FUNC_redirect_map),
		NB_EXIT(),
	};

	return xt_prog(insns, ARRAY_SIZE(insns), 0);
}

/*
 * The queue id of the socket in slot 0 (struct bpf_xdp_sock), 99 when the slot is empty; with
 * write, a store into the socket first, which the kernel refuses.
 */
static int load_lookup(struct nb_map *xsks, bool write, struct nb_prog **progp,
		       struct nb_log *log)
{
	struct bpf_insn insns[] = {
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(xsks)),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3),
		NB_MOV64_IMM(BPF_REG_1, 0),
		NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_0, 0),
		NB_EXIT(),
		NB_MOV64_IMM(BPF_REG_0, 99),
		NB_EXIT(),
	};
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .log = log };

	if (write)
		insns[7] = (struct bpf_insn)NB_ST_MEM(BPF_W, BPF_REG_0, 0, 1);
	return nb_prog_load(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns), &opts, progp);
}

static u64 drops(struct nb_dev *dev, enum nb_drop_reason reason)
{
	struct nb_dev_stats_total t;

	nb_dev_stats_read(dev, &t);
	return t.drops[reason];
}

static void receive(struct nb_dev *rx, u32 first, u32 n)
{
	struct nb_pkt *pkts[64];
	unsigned int kept;

	NB_ASSERT(n <= ARRAY_SIZE(pkts));
	xt_burst(rx, pkts, first, n);
	kept = nb_xdp_rx_burst(rx, pkts, n);
	xt_free(pkts, kept);
	nb_xdp_do_flush();
}

static struct nb_xsk *xsk(struct nb_dev *dev, u32 queue, unsigned int ring)
{
	struct nb_xsk_opts opts = { .sz = sizeof(opts), .ring_size = ring };
	struct nb_xsk *xs;

	NB_ASSERT_EQ(nb_xsk_create(dev, queue, &opts, &xs), 0);
	return xs;
}

static int put(struct nb_map *map, u32 slot, u32 id, u64 flags)
{
	return nb_map_update_elem(map, &slot, &id, flags);
}

NB_TEST(xskmap_redirect_to_socket)
{
	struct nb_dev *rx = xt_dev("rx0", NULL);
	struct nb_map *xsks = mt_map(BPF_MAP_TYPE_XSKMAP, 4, 4, 4, 0);
	struct nb_xsk *xs = xsk(rx, 0, 4);
	struct nb_xsk_stats st;
	u8 buf[128];

	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(xs), BPF_ANY), 0);
	xt_attach(rx, redirect_by_queue(xsks));
	/* Four fit the ring; two are dropped, counted by the socket and the device. */
	receive(rx, 0, 6);
	NB_ASSERT_EQ(xt_stats(rx).redirect, 4);
	NB_ASSERT_EQ(xt_stats(rx).redirect_err, 2);
	NB_ASSERT_EQ(drops(rx, NB_DROP_XSK_FULL), 2);
	nb_xsk_stats_read(xs, &st);
	NB_ASSERT_EQ(st.rx_packets, 4);
	NB_ASSERT_EQ(st.rx_ring_full, 2);
	NB_ASSERT_EQ(nb_xsk_recv(xs, buf, 10), -EMSGSIZE);
	for (u32 i = 0; i < 4; i++) {
		u32 seq;

		NB_ASSERT_EQ(nb_xsk_recv(xs, buf, sizeof(buf)), 64);
		memcpy(&seq, buf + ETH_HLEN, sizeof(seq));
		NB_ASSERT_EQ(seq, i);
	}
	NB_ASSERT_EQ(nb_xsk_recv(xs, buf, sizeof(buf)), -EAGAIN);
	/* Closing the socket empties its slot: the program's fallback, XDP_PASS, decides. */
	receive(rx, 10, 2);
	nb_xsk_close(xs);
	receive(rx, 20, 3);
	NB_ASSERT_EQ(xt_stats(rx).pass, 3);
	nb_map_put(xsks);
	xt_teardown();
}

/* xsk_rcv_check: a socket takes the frames of its own device and queue only. */
NB_TEST(xskmap_socket_of_other_device)
{
	struct nb_dev *rx = xt_dev("rx0", NULL), *other = xt_dev("other0", NULL);
	struct nb_map *xsks = mt_map(BPF_MAP_TYPE_XSKMAP, 4, 4, 1, 0);
	struct nb_xsk *xs = xsk(other, 0, 0), *q1 = xsk(rx, 1, 0);
	u8 buf[128];

	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(xs), BPF_ANY), 0);
	xt_attach(rx, redirect_by_queue(xsks));
	receive(rx, 0, 3);
	NB_ASSERT_EQ(xt_stats(rx).redirect_err, 3);
	NB_ASSERT_EQ(drops(rx, NB_DROP_NO_DEV), 3);
	NB_ASSERT_EQ(nb_xsk_recv(xs, buf, sizeof(buf)), -EAGAIN);
	/* The right device, the wrong queue: the datapath receives on queue 0. */
	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(q1), BPF_ANY), 0);
	receive(rx, 0, 2);
	NB_ASSERT_EQ(xt_stats(rx).redirect_err, 5);
	nb_xsk_close(xs);
	nb_xsk_close(q1);
	nb_map_put(xsks);
	xt_teardown();
}

/* A program reads the socket's queue id through a lookup, and writes nothing into it. */
NB_TEST(xskmap_lookup_reads_queue_id)
{
	struct nb_dev *rx = xt_dev("rx0", NULL);
	struct nb_map *xsks = mt_map(BPF_MAP_TYPE_XSKMAP, 4, 4, 1, 0);
	struct nb_xsk *xs = xsk(rx, 3, 0);
	struct nb_log log = { 0 };
	struct nb_prog *prog;

	NB_ASSERT_EQ(load_lookup(xsks, true, &prog, &log), -EACCES);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "write into map forbidden");
	nb_log_free(&log);
	NB_ASSERT_EQ(load_lookup(xsks, false, &prog, &log), 0);
	NB_ASSERT_EQ(nb_prog_run(prog, NULL), 99);
	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(xs), BPF_ANY), 0);
	NB_ASSERT_EQ(nb_prog_run(prog, NULL), 3);
	nb_prog_put(prog);
	nb_xsk_close(xs);
	nb_map_put(xsks);
	xt_teardown();
}

/* The slot rules of xsk_map_update_elem / delete_elem, with ids for fds. */
NB_TEST(xskmap_slot_rules)
{
	struct nb_dev *rx = xt_dev("rx0", NULL);
	struct nb_map *xsks = mt_map(BPF_MAP_TYPE_XSKMAP, 4, 4, 2, 0);
	struct nb_xsk *a = xsk(rx, 0, 0), *b = xsk(rx, 0, 0);
	u32 slot = 0, value, next;

	NB_ASSERT_EQ(put(xsks, 0, 1000000, BPF_ANY), -EBADF);
	NB_ASSERT_EQ(put(xsks, 2, nb_xsk_id(a), BPF_ANY), -E2BIG);
	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(a), BPF_EXIST + 1), -EINVAL);
	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(a), BPF_EXIST), -ENOENT);
	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(a), BPF_NOEXIST), 0);
	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(a), BPF_NOEXIST), 0);	/* the same socket */
	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(b), BPF_NOEXIST), -EEXIST);
	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(b), BPF_EXIST), 0);
	NB_ASSERT_EQ(put(xsks, 1, nb_xsk_id(b), BPF_ANY), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(xsks, &slot, &value), -EOPNOTSUPP);
	NB_ASSERT_EQ(nb_map_get_next_key(xsks, NULL, &next), 0);
	NB_ASSERT_EQ(next, 0);
	slot = 5;
	NB_ASSERT_EQ(nb_map_delete_elem(xsks, &slot), -EINVAL);
	slot = 0;
	NB_ASSERT_EQ(nb_map_delete_elem(xsks, &slot), 0);
	NB_ASSERT_EQ(nb_map_delete_elem(xsks, &slot), 0);
	/* b is in slot 1 still: closing it empties that slot, the map outlives it. */
	nb_xsk_close(b);
	NB_ASSERT_EQ(put(xsks, 1, nb_xsk_id(a), BPF_NOEXIST), 0);
	nb_xsk_close(a);
	NB_ASSERT_EQ(put(xsks, 0, nb_xsk_id(a), BPF_ANY), -EBADF);
	nb_map_put(xsks);
	xt_teardown();
}
