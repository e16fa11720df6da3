// SPDX-License-Identifier: GPL-2.0
/*
 * Packet helpers of the tc, socket filter and XDP program types, with the kernel's ids,
 * prototypes and semantics (net/core/filter.c). Helpers take the context (struct nb_pkt * for
 * the skb types) in r1. Reads reach every byte of the packet, fragments included (as
 * skb_header_pointer); writes first pull the bytes into the private linear part (as
 * bpf_try_make_writable). The checksum helpers keep CHECKSUM_PARTIAL packets right as
 * inet_proto_csum_replace* does: the field of a partial checksum holds the pseudo-header sum
 * only, so only pseudo-header changes (BPF_F_PSEUDO_HDR) touch it; skb->csum is not kept
 * (no packet is CHECKSUM_COMPLETE here), so the flags that only maintain it
 * (BPF_F_RECOMPUTE_CSUM) change nothing, exactly as in the kernel for such packets.
 */
#include <errno.h>
#include <limits.h>
#include <arpa/inet.h>
#include <string.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>

#include "bpf/helpers.h"
#include "bpf/prog.h"
#include "pkt/csum.h"
#include "net/filter.h"
#include "pkt/flow.h"
#include "pkt/pkt.h"

#define CTX_PKT(r1) ((struct nb_pkt *)(uintptr_t)(r1))
#define PTR(r) ((void *)(uintptr_t)(r))

/* The kernel's bpf_try_make_writable: private data for write_len bytes, fresh pointers. */
static int pkt_try_make_writable(struct nb_pkt *pkt, u32 write_len)
{
	int err = nb_pkt_ensure_writable(pkt, write_len);

	nb_pkt_compute_data_pointers(pkt);
	return err;
}

/* bpf_skb_load_bytes: len bytes at offset from data into the stack; zeroed on failure. */
static u64 bpf_skb_load_bytes(u64 r1, u64 offset, u64 to, u64 len, u64 r5)
{
	const struct nb_pkt *pkt = CTX_PKT(r1);

	if ((u32)offset <= INT_MAX && !nb_pkt_copy_bits(pkt, (u32)offset, PTR(to), (u32)len))
		return 0;
	memset(PTR(to), 0, (u32)len);
	return (u64)-EFAULT;
}

static const struct nb_func_proto bpf_skb_load_bytes_proto = {
	.func = bpf_skb_load_bytes,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_PTR_TO_UNINIT_MEM,
		      NB_ARG_CONST_SIZE },
};

/*
 * bpf_skb_load_bytes_relative: from the mac (BPF_HDR_START_MAC) or network header, within the
 * linear part (the kernel reads up to skb_tail_pointer).
 */
static u64 bpf_skb_load_bytes_relative(u64 r1, u64 offset, u64 to, u64 len, u64 start_header)
{
	const struct nb_pkt *pkt = CTX_PKT(r1);
	const u8 *end = pkt->data + nb_pkt_headlen(pkt);
	const u8 *start;

	if ((u32)offset > 0xffff)
		goto err;
	switch ((u32)start_header) {
	case BPF_HDR_START_MAC:
		if (pkt->mac_header == NB_PKT_HDR_UNSET)
			goto err;
		start = nb_pkt_mac_header(pkt);
		break;
	case BPF_HDR_START_NET:
		if (pkt->network_header == NB_PKT_HDR_UNSET)
			goto err;
		start = nb_pkt_network_header(pkt);
		break;
	default:
		goto err;
	}
	if (start + (u32)offset + (u32)len <= end) {
		memcpy(PTR(to), start + (u32)offset, (u32)len);
		return 0;
	}
err:
	memset(PTR(to), 0, (u32)len);
	return (u64)-EFAULT;
}

static const struct nb_func_proto bpf_skb_load_bytes_relative_proto = {
	.func = bpf_skb_load_bytes_relative,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_PTR_TO_UNINIT_MEM,
		      NB_ARG_CONST_SIZE, NB_ARG_ANYTHING },
};

/* bpf_skb_store_bytes: write len bytes at offset, taking private data first. */
static u64 bpf_skb_store_bytes(u64 r1, u64 offset, u64 from, u64 len, u64 flags)
{
	struct nb_pkt *pkt = CTX_PKT(r1);

	if (flags & ~(u64)(BPF_F_RECOMPUTE_CSUM | BPF_F_INVALIDATE_HASH))
		return (u64)-EINVAL;
	if ((u32)offset > INT_MAX)
		return (u64)-EFAULT;
	if ((u64)(u32)offset + (u32)len > UINT_MAX ||
	    pkt_try_make_writable(pkt, (u32)offset + (u32)len))
		return (u64)-EFAULT;
	memcpy(pkt->data + (u32)offset, PTR(from), (u32)len);
	if (flags & BPF_F_INVALIDATE_HASH)
		nb_pkt_clear_hash(pkt);
	return 0;
}

static const struct nb_func_proto bpf_skb_store_bytes_proto = {
	.func = bpf_skb_store_bytes,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE,
		      NB_ARG_ANYTHING },
};

/* A writable, 2-byte aligned checksum field at offset, or NULL (the -EFAULT cases). */
static u16 *csum_field(struct nb_pkt *pkt, u64 offset)
{
	if ((u32)offset > 0xffff || (offset & 1))
		return NULL;
	if (pkt_try_make_writable(pkt, (u32)offset + sizeof(u16)))
		return NULL;
	return (u16 *)(pkt->data + (u32)offset);
}

/*
 * Fold the change of a field into a checksum, as both csum_replace helpers do: the low flag
 * bits give the field size (2 or 4), or 0 when to is a csum_diff result and from must be 0.
 */
static int csum_replace_field(u16 *sum, u64 flags, u64 from, u64 to)
{
	switch (flags & BPF_F_HDR_FIELD_MASK) {
	case 0:
		if (from != 0)
			return -EINVAL;
		nb_csum_replace_by_diff(sum, (u32)to);
		return 0;
	case 2:
		nb_csum_replace2(sum, (u16)from, (u16)to);
		return 0;
	case 4:
		nb_csum_replace4(sum, (u32)from, (u32)to);
		return 0;
	default:
		return -EINVAL;
	}
}

/* bpf_l3_csum_replace: fix an IPv4 header checksum for a changed 2- or 4-byte field. */
static u64 bpf_l3_csum_replace(u64 r1, u64 offset, u64 from, u64 to, u64 flags)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	u16 *ptr, sum;

	if (flags & ~(u64)BPF_F_HDR_FIELD_MASK)
		return (u64)-EINVAL;
	ptr = csum_field(pkt, offset);
	if (!ptr)
		return (u64)-EFAULT;
	memcpy(&sum, ptr, sizeof(sum));
	if (csum_replace_field(&sum, flags, from, to))
		return (u64)-EINVAL;
	memcpy(ptr, &sum, sizeof(sum));
	return 0;
}

static const struct nb_func_proto bpf_l3_csum_replace_proto = {
	.func = bpf_l3_csum_replace,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_ANYTHING, NB_ARG_ANYTHING,
		      NB_ARG_ANYTHING },
};

/*
 * The field of a CHECKSUM_PARTIAL packet holds the uninverted pseudo-header sum, which the
 * device completes over the data: a pseudo-header field's change goes into it uninverted,
 * a data change does not (inet_proto_csum_replace4 and _by_diff for CHECKSUM_PARTIAL).
 */
static int csum_replace_partial(u16 *sum, u64 flags, u64 from, u64 to)
{
	u32 unfolded = *sum;

	switch (flags & BPF_F_HDR_FIELD_MASK) {
	case 0:
		if (from != 0)
			return -EINVAL;
		if (flags & BPF_F_PSEUDO_HDR)
			*sum = (u16)~nb_csum_fold(nb_csum_add((u32)to, unfolded));
		return 0;
	case 2:
	case 4:
		if (flags & BPF_F_PSEUDO_HDR)
			*sum = (u16)~nb_csum_fold(nb_csum_add(nb_csum_sub(unfolded, (u32)from),
							      (u32)to));
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * bpf_l4_csum_replace: the same for a TCP/UDP checksum. BPF_F_MARK_MANGLED_0 leaves a zero
 * (UDP: "no checksum") alone and never writes zero (CSUM_MANGLED_0 instead).
 */
static u64 bpf_l4_csum_replace(u64 r1, u64 offset, u64 from, u64 to, u64 flags)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	bool is_mmzero = flags & BPF_F_MARK_MANGLED_0;
	bool do_mforce = flags & BPF_F_MARK_ENFORCE;
	u16 *ptr, sum;

	if (flags & ~(u64)(BPF_F_MARK_MANGLED_0 | BPF_F_MARK_ENFORCE | BPF_F_PSEUDO_HDR |
			   BPF_F_HDR_FIELD_MASK))
		return (u64)-EINVAL;
	ptr = csum_field(pkt, offset);
	if (!ptr)
		return (u64)-EFAULT;
	memcpy(&sum, ptr, sizeof(sum));
	if (is_mmzero && !do_mforce && !sum)
		return 0;
	if (pkt->ip_summed == NB_CHECKSUM_PARTIAL ? csum_replace_partial(&sum, flags, from, to) :
						     csum_replace_field(&sum, flags, from, to))
		return (u64)-EINVAL;
	if (is_mmzero && !sum)
		sum = 0xffff; /* CSUM_MANGLED_0 */
	memcpy(ptr, &sum, sizeof(sum));
	return 0;
}

static const struct nb_func_proto bpf_l4_csum_replace_proto = {
	.func = bpf_l4_csum_replace,
	.changes_pkt_data = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_ANYTHING, NB_ARG_ANYTHING,
		      NB_ARG_ANYTHING },
};

/* bpf_get_hash_recalc: the flow hash, computed now when the packet has none. */
static u64 bpf_get_hash_recalc(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return nb_pkt_get_hash(CTX_PKT(r1));
}

static const struct nb_func_proto bpf_get_hash_recalc_proto = {
	.func = bpf_get_hash_recalc,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

/* bpf_set_hash_invalid: forget the hash; the next reader computes it again. */
static u64 bpf_set_hash_invalid(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	nb_pkt_clear_hash(CTX_PKT(r1));
	return 0;
}

static const struct nb_func_proto bpf_set_hash_invalid_proto = {
	.func = bpf_set_hash_invalid,
	.ret_type = NB_RET_VOID,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

/* bpf_set_hash: a hash chosen by the program, marked as software, not L4 (__skb_set_sw_hash). */
static u64 bpf_set_hash(u64 r1, u64 hash, u64 r3, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);

	pkt->hash = (u32)hash;
	pkt->sw_hash = 1;
	pkt->l4_hash = 0;
	return 0;
}

static const struct nb_func_proto bpf_set_hash_proto = {
	.func = bpf_set_hash,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING },
};

/*
 * bpf_get_cgroup_classid: in softirq the kernel answers with the packet's socket's net_cls
 * class, 0 without one, which every packet here is.
 */
static u64 bpf_get_cgroup_classid(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return 0;
}

static const struct nb_func_proto bpf_get_cgroup_classid_proto = {
	.func = bpf_get_cgroup_classid,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

/* bpf_get_route_realm: no routes here, so no realm: 0 (as without CONFIG_IP_ROUTE_CLASSID). */
static u64 bpf_get_route_realm(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return 0;
}

static const struct nb_func_proto bpf_get_route_realm_proto = {
	.func = bpf_get_route_realm,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

/*
 * bpf_skb_get_xfrm_state: the IPsec state of the packet's index-th transform; netbpf does no
 * IPsec, so there is none: the buffer zeroed and -EINVAL, as the kernel answers then.
 */
static u64 bpf_skb_get_xfrm_state(u64 r1, u64 index, u64 to, u64 size, u64 flags)
{
	(void)r1, (void)index, (void)flags;
	memset((void *)(uintptr_t)to, 0, (size_t)(u32)size);
	return (u64)-EINVAL;
}

static const struct nb_func_proto bpf_skb_get_xfrm_state_proto = {
	.func = bpf_skb_get_xfrm_state,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_PTR_TO_UNINIT_MEM,
		      NB_ARG_CONST_SIZE, NB_ARG_ANYTHING },
};

/*
 * bpf_csum_update: fold csum into skb->csum for CHECKSUM_COMPLETE packets, which netbpf's
 * receive paths never make: -ENOTSUPP, as the kernel answers for every other packet.
 */
static u64 bpf_csum_update(u64 r1, u64 csum, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)csum, (void)r3, (void)r4, (void)r5;
	return (u64)-NB_ENOTSUPP;
}

static const struct nb_func_proto bpf_csum_update_proto = {
	.func = bpf_csum_update,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING },
};

/*
 * bpf_csum_level: raise, lower, reset or query how many checksums of the packet are known good
 * (__skb_incr/decr/reset_checksum_unnecessary). A query of a packet not CHECKSUM_UNNECESSARY
 * is -EACCES.
 */
static u64 bpf_csum_level(u64 r1, u64 level, u64 r3, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	bool unnecessary = pkt->ip_summed == NB_CHECKSUM_UNNECESSARY;

	(void)r3, (void)r4, (void)r5;
	switch (level) {
	case BPF_CSUM_LEVEL_INC:
		if (unnecessary) {
			if (pkt->csum_level < NB_MAX_CSUM_LEVEL)
				pkt->csum_level++;
		} else if (pkt->ip_summed == NB_CHECKSUM_NONE) {
			pkt->ip_summed = NB_CHECKSUM_UNNECESSARY;
			pkt->csum_level = 0;
		}
		return 0;
	case BPF_CSUM_LEVEL_DEC:
		if (unnecessary) {
			if (!pkt->csum_level)
				pkt->ip_summed = NB_CHECKSUM_NONE;
			else
				pkt->csum_level--;
		}
		return 0;
	case BPF_CSUM_LEVEL_RESET:
		nb_pkt_reset_checksum_unnecessary(pkt);
		return 0;
	case BPF_CSUM_LEVEL_QUERY:
		return unnecessary ? pkt->csum_level : (u64)-EACCES;
	default:
		return (u64)-EINVAL;
	}
}

static const struct nb_func_proto bpf_csum_level_proto = {
	.func = bpf_csum_level,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING },
};

/*
 * bpf_skb_set_tstamp: a delivery time with its clock. The uapi values name the clocks (Linux
 * 6.11+: 0 realtime, which 5.18 called UNSPEC, 1 monotonic, 2 TAI); tstamp_type keeps the
 * value, which __sk_buff->tstamp_type shows.
 */
#define NB_SKB_CLOCK_REALTIME  0
#define NB_SKB_CLOCK_MONOTONIC 1
#define NB_SKB_CLOCK_TAI       2

static u64 bpf_skb_set_tstamp(u64 r1, u64 tstamp, u64 tstamp_type, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);

	if (pkt->protocol != htons(ETH_P_IP) && pkt->protocol != htons(ETH_P_IPV6))
		return (u64)-EOPNOTSUPP;
	switch ((u32)tstamp_type) {
	case NB_SKB_CLOCK_REALTIME:
		break;
	case NB_SKB_CLOCK_MONOTONIC:
	case NB_SKB_CLOCK_TAI:
		if (!tstamp)
			return (u64)-EINVAL;
		break;
	default:
		return (u64)-EINVAL;
	}
	pkt->tstamp = tstamp;
	pkt->tstamp_type = (u8)tstamp_type;
	return 0;
}

static const struct nb_func_proto bpf_skb_set_tstamp_proto = {
	.func = bpf_skb_set_tstamp,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING, NB_ARG_ANYTHING },
};

const struct nb_func_proto *nb_tc_func_proto(enum bpf_func_id id, const struct nb_prog *prog)
{
	const struct nb_func_proto *proto;

	switch (id) {
	case BPF_FUNC_skb_store_bytes:
		return &bpf_skb_store_bytes_proto;
	case BPF_FUNC_skb_load_bytes:
		return &bpf_skb_load_bytes_proto;
	case BPF_FUNC_skb_load_bytes_relative:
		return &bpf_skb_load_bytes_relative_proto;
	case BPF_FUNC_csum_diff:
		return &nb_csum_diff_proto;
	case BPF_FUNC_l3_csum_replace:
		return &bpf_l3_csum_replace_proto;
	case BPF_FUNC_l4_csum_replace:
		return &bpf_l4_csum_replace_proto;
	case BPF_FUNC_csum_update:
		return &bpf_csum_update_proto;
	case BPF_FUNC_csum_level:
		return &bpf_csum_level_proto;
	case BPF_FUNC_get_cgroup_classid:
		return &bpf_get_cgroup_classid_proto;
	case BPF_FUNC_get_route_realm:
		return &bpf_get_route_realm_proto;
	case BPF_FUNC_skb_get_xfrm_state:
		return &bpf_skb_get_xfrm_state_proto;
	case BPF_FUNC_get_hash_recalc:
		return &bpf_get_hash_recalc_proto;
	case BPF_FUNC_set_hash_invalid:
		return &bpf_set_hash_invalid_proto;
	case BPF_FUNC_set_hash:
		return &bpf_set_hash_proto;
	case BPF_FUNC_skb_set_tstamp:
		return &bpf_skb_set_tstamp_proto;
	default:
		break;
	}
	/* the redirect, routing, tunnel, cgroup and packet-changing helpers have their own files */
	if ((proto = nb_tc_redirect_func_proto(id)))
		return proto;
	if ((proto = nb_tc_fib_func_proto(id)))
		return proto;
	if ((proto = nb_tc_tunnel_func_proto(id)))
		return proto;
	if ((proto = nb_skb_sock_func_proto(id, true)))
		return proto;
	if ((proto = nb_sk_func_proto(id, true)))
		return proto;
	if ((proto = nb_tc_cgroup_func_proto(id)))
		return proto;
	return nb_tc_mangle_func_proto(id);
}

const struct nb_func_proto *nb_sk_filter_func_proto(enum bpf_func_id id,
						    const struct nb_prog *prog)
{
	switch (id) {
	case BPF_FUNC_skb_load_bytes:
		return &bpf_skb_load_bytes_proto;
	case BPF_FUNC_skb_load_bytes_relative:
		return &bpf_skb_load_bytes_relative_proto;
	default:
		return nb_skb_sock_func_proto(id, false);
	}
}

const struct nb_func_proto *nb_xdp_func_proto(enum bpf_func_id id, const struct nb_prog *prog)
{
	switch (id) {
	case BPF_FUNC_csum_diff:
		return &nb_csum_diff_proto;
	default:
		break;
	}
	return nb_xdp_fib_func_proto(id) ?: nb_sk_func_proto(id, false) ?:
	       nb_xdp_own_func_proto(id, prog);
}
