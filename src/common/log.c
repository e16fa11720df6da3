// SPDX-License-Identifier: GPL-2.0
/* The growing log buffer behind every error message and the verifier log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/log.h>

void nb_log_vprintf(struct nb_log *log, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	if (!log)
		return;
	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if (log->len + n + 1 > log->cap) {
		size_t cap = log->cap ? log->cap : 256;
		char *buf;

		while (cap < log->len + n + 1)
			cap *= 2;
		buf = realloc(log->buf, cap);
		if (!buf)
			return; /* keep what we have: a log must never make a call fail */
		log->buf = buf;
		log->cap = cap;
	}
	vsnprintf(log->buf + log->len, n + 1, fmt, ap);
	log->len += n;
}

void nb_log_printf(struct nb_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nb_log_vprintf(log, fmt, ap);
	va_end(ap);
}

void nb_log_verbose(struct nb_log *log, const char *fmt, ...)
{
	va_list ap;

	if (!log || log->level < NB_LOG_VERBOSE)
		return;
	va_start(ap, fmt);
	nb_log_vprintf(log, fmt, ap);
	va_end(ap);
}

const char *nb_log_text(const struct nb_log *log)
{
	return log && log->buf ? log->buf : "";
}

void nb_log_reset(struct nb_log *log)
{
	if (!log)
		return;
	log->len = 0;
	if (log->buf)
		log->buf[0] = '\0';
}

void nb_log_free(struct nb_log *log)
{
	if (!log)
		return;
	free(log->buf);
	log->buf = NULL;
	log->len = log->cap = 0;
}
