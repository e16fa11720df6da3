// SPDX-License-Identifier: GPL-2.0
/* The packet set of the kernel corpus (pktset.h); checksums are computed (RFC 1071). */
#include <errno.h>
#include <string.h>
#include <pcap/pcap.h>

#include "pktset.h"

/* The kernel's largest XDP test-run frame: 3520 linear bytes and 17 fragments of a page. */
#define MAX_FRAME (3520 + 17 * 4096)
/* Room for every frame libpcap accepts for Ethernet (MAXIMUM_SNAPLEN). */
#define SNAPLEN 262144

enum l3 { L3_IP4, L3_IP6, L3_ARP };
enum l4 { L4_UDP = 17, L4_TCP = 6, L4_ICMP = 1, L4_ICMP6 = 58 };

struct pkt_spec {
	enum l3 l3;
	int l4;
	int tags;		/* 0, 1 (802.1Q) or 2 (802.1ad + 802.1Q) */
	int ip_opt_words;	/* IPv4 options, 4-byte words */
	int frag;		/* 1: first fragment (MF), 2: a later fragment */
	unsigned int payload;
	unsigned int truncate;	/* 0: whole frame, else its first bytes */
};

static unsigned int csum_add(const unsigned char *p, unsigned int len, unsigned int sum)
{
	for (unsigned int i = 0; i + 1 < len; i += 2)
		sum += (unsigned int)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (unsigned int)p[len - 1] << 8;
	return sum;
}

static unsigned short csum_fold(unsigned int sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (unsigned short)~sum;
}

static void put16(unsigned char *p, unsigned int v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static unsigned int build(const struct pkt_spec *s, unsigned char *f, unsigned int seed)
{
	static const unsigned char macs[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };
	unsigned int off = 12, l3, l4, l4len, end, sum;

	memcpy(f, macs, 12);
	if (s->tags == 2) {
		put16(f + off, 0x88a8);
		put16(f + off + 2, 5);
		off += 4;
	}
	if (s->tags >= 1) {
		put16(f + off, 0x8100);
		put16(f + off + 2, 100 | 3 << 13);
		off += 4;
	}
	l3 = off + 2;
	if (s->l3 == L3_ARP) {
		static const unsigned char arp[28] = { 0, 1, 8, 0, 6, 4, 0, 1, 2, 0, 0, 0, 0, 1,
						       10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 10, 0, 0, 2 };

		put16(f + off, 0x0806);
		memcpy(f + l3, arp, sizeof(arp));
		end = l3 + sizeof(arp);
		memset(f + end, 0, 60 > end ? 60 - end : 0);
		return end < 60 ? 60 : end;
	}
	l4len = (s->l4 == L4_TCP ? 20 : 8) + s->payload;
	if (s->l3 == L3_IP4) {
		unsigned int ihl = 5 + s->ip_opt_words;

		put16(f + off, 0x0800);
		f[l3] = (unsigned char)(0x40 | ihl);
		f[l3 + 1] = 0;
		put16(f + l3 + 2, ihl * 4 + l4len);
		put16(f + l3 + 4, 0x1234 + seed);
		put16(f + l3 + 6, s->frag == 1 ? 0x2000 : s->frag == 2 ? 0x00b9 : 0x4000);
		f[l3 + 8] = 64;
		f[l3 + 9] = (unsigned char)s->l4;
		f[l3 + 10] = f[l3 + 11] = 0;
		memcpy(f + l3 + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
		for (int w = 0; w < s->ip_opt_words; w++) /* NOPs, then End of options */
			memset(f + l3 + 20 + 4 * w, w + 1 == s->ip_opt_words ? 0 : 1, 4);
		put16(f + l3 + 10, csum_fold(csum_add(f + l3, ihl * 4, 0)));
		l4 = l3 + ihl * 4;
		sum = csum_add(f + l3 + 12, 8, 0) + (unsigned int)s->l4 + l4len;
	} else {
		unsigned int nh = s->frag ? 44 : (unsigned int)s->l4;

		put16(f + off, 0x86dd);
		f[l3] = 0x60;
		f[l3 + 1] = (unsigned char)(seed << 4);
		f[l3 + 2] = 0x12;
		f[l3 + 3] = 0x34;
		put16(f + l3 + 4, l4len + (s->frag ? 8 : 0));
		f[l3 + 6] = (unsigned char)nh;
		f[l3 + 7] = 64;
		memset(f + l3 + 8, 0, 32);
		f[l3 + 8] = f[l3 + 24] = 0xfd;
		f[l3 + 23] = 1;
		f[l3 + 39] = 2;
		l4 = l3 + 40;
		if (s->frag) {
			f[l4] = (unsigned char)s->l4;
			f[l4 + 1] = 0;
			put16(f + l4 + 2, s->frag == 1 ? 1 : 0x5c8);
			memcpy(f + l4 + 4, "\x00\x00\xbe\xef", 4);
			l4 += 8;
		}
		sum = csum_add(f + l3 + 8, 32, 0) + (unsigned int)s->l4 + l4len;
	}
	end = l4 + l4len;
	for (unsigned int i = l4; i < end; i++)
		f[i] = (unsigned char)(i * 7 + seed);
	if (s->l4 == L4_UDP) {
		put16(f + l4, 12345 + seed);
		put16(f + l4 + 2, 53);
		put16(f + l4 + 4, l4len);
		put16(f + l4 + 6, 0);
		put16(f + l4 + 6, csum_fold(csum_add(f + l4, l4len, sum)));
	} else if (s->l4 == L4_TCP) {
		put16(f + l4, 40000 + seed);
		put16(f + l4 + 2, 80);
		f[l4 + 12] = 0x50;
		f[l4 + 13] = 0x18;
		put16(f + l4 + 16, 0);
		put16(f + l4 + 16, csum_fold(csum_add(f + l4, l4len, sum)));
	} else {
		f[l4] = s->l4 == L4_ICMP ? 8 : 128;	/* echo request */
		f[l4 + 1] = 0;
		put16(f + l4 + 2, 0);
		put16(f + l4 + 2, csum_fold(csum_add(f + l4, l4len,
						     s->l4 == L4_ICMP ? 0 : sum)));
	}
	if (end < 60) {
		memset(f + end, 0, 60 - end);
		end = 60;
	}
	return s->truncate && s->truncate < end ? s->truncate : end;
}

static const struct pkt_spec specs[] = {
	{ L3_IP4, L4_UDP, 0, 0, 0, 32, 0 },
	{ L3_IP4, L4_TCP, 0, 0, 0, 100, 0 },
	{ L3_IP4, L4_ICMP, 0, 0, 0, 56, 0 },
	{ L3_IP6, L4_UDP, 0, 0, 0, 32, 0 },
	{ L3_IP6, L4_TCP, 0, 0, 0, 100, 0 },
	{ L3_IP6, L4_ICMP6, 0, 0, 0, 56, 0 },
	{ L3_ARP, 0, 0, 0, 0, 0, 0 },
	{ L3_ARP, 0, 1, 0, 0, 0, 0 },
	{ L3_IP4, L4_UDP, 1, 0, 0, 32, 0 },
	{ L3_IP4, L4_TCP, 1, 0, 0, 10, 0 },
	{ L3_IP6, L4_UDP, 1, 0, 0, 32, 0 },
	{ L3_IP4, L4_UDP, 2, 0, 0, 32, 0 },
	{ L3_IP4, L4_TCP, 2, 0, 0, 64, 0 },
	{ L3_IP6, L4_ICMP6, 2, 0, 0, 8, 0 },
	{ L3_IP4, L4_UDP, 0, 1, 0, 32, 0 },
	{ L3_IP4, L4_TCP, 0, 10, 0, 20, 0 },
	{ L3_IP4, L4_UDP, 0, 0, 1, 64, 0 },
	{ L3_IP4, L4_UDP, 0, 0, 2, 64, 0 },
	{ L3_IP6, L4_UDP, 0, 0, 1, 64, 0 },
	{ L3_IP6, L4_TCP, 0, 0, 2, 64, 0 },
	{ L3_IP4, L4_TCP, 0, 0, 0, 0, 1 },	/* one byte */
	{ L3_IP4, L4_TCP, 0, 0, 0, 0, 13 },	/* less than an Ethernet header */
	{ L3_IP4, L4_TCP, 0, 0, 0, 0, 14 },	/* Ethernet header only */
	{ L3_IP4, L4_TCP, 0, 0, 0, 0, 24 },	/* truncated IPv4 header */
	{ L3_IP4, L4_TCP, 0, 0, 0, 0, 40 },	/* truncated TCP header */
	{ L3_IP6, L4_UDP, 0, 0, 0, 0, 30 },	/* truncated IPv6 header */
	{ L3_IP6, L4_UDP, 0, 0, 0, 0, 58 },	/* truncated UDP header */
	{ L3_IP4, L4_UDP, 1, 0, 0, 0, 16 },	/* truncated VLAN tag */
	{ L3_IP4, L4_UDP, 0, 0, 0, 18, 0 },	/* minimum frame: 60 bytes */
	{ L3_IP4, L4_UDP, 0, 0, 0, 1472, 0 },	/* 1514 bytes */
	{ L3_IP6, L4_TCP, 0, 0, 0, 1440, 0 },	/* 1514 bytes */
	{ L3_IP4, L4_UDP, 0, 0, 0, 3400, 0 },	/* within a page */
	{ L3_IP4, L4_UDP, 0, 0, 0, 3900, 0 },	/* beyond what a test run takes */
	{ L3_IP4, L4_UDP, 0, 0, 0, 8972, 0 },	/* jumbo */
};

/*
 * Frames of the XDP test run's size classes: the last one the linear part holds, one byte into
 * a fragment, a page, jumbo frames, 64 KiB and the kernel's largest frame (17 fragments: its
 * IPv4 datagram has the largest total length, 65535, and trailing bytes fill the rest). tc
 * and socket filter test runs refuse those beyond their page as the kernel does.
 */
static const struct {
	enum l3 l3;
	int l4;
	unsigned int frame;
} sized[] = {
	{ L3_IP4, L4_UDP, 3520 },
	{ L3_IP6, L4_UDP, 3521 },
	{ L3_IP6, L4_TCP, 4096 },
	{ L3_IP4, L4_TCP, 8000 },
	{ L3_IP6, L4_UDP, 9000 },
	{ L3_IP4, L4_UDP, 65535 },
	{ L3_IP4, L4_UDP, MAX_FRAME },
};

/* A frame of exactly sized[i].frame bytes. */
static unsigned int build_sized(unsigned int i, unsigned char *f, unsigned int seed)
{
	unsigned int l3 = sized[i].l3 == L3_IP4 ? 20 : 40, l4 = sized[i].l4 == L4_TCP ? 20 : 8;
	unsigned int payload = sized[i].frame - 14 - l3 - l4;
	/* IPv4's total length counts its header, IPv6's payload length does not */
	unsigned int ip_max = 65535 - (sized[i].l3 == L3_IP4 ? l3 : 0) - l4;
	struct pkt_spec s = { sized[i].l3, sized[i].l4, 0, 0, 0, 0, 0 };
	unsigned int len;

	s.payload = payload < ip_max ? payload : ip_max;
	len = build(&s, f, seed);
	for (unsigned int j = len; j < sized[i].frame; j++)
		f[j] = (unsigned char)(j * 13 + j / 4093);
	return sized[i].frame;
}

int pktset_write_pcap(const char *path, unsigned int max_len)
{
	static unsigned char frame[MAX_FRAME];
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, SNAPLEN);
	unsigned int nspecs = sizeof(specs) / sizeof(specs[0]);
	pcap_dumper_t *dump;
	int n = 0;

	if (!dead)
		return -ENOMEM;
	dump = pcap_dump_open(dead, path);
	if (!dump) {
		pcap_close(dead);
		return -EIO;
	}
	for (unsigned int i = 0; i < nspecs + sizeof(sized) / sizeof(sized[0]); i++) {
		struct pcap_pkthdr h = { .ts = { .tv_sec = 1, .tv_usec = (int)i } };

		h.caplen = h.len = i < nspecs ? build(&specs[i], frame, i) :
						build_sized(i - nspecs, frame, i);
		if (max_len && h.caplen > max_len)
			continue;
		pcap_dump((unsigned char *)dump, &h, frame);
		n++;
	}
	pcap_dump_close(dump);
	pcap_close(dead);
	return n;
}
