// SPDX-License-Identifier: GPL-2.0
/*
 * VXLAN (RFC 7348), the kernel's drivers/net/vxlan in external mode: Ethernet frames over UDP
 * (port 4789), IPv4 or IPv6 as the key says, an 8-byte header with the I flag and the key's id
 * as VNI (its low 24 bits). A received header must have the I flag and nothing else set, as
 * vxlan_rcv wants without extensions; the VNI becomes the key's id, TUNNEL_KEY its flag.
 */
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_tunnel.h>

#include "net/tunnel.h"

#define VXLAN_HLEN 8
#define VXLAN_HF_VNI htonl(0x08000000)

static u32 vxlan_hdr_len(const struct nb_tunnel *t, const struct nb_tun_info *info)
{
	return VXLAN_HLEN;
}

static void vxlan_build(struct nb_tunnel *t, u8 *hdr, u32 hdr_len, const struct nb_tun_info *info,
			__be16 inner, const u8 *payload, u32 payload_len)
{
	__be32 flags = VXLAN_HF_VNI;
	__be32 vni = htonl((u32)(be64toh(info->key.tun_id) & 0xffffff) << 8);

	memcpy(hdr, &flags, 4);
	memcpy(hdr + 4, &vni, 4);
}

static int vxlan_parse(const struct nb_tunnel *t, const u8 *hdr, u32 len,
		       struct nb_tun_info *info, __be16 *inner)
{
	__be32 flags, vni;

	if (len < VXLAN_HLEN)
		return -1;
	memcpy(&flags, hdr, 4);
	memcpy(&vni, hdr + 4, 4);
	if (flags != VXLAN_HF_VNI || (vni & htonl(0xff)))
		return -1;
	info->key.tun_id = htobe64(ntohl(vni) >> 8);
	info->key.tun_flags = TUNNEL_KEY;
	*inner = htons(0x6558);
	return VXLAN_HLEN;
}

static struct nb_tunnel_ops vxlan_ops = {
	.kind = "vxlan",
	.l2 = true,
	.family = AF_UNSPEC,
	.ipproto = IPPROTO_UDP,
	.mtu = 1500,
	.port = 4789,
	.hdr_len = vxlan_hdr_len,
	.build = vxlan_build,
	.parse = vxlan_parse,
};

NB_TUNNEL_REGISTER(vxlan_ops);
