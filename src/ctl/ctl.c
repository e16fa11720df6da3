// SPDX-License-Identifier: GPL-2.0
/* The word dispatcher of the command language and its error manner (iproute2's). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl/args.h"
#include "ctl/ctl.h"
#include "ctl/stats.h"
#include "common/parse.h"
#include "common/types.h"

static void error_line(struct nb_ctl *ctl, const char *fmt, va_list ap)
{
	nb_log_printf(&ctl->log, "Error: ");
	nb_log_vprintf(&ctl->log, fmt, ap);
	nb_log_printf(&ctl->log, "\n");
}

int nb_ctl_wrong(struct nb_ctl *ctl, const char *word, const char *fmt, ...)
{
	va_list ap;

	nb_log_printf(&ctl->log, "Error: argument \"%s\" is wrong: ", word);
	va_start(ap, fmt);
	nb_log_vprintf(&ctl->log, fmt, ap);
	va_end(ap);
	nb_log_printf(&ctl->log, "\n");
	return -EINVAL;
}

int nb_ctl_usage(struct nb_ctl *ctl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line(ctl, fmt, ap);
	va_end(ap);
	ctl->usage = true;
	return -EINVAL;
}

int nb_ctl_fail(struct nb_ctl *ctl, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line(ctl, fmt, ap);
	va_end(ap);
	return err;
}

const char *nb_ctl_next(struct nb_ctl *ctl, int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		nb_ctl_usage(ctl, "\"%s\" needs an argument", argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

bool nb_ctl_parse_u32(const char *word, unsigned int *val, int base)
{
	return nb_parse_u32(word, val, base);
}

int nb_ctl_parse_map_size(struct nb_ctl *ctl, int argc, char **argv, int *i,
			  struct nb_map_sizes *sizes)
{
	const char *val = nb_ctl_next(ctl, argc, argv, i), *why;

	if (!val)
		return -EINVAL;
	why = nb_map_sizes_add(sizes, val);
	return why ? nb_ctl_wrong(ctl, val, "%s", why) : 0;
}

const char *nb_ctl_obj_path(const struct nb_ctl *ctl, const char *path, char *buf, size_t size)
{
	const char *dirs[] = { ctl->base_dir, ctl->obj_dir };

	snprintf(buf, size, "%s", path);
	if (path[0] == '/')
		return buf;
	for (size_t i = 0; i < 2; i++) {
		if (!dirs[i])
			continue;
		snprintf(buf, size, "%s/%s", dirs[i], path);
		if (!access(buf, R_OK))
			return buf;
	}
	snprintf(buf, size, "%s", path);
	return buf;
}

int nb_ctl_status(const struct nb_ctl *ctl, int err)
{
	if (!err)
		return 0;
	return ctl->usage ? 2 : 1;
}

int nb_ctl_exec(struct nb_ctl *ctl, int argc, char **argv)
{
	static const struct {
		const char *word;
		int (*fn)(struct nb_ctl *ctl, int argc, char **argv);
	} words[] = {
		{ "link", nb_ctl_link }, { "tc", nb_ctl_tc }, { "ip", nb_ctl_ip },
		{ "bridge", nb_ctl_bridge },
		{ "sysctl", nb_ctl_sysctl }, { "map", nb_ctl_map }, { "prog", nb_ctl_prog }, { "stats", nb_ctl_stats },
		{ "monitor", nb_ctl_monitor },
	};

	bool json = ctl->json, pretty = ctl->pretty, force = ctl->force;
	int stats = ctl->stats;

	if (argc < 1)
		return nb_ctl_usage(ctl, "a command word is missing (link, tc, ip, bridge, sysctl, "
				    "map, prog, stats or monitor)");
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		int err;

		if (strcmp(argv[0], words[i].word))
			continue;
		if (nb_ctl_help(ctl, argc, argv))
			return 0;
		err = words[i].fn(ctl, argc - 1, argv + 1);
		/* a line's own options (tc -s, ip -j) hold for that line only */
		ctl->json = json;
		ctl->pretty = pretty;
		ctl->force = force;
		ctl->stats = stats;
		return err;
	}
	return nb_ctl_wrong(ctl, argv[0], "unknown command word, expected link, tc, ip, bridge, "
			    "sysctl, map, prog, stats or monitor");
}
