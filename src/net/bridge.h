/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bridge device's side of the datapath (include/netbpf/bridge.h has the control side):
 * the port's rx_handler, called by the receive path after the port's tc ingress hook, and the
 * bridge device's transmit.
 */
#ifndef NB_NET_BRIDGE_H
#define NB_NET_BRIDGE_H

#include <netbpf/bridge.h>

#include "common/types.h"

struct nb_dev;
struct nb_pkt;

/* What an rx_handler did with the frame (the kernel's rx_handler_result). */
enum nb_rx_handler_result {
	NB_RX_HANDLER_CONSUMED,	/* taken: forwarded, flooded or dropped */
	NB_RX_HANDLER_ANOTHER,	/* pkt->dev changed (the bridge): receive it again there */
	NB_RX_HANDLER_PASS,	/* not the bridge's: the port's own host side takes it */
};

/* br_handle_frame: for a frame pkt->dev (a bridge port) received. */
enum nb_rx_handler_result nb_br_handle_frame(struct nb_pkt *pkt);
/* br_dev_xmit: the bridge device transmits pkt (pkt->dev is the bridge). Takes the packet. */
int nb_br_dev_xmit(struct nb_dev *dev, struct nb_pkt *pkt);
/* One line for ip link show's port column. */
void nb_br_describe(const struct nb_dev *dev, char *buf, size_t size);
/* The bridge's memory, when its device's last reference goes. */
void nb_br_dev_free(struct nb_dev *dev);

#endif /* NB_NET_BRIDGE_H */
