/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a program once on a packet given as bytes, the twin of the kernel's
 * BPF_PROG_TEST_RUN (libbpf's bpf_prog_test_run_opts): the same options, the same checks of
 * ctx_in, the same packet set-up (a loopback device, eth_type_trans, the data at L2 for tc
 * programs and at L3 for socket filters, 256 bytes of XDP headroom) and the same outputs, so
 * that a result can be compared with the kernel's byte for byte.
 */
#ifndef NETBPF_TEST_RUN_H
#define NETBPF_TEST_RUN_H

#include <stddef.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_prog;

struct nb_test_run_opts {
	size_t sz;		/* sizeof(struct nb_test_run_opts) */
	const void *data_in;
	void *data_out;		/* may be NULL */
	__u32 data_size_in;
	__u32 data_size_out;	/* in: room in data_out; out: bytes of the resulting packet */
	const void *ctx_in;	/* struct __sk_buff or struct xdp_md; may be NULL */
	void *ctx_out;
	__u32 ctx_size_in;
	__u32 ctx_size_out;	/* in: room in ctx_out; out: bytes written */
	__u32 retval;		/* out */
	int repeat;		/* runs; 0 means 1 */
	__u32 duration;		/* out: mean ns per run */
	/*
	 * out, after a REDIRECT verdict (TC_ACT_REDIRECT, XDP_REDIRECT): the target the redirect
	 * helper recorded (the kernel's bpf_redirect_info, which its test run leaves unread). An
	 * ifindex, or with bpf_redirect_map the key in the map of id redirect_map_id; 0 and 0
	 * for any other verdict. Written only when sz holds them.
	 */
	__u32 redirect_index;
	__u32 redirect_map_id;	/* 0: redirect_index is an ifindex */
};

/*
 * SOCKET_FILTER, SCHED_CLS, SCHED_ACT and XDP programs. Returns 0, or a negative errno as the
 * kernel's: -EINVAL for a bad ctx_in, -ENOSPC when data_out is too small (data_size_out still
 * tells the size and the first bytes are written; for an XDP frame with fragments, the kernel's
 * way: see test_finish_xdp), -ENODEV for an unknown ifindex, -EOPNOTSUPP for other program
 * types. XDP frames beyond a page go into fragments, as the kernel's multi-buffer test run does
 * (-ENOMEM past 17 of them); tc and socket filter frames must fit a page (-EINVAL). What a tc
 * program sends with bpf_clone_redirect is transmitted before the call returns, as the
 * kernel's test run sends it; a REDIRECT verdict itself is only reported (redirect_index).
 */
int nb_prog_test_run(const struct nb_prog *prog, struct nb_test_run_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_TEST_RUN_H */
