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
/*
 * Every element (a JSON array when j), then "Found N elements" in text; maps without keys
 * (queues, ring buffers) fail with the reason in ctl->log.
 */
int nb_ctl_map_dump(struct nb_ctl *ctl, struct nb_json *j, struct nb_map *map);
/* Every map of this process, each with its elements (run and prog run's --maps). */
void nb_ctl_maps_print(struct nb_ctl *ctl, struct nb_json *j);

#endif /* NB_CTL_MAP_H */
