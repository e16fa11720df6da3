// SPDX-License-Identifier: GPL-2.0
/*
 * The IP layer without the kernel (tests/kernel/test_fib_kernel.c and test_ip_show_kernel.c
 * hold it to the kernel where root allows): script lines build addresses, routes, rules and
 * neighbours; lookups (nb_fib_lookup) and the words' show output and errors are checked
 * against what the kernel gives for the same lines.
 */
#include <errno.h>
#include <stdlib.h>
#include <arpa/inet.h>
#include <linux/rtnetlink.h>

#include <netbpf/dev.h>
#include <netbpf/neigh.h>
#include <netbpf/route.h>

#include "bpf/epoch.h"
#include "ctl/ctl.h"
#include "net/fib.h"
#include "test.h"

/* Run lines; returns the error of the first failing one, its message in *msg (freed by us). */
static int script(const char *text, char **out)
{
	static char msg[512];
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct nb_ctl ctl = { .out = f };
	int err;

	NB_ASSERT(f);
	err = nb_ctl_script_run(&ctl, "t.tc", text, NULL, 0);
	snprintf(msg, sizeof(msg), "%s", nb_log_text(&ctl.log));
	nb_log_free(&ctl.log);
	fclose(f);
	if (out)
		*out = buf;
	else
		free(buf);
	if (err)
		fprintf(stderr, "%s", msg);
	return err;
}

static void ok(const char *text)
{
	if (script(text, NULL))
		NB_FAIL("\"%s\" failed", text);
}

static void show_is(const char *cmd, const char *want)
{
	char *got;

	NB_ASSERT_EQ(script(cmd, &got), 0);
	if (strcmp(got, want))
		NB_FAIL("%s:\n%s--- want\n%s", cmd, got, want);
	free(got);
}

static const struct nb_route *lookup4(const char *dst, u32 oif, u32 mark, int *err)
{
	struct nb_flowi fl = { .family = AF_INET, .iif = 1, .oif = oif, .mark = mark };
	static struct nb_fib_result res;

	fl.daddr.v4 = inet_addr(dst);
	*err = nb_fib_lookup(&fl, &res);
	return *err ? NULL : res.rt;
}

static const char *const world =
	"link add a index 2 type sink\n"
	"link add b index 3 type sink\n"
	"ip addr add 10.1.0.1/24 dev a\n"
	"ip addr add 10.2.0.1/24 dev b\n"
	"ip route add 10.10.0.0/16 via 10.1.0.2\n"
	"ip route add 10.10.0.0/24 via 10.2.0.2\n"
	"ip route add 10.11.0.0/16 via 10.1.0.2 metric 10\n"
	"ip route add 10.11.0.0/16 via 10.2.0.2 metric 5\n"
	"ip route add blackhole 10.20.0.0/16\n"
	"ip route add unreachable 10.21.0.0/16\n"
	"ip route add prohibit 10.22.0.0/16\n"
	"ip route add 10.30.0.0/16 via 10.2.0.9 table 100\n";

NB_TEST(fib_longest_prefix_metric_and_reject_routes)
{
	const struct nb_route *rt;
	int err;

	ok(world);
	nb_epoch_read_lock();
	rt = lookup4("10.10.0.5", 0, 0, &err);	/* /24 beats /16 */
	NB_ASSERT(rt && rt->dst_len == 24 && rt->gw.v4 == inet_addr("10.2.0.2"));
	rt = lookup4("10.10.1.5", 0, 0, &err);
	NB_ASSERT(rt && rt->dst_len == 16 && rt->oif == 2);
	rt = lookup4("10.11.1.1", 0, 0, &err);	/* the lower metric */
	NB_ASSERT(rt && rt->metric == 5 && rt->oif == 3);
	rt = lookup4("10.11.1.1", 2, 0, &err);	/* IPv4: the output device must be the route's */
	NB_ASSERT(rt && rt->metric == 10 && rt->oif == 2);
	lookup4("10.20.1.1", 0, 0, &err);
	NB_ASSERT_EQ(err, -EINVAL);
	lookup4("10.21.1.1", 0, 0, &err);
	NB_ASSERT_EQ(err, -EHOSTUNREACH);
	lookup4("10.22.1.1", 0, 0, &err);
	NB_ASSERT_EQ(err, -EACCES);
	lookup4("10.30.1.1", 0, 0, &err);	/* only table 100 has it */
	NB_ASSERT_EQ(err, -ENETUNREACH);
	rt = lookup4("10.1.0.1", 0, 0, &err);	/* the address's local route */
	NB_ASSERT(rt && rt->type == RTN_LOCAL && rt->table == RT_TABLE_LOCAL);
	rt = lookup4("10.1.0.255", 0, 0, &err);
	NB_ASSERT(rt && rt->type == RTN_BROADCAST);
	nb_epoch_read_unlock();

	/* a rule sends marked flows to table 100 */
	ok("ip rule add fwmark 3 lookup 100 prio 10\n");
	nb_epoch_read_lock();
	rt = lookup4("10.30.1.1", 0, 3, &err);
	NB_ASSERT(rt && rt->table == 100 && rt->oif == 3);
	lookup4("10.30.1.1", 0, 4, &err);
	NB_ASSERT_EQ(err, -ENETUNREACH);
	nb_epoch_read_unlock();
	nb_dev_destroy_all();
}

NB_TEST(fib_words_errors_as_iproute2)
{
	char *out;

	ok(world);
	/* the same key again, a gateway off every link, a device that is no more */
	NB_ASSERT_EQ(script("ip route add 10.10.0.0/16 via 10.1.0.3\n", NULL), -EEXIST);
	NB_ASSERT_EQ(script("ip route add 10.12.0.0/16 via 10.9.9.9\n", NULL), -ENETUNREACH);
	NB_ASSERT_EQ(script("ip route add 10.12.0.0/16 dev nope\n", NULL), -ENODEV);
	NB_ASSERT_EQ(script("ip route del 10.99.0.0/16\n", NULL), -ESRCH);
	NB_ASSERT_EQ(script("ip route add 10.12.0.1/16 dev a\n", NULL), -EINVAL);
	NB_ASSERT_EQ(script("ip route add 10.12.0.0/16 dev a src 10.9.9.9\n", NULL), -EINVAL);
	NB_ASSERT_EQ(script("ip route append 10.12.0.0/16 dev a\n", NULL), -EINVAL);
	NB_ASSERT_EQ(script("ip route add 10.12.0.0/16 nexthop via 10.1.0.2\n", NULL), -EINVAL);
	NB_ASSERT_EQ(script("ip neigh add 10.1.0.2 dev a\n", NULL), -EINVAL);	/* no lladdr */
	NB_ASSERT_EQ(script("ip addr add 10.1.0.1/24 dev a\n", NULL), -EEXIST);
	/* replace changes the route of the same key, onlink reaches any gateway */
	ok("ip route replace 10.10.0.0/16 via 10.2.0.7\n"
	   "ip route add 10.12.0.0/16 via 10.9.9.9 dev b onlink\n"
	   "ip route del 10.22.0.0/16\n");
	show_is("ip route show\n",
		"10.1.0.0/24 dev a proto kernel scope link src 10.1.0.1 \n"
		"10.2.0.0/24 dev b proto kernel scope link src 10.2.0.1 \n"
		"10.10.0.0/24 via 10.2.0.2 dev b \n"
		"10.10.0.0/16 via 10.2.0.7 dev b \n"
		"10.11.0.0/16 via 10.2.0.2 dev b metric 5 \n"
		"10.11.0.0/16 via 10.1.0.2 dev a metric 10 \n"
		"10.12.0.0/16 via 10.9.9.9 dev b onlink \n"
		"blackhole 10.20.0.0/16 \n"
		"unreachable 10.21.0.0/16 \n");
	/* a device going down takes its routes; up again, its addresses' come back */
	ok("ip link set dev b down\n");
	show_is("ip route show\n",
		"10.1.0.0/24 dev a proto kernel scope link src 10.1.0.1 \n"
		"10.11.0.0/16 via 10.1.0.2 dev a metric 10 \n"
		"blackhole 10.20.0.0/16 \n"
		"unreachable 10.21.0.0/16 \n");
	ok("ip link set dev b up\n");
	NB_ASSERT_EQ(script("ip route show dev b\n", &out), 0);
	NB_ASSERT_STR_CONTAINS(out, "10.2.0.0/24 proto kernel scope link src 10.2.0.1");
	free(out);
	nb_dev_destroy_all();
}

NB_TEST(fib_neigh_rule_addr_show)
{
	ok("link add a index 2 type sink\n"
	   "ip addr add 10.1.0.1/24 brd + dev a\n"
	   "ip addr add 10.1.0.7/24 dev a\n"
	   "ip -6 addr add 2001:db8::1/64 dev a\n"
	   "ip neigh add 10.1.0.2 lladdr 02:00:00:00:00:02 dev a\n"
	   "ip neigh add 10.1.0.3 lladdr 02:00:00:00:00:03 dev a nud stale\n"
	   "ip neigh add 10.1.0.4 dev a nud failed\n"
	   "ip neigh replace 10.1.0.3 lladdr 02:00:00:00:00:33 dev a nud reachable\n"
	   "ip -6 neigh add 2001:db8::2 lladdr 02:00:00:00:00:22 dev a router\n"
	   "ip rule add from 10.9.0.0/16 lookup 7\n"
	   "ip rule add not fwmark 0x10/0xf0 blackhole prio 5\n");
	show_is("ip neigh show\n",
		"10.1.0.2 dev a lladdr 02:00:00:00:00:02 PERMANENT \n"
		"10.1.0.3 dev a lladdr 02:00:00:00:00:33 REACHABLE \n"
		"10.1.0.4 dev a FAILED \n"
		"2001:db8::2 dev a lladdr 02:00:00:00:00:22 router PERMANENT \n");
	show_is("ip rule show\n",
		"0:\tfrom all lookup local\n"
		"5:\tnot from all fwmark 0x10/0xf0 blackhole\n"
		"32765:\tfrom 10.9.0.0/16 lookup 7\n"
		"32766:\tfrom all lookup main\n"
		"32767:\tfrom all lookup default\n");
	show_is("ip -4 addr show dev a\n",
		"2: a: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP group "
		"default qlen 1000\n"
		"    link/ether 02:6e:62:00:00:02 brd ff:ff:ff:ff:ff:ff\n"
		"    inet 10.1.0.1/24 brd 10.1.0.255 scope global a\n"
		"       valid_lft forever preferred_lft forever\n"
		"    inet 10.1.0.7/24 scope global secondary a\n"
		"       valid_lft forever preferred_lft forever\n");
	/* deleting the primary takes the secondary (promote_secondaries is off) */
	ok("ip addr del 10.1.0.1/24 dev a\nip neigh del 10.1.0.4 dev a\n");
	show_is("ip -4 addr show\n", "");
	NB_ASSERT_EQ(script("ip neigh del 10.1.0.4 dev a\n", NULL), -ENOENT);
	show_is("ip -j neigh show dev a nud reachable\n",
		"[{\"dst\":\"10.1.0.3\",\"lladdr\":\"02:00:00:00:00:33\",\"state\":[\"REACHABLE\"]}]\n");
	nb_dev_destroy_all();
}

NB_TEST(fib_sysctl_forwarding)
{
	ok("link add a type sink\n");
	show_is("sysctl net.ipv4.conf.a.forwarding net.ipv6.conf.all.forwarding\n",
		"net.ipv4.conf.a.forwarding = 0\nnet.ipv6.conf.all.forwarding = 0\n");
	/* all: every device and the ones made later */
	ok("sysctl -w -q net.ipv4.conf.all.forwarding=1\nlink add b type sink\n");
	show_is("sysctl net.ipv4.conf.a.forwarding net.ipv4.conf.b.forwarding "
		"net.ipv4.ip_forward\n",
		"net.ipv4.conf.a.forwarding = 1\nnet.ipv4.conf.b.forwarding = 1\n"
		"net.ipv4.ip_forward = 1\n");
	show_is("sysctl -w net.ipv4.conf.b.forwarding=0\n", "net.ipv4.conf.b.forwarding = 0\n");
	NB_ASSERT_EQ(script("sysctl net.ipv4.conf.nope.forwarding\n", NULL), -ENOENT);
	NB_ASSERT_EQ(script("sysctl -w net.ipv4.ip_forward=2\n", NULL), -EINVAL);
	nb_dev_destroy_all();
}
