// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-buffer XDP against the running kernel: tests/bpf/xdp_frags.o (section "xdp.frags")
 * runs in BPF_PROG_TEST_RUN and in nb_prog_test_run on frames of every size class, from one
 * page to the kernel's 17 fragments, with the work each case writes into the frame: the buffer
 * and linear lengths, bpf_xdp_load_bytes / bpf_xdp_store_bytes across fragment boundaries,
 * bpf_xdp_adjust_tail shrinking over fragment boundaries and growing into the last fragment.
 * The error, retval, data_size_out, the bytes of data_out and ctx_out must be the kernel's, on
 * the interpreter and on the JIT, also where the kernel clamps data_out in its own way.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../unit/xdp_frags_test.h"

/* 8000 bytes: the linear 3520, a full page (3520..7616) and 384 bytes in a second one. */
#define L NB_PKT_MAX_LEN
/* Cases of the buffer length program (data_out clamped or not), and of the command one. */
#define LEN(n, sz) { .name = n, .prog = "xdp_frags_len", .size = (sz) }
#define LEN_OUT(n, sz, out)                                                                \
	{ .name = n, .prog = "xdp_frags_len", .size = (sz), .out_size = (out) }
#define OPS(n, sz, mt, lo, so, t0, t1, out)                                               \
	{ .name = n, .size = (sz), .meta = (mt),                                          \
	  .cmd = { .load_off = (lo), .store_off = (so), .tail = { (t0), (t1) } },          \
	  .out_size = (out) }
static const struct frags_case cases[] = {
	LEN("len_60", 60),
	LEN("len_3520", L),
	LEN("len_3521", L + 1),
	LEN("len_4096", 4096),
	LEN("len_8000", 8000),
	LEN("len_9000", 9000),
	LEN("len_65535", 65535),
	LEN("len_max", FRAGS_MAX_FRAME),
	LEN("len_past_max", FRAGS_MAX_FRAME + 1),
	OPS("ops_lengths_3521", L + 1, 0, 0, 0, 0, 0, 0),
	OPS("ops_lengths_meta", 8000, 8, 0, 0, 0, 0, 0),
	OPS("ops_lengths_meta_32", 9000, 32, 0, 0, 0, 0, 0),
	OPS("ops_copy_linear_to_frag", 8000, 0, 100, 5000, 0, 0, 0),
	OPS("ops_copy_across_both", 8000, 0, L - 8, L + 4096 - 8, 0, 0, 0),
	OPS("ops_copy_frag_to_linear", 8000, 0, L + 4096 - 3, 20, 0, 0, 0),
	OPS("ops_copy_last_bytes", 8000, 0, 8000 - 16, L - 1, 0, 0, 0),
	OPS("ops_load_past_end", 8000, 0, 8000 - 15, 0, 0, 0, 0),
	OPS("ops_store_past_end", 8000, 0, 40, 8000 - 15, 0, 0, 0),
	OPS("ops_copy_offset_0xffff", FRAGS_MAX_FRAME, 0, 0xffff, 0xffff - 16, 0, 0, 0),
	OPS("ops_copy_meta", 8000, 16, L - 20, L + 10, 0, 0, 0),
	OPS("ops_shrink_in_last_frag", 8000, 0, 0, 0, -100, 0, 0),
	OPS("ops_shrink_last_frag_exactly", 8000, 0, 0, 0, -384, 0, 0),
	OPS("ops_shrink_over_boundary", 8000, 0, 0, 0, -1000, 0, 0),
	OPS("ops_shrink_every_frag", 8000, 0, 0, 0, -(8000 - L), 0, 0),
	OPS("ops_shrink_into_linear", 8000, 0, 0, 0, -(8000 - L) - 1, 0, 0),
	OPS("ops_shrink_to_eth", 8000, 0, 0, 0, -(8000 - 14), 0, 0),
	OPS("ops_shrink_past_eth", 8000, 0, 0, 0, -(8000 - 13), 0, 0),
	OPS("ops_shrink_int_min", 8000, 0, 0, 0, (s32)0x80000000, 0, 0),
	OPS("ops_shrink_17_frags", FRAGS_MAX_FRAME, 0, 0, 0, -40000, -30000, 0),
	OPS("ops_grow_last_frag", 8000, 0, 0, 0, 4096 - 384, 0, 0),
	OPS("ops_grow_past_page", 8000, 0, 0, 0, 4096 - 384 + 1, 0, 0),
	OPS("ops_grow_full_frag", 4096 + L, 0, 0, 0, 1, 0, 0),
	OPS("ops_grow_after_shrink", 8000, 0, 0, 0, -1000, 616, 0),
	OPS("ops_grow_after_shrink_past", 8000, 0, 0, 0, -1000, 617, 0),
	OPS("ops_grow_linear_after_frags", 8000, 0, 0, 0, -(8000 - L) - 20, 20, 0),
	OPS("ops_grow_linear_past", 8000, 0, 0, 0, -(8000 - L), 1, 0),
	OPS("ops_grow_meta", 8000, 8, 0, 0, 500, 0, 0),
	/* the loopback's queue, where the test run sets the fragment size */
	{ .name = "ops_grow_ingress_lo", .size = 8000, .ifindex = 1,
	  .cmd = { .tail = { 100, 4096 - 484 } } },
	{ .name = "ops_grow_ingress_lo_meta", .size = 8000, .meta = 4, .ifindex = 1,
	  .cmd = { .tail = { -3000, 3000 } } },
	OPS("ops_store_then_shrink", 8000, 0, 3000, L + 4090, -390, 0, 0),
	LEN_OUT("out_clamp_100", 8000, 100),
	LEN_OUT("out_clamp_frags_only", 8000, 8000 - L),
	LEN_OUT("out_clamp_frags_and_1", 8000, 8000 - L + 1),
	LEN_OUT("out_clamp_one_short", 8000, 7999),
	LEN_OUT("out_exact", 8000, 8000),
	LEN_OUT("out_clamp_linear", 3000, 100),
};
#undef L

struct frags_kcase {
	const struct frags_case *c;
	bool jit;
};

static struct frags_kcase kcases[2 * ARRAY_SIZE(cases)];
static char knames[2 * ARRAY_SIZE(cases)][80];

static int kernel_prog(const char *name, struct bpf_object **objp)
{
	struct bpf_program *p;
	char path[4096];

	nb_test_build_path(path, sizeof(path), "tests/bpf/xdp_frags.o");
	*objp = bpf_object__open_file(path, NULL);
	if (!*objp)
		NB_FAIL("libbpf open %s: %s", path, strerror(errno));
	if (bpf_object__load(*objp)) {
		int err = errno;

		bpf_object__close(*objp);
		if (err == EPERM || err == EACCES)
			nb_test_skip("loading BPF programs is not permitted (uid %u)",
				     (unsigned int)geteuid());
		NB_FAIL("libbpf load %s: %s", path, strerror(err));
	}
	p = bpf_object__find_program_by_name(*objp, name);
	NB_ASSERT(p);
	return bpf_program__fd(p);
}

static void frags_kernel_case(const void *arg)
{
	const struct frags_kcase *kc = arg;
	const struct frags_case *c = kc->c;
	const char *name = c->prog ? c->prog : "xdp_frags_ops";
	struct xdp_md ctx_in, kctx = { 0 }, nctx = { 0 };
	u8 *in = malloc(FRAGS_BUF_SIZE), *kout = malloc(FRAGS_BUF_SIZE);
	u8 *nout = malloc(FRAGS_BUF_SIZE);
	struct nb_test_run_opts nopts;
	struct bpf_object *kobj;
	struct nb_object *nobj;
	struct nb_prog *prog;
	int kerr, nerr, fd;

	NB_ASSERT(in && kout && nout);
	frags_frame(in, c);
	memset(kout, 0xee, FRAGS_BUF_SIZE);
	memset(nout, 0xee, FRAGS_BUF_SIZE);
	frags_opts(c, in, nout, &ctx_in, &nctx, &nopts);

	fd = kernel_prog(name, &kobj);
	LIBBPF_OPTS(bpf_test_run_opts, kopts, .data_in = in, .data_size_in = c->size,
		    .data_out = kout, .data_size_out = nopts.data_size_out,
		    .ctx_in = nopts.ctx_in, .ctx_size_in = nopts.ctx_size_in,
		    .ctx_out = nopts.ctx_out ? &kctx : NULL, .ctx_size_out = nopts.ctx_size_out,
		    .repeat = 1);
	kerr = bpf_prog_test_run_opts(fd, &kopts) ? -errno : 0;
	bpf_object__close(kobj);

	prog = frags_prog(name, kc->jit, &nobj);
	nerr = nb_prog_test_run(prog, &nopts);
	nb_object_close(nobj);

	printf("%s: kernel %d retval 0x%x size %u, netbpf %d retval 0x%x size %u\n", c->name,
	       kerr, kopts.retval, kopts.data_size_out, nerr, nopts.retval, nopts.data_size_out);
	NB_ASSERT_EQ(nerr, kerr);
	if (!kerr || kerr == -ENOSPC) {
		NB_ASSERT_EQ(nopts.retval, kopts.retval);
		NB_ASSERT_EQ(nopts.data_size_out, kopts.data_size_out);
		NB_ASSERT_MEM_EQ(nout, kout, FRAGS_BUF_SIZE);
		NB_ASSERT_MEM_EQ(&nctx, &kctx, sizeof(kctx));
	}
	free(in);
	free(kout);
	free(nout);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static void __attribute__((constructor)) register_frags_kernel(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		for (int jit = 0; jit < 2; jit++) {
			size_t k = 2 * i + jit;

			kcases[k].c = &cases[i];
			kcases[k].jit = jit;
			snprintf(knames[k], sizeof(knames[k]), "xdp_frags_kernel_%s/%s",
				 cases[i].name, jit ? "jit" : "interp");
			nb_test_register(knames[k], frags_kernel_case, &kcases[k]);
		}
	}
}
