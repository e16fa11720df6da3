// SPDX-License-Identifier: GPL-2.0
/*
 * The tunnel metadata helpers of tc programs (net/core/filter.c): bpf_skb_get_tunnel_key and
 * bpf_skb_get_tunnel_opt read what a collect-metadata tunnel device put on a packet it
 * decapsulated; bpf_skb_set_tunnel_key and bpf_skb_set_tunnel_opt give a packet the key (and
 * options) such a device encapsulates it by. The layouts, flags and errors are the kernel's,
 * the old short layouts of struct bpf_tunnel_key included.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>	/* before linux/if_tunnel.h: glibc first keeps them apart */
#include <linux/if_tunnel.h>

#include "pkt/dst_metadata.h"
#include "net/filter.h"
#include "pkt/pkt.h"

#define CTX_PKT(r1) ((struct nb_pkt *)(uintptr_t)(r1))
#define PTR(r) ((void *)(uintptr_t)(r))

/* BPF_F_NO_TUNNEL_KEY (Linux 6.3): the uapi headers netbpf builds with are older. */
#define NB_BPF_F_NO_TUNNEL_KEY (1ULL << 4)
#define IPV6_FLOWLABEL_MASK htonl(0x000fffff)
#define TUNNEL_OPTIONS_ANY                                                                  \
	(TUNNEL_GENEVE_OPT | TUNNEL_VXLAN_OPT | TUNNEL_ERSPAN_OPT | TUNNEL_GTP_OPT)

/* The sizes older programs pass for struct bpf_tunnel_key (the fields they knew). */
static bool compat_size(u32 size)
{
	return size == offsetof(struct bpf_tunnel_key, local_ipv6[0]) ||
	       size == offsetof(struct bpf_tunnel_key, tunnel_label) ||
	       size == offsetof(struct bpf_tunnel_key, tunnel_ext) ||
	       size == offsetof(struct bpf_tunnel_key, remote_ipv6[1]);
}

static u64 bpf_skb_get_tunnel_key(u64 r1, u64 r2, u64 r3, u64 flags, u64 r5)
{
	const struct nb_tun_info *info = nb_pkt_tun_info(CTX_PKT(r1));
	struct bpf_tunnel_key compat, *to = PTR(r2);
	void *to_orig = to;
	u32 size = (u32)r3;
	int err;

	if (unlikely(!info || (flags & ~(u64)(BPF_F_TUNINFO_IPV6 | BPF_F_TUNINFO_FLAGS)))) {
		err = -EINVAL;
		goto err_clear;
	}
	if (nb_tun_info_af(info) != (flags & BPF_F_TUNINFO_IPV6 ? AF_INET6 : AF_INET)) {
		err = -EPROTO;
		goto err_clear;
	}
	if (unlikely(size != sizeof(struct bpf_tunnel_key))) {
		err = -EINVAL;
		if (!compat_size(size))
			goto err_clear;
		/* the oldest layout cannot hold an IPv6 address */
		if (size == offsetof(struct bpf_tunnel_key, remote_ipv6[1]) &&
		    nb_tun_info_af(info) != AF_INET)
			goto err_clear;
		to = &compat;
	}
	to->tunnel_id = (u32)be64toh(info->key.tun_id);
	to->tunnel_tos = info->key.tos;
	to->tunnel_ttl = info->key.ttl;
	if (flags & BPF_F_TUNINFO_FLAGS)
		to->tunnel_flags = info->key.tun_flags;
	else
		to->tunnel_ext = 0;
	if (flags & BPF_F_TUNINFO_IPV6) {
		memcpy(to->remote_ipv6, &info->key.u.ipv6.src, sizeof(to->remote_ipv6));
		memcpy(to->local_ipv6, &info->key.u.ipv6.dst, sizeof(to->local_ipv6));
		to->tunnel_label = ntohl(info->key.label);
	} else {
		to->remote_ipv4 = ntohl(info->key.u.ipv4.src);
		memset(&to->remote_ipv6[1], 0, sizeof(u32) * 3);
		to->local_ipv4 = ntohl(info->key.u.ipv4.dst);
		memset(&to->local_ipv6[1], 0, sizeof(u32) * 3);
		to->tunnel_label = 0;
	}
	if (unlikely(size != sizeof(struct bpf_tunnel_key)))
		memcpy(to_orig, to, size);
	return 0;
err_clear:
	memset(to_orig, 0, size);
	return (u64)(s64)err;
}

static const struct nb_func_proto bpf_skb_get_tunnel_key_proto = {
	.func = bpf_skb_get_tunnel_key,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_PTR_TO_UNINIT_MEM, NB_ARG_CONST_SIZE,
		      NB_ARG_ANYTHING },
};

static u64 bpf_skb_get_tunnel_opt(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	const struct nb_tun_info *info = nb_pkt_tun_info(CTX_PKT(r1));
	u8 *to = PTR(r2);
	u32 size = (u32)r3;
	int err;

	if (unlikely(!info || !(info->key.tun_flags & TUNNEL_OPTIONS_ANY))) {
		err = -ENOENT;
		goto err_clear;
	}
	if (unlikely(size < info->options_len)) {
		err = -ENOMEM;
		goto err_clear;
	}
	memcpy(to, info->options, info->options_len);
	if (size > info->options_len)
		memset(to + info->options_len, 0, size - info->options_len);
	return info->options_len;
err_clear:
	memset(to, 0, size);
	return (u64)(s64)err;
}

static const struct nb_func_proto bpf_skb_get_tunnel_opt_proto = {
	.func = bpf_skb_get_tunnel_opt,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_PTR_TO_UNINIT_MEM, NB_ARG_CONST_SIZE },
};

/*
 * bpf_skb_set_tunnel_key: the packet's metadata becomes a TX key (the kernel reuses a per-CPU
 * metadata dst; here the packet gets an object of its own, which bpf_skb_set_tunnel_opt may
 * then add options to).
 */
static u64 bpf_skb_set_tunnel_key(u64 r1, u64 r2, u64 r3, u64 flags, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	const struct bpf_tunnel_key *from = PTR(r2);
	struct bpf_tunnel_key compat;
	struct nb_tun_info *info;
	struct nb_tun_md *md;
	u32 size = (u32)r3;

	if (unlikely(flags & ~(u64)(BPF_F_TUNINFO_IPV6 | BPF_F_ZERO_CSUM_TX | BPF_F_DONT_FRAGMENT |
				    BPF_F_SEQ_NUMBER | NB_BPF_F_NO_TUNNEL_KEY)))
		return (u64)-EINVAL;
	if (unlikely(size != sizeof(struct bpf_tunnel_key))) {
		if (!compat_size(size))
			return (u64)-EINVAL;
		memcpy(&compat, from, size);
		memset((u8 *)&compat + size, 0, sizeof(compat) - size);
		from = &compat;
	}
	if (unlikely((!(flags & BPF_F_TUNINFO_IPV6) && from->tunnel_label) || from->tunnel_ext))
		return (u64)-EINVAL;
	md = nb_tun_md_alloc();
	if (unlikely(!md))
		return (u64)-ENOMEM;
	nb_pkt_tun_drop(pkt);
	pkt->tun_md = md;
	md->from_helper = true;
	info = &md->info;
	info->mode = NB_TUN_INFO_TX;
	info->key.tun_flags = TUNNEL_NOCACHE;
	if (flags & BPF_F_DONT_FRAGMENT)
		info->key.tun_flags |= TUNNEL_DONT_FRAGMENT;
	if (!(flags & BPF_F_ZERO_CSUM_TX))
		info->key.tun_flags |= TUNNEL_CSUM;
	if (flags & BPF_F_SEQ_NUMBER)
		info->key.tun_flags |= TUNNEL_SEQ;
	if (!(flags & NB_BPF_F_NO_TUNNEL_KEY))
		info->key.tun_flags |= TUNNEL_KEY;
	info->key.tun_id = htobe64(from->tunnel_id);
	info->key.tos = from->tunnel_tos;
	info->key.ttl = from->tunnel_ttl;
	if (flags & BPF_F_TUNINFO_IPV6) {
		info->mode |= NB_TUN_INFO_IPV6;
		memcpy(&info->key.u.ipv6.dst, from->remote_ipv6, sizeof(from->remote_ipv6));
		memcpy(&info->key.u.ipv6.src, from->local_ipv6, sizeof(from->local_ipv6));
		info->key.label = htonl(from->tunnel_label) & IPV6_FLOWLABEL_MASK;
	} else {
		info->key.u.ipv4.dst = htonl(from->remote_ipv4);
		info->key.u.ipv4.src = htonl(from->local_ipv4);
	}
	return 0;
}

static const struct nb_func_proto bpf_skb_set_tunnel_key_proto = {
	.func = bpf_skb_set_tunnel_key,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE, NB_ARG_ANYTHING },
};

/* Options for the key bpf_skb_set_tunnel_key set: whole 32-bit words, every option type. */
static u64 bpf_skb_set_tunnel_opt(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct nb_pkt *pkt = CTX_PKT(r1);
	struct nb_tun_md *md = pkt->tun_md;
	u32 size = (u32)r3;

	if (unlikely(!md || !md->from_helper || (size & (sizeof(u32) - 1))))
		return (u64)-EINVAL;
	if (unlikely(size > NB_TUN_OPTS_MAX))
		return (u64)-ENOMEM;
	md->info.options_len = (u8)size;
	if (size) {
		memcpy(md->info.options, PTR(r2), size);
		md->info.key.tun_flags |= TUNNEL_OPTIONS_ANY;
	}
	return 0;
}

static const struct nb_func_proto bpf_skb_set_tunnel_opt_proto = {
	.func = bpf_skb_set_tunnel_opt,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE },
};

const struct nb_func_proto *nb_tc_tunnel_func_proto(enum bpf_func_id id)
{
	switch (id) {
	case BPF_FUNC_skb_get_tunnel_key:
		return &bpf_skb_get_tunnel_key_proto;
	case BPF_FUNC_skb_set_tunnel_key:
		return &bpf_skb_set_tunnel_key_proto;
	case BPF_FUNC_skb_get_tunnel_opt:
		return &bpf_skb_get_tunnel_opt_proto;
	case BPF_FUNC_skb_set_tunnel_opt:
		return &bpf_skb_set_tunnel_opt_proto;
	default:
		return NULL;
	}
}
