/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness of the kernel comparisons of the packet program types: a case is a program, a
 * type and a frame; it runs in the kernel (BPF_PROG_TEST_RUN) and in netbpf (nb_prog_test_run)
 * and retval, data_out and ctx_out must be equal.
 */
#ifndef NB_TEST_KCASE_H
#define NB_TEST_KCASE_H

#include <errno.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/filter.h>

#include <bpf/bpf.h>
#include <netbpf/test_run.h>

#include "bpf_asm.h"
#include "../unit/ctx_rewrite.h"
#include "pkt/pkt.h"
#include "test.h"
#include "kernel_probe.h"

#define KCASE_LOG_SIZE (1U << 20)

/* The frames a case may run on. */
enum kframe {
	KFRAME_UDP = 0,	/* Ethernet + IPv4 10.0.0.1 -> 10.0.0.2 + UDP 12345 -> 53 + payload */
	KFRAME_VLAN,	/* the same behind an 802.1Q tag (id 100) */
	KFRAME_QINQ,	/* behind an 802.1ad tag (id 5) and an 802.1Q tag (id 100) */
	KFRAME_ECT,	/* KFRAME_UDP with ECN capable transport ECT(0) */
	KFRAME_UDP6,	/* Ethernet + IPv6 fd00::1 -> fd00::2, ECT(0) + UDP + payload */
};

static inline u16 kframe_csum(const u8 *p, size_t len, u32 sum)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (u32)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

/* Build a frame of kind into f; returns its length. Checksums are computed here (RFC 1071). */
static inline u32 build_frame_kind(enum kframe kind, u8 *f)
{
	static const u8 eth[] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };
	static const u8 tag_ad[] = { 0x88, 0xa8, 0x00, 0x05 };
	static const u8 tag_q[] = { 0x81, 0x00, 0x00, 0x64 };
	u32 off = sizeof(eth), l3, l4, end, sum = 0;
	u16 c;

	memcpy(f, eth, sizeof(eth));
	if (kind == KFRAME_QINQ) {
		memcpy(f + off, tag_ad, 4);
		off += 4;
	}
	if (kind == KFRAME_VLAN || kind == KFRAME_QINQ) {
		memcpy(f + off, tag_q, 4);
		off += 4;
	}
	l3 = off + 2;
	if (kind == KFRAME_UDP6) {
		static const u8 ip6[40] = {
			0x60, 0x20, 0, 0, 0, 40, 17, 64,
			0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
			0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
		};

		f[off] = 0x86;
		f[off + 1] = 0xdd;
		memcpy(f + l3, ip6, sizeof(ip6));
		l4 = l3 + 40;
		for (u32 i = l3 + 8; i < l3 + 40; i += 2)
			sum += (u32)f[i] << 8 | f[i + 1];
	} else {
		static const u8 ip[20] = { 0x45, 0, 0, 60, 0x12, 0x34, 0x40, 0, 64, 17, 0, 0,
					   10, 0, 0, 1, 10, 0, 0, 2 };

		f[off] = 0x08;
		f[off + 1] = 0x00;
		memcpy(f + l3, ip, sizeof(ip));
		if (kind == KFRAME_ECT)
			f[l3 + 1] = 2;
		c = kframe_csum(f + l3, 20, 0);
		f[l3 + 10] = (u8)(c >> 8);
		f[l3 + 11] = (u8)c;
		l4 = l3 + 20;
		for (u32 i = l3 + 12; i < l3 + 20; i += 2)
			sum += (u32)f[i] << 8 | f[i + 1];
	}
	end = l4 + 40;
	f[l4] = 0x30;
	f[l4 + 1] = 0x39;
	f[l4 + 2] = 0x00;
	f[l4 + 3] = 0x35;
	f[l4 + 4] = 0;
	f[l4 + 5] = 40;
	f[l4 + 6] = 0;
	f[l4 + 7] = 0;
	for (u32 i = l4 + 8; i < end; i++)
		f[i] = (u8)(i * 7);
	c = kframe_csum(f + l4, end - l4, sum + 17 + 40);
	f[l4 + 6] = (u8)(c >> 8);
	f[l4 + 7] = (u8)c;
	return end;
}

struct kcase {
	const char *name;
	enum bpf_prog_type type;
	const struct bpf_insn *insns;
	unsigned int cnt;
	bool ctx;		/* pass a context in and compare the one that comes out */
	u32 xdp_meta;		/* XDP: bytes of metadata in front of the frame */
	enum kframe frame;
	bool no_gso;		/* ctx_in leaves gso_segs and gso_size 0: not a GSO packet */
};

static inline int kernel_load(const struct kcase *c)
{
	char *log = malloc(KCASE_LOG_SIZE);
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = KCASE_LOG_SIZE);
	int fd;

	NB_ASSERT(log);
	log[0] = '\0';
	fd = bpf_prog_load(c->type, "ctxk", "GPL", c->insns, c->cnt, &opts);
	if (fd < 0) {
		fprintf(stderr, "kernel verifier log:\n%s\n", log);
		NB_FAIL("the kernel rejects %s: %s", c->name, strerror(errno));
	}
	free(log);
	return fd;
}

static inline void fill_ctx(const struct kcase *c, struct __sk_buff *skb, struct xdp_md *xdp,
		     u32 frame_len)
{
	memset(skb, 0, sizeof(*skb));
	memset(xdp, 0, sizeof(*xdp));
	skb->mark = 0x11223344;
	skb->priority = 7;
	for (int i = 0; i < 5; i++)
		skb->cb[i] = 0x01010101u * (i + 1);
	skb->tstamp = 0x123456789ull;
	if (!c->no_gso) {
		skb->gso_segs = 2;
		skb->gso_size = 1400;
	}
	skb->hwtstamp = 0x99;
	xdp->data = c->xdp_meta;
	xdp->data_end = c->xdp_meta + frame_len;
}

static inline void run_kcase_engine(const struct kcase *c, bool jit)
{
	u8 frame[256], kout[512], nout[512];
	struct __sk_buff kskb, nskb, skb_in;
	struct xdp_md kxdp, nxdp, xdp_in;
	bool is_xdp = c->type == BPF_PROG_TYPE_XDP;
	void *ctx_in = is_xdp ? (void *)&xdp_in : (void *)&skb_in;
	u32 ctx_size = is_xdp ? sizeof(struct xdp_md) : sizeof(struct __sk_buff);
	struct nb_test_run_opts nopts = { .sz = sizeof(nopts) };
	struct nb_prog *prog;
	int fd, kerr, nerr;
	u32 frame_len;

	memset(frame, 0xee, sizeof(frame));
	frame_len = build_frame_kind(c->frame, frame + c->xdp_meta);
	fill_ctx(c, &skb_in, &xdp_in, frame_len);
	memset(kout, 0, sizeof(kout));
	memset(nout, 0, sizeof(nout));
	memset(&kskb, 0, sizeof(kskb));
	memset(&nskb, 0, sizeof(nskb));
	memset(&kxdp, 0, sizeof(kxdp));
	memset(&nxdp, 0, sizeof(nxdp));

	need_kernel_prog(BPF_PROG_TYPE_SCHED_CLS);
	fd = kernel_load(c);
	{
		LIBBPF_OPTS(bpf_test_run_opts, kopts, .data_in = frame,
			    .data_size_in = frame_len + c->xdp_meta, .data_out = kout,
			    .data_size_out = sizeof(kout), .repeat = 1);

		if (c->ctx) {
			kopts.ctx_in = ctx_in;
			kopts.ctx_size_in = ctx_size;
			kopts.ctx_out = is_xdp ? (void *)&kxdp : (void *)&kskb;
			kopts.ctx_size_out = ctx_size;
		}
		kerr = bpf_prog_test_run_opts(fd, &kopts) ? -errno : 0;
		close(fd);
		NB_ASSERT_EQ(kerr, 0);

		prog = ctx_test_load_engine(c->type, 0, c->insns, c->cnt, jit);
		if (jit && !nb_prog_is_jited(prog)) {
			nb_prog_put(prog);
			nb_test_skip("the JIT did not compile %s (not built yet, or declined)",
				     c->name);
		}
		nopts.data_in = frame;
		nopts.data_size_in = frame_len + c->xdp_meta;
		nopts.data_out = nout;
		nopts.data_size_out = sizeof(nout);
		if (c->ctx) {
			nopts.ctx_in = ctx_in;
			nopts.ctx_size_in = ctx_size;
			nopts.ctx_out = is_xdp ? (void *)&nxdp : (void *)&nskb;
			nopts.ctx_size_out = ctx_size;
		}
		nerr = nb_prog_test_run(prog, &nopts);
		nb_prog_put(prog);
		NB_ASSERT_EQ(nerr, 0);

		if (kopts.retval != nopts.retval)
			NB_FAIL("%s: retval: kernel 0x%x, netbpf 0x%x", c->name, kopts.retval,
				nopts.retval);
		NB_ASSERT_EQ(nopts.data_size_out, kopts.data_size_out);
		NB_ASSERT_MEM_EQ(nout, kout, kopts.data_size_out);
	}
	if (c->ctx && is_xdp)
		NB_ASSERT_MEM_EQ(&nxdp, &kxdp, sizeof(kxdp));
	if (c->ctx && !is_xdp) {
		NB_ASSERT_EQ(nskb.mark, kskb.mark);
		NB_ASSERT_EQ(nskb.priority, kskb.priority);
		NB_ASSERT_EQ(nskb.ingress_ifindex, kskb.ingress_ifindex);
		NB_ASSERT_EQ(nskb.ifindex, kskb.ifindex);
		NB_ASSERT_MEM_EQ(nskb.cb, kskb.cb, sizeof(kskb.cb));
		NB_ASSERT_EQ(nskb.tstamp, kskb.tstamp);
		NB_ASSERT_EQ(nskb.wire_len, kskb.wire_len);
		NB_ASSERT_EQ(nskb.gso_segs, kskb.gso_segs);
		NB_ASSERT_EQ(nskb.hwtstamp, kskb.hwtstamp);
		NB_ASSERT_MEM_EQ(&nskb, &kskb, sizeof(kskb));
	}
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* The case on the interpreter. */
static inline void run_kcase(const void *arg)
{
	run_kcase_engine(arg, false);
}

/* The case JIT-compiled: the rewritten context accesses and helper calls as native code. */
static inline void run_kcase_jit(const void *arg)
{
	run_kcase_engine(arg, true);
}

/* Register every case of a table twice: "<prefix>/<name>" and "<prefix>-jit/<name>". */
static inline void kcase_register(const char *prefix, const struct kcase *cases, size_t n)
{
	char name[128];

	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s/%s", prefix, cases[i].name);
		nb_test_register(name, run_kcase, &cases[i]);
		snprintf(name, sizeof(name), "%s-jit/%s", prefix, cases[i].name);
		nb_test_register(name, run_kcase_jit, &cases[i]);
	}
}

#endif /* NB_TEST_KCASE_H */
