// SPDX-License-Identifier: GPL-2.0
/*
 * Linking a program, as libbpf's bpf_object__relocate does: copy the program's function, then
 * append every function it calls (bpf-to-bpf calls through R_BPF_64_32 relocations, or relative
 * calls within a section) and every callback whose address it takes, once each, fixing the
 * call offsets to the new layout. ldimm64 relocations against maps become BPF_PSEUDO_MAP_IDX and
 * against global data BPF_PSEUDO_MAP_IDX_VALUE, indexes into the object's maps.
 *
 * A program that reaches a symbol the object does not define (a kfunc, a __ksym or __kconfig
 * variable, an extern function of another object) cannot be linked; as with libbpf, that fails
 * this program only, at load, not its siblings: the object keeps the message.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf/btf_ext.h"
#include "bpf/insn.h"
#include "bpf/object.h"

#ifndef R_BPF_64_64
#define R_BPF_64_64 1
#endif
#ifndef R_BPF_64_ABS64
#define R_BPF_64_ABS64 2
#endif
#ifndef R_BPF_64_32
#define R_BPF_64_32 10
#endif

struct linker {
	struct nb_object *obj;
	struct nb_object_prog *prog;
	struct bpf_insn *insns;
	u32 cnt, cap;
	struct nb_btf_ext_unit *units;	/* the functions copied, where each starts */
	u32 unit_cnt;
	/* Where we are, for messages. */
	const struct nb_elf_func *func;
	u32 sec_insn;
	const struct nb_elf_reloc *reloc;
	/* Why this program cannot be linked, when a symbol is missing (see above). */
	char *unlinkable;
};

/* link_prog's "this program only cannot be linked": the message is in l->unlinkable. */
#define LINK_UNLINKABLE 1

static void link_vmsg(const struct linker *l, char *out, size_t size, const char *fmt,
		      va_list ap)
{
	const struct nb_elf_sec *sec = &l->obj->secs[l->func->sec];
	char msg[256], rel[160] = "";

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (l->reloc)
		snprintf(rel, sizeof(rel), ", relocation #%u of %s against %s", l->reloc->index,
			 sec->rel_name, l->obj->syms[l->reloc->sym].name);
	snprintf(out, size, "program %s: section %s, insn %u (function %s)%s: %s", l->prog->name,
		 sec->name, l->sec_insn, l->func->name, rel, msg);
}

static int link_err(const struct linker *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int link_err(const struct linker *l, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	link_vmsg(l, msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nb_obj_err(l->obj, "%s", msg);
	return -EINVAL;
}

static int link_unlinkable(struct linker *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int link_unlinkable(struct linker *l, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	link_vmsg(l, msg, sizeof(msg), fmt, ap);
	va_end(ap);
	l->unlinkable = strdup(msg);
	return l->unlinkable ? LINK_UNLINKABLE : -ENOMEM;
}

/* Whether BTF places the extern name in DATASEC sec_name (.ksyms, .kconfig). */
static bool btf_extern_in(const struct nb_object *obj, const char *name, const char *sec_name)
{
	const struct btf *btf = obj->btf;
	const struct btf_var_secinfo *vi;
	const struct btf_type *sec;
	__s32 id;

	if (!btf)
		return false;
	id = btf__find_by_name_kind(btf, sec_name, BTF_KIND_DATASEC);
	sec = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (!sec)
		return false;
	vi = btf_var_secinfos(sec);
	for (u32 i = 0; i < btf_vlen(sec); i++, vi++) {
		const struct btf_type *t = btf__type_by_id(btf, vi->type);
		const char *n = t ? btf__name_by_offset(btf, t->name_off) : NULL;

		if (n && !strcmp(n, name))
			return true;
	}
	return false;
}

/* A reference to a symbol the object does not define: refuse this program, say what it is. */
static int link_undefined(struct linker *l, const char *name, bool call)
{
	if (btf_extern_in(l->obj, name, ".ksyms"))
		return link_unlinkable(l, "%s %s %s, a __ksym of the kernel: netbpf has no kfuncs "
				       "or kernel symbols", call ? "calls" : "reads",
				       call ? "kfunc" : "kernel variable", name);
	if (btf_extern_in(l->obj, name, ".kconfig"))
		return link_unlinkable(l, "reads %s, a __kconfig variable: netbpf has no kernel "
				       "configuration to give it", name);
	if (call)
		return link_unlinkable(l, "calls %s, which the object does not define (an "
				       "extern function or kfunc): netbpf does not link objects "
				       "together (bpftool gen object does) and has no kfuncs",
				       name);
	return link_unlinkable(l, "reads %s, which the object does not define (an extern "
			       "variable): netbpf does not resolve externs", name);
}

/* Append a function's instructions unless they are there already; its position in *pos. */
static int add_unit(struct linker *l, const struct nb_elf_func *f, u32 *pos)
{
	const struct nb_elf_sec *sec = &l->obj->secs[f->sec];
	struct nb_btf_ext_unit *units;

	for (u32 i = 0; i < l->unit_cnt; i++) {
		if (l->units[i].func == f) {
			*pos = l->units[i].pos;
			return 0;
		}
	}
	if (l->cnt + f->len > NB_MAX_INSNS) {
		nb_obj_err(l->obj, "program %s: more than %u instructions after linking",
			   l->prog->name, NB_MAX_INSNS);
		return -E2BIG;
	}
	if (l->cnt + f->len > l->cap) {
		u32 cap = l->cap ? l->cap : 64;
		struct bpf_insn *insns;

		while (cap < l->cnt + f->len)
			cap *= 2;
		insns = realloc(l->insns, cap * sizeof(*insns));
		if (!insns)
			return -ENOMEM;
		l->insns = insns;
		l->cap = cap;
	}
	units = realloc(l->units, (l->unit_cnt + 1) * sizeof(*units));
	if (!units)
		return -ENOMEM;
	l->units = units;
	memcpy(l->insns + l->cnt, sec->data + f->start * sizeof(struct bpf_insn),
	       f->len * sizeof(struct bpf_insn));
	l->units[l->unit_cnt++] = (struct nb_btf_ext_unit){ .func = f, .pos = l->cnt };
	*pos = l->cnt;
	l->cnt += f->len;
	return 0;
}

/* Make the call or function reference at linked index at reach section insn target of sec. */
static int link_target(struct linker *l, u32 at, u32 sec, s64 target)
{
	const struct nb_elf_func *f;
	u32 pos;
	int err;

	if (target < 0 || target >= (s64)(l->obj->secs[sec].size / 8))
		return link_err(l, "target instruction %lld lies outside section %s",
				(long long)target, l->obj->secs[sec].name);
	f = nb_elf_find_func(l->obj, sec, target);
	if (!f)
		return link_err(l, "target instruction %lld of section %s starts no function",
				(long long)target, l->obj->secs[sec].name);
	err = add_unit(l, f, &pos);
	if (err)
		return err;
	l->insns[at].imm = (s32)pos - (s32)at - 1;
	return 0;
}

static const struct nb_elf_sym *reloc_sym(const struct linker *l)
{
	return &l->obj->syms[l->reloc->sym];
}

static int link_call(struct linker *l, u32 at)
{
	struct bpf_insn *insn = &l->insns[at];
	const struct nb_elf_sym *s;
	u32 sec;

	if (!l->reloc) /* static function of the same section: relative */
		return link_target(l, at, l->func->sec, (s64)l->sec_insn + insn->imm + 1);
	if (l->reloc->type != R_BPF_64_32)
		return link_err(l, "relocation type %u on a call, expected R_BPF_64_32",
				l->reloc->type);
	s = reloc_sym(l);
	sec = s->sym.st_shndx;
	if (sec == SHN_UNDEF)
		return link_undefined(l, s->name, true);
	if (sec >= l->obj->sec_cnt || (l->obj->secs[sec].kind != NB_SEC_PROG &&
				       l->obj->secs[sec].kind != NB_SEC_TEXT) ||
	    s->sym.st_value % 8)
		return link_err(l, "call to %s, which is not code", s->name);
	/* Global functions: imm is -1; static ones: the section symbol plus imm. */
	return link_target(l, at, sec, (s64)(s->sym.st_value / 8) + insn->imm + 1);
}

static int link_ldimm64(struct linker *l, u32 at)
{
	struct bpf_insn *insn = &l->insns[at];
	const struct nb_elf_sec *tsec;
	const struct nb_elf_sym *s;
	struct nb_object_map *m;
	u64 off;
	u32 sec;

	if (!l->reloc) {
		if (insn->src_reg)
			return link_err(l, "ldimm64 with src_reg %u but no relocation",
					insn->src_reg);
		return 0;
	}
	if (l->reloc->type != R_BPF_64_64 && l->reloc->type != R_BPF_64_ABS64)
		return link_err(l, "relocation type %u on a ldimm64, expected R_BPF_64_64",
				l->reloc->type);
	s = reloc_sym(l);
	sec = s->sym.st_shndx;
	if (sec == SHN_UNDEF)
		return link_undefined(l, s->name, false);
	if (sec >= l->obj->sec_cnt)
		return link_err(l, "symbol %s in section %u, which does not exist", s->name, sec);
	tsec = &l->obj->secs[sec];
	off = s->sym.st_value;
	switch (tsec->kind) {
	case NB_SEC_LEGACY_MAPS:
	case NB_SEC_BTF_MAPS:
		if (GELF_ST_TYPE(s->sym.st_info) == STT_SECTION)
			off += (u32)insn->imm;
		m = nb_object_map_by_sec_off(l->obj, sec, off);
		if (!m)
			return link_err(l, "no map at offset %llu of section %s",
					(unsigned long long)off, tsec->name);
		insn[0].src_reg = BPF_PSEUDO_MAP_IDX;
		insn[0].imm = m - l->obj->maps;
		insn[1].imm = 0;
		return 0;
	case NB_SEC_DATA:
		off += (u32)insn->imm;
		if (tsec->data_map < 0 || off >= tsec->size)
			return link_err(l, "offset %llu is outside section %s (%zu bytes)",
					(unsigned long long)off, tsec->name, tsec->size);
		insn[0].src_reg = BPF_PSEUDO_MAP_IDX_VALUE;
		insn[0].imm = tsec->data_map;
		insn[1].imm = off;
		return 0;
	case NB_SEC_PROG:
	case NB_SEC_TEXT:
		/* A callback's address (bpf_loop, for_each_map_elem): imm holds bytes. */
		off += (u32)insn->imm;
		if (off % 8)
			return link_err(l, "function address %llu is not on an instruction",
					(unsigned long long)off);
		insn->src_reg = BPF_PSEUDO_FUNC;
		insn[1].imm = 0;
		return link_target(l, at, sec, off / 8);
	default:
		return link_err(l, "symbol %s is in section %s, which is neither a map, global "
				"data nor code", s->name, tsec->name);
	}
}

static int link_prog(struct nb_object *obj, struct nb_object_prog *p)
{
	struct linker l = { .obj = obj, .prog = p, .func = p->func };
	u32 pos;
	int err;

	err = add_unit(&l, p->func, &pos);
	/* Units appended while we walk are walked too: breadth first over the call graph. */
	for (u32 u = 0; !err && u < l.unit_cnt; u++) {
		const struct nb_elf_func *f = l.units[u].func;
		const struct nb_elf_sec *sec = &obj->secs[f->sec];

		l.func = f;
		for (u32 j = 0; !err && j < f->len; j++) {
			u32 at = l.units[u].pos + j;
			struct bpf_insn *insn = &l.insns[at];

			l.sec_insn = f->start + j;
			l.reloc = nb_elf_find_reloc(sec, (u64)l.sec_insn * 8);
			if (insn_is_ldimm64(insn)) {
				if (j + 1 >= f->len) {
					err = link_err(&l, "ldimm64 without its second half");
					break;
				}
				err = link_ldimm64(&l, at);
				if (!err && nb_elf_find_reloc(sec, (u64)(l.sec_insn + 1) * 8)) {
					l.sec_insn++;
					l.reloc = nb_elf_find_reloc(sec, (u64)l.sec_insn * 8);
					err = link_err(&l, "relocation on the second half of a "
						       "ldimm64");
				}
				j++;
			} else if (insn_is_call(insn) && insn->src_reg == BPF_PSEUDO_CALL) {
				err = link_call(&l, at);
			} else if (l.reloc) {
				err = link_err(&l, "relocation on opcode 0x%02x, which takes "
					       "none (only ldimm64 and calls do)", insn->code);
			}
		}
	}
	if (!err)
		err = nb_btf_ext_link_prog(obj, p, l.units, l.unit_cnt);
	free(l.units);
	if (err) {
		free(l.insns);
		if (err == LINK_UNLINKABLE) {
			p->link_err = l.unlinkable;
			return 0;
		}
		return err;
	}
	p->insns = l.insns;
	p->insn_cnt = l.cnt;
	return 0;
}

int nb_object_link_progs(struct nb_object *obj)
{
	for (u32 i = 0; i < obj->prog_cnt; i++) {
		int err = link_prog(obj, &obj->progs[i]);

		if (err)
			return err;
	}
	return 0;
}
