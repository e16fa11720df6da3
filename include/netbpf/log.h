/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error and verifier log: every fallible call takes an optional struct nb_log and, on failure,
 * returns a negative errno and leaves a line there that names what is wrong (file, section,
 * instruction index, command word).
 */
#ifndef NETBPF_LOG_H
#define NETBPF_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum nb_log_level {
	NB_LOG_ERROR = 0,   /* only the reason a call failed */
	NB_LOG_VERBOSE = 1, /* plus the verifier's register states and statistics */
};

/*
 * A growing text buffer, zero-initialised by the caller: struct nb_log log = { 0 };
 * Lines are appended; buf is always NUL-terminated once something was written.
 */
struct nb_log {
	char *buf;
	size_t len;
	size_t cap;
	enum nb_log_level level;
};

void nb_log_printf(struct nb_log *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void nb_log_vprintf(struct nb_log *log, const char *fmt, va_list ap);
/* Same as nb_log_printf, only when the log asks for level or more. */
void nb_log_verbose(struct nb_log *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *nb_log_text(const struct nb_log *log);
void nb_log_reset(struct nb_log *log);
void nb_log_free(struct nb_log *log);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_LOG_H */
