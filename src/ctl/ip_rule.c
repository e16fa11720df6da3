// SPDX-License-Identifier: GPL-2.0
/*
 * The ip rule words, as iproute2's ip/iprule.c parses and prints them:
 *
 *   ip [-4|-6] rule { add | del } [not] [from PREFIX] [to PREFIX] [fwmark M[/MASK]] [iif DEV]
 *          [oif DEV] [priority N] { lookup|table T | blackhole | unreachable | prohibit }
 *   ip [-4|-6] rule show
 *
 * "PRIO:<tab>from all fwmark 0x5 lookup 100", one line per rule, IPv4's by default.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>

#include <netbpf/route.h>

#include "ctl/args.h"
#include "ctl/ip_common.h"
#include "ctl/json.h"

static bool parse_mark(const char *word, struct nb_fib_rule *r)
{
	char buf[32], *slash;

	if (strlen(word) >= sizeof(buf))
		return false;
	strcpy(buf, word);
	slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	if (!nb_ctl_parse_u32(buf, &r->mark, 0))
		return false;
	if (slash && !nb_ctl_parse_u32(slash + 1, &r->mark_mask, 0))
		return false;
	r->has_mark = true;
	return true;
}

static int parse_rule(struct nb_ctl *ctl, int argc, char **argv, struct nb_fib_rule *r)
{
	int family = ctl->family;

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val;
		unsigned char len;
		int type;

		if (!strcmp(w, "not")) {
			r->invert = true;
		} else if (!strcmp(w, "from") || !strcmp(w, "to")) {
			union nb_inet_addr *a = w[0] == 'f' ? &r->src : &r->dst;

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_parse_prefix(ctl, val, &family, a, &len))
				return -EINVAL;
			if (w[0] == 'f')
				r->src_len = len;
			else
				r->dst_len = len;
		} else if (!strcmp(w, "fwmark")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!parse_mark(val, r))
				return nb_ctl_wrong(ctl, val, "fwmark value is invalid");
		} else if (!strcmp(w, "iif") || !strcmp(w, "dev") || !strcmp(w, "oif")) {
			char *name = w[0] == 'o' ? r->oif : r->iif;

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (strlen(val) >= sizeof(r->iif))
				return nb_ctl_wrong(ctl, val, "device name is too long");
			strcpy(name, val);
		} else if (nb_matches(w, "priority") || nb_matches(w, "preference") ||
			   nb_matches(w, "order")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ctl_parse_u32(val, &r->priority, 0))
				return nb_ctl_wrong(ctl, val, "preference value is invalid");
			r->has_priority = true;
		} else if (!strcmp(w, "lookup") || nb_matches(w, "table")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_table_parse(val, &r->table))
				return nb_ctl_wrong(ctl, val, "invalid table ID");
			r->action = FR_ACT_TO_TBL;
		} else if ((type = nb_ip_rtntype_parse(w)) == RTN_BLACKHOLE ||
			   type == RTN_UNREACHABLE || type == RTN_PROHIBIT) {
			r->action = type == RTN_BLACKHOLE     ? FR_ACT_BLACKHOLE
				    : type == RTN_UNREACHABLE ? FR_ACT_UNREACHABLE
							      : FR_ACT_PROHIBIT;
		} else {
			return nb_ctl_wrong(ctl, w, "not a rule word netbpf knows");
		}
	}
	r->family = family == AF_UNSPEC ? AF_INET : (__u8)family;
	return 0;
}

static int rule_modify(struct nb_ctl *ctl, int argc, char **argv, bool add)
{
	struct nb_log log = { 0 };
	struct nb_fib_rule r;
	int err = parse_rule(ctl, argc, argv, &r);

	if (err)
		return err;
	if (add && !r.action)
		r.action = FR_ACT_TO_TBL;	/* iproute2 adds "lookup main" */
	if (add && r.action == FR_ACT_TO_TBL && !r.table)
		r.table = RT_TABLE_MAIN;
	err = add ? nb_rule_add(&r, &log) : nb_rule_del(&r, &log);
	if (err)
		nb_ctl_fail(ctl, err, "RTNETLINK answers: %.*s",
			    (int)strcspn(nb_log_text(&log), "\n"), nb_log_text(&log));
	nb_log_free(&log);
	return err;
}

struct show_arg {
	struct nb_ctl *ctl;
	struct nb_json *j;
};

static const char *action_name(unsigned int action)
{
	switch (action) {
	case FR_ACT_BLACKHOLE:
		return "blackhole";
	case FR_ACT_UNREACHABLE:
		return "unreachable";
	case FR_ACT_PROHIBIT:
		return "prohibit";
	default:
		return "unknown";
	}
}

static void prefix_text(char *buf, size_t size, const struct nb_fib_rule *r,
			const union nb_inet_addr *a, unsigned char len)
{
	char addr[64];

	nb_inet_ntop(r->family, a, addr, sizeof(addr));
	if (len == (r->family == AF_INET6 ? 128 : 32))
		snprintf(buf, size, "%s", addr);
	else
		snprintf(buf, size, "%s/%u", addr, len);
}

static int show_one(const struct nb_fib_rule *r, void *arg)
{
	struct show_arg *a = arg;
	FILE *out = a->ctl->out;
	char from[80] = "all", to[80] = "", tbl[16], addr[64];

	if (r->src_len)
		prefix_text(from, sizeof(from), r, &r->src, r->src_len);
	if (r->dst_len)
		prefix_text(to, sizeof(to), r, &r->dst, r->dst_len);
	if (a->j) {
		nb_json_start_object(a->j, NULL);
		nb_json_uint(a->j, "priority", r->priority);
		if (r->invert)
			nb_json_bool(a->j, "not", true);
		/* JSON has the address and its length apart */
		nb_json_string(a->j, "src", r->src_len ? nb_inet_ntop(r->family, &r->src, addr,
								      sizeof(addr)) : "all");
		if (r->src_len)
			nb_json_uint(a->j, "srclen", r->src_len);
		if (r->dst_len) {
			nb_json_string(a->j, "dst", nb_inet_ntop(r->family, &r->dst, addr,
								 sizeof(addr)));
			nb_json_uint(a->j, "dstlen", r->dst_len);
		}
		if (r->has_mark) {
			nb_json_printf(a->j, "fwmark", "%#x", r->mark);
			if (r->mark_mask != 0xffffffff)
				nb_json_printf(a->j, "fwmask", "%#x", r->mark_mask);
		}
		if (r->iif[0])
			nb_json_string(a->j, "iif", r->iif);
		if (r->oif[0])
			nb_json_string(a->j, "oif", r->oif);
		if (r->action == FR_ACT_TO_TBL)
			nb_json_string(a->j, "table", nb_ip_table_name(r->table, tbl));
		else
			nb_json_string(a->j, "action", action_name(r->action));
		nb_json_end_object(a->j);
		return 0;
	}
	fprintf(out, "%u:\t%sfrom %s", r->priority, r->invert ? "not " : "", from);
	if (r->dst_len)
		fprintf(out, " to %s", to);
	if (r->has_mark) {
		fprintf(out, " fwmark %#x", r->mark);
		if (r->mark_mask != 0xffffffff)
			fprintf(out, "/%#x", r->mark_mask);
	}
	if (r->iif[0])
		fprintf(out, " iif %s", r->iif);
	if (r->oif[0])
		fprintf(out, " oif %s", r->oif);
	if (r->action == FR_ACT_TO_TBL)
		fprintf(out, " lookup %s", nb_ip_table_name(r->table, tbl));
	else
		fprintf(out, " %s", action_name(r->action));
	fputc('\n', out);
	return 0;
}

static int rule_show(struct nb_ctl *ctl, int argc, char **argv)
{
	struct show_arg a = { .ctl = ctl };

	if (argc)
		return nb_ctl_wrong(ctl, argv[0], "ip rule show takes no selectors in netbpf");
	if (ctl->json) {
		a.j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(a.j, NULL);
	}
	nb_rule_dump(ctl->family == AF_INET6 ? AF_INET6 : AF_INET, show_one, &a);
	if (a.j) {
		nb_json_end_array(a.j);
		nb_json_free(a.j);
	}
	return 0;
}

int nb_ctl_ip_rule(struct nb_ctl *ctl, int argc, char **argv)
{
	if (argc < 1 || nb_matches(argv[0], "show") || nb_matches(argv[0], "list") ||
	    !strcmp(argv[0], "lst"))
		return rule_show(ctl, argc ? argc - 1 : 0, argv + 1);
	if (nb_matches(argv[0], "add"))
		return rule_modify(ctl, argc - 1, argv + 1, true);
	if (nb_matches(argv[0], "delete"))
		return rule_modify(ctl, argc - 1, argv + 1, false);
	return nb_ctl_wrong(ctl, argv[0], "Command \"%s\" is unknown, try \"ip rule help\"",
			    argv[0]);
}
