// SPDX-License-Identifier: GPL-2.0
/*
 * The sysctl words for the switches netbpf's IP layer has, with the kernel's names:
 *
 *   sysctl [-w] [-q] NAME=VALUE...    set (and print "NAME = VALUE" unless -q)
 *   sysctl NAME...                     print
 *
 *   net.ipv4.ip_forward                         net.ipv4.conf.all.forwarding
 *   net.ipv4.conf.{all|default|DEV}.forwarding   net.ipv6.conf.{all|default|DEV}.forwarding
 *   net.ipv4.ip_forward_use_pmtu
 *
 * Writing "all" sets every device and the default for devices made later, as the kernel does.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <netbpf/dev.h>
#include <netbpf/inet.h>

#include "ctl/args.h"
#include "ctl/ctl.h"
#include "ctl/json.h"

/* The state of one name: the family and device (NULL: all, default_ when "default"). */
struct knob {
	enum { KNOB_FORWARDING, KNOB_FWD_USE_PMTU } kind;
	int family;
	bool all, dflt;
	struct nb_dev *dev;
};

static int parse_name(struct nb_ctl *ctl, const char *name, struct knob *k)
{
	static const char *const conf[] = { "net.ipv4.conf.", "net.ipv6.conf." };
	const char *suffix = ".forwarding";

	memset(k, 0, sizeof(*k));
	if (!strcmp(name, "net.ipv4.ip_forward")) {
		k->family = AF_INET;
		k->all = true;
		return 0;
	}
	if (!strcmp(name, "net.ipv4.ip_forward_use_pmtu")) {
		k->kind = KNOB_FWD_USE_PMTU;
		return 0;
	}
	for (int f = 0; f < 2; f++) {
		size_t plen = strlen(conf[f]), len = strlen(name), slen = strlen(suffix);
		char dev[32];

		if (strncmp(name, conf[f], plen) || len <= plen + slen ||
		    strcmp(name + len - slen, suffix))
			continue;
		if (len - plen - slen >= sizeof(dev))
			break;
		memcpy(dev, name + plen, len - plen - slen);
		dev[len - plen - slen] = '\0';
		k->family = f ? AF_INET6 : AF_INET;
		if (!strcmp(dev, "all")) {
			k->all = true;
		} else if (!strcmp(dev, "default")) {
			k->dflt = true;
		} else {
			k->dev = nb_dev_get_by_name(dev);
			if (!k->dev)
				break;
		}
		return 0;
	}
	return nb_ctl_fail(ctl, -ENOENT, "sysctl: cannot stat /proc/sys/%s: No such file or "
			   "directory", name);
}

static int knob_read(const struct knob *k)
{
	if (k->kind == KNOB_FWD_USE_PMTU)
		return nb_inet_fwd_use_pmtu();
	if (k->dev)
		return nb_inet_forwarding(k->dev, k->family);
	if (k->all)
		return nb_inet_all_forwarding(k->family);
	return nb_inet_default_forwarding(k->family);
}

static int knob_write(const struct knob *k, bool on)
{
	if (k->kind == KNOB_FWD_USE_PMTU) {
		nb_inet_set_fwd_use_pmtu(on);
		return 0;
	}
	if (k->dflt)
		return nb_inet_set_default_forwarding(k->family, on);
	return nb_inet_set_forwarding(k->dev, k->family, on);
}

int nb_ctl_sysctl(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_json *j = NULL;
	bool quiet = false;
	int i = 0, err = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q"))
			quiet = true;
		else if (strcmp(argv[i], "-w"))
			return nb_ctl_wrong(ctl, argv[i], "sysctl takes -w and -q");
	}
	if (i >= argc)
		return nb_ctl_usage(ctl, "sysctl needs a name (NAME or NAME=VALUE)");
	/* -j: one object of the values it prints, {"NAME": VALUE, ...}; -q -w prints none */
	for (int n = i; n < argc && ctl->json && !j; n++)
		if (!quiet || !strchr(argv[n], '='))
			j = nb_json_new(ctl->out, ctl->pretty);
	if (j)
		nb_json_start_object(j, NULL);
	for (; i < argc && !err; i++) {
		char name[128], *eq;
		unsigned int v = 0;
		struct knob k;

		if (strlen(argv[i]) >= sizeof(name)) {
			err = nb_ctl_wrong(ctl, argv[i], "the name is too long");
			break;
		}
		strcpy(name, argv[i]);
		eq = strchr(name, '=');
		if (eq) {
			*eq++ = '\0';
			while (*eq == ' ')
				eq++;
			if (!nb_ctl_parse_u32(eq, &v, 10) || v > 1) {
				err = nb_ctl_wrong(ctl, argv[i], "the value is 0 or 1");
				break;
			}
		}
		err = parse_name(ctl, name, &k);
		if (err)
			break;
		if (eq)
			err = knob_write(&k, v);
		if (err)
			nb_ctl_fail(ctl, err, "sysctl: setting key \"%s\": %s", name,
				    strerror(-err));
		else if ((!quiet || !eq) && j)
			nb_json_int(j, name, knob_read(&k));
		else if (!quiet || !eq)
			fprintf(ctl->out, "%s = %d\n", name, knob_read(&k));
		if (k.dev)
			nb_dev_put(k.dev);
	}
	if (j) {
		nb_json_end_object(j);
		nb_json_free(j);
	}
	return err;
}
