/* SPDX-License-Identifier: GPL-2.0 */
/* The array core shared by array, percpu_array, prog_array, perf_event_array, array_of_maps. */
#ifndef NB_BPF_MAPS_ARRAY_H
#define NB_BPF_MAPS_ARRAY_H

#include "bpf/map.h"
#include "bpf/callback.h"

struct nb_array {
	struct nb_map map;
	u32 elem_size;		/* value_size rounded up to 8 */
	u64 stride;		/* bytes of one worker's table */
	u8 *values;		/* max_entries elements; per-CPU arrays: one table per worker */
};

/* The kernel's array_map_alloc_check. */
int nb_array_map_alloc_check(const struct nb_map *attr, struct nb_log *log);
/* Allocate an array type embedding struct nb_array at its start, struct_size bytes. */
int nb_array_alloc(const struct nb_map *attr, size_t struct_size, struct nb_array **arrayp,
		   struct nb_log *log);
void nb_array_free(struct nb_map *map);
/* The kernel's fd_array_map_alloc_check: value_size 4 (an id), no program access flags. */
int nb_fd_array_map_alloc_check(const struct nb_map *attr, struct nb_log *log);
/*
 * The in-line lookup of map_gen_lookup for every array (slot: the element holds a pointer the
 * lookup returns, NULL included: array_of_maps). Returns the count, 0 to keep the call.
 */
u32 nb_array_gen_lookup(const struct nb_map *map, struct bpf_insn *buf, bool percpu, bool slot);
int nb_array_map_get_next_key(struct nb_map *map, const void *key, void *next_key);

#endif /* NB_BPF_MAPS_ARRAY_H */
