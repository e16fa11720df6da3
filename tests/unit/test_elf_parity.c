// SPDX-License-Identifier: GPL-2.0
/*
 * Objects other loaders take as they are: libbpf 1.x (optional sections, programs that reach a
 * kfunc refused alone, a hash of maps whose `values` stay empty, maps sized before load),
 * old LLVM (EM_NONE), older loaders' "maps/NAME" sections, the kernel samples' map definitions
 * and Cilium's replacing pin. Each is loaded and, where it has a program, run.
 */
#include <elf.h>

#include "elf_util.h"

static int load_as(struct nb_object *obj, enum bpf_prog_type type, struct nb_log *log)
{
	struct nb_object_load_opts opts = {
		.sz = sizeof(opts),
		.prog_type = type,
		.prog_flags = NB_PROG_LOAD_INTERP,
		.log = log,
	};

	return nb_object_load(obj, &opts);
}

NB_TEST(elf_parity_optional_section)
{
	struct nb_object *obj = elf_test_open("elf_optional.o");
	struct nb_object_prog *always = nb_object_find_prog(obj, "tc", "always");
	struct nb_object_prog *chosen = nb_object_find_prog(obj, "tc", "when_chosen");
	struct nb_log log = { 0 };

	/* "?tc" is section "tc"; its program waits to be chosen. */
	NB_ASSERT(always && chosen);
	NB_ASSERT(nb_object_prog_autoload(always) && !nb_object_prog_autoload(chosen));
	NB_ASSERT_EQ(nb_object_prog_type(chosen), BPF_PROG_TYPE_SCHED_CLS);
	NB_ASSERT_EQ(load_as(obj, 0, &log), 0);
	NB_ASSERT(nb_object_prog_prog(always) && !nb_object_prog_prog(chosen));
	nb_object_close(obj);

	/* tc's "sec tc" chooses the section, optional programs too. */
	obj = elf_test_open("elf_optional.o");
	{
		struct nb_object_load_opts opts = { .sz = sizeof(opts), .section = "tc",
						    .log = &log };

		NB_ASSERT_EQ(nb_object_load(obj, &opts), 0);
	}
	NB_ASSERT(nb_object_prog_prog(nb_object_find_prog(obj, "tc", "when_chosen")));
	NB_ASSERT_EQ(nb_prog_run(nb_object_prog_prog(nb_object_find_prog(obj, NULL,
									   "when_chosen")),
				 NULL), 2);
	nb_log_free(&log);
	nb_object_close(obj);
}

/* libbpf refuses only the programs that reach a symbol it cannot resolve. */
NB_TEST(elf_parity_kfunc_sibling)
{
	struct nb_object *obj = elf_test_open("elf_kfunc_sibling.o");
	struct nb_object_prog *p;
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(load_as(obj, 0, &log), -EOPNOTSUPP);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "program calls_kfunc: section tc, insn ");
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "relocation #0 of .reltc against "
			       "bpf_rcu_read_lock: calls kfunc bpf_rcu_read_lock, a __ksym");
	nb_log_free(&log);

	nb_object_for_each_prog(p, obj)
		nb_object_prog_set_autoload(p, !strcmp(nb_object_prog_name(p), "reads_kconfig"));
	NB_ASSERT_EQ(load_as(obj, 0, &log), -EOPNOTSUPP);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "reads LINUX_KERNEL_VERSION, a __kconfig "
			       "variable: netbpf has no kernel configuration");
	nb_log_free(&log);

	nb_object_for_each_prog(p, obj)
		nb_object_prog_set_autoload(p, !strcmp(nb_object_prog_name(p), "plain"));
	NB_ASSERT_EQ(load_as(obj, 0, &log), 0);
	NB_ASSERT_EQ(elf_test_run(obj, "plain"), 3);
	nb_log_free(&log);
	nb_object_close(obj);
}

/* An undefined variable (another object's, not linked in): only its readers fail. */
NB_TEST(elf_parity_undefined_variable)
{
	FILE *f = fopen(elf_test_path("elf_globals.o"), "rb");
	struct nb_log log = { 0 };
	struct nb_object_open_opts opts = { .sz = sizeof(opts), .name = "u.o", .log = &log };
	static unsigned char buf[1 << 16];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Shdr *sh, *symtab = NULL;
	struct nb_object *obj;
	size_t n;

	NB_ASSERT(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	NB_ASSERT(n > sizeof(*eh) && n < sizeof(buf));
	sh = (Elf64_Shdr *)(buf + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = &sh[i];
	NB_ASSERT(symtab);
	for (size_t i = 0; i < symtab->sh_size / sizeof(Elf64_Sym); i++) {
		Elf64_Sym *s = (Elf64_Sym *)(buf + symtab->sh_offset) + i;

		if (!strcmp((char *)buf + sh[symtab->sh_link].sh_offset + s->st_name,
			    "data_counter"))
			s->st_shndx = SHN_UNDEF;
	}
	NB_ASSERT_EQ(nb_object_open_mem(buf, n, &opts, &obj), 0);
	NB_ASSERT_EQ(load_as(obj, BPF_PROG_TYPE_SOCKET_FILTER, &log), -EOPNOTSUPP);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "u.o: program prog_a: section socket, insn 0 "
			       "(function prog_a), relocation #0 of .relsocket against "
			       "data_counter: reads data_counter, which the object does not "
			       "define");
	nb_log_free(&log);
	nb_object_close(obj);
}

/* The samples' 28-byte definitions: the template by position, value_size 0 made 4. */
NB_TEST(elf_parity_samples_map_in_map)
{
	struct nb_object *obj = elf_test_open("elf_samples_maps.o");
	struct nb_object_map *outer = nb_object_find_map(obj, "outer");
	struct nb_map_create_opts o = { .sz = sizeof(o), .name = "inner" };
	struct nb_map *inner, *hash;
	__u32 zero = 0, v = 42, id;

	NB_ASSERT(outer);
	NB_ASSERT_EQ(nb_object_map_value_size(outer), 4);
	elf_test_load(obj);
	NB_ASSERT_EQ((__u32)elf_test_run(obj, "through_outer"), (__u32)-1);
	/* What the template allows goes in; another shape does not. */
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, &o, &inner), 0);
	NB_ASSERT_EQ(nb_map_update_elem(inner, &zero, &v, BPF_ANY), 0);
	id = nb_map_id(inner);
	NB_ASSERT_EQ(nb_map_update_elem(elf_test_map(obj, "outer"), &zero, &id, BPF_ANY), 0);
	NB_ASSERT_EQ(elf_test_run(obj, "through_outer"), 42);
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_HASH, 4, 4, 1, &o, &hash), 0);
	id = nb_map_id(hash);
	NB_ASSERT_EQ(nb_map_update_elem(elf_test_map(obj, "outer"), &zero, &id, BPF_ANY),
		     -EINVAL);
	nb_map_put(hash);
	nb_map_put(inner);
	nb_object_close(obj);
}

/* "maps/NAME" sections, one map each, and Cilium's CILIUM_PIN_REPLACE. */
NB_TEST(elf_parity_maps_sections_and_replace)
{
	struct nb_object *first = elf_test_open("elf_maps_sections.o"), *second;
	struct nb_map *pinned;
	__u32 zero = 0, five = 5;
	__u64 hits;

	elf_test_load(first);
	NB_ASSERT_STR_CONTAINS(nb_object_map_pin_path(nb_object_find_map(first,
									 "calls_replaced")),
			       "tc/globals/calls_replaced");
	NB_ASSERT_EQ(nb_map_update_elem(elf_test_map(first, "calls_replaced"), &zero, &five,
					BPF_ANY), 0);
	NB_ASSERT_EQ(elf_test_run(first, "count"), 5);
	NB_ASSERT_EQ(nb_map_lookup_elem(elf_test_map(first, "hits"), &zero, &hits), 0);
	NB_ASSERT_EQ(hits, 1);
	pinned = nb_pin_get_map("tc/globals/calls_replaced");
	NB_ASSERT(pinned == elf_test_map(first, "calls_replaced"));
	nb_map_put(pinned);

	/* A second load makes its own map and takes the pin over, as Cilium's loader does. */
	second = elf_test_open("elf_maps_sections.o");
	elf_test_load(second);
	NB_ASSERT(elf_test_map(second, "calls_replaced") != elf_test_map(first, "calls_replaced"));
	NB_ASSERT_EQ(elf_test_run(second, "count"), 0);
	pinned = nb_pin_get_map("tc/globals/calls_replaced");
	NB_ASSERT(pinned == elf_test_map(second, "calls_replaced"));
	nb_map_put(pinned);
	nb_object_close(first);
	nb_object_close(second);
	nb_unpin_all();
}

/*
 * libbpf checks a hash of maps' key size only where a `values` slot is filled at load; a map
 * its tool sizes loads once sized.
 */
NB_TEST(elf_parity_btf_maps)
{
	struct nb_object *obj = elf_test_open("elf_btf_parity.o");
	struct nb_object_map *m = nb_object_find_map(obj, "sized_by_tool");
	struct nb_object_map_size sizes[] = { { "sized_by_tool", 3 } };
	struct nb_object_load_opts opts = {
		.sz = sizeof(opts),
		.prog_flags = NB_PROG_LOAD_INTERP,
		.map_sizes = sizes,
		.map_size_cnt = 1,
	};
	struct nb_log log = { 0 };

	NB_ASSERT(m && !nb_object_map_max_entries(m));
	NB_ASSERT_EQ(nb_object_map_key_size(nb_object_find_map(obj, "by_flow")), 20);
	NB_ASSERT_EQ(load_as(obj, 0, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "section .maps: map sized_by_tool: "
			       "max_entries 0: the object leaves the size to its loader");
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_object_map_set_max_entries(m, 0), -EINVAL);
	opts.log = &log;
	NB_ASSERT_EQ(nb_object_load(obj, &opts), 0);
	NB_ASSERT_EQ(nb_map_max_entries(nb_object_map_map(m)), 3);
	NB_ASSERT_EQ(nb_object_map_set_max_entries(m, 5), -EBUSY);
	NB_ASSERT_EQ(elf_test_run(obj, "lookup"), 0);
	nb_object_close(obj);

	obj = elf_test_open("elf_btf_parity.o");
	sizes[0].name = "no_such_map";
	NB_ASSERT_EQ(nb_object_load(obj, &opts), -ENOENT);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "max_entries no_such_map=3: the object has no "
			       "map no_such_map");
	nb_log_free(&log);
	nb_object_close(obj);
}

/* Cilium's replacing pin in .maps: each load takes the pin over with a fresh map. */
NB_TEST(elf_parity_btf_pin_replace)
{
	struct nb_object *first = elf_test_open("elf_btf_pin_replace.o"), *second;
	__u32 zero = 0, seven = 7;
	struct nb_map *pinned;

	elf_test_load(first);
	NB_ASSERT_EQ(nb_map_update_elem(elf_test_map(first, "replaced"), &zero, &seven, BPF_ANY),
		     0);
	second = elf_test_open("elf_btf_pin_replace.o");
	elf_test_load(second);
	NB_ASSERT_EQ(elf_test_run(first, "read_replaced"), 7);
	NB_ASSERT_EQ(elf_test_run(second, "read_replaced"), 0);
	pinned = nb_pin_get_map("tc/globals/replaced");
	NB_ASSERT(pinned == elf_test_map(second, "replaced"));
	nb_map_put(pinned);
	nb_object_close(first);
	nb_object_close(second);
	nb_unpin_all();
}

/* LLVM before 7 wrote e_machine EM_NONE; libbpf takes it. */
NB_TEST(elf_parity_em_none)
{
	FILE *f = fopen(elf_test_path("elf_optional.o"), "rb");
	struct nb_log log = { 0 };
	struct nb_object_open_opts opts = { .sz = sizeof(opts), .log = &log };
	static unsigned char buf[1 << 16];
	struct nb_object *obj;
	size_t n;

	NB_ASSERT(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	NB_ASSERT(n > sizeof(Elf64_Ehdr) && n < sizeof(buf));
	((Elf64_Ehdr *)buf)->e_machine = EM_NONE;
	NB_ASSERT_EQ(nb_object_open_mem(buf, n, &opts, &obj), 0);
	NB_ASSERT_EQ(load_as(obj, 0, &log), 0);
	nb_object_close(obj);
	((Elf64_Ehdr *)buf)->e_machine = EM_X86_64;
	NB_ASSERT_EQ(nb_object_open_mem(buf, n, &opts, &obj), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "ELF machine 62 is not EM_BPF (247)");
	nb_log_free(&log);
}
