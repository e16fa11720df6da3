/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netbpf diff: one program of an object file loaded twice, into the running kernel (libbpf,
 * BPF_PROG_TEST_RUN) and into netbpf (nb_prog_test_run), run on the same packets; the return
 * codes, return values, output bytes, ctx_out and, after the run, the contents of every map are
 * compared. The library behind the command (src/cli/diff.c) and the kernel corpus test.
 */
#ifndef NB_KCOMPARE_DIFF_H
#define NB_KCOMPARE_DIFF_H

#include <stdbool.h>
#include <stdio.h>

#include <linux/bpf.h>
#include <netbpf/log.h>
#include <netbpf/object.h>

#include "ctl/map_file.h"

struct nb_diff_opts {
	const char *obj_path;
	/*
	 * The program: the one of section (any section but iproute2's "ID/KEY" tail-call ones
	 * when NULL) named prog_name; prog_name may be NULL when there is only one.
	 */
	const char *section;
	const char *prog_name;
	enum bpf_prog_type type;	/* 0: from the section name */
	bool interp;			/* netbpf side: the interpreter, never the JIT */
	bool unsafe_no_verify;		/* netbpf side: loaded without the verifier's proof */
	const void *ctx_in;		/* struct __sk_buff or xdp_md given to every run; may be NULL */
	unsigned int ctx_size_in;
	const struct nb_map_file *maps;	/* preloaded into both sides before the first packet */
	unsigned int map_cnt;
	/* Maps the object leaves unsized, sized on both sides (--max-entries NAME=N). */
	const struct nb_object_map_size *map_sizes;
	unsigned int map_size_cnt;
	/*
	 * A kernel that cannot be reached is no error: nb_diff_open returns 0 with the reason in
	 * its log, and only netbpf's side runs (nb_diff_has_kernel). For timing (netbpf bench jit).
	 */
	bool kernel_optional;
	FILE *out;			/* where differences are described; NULL: nowhere */
	unsigned int max_reports;	/* differences described in detail (0: 10) */
};

struct nb_diff_result {
	unsigned long packets;
	unsigned long identical;
	unsigned long different;	/* packets with at least one differing field */
	unsigned long map_diffs;	/* map elements that differ after the run */
	unsigned long maps_compared;
	unsigned long reports;		/* differences described so far */
	bool kernel_via_netbpf;		/* libbpf could not open the object: see diff.c */
	bool kernel_in_own_netns;	/* the kernel's test runs saw no host device */
};

/* Returned when the kernel cannot be reached (no BPF, not root, a type it lacks): see log. */
#define NB_DIFF_NO_KERNEL 1

struct nb_diff;

/*
 * Load both sides and preload the maps. 0, NB_DIFF_NO_KERNEL, or a negative errno (a bad
 * object, section or map file); the reason is in log.
 */
int nb_diff_open(const struct nb_diff_opts *opts, struct nb_diff **dp, struct nb_log *log);
/* Run one packet through both sides and compare; the packet counts as number pkt_no. */
void nb_diff_packet(struct nb_diff *d, unsigned long pkt_no, const void *data, unsigned int len,
		    struct nb_diff_result *r);
/*
 * One program's time per run on both sides, for the same packet: BPF_PROG_TEST_RUN with repeat
 * runs in the kernel, nb_prog_test_run with as many in netbpf. Each side's duration is the mean
 * ns per run it reports (the span of the repeat loop: bpf_test_run's timer, and its twin);
 * cpu_ns is the calling thread's CPU time per run over the whole call (the loop and its set-up,
 * which repeat makes small; time the thread was not running does not count, and there is no
 * rounding to whole ns). Kernel fields stay 0 without a kernel.
 */
struct nb_diff_time {
	__u32 kernel_duration, netbpf_duration;
	double kernel_cpu_ns, netbpf_cpu_ns;
	__u32 kernel_retval, netbpf_retval;
};

/* 0 or the first side's negative errno (kernel first), the reason in log. */
int nb_diff_time(struct nb_diff *d, const void *data, unsigned int len, unsigned int repeat,
		 struct nb_diff_time *t, struct nb_log *log);
/* The kernel side was loaded (always, unless opts.kernel_optional). */
bool nb_diff_has_kernel(const struct nb_diff *d);
/* Compare every map key by key (once, after the packets). */
void nb_diff_maps(struct nb_diff *d, struct nb_diff_result *r);
enum bpf_prog_type nb_diff_prog_type(const struct nb_diff *d);
/* The kernel side was loaded from netbpf's reading of the object, not by libbpf. */
bool nb_diff_kernel_via_netbpf(const struct nb_diff *d);
/* The kernel's test runs happen in a network namespace of their own (diff.c says why). */
bool nb_diff_kernel_in_own_netns(const struct nb_diff *d);
void nb_diff_close(struct nb_diff *d);

/* "TC_ACT_SHOT", "XDP_PASS", ... for a return value of type; "" when it has no name. */
const char *nb_verdict_name(enum bpf_prog_type type, __u32 v);

/* The whole command: open, every packet of a pcap or pcapng file, the maps. */
int nb_diff_pcap(const struct nb_diff_opts *opts, const char *pcap_path, struct nb_diff_result *r,
		 struct nb_log *log);

#endif /* NB_KCOMPARE_DIFF_H */
