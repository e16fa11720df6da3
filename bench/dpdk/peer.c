// SPDX-License-Identifier: GPL-2.0
/*
 * dpdk-peer [--warmup S] [--window S] OBJECT SECTION|-
 *
 * The peer netbpf bench sets beside netbpf's XDP rows: what DPDK's testpmd does in io
 * forwarding with a program installed by `bpf-load rx ... J`, on one lcore, written out so
 * that Debian's dpdk package (which has no testpmd) can run it. Two net_null ports, the first
 * with copy=1 (each received frame a copy of its 64-byte template, as netbpf's generator in
 * mode copy); a loop of rte_eth_rx_burst on the first, the program (librte_bpf, JIT-compiled:
 * rte_bpf_get_jit) on each mbuf's frame, and rte_eth_tx_burst to the second of the frames the
 * program returned nonzero for, the rest freed (a filter's drop). SECTION "-": no program, io
 * forwarding alone.
 *
 * The EAL runs without hugepages, PCI or shared files (--no-huge --no-shconf --no-pci), so it
 * needs no set-up and shares nothing (an empty /var/run/dpdk/rte is all it leaves). After the
 * warm-up it prints one line,
 *
 *   result cpu_mpps C wall_mpps W frames N
 *
 * C frames received per second of the forwarding thread's CPU time (as netbpf bench rates its
 * workers), W per wall-clock second. On failure, a line naming what failed on stderr and exit
 * status 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_bpf.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#define PEER_BURST 32	/* testpmd's default burst */
#define PEER_RING 1024
#define PEER_MBUFS 8191
#define PEER_FRAME 64
/* bursts between two looks at the clock */
#define PEER_CLOCK_EVERY 4096

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int port_start(uint16_t port, struct rte_mempool *pool)
{
	struct rte_eth_conf conf = { 0 };
	int err;

	err = rte_eth_dev_configure(port, 1, 1, &conf);
	if (!err)
		err = rte_eth_rx_queue_setup(port, 0, PEER_RING, rte_eth_dev_socket_id(port), NULL,
					     pool);
	if (!err)
		err = rte_eth_tx_queue_setup(port, 0, PEER_RING, rte_eth_dev_socket_id(port), NULL);
	if (!err)
		err = rte_eth_dev_start(port);
	if (err)
		fprintf(stderr, "dpdk-peer: port %u does not start: %s\n", port, strerror(-err));
	return err;
}

/* A JIT-compiled program from OBJECT's SECTION; NULL with the reason said. */
static struct rte_bpf *prog_load(const char *object, const char *section, struct rte_bpf_jit *jit)
{
	struct rte_bpf_prm prm = {
		.prog_arg = { .type = RTE_BPF_ARG_PTR, .size = PEER_FRAME },
	};
	struct rte_bpf *bpf = rte_bpf_elf_load(&prm, object, section);

	if (!bpf) {
		fprintf(stderr, "dpdk-peer: librte_bpf does not load %s section %s: %s\n", object,
			section, rte_strerror(rte_errno));
		return NULL;
	}
	if (rte_bpf_get_jit(bpf, jit) || !jit->func) {
		fprintf(stderr, "dpdk-peer: librte_bpf has no JIT image of %s section %s\n",
			object, section);
		rte_bpf_destroy(bpf);
		return NULL;
	}
	return bpf;
}

/* One burst received, filtered by the program, sent on: the frames received. */
static inline unsigned int forward_burst(uint64_t (*prog)(void *))
{
	struct rte_mbuf *pkts[PEER_BURST], *drop[PEER_BURST];
	unsigned int n, keep = 0, lost = 0, sent;

	n = rte_eth_rx_burst(0, 0, pkts, PEER_BURST);
	for (unsigned int i = 0; i < n; i++) {
		if (!prog || prog(rte_pktmbuf_mtod(pkts[i], void *)))
			pkts[keep++] = pkts[i];
		else
			drop[lost++] = pkts[i];
	}
	sent = rte_eth_tx_burst(1, 0, pkts, keep);
	if (sent < keep)
		rte_pktmbuf_free_bulk(pkts + sent, keep - sent);
	if (lost)
		rte_pktmbuf_free_bulk(drop, lost);
	return n;
}

/* Forward for seconds of wall time: frames received and the thread's CPU seconds. */
static void forward_for(double seconds, uint64_t (*prog)(void *), uint64_t *frames,
			double *cpu, double *wall)
{
	double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_THREAD_CPUTIME_ID), w = w0;
	uint64_t n = 0;

	while (w - w0 < seconds) {
		for (unsigned int i = 0; i < PEER_CLOCK_EVERY; i++)
			n += forward_burst(prog);
		w = clock_s(CLOCK_MONOTONIC);
	}
	*frames = n;
	*cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
	*wall = w - w0;
}

static int usage(void)
{
	fprintf(stderr, "Usage: dpdk-peer [--warmup S] [--window S] OBJECT SECTION|-\n");
	return 1;
}

int main(int argc, char **argv)
{
	char *eal_argv[] = { argv[0], "--no-huge", "--no-shconf", "--no-pci", "--no-telemetry",
			     "-m", "128", "-l", "0", "--log-level", "error",
			     "--vdev", "net_null0,copy=1,size=64", "--vdev", "net_null1,size=64" };
	int eal_argc = sizeof(eal_argv) / sizeof(eal_argv[0]);
	double warmup = 0.3, window = 1.0, cpu, wall;
	const char *object, *section;
	uint64_t (*prog)(void *) = NULL;
	struct rte_bpf *bpf = NULL;
	struct rte_mempool *pool;
	struct rte_bpf_jit jit;
	uint64_t frames;
	int i, err = 1;

	for (i = 1; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		double *v = !strcmp(argv[i], "--warmup") ? &warmup :
			    !strcmp(argv[i], "--window") ? &window : NULL;
		char *end;

		if (!v)
			return usage();
		*v = strtod(argv[i + 1], &end);
		if (*end || !(*v >= 0 && *v <= 60)) {
			fprintf(stderr, "dpdk-peer: %s takes seconds (up to 60), not \"%s\"\n",
				argv[i], argv[i + 1]);
			return 1;
		}
	}
	if (argc - i != 2)
		return usage();
	object = argv[i];
	section = argv[i + 1];

	/* the EAL's log to stderr only: by default it also writes to syslog */
	rte_openlog_stream(stderr);
	if (rte_eal_init(eal_argc, eal_argv) < 0) {
		fprintf(stderr, "dpdk-peer: the EAL does not start (%s): %s\n",
			"--no-huge --no-shconf --no-pci", rte_strerror(rte_errno));
		return 1;
	}
	if (rte_eth_dev_count_avail() < 2) {
		fprintf(stderr, "dpdk-peer: no net_null ports (the net_null PMD is not installed)\n");
		goto out;
	}
	pool = rte_pktmbuf_pool_create("peer", PEER_MBUFS, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       rte_socket_id());
	if (!pool) {
		fprintf(stderr, "dpdk-peer: no mbuf pool: %s\n", rte_strerror(rte_errno));
		goto out;
	}
	if (port_start(0, pool) || port_start(1, pool))
		goto out;
	if (strcmp(section, "-")) {
		bpf = prog_load(object, section, &jit);
		if (!bpf)
			goto out;
		prog = jit.func;
	}
	forward_for(warmup, prog, &frames, &cpu, &wall);
	forward_for(window, prog, &frames, &cpu, &wall);
	if (!frames || cpu <= 0) {
		fprintf(stderr, "dpdk-peer: no frame forwarded in %.2f s\n", wall);
		goto out;
	}
	printf("result cpu_mpps %.3f wall_mpps %.3f frames %llu\n", frames / cpu / 1e6,
	       frames / wall / 1e6, (unsigned long long)frames);
	err = 0;
out:
	rte_bpf_destroy(bpf);
	for (uint16_t p = 0; p < 2 && p < rte_eth_dev_count_avail(); p++) {
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
	rte_eal_cleanup();
	return err;
}
