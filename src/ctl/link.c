// SPDX-License-Identifier: GPL-2.0
/*
 * The link words: devices and their ports, as ip link shapes them.
 *
 *   link add [name] NAME [index N] [mtu N] [address M] type KIND [PORT OPTIONS]
 *     gen [count N] [size BYTES] [rate PPS] [flows N] [proto udp|tcp|icmp|arp] [ipv6]
 *         [vlan ID] [src-mac M] [dst-mac M] [queues N] [mode patch|copy]
 *         (and the port's own words: src, dst, ttl, ...)
 *     sink [pcap FILE] | pipe peer [name] NAME | pcap [read FILE] [write FILE] [loop N]
 *     afpacket | afxdp | tap dev IFNAME [queues N]
 *     vxlan external [dstport N] [gbp] | geneve external [dstport N]
 *     | ip6tnl external [mode any|ipip6|ip6ip6]
 *     | ipip | gre | gretap | ip6gre | ip6gretap external       (collect-metadata tunnels)
 *     | bridge [ageing_time CENTISECONDS]
 *   link set [dev] NAME { up | down | mtu N | address M | master BRIDGE | nomaster
 *                       | type bridge ageing_time CENTISECONDS }...
 *   link del [dev] NAME
 *   link show [[dev] NAME]                 (link_show.c)
 *
 * Devices are up once added (a port with nothing to do is harmless), so that a script of tc
 * lines forwards without an "ip link set up" for each device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/bridge.h>
#include <netbpf/dev.h>
#include <netbpf/tc.h>
#include <netbpf/tunnel.h>

#include "ctl/args.h"
#include "ctl/ctl.h"
#include "ctl/ip_common.h"
#include "ctl/json.h"
#include "io/port.h"
#include "net/tunnel.h"

#define WORDS_MAX 1024

static int words_add(struct nb_ctl *ctl, char *buf, const char *a, const char *b)
{
	size_t len = strlen(buf);
	int n = snprintf(buf + len, WORDS_MAX - len, "%s%s%s%s", len ? " " : "", a, b ? " " : "",
			 b ? b : "");

	if (n < 0 || (size_t)n >= WORDS_MAX - len)
		return nb_ctl_fail(ctl, -E2BIG, "too many port options");
	return 0;
}

/* Port options in the link words translated to the port's own words. */
static int gen_words(struct nb_ctl *ctl, int argc, char **argv, char *words)
{
	static const struct { const char *word, *port_word; } alias[] = {
		{ "count", "count" }, { "size", "pkt_size" }, { "rate", "ratep" },
		{ "proto", "proto" }, { "vlan", "vlan_id" }, { "src-mac", "src_mac" },
		{ "dst-mac", "dst_mac" },
	};
	bool ipv6 = false, src = false, dst = false;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val;
		bool done = false;
		int err = 0;

		if (!strcmp(w, "ipv6")) {
			ipv6 = true;
			continue;
		}
		src |= !strncmp(w, "src", 3) && strcmp(w, "src-mac");
		dst |= !strncmp(w, "dst", 3) && strcmp(w, "dst-mac");
		if (!strcmp(w, "flows")) {
			unsigned int n;
			char lo[16], hi[16];

			val = nb_ctl_next(ctl, argc, argv, &i);
			if (!val)
				return -EINVAL;
			if (!nb_ctl_parse_u32(val, &n, 0) || !n || n > 65536 - 1024)
				return nb_ctl_wrong(ctl, val, "flows is a number from 1 to 64512");
			/* one flow per UDP/TCP source port, as pktgen's flows walk a field */
			snprintf(lo, sizeof(lo), "%u", 1024);
			snprintf(hi, sizeof(hi), "%u", 1024 + n - 1);
			err = words_add(ctl, words, "udp_src_min", lo);
			if (!err)
				err = words_add(ctl, words, "udp_src_max", hi);
			if (err)
				return err;
			continue;
		}
		val = nb_ctl_next(ctl, argc, argv, &i);
		if (!val)
			return -EINVAL;
		for (size_t a = 0; a < sizeof(alias) / sizeof(alias[0]) && !done; a++) {
			if (strcmp(w, alias[a].word))
				continue;
			err = words_add(ctl, words, alias[a].port_word, val);
			done = true;
		}
		if (!done)	/* the generator's own words (src, dst, ttl, ...) */
			err = words_add(ctl, words, w, val);
		if (err)
			return err;
	}
	if (!ipv6)
		return 0;
	/* "ipv6" alone: documentation-prefix addresses, as the IPv4 default is 10.0.0.1 -> .2 */
	if (words_add(ctl, words, "ipv6", NULL) ||
	    (!src && words_add(ctl, words, "src", "fd00::1")) ||
	    (!dst && words_add(ctl, words, "dst", "fd00::2")))
		return -E2BIG;
	return 0;
}

static int pcap_words(struct nb_ctl *ctl, int argc, char **argv, char *words)
{
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *val = nb_ctl_next(ctl, argc, argv, &i);
		int err;

		if (!val)
			return -EINVAL;
		if (!strcmp(w, "read") || !strcmp(w, "rx"))
			err = words_add(ctl, words, "rx", val);
		else if (!strcmp(w, "write") || !strcmp(w, "tx"))
			err = words_add(ctl, words, "tx", val);
		else if (!strcmp(w, "loop"))
			err = words_add(ctl, words, "loop", val);
		else
			return nb_ctl_wrong(ctl, w, "expected read FILE, write FILE or loop N");
		if (err)
			return err;
	}
	return 0;
}

static int create(struct nb_ctl *ctl, const char *name, unsigned int index, struct nb_dev **dev)
{
	struct nb_log log = { 0 };
	int err = nb_dev_create(name, index, dev, &log);

	if (err) {
		const char *why = nb_log_text(&log);
		size_t n = strcspn(why, "\n");

		nb_ctl_fail(ctl, err, "cannot add device \"%s\": %.*s", name, (int)n,
			    n ? why : strerror(-err));
	}
	nb_log_free(&log);
	return err;
}

static int attach(struct nb_ctl *ctl, struct nb_dev *dev, const char *kind, const char *words)
{
	struct nb_log log = { 0 };
	int err = nb_dev_attach_port(dev, kind, words, &log);

	if (err) {
		const char *why = nb_log_text(&log);
		size_t n, k = strlen(kind);

		/* the port names itself first ("afpacket: dev ..."): say it once */
		if (!strncmp(why, kind, k) && !strncmp(why + k, ": ", 2))
			why += k + 2;
		n = strcspn(why, "\n");
		nb_ctl_fail(ctl, err, "type %s: %.*s", kind, (int)n, n ? why : strerror(-err));
	}
	nb_log_free(&log);
	return err;
}

/* The words a kind takes beside external, for the error that names a word it does not. */
static const char *tunnel_more_words(const char *kind)
{
	if (!strcmp(kind, "vxlan"))
		return ", dstport and gbp";
	if (!strcmp(kind, "geneve"))
		return " and dstport";
	return !strcmp(kind, "ip6tnl") ? " and mode" : "";
}

/* link add NAME type vxlan|geneve|ipip|ip6tnl|gre|... external [dstport N] [mode M] */
static int tunnel_add(struct nb_ctl *ctl, const char *name, unsigned int index, const char *kind,
		      int argc, char **argv, const char *mtu_word, const u8 *mac)
{
	struct nb_tunnel_opts opts = { .sz = sizeof(opts), .kind = kind };
	struct nb_log log = { 0 };
	struct nb_dev *dev;
	unsigned int v;
	int err;

	for (int j = 0; j < argc; j++) {
		const char *w = argv[j], *val;

		if (!strcmp(w, "external") || !strcmp(w, "collect_metadata")) {
			opts.external = true;
		} else if (!strcmp(w, "dstport") && (!strcmp(kind, "vxlan") ||
						     !strcmp(kind, "geneve"))) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &j)))
				return -EINVAL;
			if (!nb_ctl_parse_u32(val, &v, 0) || v > 65535)
				return nb_ctl_wrong(ctl, val, "dstport is a port number");
			opts.dstport = (u16)v;
		} else if (!strcmp(w, "gbp") && !strcmp(kind, "vxlan")) {
			opts.gbp = true;
		} else if (!strcmp(w, "mode") && !strcmp(kind, "ip6tnl")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &j)))
				return -EINVAL;
			if (!strcmp(val, "ipip6") || !strcmp(val, "ipv4/ipv6"))
				opts.mode = IPPROTO_IPIP;
			else if (!strcmp(val, "ip6ip6") || !strcmp(val, "ipv6/ipv6"))
				opts.mode = IPPROTO_IPV6;
			else if (strcmp(val, "any") && strcmp(val, "any/ipv6"))
				return nb_ctl_wrong(ctl, val, "mode is any, ipip6 or ip6ip6");
		} else {
			return nb_ctl_wrong(ctl, w, "netbpf's %s devices take external%s (the "
					    "programs give each packet's key)", kind,
					    tunnel_more_words(kind));
		}
	}
	if (!opts.external)
		return nb_ctl_usage(ctl, "netbpf makes collect-metadata tunnels only: add "
				    "\"external\"");
	err = nb_tunnel_create(name, index, &opts, &dev, &log);
	if (err) {
		nb_ctl_fail(ctl, err, "%.*s", (int)strcspn(nb_log_text(&log), "\n"),
			    nb_log_text(&log));
		nb_log_free(&log);
		return err;
	}
	if (mtu_word) {
		if (!nb_ctl_parse_u32(mtu_word, &v, 0) || nb_dev_set_mtu(dev, v, &log)) {
			err = nb_ctl_wrong(ctl, mtu_word, "%.*s",
					   (int)strcspn(nb_log_text(&log), "\n"), nb_log_text(&log));
			nb_dev_destroy(dev);
		}
	}
	if (!err && mac)
		nb_dev_set_addr(dev, mac);
	nb_log_free(&log);
	return err;
}

/* ageing_time CS, as ip link's bridge words (IFLA_BR_AGEING_TIME, in centiseconds) */
static int bridge_words(struct nb_ctl *ctl, int argc, char **argv, struct nb_bridge_opts *opts)
{
	for (int j = 0; j < argc; j++) {
		const char *val;

		if (strcmp(argv[j], "ageing_time"))
			return nb_ctl_wrong(ctl, argv[j], "netbpf's bridge takes ageing_time "
					    "(centiseconds); it has no STP, VLAN filtering or "
					    "multicast snooping");
		if (!(val = nb_ctl_next(ctl, argc, argv, &j)))
			return -EINVAL;
		if (!nb_ctl_parse_u32(val, &opts->ageing_time, 0))
			return nb_ctl_wrong(ctl, val, "ageing_time is a number of centiseconds");
		opts->set_ageing_time = true;
	}
	return 0;
}

/* link add NAME type bridge [ageing_time CS] */
static int bridge_add(struct nb_ctl *ctl, const char *name, unsigned int index, int argc,
		      char **argv, const char *mtu_word, const u8 *mac)
{
	struct nb_bridge_opts opts = { .sz = sizeof(opts) };
	struct nb_log log = { 0 };
	struct nb_dev *dev;
	unsigned int v;
	int err = bridge_words(ctl, argc, argv, &opts);

	if (err)
		return err;
	err = nb_bridge_create(name, index, &opts, &dev, &log);
	if (err) {
		nb_ctl_fail(ctl, err, "cannot add device \"%s\": %.*s", name,
			    (int)strcspn(nb_log_text(&log), "\n"), nb_log_text(&log));
		nb_log_free(&log);
		return err;
	}
	if (mtu_word && (!nb_ctl_parse_u32(mtu_word, &v, 0) || nb_dev_set_mtu(dev, v, &log))) {
		err = nb_ctl_wrong(ctl, mtu_word, "%.*s", (int)strcspn(nb_log_text(&log), "\n"),
				   nb_log_text(&log));
		nb_dev_destroy(dev);
	}
	nb_log_free(&log);
	if (err)
		return err;
	if (mac)
		nb_dev_set_addr(dev, mac);
	nb_dev_set_up(dev, true);
	return 0;
}

static int link_add(struct nb_ctl *ctl, int argc, char **argv)
{
	const char *name = NULL, *kind = NULL, *peer = NULL, *mtu_word = NULL;
	unsigned int index = 0, mtu = 0;
	struct nb_dev *dev = NULL, *peer_dev = NULL;
	u8 mac[6];
	bool has_mac = false;
	char words[WORDS_MAX] = "";
	int i, err;

	for (i = 0; i < argc && !kind; i++) {
		const char *w = argv[i], *val;

		if (!strcmp(w, "type")) {
			kind = nb_ctl_next(ctl, argc, argv, &i);
			if (!kind)
				return -EINVAL;
			continue;
		}
		if (!strcmp(w, "name") || !strcmp(w, "dev") || !strcmp(w, "index") ||
		    !strcmp(w, "mtu") || !strcmp(w, "address")) {
			val = nb_ctl_next(ctl, argc, argv, &i);
			if (!val)
				return -EINVAL;
			if (w[0] == 'i' && !nb_ctl_parse_u32(val, &index, 0))
				return nb_ctl_wrong(ctl, val, "index is a number");
			else if (w[0] == 'm' && !nb_ctl_parse_u32((mtu_word = val), &mtu, 0))
				return nb_ctl_wrong(ctl, val, "mtu is a number");
			else if (w[0] == 'a' && !(has_mac = nb_port_parse_mac(val, mac)))
				return nb_ctl_wrong(ctl, val, "address is a MAC address");
			else if (w[0] == 'n' || w[0] == 'd')
				name = val;
			continue;
		}
		if (name)
			return nb_ctl_wrong(ctl, w, "expected type, index, mtu or address");
		name = w;
	}
	if (!name)
		return nb_ctl_usage(ctl, "link add needs a NAME");
	if (!kind)
		return nb_ctl_usage(ctl, "link add %s needs \"type KIND\" (gen, sink, pipe, pcap, "
				    "afpacket, afxdp, tap, bridge)", name);
	argc -= i;
	argv += i;
	if (nb_tunnel_kind_known(kind))
		return tunnel_add(ctl, name, index, kind, argc, argv, mtu_word,
				  has_mac ? mac : NULL);
	if (!strcmp(kind, "bridge"))
		return bridge_add(ctl, name, index, argc, argv, mtu_word, has_mac ? mac : NULL);
	if (!strcmp(kind, "gen")) {
		err = gen_words(ctl, argc, argv, words);
	} else if (!strcmp(kind, "sink")) {
		err = 0;
		for (int j = 0; j < argc && !err; j++) {
			const char *w = argv[j], *val = nb_ctl_next(ctl, argc, argv, &j);

			if (!val)
				return -EINVAL;
			if (strcmp(w, "pcap") && strcmp(w, "keep"))
				return nb_ctl_wrong(ctl, w, "expected pcap FILE");
			err = words_add(ctl, words, w, val);
		}
	} else if (!strcmp(kind, "pcap")) {
		err = pcap_words(ctl, argc, argv, words);
	} else if (!strcmp(kind, "pipe") || !strcmp(kind, "veth")) {
		kind = "pipe";
		err = 0;
		for (int j = 0; j < argc; j++) {
			if (strcmp(argv[j], "peer"))
				return nb_ctl_wrong(ctl, argv[j], "expected peer NAME");
			peer = nb_ctl_next(ctl, argc, argv, &j);
			if (peer && !strcmp(peer, "name"))
				peer = nb_ctl_next(ctl, argc, argv, &j);
			if (!peer)
				return -EINVAL;
		}
		if (!peer)
			return nb_ctl_usage(ctl, "type pipe needs \"peer NAME\"");
	} else if (!strcmp(kind, "afpacket") || !strcmp(kind, "afxdp") || !strcmp(kind, "tap")) {
		if (!nb_port_ops_find(kind))
			return nb_ctl_fail(ctl, -EOPNOTSUPP, "port type \"%s\" not built yet", kind);
		err = 0;
		for (int j = 0; j < argc && !err; j++)
			err = words_add(ctl, words, argv[j], NULL);
	} else {
		return nb_ctl_wrong(ctl, kind, "unknown port type, expected gen, sink, pipe, pcap, "
				    "afpacket, afxdp, tap, bridge or a tunnel (vxlan, geneve, ipip, "
				    "ip6tnl, gre, gretap, ip6gre, ip6gretap)");
	}
	if (err)
		return err;

	err = create(ctl, name, index, &dev);
	if (err)
		return err;
	if (peer) {
		err = create(ctl, peer, 0, &peer_dev);
		if (!err) {
			struct nb_log log = { 0 };

			err = nb_dev_pipe_pair(dev, peer_dev, &log);
			if (err)
				nb_ctl_fail(ctl, err, "type pipe: %s", nb_log_text(&log));
			nb_log_free(&log);
		}
	} else {
		err = attach(ctl, dev, kind, words);
	}
	if (!err && mtu) {
		struct nb_log log = { 0 };

		err = nb_dev_set_mtu(dev, mtu, &log);
		if (err)
			nb_ctl_wrong(ctl, mtu_word, "%.*s", (int)strcspn(nb_log_text(&log), "\n"),
				     nb_log_text(&log));
		nb_log_free(&log);
	}
	if (err) {
		if (peer_dev)
			nb_dev_destroy(peer_dev);
		nb_dev_destroy(dev);
		return err;
	}
	if (has_mac)
		nb_dev_set_addr(dev, mac);
	nb_dev_set_up(dev, true);
	if (peer_dev)
		nb_dev_set_up(peer_dev, true);
	return 0;
}

static struct nb_dev *find_dev(struct nb_ctl *ctl, const char *name)
{
	struct nb_dev *dev = nb_dev_get_by_name(name);

	if (!dev)
		nb_ctl_fail(ctl, -ENODEV, "Cannot find device \"%s\"", name);
	return dev;
}

/* master BRIDGE (missing: the word was last) or nomaster */
static int link_set_master(struct nb_ctl *ctl, struct nb_dev *dev, const char *name,
			   bool enslave)
{
	struct nb_log log = { 0 };
	struct nb_dev *br = NULL, *old;
	int err;

	if (enslave) {
		if (!name)
			return nb_ctl_usage(ctl, "master needs a bridge");
		br = find_dev(ctl, name);
		if (!br)
			return -ENODEV;
		if (!nb_dev_is_bridge(br)) {
			nb_dev_put(br);
			return nb_ctl_wrong(ctl, name, "is not a bridge (netbpf's masters are "
					    "bridges)");
		}
		old = nb_bridge_master(dev);
		/* ip link set X master B moves X from the bridge it is in; the same: nothing */
		if (old == br)
			err = 0;
		else if (!(err = nb_bridge_del_port(dev, &log)) || err == -ENOENT)
			err = nb_bridge_add_port(br, dev, &log);
		nb_dev_put(old);
		nb_dev_put(br);
	} else {
		err = nb_bridge_del_port(dev, &log);
		if (err == -ENOENT)	/* iproute2: nomaster of a device without one is fine */
			err = 0;
	}
	if (err)
		nb_ctl_fail(ctl, err, "%s: %.*s", nb_dev_name(dev),
			    (int)strcspn(nb_log_text(&log), "\n"), nb_log_text(&log));
	nb_log_free(&log);
	return err;
}

static int link_set(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_dev *dev;
	int i = 0, err = 0;

	if (argc > 0 && !strcmp(argv[0], "dev"))
		i++;
	if (i >= argc)
		return nb_ctl_usage(ctl, "link set needs a device");
	dev = find_dev(ctl, argv[i]);
	if (!dev)
		return -ENODEV;
	for (i++; i < argc && !err; i++) {
		const char *w = argv[i], *val;
		unsigned int mtu;
		u8 mac[6];

		if (!strcmp(w, "up") || !strcmp(w, "down")) {
			nb_dev_set_up(dev, w[0] == 'u');
		} else if (!strcmp(w, "mtu")) {
			struct nb_log log = { 0 };

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				err = -EINVAL;
			else if (!nb_ctl_parse_u32(val, &mtu, 0))
				err = nb_ctl_wrong(ctl, val, "mtu is a number");
			else if ((err = nb_dev_set_mtu(dev, mtu, &log)))
				nb_ctl_wrong(ctl, val, "%.*s", (int)strcspn(nb_log_text(&log), "\n"),
					     nb_log_text(&log));
			nb_log_free(&log);
		} else if (!strcmp(w, "address")) {
			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				err = -EINVAL;
			else if (!nb_port_parse_mac(val, mac))
				err = nb_ctl_wrong(ctl, val, "address is a MAC address");
			else
				nb_dev_set_addr(dev, mac);
		} else if (!strcmp(w, "master") || !strcmp(w, "nomaster")) {
			err = link_set_master(ctl, dev, w[0] == 'm' ?
					      nb_ctl_next(ctl, argc, argv, &i) : NULL,
					      w[0] == 'm');
		} else if (!strcmp(w, "type")) {
			struct nb_bridge_opts opts = { .sz = sizeof(opts) };
			struct nb_log log = { 0 };

			if (!(val = nb_ctl_next(ctl, argc, argv, &i)))
				err = -EINVAL;
			else if (strcmp(val, "bridge") || !nb_dev_is_bridge(dev))
				err = nb_ctl_wrong(ctl, val, "%s's type is not one that changes "
						   "(only a bridge's ageing_time does)",
						   nb_dev_name(dev));
			else if (!(err = bridge_words(ctl, argc - i - 1, argv + i + 1, &opts)) &&
				 opts.set_ageing_time)
				err = nb_bridge_set_ageing_time(dev, opts.ageing_time, &log);
			nb_log_free(&log);
			i = argc;
		} else {
			err = nb_ctl_wrong(ctl, w, "expected up, down, mtu N, address M, master "
					   "BRIDGE or nomaster");
		}
	}
	nb_dev_put(dev);
	return err;
}

static int link_del(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_dev *dev;
	int i = 0;

	if (argc > 0 && !strcmp(argv[0], "dev"))
		i++;
	if (i >= argc)
		return nb_ctl_usage(ctl, "link del needs a device");
	if (i + 1 < argc)
		return nb_ctl_wrong(ctl, argv[i + 1], "link del takes one device");
	dev = find_dev(ctl, argv[i]);
	if (!dev)
		return -ENODEV;
	nb_dev_destroy(dev);
	nb_dev_put(dev);
	return 0;
}

int nb_ctl_link(struct nb_ctl *ctl, int argc, char **argv)
{
	if (argc < 1 || nb_matches(argv[0], "show") || nb_matches(argv[0], "list"))
		return nb_ctl_link_show(ctl, argc ? argc - 1 : 0, argv + 1);
	if (nb_matches(argv[0], "add"))
		return link_add(ctl, argc - 1, argv + 1);
	if (nb_matches(argv[0], "set"))
		return link_set(ctl, argc - 1, argv + 1);
	if (nb_matches(argv[0], "delete"))
		return link_del(ctl, argc - 1, argv + 1);
	return nb_ctl_wrong(ctl, argv[0], "unknown link command, expected add, set, del or show");
}
