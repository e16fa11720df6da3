// SPDX-License-Identifier: GPL-2.0
/*
 * VXLAN (RFC 7348), the kernel's drivers/net/vxlan in external mode: Ethernet frames over UDP
 * (port 4789), IPv4 or IPv6 as the key says, an 8-byte header with the I flag and the key's id
 * as VNI (its low 24 bits). A received header must have the I flag and nothing else set, as
 * vxlan_rcv wants without extensions; the VNI becomes the key's id, TUNNEL_KEY its flag.
 *
 * With gbp (Group Based Policy, draft-smith-vxlan-group-policy), the key's option when it has
 * TUNNEL_VXLAN_OPT is a struct vxlan_metadata, its u32 gbp in host order: a non-zero one sets
 * the G flag, the policy id (its low 16 bits) in the first word's last two bytes, and the D
 * and A flags from its "don't learn" and "policy applied" bits. On receive the first word's
 * low 24 bits are the extension's, whatever they hold; with the G flag they become the key's
 * option, with TUNNEL_VXLAN_OPT.
 */
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_tunnel.h>

#include "net/tunnel.h"

#define VXLAN_HLEN 8
#define VXLAN_HF_VNI htonl(0x08000000)
#define VXLAN_HF_GBP htonl(0x80000000)
/* The bits of the first word GBP gives meaning to: G and the low 24 (VXLAN_GBP_USED_BITS). */
#define VXLAN_GBP_USED_BITS (VXLAN_HF_GBP | htonl(0xffffff))
/* struct vxlan_metadata's gbp, and the header's flags they go to (byte 1) */
#define VXLAN_GBP_DONT_LEARN (1U << 22)
#define VXLAN_GBP_POLICY_APPLIED (1U << 19)
#define VXLAN_GBP_ID_MASK 0xffffU
#define VXLAN_GBP_D 0x40
#define VXLAN_GBP_A 0x08

static u32 vxlan_hdr_len(const struct nb_tunnel *t, const struct nb_tun_info *info)
{
	return VXLAN_HLEN;
}

static void vxlan_build(struct nb_tunnel *t, u8 *hdr, u32 hdr_len, const struct nb_tun_info *info,
			__be16 inner, const u8 *payload, u32 payload_len)
{
	__be32 flags = VXLAN_HF_VNI;
	__be32 vni = htonl((u32)(be64toh(info->key.tun_id) & 0xffffff) << 8);

	u32 gbp = 0;

	if (t->gbp && (info->key.tun_flags & TUNNEL_VXLAN_OPT) && info->options_len >= 4)
		memcpy(&gbp, info->options, sizeof(gbp));
	if (gbp)
		flags |= VXLAN_HF_GBP;
	memcpy(hdr, &flags, 4);
	memcpy(hdr + 4, &vni, 4);
	if (gbp) {
		hdr[1] = (gbp & VXLAN_GBP_DONT_LEARN ? VXLAN_GBP_D : 0) |
			 (gbp & VXLAN_GBP_POLICY_APPLIED ? VXLAN_GBP_A : 0);
		hdr[2] = (u8)((gbp & VXLAN_GBP_ID_MASK) >> 8);
		hdr[3] = (u8)gbp;
	}
}

static int vxlan_parse(const struct nb_tunnel *t, const u8 *hdr, u32 len,
		       struct nb_tun_info *info, __be16 *inner)
{
	__be32 flags, vni;

	if (len < VXLAN_HLEN)
		return -1;
	memcpy(&flags, hdr, 4);
	memcpy(&vni, hdr + 4, 4);
	if (!(flags & VXLAN_HF_VNI))
		return -1;
	info->key.tun_id = htobe64(ntohl(vni) >> 8);
	info->key.tun_flags = TUNNEL_KEY;
	if (t->gbp) {
		if (flags & VXLAN_HF_GBP) {
			u32 gbp = (u32)hdr[2] << 8 | hdr[3];

			gbp |= hdr[1] & VXLAN_GBP_D ? VXLAN_GBP_DONT_LEARN : 0;
			gbp |= hdr[1] & VXLAN_GBP_A ? VXLAN_GBP_POLICY_APPLIED : 0;
			memcpy(info->options, &gbp, sizeof(gbp));
			info->options_len = sizeof(gbp);
			info->key.tun_flags |= TUNNEL_VXLAN_OPT;
		}
		flags &= ~VXLAN_GBP_USED_BITS;
	}
	/* anything left over is a malformed header (vxlan_rcv's unparsed bits) */
	if ((flags & ~VXLAN_HF_VNI) || (vni & htonl(0xff)))
		return -1;
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
