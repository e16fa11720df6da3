// SPDX-License-Identifier: GPL-2.0
/*
 * The pcap port: frames received are read from a pcap file, frames transmitted are appended to
 * another (libpcap does the file format). Words:
 *
 *   rx FILE     read this file (Ethernet link type), from the start
 *   tx FILE     write transmitted frames here (created or truncated)
 *   loop N      read the rx file N times (default 1), 0 for no end
 *
 * A frame longer than a packet holds (NB_PKT_MAX_FRAME) is skipped and counted
 * (skipped_too_big); frames longer than a page get fragments, as from any port. Transmitted
 * super-frames (GSO) are written whole, as tcpdump on a veth shows them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <pcap/pcap.h>

#include <netbpf/clock.h>

#include "io/pcap.h"
#include "io/port.h"
#include "pkt/pkt.h"
#include "common/u64_stats.h"

/* libpcap's largest snaplen: the longest frame fits, as do a kernel's super-frames */
#define PCAP_SNAPLEN 262144

struct nb_pcap_writer {
	pcap_t *dead;
	pcap_dumper_t *dumper;
	u8 *flat;		/* a frame with fragments, gathered (NB_PKT_MAX_FRAME bytes) */
};

int nb_pcap_writer_open(const char *path, struct nb_pcap_writer **wp, struct nb_log *log)
{
	struct nb_pcap_writer *w = calloc(1, sizeof(*w));

	*wp = NULL;
	if (!w)
		return -ENOMEM;
	w->flat = malloc(NB_PKT_MAX_FRAME);
	w->dead = w->flat ? pcap_open_dead(DLT_EN10MB, PCAP_SNAPLEN) : NULL;
	if (!w->dead) {
		free(w->flat);
		free(w);
		return -ENOMEM;
	}
	w->dumper = pcap_dump_open(w->dead, path);
	if (!w->dumper) {
		nb_log_printf(log, "pcap: cannot write %s: %s\n", path, pcap_geterr(w->dead));
		pcap_close(w->dead);
		free(w->flat);
		free(w);
		return -EIO;
	}
	*wp = w;
	return 0;
}

void nb_pcap_writer_write(struct nb_pcap_writer *w, const struct nb_pkt *pkt)
{
	struct pcap_pkthdr hdr;

	if (pkt->tstamp) {
		hdr.ts.tv_sec = (time_t)(pkt->tstamp / 1000000000ull);
		hdr.ts.tv_usec = (suseconds_t)(pkt->tstamp % 1000000000ull / 1000);
	} else {
		u64 now = nb_realtime_ns();	/* the virtual clock in the deterministic mode */

		hdr.ts.tv_sec = (time_t)(now / 1000000000ull);
		hdr.ts.tv_usec = (suseconds_t)(now % 1000000000ull / 1000);
	}
	hdr.caplen = pkt->len;
	hdr.len = pkt->len;
	if (nb_pkt_is_nonlinear(pkt)) {
		nb_pkt_copy_bits(pkt, 0, w->flat, pkt->len);
		pcap_dump((u_char *)w->dumper, &hdr, w->flat);
		return;
	}
	pcap_dump((u_char *)w->dumper, &hdr, pkt->data);
}

void nb_pcap_writer_close(struct nb_pcap_writer *w)
{
	if (!w)
		return;
	pcap_dump_flush(w->dumper);
	pcap_dump_close(w->dumper);
	pcap_close(w->dead);
	free(w->flat);
	free(w);
}

struct pcap_port {
	char *rx_path;
	pcap_t *rx;
	u64 loops;		/* times to read the file; 0: no end */
	u64 loops_done;
	u64 pass_packets;	/* frames of the current pass: an empty file ends the loop */
	u64 rx_packets;
	u64 skipped_too_big;
	struct nb_pcap_writer *tx;
	char *tx_path;
	u64 tx_packets;
};

static int rx_reopen(struct pcap_port *pp, struct nb_log *log)
{
	char errbuf[PCAP_ERRBUF_SIZE];

	if (pp->rx)
		pcap_close(pp->rx);
	pp->rx = pcap_open_offline(pp->rx_path, errbuf);
	if (!pp->rx) {
		nb_log_printf(log, "pcap: cannot read %s: %s\n", pp->rx_path, errbuf);
		return -ENOENT;
	}
	if (pcap_datalink(pp->rx) != DLT_EN10MB) {
		nb_log_printf(log, "pcap: %s has link type %s, only Ethernet is supported\n",
			      pp->rx_path, pcap_datalink_val_to_name(pcap_datalink(pp->rx)));
		pcap_close(pp->rx);
		pp->rx = NULL;
		return -EINVAL;
	}
	return 0;
}

static unsigned int pcap_rx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int max)
{
	struct pcap_port *pp = port->priv;
	unsigned int n = 0;

	while (pp->rx && n < max) {
		struct pcap_pkthdr *hdr;
		const u_char *data;
		struct nb_pkt *pkt;
		int rc = pcap_next_ex(pp->rx, &hdr, &data);

		if (rc != 1) {
			/* End of file (or a broken one): another round, or the end. */
			bool again = rc == PCAP_ERROR_BREAK && pp->pass_packets &&
				     (!pp->loops || pp->loops_done + 1 < pp->loops);

			pp->loops_done++;
			pp->pass_packets = 0;
			if (!again || rx_reopen(pp, NULL)) {
				if (pp->rx)
					pcap_close(pp->rx);
				pp->rx = NULL;
			}
			continue;
		}
		if (hdr->caplen > NB_PKT_MAX_FRAME) {
			nb_u64_stats_inc(&pp->skipped_too_big);
			nb_port_count_drops(port, NB_DROP_TOO_BIG, 1);
			continue;
		}
		pkt = nb_pkt_alloc_data(data, hdr->caplen);
		if (!pkt) {
			/* the frame is read: without a packet for it, it is a counted drop */
			nb_port_count_drops(port, NB_DROP_NOMEM, 1);
			pp->pass_packets++;	/* the file is not empty for all that */
			break;
		}
		pkt->tstamp = (u64)hdr->ts.tv_sec * 1000000000ull + (u64)hdr->ts.tv_usec * 1000;
		pkts[n++] = pkt;
		nb_u64_stats_inc(&pp->rx_packets);	/* describe reads it from elsewhere */
		pp->pass_packets++;
	}
	return n;
}

/* A file read to its end has nothing more; one being read never waits. */
static int pcap_rx_queue_wait(struct nb_port *port, unsigned int q, struct pollfd *pfd)
{
	const struct pcap_port *pp = port->priv;

	(void)q;
	(void)pfd;
	return pp->rx ? -EAGAIN : 0;
}

static unsigned int pcap_tx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct pcap_port *pp = port->priv;

	if (!pp->tx)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		nb_pcap_writer_write(pp->tx, pkts[i]);
		nb_pkt_free(pkts[i]);
	}
	nb_u64_stats_add(&pp->tx_packets, n);
	return n;
}

static void pcap_port_close(struct nb_port *port)
{
	struct pcap_port *pp = port->priv;

	if (pp->rx)
		pcap_close(pp->rx);
	nb_pcap_writer_close(pp->tx);
	free(pp->rx_path);
	free(pp->tx_path);
}

static int pcap_port_open(struct nb_port *port, int argc, char **argv, struct nb_log *log)
{
	struct pcap_port *pp = port->priv;
	const char *tx_path = NULL;
	int err = 0;

	pp->loops = 1;
	for (int i = 0; i < argc; i += 2) {
		const char *key = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val) {
			nb_log_printf(log, "pcap: \"%s\" needs a value\n", key);
			return -EINVAL;
		}
		if (!strcmp(key, "rx")) {
			free(pp->rx_path);
			pp->rx_path = strdup(val);
			if (!pp->rx_path)
				return -ENOMEM;
		} else if (!strcmp(key, "tx")) {
			tx_path = val;
		} else if (!strcmp(key, "loop") && nb_port_parse_u64(val, &pp->loops)) {
		} else {
			nb_log_printf(log, "pcap: \"%s %s\" is wrong: unknown word or bad value\n",
				      key, val);
			free(pp->rx_path);
			return -EINVAL;
		}
	}
	if (!pp->rx_path && !tx_path) {
		nb_log_printf(log, "pcap: give an rx file, a tx file or both\n");
		return -EINVAL;
	}
	if (pp->rx_path)
		err = rx_reopen(pp, log);
	if (!err && tx_path) {
		pp->tx_path = strdup(tx_path);
		err = pp->tx_path ? nb_pcap_writer_open(tx_path, &pp->tx, log) : -ENOMEM;
	}
	if (err)
		pcap_port_close(port);
	return err;
}

static void pcap_describe(const struct nb_port *port, char *buf, size_t size)
{
	const struct pcap_port *pp = port->priv;

	snprintf(buf, size, "pcap rx %s tx %s", pp->rx_path ? pp->rx_path : "-",
		 pp->tx_path ? pp->tx_path : "-");
}

/* One queue: frames read from the file (those too big for netbpf apart) and written. */
static int pcap_queue_stats(const struct nb_port *port, unsigned int q,
			    struct nb_port_queue_stats *st)
{
	const struct pcap_port *pp = port->priv;

	if (q)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->rx_packets = nb_u64_stats_read(&pp->rx_packets);
	st->rx_too_big = nb_u64_stats_read(&pp->skipped_too_big);
	st->tx_packets = nb_u64_stats_read(&pp->tx_packets);
	return 0;
}

static const struct nb_port_ops pcap_port_ops = {
	.kind = "pcap",
	.features = NB_NETIF_F_ALL,	/* a file: super-frames written whole, as tcpdump shows them */
	.priv_size = sizeof(struct pcap_port),
	.open = pcap_port_open,
	.rx_burst = pcap_rx_burst,
	.rx_queue_wait = pcap_rx_queue_wait,
	.tx_burst = pcap_tx_burst,
	.close = pcap_port_close,
	.describe = pcap_describe,
	.queue_stats = pcap_queue_stats,
};
NB_PORT_REGISTER(pcap_port_ops)
