// SPDX-License-Identifier: GPL-2.0
/*
 * GRE (RFC 2784, 2890), the kernel's ip_gre.c and ip6_gre.c in external mode: gre and ip6gre
 * carry IP packets (protocol the inner one's), gretap and ip6gretap Ethernet frames (0x6558).
 * The key's TUNNEL_CSUM, TUNNEL_KEY and TUNNEL_SEQ choose the optional fields: a checksum over
 * the GRE header and payload, the key (the id's low 32 bits), a sequence number counted per
 * device from 0. A received header with routing or a version other than 0 is refused, one
 * with a wrong checksum dropped; its fields become the key's flags, id and nothing else.
 */
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_tunnel.h>

#include "pkt/csum.h"
#include "net/tunnel.h"

static u32 gre_hdr_len(const struct nb_tunnel *t, const struct nb_tun_info *info)
{
	__be16 f = info->key.tun_flags;

	return 4 + (f & TUNNEL_CSUM ? 4 : 0) + (f & TUNNEL_KEY ? 4 : 0) + (f & TUNNEL_SEQ ? 4 : 0);
}

static void gre_build(struct nb_tunnel *t, u8 *hdr, u32 hdr_len, const struct nb_tun_info *info,
		      __be16 inner, const u8 *payload, u32 payload_len)
{
	__be16 f = info->key.tun_flags, flags = 0, proto = t->ops->l2 ? htons(0x6558) : inner;
	u8 *p = hdr + 4, *csum = NULL;

	if (f & TUNNEL_CSUM) {
		flags |= GRE_CSUM;
		csum = p;
		memset(p, 0, 4);
		p += 4;
	}
	if (f & TUNNEL_KEY) {
		__be32 key = htonl((u32)be64toh(info->key.tun_id));

		flags |= GRE_KEY;
		memcpy(p, &key, 4);
		p += 4;
	}
	if (f & TUNNEL_SEQ) {
		__be32 seq = htonl(__atomic_fetch_add(&t->o_seqno, 1, __ATOMIC_RELAXED));

		flags |= GRE_SEQ;
		memcpy(p, &seq, 4);
	}
	memcpy(hdr, &flags, 2);
	memcpy(hdr + 2, &proto, 2);
	if (csum) {
		u16 sum = nb_csum_fold(nb_csum_partial(payload, payload_len,
						       nb_csum_partial(hdr, hdr_len, 0)));

		memcpy(csum, &sum, 2);
	}
}

static int gre_parse(const struct nb_tunnel *t, const u8 *hdr, u32 len, struct nb_tun_info *info,
		     __be16 *inner)
{
	__be16 flags, proto, tun = 0;
	u32 hlen = 4;

	if (len < 4)
		return -1;
	memcpy(&flags, hdr, 2);
	memcpy(&proto, hdr + 2, 2);
	if (flags & (GRE_VERSION | GRE_ROUTING))
		return -1;
	if (flags & GRE_CSUM) {
		if (len < hlen + 4 || nb_csum_fold(nb_csum_partial(hdr, len, 0)))
			return -1;
		tun |= TUNNEL_CSUM;
		hlen += 4;
	}
	if (flags & GRE_KEY) {
		__be32 key;

		if (len < hlen + 4)
			return -1;
		memcpy(&key, hdr + hlen, 4);
		info->key.tun_id = htobe64(ntohl(key));
		tun |= TUNNEL_KEY;
		hlen += 4;
	}
	if (flags & GRE_SEQ) {
		if (len < hlen + 4)
			return -1;
		tun |= TUNNEL_SEQ;
		hlen += 4;
	}
	if (!t->ops->l2 && proto != htons(0x0800) && proto != htons(0x86dd))
		return -1;
	info->key.tun_flags = tun;
	*inner = proto;
	return (int)hlen;
}

#define GRE_OPS(name, kname, ltype, fam, is_l2, m)                                          \
	static struct nb_tunnel_ops name = {                                                \
		.kind = kname,                                                              \
		.link_type = ltype,                                                         \
		.l2 = is_l2,                                                                \
		.family = fam,                                                              \
		.ipproto = IPPROTO_GRE,                                                     \
		.mtu = m,                                                                   \
		.hdr_len = gre_hdr_len,                                                     \
		.build = gre_build,                                                         \
		.parse = gre_parse,                                                         \
	};                                                                                  \
	NB_TUNNEL_REGISTER(name)

/* The kernel's MTUs for these devices without a lower device: 1500 less the headers. */
GRE_OPS(gre_ops, "gre", "gre", AF_INET, false, 1476);
GRE_OPS(gretap_ops, "gretap", NULL, AF_INET, true, 1462);
GRE_OPS(ip6gre_ops, "ip6gre", "gre6", AF_INET6, false, 1448);
GRE_OPS(ip6gretap_ops, "ip6gretap", NULL, AF_INET6, true, 1434);
