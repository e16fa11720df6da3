// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers only XDP programs have (net/core/filter.c): the redirects, the moves of data,
 * data_end and data_meta with the kernel's limits, and byte access through the context. r1 is
 * the program's context, a struct nb_xdp_buff. A multi-buffer frame (the test run's frames
 * beyond a page) has fragments after its linear part: the buffer length, the byte access and
 * bpf_xdp_adjust_tail cover them as the kernel's do; the moves of data and data_meta stay in
 * the linear part.
 */
#include <errno.h>
#include <string.h>
#include <linux/if_ether.h>

#include "bpf/map.h"
#include "net/filter.h"
#include "net/redirect.h"
#include "net/xdp.h"

#define CTX_XDP(r1) ((struct nb_xdp_buff *)(uintptr_t)(r1))
#define PTR(r) ((void *)(uintptr_t)(r))

/*
 * The longest metadata: skb_shared_info's meta_len is one byte (xdp_metalen_invalid), and it
 * must be whole 4-byte words.
 */
#define NB_XDP_META_MAX 255

static inline bool xdp_meta_unsupported(const struct nb_xdp_buff *xdp)
{
	return xdp->data_meta > xdp->data;
}

static inline u32 xdp_metalen(const struct nb_xdp_buff *xdp)
{
	return xdp_meta_unsupported(xdp) ? 0 : (u32)(xdp->data - xdp->data_meta);
}

/* Where the frame may grow to: the buffer minus the tailroom the kernel keeps. */
static inline u8 *xdp_data_hard_end(const struct nb_xdp_buff *xdp)
{
	return xdp->data_hard_start + xdp->frame_sz - NB_PKT_TAILROOM;
}

/*
 * bpf_redirect for XDP: record the ifindex; flags are reserved, so any flag aborts. The target
 * is looked up when the verdict is acted on (nb_xdp_do_redirect).
 */
static u64 bpf_xdp_redirect(u64 ifindex, u64 flags, u64 r3, u64 r4, u64 r5)
{
	struct nb_redirect_info *ri = nb_redirect_info_get();

	if (unlikely(flags))
		return XDP_ABORTED;
	ri->tgt_index = (u32)ifindex;
	ri->map_id = NB_REDIRECT_IFINDEX_ID;
	ri->map_type = BPF_MAP_TYPE_UNSPEC;
	return XDP_REDIRECT;
}

static const struct nb_func_proto bpf_xdp_redirect_proto = {
	.func = bpf_xdp_redirect,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

/* bpf_redirect_map: the map type decides (map_redirect); the low flag bits act on a miss. */
static u64 bpf_xdp_redirect_map(u64 r1, u64 key, u64 flags, u64 r4, u64 r5)
{
	struct nb_map *map = PTR(r1);

	/* The verifier admits only the types below; an unverified load may pass others. */
	if (unlikely(!map->ops->map_redirect))
		return XDP_ABORTED;
	return (u64)map->ops->map_redirect(map, key, flags);
}

/* The maps a frame can be redirected through: devices, workers ("CPUs"), XDP sockets. */
static const enum bpf_map_type redirect_map_types[] = {
	BPF_MAP_TYPE_DEVMAP,
	BPF_MAP_TYPE_DEVMAP_HASH,
	BPF_MAP_TYPE_CPUMAP,
	BPF_MAP_TYPE_XSKMAP,
};

static const struct nb_func_proto bpf_xdp_redirect_map_proto = {
	.func = bpf_xdp_redirect_map,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_ANYTHING, NB_ARG_ANYTHING },
	.map_types = redirect_map_types,
	.map_type_cnt = ARRAY_SIZE(redirect_map_types),
};

/*
 * bpf_xdp_adjust_head: move data by offset (negative: grow at the front). data may not go below
 * the room of the xdp_frame and the metadata, nor leave less than an Ethernet header; the
 * metadata moves with it.
 */
static u64 bpf_xdp_adjust_head(u64 r1, u64 offset, u64 r3, u64 r4, u64 r5)
{
	struct nb_xdp_buff *xdp = CTX_XDP(r1);
	u32 metalen = xdp_metalen(xdp);
	u8 *data_start = xdp->data_hard_start + NB_XDP_FRAME_SIZE + metalen;
	u8 *data = xdp->data + (s32)offset;

	if (unlikely(data < data_start || data > xdp->data_end - ETH_HLEN))
		return (u64)-EINVAL;
	if (metalen)
		memmove(xdp->data_meta + (s32)offset, xdp->data_meta, metalen);
	xdp->data_meta += (s32)offset;
	xdp->data = data;
	return 0;
}

static const struct nb_func_proto bpf_xdp_adjust_head_proto = {
	.func = bpf_xdp_adjust_head,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING },
};

/*
 * Grow a multi-buffer frame into the tailroom of its last fragment (bpf_xdp_frags_increase_tail):
 * never into the linear part, however much room it has; the new bytes are zeroed.
 */
static int xdp_frags_increase_tail(struct nb_xdp_buff *xdp, int offset)
{
	struct nb_skb_shared_info *sinfo = nb_xdp_get_shared_info(xdp);
	struct nb_skb_frag *frag = &sinfo->frags[sinfo->nr_frags - 1];
	u32 frag_size = xdp->rxq->frag_size, tailroom;

	if (!frag_size || frag_size > xdp->frame_sz)
		return -EOPNOTSUPP;
	tailroom = frag_size - frag->size - frag->off;
	if (unlikely((u32)offset > tailroom))
		return -EINVAL;
	memset(frag->page + frag->off + frag->size, 0, (u32)offset);
	frag->size += (u32)offset;
	sinfo->xdp_frags_size += (u32)offset;
	return 0;
}

/*
 * Cut offset bytes off the end of a multi-buffer frame (bpf_xdp_frags_shrink_tail): fragments
 * from the last one, each emptied one going back to the pool; once none is left the frame is
 * linear again and the rest comes off the linear part. An Ethernet header stays.
 */
static int xdp_frags_shrink_tail(struct nb_xdp_buff *xdp, int offset)
{
	struct nb_skb_shared_info *sinfo = nb_xdp_get_shared_info(xdp);
	int n_frags_free = 0, len_free = 0;

	if (unlikely(offset > (int)nb_xdp_get_buff_len(xdp) - ETH_HLEN))
		return -EINVAL;
	for (int i = sinfo->nr_frags - 1; i >= 0 && offset > 0; i--) {
		struct nb_skb_frag *frag = &sinfo->frags[i];
		int shrink = min_t(int, offset, (int)frag->size);

		len_free += shrink;
		offset -= shrink;
		if ((int)frag->size == shrink) {
			nb_xdp_frag_release(frag);
			n_frags_free++;
		} else {
			frag->size -= (u32)shrink;
		}
	}
	sinfo->nr_frags -= (u8)n_frags_free;
	sinfo->xdp_frags_size -= (u32)len_free;
	if (unlikely(!sinfo->nr_frags)) {
		xdp->flags &= ~NB_XDP_FLAGS_HAS_FRAGS;
		xdp->data_end -= offset;
	}
	return 0;
}

/*
 * bpf_xdp_adjust_tail: move data_end by offset, keeping at least an Ethernet header and the
 * kernel's tailroom; bytes the frame grows by are zeroed. A multi-buffer frame changes at its
 * last fragment instead.
 */
static u64 bpf_xdp_adjust_tail(u64 r1, u64 offset, u64 r3, u64 r4, u64 r5)
{
	struct nb_xdp_buff *xdp = CTX_XDP(r1);
	u8 *data_end = xdp->data_end + (s32)offset;

	if (unlikely(nb_xdp_buff_has_frags(xdp))) {
		/* The kernel negates an int: INT_MIN stays INT_MIN and shrinks nothing. */
		if ((s32)offset < 0)
			return (u64)(s64)xdp_frags_shrink_tail(xdp, (int)(0u - (u32)offset));
		return (u64)(s64)xdp_frags_increase_tail(xdp, (s32)offset);
	}
	if (unlikely(data_end > xdp_data_hard_end(xdp) || data_end < xdp->data + ETH_HLEN))
		return (u64)-EINVAL;
	if ((s32)offset > 0)
		memset(xdp->data_end, 0, (s32)offset);
	xdp->data_end = data_end;
	return 0;
}

static const struct nb_func_proto bpf_xdp_adjust_tail_proto = {
	.func = bpf_xdp_adjust_tail,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING },
};

/*
 * bpf_xdp_adjust_meta: move data_meta by offset; the metadata stays between the xdp_frame room
 * and data, in whole 4-byte words, at most NB_XDP_META_MAX bytes.
 */
static u64 bpf_xdp_adjust_meta(u64 r1, u64 offset, u64 r3, u64 r4, u64 r5)
{
	struct nb_xdp_buff *xdp = CTX_XDP(r1);
	u8 *meta = xdp->data_meta + (s32)offset;
	long metalen = xdp->data - meta;

	if (xdp_meta_unsupported(xdp))
		return (u64)-NB_ENOTSUPP;
	if (unlikely(meta < xdp->data_hard_start + NB_XDP_FRAME_SIZE || meta > xdp->data))
		return (u64)-EINVAL;
	if (unlikely((metalen & 3) || metalen > NB_XDP_META_MAX))
		return (u64)-EACCES;
	xdp->data_meta = meta;
	return 0;
}

static const struct nb_func_proto bpf_xdp_adjust_meta_proto = {
	.func = bpf_xdp_adjust_meta,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING },
};

/*
 * Copy len bytes at offset between the frame and buf (bpf_xdp_copy_buf): the linear part, then
 * the fragments in order. The caller checked that the frame holds them.
 */
static void xdp_copy_buf(struct nb_xdp_buff *xdp, u32 offset, u8 *buf, u32 len, bool to_frame)
{
	u32 linear = (u32)(xdp->data_end - xdp->data);
	struct nb_skb_shared_info *sinfo;
	u8 *piece = xdp->data;
	u32 piece_len = linear;

	if (likely(offset + len <= linear)) {
		if (to_frame)
			memcpy(xdp->data + offset, buf, len);
		else
			memcpy(buf, xdp->data + offset, len);
		return;
	}
	sinfo = nb_xdp_get_shared_info(xdp);
	for (unsigned int i = 0; len; i++) {
		if (offset < piece_len) {
			u32 n = min_t(u32, len, piece_len - offset);

			if (to_frame)
				memcpy(piece + offset, buf, n);
			else
				memcpy(buf, piece + offset, n);
			buf += n;
			len -= n;
			offset = piece_len;
		}
		offset -= piece_len;
		if (!len || i == sinfo->nr_frags)
			break;
		piece = sinfo->frags[i].page + sinfo->frags[i].off;
		piece_len = sinfo->frags[i].size;
	}
}

/*
 * bpf_xdp_load_bytes / bpf_xdp_store_bytes (the checks of bpf_xdp_pointer): offsets and
 * lengths are 16-bit, and the bytes may lie anywhere in the frame, fragments included.
 */
static u64 xdp_access_bytes(struct nb_xdp_buff *xdp, u32 offset, void *buf, u32 len, bool write)
{
	if (unlikely(offset > 0xffff || len > 0xffff))
		return (u64)-EFAULT;
	if (unlikely(offset + len > nb_xdp_get_buff_len(xdp)))
		return (u64)-EINVAL;
	xdp_copy_buf(xdp, offset, buf, len, write);
	return 0;
}

static u64 bpf_xdp_load_bytes(u64 r1, u64 offset, u64 buf, u64 len, u64 r5)
{
	return xdp_access_bytes(CTX_XDP(r1), (u32)offset, PTR(buf), (u32)len, false);
}

static const struct nb_func_proto bpf_xdp_load_bytes_proto = {
	.func = bpf_xdp_load_bytes,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_PTR_TO_UNINIT_MEM,
		      NB_ARG_CONST_SIZE },
};

static u64 bpf_xdp_store_bytes(u64 r1, u64 offset, u64 buf, u64 len, u64 r5)
{
	return xdp_access_bytes(CTX_XDP(r1), (u32)offset, PTR(buf), (u32)len, true);
}

static const struct nb_func_proto bpf_xdp_store_bytes_proto = {
	.func = bpf_xdp_store_bytes,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE },
};

static u64 bpf_xdp_get_buff_len(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return nb_xdp_get_buff_len(CTX_XDP(r1));
}

static const struct nb_func_proto bpf_xdp_get_buff_len_proto = {
	.func = bpf_xdp_get_buff_len,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

const struct nb_func_proto *nb_xdp_own_func_proto(enum bpf_func_id id, const struct nb_prog *prog)
{
	switch (id) {
	case BPF_FUNC_redirect:
		return &bpf_xdp_redirect_proto;
	case BPF_FUNC_redirect_map:
		return &bpf_xdp_redirect_map_proto;
	case BPF_FUNC_xdp_adjust_head:
		return &bpf_xdp_adjust_head_proto;
	case BPF_FUNC_xdp_adjust_tail:
		return &bpf_xdp_adjust_tail_proto;
	case BPF_FUNC_xdp_adjust_meta:
		return &bpf_xdp_adjust_meta_proto;
	case BPF_FUNC_xdp_load_bytes:
		return &bpf_xdp_load_bytes_proto;
	case BPF_FUNC_xdp_store_bytes:
		return &bpf_xdp_store_bytes_proto;
	case BPF_FUNC_xdp_get_buff_len:
		return &bpf_xdp_get_buff_len_proto;
	default:
		return NULL;
	}
}
