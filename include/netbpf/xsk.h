/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XDP sockets of netbpf, the destinations of an XSKMAP (the twins of AF_XDP sockets): an
 * application makes one bound to a device's receive queue, puts its id into an XSKMAP slot
 * (where the kernel takes the socket's fd), and reads the frames XDP programs redirect to that
 * slot with bpf_redirect_map. As in the kernel's xsk_rcv, a frame reaches the socket only from
 * the device and queue it is bound to (netbpf's datapath receives on queue 0 of each device);
 * a full ring drops the frame, counted by the socket (rx_ring_full) and by the device
 * (redirect error, drop reason xsk_full).
 *
 *	struct nb_xsk *xsk;
 *	nb_xsk_create(dev, 0, NULL, &xsk);
 *	__u32 id = nb_xsk_id(xsk), slot = 0;
 *	nb_map_update_elem(xskmap, &slot, &id, BPF_ANY);
 *	...
 *	n = nb_xsk_recv(xsk, buf, sizeof(buf));	// one frame, or -EAGAIN
 *	nb_xsk_close(xsk);			// also leaves every XSKMAP it is in
 */
#ifndef NETBPF_XSK_H
#define NETBPF_XSK_H

#include <stddef.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_dev;
struct nb_xsk;

struct nb_xsk_opts {
	size_t sz; /* sizeof(struct nb_xsk_opts) */
	/* Frames the socket holds until read (its rx ring): a power of 2; 0: 2048. */
	unsigned int ring_size;
};

/* A socket bound to queue queue_id of dev. -EINVAL for a ring size that is no power of 2. */
int nb_xsk_create(struct nb_dev *dev, __u32 queue_id, const struct nb_xsk_opts *opts,
		  struct nb_xsk **xskp);
/* Leave every XSKMAP, drop what the ring holds, free once no program can see it. */
void nb_xsk_close(struct nb_xsk *xsk);
/* The value an XSKMAP slot takes for this socket. */
__u32 nb_xsk_id(const struct nb_xsk *xsk);
/*
 * Take the oldest frame: its bytes are copied into buf, the length returned; -EAGAIN when
 * the ring is empty, -EMSGSIZE (the frame stays) when size is too small for it.
 */
int nb_xsk_recv(struct nb_xsk *xsk, void *buf, size_t size);

/* The kernel's struct xdp_statistics, as far as receive goes. */
struct nb_xsk_stats {
	__u64 rx_packets;	/* frames delivered into the ring */
	__u64 rx_ring_full;	/* frames dropped because the ring was full */
};

void nb_xsk_stats_read(const struct nb_xsk *xsk, struct nb_xsk_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_XSK_H */
