// SPDX-License-Identifier: GPL-2.0
/*
 * The test objects loaded and run: programs that use maps and helpers only run on the interpreter
 * as the context-free test type, and the tests check r0 and the maps' contents afterwards, as the
 * kernel comparison in tests/kernel/test_elf_kernel.c does with the same objects.
 */
#include "bpf/map.h"
#include "elf_util.h"

static __u64 lookup_u64(struct nb_map *map, __u32 key)
{
	__u64 v = 0;
	int err = nb_map_lookup_elem(map, &key, &v);

	if (err)
		NB_FAIL("lookup key %u in %s: %d", key, nb_map_name(map), err);
	return v;
}

static __u32 lookup_u32(struct nb_map *map, __u32 key)
{
	__u32 v = 0;
	int err = nb_map_lookup_elem(map, &key, &v);

	if (err)
		NB_FAIL("lookup key %u in %s: %d", key, nb_map_name(map), err);
	return v;
}

NB_TEST(elf_run_btf_hash)
{
	struct nb_object *obj = elf_test_open("elf_hash.o");
	struct nb_map *m;
	__u32 missing = 8;
	__u64 v;

	elf_test_load(obj);
	m = elf_test_map(obj, "m");
	NB_ASSERT_EQ(nb_map_type(m), BPF_MAP_TYPE_HASH);
	NB_ASSERT_EQ(elf_test_run(obj, "count"), 1);
	NB_ASSERT_EQ(lookup_u64(m, 7), 100);
	NB_ASSERT_EQ(elf_test_run(obj, "count"), 101);
	NB_ASSERT_EQ(elf_test_run(obj, "count"), 102);
	NB_ASSERT_EQ(lookup_u64(m, 7), 102);
	NB_ASSERT_EQ(nb_map_lookup_elem(m, &missing, &v), -ENOENT);
	nb_object_close(obj);
}

NB_TEST(elf_run_iproute2)
{
	struct nb_object *obj = elf_test_open("elf_iproute2.o");
	struct nb_map *counters, *seen, *jmp;
	__u32 id;

	elf_test_load(obj);
	counters = elf_test_map(obj, "counters");
	seen = elf_test_map(obj, "seen");
	jmp = elf_test_map(obj, "jmp");
	/* The "1/0" and "1/1" sections filled jmp. */
	NB_ASSERT_EQ(nb_map_lookup_elem(jmp, &(__u32){ 0 }, &id), 0);
	NB_ASSERT_EQ(id, nb_prog_id(nb_object_prog_prog(nb_object_find_prog(obj, "1/0", NULL))));
	NB_ASSERT_EQ(nb_map_lookup_elem(jmp, &(__u32){ 1 }, &id), 0);
	NB_ASSERT_EQ(id, nb_prog_id(nb_object_prog_prog(nb_object_find_prog(obj, "1/1", NULL))));
	/* cls_main counts, then tail-calls tail_zero, which returns 10. */
	NB_ASSERT_EQ(elf_test_run(obj, "cls_main"), 10);
	NB_ASSERT_EQ(lookup_u64(counters, 0), 1);
	NB_ASSERT_EQ(lookup_u64(counters, 1), 10);
	NB_ASSERT_EQ(elf_test_run(obj, "xmit"), 3);
	NB_ASSERT_EQ(lookup_u32(seen, 5), 55);
	NB_ASSERT_EQ(lookup_u64(counters, 2), 3);
	nb_object_close(obj);
}

/* tc's "sec classifier": cls_main and the "1/0", "1/1" tail calls load; xmit does not. */
NB_TEST(elf_load_one_section)
{
	struct nb_object *obj = elf_test_open("elf_iproute2.o");
	struct nb_log log = { 0 };
	struct nb_object_load_opts opts = {
		.sz = sizeof(opts),
		.prog_type = BPF_PROG_TYPE_SYSCALL,
		.prog_flags = NB_PROG_LOAD_INTERP | NB_PROG_LOAD_UNSAFE_NO_VERIFY,
		.section = "classifier",
		.log = &log,
	};

	NB_ASSERT_EQ(nb_object_load(obj, &opts), 0);
	NB_ASSERT(nb_object_prog_prog(nb_object_find_prog(obj, "classifier", "cls_main")));
	NB_ASSERT(nb_object_prog_prog(nb_object_find_prog(obj, "1/1", NULL)));
	NB_ASSERT(!nb_object_prog_prog(nb_object_find_prog(obj, NULL, "xmit")));
	NB_ASSERT_EQ(elf_test_run(obj, "cls_main"), 10);
	nb_object_close(obj);
	obj = elf_test_open("elf_iproute2.o");
	opts.section = "nope";
	NB_ASSERT_EQ(nb_object_load(obj, &opts), -ENOENT);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "elf_iproute2.o: no program in section nope");
	nb_log_free(&log);
	nb_object_close(obj);
}

/* iproute2's inner_id / inner_idx: the inner map sits in the outer one at index 1. */
NB_TEST(elf_run_iproute2_map_in_map)
{
	struct nb_object *obj = elf_test_open("elf_iproute2_mim.o");
	struct nb_map *outer, *inner;
	__u32 id;

	elf_test_load(obj);
	outer = elf_test_map(obj, "outer");
	inner = elf_test_map(obj, "inner");
	NB_ASSERT_EQ(nb_map_lookup_elem(outer, &(__u32){ 1 }, &id), 0);
	NB_ASSERT_EQ(id, nb_map_id(inner));
	NB_ASSERT_EQ(nb_map_lookup_elem(outer, &(__u32){ 0 }, &id), -ENOENT);
	NB_ASSERT_EQ(elf_test_run(obj, "through_outer"), 77);
	NB_ASSERT_EQ(lookup_u32(inner, 0), 77);
	nb_object_close(obj);
}

NB_TEST(elf_run_legacy_libbpf)
{
	struct nb_object *obj = elf_test_open("elf_legacy_libbpf.o");

	elf_test_load(obj);
	NB_ASSERT_EQ(elf_test_run(obj, "legacy_xdp"), 9);
	NB_ASSERT_EQ(lookup_u32(elf_test_map(obj, "arr"), 1), 9);
	nb_object_close(obj);
}

NB_TEST(elf_run_globals)
{
	struct nb_object *obj = elf_test_open("elf_globals.o");
	struct nb_map *data, *bss, *rodata;
	__u8 buf[64];
	__u64 v;

	elf_test_load(obj);
	data = elf_test_map(obj, ".data");
	bss = elf_test_map(obj, ".bss");
	rodata = elf_test_map(obj, ".rodata");
	/* The kernel's names, libbpf's: the object's first 8 characters, then the section. */
	NB_ASSERT(!strcmp(nb_map_name(data), "elf_glob.data"));
	NB_ASSERT(!strcmp(nb_map_name(bss), "elf_glob.bss"));
	NB_ASSERT(!strcmp(nb_map_name(rodata), "elf_glob.rodata"));
	/* data_counter 5 -> 6, times factor 3. */
	NB_ASSERT_EQ(elf_test_run(obj, "prog_a"), 18);
	NB_ASSERT_EQ(nb_map_lookup_elem(data, &(__u32){ 0 }, buf), 0);
	memcpy(&v, buf, 8);
	NB_ASSERT_EQ(v, 6);
	/* add_bss(table[2] = 3) + scale(2) = 3 + 6. */
	NB_ASSERT_EQ(elf_test_run(obj, "prog_b"), 9);
	NB_ASSERT_EQ(nb_map_lookup_elem(bss, &(__u32){ 0 }, buf), 0);
	memcpy(&v, buf, 8);
	NB_ASSERT_EQ(v, 3);
	NB_ASSERT_EQ(elf_test_run(obj, "prog_str"), 'c');
	/* .rodata is frozen: userspace can no longer write it. */
	NB_ASSERT_EQ(nb_map_lookup_elem(rodata, &(__u32){ 0 }, buf), 0);
	NB_ASSERT_EQ(nb_map_update_elem(rodata, &(__u32){ 0 }, buf, BPF_ANY), -EPERM);
	nb_object_close(obj);
}

NB_TEST(elf_run_globals_loop_callback)
{
	struct nb_object *obj = elf_test_open("elf_globals.o");
	__u8 buf[16];
	__u32 seen;

	elf_test_load(obj);
	NB_ASSERT_EQ(elf_test_run(obj, "prog_loop"), 1 + 2 + 3 + 4);
	NB_ASSERT_EQ(nb_map_lookup_elem(elf_test_map(obj, ".bss"), &(__u32){ 0 }, buf), 0);
	memcpy(&seen, buf + 8, 4);
	NB_ASSERT_EQ(seen, 10);
	nb_object_close(obj);
}

NB_TEST(elf_run_set_rodata)
{
	struct nb_object *obj = elf_test_open("elf_globals.o");
	__u32 factor = 5;
	__u64 off = 1000;

	NB_ASSERT_EQ(nb_object_set_rodata(obj, "factor", &factor, sizeof(factor)), 0);
	NB_ASSERT_EQ(nb_object_set_rodata(obj, "offset_ro", &off, sizeof(off)), 0);
	elf_test_load(obj);
	NB_ASSERT_EQ(elf_test_run(obj, "prog_a"), 6 * 5 + 1000);
	NB_ASSERT_EQ(nb_object_set_rodata(obj, "factor", &factor, sizeof(factor)), -EBUSY);
	nb_object_close(obj);
}

NB_TEST(elf_run_all_maps)
{
	struct nb_object *obj = elf_test_open("elf_all_maps.o");
	struct nb_map *outer, *inner_b;
	__u32 id;

	elf_test_load(obj);
	outer = elf_test_map(obj, "outer");
	inner_b = elf_test_map(obj, "inner_b");
	NB_ASSERT_EQ(nb_map_lookup_elem(outer, &(__u32){ 1 }, &id), 0);
	NB_ASSERT_EQ(id, nb_map_id(inner_b));
	NB_ASSERT_EQ(nb_map_lookup_elem(outer, &(__u32){ 0 }, &id), 0);
	NB_ASSERT_EQ(id, nb_map_id(elf_test_map(obj, "inner_a")));
	/* hash_outer holds inner_a at key 3 only. */
	NB_ASSERT_EQ(nb_map_lookup_elem(elf_test_map(obj, "hash_outer"), &(__u32){ 3 }, &id), 0);
	NB_ASSERT_EQ(id, nb_map_id(elf_test_map(obj, "inner_a")));
	NB_ASSERT_EQ(nb_map_lookup_elem(elf_test_map(obj, "hash_outer"), &(__u32){ 0 }, &id),
		     -ENOENT);
	NB_ASSERT_EQ(nb_map_lookup_elem(elf_test_map(obj, "jmp_table"), &(__u32){ 1 }, &id), 0);
	NB_ASSERT_EQ(id, nb_prog_id(nb_object_prog_prog(nb_object_find_prog(obj, NULL,
									      "tail_target"))));
	NB_ASSERT_EQ(elf_test_run(obj, "use_tail"), 42);
	NB_ASSERT_EQ(elf_test_run(obj, "use_basic"), 66);
	NB_ASSERT_EQ(lookup_u64(elf_test_map(obj, "hash"), 1), 11);
	NB_ASSERT_EQ(lookup_u32(elf_test_map(obj, "array"), 2), 22);
	NB_ASSERT_EQ(elf_test_run(obj, "use_inner"), 7);
	NB_ASSERT_EQ(lookup_u64(inner_b, 0), 7);
	NB_ASSERT_EQ(lookup_u64(elf_test_map(obj, "inner_a"), 0), 0);
	NB_ASSERT_EQ(elf_test_run(obj, "use_queue_stack"), 13);
	NB_ASSERT_EQ(elf_test_run(obj, "use_lpm"), 16);
	NB_ASSERT_EQ(elf_test_run(obj, "use_percpu"), 0);
	nb_object_close(obj);
}

/* A second object with the same PIN_GLOBAL_NS map gets the same map, contents and all. */
NB_TEST(elf_pin_global_shared)
{
	struct nb_object *a = elf_test_open("elf_iproute2.o");
	struct nb_object *b = elf_test_open("elf_pin_share.o");
	struct nb_map *pinned;

	elf_test_load(a);
	elf_test_load(b);
	NB_ASSERT(elf_test_map(a, "counters") == elf_test_map(b, "counters"));
	pinned = nb_pin_get_map("tc/globals/counters");
	NB_ASSERT(pinned == elf_test_map(a, "counters"));
	nb_map_put(pinned);
	NB_ASSERT_EQ(elf_test_run(a, "cls_main"), 10);
	NB_ASSERT_EQ(elf_test_run(b, "read_counter"), 1);
	/* The registry keeps the map after both objects are gone. */
	nb_object_close(a);
	nb_object_close(b);
	pinned = nb_pin_get_map("tc/globals/counters");
	NB_ASSERT(pinned);
	NB_ASSERT_EQ(lookup_u64(pinned, 0), 1);
	nb_map_put(pinned);
	NB_ASSERT_EQ(nb_unpin("tc/globals/counters"), 0);
	NB_ASSERT(!nb_pin_get_map("tc/globals/counters"));
	NB_ASSERT_EQ(nb_unpin("tc/globals/counters"), -ENOENT);
}

/* libbpf's LIBBPF_PIN_BY_NAME and iproute2's PIN_GLOBAL_NS share one namespace. */
NB_TEST(elf_pin_btf_by_name)
{
	struct nb_object *a = elf_test_open("elf_iproute2.o");
	struct nb_object *b = elf_test_open("elf_btf_pin.o");

	NB_ASSERT(!strcmp(nb_object_map_pin_path(nb_object_find_map(b, "counters")),
			  "tc/globals/counters"));
	elf_test_load(a);
	elf_test_load(b);
	NB_ASSERT(elf_test_map(a, "counters") == elf_test_map(b, "counters"));
	NB_ASSERT_EQ(elf_test_run(b, "add_hundred"), 100);
	NB_ASSERT_EQ(lookup_u64(elf_test_map(a, "counters"), 3), 100);
	nb_object_close(a);
	nb_object_close(b);
}

/* PIN_OBJECT_NS: two loads of one file share; the map is not in the global namespace. */
NB_TEST(elf_pin_object_ns)
{
	struct nb_object *a = elf_test_open("elf_iproute2.o");
	struct nb_object *b = elf_test_open("elf_iproute2.o");

	elf_test_load(a);
	elf_test_load(b);
	NB_ASSERT(elf_test_map(a, "seen") == elf_test_map(b, "seen"));
	NB_ASSERT(elf_test_map(a, "jmp") != elf_test_map(b, "jmp"));
	NB_ASSERT(!nb_pin_get_map("tc/globals/seen"));
	nb_object_close(a);
	nb_object_close(b);
	nb_unpin_all();
}

NB_TEST(elf_pin_mismatch_refused)
{
	struct nb_object *a = elf_test_open("elf_iproute2.o");
	struct nb_object *b = elf_test_open("elf_pin_mismatch.o");
	struct nb_log log = { 0 };
	struct nb_object_load_opts opts = { .sz = sizeof(opts), .maps_only = true, .log = &log };

	elf_test_load(a);
	NB_ASSERT_EQ(nb_object_load(b, &opts), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "elf_pin_mismatch.o: section maps: map counters: "
			       "differs from the map pinned at tc/globals/counters: max_entries "
			       "8 (object) != 4 (pinned)");
	NB_ASSERT(!nb_object_loaded(b));
	nb_log_free(&log);
	nb_object_close(a);
	nb_object_close(b);
}

NB_TEST(elf_load_twice_refused)
{
	struct nb_object *obj = elf_test_open("elf_hash.o");
	struct nb_log log = { 0 };
	struct nb_object_load_opts opts = { .sz = sizeof(opts), .maps_only = true, .log = &log };

	elf_test_load(obj);
	NB_ASSERT_EQ(nb_object_load(obj, &opts), -EBUSY);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "already loaded");
	nb_log_free(&log);
	nb_object_close(obj);
}

/* Without a type to give, a custom section name is an error that names the section. */
NB_TEST(elf_load_needs_type)
{
	struct nb_object *obj = elf_test_open("elf_iproute2.o");
	struct nb_object_prog *p;
	struct nb_log log = { 0 };
	struct nb_object_load_opts opts = {
		.sz = sizeof(opts),
		.prog_flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY,
		.log = &log,
	};

	/* Only xmit, whose section tells nothing, and no other program to take the type from. */
	nb_object_for_each_prog(p, obj)
		nb_object_prog_set_autoload(p, !strcmp(nb_object_prog_name(p), "xmit"));
	nb_object_prog_set_type(nb_object_find_prog(obj, "classifier", NULL), 0);
	if (nb_object_load(obj, &opts) == 0)
		NB_FAIL("loaded without a type");
	if (strstr(nb_log_text(&log), "unsupported map type"))
		nb_test_skip("not built yet: %s", nb_log_text(&log));
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "program xmit (section redirect_xmit): the "
			       "section name tells no program type");
	nb_log_free(&log);
	nb_object_close(obj);
}
