// SPDX-License-Identifier: GPL-2.0
/*
 * Devices: the registry (ifindex and name, the twin of dev_get_by_index/dev_get_by_name), state
 * (up, mtu, MAC), per-CPU counters and the bridge to the port backend (receive and transmit
 * bursts, with the counting and dropping the kernel's drivers do).
 *
 * The datapath looks devices up by ifindex without a lock (nb_dev_lookup_index reads a table of
 * pointers); the control plane creates and destroys devices under a mutex, and a destroyed
 * device is freed only after an epoch grace period, so a worker that found it may finish its
 * burst (the datapath's worker plans hold references of their own, see datapath.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netbpf/percpu.h>

#include "bpf/epoch.h"
#include "io/pipe.h"
#include "io/port.h"
#include "net/bridge.h"
#include "net/dev.h"
#include "pkt/gso.h"
#include "pkt/dst_metadata.h"
#include "pkt/pkt.h"
#include "net/tunnel.h"
#include "net/xdp.h"
#include "common/u64_stats.h"

/* The largest ifindex the table holds. */
/*
 * Ethernet's smallest mtu (ETH_MIN_MTU) and largest (ETH_MAX_MTU, veth's): a frame beyond a
 * page continues in fragments, so the longest one, with its header and a tag, fits a packet.
 */
#define NB_DEV_MIN_MTU 68
#define NB_DEV_MAX_MTU 65535
_Static_assert(NB_DEV_MAX_MTU + ETH_HLEN + 4 <= NB_PKT_MAX_FRAME, "a frame of the largest mtu fits");

static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
/* ifindex -> device, read without the lock (nb_dev_lookup_index) */
struct nb_dev **nb_dev_table;
static struct nb_dev *dev_list;
static u32 next_ifindex = 1;
static u32 max_ifindex;
static struct nb_dev_notifier *dev_notifiers;

/* Tell the layers above about dev (outside dev_lock: they may look devices up). */
static void call_notifiers(struct nb_dev *dev, enum nb_dev_event event)
{
	struct nb_dev_notifier *nb;

	pthread_mutex_lock(&dev_lock);
	nb = dev_notifiers;
	pthread_mutex_unlock(&dev_lock);
	for (; nb; nb = nb->next)
		nb->call(dev, event);
}

/* The kernel's dev_valid_name: 1..15 characters, not "." or "..", no '/', ':' or blank. */
static bool dev_valid_name(const char *name)
{
	size_t len = strnlen(name, IFNAMSIZ);

	if (!len || len >= IFNAMSIZ || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (const char *p = name; *p; p++)
		if (*p == '/' || *p == ':' || *p == ' ' || *p == '\t' || *p == '\n')
			return false;
	return true;
}

static struct nb_dev *find_by_name_locked(const char *name)
{
	for (struct nb_dev *dev = dev_list; dev; dev = dev->next)
		if (!strcmp(dev->name, name))
			return dev;
	return NULL;
}

int nb_dev_create(const char *name, u32 ifindex, struct nb_dev **devp, struct nb_log *log)
{
	struct nb_dev *dev;
	int err = 0;

	*devp = NULL;
	if (!name || !dev_valid_name(name)) {
		nb_log_printf(log, "device name \"%s\" is invalid\n", name ? name : "");
		return -EINVAL;
	}
	if (ifindex > NB_DEV_MAX_IFINDEX) {
		nb_log_printf(log, "ifindex %u is above the limit of %u\n", ifindex,
			      NB_DEV_MAX_IFINDEX);
		return -EINVAL;
	}
	dev = aligned_alloc(64, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	memset(dev, 0, sizeof(*dev));
	dev->stats = aligned_alloc(64, nb_nr_cpus() * sizeof(*dev->stats));
	if (!dev->stats) {
		free(dev);
		return -ENOMEM;
	}
	memset(dev->stats, 0, nb_nr_cpus() * sizeof(*dev->stats));
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	dev->mtu = NB_DEV_DEFAULT_MTU;
	dev->hard_header_len = ETH_HLEN;
	dev->refcnt = 1;	/* the registry's */

	pthread_mutex_lock(&dev_lock);
	if (!nb_dev_table) {
		nb_dev_table = calloc(NB_DEV_MAX_IFINDEX + 1, sizeof(*nb_dev_table));
		if (!nb_dev_table) {
			err = -ENOMEM;
			goto unlock;
		}
	}
	if (find_by_name_locked(name)) {
		nb_log_printf(log, "device \"%s\" already exists\n", name);
		err = -EEXIST;
		goto unlock;
	}
	if (ifindex) {
		if (nb_dev_table[ifindex]) {
			nb_log_printf(log, "ifindex %u is taken by %s\n", ifindex,
				      nb_dev_table[ifindex]->name);
			err = -EBUSY;
			goto unlock;
		}
	} else {
		for (u32 tries = 0; tries < NB_DEV_MAX_IFINDEX; tries++) {
			u32 i = next_ifindex;

			next_ifindex = next_ifindex == NB_DEV_MAX_IFINDEX ? 1 : next_ifindex + 1;
			if (!nb_dev_table[i]) {
				ifindex = i;
				break;
			}
		}
		if (!ifindex) {
			nb_log_printf(log, "no free ifindex for %s\n", name);
			err = -ENOSPC;
			goto unlock;
		}
	}
	dev->ifindex = ifindex;
	/* A locally administered MAC that names the device: 02:6e:62 ("nb") + ifindex. */
	dev->addr[0] = 0x02;
	dev->addr[1] = 0x6e;
	dev->addr[2] = 0x62;
	dev->addr[3] = (u8)(ifindex >> 16);
	dev->addr[4] = (u8)(ifindex >> 8);
	dev->addr[5] = (u8)ifindex;
	dev->next = dev_list;
	dev_list = dev;
	__atomic_store_n(&nb_dev_table[ifindex], dev, __ATOMIC_RELEASE);
	if (ifindex > max_ifindex)
		__atomic_store_n(&max_ifindex, ifindex, __ATOMIC_RELEASE);
unlock:
	pthread_mutex_unlock(&dev_lock);
	if (err) {
		free(dev->stats);
		free(dev);
		return err;
	}
	call_notifiers(dev, NB_DEV_REGISTER);
	*devp = dev;
	return 0;
}

u32 nb_dev_max_ifindex(void)
{
	return __atomic_load_n(&max_ifindex, __ATOMIC_ACQUIRE);
}

struct nb_dev *nb_dev_get(struct nb_dev *dev)
{
	__atomic_add_fetch(&dev->refcnt, 1, __ATOMIC_RELAXED);
	return dev;
}

void nb_dev_put(struct nb_dev *dev)
{
	if (!dev || __atomic_sub_fetch(&dev->refcnt, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	nb_xdp_dev_free(dev);
	nb_port_close(dev->port);
	free(dev->tunnel);	/* plain memory: the tunnel list let it go at unregister */
	nb_br_dev_free(dev);
	free(dev->stats);
	free(dev);
}

void nb_dev_register_notifier(struct nb_dev_notifier *nb)
{
	pthread_mutex_lock(&dev_lock);
	nb->next = dev_notifiers;
	dev_notifiers = nb;
	pthread_mutex_unlock(&dev_lock);
}

void nb_dev_destroy(struct nb_dev *dev)
{
	struct nb_dev_notifier *nb;
	struct nb_dev **pp;

	pthread_mutex_lock(&dev_lock);
	for (pp = &dev_list; *pp; pp = &(*pp)->next) {
		if (*pp == dev) {
			*pp = dev->next;
			__atomic_store_n(&nb_dev_table[dev->ifindex], NULL, __ATOMIC_RELEASE);
			break;
		}
	}
	if (dev->peer) {
		dev->peer->peer = NULL;
		dev->peer = NULL;
	}
	nb = dev_notifiers;
	pthread_mutex_unlock(&dev_lock);
	WRITE_ONCE(dev->up, false);
	for (; nb; nb = nb->next)
		nb->call(dev, NB_DEV_UNREGISTER);
	/*
	 * Workers look devices up by ifindex without a reference (redirect targets): the
	 * registry's reference goes only once none can still hold the pointer, as
	 * unregister_netdevice waits in synchronize_net.
	 */
	nb_epoch_synchronize();
	nb_dev_put(dev);
}

void nb_dev_destroy_all(void)
{
	for (;;) {
		struct nb_dev *dev;

		pthread_mutex_lock(&dev_lock);
		dev = dev_list;
		pthread_mutex_unlock(&dev_lock);
		if (!dev)
			return;
		nb_dev_destroy(dev);
	}
}

struct nb_dev *nb_dev_get_by_index(u32 ifindex)
{
	struct nb_dev *dev;

	pthread_mutex_lock(&dev_lock);
	dev = nb_dev_lookup_index(ifindex);
	if (dev)
		nb_dev_get(dev);
	pthread_mutex_unlock(&dev_lock);
	return dev;
}

unsigned int nb_dev_list(struct nb_dev **devs, unsigned int max)
{
	unsigned int n = 0;

	pthread_mutex_lock(&dev_lock);
	/* no ifindex above the highest ever given is taken: a daemon lists per command */
	for (u32 i = 1; i <= max_ifindex && nb_dev_table; i++) {
		struct nb_dev *dev = nb_dev_table[i];

		if (!dev)
			continue;
		if (n < max)
			devs[n] = nb_dev_get(dev);
		n++;
	}
	pthread_mutex_unlock(&dev_lock);
	return n;
}

struct nb_dev *nb_dev_get_by_name(const char *name)
{
	struct nb_dev *dev;

	pthread_mutex_lock(&dev_lock);
	dev = find_by_name_locked(name);
	if (dev)
		nb_dev_get(dev);
	pthread_mutex_unlock(&dev_lock);
	return dev;
}

int nb_dev_set_up(struct nb_dev *dev, bool up)
{
	if (READ_ONCE(dev->up) == up)
		return 0;
	WRITE_ONCE(dev->up, up);
	call_notifiers(dev, up ? NB_DEV_UP : NB_DEV_DOWN);
	return 0;
}

int nb_dev_set_mtu(struct nb_dev *dev, u32 mtu, struct nb_log *log)
{
	if (mtu < NB_DEV_MIN_MTU || mtu > NB_DEV_MAX_MTU) {
		nb_log_printf(log, "mtu %u for %s is outside %u..%u\n", mtu, dev->name,
			      NB_DEV_MIN_MTU, NB_DEV_MAX_MTU);
		return -EINVAL;
	}
	if (READ_ONCE(dev->mtu) == mtu)
		return 0;
	WRITE_ONCE(dev->mtu, mtu);
	call_notifiers(dev, NB_DEV_CHANGEMTU);
	return 0;
}

void nb_dev_set_addr(struct nb_dev *dev, const u8 addr[ETH_ALEN])
{
	if (!memcmp(dev->addr, addr, ETH_ALEN))
		return;
	memcpy(dev->addr, addr, ETH_ALEN);
	call_notifiers(dev, NB_DEV_CHANGEADDR);
}

struct nb_port *nb_dev_port(const struct nb_dev *dev)
{
	return dev->port;
}

static void dev_count_port_drops(struct nb_dev *dev, enum nb_drop_reason reason, u64 n)
{
	nb_u64_stats_add(&nb_dev_this_stats(dev)->drops[reason], n);
}

/* What a port asks of its device (io/port.h): the port layer reads no struct nb_dev. */
static const struct nb_port_dev_ops dev_port_ops = {
	.count_drops = dev_count_port_drops,
	.is_up = nb_dev_is_up,
	.name = nb_dev_name,
};

void nb_dev_set_port(struct nb_dev *dev, struct nb_port *port)
{
	nb_port_close(dev->port);
	dev->port = port;
	if (port)
		nb_port_set_dev(port, dev, &dev_port_ops);
}

u32 nb_dev_ifindex(const struct nb_dev *dev)
{
	return dev->ifindex;
}

const char *nb_dev_name(const struct nb_dev *dev)
{
	return dev->name;
}

bool nb_dev_is_up(const struct nb_dev *dev)
{
	return READ_ONCE(dev->up);
}

u32 nb_dev_mtu(const struct nb_dev *dev)
{
	return READ_ONCE(dev->mtu);
}

const u8 *nb_dev_addr(const struct nb_dev *dev)
{
	return dev->addr;
}

int nb_dev_attach_port(struct nb_dev *dev, const char *kind, const char *words,
		       struct nb_log *log)
{
	struct nb_port *port;
	int err = nb_port_open_str(kind, words, &port, log);

	if (err)
		return err;
	if (dev->peer) {
		/* The device leaves its pipe pair: the peer keeps its end, unconnected. */
		dev->peer->peer = NULL;
		dev->peer = NULL;
	}
	nb_dev_set_port(dev, port);
	return 0;
}

/*
 * Give a and b (with no port yet) a connected pair of pipe ends and make them each other's
 * peer (bpf_redirect_peer): the device side of veth, so that the pipe port knows no device.
 */
int nb_dev_pipe_pair(struct nb_dev *a, struct nb_dev *b, struct nb_log *log)
{
	struct nb_port *pa, *pb;
	int err;

	if (a == b || a->port || b->port) {
		nb_log_printf(log, "pipe: %s and %s must be two devices without a port\n", a->name,
			      b->name);
		return -EBUSY;
	}
	err = nb_port_open("pipe", 0, NULL, &pa, log);
	if (err)
		return err;
	err = nb_port_open("pipe", 0, NULL, &pb, log);
	if (err) {
		nb_port_close(pa);
		return err;
	}
	nb_pipe_connect(pa, pb);
	nb_dev_set_port(a, pa);
	nb_dev_set_port(b, pb);
	a->peer = b;
	b->peer = a;
	return 0;
}

void nb_dev_port_describe(const struct nb_dev *dev, char *buf, size_t size)
{
	if (!size)
		return;
	if (dev->tunnel)
		nb_tunnel_describe(dev, buf, size);
	else if (dev->br)
		nb_br_describe(dev, buf, size);
	else if (!dev->port)
		snprintf(buf, size, "no port");
	else if (dev->port->ops->describe)
		dev->port->ops->describe(dev->port, buf, size);
	else
		snprintf(buf, size, "%s", dev->port->ops->kind);
}

int nb_dev_port_stats(const struct nb_dev *dev, unsigned int q, struct nb_dev_port_stats *st)
{
	struct nb_port_queue_stats sum = { 0 }, one;
	unsigned int i = q == NB_DEV_PORT_ALL_QUEUES ? 0 : q;
	int err;

	memset(st, 0, sizeof(*st));
	if (!dev->port || !dev->port->ops->queue_stats)
		return -EOPNOTSUPP;
	do {
		err = nb_port_queue_stats(dev->port, i++, &one);
		if (!err)
			nb_port_queue_stats_sum(&sum, &one);
	} while (!err && q == NB_DEV_PORT_ALL_QUEUES);
	/* past the last queue ends the sum; alone it is the answer */
	if (err && (q != NB_DEV_PORT_ALL_QUEUES || err != -ENOENT))
		return err;
	st->rx_packets = sum.rx_packets;
	st->tx_packets = sum.tx_packets;
	st->rx_ring_drops = sum.rx_kernel_drops;
	st->rx_too_big = sum.rx_too_big;
	st->tx_errors = sum.tx_errors;
	st->rx_lent = sum.rx_lent;
	st->tx_by_desc = sum.tx_by_desc;
	st->zero_copy = sum.zero_copy;
	return 0;
}

struct nb_dev_stats *nb_dev_this_stats(struct nb_dev *dev)
{
	return &dev->stats[nb_this_cpu()];
}

void nb_dev_stats_read(const struct nb_dev *dev, struct nb_dev_stats_total *total)
{
	memset(total, 0, sizeof(*total));
	for (unsigned int cpu = 0; cpu < nb_nr_cpus(); cpu++) {
		const struct nb_dev_stats *s = &dev->stats[cpu];

		total->rx_packets += READ_ONCE(s->rx_packets);
		total->rx_bytes += READ_ONCE(s->rx_bytes);
		total->tx_packets += READ_ONCE(s->tx_packets);
		total->tx_bytes += READ_ONCE(s->tx_bytes);
		total->host_packets += READ_ONCE(s->host_packets);
		total->host_bytes += READ_ONCE(s->host_bytes);
		total->consumed += READ_ONCE(s->consumed);
		total->clones += READ_ONCE(s->clones);
		total->tc_redirect += READ_ONCE(s->tc_redirect);
		for (int r = 0; r < NB_DROP_REASON_MAX; r++) {
			total->drops[r] += READ_ONCE(s->drops[r]);
			total->rx_dropped += READ_ONCE(s->drops[r]);
		}
	}
}

void nb_dev_stats_reset(struct nb_dev *dev)
{
	memset(dev->stats, 0, nb_nr_cpus() * sizeof(*dev->stats));
}

void nb_pkt_drop(struct nb_pkt *pkt, struct nb_dev *dev, enum nb_drop_reason reason)
{
	if (dev)
		nb_dev_count_drop(dev, reason);
	nb_pkt_free(pkt);
}

/*
 * A frame arriving on dev: it belongs to dev now, and what an earlier hop left that XDP would
 * see (metadata, a tunnel's dst) is gone.
 */
static void rx_claim(struct nb_dev *dev, struct nb_pkt *pkt)
{
	pkt->dev = dev;
	pkt->skb_iif = dev->ifindex;
	if (unlikely(pkt->tun_md))	/* a pipe's peer sent it: the veth scrubs the dst */
		nb_pkt_tun_drop(pkt);
	pkt->meta_len = 0;
}

/* What every receive path does with a burst the port gave: the frames become dev's, counted. */
static unsigned int rx_received(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n)
{
	struct nb_dev_stats *s;
	u64 bytes = 0;

	if (!n)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		rx_claim(dev, pkts[i]);
		/* the bytes the wire carried: an offloaded VLAN tag is 4 of them */
		bytes += pkts[i]->len + (pkts[i]->vlan_present ? 4 : 0);
	}
	s = nb_dev_this_stats(dev);
	nb_u64_stats_add(&s->rx_packets, n);
	nb_u64_stats_add(&s->rx_bytes, bytes);
	return n;
}

unsigned int nb_dev_rx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int max)
{
	unsigned int n = nb_dev_rx_poll(dev, NB_DEV_RX_ALL_QUEUES, pkts, max);

	for (unsigned int i = 0; i < n; i++)
		nb_dev_rx_stack_prepare(pkts[i]);
	return n;
}

unsigned int nb_dev_rx_taken(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n)
{
	if (!READ_ONCE(dev->up)) {
		for (unsigned int i = 0; i < n; i++)
			nb_pkt_drop(pkts[i], dev, NB_DROP_DEV_DOWN);
		return 0;
	}
	return rx_received(dev, pkts, n);	/* nb_worker_receive_burst prepares them */
}

unsigned int nb_dev_rx_poll(struct nb_dev *dev, unsigned int queue, struct nb_pkt **pkts,
			    unsigned int max)
{
	unsigned int n;

	if (!dev->port || !READ_ONCE(dev->up))
		return 0;
	n = queue == NB_DEV_RX_ALL_QUEUES ? nb_port_rx_burst(dev->port, pkts, max) :
					    nb_port_rx_queue_burst(dev->port, queue, pkts, max);
	return rx_received(dev, pkts, n);
}

/* Hand cnt frames to the port; what it does not take is dropped. Returns the frames sent. */
static unsigned int port_xmit(struct nb_dev *dev, struct nb_dev_stats *s, struct nb_pkt **pkts,
			      unsigned int cnt)
{
	unsigned int sent;
	u64 bytes = 0;

	/* the port frees the frames it takes: their bytes are counted before */
	for (unsigned int i = 0; i < cnt; i++)
		bytes += pkts[i]->len;
	sent = nb_port_tx_burst(dev->port, pkts, cnt);
	for (unsigned int i = sent; i < cnt; i++) {
		bytes -= pkts[i]->len;
		nb_pkt_free(pkts[i]);
	}
	nb_u64_stats_add(&s->tx_packets, sent);
	nb_u64_stats_add(&s->tx_bytes, bytes);
	nb_u64_stats_add(&s->drops[NB_DROP_TX_ERROR], cnt - sent);
	return sent;
}

/* The frame asks for an offload (segmentation, fragments, a checksum) the port may lack. */
static inline bool tx_needs_offload(const struct nb_pkt *pkt, u32 features)
{
	return features != NB_NETIF_F_ALL &&
	       (pkt->gso_size || pkt->data_len || pkt->ip_summed == NB_CHECKSUM_PARTIAL);
}

/*
 * Does a frame of the burst need work before the port takes it: an offloaded VLAN tag to put
 * in, or an offload the port lacks (validate_xmit_skb)? Most bursts need none, and every XDP
 * frame without fragments: they go to the port as they are.
 */
static bool tx_needs_work(struct nb_pkt **pkts, unsigned int n, u32 features)
{
	for (unsigned int i = 0; i < n; i++) {
		struct nb_pkt *pkt = pkts[i];

		if (unlikely(pkt->vlan_present || tx_needs_offload(pkt, features)))
			return true;
		/* ports take single frames (the work below may make lists) */
		pkt->next = NULL;
	}
	return false;
}

unsigned int nb_dev_tx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n)
{
	struct nb_dev_stats *s = nb_dev_this_stats(dev);
	struct nb_pkt *out[NB_BURST];
	unsigned int sent = 0, cnt = 0;
	bool up = READ_ONCE(dev->up);
	u32 features;

	if (!n)
		return 0;
	/*
	 * up is read once: a device that comes up between two reads would count dev_down
	 * frames as tx_error.
	 */
	if (!up || !dev->port) {
		nb_u64_stats_add(&s->drops[up ? NB_DROP_TX_ERROR : NB_DROP_DEV_DOWN], n);
		for (unsigned int i = 0; i < n; i++)
			nb_pkt_free(pkts[i]);
		return 0;
	}
	features = dev->port->features;
	if (likely(n <= NB_BURST) && !tx_needs_work(pkts, n, features))
		return port_xmit(dev, s, pkts, n);
	for (unsigned int i = 0; i < n; i++) {
		struct nb_pkt *pkt = pkts[i], *next;
		int err = 0;

		/* Ports have no VLAN offload: an offloaded tag goes into the frame. */
		if (unlikely(pkt->vlan_present) && nb_pkt_vlan_push_inside(pkt)) {
			nb_u64_stats_inc(&s->drops[NB_DROP_NOMEM]);
			nb_pkt_free(pkt);
			continue;
		}
		/* offloads the port lacks are done here (validate_xmit_skb): a list may come back */
		pkt->next = NULL;
		if (unlikely(tx_needs_offload(pkt, features))) {
			pkt = nb_validate_xmit(pkt, features, &err);
			if (!pkt) {
				nb_u64_stats_inc(&s->drops[err == -ENOMEM ? NB_DROP_NOMEM :
							   NB_DROP_OFFLOAD]);
				nb_pkt_free(pkts[i]);
				continue;
			}
		}
		for (; pkt; pkt = next) {
			next = pkt->next;
			pkt->next = NULL;
			out[cnt++] = pkt;
			if (cnt == NB_BURST) {
				sent += port_xmit(dev, s, out, cnt);
				cnt = 0;
			}
		}
	}
	if (cnt)
		sent += port_xmit(dev, s, out, cnt);
	return sent;
}
