// SPDX-License-Identifier: GPL-2.0
/*
 * Reading an object file with libelf: the header checks, the sections (what each one is for),
 * the symbols, the relocations of code and of .maps, the license, and the functions of every
 * executable section, from which programs are made. Nothing here trusts an offset or an index
 * from the file before checking it against what the file holds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf/object.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

/* .rodata, .rodata.str1.1, .data.custom, .bss ... : libbpf's global data sections. */
static bool is_data_sec_name(const char *name)
{
	static const char *const bases[] = { ".rodata", ".data", ".bss" };

	for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
		size_t n = strlen(bases[i]);

		if (!strncmp(name, bases[i], n) && (name[n] == '\0' || name[n] == '.'))
			return true;
	}
	return false;
}

/* Header checks first, by hand, so that each wrong field gets its own message. */
static int check_ident(struct nb_object *obj)
{
	const u8 *id = obj->buf;

	if (obj->size < EI_NIDENT || memcmp(id, ELFMAG, SELFMAG)) {
		nb_obj_err(obj, "not an ELF file");
		return -EINVAL;
	}
	if (id[EI_CLASS] != ELFCLASS64) {
		nb_obj_err(obj, "ELF class %u is not ELFCLASS64: not a BPF object", id[EI_CLASS]);
		return -EINVAL;
	}
	if (id[EI_DATA] != ELFDATA2LSB) {
		nb_obj_err(obj, "ELF data encoding %u is not little-endian: netbpf runs "
			   "little-endian BPF (clang -target bpfel)", id[EI_DATA]);
		return -EINVAL;
	}
	if (obj->size < sizeof(Elf64_Ehdr)) {
		nb_obj_err(obj, "truncated ELF header: %zu bytes, need %zu", obj->size,
			   sizeof(Elf64_Ehdr));
		return -EINVAL;
	}
	return 0;
}

static int check_ehdr(struct nb_object *obj, const GElf_Ehdr *eh)
{
	if (eh->e_type != ET_REL) {
		nb_obj_err(obj, "ELF type %u is not ET_REL: give the object clang -c made",
			   eh->e_type);
		return -EINVAL;
	}
	/* LLVM before 7 wrote EM_NONE; libbpf takes both. */
	if (eh->e_machine != EM_BPF && eh->e_machine != EM_NONE) {
		nb_obj_err(obj, "ELF machine %u is not EM_BPF (%u): not a BPF object",
			   eh->e_machine, EM_BPF);
		return -EINVAL;
	}
	if (eh->e_shoff > obj->size || eh->e_shnum * (u64)eh->e_shentsize > obj->size - eh->e_shoff) {
		nb_obj_err(obj, "section header table at offset %llu past the end of the file "
			   "(%zu bytes)", (unsigned long long)eh->e_shoff, obj->size);
		return -EINVAL;
	}
	return 0;
}

/*
 * Legacy map definitions: iproute2's and libbpf 0.x's "maps", and the "maps/NAME" sections of
 * older loaders (one map per section; cilium/ebpf reads them too).
 */
static bool is_legacy_maps_name(const char *name)
{
	return !strcmp(name, "maps") || !strncmp(name, "maps/", 5);
}

static enum nb_sec_kind classify(const struct nb_elf_sec *sec)
{
	const GElf_Shdr *sh = &sec->shdr;

	if (sh->sh_type == SHT_PROGBITS && (sh->sh_flags & SHF_EXECINSTR))
		return strcmp(sec->name, ".text") ? NB_SEC_PROG : NB_SEC_TEXT;
	if (sh->sh_type == SHT_PROGBITS && !strcmp(sec->name, "license"))
		return NB_SEC_LICENSE;
	if (sh->sh_type == SHT_PROGBITS && is_legacy_maps_name(sec->name))
		return NB_SEC_LEGACY_MAPS;
	if (sh->sh_type == SHT_PROGBITS && !strcmp(sec->name, ".maps"))
		return NB_SEC_BTF_MAPS;
	if ((sh->sh_type == SHT_PROGBITS || sh->sh_type == SHT_NOBITS) &&
	    (sh->sh_flags & SHF_ALLOC) && is_data_sec_name(sec->name))
		return NB_SEC_DATA;
	return NB_SEC_OTHER;
}

static int read_sections(struct nb_object *obj, size_t shstrndx)
{
	size_t n;

	if (elf_getshdrnum(obj->elf, &n)) {
		nb_obj_err(obj, "cannot read the section count: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	obj->secs = calloc(n ? n : 1, sizeof(*obj->secs));
	if (!obj->secs)
		return -ENOMEM;
	obj->sec_cnt = n;
	for (size_t i = 1; i < n; i++) {
		struct nb_elf_sec *sec = &obj->secs[i];
		Elf_Scn *scn = elf_getscn(obj->elf, i);
		Elf_Data *data;

		sec->idx = i;
		sec->data_map = -1;
		if (!scn || !gelf_getshdr(scn, &sec->shdr)) {
			nb_obj_err(obj, "section %zu: unreadable header: %s", i, elf_errmsg(-1));
			return -EINVAL;
		}
		sec->name = elf_strptr(obj->elf, shstrndx, sec->shdr.sh_name);
		if (!sec->name) {
			nb_obj_err(obj, "section %zu: name offset %u outside the section name table",
				   i, sec->shdr.sh_name);
			return -EINVAL;
		}
		if (sec->shdr.sh_type != SHT_NOBITS && sec->shdr.sh_type != SHT_NULL &&
		    (sec->shdr.sh_offset > obj->size ||
		     sec->shdr.sh_size > obj->size - sec->shdr.sh_offset)) {
			nb_obj_err(obj, "section %s: offset %llu + size %llu past the end of the "
				   "file (%zu bytes)", sec->name,
				   (unsigned long long)sec->shdr.sh_offset,
				   (unsigned long long)sec->shdr.sh_size, obj->size);
			return -EINVAL;
		}
		sec->kind = classify(sec);
		sec->size = sec->shdr.sh_size;
		if (sec->kind == NB_SEC_OTHER && sec->shdr.sh_type != SHT_SYMTAB &&
		    sec->shdr.sh_type != SHT_REL && strcmp(sec->name, ".BTF") &&
		    strcmp(sec->name, ".BTF.ext"))
			continue;
		if (sec->shdr.sh_type == SHT_NOBITS)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || (sec->size && (!data->d_buf || data->d_size != sec->size))) {
			nb_obj_err(obj, "section %s: unreadable data: %s", sec->name,
				   elf_errmsg(-1));
			return -EINVAL;
		}
		sec->data = data->d_buf;
	}
	return 0;
}

static int read_symbols(struct nb_object *obj)
{
	const struct nb_elf_sec *symtab = NULL;
	Elf_Data *data;

	for (u32 i = 1; i < obj->sec_cnt; i++) {
		if (obj->secs[i].shdr.sh_type != SHT_SYMTAB)
			continue;
		if (symtab) {
			nb_obj_err(obj, "more than one symbol table");
			return -EINVAL;
		}
		symtab = &obj->secs[i];
		obj->symtab_sec = i;
	}
	if (!symtab) {
		nb_obj_err(obj, "no symbol table: was the object stripped?");
		return -EINVAL;
	}
	if (symtab->shdr.sh_entsize != sizeof(Elf64_Sym) ||
	    symtab->shdr.sh_link >= obj->sec_cnt) {
		nb_obj_err(obj, "section %s: entry size %llu or string table %u is wrong",
			   symtab->name, (unsigned long long)symtab->shdr.sh_entsize,
			   symtab->shdr.sh_link);
		return -EINVAL;
	}
	data = elf_getdata(elf_getscn(obj->elf, obj->symtab_sec), NULL);
	if (!data) {
		nb_obj_err(obj, "section %s: unreadable: %s", symtab->name, elf_errmsg(-1));
		return -EINVAL;
	}
	obj->sym_cnt = symtab->size / sizeof(Elf64_Sym);
	obj->syms = calloc(obj->sym_cnt ? obj->sym_cnt : 1, sizeof(*obj->syms));
	if (!obj->syms)
		return -ENOMEM;
	for (u32 i = 0; i < obj->sym_cnt; i++) {
		struct nb_elf_sym *s = &obj->syms[i];

		if (!gelf_getsym(data, i, &s->sym)) {
			nb_obj_err(obj, "symbol %u: unreadable: %s", i, elf_errmsg(-1));
			return -EINVAL;
		}
		s->name = elf_strptr(obj->elf, symtab->shdr.sh_link, s->sym.st_name);
		if (!s->name) {
			nb_obj_err(obj, "symbol %u: name offset %u outside the string table", i,
				   s->sym.st_name);
			return -EINVAL;
		}
		/* A section symbol is named by its section. */
		if (GELF_ST_TYPE(s->sym.st_info) == STT_SECTION && !s->name[0] &&
		    s->sym.st_shndx < obj->sec_cnt && s->sym.st_shndx)
			s->name = obj->secs[s->sym.st_shndx].name;
	}
	return 0;
}

static int cmp_reloc(const void *a, const void *b)
{
	const struct nb_elf_reloc *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int read_relocs(struct nb_object *obj, struct nb_elf_sec *rel)
{
	struct nb_elf_sec *target;
	Elf_Data *data;
	u32 cnt;

	if (rel->shdr.sh_info >= obj->sec_cnt || !rel->shdr.sh_info) {
		nb_obj_err(obj, "section %s: relocates section %u, which does not exist",
			   rel->name, rel->shdr.sh_info);
		return -EINVAL;
	}
	target = &obj->secs[rel->shdr.sh_info];
	if (target->kind != NB_SEC_PROG && target->kind != NB_SEC_TEXT &&
	    target->kind != NB_SEC_BTF_MAPS)
		return 0; /* debug info: nothing to apply */
	if (rel->shdr.sh_link != (u32)obj->symtab_sec) {
		nb_obj_err(obj, "section %s: uses symbol table %u, not %d", rel->name,
			   rel->shdr.sh_link, obj->symtab_sec);
		return -EINVAL;
	}
	if (rel->shdr.sh_entsize != sizeof(Elf64_Rel)) {
		nb_obj_err(obj, "section %s: entry size %llu is not %zu", rel->name,
			   (unsigned long long)rel->shdr.sh_entsize, sizeof(Elf64_Rel));
		return -EINVAL;
	}
	if (target->relocs) {
		nb_obj_err(obj, "section %s: a second relocation section for %s", rel->name,
			   target->name);
		return -EINVAL;
	}
	data = elf_getdata(elf_getscn(obj->elf, rel->idx), NULL);
	if (!data) {
		nb_obj_err(obj, "section %s: unreadable: %s", rel->name, elf_errmsg(-1));
		return -EINVAL;
	}
	cnt = rel->size / sizeof(Elf64_Rel);
	target->relocs = calloc(cnt ? cnt : 1, sizeof(*target->relocs));
	if (!target->relocs)
		return -ENOMEM;
	target->rel_name = rel->name;
	for (u32 i = 0; i < cnt; i++) {
		struct nb_elf_reloc *r = &target->relocs[i];
		GElf_Rel gr;

		if (!gelf_getrel(data, i, &gr)) {
			nb_obj_err(obj, "section %s: relocation #%u unreadable", rel->name, i);
			return -EINVAL;
		}
		r->offset = gr.r_offset;
		r->sym = GELF_R_SYM(gr.r_info);
		r->type = GELF_R_TYPE(gr.r_info);
		r->index = i;
		if (r->sym >= obj->sym_cnt || !r->sym) {
			nb_obj_err(obj, "section %s: relocation #%u names symbol %u, which does "
				   "not exist", rel->name, i, r->sym);
			return -EINVAL;
		}
		if (r->offset > target->size || target->size - r->offset < 8) {
			nb_obj_err(obj, "section %s: relocation #%u at offset %llu is outside "
				   "section %s (%zu bytes)", rel->name, i,
				   (unsigned long long)r->offset, target->name, target->size);
			return -EINVAL;
		}
		if (target->kind != NB_SEC_BTF_MAPS && r->offset % sizeof(struct bpf_insn)) {
			nb_obj_err(obj, "section %s: relocation #%u at offset %llu is not on an "
				   "instruction boundary", rel->name, i,
				   (unsigned long long)r->offset);
			return -EINVAL;
		}
	}
	target->reloc_cnt = cnt;
	qsort(target->relocs, cnt, sizeof(*target->relocs), cmp_reloc);
	for (u32 i = 1; i < cnt; i++) {
		if (target->relocs[i].offset == target->relocs[i - 1].offset) {
			nb_obj_err(obj, "section %s: two relocations at offset %llu", rel->name,
				   (unsigned long long)target->relocs[i].offset);
			return -EINVAL;
		}
	}
	return 0;
}

static int read_license(struct nb_object *obj, const struct nb_elf_sec *sec)
{
	size_t n = sec->data ? strnlen((const char *)sec->data, sec->size) : 0;

	if (n == sec->size || n >= sizeof(obj->license)) {
		nb_obj_err(obj, "section license: not a NUL-terminated string of at most %zu "
			   "bytes", sizeof(obj->license) - 1);
		return -EINVAL;
	}
	memcpy(obj->license, sec->data, n);
	obj->license[n] = '\0';
	return 0;
}

/* libbpf prints its own warnings on stderr; netbpf reports through the object's log. */
static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static int read_btf(struct nb_object *obj, const struct nb_elf_sec *sec)
{
	libbpf_print_fn_t old = libbpf_set_print(quiet_print);
	struct btf *btf;
	int err;

	if (obj->btf) {
		nb_obj_err(obj, "section .BTF: a second one (section %u)", sec->idx);
		return -EINVAL;
	}
	btf = sec->data ? btf__new(sec->data, sec->size) : NULL;
	err = btf ? 0 : -errno;
	libbpf_set_print(old);
	if (!btf) {
		nb_obj_err(obj, "section .BTF: invalid BTF: %s", strerror(err ? -err : EINVAL));
		return err ? err : -EINVAL;
	}
	obj->btf = btf;
	return 0;
}

static int cmp_func(const void *a, const void *b)
{
	const struct nb_elf_func *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Every function symbol of an executable section is a unit the linker can copy; a section
 * without function symbols (assembly) is one unit named after the section.
 */
static int collect_funcs(struct nb_object *obj)
{
	u32 cnt = 0;

	obj->funcs = calloc(obj->sym_cnt + obj->sec_cnt + 1, sizeof(*obj->funcs));
	if (!obj->funcs)
		return -ENOMEM;
	for (u32 i = 0; i < obj->sym_cnt; i++) {
		const struct nb_elf_sym *s = &obj->syms[i];
		const struct nb_elf_sec *sec;
		struct nb_elf_func *f;
		u64 insns;

		if (GELF_ST_TYPE(s->sym.st_info) != STT_FUNC || !s->sym.st_shndx ||
		    s->sym.st_shndx >= obj->sec_cnt)
			continue;
		sec = &obj->secs[s->sym.st_shndx];
		if (sec->kind != NB_SEC_PROG && sec->kind != NB_SEC_TEXT)
			continue;
		insns = sec->size / sizeof(struct bpf_insn);
		if (s->sym.st_value % 8 || s->sym.st_size % 8 ||
		    s->sym.st_value / 8 >= insns || s->sym.st_size / 8 > insns - s->sym.st_value / 8) {
			nb_obj_err(obj, "section %s: function %s at offset %llu, size %llu lies "
				   "outside the section's %llu instructions", sec->name, s->name,
				   (unsigned long long)s->sym.st_value,
				   (unsigned long long)s->sym.st_size, (unsigned long long)insns);
			return -EINVAL;
		}
		f = &obj->funcs[cnt++];
		f->name = s->name;
		f->sec = s->sym.st_shndx;
		f->start = s->sym.st_value / 8;
		f->len = s->sym.st_size / 8;
		f->global = GELF_ST_BIND(s->sym.st_info) != STB_LOCAL;
	}
	for (u32 i = 1; i < obj->sec_cnt; i++) {
		const struct nb_elf_sec *sec = &obj->secs[i];
		bool has_func = false;

		if (sec->kind != NB_SEC_PROG && sec->kind != NB_SEC_TEXT)
			continue;
		for (u32 j = 0; j < cnt; j++)
			has_func |= obj->funcs[j].sec == i;
		if (has_func || !sec->size)
			continue;
		obj->funcs[cnt++] = (struct nb_elf_func){
			.name = sec->name, .sec = i, .len = sec->size / 8,
			.global = sec->kind == NB_SEC_PROG,
		};
	}
	obj->func_cnt = cnt;
	qsort(obj->funcs, cnt, sizeof(*obj->funcs), cmp_func);
	for (u32 j = 0; j < cnt; j++) {
		struct nb_elf_func *f = &obj->funcs[j];
		u32 end = obj->secs[f->sec].size / 8;

		if (j + 1 < cnt && obj->funcs[j + 1].sec == f->sec) {
			if (obj->funcs[j + 1].start == f->start) {
				nb_obj_err(obj, "section %s: functions %s and %s start at the same "
					   "instruction %u", obj->secs[f->sec].name, f->name,
					   obj->funcs[j + 1].name, f->start);
				return -EINVAL;
			}
			end = obj->funcs[j + 1].start;
		}
		/* Assembly leaves sizes out: a function runs to the next one. */
		if (!f->len)
			f->len = end - f->start;
		if (f->start + f->len > end) {
			nb_obj_err(obj, "section %s: function %s overlaps the next function",
				   obj->secs[f->sec].name, f->name);
			return -EINVAL;
		}
	}
	return 0;
}

/* "ID/KEY": iproute2's tail-call sections, e.g. "1/0" goes into the array with id 1 at key 0. */
static void parse_tail_call_sec(struct nb_object_prog *p)
{
	unsigned int id, key;
	char end;

	if (sscanf(p->sec_name, "%u/%u%c", &id, &key, &end) == 2) {
		p->tail_call_sec = true;
		p->tail_map_id = id;
		p->tail_key = key;
	}
}

/*
 * libbpf's SEC("?tc"): the section is "tc" in every respect, but its programs load only when
 * chosen (autoload off), as the selftests use it for programs meant to be refused.
 */
static void init_prog(struct nb_object_prog *p, const char *sec_name)
{
	p->autoload = sec_name[0] != '?';
	p->sec_name = sec_name + !p->autoload;
	nb_guess_prog_type(p->sec_name, &p->type, &p->attach_type);
	parse_tail_call_sec(p);
}

static int collect_progs(struct nb_object *obj)
{
	u32 cnt = 0;

	obj->progs = calloc(obj->func_cnt ? obj->func_cnt : 1, sizeof(*obj->progs));
	if (!obj->progs)
		return -ENOMEM;
	for (u32 i = 0; i < obj->func_cnt; i++) {
		struct nb_elf_func *f = &obj->funcs[i];
		struct nb_object_prog *p;

		if (obj->secs[f->sec].kind != NB_SEC_PROG || !f->global)
			continue;
		for (u32 j = 0; j < cnt; j++) {
			if (!strcmp(obj->progs[j].name, f->name)) {
				nb_obj_err(obj, "section %s: duplicate program name %s",
					   obj->secs[f->sec].name, f->name);
				return -EINVAL;
			}
		}
		p = &obj->progs[cnt++];
		p->obj = obj;
		p->func = f;
		p->name = f->name;
		init_prog(p, obj->secs[f->sec].name);
	}
	/* A section of static functions only is one program, as iproute2 loads sections whole. */
	for (u32 s = 1; s < obj->sec_cnt; s++) {
		struct nb_object_prog *p;
		bool has_prog = false;

		if (obj->secs[s].kind != NB_SEC_PROG || !obj->secs[s].size)
			continue;
		for (u32 j = 0; j < cnt; j++)
			has_prog |= obj->progs[j].func->sec == s;
		if (has_prog)
			continue;
		for (u32 i = 0; i < obj->func_cnt && !has_prog; i++) {
			if (obj->funcs[i].sec != s || obj->funcs[i].start)
				continue;
			p = &obj->progs[cnt++];
			p->obj = obj;
			p->func = &obj->funcs[i];
			p->name = obj->funcs[i].name;
			init_prog(p, obj->secs[s].name);
			has_prog = true;
		}
	}
	obj->prog_cnt = cnt;
	return 0;
}

int nb_elf_parse(struct nb_object *obj)
{
	GElf_Ehdr eh;
	size_t shstrndx;
	int err;

	err = check_ident(obj);
	if (err)
		return err;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		nb_obj_err(obj, "libelf: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	obj->elf = elf_memory((char *)obj->buf, obj->size);
	if (!obj->elf || elf_kind(obj->elf) != ELF_K_ELF || !gelf_getehdr(obj->elf, &eh)) {
		nb_obj_err(obj, "unreadable ELF header: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	err = check_ehdr(obj, &eh);
	if (err)
		return err;
	if (elf_getshdrstrndx(obj->elf, &shstrndx)) {
		nb_obj_err(obj, "no section name table: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	err = read_sections(obj, shstrndx);
	if (!err)
		err = read_symbols(obj);
	if (err)
		return err;
	obj->text_sec = obj->btf_maps_sec = -1;
	for (u32 i = 1; i < obj->sec_cnt && !err; i++) {
		struct nb_elf_sec *sec = &obj->secs[i];

		switch (sec->kind) {
		case NB_SEC_TEXT:
			obj->text_sec = i;
			/* fall through */
		case NB_SEC_PROG:
			if (sec->size % sizeof(struct bpf_insn)) {
				nb_obj_err(obj, "section %s: %zu bytes is not a whole number of "
					   "instructions", sec->name, sec->size);
				err = -EINVAL;
			}
			break;
		case NB_SEC_BTF_MAPS:
			obj->btf_maps_sec = i;
			break;
		case NB_SEC_LICENSE:
			err = read_license(obj, sec);
			break;
		default:
			if (!strcmp(sec->name, ".BTF") && sec->shdr.sh_type == SHT_PROGBITS)
				err = read_btf(obj, sec);
			else if (sec->shdr.sh_type == SHT_RELA)
				nb_log_verbose(obj->log, "%s: section %s: RELA ignored\n",
					       obj->path, sec->name);
			break;
		}
	}
	for (u32 i = 1; i < obj->sec_cnt && !err; i++)
		if (obj->secs[i].shdr.sh_type == SHT_REL)
			err = read_relocs(obj, &obj->secs[i]);
	if (!err)
		err = collect_funcs(obj);
	if (!err)
		err = collect_progs(obj);
	return err;
}

const struct nb_elf_sym *nb_elf_sym(const struct nb_object *obj, u32 idx)
{
	return idx < obj->sym_cnt ? &obj->syms[idx] : NULL;
}

const struct nb_elf_reloc *nb_elf_find_reloc(const struct nb_elf_sec *sec, u64 offset)
{
	u32 lo = 0, hi = sec->reloc_cnt;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (sec->relocs[mid].offset == offset)
			return &sec->relocs[mid];
		if (sec->relocs[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct nb_elf_func *nb_elf_find_func(const struct nb_object *obj, u32 sec, u32 start)
{
	for (u32 i = 0; i < obj->func_cnt; i++)
		if (obj->funcs[i].sec == sec && obj->funcs[i].start == start)
			return &obj->funcs[i];
	return NULL;
}
