// SPDX-License-Identifier: GPL-2.0
/*
 * The datapath worker's poll loop: the twin of a NAPI poll (driver rx -> XDP -> netif_receive)
 * followed by net_rx_action's end of round (xdp_do_flush, the backlog, qdisc transmit).
 */
#include <netbpf/clock.h>

#include "bpf/epoch.h"
#include "io/port.h"
#include "net/core.h"
#include "net/dev.h"
#include "net/pkt.h"
#include "net/worker.h"

static struct nb_worker_xdp_hooks xdp_hooks;
static __thread u64 burst_coarse_ns;	/* 0: not in a burst */

u64 nb_worker_coarse_ns(void)
{
	return burst_coarse_ns ?: nb_ktime_get_coarse_ns();
}

void nb_worker_set_xdp_hooks(const struct nb_worker_xdp_hooks *hooks)
{
	xdp_hooks = *hooks;
}

void nb_worker_receive_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n)
{
	/* [XDP hook] the XDP layer keeps the XDP_PASS packets and takes the others */
	if (xdp_hooks.burst)
		n = xdp_hooks.burst(dev, pkts, n);
	burst_coarse_ns = nb_ktime_get_coarse_ns();
	for (unsigned int i = 0; i < n; i++) {
		if (i + 1 < n)
			__builtin_prefetch(pkts[i + 1]->data);
		nb_netif_receive(pkts[i]);
	}
	burst_coarse_ns = 0;
}

void nb_worker_flush(void)
{
	/* [XDP flush] the per-CPU bulk queues of XDP redirects go out first */
	if (xdp_hooks.flush)
		xdp_hooks.flush();
	nb_net_flush();
}

unsigned int nb_worker_poll(struct nb_dev *const *devs, unsigned int n)
{
	struct nb_pkt *pkts[NB_BURST];
	unsigned int total = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int got = nb_dev_rx_burst(devs[i], pkts, NB_BURST);

		if (got)
			nb_worker_receive_burst(devs[i], pkts, got);
		total += got;
	}
	nb_worker_flush();
	return total;
}

void nb_worker_run(struct nb_dev *const *devs, unsigned int n, const volatile bool *stop)
{
	nb_epoch_online();
	for (;;) {
		unsigned int got = nb_worker_poll(devs, n);

		nb_epoch_quiescent();
		if (stop ? __atomic_load_n(stop, __ATOMIC_ACQUIRE) : !got)
			break;
	}
	nb_epoch_offline();
}
