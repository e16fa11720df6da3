/* SPDX-License-Identifier: GPL-2.0 */
/* Writing frames to a pcap file (libpcap), shared by the pcap and sink ports. */
#ifndef NB_IO_PCAP_H
#define NB_IO_PCAP_H

#include <netbpf/log.h>

#include "common/types.h"

struct nb_pkt;
struct nb_pcap_writer;

/* Create (truncate) path as an Ethernet pcap file; 0 or a negative errno naming the file. */
int nb_pcap_writer_open(const char *path, struct nb_pcap_writer **wp, struct nb_log *log);
/* Append one frame, stamped with pkt->tstamp when set, else the current time. */
void nb_pcap_writer_write(struct nb_pcap_writer *w, const struct nb_pkt *pkt);
/* Flush and close; NULL is allowed. */
void nb_pcap_writer_close(struct nb_pcap_writer *w);

#endif /* NB_IO_PCAP_H */
