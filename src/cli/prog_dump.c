// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf prog dump { xlated | jited } OBJ [sec S] [type T]: the instructions the engines run, and
 * the machine code the JIT made of each, as bpftool prog dump does.
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

#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "bpf/disasm.h"
#include "bpf/prog.h"
#include "cli/cli.h"
#include "ctl/args.h"

struct native_insn {
	u32 off;
	u32 len;
	char text[96];
};

static const char dump_usage[] =
	"Usage: netbpf prog dump { xlated | jited } OBJ [sec SECTION] [{ type | --type } TYPE]\n";

/*
 * Disassemble code with llvm-mc (one process for the whole image); the encodings it prints give
 * each instruction's length. Returns the count, or -1 when llvm-mc is missing or confused.
 */
static int disassemble(const u8 *code, size_t len, struct native_insn **out)
{
	char path[] = "/tmp/netbpf-jit-XXXXXX", cmd[128], line[512];
	struct native_insn *insns = NULL;
	int fd = mkstemp(path), n = 0, cap = 0;
	u32 off = 0;
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
		u32 bytes = 1;

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

static void print_native(const u8 *code, u32 lo, u32 hi, const struct native_insn *mc, int mc_n,
			 int *mc_i)
{
	if (mc_n < 0) {
		for (u32 off = lo; off < hi; off += 16) {
			printf("  %5x:", off);
			for (u32 i = off; i < hi && i < off + 16; i++)
				printf(" %02x", code[i]);
			printf("\n");
		}
		return;
	}
	for (; *mc_i < mc_n && mc[*mc_i].off < hi; (*mc_i)++) {
		const struct native_insn *m = &mc[*mc_i];
		char hex[48] = "";

		for (u32 i = 0; i < m->len && i < 15 && strlen(hex) + 4 < sizeof(hex); i++)
			snprintf(hex + strlen(hex), sizeof(hex) - strlen(hex), "%02x ", code[m->off + i]);
		printf("  %5x: %-33s %s\n", m->off, hex, m->text);
	}
}

static void dump_prog(const struct nb_prog *prog, const char *name, bool jited)
{
	const u8 *code = prog->jit_image;
	struct native_insn *mc = NULL;
	int mc_n = -1, mc_i = 0;

	if (jited && !prog->jit_image) {
		printf("%s: not JIT-compiled (interpreter)\n", name);
		return;
	}
	if (jited) {
		mc_n = disassemble(code, prog->jit_size, &mc);
		printf("%s: %zu bytes of x86-64 code\n", name, prog->jit_size);
		printf("<entry>\n");
		print_native(code, 0, prog->jit_insn_offs[0], mc, mc_n, &mc_i);
	} else {
		printf("%s:\n", name);
	}
	for (u32 i = 0; i < prog->len;) {
		char text[256];
		int n = nb_disasm_prog_insn(prog, true, &prog->insns[i], prog->len - i, text,
					    sizeof(text));

		printf("%s%4u: %s\n", jited ? "; " : "", i, text);
		if (jited)
			print_native(code, prog->jit_insn_offs[i], prog->jit_insn_offs[i + n], mc,
				     mc_n, &mc_i);
		i += n;
	}
	if (jited && prog->jit_insn_offs[prog->len] < prog->jit_size) {
		printf("<fault stubs>\n");
		print_native(code, prog->jit_insn_offs[prog->len], prog->jit_size, mc, mc_n, &mc_i);
	}
	free(mc);
}

int prog_dump(int argc, char **argv)
{
	struct nb_cli_object o = { 0 };
	const char *sec = NULL;
	struct nb_object_prog *p;
	bool jited, any = false;

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
	if (nb_cli_object_load(&o, false))
		return NB_EXIT_ERR;
	nb_object_for_each_prog(p, o.obj) {
		const struct nb_prog *prog = nb_object_prog_prog(p);

		if (!prog || (sec && strcmp(nb_object_prog_section(p), sec) &&
			      strcmp(nb_object_prog_name(p), sec)))
			continue;
		if (any)
			printf("\n");
		dump_prog(prog, nb_object_prog_name(p), jited);
		any = true;
	}
	nb_object_close(o.obj);
	if (!any) {
		nb_cli_error("prog dump: %s has no loaded program%s%s", o.path,
			     sec ? " in section " : "", sec ? sec : "");
		return NB_EXIT_ERR;
	}
	return NB_EXIT_OK;
}
