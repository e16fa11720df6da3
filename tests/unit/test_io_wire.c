// SPDX-License-Identifier: GPL-2.0
/* Pipe pairs, sinks and pcap files: frames cross in order, files round-trip through libpcap. */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <pcap/pcap.h>

#include <netbpf/percpu.h>

#include "io/pipe.h"
#include "io/port.h"
#include "io/sink.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "test.h"

static struct nb_port *make_port(const char *kind, const char *words)
{
	struct nb_log log = { 0 };
	struct nb_port *port;
	int err = nb_port_open_str(kind, words, &port, &log);

	if (err)
		NB_FAIL("%s %s: %d %s", kind, words, err, nb_log_text(&log));
	nb_log_free(&log);
	return port;
}

static struct nb_pkt *numbered(u32 i, u32 len)
{
	u8 buf[256] = { 0 };

	memcpy(buf + 14, &i, sizeof(i));
	return nb_pkt_alloc_data(buf, len);
}

static u32 number_of(const struct nb_pkt *pkt)
{
	u32 i;

	memcpy(&i, pkt->data + 14, sizeof(i));
	return i;
}

NB_TEST(io_pipe_pair_order)
{
	struct nb_port *a = make_port("pipe", ""), *b = make_port("pipe", "ring 64");
	struct nb_pkt *pkts[NB_BURST];
	u32 next = 0, got = 0;

	NB_ASSERT_EQ(nb_pipe_connect(a, b), 0);
	NB_ASSERT_EQ(nb_pipe_connect(a, b), -EBUSY);
	for (int round = 0; round < 10; round++) {
		unsigned int n;

		for (int i = 0; i < 20; i++)
			pkts[i] = numbered(next++, 60);
		NB_ASSERT_EQ(nb_port_tx_burst(a, pkts, 20), 20);
		while ((n = nb_port_rx_burst(b, pkts, 7)) > 0) {
			for (unsigned int i = 0; i < n; i++) {
				NB_ASSERT_EQ(number_of(pkts[i]), got++);
				nb_pkt_free(pkts[i]);
			}
		}
	}
	NB_ASSERT_EQ(got, 200);
	NB_ASSERT_EQ(nb_port_rx_burst(a, pkts, NB_BURST), 0);	/* nothing flows back */
	nb_port_close(a);
	nb_port_close(b);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A full ring takes what fits; the sender keeps the rest. Closing frees what waits. */
NB_TEST(io_pipe_ring_full)
{
	struct nb_port *a = make_port("pipe", ""), *b = make_port("pipe", "ring 16");
	struct nb_pkt *pkts[NB_BURST];
	struct nb_log log = { 0 };
	struct nb_port *bad;

	nb_pipe_connect(a, b);
	for (int i = 0; i < NB_BURST; i++)
		pkts[i] = numbered(i, 60);
	NB_ASSERT_EQ(nb_port_tx_burst(a, pkts, NB_BURST), 16);
	NB_ASSERT_EQ(number_of(pkts[16]), 16);
	for (int i = 16; i < NB_BURST; i++)
		nb_pkt_free(pkts[i]);
	nb_port_close(b);		/* 16 frames still queued */
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	pkts[0] = numbered(0, 60);
	NB_ASSERT_EQ(nb_port_tx_burst(a, pkts, 1), 0);	/* no peer any more */
	nb_pkt_free(pkts[0]);
	nb_port_close(a);
	NB_ASSERT_EQ(nb_port_open_str("pipe", "ring 100", &bad, &log), -EINVAL);
	nb_log_free(&log);
}

/* Two devices joined as veth peers: tx of one is rx of the other, a down peer drops. */
NB_TEST(io_pipe_devices)
{
	struct nb_dev *a, *b;
	struct nb_pkt *pkts[NB_BURST];
	struct nb_dev_stats_total st;

	NB_ASSERT_EQ(nb_dev_create("va", 0, &a, NULL), 0);
	NB_ASSERT_EQ(nb_dev_create("vb", 0, &b, NULL), 0);
	NB_ASSERT_EQ(nb_dev_pipe_pair(a, b, NULL), 0);
	NB_ASSERT_EQ(a->peer, b);
	NB_ASSERT_EQ(b->peer, a);
	nb_dev_set_up(a, true);
	for (int i = 0; i < 5; i++)
		pkts[i] = numbered(i, 60);
	NB_ASSERT_EQ(nb_dev_tx_burst(a, pkts, 5), 0);		/* vb is down */
	nb_dev_set_up(b, true);
	for (int i = 0; i < 5; i++)
		pkts[i] = numbered(i, 60);
	NB_ASSERT_EQ(nb_dev_tx_burst(a, pkts, 5), 5);
	NB_ASSERT_EQ(nb_dev_rx_burst(b, pkts, NB_BURST), 5);
	for (int i = 0; i < 5; i++) {
		NB_ASSERT_EQ(pkts[i]->dev, b);
		NB_ASSERT_EQ(number_of(pkts[i]), i);
		nb_pkt_free(pkts[i]);
	}
	nb_dev_stats_read(a, &st);
	NB_ASSERT_EQ(st.tx_packets, 5);
	NB_ASSERT_EQ(st.drops[NB_DROP_TX_ERROR], 5);
	nb_dev_stats_read(b, &st);
	NB_ASSERT_EQ(st.rx_packets, 5);
	nb_dev_destroy(a);
	NB_ASSERT_EQ(b->peer, NULL);
	nb_dev_destroy_all();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static void tmp_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "/tmp/nb-test-%d-%s.pcap", (int)getpid(), name);
}

/* Frames written by a pcap port and a sink read back with libpcap itself, byte for byte. */
NB_TEST(io_pcap_round_trip)
{
	char out[128], words[300], sinkfile[128], errbuf[PCAP_ERRBUF_SIZE];
	struct nb_port *gen = make_port("gen", "count 50 pkt_size 90 udp_dst_min 1 "
					"udp_dst_max 50"), *tx, *sink, *rx;
	struct nb_pkt *sent[50], *pkts[NB_BURST], *kept;
	struct pcap_pkthdr *hdr;
	const u_char *data;
	unsigned int n, total = 0;
	pcap_t *p;

	tmp_path(out, sizeof(out), "tx");
	tmp_path(sinkfile, sizeof(sinkfile), "sink");
	snprintf(words, sizeof(words), "tx %s", out);
	tx = make_port("pcap", words);
	snprintf(words, sizeof(words), "pcap %s keep 3", sinkfile);
	sink = make_port("sink", words);
	while ((n = nb_port_rx_burst(gen, pkts, NB_BURST)) > 0) {
		for (unsigned int i = 0; i < n; i++) {
			sent[total + i] = nb_pkt_copy(pkts[i]);
			pkts[i]->tstamp = 1700000000ull * 1000000000ull + (total + i) * 1000ull;
		}
		NB_ASSERT_EQ(nb_port_tx_burst(tx, pkts, n), n);
		total += n;
	}
	NB_ASSERT_EQ(total, 50);
	nb_port_close(tx);	/* flushes */

	p = pcap_open_offline(out, errbuf);
	NB_ASSERT(p);
	NB_ASSERT_EQ(pcap_datalink(p), DLT_EN10MB);
	for (int i = 0; i < 50; i++) {
		NB_ASSERT_EQ(pcap_next_ex(p, &hdr, &data), 1);
		NB_ASSERT_EQ(hdr->caplen, 90);
		NB_ASSERT_EQ(hdr->len, 90);
		NB_ASSERT_EQ(hdr->ts.tv_sec, 1700000000);
		NB_ASSERT_EQ(hdr->ts.tv_usec, i);
		NB_ASSERT_MEM_EQ(data, sent[i]->data, 90);
	}
	NB_ASSERT_EQ(pcap_next_ex(p, &hdr, &data), PCAP_ERROR_BREAK);
	pcap_close(p);

	/* The same file as a receiving port, twice over; into a sink with a pcap of its own. */
	snprintf(words, sizeof(words), "rx %s loop 2", out);
	rx = make_port("pcap", words);
	total = 0;
	while ((n = nb_port_rx_burst(rx, pkts, NB_BURST)) > 0) {
		for (unsigned int i = 0; i < n; i++) {
			NB_ASSERT_EQ(pkts[i]->len, 90);
			NB_ASSERT_MEM_EQ(pkts[i]->data, sent[(total + i) % 50]->data, 90);
		}
		NB_ASSERT_EQ(nb_port_tx_burst(sink, pkts, n), n);
		total += n;
	}
	NB_ASSERT_EQ(total, 100);
	kept = nb_sink_take(sink);
	{
		struct nb_pkt *k = kept;

		for (int i = 0; i < 3; i++, k = k->next) {
			NB_ASSERT(k);
			NB_ASSERT_MEM_EQ(k->data, sent[i]->data, 90);
		}
		NB_ASSERT(k == NULL);
	}
	nb_pkt_free_list(kept);
	NB_ASSERT(nb_sink_take(sink) == NULL);
	nb_port_close(rx);
	nb_port_close(sink);
	p = pcap_open_offline(sinkfile, errbuf);
	NB_ASSERT(p);
	for (int i = 0; i < 100; i++) {
		NB_ASSERT_EQ(pcap_next_ex(p, &hdr, &data), 1);
		NB_ASSERT_MEM_EQ(data, sent[i % 50]->data, 90);
	}
	NB_ASSERT_EQ(pcap_next_ex(p, &hdr, &data), PCAP_ERROR_BREAK);
	pcap_close(p);
	for (int i = 0; i < 50; i++)
		nb_pkt_free(sent[i]);
	nb_port_close(gen);
	unlink(out);
	unlink(sinkfile);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* Files the port cannot use are refused with the file named; oversized frames are skipped. */
NB_TEST(io_pcap_errors)
{
	char path[128], words[200];
	struct nb_log log = { 0 };
	struct nb_port *port;
	struct nb_pkt *pkts[NB_BURST];
	pcap_t *dead;
	pcap_dumper_t *d;
	struct pcap_pkthdr h = { .caplen = NB_PKT_MAX_FRAME + 1, .len = NB_PKT_MAX_FRAME + 1 };
	static u8 big[NB_PKT_MAX_FRAME + 1], small[60];

	NB_ASSERT_EQ(nb_port_open_str("pcap", "rx /nonexistent/x.pcap", &port, &log), -ENOENT);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "/nonexistent/x.pcap");
	NB_ASSERT_EQ(nb_port_open_str("pcap", "", &port, &log), -EINVAL);
	NB_ASSERT_EQ(nb_port_open_str("pcap", "rx", &port, &log), -EINVAL);
	NB_ASSERT_EQ(nb_port_open_str("pcap", "tx /nonexistent/y.pcap", &port, &log), -EIO);

	tmp_path(path, sizeof(path), "raw");
	dead = pcap_open_dead(DLT_RAW, 65535);
	d = pcap_dump_open(dead, path);
	pcap_dump_close(d);
	pcap_close(dead);
	snprintf(words, sizeof(words), "rx %s", path);
	NB_ASSERT_EQ(nb_port_open_str("pcap", words, &port, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "only Ethernet");

	/* beyond the longest frame: skipped; a jumbo frame: read, in fragments */
	dead = pcap_open_dead(DLT_EN10MB, 262144);
	d = pcap_dump_open(dead, path);
	pcap_dump((u_char *)d, &h, big);
	h.caplen = h.len = 9000;
	pcap_dump((u_char *)d, &h, big);
	h.caplen = h.len = sizeof(small);
	pcap_dump((u_char *)d, &h, small);
	pcap_dump_close(d);
	pcap_close(dead);
	port = make_port("pcap", words);
	NB_ASSERT_EQ(nb_port_rx_burst(port, pkts, NB_BURST), 2);
	NB_ASSERT_EQ(pkts[0]->len, 9000);
	NB_ASSERT(nb_pkt_is_nonlinear(pkts[0]));
	NB_ASSERT_EQ(pkts[1]->len, sizeof(small));
	nb_pkt_free(pkts[0]);
	nb_pkt_free(pkts[1]);
	NB_ASSERT_EQ(nb_port_rx_burst(port, pkts, NB_BURST), 0);
	nb_port_close(port);
	unlink(path);
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/*
 * Two workers transmitting into one sink at once, each on its own CPU slot as the datapath's
 * workers are: the per-worker counters keep every count, the lock of the kept frames keeps them.
 */
struct sink_sender {
	struct nb_port *port;
	u32 bursts;
	unsigned int cpu;
};

static void *send_bursts(void *arg)
{
	struct sink_sender *s = arg;
	struct nb_pkt *pkts[NB_BURST];

	if (nb_set_this_cpu(s->cpu))
		return (void *)1;

	for (u32 b = 0; b < s->bursts; b++) {
		for (unsigned int i = 0; i < NB_BURST; i++)
			pkts[i] = numbered(i, 60);
		if (nb_port_tx_burst(s->port, pkts, NB_BURST) != NB_BURST)
			return (void *)1;
	}
	return NULL;
}

NB_TEST(io_sink_two_transmitters)
{
	struct sink_sender s[2] = {
		{ .port = make_port("sink", "keep 1000"), .bursts = 4000, .cpu = 0 },
	};
	struct nb_sink_counts counts;
	struct nb_pkt *kept;
	pthread_t threads[2];
	void *ret[2];
	u32 n = 0;

	if (nb_nr_cpus() < 2)
		nb_test_skip("one CPU slot: two workers need two");
	s[1] = s[0];
	s[1].cpu = 1;
	for (int i = 0; i < 2; i++)
		NB_ASSERT_EQ(pthread_create(&threads[i], NULL, send_bursts, &s[i]), 0);
	for (int i = 0; i < 2; i++)
		NB_ASSERT_EQ(pthread_join(threads[i], &ret[i]), 0);
	NB_ASSERT(!ret[0] && !ret[1]);
	NB_ASSERT_EQ(nb_sink_counts(s[0].port, &counts), 0);
	NB_ASSERT_EQ(counts.packets, 2ULL * s[0].bursts * NB_BURST);
	NB_ASSERT_EQ(counts.bytes, 60ULL * counts.packets);
	kept = nb_sink_take(s[0].port);
	for (struct nb_pkt *p = kept; p; p = p->next)
		n++;
	NB_ASSERT_EQ(n, 1000);
	nb_pkt_free_list(kept);
	nb_port_close(s[0].port);
}
