// SPDX-License-Identifier: GPL-2.0
/*
 * After the proof: the combined stack of every call chain within the kernel's limit, and one
 * pass that patches the program (the twin of bpf_patch_insn_data) with
 *   - the context accesses rewritten by the program type into accesses of the datapath's own
 *     layout (convert_ctx_accesses). A narrow load of a wider field loads the whole field and
 *     shifts and masks, so types describe each field once;
 *   - bpf_map_lookup_elem on a map known at the call replaced by the map's own lookup in line
 *     (do_misc_fixups with map_gen_lookup): array index arithmetic, or a direct call of the
 *     hash table's element lookup with the step to the value.
 * Jump, call and callback offsets are recomputed over the patched program. Both engines run
 * the result, so the interpreter and the JIT never differ in what they execute.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/map.h"
#include "bpf/maps/gen_lookup.h"
#include "bpf/verifier/verifier.h"

#define NB_MAX_PATCH                                                                        \
	(NB_CTX_CONVERT_MAX > NB_MAP_GEN_LOOKUP_MAX ? NB_CTX_CONVERT_MAX : NB_MAP_GEN_LOOKUP_MAX)

static u32 round_up(u32 v, u32 a)
{
	return (v + a - 1) / a * a;
}

static u32 subprog_of(const struct nb_verifier_env *env, u32 insn)
{
	u32 i = 0;

	while (i + 1 < env->subprog_cnt && env->subprog[i + 1].start <= insn)
		i++;
	return i;
}

/* A frame's stack as the kernel's JIT allocates it: the verified depth rounded up to 16. */
static u32 frame_size(const struct nb_verifier_env *env, u32 idx)
{
	return round_up(env->subprog[idx].stack_depth, 16);
}

/*
 * The subprogram a walked call or callback reference at insn i enters, or -1. A timer callback
 * runs on a stack of its own (the kernel's async callbacks): only a direct call counts.
 */
static int walked_callee(const struct nb_verifier_env *env, u32 i)
{
	const struct bpf_insn *insn = &env->insns[i];
	u32 callee;

	if (!insn_is_pseudo_call(insn) &&
	    !(insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC))
		return -1;
	if (!env->aux[i].seen)
		return -1;
	callee = subprog_of(env, i + insn->imm + 1);
	if (!insn_is_pseudo_call(insn) && env->subprog[callee].is_async_cb)
		return -1;
	return callee;
}

struct chain {
	u32 depth;	/* bytes of the deepest chain from a subprogram down */
	u32 frames;	/* its frames up to the last that takes stack */
	u32 calls;	/* frames of the longest chain from the subprogram down */
	bool done;
};

/* The kernel's words: it counts the frames below the one that would be too many. */
static int too_deep(struct nb_verifier_env *env, u32 frames)
{
	verbose(env, "the call stack of %u frames is too deep !\n", frames - 1);
	return -E2BIG;
}

/*
 * Deepest stack and longest chain over every call chain starting at subprogram idx, reached
 * with frames frames (idx's included); memo[] keeps each subprogram's answer, so that many
 * calls to the same subprogram cost one walk. Global functions are verified on their own, so
 * this walk is what bounds the frames of chains through them.
 */
static int max_chain_depth(struct nb_verifier_env *env, u32 idx, u32 frames, struct chain *memo)
{
	struct chain deepest = { 0 };
	u32 longest = 0;

	if (frames > NB_MAX_CALL_FRAMES)
		return too_deep(env, frames);
	if (memo[idx].done)
		return frames - 1 + memo[idx].calls > NB_MAX_CALL_FRAMES ?
		       too_deep(env, frames - 1 + memo[idx].calls) : 0;
	for (u32 i = env->subprog[idx].start; i < env->subprog[idx + 1].start; i++) {
		int callee = walked_callee(env, i), err;

		if (callee < 0)
			continue;
		err = max_chain_depth(env, callee, frames + 1, memo);
		if (err)
			return err;
		if (memo[callee].depth > deepest.depth || !deepest.frames)
			deepest = memo[callee];
		if (memo[callee].calls > longest)
			longest = memo[callee].calls;
	}
	memo[idx].depth = frame_size(env, idx) + deepest.depth;
	/* The frames up to the last that takes stack, as the kernel counts them. */
	memo[idx].frames = 1 + (deepest.depth ? deepest.frames : 0);
	memo[idx].calls = 1 + longest;
	memo[idx].done = true;
	return 0;
}

/*
 * A tail call leaves its caller's frames on the stack while the target makes its own, up to 33
 * times: the kernel bounds the frames below a subprogram that tail-calls to 256 bytes (so that
 * a chain stays within 33 * 256 bytes). callers[s] receives the deepest stack of any chain of
 * callers of subprogram s (-1: no walked path calls it).
 */
static int check_tail_call_stack(struct nb_verifier_env *env)
{
	s32 callers[NB_MAX_SUBPROGS];

	for (u32 s = 0; s < env->subprog_cnt; s++)
		callers[s] = s ? -1 : 0;
	/* Chains are at most NB_MAX_CALL_FRAMES long: that many rounds reach every one. */
	for (u32 round = 0; round < NB_MAX_CALL_FRAMES; round++) {
		for (u32 c = 0; c < env->subprog_cnt; c++) {
			if (callers[c] < 0)
				continue;
			for (u32 i = env->subprog[c].start; i < env->subprog[c + 1].start; i++) {
				int s = walked_callee(env, i);
				s32 d = callers[c] + (s32)frame_size(env, c);

				if (s >= 0 && d > callers[s])
					callers[s] = d;
			}
		}
	}
	for (u32 s = 1; s < env->subprog_cnt; s++) {
		if (env->subprog[s].has_tail_call && callers[s] >= 256) {
			verbose(env, "tail_calls are not allowed when call stack of previous "
				"frames is %d bytes. Too large\n", callers[s]);
			return -EACCES;
		}
	}
	return 0;
}

int check_max_stack_depth(struct nb_verifier_env *env)
{
	struct chain memo[NB_MAX_SUBPROGS] = { 0 };
	u32 deepest_frame = 0;
	int err;

	/* The program's chains, and each timer callback's from its own stack. */
	for (u32 root = 0; root < env->subprog_cnt; root++) {
		if (root && !env->subprog[root].is_async_cb)
			continue;
		err = max_chain_depth(env, root, 1, memo);
		if (err)
			return err;
		if (memo[root].depth > NB_STACK_SIZE) {
			verbose(env, "combined stack size of %u calls is %u. Too large\n",
				memo[root].frames, memo[root].depth);
			return -EACCES;
		}
	}
	err = check_tail_call_stack(env);
	if (err)
		return err;
	for (u32 i = 0; i < env->subprog_cnt; i++)
		if (env->subprog[i].stack_depth > deepest_frame)
			deepest_frame = env->subprog[i].stack_depth;
	env->prog->stack_depth = round_up(deepest_frame, 8);
	return 0;
}

/*
 * Instructions replacing one context access; 0 leaves it as it is. The type rewrites narrow
 * loads itself (it reads exactly the bytes asked for).
 */
static int convert_one(struct nb_verifier_env *env, u32 i, struct bpf_insn *buf)
{
	struct bpf_insn insn = env->insns[i];
	enum nb_access_type t = insn_class(&insn) == BPF_LDX ? NB_READ : NB_WRITE;
	bool ldsx = t == NB_READ && BPF_MODE(insn.code) == BPF_MEMSX;
	u32 cnt;

	if (!env->ops->convert_ctx_access)
		return 0;
	/* A sign-extending load: the type converts a plain one, the sign is extended after. */
	if (ldsx)
		insn.code = BPF_LDX | BPF_MEM | BPF_SIZE(insn.code);
	cnt = env->ops->convert_ctx_access(t, &insn, buf, env->prog);
	if (!cnt || cnt + ldsx > NB_CTX_CONVERT_MAX) {
		verbose(env, "bpf verifier is misconfigured: ctx access at insn %u not "
			"converted\n", i);
		return -EINVAL;
	}
	if (ldsx)
		buf[cnt++] = (struct bpf_insn){
			.code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = insn.dst_reg,
			.src_reg = insn.dst_reg, .off = insn_size_bytes(&insn) * 8,
		};
	return cnt;
}

/* A lookup on a map every path agrees on, and whose type writes lookups in line. */
static bool inline_lookup(const struct nb_verifier_env *env, u32 i)
{
	const struct nb_insn_aux *aux = &env->aux[i];
	const struct bpf_insn *insn = &env->insns[i];

	return insn_is_helper_call(insn) && insn->imm == BPF_FUNC_map_lookup_elem && aux->seen &&
	       aux->map_ptr && !aux->map_poisoned && aux->map_ptr->ops->map_gen_lookup;
}

/* map_gen_lookup, with the call it may make entered in the program's helper table. */
static int gen_lookup(struct nb_verifier_env *env, u32 i, struct bpf_insn *buf)
{
	const struct nb_map *map = env->aux[i].map_ptr;
	nb_helper_fn fn = NULL;
	u32 cnt = map->ops->map_gen_lookup(map, buf, &fn);
	int idx;

	if (cnt > NB_MAP_GEN_LOOKUP_MAX) {
		verbose(env, "bpf verifier is misconfigured: lookup at insn %u too long\n", i);
		return -EINVAL;
	}
	for (u32 k = 0; k < cnt; k++) {
		if (!insn_is_call(&buf[k]) || buf[k].src_reg != NB_CALL_FIXED)
			continue;
		idx = fn ? nb_prog_helper_index(env->prog, fn) : -EINVAL;
		if (idx < 0)
			return idx;
		buf[k].imm = idx;
	}
	return cnt;
}

/* A load through a kernel struct pointer (btf_ptr.c), which the fixup rewrites. */
static bool kstruct_load(const struct nb_verifier_env *env, u32 i)
{
	u32 type = env->aux[i].ptr_type;

	return (type == CONST_PTR_TO_MAP || type == PTR_TO_BTF_ID) &&
	       insn_class(&env->insns[i]) == BPF_LDX;
}

/*
 * The map a read through a map pointer at insn i reads whenever it runs: the one every path
 * had there, unless it is the template of an inner map the program can look up (a template
 * stands for whichever inner map is put in later).
 */
static const struct nb_map *kstruct_fixed_map(const struct nb_verifier_env *env, u32 i)
{
	const struct nb_insn_aux *aux = &env->aux[i];
	const struct nb_prog *prog = env->prog;

	if (!aux->map_ptr || aux->map_poisoned || !aux->map_ptr->kstruct)
		return NULL;
	for (u32 k = 0; k < prog->used_map_cnt; k++)
		if (prog->used_maps[k]->inner_map_meta == aux->map_ptr)
			return NULL;
	return aux->map_ptr;
}

/*
 * A read of a map's kernel struct reads the map's image of it (map_kstruct.c), which the
 * verifier laid out for every map it saw and which never changes: a read of one known map is
 * its value, loaded as a constant. An inner map's is read from whichever map the pointer holds
 * (every inner map has one, kstruct_follow_inner_maps; the guard reads 0 should one not). A
 * read through a PTR_TO_BTF_ID, NULL whenever netbpf runs a program (btf_ptr.c), gives 0, as
 * the kernel's faulting load does.
 */
static int kstruct_patch(const struct nb_verifier_env *env, u32 i, struct bpf_insn *buf)
{
	struct bpf_insn insn = env->insns[i];
	const struct nb_map *map = kstruct_fixed_map(env, i);
	u8 dst = insn.dst_reg;

	if (env->aux[i].ptr_type == PTR_TO_BTF_ID) {
		buf[0] = gen_alu64_imm(BPF_MOV, dst, 0);
		return 1;
	}
	if (map) {
		u32 size = insn_size_bytes(&insn);
		u64 val = 0;

		memcpy(&val, (const u8 *)map->kstruct + insn.off, size);	/* little endian */
		if (BPF_MODE(insn.code) == BPF_MEMSX && size < 8)
			val = (u64)((s64)(val << (64 - size * 8)) >> (64 - size * 8));
		gen_ldimm64(buf, dst, val);
		return 2;
	}
	buf[0] = gen_ldx_dw(dst, insn.src_reg, offsetof(struct nb_map, kstruct));
	buf[1] = gen_jmp_imm(BPF_JEQ, dst, 0, 2);
	insn.src_reg = dst;
	buf[2] = insn;
	buf[3] = gen_ja(1);
	buf[4] = gen_alu64_imm(BPF_MOV, dst, 0);
	return 5;
}

/*
 * A read through an inner map reads the image of whichever map the pointer holds: those
 * already in the program's maps of maps get theirs now, if their template got its own after
 * they were put in (map_kstruct.c gives the ones put in later theirs).
 */
static int kstruct_follow_inner_maps(const struct nb_verifier_env *env)
{
	for (u32 k = 0; k < env->prog->used_map_cnt; k++) {
		int err = nb_map_kstruct_follow_inner_maps(env->prog->used_maps[k]);

		if (err)
			return err;
	}
	return 0;
}

/* The instructions replacing insn i: 0 keeps it. */
static int patch_one(struct nb_verifier_env *env, u32 i, struct bpf_insn *buf)
{
	if (!env->aux[i].seen)
		return 0;
	if (env->aux[i].ptr_type == PTR_TO_CTX)
		return convert_one(env, i, buf);
	if (kstruct_load(env, i))
		return kstruct_patch(env, i, buf);
	if (inline_lookup(env, i))
		return gen_lookup(env, i, buf);
	return 0;
}

static bool has_rel_target(const struct bpf_insn *insn, s32 **field)
{
	if (insn_is_ja(insn) && insn_class(insn) == BPF_JMP32) {
		*field = (s32 *)&insn->imm;
		return true;
	}
	if (insn_is_pseudo_call(insn) ||
	    (insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC)) {
		*field = (s32 *)&insn->imm;
		return true;
	}
	return insn_is_ja(insn) || insn_is_cond_jmp(insn);
}

/* Each function's start and stack bytes for the JIT, once the program has its final shape. */
static int record_funcs(struct nb_verifier_env *env, const u32 *new_idx)
{
	struct nb_prog *prog = env->prog;

	free(prog->funcs);
	prog->funcs = calloc(env->subprog_cnt, sizeof(*prog->funcs));
	if (!prog->funcs)
		return -ENOMEM;
	prog->func_cnt = env->subprog_cnt;
	for (u32 k = 0; k < env->subprog_cnt; k++) {
		if (new_idx)
			env->subprog[k].start = new_idx[env->subprog[k].start];
		prog->funcs[k].start = env->subprog[k].start;
		prog->funcs[k].stack_depth = env->subprog[k].stack_depth;
	}
	return 0;
}

/*
 * func_info and line_info follow their instructions to where the patches moved them (the
 * kernel's adjust_btf_func and bpf_adj_linfo), so that bpf_prog_info's records, and the
 * source lines prog dump xlated prints, count instructions of the program the engines run.
 * Only the verifier's log reads them before, on the program as loaded.
 */
static void adjust_btf_info(struct nb_prog *prog, const u32 *new_idx)
{
	for (u32 i = 0; i < prog->func_info_cnt; i++)
		prog->func_info[i].insn_off = new_idx[prog->func_info[i].insn_off];
	for (u32 i = 0; i < prog->nr_linfo; i++)
		prog->linfo[i].insn_off = new_idx[prog->linfo[i].insn_off];
}

/*
 * Code no verified path reaches: a conditional jump one of whose sides was never walked
 * becomes a jump to the other side (the kernel's opt_hard_wire_dead_code_branches), so that
 * the engines follow exactly the paths the proof covers even where a comparison was decided
 * by what the verifier knew rather than by the values; every instruction never walked becomes
 * a jump to itself (as the kernel's sanitize_dead_code), so that nothing unproven (a write to
 * r10, say) reaches an engine. The kernel removes such code from a privileged program; here it
 * stays in place, a trap nothing jumps to, and the program keeps its length.
 */
static void sanitize_dead_code(struct nb_verifier_env *env)
{
	for (u32 i = 0; i < env->len; i++) {
		struct bpf_insn *insn = &env->insns[i];

		/*
		 * The second half of a walked ldimm64 is never marked; that of a dead one follows
		 * its first half, which is a trap by then.
		 */
		if (i > 0 && insn_is_ldimm64(&env->insns[i - 1]))
			continue;
		if (!env->aux[i].seen) {
			*insn = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = -1 };
			continue;
		}
		if (!insn_is_cond_jmp(insn))
			continue;
		if (!env->aux[i + 1].seen)
			*insn = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = insn->off };
		else if (!env->aux[i + 1 + insn->off].seen)
			*insn = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = 0 };
	}
}

int fixup_insns(struct nb_verifier_env *env)
{
	struct bpf_insn buf[NB_MAX_PATCH], *out;
	u32 *new_idx, n = 0, cap;
	bool any = false, kstruct = false;
	int err = 0;

	sanitize_dead_code(env);
	for (u32 i = 0; i < env->len; i++) {
		kstruct |= kstruct_load(env, i);
		any |= (env->aux[i].ptr_type == PTR_TO_CTX && env->ops->convert_ctx_access) ||
		       inline_lookup(env, i);
	}
	if (!any && !kstruct)
		return record_funcs(env, NULL);
	if (kstruct) {
		err = kstruct_follow_inner_maps(env);
		if (err)
			return err;
	}
	cap = env->len * 2 + NB_MAX_PATCH;
	out = malloc(cap * sizeof(*out));
	new_idx = malloc((env->len + 1) * sizeof(*new_idx));
	if (!out || !new_idx) {
		err = -ENOMEM;
		goto out;
	}
	for (u32 i = 0; i < env->len; i++) {
		int cnt = 0;

		new_idx[i] = n;
		cnt = patch_one(env, i, buf);
		if (cnt < 0) {
			err = cnt;
			goto out;
		}
		if (n + NB_MAX_PATCH + 1 > cap) {
			struct bpf_insn *grown;

			cap *= 2;
			grown = realloc(out, cap * sizeof(*out));
			if (!grown) {
				err = -ENOMEM;
				goto out;
			}
			out = grown;
		}
		if (cnt) {
			memcpy(&out[n], buf, cnt * sizeof(*buf));
			n += cnt;
		} else {
			out[n++] = env->insns[i];
		}
	}
	new_idx[env->len] = n;
	/* Relative targets move with the instructions around them. */
	for (u32 i = 0; i < env->len; i++) {
		const struct bpf_insn *insn = &env->insns[i];
		struct bpf_insn *moved = &out[new_idx[i]];
		s32 *field = NULL;
		s64 target, rel;

		if (i > 0 && insn_is_ldimm64(&env->insns[i - 1]))
			continue;
		if (!has_rel_target(insn, &field))
			continue;
		target = (s64)i + 1 + (field ? *field : insn->off);
		rel = (s64)new_idx[target] - new_idx[i] - 1;
		if (field) {
			moved->imm = (s32)rel;
		} else {
			if (rel != (s16)rel) {
				verbose(env, "jump at insn %u is out of range after rewriting\n", i);
				err = -E2BIG;
				goto out;
			}
			moved->off = (s16)rel;
		}
	}
	err = record_funcs(env, new_idx);
	if (err)
		goto out;
	adjust_btf_info(env->prog, new_idx);
	free(env->prog->insns);
	env->prog->insns = out;
	env->prog->len = n;
	env->insns = out;
	out = NULL;
out:
	free(out);
	free(new_idx);
	return err;
}
