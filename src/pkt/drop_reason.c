// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the drop reasons (include/netbpf/pkt.h), as the statistics print them: the
 * kernel's drop_reasons[] beside skb_drop_reason, lower case without the SKB_DROP_REASON_.
 */
#include <netbpf/pkt.h>

static const char *const drop_reason_names[NB_DROP_REASON_MAX] = {
	[NB_DROP_NOT_SPECIFIED] = "not_specified",
	[NB_DROP_DEV_DOWN] = "dev_down",
	[NB_DROP_NO_DEV] = "no_dev",
	[NB_DROP_TC_INGRESS] = "tc_ingress",
	[NB_DROP_TC_EGRESS] = "tc_egress",
	[NB_DROP_XDP] = "xdp_drop",
	[NB_DROP_XDP_ABORTED] = "xdp_aborted",
	[NB_DROP_RECURSION] = "recursion",
	[NB_DROP_TX_ERROR] = "tx_error",
	[NB_DROP_TOO_BIG] = "too_big",
	[NB_DROP_NOMEM] = "nomem",
	[NB_DROP_RX_OVERFLOW] = "rx_overflow",
	[NB_DROP_PORT_RX_NO_BUFFER] = "rx_no_buffer",
	[NB_DROP_PORT_TX_INVALID] = "tx_invalid",
	[NB_DROP_CPUMAP_FULL] = "cpumap_full",
	[NB_DROP_OFFLOAD] = "offload",
	[NB_DROP_XSK_FULL] = "xsk_full",
	[NB_DROP_NO_ROUTE] = "no_route",
	[NB_DROP_NO_NEIGH] = "no_neigh",
	[NB_DROP_TUNNEL_TXINFO] = "tunnel_txinfo",
	[NB_DROP_TUNNEL_HDR] = "tunnel_invalid_hdr",
	[NB_DROP_TUNNEL_ECN] = "ip_tunnel_ecn",
	[NB_DROP_UDP_CSUM] = "udp_csum",
	[NB_DROP_MAC_INVALID_SOURCE] = "mac_invalid_source",
	[NB_DROP_MAC_IEEE_MAC_CONTROL] = "mac_ieee_mac_control",
	[NB_DROP_NO_TX_TARGET] = "no_tx_target",
};

const char *nb_drop_reason_name(enum nb_drop_reason reason)
{
	if ((unsigned int)reason >= NB_DROP_REASON_MAX)
		return "unknown";
	return drop_reason_names[reason];
}
