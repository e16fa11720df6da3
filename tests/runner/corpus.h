/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The corpus of real programs beside the repository (../shared/corpus: objects compiled from the
 * kernel's samples and selftests, MANIFEST.tsv with the running kernel's verdict on each, its
 * README.md): where it is, and how a manifest row's words become load options.
 */
#ifndef NB_TEST_CORPUS_H
#define NB_TEST_CORPUS_H

#include <linux/bpf.h>
#include <netbpf/object.h>

#define NB_CORPUS_MAX_SIZES 16

/*
 * NB_CORPUS, else ../shared/corpus beside the repository, else /work/shared/corpus; NULL when
 * there is none. A NB_CORPUS that is not a directory fails the test: a misspelt path must not
 * pass for a missing corpus.
 */
const char *nb_corpus_dir(void);

/* The manifest's prog_type (tc, tc_act, xdp, socket): the program type, 0 when unknown. */
enum bpf_prog_type nb_corpus_prog_type(const char *word);
/* prog verify's type word for a manifest prog_type, NULL when unknown. */
const char *nb_corpus_type_word(const char *word);

/*
 * The maps the manifest's loader sized as their tool would (stats' "max_entries_fixup=NAME=N,
 * ..."), as --max-entries takes them: sizes[] points into *names, which the caller frees.
 * Returns the count; a malformed list fails the test, naming where.
 */
unsigned int nb_corpus_map_sizes(const char *stats, const char *where, char **names,
				 struct nb_object_map_size sizes[NB_CORPUS_MAX_SIZES]);

#endif /* NB_TEST_CORPUS_H */
