// SPDX-License-Identifier: GPL-2.0
/*
 * bpftool prog dump xlated's listing of a loaded program: before the instruction where a
 * function starts its prototype from BTF ("int count(void * ctx):", bpftool's spelling of C
 * types), before the instruction where a source line's code starts the line ("; v =
 * bpf_map_lookup_elem(&m, &key);", with linum its file, line and column), then the instruction
 * ("   6: (18) r1 = map[id:3]", nb_disasm_xlated_insn) and with opcodes its bytes. JSON gives
 * each instruction an object of the same parts.
 */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

#include <bpf/btf.h>
#include <netbpf/disasm.h>
#include <netbpf/prog.h>

#include "bpf/disasm.h"
#include "ctl/json.h"
#include "ctl/prog_xlated.h"

/* A prototype being spelled: the disassembler's bounded text, and whether BTF lost its way. */
struct sig {
	struct dis_out o;
	bool bad;
};

static const char *name_of(const struct btf *btf, __u32 off)
{
	return btf__name_by_offset(btf, off) ?: "";
}

static void sig_type(struct sig *s, const struct btf *btf, __u32 id);

/* A prototype: the return type, the name (func, or none), the parameters. */
static void sig_func(struct sig *s, const struct btf *btf, const struct btf_type *proto,
		     const struct btf_type *func)
{
	const struct btf_param *p = btf_params(proto);

	sig_type(s, btf, proto->type);
	dis_emit(&s->o, "%s(", func ? name_of(btf, func->name_off) : "");
	for (__u16 i = 0; i < btf_vlen(proto); i++, p++) {
		if (i)
			dis_emit(&s->o, ", ");
		if (!p->type) {
			dis_emit(&s->o, "...");
			continue;
		}
		sig_type(s, btf, p->type);
		if (p->name_off)
			dis_emit(&s->o, "%s", name_of(btf, p->name_off));
		else if (s->o.len && s->o.len < s->o.size && s->o.buf[s->o.len - 1] == ' ')
			s->o.buf[--s->o.len] = '\0';	/* an unnamed parameter: no space after */
	}
	dis_emit(&s->o, ")");
}

/* A type as bpftool spells it: each name followed by a space, "struct x * " for a pointer. */
static void sig_type(struct sig *s, const struct btf *btf, __u32 id)
{
	const struct btf_type *t;

	if (!id) {
		dis_emit(&s->o, "void ");
		return;
	}
	t = btf__type_by_id(btf, id);
	if (!t) {
		s->bad = true;
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FLOAT:
		dis_emit(&s->o, "%s ", name_of(btf, t->name_off));
		break;
	case BTF_KIND_STRUCT:
		dis_emit(&s->o, "struct %s ", name_of(btf, t->name_off));
		break;
	case BTF_KIND_UNION:
		dis_emit(&s->o, "union %s ", name_of(btf, t->name_off));
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		dis_emit(&s->o, "enum %s ", name_of(btf, t->name_off));
		break;
	case BTF_KIND_ARRAY:
		sig_type(s, btf, btf_array(t)->type);
		dis_emit(&s->o, "[%d]", (int)btf_array(t)->nelems);
		break;
	case BTF_KIND_PTR:
		sig_type(s, btf, t->type);
		dis_emit(&s->o, "* ");
		break;
	case BTF_KIND_FWD:
		dis_emit(&s->o, "%s %s ", btf_kflag(t) ? "union" : "struct", name_of(btf, t->name_off));
		break;
	case BTF_KIND_VOLATILE:
		dis_emit(&s->o, "volatile ");
		sig_type(s, btf, t->type);
		break;
	case BTF_KIND_CONST:
		dis_emit(&s->o, "const ");
		sig_type(s, btf, t->type);
		break;
	case BTF_KIND_RESTRICT:
		dis_emit(&s->o, "restrict ");
		sig_type(s, btf, t->type);
		break;
	case BTF_KIND_FUNC_PROTO:
		sig_func(s, btf, t, NULL);
		break;
	case BTF_KIND_FUNC: {
		const struct btf_type *proto = btf__type_by_id(btf, t->type);

		if (!proto || !btf_is_func_proto(proto)) {
			s->bad = true;
			break;
		}
		sig_func(s, btf, proto, t);
		break;
	}
	case BTF_KIND_VAR:
		if (btf_var(t)->linkage == BTF_VAR_STATIC)
			dis_emit(&s->o, "static ");
		sig_type(s, btf, t->type);
		dis_emit(&s->o, " %s", name_of(btf, t->name_off));
		break;
	case BTF_KIND_DATASEC:
		dis_emit(&s->o, "section (\"%s\") ", name_of(btf, t->name_off));
		break;
	default:
		s->bad = true;
	}
}

/* The source line of a line_info record, without its indentation; NULL: none. */
static const char *src_line(const struct btf *btf, const struct bpf_line_info *li)
{
	const char *line = btf__name_by_offset(btf, li->line_off);

	while (line && isspace((unsigned char)*line))
		line++;
	return line;
}

static void print_linfo(FILE *out, struct nb_json *j, const struct btf *btf,
			const struct bpf_line_info *li, bool linum)
{
	const char *line = src_line(btf, li), *file = btf__name_by_offset(btf, li->file_name_off);
	__u32 num = BPF_LINE_INFO_LINE_NUM(li->line_col), col = BPF_LINE_INFO_LINE_COL(li->line_col);

	if (j) {
		if (line)
			nb_json_string(j, "src", line);
		if (!linum)
			return;
		if (file)
			nb_json_string(j, "file", file);
		if (num)
			nb_json_uint(j, "line_num", num);
		if (col)
			nb_json_uint(j, "line_col", col);
		return;
	}
	if (!line)
		return;
	if (linum)
		fprintf(out, "; %s [file:%s line_num:%u line_col:%u]\n", line, file ?: "", num, col);
	else
		fprintf(out, "; %s\n", line);
}

/*
 * The record of the line before instruction i, as bpftool finds it (libbpf's
 * bpf_prog_linfo__lfind from the first record not printed yet, *next): the last at or before
 * i, which moves *next on by one.
 */
static const struct bpf_line_info *line_at(const struct nb_prog_btf_info *bi, __u32 i,
					   __u32 *next)
{
	__u32 k = *next;

	if (k >= bi->nr_line_info || bi->line_info[k].insn_off > i)
		return NULL;
	while (k + 1 < bi->nr_line_info && bi->line_info[k + 1].insn_off <= i)
		k++;
	(*next)++;
	return &bi->line_info[k];
}

static void print_opcodes(FILE *out, struct nb_json *j, const struct bpf_insn *dump, int n)
{
	const unsigned char *b = (const unsigned char *)dump;

	if (!j) {
		fprintf(out, "      ");
		for (int k = 0; k < 8 * n; k++)
			fprintf(out, " %02x", b[k]);
		fputc('\n', out);
		return;
	}
	nb_json_start_object(j, "opcodes");
	nb_json_printf(j, "code", "0x%02x", dump->code);
	nb_json_printf(j, "src_reg", "0x%x", dump->src_reg);
	nb_json_printf(j, "dst_reg", "0x%x", dump->dst_reg);
	nb_json_hex_bytes(j, "off", &dump->off, sizeof(dump->off));
	/* an ldimm64's imm runs on over its second half: 12 bytes */
	nb_json_hex_bytes(j, "imm", &dump->imm, n == 2 ? 12 : 4);
	nb_json_end_object(j);
}

void nb_ctl_prog_dump_xlated(FILE *out, struct nb_json *j, const char *name,
			     const struct nb_prog *prog, unsigned int flags)
{
	struct nb_prog_btf_info bi;
	unsigned int len;
	const struct bpf_insn *insns = nb_prog_xlated(prog, &len);
	__u32 func = 0, next_line = 0;

	nb_prog_btf_info(prog, &bi);
	if (j)
		nb_json_start_array(j, name);
	for (__u32 i = 0; i < len;) {
		const struct bpf_line_info *li = bi.btf ? line_at(&bi, i, &next_line) : NULL;
		struct bpf_insn dump[2];
		char text[256];
		int n;

		if (j)
			nb_json_start_object(j, NULL);
		if (bi.btf && func < bi.nr_func_info && bi.func_info[func].insn_off == i) {
			char proto[1024];
			struct sig s = { .o = { .buf = proto, .size = sizeof(proto) } };

			sig_type(&s, bi.btf, bi.func_info[func++].type_id);
			/* a prototype cut short is left out, as one BTF could not spell */
			if (!s.bad && s.o.len && s.o.len < s.o.size) {
				if (j)
					nb_json_string(j, "proto", proto);
				else
					fprintf(out, "%s:\n", proto);
			}
		}
		if (li)
			print_linfo(out, j, bi.btf, li, flags & NB_XLATED_LINUM);
		n = nb_disasm_xlated_insn(prog, &insns[i], len - i, dump, text, sizeof(text));
		if (j) {
			nb_json_string(j, "disasm", text);
			if (flags & NB_XLATED_OPCODES)
				print_opcodes(out, j, dump, n);
			nb_json_end_object(j);
		} else {
			fprintf(out, "%4u: %s\n", i, text);
			if (flags & NB_XLATED_OPCODES)
				print_opcodes(out, NULL, dump, n);
		}
		i += n;
	}
	if (j)
		nb_json_end_array(j);
}
