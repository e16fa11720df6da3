// SPDX-License-Identifier: GPL-2.0
/*
 * The ip words: XDP programs on devices, as ip link set does it (ip/iplink_xdp.c), and the
 * objects of the IP layer (ip_addr.c, ip_route.c, ip_rule.c, ip_neigh.c).
 *
 *   ip [-force] link set [dev] DEV { xdp | xdpgeneric | xdpdrv } { obj F [sec S] [program NAME]
 *                                                               [max-entries MAP=N]... | off }
 *   ip link { show | add | del } ...: the link words
 *   ip [-4|-6|-f inet|inet6] { addr | route | rule | neigh } ...
 *
 * Without -force an attached program is not replaced (XDP_FLAGS_UPDATE_IF_NOEXIST). The default
 * section is "xdp" (libbpf's name), then "prog" (iproute2's old default).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <linux/if_link.h>

#include <netbpf/dev.h>
#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "ctl/args.h"
#include "ctl/ctl.h"
#include "ctl/ip_common.h"
#include "net/xdp.h"

/* Load one program of file: section (or the defaults) and name (or the section's first). */
static int load_xdp(struct nb_ctl *ctl, const char *file, const char *section, const char *name,
		    const struct nb_map_sizes *sizes, struct nb_prog **progp)
{
	struct nb_object_open_opts oopts = { .sz = sizeof(oopts), .log = &ctl->log };
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts),
					     .prog_type = BPF_PROG_TYPE_XDP, .log = &ctl->log,
					     .map_sizes = sizes->s, .map_size_cnt = sizes->cnt };
	struct nb_object_prog *p, *want = NULL;
	struct nb_object *obj;
	int err;

	err = nb_object_open_file(file, &oopts, &obj);
	if (err)
		return nb_ctl_fail(ctl, err, "cannot open \"%s\": %s", file, strerror(-err));
	for (int pass = 0; pass < 2 && !want; pass++) {
		const char *sec = section ? section : pass ? "prog" : "xdp";

		if (section && pass)
			break;
		nb_object_for_each_prog(p, obj) {
			if (strcmp(nb_object_prog_section(p), sec))
				continue;
			if (name && strcmp(nb_object_prog_name(p), name))
				continue;
			want = p;
			break;
		}
	}
	if (!want) {
		if (name)
			err = nb_ctl_wrong(ctl, name, "no program of that name in section \"%s\" of %s",
					   section ? section : "xdp", file);
		else
			err = nb_ctl_fail(ctl, -ENOENT, "%s: no program in section \"%s\"", file,
					  section ? section : "xdp");
		goto out;
	}
	nb_object_for_each_prog(p, obj)
		nb_object_prog_set_autoload(p, p == want);
	err = nb_object_load(obj, &lopts);
	if (err) {
		nb_ctl_fail(ctl, err, "%s: loading \"%s\" failed", file, nb_object_prog_name(want));
		goto out;
	}
	*progp = nb_prog_get(nb_object_prog_prog(want));
out:
	nb_object_close(obj);
	return err;
}

static int link_set_xdp(struct nb_ctl *ctl, struct nb_dev *dev, const char *mode, int argc,
			char **argv, int i)
{
	const char *file = NULL, *section = NULL, *name = NULL;
	__u32 flags = ctl->force ? 0 : XDP_FLAGS_UPDATE_IF_NOEXIST;
	struct nb_map_sizes sizes = { .cnt = 0 };
	struct nb_prog *prog = NULL;
	char path[PATH_MAX];
	struct nb_log log = { 0 };
	bool off = false;
	int err;

	if (!strcmp(mode, "xdpgeneric"))
		flags |= XDP_FLAGS_SKB_MODE;
	else if (!strcmp(mode, "xdpdrv"))
		flags |= XDP_FLAGS_DRV_MODE;
	else if (!strcmp(mode, "xdpoffload"))
		return nb_ctl_wrong(ctl, mode, "there is no hardware to offload to");
	for (; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "off")) {
			off = true;
		} else if (!strcmp(w, "obj") || !strcmp(w, "object")) {
			if (!(file = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
		} else if (!strcmp(w, "sec") || !strcmp(w, "section")) {
			if (!(section = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
		} else if (!strcmp(w, "program") || !strcmp(w, "prog")) {
			if (!(name = nb_ctl_next(ctl, argc, argv, &i)))
				return -EINVAL;
		} else if (!strcmp(w, "max-entries")) {
			err = nb_ctl_parse_map_size(ctl, argc, argv, &i, &sizes);
			if (err)
				return err;
		} else if (!strcmp(w, "verbose")) {
			continue;
		} else {
			return nb_ctl_wrong(ctl, w, "expected obj FILE [sec NAME] [program NAME] "
					    "[max-entries MAP=N] or off");
		}
	}
	if (!off && !file)
		return nb_ctl_usage(ctl, "%s needs \"obj FILE\" or \"off\"", mode);
	if (off && file)
		return nb_ctl_wrong(ctl, "off", "either obj FILE or off");
	if (!off) {
		err = load_xdp(ctl, nb_ctl_obj_path(ctl, file, path, sizeof(path)), section, name,
			       &sizes, &prog);
		if (err)
			return err;
	} else {
		flags &= ~XDP_FLAGS_UPDATE_IF_NOEXIST;
	}
	err = nb_dev_xdp_attach(dev, prog, flags, &log);
	if (err)
		nb_ctl_fail(ctl, err, "%.*s", (int)strcspn(nb_log_text(&log), "\n"),
			    nb_log_text(&log)[0] ? nb_log_text(&log) : strerror(-err));
	nb_log_free(&log);
	if (prog)
		nb_prog_put(prog);
	return err;
}

static int ip_link(struct nb_ctl *ctl, int argc, char **argv)
{
	struct nb_dev *dev;
	int i = 1, err;

	if (argc < 1 || !nb_matches(argv[0], "set"))
		return nb_ctl_link(ctl, argc, argv);
	if (i < argc && !strcmp(argv[i], "dev"))
		i++;
	if (i >= argc)
		return nb_ctl_usage(ctl, "ip link set needs a device");
	for (int k = i + 1; k < argc; k++) {
		const char *w = argv[k];

		if (strcmp(w, "xdp") && strcmp(w, "xdpgeneric") && strcmp(w, "xdpdrv") &&
		    strcmp(w, "xdpoffload"))
			continue;
		if (k != i + 1)
			return nb_ctl_wrong(ctl, w, "give xdp words on their own line");
		dev = nb_dev_get_by_name(argv[i]);
		if (!dev)
			return nb_ctl_fail(ctl, -ENODEV, "Cannot find device \"%s\"", argv[i]);
		err = link_set_xdp(ctl, dev, w, argc, argv, k + 1);
		nb_dev_put(dev);
		return err;
	}
	return nb_ctl_link(ctl, argc, argv);
}

int nb_ctl_ip(struct nb_ctl *ctl, int argc, char **argv)
{
	int i = 0;

	ctl->family = AF_UNSPEC;	/* -4 and -6 hold for their own line */
	/* ip's own options may come before the object: ip -force link set ... */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (nb_matches(argv[i] + 1, "force"))
			ctl->force = true;
		else if (nb_matches(argv[i] + 1, "json"))
			ctl->json = true;
		else if (nb_matches(argv[i] + 1, "statistics") || nb_matches(argv[i] + 1, "stats"))
			ctl->stats++;
		else if (!strcmp(argv[i], "-4"))
			ctl->family = AF_INET;
		else if (!strcmp(argv[i], "-6"))
			ctl->family = AF_INET6;
		else if (nb_matches(argv[i] + 1, "pretty"))
			ctl->pretty = true;
		else if (nb_matches(argv[i] + 1, "details"))
			continue;
		else if (nb_matches(argv[i] + 1, "family")) {
			if (++i >= argc)
				return nb_ctl_usage(ctl, "-family needs inet or inet6");
			if (!strcmp(argv[i], "inet"))
				ctl->family = AF_INET;
			else if (!strcmp(argv[i], "inet6"))
				ctl->family = AF_INET6;
			else
				return nb_ctl_wrong(ctl, argv[i], "netbpf knows inet and inet6");
		} else
			return nb_ctl_wrong(ctl, argv[i], "unknown ip option");
	}
	if (i >= argc)
		return nb_ctl_usage(ctl, "ip needs an object: link, addr, route, rule or neigh");
	if (nb_matches(argv[i], "link"))
		return ip_link(ctl, argc - i - 1, argv + i + 1);
	if (nb_matches(argv[i], "address"))
		return nb_ctl_ip_addr(ctl, argc - i - 1, argv + i + 1);
	if (nb_matches(argv[i], "route"))
		return nb_ctl_ip_route(ctl, argc - i - 1, argv + i + 1);
	if (nb_matches(argv[i], "rule"))
		return nb_ctl_ip_rule(ctl, argc - i - 1, argv + i + 1);
	if (nb_matches(argv[i], "neighbour") || nb_matches(argv[i], "neighbor"))
		return nb_ctl_ip_neigh(ctl, argc - i - 1, argv + i + 1);
	return nb_ctl_wrong(ctl, argv[i], "Object \"%s\" is unknown, try \"ip help\".", argv[i]);
}
