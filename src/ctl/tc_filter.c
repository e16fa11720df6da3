// SPDX-License-Identifier: GPL-2.0
/*
 * tc filter, with iproute2's words (tc/tc_filter.c, f_bpf.c, f_u32.c, f_matchall.c):
 *
 *   tc filter { add | replace | change | del | show } dev DEV
 *      [ingress | egress | root | parent M:N] [protocol P] [pref N] [handle H] [chain C]
 *      { bpf [run] { obj | object-file } F [{ sec | section } S] [da | direct-action | integ_act]
 *            [{ classid | flowid } X] [action ...]
 *      | u32 { match { u32 | u16 | u8 } VAL MASK at [nexthdr+]OFF
 *            | match ip { src | dst } A/L | match ip { protocol | tos | dsfield | ihl | sport |
 *              dport | icmp_type | icmp_code } VAL MASK | match ip6 { src | dst } A/L
 *            | match ip6 { protocol | sport | dport | icmp_type | icmp_code } VAL MASK
 *            | match { tcp | udp } { src | dst } VAL MASK | match icmp { type | code } VAL MASK
 *            }... [ht HT:[BKT:] | sample SELECTOR [divisor N]] [order N] [link HT:]
 *            [hashkey mask M at OFF] [{ flowid | classid } X] [action ...]
 *      | u32 divisor N
 *      | matchall [{ classid | flowid } X] [action ...]
 *      | KIND WORDS... [action ...] }   (fw and the other kinds: their words are their own)
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
#include <netbpf/prog.h>

#include "common/types.h"
#include "ctl/args.h"
#include "ctl/json.h"
#include "ctl/print.h"
#include "ctl/tc.h"

enum verb { F_ADD, F_REPLACE, F_CHANGE, F_DEL, F_SHOW };

struct filter_cmd {
	struct nb_tc_filter_opts f;
	struct nb_ctl_actions acts;
	struct nb_map_sizes sizes;	/* bpf: "max-entries NAME=N" */
	const char *obj_file;		/* bpf: "obj FILE sec SECTION", loaded before the add */
	const char *section;
	char path[PATH_MAX];
	char name[PATH_MAX + 64];
	const char *handle;	/* parsed once the kind is known (u32 handles are 800::1) */
	const char **words;	/* the kind's own words, for kinds that read them */
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

static bool parse_val(const char *w, __u32 *v)
{
	return nb_ctl_parse_u32(w, v, 0);
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

static int parse_u32_match(struct nb_ctl *ctl, int argc, char **argv, int *i,
			   struct nb_tc_u32_opts *u, struct nb_log *log)
{
	const char *what = nb_ctl_next(ctl, argc, argv, i), *sel;
	__u32 val, mask;

	if (!what)
		return -EINVAL;
	if (!strcmp(what, "u32") || !strcmp(what, "u16") || !strcmp(what, "u8")) {
		enum nb_tc_u32_size size = what[1] == '3' ? NB_TC_U32_SIZE_32 :
					   what[1] == '1' ? NB_TC_U32_SIZE_16 : NB_TC_U32_SIZE_8;
		bool nexthdr = false;
		const char *off;
		int offset = 0;

		if (*i + 3 > argc)
			return nb_ctl_usage(ctl, "match %s needs VAL MASK [at OFF]", what);
		if (!parse_val(argv[*i + 1], &val))
			return nb_ctl_wrong(ctl, argv[*i + 1], "illegal \"match\" value");
		if (!parse_val(argv[*i + 2], &mask))
			return nb_ctl_wrong(ctl, argv[*i + 2], "illegal \"match\" mask");
		*i += 2;
		if (*i + 1 < argc && !strcmp(argv[*i + 1], "at")) {
			char *end;

			++*i;
			off = nb_ctl_next(ctl, argc, argv, i);
			if (!off)
				return -EINVAL;
			if (!strncmp(off, "nexthdr+", 8)) {
				nexthdr = true;
				off += 8;
			}
			offset = (int)strtol(off, &end, 0);
			if (!*off || *end)
				return nb_ctl_wrong(ctl, argv[*i], "illegal \"at\" offset");
		}
		return log_err(ctl, nb_tc_u32_match(u, size, val, mask, offset, nexthdr, log), log);
	}
	sel = nb_ctl_next(ctl, argc, argv, i);
	if (!sel)
		return -EINVAL;
	if ((!strcmp(what, "ip") || !strcmp(what, "ip6")) &&
	    (!strcmp(sel, "src") || !strcmp(sel, "dst"))) {
		const char *addr = nb_ctl_next(ctl, argc, argv, i);
		char buf[64], *slash;
		unsigned int plen = !strcmp(what, "ip") ? 32 : 128;
		unsigned char a[16];

		if (!addr)
			return -EINVAL;
		snprintf(buf, sizeof(buf), "%s", addr);
		slash = strchr(buf, '/');
		if (slash) {
			*slash = 0;
			if (!nb_ctl_parse_u32(slash + 1, &plen, 10) ||
			    plen > (!strcmp(what, "ip") ? 32u : 128u))
				return nb_ctl_wrong(ctl, addr, "illegal prefix length");
		}
		if (inet_pton(!strcmp(what, "ip") ? AF_INET : AF_INET6, buf, a) != 1)
			return nb_ctl_wrong(ctl, addr, "expected an %s address",
					    !strcmp(what, "ip") ? "IPv4" : "IPv6");
		if (!strcmp(what, "ip")) {
			__be32 v4;

			memcpy(&v4, a, 4);
			return log_err(ctl, nb_tc_u32_match_ip(u, sel[0] == 'd', v4, plen, log),
				       log);
		}
		return log_err(ctl, nb_tc_u32_match_ip6(u, sel[0] == 'd', a, plen, log), log);
	}
	{
		static const struct { const char *what, *sel; enum nb_tc_u32_field field; } f[] = {
			{ "ip", "protocol", NB_TC_U32_IP_PROTOCOL }, { "ip", "tos", NB_TC_U32_IP_TOS },
			{ "ip", "dsfield", NB_TC_U32_IP_TOS }, { "ip", "ihl", NB_TC_U32_IP_IHL },
			{ "ip", "sport", NB_TC_U32_IP_SPORT }, { "ip", "dport", NB_TC_U32_IP_DPORT },
			{ "ip", "icmp_type", NB_TC_U32_IP_ICMP_TYPE },
			{ "ip", "icmp_code", NB_TC_U32_IP_ICMP_CODE },
			{ "ip6", "protocol", NB_TC_U32_IP6_PROTOCOL },
			{ "ip6", "sport", NB_TC_U32_IP6_SPORT }, { "ip6", "dport", NB_TC_U32_IP6_DPORT },
			{ "ip6", "icmp_type", NB_TC_U32_IP6_ICMP_TYPE },
			{ "ip6", "icmp_code", NB_TC_U32_IP6_ICMP_CODE },
			{ "tcp", "src", NB_TC_U32_TCP_SRC }, { "tcp", "dst", NB_TC_U32_TCP_DST },
			{ "udp", "src", NB_TC_U32_UDP_SRC }, { "udp", "dst", NB_TC_U32_UDP_DST },
			{ "icmp", "type", NB_TC_U32_ICMP_TYPE }, { "icmp", "code", NB_TC_U32_ICMP_CODE },
		};
		bool known_what = false;

		for (size_t k = 0; k < ARRAY_SIZE(f); k++) {
			if (strcmp(what, f[k].what))
				continue;
			known_what = true;
			if (strcmp(sel, f[k].sel))
				continue;
			if (*i + 2 >= argc)
				return nb_ctl_usage(ctl, "match %s %s needs VAL MASK", what, sel);
			if (!parse_val(argv[*i + 1], &val))
				return nb_ctl_wrong(ctl, argv[*i + 1], "illegal \"match\" value");
			if (!parse_val(argv[*i + 2], &mask))
				return nb_ctl_wrong(ctl, argv[*i + 2], "illegal \"match\" mask");
			*i += 2;
			return log_err(ctl, nb_tc_u32_match_field(u, f[k].field, val, mask, log),
				       log);
		}
		if (known_what)
			return nb_ctl_wrong(ctl, sel, "unknown \"match %s\" selector", what);
		return nb_ctl_wrong(ctl, what, "illegal \"match\", expected u32, u16, u8, ip, ip6, "
				    "tcp, udp or icmp");
	}
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
	const char *const *k = nb_tc_filter_kinds();
	size_t n = 0;

	buf[0] = 0;
	for (; *k && n < size; k++)
		n += snprintf(buf + n, size - n, "%s%s", *k,
			      !k[1] ? "" : !k[2] ? " or " : ", ");
	return buf;
}

/* bpf, u32 and matchall have options structs; the other kinds read their words themselves. */
static bool kind_reads_words(const char *kind)
{
	return strcmp(kind, "bpf") && strcmp(kind, "u32") && strcmp(kind, "matchall");
}

static bool parse_divisor(const char *w, __u32 *divisor)
{
	return nb_ctl_parse_u32(w, divisor, 0) && *divisor && *divisor <= 256 &&
	       !(*divisor & (*divisor - 1));
}

/* "hashkey mask M at OFF": the word whose masked bits pick the linked table's bucket. */
static int parse_hashkey(struct nb_ctl *ctl, int argc, char **argv, int *i,
			 struct nb_tc_u32_opts *u)
{
	bool any = false;

	while (*i + 2 < argc && (!strcmp(argv[*i + 1], "mask") || !strcmp(argv[*i + 1], "at"))) {
		const char *w = argv[++*i], *val = argv[++*i];
		__u32 v;
		char *end;

		if (w[0] == 'm') {
			if (!nb_ctl_parse_u32(val, &v, 16))
				return nb_ctl_wrong(ctl, val, "illegal \"hashkey\" mask");
			u->hmask = htonl(v);
		} else {
			long off = strtol(val, &end, 0);

			if (!*val || *end || off % 4 || off < -65536 || off > 65536)
				return nb_ctl_wrong(ctl, val, "illegal \"hashkey\" offset: a "
						    "multiple of 4");
			u->hoff = (int)off;
		}
		any = true;
	}
	if (!any)
		return nb_ctl_usage(ctl, "hashkey needs \"mask M\" and \"at OFF\"");
	return 0;
}

/* "sample SELECTOR [divisor N]": the node's bucket is the one the selector's key hashes to. */
static int parse_sample(struct nb_ctl *ctl, int argc, char **argv, int *i,
			struct nb_tc_u32_opts *u, struct nb_log *log)
{
	struct nb_tc_u32_opts *sample = calloc(1, sizeof(*sample));
	__u32 divisor = 0;
	int err;

	if (!sample)
		return nb_ctl_fail(ctl, -ENOMEM, "out of memory");
	err = parse_u32_match(ctl, argc, argv, i, sample, log);
	if (!err && *i + 1 < argc && !strcmp(argv[*i + 1], "divisor")) {
		++*i;
		const char *val = nb_ctl_next(ctl, argc, argv, i);

		if (!val)
			err = -EINVAL;
		else if (!parse_divisor(val, &divisor))
			err = nb_ctl_wrong(ctl, val, "illegal sample \"divisor\"");
	}
	if (!err)
		err = log_err(ctl, nb_tc_u32_sample(u, sample, divisor, log), log);
	free(sample);
	return err;
}

static int parse_kind_opts(struct nb_ctl *ctl, int argc, char **argv, int i,
			   struct filter_cmd *c)
{
	struct nb_tc_filter_opts *f = &c->f;
	bool is_bpf = !strcmp(f->kind, "bpf"), is_u32 = !strcmp(f->kind, "u32");
	struct nb_log log = { 0 };
	bool sampled = false;
	__u32 order = 0;
	int err;

	while (i < argc) {
		const char *w = argv[i], *val;
		__u32 classid;

		if (!strcmp(w, "action") || !strcmp(w, "actions")) {
			err = nb_ctl_parse_actions(ctl, argc, argv, &i, &c->acts);
			if (err)
				return err;
			continue;
		}
		if (kind_reads_words(f->kind)) {
			if (!c->words && !(c->words = calloc(argc, sizeof(*c->words))))
				return nb_ctl_fail(ctl, -ENOMEM, "out of memory");
			c->words[f->word_cnt++] = w;
		} else if (!strcmp(w, "classid") || !strcmp(w, "flowid")) {
			val = nb_ctl_next(ctl, argc, argv, &i);
			if (!val)
				return -EINVAL;
			if (nb_tc_classid_parse(val, &classid))
				return nb_ctl_wrong(ctl, val, "illegal \"classid\"");
			if (is_bpf)
				f->bpf.classid = classid;
			else if (is_u32)
				f->u32.classid = classid;
			else
				f->matchall.classid = classid;
		} else if (!strcmp(w, "skip_sw") || !strcmp(w, "skip_hw") || !strcmp(w, "verbose")) {
			/* there is no hardware; software is all there is */
			if (w[5] == 's')
				return nb_ctl_wrong(ctl, w, "skip_sw leaves nothing to run here");
		} else if (is_bpf && !strcmp(w, "run")) {
			/* the old spelling "bpf run object-file F" */
		} else if (is_bpf && (!strcmp(w, "obj") || !strcmp(w, "object-file"))) {
			val = nb_ctl_next(ctl, argc, argv, &i);
			if (!val)
				return -EINVAL;
			c->obj_file = nb_ctl_obj_path(ctl, val, c->path, sizeof(c->path));
			snprintf(c->name, sizeof(c->name), "%s", strrchr(val, '/') ?
				 strrchr(val, '/') + 1 : val);
		} else if (is_bpf && (!strcmp(w, "sec") || !strcmp(w, "section"))) {
			if (!(c->section = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
		} else if (is_bpf && !strcmp(w, "max-entries")) {
			err = nb_ctl_parse_map_size(ctl, argc, argv, &i, &c->sizes);
			if (err)
				return err;
		} else if (is_bpf && (!strcmp(w, "da") || !strcmp(w, "direct-action") ||
				      !strcmp(w, "integ_act"))) {
			f->bpf.direct_action = true;
		} else if (is_bpf && (!strcmp(w, "bytecode") || !strcmp(w, "bytecode-file") ||
				      !strcmp(w, "bc") || !strcmp(w, "object-pinned") ||
				      !strcmp(w, "pinned") || !strcmp(w, "fd"))) {
			return nb_ctl_wrong(ctl, w, "only obj FILE [sec NAME] programs are supported");
		} else if (is_u32 && !strcmp(w, "match")) {
			err = parse_u32_match(ctl, argc, argv, &i, &f->u32, &log);
			if (err)
				return err;
		} else if (is_u32 && (!strcmp(w, "ht") || !strcmp(w, "link"))) {
			__u32 h;

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (nb_tc_filter_handle_parse("u32", val, &h))
				return nb_ctl_wrong(ctl, val, "illegal \"%s\"", w);
			if (TC_U32_NODE(h))
				return nb_ctl_wrong(ctl, val, "\"%s\" must be a hash table", w);
			if (w[0] == 'l')
				f->u32.link = h;
			else if (sampled)
				f->u32.htid = TC_U32_HTID(h) | (f->u32.htid & 0xff000);
			else
				f->u32.htid = h & 0xfffff000;
		} else if (is_u32 && !strcmp(w, "divisor")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!parse_divisor(val, &f->u32.divisor))
				return nb_ctl_wrong(ctl, val, "illegal \"divisor\": a power of 2 "
						    "from 1 to 256");
		} else if (is_u32 && !strcmp(w, "hashkey")) {
			err = parse_hashkey(ctl, argc, argv, &i, &f->u32);
			if (err)
				return err;
		} else if (is_u32 && !strcmp(w, "sample")) {
			err = parse_sample(ctl, argc, argv, &i, &f->u32, &log);
			if (err)
				return err;
			sampled = true;
		} else if (is_u32 && !strcmp(w, "order")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ctl_parse_u32(val, &order, 0) || !order || order > 0xfff)
				return nb_ctl_wrong(ctl, val, "illegal \"order\"");
		} else if (is_u32 && !strcmp(w, "offset")) {
			return nb_ctl_wrong(ctl, w, "u32 offset (variable header lengths) is "
					    "not built: keys at nexthdr+N read N bytes past the "
					    "network header");
		} else {
			return nb_ctl_wrong(ctl, w, "unknown %s option", f->kind);
		}
		i++;
	}
	if (order) {
		if (TC_U32_NODE(f->handle) && order != TC_U32_NODE(f->handle))
			return nb_ctl_wrong(ctl, "order", "\"order\" contradicts \"handle\"");
		f->handle |= order;
	}
	if (is_bpf) {
		if (!c->obj_file)
			return nb_ctl_usage(ctl, "bpf needs \"obj FILE\"");
		/* iproute2 names the filter "FILE:[SECTION]" */
		size_t n = strlen(c->name);

		snprintf(c->name + n, sizeof(c->name) - n, ":[%s]",
			 c->section ? c->section : "classifier");
		f->bpf.name = c->name;
	}
	f->words = c->words;
	f->actions = c->acts.a;
	f->action_cnt = c->acts.cnt;
	return 0;
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
		if (c->obj_file)
			err = nb_ctl_bpf_obj_load(c->obj_file, c->section, "classifier",
						  BPF_PROG_TYPE_SCHED_CLS, &c->sizes, &c->f.bpf.prog,
						  &log);
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
	if (c->obj_file)
		nb_prog_put(c->f.bpf.prog);	/* the filter holds its own */
	nb_ctl_actions_release(&c->acts);
	if (dev)
		nb_dev_put(dev);
	free(c->words);
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
