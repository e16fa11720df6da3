// SPDX-License-Identifier: GPL-2.0
/*
 * tc filter, with iproute2's words (tc/tc_filter.c):
 *
 *   tc filter { add | replace | change | del | show } dev DEV
 *      [ingress | egress | root | parent M:N] [protocol P] [pref N] [handle H] [chain C]
 *      KIND WORDS... [action ...]
 *
 * Each classifier reads its own words and prints itself, in its own file (src/net/tc/cls_*.c:
 * nb_tc_filter_parse and its dump's print items); the program its words name ("obj F sec S")
 * is loaded here before the add, as iproute2 loads it before it asks the kernel.
 *
 * "root" and the clsact parent ffff:fff2 mean ingress (the seed's scripts put their filters on
 * root of an ingress qdisc), ffff:fff3 egress. show prints as tc does; -s adds the counters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>

#include <netbpf/dev.h>

#include "common/types.h"
#include "ctl/args.h"
#include "ctl/json.h"
#include "ctl/print.h"
#include "ctl/tc.h"

enum verb { F_ADD, F_REPLACE, F_CHANGE, F_DEL, F_SHOW };

struct filter_cmd {
	struct nb_tc_filter_opts f;
	struct nb_ctl_actions acts;
	struct nb_ctl_prog prog;	/* the program the words name, loaded before the add */
	const char *handle;	/* parsed once the kind is known (u32 handles are 800::1) */
	bool has_hook;
};

static const struct { const char *name; __u16 proto; } protos[] = {
	{ "all", ETH_P_ALL }, { "ip", ETH_P_IP }, { "ipv6", ETH_P_IPV6 }, { "arp", ETH_P_ARP },
	{ "802.1Q", ETH_P_8021Q }, { "802.1ad", ETH_P_8021AD }, { "mpls_uc", ETH_P_MPLS_UC },
};

static const char *proto_name(__be16 proto, char *buf, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(protos); i++)
		if (htons(protos[i].proto) == proto)
			return protos[i].name;
	snprintf(buf, size, "0x%04x", ntohs(proto));
	return buf;
}

static bool parse_proto(const char *w, __be16 *proto)
{
	unsigned int v;

	for (size_t i = 0; i < ARRAY_SIZE(protos); i++)
		if (!strcasecmp(w, protos[i].name)) {
			*proto = htons(protos[i].proto);
			return true;
		}
	if (!nb_ctl_parse_u32(w, &v, 0) || v > 0xffff)
		return false;
	*proto = htons(v);
	return true;
}

static int log_err(struct nb_ctl *ctl, int err, struct nb_log *log)
{
	const char *t = nb_log_text(log);

	if (err)
		nb_ctl_fail(ctl, err, "%s%s", t[0] ? "" : strerror(-err), t);
	/* the verifier's log spans lines: it stays whole, the "Error: " line first */
	if (err && t[0] && ctl->log.len && ctl->log.buf[ctl->log.len - 1] == '\n' &&
	    ctl->log.len >= 2 && ctl->log.buf[ctl->log.len - 2] == '\n')
		ctl->log.buf[--ctl->log.len] = 0;
	nb_log_free(log);
	return err;
}

static bool filter_kind_known(const char *w)
{
	for (const char *const *k = nb_tc_filter_kinds(); *k; k++)
		if (!strcmp(*k, w))
			return true;
	return false;
}

/* "bpf, fw, matchall or u32" */
static const char *kinds_list(char *buf, size_t size)
{
	return nb_ctl_kinds_list(nb_tc_filter_kinds(), buf, size);
}

static int parse_kind_opts(struct nb_ctl *ctl, int argc, char **argv, int i,
			   struct filter_cmd *c)
{
	struct nb_tc_filter_opts *f = &c->f;
	int err = nb_ctl_parse_filter_words(ctl, argc, argv, &i, f, &c->acts, &c->prog);

	f->actions = c->acts.a;
	f->action_cnt = c->acts.cnt;
	return err;
}

struct show_ctx {
	struct nb_ctl *ctl;
	struct nb_print p;
	__u32 last_chain, last_pref;
	bool any;
	bool has_hook;		/* tc prints the parent only when the command named none */
};

/* Actions of a matchall show used_hw_stats: it asks for offload even without hardware. */
static unsigned int action_how(const struct nb_tc_filter_info *info)
{
	return info->actions_hw_stats ? NB_CTL_ACT_HW_STATS : 0;
}

/* tc_filter.c's print_filter: the head line of each pref, then each filter with its options. */
static void show_filter(struct show_ctx *sc, const struct nb_tc_filter_info *info, bool head)
{
	struct nb_print *p = &sc->p;
	char buf[32];

	nb_print_open_object(p, NULL);
	nb_print_text(p, "filter ");
	if (!sc->has_hook)
		nb_print_string(p, NB_PRINT_ANY, "parent", "parent %s ",
				info->id.hook == NB_TC_INGRESS ? "ffff:fff2" : "ffff:fff3");
	nb_print_string(p, NB_PRINT_ANY, "protocol", "protocol %s ",
			proto_name(info->id.protocol, buf, sizeof(buf)));
	nb_print_uint(p, NB_PRINT_ANY, "pref", "pref %llu ", info->id.pref);
	nb_print_string(p, NB_PRINT_ANY, "kind", "%s ", info->kind);
	nb_print_uint(p, NB_PRINT_ANY, "chain", "chain %llu ", info->id.chain);
	if (!head) {
		nb_print_open_object(p, "options");
		nb_ctl_print_tc_items(p, &info->print, sc->ctl->stats);
		if (p->j && info->action_cnt) {
			nb_json_start_array(p->j, "actions");
			for (unsigned int a = 0; a < info->action_cnt; a++)
				nb_ctl_print_action(sc->ctl, p->j, &info->actions[a], a + 1,
						    action_how(info));
			nb_json_end_array(p->j);
		}
		nb_print_close_object(p);
	}
	nb_print_close_object(p);
	if (p->j)
		return;
	fprintf(p->f, "\n");
	for (unsigned int a = 0; !head && a < info->action_cnt; a++) {
		nb_ctl_print_action(sc->ctl, NULL, &info->actions[a], a + 1, action_how(info));
		fprintf(p->f, "\n");
	}
}

static int show_one(const struct nb_tc_filter_info *info, void *arg)
{
	struct show_ctx *sc = arg;
	bool head = !sc->any || info->id.chain != sc->last_chain || info->id.pref != sc->last_pref;

	sc->any = true;
	sc->last_chain = info->id.chain;
	sc->last_pref = info->id.pref;
	if (head)
		show_filter(sc, info, true);
	show_filter(sc, info, false);
	return 0;
}

static int filter_show(struct nb_ctl *ctl, struct nb_dev *dev, bool has_hook,
		       enum nb_tc_hook hook)
{
	struct show_ctx sc = { .ctl = ctl, .p.f = ctl->out, .has_hook = has_hook };
	struct nb_log log = { 0 };
	int err = 0;

	if (ctl->json) {
		sc.p.j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(sc.p.j, NULL);
	}
	for (int h = 0; h < NB_TC_HOOK_MAX && !err; h++) {
		if (has_hook && h != (int)hook)
			continue;
		sc.any = false;
		err = nb_tc_filter_show(dev, h, show_one, &sc, &log);
		if (err == -ENOENT || err == -EINVAL) {
			/* no qdisc, or the ingress qdisc has no egress hook: nothing to show */
			if (!has_hook)
				err = 0;
		}
	}
	if (sc.p.j) {
		nb_json_end_array(sc.p.j);
		nb_json_free(sc.p.j);
	}
	return log_err(ctl, err, &log);
}

int nb_ctl_tc_filter(struct nb_ctl *ctl, int argc, char **argv)
{
	struct filter_cmd *c;
	struct nb_dev *dev = NULL;
	const char *devname = NULL;
	enum verb verb;
	char kbuf[128];
	int i, err = 0;

	if (argc < 1 || nb_matches(argv[0], "show") || nb_matches(argv[0], "list"))
		verb = F_SHOW;
	else if (nb_matches(argv[0], "add"))
		verb = F_ADD;
	else if (nb_matches(argv[0], "replace"))
		verb = F_REPLACE;
	else if (nb_matches(argv[0], "change"))
		verb = F_CHANGE;
	else if (nb_matches(argv[0], "delete"))
		verb = F_DEL;
	else
		return nb_ctl_wrong(ctl, argv[0], "unknown filter command, expected add, replace, "
				    "change, del or show");
	c = calloc(1, sizeof(*c));
	if (!c)
		return nb_ctl_fail(ctl, -ENOMEM, "out of memory");
	c->f.sz = sizeof(c->f);
	c->f.hook = NB_TC_INGRESS;
	for (i = 1; i < argc && !err && !c->f.kind; i++) {
		const char *w = argv[i], *val;
		unsigned int n;

		if (!strcmp(w, "dev")) {
			if (!(devname = nb_ctl_next(ctl, argc, argv, &i)))
				err = -EINVAL;
		} else if (!strcmp(w, "ingress") || !strcmp(w, "root")) {
			c->f.hook = NB_TC_INGRESS;
			c->has_hook = true;
		} else if (!strcmp(w, "egress")) {
			c->f.hook = NB_TC_EGRESS;
			c->has_hook = true;
		} else if (!strcmp(w, "parent")) {
			__u32 h;

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				err = -EINVAL;
			else if (nb_tc_classid_parse(val, &h))
				err = nb_ctl_wrong(ctl, val, "invalid qdisc ID");
			else if (h == TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_EGRESS))
				c->f.hook = NB_TC_EGRESS, c->has_hook = true;
			else if (TC_H_MAJ(h) == TC_H_MAJ(TC_H_INGRESS) || h == TC_H_ROOT)
				c->f.hook = NB_TC_INGRESS, c->has_hook = true;
			else
				err = nb_ctl_wrong(ctl, val, "only the clsact and ingress qdiscs "
						   "(ffff:, ffff:fff2, ffff:fff3) carry filters");
		} else if (!strcmp(w, "protocol")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				err = -EINVAL;
			else if (!parse_proto(val, &c->f.protocol))
				err = nb_ctl_wrong(ctl, val, "invalid protocol");
		} else if (!strcmp(w, "pref") || !strcmp(w, "priority") || !strcmp(w, "prio")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				err = -EINVAL;
			else if (!nb_ctl_parse_u32(val, &n, 0) || n > 0xffff)
				err = nb_ctl_wrong(ctl, val, "invalid priority value");
			else
				c->f.pref = n;
		} else if (!strcmp(w, "chain")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				err = -EINVAL;
			else if (!nb_ctl_parse_u32(val, &c->f.chain, 0))
				err = nb_ctl_wrong(ctl, val, "illegal \"chain\"");
		} else if (!strcmp(w, "handle")) {
			if (!(c->handle = nb_ctl_next(ctl, argc, argv, &i)))
				err = -EINVAL;
		} else if (filter_kind_known(w)) {
			c->f.kind = w;
		} else if (verb == F_SHOW && !devname) {
			devname = w;
		} else if (!strcmp(w, "basic") || !strcmp(w, "flower") || !strcmp(w, "route") ||
			   !strcmp(w, "cgroup") || !strcmp(w, "flow")) {
			err = nb_ctl_wrong(ctl, w, "classifier not built (%s are)", kinds_list(kbuf,
					   sizeof(kbuf)));
		} else {
			err = nb_ctl_wrong(ctl, w, "unknown classifier");
		}
	}
	if (!err && c->handle && nb_tc_filter_handle_parse(c->f.kind, c->handle, &c->f.handle))
		err = nb_ctl_wrong(ctl, c->handle, "illegal \"handle\"");
	if (err)
		goto out;
	if (!devname) {
		err = nb_ctl_usage(ctl, "tc filter needs \"dev DEV\"");
		goto out;
	}
	/* the classifier's words are checked before the device, as tc does */
	if (verb != F_SHOW && verb != F_DEL) {
		if (!c->f.kind) {
			err = nb_ctl_usage(ctl, "tc filter needs a classifier: %s",
					   kinds_list(kbuf, sizeof(kbuf)));
			goto out;
		}
		err = parse_kind_opts(ctl, argc, argv, i, c);
		if (err)
			goto out;
	}
	dev = nb_dev_get_by_name(devname);
	if (!dev) {
		err = nb_ctl_fail(ctl, -ENODEV, "Cannot find device \"%s\"", devname);
		goto out;
	}
	if (verb == F_SHOW) {
		err = filter_show(ctl, dev, c->has_hook, c->f.hook);
		goto out;
	}
	if (verb == F_DEL) {
		struct nb_tc_filter_id id = { .hook = c->f.hook, .chain = c->f.chain,
					      .pref = c->f.pref, .protocol = c->f.protocol,
					      .handle = c->f.handle };
		struct nb_log log = { 0 };

		if (i < argc) {
			err = nb_ctl_wrong(ctl, argv[i], "tc filter del takes no options");
			goto out;
		}
		if (!id.protocol && id.handle)
			id.protocol = htons(ETH_P_ALL);
		err = log_err(ctl, nb_tc_filter_del(dev, &id, &log), &log);
		goto out;
	}
	{
		struct nb_log log = { 0 };

		/* the programs are loaded first, as iproute2 loads them before it asks the kernel */
		err = nb_ctl_prog_load(&c->prog, &log);
		if (!err)
			err = nb_ctl_actions_load(&c->acts, &log);
		c->f.log = &log;
		if (!err)
			err = verb == F_ADD ? nb_tc_filter_add(dev, &c->f, NULL) :
			      verb == F_REPLACE ? nb_tc_filter_replace(dev, &c->f, NULL) :
						  nb_tc_filter_change(dev, &c->f, NULL);
		err = log_err(ctl, err, &log);
	}
out:
	/* the program's reference first: the kind's options hold the pointer to it */
	nb_ctl_prog_release(&c->prog);	/* the filter holds its own */
	nb_tc_filter_opts_release(&c->f);	/* the kind's options: the filter took a copy */
	nb_ctl_actions_release(&c->acts);
	if (dev)
		nb_dev_put(dev);
	free(c);
	return err;
}

struct each_ctx {
	nb_ctl_filter_fn fn;
	void *ctx;
	struct nb_dev *dev;
	enum nb_tc_hook hook;
};

static int each_one(const struct nb_tc_filter_info *info, void *arg)
{
	struct each_ctx *e = arg;

	/* the summary counts filters: u32's hash tables hold no counters of their own */
	if (!info->no_match)
		e->fn(e->dev, e->hook, info, e->ctx);
	return 0;
}

void nb_ctl_for_each_filter(nb_ctl_filter_fn fn, void *ctx)
{
	struct nb_dev *devs[256];
	unsigned int n = nb_dev_list(devs, ARRAY_SIZE(devs));

	for (unsigned int d = 0; d < n && d < ARRAY_SIZE(devs); d++) {
		for (int h = 0; h < NB_TC_HOOK_MAX; h++) {
			struct each_ctx e = { fn, ctx, devs[d], h };
			struct nb_log log = { 0 };

			nb_tc_filter_show(devs[d], h, each_one, &e, &log);
			nb_log_free(&log);
		}
		nb_dev_put(devs[d]);
	}
}
