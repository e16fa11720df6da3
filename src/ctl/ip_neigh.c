// SPDX-License-Identifier: GPL-2.0
/*
 * The ip neigh words, as iproute2's ip/ipneigh.c parses and prints them:
 *
 *   ip [-4|-6] neigh { add | replace | change } ADDR [lladdr MAC] dev DEV [nud STATE] [router]
 *   ip [-4|-6] neigh del ADDR dev DEV
 *   ip [-4|-6] neigh show [dev DEV] [nud STATE|all]
 *   ip [-4|-6] neigh flush dev DEV
 *     STATE := permanent | noarp | reachable | stale | delay | probe | failed | incomplete | none
 *
 * "10.0.0.2 dev v1 lladdr 02:00:00:00:00:02 PERMANENT ", one line per entry; entries in state
 * none or noarp are shown only with "nud all" (or their own nud), as iproute2 shows them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>
#include <linux/neighbour.h>

#include <netbpf/dev.h>
#include <netbpf/neigh.h>

#include "ctl/args.h"
#include "ctl/ip_common.h"
#include "ctl/json.h"
#include "io/port.h"
#include "net/fib.h"

static int neigh_modify(struct nb_ctl *ctl, int argc, char **argv, unsigned int flags, bool del)
{
	struct nb_neigh n = { .state = NUD_PERMANENT };
	struct nb_log log = { 0 };
	bool have_addr = false;
	int family = ctl->family, err;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val;

		if (!strcmp(w, "lladdr")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_port_parse_mac(val, n.lladdr))
				return nb_ctl_wrong(ctl, val, "\"%s\" is invalid lladdr.", val);
			n.has_lladdr = true;
		} else if (!strcmp(w, "dev")) {
			struct nb_dev *dev;

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!(dev = nb_ip_dev(ctl, val)))
				return -ENODEV;
			n.ifindex = nb_dev_ifindex(dev);
			nb_dev_put(dev);
		} else if (!strcmp(w, "nud")) {
			int state;

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if ((state = nb_ip_nud_parse(val)) < 0)
				return nb_ctl_wrong(ctl, val, "nud state \"%s\" is invalid", val);
			n.state = (__u16)state;
		} else if (!strcmp(w, "router")) {
			n.router = true;
		} else if (!strcmp(w, "proxy") || !strcmp(w, "extern_learn") ||
			   !strcmp(w, "managed") || !strcmp(w, "protocol")) {
			return nb_ctl_wrong(ctl, w, "not supported by netbpf");
		} else if (!have_addr) {
			if (!strcmp(w, "to") && !(w = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!nb_ip_parse_addr(ctl, w, &family, &n.addr))
				return -EINVAL;
			have_addr = true;
		} else {
			return nb_ctl_wrong(ctl, w, "unknown neighbour option");
		}
	}
	if (!have_addr || !n.ifindex || family == AF_UNSPEC)
		return nb_ctl_usage(ctl, "Device and destination are required arguments.");
	n.family = (__u8)family;
	err = del ? nb_neigh_del(&n, &log) : nb_neigh_update(&n, flags, &log);
	if (err)
		nb_ctl_fail(ctl, err, "RTNETLINK answers: %.*s",
			    (int)strcspn(nb_log_text(&log), "\n"), nb_log_text(&log));
	nb_log_free(&log);
	return err;
}

struct show_arg {
	struct nb_ctl *ctl;
	struct nb_json *j;
	unsigned int ifindex;
	int state;		/* -1: all but none; 0x100: all */
};

static int show_one(const struct nb_neigh *n, void *arg)
{
	struct show_arg *a = arg;
	const char *state = nb_ip_nud_name(n->state);
	char addr[64], name[IFNAMSIZ], mac[18];

	if (a->ifindex && n->ifindex != a->ifindex)
		return 0;
	/* by default iproute2 leaves out the entries of state none and noarp */
	if (a->state == -1 ? n->state == NUD_NONE || n->state == NUD_NOARP
			   : a->state != 0x100 && !(n->state & a->state))
		return 0;
	nb_inet_ntop(n->family, &n->addr, addr, sizeof(addr));
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", n->lladdr[0], n->lladdr[1],
		 n->lladdr[2], n->lladdr[3], n->lladdr[4], n->lladdr[5]);
	nb_fib_dev_name(n->ifindex, name);
	if (a->j) {
		nb_json_start_object(a->j, NULL);
		nb_json_string(a->j, "dst", addr);
		if (!a->ifindex)
			nb_json_string(a->j, "dev", name);
		if (n->has_lladdr)
			nb_json_string(a->j, "lladdr", mac);
		if (n->router)
			nb_json_null(a->j, "router");
		nb_json_start_array(a->j, "state");
		if (state)
			nb_json_string(a->j, NULL, state);
		nb_json_end_array(a->j);
		nb_json_end_object(a->j);
		return 0;
	}
	fprintf(a->ctl->out, "%s ", addr);
	if (!a->ifindex)
		fprintf(a->ctl->out, "dev %s ", name);
	if (n->has_lladdr)
		fprintf(a->ctl->out, "lladdr %s ", mac);
	if (n->router)
		fprintf(a->ctl->out, "router ");
	if (state)
		fprintf(a->ctl->out, "%s ", state);
	fputc('\n', a->ctl->out);
	return 0;
}

static int neigh_show(struct nb_ctl *ctl, int argc, char **argv, bool flush)
{
	struct show_arg a = { .ctl = ctl, .state = -1 };
	int err = 0;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val;
		struct nb_dev *dev;

		if (!strcmp(w, "dev")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!(dev = nb_ip_dev(ctl, val)))
				return -ENODEV;
			a.ifindex = nb_dev_ifindex(dev);
			nb_dev_put(dev);
		} else if (!strcmp(w, "nud")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
			if (!strcmp(val, "all"))
				a.state = 0x100;
			else if ((a.state = nb_ip_nud_parse(val)) < 0)
				return nb_ctl_wrong(ctl, val, "nud state \"%s\" is invalid", val);
		} else {
			return nb_ctl_wrong(ctl, w, "unknown neighbour selector");
		}
	}
	if (flush) {
		if (!a.ifindex)
			return nb_ctl_usage(ctl, "Flush requires arguments.");
		return nb_neigh_flush(ctl->family, a.ifindex);
	}
	if (ctl->json) {
		a.j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(a.j, NULL);
	}
	err = nb_neigh_dump(ctl->family, show_one, &a);
	if (a.j) {
		nb_json_end_array(a.j);
		nb_json_free(a.j);
	}
	return err;
}

int nb_ctl_ip_neigh(struct nb_ctl *ctl, int argc, char **argv)
{
	if (argc < 1 || nb_matches(argv[0], "show") || nb_matches(argv[0], "list") ||
	    !strcmp(argv[0], "lst"))
		return neigh_show(ctl, argc ? argc - 1 : 0, argv + 1, false);
	if (nb_matches(argv[0], "add"))
		return neigh_modify(ctl, argc - 1, argv + 1, NB_NEIGH_CREATE, false);
	if (nb_matches(argv[0], "replace"))
		return neigh_modify(ctl, argc - 1, argv + 1, NB_NEIGH_CREATE | NB_NEIGH_REPLACE,
				    false);
	if (nb_matches(argv[0], "change") || !strcmp(argv[0], "chg"))
		return neigh_modify(ctl, argc - 1, argv + 1, NB_NEIGH_REPLACE, false);
	if (nb_matches(argv[0], "delete"))
		return neigh_modify(ctl, argc - 1, argv + 1, 0, true);
	if (nb_matches(argv[0], "flush"))
		return neigh_show(ctl, argc - 1, argv + 1, true);
	return nb_ctl_wrong(ctl, argv[0], "Command \"%s\" is unknown, try \"ip neigh help\"",
			    argv[0]);
}
