/* SPDX-License-Identifier: GPL-2.0 */
/* The library's side of the options structs' rules (include/netbpf/opts.h). */
#ifndef NB_COMMON_OPTS_H
#define NB_COMMON_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include <netbpf/log.h>

/*
 * 0 when opts (struct type, of which this library knows known bytes) may be read: NULL, or sz
 * at least min_sz and every byte from known to sz zero. Else -EINVAL, and a line in log.
 */
int nb_opts_check(const void *opts, size_t min_sz, size_t known, const char *type,
		  struct nb_log *log);

#define NB_OPTS_END(type, field) (offsetof(struct type, field) + sizeof(((struct type *)0)->field))

/* Whether the caller's struct has field, and its value or fallback. */
#define NB_OPTS_HAS(opts, field)                                                            \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field))
#define NB_OPTS_GET(opts, field, fallback) (NB_OPTS_HAS(opts, field) ? (opts)->field : (fallback))

/*
 * Check opts of struct type: the caller's struct must hold at least the fields up to
 * min_field (the library reads those directly), and nothing non-zero beyond what it knows.
 */
#define NB_OPTS_CHECK(opts, type, min_field, log)                                          \
	nb_opts_check((opts), NB_OPTS_END(type, min_field), sizeof(struct type), #type, (log))

#endif /* NB_COMMON_OPTS_H */
