// SPDX-License-Identifier: GPL-2.0
/* A frame's link-layer headers as the device it arrives on sees them (net/ethernet/eth.c). */
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "net/dev.h"
#include "net/eth.h"
#include "pkt/pkt.h"

void nb_eth_type_trans(struct nb_pkt *pkt, const struct nb_dev *dev)
{
	const struct ethhdr *eth = (const struct ethhdr *)pkt->data;
	u16 proto;

	nb_pkt_reset_mac_header(pkt);
	if (nb_pkt_headlen(pkt) < ETH_HLEN) {
		pkt->network_header = NB_PKT_HDR_UNSET;
		pkt->protocol = 0;
		pkt->pkt_type = PACKET_HOST;
		return;
	}
	nb_pkt_set_network_header(pkt, ETH_HLEN);
	if (eth->h_dest[0] & 1) {
		static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

		pkt->pkt_type = memcmp(eth->h_dest, bcast, ETH_ALEN) ? PACKET_MULTICAST :
								       PACKET_BROADCAST;
	} else if (dev && memcmp(eth->h_dest, dev->addr, ETH_ALEN)) {
		pkt->pkt_type = PACKET_OTHERHOST;
	} else {
		pkt->pkt_type = PACKET_HOST;
	}
	proto = ntohs(eth->h_proto);
	if (proto >= ETH_P_802_3_MIN) {
		pkt->protocol = eth->h_proto;
	} else if (nb_pkt_headlen(pkt) >= ETH_HLEN + 2 &&
		   pkt->data[ETH_HLEN] == 0xff && pkt->data[ETH_HLEN + 1] == 0xff) {
		/* Novell raw IPX over 802.3 */
		pkt->protocol = htons(ETH_P_802_3);
	} else {
		pkt->protocol = htons(ETH_P_802_2);
	}
}

void nb_dev_type_trans(struct nb_pkt *pkt, const struct nb_dev *dev)
{
	if (dev->hard_header_len) {
		nb_eth_type_trans(pkt, dev);
		return;
	}
	nb_pkt_reset_mac_header(pkt);
	nb_pkt_set_network_header(pkt, 0);
	pkt->pkt_type = PACKET_HOST;
	switch (pkt->len ? pkt->data[0] >> 4 : 0) {
	case 4:
		pkt->protocol = htons(ETH_P_IP);
		break;
	case 6:
		pkt->protocol = htons(ETH_P_IPV6);
		break;
	default:
		pkt->protocol = 0;
	}
}
