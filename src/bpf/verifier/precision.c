// SPDX-License-Identifier: GPL-2.0
/*
 * Precision tracking, the twin of the kernel's mark_chain_precision. Scalars start imprecise:
 * an explored state's imprecise scalar matches any scalar when states are compared, so paths
 * that differ only in values nothing depends on are pruned. When a scalar's value decides
 * safety (a pointer offset, a branch the walk did not take, a helper's size argument), the
 * walk backtracks through the instructions that produced it, along the current path, and
 * marks every register and spilled slot it came from precise in the explored states (the
 * checkpoints) above: from then on those states only match states whose values are within
 * theirs.
 *
 * Each state keeps the instructions walked since its checkpoint as a jump history (the
 * instructions reached other than by falling through, spills and fills of the stack, and
 * registers linked by a shared scalar id at a branch). backtrack_insn turns "registers needed
 * after insn" into "registers needed before insn", one instruction at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "bpf/verifier/verifier.h"

#define REGMASK_ARGS	0x3eu	/* R1-R5 */

/* Linked registers in one u64: up to 6 entries of 10 bits, the count in the low 4 bits. */
#define LR_FRAMENO_BITS	3
#define LR_SPI_BITS	6
#define LR_ENTRY_BITS	(LR_SPI_BITS + LR_FRAMENO_BITS + 1)
#define LR_SIZE_BITS	4
#define LR_FRAMENO_MASK	((1u << LR_FRAMENO_BITS) - 1)
#define LR_SPI_MASK	((1u << LR_SPI_BITS) - 1)
#define LR_SIZE_MASK	((1u << LR_SIZE_BITS) - 1)
#define LR_SPI_OFF	LR_FRAMENO_BITS
#define LR_IS_REG_OFF	(LR_SPI_BITS + LR_FRAMENO_BITS)
#define LINKED_REGS_MAX	6

struct linked_reg {
	u8 frameno;
	u8 regno;	/* register, or stack slot when !is_reg */
	bool is_reg;
};

struct linked_regs {
	int cnt;
	struct linked_reg entries[LINKED_REGS_MAX];
};

u32 insn_stack_access_flags(u32 frameno, u32 spi)
{
	return NB_INSN_F_STACK_ACCESS | (spi << NB_INSN_F_SPI_SHIFT) | frameno;
}

static u32 insn_stack_access_spi(u32 flags)
{
	return (flags >> NB_INSN_F_SPI_SHIFT) & NB_INSN_F_SPI_MASK;
}

static u32 insn_stack_access_frameno(u32 flags)
{
	return flags & NB_INSN_F_FRAMENO_MASK;
}

void clear_jmp_history(struct nb_verifier_state *st)
{
	free(st->jmp_history);
	st->jmp_history = NULL;
	st->jmp_history_cnt = 0;
	st->jmp_history_cap = 0;
}

/*
 * Record the instruction being checked (env->insn_idx, reached from env->prev_insn_idx) in the
 * history of the current state; a second record for the same instruction adds its flags to
 * the first.
 */
int push_jmp_history(struct nb_verifier_env *env, struct nb_verifier_state *st, u32 flags,
		     u64 linked_regs)
{
	struct nb_jmp_history_entry *p;

	if (env->cur_hist_ent >= 0) {
		p = &st->jmp_history[env->cur_hist_ent];
		p->flags |= flags;
		if (linked_regs)
			p->linked_regs = linked_regs;
		return 0;
	}
	if (st->jmp_history_cnt == st->jmp_history_cap) {
		u32 cap = st->jmp_history_cap ? st->jmp_history_cap * 2 : 8;

		p = realloc(st->jmp_history, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		st->jmp_history = p;
		st->jmp_history_cap = cap;
	}
	p = &st->jmp_history[st->jmp_history_cnt];
	p->idx = env->insn_idx;
	p->prev_idx = env->prev_insn_idx;
	p->flags = flags;
	p->linked_regs = linked_regs;
	env->cur_hist_ent = st->jmp_history_cnt++;
	return 0;
}

static const struct nb_jmp_history_entry *get_jmp_hist_entry(const struct nb_verifier_state *st,
							     u32 hist_end, u32 insn_idx)
{
	if (hist_end > 0 && st->jmp_history[hist_end - 1].idx == insn_idx)
		return &st->jmp_history[hist_end - 1];
	return NULL;
}

/*
 * The instruction before i on the path, or -1 when i is where this state's stretch of the
 * path begins. A loop may come back to first_insn_idx within one state: history left over
 * means the walk is not done yet.
 */
static s64 get_prev_insn_idx(const struct nb_verifier_state *st, u32 i, u32 *history)
{
	u32 cnt = *history;

	if (i == st->first_insn_idx) {
		if (cnt == 0)
			return -1;
		if (cnt == 1 && st->jmp_history[0].idx == i)
			return -1;
	}
	if (cnt && st->jmp_history[cnt - 1].idx == i) {
		(*history)--;
		return st->jmp_history[cnt - 1].prev_idx;
	}
	return (s64)i - 1;
}

static void linked_regs_push(struct linked_regs *s, u32 frameno, u32 regno, bool is_reg)
{
	struct linked_reg *e = &s->entries[s->cnt++];

	e->frameno = frameno;
	e->regno = regno;
	e->is_reg = is_reg;
}

static u64 linked_regs_pack(const struct linked_regs *s)
{
	u64 val = 0;

	for (int i = 0; i < s->cnt; i++) {
		const struct linked_reg *e = &s->entries[i];
		u64 tmp = e->frameno | (u64)e->regno << LR_SPI_OFF |
			  (u64)(e->is_reg ? 1 : 0) << LR_IS_REG_OFF;

		val <<= LR_ENTRY_BITS;
		val |= tmp;
	}
	val <<= LR_SIZE_BITS;
	return val | s->cnt;
}

static void linked_regs_unpack(u64 val, struct linked_regs *s)
{
	s->cnt = val & LR_SIZE_MASK;
	val >>= LR_SIZE_BITS;
	for (int i = 0; i < s->cnt; i++) {
		struct linked_reg *e = &s->entries[i];

		e->frameno = val & LR_FRAMENO_MASK;
		e->regno = (val >> LR_SPI_OFF) & LR_SPI_MASK;
		e->is_reg = (val >> LR_IS_REG_OFF) & 1;
		val >>= LR_ENTRY_BITS;
	}
}

/*
 * Scalars sharing id: at most LINKED_REGS_MAX are recorded; the others lose the id, so that a
 * branch refines exactly the registers whose precision backtracking will link.
 */
static void collect_linked_regs(struct nb_verifier_state *vstate, u32 id, struct linked_regs *s)
{
	/* Linked by a constant or not, the same base id. */
	id &= ~NB_ADD_CONST;
	for (int fr = vstate->curframe; fr >= 0; fr--) {
		struct nb_func_state *func = vstate->frame[fr];

		for (u32 i = 0; i < BPF_REG_10; i++) {
			struct nb_reg_state *reg = &func->regs[i];

			if (reg->type != SCALAR_VALUE || (reg->id & ~NB_ADD_CONST) != id)
				continue;
			if (s->cnt < LINKED_REGS_MAX) {
				linked_regs_push(s, fr, i, true);
			} else {
				reg->id = 0;
				reg->off = 0;
			}
		}
		for (u32 i = 0; i < func->allocated_stack / NB_REG_SIZE; i++) {
			struct nb_reg_state *reg = &func->stack[i].spilled_ptr;

			if (!slot_has_spill(&func->stack[i]) || reg->type != SCALAR_VALUE ||
			    (reg->id & ~NB_ADD_CONST) != id)
				continue;
			if (s->cnt < LINKED_REGS_MAX) {
				linked_regs_push(s, fr, i, false);
			} else {
				reg->id = 0;
				reg->off = 0;
			}
		}
	}
}

/*
 * Before an undecided branch on dst (and src) refines the scalars linked to them: record the
 * links in the history, where both sides of the branch inherit them.
 */
int push_linked_regs(struct nb_verifier_env *env, const struct nb_reg_state *dst,
		     const struct nb_reg_state *src)
{
	struct linked_regs s = { 0 };
	u32 src_id = src && src->type == SCALAR_VALUE ? src->id : 0;
	u32 dst_id = dst->type == SCALAR_VALUE ? dst->id : 0;

	if (src_id)
		collect_linked_regs(env->cur, src_id, &s);
	if (dst_id && (dst_id & ~NB_ADD_CONST) != (src_id & ~NB_ADD_CONST))
		collect_linked_regs(env->cur, dst_id, &s);
	if (s.cnt > 1)
		return push_jmp_history(env, env->cur, 0, linked_regs_pack(&s));
	return 0;
}

static bool bt_empty(const struct nb_backtrack_state *bt)
{
	u64 mask = 0;

	for (u32 i = 0; i <= bt->frame; i++)
		mask |= bt->reg_masks[i] | bt->stack_masks[i];
	return mask == 0;
}

static void bt_reset(struct nb_backtrack_state *bt)
{
	memset(bt, 0, sizeof(*bt));
}

static void bt_set_frame_reg(struct nb_backtrack_state *bt, u32 frame, u32 reg)
{
	bt->reg_masks[frame] |= 1u << reg;
}

static void bt_clear_frame_reg(struct nb_backtrack_state *bt, u32 frame, u32 reg)
{
	bt->reg_masks[frame] &= ~(1u << reg);
}

static void bt_set_reg(struct nb_backtrack_state *bt, u32 reg)
{
	bt_set_frame_reg(bt, bt->frame, reg);
}

static void bt_clear_reg(struct nb_backtrack_state *bt, u32 reg)
{
	bt_clear_frame_reg(bt, bt->frame, reg);
}

static void bt_set_frame_slot(struct nb_backtrack_state *bt, u32 frame, u32 slot)
{
	bt->stack_masks[frame] |= 1ull << slot;
}

static void bt_clear_frame_slot(struct nb_backtrack_state *bt, u32 frame, u32 slot)
{
	bt->stack_masks[frame] &= ~(1ull << slot);
}

static bool bt_is_reg_set(const struct nb_backtrack_state *bt, u32 reg)
{
	return bt->reg_masks[bt->frame] & (1u << reg);
}

static bool bt_is_frame_reg_set(const struct nb_backtrack_state *bt, u32 frame, u32 reg)
{
	return bt->reg_masks[frame] & (1u << reg);
}

static bool bt_is_frame_slot_set(const struct nb_backtrack_state *bt, u32 frame, u32 slot)
{
	return bt->stack_masks[frame] & (1ull << slot);
}

/* A register linked at this branch is needed: so are all registers linked to it. */
static void bt_sync_linked_regs(struct nb_backtrack_state *bt,
				const struct nb_jmp_history_entry *hist)
{
	struct linked_regs s;
	bool some_precise = false;

	if (!hist || !hist->linked_regs)
		return;
	linked_regs_unpack(hist->linked_regs, &s);
	for (int i = 0; i < s.cnt; i++) {
		const struct linked_reg *e = &s.entries[i];

		if ((e->is_reg && bt_is_frame_reg_set(bt, e->frameno, e->regno)) ||
		    (!e->is_reg && bt_is_frame_slot_set(bt, e->frameno, e->regno))) {
			some_precise = true;
			break;
		}
	}
	if (!some_precise)
		return;
	for (int i = 0; i < s.cnt; i++) {
		const struct linked_reg *e = &s.entries[i];

		if (e->is_reg)
			bt_set_frame_reg(bt, e->frameno, e->regno);
		else
			bt_set_frame_slot(bt, e->frameno, e->regno);
	}
}

/* Backtracking cannot follow this instruction: every scalar is made precise instead. */
#define BT_GIVE_UP 1

/*
 * Back into a callee from the instruction after its call (or from the helper that called a
 * callback): the callee left there, by its exit or early (a tail call that hit, an LD_ABS
 * that failed). A callback's R1-R5 were set by the helper; a function's result R0 is the
 * callee's R0 after an exit (r0_is_callees), the tail call's target's or 0 after an early
 * return.
 */
static int bt_return_into_callee(struct nb_verifier_env *env, s64 subseq_idx,
				 struct nb_backtrack_state *bt, bool r0_is_callees)
{
	bool r0_precise;

	if (subseq_idx >= 0 && env->aux[subseq_idx].calls_callback)
		for (u32 i = BPF_REG_1; i <= BPF_REG_5; i++)
			bt_clear_reg(bt, i);
	if (bt->reg_masks[bt->frame] & REGMASK_ARGS)
		return BT_GIVE_UP;
	r0_precise = r0_is_callees && subseq_idx >= 1 &&
		     insn_is_pseudo_call(&env->insns[subseq_idx - 1]) &&
		     bt_is_reg_set(bt, BPF_REG_0);
	bt_clear_reg(bt, BPF_REG_0);
	if (bt->frame + 1 >= NB_MAX_CALL_FRAMES)
		return BT_GIVE_UP;
	bt->frame++;
	if (r0_precise)
		bt_set_reg(bt, BPF_REG_0);
	return 0;
}

/*
 * Registers and slots needed after insn idx become those needed before it. subseq_idx is the
 * instruction that followed idx on the path (the previous one backtracked).
 */
static int backtrack_insn(struct nb_verifier_env *env, u32 idx, s64 subseq_idx,
			  const struct nb_jmp_history_entry *hist, struct nb_backtrack_state *bt)
{
	const struct bpf_insn *insn = &env->insns[idx];
	u8 class = insn_class(insn), opcode = BPF_OP(insn->code);
	u32 dreg = insn->dst_reg, sreg = insn->src_reg, spi, fr;

	if (insn->code == 0)
		return 0;	/* second half of ldimm64 */
	bt_sync_linked_regs(bt, hist);

	switch (class) {
	case BPF_ALU:
	case BPF_ALU64:
		if (!bt_is_reg_set(bt, dreg))
			return 0;
		if (opcode == BPF_END || opcode == BPF_NEG)
			return 0;	/* dreg still needed before */
		if (opcode == BPF_MOV) {
			bt_clear_reg(bt, dreg);
			if (BPF_SRC(insn->code) == BPF_X && sreg != BPF_REG_10)
				bt_set_reg(bt, sreg);
		} else if (BPF_SRC(insn->code) == BPF_X && sreg != BPF_REG_10) {
			bt_set_reg(bt, sreg);	/* dreg op= sreg: both needed before */
		}
		break;
	case BPF_LDX:
		if (!bt_is_reg_set(bt, dreg))
			return 0;
		bt_clear_reg(bt, dreg);
		/* Only a fill from the stack carries a scalar whose origin matters. */
		if (!hist || !(hist->flags & NB_INSN_F_STACK_ACCESS))
			return 0;
		spi = insn_stack_access_spi(hist->flags);
		fr = insn_stack_access_frameno(hist->flags);
		bt_set_frame_slot(bt, fr, spi);
		break;
	case BPF_STX:
	case BPF_ST:
		if (bt_is_reg_set(bt, dreg))
			return BT_GIVE_UP;	/* a scalar used as an address */
		if (insn_is_atomic(insn)) {
			/* A fetching atomic writes a register from memory. */
			if ((insn->imm == BPF_CMPXCHG && bt_is_reg_set(bt, BPF_REG_0)) ||
			    ((insn->imm & BPF_FETCH) && bt_is_reg_set(bt, sreg)))
				return BT_GIVE_UP;
		}
		if (!hist || !(hist->flags & NB_INSN_F_STACK_ACCESS))
			return 0;
		spi = insn_stack_access_spi(hist->flags);
		fr = insn_stack_access_frameno(hist->flags);
		if (!bt_is_frame_slot_set(bt, fr, spi))
			return 0;
		if (insn_is_atomic(insn))
			return BT_GIVE_UP;
		bt_clear_frame_slot(bt, fr, spi);
		if (class == BPF_STX)
			bt_set_reg(bt, sreg);
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (insn_is_pseudo_call(insn)) {
			int callee = find_subprog(env, idx + insn->imm + 1);

			if (callee >= 0 && env->subprog[callee].is_global) {
				/*
				 * A global function is not walked at its call: it sets R0 (an
				 * unknown scalar) and leaves R1-R5 unreadable.
				 */
				if (bt->reg_masks[bt->frame] & REGMASK_ARGS)
					return BT_GIVE_UP;
				bt_clear_reg(bt, BPF_REG_0);
				return 0;
			}
			/*
			 * Back at the call from the callee's first instruction: leaving the
			 * callee. Only its arguments can still be needed; they come from the
			 * caller's registers.
			 */
			if (bt->reg_masks[bt->frame] & ~REGMASK_ARGS ||
			    bt->stack_masks[bt->frame] || bt->frame == 0)
				return BT_GIVE_UP;
			for (u32 i = BPF_REG_1; i <= BPF_REG_5; i++) {
				if (bt_is_reg_set(bt, i)) {
					bt_clear_reg(bt, i);
					bt_set_frame_reg(bt, bt->frame - 1, i);
				}
			}
			bt->frame--;
			return 0;
		}
		if (is_sync_callback_calling_insn(insn) && (s64)idx != subseq_idx - 1) {
			/*
			 * Back at the helper from the callback's first instruction: the
			 * callback's arguments come from the helper, not from the caller.
			 */
			if (bt->reg_masks[bt->frame] & ~REGMASK_ARGS ||
			    bt->stack_masks[bt->frame] || bt->frame == 0)
				return BT_GIVE_UP;
			bt->reg_masks[bt->frame] = 0;
			bt->frame--;
			return 0;
		}
		if (opcode == BPF_CALL) {
			/* A helper sets R0 and reads only R1-R5, already found above. */
			bt_clear_reg(bt, BPF_REG_0);
			if (bt->reg_masks[bt->frame] & REGMASK_ARGS)
				return BT_GIVE_UP;
			/* A tail call that hit returned to the caller: its R0 is the target's. */
			if (insn->imm == BPF_FUNC_tail_call && subseq_idx >= 0 &&
			    subseq_idx != (s64)idx + 1)
				return bt_return_into_callee(env, subseq_idx, bt, false);
			break;
		}
		if (opcode == BPF_EXIT)
			return bt_return_into_callee(env, subseq_idx, bt, true);
		if (BPF_SRC(insn->code) == BPF_X && insn_is_cond_jmp(insn)) {
			if (!bt_is_reg_set(bt, dreg) && !bt_is_reg_set(bt, sreg))
				return 0;
			/* Both operands of a comparison decided together. */
			if (!hist || !(hist->flags & NB_INSN_F_SRC_REG_STACK))
				bt_set_reg(bt, sreg);
			if (!hist || !(hist->flags & NB_INSN_F_DST_REG_STACK))
				bt_set_reg(bt, dreg);
		}
		break;
	case BPF_LD:
		if (BPF_MODE(insn->code) != BPF_IMM) {
			/* LD_ABS/LD_IND: a packet read, not followed */
			if (bt_is_reg_set(bt, BPF_REG_0))
				return BT_GIVE_UP;
			/* One that failed in a subprogram returned 0 to the caller. */
			if (subseq_idx >= 0 && subseq_idx != (s64)idx + 1)
				return bt_return_into_callee(env, subseq_idx, bt, false);
			return 0;
		}
		if (!bt_is_reg_set(bt, dreg))
			return 0;
		bt_clear_reg(bt, dreg);
		break;
	}
	bt_sync_linked_regs(bt, hist);
	return 0;
}

static void mark_reg_precise(struct nb_reg_state *reg, bool *changed)
{
	if (reg->type != SCALAR_VALUE || reg->precise)
		return;
	reg->precise = true;
	*changed = true;
}

/*
 * The fallback: every scalar of every explored state above st is precise. Always sound, it
 * only costs pruning. st itself (the current state) needs no marks.
 */
void mark_all_scalars_precise(struct nb_verifier_state *st)
{
	struct nb_reg_state *reg;
	bool changed = false;

	for (st = st->parent; st; st = st->parent) {
		for (u32 fr = 0; fr <= st->curframe; fr++) {
			struct nb_func_state *func = st->frame[fr];

			for (u32 i = 0; i < BPF_REG_10; i++)
				mark_reg_precise(&func->regs[i], &changed);
			for (u32 i = 0; i < func->allocated_stack / NB_REG_SIZE; i++) {
				if (!slot_has_spill(&func->stack[i]))
					continue;
				reg = &func->stack[i].spilled_ptr;
				mark_reg_precise(reg, &changed);
			}
		}
	}
}

/*
 * A state about to become a checkpoint forgets the precision it inherited: marks come back
 * only from what its own continuations need, making it match more states later.
 */
void mark_all_scalars_imprecise(struct nb_verifier_state *st)
{
	for (u32 fr = 0; fr <= st->curframe; fr++) {
		struct nb_func_state *func = st->frame[fr];

		for (u32 i = 0; i < BPF_REG_10; i++)
			func->regs[i].precise = false;
		for (u32 i = 0; i < func->allocated_stack / NB_REG_SIZE; i++)
			func->stack[i].spilled_ptr.precise = false;
	}
}

/*
 * Backtrack from starting_state (the registers and slots in env->bt, plus regno when >= 0)
 * and mark what they depend on precise in the explored states above it. *changed tells
 * whether any mark was new.
 */
static int __mark_chain_precision(struct nb_verifier_env *env,
				  struct nb_verifier_state *starting_state, int regno,
				  bool *changed)
{
	struct nb_backtrack_state *bt = &env->bt;
	struct nb_verifier_state *st = starting_state;
	s64 first_idx = st->first_insn_idx, last_idx = starting_state->insn_idx;
	s64 subseq_idx = -1;
	bool tmp, skip_first = true;

	changed = changed ?: &tmp;
	bt->frame = starting_state->curframe;
	if (regno >= 0) {
		if (st->frame[bt->frame]->regs[regno].type != SCALAR_VALUE)
			return 0;
		bt_set_reg(bt, regno);
	}
	if (bt_empty(bt))
		return 0;

	for (;;) {
		u32 history = st->jmp_history_cnt;

		if (last_idx < 0) {
			/*
			 * The start of a function verified on its own (a global function): its
			 * arguments were marked in st above and come from its callers, whose
			 * calls are checked against its prototype only.
			 */
			if (st->curframe == 0 && !bt->stack_masks[0] &&
			    !(bt->reg_masks[0] & ~REGMASK_ARGS)) {
				bt_reset(bt);
				return 0;
			}
			break;	/* anything else needed: give up below */
		}
		for (s64 i = last_idx;;) {
			int err = 0;

			if (skip_first)
				skip_first = false;
			else
				err = backtrack_insn(env, i, subseq_idx,
						     get_jmp_hist_entry(st, history, i), bt);
			if (err == BT_GIVE_UP) {
				mark_all_scalars_precise(starting_state);
				bt_reset(bt);
				return 0;
			}
			if (bt_empty(bt))
				return 0;	/* everything found within this state */
			subseq_idx = i;
			i = get_prev_insn_idx(st, i, &history);
			if (i < 0)
				break;
			if (i >= env->len) {
				mark_all_scalars_precise(starting_state);
				bt_reset(bt);
				return 0;
			}
		}
		st = st->parent;
		if (!st)
			break;

		for (int fr = bt->frame; fr >= 0; fr--) {
			struct nb_func_state *func = st->frame[fr];

			for (u32 regs = bt->reg_masks[fr]; regs; regs &= regs - 1) {
				u32 i = __builtin_ctz(regs);
				struct nb_reg_state *reg = &func->regs[i];

				if (reg->type != SCALAR_VALUE || reg->precise)
					bt_clear_frame_reg(bt, fr, i);
				else
					mark_reg_precise(reg, changed);
			}
			for (u64 slots = bt->stack_masks[fr]; slots; slots &= slots - 1) {
				u32 i = __builtin_ctzll(slots);
				struct nb_stack_slot *slot;

				if (i >= func->allocated_stack / NB_REG_SIZE) {
					/* A slot the state never had: something was missed. */
					mark_all_scalars_precise(starting_state);
					bt_reset(bt);
					return 0;
				}
				slot = &func->stack[i];
				if (!slot_has_spill(slot) || slot->spilled_ptr.type != SCALAR_VALUE ||
				    slot->spilled_ptr.precise)
					bt_clear_frame_slot(bt, fr, i);
				else
					mark_reg_precise(&slot->spilled_ptr, changed);
			}
		}
		if (bt_empty(bt))
			return 0;
		subseq_idx = first_idx;
		last_idx = (s32)st->last_insn_idx;
		first_idx = st->first_insn_idx;
	}
	/* Needed registers left at the very start of the path: something was missed. */
	if (!bt_empty(bt)) {
		mark_all_scalars_precise(starting_state);
		bt_reset(bt);
	}
	return 0;
}

/* The scalar in regno of the current frame decides safety here. */
int mark_chain_precision(struct nb_verifier_env *env, int regno)
{
	bt_reset(&env->bt);
	return __mark_chain_precision(env, env->cur, regno, NULL);
}

/* The scalar spilled in slot spi of frame frameno decides safety here. */
int mark_stack_slot_precision(struct nb_verifier_env *env, u32 frameno, u32 spi)
{
	bt_reset(&env->bt);
	bt_set_frame_slot(&env->bt, frameno, spi);
	return __mark_chain_precision(env, env->cur, -1, NULL);
}

/*
 * cur was found equivalent to old: what old needed precise, cur's explored ancestors need
 * too, since they are now proven safe through old.
 */
int propagate_precision(struct nb_verifier_env *env, const struct nb_verifier_state *old,
			struct nb_verifier_state *cur, bool *changed)
{
	struct nb_backtrack_state *bt = &env->bt;

	bt_reset(bt);
	for (int fr = old->curframe; fr >= 0; fr--) {
		const struct nb_func_state *state = old->frame[fr];

		for (u32 i = 0; i < BPF_REG_10; i++) {
			const struct nb_reg_state *reg = &state->regs[i];

			if (reg->type == SCALAR_VALUE && reg->precise)
				bt_set_frame_reg(bt, fr, i);
		}
		for (u32 i = 0; i < state->allocated_stack / NB_REG_SIZE; i++) {
			const struct nb_reg_state *reg = &state->stack[i].spilled_ptr;

			if (slot_has_spill(&state->stack[i]) && reg->type == SCALAR_VALUE &&
			    reg->precise)
				bt_set_frame_slot(bt, fr, i);
		}
	}
	return __mark_chain_precision(env, cur, -1, changed);
}
