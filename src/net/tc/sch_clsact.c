// SPDX-License-Identifier: GPL-2.0
/*
 * The clsact and ingress qdiscs (the kernel's net/sched/sch_ingress.c): they hold no queue, only
 * the filter blocks of a device's hooks. clsact has an ingress and an egress block, ingress only
 * an ingress block. The datapath reads dev->tc (core.c, sch_handle_ingress/egress).
 */
#include <errno.h>
#include <stdlib.h>

#include "net/dev.h"
#include "net/tc/pkt_cls.h"

static const char *const qdisc_names[] = {
	[NB_TC_QDISC_CLSACT] = "clsact",
	[NB_TC_QDISC_INGRESS] = "ingress",
};

static void tc_dev_free(struct nb_tc_dev *tc)
{
	for (int hook = 0; hook < NB_TC_HOOK_MAX; hook++)
		nb_tcf_block_destroy(tc->block[hook]);
	free(tc);
}

static int qdisc_add_locked(struct nb_dev *dev, enum nb_tc_qdisc_kind kind, struct nb_log *log)
{
	struct nb_tc_dev *tc;

	if (kind != NB_TC_QDISC_CLSACT && kind != NB_TC_QDISC_INGRESS) {
		nb_log_printf(log, "qdisc: unknown kind %d\n", kind);
		return -EINVAL;
	}
	if (dev->tc) {
		nb_log_printf(log, "qdisc: %s already has a %s qdisc\n", dev->name,
			      qdisc_names[dev->tc->kind]);
		return -EEXIST;
	}
	tc = calloc(1, sizeof(*tc));
	if (!tc)
		return -ENOMEM;
	tc->kind = kind;
	tc->block[NB_TC_INGRESS] = nb_tcf_block_create();
	if (kind == NB_TC_QDISC_CLSACT)
		tc->block[NB_TC_EGRESS] = nb_tcf_block_create();
	if (!tc->block[NB_TC_INGRESS] || (kind == NB_TC_QDISC_CLSACT && !tc->block[NB_TC_EGRESS])) {
		tc_dev_free(tc);
		return -ENOMEM;
	}
	for (int hook = 0; hook < NB_TC_HOOK_MAX; hook++)
		if (tc->block[hook])
			tc->block[hook]->owner = tc;
	__atomic_store_n(&dev->tc, tc, __ATOMIC_RELEASE);
	return 0;
}

static int qdisc_del_locked(struct nb_dev *dev, enum nb_tc_qdisc_kind kind, struct nb_log *log)
{
	struct nb_tc_dev *tc = dev->tc;

	if (!tc || tc->kind != kind) {
		nb_log_printf(log, "qdisc: %s has no %s qdisc\n", dev->name,
			      (unsigned int)kind <= NB_TC_QDISC_INGRESS ? qdisc_names[kind] : "such");
		return -ENOENT;
	}
	__atomic_store_n(&dev->tc, NULL, __ATOMIC_RELEASE);
	nb_tcf_synchronize();
	tc_dev_free(tc);
	return 0;
}

int nb_tc_qdisc_add(struct nb_dev *dev, enum nb_tc_qdisc_kind kind, struct nb_log *log)
{
	int err;

	nb_tc_lock();
	err = qdisc_add_locked(dev, kind, log);
	nb_tc_unlock();
	return err;
}

int nb_tc_qdisc_del(struct nb_dev *dev, enum nb_tc_qdisc_kind kind, struct nb_log *log)
{
	int err;

	nb_tc_lock();
	err = qdisc_del_locked(dev, kind, log);
	nb_tc_unlock();
	return err;
}

struct nb_tcf_block *nb_tc_dev_block(struct nb_dev *dev, enum nb_tc_hook hook, struct nb_log *log)
{
	struct nb_tc_dev *tc = dev->tc;

	if (!tc) {
		nb_log_printf(log, "%s has no clsact or ingress qdisc\n", dev->name);
		return NULL;
	}
	if (!tc->block[hook]) {
		nb_log_printf(log, "%s: the %s qdisc has no egress hook\n", dev->name,
			      qdisc_names[tc->kind]);
		return NULL;
	}
	return tc->block[hook];
}

/* The device goes away: its qdisc goes with it. */
static void clsact_device_event(struct nb_dev *dev, enum nb_dev_event event)
{
	if (event != NB_DEV_UNREGISTER)
		return;
	nb_tc_lock();
	if (dev->tc)
		qdisc_del_locked(dev, dev->tc->kind, NULL);
	nb_tc_unlock();
}

static struct nb_dev_notifier clsact_device_notifier = {
	.call = clsact_device_event,
};

static void __attribute__((constructor)) clsact_init_module(void)
{
	nb_dev_register_notifier(&clsact_device_notifier);
}
