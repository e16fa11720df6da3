// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf prog dump { xlated | jited } OBJ [sec S] [type T]: the instructions the engines run, and
 * the machine code the JIT made of each, as bpftool prog dump does.
 *
 * xlated lists each program as bpftool prog dump xlated does (ctl/prog_xlated.c), after a
 * "NAME:" line; opcodes and linum are bpftool's options.
 *
 * jited prints every BPF instruction followed by its x86-64 code, disassembled by llvm-mc when
 * it is installed and in hex otherwise; the entry and the shared code come first, the checked
 * mode's fault stubs last.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netbpf/disasm.h>
#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/json.h"
#include "ctl/prog_xlated.h"

struct native_insn {
	__u32 off;
	__u32 len;
	char text[96];
};

static const char dump_usage[] =
	"Usage: netbpf prog dump { xlated | jited } OBJ [sec SECTION] [{ type | --type } TYPE]\n"
	"                        [opcodes] [linum]     (xlated: bpftool's options)\n"
	"       netbpf prog dump xlated PROG [opcodes] [linum]     (a daemon's program)\n"
	"       PROG := { id ID | name NAME | tag TAG }\n";

/*
 * Disassemble code with llvm-mc (one process for the whole image); the encodings it prints give
 * each instruction's length. Returns the count, or -1 when llvm-mc is missing or confused.
 */
static int disassemble(const __u8 *code, size_t len, struct native_insn **out)
{
	char path[] = "/tmp/netbpf-jit-XXXXXX", cmd[128], line[512];
	struct native_insn *insns = NULL;
	int fd = mkstemp(path), n = 0, cap = 0;
	__u32 off = 0;
	FILE *f, *p;

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(path);
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		fprintf(f, "0x%02x%c", code[i], i % 16 == 15 ? '\n' : ' ');
	fclose(f);
	snprintf(cmd, sizeof(cmd), "llvm-mc --disassemble -triple=x86_64 --show-encoding <%s "
		 "2>/dev/null", path);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		char *enc = strstr(line, "# encoding: ["), *text = line;
		__u32 bytes = 1;

		if (!enc)
			continue;
		for (char *c = enc; *c && *c != ']'; c++)
			bytes += *c == ',';
		while (*text == ' ' || *text == '\t')
			text++;
		*enc = '\0';
		for (char *end = enc; end > text && (end[-1] == ' ' || end[-1] == '\t');)
			*--end = '\0';
		if (n == cap) {
			struct native_insn *t;

			cap = cap ? cap * 2 : 256;
			t = realloc(insns, cap * sizeof(*t));
			if (!t)
				break;
			insns = t;
		}
		insns[n].off = off;
		insns[n].len = bytes;
		snprintf(insns[n].text, sizeof(insns[n].text), "%.95s", text);
		for (char *c = insns[n].text; *c; c++)
			if (*c == '\t')
				*c = ' ';
		off += bytes;
		n++;
	}
	if (p)
		pclose(p);
	unlink(path);
	if (off != len) { /* not installed, or it lost its way: hex it is */
		free(insns);
		return -1;
	}
	*out = insns;
	return n;
}

/* Hex bytes "48 89 e5" of code[off, off + len) into buf. */
static void hex_bytes(const __u8 *code, __u32 off, __u32 len, char *buf, size_t size)
{
	buf[0] = '\0';
	for (__u32 i = 0; i < len && strlen(buf) + 4 < size; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%02x", i ? " " : "",
			 code[off + i]);
}

/*
 * The machine code of [lo, hi): llvm-mc's instructions when it is installed, else 16-byte lines
 * of hex. With j, objects {"off", "bytes"[, "asm"]} into the array j has open.
 */
static void print_native(struct nb_json *j, const __u8 *code, __u32 lo, __u32 hi,
			 const struct native_insn *mc, int mc_n, int *mc_i)
{
	char hex[64];

	if (mc_n < 0) {
		for (__u32 off = lo; off < hi; off += 16) {
			__u32 n = hi - off < 16 ? hi - off : 16;

			hex_bytes(code, off, n, hex, sizeof(hex));
			if (j) {
				nb_json_start_object(j, NULL);
				nb_json_uint(j, "off", off);
				nb_json_string(j, "bytes", hex);
				nb_json_end_object(j);
			} else {
				printf("  %5x: %s\n", off, hex);
			}
		}
		return;
	}
	for (; *mc_i < mc_n && mc[*mc_i].off < hi; (*mc_i)++) {
		const struct native_insn *m = &mc[*mc_i];

		hex_bytes(code, m->off, m->len < 15 ? m->len : 15, hex, sizeof(hex));
		if (j) {
			nb_json_start_object(j, NULL);
			nb_json_uint(j, "off", m->off);
			nb_json_string(j, "bytes", hex);
			nb_json_string(j, "asm", m->text);
			nb_json_end_object(j);
		} else {
			printf("  %5x: %-33s %s\n", m->off, hex, m->text);
		}
	}
}

/* A JSON array name of the machine code of [lo, hi). */
static void json_native(struct nb_json *j, const char *name, const __u8 *code, __u32 lo, __u32 hi,
			const struct native_insn *mc, int mc_n, int *mc_i)
{
	nb_json_start_array(j, name);
	print_native(j, code, lo, hi, mc, mc_n, mc_i);
	nb_json_end_array(j);
}

/* One program as bpftool lists it: text after a "NAME:" line, or {"name", "section", "insns"}. */
static void dump_xlated(struct nb_json *j, const struct nb_prog *prog, const char *name,
			const char *section, unsigned int flags)
{
	if (j) {
		nb_json_start_object(j, NULL);
		nb_json_string(j, "name", name);
		nb_json_string(j, "section", section);
	} else {
		printf("%s:\n", name);
	}
	nb_ctl_prog_dump_xlated(stdout, j, j ? "insns" : NULL, prog, flags);
	if (j)
		nb_json_end_object(j);
}

/*
 * One program's machine code: text, or with j an object {"name", "section", "jited", "bytes",
 * "entry", "insns": [{"pc", "disasm", "native"}], "fault_stubs"}.
 */
static void dump_jited(struct nb_json *j, const struct nb_prog *prog, const char *name,
		       const char *section)
{
	struct nb_prog_jited_image native = { 0 };
	bool has_native = !nb_prog_jited_image(prog, &native);
	const __u8 *code = native.image;
	const __u32 *offs = native.insn_offs;
	struct native_insn *mc = NULL;
	int mc_n = -1, mc_i = 0;
	unsigned int len;
	const struct bpf_insn *insns = nb_prog_xlated(prog, &len);

	if (j) {
		nb_json_start_object(j, NULL);
		nb_json_string(j, "name", name);
		nb_json_string(j, "section", section);
		nb_json_bool(j, "jited", has_native);
	}
	if (!has_native) {
		if (j)
			nb_json_end_object(j);
		else
			printf("%s: not JIT-compiled (interpreter)\n", name);
		return;
	}
	mc_n = disassemble(code, native.size, &mc);
	if (j) {
		nb_json_uint(j, "bytes", native.size);
		json_native(j, "entry", code, 0, offs[0], mc, mc_n, &mc_i);
	} else {
		printf("%s: %zu bytes of x86-64 code\n", name, native.size);
		printf("<entry>\n");
		print_native(NULL, code, 0, offs[0], mc, mc_n, &mc_i);
	}
	if (j)
		nb_json_start_array(j, "insns");
	for (__u32 i = 0; i < len;) {
		char text[256];
		int n = nb_disasm_prog_insn(prog, true, &insns[i], len - i, text, sizeof(text));

		if (j) {
			nb_json_start_object(j, NULL);
			nb_json_uint(j, "pc", i);
			nb_json_string(j, "disasm", text);
			json_native(j, "native", code, offs[i], offs[i + n], mc, mc_n, &mc_i);
			nb_json_end_object(j);
		} else {
			printf("; %4u: %s\n", i, text);
			print_native(NULL, code, offs[i], offs[i + n], mc, mc_n, &mc_i);
		}
		i += n;
	}
	if (j)
		nb_json_end_array(j);
	if (offs[len] < native.size) {
		if (j) {
			json_native(j, "fault_stubs", code, offs[len], native.size, mc, mc_n,
				    &mc_i);
		} else {
			printf("<fault stubs>\n");
			print_native(NULL, code, offs[len], native.size, mc, mc_n, &mc_i);
		}
	}
	if (j)
		nb_json_end_object(j);
	free(mc);
}

/* A loaded program of section (or name) sec, or of the object when sec is NULL. */
static bool wanted(struct nb_object_prog *p, const char *sec)
{
	return nb_object_prog_prog(p) && (!sec || !strcmp(nb_object_prog_section(p), sec) ||
					  !strcmp(nb_object_prog_name(p), sec));
}

int prog_dump(int argc, char **argv)
{
	struct nb_cli_object o = { 0 };
	const char *sec = NULL;
	struct nb_object_prog *p;
	struct nb_json *j = NULL;
	bool jited, any = false, first;
	unsigned int flags = 0;

	if (argc >= 1 && (nb_cli_is_help(argv[0]) || (argc == 2 && nb_cli_is_help(argv[1]))))
		return nb_cli_usage(dump_usage, true);
	if (argc < 2)
		return nb_cli_usage(dump_usage, false);
	if (nb_matches(argv[0], "jited")) {
		jited = true;
	} else if (nb_matches(argv[0], "xlated")) {
		jited = false;
	} else {
		nb_cli_error("prog dump: argument \"%s\" is wrong: expected xlated or jited",
			     argv[0]);
		return nb_cli_usage(dump_usage, false);
	}
	for (int i = 1; i < argc; i++) {
		if (nb_matches(argv[i], "section") || !strcmp(argv[i], "sec")) {
			if (++i >= argc)
				return nb_cli_usage(dump_usage, false);
			sec = argv[i];
		} else if (nb_matches(argv[i], "type") || !strcmp(argv[i], "--type")) {
			if (++i >= argc)
				return nb_cli_usage(dump_usage, false);
			if (nb_cli_prog_type(argv[i], &o.type))
				return NB_EXIT_USAGE;
		} else if (!jited && !strcmp(argv[i], "opcodes")) {
			flags |= NB_XLATED_OPCODES;
		} else if (!jited && !strcmp(argv[i], "linum")) {
			flags |= NB_XLATED_LINUM;
		} else if (!o.path && argv[i][0] != '-') {
			o.path = argv[i];
		} else {
			nb_cli_error("prog dump: argument \"%s\" is %s", argv[i],
				     argv[i][0] == '-' ? "unknown" : "wrong");
			return nb_cli_usage(dump_usage, false);
		}
	}
	if (!o.path)
		return nb_cli_usage(dump_usage, false);
	/* that section only, as prog load and tc load it: another that fails is no matter */
	o.section = sec;
	if (nb_cli_object_load(&o, false))
		return NB_EXIT_ERR;
	nb_object_for_each_prog(p, o.obj)
		any |= wanted(p, sec);
	if (any && nb_cli.json) {
		j = nb_json_new(stdout, nb_cli.pretty);
		nb_json_start_array(j, NULL);
	}
	first = true;
	nb_object_for_each_prog(p, o.obj) {
		if (!wanted(p, sec))
			continue;
		if (!first && !j)
			printf("\n");
		if (jited)
			dump_jited(j, nb_object_prog_prog(p), nb_object_prog_name(p),
				   nb_object_prog_section(p));
		else
			dump_xlated(j, nb_object_prog_prog(p), nb_object_prog_name(p),
				    nb_object_prog_section(p), flags);
		first = false;
	}
	nb_object_close(o.obj);
	if (j) {
		nb_json_end_array(j);
		nb_json_free(j);
	}
	if (!any) {
		nb_cli_error("prog dump: %s has no loaded program%s%s", o.path,
			     sec ? " in section " : "", sec ? sec : "");
		return NB_EXIT_ERR;
	}
	return NB_EXIT_OK;
}
