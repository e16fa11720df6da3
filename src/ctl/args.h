/* SPDX-License-Identifier: GPL-2.0 */
/* Command-word parsing shared by the command line and script files, in iproute2's manner. */
#ifndef NB_CTL_ARGS_H
#define NB_CTL_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netbpf/object.h>

/* True when arg is a non-empty prefix of keyword: "dev" matches "dev", "d" and "de". */
bool nb_matches(const char *arg, const char *keyword);

/*
 * Parse text of hex bytes separated by white space ("b7 00 00 00", "b7000000") into a new
 * buffer. Returns 0, or -EINVAL with the bad token and its byte offset in err.
 */
int nb_parse_hex(const char *text, uint8_t **buf, size_t *len, char *err, size_t err_size);

/* Read a whole file ("-" is standard input) into a new buffer; -errno on failure. */
int nb_read_file(const char *path, uint8_t **buf, size_t *len);

/*
 * The sizes given to an object's maps before load, "NAME=N" each: the words "max-entries
 * NAME=N" (tc and ip) and the option --max-entries NAME=N (prog and diff commands). The tools
 * of some objects size maps the object leaves at 0 (nb_object_load_opts.map_sizes).
 */
#define NB_MAX_MAP_SIZES 16
struct nb_map_sizes {
	struct nb_object_map_size s[NB_MAX_MAP_SIZES];
	char names[NB_MAX_MAP_SIZES][128];
	unsigned int cnt;
};

/* Add "NAME=N": NULL, or what is wrong with arg. */
const char *nb_map_sizes_add(struct nb_map_sizes *ms, const char *arg);

#endif /* NB_CTL_ARGS_H */
