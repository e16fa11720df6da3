// SPDX-License-Identifier: GPL-2.0
/*
 * The sink port: the end of a wire. It counts and frees what it is sent; optionally it writes
 * every frame to a pcap file and keeps the first frames for inspection. Words:
 *
 *   pcap FILE   write every frame here (created or truncated)
 *   keep N      keep the first N frames (nb_sink_take) instead of freeing them
 *
 * It never receives.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/pcap.h"
#include "io/port.h"
#include "io/sink.h"
#include "net/pkt.h"
#include "common/u64_stats.h"

struct sink {
	u64 packets;
	u64 bytes;
	struct nb_pcap_writer *pcap;
	u64 keep;		/* frames still to keep */
	struct nb_pkt *kept, **kept_tail;
};

static const struct nb_port_ops sink_port_ops;

static unsigned int sink_tx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct sink *s = port->priv;

	for (unsigned int i = 0; i < n; i++) {
		struct nb_pkt *pkt = pkts[i];

		nb_u64_stats_inc(&s->packets);
		nb_u64_stats_add(&s->bytes, pkt->len);
		if (s->pcap)
			nb_pcap_writer_write(s->pcap, pkt);
		if (s->keep) {
			s->keep--;
			pkt->next = NULL;
			*s->kept_tail = pkt;
			s->kept_tail = &pkt->next;
		} else {
			nb_pkt_free(pkt);
		}
	}
	return n;
}

static void sink_close(struct nb_port *port)
{
	struct sink *s = port->priv;

	nb_pcap_writer_close(s->pcap);
	nb_pkt_free_list(s->kept);
}

static int sink_open(struct nb_port *port, int argc, char **argv, struct nb_log *log)
{
	struct sink *s = port->priv;
	const char *pcap = NULL;

	s->kept_tail = &s->kept;
	for (int i = 0; i < argc; i += 2) {
		const char *key = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val) {
			nb_log_printf(log, "sink: \"%s\" needs a value\n", key);
			return -EINVAL;
		}
		if (!strcmp(key, "pcap")) {
			pcap = val;
		} else if (!strcmp(key, "keep") && nb_port_parse_u64(val, &s->keep)) {
		} else {
			nb_log_printf(log, "sink: \"%s %s\" is wrong: unknown word or bad value\n",
				      key, val);
			return -EINVAL;
		}
	}
	return pcap ? nb_pcap_writer_open(pcap, &s->pcap, log) : 0;
}

static void sink_describe(const struct nb_port *port, char *buf, size_t size)
{
	const struct sink *s = port->priv;

	snprintf(buf, size, "sink %llu packets %llu bytes",
		 (unsigned long long)nb_u64_stats_read(&s->packets),
		 (unsigned long long)nb_u64_stats_read(&s->bytes));
}

int nb_sink_counts(const struct nb_port *port, struct nb_sink_counts *counts)
{
	const struct sink *s;

	if (port->ops != &sink_port_ops)
		return -EINVAL;
	s = port->priv;
	counts->packets = nb_u64_stats_read(&s->packets);
	counts->bytes = nb_u64_stats_read(&s->bytes);
	return 0;
}

struct nb_pkt *nb_sink_take(struct nb_port *port)
{
	struct sink *s = port->priv;
	struct nb_pkt *list;

	if (port->ops != &sink_port_ops)
		return NULL;
	list = s->kept;
	s->kept = NULL;
	s->kept_tail = &s->kept;
	return list;
}

static const struct nb_port_ops sink_port_ops = {
	.kind = "sink",
	.features = NB_NETIF_F_ALL,	/* in memory: frames as they are */
	.priv_size = sizeof(struct sink),
	.open = sink_open,
	.tx_burst = sink_tx_burst,
	.close = sink_close,
	.describe = sink_describe,
};
NB_PORT_REGISTER(sink_port_ops)
