// SPDX-License-Identifier: GPL-2.0
/*
 * link show, as iproute2's ip link show prints a device (ip/ipaddress.c print_linkinfo,
 * ip/iplink_xdp.c xdp_dump), and the device lines ip addr show starts with:
 *
 *   3: gen0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 xdp qdisc noqueue state UP mode ...
 *       link/ether 02:6e:62:00:00:03 brd ff:ff:ff:ff:ff:ff
 *       prog/xdp id 4 name xdp_drop tag 09ef0ef664577579 jited
 *       port gen count 100, 100 received, 0 sent
 *
 * -s adds ip's RX and TX counter lines, -s -s their error lines; -j is ip -j link show's JSON
 * ("xdp" with the attach mode, "stats64"). What ip has no word for is netbpf's own and comes
 * last: the "port" line (the backend that moves the device's frames, its configuration and
 * counters; a "port" object in JSON) and, with -s, the drops by reason.
 *
 * netbpf's devices have no root qdisc (a device transmits through its port at once: ip's
 * "noqueue"), no link modes or groups, and a transmit queue length only as the kernel's
 * default (DEFAULT_TX_QUEUE_LEN): these are printed as the kernel prints them for a veth.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/if_link.h>

#include <netbpf/bridge.h>
#include <netbpf/dev.h>
#include <netbpf/prog.h>
#include <netbpf/tunnel.h>
#include <netbpf/xdp.h>

#include "ctl/ctl.h"
#include "ctl/ip_common.h"
#include "ctl/json.h"
#include "ctl/print.h"
#include "ctl/tc.h"
#include "io/port.h"
#include "net/dev.h"
#include "net/tunnel.h"

#define DEFAULT_TX_QUEUE_LEN 1000

/* The unspecified address of an IP tunnel's family, which iproute2 shows as its address. */
static const char *any_addr(const char *link_type)
{
	return strchr(link_type, '6') ? "::" : "0.0.0.0";
}

/* A pipe's other end (a veth's peer, IFLA_LINK), or NULL. */
static struct nb_dev *peer_of(struct nb_dev *dev)
{
	return dev->peer;
}

/* IFF_LOWER_UP: the carrier, which a pipe end has only while both ends are up, as a veth. */
static bool carrier(struct nb_dev *dev)
{
	struct nb_dev *peer = peer_of(dev);

	return nb_dev_is_up(dev) && (!peer || nb_dev_is_up(peer));
}

/*
 * The flags as ip prints them (print_link_flags): NO-CARRIER for an up device without
 * carrier, then the IFF_* flags the kernel gives a device of this kind (Ethernet-like devices
 * broadcast and multicast, IP tunnels resolve no neighbours, NOARP) in their bit order, then
 * M-DOWN when the device it is linked to (a pipe's peer) is down. Up to 6 names and a NULL.
 */
static void dev_flags(struct nb_dev *dev, const char *flags[7])
{
	struct nb_dev *peer = peer_of(dev);
	bool up = nb_dev_is_up(dev);
	unsigned int n = 0;

	if (up && !carrier(dev))
		flags[n++] = "NO-CARRIER";
	if (nb_tunnel_link_type(dev)) {
		flags[n++] = "NOARP";
	} else {
		flags[n++] = "BROADCAST";
		flags[n++] = "MULTICAST";
	}
	if (up)
		flags[n++] = "UP";
	if (carrier(dev))
		flags[n++] = "LOWER_UP";
	if (peer && !nb_dev_is_up(peer))
		flags[n++] = "M-DOWN";
	flags[n] = NULL;
}

/*
 * IF_OPER_*: a tunnel has no carrier to report, so the kernel leaves it UNKNOWN when up; an
 * up pipe end whose peer is down is LOWERLAYERDOWN, as a veth.
 */
static const char *operstate(struct nb_dev *dev)
{
	if (!nb_dev_is_up(dev))
		return "DOWN";
	if (dev->tunnel)
		return "UNKNOWN";
	return carrier(dev) ? "UP" : "LOWERLAYERDOWN";
}

/*
 * The XDP program and its XDP_ATTACHED_* mode (a new reference), or NULL. netbpf's devices
 * take programs as a driver does (ndo_bpf), so without XDP_FLAGS_SKB_MODE the mode is the
 * driver's, as the kernel's dev_xdp_mode gives it for a veth.
 */
static struct nb_prog *xdp_prog(struct nb_dev *dev, __u8 *mode)
{
	u32 flags = 0;
	struct nb_prog *prog = nb_dev_xdp_prog(dev, &flags);

	*mode = flags & XDP_FLAGS_SKB_MODE ? XDP_ATTACHED_SKB : XDP_ATTACHED_DRV;
	return prog;
}

static void print_flags_text(FILE *out, struct nb_dev *dev)
{
	const char *f[7];

	dev_flags(dev, f);
	fputc('<', out);
	for (unsigned int i = 0; f[i]; i++)
		fprintf(out, "%s%s", i ? "," : "", f[i]);
	fputc('>', out);
}

/* A bridge port names its bridge, between the qdisc and the state as ip prints it. */
static void print_master_text(FILE *out, struct nb_dev *dev)
{
	struct nb_dev *master = nb_bridge_master(dev);

	if (master)
		fprintf(out, "master %s ", nb_dev_name(master));
	nb_dev_put(master);
}

/* The attached program as ip prints it: tc's printer (bpf_dump_prog_info), text or JSON. */
static void print_prog(struct nb_ctl *ctl, struct nb_json *j, const struct nb_prog *prog)
{
	struct nb_print p = { .f = ctl->out, .j = j };
	struct nb_tc_print_list items = { 0 };

	nb_tc_print_prog(&items, prog);
	nb_ctl_print_tc_items(&p, &items, false);
	nb_tc_print_list_free(&items);
}

void nb_ctl_link_print(struct nb_ctl *ctl, struct nb_dev *dev, bool addr_show)
{
	const char *ltype = nb_tunnel_link_type(dev);
	const u8 *a = nb_dev_addr(dev);
	FILE *out = ctl->out;
	struct nb_prog *prog;
	__u8 mode;

	prog = xdp_prog(dev, &mode);
	fprintf(out, "%u: %s", nb_dev_ifindex(dev), nb_dev_name(dev));
	if (peer_of(dev))
		fprintf(out, "@%s", nb_dev_name(peer_of(dev)));
	fprintf(out, ": ");
	print_flags_text(out, dev);
	fprintf(out, " mtu %u ", nb_dev_mtu(dev));
	/* ip link names the mode here and the program on a line of its own; ip addr its id */
	if (prog)
		fprintf(out, "%s", mode == XDP_ATTACHED_SKB ? "xdpgeneric" : "xdp");
	if (prog && addr_show)
		fprintf(out, "/id:%u", nb_prog_id(prog));
	if (prog)
		fputc(' ', out);
	fprintf(out, "qdisc noqueue ");
	print_master_text(out, dev);
	fprintf(out, "state %s %sgroup default qlen %u\n", operstate(dev),
		addr_show ? "" : "mode DEFAULT ", DEFAULT_TX_QUEUE_LEN);
	if (ltype)	/* an IP tunnel: no link address, as the kernel's show it */
		fprintf(out, "    link/%s %s brd %s\n", ltype, any_addr(ltype), any_addr(ltype));
	else
		fprintf(out, "    link/ether %02x:%02x:%02x:%02x:%02x:%02x brd ff:ff:ff:ff:ff:ff\n",
			a[0], a[1], a[2], a[3], a[4], a[5]);
	if (prog && !addr_show) {
		fprintf(out, "    prog/xdp ");
		print_prog(ctl, NULL, prog);
		fputc('\n', out);
	}
	if (prog)
		nb_prog_put(prog);
}

/* netbpf's own line: the port, its configuration, then its counters where it keeps them. */
static void print_port_text(struct nb_ctl *ctl, struct nb_dev *dev)
{
	struct nb_dev_port_stats t;
	char port[256];

	nb_dev_port_describe(dev, port, sizeof(port));
	fprintf(ctl->out, "    port %s", port);
	if (nb_dev_port_stats(dev, NB_DEV_PORT_ALL_QUEUES, &t)) {
		fputc('\n', ctl->out);
		return;
	}
	fprintf(ctl->out, ", %llu received, %llu sent, %llu ring drops, %llu too big, "
		"%llu tx errors", (unsigned long long)t.rx_packets,
		(unsigned long long)t.tx_packets, (unsigned long long)t.rx_ring_drops,
		(unsigned long long)t.rx_too_big, (unsigned long long)t.tx_errors);
	/* a port that moves frames without copying them says how many (afxdp) */
	if (t.zero_copy)
		fprintf(ctl->out, ", %llu lent, %llu sent by descriptor",
			(unsigned long long)t.rx_lent, (unsigned long long)t.tx_by_desc);
	fputc('\n', ctl->out);
}

/*
 * struct rtnl_link_stats64 as netbpf fills it: errors are what the port could not take in
 * (frames above the longest netbpf carries, the kernel's length errors, and what its ring
 * overflowed with) or send, dropped every frame the datapath dropped. netbpf counts no
 * multicast, carrier or collision events: those stay 0.
 */
struct link_stats64 {
	u64 rx_bytes, rx_packets, rx_errors, rx_dropped, rx_length_errors, rx_over_errors;
	u64 tx_bytes, tx_packets, tx_errors, tx_dropped;
};

static void link_stats64(struct nb_dev *dev, struct link_stats64 *l)
{
	struct nb_dev_port_stats t;
	struct nb_dev_stats_total s;

	nb_dev_stats_read(dev, &s);
	nb_dev_port_stats(dev, NB_DEV_PORT_ALL_QUEUES, &t);	/* zeros without counters */
	*l = (struct link_stats64){
		.rx_bytes = s.rx_bytes,
		.rx_packets = s.rx_packets,
		.rx_length_errors = t.rx_too_big,
		.rx_over_errors = t.rx_ring_drops,
		.rx_errors = t.rx_too_big + t.rx_ring_drops,
		.rx_dropped = s.rx_dropped,
		.tx_bytes = s.tx_bytes,
		.tx_packets = s.tx_packets,
		.tx_errors = t.tx_errors,
		.tx_dropped = s.drops[NB_DROP_TX_ERROR],
	};
}

/* print_link_stats64: ip's column widths, and the blanks it leaves at each line's end. */
static void print_stats_text(struct nb_ctl *ctl, struct nb_dev *dev)
{
	struct nb_dev_stats_total s;
	struct link_stats64 l;
	FILE *out = ctl->out;
	bool any = false;

	link_stats64(dev, &l);
	fprintf(out, "    RX:  bytes packets errors dropped  missed   mcast           \n");
	fprintf(out, "    %10llu %7llu %6llu %7llu %7u %7u \n", (unsigned long long)l.rx_bytes,
		(unsigned long long)l.rx_packets, (unsigned long long)l.rx_errors,
		(unsigned long long)l.rx_dropped, 0, 0);
	if (ctl->stats > 1) {
		fprintf(out, "    RX errors:  length    crc   frame    fifo overrun\n");
		fprintf(out, "                %6llu %6u %7u %7u %7llu \n",
			(unsigned long long)l.rx_length_errors, 0, 0, 0,
			(unsigned long long)l.rx_over_errors);
	}
	fprintf(out, "    TX:  bytes packets errors dropped carrier collsns           \n");
	fprintf(out, "    %10llu %7llu %6llu %7llu %7u %7u \n", (unsigned long long)l.tx_bytes,
		(unsigned long long)l.tx_packets, (unsigned long long)l.tx_errors,
		(unsigned long long)l.tx_dropped, 0, 0);
	if (ctl->stats > 1) {
		fprintf(out, "    TX errors: aborted   fifo  window heartbt transns\n");
		fprintf(out, "                %6u %6u %7u %7u %7u \n", 0, 0, 0, 0, 0);
	}
	/* netbpf's own: why the datapath dropped, and where received frames went */
	nb_dev_stats_read(dev, &s);
	for (int r = 0; r < NB_DROP_REASON_MAX; r++) {
		if (!s.drops[r])
			continue;
		fprintf(out, "%s %s %llu", any ? "" : "    drops:", nb_drop_reason_name(r),
			(unsigned long long)s.drops[r]);
		any = true;
	}
	if (any)
		fputc('\n', out);
	fprintf(out, "    host %llu consumed %llu clones %llu\n",
		(unsigned long long)s.host_packets, (unsigned long long)s.consumed,
		(unsigned long long)s.clones);
}

static void show_text(struct nb_ctl *ctl, struct nb_dev *dev)
{
	nb_ctl_link_print(ctl, dev, false);
	print_port_text(ctl, dev);
	if (ctl->stats)
		print_stats_text(ctl, dev);
}

/* ip -j's "stats64": the same fields, and with -s -s the error counters. */
static void stats64_json(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev)
{
	struct link_stats64 l;

	link_stats64(dev, &l);
	nb_json_start_object(j, "stats64");
	nb_json_start_object(j, "rx");
	nb_json_uint(j, "bytes", l.rx_bytes);
	nb_json_uint(j, "packets", l.rx_packets);
	nb_json_uint(j, "errors", l.rx_errors);
	nb_json_uint(j, "dropped", l.rx_dropped);
	nb_json_uint(j, "over_errors", l.rx_over_errors);
	nb_json_uint(j, "multicast", 0);
	if (ctl->stats > 1) {
		nb_json_uint(j, "length_errors", l.rx_length_errors);
		nb_json_uint(j, "crc_errors", 0);
		nb_json_uint(j, "frame_errors", 0);
		nb_json_uint(j, "fifo_errors", 0);
		nb_json_uint(j, "missed_errors", 0);
	}
	nb_json_end_object(j);
	nb_json_start_object(j, "tx");
	nb_json_uint(j, "bytes", l.tx_bytes);
	nb_json_uint(j, "packets", l.tx_packets);
	nb_json_uint(j, "errors", l.tx_errors);
	nb_json_uint(j, "dropped", l.tx_dropped);
	nb_json_uint(j, "carrier_errors", 0);
	nb_json_uint(j, "collisions", 0);
	if (ctl->stats > 1) {
		nb_json_uint(j, "aborted_errors", 0);
		nb_json_uint(j, "fifo_errors", 0);
		nb_json_uint(j, "window_errors", 0);
		nb_json_uint(j, "heartbeat_errors", 0);
		nb_json_uint(j, "carrier_changes", 0);
	}
	nb_json_end_object(j);
	nb_json_end_object(j);
}

/* xdp_dump_json: the mode, the program, and the list of what is attached (one program). */
static void xdp_json(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev)
{
	struct nb_prog *prog;
	__u8 mode;

	prog = xdp_prog(dev, &mode);
	if (!prog)
		return;
	nb_json_start_object(j, "xdp");
	nb_json_uint(j, "mode", mode);
	print_prog(ctl, j, prog);
	nb_json_start_array(j, "attached");
	nb_json_start_object(j, NULL);
	nb_json_uint(j, "mode", mode);
	print_prog(ctl, j, prog);
	nb_json_end_object(j);
	nb_json_end_array(j);
	nb_json_end_object(j);
	nb_prog_put(prog);
}

void nb_ctl_link_json(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev,
		      bool addr_show)
{
	const char *ltype = nb_tunnel_link_type(dev);
	const u8 *a = nb_dev_addr(dev);
	struct nb_dev *master;
	const char *f[7];

	dev_flags(dev, f);
	nb_json_uint(j, "ifindex", nb_dev_ifindex(dev));
	if (peer_of(dev))
		nb_json_string(j, "link", nb_dev_name(peer_of(dev)));
	nb_json_string(j, "ifname", nb_dev_name(dev));
	nb_json_start_array(j, "flags");
	for (unsigned int i = 0; f[i]; i++)
		nb_json_string(j, NULL, f[i]);
	nb_json_end_array(j);
	nb_json_uint(j, "mtu", nb_dev_mtu(dev));
	xdp_json(ctl, j, dev);
	nb_json_string(j, "qdisc", "noqueue");
	master = nb_bridge_master(dev);
	if (master)
		nb_json_string(j, "master", nb_dev_name(master));
	nb_dev_put(master);
	nb_json_string(j, "operstate", operstate(dev));
	if (!addr_show)
		nb_json_string(j, "linkmode", "DEFAULT");
	nb_json_string(j, "group", "default");
	nb_json_uint(j, "txqlen", DEFAULT_TX_QUEUE_LEN);
	if (ltype) {
		nb_json_string(j, "link_type", ltype);
		nb_json_string(j, "address", any_addr(ltype));
		nb_json_string(j, "broadcast", any_addr(ltype));
	} else {
		nb_json_string(j, "link_type", "ether");
		nb_json_printf(j, "address", "%02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1], a[2],
			       a[3], a[4], a[5]);
		nb_json_string(j, "broadcast", "ff:ff:ff:ff:ff:ff");
	}
}

static void port_stats_json(struct nb_json *j, const char *name,
			    const struct nb_dev_port_stats *st)
{
	nb_json_start_object(j, name);
	nb_json_uint(j, "received", st->rx_packets);
	nb_json_uint(j, "sent", st->tx_packets);
	nb_json_uint(j, "ring_drops", st->rx_ring_drops);
	nb_json_uint(j, "too_big", st->rx_too_big);
	nb_json_uint(j, "tx_errors", st->tx_errors);
	/* a port that moves frames without copying them says how many (afxdp) */
	if (st->zero_copy) {
		nb_json_uint(j, "lent", st->rx_lent);
		nb_json_uint(j, "by_descriptor", st->tx_by_desc);
	}
	nb_json_end_object(j);
}

/*
 * netbpf's own object: the port's kind and configuration, and apart its counters, summed
 * ("stats") and of each queue ("queues").
 */
static void port_json(struct nb_json *j, struct nb_dev *dev)
{
	struct nb_dev_port_stats t, q;
	char port[256];

	nb_dev_port_describe(dev, port, sizeof(port));
	nb_json_start_object(j, "port");
	nb_json_string(j, "kind", dev->tunnel ? "tunnel" : dev->port ? dev->port->ops->kind : "none");
	nb_json_string(j, "description", port);
	if (!nb_dev_port_stats(dev, NB_DEV_PORT_ALL_QUEUES, &t)) {
		port_stats_json(j, "stats", &t);
		nb_json_start_array(j, "queues");
		for (unsigned int i = 0; !nb_dev_port_stats(dev, i, &q); i++)
			port_stats_json(j, NULL, &q);
		nb_json_end_array(j);
	}
	nb_json_end_object(j);
}

/* netbpf's own counters beside stats64: drops by reason, and where frames went. */
static void datapath_json(struct nb_json *j, struct nb_dev *dev)
{
	struct nb_dev_stats_total s;

	nb_dev_stats_read(dev, &s);
	nb_json_start_object(j, "datapath");
	nb_json_uint(j, "host_packets", s.host_packets);
	nb_json_uint(j, "host_bytes", s.host_bytes);
	nb_json_uint(j, "consumed", s.consumed);
	nb_json_uint(j, "clones", s.clones);
	nb_json_start_object(j, "drop_reasons");
	for (int r = 0; r < NB_DROP_REASON_MAX; r++)
		if (s.drops[r])
			nb_json_uint(j, nb_drop_reason_name(r), s.drops[r]);
	nb_json_end_object(j);
	nb_json_end_object(j);
}

static void show_json(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev)
{
	nb_json_start_object(j, NULL);
	nb_ctl_link_json(ctl, j, dev, false);
	if (ctl->stats) {
		stats64_json(ctl, j, dev);
		datapath_json(j, dev);
	}
	port_json(j, dev);
	nb_json_end_object(j);
}

int nb_ctl_show_devs(struct nb_ctl *ctl, int argc, char **argv, const char *cmd,
		     void (*show)(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev))
{
	struct nb_dev *devs[256];
	struct nb_json *j = NULL;
	unsigned int n;
	int i = 0;

	if (argc > 0 && !strcmp(argv[0], "dev"))
		i++;
	if (i < argc) {
		if (i + 1 < argc)
			return nb_ctl_wrong(ctl, argv[i + 1], "%s takes one device", cmd);
		devs[0] = nb_ip_dev(ctl, argv[i]);
		if (!devs[0])
			return -ENODEV;
		n = 1;
	} else {
		n = nb_dev_list(devs, ARRAY_SIZE(devs));
		if (n > ARRAY_SIZE(devs)) {
			for (unsigned int d = 0; d < ARRAY_SIZE(devs); d++)
				nb_dev_put(devs[d]);
			return nb_ctl_fail(ctl, -E2BIG, "more than %zu devices", ARRAY_SIZE(devs));
		}
	}
	if (ctl->json) {
		j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(j, NULL);
	}
	for (unsigned int d = 0; d < n; d++) {
		show(ctl, j, devs[d]);
		nb_dev_put(devs[d]);
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_free(j);
	}
	return 0;
}

static void show_dev(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev)
{
	if (j)
		show_json(ctl, j, dev);
	else
		show_text(ctl, dev);
}

int nb_ctl_link_show(struct nb_ctl *ctl, int argc, char **argv)
{
	return nb_ctl_show_devs(ctl, argc, argv, "link show", show_dev);
}
