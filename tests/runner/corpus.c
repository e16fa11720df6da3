// SPDX-License-Identifier: GPL-2.0
/* The corpus of real programs beside the repository (corpus.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus.h"
#include "test.h"

static const struct {
	const char *word;	/* MANIFEST.tsv's prog_type */
	const char *cli;	/* prog verify's type word */
	enum bpf_prog_type type;
} types[] = {
	{ "tc", "tc", BPF_PROG_TYPE_SCHED_CLS },
	{ "tc_act", "action", BPF_PROG_TYPE_SCHED_ACT },
	{ "xdp", "xdp", BPF_PROG_TYPE_XDP },
	{ "socket", "socket", BPF_PROG_TYPE_SOCKET_FILTER },
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

const char *nb_corpus_dir(void)
{
	static const char *const places[] = { "../shared/corpus", "/work/shared/corpus" };
	const char *env = getenv("NB_CORPUS");

	if (env && *env) {
		if (!is_dir(env))
			NB_FAIL("NB_CORPUS=%s is not a directory", env);
		return env;
	}
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++)
		if (is_dir(places[i]))
			return places[i];
	return NULL;
}

enum bpf_prog_type nb_corpus_prog_type(const char *word)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(word, types[i].word))
			return types[i].type;
	return BPF_PROG_TYPE_UNSPEC;
}

const char *nb_corpus_type_word(const char *word)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(word, types[i].word))
			return types[i].cli;
	return NULL;
}

unsigned int nb_corpus_map_sizes(const char *stats, const char *where, char **names,
				 struct nb_object_map_size sizes[NB_CORPUS_MAX_SIZES])
{
	const char *key = "max_entries_fixup=";
	const char *s = strstr(stats, key);
	unsigned int cnt = 0;
	char *save, *tok;

	*names = NULL;
	if (!s)
		return 0;
	*names = strndup(s + strlen(key), strcspn(s + strlen(key), " "));
	NB_ASSERT(*names);
	for (tok = strtok_r(*names, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strrchr(tok, '='), *end;
		unsigned long n;

		if (!eq || cnt == NB_CORPUS_MAX_SIZES)
			NB_FAIL("%s: max_entries_fixup \"%s\" is not NAME=N (at most %d)", where,
				tok, NB_CORPUS_MAX_SIZES);
		*eq = '\0';
		n = strtoul(eq + 1, &end, 10);
		if (*end || !n || n > UINT32_MAX)
			NB_FAIL("%s: max_entries_fixup %s=%s is not a size", where, tok, eq + 1);
		sizes[cnt++] = (struct nb_object_map_size){ tok, (__u32)n };
	}
	return cnt;
}
