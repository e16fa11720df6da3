// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP port over a veth pair (root only): a sender thread puts 64-byte frames into veth0
 * with an AF_PACKET socket (sendmmsg, qdisc bypass, as fast as it can); netbpf's afxdp port on
 * veth1 receives them, an XDP program returns XDP_TX, and the port transmits them back out of
 * veth1 (or XDP_DROP: the receive side alone). The worker's rate is frames forwarded per
 * second of its CPU time (receive, XDP, copy, transmit and the sendto kicks, which run the
 * kernel's copy-mode transmit; empty rounds yield, as in netbpf run, but still cost a little);
 * the wall rate is shown beside it, with what the kernel dropped because netbpf was not
 * scheduled in time. The "drained ring" variants show the port's own cost per frame: the rx
 * ring is filled first, then drained on the clock (XDP_TX still pays the kernel's copy-mode
 * transmit: an skb per frame through veth). Everything
 * happens in a child process in a network namespace of its own. A 2-core machine shares the
 * cores between the sender and the worker, so the wall rate is the sender's as much as ours.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/if_packet.h>

#include <netbpf/dev.h>
#include <netbpf/epoch.h>
#include <netbpf/prog.h>
#include <netbpf/worker.h>
#include <netbpf/xdp.h>

#include "bench.h"

#define BATCH 32

static volatile bool stop_sender;

static void *sender(void *arg)
{
	int fd = *(int *)arg;
	static u8 frame[64] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5 };
	struct iovec iov = { .iov_base = frame, .iov_len = sizeof(frame) };
	struct mmsghdr msgs[BATCH];
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);
	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (!__atomic_load_n(&stop_sender, __ATOMIC_ACQUIRE))
		if (sendmmsg(fd, msgs, BATCH, 0) < 0 && errno != ENOBUFS && errno != EAGAIN)
			break;
	return NULL;
}

static int sender_socket(const char *ifname)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = (int)if_nametoindex(ifname),
	};
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0), one = 1;

	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		return -1;
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	return fd;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The port's own cost: the rx ring is filled first (the kernel's receive runs in this thread's
 * sendmmsg, off the clock), then the worker drains it on the clock; rounds for seconds.
 */
static void drain_rounds(struct nb_dev *dev, int fd, u32 verdict, const char *label,
			 double seconds)
{
	static u8 frame[64] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5 };
	struct iovec iov = { .iov_base = frame, .iov_len = sizeof(frame) };
	struct nb_bench_clock clk = { 0, 0 };
	struct nb_dev_stats_total t;
	struct mmsghdr msgs[BATCH];
	double end = now() + seconds;
	u64 done;

	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	nb_epoch_online();
	while (now() < end) {
		double w0, c0;
		int empty = 0;

		for (int i = 0; i < 2016 / BATCH; i++)	/* fewer than the ring's 2048 */
			sendmmsg(fd, msgs, BATCH, 0);
		w0 = now();
		c0 = thread_cpu();
		while (empty < 4)
			empty = nb_worker_poll(&dev, 1) ? 0 : empty + 1;
		clk.cpu += thread_cpu() - c0;
		clk.wall += now() - w0;
		nb_epoch_quiescent();
	}
	nb_epoch_offline();
	nb_dev_stats_read(dev, &t);
	done = verdict == XDP_TX ? t.tx_packets : t.rx_packets;
	nb_bench_report(label, done, &clk, "pps");
	if (t.drops[NB_DROP_RX_OVERFLOW] + t.drops[NB_DROP_PORT_RX_NO_BUFFER])
		printf("  %-44s kernel drops: %llu\n", "",
		       (unsigned long long)(t.drops[NB_DROP_RX_OVERFLOW] +
					    t.drops[NB_DROP_PORT_RX_NO_BUFFER]));
}

/*
 * One variant on a veth pair of its own (the kernel releases a socket's queue after a
 * workqueue round, so the next variant does not wait for it): afxdp mode on the second end,
 * the sender on the first, for seconds; prints its lines.
 */
static void run_variant(unsigned int pair, const char *mode, u32 verdict, bool drain,
			const char *label, double seconds)
{
	const struct bpf_insn tx_prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = (s32)verdict },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL" };
	struct nb_log log = { 0 };
	struct nb_dev_stats_total t;
	struct nb_bench_clock clk;
	struct nb_prog *prog;
	struct nb_dev *dev;
	pthread_t thread;
	char cmd[256], words[64], in[16];
	double end;
	int fd;

	snprintf(in, sizeof(in), "veth%u", 2 * pair);
	snprintf(words, sizeof(words), "dev veth%u mode %s", 2 * pair + 1, mode);
	snprintf(cmd, sizeof(cmd), "ip link add %s type veth peer name veth%u && ip link set %s up "
		 "&& ip link set veth%u up", in, 2 * pair + 1, in, 2 * pair + 1);
	if (system(cmd) != 0) {
		printf("  skipped: cannot make a veth pair\n");
		return;
	}
	if (nb_dev_create("x0", 0, &dev, NULL))
		return;
	if (nb_dev_attach_port(dev, "afxdp", words, &log)) {
		printf("  %-44s skipped: %s", label, nb_log_text(&log));
		nb_log_free(&log);
		nb_dev_destroy(dev);
		return;
	}
	nb_dev_set_up(dev, true);
	if (nb_prog_load(BPF_PROG_TYPE_XDP, tx_prog, 2, &opts, &prog) ||
	    nb_dev_xdp_attach(dev, prog, 0, NULL))
		return;
	nb_prog_put(prog);
	fd = sender_socket(in);
	if (fd < 0)
		return;
	if (drain) {
		drain_rounds(dev, fd, verdict, label, seconds);
		close(fd);
		nb_dev_destroy(dev);
		return;
	}
	stop_sender = false;
	pthread_create(&thread, NULL, sender, &fd);
	nb_epoch_online();
	nb_bench_start(&clk);
	end = now() + seconds;
	do {
		/* as netbpf run's workers: an empty round yields, so CPU time is mostly work */
		for (int i = 0; i < 64; i++)
			if (!nb_worker_poll(&dev, 1))
				sched_yield();
		nb_epoch_quiescent();
	} while (now() < end);
	nb_bench_stop(&clk);
	nb_epoch_offline();
	__atomic_store_n(&stop_sender, true, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	close(fd);
	nb_dev_stats_read(dev, &t);
	nb_bench_report(label, verdict == XDP_TX ? t.tx_packets : t.rx_packets, &clk, "pps");
	printf("  %-44s %.2f Mpps wall, kernel drops: %llu rx_overflow, %llu rx_no_buffer\n", "",
	       (verdict == XDP_TX ? t.tx_packets : t.rx_packets) / clk.wall / 1e6,
	       (unsigned long long)t.drops[NB_DROP_RX_OVERFLOW],
	       (unsigned long long)t.drops[NB_DROP_PORT_RX_NO_BUFFER]);
	nb_dev_destroy(dev);
	nb_log_free(&log);
}

static void child(void)
{
	double seconds = 2.0 * nb_bench_scale();
	cpu_set_t cpus;

	if (unshare(CLONE_NEWNET)) {
		printf("  skipped: no network namespace (%s)\n", strerror(errno));
		return;
	}
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	run_variant(0, "skb copy", XDP_DROP, false, "afxdp skb, 64 B, rx -> XDP_DROP", seconds);
	run_variant(1, "skb copy", XDP_TX, false, "afxdp skb, 64 B, rx -> XDP_TX -> tx", seconds);
	run_variant(2, "drv copy", XDP_TX, false, "afxdp drv, 64 B, rx -> XDP_TX -> tx", seconds);
	/* the port's own cost per frame: a full ring drained, the kernel's receive off the clock */
	run_variant(3, "skb copy", XDP_DROP, true, "drained ring, skb: rx -> XDP_DROP", seconds);
	run_variant(4, "skb copy", XDP_TX, true, "drained ring, skb: rx -> XDP_TX -> tx", seconds);
	nb_dev_destroy_all();
}

NB_BENCH(afxdp_veth, "AF_XDP port on a veth pair: a kernel sender into veth0, netbpf XDP_TX "
	 "back out of veth1")
{
	pid_t pid;

	if (geteuid() != 0) {
		printf("  skipped: needs root (network namespace, veth, AF_XDP)\n");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		child();
		fflush(stdout);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}
