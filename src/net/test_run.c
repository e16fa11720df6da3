// SPDX-License-Identifier: GPL-2.0
/*
 * The twin of the kernel's BPF_PROG_TEST_RUN for the packet program types (net/bpf/test_run.c:
 * bpf_prog_test_run_skb and bpf_prog_test_run_xdp): a packet is built from data_in as the kernel
 * builds it, the program runs, and data_out, ctx_out and retval come back as the kernel gives
 * them. The device is a stand-in for the loopback device (ifindex 1, MAC 00:00:00:00:00:00)
 * unless ctx_in names another registered device.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <netbpf/clock.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "bpf/epoch.h"
#include "bpf/prog.h"
#include "bpf/timer.h"
#include "net/core.h"
#include "net/ctx_insn.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/redirect.h"
#include "net/sock.h"
#include "common/opts.h"

/* The kernel's NET_SKB_PAD + NET_IP_ALIGN on x86_64: the headroom of a test skb. */
#define TEST_SKB_HEADROOM 64
#define PAGE_SIZE_4K	  4096

/* Counters of its own, so that whatever a program makes count on the device lands somewhere. */
static struct nb_dev_stats test_run_lo_stats[NB_MAX_CPUS];
static struct nb_dev test_run_lo = { .ifindex = 1, .name = "lo", .mtu = 65536, .up = true,
				     .hard_header_len = ETH_HLEN, .stats = test_run_lo_stats };

static bool range_is_zero(const void *buf, size_t from, size_t to)
{
	const u8 *p = buf;

	for (size_t i = from; i < to; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * bpf_ctx_init: a zeroed context of size bytes with ctx_in copied in; bytes of ctx_in beyond
 * size must be zero. Returns false with *err set when ctx_in is refused.
 */
static bool ctx_init(const struct nb_test_run_opts *opts, void *ctx, size_t size, int *err)
{
	memset(ctx, 0, size);
	if (!opts->ctx_in) {
		*err = opts->ctx_size_in ? -EINVAL : 0;
		return !*err;
	}
	if (opts->ctx_size_in > size && !range_is_zero(opts->ctx_in, size, opts->ctx_size_in)) {
		*err = -E2BIG;
		return false;
	}
	memcpy(ctx, opts->ctx_in, min_t(size_t, size, opts->ctx_size_in));
	*err = 0;
	return true;
}

/* bpf_test_finish and bpf_ctx_finish: copy what fits, tell the real sizes. */
static int test_finish(struct nb_test_run_opts *opts, const void *data, u32 size, const void *ctx,
		       u32 ctx_size, bool has_ctx)
{
	int err = 0;

	if (opts->data_out) {
		u32 copy = size;

		if (copy > opts->data_size_out) {
			copy = opts->data_size_out;
			err = -ENOSPC;
		}
		memcpy(opts->data_out, data, copy);
	}
	opts->data_size_out = size;
	if (has_ctx && opts->ctx_out) {
		u32 copy = ctx_size;

		if (copy > opts->ctx_size_out) {
			copy = opts->ctx_size_out;
			err = -ENOSPC;
		}
		memcpy(opts->ctx_out, ctx, copy);
		opts->ctx_size_out = ctx_size;
	}
	return err;
}

/* CLOCK_MONOTONIC; the virtual clock in the deterministic mode, where a run takes no time. */
static u64 now_ns(void)
{
	return nb_ktime_get_ns();
}

/* Runs between two quiescent points of the repeat loop (bpf_test_timer_continue's resched). */
#define TEST_RUN_BATCH 1024

/*
 * The repeat loop (bpf_test_run): one epoch read section around a batch of runs, as the kernel
 * holds rcu_read_lock across its loop, so that a run costs the program and not the section's
 * entry and exit; between batches, waiting reclaimers may go on. Returns the last run's r0.
 */
static u64 run_repeat(const struct nb_prog *prog, const void *ctx, int repeat)
{
	u64 ret = 0;

	for (int done = 0; done < repeat;) {
		int batch = min_t(int, repeat - done, TEST_RUN_BATCH);

		nb_epoch_read_lock();
		for (int i = 0; i < batch; i++)
			ret = nb_prog_run_locked(prog, ctx);
		nb_epoch_read_unlock();
		done += batch;
	}
	return ret;
}

/*
 * bpf_test_init's buffer is zeroed (kzalloc): a program that grows the packet into its headroom
 * or tailroom finds zeros there, never the bytes of the pool's previous packet.
 */
static void zero_around(struct nb_pkt *pkt)
{
	memset(pkt->head, 0, nb_pkt_headroom(pkt));
	memset(pkt->data + pkt->len, 0, nb_pkt_tailroom(pkt));
}

/* convert___skb_to_skb: only the fields a test may set are set. */
static int skb_from_ctx(struct nb_pkt *pkt, const struct __sk_buff *ctx)
{
#define OFF(f) offsetof(struct __sk_buff, f)
#define END(f) offsetofend(struct __sk_buff, f)
	if (!range_is_zero(ctx, 0, OFF(mark)) || !range_is_zero(ctx, END(mark), OFF(priority)) ||
	    !range_is_zero(ctx, END(ifindex), OFF(cb)) ||
	    !range_is_zero(ctx, END(cb), OFF(tstamp)) ||
	    !range_is_zero(ctx, END(gso_segs), OFF(gso_size)) ||
	    !range_is_zero(ctx, END(gso_size), OFF(hwtstamp)) ||
	    !range_is_zero(ctx, END(hwtstamp), sizeof(*ctx)))
		return -EINVAL;
#undef OFF
#undef END
	pkt->mark = ctx->mark;
	pkt->priority = ctx->priority;
	pkt->skb_iif = ctx->ingress_ifindex;
	pkt->tstamp = ctx->tstamp;
	memcpy(pkt->qdisc_cb.data, ctx->cb, sizeof(pkt->qdisc_cb.data));
	if (ctx->wire_len == 0) {
		pkt->qdisc_cb.pkt_len = pkt->len;
	} else {
		if (ctx->wire_len < pkt->len || ctx->wire_len > 65536 /* GSO_LEGACY_MAX_SIZE */)
			return -EINVAL;
		pkt->qdisc_cb.pkt_len = ctx->wire_len;
	}
	if (ctx->gso_segs > 65535 /* GSO_MAX_SEGS */)
		return -EINVAL;
	pkt->gso_segs = (u16)ctx->gso_segs;
	pkt->gso_size = (u16)ctx->gso_size;
	pkt->hwtstamp = ctx->hwtstamp;
	return 0;
}

/* convert_skb_to___skb */
static void skb_to_ctx(const struct nb_pkt *pkt, struct __sk_buff *ctx)
{
	ctx->mark = pkt->mark;
	ctx->priority = pkt->priority;
	ctx->ingress_ifindex = pkt->skb_iif;
	ctx->ifindex = pkt->dev->ifindex;
	ctx->tstamp = pkt->tstamp;
	memcpy(ctx->cb, pkt->qdisc_cb.data, sizeof(ctx->cb));
	ctx->wire_len = pkt->qdisc_cb.pkt_len;
	ctx->gso_segs = pkt->gso_segs;
	ctx->hwtstamp = pkt->hwtstamp;
}

static int test_run_skb(const struct nb_prog *prog, struct nb_test_run_opts *opts)
{
	bool is_l2 = prog->type == BPF_PROG_TYPE_SCHED_CLS || prog->type == BPF_PROG_TYPE_SCHED_ACT;
	bool has_ctx = opts->ctx_in || opts->ctx_out;
	struct nb_dev *dev = &test_run_lo, *found = NULL;
	int repeat = opts->repeat > 0 ? opts->repeat : 1;
	u32 size = opts->data_size_in, retval = 0;
	struct __sk_buff ctx;
	struct nb_sock sk = { 0 };
	struct nb_pkt *pkt;
	u64 start;
	int err;

	if (size < ETH_HLEN || size > PAGE_SIZE_4K - TEST_SKB_HEADROOM - NB_PKT_TAILROOM ||
	    !opts->data_in)
		return -EINVAL;
	if (!ctx_init(opts, &ctx, sizeof(ctx), &err))
		return err;
	pkt = nb_pkt_alloc();
	if (!pkt)
		return -ENOMEM;
	/* The kernel's test skb has NET_SKB_PAD of headroom, not XDP's 256 bytes. */
	pkt->data = pkt->head + TEST_SKB_HEADROOM;
	memcpy(nb_pkt_put(pkt, size), opts->data_in, size);
	zero_around(pkt);
	if (has_ctx && ctx.ifindex > 1) {
		found = nb_dev_get_by_index(ctx.ifindex);
		if (!found) {
			nb_pkt_free(pkt);
			return -ENODEV;
		}
		dev = found;
	}
	pkt->dev = dev;
	nb_eth_type_trans(pkt, dev);
	/* bpf_prog_test_run_skb gives its skb a socket (a cgroup-less one) of its addresses. */
	nb_sock_init_test(&sk, pkt);
	pkt->sk = &sk;
	/*
	 * An IPv4 or IPv6 packet shorter than its network header is refused, as the kernel's
	 * test run does since "bpf: reject short IPv4/IPv6 inputs" (6.18 stable): it reads the
	 * addresses into its socket.
	 */
	if ((pkt->protocol == htons(ETH_P_IP) && size - ETH_HLEN < sizeof(struct iphdr)) ||
	    (pkt->protocol == htons(ETH_P_IPV6) && size - ETH_HLEN < sizeof(struct ipv6hdr))) {
		err = -EINVAL;
		goto out;
	}
	/* eth_type_trans leaves data at L3; tc programs see it from L2 again. */
	if (!is_l2)
		nb_pkt_pull(pkt, ETH_HLEN);
	nb_pkt_compute_data_pointers(pkt);
	err = has_ctx ? skb_from_ctx(pkt, &ctx) : 0;
	if (!has_ctx)
		pkt->qdisc_cb.pkt_len = pkt->len;
	if (err)
		goto out;

	start = now_ns();
	retval = (u32)run_repeat(prog, pkt, repeat);
	opts->duration = (u32)((now_ns() - start) / (u64)repeat);
	opts->retval = retval;

	if (!is_l2)
		memset(nb_pkt_push(pkt, ETH_HLEN), 0, ETH_HLEN);
	if (has_ctx)
		skb_to_ctx(pkt, &ctx);
	/* no helper leaves a test skb with fragments; should one, data_out is the whole packet */
	err = nb_pkt_linearize(pkt);
	if (!err)
		err = test_finish(opts, pkt->data, pkt->len, &ctx, sizeof(ctx), has_ctx);
out:
	nb_pkt_free(pkt);
	nb_sock_release(&sk);
	nb_dev_put(found);
	return err;
}

/*
 * bpf_test_finish for an XDP frame that may have fragments: data_out gets the bytes from
 * data_meta, then each fragment's. The kernel's clamp to data_size_out is reproduced as it is:
 * the room left for the linear part is data_size_out minus every fragment byte, so a short
 * data_out holds the first bytes of the linear part followed by fragment bytes, and one too
 * short for the fragments alone fails with -ENOSPC before anything is written or reported.
 */
static int test_finish_xdp(struct nb_test_run_opts *opts, const struct nb_xdp_buff *xdp,
			   u32 retval, const struct xdp_md *ctx, bool has_ctx)
{
	const struct nb_skb_shared_info *sinfo = nb_xdp_get_shared_info(xdp);
	u32 frags_size = nb_xdp_buff_has_frags(xdp) ? sinfo->xdp_frags_size : 0;
	u32 size = (u32)(xdp->data_end - xdp->data_meta) + frags_size, copy = size;
	int err = 0;

	if (opts->data_out) {
		u8 *out = opts->data_out;
		u32 off;

		if (copy > opts->data_size_out) {
			copy = opts->data_size_out;
			err = -ENOSPC;
		}
		if (copy < frags_size)
			return -ENOSPC;
		off = copy - frags_size;
		memcpy(out, xdp->data_meta, off);
		for (unsigned int i = 0; frags_size && i < sinfo->nr_frags; i++) {
			const struct nb_skb_frag *frag = &sinfo->frags[i];
			u32 n;

			if (off >= copy) {
				err = -ENOSPC;
				break;
			}
			n = min_t(u32, copy - off, frag->size);
			memcpy(out + off, frag->page + frag->off, n);
			off += n;
		}
	}
	opts->data_size_out = size;
	opts->retval = retval;
	if (err)
		return err;
	if (has_ctx && opts->ctx_out) {
		u32 ctx_copy = sizeof(*ctx);

		if (ctx_copy > opts->ctx_size_out) {
			ctx_copy = opts->ctx_size_out;
			err = -ENOSPC;
		}
		memcpy(opts->ctx_out, ctx, ctx_copy);
		opts->ctx_size_out = sizeof(*ctx);
	}
	return err;
}

/*
 * bpf_prog_test_run_xdp: the frame starts XDP_PACKET_HEADROOM into a page (less the metadata
 * ctx_in asks for) and fills it up to the skb_shared_info room; what does not fit goes into
 * fragments of a page each, at most NB_XDP_MAX_FRAGS (-ENOMEM beyond), and the program sees
 * data..data_end over the linear part only, with or without BPF_F_XDP_HAS_FRAGS, as in the
 * kernel. XDP_TX and XDP_REDIRECT are verdicts only: this run transmits nothing (the kernel's
 * live-frames mode, which would, refuses frames beyond a page anyway).
 */
static int test_run_xdp(const struct nb_prog *prog, struct nb_test_run_opts *opts)
{
	struct nb_xdp_rxq_info rxq = { .dev = &test_run_lo, .ifindex = 1, .queue_index = 0,
				       .frag_size = NB_PKT_BUF_SIZE };
	bool has_ctx = opts->ctx_in || opts->ctx_out;
	int repeat = opts->repeat > 0 ? opts->repeat : 1;
	u32 size = opts->data_size_in, headroom = NB_PKT_HEADROOM, max_data_sz, retval = 0;
	const u8 *data_in = opts->data_in;
	struct nb_dev *found = NULL;
	struct nb_xdp_buff xdp;
	struct xdp_md ctx;
	struct nb_pkt *pkt;
	u64 start;
	int err;

	if (prog->expected_attach_type == BPF_XDP_DEVMAP ||
	    prog->expected_attach_type == BPF_XDP_CPUMAP)
		return -EINVAL;
	if (!ctx_init(opts, &ctx, sizeof(ctx), &err))
		return err;
	if (has_ctx) {
		/* No user data before the metadata; metadata in 4-byte steps up to 32 bytes. */
		if (ctx.data_meta || ctx.data_end != size || ctx.data > ctx.data_end ||
		    (ctx.data & 3) || ctx.data > NB_PKT_META_MAX)
			return -EINVAL;
		headroom -= ctx.data;
	}
	max_data_sz = PAGE_SIZE_4K - headroom - NB_PKT_TAILROOM;
	if (size > max_data_sz)
		size = max_data_sz;	/* the rest goes into fragments */
	if (size < ETH_HLEN || !data_in)
		return -EINVAL;
	if (has_ctx) {
		if (ctx.egress_ifindex)
			return -EINVAL;
		if (!ctx.ingress_ifindex && ctx.rx_queue_index)
			return -EINVAL;
		if (ctx.ingress_ifindex) {
			found = nb_dev_get_by_index(ctx.ingress_ifindex);
			/* the kernel finds its loopback device at 1: the stand-in here */
			if (!found && ctx.ingress_ifindex != 1)
				return -ENODEV;
			/* One receive queue per device here. */
			if (ctx.rx_queue_index) {
				nb_dev_put(found);
				return -EINVAL;
			}
			if (found) {
				rxq.dev = found;
				rxq.ifindex = found->ifindex;
			}
			/*
			 * Another device's own receive queue, whose frames have no fragments:
			 * a fragment cannot grow there (-EOPNOTSUPP), as on a kernel device that
			 * registered its queue without a frag_size. The test run sets the
			 * loopback's, at 1.
			 */
			if (ctx.ingress_ifindex != 1)
				rxq.frag_size = 0;
		}
	}
	pkt = nb_pkt_alloc();
	if (!pkt) {
		nb_dev_put(found);
		return -ENOMEM;
	}
	pkt->data = pkt->head + headroom;
	memcpy(nb_pkt_put(pkt, size), data_in, size);
	zero_around(pkt);
	nb_pkt_to_xdp(pkt, &xdp, &rxq);
	/* xdp_convert_md_to_buff: the first ctx.data bytes are metadata. */
	xdp.data = xdp.data_meta + (has_ctx ? ctx.data : 0);
	while (size < opts->data_size_in) {
		u32 len = min_t(u32, opts->data_size_in - size, PAGE_SIZE_4K);

		err = nb_xdp_frag_append(&xdp, data_in + size, len);
		if (err)
			goto out;
		size += len;
	}

	start = now_ns();
	retval = (u32)run_repeat(prog, &xdp, repeat);
	opts->duration = (u32)((now_ns() - start) / (u64)repeat);

	if (has_ctx) {
		ctx.data = (u32)(xdp.data - xdp.data_meta);
		ctx.data_end = (u32)(xdp.data_end - xdp.data_meta);
	}
	err = test_finish_xdp(opts, &xdp, retval, &ctx, has_ctx);
out:
	nb_xdp_frags_free(&xdp);
	nb_pkt_free(pkt);
	nb_dev_put(found);
	return err;
}

/*
 * Report where a REDIRECT verdict sends the packet, and leave the redirect info clear for the
 * next run (the hook that would have acted on it clears it: nb_skb_do_redirect,
 * nb_xdp_do_redirect).
 */
static void test_run_redirect(const struct nb_prog *prog, struct nb_test_run_opts *opts, int err)
{
	struct nb_redirect_info *ri = nb_redirect_info_get();
	u32 verdict = prog->type == BPF_PROG_TYPE_XDP ? XDP_REDIRECT : TC_ACT_REDIRECT;
	bool redirect = !err && prog->type != BPF_PROG_TYPE_SOCKET_FILTER &&
			opts->retval == verdict;

	if (NB_OPTS_HAS(opts, redirect_map_id)) {
		opts->redirect_index = redirect ? ri->tgt_index : 0;
		opts->redirect_map_id = redirect && ri->map_type ? ri->map_id : 0;
	}
	memset(ri, 0, sizeof(*ri));
}

int nb_prog_test_run(const struct nb_prog *prog, struct nb_test_run_opts *opts)
{
	int err;

	/* in and out: the caller's struct must hold every field the run reads or writes */
	if (!opts || NB_OPTS_CHECK(opts, nb_test_run_opts, duration, NULL))
		return -EINVAL;
	/* each test run is a packet received: the deterministic mode's clock moves a step */
	nb_clock_packet_tick();
	/*
	 * The timers due by then fire first, on the caller's CPU: the kernel's fire in the
	 * background; here the caller of the runs is the one that drives its CPU.
	 */
	nb_timers_run(nb_this_cpu());
	switch (prog->type) {
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
		err = test_run_skb(prog, opts);
		/* the clones bpf_clone_redirect queued go out now, as the kernel's go at once */
		nb_net_flush();
		break;
	case BPF_PROG_TYPE_XDP:
		err = test_run_xdp(prog, opts);
		break;
	default:
		return -EOPNOTSUPP;
	}
	test_run_redirect(prog, opts, err);
	return err;
}
