// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP port against a real kernel interface. Each test makes a network namespace of its
 * own (the test is a process), with a veth pair veth0/veth1 in it: netbpf's afxdp port sits on
 * veth1, the test injects frames into veth0 with an AF_PACKET socket, netbpf sends them back out
 * of veth1 through an XDP program of its own (examples/xdp_swap_mac_tx.o: XDP_TX), and the test
 * reads them on veth0 and compares them byte by byte. Root, AF_XDP and veth are needed;
 * otherwise the tests are skipped with the reason.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_packet.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/object.h>

#include "bpf/epoch.h"
#include "io/afxdp_umem.h"
#include "net/worker.h"
#include "../unit/xdp_test.h"
#include "netns.h"

#define ETH_P_TEST 0x88b5	/* IEEE local experimental: nothing else here sends it */
#define MAX_FRAME 1514

/*
 * A namespace of our own with veth0/veth1 up, queues each (several: made by ip(8), which
 * sets the queue counts); skips when that is refused.
 */
static void netns_veth(unsigned int queues)
{
	char cmd[256];
	int err = nb_netns_enter();

	if (err)
		nb_test_skip("no network namespace of its own (needs root): %s", strerror(-err));
	if (queues == 1) {
		err = nb_veth_pair_up("veth0", "veth1");
		if (err)
			nb_test_skip("cannot make a veth pair: %s", strerror(-err));
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "ip link add veth0 numtxqueues %u numrxqueues %u type veth peer name veth1 "
		 "numtxqueues %u numrxqueues %u && ip link set veth0 up && ip link set veth1 up",
		 queues, queues, queues, queues);
	if (system(cmd) != 0)
		nb_test_skip("cannot make a veth pair with %u queues with ip(8)", queues);
}

static int packet_socket(const char *ifname, int proto)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(proto),
		.sll_ifindex = (int)if_nametoindex(ifname),
	};
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(proto));
	int size = 16 << 20;

	NB_ASSERT(fd >= 0);
	NB_ASSERT_EQ(bind(fd, (struct sockaddr *)&sll, sizeof(sll)), 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size));
	return fd;
}

/*
 * Frame seq: its own length, MACs, the test ethertype, seq and a pattern. With flows, an
 * IPv4/UDP frame whose source port is the sequence number instead, so that the sender's
 * transmit queue choice (a flow hash) spreads the frames over a multi-queue pair.
 */
static bool flows;

static u32 make_frame(u8 *buf, u32 seq)
{
	static const u8 dst[6] = { 0x02, 0, 0, 0, 0, 0x02 }, src[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	u32 len = 64 + (seq * 97) % (MAX_FRAME - 64 + 1), off = 14;

	memset(buf, 0, len);
	memcpy(buf, dst, 6);
	memcpy(buf + 6, src, 6);
	buf[12] = ETH_P_TEST >> 8;
	buf[13] = ETH_P_TEST & 0xff;
	if (flows) {
		u16 tot = htons((u16)(len - 14)), sport = htons((u16)(1024 + seq)),
		    dport = htons(9), ulen = htons((u16)(len - 34));

		buf[12] = 0x08;
		buf[13] = 0x00;
		buf[14] = 0x45;
		memcpy(buf + 16, &tot, 2);
		buf[22] = 64;
		buf[23] = 17;
		memcpy(buf + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
		memcpy(buf + 34, &sport, 2);
		memcpy(buf + 36, &dport, 2);
		memcpy(buf + 38, &ulen, 2);
		off = 42;
	}
	memcpy(buf + off, &seq, 4);
	memcpy(buf + off + 4, "nbxt", 4);
	for (u32 i = off + 8; i < len; i++)
		buf[i] = (u8)(seq + i);
	return len;
}

static bool is_test_frame(const u8 *buf, size_t len)
{
	return len >= 64 && (flows ? buf[12] == 0x08 && buf[13] == 0 && !memcmp(buf + 46, "nbxt", 4)
			     : buf[12] == ETH_P_TEST >> 8 && buf[13] == (ETH_P_TEST & 0xff));
}

static void inject(int fd, u32 first, u32 n)
{
	u8 buf[MAX_FRAME];

	for (u32 seq = first; seq < first + n; seq++) {
		u32 len = make_frame(buf, seq);

		NB_ASSERT_EQ(send(fd, buf, len, 0), len);
	}
}

/* The next test frame received on fd (not our own outgoing ones), or 0 after timeout_ms. */
static ssize_t recv_test_frame(int fd, u8 *buf, size_t size, int timeout_ms)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t n;

		if (poll(&pfd, 1, timeout_ms) <= 0)
			return 0;
		n = recvfrom(fd, buf, size, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
		if (n < 14 || from.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (is_test_frame(buf, (size_t)n))
			return n;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Poll dev until it has transmitted want frames (or received want, tx false), 5 s at most. */
static void poll_until(struct nb_dev *dev, u64 want, bool tx)
{
	struct nb_dev_stats_total t;
	double end = now() + 5;

	nb_epoch_online();
	do {
		nb_worker_poll(&dev, 1);
		nb_epoch_quiescent();
		nb_dev_stats_read(dev, &t);
	} while ((tx ? t.tx_packets : t.rx_packets) < want && now() < end);
	nb_epoch_offline();
}

static struct nb_dev *afxdp_dev(const char *words, int *errp, struct nb_log *log)
{
	static unsigned int seq;
	struct nb_dev *dev;
	char name[16];
	int err;

	snprintf(name, sizeof(name), "x%u", seq++);
	err = nb_dev_create(name, 0, &dev, log);

	NB_ASSERT_EQ(err, 0);
	err = nb_dev_attach_port(dev, "afxdp", words, log);
	if (errp) {
		*errp = err;
		if (err) {
			nb_dev_destroy(dev);
			return NULL;
		}
	} else if (err) {
		NB_FAIL("afxdp %s: %d %s", words, err, nb_log_text(log));
	}
	nb_dev_set_up(dev, true);
	return dev;
}

static void attach_swap_mac(struct nb_dev *dev)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts oopts = { .sz = sizeof(oopts), .log = &log };
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts), .log = &log };
	struct nb_object *obj;
	struct nb_object_prog *p;
	char buf[4096];
	int err;

	err = nb_object_open_file(nb_test_build_path(buf, sizeof(buf),
						     "examples/xdp_swap_mac_tx.o"), &oopts, &obj);
	if (!err)
		err = nb_object_load(obj, &lopts);
	if (err)
		NB_FAIL("xdp_swap_mac_tx.o: %d %s", err, nb_log_text(&log));
	p = nb_object_find_prog(obj, NULL, "xdp_swap_mac_tx");
	NB_ASSERT(p && nb_object_prog_prog(p));
	xt_attach(dev, nb_prog_get(nb_object_prog_prog(p)));
	nb_object_close(obj);
	nb_log_free(&log);
}

static u32 xdp_prog_on(const char *ifname)
{
	u32 id = 0;

	NB_ASSERT_EQ(bpf_xdp_query_id((int)if_nametoindex(ifname), 0, &id), 0);
	return id;
}

/*
 * n frames into veth0, through netbpf (afxdp on veth1, XDP_TX with MACs swapped) and back:
 * every one comes back once, in order, with its bytes.
 */
static void round_trip(const char *words, unsigned int queues, u32 n)
{
	struct nb_log log = { 0 };
	struct nb_dev_stats_total t;
	struct nb_afxdp_umem *umem;
	struct nb_dev *dev;
	int txfd, rxfd, err;
	u8 want[MAX_FRAME], got[MAX_FRAME];
	bool seen[1000] = { false };
	u64 lent, by_desc;
	char desc[256];

	NB_ASSERT(n <= ARRAY_SIZE(seen));

	netns_veth(queues);
	rxfd = packet_socket("veth0", ETH_P_ALL);
	txfd = packet_socket("veth0", 0);
	dev = afxdp_dev(words, &err, &log);
	if (err == -EOPNOTSUPP || err == -EAFNOSUPPORT)
		nb_test_skip("the kernel refuses %s: %s", words, nb_log_text(&log));
	NB_ASSERT_EQ(err, 0);
	NB_ASSERT(xdp_prog_on("veth1") != 0);
	attach_swap_mac(dev);

	inject(txfd, 0, n);
	poll_until(dev, n, true);
	for (u32 i = 0; i < n; i++) {
		ssize_t k = recv_test_frame(rxfd, got, sizeof(got), 2000);
		u32 seq, len;

		if (k <= 0)
			NB_FAIL("%u frames of %u came back", i, n);
		memcpy(&seq, got + (flows ? 42 : 14), 4);
		/* one queue keeps the order; frames of several queues interleave */
		if (queues == 1)
			NB_ASSERT_EQ(seq, i);
		NB_ASSERT(seq < n && !seen[seq]);
		seen[seq] = true;
		len = make_frame(want, seq);
		NB_ASSERT_EQ(k, len);
		/* the program swapped the MACs */
		NB_ASSERT_MEM_EQ(got, want + 6, 6);
		NB_ASSERT_MEM_EQ(got + 6, want, 6);
		NB_ASSERT_MEM_EQ(got + 12, want + 12, len - 12);
	}
	NB_ASSERT_EQ(recv_test_frame(rxfd, got, sizeof(got), 100), 0);
	nb_dev_stats_read(dev, &t);
	NB_ASSERT_EQ(t.rx_packets, n);
	NB_ASSERT_EQ(t.tx_packets, n);
	NB_ASSERT_EQ(t.rx_dropped, 0);
	NB_ASSERT_EQ(xt_stats(dev).tx, n);
	/* every frame was a packet's buffer and went back out by its descriptor */
	NB_ASSERT_EQ(nb_afxdp_port_zc_stats(dev->port, &lent, &by_desc, &umem), 0);
	NB_ASSERT_EQ(lent, n);
	NB_ASSERT_EQ(by_desc, n);
	NB_ASSERT_EQ(nb_afxdp_umem_in_pkts(umem), 0);
	nb_dev_port_describe(dev, desc, sizeof(desc));
	NB_ASSERT_STR_CONTAINS(desc, "afxdp dev veth1");
	nb_test_report("%s", desc);
	for (unsigned int q = 0, rx = 0, tx = 0; q <= queues; q++) {
		struct nb_port_queue_stats st;

		if (q == queues) {	/* the queues' counters add up to the device's */
			NB_ASSERT_EQ(nb_port_queue_stats(dev->port, q, &st), -ENOENT);
			NB_ASSERT_EQ(rx, n);
			NB_ASSERT_EQ(tx, n);
			break;
		}
		NB_ASSERT_EQ(nb_port_queue_stats(dev->port, q, &st), 0);
		/* several queues: the flows reached each of them */
		NB_ASSERT(st.rx_packets > 0);
		NB_ASSERT_EQ(st.rx_kernel_drops + st.rx_too_big + st.tx_errors, 0);
		rx += st.rx_packets;
		tx += st.tx_packets;
	}

	/* closing the port detaches the redirect program; its UMEM goes with it */
	nb_dev_destroy(dev);
	NB_ASSERT_EQ(xdp_prog_on("veth1"), 0);
	NB_ASSERT_EQ(nb_afxdp_umem_count(), 0);
	close(rxfd);
	close(txfd);
	nb_log_free(&log);
	xt_teardown();
}

NB_TEST(afxdp_xdp_tx_skb_mode)
{
	round_trip("dev veth1 mode skb copy", 1, 500);
}

/* veth runs native XDP itself (its NAPI path); AF_XDP stays in copy mode there */
NB_TEST(afxdp_xdp_tx_drv_mode)
{
	round_trip("dev veth1 mode drv copy", 1, 500);
}

/*
 * Two queues, two sockets: 300 UDP flows arrive on both queues and all come back. In skb mode
 * veth hands generic XDP every frame as queue 0's, so the spread needs its native XDP.
 */
NB_TEST(afxdp_two_queues)
{
	flows = true;
	round_trip("dev veth1 queues 2 mode drv copy", 2, 300);
}

/*
 * More frames than the rx ring holds, with nobody polling: the kernel drops the rest and
 * counts them; the port turns its counters into the device's drops by reason, so that every
 * frame is either received or counted.
 */
NB_TEST(afxdp_rx_ring_full_counted)
{
	struct nb_log log = { 0 };
	struct nb_dev_stats_total t;
	struct nb_dev *dev;
	const u32 n = 3000;
	int txfd;

	netns_veth(1);
	txfd = packet_socket("veth0", 0);
	dev = afxdp_dev("dev veth1 mode skb copy", NULL, &log);
	inject(txfd, 0, n);
	poll_until(dev, 2048, false);
	/* the counters are read every 64 polls: a few hundred empty polls read them */
	nb_epoch_online();
	for (int i = 0; i < 300; i++)
		nb_worker_poll(&dev, 1);
	nb_epoch_offline();
	nb_dev_stats_read(dev, &t);
	NB_ASSERT_EQ(t.rx_packets, 2048);
	/* the fill ring runs dry as the rx ring fills: either counter may take a frame */
	NB_ASSERT_EQ(t.drops[NB_DROP_RX_OVERFLOW] + t.drops[NB_DROP_PORT_RX_NO_BUFFER],
		     n - 2048);
	NB_ASSERT_EQ(t.rx_dropped, n - 2048);
	close(txfd);
	nb_log_free(&log);
	xt_teardown();
}

/* n frames numbered from first must arrive on fd, in order, with their bytes. */
static void expect_frames(int fd, u32 first, u32 n)
{
	u8 want[MAX_FRAME], got[MAX_FRAME];

	for (u32 i = first; i < first + n; i++) {
		ssize_t k = recv_test_frame(fd, got, sizeof(got), 2000);
		u32 seq, len = make_frame(want, i);

		if (k <= 0)
			NB_FAIL("%u frames of %u came through", i - first, n);
		memcpy(&seq, got + 14, 4);
		NB_ASSERT_EQ(seq, i);
		NB_ASSERT_EQ(k, len);
		NB_ASSERT_MEM_EQ(got, want, len);
	}
	NB_ASSERT_EQ(recv_test_frame(fd, got, sizeof(got), 100), 0);
}

/*
 * Two afxdp ports polled by one worker, each with a program that redirects to the other:
 * frames into veth0 leave veth2 and frames into veth2 leave veth0, byte for byte. The ports
 * share one UMEM, so each frame is received into a packet buffer that is the UMEM frame and
 * leaves by that frame's descriptor: no byte is copied in netbpf. The counters are exact, and
 * at the end every frame is back in the UMEM, which goes with the ports.
 */
NB_TEST(afxdp_redirect_between_ports_moves_descriptors)
{
	const u32 n = 300;
	struct nb_log log = { 0 };
	struct nb_afxdp_umem *umem0, *umem1;
	struct nb_dev *devs[2];
	struct nb_dev_stats_total t;
	int rx0, tx0, rx2, tx2, err;
	u64 lent, by_desc;
	double end;

	netns_veth(1);
	err = nb_veth_pair_up("veth2", "veth3");
	if (err)
		nb_test_skip("cannot make a second veth pair: %s", strerror(-err));
	rx0 = packet_socket("veth0", ETH_P_ALL);
	tx0 = packet_socket("veth0", 0);
	rx2 = packet_socket("veth2", ETH_P_ALL);
	tx2 = packet_socket("veth2", 0);
	devs[0] = afxdp_dev("dev veth1 mode skb copy", NULL, &log);
	devs[1] = afxdp_dev("dev veth3 mode skb copy", NULL, &log);
	xt_attach(devs[0], xt_prog_redirect(devs[1]->ifindex, 0));
	xt_attach(devs[1], xt_prog_redirect(devs[0]->ifindex, 0));

	inject(tx0, 0, n);
	inject(tx2, n, n);
	end = now() + 5;
	nb_epoch_online();
	do {
		u64 sent = 0;

		nb_worker_poll(devs, 2);
		nb_epoch_quiescent();
		for (int i = 0; i < 2; i++) {
			nb_dev_stats_read(devs[i], &t);
			sent += t.tx_packets;
		}
		if (sent == 2 * n)
			break;
	} while (now() < end);
	nb_epoch_offline();
	expect_frames(rx2, 0, n);
	expect_frames(rx0, n, n);

	for (int i = 0; i < 2; i++) {
		nb_dev_stats_read(devs[i], &t);
		NB_ASSERT_EQ(t.rx_packets, n);
		NB_ASSERT_EQ(t.tx_packets, n);
		NB_ASSERT_EQ(t.rx_dropped, 0);
		NB_ASSERT_EQ(nb_afxdp_port_zc_stats(devs[i]->port, &lent, &by_desc,
						    i ? &umem1 : &umem0), 0);
		NB_ASSERT_EQ(lent, n);
		NB_ASSERT_EQ(by_desc, n);
	}
	NB_ASSERT(umem0 == umem1);
	NB_ASSERT_EQ(nb_afxdp_umem_in_pkts(umem0), 0);
	NB_ASSERT_EQ(nb_afxdp_umem_count(), 1);
	nb_dev_destroy(devs[0]);
	nb_dev_destroy(devs[1]);
	NB_ASSERT_EQ(nb_afxdp_umem_count(), 0);
	close(rx0);
	close(tx0);
	close(rx2);
	close(tx2);
	nb_log_free(&log);
	xt_teardown();
}

/*
 * A port that closes gives its fill ring's frames back to a UMEM another port goes on using
 * (copy mode: the kernel is done with them once the socket is gone): ports that come and go
 * beside one that stays never drain the UMEM, whose free frames are what they were before.
 * The UMEM's first socket stays bound when its port closes, and its queue taken, until the
 * UMEM ends: a port on that queue meanwhile is an error that says so.
 */
NB_TEST(afxdp_closed_port_gives_its_frames_back)
{
	struct nb_log log = { 0 };
	struct nb_afxdp_umem *umem, *umem1;
	struct nb_dev *keep, *dev;
	u64 lent, by_desc;
	u32 nfree;
	int err;

	netns_veth(1);
	err = nb_veth_pair_up("veth2", "veth3");
	if (err)
		nb_test_skip("cannot make a second veth pair: %s", strerror(-err));
	keep = afxdp_dev("dev veth1 mode skb copy", NULL, &log);
	NB_ASSERT_EQ(nb_afxdp_port_zc_stats(keep->port, &lent, &by_desc, &umem), 0);
	nfree = umem->nfree;
	/* more ports than the UMEM has frames for, were their fill rings lost */
	for (int i = 0; i < 10; i++) {
		dev = afxdp_dev("dev veth3 mode skb copy", NULL, &log);
		NB_ASSERT_EQ(nb_afxdp_port_zc_stats(dev->port, &lent, &by_desc, &umem1), 0);
		NB_ASSERT(umem1 == umem);
		NB_ASSERT(umem->nfree < nfree);
		nb_dev_destroy(dev);
		NB_ASSERT_EQ(umem->nfree, nfree);
	}
	/*
	 * The UMEM's first socket lives on, bound, while another uses the UMEM (libxdp keeps it on
	 * the UMEM's fd): its fill ring's frames are the kernel's to take, and stay out.
	 */
	dev = afxdp_dev("dev veth3 mode skb copy", NULL, &log);
	nfree = umem->nfree;
	nb_dev_destroy(keep);
	NB_ASSERT_EQ(umem->nfree, nfree);
	/* so is its queue: a port on it is refused at once, saying why */
	nb_log_free(&log);
	keep = afxdp_dev("dev veth1 mode skb copy", &err, &log);
	NB_ASSERT_EQ(err, -EADDRINUSE);
	NB_ASSERT(!keep);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "queue 0 of veth1 is still bound");
	nb_dev_destroy(dev);
	NB_ASSERT_EQ(nb_afxdp_umem_count(), 0);
	/* the UMEM gone, the queue is free again */
	keep = afxdp_dev("dev veth1 mode skb copy", NULL, &log);
	nb_dev_destroy(keep);
	NB_ASSERT_EQ(nb_afxdp_umem_count(), 0);
	nb_log_free(&log);
	xt_teardown();
}

/*
 * A packet whose buffer is a UMEM frame may outlive its port (a sink keeps it): the UMEM
 * stays until the packet is freed, and the bytes stay readable until then.
 */
NB_TEST(afxdp_frames_outlive_their_port)
{
	struct nb_log log = { 0 };
	struct nb_dev *dev, *sink;
	struct nb_pkt *pkt, *next;
	u8 want[MAX_FRAME];
	u64 lent, by_desc;
	struct nb_afxdp_umem *umem;
	int txfd;

	netns_veth(1);
	txfd = packet_socket("veth0", 0);
	dev = afxdp_dev("dev veth1 mode skb copy", NULL, &log);
	sink = xt_dev("keeper", "keep 16");
	xt_attach(dev, xt_prog_redirect(sink->ifindex, 0));
	inject(txfd, 0, 10);
	poll_until(dev, 10, false);
	nb_epoch_online();
	nb_worker_poll(&dev, 1);
	nb_epoch_offline();
	NB_ASSERT_EQ(xt_sink_packets(sink), 10);
	NB_ASSERT_EQ(nb_afxdp_port_zc_stats(dev->port, &lent, &by_desc, &umem), 0);
	NB_ASSERT_EQ(lent, 10);
	NB_ASSERT_EQ(nb_afxdp_umem_in_pkts(umem), 10);
	nb_dev_destroy(dev);
	/* the sink still holds ten frames of the UMEM: it lives on, their bytes intact */
	NB_ASSERT_EQ(nb_afxdp_umem_count(), 1);
	pkt = nb_sink_take(sink->port);
	for (u32 i = 0; i < 10; i++, pkt = next) {
		u32 len = make_frame(want, i);

		NB_ASSERT(pkt);
		next = pkt->next;
		NB_ASSERT_EQ(pkt->len, len);
		NB_ASSERT_MEM_EQ(pkt->data, want, len);
		nb_pkt_free(pkt);
		/* the last frame back ends the UMEM */
		NB_ASSERT_EQ(nb_afxdp_umem_count(), i < 9);
	}
	NB_ASSERT(!pkt);
	close(txfd);
	nb_log_free(&log);
	xt_teardown();
}

struct open_error_case {
	const char *name;
	const char *words;
	int err;
	const char *msg;
};

static const struct open_error_case open_errors[] = {
	{ "afxdp_err_no_interface", "dev nosuch0", -ENODEV, "no interface \"nosuch0\"" },
	{ "afxdp_err_queue_beyond", "dev veth1 queues 2", -EINVAL,
	  "queues 2 is wrong: veth1 has 1 queue" },
	{ "afxdp_err_no_dev_word", "queues 1", -EINVAL, "needs \"dev IFNAME\"" },
	{ "afxdp_err_bad_mode", "dev veth1 mode hw", -EINVAL, "mode \"hw\" is wrong" },
	{ "afxdp_err_unknown_word", "dev veth1 ring 8", -EINVAL, "\"ring\" is wrong" },
	{ "afxdp_err_zerocopy_on_veth", "dev veth1 mode skb zerocopy", -EOPNOTSUPP,
	  "the driver has no zero-copy; try copy" },
};

/* Each error says what is wrong in one line, and leaves no program on the interface. */
static void test_open_error(const void *arg)
{
	const struct open_error_case *c = arg;
	struct nb_log log = { 0 };
	int err;

	netns_veth(1);
	NB_ASSERT(afxdp_dev(c->words, &err, &log) == NULL);
	NB_ASSERT_EQ(err, c->err);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), c->msg);
	NB_ASSERT_EQ(strchr(nb_log_text(&log), '\n') - nb_log_text(&log) + 1,
		     strlen(nb_log_text(&log)));
	NB_ASSERT_EQ(xdp_prog_on("veth1"), 0);
	nb_log_free(&log);
	xt_teardown();
}

static void __attribute__((constructor)) register_open_errors(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(open_errors); i++)
		nb_test_register(open_errors[i].name, test_open_error, &open_errors[i]);
}

/* A queue that already has a socket, and an unprivileged user: clear one-line errors. */
NB_TEST(afxdp_err_busy_and_not_root)
{
	struct nb_log log = { 0 };
	struct nb_dev *dev;
	int err;

	netns_veth(1);
	dev = afxdp_dev("dev veth1 mode skb", NULL, &log);
	NB_ASSERT(dev);
	NB_ASSERT(afxdp_dev("dev veth1 mode skb", &err, &log) == NULL);
	NB_ASSERT_EQ(err, -EBUSY);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "queue 0 of veth1 already has an AF_XDP socket");
	/* the first port still owns the program */
	NB_ASSERT(xdp_prog_on("veth1") != 0);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(xdp_prog_on("veth1"), 0);

	nb_log_reset(&log);
	NB_ASSERT_EQ(setresuid(65534, 65534, 65534), 0);
	NB_ASSERT(afxdp_dev("dev veth1", &err, &log) == NULL);
	NB_ASSERT(err == -EPERM || err == -EACCES);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "needs root");
	nb_log_free(&log);
	xt_teardown();
}

/*
 * Frames longer than a packet buffer arrive whole: 3600 bytes fit a UMEM frame but not an
 * nb_pkt's linear part (its tail becomes a fragment), 3900 bytes do not fit a UMEM frame with
 * the kernel's headroom (the socket, bound with XDP_USE_SG, gets it in two descriptors); a
 * 100-byte frame passes too. Nothing is dropped or cut.
 */
static void big_frames_whole(const char *words)
{
	static u8 frame[3900];
	const u32 sizes[] = { 3600, 3900, 100 };
	struct nb_log log = { 0 };
	struct nb_port_queue_stats qs;
	struct nb_dev_stats_total t;
	struct nb_dev *dev;
	int err = nb_netns_enter(), txfd;

	if (err)
		nb_test_skip("no network namespace of its own (needs root): %s", strerror(-err));
	err = nb_veth_add("veth0", "veth1");
	if (!err)
		err = nb_link_up("veth0", 9000);
	if (!err)
		err = nb_link_up("veth1", 9000);
	if (err)
		nb_test_skip("cannot make a veth pair with mtu 9000: %s", strerror(-err));
	txfd = packet_socket("veth0", 0);
	dev = afxdp_dev(words, NULL, &log);
	memset(frame, 0xab, sizeof(frame));
	frame[12] = ETH_P_TEST >> 8;
	frame[13] = ETH_P_TEST & 0xff;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		NB_ASSERT_EQ(send(txfd, frame, sizes[i], 0), sizes[i]);
	poll_until(dev, 3, false);
	nb_epoch_online();
	for (int i = 0; i < 200; i++)	/* the kernel's counters are read every 64 polls */
		nb_worker_poll(&dev, 1);
	nb_epoch_offline();
	nb_dev_stats_read(dev, &t);
	NB_ASSERT_EQ(t.rx_packets, 3);
	NB_ASSERT_EQ(t.rx_bytes, 3600 + 3900 + 100);
	NB_ASSERT_EQ(t.drops[NB_DROP_TOO_BIG], 0);
	NB_ASSERT_EQ(t.drops[NB_DROP_PORT_RX_NO_BUFFER], 0);
	NB_ASSERT_EQ(t.rx_dropped, 0);
	NB_ASSERT_EQ(nb_port_queue_stats(dev->port, 0, &qs), 0);
	NB_ASSERT_EQ(qs.rx_too_big, 0);
	NB_ASSERT_EQ(qs.rx_kernel_drops, 0);
	close(txfd);
	nb_log_free(&log);
	xt_teardown();
}

NB_TEST(afxdp_big_frames_whole)
{
	big_frames_whole("dev veth1 mode skb copy");
}

/*
 * The same through the driver's XDP: veth takes a program on a 9000-byte link only if it says
 * it takes frames in pieces (xdp.frags), as netbpf's redirect program does.
 */
NB_TEST(afxdp_big_frames_whole_drv_mode)
{
	big_frames_whole("dev veth1 mode drv copy");
}

/* An interface with an XDP program of someone else's: refused in one line, the program stays. */
NB_TEST(afxdp_err_foreign_xdp_prog)
{
	const struct bpf_insn pass[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct nb_log log = { 0 };
	int ifindex, fd, err;
	u32 id;

	netns_veth(1);
	ifindex = (int)if_nametoindex("veth1");
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "foreign", "GPL", pass, ARRAY_SIZE(pass), NULL);
	if (fd < 0)
		nb_test_skip("cannot load an XDP program: %s", strerror(errno));
	NB_ASSERT_EQ(bpf_xdp_attach(ifindex, fd, XDP_FLAGS_SKB_MODE, NULL), 0);
	id = xdp_prog_on("veth1");
	NB_ASSERT(afxdp_dev("dev veth1 mode skb", &err, &log) == NULL);
	NB_ASSERT_EQ(err, -EBUSY);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "veth1 already has an XDP program");
	NB_ASSERT_EQ(strchr(nb_log_text(&log), '\n') - nb_log_text(&log) + 1,
		     strlen(nb_log_text(&log)));
	NB_ASSERT_EQ(xdp_prog_on("veth1"), id);
	NB_ASSERT_EQ(bpf_xdp_detach(ifindex, XDP_FLAGS_SKB_MODE, NULL), 0);
	close(fd);
	nb_log_free(&log);
	xt_teardown();
}
