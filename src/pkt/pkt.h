/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct nb_pkt, the twin of the kernel's struct sk_buff, and struct nb_xdp_buff, the twin of
 * struct xdp_buff.
 *
 * A packet is a small descriptor over a data buffer taken from the packet pool: its linear
 * part. The buffer starts with NB_PKT_HEADROOM bytes of headroom (XDP_PACKET_HEADROOM: room for
 * encapsulation and metadata) and ends with NB_PKT_TAILROOM bytes where the packet's fragment
 * list lives (struct nb_skb_shared_info, as the kernel keeps skb_shared_info at skb_end_pointer).
 * A frame longer than the linear part continues in fragments: whole buffers of the pool
 * ("pages"), at most NB_MAX_SKB_FRAGS. As in the kernel, len counts every byte of the packet
 * and data_len the bytes in fragments; data .. data + nb_pkt_headlen() is what may be read and
 * written directly. Code that reads packet bytes beyond the headers uses nb_pkt_header_pointer
 * or nb_pkt_copy_bits, or pulls them into the linear part first (nb_pkt_may_pull, the
 * pskb_may_pull twin), which moves the packet to a big buffer (NB_PKT_BIG_BUF_SIZE) when a page
 * cannot hold them: then any frame can be made linear, as pskb_expand_head makes it.
 *
 * Clones share the linear buffer, and with it the fragment list, with a reference count; a
 * write to shared data first takes a private copy (nb_pkt_ensure_writable, the
 * skb_ensure_writable twin). Fragment pages have a reference count of their own and are
 * read-only while it is above one: helpers that write packet bytes pull them into the linear
 * part, and the XDP hook copies shared pages before a program that may write them runs.
 *
 * Offloads are carried as the skb carries them: ip_summed with csum_start and csum_offset
 * (CHECKSUM_PARTIAL: the stack left the L4 checksum to the device), and gso_size, gso_segs and
 * gso_type for a super-frame the stack left to the device to segment.
 *
 * The verifier rewrites a program's __sk_buff and xdp_md accesses into loads and stores at the
 * offsets of these structs (ctx_skb.c, ctx_xdp.c): a field's type and place here are part of
 * that contract, and a change here needs no change elsewhere because the rewrite uses offsetof.
 */
#ifndef NB_PKT_PKT_H
#define NB_PKT_PKT_H

#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include <netbpf/pkt.h>

#include "common/types.h"

struct nb_dev;
struct nb_pkt_buf;
struct nb_tun_md;
struct nb_sock;

/* The deepest csum_level (SKB_MAX_CSUM_LEVEL). */
#define NB_MAX_CSUM_LEVEL 3

/* Bytes before the first packet byte of a fresh buffer (XDP_PACKET_HEADROOM). */
#define NB_PKT_HEADROOM 256
/* Bytes of one data buffer, headroom and tailroom included: one page, as an XDP frame. */
#define NB_PKT_BUF_SIZE 4096
/* Room at the end for the fragment list (SKB_DATA_ALIGN(sizeof(struct skb_shared_info))). */
#define NB_PKT_TAILROOM 320
/* The longest linear part a page holds when it starts at the default headroom. */
#define NB_PKT_MAX_LEN (NB_PKT_BUF_SIZE - NB_PKT_HEADROOM - NB_PKT_TAILROOM)
/* Fragments a packet may carry besides its linear part (MAX_SKB_FRAGS). */
#define NB_MAX_SKB_FRAGS 17
/* The longest frame: a page's linear part and NB_MAX_SKB_FRAGS whole pages (73152 bytes). */
#define NB_PKT_MAX_FRAME (NB_PKT_MAX_LEN + NB_MAX_SKB_FRAGS * NB_PKT_BUF_SIZE)
/* A big buffer: the longest frame, linear, at the default headroom (pskb_expand_head's room). */
#define NB_PKT_BIG_BUF_SIZE (NB_PKT_HEADROOM + NB_PKT_MAX_FRAME + NB_PKT_TAILROOM)
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

/* ip_summed: what is known of the L4 checksum (the kernel's CHECKSUM_* values). */
#define NB_CHECKSUM_NONE 0		/* nothing: whoever cares verifies it */
#define NB_CHECKSUM_UNNECESSARY 1	/* verified (csum_level + 1 checksums) */
#define NB_CHECKSUM_COMPLETE 2		/* not kept here: receive paths never set it */
#define NB_CHECKSUM_PARTIAL 3		/* left to the device: csum_start, csum_offset */

/* gso_type bits (the kernel's SKB_GSO_* values). */
#define NB_SKB_GSO_TCPV4 (1U << 0)
#define NB_SKB_GSO_DODGY (1U << 1)	/* from an untrusted source: headers to be checked */
#define NB_SKB_GSO_TCP_ECN (1U << 2)
#define NB_SKB_GSO_TCP_FIXEDID (1U << 3)
#define NB_SKB_GSO_TCPV6 (1U << 4)
#define NB_SKB_GSO_GRE (1U << 6)
#define NB_SKB_GSO_GRE_CSUM (1U << 7)
#define NB_SKB_GSO_IPXIP4 (1U << 8)
#define NB_SKB_GSO_IPXIP6 (1U << 9)
#define NB_SKB_GSO_UDP_TUNNEL (1U << 10)
#define NB_SKB_GSO_UDP_TUNNEL_CSUM (1U << 11)
#define NB_SKB_GSO_UDP (1U << 16)
#define NB_SKB_GSO_UDP_L4 (1U << 17)

struct nb_pkt {
	struct nb_pkt *next;		/* bursts, queues and free lists */
	struct nb_pkt_buf *buf;		/* linear buffer, shared by clones */
	u8 *head;			/* first byte of the buffer: headroom starts here */
	u8 *data;			/* first byte of the packet */
	u32 len;			/* packet bytes from data, fragments included (skb->len) */
	u32 data_len;			/* of them in fragments (skb->data_len) */
	u32 end;			/* linear bytes from head; the fragment list follows */

	/*
	 * Packet pointers of the running program, as the kernel's bpf_skb_data_end in skb->cb:
	 * refreshed by nb_pkt_compute_data_pointers() before a program runs and after every
	 * helper that moves data.
	 */
	u8 *bpf_data_meta;
	u8 *bpf_data_end;

	struct nb_dev *dev;		/* current device: __sk_buff->ifindex is dev->ifindex */
	struct nb_tun_md *tun_md;	/* tunnel metadata (skb's metadata dst), a reference */
	/*
	 * The packet's socket (skb->sk): only a test run's packet has one, the socket the kernel's
	 * test run gives its skb too (net/sock.h); the datapath's packets are forwarded,
	 * socketless. Clones and copies have none, as the kernel's.
	 */
	struct nb_sock *sk;
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
	u16 gso_size;			/* payload bytes per segment; 0: not a super-frame */
	u16 gso_segs;			/* segments it makes (0: not counted yet) */
	u32 gso_type;			/* NB_SKB_GSO_* */
	u16 csum_start;			/* CHECKSUM_PARTIAL: sum from here (offset from head) */
	u16 csum_offset;		/* to the checksum field, from csum_start */
	u8 ip_summed;			/* NB_CHECKSUM_* */
	u8 csum_level;			/* CHECKSUM_UNNECESSARY: checksums verified, minus one */
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

/* Fragments an XDP buffer may carry besides its linear part: a packet's. */
#define NB_XDP_MAX_FRAGS NB_MAX_SKB_FRAGS
/* nb_xdp_buff.flags: the buffer has fragments (XDP_FLAGS_HAS_FRAGS). */
#define NB_XDP_FLAGS_HAS_FRAGS (1U << 0)

/* One fragment (skb_frag_t): size bytes at page + off, page a whole NB_PKT_BUF_SIZE buffer. */
struct nb_skb_frag {
	u8 *page;
	u32 off;
	u32 size;
};

/*
 * The fragments of a packet or a multi-buffer XDP frame, as the kernel's skb_shared_info: kept
 * at the end of the linear buffer, in the NB_PKT_TAILROOM bytes the packet never uses
 * (nb_pkt_shinfo, nb_xdp_get_shared_info). nr_frags is valid for every packet; xdp_frags_size
 * only while an XDP program runs on the frame (nb_pkt_to_xdp sets it, nb_xdp_update_pkt_data
 * reads it).
 */
struct nb_skb_shared_info {
	u8 nr_frags;
	u32 xdp_frags_size;		/* bytes in all fragments */
	struct nb_skb_frag frags[NB_MAX_SKB_FRAGS];
};

/*
 * The twin of struct xdp_buff: what an XDP program's context points to. It views the buffer of
 * an nb_pkt (generic XDP, as the kernel's netif_receive_generic_xdp): nb_pkt_to_xdp() builds
 * it and nb_xdp_update_pkt_data() carries the program's moves of data, data_end and data_meta
 * back. data..data_end is the linear part; a multi-buffer frame (the test run's frames beyond a
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

_Static_assert(sizeof(struct nb_skb_shared_info) <= NB_PKT_TAILROOM,
	       "the fragment list lives in the tailroom of the linear buffer");

/* xdp_get_shared_info_from_buff: the fragment list at the end of the linear buffer. */
static inline struct nb_skb_shared_info *nb_xdp_get_shared_info(const struct nb_xdp_buff *xdp)
{
	return (struct nb_skb_shared_info *)(xdp->data_hard_start + xdp->frame_sz -
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
void nb_xdp_frag_release(struct nb_skb_frag *frag);
/* Release every fragment and clear NB_XDP_FLAGS_HAS_FRAGS (xdp_return_frags). */
void nb_xdp_frags_free(struct nb_xdp_buff *xdp);

/* Bytes of the linear part: what data points to (skb_headlen). */
static inline u32 nb_pkt_headlen(const struct nb_pkt *pkt)
{
	return pkt->len - pkt->data_len;
}

static inline bool nb_pkt_is_nonlinear(const struct nb_pkt *pkt)
{
	return pkt->data_len != 0;
}

/* The fragment list at the end of the linear buffer (skb_shinfo). */
static inline struct nb_skb_shared_info *nb_pkt_shinfo(const struct nb_pkt *pkt)
{
	return (struct nb_skb_shared_info *)(pkt->head + pkt->end);
}

/* Packet pointers for programs: the twin of bpf_compute_data_pointers (the linear part). */
static inline void nb_pkt_compute_data_pointers(struct nb_pkt *pkt)
{
	pkt->bpf_data_meta = pkt->data - pkt->meta_len;
	pkt->bpf_data_end = pkt->data + nb_pkt_headlen(pkt);
}

static inline u32 nb_pkt_headroom(const struct nb_pkt *pkt)
{
	return (u32)(pkt->data - pkt->head);
}

/* Room after the linear part; none for a packet with fragments, as skb_tailroom says. */
static inline u32 nb_pkt_tailroom(const struct nb_pkt *pkt)
{
	return nb_pkt_is_nonlinear(pkt) ? 0 : pkt->end - nb_pkt_headroom(pkt) - pkt->len;
}

static inline bool nb_pkt_is_gso(const struct nb_pkt *pkt)
{
	return pkt->gso_size != 0;
}

static inline bool nb_pkt_is_gso_tcp(const struct nb_pkt *pkt)
{
	return pkt->gso_type & (NB_SKB_GSO_TCPV4 | NB_SKB_GSO_TCPV6);
}

/* Forget the segmentation (skb_gso_reset). */
static inline void nb_pkt_gso_reset(struct nb_pkt *pkt)
{
	pkt->gso_size = 0;
	pkt->gso_segs = 0;
	pkt->gso_type = 0;
}

/* Where CHECKSUM_PARTIAL's sum starts, from data (skb_checksum_start_offset). */
static inline int nb_pkt_checksum_start_offset(const struct nb_pkt *pkt)
{
	return pkt->csum_start - nb_pkt_headroom(pkt);
}

/*
 * Mark the L4 checksum as left to the device (skb_partial_csum_set): start and off from data.
 * false when the field lies outside the linear part.
 */
bool nb_pkt_partial_csum_set(struct nb_pkt *pkt, u32 start, u32 off);

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

/*
 * Add bytes at the end of a linear packet (skb_put); returns their first byte. The caller
 * checked the tailroom, which a packet with fragments does not have.
 */
static inline u8 *nb_pkt_put(struct nb_pkt *pkt, u32 n)
{
	u8 *tail = pkt->data + pkt->len;

	pkt->len += n;
	return tail;
}

/* Cut the packet to len bytes, fragments included (pskb_trim). */
void nb_pkt_trim(struct nb_pkt *pkt, u32 len);

/*
 * Packets and the pool (pkt.c). Allocation never calls malloc on the hot path: buffers come from
 * a per-thread cache refilled in bursts from a shared pool.
 */

/* A packet with an empty data area at the default headroom; NULL when memory runs out. */
struct nb_pkt *nb_pkt_alloc(void);
/*
 * n packets as nb_pkt_alloc makes them, into pkts, for one burst: the thread's cache is looked
 * up once (the kernel's napi_build_skb from a per-CPU cache, DPDK's rte_pktmbuf_alloc_bulk).
 * Returns how many: fewer than n only when memory runs out.
 */
unsigned int nb_pkt_alloc_bulk(struct nb_pkt **pkts, unsigned int n);
/* nb_pkt_alloc_data (the first NB_PKT_MAX_LEN bytes linear), nb_pkt_free: netbpf/pkt.h */
/*
 * A buffer owner other than the pool, the twin of the kernel's xdp_mem_info with page_pool's
 * return path: a port whose memory the kernel fills (an AF_XDP UMEM) lends its frames to
 * packets as their linear buffer, without a copy, and takes each back when the last packet
 * holding it lets go (nb_pkt_free, on whichever thread that is). The owner leaves
 * NB_PKT_BUF_HDR bytes before each buffer's head for the buffer's reference count and owner.
 */
struct nb_pkt_buf_owner {
	/* Take back the buffer at head; called once per lending, when its last reference goes. */
	void (*release)(struct nb_pkt_buf_owner *owner, u8 *head);
	u32 buf_size;		/* bytes of a buffer from head, NB_PKT_TAILROOM included */
};

/* Bytes an owner leaves before each buffer (struct nb_pkt_buf's header). */
#define NB_PKT_BUF_HDR 64

/*
 * A packet whose linear buffer is owner's at head: len bytes already there from head +
 * headroom. NULL when they pass the buffer's end less its tailroom, or no descriptor is left;
 * the buffer stays the owner's then.
 */
struct nb_pkt *nb_pkt_alloc_owned(struct nb_pkt_buf_owner *owner, u8 *head, u32 headroom,
				  u32 len);
/*
 * Free pkt but not its buffer, which becomes the caller's again (the kernel's stolen head):
 * only when the buffer is owner's, linear and held by pkt alone; false, nothing done, else.
 * A port that transmits its own memory (an AF_XDP frame sent by descriptor) hands the buffer
 * to the kernel this way and takes it back when the kernel is done.
 */
bool nb_pkt_steal_head(struct nb_pkt *pkt, const struct nb_pkt_buf_owner *owner);
/* nb_pkt_steal_head would take pkt's buffer, but nothing is done. */
bool nb_pkt_head_stealable(const struct nb_pkt *pkt, const struct nb_pkt_buf_owner *owner);
/*
 * Append len bytes copied from data: into the linear part while the packet has no fragments
 * and room, then into new fragment pages. 0, -EMSGSIZE past NB_PKT_MAX_FRAME (nothing added),
 * -ENOMEM when the pool is empty (the packet may have grown by a part).
 */
int nb_pkt_append(struct nb_pkt *pkt, const void *data, u32 len);
/* Append len bytes of from, at off, to to (fragments read, written as nb_pkt_append). */
int nb_pkt_append_from(struct nb_pkt *to, const struct nb_pkt *from, u32 off, u32 len);
/*
 * Give to from's metadata (device, mark, hash, offloads, ...) and its headers at the same
 * offsets from data (skb_copy_header); to keeps its own buffer and bytes.
 */
void nb_pkt_copy_header(struct nb_pkt *to, const struct nb_pkt *from);
/* A page for a fragment (NB_PKT_BUF_SIZE bytes) to fill before nb_pkt_add_frag; NULL: no memory. */
u8 *nb_pkt_frag_page_alloc(void);
/* Give back a page from nb_pkt_frag_page_alloc that no fragment holds (put_page). */
void nb_pkt_frag_page_free(u8 *page);
/* Append size bytes at page + off as the next fragment (skb_add_rx_frag); the packet owns it. */
void nb_pkt_add_frag(struct nb_pkt *pkt, u8 *page, u32 off, u32 size);
/* Free n packets, none NULL, for one burst (the kernel's kfree_skb_bulk, DPDK's free_bulk). */
void nb_pkt_free_bulk(struct nb_pkt *const *pkts, unsigned int n);
/* Free a list linked through ->next. */
void nb_pkt_free_list(struct nb_pkt *pkt);
/* A second descriptor over the same data (skb_clone); both become cloned. */
struct nb_pkt *nb_pkt_clone(struct nb_pkt *pkt);
/* A second packet with its own copy of the data (skb_copy). */
struct nb_pkt *nb_pkt_copy(const struct nb_pkt *pkt);
/* The buffer has more than one reference (for nb_pkt_shared_data). */
bool nb_pkt_buf_shared(const struct nb_pkt *pkt);
/*
 * True when another packet shares the data (skb_cloned). In line: the flag alone answers for
 * a packet that was never cloned, nearly every one on the datapath.
 */
static inline bool nb_pkt_shared_data(const struct nb_pkt *pkt)
{
	return pkt->cloned && nb_pkt_buf_shared(pkt);
}
/* nb_pkt_ensure_writable for a packet that is cloned or short of linear bytes. */
int nb_pkt_make_writable(struct nb_pkt *pkt, u32 write_len);
/*
 * Make the first write_len bytes from data safe to write (skb_ensure_writable): -ENOMEM when
 * write_len passes the packet's end, else 0 with private data (a copy when it was shared). In
 * line for a packet never cloned whose bytes are linear: every helper that writes asks.
 */
static inline int nb_pkt_ensure_writable(struct nb_pkt *pkt, u32 write_len)
{
	if (likely(write_len <= pkt->len - pkt->data_len && !pkt->cloned))
		return 0;
	return nb_pkt_make_writable(pkt, write_len);
}
/* Take private data whatever is written (skb_unclone): 0 or -ENOMEM. */
int nb_pkt_unclone(struct nb_pkt *pkt);
/* The fragment bytes nb_pkt_may_pull needs, moved into the linear part (__pskb_pull_tail). */
int nb_pkt_pull_tail(struct nb_pkt *pkt, u32 len);
/*
 * Make the first len bytes linear (pskb_may_pull): 0, -EINVAL when the packet is shorter,
 * -ENOMEM. Fragment bytes move into the linear part, which becomes private and moves to a big
 * buffer when its page is too small; packet pointers (data, headers) stay valid offsets. In
 * line when they are linear already, as the kernel's.
 */
static inline int nb_pkt_may_pull(struct nb_pkt *pkt, u32 len)
{
	if (likely(len <= pkt->len - pkt->data_len))
		return 0;
	return nb_pkt_pull_tail(pkt, len);
}
/*
 * Private linear data with at least tailroom bytes after it (pskb_expand_head with ntail): a
 * big buffer when the page has not. The packet must be linear. 0, -EINVAL or -ENOMEM.
 */
int nb_pkt_grow_tailroom(struct nb_pkt *pkt, u32 tailroom);
/* Make the whole packet linear (skb_linearize): 0 or -ENOMEM. */
static inline int nb_pkt_linearize(struct nb_pkt *pkt)
{
	return nb_pkt_is_nonlinear(pkt) ? nb_pkt_may_pull(pkt, pkt->len) : 0;
}
/* Give every fragment a page of its own, so that its bytes may be written. 0 or -ENOMEM. */
int nb_pkt_frags_make_private(struct nb_pkt *pkt);
/* Copy len bytes at off from data, fragments included (skb_copy_bits): 0 or -EFAULT. */
int nb_pkt_copy_bits(const struct nb_pkt *pkt, u32 off, void *to, u32 len);
/*
 * Write len bytes at off (skb_store_bits): 0 or -EFAULT. The bytes must be private: the linear
 * part unshared and the fragments written to made private first.
 */
int nb_pkt_store_bits(struct nb_pkt *pkt, u32 off, const void *from, u32 len);
/* len bytes at off: a pointer into the linear part, else copied into buf; NULL past the end. */
static inline const void *nb_pkt_header_pointer(const struct nb_pkt *pkt, u32 off, u32 len,
						 void *buf)
{
	if ((u64)off + len <= nb_pkt_headlen(pkt))
		return pkt->data + off;
	return nb_pkt_copy_bits(pkt, off, buf, len) ? NULL : buf;
}
/*
 * The one's complement sum of len bytes at off, fragments included, added to sum (skb_checksum).
 * The caller checked that the packet holds them.
 */
u32 nb_pkt_checksum(const struct nb_pkt *pkt, u32 off, u32 len, u32 sum);
/*
 * Complete a CHECKSUM_PARTIAL checksum in software (skb_checksum_help): the field gets the sum
 * from csum_start to the end, and the packet becomes CHECKSUM_NONE. 0, or -EINVAL when the
 * field lies outside the packet, -ENOMEM.
 */
int nb_pkt_checksum_help(struct nb_pkt *pkt);
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

/* nb_pkt_pool_set_max, nb_pkt_pool_outstanding: netbpf/pkt.h */
/* Return this thread's cached buffers to the shared pool (a worker that stops calls it). */
void nb_pkt_pool_flush_cache(void);

/* __skb_reset_checksum_unnecessary: a CHECKSUM_UNNECESSARY packet goes back to NONE. */
static inline void nb_pkt_reset_checksum_unnecessary(struct nb_pkt *pkt)
{
	if (pkt->ip_summed == NB_CHECKSUM_UNNECESSARY) {
		pkt->ip_summed = NB_CHECKSUM_NONE;
		pkt->csum_level = 0;
	}
}

/* Forget the flow hash (skb_clear_hash). */
static inline void nb_pkt_clear_hash(struct nb_pkt *pkt)
{
	pkt->hash = 0;
	pkt->l4_hash = 0;
	pkt->sw_hash = 0;
}

/* The flow hash, computed from the headers when the packet has none yet (skb_get_hash). */
u32 nb_pkt_get_hash(struct nb_pkt *pkt);

/*
 * Generic XDP: view pkt's buffer as an XDP buffer for rxq. The packet must have private data;
 * its fragments, if any, become the buffer's (NB_XDP_FLAGS_HAS_FRAGS). In line: it runs for
 * every frame before its program, and a call would cost a third of it.
 */
static inline void nb_pkt_to_xdp(struct nb_pkt *pkt, struct nb_xdp_buff *xdp,
				 const struct nb_xdp_rxq_info *rxq)
{
	xdp->data_hard_start = pkt->head;
	xdp->data = pkt->data;
	xdp->data_end = pkt->data + nb_pkt_headlen(pkt);
	xdp->data_meta = pkt->data - pkt->meta_len;
	xdp->rxq = rxq;
	xdp->txq = NULL;
	xdp->frame_sz = pkt->end + NB_PKT_TAILROOM;
	xdp->flags = 0;
	xdp->pkt = pkt;
	if (unlikely(pkt->data_len)) {
		nb_pkt_shinfo(pkt)->xdp_frags_size = pkt->data_len;
		xdp->flags = NB_XDP_FLAGS_HAS_FRAGS;
	}
}

/* Carry the program's moves of data, data_end, data_meta and the fragments' length back. */
static inline void nb_xdp_update_pkt_data(const struct nb_xdp_buff *xdp, struct nb_pkt *pkt)
{
	pkt->data = xdp->data;
	pkt->data_len = nb_xdp_buff_has_frags(xdp) ? nb_xdp_get_shared_info(xdp)->xdp_frags_size : 0;
	pkt->len = (u32)(xdp->data_end - xdp->data) + pkt->data_len;
	pkt->meta_len = (u8)(xdp->data - xdp->data_meta);
}

#endif /* NB_PKT_PKT_H */
