/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The XDP program an afxdp port puts on its interface: every frame of a queue with a socket
 * goes to that socket (bpf_redirect_map on an XSKMAP indexed by rx_queue_index), the others
 * pass to the stack. netbpf loads its own rather than libxdp's so that it can say it takes
 * frames in pieces (BPF_F_XDP_HAS_FRAGS): without that, a driver caps the MTU at a page (veth
 * refuses the program on a 9000-byte link) and generic XDP makes every super-frame linear.
 */
#ifndef NB_IO_AFXDP_PROG_H
#define NB_IO_AFXDP_PROG_H

#include <stdbool.h>

#include <netbpf/log.h>
#include "common/types.h"

struct xsk_socket;

struct nb_afxdp_prog {
	int prog_fd;		/* -1: none */
	int map_fd;		/* the XSKMAP, one slot per queue id */
	int ifindex;
	u32 xdp_flags;		/* as attached: the mode, and UPDATE_IF_NOEXIST */
	bool frags;		/* loaded with BPF_F_XDP_HAS_FRAGS */
};

/*
 * Load the program (with frags support when frags and the kernel has it) and its XSKMAP of
 * nr_queues slots, and attach it to ifindex in the mode xdp_flags names (0: the driver's where
 * it has one). An interface that has an XDP program already is refused (-EBUSY): netbpf needs
 * it to itself. Errors are named in log, in one line.
 */
int nb_afxdp_prog_attach(struct nb_afxdp_prog *p, int ifindex, const char *ifname,
			 u32 xdp_flags, u32 nr_queues, bool frags, struct nb_log *log);
/* Frames of the socket's queue id go to it from now on. */
int nb_afxdp_prog_add_socket(struct nb_afxdp_prog *p, struct xsk_socket *xsk);
/* Detach the program (only ours: a program someone put there since stays) and close it. */
void nb_afxdp_prog_detach(struct nb_afxdp_prog *p);

#endif /* NB_IO_AFXDP_PROG_H */
