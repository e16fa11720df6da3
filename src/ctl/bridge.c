// SPDX-License-Identifier: GPL-2.0
/*
 * The bridge words, bridge(8)'s on netbpf's bridges (include/netbpf/bridge.h):
 *
 *   bridge fdb show [br BRIDGE] [dev DEV]
 *   bridge fdb { add | append | replace } LLADDR dev DEV [master] [self]
 *              [permanent | static | dynamic]
 *   bridge fdb { del | delete } LLADDR dev DEV [master] [self]
 *   bridge link show [dev DEV]
 *
 * fdb show prints the bridges' entries as iproute2 prints the kernel's "master" ones, text and
 * -j; netbpf's devices keep no address lists of their own, so the kernel's "self" lines (a
 * device's multicast and unicast filters) have no twin. An entry is added to the bridge of the
 * port DEV names (or the bridge itself), permanent unless said otherwise, as iproute2's
 * default NUD_PERMANENT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/bridge.h>
#include <netbpf/dev.h>

#include "ctl/args.h"
#include "ctl/ctl.h"
#include "ctl/json.h"
#include "io/port.h"

#define FDB_MAX 4096

static const char *const fdb_state_names[] = {
	[NB_BRIDGE_FDB_DYNAMIC] = "",
	[NB_BRIDGE_FDB_STATIC] = "static",
	[NB_BRIDGE_FDB_PERMANENT] = "permanent",
};

static struct nb_dev *find_dev(struct nb_ctl *ctl, const char *name)
{
	struct nb_dev *dev = nb_dev_get_by_name(name);

	if (!dev)
		nb_ctl_fail(ctl, -ENODEV, "Cannot find device \"%s\"", name);
	return dev;
}

static void fdb_print(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *br,
		      const struct nb_bridge_fdb_entry *e, bool with_dev)
{
	struct nb_dev *dev = nb_dev_get_by_index(e->ifindex);
	const char *ifname = dev ? nb_dev_name(dev) : "?";
	const u8 *a = e->addr;
	char mac[18];

	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1], a[2], a[3], a[4],
		 a[5]);
	if (j) {
		nb_json_start_object(j, NULL);
		nb_json_string(j, "mac", mac);
		if (with_dev)
			nb_json_string(j, "ifname", ifname);
		nb_json_start_array(j, "flags");
		nb_json_end_array(j);
		nb_json_string(j, "master", nb_dev_name(br));
		nb_json_string(j, "state", fdb_state_names[e->state]);
		nb_json_end_object(j);
	} else {
		fprintf(ctl->out, "%s ", mac);
		if (with_dev)
			fprintf(ctl->out, "dev %s ", ifname);
		fprintf(ctl->out, "master %s %s\n", nb_dev_name(br), fdb_state_names[e->state]);
	}
	nb_dev_put(dev);
}

/* One bridge's entries, those of filter_dev only when it is not NULL. */
static int fdb_show_bridge(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *br,
			   struct nb_dev *filter_dev)
{
	struct nb_bridge_fdb_entry *e = calloc(FDB_MAX, sizeof(*e));
	unsigned int n;

	if (!e)
		return nb_ctl_fail(ctl, -ENOMEM, "no memory for the forwarding database");
	n = nb_bridge_fdb_dump(br, e, FDB_MAX);
	if (n > FDB_MAX) {
		free(e);
		return nb_ctl_fail(ctl, -E2BIG, "%s has more than %d entries", nb_dev_name(br),
				   FDB_MAX);
	}
	for (unsigned int i = 0; i < n; i++)
		if (!filter_dev || e[i].ifindex == nb_dev_ifindex(filter_dev))
			fdb_print(ctl, j, br, &e[i], !filter_dev);
	free(e);
	return 0;
}

static int fdb_show(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_dev *br = NULL, *dev = NULL, *devs[256];
	struct nb_json *j = NULL;
	unsigned int n;
	int err = 0;

	for (int i = 0; i < argc && !err; i++) {
		const char *w = argv[i], *val = nb_ctl_next(ctl, argc, argv, &i);
		struct nb_dev **slot = NULL;

		if (!val)
			err = -EINVAL;
		else if (!strcmp(w, "br") || !strcmp(w, "brport") || !strcmp(w, "dev"))
			slot = w[0] == 'b' && w[2] == 0 ? &br : &dev;
		else
			err = nb_ctl_wrong(ctl, w, "expected br BRIDGE or dev DEV");
		if (slot && !*slot && !(*slot = find_dev(ctl, val)))
			err = -ENODEV;
	}
	if (!err && br && !nb_dev_is_bridge(br))
		err = nb_ctl_wrong(ctl, nb_dev_name(br), "is not a bridge");
	if (err)
		goto out;
	if (ctl->json) {
		j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(j, NULL);
	}
	if (br) {
		err = fdb_show_bridge(ctl, j, br, dev);
	} else if (dev) {
		struct nb_dev *master = nb_dev_is_bridge(dev) ? nb_dev_get(dev) :
								nb_bridge_master(dev);

		if (master)
			err = fdb_show_bridge(ctl, j, master, dev);
		nb_dev_put(master);
	} else {
		n = nb_dev_list(devs, ARRAY_SIZE(devs));
		for (unsigned int d = 0; d < n && d < ARRAY_SIZE(devs); d++) {
			if (!err && nb_dev_is_bridge(devs[d]))
				err = fdb_show_bridge(ctl, j, devs[d], NULL);
			nb_dev_put(devs[d]);
		}
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_free(j);
	}
out:
	nb_dev_put(br);
	nb_dev_put(dev);
	return err;
}

/* fdb add|append|replace|del LLADDR dev DEV [master] [self] [permanent|static|dynamic] */
static int fdb_modify(struct nb_ctl *ctl, int argc, char **argv, bool add, bool replace)
{
	enum nb_bridge_fdb_state state = NB_BRIDGE_FDB_PERMANENT;
	struct nb_dev *dev = NULL, *br = NULL;
	const char *addr_word = NULL;
	bool master = false, self = false;
	struct nb_log log = { 0 };
	u8 addr[6];
	int err = 0;

	for (int i = 0; i < argc && !err; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "dev")) {
			const char *val = nb_ctl_next(ctl, argc, argv, &i);

			if (!val)
				err = -EINVAL;
			else if (!dev && !(dev = find_dev(ctl, val)))
				err = -ENODEV;
		} else if (!strcmp(w, "master")) {
			master = true;
		} else if (!strcmp(w, "self")) {
			self = true;
		} else if (add && (!strcmp(w, "permanent") || !strcmp(w, "local"))) {
			state = NB_BRIDGE_FDB_PERMANENT;
		} else if (add && !strcmp(w, "static")) {
			state = NB_BRIDGE_FDB_STATIC;
		} else if (add && !strcmp(w, "dynamic")) {
			state = NB_BRIDGE_FDB_DYNAMIC;
		} else if (!addr_word) {
			addr_word = w;
			if (!nb_port_parse_mac(w, addr))
				err = nb_ctl_wrong(ctl, w, "expected an LLADDR (aa:bb:cc:dd:ee:ff)");
		} else {
			err = nb_ctl_wrong(ctl, w, "expected dev DEV, master, self%s",
					   add ? ", permanent, static or dynamic" : "");
		}
	}
	if (!err && !addr_word)
		err = nb_ctl_usage(ctl, "bridge fdb %s needs an LLADDR", add ? "add" : "del");
	if (!err && !dev)
		err = nb_ctl_usage(ctl, "bridge fdb %s needs dev DEV", add ? "add" : "del");
	if (err)
		goto out;
	if (nb_dev_is_bridge(dev)) {
		br = nb_dev_get(dev);
	} else {
		br = nb_bridge_master(dev);
		if (!br || (self && !master)) {
			err = nb_ctl_fail(ctl, -EOPNOTSUPP, "%s: %s", nb_dev_name(dev), br ?
					  "netbpf's devices keep no address lists of their own: "
					  "use master" : "not a bridge port");
			goto out;
		}
	}
	err = add ? nb_bridge_fdb_add(br, dev, addr, state, replace, &log) :
		    nb_bridge_fdb_del(br, addr, &log);
	if (err)
		nb_ctl_fail(ctl, err, "%s: %.*s", nb_dev_name(br),
			    (int)strcspn(nb_log_text(&log), "\n"), nb_log_text(&log));
out:
	nb_log_free(&log);
	nb_dev_put(br);
	nb_dev_put(dev);
	return err;
}

/* The kernel's port_cost by speed: 2 for veth's 10 Gb/s, 100 when the speed is unknown. */
static unsigned int port_cost(struct nb_dev *dev)
{
	char port[64];

	nb_dev_port_describe(dev, port, sizeof(port));
	return !strncmp(port, "pipe", 4) ? 2 : 100;
}

static int link_show(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_dev *devs[256], *filter = NULL;
	struct nb_json *j = NULL;
	unsigned int n;

	if (argc >= 1) {
		if (strcmp(argv[0], "dev") || argc != 2)
			return nb_ctl_wrong(ctl, argv[0], "expected dev DEV");
		filter = find_dev(ctl, argv[1]);
		if (!filter)
			return -ENODEV;
	}
	if (ctl->json) {
		j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(j, NULL);
	}
	n = nb_dev_list(devs, ARRAY_SIZE(devs));
	for (unsigned int d = 0; d < n && d < ARRAY_SIZE(devs); d++) {
		struct nb_dev *dev = devs[d], *br = nb_bridge_master(dev);
		bool up = nb_dev_is_up(dev);
		const char *state = up && br && nb_dev_is_up(br) ? "forwarding" : "disabled";

		if (br && (!filter || filter == dev)) {
			if (j) {
				nb_json_start_object(j, NULL);
				nb_json_uint(j, "ifindex", nb_dev_ifindex(dev));
				nb_json_string(j, "ifname", nb_dev_name(dev));
				nb_json_start_array(j, "flags");
				if (up) {
					nb_json_string(j, NULL, "UP");
					nb_json_string(j, NULL, "LOWER_UP");
				}
				nb_json_end_array(j);
				nb_json_uint(j, "mtu", nb_dev_mtu(dev));
				nb_json_string(j, "master", nb_dev_name(br));
				nb_json_string(j, "state", state);
				nb_json_uint(j, "priority", 32);
				nb_json_uint(j, "cost", port_cost(dev));
				nb_json_end_object(j);
			} else {
				fprintf(ctl->out, "%u: %s: <%s> mtu %u master %s state %s priority 32 "
					"cost %u \n", nb_dev_ifindex(dev), nb_dev_name(dev),
					up ? "UP,LOWER_UP" : "", nb_dev_mtu(dev), nb_dev_name(br),
					state, port_cost(dev));
			}
		}
		nb_dev_put(br);
		nb_dev_put(dev);
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_free(j);
	}
	nb_dev_put(filter);
	return 0;
}

int nb_ctl_bridge(struct nb_ctl *ctl, int argc, char **argv)
{
	/* bridge's own options may come before the object: bridge -j fdb show */
	for (; argc > 0 && argv[0][0] == '-'; argc--, argv++) {
		if (nb_matches(argv[0] + 1, "json"))
			ctl->json = true;
		else if (nb_matches(argv[0] + 1, "pretty"))
			ctl->pretty = true;
		else if (nb_matches(argv[0] + 1, "statistics") || nb_matches(argv[0] + 1, "stats") ||
			 nb_matches(argv[0] + 1, "details"))
			continue;
		else
			return nb_ctl_wrong(ctl, argv[0], "unknown bridge option");
	}
	if (argc >= 1 && nb_matches(argv[0], "fdb")) {
		if (argc < 2 || nb_matches(argv[1], "show") || nb_matches(argv[1], "list"))
			return fdb_show(ctl, argc > 2 ? argc - 2 : 0, argv + 2);
		if (!strcmp(argv[1], "add") || !strcmp(argv[1], "append"))
			return fdb_modify(ctl, argc - 2, argv + 2, true, false);
		if (!strcmp(argv[1], "replace"))
			return fdb_modify(ctl, argc - 2, argv + 2, true, true);
		if (nb_matches(argv[1], "delete"))
			return fdb_modify(ctl, argc - 2, argv + 2, false, false);
		return nb_ctl_wrong(ctl, argv[1], "expected add, append, replace, del or show");
	}
	if (argc >= 1 && nb_matches(argv[0], "link")) {
		if (argc < 2 || nb_matches(argv[1], "show") || nb_matches(argv[1], "list"))
			return link_show(ctl, argc > 2 ? argc - 2 : 0, argv + 2);
		return nb_ctl_wrong(ctl, argv[1], "netbpf's bridge link takes show");
	}
	if (argc < 1)
		return nb_ctl_usage(ctl, "bridge needs an object: fdb or link");
	return nb_ctl_wrong(ctl, argv[0], "expected fdb or link");
}
