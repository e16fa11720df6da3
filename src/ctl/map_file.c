// SPDX-License-Identifier: GPL-2.0
/* Map contents in a file for --map NAME=FILE (format in map_file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <netbpf/map.h>

#include "ctl/map_file.h"

#define MAX_BYTES 4096

/*
 * Bytes after "key"/"value" up to the next keyword or the end of the line, in an allocation of
 * their size: a batch file holds many thousands of small keys and values.
 */
static int parse_bytes(char **tok, int ntok, int *i, uint8_t **out, size_t *len)
{
	uint8_t buf[MAX_BYTES];
	int base = 0;
	size_t n = 0;

	if (*i < ntok && !strcmp(tok[*i], "hex")) {
		base = 16;
		(*i)++;
	}
	for (; *i < ntok && strcmp(tok[*i], "key") && strcmp(tok[*i], "value"); (*i)++) {
		char *end;
		unsigned long v = strtoul(tok[*i], &end, base);

		if (*end || end == tok[*i] || v > 0xff || n >= MAX_BYTES)
			return -EINVAL;
		buf[n++] = (uint8_t)v;
	}
	if (!n)
		return -EINVAL;
	*out = malloc(n);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, buf, n);
	*len = n;
	return 0;
}

static int parse_line(char *line, struct nb_map_file_elem *e)
{
	char *tok[2 * MAX_BYTES + 4], *save = NULL, *t;
	int ntok = 0, i = 0, err;

	line[strcspn(line, "#")] = '\0';	/* a comment after the bytes */
	for (t = strtok_r(line, " \t\r\n", &save); t && ntok < (int)(sizeof(tok) / sizeof(*tok));
	     t = strtok_r(NULL, " \t\r\n", &save))
		tok[ntok++] = t;
	if (ntok < 1 || strcmp(tok[0], "key"))
		return -EINVAL;
	i = 1;
	err = parse_bytes(tok, ntok, &i, &e->key, &e->key_len);
	if (err)
		return err;
	if (i >= ntok || strcmp(tok[i], "value")) {
		free(e->key);
		return -EINVAL;
	}
	i++;
	err = parse_bytes(tok, ntok, &i, &e->value, &e->value_len);
	if (!err && i < ntok) {
		free(e->value);
		err = -EINVAL;
	}
	if (err)
		free(e->key);
	return err;
}

int nb_map_file_read(const char *arg, struct nb_map_file *mf, struct nb_log *log)
{
	const char *eq = strchr(arg, '=');
	char *line = NULL;
	size_t cap = 0, elems_cap = 0;
	unsigned int lineno = 0;
	FILE *f;
	int err = 0;

	memset(mf, 0, sizeof(*mf));
	if (!eq || eq == arg || !eq[1]) {
		nb_log_printf(log, "--map \"%s\": expected NAME=FILE", arg);
		return -EINVAL;
	}
	mf->name = strndup(arg, eq - arg);
	if (!mf->name)
		return -ENOMEM;
	f = fopen(eq + 1, "r");
	if (!f) {
		err = -errno;
		nb_log_printf(log, "--map %s: cannot open %s: %s", mf->name, eq + 1,
			      strerror(errno));
		nb_map_file_free(mf);
		return err;
	}
	while (getline(&line, &cap, f) > 0) {
		const char *p = line + strspn(line, " \t\r\n");
		struct nb_map_file_elem e, *grown;

		lineno++;
		if (!*p || *p == '#')
			continue;
		err = parse_line(line, &e);
		if (err) {
			nb_log_printf(log, "%s:%u: expected \"key [hex] BYTES value [hex] BYTES\"",
				      eq + 1, lineno);
			break;
		}
		if (mf->cnt == elems_cap) {
			/* doubling: a file of n lines costs O(n), not O(n^2) copies */
			size_t want = elems_cap ? 2 * elems_cap : 64;

			grown = realloc(mf->elems, want * sizeof(*grown));
			if (!grown) {
				free(e.key);
				free(e.value);
				err = -ENOMEM;
				break;
			}
			mf->elems = grown;
			elems_cap = want;
		}
		mf->elems[mf->cnt++] = e;
	}
	free(line);
	fclose(f);
	if (err)
		nb_map_file_free(mf);
	return err;
}

void nb_map_file_free(struct nb_map_file *mf)
{
	for (size_t i = 0; i < mf->cnt; i++) {
		free(mf->elems[i].key);
		free(mf->elems[i].value);
	}
	free(mf->elems);
	free(mf->name);
	memset(mf, 0, sizeof(*mf));
}

int nb_map_file_load(const struct nb_map_file *mf, struct nb_map *map, nb_map_file_also_fn also,
		     void *ctx, struct nb_log *log)
{
	for (size_t e = 0; e < mf->cnt; e++) {
		const struct nb_map_file_elem *el = &mf->elems[e];
		int err;

		if (el->key_len != nb_map_key_size(map) || el->value_len != nb_map_value_size(map)) {
			nb_log_printf(log, "--map %s: element %zu has a %zu-byte key and a %zu-byte "
				      "value, the map takes %u and %u\n", mf->name, e + 1,
				      el->key_len, el->value_len, nb_map_key_size(map),
				      nb_map_value_size(map));
			return -EINVAL;
		}
		err = nb_map_update_elem(map, el->key, el->value, BPF_ANY);
		if (!err && also)
			err = also(el->key, el->value, ctx);
		if (err) {
			nb_log_printf(log, "--map %s: element %zu: %s\n", mf->name, e + 1,
				      strerror(-err));
			return err;
		}
	}
	return 0;
}
