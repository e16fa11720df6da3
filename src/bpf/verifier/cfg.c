// SPDX-License-Identifier: GPL-2.0
/*
 * The control flow graph, before any state is walked: subprogram boundaries, a depth-first
 * search that finds unreachable instructions, loop heads (targets of back-edges, where the walk
 * always keeps a state to detect endless loops) and prune points (where states are compared),
 * and a backward dataflow of register liveness so that state comparison ignores dead registers.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/verifier/verifier.h"

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static bool is_pseudo_func(const struct bpf_insn *insn)
{
	return insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC;
}

int check_subprogs(struct nb_verifier_env *env)
{
	u32 starts[NB_MAX_SUBPROGS], n = 0;

	starts[n++] = 0;
	for (u32 i = 0; i < env->len; i++) {
		const struct bpf_insn *insn = &env->insns[i];
		u32 target;
		bool known = false;

		if (!insn_is_pseudo_call(insn) && !is_pseudo_func(insn)) {
			if (insn_is_ldimm64(insn))
				i++;
			continue;
		}
		target = i + insn->imm + 1;
		for (u32 j = 0; j < n; j++)
			known |= starts[j] == target;
		if (!known) {
			if (n >= NB_MAX_SUBPROGS) {
				verbose(env, "too many subprograms\n");
				return -E2BIG;
			}
			starts[n++] = target;
		}
		if (insn_is_ldimm64(insn))
			i++;
	}
	qsort(starts, n, sizeof(starts[0]), cmp_u32);
	/* Without BTF the kernel refuses tail calls outside the main program. */
	for (u32 i = n > 1 ? starts[1] : env->len; i < env->len; i++) {
		if (insn_is_helper_call(&env->insns[i]) && env->insns[i].imm == BPF_FUNC_tail_call) {
			verbose(env, "tail_call is not allowed in subprogs without BTF\n");
			return -EINVAL;
		}
	}
	for (u32 i = 0; i < n; i++)
		env->subprog[i].start = starts[i];
	env->subprog[n].start = env->len;
	env->subprog_cnt = n;
	return 0;
}

enum { WHITE = 0, GRAY, BLACK };

/* Successors of insn t inside its subprogram (calls continue at t + 1). */
static int successors(const struct nb_verifier_env *env, u32 t, u32 succ[2])
{
	const struct bpf_insn *insn = &env->insns[t];
	int n = 0;

	if (insn_is_exit(insn))
		return 0;
	if (insn_is_ja(insn)) {
		succ[n++] = t + insn_jmp_off(insn) + 1;
		return n;
	}
	if (insn_is_ldimm64(insn)) {
		succ[n++] = t + 2;
		return n;
	}
	if (insn_class(insn) == BPF_LD && env->ops->ld_abs) {
		succ[n++] = t + 1;
		return n;
	}
	succ[n++] = t + 1;
	if (insn_is_cond_jmp(insn))
		succ[n++] = t + insn->off + 1;
	return n;
}

/*
 * Iterative depth-first search from every subprogram entry reachable from the main program:
 * GRAY nodes are on the stack, so an edge to one is a back-edge (a loop).
 */
int check_cfg(struct nb_verifier_env *env)
{
	u32 len = env->len, *stack, sp = 0;
	u8 *color, *next_succ;
	int err = 0;

	color = calloc(len, 1);
	next_succ = calloc(len, 1);
	stack = malloc(len * sizeof(*stack));
	if (!color || !next_succ || !stack) {
		err = -ENOMEM;
		goto out;
	}
	/* Entry points: insn 0; subprograms are entered through their call sites below. */
	color[0] = GRAY;
	stack[sp++] = 0;
	env->aux[0].prune_point = true;
	while (sp) {
		u32 t = stack[sp - 1], succ[2];
		const struct bpf_insn *insn = &env->insns[t];
		int n = successors(env, t, succ);

		/* Calls reach the callee's entry too; the callee is its own search. */
		if (next_succ[t] == 0 && (insn_is_pseudo_call(insn) || is_pseudo_func(insn))) {
			u32 target = t + insn->imm + 1;

			env->aux[target].prune_point = true;
			if (color[target] == WHITE) {
				color[target] = GRAY;
				stack[sp++] = target;
				next_succ[t] = 0x80;	/* callee pushed; successors next */
				continue;
			}
		}
		if ((next_succ[t] & 0x7f) < n) {
			u32 w = succ[next_succ[t] & 0x7f];

			next_succ[t]++;
			if (insn_is_cond_jmp(insn) || insn_is_ja(insn)) {
				env->aux[w].prune_point = true;
				if (insn_is_cond_jmp(insn))
					env->aux[t + 1].prune_point = true;
			}
			if (insn_is_call(insn))
				env->aux[w].prune_point = true;
			if (color[w] == WHITE) {
				color[w] = GRAY;
				stack[sp++] = w;
			} else if (color[w] == GRAY) {
				/* A loop: always keep a state at its head. */
				env->aux[w].prune_point = true;
				env->aux[w].force_checkpoint = true;
			}
			continue;
		}
		color[t] = BLACK;
		sp--;
	}
	for (u32 i = 0; i < len; i++) {
		if (color[i] == BLACK)
			continue;
		if (i > 0 && insn_is_ldimm64(&env->insns[i - 1]) && color[i - 1] == BLACK)
			continue;
		verbose(env, "unreachable insn %u\n", i);
		err = -EINVAL;
		break;
	}
	/* A helper call with a callback is where callback iterations converge. */
	for (u32 i = 0; i < len; i++) {
		if (insn_is_helper_call(&env->insns[i]) &&
		    (env->insns[i].imm == BPF_FUNC_loop ||
		     env->insns[i].imm == BPF_FUNC_for_each_map_elem)) {
			env->aux[i].prune_point = true;
			env->aux[i].force_checkpoint = true;
		}
	}
out:
	free(color);
	free(next_succ);
	free(stack);
	return err;
}

#define REGS_ARGS  (0x3e)	/* R1-R5 */
#define REGS_CALL  (0x3f)	/* R0-R5 */

/* Registers insn reads and writes. */
static void insn_use_def(const struct nb_verifier_env *env, const struct bpf_insn *insn,
			 u16 *use, u16 *def)
{
	u8 cls = insn_class(insn), op = BPF_OP(insn->code);
	u16 d = 1u << insn->dst_reg, s = 1u << insn->src_reg;

	*use = 0;
	*def = 0;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_MOV) {
			*use = BPF_SRC(insn->code) == BPF_X ? s : 0;
		} else {
			*use = d | (BPF_SRC(insn->code) == BPF_X && op != BPF_NEG &&
				    op != BPF_END ? s : 0);
		}
		*def = d;
		return;
	case BPF_LDX:
		*use = s;
		*def = d;
		return;
	case BPF_ST:
		*use = d;
		return;
	case BPF_STX:
		*use = d | s;
		if (BPF_MODE(insn->code) == BPF_ATOMIC) {
			if (insn->imm == BPF_CMPXCHG) {
				*use |= 1;
				*def = 1;
			} else if (insn->imm & BPF_FETCH) {
				*def = s;
			}
		}
		return;
	case BPF_LD:
		if (insn_is_ldimm64(insn)) {
			*def = d;
			return;
		}
		*use = 1u << BPF_REG_6 | (BPF_MODE(insn->code) == BPF_IND ? s : 0);
		*def = REGS_CALL;
		return;
	default:
		if (op == BPF_CALL) {
			*use = REGS_ARGS;
			*def = REGS_CALL;
		} else if (op == BPF_EXIT) {
			*use = 1;
		} else if (op != BPF_JA) {
			*use = d | (BPF_SRC(insn->code) == BPF_X ? s : 0);
		}
		return;
	}
}

/* live_in = use | (live_out & ~def), iterated backwards to a fixed point. */
void compute_liveness(struct nb_verifier_env *env)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (u32 i = env->len; i-- > 0;) {
			const struct bpf_insn *insn = &env->insns[i];
			u16 use, def, out = 0, in;
			u32 succ[2];
			int n;

			if (i > 0 && insn_is_ldimm64(&env->insns[i - 1]))
				continue;	/* second half */
			n = successors(env, i, succ);
			for (int k = 0; k < n; k++)
				if (succ[k] < env->len)
					out |= env->aux[succ[k]].live_regs;
			insn_use_def(env, insn, &use, &def);
			in = use | (out & ~def);
			/* r10 is always live: it is the frame. */
			in |= 1u << BPF_REG_10;
			if (in != env->aux[i].live_regs) {
				env->aux[i].live_regs = in;
				changed = true;
			}
		}
	}
}

/*
 * Registers whose value may decide safety (the static twin of the kernel's precision marks):
 * a register is "precise" at an instruction when its value may flow, along some path, into a
 * comparison, an address, a helper or subprogram argument, a store, or a checked return value.
 * An explored state's scalar that is not precise here proves nothing about the value, so state
 * comparison may ignore it. Dependencies flow backwards through ALU operations and moves.
 */
void compute_precision(struct nb_verifier_env *env)
{
	bool ret_checked = env->ops->retval_range != NULL;
	bool changed = true;

	while (changed) {
		changed = false;
		for (u32 i = env->len; i-- > 0;) {
			const struct bpf_insn *insn = &env->insns[i];
			u16 out = 0, in, d = 1u << insn->dst_reg, sreg = 1u << insn->src_reg;
			u8 cls = insn_class(insn), op = BPF_OP(insn->code);
			u32 succ[2];
			int n;

			if (i > 0 && insn_is_ldimm64(&env->insns[i - 1]))
				continue;
			n = successors(env, i, succ);
			for (int k = 0; k < n; k++)
				if (succ[k] < env->len)
					out |= env->aux[succ[k]].precise_regs;
			switch (cls) {
			case BPF_ALU:
			case BPF_ALU64:
				in = out & ~d;
				if (out & d) {
					if (op != BPF_MOV)
						in |= d;
					if (BPF_SRC(insn->code) == BPF_X && op != BPF_END)
						in |= sreg;
				}
				break;
			case BPF_LDX:
				in = (out & ~d) | sreg;
				break;
			case BPF_ST:
				in = out | d;
				break;
			case BPF_STX:
				in = out | d | sreg;
				if (insn_is_atomic(insn) && insn->imm == BPF_CMPXCHG)
					in |= 1;
				break;
			case BPF_LD:
				if (insn_is_ldimm64(insn))
					in = out & ~d;
				else
					in = (out & ~0x3fu) | (1u << BPF_REG_6);
				break;
			default:
				if (op == BPF_CALL) {
					in = (out & ~0x3fu) | 0x3e;
				} else if (op == BPF_EXIT) {
					/* A subprogram's R0 flows on into its caller. */
					in = ret_checked || i >= env->subprog[1].start ? 1 : 0;
				} else if (op == BPF_JA) {
					in = out;
				} else {
					in = out | d | (BPF_SRC(insn->code) == BPF_X ? sreg : 0);
				}
				break;
			}
			if (in != env->aux[i].precise_regs) {
				env->aux[i].precise_regs = in;
				changed = true;
			}
		}
	}
}
