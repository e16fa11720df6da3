// SPDX-License-Identifier: GPL-2.0
/*
 * The owner of a map that holds programs (the kernel's struct bpf_map_owner): program arrays,
 * devmaps, devmap hashes and cpumaps. The first program to claim such a map, by being stored in
 * it (bpf_prog_map_compatible: prog_array.c, devmap.c, cpumap.c) or by loading with the map
 * among its maps (bpf_check_tail_call: prog.c), fixes what every later one must share, and a
 * program that differs is refused with -EINVAL (the kernel's __bpf_prog_map_compatible).
 *
 * The kernel's loads check only the types of map_type_contains_progs, program arrays, devmaps
 * and cpumaps: a devmap hash has an owner too, but only its entries' programs claim it (its
 * stores share the devmap's __dev_map_alloc_node), and a program redirecting through it loads
 * whatever the owner (tests/kernel/test_prog_array_owner_kernel.c shows both on 6.18).
 */
#include <errno.h>
#include <stdio.h>

#include <bpf/libbpf.h>

#include "bpf/map.h"
#include "bpf/prog.h"

/*
 * The owner word: the fields of the kernel's owner that netbpf has a twin of, packed so that
 * one compare-and-swap sets them all and one comparison checks them, plus one so that 0 stays
 * "no owner" (a BPF_PROG_TYPE_UNSPEC program may own an array):
 *
 *   bit 0	the programs run a JIT image (fp->jited; a checked or interpreted one does not)
 *   bit 1	the engine is open: no claim so far fixed it (bit 0 is then the first
 *		claimer's, which the kernel's owner_jited shows)
 *   bit 2	they take frames with fragments (aux->xdp_has_frags, NB_PROG_LOAD_XDP_HAS_FRAGS)
 *   bits 3-10	their expected attach type, which the kernel compares for program arrays only
 *		(values from 255 on, which no program type netbpf runs knows, share 255); 0 in
 *		the owner of any other map
 *   bits 11-	their program type
 *
 * The engine: the kernel compares fp->jited for every claim on every such map, because its
 * JIT's tail call jumps into the target's image. netbpf's engines enter each other's targets
 * (the JIT hands a target without an image to the interpreter, which goes on with the same
 * count), so only the programs stored in a program array share an engine, as in the kernel, and
 * a program that uses the array may run on either: its claim leaves the engine open, for the
 * first store to fix. A devmap's or cpumap's program is never entered by a tail call: the
 * datapath runs it on its own (nb_xdp_prog_run, from the devmap's transmit and the cpumap's
 * worker), on whichever engine it has, so no claim on these maps fixes the engine. On a kernel
 * with its JIT on, every program is JIT-compiled and the comparison never refuses one there.
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
#define OWNER_ATTACH		(OWNER_ATTACH_MAX << OWNER_ATTACH_SHIFT)
#define OWNER_TYPE_SHIFT	11
#define OWNER_ENGINE		(OWNER_JITED | OWNER_ANY_ENGINE)

bool nb_map_type_contains_progs(enum bpf_map_type type)
{
	/* not BPF_MAP_TYPE_DEVMAP_HASH, as in the kernel: above */
	return type == BPF_MAP_TYPE_PROG_ARRAY || type == BPF_MAP_TYPE_DEVMAP ||
	       type == BPF_MAP_TYPE_CPUMAP;
}

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
	bool prog_array = map->map_type == BPF_MAP_TYPE_PROG_ARRAY;
	/* Only a program stored in a program array is entered by another's JIT image. */
	bool fix_engine = stored && prog_array;
	u32 mine = nb_map_prog_owner(prog) - 1, seen = 0;

	if (!prog_array)
		mine &= ~OWNER_ATTACH;
	/* an open engine keeps the claimer's JIT state, for nb_map_owner to tell */
	if (!fix_engine)
		mine |= OWNER_ANY_ENGINE;
	mine += 1;
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
		if (!fix_engine)
			return 0;	/* a user, or any devmap/cpumap program, runs on either */
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

int nb_map_owner(const struct nb_map *map, enum bpf_prog_type *type, bool *jited)
{
	u32 owner = __atomic_load_n(&map->prog_owner, __ATOMIC_ACQUIRE);

	/* a devmap hash's too: 6.18's fdinfo shows every owner (test_prog_array_owner_kernel.c) */
	if (!owner)
		return -ENOENT;
	*type = (enum bpf_prog_type)((owner - 1) >> OWNER_TYPE_SHIFT);
	*jited = (owner - 1) & OWNER_JITED;
	return 0;
}
