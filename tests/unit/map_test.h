/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the map and helper tests: create maps with a log, and load instruction sequences as
 * the test program type (BPF_PROG_TYPE_SYSCALL, generic helpers) on the unchecked interpreter.
 */
#ifndef NB_TEST_MAP_TEST_H
#define NB_TEST_MAP_TEST_H

#include <errno.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>
#include <netbpf/percpu.h>

#include "test.h"
#include "bpf_asm.h"

#define MT_LOAD_FLAGS (NB_PROG_LOAD_UNSAFE_NO_VERIFY | NB_PROG_LOAD_INTERP)

static inline struct nb_map *mt_map(enum bpf_map_type type, __u32 key_size, __u32 value_size,
				    __u32 max_entries, __u32 flags)
{
	struct nb_log log = { 0 };
	struct nb_map_create_opts opts = {
		.sz = sizeof(opts), .name = "m", .map_flags = flags, .log = &log,
	};
	struct nb_map *map;
	int err = nb_map_create(type, key_size, value_size, max_entries, &opts, &map);

	if (err)
		NB_FAIL("map type %d: %d: %s", type, err, nb_log_text(&log));
	nb_log_free(&log);
	return map;
}

/* Create a map that must fail: returns the error, the log in *msg (caller frees). */
static inline int mt_map_err(enum bpf_map_type type, __u32 key_size, __u32 value_size,
			     __u32 max_entries, __u32 flags, struct nb_log *log)
{
	struct nb_map_create_opts opts = {
		.sz = sizeof(opts), .name = "bad", .map_flags = flags, .log = log,
	};
	struct nb_map *map = NULL;
	int err = nb_map_create(type, key_size, value_size, max_entries, &opts, &map);

	if (!err) {
		nb_map_put(map);
		NB_FAIL("map type %d key %u value %u max %u flags 0x%x was created", type,
			key_size, value_size, max_entries, flags);
	}
	NB_ASSERT(map == NULL);
	return err;
}

static inline struct nb_prog *mt_load(const struct bpf_insn *insns, unsigned int cnt)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .flags = MT_LOAD_FLAGS, .log = &log,
	};
	struct nb_prog *prog;
	int err = nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, cnt, &opts, &prog);

	if (err)
		NB_FAIL("load: %d: %s", err, nb_log_text(&log));
	nb_log_free(&log);
	return prog;
}

/* Load, run once with ctx, release: r0. */
static inline __u64 mt_run(const struct bpf_insn *insns, unsigned int cnt, void *ctx)
{
	struct nb_prog *prog = mt_load(insns, cnt);
	__u64 r0 = nb_prog_run(prog, ctx);

	nb_prog_put(prog);
	return r0;
}

#define MT_RUN(ctx, ...)                                                                    \
	({                                                                                  \
		const struct bpf_insn insns_[] = { __VA_ARGS__ };                          \
		mt_run(insns_, sizeof(insns_) / sizeof(insns_[0]), ctx);                   \
	})

/* r2 = r10 + off, the usual key pointer. */
#define MT_STACK_PTR(reg, off) NB_MOV64_REG(reg, BPF_REG_10), NB_ALU64_IMM(BPF_ADD, reg, off)

/* ldimm64 of a callback subprogram at insn offset rel from the next instruction. */
#define MT_LD_FUNC(d, rel) NB_LD_IMM64_RAW(d, BPF_PSEUDO_FUNC, rel)

#endif /* NB_TEST_MAP_TEST_H */
