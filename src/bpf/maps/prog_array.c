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

/* A program's type and JIT state as one nonzero word (struct nb_map's prog_owner). */
static u32 prog_array_owner(const struct nb_prog *prog)
{
	return ((u32)prog->type << 1 | (prog->jited != NULL)) + 1;
}

static void *prog_fd_array_get_ptr(struct nb_map *map, u32 id, int *err)
{
	struct nb_prog *prog = nb_prog_get_by_id(id);
	u32 owner, seen = 0;

	if (!prog) {
		*err = -EBADF;
		return NULL;
	}
	/*
	 * The first program sets the owner. Two first stores racing must not both win: a tail
	 * call would then enter a program of another type with this one's context.
	 */
	owner = prog_array_owner(prog);
	if (!__atomic_compare_exchange_n(&map->prog_owner, &seen, owner, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE) && seen != owner) {
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
