/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a program the way the soundness fuzzer does (tests/fuzz/fuzz_soundness.c): load it;
 * if the verifier accepts, run it unchecked on the interpreter and then on the JIT, each time
 * on the same packet, context and map contents taken from the input bytes, and compare what
 * the two runs left: r0, the packet, every map. Each program gets new maps. A program whose
 * results may rest on stack it never wrote, or that the caller says shows addresses, runs on
 * both engines all the same but is not compared (sr_result.compare says why).
 *
 * During the interpreter's run everything around the memory the program was given is
 * poisoned for AddressSanitizer: the packet buffer outside data_meta..data_end (lifted while a
 * packet helper runs, and laid again over the data as the helper left it), the padding of map
 * values, and the stack below each frame's verified depth (src/bpf/interp.c). So under ASan
 * (the fuzz build, make check SANITIZE=1) an access the verifier should have refused is
 * reported where it happens; in a plain build the run still compares the engines.
 */
#ifndef NB_TEST_SOUND_RUN_H
#define NB_TEST_SOUND_RUN_H

#include <stddef.h>
#include <linux/bpf.h>

#include "common/types.h"
#include "sound_gen.h"

enum sr_verdict {
	SR_REJECTED,	/* the verifier refused the program: why has its last words */
	SR_RAN,		/* accepted, ran on every engine, the engines agree where compared */
	SR_MISMATCH,	/* the engines disagree, or the loads disagree on the verdict */
};

/* Whether the JIT's results were compared with the interpreter's, and if not, why not. */
enum sr_compare {
	SR_COMPARED,
	SR_NOT_ASKED,		/* sr_opts.compare was off */
	/*
	 * It may read stack it never wrote (legal for a privileged loader): the verifier
	 * refused it with allow_uninit_stack off (why has the reason).
	 */
	SR_UNINIT_STACK,
	/* Interpreter runs over different stack fills disagreed: it reads bytes a helper left */
	SR_FILLS_DIFFER,
	SR_NO_JIT,		/* the JIT did not compile it: the interpreter's runs only */
};

struct sr_result {
	enum sr_verdict verdict;
	u64 r0;			/* the interpreter's */
	enum sr_compare compare;	/* for SR_RAN and SR_MISMATCH */
	char why[512];
};

/* The maps generated programs use (one table for every program), created on first use. */
const struct sg_map *sr_maps(u32 *cnt);

struct nb_prog;

struct sr_opts {
	/* check that the engines agree (off for programs that leave addresses in results) */
	bool compare;
	/*
	 * Called on the interpreter's program after the load, before it runs: the oracle's own
	 * tests change a proven program here the way a verifier bug would.
	 */
	void (*tamper)(struct nb_prog *prog, void *arg);
	void *arg;
};

/*
 * Load and run insns as a program of type on the environment env[0..env_len) (packet length,
 * headroom, metadata, bytes, map contents).
 */
void sr_run(enum bpf_prog_type type, const struct bpf_insn *insns, u32 cnt,
	    const struct sr_opts *opts, const u8 *env, size_t env_len, struct sr_result *res);

/*
 * The fuzz target's input (tests/fuzz/fuzz_soundness.c), split: byte 0 picks the program type
 * (XDP and tc three times as often as a socket filter), byte 1 how many of the last bytes are
 * the environment (times 2), the bytes between are the generator's choices. False when the
 * input is too short to say.
 */
struct sr_input {
	enum bpf_prog_type type;
	const u8 *choices, *env;
	size_t choices_len, env_len;
};

bool sr_input_split(const u8 *data, size_t size, struct sr_input *in);

/* Release the maps and the device (before a leak check). */
void sr_cleanup(void);

#endif /* NB_TEST_SOUND_RUN_H */
