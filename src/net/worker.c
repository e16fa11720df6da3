// SPDX-License-Identifier: GPL-2.0
/*
 * The datapath worker's poll loop: the twin of a NAPI poll (driver rx -> XDP -> netif_receive)
 * followed by net_rx_action's end of round (xdp_do_flush, the backlog, qdisc transmit).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <netbpf/clock.h>
#include <netbpf/percpu.h>
#include <netbpf/worker.h>

#include "bpf/epoch.h"
#include "bpf/timer.h"
#include "common/barrier.h"
#include "io/port.h"
#include "net/core.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/worker.h"

static struct nb_worker_xdp_hooks xdp_hooks;

/* A worker's doorbell: an eventfd it sleeps on beside its queues, rung only while it sleeps. */
struct worker_bell {
	int efd;		/* made by the worker before its first sleep; -1: none yet */
	int sleeping;		/* 1 while in poll() */
} __attribute__((aligned(64)));

static struct worker_bell bells[NB_MAX_CPUS];
static pthread_once_t bells_once = PTHREAD_ONCE_INIT;

static void bells_init(void)
{
	for (unsigned int i = 0; i < NB_MAX_CPUS; i++)
		bells[i].efd = -1;
	/* A timer queued on a sleeping worker's CPU wakes it: its sleep ends at the earliest. */
	nb_timers_set_kick(nb_worker_kick);
}

/* The most queues one sleep watches (more than any worker owns in practice). */
#define SLEEP_MAX_FDS 256

bool nb_worker_sleep(const struct nb_worker_queue *queues, unsigned int n, int timeout_ms,
		     bool (*wake)(void *arg), void *arg)
{
	struct worker_bell *bell;
	struct pollfd pfd[SLEEP_MAX_FDS + 1];
	unsigned int cnt = 0;
	u64 val;

	pthread_once(&bells_once, bells_init);
	bell = &bells[nb_this_cpu()];
	if (bell->efd < 0) {
		bell->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (bell->efd < 0)
			return false;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct nb_port *port = queues[i].dev->port;
		int r;

		if (!port || !READ_ONCE(queues[i].dev->up))
			continue;
		if (cnt == SLEEP_MAX_FDS)
			return false;
		r = nb_port_rx_queue_wait(port, queues[i].queue, &pfd[cnt]);
		if (r < 0)
			return false;
		cnt += r > 0;
	}
	pfd[cnt] = (struct pollfd){ .fd = bell->efd, .events = POLLIN };
	/*
	 * Shown asleep first, then the other work looked for: whoever makes work and then finds
	 * the worker asleep rings, and a ring before poll() stays in the eventfd.
	 */
	__atomic_store_n(&bell->sleeping, 1, __ATOMIC_SEQ_CST);
	if ((wake && wake(arg)) || (xdp_hooks.pending && xdp_hooks.pending())) {
		__atomic_store_n(&bell->sleeping, 0, __ATOMIC_RELEASE);
		return false;
	}
	nb_epoch_offline();
	poll(pfd, cnt + 1, timeout_ms);
	nb_epoch_online();
	__atomic_store_n(&bell->sleeping, 0, __ATOMIC_RELEASE);
	if (pfd[cnt].revents & POLLIN) {
		ssize_t got = read(bell->efd, &val, sizeof(val));

		(void)got;
	}
	return true;
}

void nb_worker_kick(unsigned int cpu)
{
	struct worker_bell *bell = &bells[cpu % NB_MAX_CPUS];
	u64 one = 1;

	pthread_once(&bells_once, bells_init);
	/* the work the caller made is visible before it looks (the sleeper does the reverse) */
	smp_mb();
	if (__atomic_load_n(&bell->sleeping, __ATOMIC_SEQ_CST) && bell->efd >= 0) {
		ssize_t put = write(bell->efd, &one, sizeof(one));

		(void)put;
	}
}

bool nb_worker_sleeping(unsigned int cpu)
{
	return __atomic_load_n(&bells[cpu % NB_MAX_CPUS].sleeping, __ATOMIC_ACQUIRE);
}
static __thread u64 burst_coarse_ns;	/* 0: not in a burst */

u64 nb_worker_coarse_ns(void)
{
	return burst_coarse_ns ?: nb_ktime_get_coarse_ns();
}

void nb_worker_set_xdp_hooks(const struct nb_worker_xdp_hooks *hooks)
{
	xdp_hooks = *hooks;
}

/* [XDP hook] the XDP layer keeps the XDP_PASS packets and takes the others */
static unsigned int xdp_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n)
{
	return xdp_hooks.burst ? xdp_hooks.burst(dev, pkts, n) : n;
}

/* The frames XDP left to the stack: parsed now (nb_dev_rx_poll left them unparsed), then in. */
static void netif_burst(struct nb_pkt **pkts, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		if (i + 1 < n)
			__builtin_prefetch(pkts[i + 1]->data);
		nb_dev_rx_stack_prepare(pkts[i]);
		nb_netif_receive(pkts[i]);
	}
}

void nb_worker_receive_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n)
{
	burst_coarse_ns = nb_ktime_get_coarse_ns();
	if (likely(!nb_deterministic_enabled())) {
		netif_burst(pkts, xdp_burst(dev, pkts, n));
	} else {
		/*
		 * The deterministic mode's virtual clock moves a step per received packet and
		 * stands still while that packet's XDP and tc programs run: one at a time.
		 */
		for (unsigned int i = 0; i < n; i++) {
			nb_clock_packet_tick();
			/* the timers due at this packet's time fire before it, in every replay */
			nb_timers_run(nb_this_cpu());
			netif_burst(&pkts[i], xdp_burst(dev, &pkts[i], 1));
		}
	}
	burst_coarse_ns = 0;
}

void nb_worker_rx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n)
{
	n = nb_dev_rx_taken(dev, pkts, n);
	if (n)
		nb_worker_receive_burst(dev, pkts, n);
}

void nb_worker_flush(void)
{
	/* [XDP flush] the per-CPU bulk queues of XDP redirects go out first */
	if (xdp_hooks.flush)
		xdp_hooks.flush();
	nb_net_flush();
	/* [timers] the callbacks due on this CPU, between two rounds of every worker loop */
	nb_timers_run(nb_this_cpu());
}

unsigned int nb_worker_poll(struct nb_dev *const *devs, unsigned int n)
{
	struct nb_pkt *pkts[NB_BURST];
	unsigned int total = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int got = nb_dev_rx_poll(devs[i], NB_DEV_RX_ALL_QUEUES, pkts, NB_BURST);

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
