/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The same IP world in the kernel and in netbpf, for the tests that compare routing with the
 * kernel (tests/kernel/test_fib_kernel.c, test_ip_show_kernel.c): a private network namespace
 * with veth pairs, and netbpf devices of the same names, ifindexes and MAC addresses; then
 * script lines (ip addr/route/rule/neigh, ip link set, sysctl) given to the kernel's ip and
 * sysctl tools and to netbpf's command language alike.
 */
#ifndef NB_TEST_FIB_WORLD_H
#define NB_TEST_FIB_WORLD_H

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/wait.h>

#include <netbpf/dev.h>

#include "common/types.h"

#include "ctl/ctl.h"
#include "test.h"

/* Veth pairs vN <-> vNp; the vN carry the addresses, the vNp are only there as in the kernel. */
#define FIB_WORLD_PAIRS 3

/* Run a shell line in this namespace, output discarded: its exit status. */
static inline int fib_world_sh(const char *line)
{
	char cmd[1024];
	int st;

	snprintf(cmd, sizeof(cmd), "%s >/dev/null 2>&1", line);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* One line for netbpf's command language; 0 or its error (the message on stderr). */
static inline int fib_world_nb(const char *line, FILE *out)
{
	struct nb_ctl ctl = { .out = out };
	char **argv = NULL;
	int argc, err;

	err = nb_ctl_split(line, NULL, 0, &argc, &argv, &ctl.log);
	if (!err)
		err = nb_ctl_exec(&ctl, argc, argv);
	if (err)
		fprintf(stderr, "netbpf: %s: %s", line, nb_log_text(&ctl.log));
	free(argv);
	nb_log_free(&ctl.log);
	return err;
}

/* A line both sides must take. */
static inline void fib_world_line(const char *line)
{
	int k = fib_world_sh(line), n;
	FILE *null = fopen("/dev/null", "w");

	NB_ASSERT(null);
	n = fib_world_nb(line, null);
	fclose(null);
	if (k)
		NB_FAIL("the kernel refuses \"%s\" (exit %d)", line, k);
	if (n)
		NB_FAIL("netbpf refuses \"%s\": %d", line, n);
}

static inline void fib_world_lines(const char *const *lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fib_world_line(lines[i]);
}

/*
 * A fresh namespace (skips without root or without iproute2), the veth pairs up in the kernel
 * with fixed MACs and no IPv6 link-local addresses, and their netbpf twins.
 */
static inline void fib_world_enter(void)
{
	char line[256];

	if (geteuid() != 0)
		nb_test_skip("network namespaces need root (uid %u)", (unsigned int)geteuid());
	if (unshare(CLONE_NEWNET))
		nb_test_skip("cannot make a network namespace: %s", strerror(errno));
	if (fib_world_sh("ip -V") || fib_world_sh("sysctl -n net.ipv4.ip_forward"))
		nb_test_skip("iproute2's ip and procps' sysctl are needed");
	for (int i = 1; i <= FIB_WORLD_PAIRS; i++) {
		static const char *const ends[2] = { "", "p" };

		snprintf(line, sizeof(line), "ip link add v%d type veth peer name v%dp", i, i);
		if (fib_world_sh(line))
			nb_test_skip("the kernel cannot make veth pairs");
		for (int e = 0; e < 2; e++) {
			unsigned int ifindex;
			char name[IFNAMSIZ];

			snprintf(name, sizeof(name), "v%d%s", i, ends[e]);
			snprintf(line, sizeof(line),
				 "ip link set dev %s address 02:00:00:00:%02x:%02x addrgenmode none",
				 name, i, e ? 0xee : 0x01);
			NB_ASSERT_EQ(fib_world_sh(line), 0);
			ifindex = if_nametoindex(name);
			NB_ASSERT(ifindex);
			snprintf(line, sizeof(line),
				 "link add %s index %u address 02:00:00:00:%02x:%02x type sink",
				 name, ifindex, i, e ? 0xee : 0x01);
			NB_ASSERT_EQ(fib_world_nb(line, stderr), 0);
		}
		for (int e = 0; e < 2; e++) {
			snprintf(line, sizeof(line), "ip link set dev v%d%s up", i, ends[e]);
			NB_ASSERT_EQ(fib_world_sh(line), 0);
		}
	}
}

/* The world both sides get: devices' switches and MTUs, addresses, neighbours, routes. */
static const char *const world[] __attribute__((unused)) = {
	"ip link set dev v3 mtu 1280",
	"sysctl -q -w net.ipv4.conf.v1.forwarding=1",
	"sysctl -q -w net.ipv6.conf.v1.forwarding=1",
	"sysctl -q -w net.ipv4.conf.v3.forwarding=1",
	"sysctl -q -w net.ipv6.conf.v3.forwarding=1",
	"ip addr add 10.1.0.1/24 dev v1",
	"ip addr add 10.1.0.5/24 dev v1",
	"ip addr add 10.2.0.1/24 dev v2",
	"ip addr add 10.3.0.1/24 dev v3",
	"ip addr add 10.3.1.1/24 dev v3",
	"ip -6 addr add 2001:db8:1::1/64 dev v1 nodad",
	"ip -6 addr add 2001:db8:2::1/64 dev v2 nodad",
	"ip -6 addr add 2001:db8:3::1/64 dev v3 nodad",
	"ip -6 addr add fd00:3::1/64 dev v3 nodad",
	"ip neigh add 10.2.0.2 lladdr 02:00:00:00:02:02 dev v2 nud permanent",
	"ip neigh add 10.2.0.3 lladdr 02:00:00:00:02:03 dev v2 nud stale",
	"ip neigh add 10.2.0.4 dev v2 nud failed",
	"ip neigh add 10.2.0.9 lladdr 02:00:00:00:02:09 dev v2 nud noarp",
	"ip neigh add 10.3.0.2 lladdr 02:00:00:00:03:02 dev v3 nud reachable",
	"ip neigh add 10.3.0.3 lladdr 02:00:00:00:03:03 dev v3 nud permanent",
	"ip neigh add 10.16.0.9 lladdr 02:00:00:00:03:09 dev v3 nud permanent",
	"ip -6 neigh add 2001:db8:2::2 lladdr 02:00:00:00:02:22 dev v2 nud permanent",
	"ip -6 neigh add 2001:db8:2::3 lladdr 02:00:00:00:02:23 dev v2 nud stale",
	"ip -6 neigh add 2001:db8:2::4 dev v2 nud failed",
	"ip -6 neigh add 2001:db8:2::9 lladdr 02:00:00:00:02:29 dev v2 nud permanent",
	"ip -6 neigh add 2001:db8:3::2 lladdr 02:00:00:00:03:22 dev v3 nud reachable router",
	"ip -6 neigh add 2001:db8:15::9 lladdr 02:00:00:00:03:29 dev v3 nud permanent",
	"ip route add 10.10.0.0/16 via 10.2.0.2",
	"ip route add 10.11.0.0/16 via 10.2.0.3",
	"ip route add 10.12.0.0/16 via 10.2.0.4",
	"ip route add 10.13.0.0/16 via 10.2.0.5",
	"ip route add 10.14.0.0/16 via 10.3.0.2 mtu lock 1200",
	"ip route add 10.15.0.0/16 via 10.3.0.2 mtu 1100",
	"ip route add 10.16.0.0/16 dev v3",
	"ip route add 10.16.0.0/24 via 10.2.0.2",
	"ip route add 10.17.0.0/16 via 10.2.0.2 metric 10",
	"ip route add 10.17.0.0/16 via 10.3.0.3 metric 5",
	"ip route add 10.18.0.0/16 via 10.2.0.2 src 10.1.0.5",
	"ip route add blackhole 10.20.0.0/16",
	"ip route add unreachable 10.21.0.0/16",
	"ip route add prohibit 10.22.0.0/16",
	"ip route add 10.30.0.0/16 via 10.3.0.2 table 100",
	"ip route add 10.31.0.0/16 via 10.3.0.3 table 200",
	"ip route add blackhole 10.10.5.0/24 table 100",
	"ip route add default via 10.2.0.9",
	"ip -6 route add 2001:db8:10::/48 via 2001:db8:2::2",
	"ip -6 route add 2001:db8:11::/48 via 2001:db8:2::3",
	"ip -6 route add 2001:db8:12::/48 via 2001:db8:2::4",
	"ip -6 route add 2001:db8:13::/48 via 2001:db8:2::5",
	"ip -6 route add 2001:db8:14::/48 via 2001:db8:3::2 mtu lock 1300",
	"ip -6 route add 2001:db8:15::/48 dev v3",
	"ip -6 route add 2001:db8:17::/48 via 2001:db8:2::2 metric 10",
	"ip -6 route add 2001:db8:17::/48 via 2001:db8:3::2 metric 5",
	"ip -6 route add 2001:db8:18::/48 via 2001:db8:2::2 src 2001:db8:1::1",
	"ip -6 route add blackhole 2001:db8:20::/48",
	"ip -6 route add unreachable 2001:db8:21::/48",
	"ip -6 route add prohibit 2001:db8:22::/48",
	"ip -6 route add 2001:db8:30::/48 via 2001:db8:3::2 table 100",
	"ip -6 route add blackhole 2001:db8:10:5::/64 table 100",
	"ip -6 route add default via 2001:db8:2::9",
	"ip -6 route add 2001:db8:60::/48 dev v2",
	"ip -6 route add 2001:db8:61::1/48 dev v2",
};

/* Policy rules (after which IPv4's main and local tables are no longer one). */
static const char *const rules[] __attribute__((unused)) = {
	"ip rule add fwmark 7 lookup 100 prio 100",
	"ip rule add fwmark 8/0xf lookup 200 prio 101",
	"ip rule add from 10.99.0.0/16 lookup 200 prio 102",
	"ip rule add iif v3 lookup 100 prio 103",
	"ip rule add to 10.40.0.0/16 prohibit prio 104",
	"ip rule add iif lo lookup 200 prio 105",
	"ip rule add from 10.98.1.1/16 lookup 200 prio 106",
	"ip -6 rule add fwmark 7 lookup 100 prio 100",
	"ip -6 rule add to 2001:db8:40::/48 unreachable prio 104",
	"ip -6 rule add iif v3 lookup 100 prio 103",
};

/* A device going down takes its routes and neighbours (and IPv6 addresses) along. */
static const char *const down[] __attribute__((unused)) = {
	"ip link set dev v3 down",
};

/* No IPv6 address left to take a source from (BPF_FIB_LKUP_RET_NO_SRC_ADDR). */
static const char *const no_addr6[] __attribute__((unused)) = {
	"ip -6 addr flush dev v1",
	"ip -6 addr flush dev v2",
};

#endif /* NB_TEST_FIB_WORLD_H */
