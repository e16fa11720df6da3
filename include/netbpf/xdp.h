/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XDP on a device: the hook that runs first on every frame the device receives, as the kernel's
 * generic XDP does, and its counters. The calls map onto ip link's words:
 *
 *   ip link set dev X xdp obj F sec S          nb_dev_xdp_attach(dev, prog,
 *                                                  XDP_FLAGS_UPDATE_IF_NOEXIST, log)
 *   ip -force link set dev X xdpgeneric ...    nb_dev_xdp_attach(dev, prog,
 *                                                  XDP_FLAGS_SKB_MODE, log)
 *   ip link set dev X xdp off                  nb_dev_xdp_attach(dev, NULL, 0, log)
 *   ip link show dev X (prog/xdp id N)         nb_dev_xdp_prog(dev, &flags)
 *
 * flags are the uapi XDP_FLAGS_* of <linux/if_link.h>.
 */
#ifndef NETBPF_XDP_H
#define NETBPF_XDP_H

#include <stdbool.h>
#include <linux/types.h>
#include <linux/if_link.h>

#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_dev;
struct nb_prog;

/* Frames a redirect bulk queue holds before it transmits (the kernel's DEV_MAP_BULK_SIZE). */
#define NB_XDP_BULK_SIZE 16

/*
 * The XDP counters of a device, summed over the workers. The hook counts what the device's
 * program decided on received frames; the transmit side counts what left through the device's
 * bulk queue (the sent/drops/err numbers of the kernel's xdp_devmap_xmit trace point).
 */
struct nb_xdp_stats {
	__u64 run;			/* frames the program ran on */
	__u64 aborted;			/* XDP_ABORTED */
	__u64 drop;			/* XDP_DROP */
	__u64 pass;			/* XDP_PASS */
	__u64 tx;			/* XDP_TX queued */
	__u64 redirect;			/* XDP_REDIRECT queued */
	__u64 invalid;			/* verdicts that are no XDP action */
	__u64 redirect_err;		/* XDP_TX / XDP_REDIRECT whose target refused the frame */
	/* transmit side */
	__u64 xmit_calls;		/* bulk transmits (bq_xmit_all with frames) */
	__u64 xmit_sent;
	__u64 xmit_drops;		/* frames a transmit did not send (devmap prog or port) */
	__u64 xmit_errors;		/* transmits that failed as a whole (device down) */
	__u64 xmit_prog_drops;		/* of xmit_drops: dropped by the devmap program */
	__u64 flush_sizes[NB_XDP_BULK_SIZE + 1];	/* transmits by frame count */
};

/*
 * Attach, replace or remove (prog NULL) the XDP program of dev, as dev_change_xdp_fd does.
 * XDP_FLAGS_UPDATE_IF_NOEXIST refuses to replace an attached program (-EBUSY; ip sets it unless
 * -force is given), XDP_FLAGS_SKB_MODE / XDP_FLAGS_DRV_MODE name the mode (both run the same
 * hook here; a program attached in one mode must be removed before the other is used),
 * XDP_FLAGS_HW_MODE is refused. The device takes its own reference on prog.
 */
int nb_dev_xdp_attach(struct nb_dev *dev, struct nb_prog *prog, __u32 flags, struct nb_log *log);
/*
 * XDP_FLAGS_REPLACE (dev_change_xdp_fd's expected_fd): the same, done only while expected is the
 * attached program (NULL: none is); -EEXIST otherwise. The control plane changes programs one
 * at a time (the rtnl twin), so what was checked is what is replaced.
 */
int nb_dev_xdp_replace(struct nb_dev *dev, struct nb_prog *prog, struct nb_prog *expected,
		       __u32 flags, struct nb_log *log);
/* The attached program (a new reference) or NULL; *flags receives the attach flags. */
struct nb_prog *nb_dev_xdp_prog(struct nb_dev *dev, __u32 *flags);

/* Turn bulking off (each redirected frame transmitted at once) or back on. */
int nb_dev_xdp_set_bulk(struct nb_dev *dev, bool on);
/* The sum of every worker's XDP counters of dev; zeros when XDP never ran there. */
void nb_dev_xdp_stats_read(struct nb_dev *dev, struct nb_xdp_stats *total);
void nb_dev_xdp_stats_reset(struct nb_dev *dev);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_XDP_H */
