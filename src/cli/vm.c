// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf vm: raw bytecode, outside any datapath.
 *
 *   netbpf vm run [--interp|--jit] [--mem HEX | --mem-file FILE] [--hex] [FILE | -]
 *   netbpf vm dis [--hex] [FILE | -]
 *
 * Bytecode is 8-byte little-endian instructions, binary or (--hex) hex bytes separated by white
 * space. A run gets r1 = a private copy of the memory (NULL when none), r2 = its length, and
 * r10 = the top of a 512-byte stack per frame; it prints r0. Raw programs have no verifier proof,
 * so they run checked: on the checked JIT by default where there is one (--jit insists on it), or
 * on the checked interpreter (--interp). Both bound every access to that memory and the stack.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/disasm.h>
#include <netbpf/prog.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "ctl/json.h"

struct vm_args {
	bool hex;
	bool jit;
	bool interp;
	const char *mem_hex;
	const char *mem_file;
	const char *file;
};

static const char vm_usage[] =
	"Usage: netbpf vm run [--interp|--jit] [--mem HEX | --mem-file FILE] [--hex] [FILE | -]\n"
	"       netbpf vm dis [--hex] [FILE | -]\n";

static int parse_vm_args(int argc, char **argv, bool run, struct vm_args *a)
{
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--hex")) {
			a->hex = true;
		} else if (run && !strcmp(arg, "--interp")) {
			a->interp = true;
			a->jit = false;
		} else if (run && !strcmp(arg, "--jit")) {
			a->jit = true;
			a->interp = false;
		} else if (run && (!strcmp(arg, "--mem") || !strcmp(arg, "--mem-file"))) {
			if (i + 1 >= argc) {
				nb_cli_error("option \"%s\" needs an argument", arg);
				return -EINVAL;
			}
			if (!strcmp(arg, "--mem"))
				a->mem_hex = argv[++i];
			else
				a->mem_file = argv[++i];
		} else if ((arg[0] != '-' || !strcmp(arg, "-")) && !a->file) {
			a->file = arg;
		} else {
			nb_cli_error("argument \"%s\" is %s", arg,
				     arg[0] == '-' ? "unknown" : "wrong: one FILE at most");
			return -EINVAL;
		}
	}
	if (a->mem_hex && a->mem_file) {
		nb_cli_error("--mem and --mem-file exclude each other");
		return -EINVAL;
	}
	if (!a->file)
		a->file = "-";
	return 0;
}

/* Read the program: whole instructions only. */
static int read_bytecode(const struct vm_args *a, struct bpf_insn **insns, unsigned int *cnt)
{
	uint8_t *raw, *bytes;
	size_t len;
	int err = nb_read_file(a->file, &raw, &len);

	if (err) {
		nb_cli_error("%s: %s", a->file, strerror(-err));
		return err;
	}
	bytes = raw;
	if (a->hex) {
		char *text = realloc(raw, len + 1), why[128];

		if (!text) {
			free(raw);
			return -ENOMEM;
		}
		text[len] = '\0';
		err = nb_parse_hex(text, &bytes, &len, why, sizeof(why));
		free(text);
		if (err) {
			nb_cli_error("%s: %s", a->file, why);
			return err;
		}
	}
	if (len == 0 || len % sizeof(struct bpf_insn)) {
		nb_cli_error("%s: %s", a->file, len ? "size is not a multiple of 8 bytes"
							 : "program is empty");
		free(bytes);
		return -EINVAL;
	}
	*insns = (struct bpf_insn *)bytes;
	*cnt = len / sizeof(struct bpf_insn);
	return 0;
}

static int read_mem(const struct vm_args *a, uint8_t **mem, size_t *len)
{
	char why[128];
	int err;

	*mem = NULL;
	*len = 0;
	if (a->mem_file) {
		err = nb_read_file(a->mem_file, mem, len);
		if (err)
			nb_cli_error("%s: %s", a->mem_file, strerror(-err));
		return err;
	}
	if (a->mem_hex) {
		err = nb_parse_hex(a->mem_hex, mem, len, why, sizeof(why));
		if (err)
			nb_cli_error("--mem: %s", why);
		return err;
	}
	return 0;
}

/* The loader's log holds "insn N: reason" lines; print the first as the error. */
static void print_log_error(const struct nb_log *log, int err)
{
	const char *text = nb_log_text(log);

	if (*text)
		nb_cli_error("%.*s", (int)strcspn(text, "\n"), text);
	else
		nb_cli_error("%s", strerror(-err));
}

static int vm_run(int argc, char **argv)
{
	struct vm_args a = { 0 };
	struct nb_log log = { 0 };
	struct nb_prog *prog = NULL;
	struct bpf_insn *insns = NULL;
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts),
		.name = "vm",
		.flags = NB_PROG_LOAD_CHECKED,
		.log = &log,
	};
	unsigned int cnt;
	uint8_t *mem = NULL;
	size_t mem_len;
	__u64 r0;
	int err;

	if (argc >= 1 && nb_cli_is_help(argv[0]))
		return nb_cli_usage(vm_usage, true);
	if (parse_vm_args(argc, argv, true, &a))
		return nb_cli_usage(vm_usage, false);
	if (a.interp)
		opts.flags |= NB_PROG_LOAD_INTERP;
	err = read_bytecode(&a, &insns, &cnt);
	if (!err)
		err = read_mem(&a, &mem, &mem_len);
	if (!err) {
		err = nb_prog_load(BPF_PROG_TYPE_UNSPEC, insns, cnt, &opts, &prog);
		if (err)
			print_log_error(&log, err);
	}
	if (!err && a.jit && !nb_prog_is_jited(prog)) {
		nb_cli_error("--jit: no JIT for this program on this machine; use --interp");
		err = -EOPNOTSUPP;
	}
	if (!err) {
		nb_log_reset(&log);
		err = nb_prog_run_checked(prog, mem, mem_len, &r0, &log);
		if (err)
			print_log_error(&log, err);
		else if (nb_cli.json)
			printf("{\"r0\":%llu}\n", (unsigned long long)r0);
		else
			printf("0x%llx\n", (unsigned long long)r0);
	}
	nb_prog_put(prog);
	nb_log_free(&log);
	free(insns);
	free(mem);
	return err ? NB_EXIT_ERR : NB_EXIT_OK;
}

static int vm_dis(int argc, char **argv)
{
	struct nb_json *j = NULL;
	struct vm_args a = { 0 };
	struct bpf_insn *insns;
	unsigned int cnt;

	if (argc >= 1 && nb_cli_is_help(argv[0]))
		return nb_cli_usage(vm_usage, true);
	if (parse_vm_args(argc, argv, false, &a))
		return nb_cli_usage(vm_usage, false);
	if (read_bytecode(&a, &insns, &cnt))
		return NB_EXIT_ERR;
	if (nb_cli.json) {
		j = nb_json_new(stdout, nb_cli.pretty);
		nb_json_start_array(j, NULL);
	}
	for (unsigned int i = 0; i < cnt;) {
		char text[256];
		int n = nb_disasm_insn(&insns[i], cnt - i, text, sizeof(text));

		if (j) {
			nb_json_start_object(j, NULL);
			nb_json_uint(j, "pc", i);
			nb_json_string(j, "disasm", text);
			nb_json_end_object(j);
		} else {
			printf("%4u: %s\n", i, text);
		}
		i += n;
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_free(j);
	}
	free(insns);
	return NB_EXIT_OK;
}

int cmd_vm(int argc, char **argv)
{
	if (argc < 1 || nb_cli_is_help(argv[0]))
		return nb_cli_usage(vm_usage, argc >= 1);
	if (nb_matches(argv[0], "run"))
		return vm_run(argc - 1, argv + 1);
	if (nb_matches(argv[0], "dis") || nb_matches(argv[0], "disassemble"))
		return vm_dis(argc - 1, argv + 1);
	nb_cli_error("argument \"%s\" is wrong: expected run or dis", argv[0]);
	return nb_cli_usage(vm_usage, false);
}
