// SPDX-License-Identifier: GPL-2.0
/*
 * The afpacket port: a Linux interface seen through raw AF_PACKET sockets, as tcpdump and
 * DPDK's af_packet driver see it. Words:
 *
 *   dev IFNAME         the interface (required)
 *   queues N           N sockets in one PACKET_FANOUT group (FANOUT_HASH: a flow stays on one
 *                      socket); rx polls them all, tx uses socket (worker index mod N)
 *   tx ring|sendmmsg   transmit through a TPACKET_V3 TX ring with one sendto kick per burst
 *                      (default), or with one sendmmsg call per burst
 *   promisc on|off     promiscuous mode while the port is open (default on)
 *   offload on|off     frames carry their offloads in a virtio_net_hdr (PACKET_VNET_HDR;
 *                      default on): super-frames and partial checksums move whole both ways
 *
 * Receive reads a TPACKET_V2 ring of 4 KiB frame slots: each frame is ours as soon as the
 * kernel writes it (a TPACKET_V3 block waits for its retire timer, a jiffy or more, which is
 * what a ping would see), we copy a burst out and give the slots back: no system call per
 * frame. A frame longer than a slot is cut there with TP_STATUS_COPY and queued whole on the
 * socket (PACKET_COPY_THRESH), where one recvmmsg per burst reads those of the burst straight
 * into packet buffers, in ring order. Frames the interface sends (PACKET_OUTGOING, our own tx
 * among them) are not received. A frame beyond a page continues in fragments; one longer than
 * NB_PKT_MAX_FRAME is dropped and counted as too_big, never truncated; frames the kernel
 * dropped because the ring was full (tp_drops of PACKET_STATISTICS), or cut without a copy
 * (receive buffer full), count as rx_overflow on the device. An offloaded VLAN tag
 * (TP_STATUS_VLAN_VALID) stays offloaded: it becomes the packet's vlan_tci, as on the skb.
 *
 * Offloads: with PACKET_VNET_HDR each frame comes with a virtio_net_hdr (vnet_hdr.c), so the
 * stack's super-frames (GSO, the 64 KB a TCP sender hands its device) and partial checksums
 * (CHECKSUM_PARTIAL) arrive whole and leave whole: the kernel segments and checksums them
 * where the frame finally goes, as it would have for its own tc redirect. Without it a
 * checksum the stack left to the device (TP_STATUS_CSUMNOTREADY) is completed here, and the
 * datapath segments super-frames before they leave (nb_validate_xmit).
 *
 * Transmit bypasses the interface's qdisc (PACKET_QDISC_BYPASS), as a driver's xmit would be
 * reached. Frames too long for a TX ring slot (super-frames) go out through a second socket of
 * the queue, those that follow each other in a burst with one sendmmsg, each from its pieces
 * (an iovec of the header, the linear part and the fragments), after the ring is kicked, so
 * that the queue's order holds. Frames longer than the interface's MTU (read at open) are
 * refused, super-frames excepted: the caller drops and counts them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include <netbpf/percpu.h>

#include "io/port.h"
#include "io/vnet_hdr.h"
#include "pkt/gso.h"
#include "pkt/pkt.h"
#include "common/u64_stats.h"

#define AFP_MAX_QUEUES 64
/* RX ring: 2048 slots of 4 KiB (8 MiB) per socket; longer frames come through recvmmsg. */
#define AFP_RX_FRAME_SIZE 4096u
#define AFP_RX_BLOCK_SIZE (128u << 10)
#define AFP_RX_BLOCK_NR 64u
#define AFP_RX_FRAME_NR (AFP_RX_BLOCK_SIZE / AFP_RX_FRAME_SIZE * AFP_RX_BLOCK_NR)
/* What may wait on the socket for recvmmsg: 512 super-frames of 64 KiB. */
#define AFP_RCVBUF (32 << 20)
/* TX ring: 512 frames of 4 KiB; longer frames go out with sendmmsg (send_mmsg). */
#define AFP_TX_FRAME_SIZE 4096u
#define AFP_TX_BLOCK_SIZE (64u << 10)
#define AFP_TX_BLOCK_NR 32u
#define AFP_TX_FRAME_NR (AFP_TX_BLOCK_SIZE / AFP_TX_FRAME_SIZE * AFP_TX_BLOCK_NR)
/* Where the kernel takes a TX frame's data from (no PACKET_TX_HAS_OFF). */
#define AFP_TX_DATA_OFF (TPACKET2_HDRLEN - sizeof(struct sockaddr_ll))
/* Read PACKET_STATISTICS after this many empty polls of a queue (drops without a new block). */
#define AFP_STATS_EVERY 4096u

struct afp_queue {
	int fd;
	int big_fd;			/* tx ring: sends the frames a slot cannot hold */
	pthread_spinlock_t rx_lock;	/* a queue is read by one worker at a time */
	pthread_spinlock_t tx_lock;	/* workers beyond the queue count share a socket */
	u8 *map;			/* the RX ring, then the TX ring */
	size_t map_size;
	u8 *tx_ring;			/* in map, after the RX ring */
	u32 rx_head;			/* next RX slot to read */
	u32 empty_polls;
	u32 tx_head;			/* next TX frame to fill */
	struct nb_port_queue_stats stats;
};

struct afp_port {
	struct nb_port *port;
	char ifname[IFNAMSIZ];
	int ifindex;
	u32 mtu;
	unsigned int nr_queues;
	bool tx_mmsg;
	bool promisc;
	bool vnet;			/* PACKET_VNET_HDR: offloads travel with the frames */
	u32 rx_start;			/* the queue polled first rotates */
	struct afp_queue *queues;
};

static inline struct tpacket2_hdr *rx_frame_hdr(const struct afp_queue *q, u32 i)
{
	return (struct tpacket2_hdr *)(q->map + (size_t)i * AFP_RX_FRAME_SIZE);
}

static inline struct tpacket2_hdr *tx_frame(const struct afp_queue *q, u32 i)
{
	return (struct tpacket2_hdr *)(q->tx_ring + (size_t)i * AFP_TX_FRAME_SIZE);
}

/* Bytes in front of the frame: the virtio_net_hdr, with offloads on. */
static u32 vnet_len(const struct afp_port *ap)
{
	return ap->vnet ? sizeof(struct virtio_net_hdr) : 0;
}

static void count_drops(struct afp_port *ap, enum nb_drop_reason reason, u64 n)
{
	nb_port_count_drops(ap->port, reason, n);
}

/* The kernel's ring drops since the last read (reading resets them). */
static void read_kernel_drops(struct afp_port *ap, struct afp_queue *q)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);

	if (getsockopt(q->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) || !st.tp_drops)
		return;
	nb_u64_stats_add(&q->stats.rx_kernel_drops, st.tp_drops);
	count_drops(ap, NB_DROP_RX_OVERFLOW, st.tp_drops);
}

/*
 * A frame of the local stack sent with its L4 checksum left to the device (CHECKSUM_PARTIAL,
 * TP_STATUS_CSUMNOTREADY; veth peers of a local sender do this) without a virtio_net_hdr to say
 * where: the checksum field holds the pseudo-header sum only. Complete it as
 * skb_checksum_help would, so that the frame can leave through another interface. TCP and UDP
 * over IPv4 or IPv6 (no extension headers) are known.
 */
static void rx_complete_csum(struct nb_pkt *pkt)
{
	struct nb_l4_csum_spot spot;

	if (nb_pkt_l4_csum_spot(pkt, &spot) &&
	    nb_pkt_partial_csum_set(pkt, spot.start, spot.csum_off))
		nb_pkt_checksum_help(pkt);
}

/* Most pieces a frame is read into or sent from: the header, the linear part, the fragments. */
#define AFP_IOV_MAX (NB_MAX_SKB_FRAGS + 2)

/*
 * The frames of a burst that wait whole on the socket (their slots are marked TP_STATUS_COPY),
 * read with one recvmmsg in ring order: each into a packet's linear part and pages, or, for a
 * frame that is dropped anyway, into a byte (the socket must give it up for the next copy to be
 * its own slot's).
 */
struct copy_batch {
	unsigned int n;
	struct mmsghdr msgs[NB_BURST];
	struct iovec iov[NB_BURST][AFP_IOV_MAX];
	struct virtio_net_hdr vh[NB_BURST];
	struct nb_pkt *pkt[NB_BURST];		/* NULL: read away */
	u8 *page[NB_BURST][NB_MAX_SKB_FRAGS];
	unsigned int pages[NB_BURST];
	u8 scratch;
};

static void copy_free(struct copy_batch *cb, unsigned int k)
{
	while (cb->pages[k]--)
		nb_pkt_frag_page_free(cb->page[k][cb->pages[k]]);
	nb_pkt_free(cb->pkt[k]);
	cb->pkt[k] = NULL;
	cb->pages[k] = 0;
}

/* A batch entry for a frame of len bytes: its buffers, or a byte to read it away with. */
static void copy_add(struct afp_port *ap, struct copy_batch *cb, u32 len, bool keep)
{
	unsigned int k = cb->n++, n = 0;
	struct iovec *iov = cb->iov[k];
	u32 left = len - min_t(u32, len, NB_PKT_MAX_LEN);

	cb->pages[k] = 0;
	cb->pkt[k] = keep ? nb_pkt_alloc() : NULL;
	if (keep && unlikely(!cb->pkt[k]))
		goto nomem;
	if (cb->pkt[k]) {
		if (ap->vnet)
			iov[n++] = (struct iovec){ .iov_base = &cb->vh[k],
						   .iov_len = sizeof(cb->vh[k]) };
		iov[n++] = (struct iovec){ .iov_base = cb->pkt[k]->data, .iov_len = len - left };
		for (; left; cb->pages[k]++) {
			u8 *page = nb_pkt_frag_page_alloc();

			if (unlikely(!page))
				goto nomem;
			cb->page[k][cb->pages[k]] = page;
			iov[n++] = (struct iovec){ .iov_base = page,
						   .iov_len = min_t(u32, left, NB_PKT_BUF_SIZE) };
			left -= (u32)iov[n - 1].iov_len;
		}
	}
	goto out;
nomem:
	count_drops(ap, NB_DROP_NOMEM, 1);
	copy_free(cb, k);
out:
	if (!cb->pkt[k]) {
		n = 0;
		iov[n++] = (struct iovec){ .iov_base = &cb->scratch, .iov_len = 1 };
	}
	cb->msgs[k] = (struct mmsghdr){ .msg_hdr = { .msg_iov = iov, .msg_iovlen = n } };
}

/* Read the batch's frames off the socket, in order. */
static void copy_read(struct afp_queue *q, struct copy_batch *cb)
{
	unsigned int done = 0;

	while (done < cb->n) {
		int got = recvmmsg(q->fd, cb->msgs + done, cb->n - done, MSG_DONTWAIT | MSG_TRUNC,
				   NULL);

		if (got <= 0)
			break;
		done += (unsigned int)got;
	}
	/* what did not come is not there: copy_take drops its entries */
	for (; done < cb->n; done++)
		cb->msgs[done].msg_len = 0;
}

/* Entry k of the batch, read, as the packet of its len-byte frame; NULL when dropped (counted). */
static struct nb_pkt *copy_take(struct afp_port *ap, struct afp_queue *q, struct copy_batch *cb,
				unsigned int k, u32 len)
{
	struct nb_pkt *pkt = cb->pkt[k];
	const struct iovec *iov = cb->iov[k];

	if (!pkt)
		return NULL;
	if (unlikely(cb->msgs[k].msg_len != len + vnet_len(ap))) {
		/* the copy is not there (or not this frame's): nothing to keep */
		nb_u64_stats_inc(&q->stats.rx_kernel_drops);
		count_drops(ap, NB_DROP_RX_OVERFLOW, 1);
		copy_free(cb, k);
		return NULL;
	}
	nb_pkt_put(pkt, (u32)iov[ap->vnet].iov_len);
	for (unsigned int p = 0; p < cb->pages[k]; p++)
		nb_pkt_add_frag(pkt, cb->page[k][p], 0, (u32)iov[ap->vnet + 1 + p].iov_len);
	cb->pkt[k] = NULL;
	cb->pages[k] = 0;
	if (ap->vnet && unlikely(nb_vnet_hdr_to_pkt(pkt, &cb->vh[k]))) {
		nb_port_drop(ap->port, pkt, NB_DROP_OFFLOAD);
		return NULL;
	}
	return pkt;
}

/* A frame of the ring the kernel cut short but queued whole on the socket. */
static bool slot_copied(const struct tpacket2_hdr *h)
{
	return h->tp_snaplen < h->tp_len && (h->tp_status & TP_STATUS_COPY);
}

/* A frame the datapath does not take: the interface's own transmits, and those too big. */
static bool slot_refused(const struct tpacket2_hdr *h)
{
	const struct sockaddr_ll *sll = (const void *)((const u8 *)h +
						       TPACKET_ALIGN(sizeof(*h)));

	return sll->sll_pkttype == PACKET_OUTGOING || h->tp_len > NB_PKT_MAX_FRAME;
}

/*
 * One frame of the ring as a packet, or NULL when it is dropped (and counted). A slot marked
 * TP_STATUS_COPY is entry copy of the batch (read already).
 */
static struct nb_pkt *rx_frame(struct afp_port *ap, struct afp_queue *q,
			       const struct tpacket2_hdr *h, struct copy_batch *cb,
			       unsigned int copy)
{
	const struct sockaddr_ll *sll = (const void *)((const u8 *)h +
						       TPACKET_ALIGN(sizeof(*h)));
	struct nb_pkt *pkt;

	/* our own and the stack's transmits, should PACKET_IGNORE_OUTGOING be missing */
	if (unlikely(sll->sll_pkttype == PACKET_OUTGOING))
		return NULL;
	if (unlikely(h->tp_len > NB_PKT_MAX_FRAME)) {
		nb_u64_stats_inc(&q->stats.rx_too_big);
		count_drops(ap, NB_DROP_TOO_BIG, 1);
		return NULL;
	}
	if (unlikely(h->tp_snaplen < h->tp_len)) {
		if (!(h->tp_status & TP_STATUS_COPY)) {
			/* cut, and no copy: the socket's receive buffer was full */
			nb_u64_stats_inc(&q->stats.rx_kernel_drops);
			count_drops(ap, NB_DROP_RX_OVERFLOW, 1);
			return NULL;
		}
		pkt = copy_take(ap, q, cb, copy, h->tp_len);
		if (!pkt)
			return NULL;
	} else {
		const void *vh = (const u8 *)h + h->tp_mac - sizeof(struct virtio_net_hdr);

		pkt = nb_pkt_alloc_data((const u8 *)h + h->tp_mac, h->tp_snaplen);
		if (unlikely(!pkt)) {
			count_drops(ap, NB_DROP_NOMEM, 1);
			return NULL;
		}
		if (ap->vnet && unlikely(nb_vnet_hdr_to_pkt(pkt, vh))) {
			nb_port_drop(ap->port, pkt, NB_DROP_OFFLOAD);
			return NULL;
		}
	}
	if (!ap->vnet && (h->tp_status & TP_STATUS_CSUMNOTREADY))
		rx_complete_csum(pkt);
	if (h->tp_status & TP_STATUS_VLAN_VALID) {
		pkt->vlan_present = 1;
		pkt->vlan_tci = h->tp_vlan_tci;
		pkt->vlan_proto = htons(h->tp_status & TP_STATUS_VLAN_TPID_VALID ?
					h->tp_vlan_tpid : ETH_P_8021Q);
	}
	return pkt;
}

/*
 * Up to max frames of the ring: the slots the kernel has filled are looked at first, the
 * frames of those cut short (super-frames, jumbo frames) read off the socket together, then
 * the burst is made in ring order and the slots given back.
 */
static unsigned int queue_rx(struct afp_port *ap, struct afp_queue *q, struct nb_pkt **pkts,
			     unsigned int max)
{
	struct tpacket2_hdr *slot[NB_BURST];
	struct copy_batch cb;
	unsigned int n = 0, nslots = 0, copy = 0;
	bool losing = false;

	cb.n = 0;
	if (max > NB_BURST)
		max = NB_BURST;
	while (nslots < max) {
		struct tpacket2_hdr *h = rx_frame_hdr(q, (q->rx_head + nslots) % AFP_RX_FRAME_NR);
		u32 status = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);

		if (!(status & TP_STATUS_USER)) {
			if (!nslots && ++q->empty_polls % AFP_STATS_EVERY == 0)
				read_kernel_drops(ap, q);
			break;
		}
		/* every slot after a drop says so until the count is read: once a burst will do */
		losing |= status & TP_STATUS_LOSING;
		slot[nslots++] = h;
		if (status & TP_STATUS_COPY)
			copy_add(ap, &cb, h->tp_len, slot_copied(h) && !slot_refused(h));
	}
	if (losing)
		read_kernel_drops(ap, q);
	if (cb.n)
		copy_read(q, &cb);
	for (unsigned int i = 0; i < nslots; i++) {
		struct nb_pkt *pkt = rx_frame(ap, q, slot[i], &cb, copy);

		/* every marked slot has its entry, kept or read away */
		copy += !!(slot[i]->tp_status & TP_STATUS_COPY);
		if (pkt)
			pkts[n++] = pkt;
		__atomic_store_n(&slot[i]->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	}
	/* entries not taken (a frame refused after all) give their buffers back */
	for (unsigned int k = 0; k < cb.n; k++)
		if (cb.pkt[k])
			copy_free(&cb, k);
	q->rx_head = (q->rx_head + nslots) % AFP_RX_FRAME_NR;
	nb_u64_stats_add(&q->stats.rx_packets, n);
	return n;
}

static unsigned int afp_rx_queues(const struct nb_port *port)
{
	const struct afp_port *ap = port->priv;

	return ap->nr_queues;
}

/* The queue a worker owns: the try-lock only meets another poller while queues change hands. */
static unsigned int afp_rx_queue_burst(struct nb_port *port, unsigned int qi,
				       struct nb_pkt **pkts, unsigned int max)
{
	struct afp_port *ap = port->priv;
	struct afp_queue *q = &ap->queues[qi % ap->nr_queues];
	unsigned int n;

	if (pthread_spin_trylock(&q->rx_lock))
		return 0;
	n = queue_rx(ap, q, pkts, max);
	pthread_spin_unlock(&q->rx_lock);
	return n;
}

/* The socket is readable once a slot is ours or a long frame waits for recvmmsg. */
static int afp_rx_queue_wait(struct nb_port *port, unsigned int qi, struct pollfd *pfd)
{
	struct afp_port *ap = port->priv;

	*pfd = (struct pollfd){ .fd = ap->queues[qi % ap->nr_queues].fd, .events = POLLIN };
	return 1;
}

static unsigned int afp_rx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int max)
{
	struct afp_port *ap = port->priv;
	u32 start = __atomic_fetch_add(&ap->rx_start, 1, __ATOMIC_RELAXED);
	unsigned int n = 0;

	for (unsigned int k = 0; k < ap->nr_queues && n < max; k++) {
		struct afp_queue *q = &ap->queues[(start + k) % ap->nr_queues];

		if (pthread_spin_trylock(&q->rx_lock))
			continue;
		n += queue_rx(ap, q, pkts + n, max - n);
		pthread_spin_unlock(&q->rx_lock);
	}
	return n;
}

/* A frame the interface cannot send: longer than its MTU allows, and not a super-frame. */
static bool tx_too_big(const struct afp_port *ap, const struct nb_pkt *pkt)
{
	u32 limit = ap->mtu + ETH_HLEN;

	if (nb_pkt_is_gso(pkt))
		return false;
	if (nb_pkt_headlen(pkt) >= ETH_HLEN + 4) {
		__be16 proto;

		memcpy(&proto, pkt->data + 12, sizeof(proto));
		if (proto == htons(ETH_P_8021Q) || proto == htons(ETH_P_8021AD))
			limit += 4;
	}
	return pkt->len > limit;
}


/*
 * The pieces of a frame for sendmsg: the virtio_net_hdr (in *vh), the linear part, each
 * fragment. Returns their number, 0 when the header cannot describe the frame.
 */
static unsigned int frame_iov(const struct afp_port *ap, const struct nb_pkt *pkt,
			      struct virtio_net_hdr *vh, struct iovec *iov)
{
	const struct nb_skb_shared_info *sh = nb_pkt_shinfo(pkt);
	unsigned int n = 0;

	if (ap->vnet) {
		if (nb_vnet_hdr_from_pkt(pkt, vh))
			return 0;
		iov[n++] = (struct iovec){ .iov_base = vh, .iov_len = sizeof(*vh) };
	}
	iov[n++] = (struct iovec){ .iov_base = pkt->data, .iov_len = nb_pkt_headlen(pkt) };
	for (unsigned int i = 0; pkt->data_len && i < sh->nr_frags; i++)
		iov[n++] = (struct iovec){ .iov_base = sh->frags[i].page + sh->frags[i].off,
					   .iov_len = sh->frags[i].size };
	return n;
}


/* Kick the TX ring: the kernel sends every frame queued in it. */
static void ring_kick(struct afp_queue *q, unsigned int queued)
{
	/*
	 * A refused frame (TP_STATUS_WRONG_FORMAT) stops the kernel's walk with an error: kick
	 * again for the frames behind it.
	 */
	for (unsigned int tries = 0; queued && tries <= queued; tries++) {
		if (sendto(q->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0 || errno == EAGAIN ||
		    errno == ENOBUFS)
			break;
	}
}

/*
 * The frames marked in sent with one sendmmsg call on socket fd (the kernel copies each frame
 * into an skb); on return sent marks the frames taken.
 */
static void send_mmsg(struct afp_port *ap, struct afp_queue *q, int fd, struct nb_pkt **pkts,
		      unsigned int n, bool *sent)
{
	struct mmsghdr msgs[NB_BURST];
	struct iovec iov[NB_BURST][AFP_IOV_MAX];
	struct virtio_net_hdr vh[NB_BURST];
	unsigned int idx[NB_BURST], cnt = 0, done = 0;

	for (unsigned int i = 0; i < n && cnt < NB_BURST; i++) {
		unsigned int pieces;

		if (!sent[i])
			continue;
		pieces = frame_iov(ap, pkts[i], &vh[cnt], iov[cnt]);
		if (!pieces) {
			nb_u64_stats_inc(&q->stats.tx_errors);
			sent[i] = false;
			continue;
		}
		memset(&msgs[cnt], 0, sizeof(msgs[cnt]));
		msgs[cnt].msg_hdr.msg_iov = iov[cnt];
		msgs[cnt].msg_hdr.msg_iovlen = pieces;
		idx[cnt++] = i;
	}
	for (unsigned int i = 0; i < n; i++)
		sent[i] = false;
	while (done < cnt) {
		int r = sendmmsg(fd, msgs + done, cnt - done, MSG_DONTWAIT);

		if (r < 0) {
			if (errno == EAGAIN || errno == ENOBUFS)
				break;
			/* this frame is refused: go on behind it */
			nb_u64_stats_inc(&q->stats.tx_errors);
			done++;
			continue;
		}
		for (int k = 0; k < r; k++)
			sent[idx[done + k]] = true;
		done += (unsigned int)r;
	}
}

/*
 * Copy the frames marked in sent into the TX ring and kick the kernel once. On return sent
 * marks the frames taken: a full ring takes none from the first one it has no room for.
 */
static void queue_tx_ring(struct afp_port *ap, struct afp_queue *q, struct nb_pkt **pkts,
			  unsigned int n, bool *sent)
{
	u32 room = AFP_TX_FRAME_SIZE - AFP_TX_DATA_OFF - vnet_len(ap);
	unsigned int queued = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct tpacket2_hdr *h = tx_frame(q, q->tx_head);
		struct nb_pkt *pkt = pkts[i];
		u8 *slot = (u8 *)h + AFP_TX_DATA_OFF;
		u32 status;

		if (!sent[i])
			continue;
		if (pkt->len > room) {
			unsigned int end = i + 1;

			/* what the ring holds goes first: the queue keeps its order */
			ring_kick(q, queued);
			queued = 0;
			/* the frames no slot holds that follow: one call on the second socket */
			while (end < n && (!sent[end] || pkts[end]->len > room))
				end++;
			send_mmsg(ap, q, q->big_fd, pkts + i, end - i, sent + i);
			i = end - 1;
			continue;
		}
		status = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
		if (status == TP_STATUS_WRONG_FORMAT) {
			nb_u64_stats_inc(&q->stats.tx_errors);	/* refused at an earlier kick; reuse the slot */
		} else if (status != TP_STATUS_AVAILABLE) {
			for (unsigned int k = i; k < n; k++)
				sent[k] = false;
			break;
		}
		if (ap->vnet && nb_vnet_hdr_from_pkt(pkt, (struct virtio_net_hdr *)slot)) {
			nb_u64_stats_inc(&q->stats.tx_errors);
			sent[i] = false;
			continue;
		}
		nb_pkt_copy_bits(pkt, 0, slot + vnet_len(ap), pkt->len);
		h->tp_len = vnet_len(ap) + pkt->len;
		h->tp_snaplen = h->tp_len;
		__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
		q->tx_head = (q->tx_head + 1) % AFP_TX_FRAME_NR;
		queued++;
	}
	/* One kick sends every frame queued. */
	ring_kick(q, queued);
}

static unsigned int afp_tx_burst(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct afp_port *ap = port->priv;
	struct afp_queue *q = &ap->queues[nb_this_cpu() % ap->nr_queues];
	unsigned int total = 0, failed = 0;

	for (unsigned int off = 0; off < n; off += NB_BURST) {
		unsigned int cnt = n - off < NB_BURST ? n - off : NB_BURST, taken = 0;
		struct nb_pkt **chunk = pkts + off;
		bool sent[NB_BURST];

		for (unsigned int i = 0; i < cnt; i++)
			sent[i] = !tx_too_big(ap, chunk[i]);
		pthread_spin_lock(&q->tx_lock);
		if (ap->tx_mmsg)
			send_mmsg(ap, q, q->fd, chunk, cnt, sent);
		else
			queue_tx_ring(ap, q, chunk, cnt, sent);
		for (unsigned int i = 0; i < cnt; i++)
			taken += sent[i];
		nb_u64_stats_add(&q->stats.tx_packets, taken);
		pthread_spin_unlock(&q->tx_lock);
		/* The taken frames are copied: free them. The others move to the front of the
		 * failed ones, which end up at the end of pkts for the caller to drop. */
		for (unsigned int i = 0; i < cnt; i++) {
			if (sent[i])
				nb_pkt_free(chunk[i]);
			else
				pkts[failed++] = chunk[i];
		}
		total += taken;
	}
	memmove(pkts + total, pkts, failed * sizeof(*pkts));
	return total;
}

static void queue_close(struct afp_queue *q)
{
	if (q->map)
		munmap(q->map, q->map_size);
	if (q->fd >= 0)
		close(q->fd);
	if (q->big_fd >= 0)
		close(q->big_fd);
	pthread_spin_destroy(&q->rx_lock);
	pthread_spin_destroy(&q->tx_lock);
}

static void afp_close(struct nb_port *port)
{
	struct afp_port *ap = port->priv;

	for (unsigned int i = 0; i < ap->nr_queues; i++)
		queue_close(&ap->queues[i]);
	free(ap->queues);
}

static int sock_opt(struct afp_port *ap, int fd, int opt, const void *val, socklen_t len,
		    const char *what, struct nb_log *log)
{
	if (!setsockopt(fd, SOL_PACKET, opt, val, len))
		return 0;
	nb_log_printf(log, "afpacket: dev %s: %s: %s\n", ap->ifname, what, strerror(errno));
	return -errno;
}

/* A socket for transmitting only: bound with protocol 0, nothing is received on it. */
static int big_socket_open(struct afp_port *ap, struct afp_queue *q, struct nb_log *log)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = ap->ifindex };
	int one = 1, err;

	q->big_fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (q->big_fd < 0) {
		err = -errno;
		nb_log_printf(log, "afpacket: dev %s: socket: %s\n", ap->ifname, strerror(-err));
		return err;
	}
	err = ap->vnet ? sock_opt(ap, q->big_fd, PACKET_VNET_HDR, &one, sizeof(one),
				  "virtio_net_hdr (offload)", log) : 0;
	if (!err)
		err = sock_opt(ap, q->big_fd, PACKET_QDISC_BYPASS, &one, sizeof(one),
			       "qdisc bypass", log);
	if (!err && bind(q->big_fd, (struct sockaddr *)&sll, sizeof(sll))) {
		err = -errno;
		nb_log_printf(log, "afpacket: dev %s: bind: %s\n", ap->ifname, strerror(-err));
	}
	return err;
}

/* One socket with its rings, bound to the interface; joins (or founds) the fanout group. */
static int queue_open(struct afp_port *ap, struct afp_queue *q, unsigned int index, int *fanout,
		      struct nb_log *log)
{
	int version = TPACKET_V2, one = 1, thresh = 1, rcvbuf = AFP_RCVBUF, err;
	struct tpacket_req rx = {
		.tp_block_size = AFP_RX_BLOCK_SIZE, .tp_block_nr = AFP_RX_BLOCK_NR,
		.tp_frame_size = AFP_RX_FRAME_SIZE, .tp_frame_nr = AFP_RX_FRAME_NR,
	};
	struct tpacket_req tx = {
		.tp_block_size = AFP_TX_BLOCK_SIZE, .tp_block_nr = AFP_TX_BLOCK_NR,
		.tp_frame_size = AFP_TX_FRAME_SIZE, .tp_frame_nr = AFP_TX_FRAME_NR,
	};
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = ap->ifindex,
	};

	pthread_spin_init(&q->rx_lock, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_init(&q->tx_lock, PTHREAD_PROCESS_PRIVATE);
	/* protocol 0: nothing arrives before bind names the interface */
	q->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (q->fd < 0) {
		err = -errno;
		if (err == -EPERM || err == -EACCES)
			nb_log_printf(log, "afpacket: dev %s: a packet socket needs CAP_NET_RAW "
				      "(run as root)\n", ap->ifname);
		else
			nb_log_printf(log, "afpacket: dev %s: socket: %s\n", ap->ifname,
				      strerror(-err));
		return err;
	}
	err = sock_opt(ap, q->fd, PACKET_VERSION, &version, sizeof(version), "TPACKET_V2", log);
	/* before the rings: their frames make room for the header */
	if (!err && ap->vnet)
		err = sock_opt(ap, q->fd, PACKET_VNET_HDR, &one, sizeof(one),
			       "virtio_net_hdr (offload)", log);
	if (!err)
		err = sock_opt(ap, q->fd, PACKET_RX_RING, &rx, sizeof(rx), "rx ring", log);
	/* frames longer than a slot: cut in the ring, queued whole for recvmmsg */
	if (!err)
		err = sock_opt(ap, q->fd, PACKET_COPY_THRESH, &thresh, sizeof(thresh),
			       "copy threshold", log);
	/* with a TX ring, every send (sendmmsg too) only kicks the ring: one or the other */
	if (!err && !ap->tx_mmsg)
		err = sock_opt(ap, q->fd, PACKET_TX_RING, &tx, sizeof(tx), "tx ring", log);
	if (!err)
		err = sock_opt(ap, q->fd, PACKET_QDISC_BYPASS, &one, sizeof(one), "qdisc bypass",
			       log);
	if (err)
		return err;
	/* Kernels before 4.20 lack it: rx_frame skips PACKET_OUTGOING frames then. */
	setsockopt(q->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	/* room for the copies of long frames (SO_RCVBUF's cap does not bind root) */
	if (setsockopt(q->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(q->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	q->map_size = (size_t)AFP_RX_BLOCK_SIZE * AFP_RX_BLOCK_NR +
		      (ap->tx_mmsg ? 0 : (size_t)AFP_TX_BLOCK_SIZE * AFP_TX_BLOCK_NR);
	q->map = mmap(NULL, q->map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, q->fd,
		      0);
	if (q->map == MAP_FAILED) {
		err = -errno;
		q->map = NULL;
		nb_log_printf(log, "afpacket: dev %s: mapping the rings: %s\n", ap->ifname,
			      strerror(-err));
		return err;
	}
	q->tx_ring = q->map + (size_t)AFP_RX_BLOCK_SIZE * AFP_RX_BLOCK_NR;
	if (bind(q->fd, (struct sockaddr *)&sll, sizeof(sll))) {
		err = -errno;
		nb_log_printf(log, "afpacket: dev %s: bind: %s\n", ap->ifname, strerror(-err));
		return err;
	}
	if (ap->promisc && index == 0) {
		struct packet_mreq mr = { .mr_ifindex = ap->ifindex, .mr_type = PACKET_MR_PROMISC };

		err = sock_opt(ap, q->fd, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr),
			       "promiscuous mode", log);
		if (err)
			return err;
	}
	if (ap->nr_queues > 1) {
		/* the first socket gets a group id no one uses; the others join it */
		int arg = index ? *fanout | PACKET_FANOUT_HASH << 16 :
				  (PACKET_FANOUT_HASH | PACKET_FANOUT_FLAG_UNIQUEID) << 16;
		socklen_t len = sizeof(arg);

		err = sock_opt(ap, q->fd, PACKET_FANOUT, &arg, sizeof(arg), "fanout group", log);
		if (err)
			return err;
		if (!index && getsockopt(q->fd, SOL_PACKET, PACKET_FANOUT, &arg, &len)) {
			err = -errno;
			nb_log_printf(log, "afpacket: dev %s: fanout id: %s\n", ap->ifname,
				      strerror(-err));
			return err;
		}
		if (!index)
			*fanout = arg & 0xffff;
	}
	return ap->tx_mmsg ? 0 : big_socket_open(ap, q, log);
}

static int parse_words(struct afp_port *ap, int argc, char **argv, struct nb_log *log)
{
	const char *ifname = NULL;
	u64 queues = 1;

	ap->promisc = true;
	ap->vnet = true;
	for (int i = 0; i < argc; i += 2) {
		const char *key = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val) {
			nb_log_printf(log, "afpacket: \"%s\" needs a value\n", key);
			return -EINVAL;
		}
		if (!strcmp(key, "dev")) {
			ifname = val;
		} else if (!strcmp(key, "queues")) {
			if (!nb_port_parse_u64(val, &queues) || !queues ||
			    queues > AFP_MAX_QUEUES) {
				nb_log_printf(log, "afpacket: \"queues %s\" is wrong: "
					      "expected 1 to %d\n", val, AFP_MAX_QUEUES);
				return -EINVAL;
			}
		} else if (!strcmp(key, "tx") && (!strcmp(val, "ring") ||
						  !strcmp(val, "sendmmsg"))) {
			ap->tx_mmsg = val[0] == 's';
		} else if (!strcmp(key, "promisc") && (!strcmp(val, "on") ||
						       !strcmp(val, "off"))) {
			ap->promisc = val[1] == 'n';
		} else if (!strcmp(key, "offload") && (!strcmp(val, "on") ||
						       !strcmp(val, "off"))) {
			ap->vnet = val[1] == 'n';
		} else {
			nb_log_printf(log, "afpacket: \"%s %s\" is wrong: expected dev IFNAME, "
				      "queues N, tx ring|sendmmsg, promisc on|off or offload on|off\n",
				      key, val);
			return -EINVAL;
		}
	}
	if (!ifname) {
		nb_log_printf(log, "afpacket: needs \"dev IFNAME\"\n");
		return -EINVAL;
	}
	if (strlen(ifname) >= IFNAMSIZ) {
		nb_log_printf(log, "afpacket: dev \"%s\": interface names are shorter than %d\n",
			      ifname, IFNAMSIZ);
		return -EINVAL;
	}
	strcpy(ap->ifname, ifname);
	ap->nr_queues = (unsigned int)queues;
	return 0;
}

/* The interface's MTU, through any socket (SIOCGIFMTU). */
static int read_mtu(struct afp_port *ap, int fd, struct nb_log *log)
{
	struct ifreq ifr = { 0 };

	strcpy(ifr.ifr_name, ap->ifname);
	if (ioctl(fd, SIOCGIFMTU, &ifr)) {
		nb_log_printf(log, "afpacket: dev %s: reading the MTU: %s\n", ap->ifname,
			      strerror(errno));
		return -errno;
	}
	ap->mtu = (u32)ifr.ifr_mtu;
	return 0;
}

static int afp_open(struct nb_port *port, int argc, char **argv, struct nb_log *log)
{
	struct afp_port *ap = port->priv;
	int fanout = 0, err;
	unsigned int i;

	ap->port = port;
	err = parse_words(ap, argc, argv, log);
	if (err)
		return err;
	ap->ifindex = (int)if_nametoindex(ap->ifname);
	if (!ap->ifindex) {
		nb_log_printf(log, "afpacket: dev \"%s\": no such interface\n", ap->ifname);
		return -ENODEV;
	}
	ap->queues = calloc(ap->nr_queues, sizeof(*ap->queues));
	if (!ap->queues)
		return -ENOMEM;
	for (i = 0; i < ap->nr_queues; i++) {
		ap->queues[i].fd = -1;
		ap->queues[i].big_fd = -1;
	}
	for (i = 0; i < ap->nr_queues && !err; i++)
		err = queue_open(ap, &ap->queues[i], i, &fanout, log);
	if (!err)
		err = read_mtu(ap, ap->queues[0].fd, log);
	/* what transmit takes whole: with the header, the offloads; frames in pieces always */
	port->features = ap->vnet ? NB_VNET_HDR_FEATURES : NB_NETIF_F_SG;
	if (err) {
		/* queue_open initialised the locks of every queue it reached */
		for (unsigned int k = 0; k < i; k++)
			queue_close(&ap->queues[k]);
		free(ap->queues);
		ap->queues = NULL;
		return err;
	}
	return 0;
}

static void afp_describe(const struct nb_port *port, char *buf, size_t size)
{
	const struct afp_port *ap = port->priv;

	snprintf(buf, size, "afpacket dev %s queues %u tx %s offload %s", ap->ifname, ap->nr_queues,
		 ap->tx_mmsg ? "sendmmsg" : "ring", ap->vnet ? "on" : "off");
}

static int afp_queue_stats(const struct nb_port *port, unsigned int q,
			   struct nb_port_queue_stats *st)
{
	const struct afp_port *ap = port->priv;

	if (q >= ap->nr_queues)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	nb_port_queue_stats_sum(st, &ap->queues[q].stats);
	return 0;
}

static const struct nb_port_ops afpacket_port_ops = {
	.kind = "afpacket",
	.priv_size = sizeof(struct afp_port),
	.open = afp_open,
	.rx_burst = afp_rx_burst,
	.rx_queues = afp_rx_queues,
	.rx_queue_burst = afp_rx_queue_burst,
	.rx_queue_wait = afp_rx_queue_wait,
	.tx_burst = afp_tx_burst,
	.lltx = true,		/* a lock per queue */
	.close = afp_close,
	.describe = afp_describe,
	.queue_stats = afp_queue_stats,
};
NB_PORT_REGISTER(afpacket_port_ops)
