// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-buffer XDP in the test run without the kernel: tests/bpf/xdp_frags.o on frames beyond a
 * page, with the results the kernel's rules give (the frame split at 4096 - 256 - 320 bytes and
 * then every page, bpf_xdp_adjust_tail freeing and growing fragments, the data_out clamp), and
 * every fragment page back in the pool afterwards. test_xdp_frags_kernel.c holds the same
 * program to the running kernel.
 */
#include <errno.h>

#include "xdp_frags_test.h"

#define L NB_PKT_MAX_LEN

struct frags_run {
	u8 *in, *out;
	struct xdp_md ctx_in, ctx_out;
	struct nb_test_run_opts opts;
	int err;
};

static void frags_run(const struct frags_case *c, bool jit, struct frags_run *r)
{
	struct nb_object *obj;
	struct nb_prog *prog;

	r->in = malloc(FRAGS_BUF_SIZE);
	r->out = malloc(FRAGS_BUF_SIZE);
	NB_ASSERT(r->in && r->out);
	frags_frame(r->in, c);
	memset(r->out, 0xee, FRAGS_BUF_SIZE);
	memset(&r->ctx_out, 0, sizeof(r->ctx_out));
	frags_opts(c, r->in, r->out, &r->ctx_in, &r->ctx_out, &r->opts);
	prog = frags_prog(c->prog ? c->prog : "xdp_frags_ops", jit, &obj);
	r->err = nb_prog_test_run(prog, &r->opts);
	nb_object_close(obj);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static void frags_run_free(struct frags_run *r)
{
	free(r->in);
	free(r->out);
}

/* The command block as the program left it in data_out (after the metadata). */
static struct frags_cmd out_cmd(const struct frags_run *r, u32 meta)
{
	struct frags_cmd cmd;

	memcpy(&cmd, r->out + meta, sizeof(cmd));
	return cmd;
}

/* data_out is data_in from..to, but for the command block the program wrote. */
static void assert_same_bytes(const struct frags_run *r, u32 meta, u32 from, u32 to)
{
	u32 cmd_end = meta + (u32)sizeof(struct frags_cmd);

	if (from < cmd_end)
		from = cmd_end;
	if (from < to)
		NB_ASSERT_MEM_EQ(r->out + from, r->in + from, to - from);
}

static void test_split(const void *arg)
{
	bool jit = arg != NULL;
	static const u32 sizes[] = { 60, L, L + 1, 4096, 8000, 9000, 65535, FRAGS_MAX_FRAME };

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct frags_case c = { .name = "split", .size = sizes[i] };
		struct frags_run r;
		struct frags_cmd cmd;

		frags_run(&c, jit, &r);
		NB_ASSERT_EQ(r.err, 0);
		NB_ASSERT_EQ(r.opts.retval, 0);
		NB_ASSERT_EQ(r.opts.data_size_out, sizes[i]);
		cmd = out_cmd(&r, 0);
		NB_ASSERT_EQ(cmd.buff_len, sizes[i]);
		NB_ASSERT_EQ(cmd.linear_len, sizes[i] < L ? sizes[i] : L);
		assert_same_bytes(&r, 0, 0, sizes[i]);
		NB_ASSERT_EQ(r.out[sizes[i]], 0xee);
		frags_run_free(&r);
	}
}

/* Metadata takes linear room: the frame's linear part stays 3520 bytes after it. */
static void test_meta(const void *arg)
{
	struct frags_case c = { .name = "meta", .size = 8000, .meta = 24 };
	struct frags_run r;
	struct frags_cmd cmd;

	frags_run(&c, arg != NULL, &r);
	NB_ASSERT_EQ(r.err, 0);
	cmd = out_cmd(&r, 24);
	NB_ASSERT_EQ(cmd.buff_len, 8000 - 24);
	NB_ASSERT_EQ(cmd.linear_len, L);
	NB_ASSERT_EQ(r.ctx_out.data, 24);
	NB_ASSERT_EQ(r.ctx_out.data_end, 24 + L);
	NB_ASSERT_EQ(r.opts.data_size_out, 8000);
	NB_ASSERT_MEM_EQ(r.out, r.in, 24);
	assert_same_bytes(&r, 24, 24, 8000);
	frags_run_free(&r);
}

static void test_too_many_frags(const void *arg)
{
	struct frags_case c = { .name = "max", .prog = "xdp_frags_len",
				.size = FRAGS_MAX_FRAME + 1 };
	struct frags_run r;

	frags_run(&c, arg != NULL, &r);
	NB_ASSERT_EQ(r.err, -ENOMEM);
	frags_run_free(&r);
}

/* 16 bytes from the linear part across into the first page, stored across pages 1 and 2. */
static void test_copy_across(const void *arg)
{
	struct frags_case c = { .name = "copy", .size = 8000,
				.cmd = { .load_off = L - 8, .store_off = L + 4096 - 8 } };
	struct frags_run r;

	frags_run(&c, arg != NULL, &r);
	NB_ASSERT_EQ(r.err, 0);
	NB_ASSERT_EQ(r.opts.retval, 0);
	for (u32 i = 0; i < 16; i++)
		NB_ASSERT_EQ(r.out[L + 4096 - 8 + i], r.in[L - 8 + 15 - i]);
	assert_same_bytes(&r, 0, 0, L + 4096 - 8);
	assert_same_bytes(&r, 0, L + 4096 + 8, 8000);
	frags_run_free(&r);
}

/* The copy must lie within the frame; offsets are 16-bit. */
static void test_copy_limits(const void *arg)
{
	struct frags_case past = { .name = "past", .size = 8000,
				   .cmd = { .load_off = 8000 - 15 } };
	struct frags_case high = { .name = "high", .size = FRAGS_MAX_FRAME,
				   .cmd = { .load_off = 0xffff, .store_off = 100 } };
	struct frags_run r;

	frags_run(&past, arg != NULL, &r);
	NB_ASSERT_EQ(r.opts.retval, EINVAL);
	frags_run_free(&r);
	frags_run(&high, arg != NULL, &r);
	NB_ASSERT_EQ(r.opts.retval, 0);
	for (u32 i = 0; i < 16; i++)
		NB_ASSERT_EQ(r.out[100 + i], r.in[0xffff + 15 - i]);
	frags_run_free(&r);
}

struct tail_case {
	s32 tail[2];
	u32 size;		/* data_size_out */
	u32 retval;
	u32 zeros;		/* bytes the frame grew by at its end */
};

/* The 8000-byte frame: 3520 linear, 4096 in page 1, 384 in page 2 (3712 of room there). */
static const struct tail_case tails[] = {
	{ { -100 }, 7900, 0, 0 },
	{ { -384 }, 7616, 0, 0 },
	{ { -1000 }, 7000, 0, 0 },
	{ { -(8000 - L) }, L, 0, 0 },
	{ { -(8000 - L) - 1 }, L - 1, 0, 0 },
	{ { -(8000 - 14) }, 14, 0, 0 },
	{ { -(8000 - 13) }, 8000, EINVAL << 16, 0 },
	{ { 4096 - 384 }, 8000 + 4096 - 384, 0, 4096 - 384 },
	{ { 4096 - 384 + 1 }, 8000, EINVAL << 16, 0 },
	{ { -1000, 616 }, 7616, 0, 616 },
	{ { -1000, 617 }, 7000, EINVAL << 24, 0 },
	/* linear again: growing is bpf_xdp_adjust_tail's linear rule (tailroom 0 left here) */
	{ { -(8000 - L) - 20, 20 }, L, 0, 20 },
	{ { -(8000 - L), 1 }, L, EINVAL << 24, 0 },
};

static void test_tail(const void *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(tails); i++) {
		const struct tail_case *t = &tails[i];
		struct frags_case c = { .name = "tail", .size = 8000,
					.cmd = { .tail = { t->tail[0], t->tail[1] } } };
		u32 kept = t->size - t->zeros;
		struct frags_run r;

		frags_run(&c, arg != NULL, &r);
		NB_ASSERT_EQ(r.err, 0);
		if (r.opts.retval != t->retval || r.opts.data_size_out != t->size)
			NB_FAIL("tail %d, %d: retval 0x%x size %u, expected 0x%x size %u",
				t->tail[0], t->tail[1], r.opts.retval, r.opts.data_size_out,
				t->retval, t->size);
		assert_same_bytes(&r, 0, 0, kept);
		for (u32 j = kept; j < t->size; j++)
			NB_ASSERT_EQ(r.out[j], 0);
		frags_run_free(&r);
	}
}

/*
 * data_out shorter than the frame: the kernel leaves room for every fragment byte and gives
 * the linear part what remains; with less room than the fragments hold, nothing at all.
 */
static void test_out_clamp(const void *arg)
{
	struct frags_case some = { .name = "clamp", .prog = "xdp_frags_len", .size = 8000,
				   .out_size = 8000 - L + 1 };
	struct frags_case none = { .name = "none", .prog = "xdp_frags_len", .size = 8000,
				   .out_size = 100 };
	struct frags_run r;

	frags_run(&some, arg != NULL, &r);
	NB_ASSERT_EQ(r.err, -ENOSPC);
	NB_ASSERT_EQ(r.opts.retval, 8000);
	NB_ASSERT_EQ(r.opts.data_size_out, 8000);
	NB_ASSERT_EQ(r.out[0], r.in[0]);
	NB_ASSERT_MEM_EQ(r.out + 1, r.in + L, 8000 - L);
	NB_ASSERT_EQ(r.out[8000 - L + 1], 0xee);
	frags_run_free(&r);

	frags_run(&none, arg != NULL, &r);
	NB_ASSERT_EQ(r.err, -ENOSPC);
	NB_ASSERT_EQ(r.opts.retval, 0);
	NB_ASSERT_EQ(r.opts.data_size_out, 100);
	NB_ASSERT_EQ(r.out[0], 0xee);
	frags_run_free(&r);
}

static const struct {
	const char *name;
	nb_test_fn fn;
} tests[] = {
	{ "split", test_split },
	{ "meta", test_meta },
	{ "too_many_frags", test_too_many_frags },
	{ "copy_across", test_copy_across },
	{ "copy_limits", test_copy_limits },
	{ "tail", test_tail },
	{ "out_clamp", test_out_clamp },
};

static char test_names[2 * ARRAY_SIZE(tests)][64];

static void __attribute__((constructor)) register_frags_tests(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		for (int jit = 0; jit < 2; jit++) {
			char *name = test_names[2 * i + jit];

			snprintf(name, sizeof(test_names[0]), "xdp_frags_%s/%s", tests[i].name,
				 jit ? "jit" : "interp");
			/* a non-NULL argument asks for the JIT */
			nb_test_register(name, tests[i].fn, jit ? (const void *)tests : NULL);
		}
	}
}
