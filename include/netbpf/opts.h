/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options structs, with libbpf's rules. Each starts with `size_t sz`, the size of the struct
 * the caller was compiled with. The library reads only the fields inside sz, so a caller built
 * against older headers gets the defaults of the fields it does not know; it refuses with
 * -EINVAL an sz too small to hold the fields it needs, and a struct longer than the one it
 * knows whose extra bytes are not all zero (a newer caller asking for what this library cannot
 * do). NULL is the defaults, where a call allows it.
 *
 *   NB_OPTS(nb_object_load_opts, load, .log = &log);
 *   nb_object_load(obj, &load);
 */
#ifndef NETBPF_OPTS_H
#define NETBPF_OPTS_H

#include <string.h>

/* Declare NAME, a struct TYPE with sz set, every other byte zero, then the given fields. */
#define NB_OPTS(TYPE, NAME, ...)                                                            \
	struct TYPE NAME = ({                                                               \
		memset(&NAME, 0, sizeof(struct TYPE));                                      \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };                    \
	})

#endif /* NETBPF_OPTS_H */
