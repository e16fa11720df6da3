// SPDX-License-Identifier: GPL-2.0
/*
 * User references on maps (map->usercnt): an object and a pin are users of a map, programs are
 * not. When the last user goes, a program array empties itself, so a program that tail-calls
 * through an array holding itself is freed with its object, and one in a pinned array lives
 * until the pin goes, as in the kernel.
 */
#include "bpf/epoch.h"
#include "bpf/map.h"
#include "bpf/prog.h"
#include "elf_util.h"

static __u32 prog_id(struct nb_object *obj, const char *name)
{
	struct nb_object_prog *p = nb_object_find_prog(obj, NULL, name);

	NB_ASSERT(p && nb_object_prog_prog(p));
	return nb_object_prog_prog(p)->id;
}

static bool prog_alive(__u32 id)
{
	struct nb_prog *prog;

	nb_epoch_barrier();
	prog = nb_prog_get_by_id(id);
	nb_prog_put(prog);
	return prog != NULL;
}

NB_TEST(map_uref_self_tail_call_freed_with_object)
{
	struct nb_object *obj = elf_test_open("elf_self_tail.o");
	__u32 mine, pinned;

	elf_test_load(obj);
	NB_ASSERT_EQ(elf_test_run(obj, "again"), 1);
	NB_ASSERT_EQ(elf_test_run(obj, "again_pinned"), 2);
	mine = prog_id(obj, "again");
	pinned = prog_id(obj, "again_pinned");
	nb_object_close(obj);

	NB_ASSERT(!prog_alive(mine));
	NB_ASSERT(prog_alive(pinned));
	NB_ASSERT_EQ(nb_unpin("tc/globals/self_jmp_pinned"), 0);
	NB_ASSERT(!prog_alive(pinned));
}

/* A second object sharing the pinned array is one more user: the first close keeps the slot. */
NB_TEST(map_uref_pinned_array_shared_by_two_objects)
{
	struct nb_object *a = elf_test_open("elf_self_tail.o");
	struct nb_object *b = elf_test_open("elf_self_tail.o");
	struct nb_map *jmp;
	__u32 id;

	elf_test_load(a);
	elf_test_load(b);
	jmp = nb_map_get(elf_test_map(a, "self_jmp_pinned"));
	NB_ASSERT(jmp == elf_test_map(b, "self_jmp_pinned"));
	nb_object_close(a);
	NB_ASSERT_EQ(nb_map_lookup_elem(jmp, &(__u32){ 0 }, &id), 0);
	NB_ASSERT_EQ(nb_unpin("tc/globals/self_jmp_pinned"), 0);
	NB_ASSERT_EQ(nb_map_lookup_elem(jmp, &(__u32){ 0 }, &id), 0);
	nb_object_close(b);
	/* No user left: the array was emptied, though the test still holds the map. */
	NB_ASSERT_EQ(nb_map_lookup_elem(jmp, &(__u32){ 0 }, &id), -ENOENT);
	nb_map_put(jmp);
}
