// SPDX-License-Identifier: GPL-2.0
/* Writing pcapng files (include/netbpf/pcap.h), blocks in the host's byte order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/pcap.h>

#include "common/types.h"

#define BT_SHB 0x0a0d0d0a
#define BT_IDB 0x00000001
#define BT_EPB 0x00000006
#define BYTE_ORDER_MAGIC 0x1a2b3c4d
#define OPT_END 0
#define OPT_IF_NAME 2
#define OPT_IF_TSRESOL 9
#define LINKTYPE_ETHERNET 1
#define MAX_IFACES 256

struct nb_pcapng {
	FILE *f;
	int err;
	unsigned int n_ifaces;
	char *ifaces[MAX_IFACES];
};

static u32 pad4(u32 n)
{
	return (n + 3) & ~3U;
}

static void put(struct nb_pcapng *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->f) != n)
		w->err = -EIO;
}

static void put32(struct nb_pcapng *w, u32 v)
{
	put(w, &v, 4);
}

static void put_padding(struct nb_pcapng *w, u32 len)
{
	static const u8 zeros[4];

	put(w, zeros, pad4(len) - len);
}

static void put_option(struct nb_pcapng *w, u16 code, const void *val, u16 len)
{
	u16 hdr[2] = { code, len };

	put(w, hdr, sizeof(hdr));
	put(w, val, len);
	put_padding(w, len);
}

int nb_pcapng_open(const char *path, struct nb_pcapng **wp, struct nb_log *log)
{
	struct nb_pcapng *w = calloc(1, sizeof(*w));
	u16 version[2] = { 1, 0 };
	u64 section_len = ~0ULL;	/* not given */
	u32 len = 28;
	int err;

	*wp = NULL;
	if (!w)
		return -ENOMEM;
	w->f = fopen(path, "wb");
	if (!w->f) {
		err = -errno;
		nb_log_printf(log, "%s: cannot create: %s", path, strerror(errno));
		free(w);
		return err;
	}
	put32(w, BT_SHB);
	put32(w, len);
	put32(w, BYTE_ORDER_MAGIC);
	put(w, version, sizeof(version));
	put(w, &section_len, 8);
	put32(w, len);
	*wp = w;
	return 0;
}

int nb_pcapng_interface(struct nb_pcapng *w, const char *name)
{
	u16 name_len = (u16)strlen(name);
	u16 link[2] = { LINKTYPE_ETHERNET, 0 };
	u8 tsresol = 9;		/* 10^-9 s */
	u32 len;

	for (unsigned int i = 0; i < w->n_ifaces; i++)
		if (!strcmp(w->ifaces[i], name))
			return (int)i;
	if (w->n_ifaces >= MAX_IFACES || name_len > 255)
		return -E2BIG;
	w->ifaces[w->n_ifaces] = strdup(name);
	if (!w->ifaces[w->n_ifaces])
		return -ENOMEM;
	len = 16 + 4 + pad4(name_len) + 4 + 4 + 4 + 4;
	put32(w, BT_IDB);
	put32(w, len);
	put(w, link, sizeof(link));
	put32(w, 0);		/* snaplen: none */
	put_option(w, OPT_IF_NAME, name, name_len);
	put_option(w, OPT_IF_TSRESOL, &tsresol, 1);
	put_option(w, OPT_END, NULL, 0);
	put32(w, len);
	return (int)w->n_ifaces++;
}

int nb_pcapng_write(struct nb_pcapng *w, int id, const void *data, u32 len, u64 ts_ns)
{
	u32 blen = 32 + pad4(len);

	put32(w, BT_EPB);
	put32(w, blen);
	put32(w, (u32)id);
	put32(w, (u32)(ts_ns >> 32));
	put32(w, (u32)ts_ns);
	put32(w, len);
	put32(w, len);
	put(w, data, len);
	put_padding(w, len);
	put32(w, blen);
	return w->err;
}

int nb_pcapng_close(struct nb_pcapng *w)
{
	int err;

	if (!w)
		return 0;
	err = w->err;
	if (fclose(w->f))
		err = -EIO;
	for (unsigned int i = 0; i < w->n_ifaces; i++)
		free(w->ifaces[i]);
	free(w);
	return err;
}
