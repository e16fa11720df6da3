// SPDX-License-Identifier: GPL-2.0
/*
 * The command words of the tc kinds, as iproute2 reads them: each classifier and action reads
 * its own words in its own file (its ops' parse), with the helpers here for what they share:
 * iproute2's error manner, class ids, the program words of bpf_parse_common, and an action's
 * tail (index, flags, verdict) that m_action.c reads for every kind.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "net/tc/pkt_cls.h"
#include "common/parse.h"

int nb_tc_words_wrong(struct nb_tc_words *w, const char *word, const char *fmt, ...)
{
	va_list ap;

	nb_log_printf(w->log, "Error: argument \"%s\" is wrong: ", word);
	va_start(ap, fmt);
	nb_log_vprintf(w->log, fmt, ap);
	va_end(ap);
	nb_log_printf(w->log, "\n");
	return -EINVAL;
}

static void error_line(struct nb_tc_words *w, const char *fmt, va_list ap)
{
	nb_log_printf(w->log, "Error: ");
	nb_log_vprintf(w->log, fmt, ap);
	nb_log_printf(w->log, "\n");
}

int nb_tc_words_usage(struct nb_tc_words *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line(w, fmt, ap);
	va_end(ap);
	w->usage = true;
	return -EINVAL;
}

int nb_tc_words_fail(struct nb_tc_words *w, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line(w, fmt, ap);
	va_end(ap);
	return err;
}

const char *nb_tc_words_next(struct nb_tc_words *w)
{
	if (w->pos + 1 >= w->argc) {
		nb_tc_words_usage(w, "\"%s\" needs an argument", w->argv[w->pos]);
		return NULL;
	}
	return w->argv[++w->pos];
}

bool nb_tc_words_at_action(const struct nb_tc_words *w)
{
	return w->pos < w->argc &&
	       (!strcmp(w->argv[w->pos], "action") || !strcmp(w->argv[w->pos], "actions"));
}

int nb_tc_words_actions(struct nb_tc_words *w)
{
	if (!w->actions)
		return nb_tc_words_wrong(w, w->argv[w->pos], "no actions here");
	return w->actions(w);
}

int nb_tc_words_common(struct nb_tc_words *w, u32 *classid)
{
	const char *word = w->argv[w->pos], *val;

	if (!strcmp(word, "classid") || !strcmp(word, "flowid")) {
		val = nb_tc_words_next(w);
		if (!val)
			return -EINVAL;
		if (nb_tc_classid_parse(val, classid))
			return nb_tc_words_wrong(w, val, "illegal \"classid\"");
		return 0;
	}
	if (!strcmp(word, "skip_sw"))
		return nb_tc_words_wrong(w, word, "skip_sw leaves nothing to run here");
	if (!strcmp(word, "skip_hw") || !strcmp(word, "verbose"))
		return 0;
	return -ENOENT;
}

int nb_tc_words_prog(struct nb_tc_words *w)
{
	const char *word = w->argv[w->pos], *val;

	if (!strcmp(word, "run"))
		return 0;	/* the old spelling "bpf run object-file F" */
	if (!strcmp(word, "max-entries")) {
		val = nb_tc_words_next(w);
		if (!val)
			return -EINVAL;
		if (w->prog.max_entries_cnt == NB_TC_MAX_ENTRIES_WORDS)
			return nb_tc_words_wrong(w, val, "at most %d maps can be sized",
						 NB_TC_MAX_ENTRIES_WORDS);
		w->prog.max_entries[w->prog.max_entries_cnt++] = val;
		return 0;
	}
	if (!strcmp(word, "obj") || !strcmp(word, "object-file") || !strcmp(word, "sec") ||
	    !strcmp(word, "section")) {
		val = nb_tc_words_next(w);
		if (!val)
			return -EINVAL;
		if (word[0] == 'o')
			w->prog.file = val;
		else
			w->prog.section = val;
		return 0;
	}
	if (!strcmp(word, "bytecode") || !strcmp(word, "bytecode-file") || !strcmp(word, "bc") ||
	    !strcmp(word, "object-pinned") || !strcmp(word, "pinned") || !strcmp(word, "fd"))
		return nb_tc_words_wrong(w, word, "only obj FILE [sec NAME] programs are supported");
	return -ENOENT;
}

int nb_tc_words_filter(struct nb_tc_words *w, const char *kind, u32 *classid,
		       nb_tc_filter_word_fn word, void *kopts)
{
	while (w->pos < w->argc) {
		int err;

		if (nb_tc_words_at_action(w)) {
			err = nb_tc_words_actions(w);
			if (err)
				return err;
			continue;
		}
		err = nb_tc_words_common(w, classid);
		if (err == -ENOENT && word)
			err = word(w, kopts);
		if (err == -ENOENT)
			return nb_tc_words_wrong(w, w->argv[w->pos], "unknown %s option", kind);
		if (err)
			return err;
		w->pos++;
	}
	return 0;
}

/* A verdict word at pos (pos past "goto chain N"); false when there is none. */
static bool parse_control(struct nb_tc_words *w, int *control, int *err)
{
	const char *word = w->argv[w->pos], *val;
	unsigned int n;

	*err = 0;
	if (!nb_tc_control_parse(word, control))
		return true;
	if (strcmp(word, "goto") && strcmp(word, "jump"))
		return false;
	if (word[0] == 'g') {
		if (w->pos + 1 >= w->argc || strcmp(w->argv[w->pos + 1], "chain")) {
			*err = nb_tc_words_usage(w, "\"goto\" needs \"chain N\"");
			return true;
		}
		w->pos++;
	}
	val = nb_tc_words_next(w);
	if (!val) {
		*err = -EINVAL;
		return true;
	}
	if (!nb_parse_u32(val, &n, 0) || n > TC_ACT_EXT_VAL_MASK) {
		*err = nb_tc_words_wrong(w, val, "expected a chain or jump count");
		return true;
	}
	*control = (word[0] == 'g' ? TC_ACT_GOTO_CHAIN : TC_ACT_JUMP) | n;
	return true;
}

/* "index N", "no_percpu", "skip_hw" after an action's words, in any order. */
static int parse_action_tail(struct nb_tc_words *w, struct nb_tc_action_opts *a)
{
	for (; w->pos < w->argc; w->pos++) {
		const char *word = w->argv[w->pos], *val;

		if (!strcmp(word, "index")) {
			val = nb_tc_words_next(w);
			if (!val)
				return -EINVAL;
			if (!nb_parse_u32(val, &a->index, 10) || !a->index)
				return nb_tc_words_wrong(w, val, "Illegal \"index\"");
		} else if (!strcmp(word, "no_percpu")) {
			a->flags |= TCA_ACT_FLAGS_NO_PERCPU_STATS;
		} else if (!strcmp(word, "skip_hw")) {
			a->flags |= TCA_ACT_FLAGS_SKIP_HW;
		} else if (!strcmp(word, "skip_sw")) {
			return nb_tc_words_wrong(w, word, "skip_sw leaves nothing to run here");
		} else {
			return 0;
		}
	}
	return 0;
}

/* m_action.c's parse_action for one action: the kind's words, then the tail every kind has. */
int nb_tc_action_parse_ops(struct nb_tc_words *w, const struct nb_tc_action_ops *ops,
			   bool named, struct nb_tc_action_opts *a)
{
	int err = 0;

	a->kind = ops->kind;
	if (named && ops->parse)
		err = ops->parse(w, a);
	if (!err)
		err = parse_action_tail(w, a);
	if (err)
		return err;
	if (w->pos < w->argc && parse_control(w, &a->control, &err)) {
		if (err)
			return err;
		a->has_control = true;
		w->pos++;
	} else if (ops->verdict && !a->index) {
		return w->pos < w->argc ?
		       nb_tc_words_wrong(w, w->argv[w->pos], "expected a %s verdict", ops->kind) :
		       nb_tc_words_usage(w, "action %s needs a verdict", ops->kind);
	}
	return parse_action_tail(w, a);
}
