// SPDX-License-Identifier: GPL-2.0
/* The pcapng writer (src/io/pcapng.c) read back by libpcap: frames, lengths, interfaces, times. */
#include <errno.h>
#include <unistd.h>
#include <pcap/pcap.h>

#include <netbpf/pcap.h>

#include "common/types.h"
#include "test.h"

NB_TEST(pcapng_read_back_by_libpcap)
{
	char path[] = "/tmp/nb-pcapng-XXXXXX", errbuf[PCAP_ERRBUF_SIZE];
	struct nb_log log = { 0 };
	struct nb_pcapng *w;
	struct pcap_pkthdr *h;
	const u_char *data;
	u8 frames[3][75];
	int fd = mkstemp(path), a, b;
	pcap_t *p;

	NB_ASSERT(fd >= 0);
	close(fd);
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 75; k++)
			frames[i][k] = (u8)(i * 31 + k);
	NB_ASSERT_EQ(nb_pcapng_open(path, &w, &log), 0);
	a = nb_pcapng_interface(w, "if2");
	b = nb_pcapng_interface(w, "stack");
	NB_ASSERT_EQ(a, 0);
	NB_ASSERT_EQ(b, 1);
	NB_ASSERT_EQ(nb_pcapng_interface(w, "if2"), 0);
	NB_ASSERT_EQ(nb_pcapng_write(w, a, frames[0], 60, 1000000001500ull), 0);
	NB_ASSERT_EQ(nb_pcapng_write(w, b, frames[1], 75, 1000000002000ull), 0);
	NB_ASSERT_EQ(nb_pcapng_write(w, a, frames[2], 61, 1000000003000ull), 0);
	NB_ASSERT_EQ(nb_pcapng_close(w), 0);

	p = pcap_open_offline(path, errbuf);
	if (!p)
		NB_FAIL("libpcap cannot read the output: %s", errbuf);
	NB_ASSERT_EQ(pcap_datalink(p), DLT_EN10MB);
	static const u32 lens[] = { 60, 75, 61 };
	for (int i = 0; i < 3; i++) {
		NB_ASSERT_EQ(pcap_next_ex(p, &h, &data), 1);
		NB_ASSERT_EQ(h->caplen, lens[i]);
		NB_ASSERT_EQ(h->len, lens[i]);
		NB_ASSERT_MEM_EQ(data, frames[i], lens[i]);
		NB_ASSERT_EQ(h->ts.tv_sec, 1000);
		NB_ASSERT_EQ(h->ts.tv_usec, i + 1);	/* ns rounded down to µs */
	}
	NB_ASSERT_EQ(pcap_next_ex(p, &h, &data), PCAP_ERROR_BREAK);
	pcap_close(p);
	unlink(path);
	nb_log_free(&log);
}

NB_TEST(pcapng_open_error_names_the_file)
{
	struct nb_log log = { 0 };
	struct nb_pcapng *w;

	NB_ASSERT_EQ(nb_pcapng_open("/nonexistent-dir/x.pcapng", &w, &log), -ENOENT);
	NB_ASSERT(w == NULL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "/nonexistent-dir/x.pcapng");
	nb_log_free(&log);
}
