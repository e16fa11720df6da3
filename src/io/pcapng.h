/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing pcapng files (RFC draft "PCAP Next Generation Dump File Format"): one section, one
 * Ethernet interface per device (named with if_name, nanosecond timestamps), one Enhanced Packet
 * Block per frame. libpcap 1.10 reads pcapng but writes only pcap, hence this small writer.
 */
#ifndef NB_IO_PCAPNG_H
#define NB_IO_PCAPNG_H

#include <netbpf/log.h>

#include "common/types.h"

struct nb_pcapng;

/* Create (truncate) path and write the section header; 0 or a negative errno in log. */
int nb_pcapng_open(const char *path, struct nb_pcapng **wp, struct nb_log *log);
/* The interface named name: its id, its description block written on first use; or -errno. */
int nb_pcapng_interface(struct nb_pcapng *w, const char *name);
/* One frame on interface id at ts_ns (ns since the epoch); 0 or -EIO. */
int nb_pcapng_write(struct nb_pcapng *w, int id, const void *data, u32 len, u64 ts_ns);
/* Flush and close: 0 or -EIO when anything failed to be written; NULL is allowed. */
int nb_pcapng_close(struct nb_pcapng *w);

#endif /* NB_IO_PCAPNG_H */
