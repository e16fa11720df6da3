// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer dynptrs at run time (tests/bpf/dynptr.c), on the interpreter and the JIT: what a
 * program writes into a sample through a dynptr (bpf_dynptr_write, a bpf_dynptr_data slice)
 * reaches the ring buffer's consumer once submitted, and a discarded sample never does; a
 * reservation the ring cannot hold gives -EINVAL and a null dynptr, whose read fails with
 * -EINVAL, as in the kernel; a write or read past the sample's end fails with -E2BIG and a slice
 * past it is NULL.
 */
#include <netbpf/ringbuf.h>
#include <netbpf/test_run.h>

#include "elf_util.h"

struct results {
	__s64 reserve;
	__s64 read;
	__u64 read_back;
	__s64 too_big;
	__s64 read_null;
	__s64 write_over;
	__s64 read_over;
	__u64 slice_over;
};

struct got {
	int n;
	__u8 sample[4][16] __attribute__((aligned(8)));	/* read as __u64 */
	size_t size[4];
};

static int on_sample(void *ctx, void *data, size_t size)
{
	struct got *g = ctx;

	if (g->n < 4) {
		g->size[g->n] = size;
		memcpy(g->sample[g->n], data, size < 16 ? size : 16);
	}
	g->n++;
	return 0;
}

static void run_len(struct nb_prog *prog, __u32 len)
{
	static const __u8 frame[128] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00 };
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = frame, .data_size_in = len };

	NB_ASSERT_EQ(nb_prog_test_run(prog, &o), 0);
}

static void check_dynptr(bool jit)
{
	struct nb_object *obj = elf_test_open_loaded("dynptr.o", jit);
	struct nb_prog *prog = elf_test_prog(obj, "dynptr_sample");
	struct nb_ringbuf_consumer *c;
	struct results r;
	struct got g = { 0 };
	__u32 zero = 0;

	NB_ASSERT_EQ(nb_ringbuf_consumer_new(elf_test_map(obj, "samples"), on_sample, &g, &c), 0);

	run_len(prog, 100);
	run_len(prog, 40);	/* shorter than 60: discarded */
	run_len(prog, 64);
	NB_ASSERT_EQ(nb_ringbuf_consume(c), 2);
	NB_ASSERT_EQ(g.n, 2);
	NB_ASSERT_EQ(g.size[0], 16);
	NB_ASSERT_EQ(*(__u64 *)g.sample[0], 100);
	NB_ASSERT_EQ(g.sample[0][8], 0xd1);
	NB_ASSERT_EQ(g.sample[0][15], 0x9e);
	NB_ASSERT_EQ(*(__u64 *)g.sample[1], 64);

	NB_ASSERT_EQ(nb_map_lookup_elem(elf_test_map(obj, ".bss"), &zero, &r), 0);
	NB_ASSERT_EQ(r.reserve, 0);
	NB_ASSERT_EQ(r.read, 0);
	NB_ASSERT_EQ(r.read_back, 64);
	NB_ASSERT_EQ(r.too_big, -EINVAL);
	NB_ASSERT_EQ(r.read_null, -EINVAL);
	NB_ASSERT_EQ(r.write_over, -E2BIG);
	NB_ASSERT_EQ(r.read_over, -E2BIG);
	NB_ASSERT_EQ(r.slice_over, 0);
	nb_ringbuf_consumer_free(c);
	nb_object_close(obj);
}

NB_TEST(dynptr_ringbuf_interp)
{
	check_dynptr(false);
}

NB_TEST(dynptr_ringbuf_jit)
{
	check_dynptr(true);
}
