/* SPDX-License-Identifier: GPL-2.0 */
/* netbpf bench's DPDK rows: the peer bench/dpdk/peer.c builds (bench_dpdk.c). */
#ifndef NB_CLI_BENCH_DPDK_H
#define NB_CLI_BENCH_DPDK_H

#include <stdbool.h>
#include <stddef.h>

/* One peer run: frames per CPU second of its forwarding thread, and per wall-clock second. */
struct bench_dpdk_run {
	double cpu_mpps, wall_mpps;
};

/*
 * The peer and its programs: $NB_DPDK_PEER, or dpdk-peer beside this netbpf (make bench builds
 * it), its programs in bench/dpdk/peer_prog.o beside the peer. false with why filled in when
 * they are not there.
 */
bool bench_dpdk_find(char *why, size_t size);
/*
 * One run of the peer with the program in section ("-": none) for window seconds after warmup
 * seconds; 0, or -1 with why filled in (the peer's own error line).
 */
int bench_dpdk_run(const char *section, double warmup, double window, struct bench_dpdk_run *r,
		   char *why, size_t size);
/* How the DPDK rows are made, for the table's note. */
extern const char bench_dpdk_note[];

#endif /* NB_CLI_BENCH_DPDK_H */
