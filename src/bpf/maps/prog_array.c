// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_PROG_ARRAY: the tail call table. Userspace stores program ids (the kernel's fds);
 * the engines' tail call reads the slot through map_lookup_elem. As in the kernel, the first
 * program stored fixes the array's program type and JIT state (bpf_prog_map_compatible), and a
 * program of another type or engine is refused.
 */
#include <errno.h>

#include "bpf/maps/fd_array.h"
#include "bpf/prog.h"

static void *prog_fd_array_get_ptr(struct nb_map *map, u32 id, int *err)
{
	struct nb_prog *prog = nb_prog_get_by_id(id);
	bool jited;

	if (!prog) {
		*err = -EBADF;
		return NULL;
	}
	jited = prog->jited != NULL;
	/* The first program sets the owner; the CAS keeps concurrent updates consistent. */
	if (!__atomic_load_n(&map->owner_prog_type, __ATOMIC_ACQUIRE)) {
		map->owner_jited = jited;
		__atomic_store_n(&map->owner_prog_type, prog->type, __ATOMIC_RELEASE);
	}
	if (map->owner_prog_type != prog->type || map->owner_jited != jited) {
		nb_prog_put(prog);
		*err = -EINVAL;
		return NULL;
	}
	return prog;
}

static void prog_fd_array_put_ptr(void *ptr)
{
	nb_prog_put(ptr);
}

static u32 prog_fd_array_ptr_id(const void *ptr)
{
	return ((const struct nb_prog *)ptr)->id;
}

static const struct nb_fd_array_ops prog_fd_ops = {
	.get_ptr = prog_fd_array_get_ptr,
	.put_ptr = prog_fd_array_put_ptr,
	.ptr_id = prog_fd_array_ptr_id,
};

static int prog_array_map_alloc(const struct nb_map *attr, struct nb_map **mapp,
				struct nb_log *log)
{
	return nb_fd_array_alloc(attr, &prog_fd_ops, mapp, log);
}

static const struct nb_map_ops prog_array_map_ops = {
	.type = BPF_MAP_TYPE_PROG_ARRAY,
	.name = "prog_array",
	.map_alloc_check = nb_fd_array_map_alloc_check,
	.map_alloc = prog_array_map_alloc,
	.map_free = nb_fd_array_free,
	.map_lookup_elem = nb_fd_array_lookup_slot,
	.map_delete_elem = nb_fd_array_delete_elem,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_lookup_elem_sys = nb_fd_array_lookup_sys,
	.map_update_elem_sys = nb_fd_array_update_sys,
	.map_release_uref = nb_fd_array_clear,
};
NB_MAP_TYPE_REGISTER(prog_array_map_ops)
