/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the frames of a pcap or pcapng file (libpcap), for the commands that take
 * --pcap-in. Kept apart from libpcap's headers, whose struct bpf_insn collides with the
 * kernel's <linux/bpf.h>.
 */
#ifndef NB_IO_PCAP_READ_H
#define NB_IO_PCAP_READ_H

#include <netbpf/log.h>

struct nb_pcap_reader;

/* 0 or -EINVAL with libpcap's reason and the file name in log. */
int nb_pcap_reader_open(const char *path, struct nb_pcap_reader **rp, struct nb_log *log);
/* 1 with the next frame (valid until the next call), 0 at the end, -EIO with the reason in log. */
int nb_pcap_reader_next(struct nb_pcap_reader *r, const unsigned char **data, unsigned int *len,
			struct nb_log *log);
/* NULL is allowed. */
void nb_pcap_reader_close(struct nb_pcap_reader *r);

#endif /* NB_IO_PCAP_READ_H */
