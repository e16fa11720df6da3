// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf's bridge held to the kernel's: in a network namespace of the test's own, a kernel
 * bridge br0 with three veth ports p1..p3 (their peers q1..q3 are where frames go in and come
 * out, through the test's AF_PACKET sockets) and, in this process, a netbpf bridge br0 with
 * three sink ports p1..p3 of the same addresses, made with the link and bridge words. The
 * same frames go into both, port by port (learning, forwarding, flooding of unknown unicast,
 * broadcast and multicast, the bridge's and a port's own address, a frame back to its own
 * port, a source moving, link-local and pause frames, a multicast source); each port must send
 * the same frames in the same order, and `bridge fdb show` must print the same "master" lines
 * (iproute2's `bridge` against netbpf's). Skipped when not root or without a kernel bridge.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <arpa/inet.h>
#include <linux/if_packet.h>

#include "ctl/ctl.h"
#include "io/sink.h"
#include "net/core.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "netns.h"
#include "test.h"

#define NPORTS 3
#define MAX_OUT 64

static const u8 br_mac[6] = { 0x02, 0xb0, 0, 0, 0, 0x0c };
static const u8 port_mac[NPORTS][6] = {
	{ 0x02, 0xb0, 0, 0, 0, 0x01 }, { 0x02, 0xb0, 0, 0, 0, 0x02 }, { 0x02, 0xb0, 0, 0, 0, 0x03 },
};

struct step {
	int port;		/* 0..2: the port it arrives on */
	u8 dst[6], src[6];
};

#define A { 0x02, 0xaa, 0, 0, 0, 0x01 }
#define B { 0x02, 0xbb, 0, 0, 0, 0x02 }
#define C { 0x02, 0xcc, 0, 0, 0, 0x03 }
#define X { 0x02, 0xee, 0, 0, 0, 0x09 }
#define BCAST { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }

static const struct step steps[] = {
	{ 0, X, A },					/* unknown unicast: flood, learn a on p1 */
	{ 1, A, B },					/* known: to p1 only */
	{ 2, BCAST, C },				/* broadcast */
	{ 2, { 0x01, 0x00, 0x5e, 0, 0, 0x05 }, C },	/* multicast, no querier */
	{ 0, { 0x02, 0xb0, 0, 0, 0, 0x0c }, A },	/* the bridge's own address */
	{ 0, { 0x02, 0xb0, 0, 0, 0, 0x02 }, A },	/* p2's address */
	{ 0, A, X },					/* back to its own port */
	{ 2, B, A },					/* a moves to p3 */
	{ 1, A, B },					/* to p3 now */
	{ 1, { 0x01, 0x80, 0xc2, 0, 0, 0x0e }, X },	/* LLDP: up the port, x learned on p2 */
	{ 0, X, A },					/* to p2 */
	{ 1, { 0x01, 0x80, 0xc2, 0, 0, 0x01 }, B },	/* pause: dropped */
	{ 1, { 0x01, 0x80, 0xc2, 0, 0, 0x00 }, B },	/* STP group address: forwarded */
	{ 1, C, { 0x03, 0, 0, 0, 0, 0x07 } },		/* a multicast source: dropped */
	{ 0, C, A },					/* c is on p3 */
};

#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

/* Frame i: the step's addresses, the test ethertype, and i as its payload. */
static u32 make_frame(u8 *f, unsigned int i)
{
	memset(f, 0, 60);
	memcpy(f, steps[i].dst, 6);
	memcpy(f + 6, steps[i].src, 6);
	f[12] = 0x88;
	f[13] = 0xb5;
	f[14] = (u8)i;
	return 60;
}

/* What a port sent: the step numbers of its frames, in order. */
struct port_out {
	unsigned int n;
	u8 step[MAX_OUT];
};

static int sh(const char *cmd)
{
	int status = system(cmd);

	return status == -1 || !WIFEXITED(status) ? -1 : WEXITSTATUS(status);
}

static int packet_socket(const char *ifname)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
				   .sll_ifindex = (int)if_nametoindex(ifname) };
	int one = 1, fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
				 htons(ETH_P_ALL));

	NB_ASSERT(fd >= 0 && sll.sll_ifindex > 0);
	NB_ASSERT_EQ(bind(fd, (struct sockaddr *)&sll, sizeof(sll)), 0);
	setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	return fd;
}

static void drain(int fd, struct port_out *out)
{
	u8 buf[2048];
	ssize_t n;

	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		/* only the test's frames: nothing else should come, but the kernel may talk */
		if (n < 15 || buf[12] != 0x88 || buf[13] != 0xb5)
			continue;
		NB_ASSERT(out->n < MAX_OUT);
		out->step[out->n++] = buf[14];
	}
}

static void kernel_side(struct port_out *out, char *fdb, size_t size)
{
	char cmd[256];
	int fd[NPORTS];
	FILE *p;
	size_t len = 0;

	if (nb_netns_enter())
		nb_test_skip("needs root and a network namespace of its own");
	if (sh("ip link add br0 type bridge 2>/dev/null"))
		nb_test_skip("the kernel makes no bridge here (or iproute2's ip is missing)");
	if (sh("command -v bridge >/dev/null"))
		nb_test_skip("iproute2's bridge command is missing");
	snprintf(cmd, sizeof(cmd), "ip link set br0 address %02x:%02x:%02x:%02x:%02x:%02x up",
		 br_mac[0], br_mac[1], br_mac[2], br_mac[3], br_mac[4], br_mac[5]);
	NB_ASSERT_EQ(sh(cmd), 0);
	for (int i = 0; i < NPORTS; i++) {
		const u8 *m = port_mac[i];

		snprintf(cmd, sizeof(cmd), "ip link add p%d address %02x:%02x:%02x:%02x:%02x:%02x "
			 "type veth peer name q%d && ip link set p%d master br0 && ip link set p%d "
			 "up && ip link set q%d up", i + 1, m[0], m[1], m[2], m[3], m[4], m[5], i + 1,
			 i + 1, i + 1, i + 1);
		NB_ASSERT_EQ(sh(cmd), 0);
	}
	for (int i = 0; i < NPORTS; i++) {
		snprintf(cmd, sizeof(cmd), "q%d", i + 1);
		fd[i] = packet_socket(cmd);
	}
	for (unsigned int s = 0; s < NSTEPS; s++) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };
		u8 f[60];
		u32 n = make_frame(f, s);

		NB_ASSERT_EQ(send(fd[steps[s].port], f, n, 0), (ssize_t)n);
		/* one frame at a time: learning must see them in order */
		nanosleep(&ts, NULL);
		for (int i = 0; i < NPORTS; i++)
			drain(fd[i], &out[i]);
	}
	for (int i = 0; i < NPORTS; i++)
		close(fd[i]);
	p = popen("bridge fdb show", "r");
	NB_ASSERT(p);
	while (fgets(fdb + len, (int)(size - len), p)) {
		/* the bridge's entries: the kernel's "self" lines are the devices' address lists */
		if (strstr(fdb + len, " master br0"))
			len += strlen(fdb + len);
		else
			fdb[len] = 0;
		NB_ASSERT(len + 1 < size);
	}
	pclose(p);
}

static void ctl(struct nb_ctl *c, const char *line, char **text, size_t *len)
{
	char *argv[16], buf[256];
	int argc = 0;
	FILE *f = open_memstream(text, len);

	NB_ASSERT(f);
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok(buf, " "); w && argc < 16; w = strtok(NULL, " "))
		argv[argc++] = w;
	c->out = f;
	if (nb_ctl_exec(c, argc, argv))
		NB_FAIL("%s: %s", line, nb_log_text(&c->log));
	fclose(f);
}

static void netbpf_side(struct port_out *out, char **fdb)
{
	struct nb_ctl c = { 0 };
	struct nb_dev *port[NPORTS];
	char line[160], *text = NULL;
	size_t len;

	snprintf(line, sizeof(line), "link add br0 address %02x:%02x:%02x:%02x:%02x:%02x type "
		 "bridge", br_mac[0], br_mac[1], br_mac[2], br_mac[3], br_mac[4], br_mac[5]);
	ctl(&c, line, &text, &len);
	for (int i = 0; i < NPORTS; i++) {
		const u8 *m = port_mac[i];

		free(text);
		snprintf(line, sizeof(line), "link add p%d address %02x:%02x:%02x:%02x:%02x:%02x "
			 "type sink keep %d", i + 1, m[0], m[1], m[2], m[3], m[4], m[5], MAX_OUT);
		ctl(&c, line, &text, &len);
		free(text);
		snprintf(line, sizeof(line), "link set dev p%d master br0", i + 1);
		ctl(&c, line, &text, &len);
		snprintf(line, sizeof(line), "p%d", i + 1);
		port[i] = nb_dev_get_by_name(line);
		NB_ASSERT(port[i]);
	}
	free(text);
	for (unsigned int s = 0; s < NSTEPS; s++) {
		struct nb_dev *dev = port[steps[s].port];
		u8 f[60];
		u32 n = make_frame(f, s);
		struct nb_pkt *pkt = nb_pkt_alloc_data(f, n);

		NB_ASSERT(pkt);
		pkt->dev = dev;
		pkt->skb_iif = dev->ifindex;
		nb_eth_type_trans(pkt, dev);
		nb_dev_count_rx(dev, pkt->len);
		nb_netif_receive(pkt);
		nb_net_flush();
	}
	for (int i = 0; i < NPORTS; i++) {
		struct nb_pkt *kept = nb_sink_take(port[i]->port), *next;

		for (; kept; kept = next) {
			next = kept->next;
			NB_ASSERT(out[i].n < MAX_OUT);
			out[i].step[out[i].n++] = kept->data[14];
			nb_pkt_free(kept);
		}
		nb_dev_put(port[i]);
	}
	ctl(&c, "bridge fdb show", fdb, &len);
	nb_log_free(&c.log);
}

static void print_out(const char *who, const struct port_out *out)
{
	for (int i = 0; i < NPORTS; i++) {
		char line[3 * MAX_OUT + 1] = "";

		for (unsigned int k = 0; k < out[i].n; k++)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), " %u",
				 out[i].step[k]);
		nb_test_report("%s p%d sent frames:%s", who, i + 1, line);
	}
}

NB_TEST(bridge_kernel_same_frames_out_same_fdb)
{
	struct port_out kout[NPORTS] = { 0 }, nout[NPORTS] = { 0 };
	static char kfdb[8192];
	char *nfdb = NULL;

	kernel_side(kout, kfdb, sizeof(kfdb));
	netbpf_side(nout, &nfdb);
	print_out("kernel", kout);
	print_out("netbpf", nout);
	for (int i = 0; i < NPORTS; i++) {
		NB_ASSERT_EQ(nout[i].n, kout[i].n);
		NB_ASSERT_MEM_EQ(nout[i].step, kout[i].step, kout[i].n);
	}
	if (strcmp(kfdb, nfdb))
		NB_FAIL("bridge fdb show differs:\nkernel:\n%snetbpf:\n%s", kfdb, nfdb);
	nb_test_report("%zu frames, the same out of each port; bridge fdb show:", NSTEPS);
	for (char *line = strtok(nfdb, "\n"); line; line = strtok(NULL, "\n"))
		nb_test_report("  %s", line);
	free(nfdb);
	nb_dev_destroy_all();
}
