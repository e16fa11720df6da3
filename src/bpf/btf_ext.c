// SPDX-License-Identifier: GPL-2.0
/*
 * The .BTF.ext section: per ELF section, the func_info records (where each function starts and
 * its BTF_KIND_FUNC) and line_info records (an instruction's source file, line and column)
 * clang writes with -g. Read once per object; when a program is linked, the records of every
 * function it is made of move with that function to its place in the program (libbpf's
 * reloc_prog_func_and_line_info), so that the program carries what BPF_PROG_LOAD's func_info
 * and line_info carry.
 *
 * Layout (all little-endian words, offsets relative to the end of the header):
 *   header   magic 0xeB9F (u16), version 1 (u8), flags (u8), hdr_len, func_info_off,
 *            func_info_len, line_info_off, line_info_len (u32 each), optional CO-RE words
 *   info     rec_size (u32), then per ELF section: sec_name_off (u32, into .BTF's strings),
 *            num_info (u32), num_info records of rec_size bytes whose first word is the
 *            instruction's byte offset in that section
 * As libbpf does, an object whose .BTF.ext cannot be read loads without it (with a note in the
 * verbose log): its programs then have no func_info or line_info.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <netbpf/btf.h>

#include "bpf/btf_ext.h"
#include "bpf/insn.h"

#define BTF_EXT_MAGIC	0xeB9F
#define BTF_EXT_VERSION	1

struct btf_ext_hdr {
	u16 magic;
	u8 version;
	u8 flags;
	u32 hdr_len;
	u32 func_info_off;
	u32 func_info_len;
	u32 line_info_off;
	u32 line_info_len;
};

struct btf_ext_sec_hdr {
	u32 sec_name_off;
	u32 num_info;
};

/* The records of one ELF section, with instruction indexes in place of byte offsets. */
struct nb_btf_ext_sec {
	u32 elf_sec;
	struct bpf_func_info *funcs;
	u32 func_cnt;
	struct bpf_line_info *lines;
	u32 line_cnt;
};

struct nb_btf_ext {
	struct nb_btf_ext_sec *secs;
	u32 sec_cnt;
};

struct ext_parser {
	struct nb_object *obj;
	const u8 *base;		/* after the header */
	size_t size;		/* bytes after the header */
	const char *why;	/* the first problem found */
	char why_buf[160];
};

static int bad(struct ext_parser *p, const char *fmt, ...) __printf(2, 3);
static int bad(struct ext_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->why_buf, sizeof(p->why_buf), fmt, ap);
	va_end(ap);
	p->why = p->why_buf;
	return -EINVAL;
}

static struct nb_btf_ext_sec *sec_for(struct nb_btf_ext *ext, u32 elf_sec)
{
	struct nb_btf_ext_sec *secs;

	for (u32 i = 0; i < ext->sec_cnt; i++)
		if (ext->secs[i].elf_sec == elf_sec)
			return &ext->secs[i];
	secs = realloc(ext->secs, (ext->sec_cnt + 1) * sizeof(*secs));
	if (!secs)
		return NULL;
	ext->secs = secs;
	memset(&secs[ext->sec_cnt], 0, sizeof(*secs));
	secs[ext->sec_cnt].elf_sec = elf_sec;
	return &secs[ext->sec_cnt++];
}

static int elf_sec_by_name(const struct nb_object *obj, const char *name)
{
	for (u32 i = 1; i < obj->sec_cnt; i++)
		if (!strcmp(obj->secs[i].name, name))
			return i;
	return -1;
}

/*
 * One info block (func_info when is_func, line_info otherwise): every section's records
 * copied, byte offsets turned into instruction indexes.
 */
static int parse_info(struct ext_parser *p, struct nb_btf_ext *ext, u32 off, u32 len,
		      bool is_func)
{
	const char *what = is_func ? "func_info" : "line_info";
	size_t known = is_func ? sizeof(struct bpf_func_info) : sizeof(struct bpf_line_info);
	const u8 *at, *end;
	u32 rec_size;

	if (!len)
		return 0;
	if (off > p->size || len > p->size - off)
		return bad(p, "%s at %u, %u bytes, past the end of the section", what, off, len);
	if (len < sizeof(u32))
		return bad(p, "%s of %u bytes has no record size", what, len);
	at = p->base + off;
	end = at + len;
	memcpy(&rec_size, at, sizeof(rec_size));
	at += sizeof(rec_size);
	if (rec_size < known || rec_size % sizeof(u32))
		return bad(p, "%s record size %u (at least %zu, a multiple of 4)", what, rec_size,
			   known);
	while (at < end) {
		struct btf_ext_sec_hdr sh;
		struct nb_btf_ext_sec *sec;
		const char *name;
		void **recs;
		u32 *cnt;
		int elf_sec;
		u8 *grown;

		if ((size_t)(end - at) < sizeof(sh))
			return bad(p, "%s: a section header cut short", what);
		memcpy(&sh, at, sizeof(sh));
		at += sizeof(sh);
		name = btf__name_by_offset(p->obj->btf, sh.sec_name_off);
		if (!name || !*name)
			return bad(p, "%s: section name offset %u is not a string of .BTF", what,
				   sh.sec_name_off);
		if (!sh.num_info || sh.num_info > (size_t)(end - at) / rec_size)
			return bad(p, "%s of section %s: %u records of %u bytes do not fit", what,
				   name, sh.num_info, rec_size);
		elf_sec = elf_sec_by_name(p->obj, name);
		if (elf_sec < 0)
			return bad(p, "%s names section %s, which the object does not have", what,
				   name);
		sec = sec_for(ext, elf_sec);
		if (!sec)
			return -ENOMEM;
		recs = is_func ? (void **)&sec->funcs : (void **)&sec->lines;
		cnt = is_func ? &sec->func_cnt : &sec->line_cnt;
		grown = realloc(*recs, (*cnt + sh.num_info) * known);
		if (!grown)
			return -ENOMEM;
		*recs = grown;
		for (u32 i = 0; i < sh.num_info; i++, at += rec_size) {
			u8 *rec = grown + (*cnt + i) * known;
			u32 byte_off;

			memcpy(rec, at, known);
			memcpy(&byte_off, rec, sizeof(byte_off));
			if (byte_off % sizeof(struct bpf_insn) ||
			    byte_off >= p->obj->secs[elf_sec].size)
				return bad(p, "%s record %u of section %s: offset %u is no "
					   "instruction of the section", what, i, name, byte_off);
			byte_off /= sizeof(struct bpf_insn);
			memcpy(rec, &byte_off, sizeof(byte_off));
		}
		*cnt += sh.num_info;
	}
	return 0;
}

void nb_btf_ext_free(struct nb_btf_ext *ext)
{
	if (!ext)
		return;
	for (u32 i = 0; i < ext->sec_cnt; i++) {
		free(ext->secs[i].funcs);
		free(ext->secs[i].lines);
	}
	free(ext->secs);
	free(ext);
}

int nb_btf_ext_parse(struct nb_object *obj)
{
	struct ext_parser p = { .obj = obj };
	struct btf_ext_hdr hdr = { 0 };
	const struct nb_elf_sec *sec;
	struct nb_btf_ext *ext;
	int idx, err;

	idx = elf_sec_by_name(obj, ".BTF.ext");
	if (idx < 0)
		return 0;
	sec = &obj->secs[idx];
	if (!obj->btf) {
		nb_log_verbose(obj->log, "%s: section .BTF.ext ignored: the object has no .BTF\n",
			       obj->path);
		return 0;
	}
	ext = calloc(1, sizeof(*ext));
	if (!ext)
		return -ENOMEM;
	if (!sec->data || sec->size < offsetof(struct btf_ext_hdr, func_info_off)) {
		err = bad(&p, "%zu bytes hold no header", sec->size);
		goto out;
	}
	memcpy(&hdr, sec->data, min_t(size_t, sec->size, sizeof(hdr)));
	if (hdr.magic != BTF_EXT_MAGIC || hdr.version != BTF_EXT_VERSION || hdr.flags) {
		err = bad(&p, "magic 0x%x version %u flags 0x%x (expected 0x%x, %u, 0)",
			  hdr.magic, hdr.version, hdr.flags, BTF_EXT_MAGIC, BTF_EXT_VERSION);
		goto out;
	}
	if (hdr.hdr_len < sizeof(hdr) || hdr.hdr_len > sec->size) {
		err = bad(&p, "header length %u (at least %zu, at most the section's %zu bytes)",
			  hdr.hdr_len, sizeof(hdr), sec->size);
		goto out;
	}
	p.base = sec->data + hdr.hdr_len;
	p.size = sec->size - hdr.hdr_len;
	err = parse_info(&p, ext, hdr.func_info_off, hdr.func_info_len, true);
	if (!err)
		err = parse_info(&p, ext, hdr.line_info_off, hdr.line_info_len, false);
out:
	if (err) {
		nb_btf_ext_free(ext);
		if (err != -EINVAL)
			return err;
		/* As libbpf: the object loads, without function and line information. */
		nb_log_verbose(obj->log, "%s: section .BTF.ext ignored: %s\n", obj->path, p.why);
		return 0;
	}
	obj->btf_ext = ext;
	return 0;
}

/*
 * The records (rec_size bytes each, the instruction index first) with an index in
 * [start, start + len), moved by delta, appended to *dstp; *taken: how many.
 */
static int take_records(const void *recs, u32 cnt, size_t rec_size, u32 start, u32 len,
			s64 delta, void **dstp, u32 *dst_cnt, u32 *taken)
{
	u32 n = 0, off;
	u8 *dst;

	for (u32 i = 0; i < cnt; i++) {
		memcpy(&off, (const u8 *)recs + i * rec_size, sizeof(off));
		n += off >= start && off - start < len;
	}
	*taken = n;
	if (!n)
		return 0;
	dst = realloc(*dstp, (*dst_cnt + n) * rec_size);
	if (!dst)
		return -ENOMEM;
	*dstp = dst;
	dst += *dst_cnt * rec_size;
	for (u32 i = 0; i < cnt; i++) {
		const u8 *rec = (const u8 *)recs + i * rec_size;

		memcpy(&off, rec, sizeof(off));
		if (off < start || off - start >= len)
			continue;
		memcpy(dst, rec, rec_size);
		off = (u32)(off + delta);
		memcpy(dst, &off, sizeof(off));
		dst += rec_size;
	}
	*dst_cnt += n;
	return 0;
}

int nb_btf_ext_link_prog(struct nb_object *obj, struct nb_object_prog *prog,
			 const struct nb_btf_ext_unit *units, u32 unit_cnt)
{
	bool funcs_ok = true, lines_ok = true;
	int err = 0;

	if (!obj->btf_ext)
		return 0;
	for (u32 u = 0; u < unit_cnt && !err; u++) {
		const struct nb_elf_func *f = units[u].func;
		struct nb_btf_ext_sec *sec = NULL;
		s64 delta = (s64)units[u].pos - f->start;
		u32 taken;

		for (u32 i = 0; i < obj->btf_ext->sec_cnt; i++)
			if (obj->btf_ext->secs[i].elf_sec == f->sec)
				sec = &obj->btf_ext->secs[i];
		if (funcs_ok) {
			taken = 0;
			if (sec)
				err = take_records(sec->funcs, sec->func_cnt,
						   sizeof(struct bpf_func_info), f->start, f->len,
						   delta, (void **)&prog->func_info,
						   &prog->func_info_cnt, &taken);
			if (!err && !taken) {
				/*
				 * libbpf's rule: without the main function's record the program
				 * goes without func_info; a function of it without one is an
				 * error.
				 */
				if (u) {
					nb_obj_err(obj, "program %s: function %s has no .BTF.ext "
						   "func_info", prog->name, f->name);
					return -EINVAL;
				}
				funcs_ok = false;
			}
		}
		if (!err && lines_ok) {
			taken = 0;
			if (sec)
				err = take_records(sec->lines, sec->line_cnt,
						   sizeof(struct bpf_line_info), f->start, f->len,
						   delta, (void **)&prog->line_info,
						   &prog->line_info_cnt, &taken);
			if (!err && !taken) {
				if (u) {
					nb_obj_err(obj, "program %s: function %s has no .BTF.ext "
						   "line_info", prog->name, f->name);
					return -EINVAL;
				}
				lines_ok = false;
			}
		}
	}
	return err;
}

int nb_btf_ext_prog_opts(struct nb_object *obj, const struct nb_object_prog *prog,
			 struct nb_prog_load_opts *po)
{
	int err;

	if (!prog->func_info_cnt && !prog->line_info_cnt)
		return 0;
	err = nb_object_load_btf(obj);
	if (err)
		return err;
	po->btf = obj->prog_btf;
	po->func_info = prog->func_info;
	po->func_info_cnt = prog->func_info_cnt;
	po->func_info_rec_size = sizeof(struct bpf_func_info);
	po->line_info = prog->line_info;
	po->line_info_cnt = prog->line_info_cnt;
	po->line_info_rec_size = sizeof(struct bpf_line_info);
	return 0;
}
