// SPDX-License-Identifier: GPL-2.0
/* iproute2's names of routing values (lib/rt_names.c) and the prefix words of the ip objects. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include <netbpf/dev.h>

#include "common/types.h"
#include "ctl/args.h"
#include "ctl/ip_common.h"

struct name {
	unsigned int value;
	const char *name;
};

static const struct name tables[] = {
	{ RT_TABLE_DEFAULT, "default" }, { RT_TABLE_MAIN, "main" }, { RT_TABLE_LOCAL, "local" },
};

static const struct name protos[] = {
	{ RTPROT_UNSPEC, "unspec" }, { RTPROT_REDIRECT, "redirect" }, { RTPROT_KERNEL, "kernel" },
	{ RTPROT_BOOT, "boot" },     { RTPROT_STATIC, "static" },     { RTPROT_GATED, "gated" },
	{ RTPROT_RA, "ra" },	     { RTPROT_MRT, "mrt" },	      { RTPROT_ZEBRA, "zebra" },
	{ RTPROT_BIRD, "bird" },     { RTPROT_DNROUTED, "dnrouted" }, { RTPROT_XORP, "xorp" },
	{ RTPROT_NTK, "ntk" },	     { RTPROT_DHCP, "dhcp" },
	{ RTPROT_KEEPALIVED, "keepalived" },
	{ RTPROT_BABEL, "babel" },   { RTPROT_BGP, "bgp" },	      { RTPROT_ISIS, "isis" },
	{ RTPROT_OSPF, "ospf" },     { RTPROT_RIP, "rip" },	      { RTPROT_EIGRP, "eigrp" },
};

static const struct name scopes[] = {
	{ RT_SCOPE_UNIVERSE, "global" }, { RT_SCOPE_NOWHERE, "nowhere" },
	{ RT_SCOPE_HOST, "host" },	 { RT_SCOPE_LINK, "link" },
	{ RT_SCOPE_SITE, "site" },
};

static const struct name rtntypes[] = {
	{ RTN_UNSPEC, "none" },		{ RTN_UNICAST, "unicast" },   { RTN_LOCAL, "local" },
	{ RTN_BROADCAST, "broadcast" }, { RTN_ANYCAST, "anycast" },   { RTN_MULTICAST, "multicast" },
	{ RTN_BLACKHOLE, "blackhole" }, { RTN_UNREACHABLE, "unreachable" },
	{ RTN_PROHIBIT, "prohibit" },	{ RTN_THROW, "throw" },	      { RTN_NAT, "nat" },
	{ RTN_XRESOLVE, "xresolve" },
};

static const struct name nuds[] = {
	{ NUD_INCOMPLETE, "incomplete" }, { NUD_REACHABLE, "reachable" }, { NUD_STALE, "stale" },
	{ NUD_DELAY, "delay" },		  { NUD_PROBE, "probe" },	  { NUD_FAILED, "failed" },
	{ NUD_NOARP, "noarp" },		  { NUD_PERMANENT, "permanent" }, { NUD_NONE, "none" },
};

static bool parse_name(const struct name *t, size_t n, const char *word, unsigned int *value,
		       unsigned int max)
{
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(t[i].name, word)) {
			*value = t[i].value;
			return true;
		}
	}
	return nb_ctl_parse_u32(word, value, 0) && *value <= max;
}

static const char *print_name(const struct name *t, size_t n, unsigned int value, char *buf)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	sprintf(buf, "%u", value);
	return buf;
}

bool nb_ip_table_parse(const char *word, unsigned int *id)
{
	return parse_name(tables, ARRAY_SIZE(tables), word, id, 0xffffffff);
}

const char *nb_ip_table_name(unsigned int id, char *buf)
{
	return print_name(tables, ARRAY_SIZE(tables), id, buf);
}

bool nb_ip_proto_parse(const char *word, unsigned int *proto)
{
	return parse_name(protos, ARRAY_SIZE(protos), word, proto, 255);
}

const char *nb_ip_proto_name(unsigned int proto, char *buf)
{
	return print_name(protos, ARRAY_SIZE(protos), proto, buf);
}

bool nb_ip_scope_parse(const char *word, unsigned int *scope)
{
	if (!strcmp(word, "universe")) {
		*scope = RT_SCOPE_UNIVERSE;
		return true;
	}
	return parse_name(scopes, ARRAY_SIZE(scopes), word, scope, 255);
}

const char *nb_ip_scope_name(unsigned int scope, char *buf)
{
	return print_name(scopes, ARRAY_SIZE(scopes), scope, buf);
}

int nb_ip_rtntype_parse(const char *word)
{
	for (size_t i = 0; i < ARRAY_SIZE(rtntypes); i++)
		if (!strcmp(rtntypes[i].name, word))
			return (int)rtntypes[i].value;
	return -1;
}

const char *nb_ip_rtntype_name(unsigned int type, char *buf)
{
	return print_name(rtntypes, ARRAY_SIZE(rtntypes), type, buf);
}

int nb_ip_nud_parse(const char *word)
{
	for (size_t i = 0; i < ARRAY_SIZE(nuds); i++)
		if (!strcmp(nuds[i].name, word))
			return (int)nuds[i].value;
	return -1;
}

const char *nb_ip_nud_name(unsigned int state)
{
	static const char *const upper[] = { "INCOMPLETE", "REACHABLE", "STALE", "DELAY",
					     "PROBE", "FAILED", "NOARP", "PERMANENT" };

	for (size_t i = 0; i < ARRAY_SIZE(upper); i++)
		if (state == 1u << i)
			return upper[i];
	return NULL;
}

bool nb_ip_parse_prefix(struct nb_ctl *ctl, const char *word, int *family,
			union nb_inet_addr *addr, unsigned char *len)
{
	int fam = *family;

	if (!strcmp(word, "default") || !strcmp(word, "all") || !strcmp(word, "any")) {
		/* the family stays open: a gateway may decide it */
		memset(addr, 0, sizeof(*addr));
		*len = 0;
		return true;
	}
	if (!nb_inet_pton_prefix(word, &fam, addr, len)) {
		if (*family == AF_UNSPEC || !nb_inet_pton_prefix(word, &(int){ AF_UNSPEC }, addr,
								   len))
			nb_ctl_wrong(ctl, word, "an inet prefix is expected rather than \"%s\"",
				     word);
		else
			nb_ctl_wrong(ctl, word, "the address family is not %s",
				     *family == AF_INET ? "inet" : "inet6");
		return false;
	}
	*family = fam;
	return true;
}

bool nb_ip_parse_addr(struct nb_ctl *ctl, const char *word, int *family,
		      union nb_inet_addr *addr)
{
	unsigned char len;

	if (strchr(word, '/')) {
		nb_ctl_wrong(ctl, word, "an inet address is expected rather than \"%s\"", word);
		return false;
	}
	return nb_ip_parse_prefix(ctl, word, family, addr, &len);
}

struct nb_dev *nb_ip_dev(struct nb_ctl *ctl, const char *name)
{
	struct nb_dev *dev = nb_dev_get_by_name(name);

	if (!dev)
		nb_ctl_fail(ctl, -ENODEV, "Cannot find device \"%s\"", name);
	return dev;
}
