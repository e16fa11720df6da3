// SPDX-License-Identifier: GPL-2.0
/*
 * The tc words: qdisc, filter, actions.
 *
 *   tc qdisc { add | del | replace | show } [dev DEV] [handle ffff:] [parent ...] { clsact | ingress }
 *   tc filter ...  (tc_filter.c)
 *   tc actions { show | list } [action KIND]: the actions of every filter, of that kind
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <netbpf/dev.h>

#include "common/types.h"
#include "ctl/args.h"
#include "ctl/json.h"
#include "ctl/print.h"
#include "ctl/tc.h"
#include "net/dev.h"
#include "net/tc/pkt_cls.h"

static void qdisc_show_dev(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev, bool name)
{
	const struct nb_tc_dev *tc = __atomic_load_n(&dev->tc, __ATOMIC_ACQUIRE);
	const char *kind;

	if (!tc)
		return;
	kind = tc->kind == NB_TC_QDISC_CLSACT ? "clsact" : "ingress";
	if (j) {
		nb_json_start_object(j, NULL);
		nb_json_string(j, "kind", kind);
		nb_json_string(j, "handle", "ffff:");
		nb_json_string(j, "dev", nb_dev_name(dev));
		nb_json_string(j, "parent", "ffff:fff1");
		nb_json_end_object(j);
		return;
	}
	fprintf(ctl->out, "qdisc %s ffff: ", kind);
	if (name)
		fprintf(ctl->out, "dev %s ", nb_dev_name(dev));
	fprintf(ctl->out, "parent ffff:fff1 \n");
}

static int qdisc_show(struct nb_ctl *ctl, struct nb_dev *dev)
{
	struct nb_json *j = NULL;
	struct nb_dev *devs[256];
	unsigned int n = 0;

	if (ctl->json) {
		j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(j, NULL);
	}
	if (dev) {
		qdisc_show_dev(ctl, j, dev, false);
	} else {
		n = nb_dev_list(devs, ARRAY_SIZE(devs));
		for (unsigned int d = 0; d < n && d < ARRAY_SIZE(devs); d++) {
			qdisc_show_dev(ctl, j, devs[d], true);
			nb_dev_put(devs[d]);
		}
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_free(j);
	}
	return 0;
}

int nb_ctl_tc_qdisc(struct nb_ctl *ctl, int argc, char **argv)
{
	enum { ADD, DEL, SHOW } verb;
	const char *devname = NULL, *kind = NULL;
	enum nb_tc_qdisc_kind k;
	struct nb_log log = { 0 };
	struct nb_dev *dev = NULL;
	int err;

	if (argc < 1 || nb_matches(argv[0], "show") || nb_matches(argv[0], "list"))
		verb = SHOW;
	else if (nb_matches(argv[0], "add") || nb_matches(argv[0], "replace"))
		verb = ADD;
	else if (nb_matches(argv[0], "delete"))
		verb = DEL;
	else
		return nb_ctl_wrong(ctl, argv[0], "unknown qdisc command, expected add, del or show");
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "dev")) {
			if (!(devname = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
		} else if (!strcmp(w, "handle") || !strcmp(w, "parent")) {
			/* ffff: and ffff:fff1 are the only places these qdiscs live */
			if (!nb_ctl_next(ctl, argc, argv, &i))
				return -EINVAL;
		} else if (!strcmp(w, "root")) {
			continue;
		} else if (!strcmp(w, "clsact") || !strcmp(w, "ingress")) {
			kind = w;
		} else if (verb == SHOW && !devname) {
			devname = w;
		} else {
			return nb_ctl_wrong(ctl, w, "unknown qdisc, expected clsact or ingress");
		}
	}
	if (devname) {
		dev = nb_dev_get_by_name(devname);
		if (!dev)
			return nb_ctl_fail(ctl, -ENODEV, "Cannot find device \"%s\"", devname);
	}
	if (verb == SHOW) {
		err = qdisc_show(ctl, dev);
		goto out;
	}
	if (!dev) {
		err = nb_ctl_usage(ctl, "tc qdisc %s needs \"dev DEV\"", verb == ADD ? "add" : "del");
		goto out;
	}
	if (!kind) {
		err = nb_ctl_usage(ctl, "tc qdisc needs a kind: clsact or ingress");
		goto out;
	}
	k = !strcmp(kind, "clsact") ? NB_TC_QDISC_CLSACT : NB_TC_QDISC_INGRESS;
	err = verb == ADD ? nb_tc_qdisc_add(dev, k, &log) : nb_tc_qdisc_del(dev, k, &log);
	if (err)
		nb_ctl_fail(ctl, err, "%.*s", (int)strcspn(nb_log_text(&log), "\n"),
			    nb_log_text(&log)[0] ? nb_log_text(&log) : strerror(-err));
	nb_log_free(&log);
out:
	if (dev)
		nb_dev_put(dev);
	return err;
}

int nb_ctl_tc(struct nb_ctl *ctl, int argc, char **argv)
{
	/* tc's own options come before the object, in a script too: tc -s filter show ... */
	for (; argc > 0 && argv[0][0] == '-'; argc--, argv++) {
		const char *opt = argv[0] + 1 + (argv[0][1] == '-');

		if (nb_matches(opt, "statistics") || nb_matches(opt, "stats"))
			ctl->stats++;
		else if (nb_matches(opt, "json"))
			ctl->json = true;
		else if (nb_matches(opt, "pretty"))
			ctl->pretty = true;
		else if (nb_matches(opt, "details") || nb_matches(opt, "force"))
			continue;
		else
			return nb_ctl_wrong(ctl, argv[0], "unknown tc option, expected -s, -j, -p "
					    "or -d");
	}
	if (argc < 1)
		return nb_ctl_usage(ctl, "tc needs { qdisc | filter | actions }");
	if (nb_matches(argv[0], "qdisc"))
		return nb_ctl_tc_qdisc(ctl, argc - 1, argv + 1);
	if (nb_matches(argv[0], "filter") || nb_matches(argv[0], "filters"))
		return nb_ctl_tc_filter(ctl, argc - 1, argv + 1);
	if (nb_matches(argv[0], "actions") || nb_matches(argv[0], "action"))
		return nb_ctl_tc_actions(ctl, argc - 1, argv + 1);
	return nb_ctl_wrong(ctl, argv[0], "unknown tc object, expected qdisc, filter or actions");
}

void nb_ctl_print_tc_items(struct nb_print *p, const struct nb_tc_print_list *list, bool stats)
{
	for (unsigned int n = 0; n < list->cnt; n++) {
		const struct nb_tc_print_item *it = &list->items[n];
		enum nb_print_type t = (enum nb_print_type)(it->type & NB_TC_PRINT_ANY);

		if ((it->type & NB_TC_PRINT_STATS) && !stats)
			continue;
		switch (it->value_type) {
		case NB_TC_PRINT_STRING:
			nb_print_string(p, t, it->key, it->fmt, it->s);
			break;
		case NB_TC_PRINT_UINT:
			nb_print_uint(p, t, it->key, it->fmt, it->u);
			break;
		case NB_TC_PRINT_INT:
			nb_print_int(p, t, it->key, it->fmt, (int64_t)it->u);
			break;
		case NB_TC_PRINT_HEX:
			nb_print_hex(p, t, it->key, it->fmt, it->u);
			break;
		case NB_TC_PRINT_BOOL:
			nb_print_bool(p, t, it->key, it->fmt, true);
			break;
		case NB_TC_PRINT_OPEN:
			nb_print_open_object(p, it->key);
			break;
		case NB_TC_PRINT_CLOSE:
			nb_print_close_object(p);
			break;
		}
	}
}

const char *nb_ctl_kinds_list(const char *const *k, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (; *k && n < size; k++)
		n += snprintf(buf + n, size - n, "%s%s", *k, !k[1] ? "" : !k[2] ? " or " : ", ");
	return buf;
}
