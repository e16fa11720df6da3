// SPDX-License-Identifier: GPL-2.0
/*
 * A program's BTF information, as BPF_PROG_LOAD takes it: the BTF object (prog_btf_fd), the
 * func_info records (each function's first instruction and its BTF_KIND_FUNC) and the
 * line_info records (an instruction's file, line and column). Here the records are copied into
 * the program with the kernel's record-size rules; what they say is checked by the verifier
 * (verifier/btf_func.c) against the program's functions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/btf_object.h"
#include "bpf/prog.h"

#define MIN_FUNC_INFO_REC_SIZE	8	/* the kernel's MIN_BPF_FUNCINFO_SIZE */
#define MAX_INFO_REC_SIZE	252	/* MAX_FUNCINFO_REC_SIZE, MAX_LINEINFO_REC_SIZE */
#define MIN_LINE_INFO_REC_SIZE	(offsetof(struct bpf_line_info, line_col) + sizeof(__u32))

/* The new fields of struct nb_prog_load_opts, read only when the caller's struct has them. */
#define LOAD_OPT(opts, field)                                                               \
	((opts) && (opts)->sz >= offsetof(struct nb_prog_load_opts, field) + sizeof((opts)->field) \
		 ? (opts)->field : 0)

static bool tail_is_zero(const u8 *rec, size_t known, size_t rec_size)
{
	for (size_t i = known; i < rec_size; i++)
		if (rec[i])
			return false;
	return true;
}

/*
 * cnt records of rec_size bytes into an array of known-size records, as the kernel copies
 * them: a record shorter than ours leaves the rest zero, a longer one must have zeroes beyond.
 */
static int copy_records(const void *src, u32 cnt, u32 rec_size, size_t known, const char *what,
			void **dstp, struct nb_log *log)
{
	u8 *dst;

	if ((size_t)cnt > INT32_MAX / known)
		return -E2BIG;
	dst = calloc(cnt, known);
	if (!dst)
		return -ENOMEM;
	for (u32 i = 0; i < cnt; i++) {
		const u8 *rec = (const u8 *)src + (size_t)i * rec_size;

		if (!tail_is_zero(rec, known, rec_size)) {
			nb_log_printf(log, "nonzero tailing record in %s\n", what);
			free(dst);
			return -E2BIG;
		}
		memcpy(dst + i * known, rec, min_t(size_t, known, rec_size));
	}
	*dstp = dst;
	return 0;
}

int nb_prog_copy_btf_info(struct nb_prog *prog, const struct nb_prog_load_opts *opts,
			  struct nb_log *log)
{
	struct nb_btf *btf = LOAD_OPT(opts, btf);
	const void *func_info = LOAD_OPT(opts, func_info), *line_info = LOAD_OPT(opts, line_info);
	u32 nfuncs = LOAD_OPT(opts, func_info_cnt), nlines = LOAD_OPT(opts, line_info_cnt);
	u32 func_rec = LOAD_OPT(opts, func_info_rec_size);
	u32 line_rec = LOAD_OPT(opts, line_info_rec_size);
	void *copy;
	int err;

	if (!nfuncs && !nlines)
		return 0;
	if (!btf) {
		nb_log_printf(log, "func_info and line_info need the program's BTF (opts->btf)\n");
		return -EINVAL;
	}
	if ((nfuncs && !func_info) || (nlines && !line_info)) {
		nb_log_printf(log, "%s_info_cnt %u without records\n", nfuncs && !func_info ?
			      "func" : "line", nfuncs && !func_info ? nfuncs : nlines);
		return -EINVAL;
	}
	if (nfuncs) {
		if (func_rec < MIN_FUNC_INFO_REC_SIZE || func_rec > MAX_INFO_REC_SIZE ||
		    func_rec % sizeof(u32)) {
			nb_log_printf(log, "invalid func info rec size %u\n", func_rec);
			return -EINVAL;
		}
		err = copy_records(func_info, nfuncs, func_rec, sizeof(struct bpf_func_info),
				   "func info", &copy, log);
		if (err)
			return err;
		prog->func_info = copy;
		prog->func_info_cnt = nfuncs;
	}
	if (nlines) {
		if (line_rec < MIN_LINE_INFO_REC_SIZE || line_rec > MAX_INFO_REC_SIZE ||
		    line_rec % sizeof(u32)) {
			nb_log_printf(log, "invalid line info rec size %u\n", line_rec);
			return -EINVAL;
		}
		err = copy_records(line_info, nlines, line_rec, sizeof(struct bpf_line_info),
				   "line_info", &copy, log);
		if (err)
			return err;
		prog->linfo = copy;
		prog->nr_linfo = nlines;
	}
	prog->btf = nb_btf_get(btf);
	return 0;
}

void nb_prog_free_btf_info(struct nb_prog *prog)
{
	free(prog->func_info);
	free(prog->linfo);
	nb_btf_put(prog->btf);
}

const struct bpf_line_info *nb_prog_find_linfo(const struct nb_prog *prog, u32 insn_off)
{
	u32 lo = 0, hi = prog->nr_linfo;

	if (!prog->nr_linfo || prog->linfo[0].insn_off > insn_off)
		return NULL;
	/* The last record at or before insn_off: the records are strictly increasing. */
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (prog->linfo[mid].insn_off <= insn_off)
			lo = mid;
		else
			hi = mid;
	}
	return &prog->linfo[lo];
}
