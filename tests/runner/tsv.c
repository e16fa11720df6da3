// SPDX-License-Identifier: GPL-2.0
/* Tab-separated tables with a header line (tsv.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tsv.h"

/* Split line (modified in place) at tabs into a new array of at most max fields, or NULL. */
static char **split(char *line, size_t max, size_t *cnt)
{
	char **f = calloc(max ? max : 1, sizeof(*f));
	size_t n = 0;

	if (!f)
		return NULL;
	for (char *p = line;; p++) {
		char *tab = strchr(p, '\t');

		if (n == max) {
			free(f);
			*cnt = max + 1;	/* too many */
			return NULL;
		}
		f[n++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab;
	}
	*cnt = n;
	return f;
}

static int add_row(struct nb_tsv *tsv, char **fields, size_t cnt, unsigned int lineno)
{
	char ***rows = realloc(tsv->rows, (tsv->nrows + 1) * sizeof(*rows));
	unsigned int *lines;

	if (!rows)
		return -ENOMEM;
	tsv->rows = rows;
	lines = realloc(tsv->lines, (tsv->nrows + 1) * sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	tsv->lines = lines;
	/* fields[] holds pointers into one line copy, kept whole in fields[0] */
	for (size_t i = cnt; i < tsv->ncols; i++)
		fields[i] = "";
	rows[tsv->nrows] = fields;
	lines[tsv->nrows++] = lineno;
	return 0;
}

int nb_tsv_read(const char *path, struct nb_tsv *tsv, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned int lineno = 0;
	ssize_t len;
	int ret = 0;

	memset(tsv, 0, sizeof(*tsv));
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		char **fields, *copy;
		size_t cnt = 0;	/* split leaves it unset when its calloc fails */

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		copy = strdup(line);
		if (!copy) {
			ret = -ENOMEM;
			break;
		}
		fields = split(copy, tsv->names ? tsv->ncols : 4096, &cnt);
		if (!fields) {
			free(copy);
			ret = cnt ? -EINVAL : -ENOMEM;
			if (cnt)
				snprintf(err, errlen, "%s:%u: more than the header's %zu fields",
					 path, lineno, tsv->ncols);
			break;
		}
		if (!tsv->names) {
			tsv->names = fields;
			tsv->ncols = cnt;
			continue;
		}
		ret = add_row(tsv, fields, cnt, lineno);
		if (ret) {
			free(copy);
			free(fields);
			break;
		}
	}
	if (!ret && !tsv->names) {
		ret = -EINVAL;
		snprintf(err, errlen, "%s: no header line", path);
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s:%u: out of memory", path, lineno);
	free(line);
	fclose(f);
	if (ret)
		nb_tsv_free(tsv);
	return ret;
}

int nb_tsv_col(const struct nb_tsv *tsv, const char *name)
{
	for (size_t i = 0; i < tsv->ncols; i++)
		if (!strcmp(tsv->names[i], name))
			return (int)i;
	return -1;
}

void nb_tsv_free(struct nb_tsv *tsv)
{
	for (size_t i = 0; i < tsv->nrows; i++) {
		free(tsv->rows[i][0]);
		free(tsv->rows[i]);
	}
	if (tsv->names) {
		free(tsv->names[0]);
		free(tsv->names);
	}
	free(tsv->rows);
	free(tsv->lines);
	memset(tsv, 0, sizeof(*tsv));
}
