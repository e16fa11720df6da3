// SPDX-License-Identifier: GPL-2.0
/*
 * Script files of tc/ip/link lines, the shell's way with words: "#" comments, "\" line joins,
 * quotes, and $VAR / ${VAR} from --set values or the environment. A variable that is set
 * nowhere is an error naming it, not an empty word (a missing $dev would change the meaning).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"

static const char *var_value(const char *name, size_t len, const char *const *vars, int cnt)
{
	for (int i = cnt - 1; i >= 0; i--)
		if (!strncmp(vars[i], name, len) && vars[i][len] == '=')
			return vars[i] + len + 1;
	{
		char key[128];

		if (len >= sizeof(key))
			return NULL;
		memcpy(key, name, len);
		key[len] = 0;
		return getenv(key);
	}
}

struct words {
	char *buf;	/* the words, each NUL-terminated */
	size_t len, cap;
	int argc;
};

static int put(struct words *w, char c)
{
	if (w->len + 1 >= w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;
		char *bigger = realloc(w->buf, cap);

		if (!bigger)
			return -ENOMEM;
		w->buf = bigger;
		w->cap = cap;
	}
	w->buf[w->len++] = c;
	return 0;
}

int nb_ctl_split(const char *line, const char *const *vars, int var_cnt, int *argcp,
		 char ***argvp, struct nb_log *log)
{
	struct words w = { 0 };
	const char *p = line;
	char quote = 0;
	bool in_word = false;
	char **argv;
	int err = 0;

	for (; *p && !err; p++) {
		char c = *p;

		if (!quote && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
			if (in_word) {
				err = put(&w, 0);
				w.argc++;
				in_word = false;
			}
			continue;
		}
		if (!quote && c == '#' && !in_word)
			break;
		if (!quote && (c == '\'' || c == '"')) {
			quote = c;
			in_word = true;
			continue;
		}
		if (quote && c == quote) {
			quote = 0;
			continue;
		}
		if (c == '$' && quote != '\'') {
			const char *name = p + 1, *val;
			bool brace = *name == '{';
			size_t len = 0;

			if (brace)
				name++;
			while (isalnum((unsigned char)name[len]) || name[len] == '_')
				len++;
			if (!len || (brace && name[len] != '}')) {
				nb_log_printf(log, "Error: a variable name must follow \"$\"\n");
				err = -EINVAL;
				break;
			}
			val = var_value(name, len, vars, var_cnt);
			if (!val) {
				nb_log_printf(log, "Error: variable \"%.*s\" is not set (use --set %.*s=VALUE)\n",
					      (int)len, name, (int)len, name);
				err = -EINVAL;
				break;
			}
			while (*val && !err)
				err = put(&w, *val++);
			in_word = true;
			p = name + len + brace - 1;
			continue;
		}
		if (c == '\\' && p[1] && quote != '\'')
			c = *++p;
		err = put(&w, c);
		in_word = true;
	}
	if (!err && quote) {
		nb_log_printf(log, "Error: unterminated quote %c\n", quote);
		err = -EINVAL;
	}
	if (!err && in_word) {
		err = put(&w, 0);
		w.argc++;
	}
	if (err) {
		free(w.buf);
		return err;
	}
	/* one allocation: the pointers, then the words */
	argv = malloc((w.argc + 1) * sizeof(*argv) + w.len + 1);
	if (!argv) {
		free(w.buf);
		return -ENOMEM;
	}
	{
		char *text = (char *)(argv + w.argc + 1);

		if (w.len)
			memcpy(text, w.buf, w.len);
		for (int i = 0; i < w.argc; i++) {
			argv[i] = text;
			text += strlen(text) + 1;
		}
		argv[w.argc] = NULL;
	}
	free(w.buf);
	*argcp = w.argc;
	*argvp = argv;
	return 0;
}

/* "NAME=VALUE" alone on a line sets a variable for the lines after it, as in a shell. */
static bool is_assignment(int argc, char **argv)
{
	const char *eq = argc == 1 ? strchr(argv[0], '=') : NULL;

	if (!eq || eq == argv[0] || isdigit((unsigned char)argv[0][0]))
		return false;
	for (const char *c = argv[0]; c < eq; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return false;
	return true;
}

int nb_ctl_script_run(struct nb_ctl *ctl, const char *name, const char *text,
		      const char *const *given, int given_cnt)
{
	const char *p = text;
	int lineno = 0, err = 0, var_cnt = given_cnt, var_cap = given_cnt + 16;
	const char **vars = malloc(var_cap * sizeof(*vars));
	char *line = NULL;
	size_t cap = 0;

	if (!vars)
		return -ENOMEM;
	if (given_cnt)
		memcpy(vars, given, given_cnt * sizeof(*vars));

	while (*p && !err) {
		int first = lineno + 1, argc;
		size_t len = 0;
		char **argv;

		/* one logical line: physical lines joined by a trailing backslash */
		for (;;) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			bool join;

			lineno++;
			if (len + n + 2 > cap) {
				char *bigger = realloc(line, len + n + 256);

				if (!bigger) {
					err = -ENOMEM;
					goto out;
				}
				line = bigger;
				cap = len + n + 256;
			}
			memcpy(line + len, p, n);
			len += n;
			while (len && line[len - 1] == '\r')
				len--;
			join = len && line[len - 1] == '\\';
			if (join)
				line[len - 1] = ' ';
			line[len] = 0;
			p += n + (nl != NULL);
			if (!join || !*p)
				break;
		}
		err = nb_ctl_split(line, vars, var_cnt, &argc, &argv, &ctl->log);
		if (!err) {
			char **words = argv;

			if (argc && !strcmp(words[0], "netbpf")) {
				words++;
				argc--;
			}
			if (is_assignment(argc, words)) {
				/* --set wins over the script's own values, as make's command line */
				const char *eq = strchr(words[0], '=');
				bool overridden = false;

				for (int v = 0; v < given_cnt; v++)
					if (!strncmp(given[v], words[0], eq - words[0] + 1))
						overridden = true;
				if (!overridden && var_cnt == var_cap) {
					const char **bigger = realloc(vars, 2 * var_cap * sizeof(*vars));

					if (!bigger)
						err = -ENOMEM;
					else
						vars = bigger, var_cap *= 2;
				}
				if (!err && !overridden) {
					char *copy = strdup(words[0]);

					if (!copy)
						err = -ENOMEM;
					else
						vars[var_cnt++] = copy;
				}
			} else if (argc && ctl->later && nb_ctl_line_shows(argc, words)) {
				err = nb_ctl_later_hold(ctl, argc, words, name, first, line);
			} else if (argc) {
				err = nb_ctl_exec(ctl, argc, words);
			}
			free(argv);
		}
		if (err)
			nb_log_printf(&ctl->log, "%s:%d: in \"%s\"\n", name, first, line);
	}
out:
	for (int v = given_cnt; v < var_cnt; v++)
		free((char *)vars[v]);
	free(vars);
	free(line);
	return err;
}
