/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arrays of object pointers: prog_array and array_of_maps (the kernel's fd arrays). Userspace
 * reads and writes u32 ids, programs see a slot holding the pointer; a replaced object is
 * released after a grace period, so a running program never loses what it reads.
 */
#ifndef NB_BPF_MAPS_FD_ARRAY_H
#define NB_BPF_MAPS_FD_ARRAY_H

#include <pthread.h>

#include "bpf/maps/array.h"

struct nb_fd_array_ops {
	/* A new reference on the object with this id, checked for this map; or an ERR errno. */
	void *(*get_ptr)(struct nb_map *map, u32 id, int *err);
	void (*put_ptr)(void *ptr);
	u32 (*ptr_id)(const void *ptr);
};

struct nb_fd_array {
	struct nb_array array;
	const struct nb_fd_array_ops *fd_ops;
	pthread_mutex_t lock;	/* updates; lookups read slots without it */
};

int nb_fd_array_alloc(const struct nb_map *attr, const struct nb_fd_array_ops *fd_ops,
		      struct nb_map **mapp, struct nb_log *log);
void nb_fd_array_free(struct nb_map *map);
void *nb_fd_array_lookup_slot(struct nb_map *map, const void *key);
int nb_fd_array_lookup_sys(struct nb_map *map, const void *key, void *value);
int nb_fd_array_update_sys(struct nb_map *map, const void *key, const void *value, u64 flags);
long nb_fd_array_delete_elem(struct nb_map *map, const void *key);
/* Empty every slot (bpf_fd_array_map_clear). */
void nb_fd_array_clear(struct nb_map *map);

#endif /* NB_BPF_MAPS_FD_ARRAY_H */
