/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Programs that probe the verifier's reasoning, for the soundness fuzzer
 * (tests/fuzz/fuzz_soundness.c) and its regression tests: packet pointers checked against
 * data_end (fixed and variable offsets, metadata), map values behind null checks, stack spills
 * and fills of pointers and scalars, scalars bounded by every kind of comparison (32- and
 * 64-bit, signed and unsigned, register against register, JSET) after ALU32, ALU64 and
 * sign-extending operations and then used as offsets, bounded loops, bpf-to-bpf calls that
 * pass pointers, bpf_loop and for_each_map_elem callbacks, tail calls, helpers with memory
 * arguments, helpers that move packet data and so invalidate packet pointers, atomics and
 * ringbuf reservations.
 *
 * Every choice is read from the input bytes (and, once they run out, from a generator seeded
 * by them), so that a fuzzer's mutations change a program locally. The generator keeps a rough
 * model of every register and stack slot and mostly writes what the verifier should accept;
 * now and then it deliberately steps past what it proved (a probe: one byte beyond a range, a
 * missing null check, a stale packet pointer), which the verifier must refuse. Whatever the
 * verifier accepts runs unchecked under the sanitizers (sound_run.h): an access outside the
 * memory the program was given is a verifier bug.
 */
#ifndef NB_TEST_SOUND_GEN_H
#define NB_TEST_SOUND_GEN_H

#include <stddef.h>
#include <linux/bpf.h>

#include "common/types.h"

#define SG_MAX_FUNCS 5

/* A map the programs may use, referenced by its index (BPF_PSEUDO_MAP_IDX). */
struct sg_map {
	enum bpf_map_type type;
	u32 key_size, value_size, max_entries;
};

struct sg_opts {
	enum bpf_prog_type prog_type;	/* XDP, SCHED_CLS or SOCKET_FILTER */
	const struct sg_map *maps;
	u32 map_cnt;
	u32 max_insns;			/* room in the output */
};

struct sg_prog {
	u32 cnt;			/* instructions written; 0 when they did not fit */
	u32 probes;			/* deliberate steps past what the generator proved */
	/*
	 * Stack bytes that held pointers reached memory through a helper or a store, or a read
	 * reached bytes no engine defines (bpf_probe_read_kernel past its source): results then
	 * carry addresses or leftovers, which differ between engines, so they are not compared.
	 */
	bool leaks_addresses;
	/* where each function starts, main first (BTF func_info for the kernel) */
	u32 func_start[SG_MAX_FUNCS];
	u32 func_cnt;
};

/* Write a program chosen by data[0..len) into insns (room for opts->max_insns). */
struct sg_prog sg_gen(const u8 *data, size_t len, const struct sg_opts *opts,
		      struct bpf_insn *insns);

#endif /* NB_TEST_SOUND_GEN_H */
