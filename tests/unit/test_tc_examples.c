// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP rewriter of examples/tcbpf1.c on the transmit path: what leaves the port has the new
 * TOS, source address and destination port, and IPv4 and TCP checksums that agree with ones
 * computed here from scratch (RFC 1071 over the header, and over pseudo header plus segment).
 */
#include "tc_test.h"

/* The one's complement sum of len bytes, folded, in host order. */
static u32 sum16(const u8 *p, u32 len, u32 sum)
{
	for (u32 i = 0; i < len; i += 2)
		sum += (u32)p[i] << 8 | (i + 1 < len ? p[i + 1] : 0);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

static void check_ipv4_tcp(const u8 *f, u32 len)
{
	const u8 *ip = f + ETH_HLEN, *tcp = ip + 20;
	u32 tcp_len = len - ETH_HLEN - 20, pseudo;

	NB_ASSERT_EQ(sum16(ip, 20, 0), 0xffff);	/* header with its checksum sums to ~0 */
	pseudo = sum16(ip + 12, 8, 0) + IPPROTO_TCP + tcp_len;
	NB_ASSERT_EQ(sum16(tcp, tcp_len, pseudo), 0xffff);
}

static void run_rewriter(const void *arg)
{
	bool egress = arg != NULL;
	struct nb_dev *dev = tc_make_dev("eth0", 0);
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f),
				       .hook = egress ? NB_TC_EGRESS : NB_TC_INGRESS,
				       .kind = "bpf", .kind_opts = &bpf };
	struct nb_object *obj;
	struct nb_pkt *out;
	u8 frame[256];
	u32 len;

	tc_set_port(dev, "sink", "keep 4");
	tc_qdisc(dev);
	bpf.prog = tc_example_prog("tcbpf1.o", "classifier", BPF_PROG_TYPE_SCHED_CLS, &obj);
	bpf.direct_action = true;
	tc_add(dev, &f);
	nb_prog_put(bpf.prog);
	nb_object_close(obj);

	len = tc_frame_ipv4(frame, dev, IPPROTO_TCP, 0xc0a80001, 0xc0a80002, 40000, 80, 33);
	check_ipv4_tcp(frame, len);
	if (egress) {
		nb_dev_queue_xmit(tc_pkt(dev, frame, len));
		nb_net_flush();
		out = nb_sink_take(dev->port);
	} else {
		struct nb_pkt *pkt;

		NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &pkt), TC_ACT_OK);
		out = pkt;
	}
	NB_ASSERT(out);
	NB_ASSERT_EQ(out->len, len);
	NB_ASSERT_EQ(out->data[ETH_HLEN + 1], 8);
	NB_ASSERT_MEM_EQ(out->data + ETH_HLEN + 12, "\x0a\x01\x01\x01", 4);
	NB_ASSERT_MEM_EQ(out->data + ETH_HLEN + 16, "\xc0\xa8\x00\x02", 4);
	NB_ASSERT_EQ(out->data[ETH_HLEN + 22] << 8 | out->data[ETH_HLEN + 23], 5001);
	check_ipv4_tcp(out->data, out->len);
	/* everything else is as sent */
	NB_ASSERT_MEM_EQ(out->data + ETH_HLEN + 40, frame + ETH_HLEN + 40, len - ETH_HLEN - 40);
	nb_pkt_free_list(out);
	if (egress) {
		NB_ASSERT_EQ(tc_stats(dev).tx_packets, 1);
		tc_check_accounting(&dev, 1);
	}

	/* UDP goes through untouched */
	if (!egress) {
		len = tc_frame_ipv4(frame, dev, IPPROTO_UDP, 0xc0a80001, 0xc0a80002, 40000, 80,
				    33);
		NB_ASSERT_EQ(tc_run_frame(dev, frame, len, &out), TC_ACT_OK);
		NB_ASSERT_MEM_EQ(out->data, frame, len);
		nb_pkt_free(out);
	}
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static void __attribute__((constructor)) register_rewriter(void)
{
	nb_test_register("tc_example_tcp_rewriter_ingress", run_rewriter, NULL);
	nb_test_register("tc_example_tcp_rewriter_egress", run_rewriter, "egress");
}

/*
 * examples/tc_tail_call.o added as `tc filter add dev eth0 ingress bpf da obj tc_tail_call.o
 * sec classifier` does: the "1/6" and "1/17" sections are loaded with the classifier and fill
 * its pinned program array, so TCP leaves by the next device, UDP is dropped and ICMP, which
 * has no program in the array, passes. With only the classifier loaded every frame would pass.
 */
NB_TEST(tc_example_tail_call_sections)
{
	struct nb_dev *dev = tc_make_dev("eth0", 0), *next = tc_make_dev("eth1", 0);
	NB_OPTS(nb_tc_bpf_opts, bpf);
	struct nb_tc_filter_opts f = { .sz = sizeof(f), .hook = NB_TC_INGRESS, .kind = "bpf",
				       .kind_opts = &bpf };
	struct nb_dev *devs[2] = { dev, next };
	struct nb_dev_stats_total t;
	char path[4096];
	u8 frame[256];
	u32 len;

	tc_set_port(dev, "sink", "");
	tc_set_port(next, "sink", "");
	tc_qdisc(dev);
	/* tc's "obj F sec classifier": the "1/6", "1/17" sections load with it */
	NB_ASSERT_EQ(nb_object_load_section(nb_test_build_path(path, sizeof(path),
							       "examples/tc_tail_call.o"),
					    "classifier", BPF_PROG_TYPE_SCHED_CLS, NULL, 0,
					    &bpf.prog, NULL), 0);
	bpf.direct_action = true;
	tc_add(dev, &f);
	nb_prog_put(bpf.prog);

	len = tc_frame_ipv4(frame, dev, IPPROTO_TCP, 0xc0a80001, 0xc0a80002, 40000, 80, 20);
	NB_ASSERT_EQ(tc_receive(dev, frame, len), 0);
	len = tc_frame_ipv4(frame, dev, IPPROTO_UDP, 0xc0a80001, 0xc0a80002, 40000, 53, 20);
	tc_receive(dev, frame, len);
	len = tc_frame_ipv4(frame, dev, IPPROTO_ICMP, 0xc0a80001, 0xc0a80002, 0, 0, 20);
	tc_receive(dev, frame, len);

	t = tc_stats(dev);
	NB_ASSERT_EQ(t.rx_packets, 3);
	NB_ASSERT_EQ(t.tc_redirect, 1);
	NB_ASSERT_EQ(t.drops[NB_DROP_TC_INGRESS], 1);
	NB_ASSERT_EQ(t.host_packets, 1);
	NB_ASSERT_EQ(tc_stats(next).tx_packets, 1);
	tc_check_accounting(devs, 2);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_unpin("tc/globals/jmp_proto"), 0);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
