// SPDX-License-Identifier: GPL-2.0
/*
 * The sink port: the end of a wire. It counts and frees what it is sent; optionally it writes
 * every frame to a pcap file and keeps the first frames for inspection. Words:
 *
 *   pcap FILE   write every frame here (created or truncated)
 *   keep N      keep the first N frames (nb_sink_take) instead of freeing them
 *
 * It never receives. Several workers may transmit at once (lltx): each counts in its own cache
 * line, and only a sink that writes a file or keeps frames serialises them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/percpu.h>

#include "io/pcap.h"
#include "io/port.h"
#include "io/sink.h"
#include "pkt/pkt.h"
#include "common/u64_stats.h"

/* One worker's counters. */
struct sink_cpu {
	u64 packets;
	u64 bytes;
} __attribute__((aligned(64)));

struct sink {
	struct sink_cpu *cpu;		/* nb_nr_cpus() of them */
	pthread_mutex_t lock;		/* the pcap file and the kept frames */
	struct nb_pcap_writer *pcap;
	u64 keep;		/* frames still to keep */
	struct nb_pkt *kept, **kept_tail;
};

static const struct nb_port_ops sink_port_ops;

static void sink_keep_or_write(struct sink *s, struct nb_pkt **pkts, unsigned int n)
{
	pthread_mutex_lock(&s->lock);
	for (unsigned int i = 0; i < n; i++) {
		struct nb_pkt *pkt = pkts[i];

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
	pthread_mutex_unlock(&s->lock);
}

static unsigned int sink_tx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct sink *s = port->priv;
	struct sink_cpu *c = &s->cpu[nb_this_cpu()];
	u64 bytes = 0;

	for (unsigned int i = 0; i < n; i++)
		bytes += pkts[i]->len;
	nb_u64_stats_add(&c->packets, n);
	nb_u64_stats_add(&c->bytes, bytes);
	if (s->pcap || READ_ONCE(s->keep)) {
		sink_keep_or_write(s, pkts, n);
		return n;
	}
	nb_pkt_free_bulk(pkts, n);
	return n;
}

static void sink_close(struct nb_port *port)
{
	struct sink *s = port->priv;

	nb_pcap_writer_close(s->pcap);
	nb_pkt_free_list(s->kept);
	pthread_mutex_destroy(&s->lock);
	free(s->cpu);
}

static int sink_open(struct nb_port *port, int argc, char **argv, struct nb_log *log)
{
	struct sink *s = port->priv;
	const char *pcap = NULL;
	int err;

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
	s->cpu = aligned_alloc(64, nb_nr_cpus() * sizeof(*s->cpu));
	if (!s->cpu)
		return -ENOMEM;
	memset(s->cpu, 0, nb_nr_cpus() * sizeof(*s->cpu));
	err = pcap ? nb_pcap_writer_open(pcap, &s->pcap, log) : 0;
	if (err) {
		free(s->cpu);
		return err;
	}
	pthread_mutex_init(&s->lock, NULL);
	return 0;
}

static void sink_sum(const struct sink *s, struct nb_sink_counts *counts)
{
	counts->packets = 0;
	counts->bytes = 0;
	for (unsigned int i = 0; i < nb_nr_cpus(); i++) {
		counts->packets += nb_u64_stats_read(&s->cpu[i].packets);
		counts->bytes += nb_u64_stats_read(&s->cpu[i].bytes);
	}
}

static void sink_describe(const struct nb_port *port, char *buf, size_t size)
{
	snprintf(buf, size, "sink");
}

/* One queue: what the sink took, over every worker that transmitted. */
static int sink_queue_stats(const struct nb_port *port, unsigned int q,
			    struct nb_port_queue_stats *st)
{
	struct nb_sink_counts c;

	if (q)
		return -ENOENT;
	sink_sum(port->priv, &c);
	memset(st, 0, sizeof(*st));
	st->tx_packets = c.packets;
	return 0;
}

int nb_sink_counts(const struct nb_port *port, struct nb_sink_counts *counts)
{
	if (port->ops != &sink_port_ops)
		return -EINVAL;
	sink_sum(port->priv, counts);
	return 0;
}

struct nb_pkt *nb_sink_take(struct nb_port *port)
{
	struct sink *s = port->priv;
	struct nb_pkt *list;

	if (port->ops != &sink_port_ops)
		return NULL;
	pthread_mutex_lock(&s->lock);
	list = s->kept;
	s->kept = NULL;
	s->kept_tail = &s->kept;
	pthread_mutex_unlock(&s->lock);
	return list;
}

static const struct nb_port_ops sink_port_ops = {
	.kind = "sink",
	.features = NB_NETIF_F_ALL,	/* in memory: frames as they are */
	.priv_size = sizeof(struct sink),
	.open = sink_open,
	.tx_burst = sink_tx_burst,
	.lltx = true,	/* per-worker counters; the file and the kept frames under s->lock */
	.close = sink_close,
	.describe = sink_describe,
	.queue_stats = sink_queue_stats,
};
NB_PORT_REGISTER(sink_port_ops)
