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
 *            }... [{ flowid | classid } X] [action ...]
 *      | matchall [{ classid | flowid } X] [action ...] }
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
#include "ctl/tc.h"

enum verb { F_ADD, F_REPLACE, F_CHANGE, F_DEL, F_SHOW };

struct filter_cmd {
	struct nb_tc_filter_opts f;
	struct nb_ctl_actions acts;
	struct nb_map_sizes sizes;	/* bpf: "max-entries NAME=N" */
	char path[PATH_MAX];
	char name[PATH_MAX + 64];
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

/* get_tc_classid: "M:N" in hex, ":N", "M:", or one hex number. */
static bool parse_classid(const char *w, __u32 *h)
{
	unsigned long maj = 0, min = 0;
	char *p;

	if (!strcmp(w, "root")) {
		*h = TC_H_ROOT;
		return true;
	}
	if (!strcmp(w, "none")) {
		*h = TC_H_UNSPEC;
		return true;
	}
	maj = strtoul(w, &p, 16);
	if (p == w && *p != ':')
		return false;
	if (*p == ':') {
		if (maj >= 1 << 16)
			return false;
		w = p + 1;
		min = strtoul(w, &p, 16);
		if (*p || min >= 1 << 16)
			return false;
		*h = (__u32)(maj << 16 | min);
		return true;
	}
	if (*p)
		return false;
	*h = (__u32)maj;
	return true;
}

static const char *classid_name(__u32 h, char *buf, size_t size)
{
	if (h == TC_H_ROOT)
		snprintf(buf, size, "root");
	else if (!TC_H_MAJ(h))
		snprintf(buf, size, ":%x", TC_H_MIN(h));
	else if (!TC_H_MIN(h))
		snprintf(buf, size, "%x:", TC_H_MAJ(h) >> 16);
	else
		snprintf(buf, size, "%x:%x", TC_H_MAJ(h) >> 16, TC_H_MIN(h));
	return buf;
}

/* u32 handles "HT:HASH:NODE" (hex each), or one number. */
static bool parse_handle(const char *w, bool is_u32, __u32 *h)
{
	unsigned long part[3] = { 0 };
	const char *p = w;
	int n = 0;

	if (!is_u32 || !strchr(w, ':'))
		return nb_ctl_parse_u32(w, h, 0);
	for (; n < 3; n++) {
		char *end;

		part[n] = *p && *p != ':' ? strtoul(p, &end, 16) : 0;
		if (*p && *p != ':')
			p = end;
		if (!*p) {
			n++;
			break;
		}
		if (*p != ':')
			return false;
		p++;
	}
	if (*p || part[0] > 0xfff || part[1] > 0xff || part[2] > 0xfff)
		return false;
	*h = (__u32)(part[0] << 20 | part[1] << 12 | part[2]);
	return true;
}

const char *nb_ctl_handle_name(const char *kind, __u32 h, char *buf, size_t size)
{
	unsigned int htid = h >> 20, hash = (h >> 12) & 0xff, node = h & 0xfff;
	char a[8] = "", b[8] = "", c[8] = "";

	if (strcmp(kind, "u32")) {
		snprintf(buf, size, "0x%x", h);
		return buf;
	}
	/* iproute2's u32 "fh": HT:HASH:NODE in hex, zero parts left empty (800::800) */
	if (htid)
		snprintf(a, sizeof(a), "%x", htid);
	if (hash)
		snprintf(b, sizeof(b), "%x", hash);
	if (node)
		snprintf(c, sizeof(c), "%x", node);
	snprintf(buf, size, "%s:%s:%s", a, b, c);
	return buf;
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

static int parse_kind_opts(struct nb_ctl *ctl, int argc, char **argv, int i,
			   struct filter_cmd *c)
{
	struct nb_tc_filter_opts *f = &c->f;
	bool is_bpf = !strcmp(f->kind, "bpf"), is_u32 = !strcmp(f->kind, "u32");
	struct nb_log log = { 0 };
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
		if (!strcmp(w, "classid") || !strcmp(w, "flowid")) {
			val = nb_ctl_next(ctl, argc, argv, &i);
			if (!val)
				return -EINVAL;
			if (!parse_classid(val, &classid))
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
			f->bpf.obj_file = nb_ctl_obj_path(ctl, val, c->path, sizeof(c->path));
			snprintf(c->name, sizeof(c->name), "%s", strrchr(val, '/') ?
				 strrchr(val, '/') + 1 : val);
		} else if (is_bpf && (!strcmp(w, "sec") || !strcmp(w, "section"))) {
			if (!(f->bpf.section = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
		} else if (is_bpf && !strcmp(w, "max-entries")) {
			err = nb_ctl_parse_map_size(ctl, argc, argv, &i, &c->sizes);
			if (err)
				return err;
			f->bpf.map_sizes = c->sizes.s;
			f->bpf.map_size_cnt = c->sizes.cnt;
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
		} else if (is_u32 && (!strcmp(w, "ht") || !strcmp(w, "link") ||
				      !strcmp(w, "hashkey") || !strcmp(w, "divisor") ||
				      !strcmp(w, "sample") || !strcmp(w, "offset") ||
				      !strcmp(w, "order"))) {
			return nb_ctl_wrong(ctl, w, "u32 hash tables and links are not built; one "
					    "selector per filter");
		} else {
			return nb_ctl_wrong(ctl, w, "unknown %s option", f->kind);
		}
		i++;
	}
	if (is_bpf) {
		if (!f->bpf.obj_file)
			return nb_ctl_usage(ctl, "bpf needs \"obj FILE\"");
		/* iproute2 names the filter "FILE:[SECTION]" */
		size_t n = strlen(c->name);

		snprintf(c->name + n, sizeof(c->name) - n, ":[%s]",
			 f->bpf.section ? f->bpf.section : "classifier");
		f->bpf.name = c->name;
	}
	f->actions = c->acts.a;
	f->action_cnt = c->acts.cnt;
	return 0;
}

struct show_ctx {
	struct nb_ctl *ctl;
	struct nb_json *j;
	__u32 last_chain, last_pref;
	bool any;
	const char *dev_name;	/* printed when showing every device */
};

/* u32 and matchall ask for hardware offload, so the kernel reports used_hw_stats for them. */
static unsigned int action_how(const struct nb_tc_filter_info *info)
{
	return !strcmp(info->kind, "u32") || !strcmp(info->kind, "matchall") ?
	       NB_CTL_ACT_HW_STATS : 0;
}

static void show_actions_text(struct nb_ctl *ctl, const struct nb_tc_filter_info *info)
{
	for (unsigned int a = 0; a < info->action_cnt; a++) {
		nb_ctl_print_action(ctl, NULL, &info->actions[a], a + 1, action_how(info));
		fprintf(ctl->out, "\n");
	}
}

static void stats_json(struct nb_json *j, const struct nb_tc_stats *s)
{
	nb_json_start_object(j, "stats");
	nb_json_uint(j, "bytes", s->bytes);
	nb_json_uint(j, "packets", s->packets);
	nb_json_uint(j, "drops", s->drops);
	nb_json_uint(j, "overlimits", s->overlimits);
	nb_json_uint(j, "requeues", 0);
	nb_json_end_object(j);
}

static void show_json(struct show_ctx *sc, const struct nb_tc_filter_info *info, bool head)
{
	struct nb_json *j = sc->j;
	char buf[32];

	nb_json_start_object(j, NULL);
	if (sc->dev_name)
		nb_json_string(j, "dev", sc->dev_name);
	nb_json_string(j, "parent", info->id.hook == NB_TC_INGRESS ? "ffff:fff2" : "ffff:fff3");
	nb_json_string(j, "protocol", proto_name(info->id.protocol, buf, sizeof(buf)));
	nb_json_uint(j, "pref", info->id.pref);
	nb_json_string(j, "kind", info->kind);
	nb_json_uint(j, "chain", info->id.chain);
	if (head) {
		nb_json_end_object(j);
		return;
	}
	nb_json_start_object(j, "options");
	if (!strcmp(info->kind, "u32"))
		nb_json_string(j, "fh", nb_ctl_handle_name("u32", info->id.handle, buf,
							    sizeof(buf)));
	else
		nb_json_printf(j, "handle", "0x%x", info->id.handle);
	if (info->classid)
		nb_json_string(j, "flowid", classid_name(info->classid, buf, sizeof(buf)));
	if (!strcmp(info->kind, "bpf")) {
		if (info->name)
			nb_json_string(j, "bpf_name", info->name);
		if (info->direct_action)
			nb_json_bool(j, "direct-action", true);
	}
	nb_json_bool(j, "not_in_hw", true);
	if (info->prog_id)
		nb_ctl_print_prog_info(sc->ctl, j, info->prog_id);
	if (sc->ctl->stats)
		stats_json(j, &info->stats);
	if (info->action_cnt) {
		nb_json_start_array(j, "actions");
		for (unsigned int a = 0; a < info->action_cnt; a++)
			nb_ctl_print_action(sc->ctl, j, &info->actions[a], a + 1, action_how(info));
		nb_json_end_array(j);
	}
	nb_json_end_object(j);
	nb_json_end_object(j);
}

static int show_one(const struct nb_tc_filter_info *info, void *arg)
{
	struct show_ctx *sc = arg;
	struct nb_ctl *ctl = sc->ctl;
	bool head = !sc->any || info->id.chain != sc->last_chain || info->id.pref != sc->last_pref;
	char pbuf[16], cbuf[32], lead[64] = "";

	sc->any = true;
	sc->last_chain = info->id.chain;
	sc->last_pref = info->id.pref;
	if (sc->j) {
		if (head)
			show_json(sc, info, true);
		show_json(sc, info, false);
		return 0;
	}
	if (sc->dev_name)
		snprintf(lead, sizeof(lead), "dev %s %s ", sc->dev_name,
			 info->id.hook == NB_TC_INGRESS ? "ingress" : "egress");
	if (head)
		fprintf(ctl->out, "filter %sprotocol %s pref %u %s chain %u \n", lead,
			proto_name(info->id.protocol, pbuf, sizeof(pbuf)), info->id.pref,
			info->kind, info->id.chain);
	fprintf(ctl->out, "filter %sprotocol %s pref %u %s chain %u ", lead,
		proto_name(info->id.protocol, pbuf, sizeof(pbuf)), info->id.pref, info->kind,
		info->id.chain);
	if (!strcmp(info->kind, "u32"))
		fprintf(ctl->out, "fh %s ", nb_ctl_handle_name("u32", info->id.handle, cbuf,
							      sizeof(cbuf)));
	else
		fprintf(ctl->out, "handle 0x%x ", info->id.handle);
	if (info->classid)
		fprintf(ctl->out, "flowid %s ", classid_name(info->classid, cbuf, sizeof(cbuf)));
	if (!strcmp(info->kind, "bpf")) {
		if (info->name)
			fprintf(ctl->out, "%s ", info->name);
		if (info->direct_action)
			fprintf(ctl->out, "direct-action ");
	}
	fprintf(ctl->out, "not_in_hw ");
	if (info->prog_id)
		nb_ctl_print_prog_info(ctl, NULL, info->prog_id);
	fprintf(ctl->out, "\n");
	if (ctl->stats)
		fprintf(ctl->out, " (rule hit %llu success %llu dropped %llu)\n",
			(unsigned long long)info->stats.packets,
			(unsigned long long)info->stats.packets,
			(unsigned long long)info->stats.drops);
	show_actions_text(ctl, info);
	return 0;
}

static int filter_show(struct nb_ctl *ctl, struct nb_dev *dev, bool has_hook,
		       enum nb_tc_hook hook)
{
	struct show_ctx sc = { .ctl = ctl };
	struct nb_log log = { 0 };
	int err = 0;

	if (ctl->json) {
		sc.j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(sc.j, NULL);
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
	if (sc.j) {
		nb_json_end_array(sc.j);
		nb_json_free(sc.j);
	}
	return log_err(ctl, err, &log);
}

int nb_ctl_tc_filter(struct nb_ctl *ctl, int argc, char **argv)
{
	struct filter_cmd *c;
	struct nb_dev *dev = NULL;
	const char *devname = NULL;
	enum verb verb;
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
			else if (!parse_classid(val, &h))
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
		} else if (!strcmp(w, "bpf") || !strcmp(w, "u32") || !strcmp(w, "matchall")) {
			c->f.kind = w;
		} else if (verb == F_SHOW && !devname) {
			devname = w;
		} else if (!strcmp(w, "basic") || !strcmp(w, "flower") || !strcmp(w, "fw") ||
			   !strcmp(w, "route") || !strcmp(w, "cgroup") || !strcmp(w, "flow")) {
			err = nb_ctl_wrong(ctl, w, "classifier not built (bpf, u32 and matchall are)");
		} else {
			err = nb_ctl_wrong(ctl, w, "unknown classifier");
		}
	}
	if (!err && c->handle &&
	    !parse_handle(c->handle, c->f.kind && !strcmp(c->f.kind, "u32"), &c->f.handle))
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
			err = nb_ctl_usage(ctl, "tc filter needs a classifier: bpf, u32 or matchall");
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

		c->f.log = &log;
		err = verb == F_ADD ? nb_tc_filter_add(dev, &c->f, NULL) :
		      verb == F_REPLACE ? nb_tc_filter_replace(dev, &c->f, NULL) :
					  nb_tc_filter_change(dev, &c->f, NULL);
		err = log_err(ctl, err, &log);
	}
out:
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
