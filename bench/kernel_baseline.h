/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel as a baseline for the datapath benchmarks: the same BPF instructions that
 * a netbpf bench loads, loaded into the kernel and driven through veth devices in a network
 * namespace of their own, measured in the same `make bench` run.
 *
 * A measurement runs in a forked child (nb_kb_run) that enters a fresh network namespace and
 * pins itself to one CPU, so that the softirq work it causes (veth NAPI, the backlog) runs on
 * that CPU, in its own context, and is charged to its CPU time as netbpf's work is to the
 * bench thread's. The child writes its numbers into shared memory; nothing it creates
 * outlives it. Devices come from rtnetlink (tests/runner/netns.h, IPv6 off, so that no
 * neighbour discovery reaches the counters), programs and maps from libbpf.
 */
#ifndef NB_BENCH_KERNEL_BASELINE_H
#define NB_BENCH_KERNEL_BASELINE_H

#include <linux/bpf.h>

#include "bench.h"

/* Longest program the builders below write. */
#define NB_KB_MAX_INSNS 16

struct nb_kb_result {
	u64 frames;		/* frames the measured driver handed to the datapath */
	u64 arrived;		/* frames counted at the far end, if there is one */
	bool counted;		/* there is: arrived is meaningful */
	struct nb_bench_clock clk;	/* the best round (least CPU) */
	char skip[256];		/* not empty: no measurement, and why */
};

/* Records why a baseline did not run (the first reason wins). Returns -1 for convenience. */
int nb_kb_skip(struct nb_kb_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Runs fn in a forked child, in a network namespace of its own, pinned to one CPU; fn fills
 * res[0..n-1] (shared with this process: several measurements of one set-up, e.g. taken in
 * alternating rounds so that the machine's noise hits them alike) and returns 0, or sets a
 * skip reason. Returns 0 when the child measured everything; otherwise -1, with every result
 * that has no reason of its own given the first one's (not root, no namespace, a crash).
 */
int nb_kb_run(int (*fn)(void *arg, struct nb_kb_result *res), void *arg,
	      struct nb_kb_result *res, unsigned int n);

/* A veth pair a <-> b, both up; *ifa and *ifb (may be NULL) get their ifindexes. */
int nb_kb_veth_pair(struct nb_kb_result *res, const char *a, const char *b, unsigned int *ifa,
		    unsigned int *ifb);

/* Loads insns into the kernel; the fd, or -1 with the verifier's complaint in res->skip. */
int nb_kb_prog_load(struct nb_kb_result *res, enum bpf_prog_type type,
		    const struct bpf_insn *insns, unsigned int cnt);

/*
 * The far end's counter: a per-CPU array of one u64 and the XDP program that counts every
 * frame in it and drops the frame (nb_kb_prog_count_drop), attached to ifindex in driver mode.
 * Returns the map fd (the program stays attached until the namespace goes), or -1.
 */
int nb_kb_xdp_counter(struct nb_kb_result *res, unsigned int ifindex);
/* The counter's sum over every CPU. */
u64 nb_kb_counter_read(int map_fd);

/*
 * Injection without a NIC: an AF_PACKET socket bound to a device with PACKET_QDISC_BYPASS
 * (dev_direct_xmit, as pktgen's xmit mode does), sending the same frame over and over, either
 * from a TPACKET_V2 transmit ring (every slot filled once, the whole ring handed over by one
 * send()) or by sendmmsg() in batches of NB_KB_MMSG_BATCH. Each nb_kb_inject sends
 * NB_KB_INJECT_FRAMES frames and returns when all have left; with veth, the receive side's
 * softirq runs in the sender's context at each transmit's local_bh_enable, so the cost of the
 * datapath behind the device is part of the sender's CPU time.
 */
enum nb_kb_inject_mode {
	NB_KB_INJECT_TX_RING,
	NB_KB_INJECT_SENDMMSG,
};

#define NB_KB_INJECT_FRAMES 4096
#define NB_KB_MMSG_BATCH 64
#define NB_KB_FRAME_MAX 128

struct nb_kb_injector {
	enum nb_kb_inject_mode mode;
	int fd;
	void *ring;
	size_t ring_len;
	unsigned int frame_size;	/* of a ring slot */
	unsigned int len;
	u8 frame[NB_KB_FRAME_MAX];	/* what sendmmsg sends */
};

int nb_kb_injector_open(struct nb_kb_result *res, struct nb_kb_injector *inj,
			enum nb_kb_inject_mode mode, unsigned int ifindex, const void *frame,
			unsigned int len);
/* NB_KB_INJECT_FRAMES frames; returns that count, or -1 with res->skip set. */
int nb_kb_inject(struct nb_kb_result *res, struct nb_kb_injector *inj);
void nb_kb_injector_close(struct nb_kb_injector *inj);

/*
 * The programs, identical on both sides: a map reference is a BPF_PSEUDO_MAP_FD ldimm64
 * whose imm is a kernel map fd or a netbpf map id. Each returns the instruction count.
 */
/* return bpf_redirect(ifindex, 0) */
unsigned int nb_kb_prog_redirect(struct bpf_insn *insns, u32 ifindex);
/* return bpf_redirect_map(map, 0, 0) */
unsigned int nb_kb_prog_redirect_map(struct bpf_insn *insns, int map_ref);
/* value = map_lookup_elem(map, &0); if (value) (*value)++; return verdict */
unsigned int nb_kb_prog_count(struct bpf_insn *insns, int map_ref, int verdict);
/* return verdict */
unsigned int nb_kb_prog_verdict(struct bpf_insn *insns, int verdict);

/* One result line as nb_bench_report prints it, or "kernel baseline: SKIPPED: reason". */
void nb_kb_report(const char *variant, const struct nb_kb_result *res);
/* The rate nb_kb_report shows (Mpps from CPU time), 0 when skipped. */
double nb_kb_mpps(const struct nb_kb_result *res);

/* The side-by-side table: a header, then one row per pair of rates (0: not measured). */
void nb_kb_table_header(void);
void nb_kb_table_row(const char *what, double netbpf_mpps, double kernel_mpps);

#endif /* NB_BENCH_KERNEL_BASELINE_H */
