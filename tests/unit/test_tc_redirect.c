// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_redirect, bpf_clone_redirect and bpf_redirect_peer through the receive and transmit
 * paths: what reaches the target (counted, and written to pcap and compared byte for byte with
 * what was sent), the original's fate, missing and down targets, the transmit recursion limit
 * and the receive redirect limit, the helpers' return values.
 */
#include <stdio.h>
#include <unistd.h>

#include "io/pipe.h"
#include "net/worker.h"
#include "tc_test.h"

#define FRAMES 5

/* Frames a tc hook classified (its qdisc's counter: cls_bpf keeps none, as the kernel's). */
static u64 hook_packets(struct nb_dev *dev, enum nb_tc_hook hook)
{
	struct nb_tc_stats st;

	NB_ASSERT_EQ(nb_tc_hook_stats(dev, hook, &st), 0);
	return st.packets;
}

static struct nb_tc_filter_id add_da_prog(struct nb_dev *dev, enum nb_tc_hook hook,
					  struct nb_prog *prog)
{
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = hook, .pref = 1, .kind = "bpf",
				       .kind_opts = &bpf };
	struct nb_tc_filter_id id;

	bpf.prog = prog;
	bpf.direct_action = true;
	id = tc_add(dev, &f);
	nb_prog_put(prog);
	return id;
}

static struct nb_prog *example(const char *section)
{
	struct nb_object *obj;
	struct nb_prog *prog = tc_example_prog("tcbpf1.o", section, BPF_PROG_TYPE_SCHED_CLS, &obj);

	nb_object_close(obj);	/* the program stays: we hold a reference */
	return prog;
}

/*
 * Every frame of a pcap file, concatenated with its length in front; returns the bytes. The
 * format is read by hand (libpcap's headers clash with <linux/bpf.h>): a 24-byte file header,
 * then per frame a 16-byte record header (seconds, fraction, captured, original length).
 */
static size_t read_pcap(const char *path, u8 *out, size_t room)
{
	FILE *f = fopen(path, "rb");
	u8 fh[24], rh[16];
	size_t n = 0;

	if (!f)
		NB_FAIL("pcap %s: cannot open", path);
	NB_ASSERT_EQ(fread(fh, 1, sizeof(fh), f), sizeof(fh));
	NB_ASSERT(!memcmp(fh, "\xd4\xc3\xb2\xa1", 4) || !memcmp(fh, "\x4d\x3c\xb2\xa1", 4));
	NB_ASSERT_EQ(fh[20], 1);	/* LINKTYPE_ETHERNET */
	while (fread(rh, 1, sizeof(rh), f) == sizeof(rh)) {
		u32 caplen;

		memcpy(&caplen, rh + 8, 4);
		NB_ASSERT(n + 4 + caplen <= room);
		memcpy(out + n, &caplen, 4);
		NB_ASSERT_EQ(fread(out + n + 4, 1, caplen, f), caplen);
		n += 4 + caplen;
	}
	fclose(f);
	return n;
}

/*
 * gen-like source eth0 with FRAMES frames, tc ingress running section, the next device a sink
 * writing pcap. Returns the sink's pcap bytes in out.
 */
static size_t run_to_pcap(const char *section, u8 *out, size_t room, u8 *sent, size_t *sent_len)
{
	struct nb_dev *src = tc_make_dev("eth0", 0), *dst = tc_make_dev("eth1", 0);
	struct nb_dev *devs[] = { src, dst };
	struct nb_dev_stats_total s, d;
	char path[64], words[96];
	bool clone = !strncmp(section, "clone", 5);
	size_t n;

	snprintf(path, sizeof(path), "/tmp/nb-tc-redirect-%d-%s.pcap", getpid(), section);
	snprintf(words, sizeof(words), "pcap %s", path);
	tc_set_port(dst, "sink", words);
	tc_qdisc(src);
	add_da_prog(src, NB_TC_INGRESS, example(section));
	*sent_len = 0;
	for (int i = 0; i < FRAMES; i++) {
		u8 frame[256];
		u32 len = tc_frame_ipv4(frame, NULL, IPPROTO_UDP, 0x0a000001, 0x0a000002 + i,
					1000 + i, 2000, 10 + 7 * i);

		memcpy(sent + *sent_len, &len, 4);
		memcpy(sent + *sent_len + 4, frame, len);
		*sent_len += 4 + len;
		nb_netif_receive(tc_pkt(src, frame, len));
	}
	nb_net_flush();
	s = tc_stats(src);
	d = tc_stats(dst);
	NB_ASSERT_EQ(s.rx_packets, FRAMES);
	NB_ASSERT_EQ(d.tx_packets, FRAMES);
	NB_ASSERT_EQ(s.clones, clone ? FRAMES : 0);
	NB_ASSERT_EQ(s.drops[NB_DROP_TC_INGRESS], clone ? FRAMES : 0);
	NB_ASSERT_EQ(s.host_packets + d.host_packets, 0);
	tc_check_accounting(devs, 2);
	nb_dev_destroy_all();	/* closes the pcap */
	n = read_pcap(path, out, room);
	unlink(path);
	return n;
}

NB_TEST(tc_redirect_vs_clone_redirect_pcap)
{
	static u8 a[8192], b[8192], sent_a[8192], sent_b[8192];
	size_t na, nb, sa, sb;

	na = run_to_pcap("redirect_xmit", a, sizeof(a), sent_a, &sa);
	nb = run_to_pcap("clone_redirect_xmit", b, sizeof(b), sent_b, &sb);
	NB_ASSERT_EQ(sa, sb);
	NB_ASSERT_EQ(na, sa);
	NB_ASSERT_EQ(nb, sb);
	NB_ASSERT_MEM_EQ(a, sent_a, sa);
	NB_ASSERT_MEM_EQ(b, sent_b, sb);
	NB_ASSERT_MEM_EQ(a, b, na);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* redirect_recv and clone_redirect_recv: into the next device's receive path (its host side). */
static void run_recv(const void *arg)
{
	const char *section = arg;
	struct nb_dev *src = tc_make_dev("eth0", 0), *dst = tc_make_dev("eth1", 0);
	struct nb_dev *devs[] = { src, dst };
	bool clone = !strncmp(section, "clone", 5);
	struct nb_dev_stats_total s, d;
	u8 frame[128];
	u32 len = tc_frame_ipv4(frame, src, IPPROTO_UDP, 1, 2, 3, 4, 30);

	tc_qdisc(src);
	tc_qdisc(dst);
	add_da_prog(src, NB_TC_INGRESS, example(section));
	/* the target's ingress hook runs: it counts what it sees */
	add_da_prog(dst, NB_TC_INGRESS, tc_prog_count_ret(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_OK));
	for (int i = 0; i < FRAMES; i++)
		nb_netif_receive(tc_pkt(src, frame, len));
	nb_net_flush();
	s = tc_stats(src);
	d = tc_stats(dst);
	NB_ASSERT_EQ(d.host_packets, FRAMES);
	NB_ASSERT_EQ(d.host_bytes, FRAMES * len);
	NB_ASSERT_EQ(s.drops[NB_DROP_TC_INGRESS], clone ? FRAMES : 0);
	NB_ASSERT_EQ(s.clones, clone ? FRAMES : 0);
	NB_ASSERT_EQ(hook_packets(dst, NB_TC_INGRESS), FRAMES);
	tc_check_accounting(devs, 2);
}

static void __attribute__((constructor)) register_recv(void)
{
	nb_test_register("tc_redirect_recv", run_recv, "redirect_recv");
	nb_test_register("tc_clone_redirect_recv", run_recv, "clone_redirect_recv");
}

/* No device with the next ifindex: redirect drops (no_dev); clone_redirect fails, SHOT drops. */
static void run_missing(const void *arg)
{
	const char *section = arg;
	struct nb_dev *src = tc_make_dev("eth0", 0);
	struct nb_dev_stats_total s;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	tc_qdisc(src);
	add_da_prog(src, NB_TC_INGRESS, example(section));
	tc_receive(src, frame, len);
	s = tc_stats(src);
	if (!strncmp(section, "clone", 5)) {
		NB_ASSERT_EQ(s.clones, 0);
		NB_ASSERT_EQ(s.drops[NB_DROP_TC_INGRESS], 1);
	} else {
		NB_ASSERT_EQ(s.drops[NB_DROP_NO_DEV], 1);
	}
	tc_check_accounting(&src, 1);
}

/* The next device is down: the drop is counted on it. */
static void run_down(const void *arg)
{
	const char *section = arg;
	struct nb_dev *src = tc_make_dev("eth0", 0), *dst = tc_make_dev("eth1", 0);
	struct nb_dev *devs[] = { src, dst };
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	tc_set_port(dst, "sink", "");
	nb_dev_set_up(dst, false);
	tc_qdisc(src);
	add_da_prog(src, NB_TC_INGRESS, example(section));
	tc_receive(src, frame, len);
	NB_ASSERT_EQ(tc_stats(dst).drops[NB_DROP_DEV_DOWN], 1);
	NB_ASSERT_EQ(tc_stats(dst).tx_packets, 0);
	tc_check_accounting(devs, 2);
}

static void __attribute__((constructor)) register_missing_down(void)
{
	nb_test_register("tc_redirect_missing_xmit", run_missing, "redirect_xmit");
	nb_test_register("tc_redirect_missing_recv", run_missing, "redirect_recv");
	nb_test_register("tc_clone_redirect_missing", run_missing, "clone_redirect_xmit");
	nb_test_register("tc_redirect_down_xmit", run_down, "redirect_xmit");
	nb_test_register("tc_redirect_down_recv", run_down, "redirect_recv");
	nb_test_register("tc_clone_redirect_down_xmit", run_down, "clone_redirect_xmit");
	nb_test_register("tc_clone_redirect_down_recv", run_down, "clone_redirect_recv");
}

/* bpf_redirect(skb->ifindex, flags): to the packet's own device. */
static struct nb_prog *redirect_self(u32 flags)
{
	const struct bpf_insn insns[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, SKB_OFF(mark)),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_2, 1),
		NB_STX_MEM(BPF_W, BPF_REG_1, BPF_REG_2, SKB_OFF(mark)),
		NB_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_1, SKB_OFF(ifindex)),
		NB_MOV64_IMM(BPF_REG_2, flags),
		NB_CALL_HELPER(BPF_FUNC_redirect),
		NB_EXIT(),
	};

	return tc_prog(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns));
}

/* An egress loop: transmits nest 9 deep (recursion 0..8), the 10th redirect drops. */
NB_TEST(tc_redirect_xmit_recursion_limit)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	tc_qdisc(dev);
	add_da_prog(dev, NB_TC_EGRESS, redirect_self(0));
	pkt = tc_pkt(dev, frame, len);
	nb_dev_queue_xmit(pkt);
	nb_net_flush();
	NB_ASSERT_EQ(tc_stats(dev).drops[NB_DROP_RECURSION], 1);
	NB_ASSERT_EQ(tc_stats(dev).tx_packets, 0);
	NB_ASSERT_EQ(hook_packets(dev, NB_TC_EGRESS), NB_XMIT_RECURSION_LIMIT + 2);
	tc_check_accounting(&dev, 1);
}

/* An ingress loop through the backlog: dropped after NB_RX_REDIRECT_LIMIT hops. */
NB_TEST(tc_redirect_recv_loop_limit)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	tc_qdisc(dev);
	add_da_prog(dev, NB_TC_INGRESS, redirect_self(BPF_F_INGRESS));
	tc_receive(dev, frame, len);
	NB_ASSERT_EQ(tc_stats(dev).drops[NB_DROP_RECURSION], 1);
	NB_ASSERT_EQ(hook_packets(dev, NB_TC_INGRESS), NB_RX_REDIRECT_LIMIT + 1);
	tc_check_accounting(&dev, 1);
}

/* Flags other than BPF_F_INGRESS make bpf_redirect return TC_ACT_SHOT. */
NB_TEST(tc_redirect_bad_flags)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	tc_qdisc(dev);
	add_da_prog(dev, NB_TC_INGRESS, redirect_self(2));
	tc_receive(dev, frame, len);
	NB_ASSERT_EQ(tc_stats(dev).drops[NB_DROP_TC_INGRESS], 1);
	tc_check_accounting(&dev, 1);
}

/* mark = bpf_clone_redirect(skb, ifindex, flags); return OK. */
static struct nb_prog *clone_ret_to_mark(u32 ifindex, u32 flags)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_REG(BPF_REG_6, BPF_REG_1),
		NB_MOV64_IMM(BPF_REG_2, ifindex),
		NB_MOV64_IMM(BPF_REG_3, flags),
		NB_CALL_HELPER(BPF_FUNC_clone_redirect),
		NB_STX_MEM(BPF_W, BPF_REG_6, BPF_REG_0, SKB_OFF(mark)),
		NB_MOV64_IMM(BPF_REG_0, TC_ACT_OK),
		NB_EXIT(),
	};

	return tc_prog(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns));
}

struct clone_ret_case {
	const char *name;
	int target;		/* 0: the second device, 1: no such device */
	u32 flags;
	bool down;
	int ret;
};

static const struct clone_ret_case clone_ret_cases[] = {
	{ "tc_clone_redirect_ret_ok", 0, 0, false, 0 },
	{ "tc_clone_redirect_ret_ingress_ok", 0, BPF_F_INGRESS, false, 0 },
	{ "tc_clone_redirect_ret_no_dev", 1, 0, false, -EINVAL },
	{ "tc_clone_redirect_ret_bad_flags", 0, 4, false, -EINVAL },
	{ "tc_clone_redirect_ret_down_xmit", 0, 0, true, -ENETDOWN },
	{ "tc_clone_redirect_ret_down_recv", 0, BPF_F_INGRESS, true, NB_NET_RX_DROP },
};

static void run_clone_ret(const void *arg)
{
	const struct clone_ret_case *c = arg;
	struct nb_dev *src = tc_make_dev("eth0", 0), *dst = tc_make_dev("eth1", 0);
	struct nb_dev *devs[] = { src, dst };
	struct nb_pkt *pkt;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	tc_set_port(dst, "sink", "");
	nb_dev_set_up(dst, !c->down);
	tc_qdisc(src);
	add_da_prog(src, NB_TC_INGRESS, clone_ret_to_mark(c->target ? 99 : dst->ifindex,
							  c->flags));
	NB_ASSERT_EQ(tc_run_frame(src, frame, len, &pkt), TC_ACT_OK);
	NB_ASSERT_EQ((int)pkt->mark, c->ret);
	/* the original now has private data: the clone's buffer is its own */
	NB_ASSERT(!nb_pkt_shared_data(pkt));
	nb_pkt_free(pkt);
	nb_net_flush();
	NB_ASSERT_EQ(tc_stats(dst).tx_packets + tc_stats(dst).host_packets,
		     c->ret == 0 ? 1 : 0);
	/* the original was never counted as received here: count it as if it had been */
	nb_dev_count_rx(src, len);
	nb_dev_count_drop(src, NB_DROP_NOT_SPECIFIED);
	tc_check_accounting(devs, 2);
}

static void __attribute__((constructor)) register_clone_ret(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(clone_ret_cases); i++)
		nb_test_register(clone_ret_cases[i].name, run_clone_ret, &clone_ret_cases[i]);
}

/* bpf_redirect_peer on a pipe pair: the packet enters the peer's receive path at once. */
NB_TEST(tc_redirect_peer)
{
	const struct bpf_insn insns[] = {
		NB_MOV64_IMM(BPF_REG_1, 2),	/* veth0's ifindex */
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_CALL_HELPER(BPF_FUNC_redirect_peer),
		NB_EXIT(),
	};
	struct nb_dev *src = tc_make_dev("eth0", 1), *v0 = tc_make_dev("veth0", 2);
	struct nb_dev *v1 = tc_make_dev("veth1", 3);
	struct nb_dev *devs[] = { src, v0, v1 };
	struct nb_log log = { 0 };
	struct nb_dev_stats_total t;
	u8 frame[128];
	u32 len = tc_frame_arp(frame);

	NB_ASSERT_EQ(nb_dev_pipe_pair(v0, v1, &log), 0);
	nb_dev_set_up(v0, true);
	nb_dev_set_up(v1, true);
	tc_qdisc(src);
	add_da_prog(src, NB_TC_INGRESS, tc_prog(BPF_PROG_TYPE_SCHED_CLS, insns,
						ARRAY_SIZE(insns)));
	tc_receive(src, frame, len);
	t = tc_stats(v1);
	NB_ASSERT_EQ(t.rx_packets, 1);
	NB_ASSERT_EQ(t.host_packets, 1);
	NB_ASSERT_EQ(tc_stats(v0).tx_packets, 0);
	/* the peer counts the packet as received again: the one packet is "in" twice */
	NB_ASSERT_EQ(tc_stats(src).rx_packets + t.rx_packets, 2);

	/* at egress, redirect_peer drops */
	nb_tc_filter_del(src, &(struct nb_tc_filter_id){ .hook = NB_TC_INGRESS }, NULL);
	add_da_prog(src, NB_TC_EGRESS, tc_prog(BPF_PROG_TYPE_SCHED_CLS, insns,
					       ARRAY_SIZE(insns)));
	nb_dev_queue_xmit(tc_pkt(src, frame, len));
	nb_net_flush();
	NB_ASSERT_EQ(tc_stats(src).drops[NB_DROP_NO_DEV], 1);
	nb_log_free(&log);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	(void)devs;
}
