/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet capture files: reading the frames of a pcap or pcapng file (through libpcap), and
 * writing pcapng, one Ethernet interface per device (named, nanosecond timestamps), one
 * Enhanced Packet Block per frame (libpcap 1.10 reads pcapng but writes only pcap, hence this
 * small writer). What netbpf prog run --pcap-in / --pcap-out and the pcap ports use.
 */
#ifndef NETBPF_PCAP_H
#define NETBPF_PCAP_H

#include <linux/types.h>

#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_pcap_reader;
struct nb_pcapng;

/* 0 or -EINVAL with libpcap's reason and the file name in log. */
int nb_pcap_reader_open(const char *path, struct nb_pcap_reader **rp, struct nb_log *log);
/* 1 with the next frame (valid until the next call), 0 at the end, -EIO with the reason in log. */
int nb_pcap_reader_next(struct nb_pcap_reader *r, const unsigned char **data, unsigned int *len,
			struct nb_log *log);
/* NULL is allowed. */
void nb_pcap_reader_close(struct nb_pcap_reader *r);

/* Create (truncate) path and write the section header; 0 or a negative errno in log. */
int nb_pcapng_open(const char *path, struct nb_pcapng **wp, struct nb_log *log);
/* The interface named name: its id, its description block written on first use; or -errno. */
int nb_pcapng_interface(struct nb_pcapng *w, const char *name);
/* One frame on interface id at ts_ns (ns since the epoch); 0 or -EIO. */
int nb_pcapng_write(struct nb_pcapng *w, int id, const void *data, __u32 len, __u64 ts_ns);
/* Flush and close: 0 or -EIO when anything failed to be written; NULL is allowed. */
int nb_pcapng_close(struct nb_pcapng *w);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_PCAP_H */
