// SPDX-License-Identifier: GPL-2.0
/*
 * The ip addr words, as iproute2's ip/ipaddress.c parses and prints them:
 *
 *   ip [-4|-6] addr { add | del } PREFIX dev DEV [broadcast ADDR|+|-] [scope S] [label L]
 *          [nodad] [noprefixroute]
 *   ip [-4|-6] addr show [[dev] DEV]
 *   ip [-4|-6] addr flush [dev] DEV
 *
 * Show prints each device as ip link show does, then one "inet"/"inet6" line per address and
 * its lifetimes (netbpf's addresses never expire: "forever").
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include <netbpf/dev.h>
#include <netbpf/inet.h>

#include "common/types.h"
#include "ctl/args.h"
#include "ctl/ip_common.h"
#include "ctl/json.h"

#define MAX_ADDRS 256

static int addr_modify(struct nb_ctl *ctl, int argc, char **argv, bool add)
{
	struct nb_ifaddr ifa = { 0 };
	struct nb_dev *dev = NULL;
	struct nb_log log = { 0 };
	bool have_local = false, brd_plus = false, scoped = false;
	int family = ctl->family, err;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val;
		unsigned int v;

		if (!strcmp(w, "dev")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (dev)
				nb_dev_put(dev);
			if (!(dev = nb_ip_dev(ctl, val)))
				return -ENODEV;
		} else if (!strcmp(w, "broadcast") || !strcmp(w, "brd")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i))) {
				err = -EINVAL;
				goto out;
			}
			if (!strcmp(val, "+")) {
				brd_plus = true;
			} else if (strcmp(val, "-")) {
				int f = AF_INET;

				if (!nb_ip_parse_addr(ctl, val, &f, &ifa.broadcast)) {
					err = -EINVAL;
					goto out;
				}
			}
		} else if (!strcmp(w, "scope")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i))) {
				err = -EINVAL;
				goto out;
			}
			if (!nb_ip_scope_parse(val, &v)) {
				err = nb_ctl_wrong(ctl, val, "invalid scope value");
				goto out;
			}
			ifa.scope = (__u8)v;
			scoped = true;
		} else if (!strcmp(w, "label")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i))) {
				err = -EINVAL;
				goto out;
			}
			if (strlen(val) >= sizeof(ifa.label)) {
				err = nb_ctl_wrong(ctl, val, "the label is too long");
				goto out;
			}
			strcpy(ifa.label, val);
		} else if (!strcmp(w, "nodad")) {
			ifa.flags |= IFA_F_NODAD;
		} else if (!strcmp(w, "noprefixroute")) {
			ifa.flags |= IFA_F_NOPREFIXROUTE;
		} else if (!strcmp(w, "peer") || !strcmp(w, "remote") || !strcmp(w, "anycast") ||
			   !strcmp(w, "valid_lft") || !strcmp(w, "preferred_lft") ||
			   !strcmp(w, "metric") || !strcmp(w, "home") || !strcmp(w, "mngtmpaddr")) {
			err = nb_ctl_wrong(ctl, w, "not supported by netbpf");
			goto out;
		} else if (!have_local) {
			if (!strcmp(w, "local") && !(w = nb_ctl_next(ctl, argc, argv, &i))) {
				err = -EINVAL;
				goto out;
			}
			if (!nb_ip_parse_prefix(ctl, w, &family, &ifa.local, &ifa.prefixlen)) {
				err = -EINVAL;
				goto out;
			}
			have_local = true;
		} else {
			err = nb_ctl_wrong(ctl, w, "unknown address option");
			goto out;
		}
	}
	if (!dev || !have_local) {
		err = nb_ctl_usage(ctl, "Not enough information: \"dev\" argument and an address "
				   "are required.");
		goto out;
	}
	if (family == AF_UNSPEC) {
		err = nb_ctl_wrong(ctl, "default", "an address is expected");
		goto out;
	}
	ifa.family = (__u8)family;
	if (family == AF_INET && brd_plus && ifa.prefixlen < 31) {
		__u32 mask = ifa.prefixlen ? ~0u << (32 - ifa.prefixlen) : 0;

		ifa.broadcast.v4 = htonl(ntohl(ifa.local.v4) | ~mask);
	}
	if (family == AF_INET && !scoped && (ntohl(ifa.local.v4) >> 24) == 127)
		ifa.scope = RT_SCOPE_HOST;	/* iproute2's default_scope */
	err = add ? nb_addr_add(dev, &ifa, &log) : nb_addr_del(dev, &ifa, &log);
	if (err)
		nb_ctl_fail(ctl, err, "%s%.*s",
			    family == AF_INET || !add ? "RTNETLINK answers: " : "",
			    (int)strcspn(nb_log_text(&log), "\n"), nb_log_text(&log));
	nb_log_free(&log);
out:
	if (dev)
		nb_dev_put(dev);
	return err;
}

/* The flag words of print_ifa_flags, in its order. */
static void print_flags_text(FILE *out, const struct nb_ifaddr *a)
{
	if (a->flags & IFA_F_SECONDARY)
		fprintf(out, "secondary ");
	if (a->flags & IFA_F_NODAD)
		fprintf(out, "nodad ");
	if (a->flags & IFA_F_NOPREFIXROUTE)
		fprintf(out, "noprefixroute ");
}

static void print_addr_text(struct nb_ctl *ctl, const struct nb_ifaddr *a)
{
	char buf[64];

	fprintf(ctl->out, "    %s %s/%u ", a->family == AF_INET ? "inet" : "inet6",
		nb_inet_ntop(a->family, &a->local, buf, sizeof(buf)), a->prefixlen);
	if (a->family == AF_INET && a->broadcast.v4)
		fprintf(ctl->out, "brd %s ", nb_inet_ntop(AF_INET, &a->broadcast, buf,
							  sizeof(buf)));
	fprintf(ctl->out, "scope %s ", nb_ip_scope_name(a->scope, buf));
	print_flags_text(ctl->out, a);
	if (a->family == AF_INET)
		fprintf(ctl->out, "%s", a->label);
	fprintf(ctl->out, "\n       valid_lft forever preferred_lft forever\n");
}

static void print_addr_json(struct nb_json *j, const struct nb_ifaddr *a)
{
	char buf[64];

	nb_json_start_object(j, NULL);
	nb_json_string(j, "family", a->family == AF_INET ? "inet" : "inet6");
	nb_json_string(j, "local", nb_inet_ntop(a->family, &a->local, buf, sizeof(buf)));
	nb_json_uint(j, "prefixlen", a->prefixlen);
	if (a->family == AF_INET && a->broadcast.v4)
		nb_json_string(j, "broadcast", nb_inet_ntop(AF_INET, &a->broadcast, buf,
							    sizeof(buf)));
	nb_json_string(j, "scope", nb_ip_scope_name(a->scope, buf));
	if (a->flags & IFA_F_SECONDARY)
		nb_json_bool(j, "secondary", true);
	if (a->flags & IFA_F_NODAD)
		nb_json_bool(j, "nodad", true);
	if (a->flags & IFA_F_NOPREFIXROUTE)
		nb_json_bool(j, "noprefixroute", true);
	if (a->family == AF_INET)
		nb_json_string(j, "label", a->label);
	nb_json_uint(j, "valid_life_time", 0xffffffffu);
	nb_json_uint(j, "preferred_life_time", 0xffffffffu);
	nb_json_end_object(j);
}

static void show_dev(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev)
{
	struct nb_ifaddr addrs[MAX_ADDRS];
	unsigned int n = nb_addr_list(dev, ctl->family, addrs, MAX_ADDRS);

	if (n > MAX_ADDRS)
		n = MAX_ADDRS;
	/* with a family asked for, a device without such addresses is not shown */
	if (ctl->family != AF_UNSPEC && !n)
		return;
	if (j) {
		nb_json_start_object(j, NULL);
		nb_ctl_link_json(ctl, j, dev, true);
		nb_json_start_array(j, "addr_info");
		for (unsigned int i = 0; i < n; i++)
			print_addr_json(j, &addrs[i]);
		nb_json_end_array(j);
		nb_json_end_object(j);
		return;
	}
	nb_ctl_link_print(ctl, dev, true);
	for (unsigned int i = 0; i < n; i++)
		print_addr_text(ctl, &addrs[i]);
}

static int addr_show(struct nb_ctl *ctl, int argc, char **argv)
{
	return nb_ctl_show_devs(ctl, argc, argv, "ip addr show", show_dev);
}

static int addr_flush(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_dev *dev;
	int i = 0;

	if (i < argc && !strcmp(argv[i], "dev"))
		i++;
	if (i >= argc)
		return nb_ctl_usage(ctl, "Flush requires arguments.");
	if (i + 1 < argc)
		return nb_ctl_wrong(ctl, argv[i + 1], "ip addr flush takes one device");
	if (!(dev = nb_ip_dev(ctl, argv[i])))
		return -ENODEV;
	nb_addr_flush(dev, ctl->family);
	nb_dev_put(dev);
	return 0;
}

int nb_ctl_ip_addr(struct nb_ctl *ctl, int argc, char **argv)
{
	if (argc < 1 || nb_matches(argv[0], "show") || nb_matches(argv[0], "list") ||
	    !strcmp(argv[0], "lst"))
		return addr_show(ctl, argc ? argc - 1 : 0, argv + 1);
	if (nb_matches(argv[0], "add"))
		return addr_modify(ctl, argc - 1, argv + 1, true);
	if (nb_matches(argv[0], "delete"))
		return addr_modify(ctl, argc - 1, argv + 1, false);
	if (nb_matches(argv[0], "flush"))
		return addr_flush(ctl, argc - 1, argv + 1);
	return nb_ctl_wrong(ctl, argv[0], "Command \"%s\" is unknown, try \"ip addr help\"",
			    argv[0]);
}
