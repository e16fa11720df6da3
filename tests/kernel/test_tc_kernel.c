// SPDX-License-Identifier: GPL-2.0
/*
 * The tc examples against the running kernel: each section of examples/tcbpf1.o and
 * examples/tc_classifier.o is loaded by libbpf into the kernel and by netbpf's object loader, and
 * run on the same frames with BPF_PROG_TEST_RUN and nb_prog_test_run, on the interpreter
 * (tc-kernel/) and JIT-compiled (tc-kernel-jit/); retval, data_out and ctx_out (mark, priority,
 * cb, tc_classid, all of __sk_buff) must be equal.
 *
 * clone_redirect_* are not run in the kernel: its test run device is the loopback, so the clone
 * would really leave through the host's interface with ifindex 2.
 */
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <netbpf/test_run.h>

#include "../unit/tc_test.h"
#include "kernel_probe.h"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

enum tk_frame { TK_TCP, TK_UDP, TK_ARP, TK_IPV6, TK_OTHER };

struct tk_case {
	const char *name;
	const char *object;
	const char *section;
	enum tk_frame frame;
};

static const struct tk_case tk_cases[] = {
	{ "tc-kernel/tcbpf1_classifier_tcp", "tcbpf1.o", "classifier", TK_TCP },
	{ "tc-kernel/tcbpf1_classifier_udp", "tcbpf1.o", "classifier", TK_UDP },
	{ "tc-kernel/tcbpf1_redirect_xmit", "tcbpf1.o", "redirect_xmit", TK_UDP },
	{ "tc-kernel/tcbpf1_redirect_recv", "tcbpf1.o", "redirect_recv", TK_TCP },
	{ "tc-kernel/tc_classifier_arp", "tc_classifier.o", "classifier", TK_ARP },
	{ "tc-kernel/tc_classifier_ipv4", "tc_classifier.o", "classifier", TK_TCP },
	{ "tc-kernel/tc_classifier_ipv6", "tc_classifier.o", "classifier", TK_IPV6 },
	{ "tc-kernel/tc_classifier_other", "tc_classifier.o", "classifier", TK_OTHER },
};

static u32 tk_build(enum tk_frame kind, u8 *f)
{
	u32 len;

	switch (kind) {
	case TK_TCP:
		return tc_frame_ipv4(f, NULL, IPPROTO_TCP, 0xc0a80001, 0xc0a80002, 40000, 80, 24);
	case TK_UDP:
		return tc_frame_ipv4(f, NULL, IPPROTO_UDP, 0xc0a80001, 0xc0a80002, 40000, 53, 24);
	case TK_ARP:
		return tc_frame_arp(f);
	case TK_IPV6:
		return tc_frame_ipv6(f, IPPROTO_UDP);
	default:
		len = tc_frame_arp(f);
		f[12] = 0x88;
		f[13] = 0xb5;
		return len;
	}
}

static void tk_ctx(struct __sk_buff *skb)
{
	memset(skb, 0, sizeof(*skb));
	skb->mark = 0x11223344;
	skb->priority = 7;
	for (int i = 0; i < 5; i++)
		skb->cb[i] = 0x01010101u * (i + 1);
	skb->tc_classid = 0;
}

static void run_tk_case_engine(const struct tk_case *c, bool jit)
{
	u8 frame[256], kout[512], nout[512];
	struct __sk_buff in, kskb, nskb;
	struct nb_test_run_opts nopts = { .sz = sizeof(nopts) };
	struct bpf_object *kobj;
	struct bpf_program *kprog;
	struct nb_object *nobj;
	struct nb_prog *prog;
	char rel[128], path[4096];
	u32 len;
	int err;

	need_kernel_prog(BPF_PROG_TYPE_SCHED_CLS);
	len = tk_build(c->frame, frame);
	tk_ctx(&in);
	memset(kout, 0, sizeof(kout));
	memset(nout, 0, sizeof(nout));
	memset(&kskb, 0, sizeof(kskb));
	memset(&nskb, 0, sizeof(nskb));

	snprintf(rel, sizeof(rel), "examples/%s", c->object);
	kobj = bpf_object__open_file(nb_test_build_path(path, sizeof(path), rel), NULL);
	if (!kobj)
		NB_FAIL("libbpf open %s: %s", c->object, strerror(errno));
	bpf_object__for_each_program(kprog, kobj) {
		bool mine = !strcmp(bpf_program__section_name(kprog), c->section);

		bpf_program__set_autoload(kprog, mine);
		bpf_program__set_type(kprog, BPF_PROG_TYPE_SCHED_CLS);
	}
	err = bpf_object__load(kobj);
	if (err)
		NB_FAIL("libbpf load %s: %d", c->object, err);
	kprog = NULL;
	bpf_object__for_each_program(kprog, kobj)
		if (!strcmp(bpf_program__section_name(kprog), c->section))
			break;
	NB_ASSERT(kprog);
	{
		LIBBPF_OPTS(bpf_test_run_opts, kopts, .data_in = frame, .data_size_in = len,
			    .data_out = kout, .data_size_out = sizeof(kout), .ctx_in = &in,
			    .ctx_size_in = sizeof(in), .ctx_out = &kskb,
			    .ctx_size_out = sizeof(kskb), .repeat = 1);

		err = bpf_prog_test_run_opts(bpf_program__fd(kprog), &kopts);
		NB_ASSERT_EQ(err, 0);

		prog = tc_example_prog_flags(c->object, c->section, BPF_PROG_TYPE_SCHED_CLS,
					     jit ? 0 : NB_PROG_LOAD_INTERP, &nobj);
		if (jit && !nb_prog_is_jited(prog)) {
			nb_prog_put(prog);
			nb_object_close(nobj);
			bpf_object__close(kobj);
			nb_test_skip("the JIT did not compile %s", c->name);
		}
		nopts.data_in = frame;
		nopts.data_size_in = len;
		nopts.data_out = nout;
		nopts.data_size_out = sizeof(nout);
		nopts.ctx_in = &in;
		nopts.ctx_size_in = sizeof(in);
		nopts.ctx_out = &nskb;
		nopts.ctx_size_out = sizeof(nskb);
		err = nb_prog_test_run(prog, &nopts);
		nb_prog_put(prog);
		nb_object_close(nobj);
		NB_ASSERT_EQ(err, 0);

		if (kopts.retval != nopts.retval)
			NB_FAIL("%s: retval: kernel 0x%x, netbpf 0x%x", c->name, kopts.retval,
				nopts.retval);
		NB_ASSERT_EQ(nopts.data_size_out, kopts.data_size_out);
		NB_ASSERT_MEM_EQ(nout, kout, kopts.data_size_out);
	}
	bpf_object__close(kobj);
	NB_ASSERT_EQ(nskb.mark, kskb.mark);
	NB_ASSERT_EQ(nskb.priority, kskb.priority);
	NB_ASSERT_MEM_EQ(nskb.cb, kskb.cb, sizeof(kskb.cb));
	NB_ASSERT_EQ(nskb.tc_classid, kskb.tc_classid);
	NB_ASSERT_MEM_EQ(&nskb, &kskb, sizeof(kskb));
	if (c->frame == TK_TCP && !strcmp(c->section, "classifier") &&
	    !strcmp(c->object, "tcbpf1.o")) {
		/* the rewriter did rewrite: TOS 8, source 10.1.1.1, port 5001 */
		NB_ASSERT_EQ(nout[ETH_HLEN + 1], 8);
		NB_ASSERT_MEM_EQ(nout + ETH_HLEN + 12, "\x0a\x01\x01\x01", 4);
		NB_ASSERT_EQ(nout[ETH_HLEN + 20 + 2] << 8 | nout[ETH_HLEN + 20 + 3], 5001);
		NB_ASSERT_EQ(nb_csum_compute(nout + ETH_HLEN, 20), 0);
	}
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static void run_tk_case(const void *arg)
{
	run_tk_case_engine(arg, false);
}

static void run_tk_case_jit(const void *arg)
{
	run_tk_case_engine(arg, true);
}

static char tk_jit_names[ARRAY_SIZE(tk_cases)][64];

static void __attribute__((constructor)) register_tk_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(tk_cases); i++) {
		nb_test_register(tk_cases[i].name, run_tk_case, &tk_cases[i]);
		snprintf(tk_jit_names[i], sizeof(tk_jit_names[i]), "tc-kernel-jit/%s",
			 tk_cases[i].name + strlen("tc-kernel/"));
		nb_test_register(tk_jit_names[i], run_tk_case_jit, &tk_cases[i]);
	}
}
