// SPDX-License-Identifier: GPL-2.0
/* Reading the frames of a pcap or pcapng file (include/netbpf/pcap.h). */
#include <errno.h>
#include <stdlib.h>
#include <pcap/pcap.h>

#include <netbpf/pcap.h>

struct nb_pcap_reader {
	pcap_t *pc;
};

int nb_pcap_reader_open(const char *path, struct nb_pcap_reader **rp, struct nb_log *log)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct nb_pcap_reader *r;

	*rp = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->pc = pcap_open_offline(path, errbuf);
	if (!r->pc) {
		nb_log_printf(log, "%s: %s", path, errbuf);
		free(r);
		return -EINVAL;
	}
	*rp = r;
	return 0;
}

int nb_pcap_reader_next(struct nb_pcap_reader *r, const unsigned char **data, unsigned int *len,
			struct nb_log *log)
{
	struct pcap_pkthdr *h;
	int rc = pcap_next_ex(r->pc, &h, data);

	if (rc == 1) {
		*len = h->caplen;
		return 1;
	}
	if (rc == PCAP_ERROR_BREAK)
		return 0;
	nb_log_printf(log, "reading packets: %s", pcap_geterr(r->pc));
	return -EIO;
}

void nb_pcap_reader_close(struct nb_pcap_reader *r)
{
	if (!r)
		return;
	pcap_close(r->pc);
	free(r);
}
