// SPDX-License-Identifier: GPL-2.0
/*
 * Differential runs of the JIT against the interpreter; see jit_diff.h.
 *
 * Both engines of a pair run on the same buffer, one after the other, so that pointers into the
 * memory block are equal and may flow into results. Stack addresses differ between engines: a
 * fault report naming one is compared without its address.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/prog.h>

#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "jit_diff.h"

static __thread const u8 *diff_pkt;
static __thread u32 diff_pkt_len;

void nb_jit_diff_set_packet(const u8 *pkt, u32 len)
{
	diff_pkt = pkt;
	diff_pkt_len = len;
}

/* Network byte order, as the kernel's LD_ABS. */
static int diff_ld_abs(const void *ctx, s32 off, u32 size, u32 *val)
{
	u32 v = 0;

	if (off < 0 || (u64)off + size > diff_pkt_len)
		return -EFAULT;
	for (u32 i = 0; i < size; i++)
		v = v << 8 | diff_pkt[off + i];
	*val = v;
	return 0;
}

static const struct nb_func_proto *diff_get_func_proto(enum bpf_func_id id,
						       const struct nb_prog *prog)
{
	return NULL;
}

static const struct nb_prog_type_ops diff_prog_type = {
	.type = NB_JIT_DIFF_PROG_TYPE,
	.name = "jit_diff",
	.get_func_proto = diff_get_func_proto,
	.ld_abs = diff_ld_abs,
};
NB_PROG_TYPE_REGISTER(diff_prog_type)

struct run {
	int err;
	u64 r0;
	char msg[256];
};

static __printf(3, 4) void say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static int load(const struct bpf_insn *insns, u32 cnt, unsigned int flags, struct nb_prog **prog,
		char *why, size_t why_len)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .flags = flags, .log = &log };
	int err = nb_prog_load(NB_JIT_DIFF_PROG_TYPE, insns, cnt, &opts, prog);

	if (err)
		say(why, why_len, "load refused: %s", nb_log_text(&log));
	nb_log_free(&log);
	return err;
}

static void run_checked(const struct nb_prog *prog, u8 *buf, const u8 *mem, u32 len,
			struct run *r)
{
	struct nb_log log = { 0 };

	if (len)
		memcpy(buf, mem, len);
	r->r0 = 0;
	r->err = nb_prog_run_checked(prog, buf, len, &r->r0, &log);
	snprintf(r->msg, sizeof(r->msg), "%s", nb_log_text(&log));
	nb_log_free(&log);
}

/* Fault reports agree on the instruction and reason; addresses only inside the memory block. */
static bool same_report(const char *a, const char *b, const u8 *buf, u32 len)
{
	const char *at_a = strstr(a, " at 0x"), *at_b = strstr(b, " at 0x");
	unsigned long long addr;

	if (!at_a || !at_b)
		return !strcmp(a, b);
	if (at_a - a != at_b - b || strncmp(a, b, at_a - a))
		return false;
	addr = strtoull(at_a + 4, NULL, 16);
	if (addr >= (uintptr_t)buf && addr < (uintptr_t)buf + len + 64)
		return !strcmp(a, b);
	return true;
}

static enum nb_jit_diff_result diff_checked(const struct bpf_insn *insns, u32 cnt, const u8 *mem,
					    u32 len, u8 *buf, u8 *out, struct run *ri,
					    char *why, size_t why_len)
{
	struct nb_prog *pi = NULL, *pj = NULL;
	enum nb_jit_diff_result res = NB_JIT_DIFF_SAME;
	struct run rj;

	if (load(insns, cnt, NB_PROG_LOAD_CHECKED | NB_PROG_LOAD_INTERP, &pi, why, why_len))
		return NB_JIT_DIFF_REJECTED;
	if (load(insns, cnt, NB_PROG_LOAD_CHECKED, &pj, why, why_len)) {
		nb_prog_put(pi);
		return NB_JIT_DIFF_MISMATCH; /* the interpreter's load passed */
	}
	if (!nb_prog_is_jited(pj)) {
		res = NB_JIT_DIFF_NO_JIT;
		goto out;
	}
	run_checked(pi, buf, mem, len, ri);
	if (len)
		memcpy(out, buf, len);
	run_checked(pj, buf, mem, len, &rj);
	if (ri->err != rj.err || (!ri->err && ri->r0 != rj.r0)) {
		say(why, why_len, "checked: interp err %d r0 0x%llx '%s', jit err %d r0 0x%llx '%s'",
		    ri->err, (unsigned long long)ri->r0, ri->msg, rj.err,
		    (unsigned long long)rj.r0, rj.msg);
		res = NB_JIT_DIFF_MISMATCH;
	} else if (ri->err && !same_report(ri->msg, rj.msg, buf, len)) {
		say(why, why_len, "checked: interp says '%s', jit says '%s'", ri->msg, rj.msg);
		res = NB_JIT_DIFF_MISMATCH;
	} else if (memcmp(out, buf, len)) {
		say(why, why_len, "checked: memory differs (r0 0x%llx)",
		    (unsigned long long)ri->r0);
		res = NB_JIT_DIFF_MISMATCH;
	}
out:
	nb_prog_put(pi);
	nb_prog_put(pj);
	return res;
}

static enum nb_jit_diff_result diff_unchecked(const struct bpf_insn *insns, u32 cnt,
					      const u8 *mem, u32 len, u8 *buf, u8 *out,
					      char *why, size_t why_len)
{
	struct nb_prog *pi = NULL, *pj = NULL;
	enum nb_jit_diff_result res = NB_JIT_DIFF_MISMATCH;
	u64 ri, rj;

	if (load(insns, cnt, NB_PROG_LOAD_UNSAFE_NO_VERIFY | NB_PROG_LOAD_INTERP, &pi, why,
		 why_len) ||
	    load(insns, cnt, NB_PROG_LOAD_UNSAFE_NO_VERIFY, &pj, why, why_len))
		goto out;
	if (!pj->jited) {
		say(why, why_len, "unchecked load was not JIT-compiled");
		goto out;
	}
	if (len)
		memcpy(buf, mem, len);
	ri = nb_interp_run(pi, (u64)(uintptr_t)buf, len);
	if (len) {
		memcpy(out, buf, len);
		memcpy(buf, mem, len);
	}
	rj = pj->jited((u64)(uintptr_t)buf, len);
	if (ri != rj)
		say(why, why_len, "unchecked: interp r0 0x%llx, jit r0 0x%llx",
		    (unsigned long long)ri, (unsigned long long)rj);
	else if (memcmp(out, buf, len))
		say(why, why_len, "unchecked: memory differs (r0 0x%llx)", (unsigned long long)ri);
	else
		res = NB_JIT_DIFF_SAME;
out:
	nb_prog_put(pi);
	nb_prog_put(pj);
	return res;
}

enum nb_jit_diff_result nb_jit_diff(const struct bpf_insn *insns, u32 cnt, const u8 *mem,
				    u32 mem_len, bool unchecked, char *why, size_t why_len)
{
	/* Both runs of a pair use buf; out keeps the first engine's memory. */
	u8 *buf = malloc(mem_len + 1), *out = malloc(mem_len + 1);
	enum nb_jit_diff_result res = NB_JIT_DIFF_MISMATCH;
	struct run ri;

	why[0] = '\0';
	if (!buf || !out) {
		say(why, why_len, "out of memory");
		goto out;
	}
	res = diff_checked(insns, cnt, mem, mem_len, buf, out, &ri, why, why_len);
	if (res == NB_JIT_DIFF_SAME && unchecked && !ri.err)
		res = diff_unchecked(insns, cnt, mem, mem_len, buf, out, why, why_len);
out:
	free(buf);
	free(out);
	return res;
}
