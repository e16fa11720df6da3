/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the multi-buffer XDP tests (tests/unit/test_xdp_frags.c without the kernel,
 * tests/kernel/test_xdp_frags_kernel.c against it): the command block tests/bpf/xdp_frags.c
 * reads from the start of the frame, the frames, and the netbpf side of a test run.
 */
#ifndef NB_TEST_XDP_FRAGS_TEST_H
#define NB_TEST_XDP_FRAGS_TEST_H

#include <stdlib.h>
#include <string.h>

#include <netbpf/object.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "common/types.h"
#include "pkt/pkt.h"
#include "test.h"

/* The frame's first bytes as tests/bpf/xdp_frags.c reads them (struct frags_cmd there). */
struct frags_cmd {
	u16 load_off;
	u16 store_off;
	s32 tail[2];
	u32 buff_len;
	u32 linear_len;
};

/* The kernel's largest test-run frame: the linear part and 17 fragments of a page. */
#define FRAGS_MAX_FRAME (NB_PKT_MAX_LEN + NB_XDP_MAX_FRAGS * NB_PKT_BUF_SIZE)
/* Room for any frame a case makes, with the largest growth. */
#define FRAGS_BUF_SIZE (FRAGS_MAX_FRAME + 2 * NB_PKT_BUF_SIZE)

struct frags_case {
	const char *name;
	const char *prog;	/* "xdp_frags_ops" (NULL) or "xdp_frags_len" */
	u32 size;		/* data_size_in, metadata included */
	u32 meta;		/* metadata bytes in front (ctx_in data) */
	u32 ifindex;		/* ctx_in ingress_ifindex; a ctx goes in with meta or ifindex */
	struct frags_cmd cmd;	/* at the start of the frame, after the metadata */
	u32 out_size;		/* data_size_out; 0: the whole buffer */
};

/* Frame bytes: a pattern that differs on every page, so a misplaced fragment shows. */
static inline void frags_frame(u8 *buf, const struct frags_case *c)
{
	for (u32 i = 0; i < c->size; i++)
		buf[i] = (u8)(i * 7 + i / 251);
	if (c->size >= c->meta + sizeof(c->cmd))
		memcpy(buf + c->meta, &c->cmd, sizeof(c->cmd));
}

/* netbpf's copy of a program of tests/bpf/xdp_frags.o, on the JIT or the interpreter. */
static inline struct nb_prog *frags_prog(const char *name, bool jit, struct nb_object **objp)
{
	struct nb_log log = { 0 };
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts), .log = &log,
					     .prog_flags = jit ? 0 : NB_PROG_LOAD_INTERP };
	struct nb_object_prog *p;
	char path[4096];
	int err;

	nb_test_build_path(path, sizeof(path), "tests/bpf/xdp_frags.o");
	err = nb_object_open_file(path, NULL, objp);
	if (err)
		NB_FAIL("open %s: %d", path, err);
	err = nb_object_load(*objp, &lopts);
	if (err)
		NB_FAIL("load %s: %d: %s", path, err, nb_log_text(&log));
	nb_log_free(&log);
	p = nb_object_find_prog(*objp, "xdp.frags", name);
	NB_ASSERT(p && nb_object_prog_prog(p));
	if (jit && !nb_prog_is_jited(nb_object_prog_prog(p)))
		nb_test_skip("the JIT did not compile %s", name);
	return nb_object_prog_prog(p);
}

/* The test run's options for case c, metadata as ctx_in when it has some. */
static inline void frags_opts(const struct frags_case *c, const u8 *in, u8 *out,
			      struct xdp_md *ctx_in, struct xdp_md *ctx_out,
			      struct nb_test_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	memset(ctx_in, 0, sizeof(*ctx_in));
	o->sz = sizeof(*o);
	o->data_in = in;
	o->data_size_in = c->size;
	o->data_out = out;
	o->data_size_out = c->out_size ? c->out_size : FRAGS_BUF_SIZE;
	if (c->meta || c->ifindex) {
		ctx_in->data = c->meta;
		ctx_in->data_end = c->size;
		ctx_in->ingress_ifindex = c->ifindex;
		o->ctx_in = ctx_in;
		o->ctx_size_in = sizeof(*ctx_in);
		o->ctx_out = ctx_out;
		o->ctx_size_out = sizeof(*ctx_out);
	}
}

#endif /* NB_TEST_XDP_FRAGS_TEST_H */
