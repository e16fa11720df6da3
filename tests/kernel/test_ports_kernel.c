// SPDX-License-Identifier: GPL-2.0
/*
 * The afpacket and tap ports against real kernel interfaces, each test in a network namespace
 * of its own: veth pairs and taps made there, frames injected and read back through plain
 * AF_PACKET sockets of the test, the datapath between them set up with the link and tc words
 * (src/ctl) and polled by nb_worker_poll. Skipped with the reason when not root.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <ifaddrs.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>

#include "ctl/ctl.h"
#include "io/port.h"
#include "pkt/csum.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/worker.h"
#include "netns.h"
#include "test.h"

/* IEEE local experimental ethertype: the kernel's own frames (IPv6 ND, MLD) are not ours. */
#define TEST_ETH_P 0x88b5
#define NR_FRAMES 64

static void enter_netns(void)
{
	int err = nb_netns_enter();

	if (err)
		nb_test_skip("needs root and a network namespace of its own: %s",
			     strerror(-err));
}

static void veth_pair(const char *a, const char *b)
{
	int err = nb_veth_pair_up(a, b);

	if (err == -EOPNOTSUPP || err == -ENOENT)
		nb_test_skip("the kernel makes no veth pair: %s", strerror(-err));
	if (err)
		NB_FAIL("veth %s/%s: %s", a, b, strerror(-err));
}

/* A test-side packet socket on ifname for protocol (host order), non-blocking. */
static int test_socket(const char *ifname, int protocol)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(protocol),
				   .sll_ifindex = (int)if_nametoindex(ifname) };
	int one = 1, fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
				 htons(protocol));

	NB_ASSERT(fd >= 0 && sll.sll_ifindex > 0);
	NB_ASSERT_EQ(bind(fd, (struct sockaddr *)&sll, sizeof(sll)), 0);
	/* what this socket sends is not what it waits for */
	setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	return fd;
}

/*
 * Frame i: Ethernet, then for flows an IPv4/UDP header whose source port is the flow (so that
 * flow hashes differ), then a pattern of i. Lengths vary from 60 to 1514 bytes.
 */
static u32 make_frame(u8 *buf, u32 i, bool flows)
{
	static const u8 dst[6] = { 0x02, 0, 0, 0, 0, 0x02 }, src[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	u32 len = 60 + (i * 97) % (1514 - 60 + 1);
	__be16 proto = htons(flows ? ETH_P_IP : TEST_ETH_P);

	memcpy(buf, dst, 6);
	memcpy(buf + 6, src, 6);
	memcpy(buf + 12, &proto, 2);
	for (u32 k = 14; k < len; k++)
		buf[k] = (u8)(i * 31 + k);
	if (flows) {
		/* IPv4 10.0.0.1 -> 10.0.0.2, UDP 1024+i -> 9 (the checksums do not matter here) */
		u8 ip[20] = { 0x45, 0, (u8)((len - 14) >> 8), (u8)(len - 14), 0, 0, 0, 0, 64, 17,
			      0, 0, 10, 0, 0, 1, 10, 0, 0, 2 };
		u8 udp[8] = { (u8)((1024 + i) >> 8), (u8)(1024 + i), 0, 9,
			      (u8)((len - 34) >> 8), (u8)(len - 34), 0, 0 };

		memcpy(buf + 14, ip, sizeof(ip));
		memcpy(buf + 34, udp, sizeof(udp));
	}
	buf[len - 1] = (u8)i;
	return len;
}

static void send_frames(int fd, u32 first, u32 n, bool flows)
{
	u8 buf[2048];

	for (u32 i = first; i < first + n; i++) {
		u32 len = make_frame(buf, i, flows);

		NB_ASSERT_EQ(send(fd, buf, len, 0), len);
	}
}

static u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

/*
 * Poll the datapath and read frames from fd until want arrived (or 3 s passed); each must be
 * frame first+k, in order, byte for byte.
 */
static void expect_frames(int fd, struct nb_dev **devs, unsigned int nr_devs, u32 first, u32 want)
{
	u64 deadline = now_ms() + 3000;
	u32 got = 0;

	while (got < want && now_ms() < deadline) {
		u8 buf[4096], exp[2048];
		ssize_t len;

		if (nr_devs)
			nb_worker_poll(devs, nr_devs);
		while ((len = recv(fd, buf, sizeof(buf), 0)) > 0) {
			u32 elen = make_frame(exp, first + got, false);

			if ((u32)len != elen || memcmp(buf, exp, elen))
				NB_FAIL("frame %u: %zd bytes, expected %u, or other bytes", got,
					len, elen);
			if (++got == want)
				break;
		}
	}
	if (got != want)
		NB_FAIL("received %u of %u frames", got, want);
}

static void script(const char *text)
{
	struct nb_ctl ctl = { .out = stdout };
	char dir[4096];

	ctl.obj_dir = nb_test_build_path(dir, sizeof(dir), "examples");
	if (nb_ctl_script_run(&ctl, "ports.tc", text, NULL, 0))
		NB_FAIL("script: %s", nb_log_text(&ctl.log));
	nb_log_free(&ctl.log);
}

static struct nb_dev *dev(const char *name)
{
	struct nb_dev *d = nb_dev_get_by_name(name);

	NB_ASSERT(d != NULL);
	nb_dev_put(d);		/* the registry keeps it */
	return d;
}

static void finish(void)
{
	nb_dev_destroy_all();
	nb_pkt_pool_flush_cache();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/*
 * veth0 -> veth1 -> [p0: afpacket] --tc ingress tcbpf1 redirect_xmit--> [p1: afpacket] ->
 * veth2 -> veth3: the example program forwards between two kernel interfaces, every frame
 * arrives unchanged and in order, and the counters agree.
 */
static void forward_redirect_xmit(const void *arg)
{
	const char *tx = arg;
	char text[512];
	struct nb_dev *devs[2];
	struct nb_dev_stats_total s0, s1;
	int in, out;

	enter_netns();
	veth_pair("veth0", "veth1");
	veth_pair("veth2", "veth3");
	snprintf(text, sizeof(text),
		 "link add p0 type afpacket dev veth1 tx %s\n"
		 "link add p1 type afpacket dev veth2 tx %s\n"
		 "tc qdisc add dev p0 clsact\n"
		 "tc filter add dev p0 ingress bpf da obj tcbpf1.o sec redirect_xmit\n", tx, tx);
	script(text);
	devs[0] = dev("p0");
	devs[1] = dev("p1");
	NB_ASSERT_EQ(nb_dev_ifindex(devs[1]), nb_dev_ifindex(devs[0]) + 1);
	in = test_socket("veth0", TEST_ETH_P);
	out = test_socket("veth3", TEST_ETH_P);
	for (u32 round = 0; round < 4; round++) {
		send_frames(in, round * NR_FRAMES, NR_FRAMES, false);
		expect_frames(out, devs, 2, round * NR_FRAMES, NR_FRAMES);
	}
	nb_dev_stats_read(devs[0], &s0);
	nb_dev_stats_read(devs[1], &s1);
	/* p0 may also see what the kernel sends on veth0 (none with IPv6 off); all ours pass */
	NB_ASSERT(s0.rx_packets >= 4 * NR_FRAMES);
	NB_ASSERT_EQ(s1.tx_packets, s0.rx_packets);
	NB_ASSERT_EQ(s1.rx_packets, 0);
	NB_ASSERT_EQ(s0.rx_dropped + s1.rx_dropped, 0);
	close(in);
	close(out);
	finish();
}

static void __attribute__((constructor)) register_forward(void)
{
	nb_test_register("ports_afpacket_forward_redirect_xmit_ring", forward_redirect_xmit,
			 "ring");
	nb_test_register("ports_afpacket_forward_redirect_xmit_sendmmsg", forward_redirect_xmit,
			 "sendmmsg");
}

/*
 * The port sends every frame back out of itself (mirred egress redirect to its own device):
 * the frames return to veth0, and its own transmits are not received again (PACKET_OUTGOING
 * ignored), or they would go round for ever.
 */
NB_TEST(ports_afpacket_reflect_no_loop)
{
	struct nb_dev *devs[1];
	struct nb_dev_stats_total s;
	int fd;

	enter_netns();
	veth_pair("veth0", "veth1");
	script("link add p0 type afpacket dev veth1\n"
	       "tc qdisc add dev p0 clsact\n"
	       "tc filter add dev p0 ingress matchall action mirred egress redirect dev p0\n");
	devs[0] = dev("p0");
	fd = test_socket("veth0", TEST_ETH_P);
	send_frames(fd, 0, NR_FRAMES, false);
	expect_frames(fd, devs, 1, 0, NR_FRAMES);
	/* a while longer: nothing more may come round */
	for (int i = 0; i < 2000; i++)
		nb_worker_poll(devs, 1);
	usleep(20000);
	for (int i = 0; i < 2000; i++)
		nb_worker_poll(devs, 1);
	nb_dev_stats_read(devs[0], &s);
	NB_ASSERT_EQ(s.rx_packets, NR_FRAMES);
	NB_ASSERT_EQ(s.tx_packets, NR_FRAMES);
	NB_ASSERT_EQ(recv(fd, (u8[64]){ 0 }, 64, 0), -1);
	close(fd);
	finish();
}

/* Receive on a port until want frames or 3 s; returns the frames, marks seen[frame number]. */
static u32 port_receive(struct nb_port *port, u32 want, bool flows, bool *seen)
{
	u64 deadline = now_ms() + 3000;
	struct nb_pkt *pkts[NB_BURST];
	u32 got = 0;

	while (got < want && now_ms() < deadline) {
		unsigned int n = nb_port_rx_burst(port, pkts, NB_BURST);

		for (unsigned int k = 0; k < n; k++) {
			u8 exp[2048];
			u32 i = pkts[k]->data[pkts[k]->len - 1];

			NB_ASSERT(i < want && !seen[i]);
			NB_ASSERT_EQ(pkts[k]->len, make_frame(exp, i, flows));
			NB_ASSERT_MEM_EQ(pkts[k]->data, exp, pkts[k]->len);
			seen[i] = true;
			nb_pkt_free(pkts[k]);
			got++;
		}
	}
	return got;
}

static struct nb_port *open_port(const char *kind, const char *words)
{
	struct nb_log log = { 0 };
	struct nb_port *port;
	int err = nb_port_open_str(kind, words, &port, &log);

	if (err)
		NB_FAIL("%s %s: %s", kind, words, nb_log_text(&log));
	nb_log_free(&log);
	return port;
}

/*
 * A UDP datagram of the namespace's own stack leaves veth0 with its checksum left to the device
 * (CHECKSUM_PARTIAL: veth offers checksum offload); the port receives it with its
 * virtio_net_hdr and keeps it partial, as the kernel's skb is, with csum_start at the UDP header
 * and csum_offset at its checksum field; completed in software (skb_checksum_help), the frame
 * carries a valid checksum.
 */
NB_TEST(ports_afpacket_keeps_partial_checksums)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons(9) };
	struct ifreq ifr = { 0 };
	struct nb_pkt *pkts[NB_BURST];
	struct nb_port *port;
	u8 payload[101];
	u64 deadline;
	int fd, one = 1;
	bool found = false;

	enter_netns();
	veth_pair("veth0", "veth1");
	port = open_port("afpacket", "dev veth1");
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	NB_ASSERT(fd >= 0);
	strcpy(ifr.ifr_name, "veth0");
	addr.sin_addr.s_addr = htonl(0x0a000001);
	memcpy(&ifr.ifr_addr, &addr, sizeof(addr));
	NB_ASSERT_EQ(ioctl(fd, SIOCSIFADDR, &ifr), 0);
	NB_ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one)), 0);
	NB_ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, "veth0", 6), 0);
	for (u32 i = 0; i < sizeof(payload); i++)
		payload[i] = (u8)(i * 7 + 1);
	addr.sin_addr.s_addr = htonl(0x0affffff);	/* 10.255.255.255, no ARP */
	NB_ASSERT_EQ(sendto(fd, payload, sizeof(payload), 0, (struct sockaddr *)&addr,
			    sizeof(addr)), sizeof(payload));
	deadline = now_ms() + 3000;
	while (!found && now_ms() < deadline) {
		unsigned int n = nb_port_rx_burst(port, pkts, NB_BURST);

		for (unsigned int k = 0; k < n; k++) {
			const u8 *d = pkts[k]->data;
			u32 sum;

			if (!found && pkts[k]->len == 14 + 20 + 8 + sizeof(payload) &&
			    d[12] == 0x08 && d[13] == 0 && d[23] == IPPROTO_UDP) {
				u16 udp_len = htons(8 + sizeof(payload));
				u16 udp_proto = htons(IPPROTO_UDP);

				NB_ASSERT_MEM_EQ(d + 42, payload, sizeof(payload));
				NB_ASSERT_EQ(pkts[k]->ip_summed, NB_CHECKSUM_PARTIAL);
				NB_ASSERT_EQ(nb_pkt_checksum_start_offset(pkts[k]), 34);
				NB_ASSERT_EQ(pkts[k]->csum_offset, 6);
				NB_ASSERT_EQ(nb_pkt_checksum_help(pkts[k]), 0);
				NB_ASSERT_EQ(pkts[k]->ip_summed, NB_CHECKSUM_NONE);
				NB_ASSERT(d[40] || d[41]);	/* a checksum is there */
				/* pseudo header + UDP header and data: all ones when valid */
				sum = nb_csum_partial(d + 26, 8, 0);
				sum = nb_csum_partial(&udp_proto, 2, sum);
				sum = nb_csum_partial(&udp_len, 2, sum);
				sum = nb_csum_partial(d + 34, 8 + sizeof(payload), sum);
				NB_ASSERT_EQ(nb_csum_fold(sum), 0);
				found = true;
			}
			nb_pkt_free(pkts[k]);
		}
	}
	NB_ASSERT(found);
	close(fd);
	nb_port_close(port);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* queues 2: one fanout group; 64 UDP flows spread over both sockets, each frame once. */
NB_TEST(ports_afpacket_queues_fanout)
{
	struct nb_port_queue_stats q0, q1;
	struct nb_port *port;
	bool seen[NR_FRAMES] = { 0 };
	int fd;

	enter_netns();
	veth_pair("veth0", "veth1");
	port = open_port("afpacket", "dev veth1 queues 2");
	fd = test_socket("veth0", ETH_P_IP);
	send_frames(fd, 0, NR_FRAMES, true);
	NB_ASSERT_EQ(port_receive(port, NR_FRAMES, true, seen), NR_FRAMES);
	NB_ASSERT_EQ(nb_port_queue_stats(port, 0, &q0), 0);
	NB_ASSERT_EQ(nb_port_queue_stats(port, 1, &q1), 0);
	NB_ASSERT_EQ(nb_port_queue_stats(port, 2, &q1), -ENOENT);
	NB_ASSERT_EQ(nb_port_queue_stats(port, 1, &q1), 0);
	nb_test_report("queue 0: %llu frames, queue 1: %llu frames",
		       (unsigned long long)q0.rx_packets, (unsigned long long)q1.rx_packets);
	NB_ASSERT(q0.rx_packets > 0 && q1.rx_packets > 0);
	NB_ASSERT_EQ(q0.rx_packets + q1.rx_packets, NR_FRAMES);
	close(fd);
	nb_port_close(port);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/*
 * With a 9000-byte MTU the kernel delivers frames longer than a packet buffer holds: they come
 * through recvmmsg beside the ring and arrive whole, their tail in fragments, between the
 * frames around them; none is cut or counted too_big. Two of them, of two lengths, in one
 * burst: each slot takes its own copy off the socket, in ring order.
 */
NB_TEST(ports_afpacket_big_frames_whole)
{
	static u8 big[5000], bigger[7000];
	struct nb_port_queue_stats q;
	struct nb_dev_stats_total s;
	struct nb_dev *devs[1];
	u64 deadline;
	int fd;

	enter_netns();
	veth_pair("veth0", "veth1");
	NB_ASSERT_EQ(nb_link_up("veth0", 9000), 0);
	NB_ASSERT_EQ(nb_link_up("veth1", 9000), 0);
	script("link add p0 type afpacket dev veth1\n");
	devs[0] = dev("p0");
	fd = test_socket("veth0", TEST_ETH_P);
	send_frames(fd, 0, 1, false);
	make_frame(big, 0, false);
	memset(big + 14, 0xab, sizeof(big) - 14);
	NB_ASSERT_EQ(send(fd, big, sizeof(big), 0), sizeof(big));
	make_frame(bigger, 0, false);
	memset(bigger + 14, 0xcd, sizeof(bigger) - 14);
	NB_ASSERT_EQ(send(fd, bigger, sizeof(bigger), 0), sizeof(bigger));
	send_frames(fd, 1, 1, false);
	deadline = now_ms() + 3000;
	do {
		nb_worker_poll(devs, 1);
		nb_dev_stats_read(devs[0], &s);
	} while (s.rx_packets + s.drops[NB_DROP_TOO_BIG] + s.drops[NB_DROP_RX_OVERFLOW] < 4 &&
		 now_ms() < deadline);
	NB_ASSERT_EQ(s.rx_packets, 4);
	NB_ASSERT_EQ(s.drops[NB_DROP_TOO_BIG], 0);
	NB_ASSERT_EQ(s.drops[NB_DROP_RX_OVERFLOW], 0);
	NB_ASSERT_EQ(nb_port_queue_stats(devs[0]->port, 0, &q), 0);
	NB_ASSERT_EQ(q.rx_too_big, 0);
	/* every byte of the four frames arrived */
	NB_ASSERT_EQ(s.rx_bytes, sizeof(big) + sizeof(bigger) + make_frame(big, 0, false) +
				 make_frame(big, 1, false));
	close(fd);
	finish();
}

/* The frames the kernel dropped on ifname's way in, before any socket (rx_dropped). */
static u64 link_rx_dropped(const char *ifname)
{
	struct ifaddrs *ifs;
	u64 dropped = 0;

	NB_ASSERT_EQ(getifaddrs(&ifs), 0);
	for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_PACKET && i->ifa_data &&
		    !strcmp(i->ifa_name, ifname))
			dropped = ((const struct rtnl_link_stats *)i->ifa_data)->rx_dropped;
	}
	freeifaddrs(ifs);
	return dropped;
}

/*
 * Frames the kernel could not put into a full ring are counted: frames of 1514 bytes into a
 * ring of 2048 slots while nobody reads, until 3000 reached veth1 (on a loaded machine the
 * kernel's backlog drops some on the way in, counted as veth1's rx_dropped, before the
 * ring), then every frame that reached veth1 is either received or counted as rx_overflow on
 * the device (tp_drops of PACKET_STATISTICS).
 */
NB_TEST(ports_afpacket_ring_overflow_counted)
{
	struct nb_port_queue_stats q;
	struct nb_dev_stats_total s;
	struct nb_dev *devs[1];
	u64 deadline, sent = 0, backlog, arrived;
	u8 frame[1514];
	int fd;

	enter_netns();
	veth_pair("veth0", "veth1");
	script("link add p0 type afpacket dev veth1\n");
	devs[0] = dev("p0");
	fd = test_socket("veth0", TEST_ETH_P);
	make_frame(frame, 0, false);
	backlog = link_rx_dropped("veth1");
	do {
		for (int i = 0; i < 1000; i++, sent++) {
			while (send(fd, frame, sizeof(frame), 0) < 0)
				NB_ASSERT(errno == EAGAIN || errno == ENOBUFS);
		}
		arrived = sent - (link_rx_dropped("veth1") - backlog);
	} while (arrived < 3000 && sent < 30000);
	NB_ASSERT(arrived >= 3000);
	deadline = now_ms() + 3000;
	do {
		nb_worker_poll(devs, 1);
		nb_dev_stats_read(devs[0], &s);
	} while (s.rx_packets + s.drops[NB_DROP_RX_OVERFLOW] < arrived && now_ms() < deadline);
	NB_ASSERT_EQ(nb_port_queue_stats(devs[0]->port, 0, &q), 0);
	nb_test_report("sent %llu, backlog drops %llu, received %llu, ring drops %llu",
		       (unsigned long long)sent, (unsigned long long)(sent - arrived),
		       (unsigned long long)s.rx_packets,
		       (unsigned long long)s.drops[NB_DROP_RX_OVERFLOW]);
	NB_ASSERT(s.drops[NB_DROP_RX_OVERFLOW] > 0);
	NB_ASSERT_EQ(s.rx_packets + s.drops[NB_DROP_RX_OVERFLOW], arrived);
	NB_ASSERT_EQ(q.rx_kernel_drops, s.drops[NB_DROP_RX_OVERFLOW]);
	close(fd);
	finish();
}

/*
 * tap: netbpf opens (creates) nbtap0 and reflects every frame back into it; the test writes
 * through a packet socket on nbtap0 (the kernel transmits them to the tap) and reads the
 * reflected frames the kernel receives on it.
 */
NB_TEST(ports_tap_reflect)
{
	struct nb_dev *devs[1];
	struct nb_dev_stats_total s;
	char port_desc[256];
	int fd;

	enter_netns();
	script("link add t0 type tap dev nbtap0\n"
	       "tc qdisc add dev t0 clsact\n"
	       "tc filter add dev t0 ingress matchall action mirred egress redirect dev t0\n");
	devs[0] = dev("t0");
	NB_ASSERT(if_nametoindex("nbtap0") > 0);
	nb_dev_port_describe(devs[0], port_desc, sizeof(port_desc));
	NB_ASSERT_STR_CONTAINS(port_desc, "tap dev nbtap0 queues 1");
	fd = test_socket("nbtap0", TEST_ETH_P);
	for (u32 round = 0; round < 3; round++) {
		send_frames(fd, round * NR_FRAMES, NR_FRAMES, false);
		expect_frames(fd, devs, 1, round * NR_FRAMES, NR_FRAMES);
	}
	nb_dev_stats_read(devs[0], &s);
	NB_ASSERT_EQ(s.tx_packets, 3 * NR_FRAMES);
	NB_ASSERT_EQ(s.rx_packets, 3 * NR_FRAMES);
	close(fd);
	finish();
	/* the tap was made by the port: it goes with it */
	NB_ASSERT_EQ(if_nametoindex("nbtap0"), 0);
}

/* tap queues 2: a multi-queue tap; the kernel spreads 64 flows over both descriptors. */
NB_TEST(ports_tap_queues)
{
	struct nb_port_queue_stats q0, q1;
	bool seen[NR_FRAMES] = { 0 };
	struct nb_port *port;
	int fd;

	enter_netns();
	port = open_port("tap", "dev nbtap0 queues 2");
	fd = test_socket("nbtap0", ETH_P_IP);
	send_frames(fd, 0, NR_FRAMES, true);
	NB_ASSERT_EQ(port_receive(port, NR_FRAMES, true, seen), NR_FRAMES);
	NB_ASSERT_EQ(nb_port_queue_stats(port, 0, &q0), 0);
	NB_ASSERT_EQ(nb_port_queue_stats(port, 1, &q1), 0);
	nb_test_report("queue 0: %llu frames, queue 1: %llu frames",
		       (unsigned long long)q0.rx_packets, (unsigned long long)q1.rx_packets);
	NB_ASSERT(q0.rx_packets > 0 && q1.rx_packets > 0);
	NB_ASSERT_EQ(q0.rx_packets + q1.rx_packets, NR_FRAMES);
	close(fd);
	nb_port_close(port);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* An existing persistent tap is attached to, and stays when the port closes. */
NB_TEST(ports_tap_attach_existing)
{
	struct ifreq ifr = { .ifr_flags = IFF_TAP | IFF_NO_PI };
	struct nb_port *port;
	int fd;

	enter_netns();
	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		nb_test_skip("no /dev/net/tun: %s", strerror(errno));
	strcpy(ifr.ifr_name, "nbtap1");
	NB_ASSERT_EQ(ioctl(fd, TUNSETIFF, &ifr), 0);
	NB_ASSERT_EQ(ioctl(fd, TUNSETPERSIST, 1), 0);
	close(fd);
	port = open_port("tap", "dev nbtap1");
	nb_port_close(port);
	NB_ASSERT(if_nametoindex("nbtap1") > 0);
}

static void expect_open_error(const char *kind, const char *words, int err, const char *msg)
{
	struct nb_log log = { 0 };
	struct nb_port *port = NULL;

	NB_ASSERT_EQ(nb_port_open_str(kind, words, &port, &log), err);
	NB_ASSERT(port == NULL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), msg);
	nb_log_free(&log);
}

/* Errors name the interface and the reason; without capabilities: EPERM and what is missing. */
NB_TEST(ports_open_errors)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	enter_netns();
	veth_pair("veth0", "veth1");
	expect_open_error("afpacket", "dev nosuch0", -ENODEV,
			  "afpacket: dev \"nosuch0\": no such interface");
	expect_open_error("afpacket", "queues 2", -EINVAL, "needs \"dev IFNAME\"");
	expect_open_error("afpacket", "dev veth1 queues 0", -EINVAL, "\"queues 0\" is wrong");
	expect_open_error("afpacket", "dev veth1 tx carrier-pigeon", -EINVAL,
			  "\"tx carrier-pigeon\" is wrong");
	expect_open_error("tap", "dev veth0", -EINVAL,
			  "tap: dev veth0: exists and is not a tap");
	expect_open_error("tap", "", -EINVAL, "needs \"dev IFNAME\"");
	/* this process (a test of its own) gives up every capability */
	NB_ASSERT_EQ(syscall(SYS_capset, &hdr, data), 0);
	expect_open_error("afpacket", "dev veth1", -EPERM, "needs CAP_NET_RAW (run as root)");
	expect_open_error("tap", "dev nbtap9", -EPERM, "needs CAP_NET_ADMIN (run as root)");
}
