// SPDX-License-Identifier: GPL-2.0
/*
 * The receive and transmit paths, twins of the kernel's __netif_receive_skb_core with
 * sch_handle_ingress, __dev_queue_xmit with sch_handle_egress, netif_rx with the backlog, and
 * skb_do_redirect / __bpf_redirect of net/core/filter.c.
 *
 * Differences that come from being in userspace, each kept small:
 * - transmit is deferred: a packet that passed tc egress waits in a per-worker queue for its
 *   device and goes to the port in a burst (nb_dev_xmit_flush), as a qdisc would batch it;
 * - the host side of a device is a counter (host_packets) until TAP ports exist;
 * - packet data always starts at the mac header (pkt.h), so the mac pushes and pulls of the
 *   kernel's ingress path have nothing to do;
 * - redirects into a receive path are bounded per packet (NB_RX_REDIRECT_LIMIT), where the
 *   kernel would loop for ever.
 */
#include <errno.h>
#include <linux/pkt_cls.h>
#include <netbpf/percpu.h>

#include "io/port.h"
#include "net/bridge.h"
#include "net/core.h"
#include "net/dev.h"
#include "pkt/dst_metadata.h"
#include "pkt/pkt.h"
#include "net/redirect.h"
#include "net/tunnel.h"
#include "net/tc/pkt_cls.h"
#include "common/u64_stats.h"

/* Devices with packets waiting to be sent in one worker's burst. */
#define NB_XMIT_QUEUES 8

struct xmit_queue {
	struct nb_dev *dev;
	unsigned int n;
	struct nb_pkt *pkts[NB_BURST];
};

/* One worker's state (the kernel's softnet_data and friends). */
struct softnet_data {
	struct nb_pkt *backlog;
	struct nb_pkt **backlog_tail;
	unsigned int backlog_len;
	unsigned int xmit_recursion;
	unsigned int mirred_nest;
	unsigned int nr_queues;
	struct xmit_queue queues[NB_XMIT_QUEUES];
} __attribute__((aligned(64)));

static struct softnet_data softnet[NB_MAX_CPUS];

static inline struct softnet_data *this_softnet(void)
{
	return &softnet[nb_this_cpu()];
}

struct nb_redirect_info_pcpu nb_redirect_infos[NB_MAX_CPUS];

bool nb_dev_xmit_recursion(void)
{
	return unlikely(this_softnet()->xmit_recursion > NB_XMIT_RECURSION_LIMIT);
}

void nb_dev_xmit_recursion_inc(void)
{
	this_softnet()->xmit_recursion++;
}

void nb_dev_xmit_recursion_dec(void)
{
	this_softnet()->xmit_recursion--;
}

unsigned int nb_mirred_nest_inc(void)
{
	return ++this_softnet()->mirred_nest;
}

void nb_mirred_nest_dec(void)
{
	this_softnet()->mirred_nest--;
}

static struct nb_tcf_block *dev_tc_block(const struct nb_dev *dev, enum nb_tc_hook hook)
{
	struct nb_tc_dev *tc = __atomic_load_n(&dev->tc, __ATOMIC_ACQUIRE);

	return tc ? tc->block[hook] : NULL;
}

/* TC_ACT_STOLEN, QUEUED, TRAP: the packet is taken (consume_skb). */
static void pkt_consume(struct nb_pkt *pkt, struct nb_dev *dev)
{
	nb_u64_stats_inc(&nb_dev_this_stats(dev)->consumed);
	nb_pkt_free(pkt);
}

/*
 * The host side: a counted sink, but for the packets a tunnel device takes (addressed to a
 * local address, carrying its protocol), which go on decapsulated into that device.
 */
static void deliver_to_host(struct nb_pkt *pkt, struct nb_dev *dev)
{
	struct nb_dev_stats *s;

	if (nb_tunnel_rcv(pkt))
		return;
	s = nb_dev_this_stats(dev);

	nb_u64_stats_inc(&s->host_packets);
	nb_u64_stats_add(&s->host_bytes, pkt->len);
	nb_pkt_free(pkt);
}

/*
 * sch_handle_ingress: NULL when the hook took the packet (redirected, dropped, consumed), else
 * the packet goes on. *another asks for a new receive round (redirect to a peer).
 */
static struct nb_pkt *sch_handle_ingress(struct nb_pkt *pkt, int *ret, bool *another)
{
	struct nb_dev *dev = pkt->dev;
	struct nb_tcf_block *block = dev_tc_block(dev, NB_TC_INGRESS);

	if (!block)
		return pkt;
	pkt->qdisc_cb.pkt_len = pkt->len;
	pkt->tc_at_ingress = 1;
	switch (nb_tc_run(block, pkt)) {
	case TC_ACT_REDIRECT:
		if (nb_skb_do_redirect(pkt) == -EAGAIN) {
			*another = true;
			return pkt;
		}
		*ret = NB_NET_RX_SUCCESS;
		return NULL;
	case TC_ACT_SHOT:
		nb_pkt_drop(pkt, dev, NB_DROP_TC_INGRESS);
		*ret = NB_NET_RX_DROP;
		return NULL;
	case TC_ACT_STOLEN:
	case TC_ACT_QUEUED:
	case TC_ACT_TRAP:
		pkt_consume(pkt, dev);
		*ret = NB_NET_RX_SUCCESS;
		return NULL;
	case NB_TC_ACT_CONSUMED:
		*ret = NB_NET_RX_SUCCESS;
		return NULL;
	}
	return pkt;
}

int nb_netif_receive(struct nb_pkt *pkt)
{
	int ret = NB_NET_RX_SUCCESS;
	bool another;

another_round:
	another = false;
	pkt->skb_iif = pkt->dev->ifindex;
	pkt = sch_handle_ingress(pkt, &ret, &another);
	if (another)
		goto another_round;
	if (!pkt)
		return ret;
	/* the rx_handler of a bridge port, after the port's own tc ingress as in the kernel */
	if (pkt->dev->br_port) {
		switch (nb_br_handle_frame(pkt)) {
		case NB_RX_HANDLER_CONSUMED:
			return NB_NET_RX_SUCCESS;
		case NB_RX_HANDLER_ANOTHER:
			goto another_round;
		case NB_RX_HANDLER_PASS:
			break;
		}
	}
	deliver_to_host(pkt, pkt->dev);
	return NB_NET_RX_SUCCESS;
}

int nb_netif_rx(struct nb_pkt *pkt)
{
	struct softnet_data *sd = this_softnet();

	if (!READ_ONCE(pkt->dev->up)) {
		nb_pkt_drop(pkt, pkt->dev, NB_DROP_DEV_DOWN);
		return NB_NET_RX_DROP;
	}
	/* every trip through the backlog is a redirect hop: loops end here */
	if (++pkt->redirect_depth > NB_RX_REDIRECT_LIMIT) {
		nb_pkt_drop(pkt, pkt->dev, NB_DROP_RECURSION);
		return NB_NET_RX_DROP;
	}
	if (sd->backlog_len >= NB_BACKLOG_MAX) {
		nb_pkt_drop(pkt, pkt->dev, NB_DROP_NOMEM);
		return NB_NET_RX_DROP;
	}
	if (!sd->backlog)
		sd->backlog_tail = &sd->backlog;
	pkt->next = NULL;
	*sd->backlog_tail = pkt;
	sd->backlog_tail = &pkt->next;
	sd->backlog_len++;
	return NB_NET_RX_SUCCESS;
}

/* process_backlog: run the receive path of every queued packet, new arrivals included. */
static void process_backlog(void)
{
	struct softnet_data *sd = this_softnet();

	while (sd->backlog) {
		struct nb_pkt *pkt = sd->backlog;

		sd->backlog = pkt->next;
		sd->backlog_len--;
		pkt->next = NULL;
		nb_netif_receive(pkt);
	}
}

void nb_dev_xmit_flush(void)
{
	struct softnet_data *sd = this_softnet();

	for (unsigned int i = 0; i < sd->nr_queues; i++) {
		struct xmit_queue *q = &sd->queues[i];

		if (q->n)
			nb_dev_tx_burst(q->dev, q->pkts, q->n);
		q->n = 0;
	}
	sd->nr_queues = 0;
}

void nb_net_flush(void)
{
	process_backlog();
	nb_dev_xmit_flush();
}

/* Queue pkt for its device's port; a full burst goes at once. */
static void xmit_enqueue(struct nb_dev *dev, struct nb_pkt *pkt)
{
	struct softnet_data *sd = this_softnet();
	struct xmit_queue *q = NULL;

	for (unsigned int i = 0; i < sd->nr_queues; i++) {
		if (sd->queues[i].dev == dev) {
			q = &sd->queues[i];
			break;
		}
	}
	if (!q) {
		if (sd->nr_queues == NB_XMIT_QUEUES)
			nb_dev_xmit_flush();
		q = &sd->queues[sd->nr_queues++];
		q->dev = dev;
		q->n = 0;
	}
	q->pkts[q->n++] = pkt;
	if (q->n == NB_BURST) {
		nb_dev_tx_burst(dev, q->pkts, q->n);
		q->n = 0;
	}
}

/* sch_handle_egress: NULL when the hook took the packet. */
static struct nb_pkt *sch_handle_egress(struct nb_pkt *pkt, int *ret)
{
	struct nb_dev *dev = pkt->dev;
	struct nb_tcf_block *block = dev_tc_block(dev, NB_TC_EGRESS);

	if (!block)
		return pkt;
	switch (nb_tc_run(block, pkt)) {
	case TC_ACT_REDIRECT:
		nb_skb_do_redirect(pkt);
		*ret = NB_NET_XMIT_SUCCESS;
		return NULL;
	case TC_ACT_SHOT:
		nb_pkt_drop(pkt, dev, NB_DROP_TC_EGRESS);
		*ret = NB_NET_XMIT_DROP;
		return NULL;
	case TC_ACT_STOLEN:
	case TC_ACT_QUEUED:
	case TC_ACT_TRAP:
		pkt_consume(pkt, dev);
		*ret = NB_NET_XMIT_SUCCESS;
		return NULL;
	case NB_TC_ACT_CONSUMED:
		*ret = NB_NET_XMIT_SUCCESS;
		return NULL;
	}
	return pkt;
}

int nb_dev_queue_xmit(struct nb_pkt *pkt)
{
	struct nb_dev *dev = pkt->dev;
	int ret = NB_NET_XMIT_SUCCESS;

	nb_pkt_reset_mac_header(pkt);
	pkt->qdisc_cb.pkt_len = pkt->len;
	pkt->tc_at_ingress = 0;
	pkt = sch_handle_egress(pkt, &ret);
	if (!pkt)
		return ret;
	if (!READ_ONCE(dev->up)) {
		nb_pkt_drop(pkt, dev, NB_DROP_DEV_DOWN);
		return -ENETDOWN;
	}
	/* a tunnel device sends at once: through another device, with a header in front */
	if (dev->tunnel)
		return nb_tunnel_xmit(dev, pkt);
	/* a bridge sends through its ports, by its forwarding database */
	if (dev->br)
		return nb_br_dev_xmit(dev, pkt);
	xmit_enqueue(dev, pkt);
	return NB_NET_XMIT_SUCCESS;
}

/* __bpf_rx_skb: into dev's receive path, through the backlog. */
static int bpf_rx_pkt(struct nb_dev *dev, struct nb_pkt *pkt)
{
	/* ____dev_forward_skb: a down device counts the drop as its own */
	if (!READ_ONCE(dev->up)) {
		nb_pkt_drop(pkt, dev, NB_DROP_DEV_DOWN);
		return NB_NET_RX_DROP;
	}
	/* skb_scrub_packet within one namespace (the dst goes), then eth_type_trans */
	pkt->skb_iif = 0;
	pkt->priority = 0;
	pkt->dev = dev;
	nb_pkt_tun_drop(pkt);
	nb_dev_type_trans(pkt, dev);
	return nb_netif_rx(pkt);
}

/* __bpf_tx_skb: into dev's transmit path, with the nesting limit. */
static int bpf_tx_pkt(struct nb_dev *dev, struct nb_pkt *pkt)
{
	int ret;

	if (nb_dev_xmit_recursion()) {
		nb_pkt_drop(pkt, dev, NB_DROP_RECURSION);
		return -ENETDOWN;
	}
	pkt->dev = dev;
	if (!pkt->tstamp_type)
		pkt->tstamp = 0;	/* skb_clear_tstamp */
	nb_dev_xmit_recursion_inc();
	ret = nb_dev_queue_xmit(pkt);
	nb_dev_xmit_recursion_dec();
	return ret;
}

int nb_bpf_redirect_pkt(struct nb_pkt *pkt, struct nb_dev *dev, u32 flags)
{
	/* __bpf_redirect_no_mac: into a device without a link header, the packet's comes off */
	if (!dev->hard_header_len) {
		u32 mlen = pkt->network_header == NB_PKT_HDR_UNSET
				   ? 0 : (u32)(nb_pkt_network_header(pkt) - pkt->data);

		if (unlikely(pkt->len <= mlen)) {
			nb_pkt_drop(pkt, pkt->dev, NB_DROP_NOT_SPECIFIED);
			return -ERANGE;
		}
		nb_pkt_pull(pkt, mlen);
		nb_pkt_reset_mac_header(pkt);
		return flags & BPF_F_INGRESS ? bpf_rx_pkt(dev, pkt) : bpf_tx_pkt(dev, pkt);
	}
	/* __bpf_redirect_common: a link layer header must be there */
	if (unlikely(pkt->mac_header == NB_PKT_HDR_UNSET ||
		     pkt->network_header == NB_PKT_HDR_UNSET ||
		     pkt->mac_header >= pkt->network_header || pkt->len == 0)) {
		nb_pkt_drop(pkt, pkt->dev, NB_DROP_NOT_SPECIFIED);
		return -ERANGE;
	}
	return flags & BPF_F_INGRESS ? bpf_rx_pkt(dev, pkt) : bpf_tx_pkt(dev, pkt);
}

int nb_skb_do_redirect(struct nb_pkt *pkt)
{
	struct nb_redirect_info *ri = nb_redirect_info_get();
	u32 flags = ri->flags;
	struct nb_dev *dev = nb_dev_lookup_index(ri->tgt_index);

	ri->tgt_index = 0;
	ri->flags = 0;
	if (unlikely(!dev)) {
		nb_pkt_drop(pkt, pkt->dev, NB_DROP_NO_DEV);
		return -EINVAL;
	}
	nb_u64_stats_inc(&nb_dev_this_stats(pkt->dev)->tc_redirect);
	if (flags & NB_BPF_F_PEER) {
		struct nb_dev *peer = dev->peer;

		if (unlikely(!pkt->tc_at_ingress || !peer)) {
			nb_pkt_drop(pkt, pkt->dev, NB_DROP_NO_DEV);
			return -EINVAL;
		}
		if (unlikely(!READ_ONCE(peer->up))) {
			nb_pkt_drop(pkt, peer, NB_DROP_DEV_DOWN);
			return -EINVAL;
		}
		/*
		 * The packet now arrives on the peer, counted there, without a backlog trip. The
		 * kernel also requires the peer to sit in another network namespace; there are no
		 * namespaces here, so every pipe peer qualifies.
		 */
		pkt->dev = peer;
		nb_dev_count_rx(peer, pkt->len);
		pkt->skb_iif = 0;
		pkt->pkt_type = PACKET_HOST;
		return -EAGAIN;
	}
	if (flags & NB_BPF_F_NEIGH)
		return nb_bpf_redirect_neigh(pkt, dev, flags & NB_BPF_F_NEXTHOP ? &ri->nh : NULL);
	return nb_bpf_redirect_pkt(pkt, dev, flags);
}
