/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct nb_pkt, the twin of the kernel's struct sk_buff, and struct nb_xdp_buff, the twin of
 * struct xdp_buff.
 *
 * A packet is a small descriptor over a data buffer taken from the packet pool. The buffer
 * starts with NB_PKT_HEADROOM bytes of headroom (XDP_PACKET_HEADROOM: room for encapsulation
 * and metadata) and ends with NB_PKT_TAILROOM bytes the packet never uses (the kernel keeps its
 * skb_shared_info there; we keep the room so that the XDP and skb limits are the kernel's).
 * Clones share the buffer with a reference count; a write to shared data first takes a private
 * copy (nb_pkt_ensure_writable, the skb_ensure_writable twin).
 *
 * The verifier rewrites a program's __sk_buff and xdp_md accesses into loads and stores at the
 * offsets of these structs (ctx_skb.c, ctx_xdp.c): a field's type and place here are part of
 * that contract, and a change here needs no change elsewhere because the rewrite uses offsetof.
 */
#ifndef NB_NET_PKT_H
#define NB_NET_PKT_H

#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "common/types.h"

struct nb_dev;
struct nb_pkt_buf;

/* Bytes before the first packet byte of a fresh buffer (XDP_PACKET_HEADROOM). */
#define NB_PKT_HEADROOM 256
/* Bytes of one data buffer, headroom and tailroom included: one page, as an XDP frame. */
#define NB_PKT_BUF_SIZE 4096
/* Room kept free at the end (SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) on x86_64). */
#define NB_PKT_TAILROOM 320
/* The longest packet a buffer holds when it starts at the default headroom. */
#define NB_PKT_MAX_LEN (NB_PKT_BUF_SIZE - NB_PKT_HEADROOM - NB_PKT_TAILROOM)
/* A header offset that was never set (the kernel's (typeof(skb->mac_header))~0U). */
#define NB_PKT_HDR_UNSET 0xffff
/* Largest metadata area in front of the data (xdp_metalen_invalid: 4-byte multiples, <= 32). */
#define NB_PKT_META_MAX 32

/*
 * The qdisc control block, as the kernel's struct qdisc_skb_cb: __sk_buff->cb[0..4] are the 20
 * bytes of data (8-byte aligned so that a program may read them as u64), tc_classid is 16 bit,
 * pkt_len is what __sk_buff->wire_len shows.
 */
struct nb_qdisc_cb {
	u8 data[20] __attribute__((aligned(8)));
	u32 pkt_len;
	u16 tc_classid;
};

struct nb_pkt {
	struct nb_pkt *next;		/* bursts, queues and free lists */
	struct nb_pkt_buf *buf;		/* data buffer, shared by clones */
	u8 *head;			/* first byte of the buffer: headroom starts here */
	u8 *data;			/* first byte of the packet */
	u32 len;			/* packet bytes from data (all linear: no fragments) */
	u32 end;			/* usable bytes from head: data + len may not pass it */

	/*
	 * Packet pointers of the running program, as the kernel's bpf_skb_data_end in skb->cb:
	 * refreshed by nb_pkt_compute_data_pointers() before a program runs and after every
	 * helper that moves data.
	 */
	u8 *bpf_data_meta;
	u8 *bpf_data_end;

	struct nb_dev *dev;		/* current device: __sk_buff->ifindex is dev->ifindex */
	u32 skb_iif;			/* ifindex the packet arrived on (ingress_ifindex) */
	u32 hash;			/* flow hash, 0 when not computed */
	u32 mark;
	u32 priority;
	u16 tc_index;
	u16 queue_mapping;
	__be16 protocol;		/* ethertype, network order */
	__be16 vlan_proto;		/* offloaded VLAN tag: protocol, network order */
	u16 vlan_tci;			/* offloaded VLAN tag: TCI, host order */
	u16 mac_header;			/* offsets from head, NB_PKT_HDR_UNSET when unknown */
	u16 network_header;
	u16 transport_header;
	u8 pkt_type;			/* PACKET_HOST, PACKET_BROADCAST, ... */
	u8 meta_len;			/* metadata bytes just before data (XDP data_meta) */
	u8 vlan_present;		/* 1: vlan_proto/vlan_tci hold an offloaded tag */
	u8 l4_hash;			/* hash is over the L4 4-tuple */
	u8 sw_hash;			/* hash was computed in software */
	u8 tstamp_type;			/* BPF_SKB_TSTAMP_* */
	u8 tc_at_ingress;		/* set while the ingress hook runs */
	u8 cloned;			/* another nb_pkt may share buf (see nb_pkt_buf) */
	u8 encapsulation;		/* a tunnel header was added (bpf_skb_adjust_room encap) */
	u64 tstamp;			/* ns; 0 when not stamped */
	u64 hwtstamp;			/* hardware timestamp: none here, 0 */
	u16 gso_size;			/* no segmentation offload: always 0 */
	u16 gso_segs;
	u32 redirect_depth;		/* nesting of redirects (the kernel's xmit recursion) */

	struct nb_qdisc_cb qdisc_cb;	/* the kernel's skb->cb as the qdisc layer sees it */
};

/* Where the redirect target of an XDP program is read (the kernel's xdp_rxq_info). */
struct nb_xdp_rxq_info {
	struct nb_dev *dev;
	u32 ifindex;			/* xdp_md->ingress_ifindex */
	u32 queue_index;		/* xdp_md->rx_queue_index */
	/*
	 * Bytes of each fragment page (xdp_rxq_info.frag_size): how far bpf_xdp_adjust_tail
	 * may grow the last fragment; 0 where frames have no fragments (the datapath).
	 */
	u32 frag_size;
};

/* The device a devmap program sends to (the kernel's xdp_txq_info). */
struct nb_xdp_txq_info {
	struct nb_dev *dev;
	u32 ifindex;			/* xdp_md->egress_ifindex */
};

/* Fragments an XDP buffer may carry besides its linear part (MAX_SKB_FRAGS). */
#define NB_XDP_MAX_FRAGS 17
/* nb_xdp_buff.flags: the buffer has fragments (XDP_FLAGS_HAS_FRAGS). */
#define NB_XDP_FLAGS_HAS_FRAGS (1U << 0)

/* One fragment (skb_frag_t): size bytes at page + off, page a whole NB_PKT_BUF_SIZE buffer. */
struct nb_xdp_frag {
	u8 *page;
	u32 off;
	u32 size;
};

/*
 * The fragments of a multi-buffer XDP frame, as the kernel's skb_shared_info: kept in the
 * tailroom at the end of the linear buffer (nb_xdp_get_shared_info), which is what the
 * NB_PKT_TAILROOM bytes the packet never uses are for. Read only when the buffer has
 * NB_XDP_FLAGS_HAS_FRAGS set.
 */
struct nb_xdp_shared_info {
	u8 nr_frags;
	u32 xdp_frags_size;		/* bytes in all fragments */
	struct nb_xdp_frag frags[NB_XDP_MAX_FRAGS];
};

/*
 * The twin of struct xdp_buff: what an XDP program's context points to. It views the buffer of
 * an nb_pkt (generic XDP, as the kernel's netif_receive_generic_xdp): nb_pkt_to_xdp() builds
 * it and nb_xdp_to_pkt() carries the program's moves of data, data_end and data_meta back.
 * data..data_end is the linear part; a multi-buffer frame (the test run's frames beyond a
 * page) continues in the fragments of its shared info.
 */
struct nb_xdp_buff {
	u8 *data;
	u8 *data_end;
	u8 *data_meta;			/* == data when there is no metadata */
	u8 *data_hard_start;		/* first byte of the buffer */
	const struct nb_xdp_rxq_info *rxq;
	const struct nb_xdp_txq_info *txq;	/* devmap programs only, else NULL */
	u32 frame_sz;			/* buffer bytes from data_hard_start, tailroom included */
	u32 flags;			/* NB_XDP_FLAGS_* */
	struct nb_pkt *pkt;		/* the packet whose buffer this is */
};

_Static_assert(sizeof(struct nb_xdp_shared_info) <= NB_PKT_TAILROOM,
	       "the fragment list lives in the tailroom of the linear buffer");

/* xdp_get_shared_info_from_buff: the fragment list at the end of the linear buffer. */
static inline struct nb_xdp_shared_info *nb_xdp_get_shared_info(const struct nb_xdp_buff *xdp)
{
	return (struct nb_xdp_shared_info *)(xdp->data_hard_start + xdp->frame_sz -
					     NB_PKT_TAILROOM);
}

static inline bool nb_xdp_buff_has_frags(const struct nb_xdp_buff *xdp)
{
	return xdp->flags & NB_XDP_FLAGS_HAS_FRAGS;
}

/* xdp_get_buff_len: the linear part and every fragment. */
static inline u32 nb_xdp_get_buff_len(const struct nb_xdp_buff *xdp)
{
	u32 len = (u32)(xdp->data_end - xdp->data);

	if (unlikely(nb_xdp_buff_has_frags(xdp)))
		len += nb_xdp_get_shared_info(xdp)->xdp_frags_size;
	return len;
}

/*
 * Append a fragment of len bytes copied from data (the test run's frame beyond the linear
 * part): a page from the packet pool. 0, -ENOMEM when the pool is empty or the buffer has
 * NB_XDP_MAX_FRAGS fragments already, -EINVAL when len passes a page.
 */
int nb_xdp_frag_append(struct nb_xdp_buff *xdp, const void *data, u32 len);
/* Give a fragment's page back to the pool (__xdp_return of a fragment page). */
void nb_xdp_frag_release(struct nb_xdp_frag *frag);
/* Release every fragment and clear NB_XDP_FLAGS_HAS_FRAGS (xdp_return_frags). */
void nb_xdp_frags_free(struct nb_xdp_buff *xdp);

/* Packet pointers for programs: the twin of bpf_compute_data_pointers. */
static inline void nb_pkt_compute_data_pointers(struct nb_pkt *pkt)
{
	pkt->bpf_data_meta = pkt->data - pkt->meta_len;
	pkt->bpf_data_end = pkt->data + pkt->len;
}

static inline u32 nb_pkt_headroom(const struct nb_pkt *pkt)
{
	return (u32)(pkt->data - pkt->head);
}

static inline u32 nb_pkt_tailroom(const struct nb_pkt *pkt)
{
	return pkt->end - nb_pkt_headroom(pkt) - pkt->len;
}

static inline u8 *nb_pkt_mac_header(const struct nb_pkt *pkt)
{
	return pkt->head + pkt->mac_header;
}

static inline u8 *nb_pkt_network_header(const struct nb_pkt *pkt)
{
	return pkt->head + pkt->network_header;
}

static inline u8 *nb_pkt_transport_header(const struct nb_pkt *pkt)
{
	return pkt->head + pkt->transport_header;
}

static inline void nb_pkt_reset_mac_header(struct nb_pkt *pkt)
{
	pkt->mac_header = (u16)(pkt->data - pkt->head);
}

static inline void nb_pkt_set_network_header(struct nb_pkt *pkt, int off)
{
	pkt->network_header = (u16)(pkt->data - pkt->head + off);
}

static inline void nb_pkt_set_transport_header(struct nb_pkt *pkt, int off)
{
	pkt->transport_header = (u16)(pkt->data - pkt->head + off);
}

/* Add bytes in front of data (skb_push); the caller checked the headroom. */
static inline u8 *nb_pkt_push(struct nb_pkt *pkt, u32 n)
{
	pkt->data -= n;
	pkt->len += n;
	return pkt->data;
}

/* Remove bytes from the front (skb_pull); the caller checked len. */
static inline u8 *nb_pkt_pull(struct nb_pkt *pkt, u32 n)
{
	pkt->data += n;
	pkt->len -= n;
	return pkt->data;
}

/* Add bytes at the end (skb_put); returns their first byte. The caller checked the tailroom. */
static inline u8 *nb_pkt_put(struct nb_pkt *pkt, u32 n)
{
	u8 *tail = pkt->data + pkt->len;

	pkt->len += n;
	return tail;
}

/* Cut the packet to len bytes (skb_trim). */
static inline void nb_pkt_trim(struct nb_pkt *pkt, u32 len)
{
	if (len < pkt->len)
		pkt->len = len;
}

/*
 * Packets and the pool (pkt.c). Allocation never calls malloc on the hot path: buffers come from
 * a per-thread cache refilled in bursts from a shared pool.
 */

/* A packet with an empty data area at the default headroom; NULL when memory runs out. */
struct nb_pkt *nb_pkt_alloc(void);
/* A packet holding a copy of len bytes; NULL when len > NB_PKT_MAX_LEN or memory runs out. */
struct nb_pkt *nb_pkt_alloc_data(const void *data, u32 len);
void nb_pkt_free(struct nb_pkt *pkt);
/* Free a list linked through ->next. */
void nb_pkt_free_list(struct nb_pkt *pkt);
/* A second descriptor over the same data (skb_clone); both become cloned. */
struct nb_pkt *nb_pkt_clone(struct nb_pkt *pkt);
/* A second packet with its own copy of the data (skb_copy). */
struct nb_pkt *nb_pkt_copy(const struct nb_pkt *pkt);
/* True when another packet shares the data (skb_cloned). */
bool nb_pkt_shared_data(const struct nb_pkt *pkt);
/*
 * Make the first write_len bytes from data safe to write (skb_ensure_writable): -ENOMEM when
 * write_len passes the packet's end, else 0 with private data (a copy when it was shared).
 */
int nb_pkt_ensure_writable(struct nb_pkt *pkt, u32 write_len);
/* Take private data whatever is written (skb_unclone): 0 or -ENOMEM. */
int nb_pkt_unclone(struct nb_pkt *pkt);
/*
 * Private data with at least headroom bytes before data (skb_cow_head). A buffer never grows:
 * the bytes move towards the end when the tailroom allows it, else -ENOMEM.
 */
int nb_pkt_cow_head(struct nb_pkt *pkt, u32 headroom);
/*
 * Put a VLAN tag into the frame after the MAC addresses (vlan_insert_tag); data must be at
 * the mac header. The mac header moves back with data; the network header stays.
 */
int nb_pkt_vlan_insert_tag(struct nb_pkt *pkt, __be16 proto, u16 tci);
/*
 * Move the offloaded tag (vlan_present) into the frame, as a device without VLAN offload
 * needs before it transmits (__vlan_hwaccel_push_inside); protocol becomes the tag's.
 */
int nb_pkt_vlan_push_inside(struct nb_pkt *pkt);

/* Packets and data buffers handed out and not yet returned, across all threads. */
long nb_pkt_pool_outstanding(void);
/* Return this thread's cached buffers to the shared pool (a worker that stops calls it). */
void nb_pkt_pool_flush_cache(void);

/*
 * Set the mac and network headers, protocol and pkt_type of an Ethernet frame at data
 * (eth_type_trans; pkt_type is relative to dev's MAC, PACKET_HOST for unicast without dev).
 * Unlike the kernel, data stays at the mac header: tc programs see the frame from its first
 * byte, as the kernel shows it to them.
 */
void nb_eth_type_trans(struct nb_pkt *pkt, const struct nb_dev *dev);

/* Forget the flow hash (skb_clear_hash). */
static inline void nb_pkt_clear_hash(struct nb_pkt *pkt)
{
	pkt->hash = 0;
	pkt->l4_hash = 0;
	pkt->sw_hash = 0;
}

/* The flow hash, computed from the headers when the packet has none yet (skb_get_hash). */
u32 nb_pkt_get_hash(struct nb_pkt *pkt);

/* Generic XDP: view pkt's buffer as an XDP buffer for rxq. The packet must have private data. */
void nb_pkt_to_xdp(struct nb_pkt *pkt, struct nb_xdp_buff *xdp, const struct nb_xdp_rxq_info *rxq);
/*
 * After XDP_PASS (and before a redirect transmits it): carry the program's moves of data,
 * data_end and data_meta into the packet; headers are reset to the new start, protocol is read
 * from the Ethernet header, as the kernel does when it builds an skb from an XDP buffer.
 */
void nb_xdp_to_pkt(const struct nb_xdp_buff *xdp, struct nb_pkt *pkt);

#endif /* NB_NET_PKT_H */
