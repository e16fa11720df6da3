// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf's ip addr/route/rule/neigh show against iproute2 on the kernel: the world of
 * fib_world.h in a private namespace and in netbpf, then each show command's output from both,
 * line for line. Two things are left out of the kernel's side, each a known difference:
 * IPv6 multicast routes (the kernel's "multicast ff00::/8" per device, which netbpf does not
 * make) and the device lines of ip addr show (netbpf's devices are not the kernel's veths:
 * only the address lines are compared). Neighbours are compared as sorted sets: the kernel
 * lists them in its hash order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fib_world.h"
#include "test.h"

#define OUT_MAX (64 * 1024)

enum cmp_mode {
	CMP_LINES,	/* every line, in order */
	CMP_SORTED,	/* every line, as a set */
	CMP_ADDRS,	/* the address lines of ip addr show only */
};

static bool keep_line(const char *line, enum cmp_mode mode, bool kernel)
{
	if (kernel && !strncmp(line, "multicast ff00::/8 ", 19))
		return false;
	if (mode == CMP_ADDRS)
		return !strncmp(line, "    inet", 8) || !strncmp(line, "       valid_lft", 16);
	return true;
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The kept lines of text, sorted when asked, joined again. */
static char *normalize(char *text, enum cmp_mode mode, bool kernel)
{
	char **lines = calloc(4096, sizeof(*lines)), *out = calloc(1, OUT_MAX), *save = NULL;
	size_t n = 0, len = 0;

	NB_ASSERT(lines && out);
	for (char *l = strtok_r(text, "\n", &save); l && n < 4096; l = strtok_r(NULL, "\n", &save))
		if (keep_line(l, mode, kernel))
			lines[n++] = l;
	if (mode == CMP_SORTED)
		qsort(lines, n, sizeof(*lines), cmp_lines);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(out + len, OUT_MAX - len, "%s\n", lines[i]);
	free(lines);
	return out;
}

static char *kernel_output(const char *cmd)
{
	char *buf = calloc(1, OUT_MAX);
	FILE *p = popen(cmd, "r");
	size_t n;

	NB_ASSERT(buf && p);
	n = fread(buf, 1, OUT_MAX - 1, p);
	buf[n] = '\0';
	NB_ASSERT_EQ(pclose(p), 0);
	return buf;
}

static char *netbpf_output(const char *cmd)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	NB_ASSERT(out);
	NB_ASSERT_EQ(fib_world_nb(cmd, out), 0);
	fclose(out);
	return buf;
}

static const struct {
	const char *cmd;
	enum cmp_mode mode;
} shows[] = {
	{ "ip route show", CMP_LINES },
	{ "ip route show table all", CMP_LINES },
	{ "ip route show table local", CMP_LINES },
	{ "ip route show table 100", CMP_LINES },
	{ "ip -6 route show", CMP_LINES },
	{ "ip -6 route show table local", CMP_LINES },
	{ "ip -6 route show table all", CMP_LINES },
	{ "ip route show 10.16.0.0/16", CMP_LINES },
	{ "ip route show root 10.16.0.0/16", CMP_LINES },
	{ "ip route show match 10.16.0.9", CMP_LINES },
	{ "ip route show dev v2", CMP_LINES },
	{ "ip route show proto kernel", CMP_LINES },
	{ "ip route show type blackhole", CMP_LINES },
	{ "ip route show scope link table all", CMP_LINES },
	{ "ip route show via 10.2.0.2", CMP_LINES },
	{ "ip -6 route show via 2001:db8:2::2", CMP_LINES },
	{ "ip -j route show", CMP_LINES },
	{ "ip -j -6 route show", CMP_LINES },
	{ "ip rule show", CMP_LINES },
	{ "ip -6 rule show", CMP_LINES },
	{ "ip -j rule show", CMP_LINES },
	{ "ip neigh show", CMP_SORTED },
	{ "ip -6 neigh show", CMP_SORTED },
	{ "ip neigh show dev v2", CMP_SORTED },
	{ "ip neigh show nud stale", CMP_SORTED },
	{ "ip addr show dev v1", CMP_ADDRS },
	{ "ip addr show dev v3", CMP_ADDRS },
	{ "ip -4 addr show", CMP_ADDRS },
	{ "ip -6 addr show", CMP_ADDRS },
	{ "sysctl net.ipv4.conf.v1.forwarding net.ipv6.conf.v2.forwarding", CMP_LINES },
	{ "sysctl net.ipv4.conf.all.forwarding net.ipv4.conf.default.forwarding", CMP_LINES },
};

/* Every show command; returns how many differed (the first lines of each are printed). */
static unsigned int compare_shows(const char *phase)
{
	unsigned int diffs = 0;

	for (size_t i = 0; i < ARRAY_SIZE(shows); i++) {
		char *k = kernel_output(shows[i].cmd), *n = netbpf_output(shows[i].cmd);
		char *kn = normalize(k, shows[i].mode, true);
		char *nn = normalize(n, shows[i].mode, false);

		if (strcmp(kn, nn)) {
			fprintf(stderr, "%s [%s] differs\n--- kernel\n%s--- netbpf\n%s",
				shows[i].cmd, phase, kn, nn);
			diffs++;
		}
		free(k);
		free(n);
		free(kn);
		free(nn);
	}
	return diffs;
}

NB_TEST(ip_show_kernel)
{
	unsigned int diffs = 0;

	fib_world_enter();
	fib_world_lines(world, ARRAY_SIZE(world));
	diffs += compare_shows("no rules");
	fib_world_lines(rules, ARRAY_SIZE(rules));
	diffs += compare_shows("rules");
	fib_world_lines(down, ARRAY_SIZE(down));
	diffs += compare_shows("v3 down");
	fib_world_lines(no_addr6, ARRAY_SIZE(no_addr6));
	diffs += compare_shows("no IPv6 address");
	nb_test_report("ip show: %zu commands in 4 states, netbpf against iproute2 on the kernel: "
		       "%u differ", ARRAY_SIZE(shows), diffs);
	NB_ASSERT_EQ(diffs, 0);
}
