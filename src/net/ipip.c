// SPDX-License-Identifier: GPL-2.0
/*
 * IP in IP, the kernel's ipip.c (IPv4 in IPv4, protocol 4) and ip6_tunnel.c (IPv4 or IPv6 in
 * IPv6, next header 4 or 41; "mode ipip6" or "ip6ip6" restrict it) in external mode: no header
 * of their own, the key gives the outer addresses, TOS and TTL, and a received packet's key has
 * no id and no flags (ip_tun_rx_dst with none).
 */

#include <netinet/in.h>

#include "net/tunnel.h"

static struct nb_tunnel_ops ipip_ops = {
	.kind = "ipip",
	.link_type = "ipip",
	.family = AF_INET,
	.mtu = 1480,
};

NB_TUNNEL_REGISTER(ipip_ops);

static struct nb_tunnel_ops ip6tnl_ops = {
	.kind = "ip6tnl",
	.link_type = "tunnel6",
	.family = AF_INET6,
	.mtu = 1452,
};

NB_TUNNEL_REGISTER(ip6tnl_ops);
