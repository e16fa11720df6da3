// SPDX-License-Identifier: GPL-2.0
/*
 * "help" after any word of the command language: `tc help`, `tc filter help`, `ip link help`,
 * `ip -6 route help`, `link help`, `map help`. As in iproute2, help may follow the object or its
 * sub-object, and prints that word's usage. Here it goes to the show output with success (a
 * user who asks for help is not in error; iproute2 prints to stderr and exits 255 for some
 * objects, 0 for others); under -j the output is bpftool's answer to help, `null`, so that
 * stdout stays one JSON document.
 *
 * The texts live here, in one place, rather than beside each parser: they are what users read,
 * and the README's command sections are written from the same lines. The one exception is the
 * tc kinds: each classifier and action carries its own words (its ops' usage, as iproute2's
 * explain()), so that a new kind is one file, its help included.
 */
#include <stdio.h>
#include <string.h>

#include <netbpf/tc.h>

#include "ctl/args.h"
#include "ctl/ctl.h"
#include "common/types.h"

static const char usage_link[] =
	"Usage: link add [name] NAME [index N] [mtu N] [address LLADDR] type TYPE [ARGS]\n"
	"       link set [dev] DEV { up | down | mtu N | address LLADDR }...\n"
	"       link { del | delete } [dev] DEV\n"
	"       link show [[dev] DEV]                   (-s: counters, -j: JSON)\n"
	"TYPE [ARGS] := gen [count N] [size BYTES] [rate PPS] [flows N] [proto udp|tcp|icmp|arp]\n"
	"                   [ipv6] [vlan ID] [src-mac M] [dst-mac M] [queues N]\n"
	"                   [mode patch|copy]\n"
	"             | sink [pcap FILE] | pipe peer NAME | pcap [read FILE] [write FILE]\n"
	"             | afpacket dev IFNAME [queues N] [tx ring|sendmmsg] [promisc on|off]\n"
	"                   [offload on|off]\n"
	"             | afxdp dev IFNAME [queues N] [mode skb|drv] [copy|zerocopy]\n"
	"             | tap dev IFNAME [queues N] [offload on|off]\n"
	"             | { vxlan | geneve } external [dstport N]\n"
	"             | { ipip | gre | gretap | ip6gre | ip6gretap } external\n"
	"             | ip6tnl external [mode any|ipip6|ip6ip6]\n"
	"             | bridge [ageing_time CENTISECONDS]\n"
	"       link set [dev] DEV { master BRIDGE | nomaster }\n"
	"       link set [dev] BRIDGE type bridge ageing_time CENTISECONDS\n";

static const char usage_bridge[] =
	"Usage: bridge [ -j[son] | -p[retty] ] OBJECT { COMMAND | help }\n"
	"       bridge fdb show [br BRIDGE] [dev DEV]\n"
	"       bridge fdb { add | append | replace } LLADDR dev DEV [master] [self]\n"
	"                  [permanent | static | dynamic]\n"
	"       bridge fdb { del | delete } LLADDR dev DEV [master]\n"
	"       bridge link show [dev DEV]\n";

static const char usage_ip[] =
	"Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n"
	"where  OBJECT := { link | address | route | rule | neighbour }\n"
	"       OPTIONS := { -4 | -6 | -f[amily] { inet | inet6 } | -s[tatistics] | -j[son] |\n"
	"                    -p[retty] | -d[etails] | -force }\n";

static const char usage_ip_link[] =
	"Usage: ip link add [name] NAME [index N] [mtu N] [address LLADDR] type TYPE [ARGS]\n"
	"       ip link set [dev] DEV { up | down | mtu N | address LLADDR }...\n"
	"       ip link set [dev] DEV { xdp | xdpgeneric | xdpdrv } { obj FILE [sec NAME]\n"
	"                   [program NAME] [max-entries MAP=N]... | off }\n"
	"       ip link { del | delete } [dev] DEV\n"
	"       ip link show [[dev] DEV]\n"
	"TYPE := { gen | sink | pipe | pcap | afpacket | afxdp | tap | vxlan | geneve | ipip |\n"
	"          gre | gretap | ip6tnl | ip6gre | ip6gretap | bridge }\n"
	"          (link help: each TYPE's ARGS)\n";

static const char usage_ip_addr[] =
	"Usage: ip address { add | del } IFADDR dev DEV [broadcast ADDR|+] [scope SCOPE]\n"
	"                  [label LABEL] [nodad] [noprefixroute]\n"
	"       ip address show [[dev] DEV]\n"
	"       ip address flush [dev] DEV\n";

static const char usage_ip_route[] =
	"Usage: ip route { add | replace | change | del } [TYPE] PREFIX [via ADDR] [dev DEV]\n"
	"                [metric N] [src ADDR] [table T] [proto P] [scope S] [mtu [lock] N]\n"
	"                [onlink]\n"
	"       ip route { show | flush } [table T|all] [type T] [dev DEV] [proto P] [scope S]\n"
	"                [via ADDR] [[root|match|exact] PREFIX]\n"
	"       ip route get ADDR [from ADDR] [iif DEV] [oif DEV] [mark N]\n"
	"TYPE := { unicast | local | broadcast | blackhole | unreachable | prohibit | throw }\n";

static const char usage_ip_rule[] =
	"Usage: ip rule { add | del } [not] [from PREFIX] [to PREFIX] [fwmark MARK[/MASK]]\n"
	"               [iif DEV] [oif DEV] [prio N] { lookup TABLE | blackhole | unreachable |\n"
	"               prohibit }\n"
	"       ip rule show\n";

static const char usage_ip_neigh[] =
	"Usage: ip neigh { add | replace | change } ADDR [lladdr LLADDR] dev DEV [nud STATE]\n"
	"                [router]\n"
	"       ip neigh del ADDR dev DEV\n"
	"       ip neigh show [dev DEV] [nud STATE|all]\n"
	"       ip neigh flush dev DEV\n";

static const char usage_tc[] =
	"Usage: tc [ OPTIONS ] OBJECT { COMMAND | help }\n"
	"where  OBJECT := { qdisc | filter | actions }\n"
	"       OPTIONS := { -s[tatistics] | -j[son] | -p[retty] | -d[etails] }\n";

static const char usage_tc_qdisc[] =
	"Usage: tc qdisc { add | replace | del } dev DEV [handle ffff:] [parent ...]\n"
	"                { clsact | ingress }\n"
	"       tc qdisc show [[dev] DEV]\n";

static const char usage_tc_filter[] =
	"Usage: tc filter { add | replace | change | del } dev DEV [ingress | egress | root |\n"
	"                 parent M:N] [protocol P] [pref N] [handle H] [chain C] [KIND [OPTIONS]]\n"
	"       tc filter show [dev] DEV [ingress | egress]\n"
	"KIND [OPTIONS] :=\n";

static const char usage_tc_actions[] =
	"Usage: tc actions { add | replace | change } action ACTION [action ACTION]...\n"
	"       tc actions { get | del } action KIND index N [action KIND index N]...\n"
	"       tc actions { list | ls | show | flush } action KIND\n";

/*
 * The kinds a registry lists, each with the words its own file gives (adding a kind adds its
 * help): the first after first, the others after sep. Returns what goes before the next
 * alternative (first when no kind has words).
 */
static const char *print_kinds(FILE *f, const char *const *kinds,
			       const char *(*usage)(const char *kind), const char *first,
			       const char *sep)
{
	for (; *kinds; kinds++) {
		const char *u = usage(*kinds);

		if (!u)
			continue;
		fprintf(f, "%s%s", first, u);
		first = sep;
	}
	return first;
}

static void print_tc_filter(FILE *f)
{
	fputs(usage_tc_filter, f);
	print_kinds(f, nb_tc_filter_kinds(), nb_tc_filter_usage, "   ", " | ");
	fputs("(tc actions help: the actions)\n", f);
}

static void print_tc_actions(FILE *f)
{
	const char *sep;

	fputs(usage_tc_actions, f);
	sep = print_kinds(f, nb_tc_action_kinds(), nb_tc_action_usage, "ACTION := { ",
			  "          | ");
	fprintf(f, "%sKIND index N } [index N] [no_percpu]\n", sep);
	fputs("VERDICT := { pass | ok | drop | shot | pipe | reclassify | continue | trap |\n"
	      "             goto chain N | jump N }\n", f);
}

static const char usage_map[] =
	"Usage: map { show | list } [MAP]\n"
	"       map dump MAP\n"
	"       map lookup MAP key [hex] BYTES\n"
	"       map getnext MAP [key [hex] BYTES]\n"
	"       map update MAP key [hex] BYTES value [hex] BYTES [any | noexist | exist]\n"
	"       map update MAP file FILE [any | noexist | exist]\n"
	"       map delete MAP key [hex] BYTES\n"
	"MAP := { id ID | name NAME | pinned PATH }\n";

static const char usage_prog[] =
	"Usage: prog { show | list } [PROG]\n"
	"       prog dump xlated PROG [opcodes] [linum]\n"
	"PROG := { id ID | name NAME | tag TAG }\n";

static const char usage_sysctl[] =
	"Usage: sysctl [-w] [-q] NAME[=VALUE]...\n"
	"NAME := { net.ipv4.conf.{all|default|DEV}.forwarding | net.ipv6.conf.{...}.forwarding |\n"
	"          net.ipv4.ip_forward_use_pmtu | ... }\n";

static const char usage_stats[] =
	"Usage: stats        the datapath's devices, drops, filters, actions and workers\n";

static const char usage_monitor[] =
	"Usage: monitor [count N] [interval S]     a daemon's rates, a line every S seconds\n";

/*
 * The words before "help": the object, then (for ip and tc) the sub-object, each matched as
 * iproute2 matches it (a prefix; the names in full that its parser takes in full).
 */
struct help {
	const char *word;
	const char *sub;	/* NULL: the object itself */
	const char *usage;
	void (*print)(FILE *f);	/* instead of usage: a text made from the registries */
};

static const struct help helps[] = {
	{ "link", NULL, usage_link, NULL },
	{ "bridge", NULL, usage_bridge, NULL },
	{ "bridge", "fdb", usage_bridge, NULL },
	{ "bridge", "link", usage_bridge, NULL },
	{ "ip", NULL, usage_ip, NULL },
	{ "ip", "link", usage_ip_link, NULL },
	{ "ip", "address", usage_ip_addr, NULL },
	{ "ip", "route", usage_ip_route, NULL },
	{ "ip", "rule", usage_ip_rule, NULL },
	{ "ip", "neighbour", usage_ip_neigh, NULL },
	{ "ip", "neighbor", usage_ip_neigh, NULL },
	{ "tc", NULL, usage_tc, NULL },
	{ "tc", "qdisc", usage_tc_qdisc, NULL },
	{ "tc", "filter", NULL, print_tc_filter },
	{ "tc", "filters", NULL, print_tc_filter },
	{ "tc", "actions", NULL, print_tc_actions },
	{ "tc", "action", NULL, print_tc_actions },
	{ "map", NULL, usage_map, NULL },
	{ "prog", NULL, usage_prog, NULL },
	{ "prog", "show", usage_prog, NULL },
	{ "prog", "list", usage_prog, NULL },
	{ "prog", "dump", usage_prog, NULL },
	{ "sysctl", NULL, usage_sysctl, NULL },
	{ "stats", NULL, usage_stats, NULL },
	{ "monitor", NULL, usage_monitor, NULL },
};

static bool is_help(const char *w)
{
	return nb_matches(w, "help") || !strcmp(w, "--help");
}

/* The usage that the line asks for, or NULL; *json when its own options include -j. */
static const struct help *usage_text(int argc, char **argv, bool *json)
{
	int i = 1;

	if (argc < 1)
		return NULL;
	/* ip's and tc's own options come before the object: ip -6 route help */
	if (!strcmp(argv[0], "ip") || !strcmp(argv[0], "tc") || !strcmp(argv[0], "bridge")) {
		for (; i < argc && argv[i][0] == '-' && !is_help(argv[i]); i++)
			if (nb_matches(argv[i] + 1 + (argv[i][1] == '-'), "json"))
				*json = true;
	}
	if (i >= argc)
		return NULL;
	for (size_t h = 0; h < ARRAY_SIZE(helps); h++) {
		if (strcmp(argv[0], helps[h].word))
			continue;
		if (!helps[h].sub && is_help(argv[i]))
			return &helps[h];
		if (helps[h].sub && i + 1 < argc && nb_matches(argv[i], helps[h].sub) &&
		    is_help(argv[i + 1]))
			return &helps[h];
	}
	return NULL;
}

bool nb_ctl_help(struct nb_ctl *ctl, int argc, char **argv)
{
	bool json = ctl->json;
	const struct help *help = usage_text(argc, argv, &json);

	if (!help)
		return false;
	if (json)
		fputs("null\n", ctl->out);
	else if (help->print)
		help->print(ctl->out);
	else
		fputs(help->usage, ctl->out);
	return true;
}
