// SPDX-License-Identifier: GPL-2.0
/*
 * Command-word helpers: iproute2's prefix matching, hex byte strings, whole-file reads, map sizes.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/args.h"

bool nb_matches(const char *arg, const char *keyword)
{
	size_t n = strlen(arg);

	return n > 0 && n <= strlen(keyword) && !strncmp(arg, keyword, n);
}

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int nb_parse_hex(const char *text, uint8_t **bufp, size_t *lenp, char *err, size_t err_size)
{
	size_t cap = strlen(text) / 2 + 1, len = 0;
	uint8_t *buf = malloc(cap);
	const char *p = text;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t n;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		n = strcspn(p, " \t\r\n\v\f");
		if (n % 2) {
			snprintf(err, err_size, "odd number of hex digits in \"%.*s\" at byte %zu",
				 (int)n, p, len);
			free(buf);
			return -EINVAL;
		}
		for (size_t i = 0; i < n; i += 2) {
			int hi = hex_digit(p[i]), lo = hex_digit(p[i + 1]);

			if (hi < 0 || lo < 0) {
				snprintf(err, err_size, "invalid hex byte \"%.2s\" at byte %zu",
					 p + i, len);
				free(buf);
				return -EINVAL;
			}
			buf[len++] = hi << 4 | lo;
		}
		p += n;
	}
	*bufp = buf;
	*lenp = len;
	return 0;
}

int nb_read_file(const char *path, uint8_t **bufp, size_t *lenp)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 4096, len = 0, n;
	uint8_t *buf;
	int err = 0;

	if (!f)
		return -errno;
	buf = malloc(cap);
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *bigger = realloc(buf, cap * 2);

			if (!bigger) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	if (!buf)
		err = -ENOMEM;
	else if (ferror(f))
		err = -EIO;
	if (f != stdin)
		fclose(f);
	if (err) {
		free(buf);
		return err;
	}
	*bufp = buf;
	*lenp = len;
	return 0;
}

const char *nb_map_sizes_add(struct nb_map_sizes *ms, const char *arg)
{
	const char *eq = strchr(arg, '=');
	unsigned long long n;
	char *end;

	if (ms->cnt >= NB_MAX_MAP_SIZES)
		return "too many map sizes (at most 16)";
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(ms->names[0]))
		return "expected NAME=N, the map's name and its max_entries";
	errno = 0;
	n = strtoull(eq + 1, &end, 0);
	if (errno || end == eq + 1 || *end || !n || n > UINT32_MAX || eq[1] == '-')
		return "N must be a number of entries from 1 to 4294967295";
	memcpy(ms->names[ms->cnt], arg, eq - arg);
	ms->names[ms->cnt][eq - arg] = '\0';
	ms->s[ms->cnt].name = ms->names[ms->cnt];
	ms->s[ms->cnt].max_entries = (__u32)n;
	ms->cnt++;
	return NULL;
}
