// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed objects: each case takes a test object, breaks one thing byte-wise (a header field,
 * a section offset, a relocation, a symbol, BTF, a map definition, a name) and checks that open
 * fails with a message naming the file and the section, symbol or relocation at fault. Run under
 * ASan (make check SANITIZE=1), the same cases show there is no crash and no leak.
 */
#include <elf.h>

#include "elf_util.h"

struct image {
	unsigned char *buf;
	size_t size;
};

static struct image load_image(const char *name)
{
	struct image im = { 0 };
	FILE *f = fopen(elf_test_path(name), "rb");

	if (!f)
		NB_FAIL("cannot open %s", elf_test_path(name));
	im.buf = malloc(1 << 20);
	NB_ASSERT(im.buf);
	im.size = fread(im.buf, 1, 1 << 20, f);
	fclose(f);
	NB_ASSERT(im.size > sizeof(Elf64_Ehdr));
	return im;
}

static Elf64_Ehdr *ehdr(struct image *im)
{
	return (Elf64_Ehdr *)im->buf;
}

static Elf64_Shdr *shdr_at(struct image *im, unsigned int i)
{
	return (Elf64_Shdr *)(im->buf + ehdr(im)->e_shoff) + i;
}

static Elf64_Shdr *find_shdr(struct image *im, const char *name)
{
	Elf64_Shdr *strs = shdr_at(im, ehdr(im)->e_shstrndx);

	for (unsigned int i = 1; i < ehdr(im)->e_shnum; i++) {
		Elf64_Shdr *sh = shdr_at(im, i);

		if (!strcmp((char *)im->buf + strs->sh_offset + sh->sh_name, name))
			return sh;
	}
	NB_FAIL("no section %s", name);
}

static Elf64_Sym *find_sym(struct image *im, const char *name)
{
	Elf64_Shdr *symtab = find_shdr(im, ".symtab");
	Elf64_Shdr *strtab = shdr_at(im, symtab->sh_link);
	Elf64_Sym *syms = (Elf64_Sym *)(im->buf + symtab->sh_offset);

	for (size_t i = 0; i < symtab->sh_size / sizeof(*syms); i++)
		if (!strcmp((char *)im->buf + strtab->sh_offset + syms[i].st_name, name))
			return &syms[i];
	NB_FAIL("no symbol %s", name);
}

/* Rename a symbol in place: the new name must not be longer. */
static void rename_sym(struct image *im, const char *from, const char *to)
{
	Elf64_Shdr *strtab = shdr_at(im, find_shdr(im, ".symtab")->sh_link);

	strcpy((char *)im->buf + strtab->sh_offset + find_sym(im, from)->st_name, to);
}

static Elf64_Rel *first_rel(struct image *im, const char *rel_sec)
{
	return (Elf64_Rel *)(im->buf + find_shdr(im, rel_sec)->sh_offset);
}

static void *sec_data(struct image *im, const char *name)
{
	return im->buf + find_shdr(im, name)->sh_offset;
}

struct bad_case {
	const char *name;
	const char *object;
	void (*mutate)(struct image *im);
	const char *message;
};

static void truncate_ident(struct image *im)
{
	im->size = 10;
}

static void truncate_header(struct image *im)
{
	im->size = 40;
}

static void class32(struct image *im)
{
	im->buf[EI_CLASS] = ELFCLASS32;
}

static void big_endian(struct image *im)
{
	im->buf[EI_DATA] = ELFDATA2MSB;
}

static void machine_x86(struct image *im)
{
	ehdr(im)->e_machine = EM_X86_64;
}

static void type_exec(struct image *im)
{
	ehdr(im)->e_type = ET_EXEC;
}

static void shoff_past_end(struct image *im)
{
	ehdr(im)->e_shoff = im->size - 8;
}

static void truncate_sections(struct image *im)
{
	/* Cut the file right after the section header table's start. */
	im->size = ehdr(im)->e_shoff + sizeof(Elf64_Shdr) * 2;
}

static void sec_offset_past_end(struct image *im)
{
	find_shdr(im, "socket")->sh_offset = im->size + 4096;
}

static void sec_size_odd(struct image *im)
{
	find_shdr(im, "socket")->sh_size -= 4;
}

static void rel_missing_sym(struct image *im)
{
	Elf64_Rel *r = first_rel(im, ".relsocket");

	r->r_info = ELF64_R_INFO(9999, ELF64_R_TYPE(r->r_info));
}

static void rel_outside_section(struct image *im)
{
	first_rel(im, ".relsocket")->r_offset = find_shdr(im, "socket")->sh_size;
}

static void rel_misaligned(struct image *im)
{
	first_rel(im, ".relsocket")->r_offset += 4;
}

static void rel_on_plain_insn(struct image *im)
{
	/* Instruction 2 of prog_a is a load, not a ldimm64 or call. */
	first_rel(im, ".relsocket")->r_offset = 2 * 8;
}

static void rel_bad_type(struct image *im)
{
	Elf64_Rel *r = first_rel(im, ".relsocket");

	r->r_info = ELF64_R_INFO(ELF64_R_SYM(r->r_info), R_BPF_64_32);
}

static void call_into_middle(struct image *im)
{
	/* prog_a's call (insn 5) to scale: point it one instruction further. */
	struct bpf_insn *insns = sec_data(im, "socket");

	NB_ASSERT(insns[5].code == (BPF_JMP | BPF_CALL));
	insns[5].imm += 1;
}

static void garbage_btf(struct image *im)
{
	memset(sec_data(im, ".BTF"), 0xff, find_shdr(im, ".BTF")->sh_size);
}

static void btf_bad_string(struct image *im)
{
	/* The header's string section length runs past the section. */
	((unsigned int *)sec_data(im, ".BTF"))[5] = 0x7fffffff;
}

static void legacy_key_size_zero(struct image *im)
{
	((unsigned int *)sec_data(im, "maps"))[1] = 0;
}

static void legacy_absurd_max_entries(struct image *im)
{
	((unsigned int *)sec_data(im, "maps"))[5 + 3] = 0xffffffff;
}

static void legacy_unknown_type(struct image *im)
{
	((unsigned int *)sec_data(im, "maps"))[0] = 9999;
}

static void legacy_bad_pinning(struct image *im)
{
	/* counters (iproute2's 36-byte struct): pinning is the seventh field. */
	((unsigned int *)sec_data(im, "maps"))[6] = 7;
}

static void legacy_odd_size(struct image *im)
{
	find_sym(im, "arr")->st_size = 6;
	find_sym(im, "lru")->st_size = 6;
	find_sym(im, "lru")->st_value = 6;
}

static void duplicate_map(struct image *im)
{
	rename_sym(im, "lru", "arr");
}

static void duplicate_prog(struct image *im)
{
	rename_sym(im, "prog_b", "prog_a");
}

static void func_outside(struct image *im)
{
	find_sym(im, "prog_a")->st_size = 1 << 20;
}

static void license_unterminated(struct image *im)
{
	Elf64_Shdr *sh = find_shdr(im, "license");

	memset(im->buf + sh->sh_offset, 'A', sh->sh_size);
}

static void bss_huge(struct image *im)
{
	find_shdr(im, ".bss")->sh_size = 1ULL << 40;
}

static void two_btf(struct image *im)
{
	/* Cut .BTF.ext to .BTF: a second BTF section after the real one. */
	Elf64_Shdr *strs = shdr_at(im, ehdr(im)->e_shstrndx);
	Elf64_Shdr *sh = find_shdr(im, ".BTF.ext");

	im->buf[strs->sh_offset + sh->sh_name + 4] = '\0';
}

static void no_symtab(struct image *im)
{
	find_shdr(im, ".symtab")->sh_type = SHT_PROGBITS;
}

static void btf_map_key_size_zero(struct image *im)
{
	/* m's key is a __u32 pointer; give the definition a key_size of 0 instead. */
	find_sym(im, "m")->st_name = find_sym(im, "count")->st_name;
}

static const struct bad_case cases[] = {
	{ "truncated_ident", "elf_hash.o", truncate_ident, "bad.o: not an ELF file" },
	{ "truncated_header", "elf_hash.o", truncate_header, "bad.o: truncated ELF header" },
	{ "class32", "elf_hash.o", class32, "bad.o: ELF class 1 is not ELFCLASS64" },
	{ "big_endian", "elf_hash.o", big_endian, "bad.o: ELF data encoding 2 is not little-endian" },
	{ "machine", "elf_hash.o", machine_x86, "bad.o: ELF machine 62 is not EM_BPF (247)" },
	{ "type_exec", "elf_hash.o", type_exec, "bad.o: ELF type 2 is not ET_REL" },
	{ "shoff_past_end", "elf_hash.o", shoff_past_end, "bad.o: section header table at offset" },
	{ "truncated_sections", "elf_hash.o", truncate_sections,
	  "bad.o: section header table at offset" },
	{ "sec_offset_past_end", "elf_hash.o", sec_offset_past_end,
	  "bad.o: section socket: offset" },
	{ "sec_size_odd", "elf_hash.o", sec_size_odd,
	  "bad.o: section socket: 196 bytes is not a whole number of instructions" },
	{ "rel_missing_sym", "elf_hash.o", rel_missing_sym,
	  "bad.o: section .relsocket: relocation #0 names symbol 9999, which does not exist" },
	{ "rel_outside_section", "elf_hash.o", rel_outside_section,
	  "bad.o: section .relsocket: relocation #0 at offset 200 is outside section socket" },
	{ "rel_misaligned", "elf_globals.o", rel_misaligned,
	  "bad.o: section .relsocket: relocation #0 at offset 4 is not on an instruction boundary" },
	{ "rel_on_plain_insn", "elf_globals.o", rel_on_plain_insn,
	  "bad.o: program prog_a: section socket, insn 2 (function prog_a), relocation #0 of "
	  ".relsocket against data_counter: relocation on opcode 0x79" },
	{ "rel_bad_type", "elf_globals.o", rel_bad_type,
	  "bad.o: program prog_a: section socket, insn 0 (function prog_a), relocation #0 of "
	  ".relsocket against data_counter: relocation type 10 on a ldimm64" },
	{ "call_into_middle", "elf_globals.o", call_into_middle,
	  "bad.o: program prog_a: section socket, insn 5 (function prog_a), relocation #1 of "
	  ".relsocket against .text: target instruction 10 of section .text starts no function" },
	{ "garbage_btf", "elf_hash.o", garbage_btf, "bad.o: section .BTF: invalid BTF" },
	{ "btf_bad_string", "elf_all_maps.o", btf_bad_string, "bad.o: section .BTF: invalid BTF" },
	{ "legacy_key_size_zero", "elf_legacy_libbpf.o", legacy_key_size_zero,
	  "bad.o: section maps: map arr: key_size 0: a map of type array needs a key" },
	{ "legacy_absurd_max_entries", "elf_legacy_libbpf.o", legacy_absurd_max_entries,
	  "bad.o: section maps: map lru: max_entries 4294967295 of 8-byte keys and 8-byte values "
	  "is more than netbpf allocates" },
	{ "legacy_unknown_type", "elf_legacy_libbpf.o", legacy_unknown_type,
	  "bad.o: section maps: map arr: unknown map type 9999" },
	{ "legacy_bad_pinning", "elf_iproute2.o", legacy_bad_pinning,
	  "bad.o: section maps: map counters: pinning 7 names a custom path" },
	{ "legacy_odd_size", "elf_legacy_libbpf.o", legacy_odd_size,
	  "bad.o: section maps: definitions of 6 bytes are neither struct bpf_map_def (20 or 28) "
	  "nor struct bpf_elf_map (36)" },
	{ "duplicate_map", "elf_legacy_libbpf.o", duplicate_map,
	  "bad.o: duplicate map name arr (sections maps and maps)" },
	{ "duplicate_prog", "elf_globals.o", duplicate_prog,
	  "bad.o: section socket: duplicate program name prog_a" },
	{ "func_outside", "elf_globals.o", func_outside,
	  "bad.o: section socket: function prog_a at offset 0, size 1048576 lies outside" },
	{ "license_unterminated", "elf_hash.o", license_unterminated,
	  "bad.o: section license: not a NUL-terminated string" },
	{ "no_symtab", "elf_hash.o", no_symtab, "bad.o: no symbol table" },
	{ "bss_huge", "elf_globals.o", bss_huge,
	  "bad.o: section .bss: 1099511627776 bytes of global data, more than the 4194304" },
	{ "two_btf", "elf_globals.o", two_btf, "bad.o: section .BTF: a second one" },
	{ "btf_map_without_symbol", "elf_hash.o", btf_map_key_size_zero,
	  "bad.o: section .maps: map m: no symbol of that name in .maps" },
	/* Broken as compiled: tests/bpf/elf_bad_btf_*.c. */
	{ "btf_unknown_field", "elf_bad_btf_field.o", NULL,
	  "bad.o: section .maps: map weird: field frobnicate: unknown field" },
	{ "btf_key_size_zero", "elf_bad_btf_key0.o", NULL,
	  "bad.o: section .maps: map zero_key: key_size 0: a map of type hash needs a key" },
	{ "btf_sizes_disagree", "elf_bad_btf_sizes.o", NULL,
	  "bad.o: section .maps: map two_sizes: field key_size: size 4 contradicts the size 8 "
	  "given before" },
	{ "btf_values_not_prog_array", "elf_bad_btf_values.o", NULL,
	  "bad.o: section .maps: map not_prog_array: field values: functions need type "
	  "BPF_MAP_TYPE_PROG_ARRAY" },
};

static void run_bad_case(const void *arg)
{
	const struct bad_case *c = arg;
	struct nb_object_open_opts opts = { .sz = sizeof(opts), .name = "bad.o" };
	struct image im = load_image(c->object);
	struct nb_log log = { 0 };
	struct nb_object *obj = (void *)1;
	int err;

	if (c->mutate)
		c->mutate(&im);
	opts.log = &log;
	err = nb_object_open_mem(im.buf, im.size, &opts, &obj);
	if (!err)
		NB_FAIL("%s: opened a broken object", c->name);
	NB_ASSERT(err < 0);
	NB_ASSERT(obj == NULL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), c->message);
	nb_log_free(&log);
	free(im.buf);
}

static void __attribute__((constructor)) register_bad_cases(void)
{
	static char names[(sizeof(cases) / sizeof(cases[0]))][64];

	for (size_t i = 0; i < (sizeof(cases) / sizeof(cases[0])); i++) {
		snprintf(names[i], sizeof(names[i]), "elf_bad_%s", cases[i].name);
		nb_test_register(names[i], run_bad_case, &cases[i]);
	}
}
