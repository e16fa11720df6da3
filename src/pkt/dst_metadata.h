/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunnel metadata carried by a packet, the twin of the kernel's metadata_dst with its
 * ip_tunnel_info (include/net/dst_metadata.h, ip_tunnels.h): what a collect-metadata tunnel
 * device puts on a packet it decapsulates (RX) and what bpf_skb_set_tunnel_key puts on a packet
 * for such a device to encapsulate by (TX). A packet holds a reference (pkt->tun_md); clones
 * share it, as skbs share their dst.
 *
 * Flags are the uapi TUNNEL_* values of <linux/if_tunnel.h> (big endian 16 bits), which is what
 * bpf_skb_get_tunnel_key's BPF_F_TUNINFO_FLAGS hands out.
 */
#ifndef NB_PKT_DST_METADATA_H
#define NB_PKT_DST_METADATA_H

#include <netinet/in.h>

#include "common/types.h"

struct nb_pkt;

/* ip_tunnel_info.mode */
#define NB_TUN_INFO_TX	 0x01	/* to encapsulate by (not from a decapsulation) */
#define NB_TUN_INFO_IPV6 0x02	/* outer addresses are IPv6 */

/* IP_TUNNEL_OPTS_MAX: options_len is a byte. */
#define NB_TUN_OPTS_MAX 255

/* struct ip_tunnel_key */
struct nb_tun_key {
	__be64 tun_id;
	union {
		struct {
			__be32 src, dst;
		} ipv4;
		struct {
			struct in6_addr src, dst;
		} ipv6;
	} u;
	__be16 tun_flags;	/* TUNNEL_* */
	u8 tos;
	u8 ttl;
	__be32 label;		/* IPv6 flow label */
	__be16 tp_src, tp_dst;	/* UDP ports */
};

/* struct ip_tunnel_info with its options */
struct nb_tun_info {
	struct nb_tun_key key;
	u8 mode;
	u8 options_len;
	u8 options[NB_TUN_OPTS_MAX + 1] __attribute__((aligned(8)));
};

struct nb_tun_md {
	int refcnt;
	/*
	 * Made by bpf_skb_set_tunnel_key in this packet's program: the kernel's per-CPU
	 * metadata dst, the only one bpf_skb_set_tunnel_opt may add options to.
	 */
	bool from_helper;
	struct nb_tun_info info;
	struct nb_tun_md *next;	/* free list */
};

/* A zeroed metadata object with one reference, or NULL. */
struct nb_tun_md *nb_tun_md_alloc(void);
struct nb_tun_md *nb_tun_md_get(struct nb_tun_md *md);
void nb_tun_md_put(struct nb_tun_md *md);
/* Objects handed out and not yet put back (tests: nothing may leak). */
long nb_tun_md_outstanding(void);

/* The packet's tunnel info (skb_tunnel_info), NULL when it has none. */
static inline struct nb_tun_info *nb_pkt_tun_info(const struct nb_pkt *pkt);
/* skb_dst_drop for the tunnel metadata. */
void nb_pkt_tun_drop(struct nb_pkt *pkt);
/* ip_tunnel_info_af */
static inline int nb_tun_info_af(const struct nb_tun_info *info)
{
	return info->mode & NB_TUN_INFO_IPV6 ? AF_INET6 : AF_INET;
}

#include "pkt/pkt.h"

static inline struct nb_tun_info *nb_pkt_tun_info(const struct nb_pkt *pkt)
{
	return pkt->tun_md ? &pkt->tun_md->info : NULL;
}

#endif /* NB_PKT_DST_METADATA_H */
