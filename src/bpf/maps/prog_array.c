// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_PROG_ARRAY: the tail call table. Userspace stores program ids (the kernel's fds);
 * the engines' tail call reads the slot through map_lookup_elem. As in the kernel, the array has
 * an owner (struct bpf_map_owner): the first program to claim it, by being stored in it
 * (bpf_prog_map_compatible) or by loading with the array among its maps (bpf_check_tail_call,
 * prog.c), fixes what every later one must share, and a program that differs is refused.
 */
#include <errno.h>
#include <stdio.h>

#include <bpf/libbpf.h>

#include "bpf/maps/fd_array.h"
#include "bpf/prog.h"

/*
 * The owner word: the fields of the kernel's owner that netbpf has a twin of, packed so that
 * one compare-and-swap sets them all and one comparison checks them, plus one so that 0 stays
 * "no owner" (a BPF_PROG_TYPE_UNSPEC program may own an array):
 *
 *   bit 0	the programs run a JIT image (fp->jited; a checked or interpreted one does not)
 *   bit 1	the engine is open: only programs using the array claimed it so far
 *   bit 2	they take frames with fragments (aux->xdp_has_frags, NB_PROG_LOAD_XDP_HAS_FRAGS)
 *   bits 3-10	their expected attach type, which the kernel compares for program arrays only
 *		(values from 255 on, which no program type netbpf runs knows, share 255)
 *   bits 11-	their program type
 *
 * The engine: the kernel compares fp->jited for every claim, because its JIT's tail call jumps
 * into the target's image. netbpf's engines enter each other's targets (the JIT hands a target
 * without an image to the interpreter, which goes on with the same count), so only the
 * programs stored in an array share an engine, as in the kernel, and a program that uses the
 * array may run on either: its claim leaves the engine open, for the first store to fix.
 *
 * The rest of the kernel's owner has nothing to tell apart here: no tc, XDP or socket filter
 * program is sleepable; only cgroup programs reach cgroup local storage (the storage cookies);
 * attach_func_proto is compared for tracing, LSM, extension and struct_ops programs only, and
 * kprobe_override and the resolved type of an extension program belong to types netbpf does not
 * load.
 */
#define OWNER_JITED		(1U << 0)
#define OWNER_ANY_ENGINE	(1U << 1)
#define OWNER_FRAGS		(1U << 2)
#define OWNER_ATTACH_SHIFT	3
#define OWNER_ATTACH_MAX	0xffU
#define OWNER_TYPE_SHIFT	11
#define OWNER_ENGINE		(OWNER_JITED | OWNER_ANY_ENGINE)

u32 nb_map_prog_owner(const struct nb_prog *prog)
{
	u32 attach = (u32)prog->expected_attach_type;

	if (attach > OWNER_ATTACH_MAX)
		attach = OWNER_ATTACH_MAX;
	return ((u32)prog->type << OWNER_TYPE_SHIFT | attach << OWNER_ATTACH_SHIFT |
		(prog->load_flags & NB_PROG_LOAD_XDP_HAS_FRAGS ? OWNER_FRAGS : 0) |
		(prog->jited ? OWNER_JITED : 0)) + 1;
}

int nb_map_claim_prog_owner(struct nb_map *map, const struct nb_prog *prog, bool stored,
			    u32 *ownerp)
{
	u32 mine = nb_map_prog_owner(prog), seen = 0;

	if (!stored)
		mine = (((mine - 1) & ~OWNER_ENGINE) | OWNER_ANY_ENGINE) + 1;
	/*
	 * Two first claims racing (stores, loads or one of each) must not both win: a tail call
	 * would then enter a program of another type with this one's context.
	 */
	for (;;) {
		if (__atomic_compare_exchange_n(&map->prog_owner, &seen, mine, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return 0;
		if (seen == mine)
			return 0;
		if (((seen - 1) ^ (mine - 1)) & ~OWNER_ENGINE)
			break;		/* another type, attach type or frags setting */
		if (!stored)
			return 0;	/* a user runs on either engine */
		if (!((seen - 1) & OWNER_ANY_ENGINE))
			break;		/* stored programs run on the other engine */
		/* the first store fixes the engine its users left open: CAS again from seen */
	}
	if (ownerp)
		*ownerp = seen;
	return -EINVAL;
}

void nb_map_prog_owner_str(u32 owner, char *buf, size_t size)
{
	u32 bits = owner - 1, attach = (bits >> OWNER_ATTACH_SHIFT) & OWNER_ATTACH_MAX;
	const char *tname = libbpf_bpf_prog_type_str(bits >> OWNER_TYPE_SHIFT);
	const char *aname = libbpf_bpf_attach_type_str(attach);
	char anum[16];

	if (!aname) {
		snprintf(anum, sizeof(anum), "%u", attach);
		aname = anum;
	}
	/* Attach type 0 is a cgroup hook's: for the types netbpf runs it means none. */
	snprintf(buf, size, "%s, %s%s%s%s", tname ? tname : "unknown type",
		 bits & OWNER_ANY_ENGINE ? "any engine" :
		 bits & OWNER_JITED ? "JIT-compiled" : "not JIT-compiled",
		 bits & OWNER_FRAGS ? ", with frags" : "",
		 attach ? ", expected attach type " : "", attach ? aname : "");
}

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
