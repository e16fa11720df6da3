// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the verifier's soundness. Each input is a program of the generator
 * (tests/runner/sound_gen.c: packet ranges, map values, spills, bounds, loops, calls,
 * callbacks, tail calls, helpers with memory arguments, atomics, ringbuf) and the environment
 * it runs in (packet, metadata, headroom, map contents):
 *
 *   byte 0     program type: XDP, tc or socket filter
 *   byte 1     how many of the last bytes are the environment (times 2)
 *   the rest   the generator's choices, then the environment
 *
 * Whatever the verifier accepts runs unchecked on the interpreter with the memory around what
 * the program was given poisoned, then on the JIT (tests/runner/sound_run.c). In this build
 * (ASan, UBSan) an access the verifier should have refused aborts with the sanitizer's report;
 * engines that disagree abort with the program's listing. Where root and BPF are available,
 * one program in eight also goes to the kernel's verifier (tests/runner/sound_kernel.c): the
 * kernel's reasons for the programs only netbpf accepts are collected. At exit the target
 * prints how many programs it generated and accepted, and the kernel's tally.
 *
 * NB_SOUND_DUMP=1 prints each program, its verdict and the verifier's reason.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/disasm.h"
#include "sound_gen.h"
#include "sound_kernel.h"
#include "sound_run.h"

/* One binary per target: the shared test sources come in whole. */
#include "sound_gen.c"
#include "sound_kernel.c"
#include "sound_run.c"

#define MAX_INSNS 1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct bpf_insn p_insns[MAX_INSNS];
static unsigned long generated, accepted, probing, probing_accepted;
static unsigned long k_checked, k_agree, k_stricter, k_refused;
static int k_state;	/* 0: not tried, 1: usable, -1: not available */
static char k_reasons[8][160];	/* the kernel's reasons for what only netbpf accepts */

/* One program of eight to the kernel's verifier, when there is one to ask. */
static void kernel_slice(enum bpf_prog_type type, const struct sg_prog *p, bool nb_ok)
{
	char why[160];
	bool k_ok;
	int i;

	if (k_state == 0)
		k_state = sk_setup(why, sizeof(why)) ? -1 : 1;
	if (k_state < 0 || generated % 8)
		return;
	k_checked++;
	k_ok = sk_load(type, p_insns, p, why, sizeof(why)) == 0;
	if (k_ok == nb_ok) {
		k_agree++;
		return;
	}
	if (!nb_ok) {
		k_stricter++;
		return;
	}
	k_refused++;
	for (i = 0; i < 8 && k_reasons[i][0] && strcmp(k_reasons[i], why); i++)
		;
	if (i < 8 && !k_reasons[i][0])
		snprintf(k_reasons[i], sizeof(k_reasons[i]), "%s", why);
}

static void dump(const struct bpf_insn *insns, u32 cnt)
{
	char line[256];

	for (u32 i = 0; i < cnt;) {
		int n = nb_disasm_insn(&insns[i], cnt - i, line, sizeof(line));

		fprintf(stderr, "%4u: %s\n", i, line);
		i += n;
	}
}

static void __attribute__((destructor)) report(void)
{
	if (!generated)
		return;
	for (int i = 0; i < 8 && k_reasons[i][0]; i++)
		fprintf(stderr, "kernel refuses what netbpf accepts: %s\n", k_reasons[i]);
	fprintf(stderr, "fuzz_soundness: %lu programs, %lu accepted (%lu%%), %lu with a probe of "
		"which %lu accepted, 0 escapes; kernel: %lu checked, %lu same verdict, %lu refused "
		"by netbpf only, %lu accepted by netbpf only\n", generated, accepted,
		accepted * 100 / generated, probing, probing_accepted, k_checked, k_agree,
		k_stricter, k_refused);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpf_insn *insns = p_insns;
	struct sg_opts o = { .max_insns = MAX_INSNS };
	struct sr_result res;
	struct sr_input in;
	struct sg_prog p;

	if (!sr_input_split(data, size, &in))
		return 0;
	o.prog_type = in.type;
	o.maps = sr_maps(&o.map_cnt);
	p = sg_gen(in.choices, in.choices_len, &o, insns);
	if (!p.cnt)
		return 0;
	sr_run(o.prog_type, insns, p.cnt, &(struct sr_opts){ .compare = !p.leaks_addresses },
	       in.env, in.env_len, &res);
	generated++;
	probing += p.probes > 0;
	if (res.verdict != SR_REJECTED) {
		accepted++;
		probing_accepted += p.probes > 0;
	}
	kernel_slice(o.prog_type, &p, res.verdict != SR_REJECTED);
	if (getenv("NB_SOUND_DUMP")) {
		dump(insns, p.cnt);
		fprintf(stderr, "type %d, %u probes: %s %s\n", o.prog_type, p.probes,
			res.verdict == SR_REJECTED ? "rejected:" : "accepted", res.why);
	}
	if (res.verdict == SR_MISMATCH) {
		dump(insns, p.cnt);
		fprintf(stderr, "fuzz_soundness: %s\n", res.why);
		abort();
	}
	return 0;
}
