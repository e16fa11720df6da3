/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The packet set of the kernel corpus (test_diff_kernel.c): IPv4 and IPv6 with TCP, UDP, ICMP
 * and ICMPv6, ARP, VLAN and QinQ, IP options, fragments, truncated headers, the smallest and
 * largest sizes (up to the 17 fragments of the kernel's XDP test run), written to a pcap file. Kept apart from the BPF headers (libpcap's struct
 * bpf_insn collides with <linux/bpf.h>).
 */
#ifndef NB_TEST_PKTSET_H
#define NB_TEST_PKTSET_H

/*
 * Write every packet of the set to path, those longer than max_len left out (0: none); the
 * number of packets, or a negative errno.
 */
int pktset_write_pcap(const char *path, unsigned int max_len);

#endif /* NB_TEST_PKTSET_H */
