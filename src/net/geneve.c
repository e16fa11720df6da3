// SPDX-License-Identifier: GPL-2.0
/*
 * Geneve (RFC 8926), the kernel's drivers/net/geneve.c in external mode: Ethernet frames over
 * UDP (port 6081), an 8-byte header (version 0, options length in words, the O and C flags
 * from TUNNEL_OAM and TUNNEL_CRIT_OPT, protocol 0x6558, VNI from the key's id) followed by the
 * key's options when it has TUNNEL_GENEVE_OPT. A received header of another version or
 * protocol is refused; its options become the key's, with TUNNEL_GENEVE_OPT.
 */
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_tunnel.h>

#include "net/tunnel.h"

#define GENEVE_HLEN 8
#define GENEVE_OAM 0x80
#define GENEVE_CRIT 0x40
#define GENEVE_OPTS_MAX (0x3f * 4)

static u32 geneve_opts_len(const struct nb_tun_info *info)
{
	if (!(info->key.tun_flags & TUNNEL_GENEVE_OPT))
		return 0;
	return info->options_len > GENEVE_OPTS_MAX ? GENEVE_OPTS_MAX : info->options_len & ~3u;
}

static u32 geneve_hdr_len(const struct nb_tunnel *t, const struct nb_tun_info *info)
{
	return GENEVE_HLEN + geneve_opts_len(info);
}

static void geneve_build(struct nb_tunnel *t, u8 *hdr, u32 hdr_len,
			 const struct nb_tun_info *info, __be16 inner, const u8 *payload,
			 u32 payload_len)
{
	u32 opts = geneve_opts_len(info), id = (u32)be64toh(info->key.tun_id);

	hdr[0] = (u8)(opts / 4);
	hdr[1] = (info->key.tun_flags & TUNNEL_OAM ? GENEVE_OAM : 0) |
		 (info->key.tun_flags & TUNNEL_CRIT_OPT ? GENEVE_CRIT : 0);
	hdr[2] = 0x65;
	hdr[3] = 0x58;
	hdr[4] = (u8)(id >> 16);
	hdr[5] = (u8)(id >> 8);
	hdr[6] = (u8)id;
	hdr[7] = 0;
	memcpy(hdr + GENEVE_HLEN, info->options, opts);
}

static int geneve_parse(const struct nb_tunnel *t, const u8 *hdr, u32 len,
			struct nb_tun_info *info, __be16 *inner)
{
	u32 opts;

	if (len < GENEVE_HLEN || (hdr[0] >> 6) || hdr[2] != 0x65 || hdr[3] != 0x58)
		return -1;
	opts = (hdr[0] & 0x3f) * 4u;
	if (len < GENEVE_HLEN + opts)
		return -1;
	info->key.tun_id = htobe64((u64)hdr[4] << 16 | (u64)hdr[5] << 8 | hdr[6]);
	info->key.tun_flags = TUNNEL_KEY | (hdr[1] & GENEVE_OAM ? TUNNEL_OAM : 0) |
			      (hdr[1] & GENEVE_CRIT ? TUNNEL_CRIT_OPT : 0);
	info->options_len = (u8)opts;
	if (opts) {
		memcpy(info->options, hdr + GENEVE_HLEN, opts);
		info->key.tun_flags |= TUNNEL_GENEVE_OPT;
	}
	*inner = htons(0x6558);
	return (int)(GENEVE_HLEN + opts);
}

static struct nb_tunnel_ops geneve_ops = {
	.kind = "geneve",
	.l2 = true,
	.family = AF_UNSPEC,
	.ipproto = IPPROTO_UDP,
	.mtu = 1500,
	.port = 6081,
	.hdr_len = geneve_hdr_len,
	.build = geneve_build,
	.parse = geneve_parse,
};

NB_TUNNEL_REGISTER(geneve_ops);
