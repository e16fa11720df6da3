// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier with BTF func_info and line_info, on hand-built BTF (libbpf's btf__add_*) and
 * hand-written instructions: global functions verified once on their own from their prototype
 * (and not when nothing calls them), static ones in their caller's context; the prototypes it
 * refuses; the records' checks (counts, order, function starts, sizes); the subprogram rules
 * without func_info; the source lines in the log.
 */
#include <errno.h>

#include <bpf/btf.h>
#include <netbpf/btf.h>

#include "verifier_test.h"

#define R0 BPF_REG_0
#define R1 BPF_REG_1
#define R2 BPF_REG_2
#define R3 BPF_REG_3
#define R10 BPF_REG_10

struct bt {
	struct btf *b;
	int int_id, skb_ptr, int_ptr, skb_struct;
	struct bpf_func_info fi[12];
	unsigned int nfi;
	struct bpf_line_info li[8];
	unsigned int nli;
};

static void bt_init(struct bt *t)
{
	memset(t, 0, sizeof(*t));
	t->b = btf__new_empty();
	NB_ASSERT(t->b);
	t->int_id = btf__add_int(t->b, "int", 4, BTF_INT_SIGNED);
	t->skb_struct = btf__add_struct(t->b, "__sk_buff", 4);
	NB_ASSERT(t->skb_struct > 0 && !btf__add_field(t->b, "len", t->int_id, 0, 0));
	t->skb_ptr = btf__add_ptr(t->b, t->skb_struct);
	t->int_ptr = btf__add_ptr(t->b, t->int_id);
	NB_ASSERT(t->int_id > 0 && t->skb_ptr > 0 && t->int_ptr > 0);
}

/* A function returning ret, of nparams params, at insn_off: its func_info record too. */
static int bt_func(struct bt *t, const char *name, enum btf_func_linkage linkage, int ret,
		   unsigned int insn_off, unsigned int nparams, const int *params)
{
	int proto = btf__add_func_proto(t->b, ret), fn;

	NB_ASSERT(proto > 0);
	for (unsigned int i = 0; i < nparams; i++)
		NB_ASSERT_EQ(btf__add_func_param(t->b, "a", params[i]), 0);
	fn = btf__add_func(t->b, name, linkage, proto);
	NB_ASSERT(fn > 0 && t->nfi < ARRAY_SIZE(t->fi));
	t->fi[t->nfi++] = (struct bpf_func_info){ .insn_off = insn_off, .type_id = fn };
	return fn;
}

/* The main function: int main(struct __sk_buff *skb), global, at insn 0. */
static void bt_main(struct bt *t)
{
	bt_func(t, "main", BTF_FUNC_GLOBAL, t->int_id, 0, 1, &t->skb_ptr);
}

static void bt_line(struct bt *t, unsigned int insn_off, const char *src, unsigned int line)
{
	NB_ASSERT(t->nli < ARRAY_SIZE(t->li));
	t->li[t->nli++] = (struct bpf_line_info){
		.insn_off = insn_off, .file_name_off = btf__add_str(t->b, "dir/prog.c"),
		.line_off = btf__add_str(t->b, src), .line_col = line << 10 | 1,
	};
}

/* Load insns (a tc program) with t's BTF, func_info and line_info; the log in log. */
static int bt_load_with(struct bt *t, const struct bpf_insn *insns, unsigned int cnt,
			struct nb_log *log, struct nb_prog **progp)
{
	struct nb_btf *btf;
	const void *raw;
	__u32 size;
	int err;

	raw = btf__raw_data(t->b, &size);
	NB_ASSERT(raw);
	NB_ASSERT_EQ(nb_btf_load(raw, size, NULL, &btf), 0);
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = log, .flags = NB_PROG_LOAD_INTERP,
		.btf = btf, .func_info = t->fi, .func_info_cnt = t->nfi,
		.func_info_rec_size = sizeof(t->fi[0]), .line_info = t->li,
		.line_info_cnt = t->nli, .line_info_rec_size = sizeof(t->li[0]),
	};
	err = nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, insns, cnt, &opts, progp);
	/* The program keeps its own reference. */
	nb_btf_put(btf);
	return err;
}

#define BT_LOAD(t, insns, log, progp) bt_load_with(t, insns, ARRAY_SIZE(insns), log, progp)

static void expect_reject(struct bt *t, const struct bpf_insn *insns, unsigned int cnt,
			  const char *reason)
{
	struct nb_log log = { 0 };
	struct nb_prog *prog = NULL;

	if (!bt_load_with(t, insns, cnt, &log, &prog))
		NB_FAIL("accepted, expected \"%s\"", reason);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), reason);
	nb_log_free(&log);
}

static void expect_accept(struct bt *t, const struct bpf_insn *insns, unsigned int cnt)
{
	struct nb_log log = { 0 };
	struct nb_prog *prog = NULL;

	if (bt_load_with(t, insns, cnt, &log, &prog))
		NB_FAIL("rejected: %s", nb_log_text(&log));
	nb_prog_put(prog);
	nb_log_free(&log);
}

#define REJECT(t, insns, reason) expect_reject(t, insns, ARRAY_SIZE(insns), reason)
#define ACCEPT(t, insns)	 expect_accept(t, insns, ARRAY_SIZE(insns))

/* main passes 5 to f(int x), which writes its stack at fp + x - 16. */
static const struct bpf_insn pass_five[] = {
	NB_MOV64_IMM(R1, 5), NB_CALL_REL(2), NB_MOV64_IMM(R0, 0), NB_EXIT(),
	NB_MOV64_REG(R2, R10), NB_ALU64_REG(BPF_ADD, R2, R1), NB_ST_MEM(BPF_B, R2, -16, 0),
	NB_MOV64_IMM(R0, 0), NB_EXIT(),
};

NB_TEST(verifier_btf_global_verified_on_its_own)
{
	struct bt t;

	/* Global: x is any int in f's own verification, whatever main passes. */
	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 4, 1, &t.int_id);
	REJECT(&t, pass_five, "math between fp pointer and register with unbounded min value");
	btf__free(t.b);
	/* Static: f is walked in main's context, with x = 5. */
	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_STATIC, t.int_id, 4, 1, &t.int_id);
	ACCEPT(&t, pass_five);
	btf__free(t.b);
}

NB_TEST(verifier_btf_global_ctx_arg)
{
	const struct bpf_insn pass_ctx[] = {
		NB_CALL_REL(1), NB_EXIT(),
		NB_LDX_MEM(BPF_W, R0, R1, 0), NB_EXIT(),
	};
	const struct bpf_insn pass_stack[] = {
		NB_MOV64_REG(R1, R10), NB_ALU64_IMM(BPF_ADD, R1, -8), NB_ST_MEM(BPF_DW, R1, 0, 0),
		NB_CALL_REL(1), NB_EXIT(),
		NB_LDX_MEM(BPF_W, R0, R1, 0), NB_EXIT(),
	};
	struct bt t;

	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 2, 1, &t.skb_ptr);
	ACCEPT(&t, pass_ctx);
	t.fi[1].insn_off = 5;
	REJECT(&t, pass_stack, "arg#0 expects pointer to ctx");
	REJECT(&t, pass_stack, "Caller passes invalid args into func#1 ('f')");
	btf__free(t.b);
}

NB_TEST(verifier_btf_global_mem_arg)
{
	/* main passes fp-8, initialised; f(int *p) reads *p. */
	const struct bpf_insn read_arg[] = {
		NB_MOV64_REG(R1, R10), NB_ALU64_IMM(BPF_ADD, R1, -8), NB_ST_MEM(BPF_DW, R1, 0, 7),
		NB_CALL_REL(1), NB_EXIT(),
		NB_LDX_MEM(BPF_W, R0, R1, 0), NB_EXIT(),
	};
	/* The same call with NULL. */
	const struct bpf_insn pass_null[] = {
		NB_MOV64_IMM(R1, 0), NB_CALL_REL(1), NB_EXIT(),
		NB_MOV64_IMM(R0, 0), NB_EXIT(),
	};
	struct bt t;
	int f;

	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 5, 1, &t.int_ptr);
	/* Memory arguments may be NULL: f must check before it reads. */
	REJECT(&t, read_arg, "R1 invalid mem access 'mem_or_null'");
	REJECT(&t, read_arg, "Validating f() func#1...");
	btf__free(t.b);

	bt_init(&t);
	bt_main(&t);
	f = bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 5, 1, &t.int_ptr);
	NB_ASSERT(btf__add_decl_tag(t.b, "arg:nonnull", f, 0) > 0);
	ACCEPT(&t, read_arg);
	t.fi[1].insn_off = 3;
	REJECT(&t, pass_null, "arg#0 is expected to be non-NULL");
	btf__free(t.b);
}

NB_TEST(verifier_btf_global_prototypes_refused)
{
	const struct bpf_insn call_f[] = {
		NB_MOV64_IMM(R1, 0), NB_CALL_REL(2), NB_MOV64_IMM(R0, 0), NB_EXIT(),
		NB_MOV64_IMM(R0, 0), NB_EXIT(),
	};
	int six[6], st, f;
	struct bt t;

	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_GLOBAL, 0, 4, 1, &t.int_id);
	REJECT(&t, call_f, "Global function f() doesn't return scalar. Only those are supported.");
	btf__free(t.b);

	bt_init(&t);
	bt_main(&t);
	st = btf__add_struct(t.b, "pair", 8);
	bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 4, 1, &st);
	REJECT(&t, call_f, "Arg#0 type STRUCT in f() is not supported yet.");
	btf__free(t.b);

	bt_init(&t);
	bt_main(&t);
	for (int i = 0; i < 6; i++)
		six[i] = t.int_id;
	bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 4, 6, six);
	REJECT(&t, call_f, "Global function f() with 6 > 5 args. Buggy compiler.");
	btf__free(t.b);

	static const struct {
		const char *tag;
		bool on_pointer;
		const char *reason;
	} tags[] = {
		{ "arg:weird", true, "arg#0 has unsupported set of tags" },
		{ "arg:trusted", true, "arg#0 tag arg:trusted is not supported by netbpf" },
		{ "arg:ctx", false, "arg#0 has pointer tag, but is not a pointer type" },
		{ "arg:nullable", true, "arg#0 has invalid combination of tags" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(tags); i++) {
		bt_init(&t);
		bt_main(&t);
		f = bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 4, 1,
			    tags[i].on_pointer ? &t.int_ptr : &t.int_id);
		NB_ASSERT(btf__add_decl_tag(t.b, tags[i].tag, f, 0) > 0);
		REJECT(&t, call_f, tags[i].reason);
		btf__free(t.b);
	}
}

NB_TEST(verifier_btf_global_return_and_dead_code)
{
	/* f returns its ctx argument. */
	const struct bpf_insn return_ctx[] = {
		NB_CALL_REL(1), NB_EXIT(),
		NB_MOV64_REG(R0, R1), NB_EXIT(),
	};
	/* f(int *p) reads without a check, called only where r1 is known not 0. */
	const struct bpf_insn dead_call[] = {
		NB_MOV64_IMM(R1, 0), NB_JMP_IMM(BPF_JEQ, R1, 0, 1), NB_CALL_REL(2),
		NB_MOV64_IMM(R0, 0), NB_EXIT(),
		NB_LDX_MEM(BPF_W, R0, R1, 0), NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog *prog = NULL;
	struct bt t;

	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 2, 1, &t.skb_ptr);
	REJECT(&t, return_ctx, "At subprogram exit the register R0 is not a scalar value (ctx)");
	btf__free(t.b);

	/* Nothing walked calls f: it is not verified (the kernel's rule), and main is safe. */
	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 5, 1, &t.int_ptr);
	NB_ASSERT_EQ(BT_LOAD(&t, dead_call, &log, &prog), 0);
	/* main's 4 walked instructions (0, 1, 3, 4): f's are not counted. */
	NB_ASSERT_EQ(nb_prog_verified_insns(prog), 4);
	nb_prog_put(prog);
	nb_log_free(&log);
	btf__free(t.b);
}

NB_TEST(verifier_btf_processed_counts_every_function)
{
	struct nb_log log = { 0 };
	struct nb_prog *prog = NULL;
	struct bt t;

	/* 4 instructions of main and 5 of f, each walked once: 9, as the kernel counts. */
	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_GLOBAL, t.int_id, 4, 1, &t.int_id);
	NB_ASSERT_EQ(bt_load_with(&t, (const struct bpf_insn[]){
		NB_MOV64_IMM(R1, 5), NB_CALL_REL(2), NB_MOV64_IMM(R0, 0), NB_EXIT(),
		NB_MOV64_REG(R0, R1), NB_ALU64_IMM(BPF_AND, R0, 7), NB_ALU64_IMM(BPF_ADD, R0, 1),
		NB_ALU64_IMM(BPF_SUB, R0, 1), NB_EXIT() }, 9, &log, &prog), 0);
	NB_ASSERT_EQ(nb_prog_verified_insns(prog), 9);
	nb_prog_put(prog);
	nb_log_free(&log);
	btf__free(t.b);
}

NB_TEST(verifier_btf_func_info_checked)
{
	const struct bpf_insn two_funcs[] = {
		NB_CALL_REL(1), NB_EXIT(),
		NB_MOV64_IMM(R0, 0), NB_EXIT(),
	};
	struct bt t;

	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_STATIC, t.int_id, 2, 0, NULL);
	ACCEPT(&t, two_funcs);
	t.nfi = 1;
	REJECT(&t, two_funcs, "number of funcs in func_info doesn't match number of subprogs");
	t.nfi = 2;
	t.fi[1].insn_off = 3;
	REJECT(&t, two_funcs, "func_info BTF section doesn't match subprog layout in BPF program");
	t.fi[1].insn_off = 0;
	REJECT(&t, two_funcs, "same or smaller insn offset (0) than previous func info record (0)");
	t.fi[1].insn_off = 2;
	t.fi[0].insn_off = 1;
	REJECT(&t, two_funcs, "nonzero insn_off 1 for the first func info record");
	t.fi[0].insn_off = 0;
	t.fi[1].type_id = t.int_id;
	REJECT(&t, two_funcs, "invalid type id");
	t.fi[1].type_id = 999;
	REJECT(&t, two_funcs, "invalid type id 999 in func info");
	btf__free(t.b);
}

NB_TEST(verifier_btf_line_info_checked)
{
	const struct bpf_insn prog[] = {
		NB_LD_IMM64_RAW(R0, 0, 1), NB_CALL_REL(1), NB_EXIT(),
		NB_MOV64_IMM(R0, 0), NB_EXIT(),
	};
	struct bt t;

	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_STATIC, t.int_id, 4, 0, NULL);
	bt_line(&t, 0, "r0 = 1;", 1);
	bt_line(&t, 4, "return 0;", 9);
	ACCEPT(&t, prog);
	t.li[1].insn_off = 0;
	REJECT(&t, prog, "Invalid line_info[1].insn_off:0 (prev_offset:0 prog->len:6)");
	t.li[1].insn_off = 6;
	REJECT(&t, prog, "Invalid line_info[1].insn_off:6 (prev_offset:0 prog->len:6)");
	t.li[1].insn_off = 1;	/* the second half of the ldimm64 */
	REJECT(&t, prog, "Invalid insn code at line_info[1].insn_off");
	t.li[1].insn_off = 5;
	REJECT(&t, prog, "missing bpf_line_info for func#1");
	t.nli = 1;
	REJECT(&t, prog, "missing bpf_line_info for 1 funcs starting from func#1");
	t.nli = 2;
	t.li[1].insn_off = 4;
	t.li[1].line_off = 1u << 30;
	REJECT(&t, prog, "Invalid line_info[1].line_off or .file_name_off");
	btf__free(t.b);
}

NB_TEST(verifier_btf_record_sizes)
{
	const struct bpf_insn ret0[] = { NB_MOV64_IMM(R0, 0), NB_EXIT() };
	struct {
		struct bpf_func_info fi;
		__u32 extra;
	} big = { 0 };
	struct nb_log log = { 0 };
	struct nb_prog *prog = NULL;
	struct nb_btf *btf;
	const void *raw;
	struct bt t;
	__u32 size;

	bt_init(&t);
	bt_main(&t);
	raw = btf__raw_data(t.b, &size);
	NB_ASSERT_EQ(nb_btf_load(raw, size, NULL, &btf), 0);
	big.fi = t.fi[0];
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = &log, .btf = btf,
		.func_info = &big, .func_info_cnt = 1, .func_info_rec_size = sizeof(big),
	};
	/* Bigger records than the kernel knows, zero beyond: as the kernel, accepted. */
	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, ret0, 2, &opts, &prog), 0);
	nb_prog_put(prog);
	big.extra = 1;
	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, ret0, 2, &opts, &prog), -E2BIG);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "nonzero tailing record in func info");
	opts.func_info_rec_size = 6;
	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, ret0, 2, &opts, &prog), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "invalid func info rec size 6");
	opts.func_info_rec_size = sizeof(big.fi);
	opts.btf = NULL;
	NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, ret0, 2, &opts, &prog), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "func_info and line_info need the program's BTF");
	nb_btf_put(btf);
	/* Raw BTF that is not BTF. */
	NB_ASSERT(nb_btf_load("not btf at all, not at all", 26,
			      &(struct nb_btf_load_opts){ .sz = sizeof(struct nb_btf_load_opts),
							  .log = &log }, &btf) < 0);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "BTF: invalid type information");
	nb_log_free(&log);
	btf__free(t.b);
}

NB_TEST(verifier_btf_subprog_exits_need_func_info)
{
	/* A static subprogram with LD_ABS (r6 = ctx), and one with a tail call. */
	const struct bpf_insn ld_abs[] = {
		NB_CALL_REL(1), NB_EXIT(),
		NB_MOV64_REG(BPF_REG_6, R1), NB_LD_ABS(BPF_B, 0), NB_EXIT(),
	};
	const struct bpf_insn tail_call[] = {
		NB_CALL_REL(1), NB_EXIT(),
		NB_MOV64_IMM(R3, 0), NB_MOV64_IMM(R2, 0), NB_CALL_HELPER(BPF_FUNC_tail_call),
		NB_MOV64_IMM(R0, 0), NB_EXIT(),
	};
	struct nb_log log = { 0 };
	struct nb_prog *prog = NULL;
	struct bt t;

	NB_ASSERT(vt_load(BPF_PROG_TYPE_SCHED_CLS, ld_abs, ARRAY_SIZE(ld_abs), NULL, &log,
			  &prog) < 0);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "LD_ABS is not allowed in subprogs without BTF");
	nb_log_reset(&log);
	NB_ASSERT(vt_load(BPF_PROG_TYPE_SCHED_CLS, tail_call, ARRAY_SIZE(tail_call), NULL, &log,
			  &prog) < 0);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log),
			       "tail_call is not allowed in subprogs without BTF");
	nb_log_free(&log);
	/* With func_info, in a function returning int: allowed. */
	bt_init(&t);
	bt_main(&t);
	bt_func(&t, "f", BTF_FUNC_STATIC, t.int_id, 2, 1, &t.skb_ptr);
	ACCEPT(&t, ld_abs);
	/* Returning void: not. */
	t.fi[1].type_id = bt_func(&t, "g", BTF_FUNC_STATIC, 0, 2, 1, &t.skb_ptr);
	t.nfi = 2;
	REJECT(&t, ld_abs, "LD_ABS is only allowed in functions that return 'int'.");
	btf__free(t.b);
}

NB_TEST(verifier_btf_log_source_lines)
{
	/* main reads its stack where it never wrote a pointer: r1 is a scalar. */
	const struct bpf_insn bad[] = {
		NB_MOV64_IMM(R1, 64), NB_LDX_MEM(BPF_W, R0, R1, 0), NB_EXIT(),
	};
	struct nb_log log = { .level = NB_LOG_VERBOSE }, plain = { 0 };
	struct nb_prog *prog = NULL;
	struct bt t;

	bt_init(&t);
	bt_main(&t);
	bt_line(&t, 0, "\tint *p = (int *)64;", 3);
	bt_line(&t, 1, "    return *p;", 4);
	/* The rejection starts with the failing instruction's source line. */
	NB_ASSERT(bt_load_with(&t, bad, ARRAY_SIZE(bad), &plain, &prog) < 0);
	NB_ASSERT(!strcmp(nb_log_text(&plain), "; return *p; @ prog.c:4\n1: (61) r0 = *(u32 *)"
			  "(r1 + 0)\nR1 invalid mem access 'scalar'\n"));
	nb_log_free(&plain);
	/* -v: the path shows each instruction's line, left spaces gone, the file's name only. */
	NB_ASSERT(bt_load_with(&t, bad, ARRAY_SIZE(bad), &log, &prog) < 0);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log),
			       "\n; int *p = (int *)64; @ prog.c:3\n0: (b7) r1 = 64");
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "\n; return *p; @ prog.c:4\n1: (61)");
	nb_log_free(&log);
	btf__free(t.b);
}

/*
 * Global functions are verified on their own: the frames of a chain through them are counted
 * over the call graph. A (which calls B) is reached directly and at the end of six calls.
 */
NB_TEST(verifier_btf_global_call_chain_frames)
{
	const struct bpf_insn chain[] = {
		NB_CALL_REL(3), NB_CALL_REL(6), NB_MOV64_IMM(R0, 0), NB_EXIT(),	/* main */
		NB_CALL_REL(1), NB_EXIT(),					/* A */
		NB_MOV64_IMM(R0, 0), NB_EXIT(),					/* B */
		NB_CALL_REL(1), NB_EXIT(), NB_CALL_REL(1), NB_EXIT(),		/* X1, X2 */
		NB_CALL_REL(1), NB_EXIT(), NB_CALL_REL(1), NB_EXIT(),		/* X3, X4 */
		NB_CALL_REL(1), NB_EXIT(), NB_CALL_REL(-15), NB_EXIT(),		/* X5, X6 */
	};
	static const char *const names[] = { "A", "B", "X1", "X2", "X3", "X4", "X5", "X6" };
	static const unsigned int starts[] = { 4, 6, 8, 10, 12, 14, 16, 18 };
	struct bt t;

	bt_init(&t);
	bt_main(&t);
	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		bt_func(&t, names[i], BTF_FUNC_GLOBAL, t.int_id, starts[i], 0, NULL);
	/* main, X1..X6, A, B: 9 frames (the kernel names the 8 below the last). */
	REJECT(&t, chain, "the call stack of 8 frames is too deep !");
	btf__free(t.b);
}
