/* SPDX-License-Identifier: GPL-2.0 */
/* struct nb_prog, the twin of the kernel's struct bpf_prog with its aux data folded in. */
#ifndef NB_BPF_PROG_H
#define NB_BPF_PROG_H

#include <netbpf/prog.h>

#include "bpf/insn.h"
#include "bpf/helper_proto.h"
#include "bpf/callback.h"

struct nb_prog_type_ops;
struct nb_btf;

/* Native entry of a JIT-compiled program: the SysV ABI puts r1 in rdi and r2 in rsi. */
typedef u64 (*nb_jited_fn)(u64 r1, u64 r2);
/* Native entry of a program JIT-compiled in checked mode; env is a struct nb_jit_env. */
typedef u64 (*nb_jited_checked_fn)(u64 r1, u64 r2, void *env);

/* One worker's share of a program's run statistics (bpf_prog_stats), a cache line each. */
struct nb_prog_stats {
	u64 run_cnt;
	u64 run_time_ns;
} __attribute__((aligned(64)));

struct nb_func_info {
	u32 start;
	u32 stack_depth;
};

/*
 * Load flags of the library's own, beside enum nb_prog_load_flags. NO_UNINIT_STACK verifies as
 * the kernel does for a loader without CAP_PERFMON (env->allow_uninit_stack off), refusing
 * every read of stack the program never wrote. NOTE_UNINIT_STACK verifies as usual and sets
 * nb_prog.uninit_stack_used when the verdict may rest on such reads: when it stays false, a
 * load with NO_UNINIT_STACK walks the same paths and accepts too. The soundness harness
 * (tests/runner/sound_run.c) uses both to learn whether results may depend on such bytes,
 * verifying a second time only when the first walk says they may.
 */
#define NB_PROG_LOAD_NO_UNINIT_STACK (1U << 31)
#define NB_PROG_LOAD_NOTE_UNINIT_STACK (1U << 30)

struct nb_prog {
	u32 id;
	int refcnt;
	enum bpf_prog_type type;
	enum bpf_attach_type expected_attach_type;
	const struct nb_prog_type_ops *ops;
	char name[BPF_OBJ_NAME_LEN];
	bool gpl_compatible;
	unsigned int load_flags;	/* enum nb_prog_load_flags */

	struct bpf_insn *orig_insns;	/* as loaded, map references resolved to pointers */
	u32 orig_len;
	struct bpf_insn *insns;		/* what the engines run: after the verifier's fixup */
	u32 len;
	u8 tag[BPF_TAG_SIZE];

	/*
	 * The BTF of its functions and lines (the kernel's prog->aux->btf, func_info, linfo), as
	 * given at load: instruction offsets are those of orig_insns until the fixup moves them
	 * to insns' (fixup.c). NULL and 0 without.
	 */
	struct nb_btf *btf;
	struct bpf_func_info *func_info;
	u32 func_info_cnt;
	struct bpf_line_info *linfo;
	u32 nr_linfo;

	struct nb_map **used_maps;	/* references held for the program's lifetime */
	u32 used_map_cnt;
	/* After fixup a helper call's imm indexes this table (the kernel patches an address). */
	nb_helper_fn *helpers;
	u32 helper_cnt;

	/* Callback subprograms named by BPF_PSEUDO_FUNC ldimm64 (bpf_loop, for_each_map_elem). */
	struct nb_callback *callbacks;
	u32 callback_cnt;

	u32 stack_depth;		/* deepest frame, bytes, as the verifier proved */
	/* Verified programs: each function's first instruction and stack bytes (JIT frames). */
	struct nb_func_info *funcs;
	u32 func_cnt;
	bool verified;
	/*
	 * NB_PROG_LOAD_NOTE_UNINIT_STACK: the walk read never-written stack, or proved a path
	 * safe only because such bytes read as unknown scalars (allow_uninit_stack).
	 */
	bool uninit_stack_used;
	u32 verified_insns;		/* instructions the verifier processed (bpf_prog_info's) */
	u64 load_time;			/* CLOCK_BOOTTIME ns at load, the kernel's aux->load_time */
	u32 uid;			/* the loader's real uid (aux->user) */

	nb_jited_fn jited;		/* NULL: the interpreter runs the program */
	nb_jited_checked_fn jited_checked; /* NB_PROG_LOAD_CHECKED: nb_prog_run_checked runs it */
	void *jit_image;
	size_t jit_size;
	u32 *jit_insn_offs;		/* native offset of each xlated instruction, for dumps */
	const void *jit_tail_entry;	/* where a tail call into this program jumps */

	struct nb_prog_stats *stats;	/* nr_stats entries, counted while nb_prog_stats_on */
	unsigned int nr_stats;
};

/* kernel.bpf_stats_enabled (nb_bpf_stats_enable): the static key's twin. */
extern bool nb_prog_stats_on;
/* A run counted and timed in this worker's statistics. */
u64 nb_prog_run_stats(const struct nb_prog *prog, const void *ctx);

/* Engines. */
u64 nb_interp_run(const struct nb_prog *prog, u64 r1, u64 r2);
/*
 * The interpreter running a tail call's target for the JIT: *tail_calls is the run's count of
 * tail calls so far, which the target's own tail calls go on counting.
 */
u64 nb_interp_run_chain(const struct nb_prog *prog, u64 r1, u32 *tail_calls);

/*
 * nb_prog_run for callers already inside an epoch read section (nb_epoch_read_lock or an
 * online worker): the kernel's bpf_prog_run under the caller's rcu_read_lock.
 */
static inline u64 nb_prog_run_locked(const struct nb_prog *prog, const void *ctx)
{
	if (unlikely(__atomic_load_n(&nb_prog_stats_on, __ATOMIC_RELAXED)))
		return nb_prog_run_stats(prog, ctx);
	if (prog->jited)
		return prog->jited((u64)(uintptr_t)ctx, 0);
	return nb_interp_run(prog, (u64)(uintptr_t)ctx, 0);
}

/*
 * prog_btf.c: the BTF information of nb_prog_load_opts copied into the program (record sizes
 * checked as the kernel checks them), freed with it; the line_info record that covers insn_off
 * (instructions as loaded), NULL when none does.
 */
int nb_prog_copy_btf_info(struct nb_prog *prog, const struct nb_prog_load_opts *opts,
			  struct nb_log *log);
void nb_prog_free_btf_info(struct nb_prog *prog);
const struct bpf_line_info *nb_prog_find_linfo(const struct nb_prog *prog, u32 insn_off);

/* Verifier entry: proves prog safe and applies the fixups (ctx rewrite, helper resolution). */
int nb_verify(struct nb_prog *prog, struct nb_log *log);

/* Structural checks every load passes first (check.c). */
int nb_check_insns(struct nb_prog *prog, struct nb_log *log);
/* Resolve helper ids into prog->helpers without a verifier proof (checked and unsafe loads). */
int nb_resolve_helpers(struct nb_prog *prog, struct nb_log *log);
/*
 * The fixups the engines need, without the proof (NB_PROG_LOAD_UNSAFE_NO_VERIFY): context
 * accesses found by a dataflow pass and rewritten, helpers resolved (verifier/unverified.c).
 */
int nb_fixup_unverified(struct nb_prog *prog, struct nb_log *log);
/* The index of fn in prog->helpers, added when missing; -ENOMEM. */
int nb_prog_helper_index(struct nb_prog *prog, nb_helper_fn fn);

#endif /* NB_BPF_PROG_H */
