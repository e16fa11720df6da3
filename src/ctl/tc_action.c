// SPDX-License-Identifier: GPL-2.0
/*
 * tc action words, as iproute2's m_gact.c, m_bpf.c and m_mirred.c read them:
 *
 *   action [gact] { pass | ok | drop | shot | pipe | reclassify | continue | trap |
 *                   goto chain N | jump N }
 *   action bpf [run] { obj | object-file } FILE [{ sec | section } NAME] [CONTROL]
 *   action mirred { egress | ingress } { redirect | mirror } dev DEV [CONTROL]
 *
 * and their names when printed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pkt_cls.h>
#include <linux/tc_act/tc_mirred.h>

#include <netbpf/dev.h>

#include "ctl/args.h"
#include "ctl/tc.h"

static const struct { const char *word; int control; } controls[] = {
	{ "pass", TC_ACT_OK }, { "ok", TC_ACT_OK }, { "drop", TC_ACT_SHOT },
	{ "shot", TC_ACT_SHOT }, { "pipe", TC_ACT_PIPE }, { "reclassify", TC_ACT_RECLASSIFY },
	{ "continue", TC_ACT_UNSPEC }, { "trap", TC_ACT_TRAP }, { "stolen", TC_ACT_STOLEN },
};

const char *nb_ctl_control_name(int control, char *buf, size_t size)
{
	if (TC_ACT_EXT_CMP(control, TC_ACT_GOTO_CHAIN)) {
		snprintf(buf, size, "goto chain %u", control & TC_ACT_EXT_VAL_MASK);
		return buf;
	}
	if (TC_ACT_EXT_CMP(control, TC_ACT_JUMP)) {
		snprintf(buf, size, "jump %u", control & TC_ACT_EXT_VAL_MASK);
		return buf;
	}
	for (size_t i = 0; i < sizeof(controls) / sizeof(controls[0]); i++)
		if (controls[i].control == control && strcmp(controls[i].word, "ok") &&
		    strcmp(controls[i].word, "shot")) {
			snprintf(buf, size, "%s", controls[i].word);
			return buf;
		}
	snprintf(buf, size, "%d", control);
	return buf;
}

/* A control word at argv[*i] (advancing past "goto chain N"); false when there is none. */
static bool parse_control(struct nb_ctl *ctl, int argc, char **argv, int *i, int *control,
			  int *err)
{
	const char *w = argv[*i];
	unsigned int n;

	*err = 0;
	for (size_t c = 0; c < sizeof(controls) / sizeof(controls[0]); c++)
		if (!strcmp(w, controls[c].word)) {
			*control = controls[c].control;
			return true;
		}
	if (!strcmp(w, "goto") || !strcmp(w, "jump")) {
		const char *val;

		if (w[0] == 'g') {
			if (*i + 1 >= argc || strcmp(argv[*i + 1], "chain")) {
				*err = nb_ctl_usage(ctl, "\"goto\" needs \"chain N\"");
				return true;
			}
			++*i;
		}
		val = nb_ctl_next(ctl, argc, argv, i);
		if (!val) {
			*err = -EINVAL;
			return true;
		}
		if (!nb_ctl_parse_u32(val, &n, 0) || n > TC_ACT_EXT_VAL_MASK) {
			*err = nb_ctl_wrong(ctl, val, "expected a chain or jump count");
			return true;
		}
		*control = (w[0] == 'g' ? TC_ACT_GOTO_CHAIN : TC_ACT_JUMP) | n;
		return true;
	}
	return false;
}

static int parse_bpf(struct nb_ctl *ctl, int argc, char **argv, int *i,
		     struct nb_tc_action_opts *a, char *path)
{
	for (; *i < argc; ++*i) {
		const char *w = argv[*i], *val;

		if (!strcmp(w, "run"))
			continue;
		if (!strcmp(w, "obj") || !strcmp(w, "object-file") || !strcmp(w, "sec") ||
		    !strcmp(w, "section")) {
			val = nb_ctl_next(ctl, argc, argv, i);
			if (!val)
				return -EINVAL;
			if (w[0] == 'o')
				a->bpf.obj_file = nb_ctl_obj_path(ctl, val, path, PATH_MAX);
			else
				a->bpf.section = val;
			continue;
		}
		if (!strcmp(w, "bytecode") || !strcmp(w, "bytecode-file") || !strcmp(w, "bc") ||
		    !strcmp(w, "object-pinned") || !strcmp(w, "pinned") || !strcmp(w, "fd"))
			return nb_ctl_wrong(ctl, w, "only obj FILE [sec NAME] programs are supported");
		break;
	}
	if (!a->bpf.obj_file)
		return nb_ctl_usage(ctl, "action bpf needs \"obj FILE\"");
	return 0;
}

static int parse_mirred(struct nb_ctl *ctl, int argc, char **argv, int *i,
			struct nb_tc_action_opts *a)
{
	bool ingress, redirect;
	const char *w, *name;
	struct nb_dev *dev;

	if (*i + 3 > argc)
		return nb_ctl_usage(ctl, "action mirred needs { egress | ingress } "
				    "{ redirect | mirror } dev DEV");
	w = argv[*i];
	if (strcmp(w, "egress") && strcmp(w, "ingress"))
		return nb_ctl_wrong(ctl, w, "expected egress or ingress");
	ingress = w[0] == 'i';
	w = argv[++*i];
	if (strcmp(w, "redirect") && strcmp(w, "mirror"))
		return nb_ctl_wrong(ctl, w, "expected redirect or mirror");
	redirect = w[0] == 'r';
	w = argv[++*i];
	if (strcmp(w, "dev"))
		return nb_ctl_wrong(ctl, w, "expected dev DEV");
	name = nb_ctl_next(ctl, argc, argv, i);
	if (!name)
		return -EINVAL;
	dev = nb_dev_get_by_name(name);
	if (!dev)
		return nb_ctl_fail(ctl, -ENODEV, "Cannot find device \"%s\"", name);
	a->mirred.ifindex = nb_dev_ifindex(dev);
	nb_dev_put(dev);
	a->mirred.eaction = ingress ? (redirect ? TCA_INGRESS_REDIR : TCA_INGRESS_MIRROR)
				    : (redirect ? TCA_EGRESS_REDIR : TCA_EGRESS_MIRROR);
	++*i;
	return 0;
}

int nb_ctl_parse_actions(struct nb_ctl *ctl, int argc, char **argv, int *i,
			 struct nb_ctl_actions *acts)
{
	while (*i < argc && (!strcmp(argv[*i], "action") || !strcmp(argv[*i], "actions"))) {
		struct nb_tc_action_opts *a;
		const char *kind;
		int err = 0;

		if (acts->cnt >= NB_TC_MAX_ACTIONS)
			return nb_ctl_wrong(ctl, argv[*i], "at most %d actions", NB_TC_MAX_ACTIONS);
		a = &acts->a[acts->cnt];
		memset(a, 0, sizeof(*a));
		if (++*i >= argc)
			return nb_ctl_usage(ctl, "\"action\" needs a kind");
		kind = argv[*i];
		if (parse_control(ctl, argc, argv, i, &a->control, &err)) {
			/* "action drop": gact without its name, as iproute2 allows */
			if (err)
				return err;
			a->kind = "gact";
			a->has_control = true;
			++*i;
			acts->cnt++;
			continue;
		}
		++*i;
		if (!strcmp(kind, "gact")) {
			a->kind = "gact";
		} else if (!strcmp(kind, "bpf")) {
			a->kind = "bpf";
			err = parse_bpf(ctl, argc, argv, i, a, acts->paths[acts->cnt]);
		} else if (!strcmp(kind, "mirred")) {
			a->kind = "mirred";
			err = parse_mirred(ctl, argc, argv, i, a);
		} else {
			return nb_ctl_wrong(ctl, kind, "unknown action, expected gact, bpf or mirred");
		}
		if (err)
			return err;
		if (*i < argc && !strcmp(argv[*i], "index")) {
			/* indexes are given in order per filter here: the word is read, not used */
			if (!nb_ctl_next(ctl, argc, argv, i))
				return -EINVAL;
			++*i;
		}
		if (*i < argc && parse_control(ctl, argc, argv, i, &a->control, &err)) {
			if (err)
				return err;
			a->has_control = true;
			++*i;
		} else if (!strcmp(a->kind, "gact")) {
			return *i < argc ? nb_ctl_wrong(ctl, argv[*i], "expected a gact verdict")
					 : nb_ctl_usage(ctl, "action gact needs a verdict");
		}
		acts->cnt++;
	}
	return 0;
}
