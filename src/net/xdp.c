// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP hook of a device: one program per device, attached, replaced or removed as
 * dev_change_xdp_fd does (net/core/dev.c), and run first on every received frame, the twin of
 * do_xdp_generic / bpf_prog_run_generic_xdp: ABORTED and verdicts that are no action drop the
 * frame as exceptions, DROP drops it, PASS hands it on with the program's changes (data moved,
 * metadata in front of it), TX and REDIRECT queue it through the bulk queues of xdp_redirect.c.
 */
#include <errno.h>
#include <stdlib.h>

#include <netbpf/percpu.h>

#include "bpf/epoch.h"
#include "bpf/prog.h"
#include "net/cpumap.h"
#include "net/dev.h"
#include "net/redirect.h"
#include "net/worker.h"
#include "net/xdp.h"
#include "common/u64_stats.h"

int nb_xdp_prepare_frags(const struct nb_prog *prog, struct nb_pkt *pkt)
{
	if (likely(!nb_pkt_is_nonlinear(pkt)))
		return 0;
	return nb_prog_xdp_has_frags(prog) ? nb_pkt_frags_make_private(pkt) :
					     nb_pkt_linearize(pkt);
}

/*
 * A burst's verdicts, counted in the poll and added to the worker's statistics once at its end,
 * as an XDP driver counts in its NAPI poll's locals (veth_xdp_rcv's stats) and adds them under
 * one u64_stats update.
 */
struct xdp_burst_counts {
	u32 run, aborted, drop, pass, tx, redirect, invalid, redirect_err;
};

static void xdp_counts_add(struct nb_xdp_stats *st, const struct xdp_burst_counts *c)
{
	nb_u64_stats_add(&st->run, c->run);
	nb_u64_stats_add(&st->aborted, c->aborted);
	nb_u64_stats_add(&st->drop, c->drop);
	nb_u64_stats_add(&st->pass, c->pass);
	nb_u64_stats_add(&st->tx, c->tx);
	nb_u64_stats_add(&st->redirect, c->redirect);
	nb_u64_stats_add(&st->invalid, c->invalid);
	nb_u64_stats_add(&st->redirect_err, c->redirect_err);
}

/*
 * One frame through the program: jited is the program's image when the burst runs it directly
 * (no statistics of runs on: nb_prog_run_locked's choice, made once per burst), NULL when
 * nb_xdp_prog_run chooses. Returns true when the frame passed and stays with the caller; false
 * when it was consumed (queued or dropped).
 */
static __always_inline bool xdp_run_one(struct nb_dev *dev, struct nb_xdp_dev *xd,
					const struct nb_prog *prog, nb_jited_fn jited,
					struct xdp_burst_counts *cnt, struct nb_pkt *pkt)
{
	struct nb_xdp_buff xdp;
	u32 act;
	int err;

	/* a linear frame, as nearly all are, without a call */
	if (unlikely(nb_pkt_is_nonlinear(pkt)) && nb_xdp_prepare_frags(prog, pkt)) {
		nb_pkt_drop(pkt, dev, NB_DROP_NOMEM);
		return false;
	}
	/*
	 * The program may write the frame and grow it at the front: generic XDP gives it private
	 * data and the full XDP_PACKET_HEADROOM (netif_receive_generic_xdp); a frame too long to
	 * move keeps the headroom it has.
	 */
	if (unlikely(nb_pkt_headroom(pkt) < NB_PKT_HEADROOM || nb_pkt_shared_data(pkt)) &&
	    nb_pkt_cow_head(pkt, NB_PKT_HEADROOM) && nb_pkt_unclone(pkt)) {
		nb_pkt_drop(pkt, dev, NB_DROP_NOMEM);
		return false;
	}
	nb_pkt_to_xdp(pkt, &xdp, &xd->rxq);
	if (likely(jited))
		act = (u32)jited((u64)(uintptr_t)&xdp, 0);
	else
		act = nb_xdp_prog_run(prog, &xdp);
	cnt->run++;
	switch (act) {
	case XDP_PASS:
		/* the caller makes the stack's view of it (nb_worker_receive_burst) */
		nb_xdp_update_pkt_data(&xdp, pkt);
		cnt->pass++;
		return true;
	case XDP_DROP:
		cnt->drop++;
		nb_pkt_drop(pkt, dev, NB_DROP_XDP);
		return false;
	case XDP_TX:
	case XDP_REDIRECT:
		nb_xdp_update_frame(&xdp, pkt);
		err = act == XDP_TX ? nb_xdp_do_tx(dev, pkt) : nb_xdp_do_redirect(dev, pkt);
		if (unlikely(err)) {
			/* The kernel's trace_xdp_exception for a refused redirect. */
			cnt->redirect_err++;
			nb_pkt_drop(pkt, dev, nb_xdp_redirect_drop_reason(err));
			return false;
		}
		if (act == XDP_TX)
			cnt->tx++;
		else
			cnt->redirect++;
		return false;
	case XDP_ABORTED:
		cnt->aborted++;
		nb_pkt_drop(pkt, dev, NB_DROP_XDP_ABORTED);
		return false;
	default:
		/* bpf_warn_invalid_xdp_action, then handled as XDP_ABORTED. */
		cnt->invalid++;
		nb_pkt_drop(pkt, dev, NB_DROP_XDP_ABORTED);
		return false;
	}
}

unsigned int nb_xdp_rx_burst(struct nb_dev *dev, struct nb_pkt **pkts, unsigned int n)
{
	struct nb_xdp_dev *xd = __atomic_load_n(&dev->xdp, __ATOMIC_ACQUIRE);
	struct xdp_burst_counts cnt = { 0 };
	struct nb_redirect_info *ri;
	const struct nb_prog *prog;
	nb_jited_fn jited;
	unsigned int kept = 0;

	if (!xd || !__atomic_load_n(&xd->prog, __ATOMIC_RELAXED))
		return n;
	nb_epoch_read_lock();
	prog = __atomic_load_n(&xd->prog, __ATOMIC_ACQUIRE);
	if (!prog) {
		nb_epoch_read_unlock();
		return n;
	}
	/*
	 * A poll starts with no redirect recorded (the kernel's per-poll bpf_net_context): a
	 * map named by an earlier poll may be gone.
	 */
	ri = nb_redirect_info_get();
	ri->map = NULL;
	ri->map_type = BPF_MAP_TYPE_UNSPEC;
	ri->map_id = 0;
	ri->flags = 0;
	/* statistics of runs switched on count from the next burst */
	jited = __atomic_load_n(&nb_prog_stats_on, __ATOMIC_RELAXED) ? NULL : prog->jited;
	for (unsigned int i = 0; i < n; i++) {
		struct nb_pkt *pkt = pkts[i];

		if (xdp_run_one(dev, xd, prog, jited, &cnt, pkt))
			pkts[kept++] = pkt;
	}
	xdp_counts_add(&xd->pcpu[nb_this_cpu()].stats, &cnt);
	nb_epoch_read_unlock();
	return kept;
}

/* An attached program that was replaced goes once no poll can still run it. */
struct prog_retire {
	struct nb_epoch_head rcu;
	struct nb_prog *prog;
};

static void prog_retire_cb(struct nb_epoch_head *head)
{
	struct prog_retire *r = container_of(head, struct prog_retire, rcu);

	nb_prog_put(r->prog);
	free(r);
}

static void prog_retire(struct nb_prog *prog)
{
	struct prog_retire *r;

	if (!prog)
		return;
	r = malloc(sizeof(*r));
	if (!r) {
		/* No memory to defer: wait for the readers instead. */
		nb_epoch_synchronize();
		nb_prog_put(prog);
		return;
	}
	r->prog = prog;
	nb_epoch_call(&r->rcu, prog_retire_cb);
}

#define XDP_MODE_FLAGS (XDP_FLAGS_SKB_MODE | XDP_FLAGS_DRV_MODE | XDP_FLAGS_HW_MODE)

static const char *mode_name(u32 flags)
{
	if (flags & XDP_FLAGS_SKB_MODE)
		return "generic";
	if (flags & XDP_FLAGS_DRV_MODE)
		return "native";
	return "default";
}

/* dev_change_xdp_fd: expected is checked when flags has XDP_FLAGS_REPLACE. */
static int xdp_change(struct nb_dev *dev, struct nb_prog *prog, struct nb_prog *expected,
		      u32 flags, struct nb_log *log)
{
	struct nb_xdp_dev *xd;
	struct nb_prog *old;
	u32 mode = flags & XDP_MODE_FLAGS;

	if (flags & ~(u32)XDP_FLAGS_MASK) {
		nb_log_printf(log, "%s: unknown XDP flags 0x%x\n", dev->name,
			      flags & ~(u32)XDP_FLAGS_MASK);
		return -EINVAL;
	}
	if (mode & (mode - 1)) {
		nb_log_printf(log, "%s: only one XDP mode flag can be set\n", dev->name);
		return -EINVAL;
	}
	if (mode & XDP_FLAGS_HW_MODE) {
		nb_log_printf(log, "%s: XDP offload (xdpoffload) needs a device that offloads "
			      "programs; this one has none\n", dev->name);
		return -EOPNOTSUPP;
	}
	if (prog && dev->br) {
		nb_log_printf(log, "%s: netbpf does not run XDP on a bridge device (the frames its "
			      "ports pass up); attach the program to the ports\n", dev->name);
		return -EOPNOTSUPP;
	}
	if (prog) {
		if (prog->type != BPF_PROG_TYPE_XDP) {
			nb_log_printf(log, "%s: program %s is not an XDP program\n", dev->name,
				      prog->name);
			return -EINVAL;
		}
		if (prog->expected_attach_type == BPF_XDP_DEVMAP ||
		    prog->expected_attach_type == BPF_XDP_CPUMAP) {
			nb_log_printf(log, "%s: program %s is for %s entries and cannot be "
				      "attached to a device\n", dev->name, prog->name,
				      prog->expected_attach_type == BPF_XDP_DEVMAP ? "devmap" :
										     "cpumap");
			return -EINVAL;
		}
	}
	xd = nb_xdp_dev_state(dev);
	if (!xd)
		return -ENOMEM;
	old = xd->prog;
	if ((flags & XDP_FLAGS_REPLACE) && old != expected) {
		nb_log_printf(log, "%s: the attached XDP program is %s, not the one to replace\n",
			      dev->name, old ? old->name : "none");
		return -EEXIST;
	}
	if (old && prog && (flags & XDP_FLAGS_UPDATE_IF_NOEXIST)) {
		nb_log_printf(log, "%s: XDP program already attached (replace it with -force)\n",
			      dev->name);
		return -EBUSY;
	}
	if (old && mode && (xd->attach_flags & XDP_MODE_FLAGS) &&
	    mode != (xd->attach_flags & XDP_MODE_FLAGS)) {
		nb_log_printf(log, "%s: an XDP program is attached in %s mode: remove it before "
			      "using %s mode\n", dev->name, mode_name(xd->attach_flags),
			      mode_name(mode));
		return -EEXIST;
	}
	if (prog)
		nb_prog_get(prog);
	xd->attach_flags = prog ? flags & ~(u32)XDP_FLAGS_REPLACE : 0;
	/* one release store: a frame runs the old program or the new, never neither */
	__atomic_store_n(&xd->prog, prog, __ATOMIC_RELEASE);
	prog_retire(old);
	return 0;
}

int nb_dev_xdp_attach(struct nb_dev *dev, struct nb_prog *prog, u32 flags, struct nb_log *log)
{
	if (flags & XDP_FLAGS_REPLACE) {
		nb_log_printf(log, "%s: XDP_FLAGS_REPLACE needs the expected program: "
			      "nb_dev_xdp_replace\n", dev->name);
		return -EINVAL;
	}
	return xdp_change(dev, prog, NULL, flags, log);
}

int nb_dev_xdp_replace(struct nb_dev *dev, struct nb_prog *prog, struct nb_prog *expected,
		       u32 flags, struct nb_log *log)
{
	return xdp_change(dev, prog, expected, flags | XDP_FLAGS_REPLACE, log);
}

struct nb_prog *nb_dev_xdp_prog(struct nb_dev *dev, u32 *flags)
{
	struct nb_xdp_dev *xd = __atomic_load_n(&dev->xdp, __ATOMIC_ACQUIRE);
	struct nb_prog *prog = NULL;

	if (flags)
		*flags = 0;
	if (!xd)
		return NULL;
	nb_epoch_read_lock();
	prog = __atomic_load_n(&xd->prog, __ATOMIC_ACQUIRE);
	if (prog)
		nb_prog_get(prog);
	if (flags)
		*flags = xd->attach_flags;
	nb_epoch_read_unlock();
	return prog;
}

/* A device leaving the registry loses its program (dev_xdp_uninstall). */
static void xdp_dev_event(struct nb_dev *dev, enum nb_dev_event event)
{
	if (event == NB_DEV_UNREGISTER && dev->xdp)
		nb_dev_xdp_attach(dev, NULL, 0, NULL);
}

static struct nb_dev_notifier xdp_dev_notifier = { .call = xdp_dev_event };

/* The worker's poll runs the hook on every burst and flushes the bulk queues at its end. */
static const struct nb_worker_xdp_hooks xdp_worker_hooks = {
	.burst = nb_xdp_rx_burst,
	.flush = nb_xdp_do_flush,
	.pending = nb_cpu_map_pending,
};

static void __attribute__((constructor)) xdp_register(void)
{
	nb_dev_register_notifier(&xdp_dev_notifier);
	nb_worker_set_xdp_hooks(&xdp_worker_hooks);
}
