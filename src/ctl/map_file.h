/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Map contents in a file, for --map NAME=FILE: one element per line in bpftool's words,
 *
 *   key [hex] BYTES value [hex] BYTES
 *
 * bytes decimal or 0x-prefixed, or two-digit hex after the word hex ("key hex 01 00 00 00
 * value 0x2a 0 0 0"); blank lines are skipped, and # starts a
 * comment that runs to the end of its line.
 */
#ifndef NB_CTL_MAP_FILE_H
#define NB_CTL_MAP_FILE_H

#include <stddef.h>
#include <stdint.h>

#include <netbpf/log.h>

/* One "--map NAME=FILE" option: the name and the parsed elements. */
struct nb_map_file {
	char *name;
	size_t cnt;
	struct nb_map_file_elem {
		uint8_t *key;
		size_t key_len;
		uint8_t *value;
		size_t value_len;
	} *elems;
};

/* Parse "NAME=FILE" and read FILE; 0 or a negative errno with the file and line in log. */
int nb_map_file_read(const char *arg, struct nb_map_file *mf, struct nb_log *log);

struct nb_map;
/* A second home for each element written, as the kernel's twin of the map: 0 or -errno. */
typedef int (*nb_map_file_also_fn)(const void *key, const void *value, void *ctx);
/*
 * Write mf's elements into map, each checked against the map's key and value sizes, and into
 * also's home when also is not NULL: 0 or a negative errno with the element named in log
 * ("--map NAME: element N ...").
 */
int nb_map_file_load(const struct nb_map_file *mf, struct nb_map *map, nb_map_file_also_fn also,
		     void *ctx, struct nb_log *log);
void nb_map_file_free(struct nb_map_file *mf);

#endif /* NB_CTL_MAP_FILE_H */
