// SPDX-License-Identifier: GPL-2.0
/*
 * The mirred action, the twin of the kernel's net/sched/act_mirred.c: mirror (a clone) or
 * redirect (the packet) to another device's transmit path (egress) or receive path (ingress).
 *
 * As in the kernel: a target that is gone leaves the action's verdict word (redirect: stolen) and
 * counts an overlimit; a target that is down counts an overlimit and turns a redirect into
 * TC_ACT_SHOT; a redirect at ingress whose verdict takes the packet anyway (stolen, shot, ...)
 * sends the packet itself instead of a clone and reports it consumed; a target that is the
 * packet's own device and hook is a loop, handled as a down target; nesting deeper than
 * MIRRED_NEST_LIMIT (4) drops. Packet data starts at the mac header on both paths here, so the
 * kernel's mac push and pull between directions have nothing to do.
 *
 *   action mirred { egress | ingress } { redirect | mirror } dev DEV [CONTROL] [index N]
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/tc_act/tc_mirred.h>

#include "net/core.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/tc/pkt_cls.h"
#include "common/opts.h"
#include "common/u64_stats.h"

struct tcf_mirred {
	int eaction;
	u32 ifindex;			/* the target's, for show once it is gone */
	struct nb_dev *dev;		/* referenced; NULL once the device is gone */
	struct tcf_mirred *next;	/* mirred_list */
};

static pthread_mutex_t mirred_list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tcf_mirred *mirred_list;

static bool mirred_is_redirect(int eaction)
{
	return eaction == TCA_EGRESS_REDIR || eaction == TCA_INGRESS_REDIR;
}

static bool mirred_wants_ingress(int eaction)
{
	return eaction == TCA_INGRESS_REDIR || eaction == TCA_INGRESS_MIRROR;
}

/* Verdicts that take the packet away from the hook anyway: no clone is needed. */
static bool mirred_can_reinsert(int action)
{
	switch (action) {
	case TC_ACT_SHOT:
	case TC_ACT_STOLEN:
	case TC_ACT_QUEUED:
	case TC_ACT_TRAP:
		return true;
	}
	return false;
}

static int mirred_forward(bool at_ingress, bool want_ingress, struct nb_pkt *pkt)
{
	int err;

	if (!want_ingress) {
		if (nb_dev_xmit_recursion()) {
			nb_pkt_drop(pkt, pkt->dev, NB_DROP_RECURSION);
			return NB_NET_XMIT_DROP;
		}
		nb_dev_xmit_recursion_inc();
		err = nb_dev_queue_xmit(pkt);
		nb_dev_xmit_recursion_dec();
		return err;
	}
	if (!at_ingress)
		return nb_netif_rx(pkt);
	return nb_netif_receive(pkt);
}

static int mirred_to_dev(struct nb_pkt *pkt, const struct nb_tc_action *a,
			 const struct tcf_mirred *m, struct nb_dev *dev, int retval)
{
	bool is_redirect = mirred_is_redirect(m->eaction);
	bool at_ingress = pkt->tc_at_ingress;
	struct nb_pkt *to_send = pkt;
	bool dont_clone;

	if (unlikely(!READ_ONCE(dev->up)))
		goto err_cant_do;
	/* back into the hook it came from: a loop */
	if (dev == pkt->dev && mirred_wants_ingress(m->eaction) == at_ingress)
		goto err_cant_do;
	dont_clone = at_ingress && is_redirect && mirred_can_reinsert(retval);
	if (!dont_clone) {
		to_send = nb_pkt_clone(pkt);
		if (!to_send)
			goto err_cant_do;
		nb_u64_stats_inc(&nb_dev_this_stats(pkt->dev)->clones);
	}
	nb_u64_stats_inc(&nb_dev_this_stats(pkt->dev)->tc_redirect);
	to_send->skb_iif = pkt->dev->ifindex;
	to_send->dev = dev;
	if (is_redirect && to_send == pkt)
		retval = NB_TC_ACT_CONSUMED;
	if (mirred_forward(at_ingress, mirred_wants_ingress(m->eaction), to_send))
		nb_u64_stats_inc(&nb_tc_this_stats(a->stats)->overlimits);
	return retval;

err_cant_do:
	if (is_redirect)
		retval = TC_ACT_SHOT;
	nb_u64_stats_inc(&nb_tc_this_stats(a->stats)->overlimits);
	return retval;
}

static int tcf_mirred_act(struct nb_pkt *pkt, const struct nb_tc_action *a,
			  struct nb_tcf_result *res)
{
	const struct tcf_mirred *m = __atomic_load_n(&a->priv, __ATOMIC_ACQUIRE);
	int retval = READ_ONCE(a->control);
	struct nb_dev *dev;

	if (unlikely(nb_mirred_nest_inc() > NB_MIRRED_NEST_LIMIT)) {
		retval = TC_ACT_SHOT;
		goto dec_nest_level;
	}
	nb_tcf_action_count(a, pkt);
	dev = __atomic_load_n(&m->dev, __ATOMIC_ACQUIRE);
	if (unlikely(!dev)) {
		/* target device is gone */
		nb_u64_stats_inc(&nb_tc_this_stats(a->stats)->overlimits);
		goto dec_nest_level;
	}
	retval = mirred_to_dev(pkt, a, m, dev, retval);
dec_nest_level:
	nb_mirred_nest_dec();
	if (retval == TC_ACT_SHOT)
		nb_u64_stats_inc(&nb_tc_this_stats(a->stats)->drops);
	return retval;
}

static int tcf_mirred_init(struct nb_tc_action *a, const struct nb_tc_action_opts *opts,
			   struct nb_log *log)
{
	const struct nb_tc_act_mirred_opts *mo = NB_OPTS_GET(opts, kind_opts, NULL);
	struct tcf_mirred *m = a->priv;
	struct nb_dev *dev;
	int eaction, err;
	u32 ifindex;

	err = NB_OPTS_CHECK(mo, nb_tc_act_mirred_opts, ifindex, log);
	if (err)
		return err;
	eaction = mo ? mo->eaction : 0;
	ifindex = mo ? mo->ifindex : 0;
	switch (eaction) {
	case TCA_EGRESS_REDIR:
	case TCA_EGRESS_MIRROR:
	case TCA_INGRESS_REDIR:
	case TCA_INGRESS_MIRROR:
		break;
	default:
		nb_log_printf(log, "action mirred: unknown direction/kind %d\n", eaction);
		return -EINVAL;
	}
	dev = nb_dev_get_by_index(ifindex);
	if (!dev) {
		nb_log_printf(log, "action mirred: device with ifindex %u does not exist\n",
			      ifindex);
		return -ENODEV;
	}
	m->eaction = eaction;
	m->ifindex = ifindex;
	m->dev = dev;
	/* the control word defaults by kind, as iproute2's m_mirred does */
	if (!opts->has_control)
		a->control = mirred_is_redirect(m->eaction) ? TC_ACT_STOLEN : TC_ACT_PIPE;
	pthread_mutex_lock(&mirred_list_lock);
	m->next = mirred_list;
	mirred_list = m;
	pthread_mutex_unlock(&mirred_list_lock);
	return 0;
}

static void tcf_mirred_cleanup(struct nb_tc_action *a)
{
	struct tcf_mirred *m = a->priv, **pp;

	pthread_mutex_lock(&mirred_list_lock);
	for (pp = &mirred_list; *pp; pp = &(*pp)->next) {
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	}
	pthread_mutex_unlock(&mirred_list_lock);
	nb_dev_put(m->dev);
}

static void tcf_mirred_dump(const struct nb_tc_action *a, struct nb_tc_action_info *info)
{
	const struct tcf_mirred *m = a->priv;

	bool ingress = m->eaction == TCA_INGRESS_REDIR || m->eaction == TCA_INGRESS_MIRROR;
	bool redirect = m->eaction == TCA_EGRESS_REDIR || m->eaction == TCA_INGRESS_REDIR;
	struct nb_tc_print_list *l = &info->print;
	char name[IFNAMSIZ + 16], buf[32];
	struct nb_dev *dev;

	/* m_mirred.c's print_mirred: the target's name, or "ifN" once it is gone */
	dev = nb_dev_get_by_index(m->ifindex);
	if (dev) {
		snprintf(name, sizeof(name), "%s", nb_dev_name(dev));
		nb_dev_put(dev);
	} else {
		snprintf(name, sizeof(name), "if%u", m->ifindex);
	}
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "mirred (%s ", ingress ? "Ingress" : "Egress");
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "%s ", redirect ? "Redirect" : "Mirror");
	nb_tc_print_string(l, NB_TC_PRINT_JSON, "mirred_action", NULL,
			   redirect ? "redirect" : "mirror");
	nb_tc_print_string(l, NB_TC_PRINT_JSON, "direction", NULL, ingress ? "ingress" : "egress");
	nb_tc_print_string(l, NB_TC_PRINT_ANY, "to_dev", "to device %s) ", name);
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "%s\n\t",
			   nb_tc_control_name(info->control, buf, sizeof(buf)));
	nb_tc_print_control(l, "control_action", info->control);
	nb_tcf_action_print_common(info);
	nb_tc_print_string(l, NB_TC_PRINT_FP, NULL, "%s", "\n");
}

/* m_mirred.c's parse_direction: "{ egress | ingress } { redirect | mirror } dev DEV". */
static int tcf_mirred_parse(struct nb_tc_words *w, struct nb_tc_action_opts *opts)
{
	struct nb_tc_act_mirred_opts *mo;
	bool ingress, redirect;
	const char *word, *name;
	struct nb_dev *dev;

	if (w->pos < w->argc && !strcmp(w->argv[w->pos], "index"))
		return 0;	/* "action mirred index N" binds an existing action */
	if (w->pos + 3 > w->argc)
		return nb_tc_words_usage(w, "action mirred needs { egress | ingress } "
					 "{ redirect | mirror } dev DEV");
	word = w->argv[w->pos];
	if (strcmp(word, "egress") && strcmp(word, "ingress"))
		return nb_tc_words_wrong(w, word, "expected egress or ingress");
	ingress = word[0] == 'i';
	word = w->argv[++w->pos];
	if (strcmp(word, "redirect") && strcmp(word, "mirror"))
		return nb_tc_words_wrong(w, word, "expected redirect or mirror");
	redirect = word[0] == 'r';
	word = w->argv[++w->pos];
	if (strcmp(word, "dev"))
		return nb_tc_words_wrong(w, word, "expected dev DEV");
	name = nb_tc_words_next(w);
	if (!name)
		return -EINVAL;
	dev = nb_dev_get_by_name(name);
	if (!dev)
		return nb_tc_words_fail(w, -ENODEV, "Cannot find device \"%s\"", name);
	mo = calloc(1, sizeof(*mo));
	if (!mo) {
		nb_dev_put(dev);
		return nb_tc_words_fail(w, -ENOMEM, "out of memory");
	}
	mo->sz = sizeof(*mo);
	mo->ifindex = nb_dev_ifindex(dev);
	nb_dev_put(dev);
	mo->eaction = ingress ? (redirect ? TCA_INGRESS_REDIR : TCA_INGRESS_MIRROR)
			      : (redirect ? TCA_EGRESS_REDIR : TCA_EGRESS_MIRROR);
	opts->kind_opts = mo;
	w->pos++;
	return 0;
}

/* A device leaves: actions that point at it find it gone. */

static void mirred_device_event(struct nb_dev *dev, enum nb_dev_event event)
{
	if (event != NB_DEV_UNREGISTER)
		return;
	pthread_mutex_lock(&mirred_list_lock);
	for (struct tcf_mirred *m = mirred_list; m; m = m->next) {
		if (m->dev == dev) {
			__atomic_store_n(&m->dev, NULL, __ATOMIC_RELEASE);
			nb_tcf_synchronize();
			nb_dev_put(dev);
		}
	}
	pthread_mutex_unlock(&mirred_list_lock);
}

static struct nb_dev_notifier mirred_device_notifier = {
	.call = mirred_device_event,
};

static struct nb_tc_action_ops act_mirred_ops = {
	.kind = "mirred",
	.usage = "mirred { egress | ingress } { redirect | mirror } dev DEV [VERDICT]\n",
	.priv_size = sizeof(struct tcf_mirred),
	.default_control = TC_ACT_PIPE,
	.act = tcf_mirred_act,
	.init = tcf_mirred_init,
	.cleanup = tcf_mirred_cleanup,
	.parse = tcf_mirred_parse,
	.dump = tcf_mirred_dump,
};

static int mirred_init_module(void)
{
	nb_dev_register_notifier(&mirred_device_notifier);
	return nb_tc_action_register(&act_mirred_ops);
}
NB_REGISTER_AT_LOAD(mirred, mirred_init_module(), "tc action", "mirred")
