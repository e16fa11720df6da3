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
 * engines that disagree abort with the program's listing. At exit the target prints how many
 * programs it generated and how many the verifier accepted.
 *
 * NB_SOUND_DUMP=1 prints each program, its verdict and the verifier's reason.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/disasm.h"
#include "sound_gen.h"
#include "sound_run.h"

/* One binary per target: the shared test sources come in whole. */
#include "sound_gen.c"
#include "sound_run.c"

#define MAX_INSNS 1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long generated, accepted, probing, probing_accepted;

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
	if (generated)
		fprintf(stderr, "fuzz_soundness: %lu programs, %lu accepted (%lu%%), %lu with a "
			"probe of which %lu accepted, 0 escapes\n", generated, accepted,
			accepted * 100 / generated, probing, probing_accepted);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum bpf_prog_type types[] = {
		BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_SCHED_CLS,
		BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SCHED_CLS,
		BPF_PROG_TYPE_SOCKET_FILTER,
	};
	static struct bpf_insn insns[MAX_INSNS];
	struct sg_opts o = { .max_insns = MAX_INSNS };
	struct sr_result res;
	struct sg_prog p;
	size_t env_len;

	if (size < 2)
		return 0;
	o.prog_type = types[data[0] % ARRAY_SIZE(types)];
	o.maps = sr_maps(&o.map_cnt);
	env_len = (size_t)data[1] * 2;
	if (env_len > size - 2)
		env_len = size - 2;
	p = sg_gen(data + 2, size - 2 - env_len, &o, insns);
	if (!p.cnt)
		return 0;
	sr_run(o.prog_type, insns, p.cnt, &(struct sr_opts){ .compare = !p.leaks_addresses },
	       data + size - env_len, env_len, &res);
	generated++;
	probing += p.probes > 0;
	if (res.verdict != SR_REJECTED) {
		accepted++;
		probing_accepted += p.probes > 0;
	}
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
