// SPDX-License-Identifier: GPL-2.0
/*
 * A slice of the soundness fuzzer's programs against the running kernel's verifier: 200
 * generated programs of each type (XDP, tc, socket filter) go to both verifiers. A program the
 * kernel refuses and netbpf accepts fails the test, unless it is one of the known findings
 * below (each written down with the shape that gives it away in the kernel's log); the test
 * prints how many of each it saw. Programs netbpf refuses and the kernel accepts are counted
 * and reported, not failed: netbpf is stricter there, which costs users but no safety.
 */
#include <string.h>

#include <netbpf/prog.h>

#include "bpf/disasm.h"
#include "bpf_asm.h"
#include "sound_gen.h"
#include "sound_kernel.h"
#include "sound_run.h"
#include "test.h"

/*
 * Known findings: netbpf accepts what the kernel refuses. Neither is an escape (the soundness
 * fuzzer runs such programs under ASan: what netbpf accepts there is safe); both make netbpf
 * accept programs the kernel will not load.
 */
static const struct known_finding {
	const char *id;
	const char *reason;	/* in the kernel's last message */
	const char *marker;	/* and this in its log */
	const char *what;
} known[] = {
	{ "F1", "offset is outside of the packet", "r=0xffffffffffffff",
	  "after `if pkt' <= pkt_end goto` (and the other comparisons) the kernel marks pkt' on "
	  "the branch where it lies beyond pkt_end (mark_pkt_end: AT_PKT_END/BEYOND_PKT_END), "
	  "which later range checks cannot raise above their own bound; netbpf leaves it the "
	  "range its id proved" },
	{ "F3", "math between fp pointer and register with unbounded min value", "/=",
	  "32-bit div/mod by a register: the kernel marks the whole 64-bit register unknown "
	  "(is_safe_to_compute_dst_reg_range false, no zero-extension); netbpf zero-extends the "
	  "32-bit result, so a later pointer addition has a bounded register" },
};

static void dump(const struct bpf_insn *insns, u32 cnt)
{
	char line[256];

	for (u32 i = 0; i < cnt;) {
		int n = nb_disasm_insn(&insns[i], cnt - i, line, sizeof(line));

		fprintf(stderr, "%4u: %s\n", i, line);
		i += n;
	}
}

NB_TEST(sound_kernel_slice)
{
	static const enum bpf_prog_type types[] = {
		BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SOCKET_FILTER,
	};
	static struct bpf_insn insns[1024];
	u32 programs = 0, agree = 0, stricter = 0, refused = 0, seen[ARRAY_SIZE(known)] = { 0 };
	char why[256], reason[256];

	if (sk_setup(why, sizeof(why)))
		nb_test_skip("%s", why);
	for (u32 t = 0; t < ARRAY_SIZE(types); t++) {
		for (u32 i = 0; i < 200; i++) {
			struct sg_opts o = { .prog_type = types[t], .max_insns = 1024 };
			struct sr_result r;
			struct sg_prog p;
			bool nb_ok, k_ok;
			u32 k;
			u8 data[8];

			for (int b = 0; b < 8; b++)
				data[b] = (u8)((i * 2654435761u) >> (b * 3));
			o.maps = sr_maps(&o.map_cnt);
			p = sg_gen(data, sizeof(data), &o, insns);
			if (!p.cnt)
				continue;
			programs++;
			sr_run(types[t], insns, p.cnt, &(struct sr_opts){ 0 }, NULL, 0, &r);
			if (r.verdict == SR_MISMATCH)
				NB_FAIL("type %d seed %u: %s", types[t], i, r.why);
			nb_ok = r.verdict == SR_RAN;
			k_ok = sk_load(types[t], insns, &p, reason, sizeof(reason)) == 0;
			if (nb_ok == k_ok) {
				agree++;
				continue;
			}
			if (!nb_ok) {
				stricter++;
				continue;
			}
			refused++;
			for (k = 0; k < ARRAY_SIZE(known); k++)
				if (strstr(reason, known[k].reason) && strstr(sk_log(), known[k].marker))
					break;
			if (k < ARRAY_SIZE(known)) {
				seen[k]++;
				continue;
			}
			dump(insns, p.cnt);
			NB_FAIL("type %d seed %u: netbpf accepts, the kernel refuses: %s", types[t], i,
				reason);
		}
	}
	for (u32 k = 0; k < ARRAY_SIZE(known); k++)
		printf("known finding %s (seen %u times): %s\n", known[k].id, seen[k],
		       known[k].what);
	nb_test_report("%u programs: %u same verdict, %u refused by netbpf only, %u accepted by "
		       "netbpf only (all known findings)", programs, agree, stricter, refused);
	sk_cleanup();
	sr_cleanup();
}

/*
 * The known findings in their smallest form: the kernel must refuse each with the reason the
 * list names (what netbpf is to match); netbpf's verdict is printed, open or fixed.
 */
NB_TEST(sound_kernel_known_findings)
{
	static const struct bpf_insn f1[] = {
		/* data + 10 <= data_end proves 10 bytes for every pointer of data's id ... */
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		NB_MOV64_REG(BPF_REG_4, BPF_REG_2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_4, 10),
		NB_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 5),
		/* ... but r5 = data + 100 falls through as beyond pkt_end: no reads through it */
		NB_MOV64_REG(BPF_REG_5, BPF_REG_2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_5, 100),
		NB_JMP_REG(BPF_JLE, BPF_REG_5, BPF_REG_3, 0),
		NB_LDX_MEM(BPF_B, BPF_REG_0, BPF_REG_5, -95),
		NB_EXIT(),
		NB_MOV64_IMM(BPF_REG_0, 2),
		NB_EXIT(),
	};
	static const struct bpf_insn f3[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
		NB_MOV32_REG(BPF_REG_3, BPF_REG_2),
		NB_ALU32_SREG(BPF_DIV, BPF_REG_2, BPF_REG_3),
		NB_MOV64_IMM(BPF_REG_0, 0),
		NB_JMP32_IMM(BPF_JSGT, BPF_REG_2, 60, 5),
		NB_JMP32_IMM(BPF_JSLT, BPF_REG_2, 0, 4),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_1, -64),
		NB_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2),
		NB_LDX_MEM(BPF_B, BPF_REG_0, BPF_REG_1, 0),
		NB_EXIT(),
	};
	static const struct { const struct bpf_insn *insns; u32 cnt; u32 known; } cases[] = {
		{ f1, ARRAY_SIZE(f1), 0 },
		{ f3, ARRAY_SIZE(f3), 1 },
	};
	char why[256], reason[256];

	if (sk_setup(why, sizeof(why)))
		nb_test_skip("%s", why);
	for (u32 i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct known_finding *k = &known[cases[i].known];
		struct sg_prog p = { .cnt = cases[i].cnt, .func_cnt = 1 };
		struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL" };
		struct nb_prog *prog = NULL;
		int err;

		if (!sk_load(BPF_PROG_TYPE_XDP, cases[i].insns, &p, reason, sizeof(reason)))
			NB_FAIL("%s: the kernel accepts it", k->id);
		NB_ASSERT_STR_CONTAINS(reason, k->reason);
		err = nb_prog_load(BPF_PROG_TYPE_XDP, cases[i].insns, cases[i].cnt, &opts, &prog);
		nb_prog_put(prog);
		printf("%s: %s\n", k->id, err ? "netbpf refuses it too: fixed, make it a verifier "
			"regression case" : "netbpf accepts it: open");
	}
	sk_cleanup();
}
