// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP adjust helpers at and beyond their limits, against the running kernel: a program
 * calls bpf_xdp_adjust_head / _tail / _meta with the offsets of a case and returns the last
 * call's result; the kernel's BPF_PROG_TEST_RUN and netbpf must return the same value and the
 * same bytes from data_meta to data_end (the kernel's data_out), so that every limit (the
 * xdp_frame room, the Ethernet header, the tailroom, the metadata size) is the kernel's.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <netbpf/prog.h>

#include "bpf_asm.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "net/xdp.h"
#include "test.h"

#define HEAD BPF_FUNC_xdp_adjust_head
#define TAIL BPF_FUNC_xdp_adjust_tail
#define META BPF_FUNC_xdp_adjust_meta
#define MAX_CALLS 3
#define PKT_LEN 64

struct adjust_call {
	int helper;		/* 0 ends the list */
	int offset;
};

struct adjust_case {
	const char *name;
	int expect;		/* the last call's result, as the kernel gives it */
	struct adjust_call calls[MAX_CALLS];
};

/*
 * With 256 bytes of headroom and a 64-byte frame: room 216 in front (40 bytes stay for the
 * xdp_frame), 3456 behind (320 stay for skb_shared_info); moving data does not add tailroom.
 */
static const struct adjust_case cases[] = {
	{ "xdp_adjust_kernel_head_room", 0, { { HEAD, -216 } } },
	{ "xdp_adjust_kernel_head_past_room", -EINVAL, { { HEAD, -217 } } },
	{ "xdp_adjust_kernel_head_eth_left", 0, { { HEAD, PKT_LEN - 14 } } },
	{ "xdp_adjust_kernel_head_eth_short", -EINVAL, { { HEAD, PKT_LEN - 13 } } },
	{ "xdp_adjust_kernel_head_with_meta", 0, { { META, -8 }, { HEAD, -208 } } },
	{ "xdp_adjust_kernel_head_with_meta_past", -EINVAL, { { META, -8 }, { HEAD, -209 } } },
	{ "xdp_adjust_kernel_tail_grow_max", 0, { { TAIL, 3456 } } },
	{ "xdp_adjust_kernel_tail_grow_past", -EINVAL, { { TAIL, 3457 } } },
	{ "xdp_adjust_kernel_tail_shrink_eth", 0, { { TAIL, -(PKT_LEN - 14) } } },
	{ "xdp_adjust_kernel_tail_shrink_past", -EINVAL, { { TAIL, -(PKT_LEN - 13) } } },
	{ "xdp_adjust_kernel_tail_grow_after_head", -EINVAL, { { HEAD, 20 }, { TAIL, 3476 } } },
	{ "xdp_adjust_kernel_meta_4", 0, { { META, -4 } } },
	{ "xdp_adjust_kernel_meta_unaligned", -EACCES, { { META, -2 } } },
	{ "xdp_adjust_kernel_meta_room", 0, { { META, -216 } } },
	{ "xdp_adjust_kernel_meta_past_room", -EINVAL, { { META, -220 } } },
	{ "xdp_adjust_kernel_meta_past_data", -EINVAL, { { META, 4 } } },
	{ "xdp_adjust_kernel_meta_max", 0, { { HEAD, 40 }, { META, -252 } } },
	{ "xdp_adjust_kernel_meta_past_max", -EACCES, { { HEAD, 40 }, { META, -256 } } },
	{ "xdp_adjust_kernel_meta_then_shrink", 0, { { META, -32 }, { META, 16 } } },
};

/* r6 = ctx; per call: r1 = r6, r2 = offset, call; the last result is r0. */
static unsigned int build(const struct adjust_case *c, struct bpf_insn *insns)
{
	unsigned int n = 0;

	insns[n++] = (struct bpf_insn)NB_MOV64_REG(BPF_REG_6, BPF_REG_1);
	for (int i = 0; i < MAX_CALLS && c->calls[i].helper; i++) {
		insns[n++] = (struct bpf_insn)NB_MOV64_REG(BPF_REG_1, BPF_REG_6);
		insns[n++] = (struct bpf_insn)NB_MOV64_IMM(BPF_REG_2, c->calls[i].offset);
		insns[n++] = (struct bpf_insn)NB_CALL_HELPER(c->calls[i].helper);
	}
	insns[n++] = (struct bpf_insn)NB_EXIT();
	return n;
}

static void frame(u8 *buf)
{
	for (int i = 0; i < PKT_LEN; i++)
		buf[i] = (u8)(i * 7 + 1);
	buf[12] = 0x08;
	buf[13] = 0x00;
}

static void adjust_case(const void *arg)
{
	const struct adjust_case *c = arg;
	struct bpf_insn insns[2 + 3 * MAX_CALLS];
	unsigned int cnt = build(c, insns);
	u8 pkt[PKT_LEN], kout[4096];
	struct nb_xdp_rxq_info rxq = { .ifindex = 1 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL" };
	struct nb_log log = { 0 };
	struct nb_xdp_buff xdp;
	struct nb_prog *prog;
	struct nb_pkt *npkt;
	u32 nret, nlen;
	int fd, err;

	frame(pkt);
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "adjust", "GPL", insns, cnt, NULL);
	if (fd < 0) {
		if (errno == EPERM || errno == EACCES)
			nb_test_skip("loading BPF programs is not permitted (uid %u)",
				     (unsigned int)geteuid());
		NB_FAIL("kernel load: %s", strerror(errno));
	}
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = pkt, .data_size_in = PKT_LEN,
		    .data_out = kout, .data_size_out = sizeof(kout), .repeat = 1);
	err = bpf_prog_test_run_opts(fd, &topts);
	close(fd);
	if (err)
		NB_FAIL("BPF_PROG_TEST_RUN: %s", strerror(errno));
	NB_ASSERT_EQ((s32)topts.retval, c->expect);

	opts.log = &log;
	err = nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &opts, &prog);
	if (err)
		NB_FAIL("netbpf load: %d %s", err, nb_log_text(&log));
	nb_log_free(&log);
	npkt = nb_pkt_alloc_data(pkt, PKT_LEN);
	NB_ASSERT(npkt);
	nb_pkt_to_xdp(npkt, &xdp, &rxq);
	nret = nb_xdp_prog_run(prog, &xdp);
	nlen = (u32)(xdp.data_end - xdp.data_meta);
	NB_ASSERT_EQ((s32)nret, (s32)topts.retval);
	NB_ASSERT_EQ(nlen, topts.data_size_out);
	NB_ASSERT_MEM_EQ(xdp.data_meta, kout, nlen);
	nb_pkt_free(npkt);
	nb_prog_put(prog);
}

static void __attribute__((constructor)) register_adjust_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		nb_test_register(cases[i].name, adjust_case, &cases[i]);
}
