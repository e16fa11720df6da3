/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link-layer receive for a device (the kernel's eth_type_trans, include/linux/etherdevice.h):
 * what the headers of a frame that arrives on a device are. It reads the device's address and
 * link type, so it lives with the devices rather than with the packet (src/pkt).
 */
#ifndef NB_NET_ETH_H
#define NB_NET_ETH_H

struct nb_pkt;
struct nb_dev;

/*
 * Set the mac and network headers, protocol and pkt_type of an Ethernet frame at data
 * (eth_type_trans; pkt_type is relative to dev's MAC, PACKET_HOST for unicast without dev).
 * Unlike the kernel, data stays at the mac header: tc programs see the frame from its first
 * byte, as the kernel shows it to them.
 */
void nb_eth_type_trans(struct nb_pkt *pkt, const struct nb_dev *dev);

/*
 * eth_type_trans for devices with an Ethernet header; for those without one (IP tunnels), the
 * packet is its network header from data on and the protocol comes from the IP version.
 */
void nb_dev_type_trans(struct nb_pkt *pkt, const struct nb_dev *dev);

#endif /* NB_NET_ETH_H */
