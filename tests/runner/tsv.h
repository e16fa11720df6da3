/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tab-separated tables with a header line, as the corpus's MANIFEST.tsv and the test lists
 * beside it are written: columns are found by their header name, so a table that gains a
 * column still reads. Lines starting with '#' and empty lines are comments.
 */
#ifndef NB_TEST_TSV_H
#define NB_TEST_TSV_H

#include <stddef.h>

struct nb_tsv {
	char **names;		/* header fields */
	size_t ncols;
	char ***rows;		/* rows[i][j]: field j of row i, "" when the line is short */
	size_t nrows;
	unsigned int *lines;	/* line number of each row in the file, for messages */
};

/*
 * Read a whole file: 0, or a negative errno with a message naming the file and line in err.
 * A row with more fields than the header is an error.
 */
int nb_tsv_read(const char *path, struct nb_tsv *tsv, char *err, size_t errlen);
/* Index of the column named name, or -1. */
int nb_tsv_col(const struct nb_tsv *tsv, const char *name);
void nb_tsv_free(struct nb_tsv *tsv);

#endif /* NB_TEST_TSV_H */
