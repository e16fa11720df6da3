// SPDX-License-Identifier: GPL-2.0
/*
 * The ip route words, as iproute2's ip/iproute.c parses and prints them:
 *
 *   ip [-4|-6] route { add | replace | change | del } [TYPE] PREFIX [table T] [proto P]
 *          [scope S] [metric N] [via ADDR] [dev DEV] [src ADDR] [mtu [lock] N] [onlink]
 *          [pref medium]
 *     TYPE := unicast | local | broadcast | blackhole | unreachable | prohibit | throw
 *   ip [-4|-6] route { show | list | flush } [table T|all] [type TYPE] [dev DEV] [proto P]
 *          [scope S] [via ADDR] [[root|match|exact] PREFIX]
 *   ip [-4|-6] route get ADDR [from ADDR] [iif DEV] [oif DEV] [mark N]
 *
 * Show prints what ip route show prints for the same routes (IPv4 lines end with a space, as
 * iproute2's do); without a table it shows main, and then IPv4 only unless -6 asks otherwise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/rtnetlink.h>

#include <netbpf/dev.h>
#include <netbpf/route.h>

#include "bpf/epoch.h"
#include "ctl/args.h"
#include "ctl/ip_common.h"
#include "ctl/json.h"
#include "net/fib.h"

/* What show, flush and del select routes by (iproute2's struct filter). */
struct route_filter {
	int family;
	unsigned int table;	/* 0: all */
	int type;		/* -1: any */
	unsigned int oif, proto, scope;
	bool has_proto, has_scope;
	int gw_family;
	union nb_inet_addr gw;
	int rdst_family, mdst_family;
	union nb_inet_addr rdst, mdst;
	unsigned char rdst_len, mdst_len;
};

/* ip route add/del/replace/change: a route from the words. */
static int parse_route(struct nb_ctl *ctl, int argc, char **argv, bool del, struct nb_route *rt)
{
	bool have_dst = false;
	int family = ctl->family;

	memset(rt, 0, sizeof(*rt));
	rt->scope = del ? RT_SCOPE_NOWHERE : NB_ROUTE_SCOPE_AUTO;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val;
		unsigned int v;
		int type;

		if (!strcmp(w, "table")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_table_parse(val, &rt->table) || !rt->table)
				return nb_ctl_wrong(ctl, val, "\"table\" value is invalid");
		} else if (!strcmp(w, "proto") || !strcmp(w, "protocol")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_proto_parse(val, &v))
				return nb_ctl_wrong(ctl, val, "\"protocol\" value is invalid");
			rt->protocol = (__u8)v;
		} else if (!strcmp(w, "scope")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_scope_parse(val, &v))
				return nb_ctl_wrong(ctl, val, "invalid \"scope\" value");
			rt->scope = (__u8)v;
		} else if (nb_matches(w, "metric") || nb_matches(w, "priority") ||
			   !strcmp(w, "preference")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ctl_parse_u32(val, &rt->metric, 0))
				return nb_ctl_wrong(ctl, val, "\"metric\" value is invalid");
		} else if (!strcmp(w, "via")) {
			int gwf = family;

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!strcmp(val, "inet") || !strcmp(val, "inet6")) {
				gwf = val[4] ? AF_INET6 : AF_INET;
				if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
					return -EINVAL;
			}
			if (!nb_ip_parse_addr(ctl, val, &gwf, &rt->gw))
				return -EINVAL;
			rt->gw_family = (__u8)gwf;
			if (family == AF_UNSPEC)
				family = gwf;
		} else if (!strcmp(w, "dev") || !strcmp(w, "oif")) {
			struct nb_dev *dev;

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			dev = nb_ip_dev(ctl, val);
			if (!dev)
				return -ENODEV;
			rt->oif = nb_dev_ifindex(dev);
			nb_dev_put(dev);
		} else if (!strcmp(w, "src")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_parse_addr(ctl, val, &family, &rt->prefsrc))
				return -EINVAL;
			rt->has_prefsrc = true;
		} else if (!strcmp(w, "mtu")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!strcmp(val, "lock")) {
				rt->mtu_lock = true;
				if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
					return -EINVAL;
			}
			if (!nb_ctl_parse_u32(val, &rt->mtu, 0) || !rt->mtu)
				return nb_ctl_wrong(ctl, val, "\"mtu\" value is invalid");
		} else if (!strcmp(w, "onlink")) {
			rt->onlink = true;
		} else if (!strcmp(w, "pref")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (strcmp(val, "medium"))
				return nb_ctl_wrong(ctl, val, "router preferences other than medium "
					       "are not supported by netbpf");
		} else if (!strcmp(w, "tos") || !strcmp(w, "dsfield") || !strcmp(w, "nexthop") ||
			   !strcmp(w, "encap") || !strcmp(w, "from") || !strcmp(w, "nhid") ||
			   !strcmp(w, "realm") || !strcmp(w, "realms")) {
			return nb_ctl_wrong(ctl, w, "not supported by netbpf (routes match by "
					    "destination, one nexthop each)");
		} else if ((type = nb_ip_rtntype_parse(w)) >= 0 && !have_dst) {
			rt->type = (__u8)type;
		} else if (!have_dst) {
			unsigned char len;

			if (!strcmp(w, "to"))
				if (!(w = nb_ctl_next(ctl, argc, argv, &i)))
					return -EINVAL;
			if (!nb_ip_parse_prefix(ctl, w, &family, &rt->dst, &len))
				return -EINVAL;
			rt->dst_len = len;
			have_dst = true;
		} else {
			return nb_ctl_wrong(ctl, w, "unknown route option");
		}
	}
	if (!have_dst)
		return nb_ctl_usage(ctl, "a route needs a destination prefix");
	if (family == AF_UNSPEC)
		family = AF_INET;
	if (rt->gw_family && rt->gw_family != family)
		return nb_ctl_wrong(ctl, argv[0], "the gateway is not of the route's family");
	rt->family = (__u8)family;
	if (!rt->table)
		rt->table = RT_TABLE_MAIN;
	return 0;
}

static int route_modify(struct nb_ctl *ctl, int argc, char **argv, unsigned int flags)
{
	struct nb_log log = { 0 };
	struct nb_route rt;
	int err = parse_route(ctl, argc, argv, false, &rt);

	if (err)
		return err;
	err = nb_route_add(&rt, flags, &log);
	if (err)
		nb_ctl_fail(ctl, err, "%.*s", (int)strcspn(nb_log_text(&log), "\n"),
			    nb_log_text(&log));
	nb_log_free(&log);
	return err;
}

static int route_del(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_log log = { 0 };
	struct nb_route rt;
	int err = parse_route(ctl, argc, argv, true, &rt);

	if (err)
		return err;
	err = nb_route_del(&rt, &log);
	if (err)
		nb_ctl_fail(ctl, err, "RTNETLINK answers: %.*s",
			    (int)strcspn(nb_log_text(&log), "\n"), nb_log_text(&log));
	nb_log_free(&log);
	return err;
}

static bool route_selected(const struct route_filter *f, const struct nb_route *rt)
{
	if (f->family != AF_UNSPEC && rt->family != f->family)
		return false;
	if (f->table && rt->table != f->table)
		return false;
	if (f->type >= 0 && rt->type != f->type)
		return false;
	if (f->oif && rt->oif != f->oif)
		return false;
	if (f->has_proto && rt->protocol != f->proto)
		return false;
	if (f->has_scope && rt->scope != f->scope)
		return false;
	if (f->gw_family && (rt->gw_family != f->gw_family || memcmp(&rt->gw, &f->gw, 16)))
		return false;
	if (f->rdst_family && (rt->family != f->rdst_family || rt->dst_len < f->rdst_len ||
			       !nb_inet_prefix_match(rt->family, &f->rdst, f->rdst_len, &rt->dst)))
		return false;
	if (f->mdst_family && (rt->family != f->mdst_family || rt->dst_len > f->mdst_len ||
			       !nb_inet_prefix_match(rt->family, &rt->dst, rt->dst_len, &f->mdst)))
		return false;
	return true;
}

static int parse_filter(struct nb_ctl *ctl, int argc, char **argv, struct route_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->family = ctl->family;
	f->table = RT_TABLE_MAIN;
	f->type = -1;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val;
		int family;

		if (!strcmp(w, "table")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!strcmp(val, "all") || !strcmp(val, "cache"))
				f->table = 0;
			else if (!nb_ip_table_parse(val, &f->table))
				return nb_ctl_wrong(ctl, val, "table id value is invalid");
		} else if (!strcmp(w, "type")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if ((f->type = nb_ip_rtntype_parse(val)) < 0)
				return nb_ctl_wrong(ctl, val, "invalid \"type\" value");
		} else if (!strcmp(w, "dev") || !strcmp(w, "oif")) {
			struct nb_dev *dev;

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!(dev = nb_ip_dev(ctl, val)))
				return -ENODEV;
			f->oif = nb_dev_ifindex(dev);
			nb_dev_put(dev);
		} else if (!strcmp(w, "proto") || !strcmp(w, "protocol")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_proto_parse(val, &f->proto))
				return nb_ctl_wrong(ctl, val, "invalid \"protocol\"");
			f->has_proto = true;
		} else if (!strcmp(w, "scope")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_scope_parse(val, &f->scope))
				return nb_ctl_wrong(ctl, val, "invalid \"scope\" value");
			f->has_scope = true;
		} else if (!strcmp(w, "via")) {
			family = f->family;
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_parse_addr(ctl, val, &family, &f->gw))
				return -EINVAL;
			f->gw_family = family;
		} else {
			bool root = !strcmp(w, "root"), match = !strcmp(w, "match");
			unsigned char len;
			union nb_inet_addr a;

			if (root || match || !strcmp(w, "exact"))
				if (!(w = nb_ctl_next(ctl, argc, argv, &i)))
					return -EINVAL;
			family = f->family;
			if (!nb_ip_parse_prefix(ctl, w, &family, &a, &len))
				return -EINVAL;
			if (family == AF_UNSPEC)
				family = AF_INET;
			if (!match) {
				f->rdst = a;
				f->rdst_len = len;
				f->rdst_family = family;
			}
			if (!root) {
				f->mdst = a;
				f->mdst_len = len;
				f->mdst_family = family;
			}
		}
	}
	/* iproute2: a table filter without a family shows IPv4 */
	if (f->family == AF_UNSPEC && f->table)
		f->family = AF_INET;
	return 0;
}

struct show_arg {
	struct nb_ctl *ctl;
	const struct route_filter *f;
	struct nb_json *j;
};

static void print_route_text(struct nb_ctl *ctl, const struct route_filter *f,
			     const struct nb_route *rt)
{
	FILE *out = ctl->out;
	char buf[64], name[IFNAMSIZ];

	if (rt->type != RTN_UNICAST)
		fprintf(out, "%s ", nb_ip_rtntype_name(rt->type, buf));
	if (rt->dst_len == nb_inet_addr_bits(rt->family))
		fprintf(out, "%s ", nb_inet_ntop(rt->family, &rt->dst, buf, sizeof(buf)));
	else if (rt->dst_len)
		fprintf(out, "%s/%u ", nb_inet_ntop(rt->family, &rt->dst, buf, sizeof(buf)),
			rt->dst_len);
	else
		fprintf(out, "default ");
	/* what the filter fixes is not printed, as iproute2 does */
	if (rt->gw_family && !f->gw_family)
		fprintf(out, "via %s ", nb_inet_ntop(rt->gw_family, &rt->gw, buf, sizeof(buf)));
	if (rt->oif && !f->oif)
		fprintf(out, "dev %s ", nb_fib_dev_name(rt->oif, name));
	if (rt->table != RT_TABLE_MAIN && !f->table)
		fprintf(out, "table %s ", nb_ip_table_name(rt->table, buf));
	if (rt->protocol != RTPROT_BOOT && !f->has_proto)
		fprintf(out, "proto %s ", nb_ip_proto_name(rt->protocol, buf));
	if (rt->scope != RT_SCOPE_UNIVERSE && !f->has_scope)
		fprintf(out, "scope %s ", nb_ip_scope_name(rt->scope, buf));
	if (rt->has_prefsrc)
		fprintf(out, "src %s ", nb_inet_ntop(rt->family, &rt->prefsrc, buf, sizeof(buf)));
	if (rt->metric || rt->family == AF_INET6)
		fprintf(out, "metric %u ", rt->metric);
	if (rt->onlink)
		fprintf(out, "onlink ");
	if (rt->mtu)
		fprintf(out, "mtu %s%u ", rt->mtu_lock ? "lock " : "", rt->mtu);
	if (rt->family == AF_INET6)
		fprintf(out, "pref medium");
	fputc('\n', out);
}

static void print_route_json(struct nb_json *j, const struct route_filter *f,
			     const struct nb_route *rt)
{
	char buf[64], name[IFNAMSIZ];

	nb_json_start_object(j, NULL);
	if (rt->type != RTN_UNICAST)
		nb_json_string(j, "type", nb_ip_rtntype_name(rt->type, buf));
	if (rt->dst_len == nb_inet_addr_bits(rt->family))
		nb_json_string(j, "dst", nb_inet_ntop(rt->family, &rt->dst, buf, sizeof(buf)));
	else if (rt->dst_len)
		nb_json_printf(j, "dst", "%s/%u",
			       nb_inet_ntop(rt->family, &rt->dst, buf, sizeof(buf)), rt->dst_len);
	else
		nb_json_string(j, "dst", "default");
	if (rt->gw_family && !f->gw_family)
		nb_json_string(j, "gateway", nb_inet_ntop(rt->gw_family, &rt->gw, buf, sizeof(buf)));
	if (rt->oif && !f->oif)
		nb_json_string(j, "dev", nb_fib_dev_name(rt->oif, name));
	if (rt->table != RT_TABLE_MAIN && !f->table)
		nb_json_string(j, "table", nb_ip_table_name(rt->table, buf));
	if (rt->protocol != RTPROT_BOOT && !f->has_proto)
		nb_json_string(j, "protocol", nb_ip_proto_name(rt->protocol, buf));
	if (rt->scope != RT_SCOPE_UNIVERSE && !f->has_scope)
		nb_json_string(j, "scope", nb_ip_scope_name(rt->scope, buf));
	if (rt->has_prefsrc)
		nb_json_string(j, "prefsrc", nb_inet_ntop(rt->family, &rt->prefsrc, buf,
							  sizeof(buf)));
	if (rt->metric || rt->family == AF_INET6)
		nb_json_uint(j, "metric", rt->metric);
	nb_json_start_array(j, "flags");
	if (rt->onlink)
		nb_json_string(j, NULL, "onlink");
	nb_json_end_array(j);
	if (rt->mtu) {
		nb_json_start_array(j, "metrics");
		nb_json_start_object(j, NULL);
		nb_json_uint(j, "mtu", rt->mtu);
		nb_json_end_object(j);
		nb_json_end_array(j);
	}
	if (rt->family == AF_INET6)
		nb_json_string(j, "pref", "medium");
	nb_json_end_object(j);
}

static int show_one(const struct nb_route *rt, void *arg)
{
	struct show_arg *a = arg;

	if (!route_selected(a->f, rt))
		return 0;
	if (a->j)
		print_route_json(a->j, a->f, rt);
	else
		print_route_text(a->ctl, a->f, rt);
	return 0;
}

static int route_show(struct nb_ctl *ctl, int argc, char **argv)
{
	struct route_filter f;
	struct show_arg a = { .ctl = ctl, .f = &f };
	int err = parse_filter(ctl, argc, argv, &f);

	if (err)
		return err;
	if (ctl->json) {
		a.j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(a.j, NULL);
	}
	nb_route_dump(f.family, show_one, &a);
	if (a.j) {
		nb_json_end_array(a.j);
		nb_json_free(a.j);
	}
	return 0;
}

struct collect_arg {
	const struct route_filter *f;
	struct nb_route *routes;
	unsigned int cnt, max;
};

static int collect_one(const struct nb_route *rt, void *arg)
{
	struct collect_arg *a = arg;

	if (!route_selected(a->f, rt))
		return 0;
	if (a->cnt == a->max) {
		unsigned int max = a->max ? a->max * 2 : 64;
		struct nb_route *r = realloc(a->routes, max * sizeof(*r));

		if (!r)
			return -ENOMEM;
		a->routes = r;
		a->max = max;
	}
	a->routes[a->cnt++] = *rt;
	return 0;
}

/* ip route flush: delete every route the filter selects, as iproute2 does, one by one. */
static int route_flush(struct nb_ctl *ctl, int argc, char **argv)
{
	struct route_filter f;
	struct collect_arg a = { .f = &f };
	int err = parse_filter(ctl, argc, argv, &f);

	if (err)
		return err;
	err = nb_route_dump(f.family, collect_one, &a);
	for (unsigned int i = 0; !err && i < a.cnt; i++) {
		a.routes[i].scope = RT_SCOPE_NOWHERE;
		nb_route_del(&a.routes[i], NULL);
	}
	free(a.routes);
	if (err)
		return nb_ctl_fail(ctl, err, "flush: %s", strerror(-err));
	return 0;
}

/* ip route get: the route a packet to ADDR takes, printed as the route's first line. */
static int route_get(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_flowi fl = { .iif = 1 };
	struct nb_fib_result res;
	union nb_inet_addr src;
	char buf[64], name[IFNAMSIZ];
	int family = ctl->family, err;
	bool have_dst = false;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val;
		struct nb_dev *dev;

		if (!strcmp(w, "from")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_parse_addr(ctl, val, &family, &fl.saddr))
				return -EINVAL;
		} else if (!strcmp(w, "iif") || !strcmp(w, "oif")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!(dev = nb_ip_dev(ctl, val)))
				return -ENODEV;
			if (w[0] == 'i')
				fl.iif = nb_dev_ifindex(dev);
			else
				fl.oif = nb_dev_ifindex(dev);
			nb_dev_put(dev);
		} else if (!strcmp(w, "mark")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ctl_parse_u32(val, &fl.mark, 0))
				return nb_ctl_wrong(ctl, val, "invalid mark value");
		} else if (!have_dst) {
			if (!strcmp(w, "to"))
				if (!(w = nb_ctl_next(ctl, argc, argv, &i)))
					return -EINVAL;
			if (!nb_ip_parse_addr(ctl, w, &family, &fl.daddr))
				return -EINVAL;
			have_dst = true;
		} else {
			return nb_ctl_wrong(ctl, w, "unknown route get option");
		}
	}
	if (!have_dst)
		return nb_ctl_usage(ctl, "ip route get needs an address");
	fl.family = family == AF_UNSPEC ? AF_INET : (__u8)family;
	nb_epoch_read_lock();
	err = nb_fib_lookup(&fl, &res);
	if (!err && res.rt->type != RTN_UNICAST && res.rt->type != RTN_LOCAL)
		err = res.rt->type == RTN_BLACKHOLE ? -EINVAL
		      : res.rt->type == RTN_PROHIBIT ? -EACCES : -EHOSTUNREACH;
	if (!err && ctl->json) {
		const struct nb_route *rt = res.rt;
		struct nb_json *j = nb_json_new(ctl->out, ctl->pretty);

		/* ip -j route get: an array of the one route, in ip's names */
		nb_json_start_array(j, NULL);
		nb_json_start_object(j, NULL);
		if (rt->type == RTN_LOCAL)
			nb_json_string(j, "type", "local");
		nb_json_string(j, "dst", nb_inet_ntop(fl.family, &fl.daddr, buf, sizeof(buf)));
		if (rt->gw_family)
			nb_json_string(j, "gateway", nb_inet_ntop(rt->gw_family, &rt->gw, buf,
								  sizeof(buf)));
		nb_json_string(j, "dev", nb_fib_dev_name(rt->oif, name));
		if (rt->table != RT_TABLE_MAIN)
			nb_json_string(j, "table", nb_ip_table_name(rt->table, buf));
		if (nb_fib_prefsrc(rt, &fl.daddr, &src))
			nb_json_string(j, "prefsrc", nb_inet_ntop(fl.family, &src, buf,
								  sizeof(buf)));
		if (rt->family == AF_INET6)
			nb_json_uint(j, "metric", rt->metric);
		nb_json_start_array(j, "flags");
		nb_json_end_array(j);
		if (rt->family == AF_INET6)
			nb_json_string(j, "pref", "medium");
		nb_json_end_object(j);
		nb_json_end_array(j);
		nb_json_free(j);
	} else if (!err) {
		const struct nb_route *rt = res.rt;

		if (rt->type == RTN_LOCAL)
			fprintf(ctl->out, "local ");
		fprintf(ctl->out, "%s ", nb_inet_ntop(fl.family, &fl.daddr, buf, sizeof(buf)));
		if (rt->gw_family)
			fprintf(ctl->out, "via %s ", nb_inet_ntop(rt->gw_family, &rt->gw, buf,
								  sizeof(buf)));
		fprintf(ctl->out, "dev %s ", nb_fib_dev_name(rt->oif, name));
		if (rt->table != RT_TABLE_MAIN)
			fprintf(ctl->out, "table %s ", nb_ip_table_name(rt->table, buf));
		if (nb_fib_prefsrc(rt, &fl.daddr, &src))
			fprintf(ctl->out, "src %s ", nb_inet_ntop(fl.family, &src, buf,
								  sizeof(buf)));
		if (rt->family == AF_INET6)
			fprintf(ctl->out, "metric %u pref medium", rt->metric);
		fputc('\n', ctl->out);
	}
	nb_epoch_read_unlock();
	if (err)
		return nb_ctl_fail(ctl, err, "RTNETLINK answers: %s",
				   err == -EINVAL ? "Invalid argument" : strerror(-err));
	return 0;
}

int nb_ctl_ip_route(struct nb_ctl *ctl, int argc, char **argv)
{
	if (argc < 1 || nb_matches(argv[0], "show") || nb_matches(argv[0], "list") ||
	    !strcmp(argv[0], "lst"))
		return route_show(ctl, argc ? argc - 1 : 0, argv + 1);
	if (!strcmp(argv[0], "add"))
		return route_modify(ctl, argc - 1, argv + 1, 0);
	if (nb_matches(argv[0], "replace"))
		return route_modify(ctl, argc - 1, argv + 1, NB_ROUTE_REPLACE);
	if (nb_matches(argv[0], "change"))
		return route_modify(ctl, argc - 1, argv + 1, NB_ROUTE_REPLACE);
	if (nb_matches(argv[0], "delete"))
		return route_del(ctl, argc - 1, argv + 1);
	if (nb_matches(argv[0], "flush"))
		return route_flush(ctl, argc - 1, argv + 1);
	if (nb_matches(argv[0], "get"))
		return route_get(ctl, argc - 1, argv + 1);
	if (nb_matches(argv[0], "append") || nb_matches(argv[0], "prepend"))
		return nb_ctl_wrong(ctl, argv[0], "not supported by netbpf (one route per "
				    "destination, table and metric)");
	return nb_ctl_wrong(ctl, argv[0], "Command \"%s\" is unknown, try \"ip route help\"",
			    argv[0]);
}
