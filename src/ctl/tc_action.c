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

#include <net/if.h>

#include <netbpf/clock.h>
#include <netbpf/dev.h>
#include <netbpf/prog.h>

#include "ctl/args.h"
#include "ctl/json.h"
#include "ctl/print.h"
#include "ctl/tc.h"

/* A control word at argv[*i] (advancing past "goto chain N"); false when there is none. */
static bool parse_control(struct nb_ctl *ctl, int argc, char **argv, int *i, int *control,
			  int *err)
{
	const char *w = argv[*i];
	unsigned int n;

	*err = 0;
	if (!nb_tc_control_parse(w, control))
		return true;
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
		     struct nb_ctl_actions *acts)
{
	unsigned int n = acts->cnt;
	struct nb_map_sizes *sizes = &acts->sizes[n];
	const char *file = NULL;
	int err;

	for (; *i < argc; ++*i) {
		const char *w = argv[*i], *val;

		if (!strcmp(w, "run"))
			continue;
		if (!strcmp(w, "max-entries")) {
			err = nb_ctl_parse_map_size(ctl, argc, argv, i, sizes);
			if (err)
				return err;
			continue;
		}
		if (!strcmp(w, "obj") || !strcmp(w, "object-file") || !strcmp(w, "sec") ||
		    !strcmp(w, "section")) {
			val = nb_ctl_next(ctl, argc, argv, i);
			if (!val)
				return -EINVAL;
			if (w[0] == 'o') {
				acts->files[n] = nb_ctl_obj_path(ctl, val, acts->paths[n], PATH_MAX);
				file = strrchr(val, '/') ? strrchr(val, '/') + 1 : val;
			} else {
				acts->sections[n] = val;
			}
			continue;
		}
		if (!strcmp(w, "bytecode") || !strcmp(w, "bytecode-file") || !strcmp(w, "bc") ||
		    !strcmp(w, "object-pinned") || !strcmp(w, "pinned") || !strcmp(w, "fd"))
			return nb_ctl_wrong(ctl, w, "only obj FILE [sec NAME] programs are supported");
		break;
	}
	if (!acts->files[n]) {
		/* "action bpf index N" binds an existing action */
		if (*i < argc && !strcmp(argv[*i], "index"))
			return 0;
		return nb_ctl_usage(ctl, "action bpf needs \"obj FILE\"");
	}
	/* iproute2 annotates the action "FILE:[SECTION]" */
	snprintf(acts->names[n], sizeof(acts->names[n]), "%s:[%s]", file,
		 acts->sections[n] ? acts->sections[n] : "action");
	acts->a[n].bpf.name = acts->names[n];
	return 0;
}

static int parse_mirred(struct nb_ctl *ctl, int argc, char **argv, int *i,
			struct nb_tc_action_opts *a)
{
	bool ingress, redirect;
	const char *w, *name;
	struct nb_dev *dev;

	if (*i < argc && !strcmp(argv[*i], "index"))
		return 0;	/* "action mirred index N" binds an existing action */
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

/* "index N", "no_percpu", "skip_hw" after an action's words, in any order. */
static int parse_action_tail(struct nb_ctl *ctl, int argc, char **argv, int *i,
			     struct nb_tc_action_opts *a)
{
	while (*i < argc) {
		const char *w = argv[*i], *val;

		if (!strcmp(w, "index")) {
			val = nb_ctl_next(ctl, argc, argv, i);
			if (!val)
				return -EINVAL;
			if (!nb_ctl_parse_u32(val, &a->index, 10) || !a->index)
				return nb_ctl_wrong(ctl, val, "Illegal \"index\"");
		} else if (!strcmp(w, "no_percpu")) {
			a->flags |= TCA_ACT_FLAGS_NO_PERCPU_STATS;
		} else if (!strcmp(w, "skip_hw")) {
			a->flags |= TCA_ACT_FLAGS_SKIP_HW;
		} else if (!strcmp(w, "skip_sw")) {
			return nb_ctl_wrong(ctl, w, "skip_sw leaves nothing to run here");
		} else {
			return 0;
		}
		++*i;
	}
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
		a->sz = sizeof(*a);
		acts->files[acts->cnt] = NULL;
		acts->sections[acts->cnt] = NULL;
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
			err = parse_action_tail(ctl, argc, argv, i, a);
			if (err)
				return err;
			acts->cnt++;
			continue;
		}
		++*i;
		if (!strcmp(kind, "gact")) {
			a->kind = "gact";
		} else if (!strcmp(kind, "bpf")) {
			a->kind = "bpf";
			err = parse_bpf(ctl, argc, argv, i, acts);
		} else if (!strcmp(kind, "mirred")) {
			a->kind = "mirred";
			err = parse_mirred(ctl, argc, argv, i, a);
		} else {
			return nb_ctl_wrong(ctl, kind, "unknown action, expected gact, bpf or mirred");
		}
		if (!err)
			err = parse_action_tail(ctl, argc, argv, i, a);
		if (err)
			return err;
		if (*i < argc && parse_control(ctl, argc, argv, i, &a->control, &err)) {
			if (err)
				return err;
			a->has_control = true;
			++*i;
		} else if (!strcmp(a->kind, "gact") && !a->index) {
			return *i < argc ? nb_ctl_wrong(ctl, argv[*i], "expected a gact verdict")
					 : nb_ctl_usage(ctl, "action gact needs a verdict");
		}
		err = parse_action_tail(ctl, argc, argv, i, a);
		if (err)
			return err;
		acts->cnt++;
	}
	return 0;
}

int nb_ctl_bpf_obj_load(const char *file, const char *section, const char *default_section,
			enum bpf_prog_type type, const struct nb_map_sizes *sizes,
			struct nb_prog **progp, struct nb_log *log)
{
	return nb_object_load_section(file, section ? section : default_section, type,
				      sizes->s, sizes->cnt, progp, log);
}

int nb_ctl_actions_load(struct nb_ctl_actions *acts, struct nb_log *log)
{
	for (unsigned int n = 0; n < acts->cnt; n++) {
		int err;

		if (!acts->files[n] || acts->a[n].bpf.prog)
			continue;
		err = nb_ctl_bpf_obj_load(acts->files[n], acts->sections[n], "action",
					  BPF_PROG_TYPE_SCHED_ACT, &acts->sizes[n],
					  &acts->a[n].bpf.prog, log);
		if (err)
			return err;
	}
	return 0;
}

void nb_ctl_actions_release(struct nb_ctl_actions *acts)
{
	for (unsigned int n = 0; n < acts->cnt; n++) {
		if (acts->files[n] && acts->a[n].bpf.prog) {
			nb_prog_put(acts->a[n].bpf.prog);
			acts->a[n].bpf.prog = NULL;
		}
	}
}

/* The kernel's tag of prog in hex, as tc and bpftool print it. */
const char *nb_ctl_prog_tag(const struct nb_prog *prog, char buf[2 * BPF_TAG_SIZE + 1])
{
	__u8 tag[BPF_TAG_SIZE];

	buf[0] = 0;
	if (nb_prog_tag(prog, tag))
		return "?";
	for (int i = 0; i < BPF_TAG_SIZE; i++)
		sprintf(buf + 2 * i, "%02x", tag[i]);
	return buf;
}

/* bpf_dump_prog_info: "id N name P tag T jited " or the "prog" object; false when gone. */
bool nb_ctl_print_prog_info(struct nb_ctl *ctl, struct nb_json *j, __u32 id)
{
	struct nb_prog *prog = id ? nb_prog_get_by_id(id) : NULL;
	char tag[2 * BPF_TAG_SIZE + 1];

	if (!prog)
		return false;
	/* the kernel keeps BPF_OBJ_NAME_LEN - 1 characters of the name */
	if (j) {
		nb_json_start_object(j, "prog");
		nb_json_uint(j, "id", id);
		nb_json_printf(j, "name", "%.15s", nb_prog_name(prog));
		nb_json_string(j, "tag", nb_ctl_prog_tag(prog, tag));
		nb_json_uint(j, "jited", nb_prog_is_jited(prog));
		nb_json_end_object(j);
	} else {
		fprintf(ctl->out, "id %u name %.15s tag %s %s", id, nb_prog_name(prog),
			nb_ctl_prog_tag(prog, tag), nb_prog_is_jited(prog) ? "jited " : "");
	}
	nb_prog_put(prog);
	return true;
}

/*
 * tc_print_one_action: "action order N: ", what the kind's dump wrote (its words, "index N ref R
 * bind B" and the ages with -s), then the counters and flags every action has.
 */
void nb_ctl_print_action(struct nb_ctl *ctl, struct nb_json *j, const struct nb_tc_action_info *a,
			 unsigned int order, unsigned int how)
{
	struct nb_print p = { .f = ctl->out, .j = j };
	FILE *f = ctl->out;

	nb_print_open_object(&p, NULL);
	nb_print_uint(&p, NB_PRINT_ANY, "order", "\taction order %llu: ", order);
	nb_print_string(&p, NB_PRINT_JSON, "kind", NULL, a->kind);
	nb_ctl_print_tc_items(&p, &a->print, ctl->stats);
	if (j) {
		if (ctl->stats) {
			nb_json_start_object(j, "stats");
			nb_json_uint(j, "bytes", a->stats.bytes);
			nb_json_uint(j, "packets", a->stats.packets);
			nb_json_uint(j, "drops", a->stats.drops);
			nb_json_uint(j, "overlimits", a->stats.overlimits);
			nb_json_uint(j, "requeues", 0);
			nb_json_uint(j, "backlog", 0);
			nb_json_uint(j, "qlen", 0);
			nb_json_end_object(j);
		}
		if (a->flags & TCA_ACT_FLAGS_NO_PERCPU_STATS)
			nb_json_bool(j, "no_percpu", true);
		if (how & NB_CTL_ACT_STANDALONE)
			nb_json_bool(j, "not_in_hw", true);
		if (how & NB_CTL_ACT_HW_STATS) {
			nb_json_start_array(j, "used_hw_stats");
			nb_json_string(j, NULL, "disabled");
			nb_json_end_array(j);
		}
		nb_print_close_object(&p);
		return;
	}
	if (ctl->stats)
		fprintf(f, "\tAction statistics:\n\tSent %llu bytes %llu pkt (dropped %llu, "
			"overlimits %llu requeues 0) \n\tbacklog 0b 0p requeues 0\n",
			(unsigned long long)a->stats.bytes, (unsigned long long)a->stats.packets,
			(unsigned long long)a->stats.drops,
			(unsigned long long)a->stats.overlimits);
	if (a->flags & TCA_ACT_FLAGS_NO_PERCPU_STATS)
		fprintf(f, "\tno_percpu\n");
	if (how & NB_CTL_ACT_STANDALONE)
		fprintf(f, "\tnot_in_hw\n");
	if (how & NB_CTL_ACT_HW_STATS)
		fprintf(f, "\tused_hw_stats disabled\n");
}

struct actions_show {
	struct nb_ctl *ctl;
	struct nb_json *j;
	unsigned int order;
};

static int action_show_one(const struct nb_tc_action_info *info, void *arg)
{
	struct actions_show *as = arg;

	if (!as->j)
		fprintf(as->ctl->out, "\n");
	nb_ctl_print_action(as->ctl, as->j, info, as->order++,
			    NB_CTL_ACT_STANDALONE | NB_CTL_ACT_HW_STATS);
	return 0;
}

static int count_one(const struct nb_tc_action_info *info, void *arg)
{
	(void)info;
	++*(unsigned int *)arg;
	return 0;
}

/* print_action's frame: "total acts N" then the actions; JSON [{"total acts": N}, {"actions"}]. */
static struct nb_json *actions_head(struct actions_show *as, unsigned int total)
{
	struct nb_ctl *ctl = as->ctl;

	if (!ctl->json) {
		fprintf(ctl->out, "total acts %u\n", total);
		return NULL;
	}
	as->j = nb_json_new(ctl->out, ctl->pretty);
	nb_json_start_array(as->j, NULL);
	nb_json_start_object(as->j, NULL);
	nb_json_uint(as->j, "total acts", total);
	nb_json_end_object(as->j);
	nb_json_start_object(as->j, NULL);
	nb_json_start_array(as->j, "actions");
	return as->j;
}

static void actions_tail(struct actions_show *as)
{
	if (!as->j)
		return;
	nb_json_end_array(as->j);
	nb_json_end_object(as->j);
	nb_json_end_array(as->j);
	nb_json_free(as->j);
	as->j = NULL;
}

static int log_fail(struct nb_ctl *ctl, int err, struct nb_log *log)
{
	const char *t = nb_log_text(log);

	/* the kernel's messages, as iproute2 prints its extack: "Error: MSG." */
	if (err)
		nb_ctl_fail(ctl, err, "%.*s%s", (int)strcspn(t, "\n"), t[0] ? t : strerror(-err),
			    t[0] ? "." : "");
	nb_log_free(log);
	return err;
}

/* "action KIND index N" for get and delete (tc_action_gd); *i past them. */
static int parse_kind_index(struct nb_ctl *ctl, int argc, char **argv, int *i, const char **kind,
			    __u32 *index)
{
	const char *val;

	if (!strcmp(argv[*i], "action") && ++*i >= argc)
		return nb_ctl_usage(ctl, "\"action\" needs a kind");
	*kind = argv[*i];
	if (++*i >= argc || strcmp(argv[*i], "index"))
		return nb_ctl_usage(ctl, "no index specified action: %s", *kind);
	val = nb_ctl_next(ctl, argc, argv, i);
	if (!val)
		return -EINVAL;
	if (!nb_ctl_parse_u32(val, index, 10))
		return nb_ctl_wrong(ctl, val, "Illegal \"index\"");
	++*i;
	return 0;
}

static bool known_kind(const char *kind)
{
	for (const char *const *k = nb_tc_action_kinds(); *k; k++)
		if (!strcmp(*k, kind))
			return true;
	return false;
}

static int actions_get_del(struct nb_ctl *ctl, int argc, char **argv, bool del)
{
	struct actions_show as = { .ctl = ctl, .order = 1 };
	int i = 1, err = 0;

	if (argc < 2)
		return nb_ctl_usage(ctl, "tc actions %s action KIND index N", del ? "del" : "get");
	while (i < argc && !err) {
		struct nb_tc_action_info info;
		struct nb_log log = { 0 };
		const char *kind = NULL;
		__u32 index = 0;

		err = parse_kind_index(ctl, argc, argv, &i, &kind, &index);
		if (err)
			break;
		if (!known_kind(kind))
			return nb_ctl_wrong(ctl, kind,
					    "unknown action, expected gact, bpf or mirred");
		if (del) {
			err = log_fail(ctl, nb_tc_action_del(kind, index, &log), &log);
			continue;
		}
		err = log_fail(ctl, nb_tc_action_get(kind, index, &info, &log), &log);
		if (err)
			break;
		/* RTM_GETACTION answers carry no count: tc prints "total acts 0" */
		if (as.order == 1)
			actions_head(&as, 0);
		if (!ctl->json)
			fprintf(ctl->out, "\n");
		nb_ctl_print_action(ctl, as.j, &info, as.order++,
				    NB_CTL_ACT_STANDALONE | NB_CTL_ACT_HW_STATS);
		nb_tc_action_info_release(&info);
	}
	actions_tail(&as);
	return err;
}

static int actions_list_flush(struct nb_ctl *ctl, int argc, char **argv, bool flush)
{
	struct actions_show as = { .ctl = ctl };
	struct nb_log log = { 0 };
	unsigned int total = 0;
	const char *kind;
	int i = 1, err;

	if (i < argc && !strcmp(argv[i], "action"))
		i++;
	if (i >= argc)
		return nb_ctl_usage(ctl, "tc actions %s action KIND", flush ? "flush" : "list");
	kind = argv[i++];
	if (!known_kind(kind))
		return nb_ctl_wrong(ctl, kind, "unknown action, expected gact, bpf or mirred");
	if (i < argc)
		return nb_ctl_wrong(ctl, argv[i], "tc actions %s takes one action kind",
				    flush ? "flush" : "list");
	if (flush) {
		err = nb_tc_actions_flush(kind, &total, &log);
		if (!err && nb_log_text(&log)[0])
			fprintf(stderr, "Warning: %.*s.\n", (int)strcspn(nb_log_text(&log), "\n"),
				nb_log_text(&log));
		return log_fail(ctl, err, &log);
	}
	err = nb_tc_actions_walk(kind, count_one, &total, &log);
	if (!err) {
		actions_head(&as, total);
		err = nb_tc_actions_walk(kind, action_show_one, &as, &log);
		actions_tail(&as);
	}
	return log_fail(ctl, err, &log);
}

static int actions_add(struct nb_ctl *ctl, int argc, char **argv, bool replace)
{
	struct nb_ctl_actions *acts = calloc(1, sizeof(*acts));
	struct nb_log log = { 0 };
	int i = 1, err;

	if (!acts)
		return nb_ctl_fail(ctl, -ENOMEM, "out of memory");
	if (i >= argc || strcmp(argv[i], "action")) {
		err = i < argc ? nb_ctl_wrong(ctl, argv[i], "expected \"action KIND ...\"")
			       : nb_ctl_usage(ctl, "tc actions add action KIND ...");
		goto out;
	}
	err = nb_ctl_parse_actions(ctl, argc, argv, &i, acts);
	if (!err && i < argc)
		err = nb_ctl_wrong(ctl, argv[i], "expected \"action KIND ...\"");
	if (!err)
		err = nb_ctl_actions_load(acts, &log);
	if (!err)
		err = nb_tc_actions_add(acts->a, acts->cnt, replace, NULL, &log);
	err = log_fail(ctl, err, &log);
	nb_ctl_actions_release(acts);
out:
	free(acts);
	return err;
}

/*
 * tc actions { add | replace | change } action KIND ... [index N] [action ...]
 * tc actions { get | delete } action KIND index N [action KIND index N ...]
 * tc actions { list | ls | show | flush } action KIND
 */
int nb_ctl_tc_actions(struct nb_ctl *ctl, int argc, char **argv)
{
	if (argc < 1)
		return nb_ctl_usage(ctl, "tc actions { add | change | replace | get | delete | "
				    "list | flush } action KIND ...");
	if (nb_matches(argv[0], "add"))
		return actions_add(ctl, argc, argv, false);
	if (nb_matches(argv[0], "change") || nb_matches(argv[0], "replace"))
		return actions_add(ctl, argc, argv, true);
	if (nb_matches(argv[0], "get"))
		return actions_get_del(ctl, argc, argv, false);
	if (nb_matches(argv[0], "delete"))
		return actions_get_del(ctl, argc, argv, true);
	if (nb_matches(argv[0], "list") || nb_matches(argv[0], "ls") ||
	    nb_matches(argv[0], "show"))
		return actions_list_flush(ctl, argc, argv, false);
	if (nb_matches(argv[0], "flush"))
		return actions_list_flush(ctl, argc, argv, true);
	return nb_ctl_wrong(ctl, argv[0], "unknown actions command, expected add, change, "
			    "replace, get, delete, list or flush");
}
