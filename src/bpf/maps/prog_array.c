// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_PROG_ARRAY: the tail call table. Userspace stores program ids (the kernel's fds);
 * the engines' tail call reads the slot through map_lookup_elem. As in the kernel, the array has
 * an owner (struct bpf_map_owner): the first program to claim it, by being stored in it
 * (bpf_prog_map_compatible) or by loading with the array among its maps (bpf_check_tail_call,
 * prog.c), fixes what every later one must share, and a program that differs is refused
 * (map_prog_owner.c, which devmaps and cpumaps share).
 */
#include <errno.h>

#include "bpf/maps/fd_array.h"
#include "bpf/prog.h"

static void *prog_fd_array_get_ptr(struct nb_map *map, u32 id, int *err)
{
	struct nb_prog *prog = nb_prog_get_by_id(id);

	if (!prog) {
		*err = -EBADF;
		return NULL;
	}
	*err = nb_map_claim_prog_owner(map, prog, true, NULL);
	if (*err) {
		nb_prog_put(prog);
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
