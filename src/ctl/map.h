/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Maps as bpftool prints them (map.c): the map words of scripts and daemons, and the printing
 * the offline commands share (netbpf map on an object, run and prog run's --maps).
 */
#ifndef NB_CTL_MAP_H
#define NB_CTL_MAP_H

#include <stdio.h>

struct nb_ctl;
struct nb_json;
struct nb_map;

/* One element: "key: .. value: ..", per-CPU maps a value per worker; j: the JSON object. */
void nb_ctl_map_print_elem(FILE *out, struct nb_json *j, const struct nb_map *map,
			   const void *key, const void *value);
/* map lookup's element: in text, that of a map with BTF in its typed form, as bpftool's. */
void nb_ctl_map_print_lookup(FILE *out, struct nb_json *j, const struct nb_map *map,
			     const void *key, const void *value);
/*
 * A text dump of a map with BTF, as bpftool prints it: one document (not JSON where hex goes
 * bare) of every element's typed form, and no count after it. begin returns its writer with
 * the array opened, or NULL under -j (j) or for a map without BTF (then bytes, and the count);
 * end closes it (NULL: nothing).
 */
struct nb_json *nb_ctl_map_typed_begin(FILE *out, struct nb_json *j, const struct nb_map *map);
void nb_ctl_map_typed_elem(struct nb_json *t, const struct nb_map *map, const void *key,
			   const void *value);
void nb_ctl_map_typed_end(struct nb_json *t);
/*
 * Every element (a JSON array when j), then "Found N elements" in text; maps without keys
 * (queues, ring buffers) fail with the reason in ctl->log.
 */
int nb_ctl_map_dump(struct nb_ctl *ctl, struct nb_json *j, struct nb_map *map);
/* Every map of this process, each with its elements (run and prog run's --maps). */
void nb_ctl_maps_print(struct nb_ctl *ctl, struct nb_json *j);

#endif /* NB_CTL_MAP_H */
