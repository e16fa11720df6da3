// SPDX-License-Identifier: GPL-2.0
/*
 * Conditional jumps: decide the branch when the operands' bounds allow (is_branch_taken), else
 * explore both sides with the operands' bounds refined by the condition on each side
 * (reg_set_min_max), a null check turning a maybe-null pointer into a pointer or zero on every
 * copy (mark_ptr_or_null_regs), and packet pointer comparisons proving a readable range on every
 * pointer of the same origin (find_good_pkt_pointers).
 */
#include <string.h>

#include "bpf/verifier/verifier.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

/* Condition that holds on the fall-through side of a jump with opcode op. */
u8 flip_opcode(u8 op)
{
	switch (op) {
	case BPF_JEQ: return BPF_JNE;
	case BPF_JNE: return BPF_JEQ;
	case BPF_JGT: return BPF_JLE;
	case BPF_JLE: return BPF_JGT;
	case BPF_JGE: return BPF_JLT;
	case BPF_JLT: return BPF_JGE;
	case BPF_JSGT: return BPF_JSLE;
	case BPF_JSLE: return BPF_JSGT;
	case BPF_JSGE: return BPF_JSLT;
	case BPF_JSLT: return BPF_JSGE;
	case BPF_JSET: return 0xf0;	/* "no bit in common": internal only */
	default: return BPF_JSET;	/* 0xf0 */
	}
}

/* The view of a register at a comparison's width. */
struct cmp_view {
	struct tnum t;
	s64 smin, smax;
	u64 umin, umax;
};

static struct cmp_view view_of(const struct nb_reg_state *r, bool is32)
{
	if (is32)
		return (struct cmp_view){ tnum_subreg(r->var_off), r->s32_min_value,
					  r->s32_max_value, r->u32_min_value, r->u32_max_value };
	return (struct cmp_view){ r->var_off, r->smin_value, r->smax_value, r->umin_value,
				  r->umax_value };
}

/* 1: the condition always holds, 0: never, -1: it depends. */
static int is_scalar_branch_taken(const struct nb_reg_state *r1, const struct nb_reg_state *r2,
				  u8 op, bool is32)
{
	struct cmp_view a = view_of(r1, is32), b = view_of(r2, is32);

	switch (op) {
	case BPF_JEQ:
		if (tnum_is_const(a.t) && tnum_is_const(b.t))
			return a.t.value == b.t.value;
		if (a.umin > b.umax || a.umax < b.umin || a.smin > b.smax || a.smax < b.smin)
			return 0;
		if ((a.t.value ^ b.t.value) & ~(a.t.mask | b.t.mask))
			return 0;
		return -1;
	case BPF_JNE: {
		int r = is_scalar_branch_taken(r1, r2, BPF_JEQ, is32);

		return r < 0 ? r : !r;
	}
	case BPF_JSET:
		if (a.t.value & b.t.value)
			return 1;
		if (!((a.t.value | a.t.mask) & (b.t.value | b.t.mask)))
			return 0;
		return -1;
	case NB_JNSET: {
		int r = is_scalar_branch_taken(r1, r2, BPF_JSET, is32);

		return r < 0 ? r : !r;
	}
	case BPF_JGT:
		if (a.umin > b.umax)
			return 1;
		if (a.umax <= b.umin)
			return 0;
		return -1;
	case BPF_JGE:
		if (a.umin >= b.umax)
			return 1;
		if (a.umax < b.umin)
			return 0;
		return -1;
	case BPF_JLT:
		return is_scalar_branch_taken(r2, r1, BPF_JGT, is32);
	case BPF_JLE:
		return is_scalar_branch_taken(r2, r1, BPF_JGE, is32);
	case BPF_JSGT:
		if (a.smin > b.smax)
			return 1;
		if (a.smax <= b.smin)
			return 0;
		return -1;
	case BPF_JSGE:
		if (a.smin >= b.smax)
			return 1;
		if (a.smax < b.smin)
			return 0;
		return -1;
	case BPF_JSLT:
		return is_scalar_branch_taken(r2, r1, BPF_JSGT, is32);
	case BPF_JSLE:
		return is_scalar_branch_taken(r2, r1, BPF_JSGE, is32);
	}
	return -1;
}

static bool reg_not_null(const struct nb_reg_state *reg)
{
	u32 t = base_type(reg->type);

	if (reg->type & PTR_MAYBE_NULL)
		return false;
	return t == PTR_TO_STACK || t == PTR_TO_CTX || t == PTR_TO_MAP_VALUE ||
	       t == PTR_TO_MAP_KEY || t == CONST_PTR_TO_MAP || t == PTR_TO_PACKET ||
	       t == PTR_TO_PACKET_META || t == PTR_TO_MEM || t == PTR_TO_FUNC;
}

int is_branch_taken(const struct nb_reg_state *r1, const struct nb_reg_state *r2, u8 op,
		    bool is32)
{
	if (r1->type == SCALAR_VALUE && r2->type == SCALAR_VALUE)
		return is_scalar_branch_taken(r1, r2, op, is32);
	/* A pointer that cannot be NULL compared with zero. */
	if (!is32 && (op == BPF_JEQ || op == BPF_JNE)) {
		const struct nb_reg_state *ptr = r1->type == SCALAR_VALUE ? r2 : r1;
		const struct nb_reg_state *val = r1->type == SCALAR_VALUE ? r1 : r2;

		if (val->type == SCALAR_VALUE && register_is_null(val) && reg_not_null(ptr))
			return op == BPF_JNE;
	}
	return -1;
}

/* Write a comparison view back into the register's 64- or 32-bit bounds. */
static void view_store(struct nb_reg_state *r, const struct cmp_view *v, bool is32)
{
	if (is32) {
		r->var_off = tnum_with_subreg(r->var_off, v->t);
		r->s32_min_value = (s32)v->smin;
		r->s32_max_value = (s32)v->smax;
		r->u32_min_value = (u32)v->umin;
		r->u32_max_value = (u32)v->umax;
	} else {
		r->var_off = v->t;
		r->smin_value = v->smin;
		r->smax_value = v->smax;
		r->umin_value = v->umin;
		r->umax_value = v->umax;
	}
}

/*
 * Narrow r1 and r2 to the values for which "r1 op r2" holds. Returns false when no values do.
 */
bool regs_refine_cond_op(struct nb_reg_state *r1, struct nb_reg_state *r2, u8 op,
			 bool is32)
{
	struct cmp_view a = view_of(r1, is32), b = view_of(r2, is32);
	u64 umax_w = is32 ? UINT_MAX : ULLONG_MAX;
	s64 smin_w = is32 ? INT_MIN : LLONG_MIN, smax_w = is32 ? INT_MAX : LLONG_MAX;

	switch (op) {
	case BPF_JEQ:
		a.t = tnum_intersect(a.t, b.t);
		a.umin = max_t(u64, a.umin, b.umin);
		a.umax = min_t(u64, a.umax, b.umax);
		a.smin = max_t(s64, a.smin, b.smin);
		a.smax = min_t(s64, a.smax, b.smax);
		b = a;
		break;
	case BPF_JNE: {
		struct cmp_view *v = tnum_is_const(b.t) ? &a : &b;
		const struct cmp_view *k = tnum_is_const(b.t) ? &b : &a;
		u64 c = k->t.value;
		s64 sc = is32 ? (s64)(s32)(u32)c : (s64)c;

		if (!tnum_is_const(k->t))
			break;
		if (tnum_is_const(v->t) && v->t.value == c)
			return false;
		if (v->umin == c)
			v->umin++;
		if (v->umax == c)
			v->umax--;
		if (v->smin == sc)
			v->smin++;
		if (v->smax == sc)
			v->smax--;
		break;
	}
	case BPF_JSET:
		if (tnum_is_const(b.t) && b.t.value && !(b.t.value & (b.t.value - 1)))
			a.t = tnum_or(a.t, b.t);
		break;
	case NB_JNSET:
		if (tnum_is_const(b.t))
			a.t = tnum_and(a.t, tnum_const(~b.t.value & umax_w));
		break;
	case BPF_JGT:
		if (b.umin == umax_w || a.umax == 0)
			return false;
		a.umin = max_t(u64, a.umin, b.umin + 1);
		b.umax = min_t(u64, b.umax, a.umax - 1);
		break;
	case BPF_JGE:
		a.umin = max_t(u64, a.umin, b.umin);
		b.umax = min_t(u64, b.umax, a.umax);
		break;
	case BPF_JLT:
		return regs_refine_cond_op(r2, r1, BPF_JGT, is32);
	case BPF_JLE:
		return regs_refine_cond_op(r2, r1, BPF_JGE, is32);
	case BPF_JSGT:
		if (b.smin == smax_w || a.smax == smin_w)
			return false;
		a.smin = max_t(s64, a.smin, b.smin + 1);
		b.smax = min_t(s64, b.smax, a.smax - 1);
		break;
	case BPF_JSGE:
		a.smin = max_t(s64, a.smin, b.smin);
		b.smax = min_t(s64, b.smax, a.smax);
		break;
	case BPF_JSLT:
		return regs_refine_cond_op(r2, r1, BPF_JSGT, is32);
	case BPF_JSLE:
		return regs_refine_cond_op(r2, r1, BPF_JSGE, is32);
	}
	if (a.umin > a.umax || a.smin > a.smax || b.umin > b.umax || b.smin > b.smax)
		return false;
	if ((a.t.value & a.t.mask) || (b.t.value & b.t.mask))
		return false;
	view_store(r1, &a, is32);
	view_store(r2, &b, is32);
	reg_bounds_sync(r1);
	reg_bounds_sync(r2);
	return reg_bounds_sane(r1) && reg_bounds_sane(r2);
}

/* Every scalar sharing the id of a refined register learns the same bounds. */
static void find_equal_scalars(struct nb_verifier_state *vstate, const struct nb_reg_state *known)
{
	struct nb_reg_state *reg;

	if (!known->id)
		return;
	for_each_reg_in_state(vstate, reg, {
		if (reg->type == SCALAR_VALUE && reg->id == known->id)
			*reg = *known;
	});
}

static void mark_ptr_or_null_reg(struct nb_reg_state *reg, u32 id, bool is_null)
{
	if (!(reg->type & PTR_MAYBE_NULL) || reg->id != id)
		return;
	if (is_null) {
		mark_reg_known_zero(reg);
		return;
	}
	reg->type &= ~PTR_MAYBE_NULL;
	/* The id served the null check; ringbuf memory keeps its reference id. */
	reg->id = 0;
	/* A map-in-map lookup yields the inner map. */
	if (reg->type == PTR_TO_MAP_VALUE && reg->map_ptr->inner_map_meta) {
		reg->type = CONST_PTR_TO_MAP;
		reg->map_ptr = reg->map_ptr->inner_map_meta;
	}
}

/* The twin of mark_ptr_or_null_regs: the comparison settles every copy of the pointer. */
static void mark_ptr_or_null_regs(struct nb_verifier_env *env, struct nb_verifier_state *vstate,
				  u32 id, u32 ref_obj_id, bool is_null)
{
	struct nb_reg_state *reg;

	for_each_reg_in_state(vstate, reg, mark_ptr_or_null_reg(reg, id, is_null));
	if (is_null && ref_obj_id) {
		/* Nothing was reserved: nothing to release. */
		for (u32 i = 0; i < vstate->acquired_refs; i++) {
			if (vstate->refs[i].id != ref_obj_id)
				continue;
			vstate->refs[i] = vstate->refs[--vstate->acquired_refs];
			break;
		}
	}
}

static void find_good_pkt_pointers(struct nb_verifier_state *vstate,
				   const struct nb_reg_state *dst_reg, u32 type,
				   bool range_right_open)
{
	struct nb_reg_state *reg;
	u32 new_range;

	if (dst_reg->off < 0 || (dst_reg->off == 0 && range_right_open))
		return;
	/* ptr + huge may compare below pkt_end by wrapping around. */
	if (dst_reg->umax_value > NB_MAX_PACKET_OFF ||
	    dst_reg->umax_value + dst_reg->off > NB_MAX_PACKET_OFF)
		return;
	new_range = dst_reg->off;
	if (range_right_open)
		new_range++;
	for_each_reg_in_state(vstate, reg, {
		if (reg->type == type && reg->id == dst_reg->id)
			reg->range = max_t(u32, reg->range, new_range);
	});
}

static bool is_pkt_pair(const struct nb_reg_state *a, const struct nb_reg_state *b)
{
	/* pkt vs pkt_end, or pkt_meta vs pkt */
	return (a->type == PTR_TO_PACKET && b->type == PTR_TO_PACKET_END) ||
	       (a->type == PTR_TO_PACKET_META && b->type == PTR_TO_PACKET);
}

/* this_branch: the condition is false (fall through); other_branch: it is true (jump). */
static void try_match_pkt_pointers(const struct bpf_insn *insn,
				   const struct nb_reg_state *dst_reg,
				   const struct nb_reg_state *src_reg,
				   struct nb_verifier_state *this_branch,
				   struct nb_verifier_state *other_branch)
{
	bool dst_low = is_pkt_pair(dst_reg, src_reg);	/* dst is the data pointer */
	bool src_low = is_pkt_pair(src_reg, dst_reg);

	if (BPF_SRC(insn->code) != BPF_X || insn_class(insn) == BPF_JMP32)
		return;
	switch (BPF_OP(insn->code)) {
	case BPF_JGT:
		if (dst_low)		/* ptr' > end: false side ptr' <= end */
			find_good_pkt_pointers(this_branch, dst_reg, dst_reg->type, false);
		else if (src_low)	/* end > ptr': true side ptr' < end */
			find_good_pkt_pointers(other_branch, src_reg, src_reg->type, true);
		break;
	case BPF_JLT:
		if (dst_low)		/* ptr' < end */
			find_good_pkt_pointers(other_branch, dst_reg, dst_reg->type, true);
		else if (src_low)	/* end < ptr': false side ptr' <= end */
			find_good_pkt_pointers(this_branch, src_reg, src_reg->type, false);
		break;
	case BPF_JGE:
		if (dst_low)		/* ptr' >= end: false side ptr' < end */
			find_good_pkt_pointers(this_branch, dst_reg, dst_reg->type, true);
		else if (src_low)	/* end >= ptr' */
			find_good_pkt_pointers(other_branch, src_reg, src_reg->type, false);
		break;
	case BPF_JLE:
		if (dst_low)		/* ptr' <= end */
			find_good_pkt_pointers(other_branch, dst_reg, dst_reg->type, false);
		else if (src_low)	/* end <= ptr': false side ptr' < end */
			find_good_pkt_pointers(this_branch, src_reg, src_reg->type, true);
		break;
	}
}

int check_cond_jmp_op(struct nb_verifier_env *env, struct bpf_insn *insn, u32 *insn_idx)
{
	struct nb_verifier_state *this_branch = env->cur, *other_branch;
	struct nb_reg_state *regs = cur_regs(env), *dst_reg = &regs[insn->dst_reg], src_reg;
	struct nb_reg_state t_dst, t_src, f_dst, f_src;
	bool is32 = insn_class(insn) == BPF_JMP32;
	u8 op = BPF_OP(insn->code);
	bool true_ok = true, false_ok = true;
	u32 target = *insn_idx + insn->off + 1;
	int pred, err;

	err = check_reg_arg_read(env, insn->dst_reg);
	if (err)
		return err;
	if (BPF_SRC(insn->code) == BPF_X) {
		err = check_reg_arg_read(env, insn->src_reg);
		if (err)
			return err;
		src_reg = regs[insn->src_reg];
	} else {
		mark_reg_known(&src_reg, is32 ? (u64)(u32)insn->imm : (u64)(s64)insn->imm);
	}
	/* Comparisons of stack pointers need no precision (backtracking skips them). */
	if (dst_reg->type == PTR_TO_STACK || (BPF_SRC(insn->code) == BPF_X &&
					       src_reg.type == PTR_TO_STACK)) {
		err = push_jmp_history(env, this_branch,
				       (dst_reg->type == PTR_TO_STACK ? NB_INSN_F_DST_REG_STACK : 0) |
				       (BPF_SRC(insn->code) == BPF_X &&
					src_reg.type == PTR_TO_STACK ? NB_INSN_F_SRC_REG_STACK : 0),
				       0);
		if (err)
			return err;
	}

	pred = is_branch_taken(dst_reg, &src_reg, op, is32);
	/* A scalar compared with itself (or a linked copy): the outcome is known. */
	if (BPF_SRC(insn->code) == BPF_X && dst_reg->type == SCALAR_VALUE &&
	    src_reg.type == SCALAR_VALUE &&
	    (insn->src_reg == insn->dst_reg || (dst_reg->id && dst_reg->id == src_reg.id))) {
		switch (op) {
		case BPF_JEQ: case BPF_JGE: case BPF_JLE: case BPF_JSGE: case BPF_JSLE:
			pred = 1;
			break;
		case BPF_JNE: case BPF_JGT: case BPF_JLT: case BPF_JSGT: case BPF_JSLT:
			pred = 0;
			break;
		}
	}
	if (pred < 0 && dst_reg->type == SCALAR_VALUE && src_reg.type == SCALAR_VALUE) {
		/* Refine both sides now: a side without values is dead. */
		t_dst = f_dst = *dst_reg;
		t_src = f_src = src_reg;
		true_ok = regs_refine_cond_op(&t_dst, &t_src, op, is32);
		false_ok = regs_refine_cond_op(&f_dst, &f_src, flip_opcode(op), is32);
		/* Unreachable either way: keep walking the fall-through, nothing new. */
		if (!true_ok)
			pred = 0;
		else if (!false_ok)
			pred = 1;
	}
	if (pred >= 0) {
		/* The operands' values decided the branch: they must be matched exactly. */
		if (dst_reg->type == SCALAR_VALUE)
			err = mark_chain_precision(env, insn->dst_reg);
		if (!err && BPF_SRC(insn->code) == BPF_X && src_reg.type == SCALAR_VALUE)
			err = mark_chain_precision(env, insn->src_reg);
		if (err)
			return err;
	}
	if (pred == 1) {
		*insn_idx = target - 1;
		return 0;
	}
	if (pred == 0)
		return 0;

	/* Scalars linked to the operands learn their bounds: record which, for backtracking. */
	if (dst_reg->type == SCALAR_VALUE) {
		err = push_linked_regs(env, dst_reg,
				       BPF_SRC(insn->code) == BPF_X ? &regs[insn->src_reg] : NULL);
		if (err)
			return err;
		/* Beyond the links recorded, registers lost their id: so do the copies. */
		t_dst.id = f_dst.id = dst_reg->id;
		if (BPF_SRC(insn->code) == BPF_X)
			t_src.id = f_src.id = regs[insn->src_reg].id;
	}
	other_branch = push_stack(env, target, *insn_idx);
	if (!other_branch)
		return -ENOMEM;
	if (dst_reg->type == SCALAR_VALUE && src_reg.type == SCALAR_VALUE) {
		struct nb_reg_state *o_regs = other_branch->frame[other_branch->curframe]->regs;

		o_regs[insn->dst_reg] = t_dst;
		*dst_reg = f_dst;
		if (BPF_SRC(insn->code) == BPF_X) {
			o_regs[insn->src_reg] = t_src;
			regs[insn->src_reg] = f_src;
			find_equal_scalars(other_branch, &t_src);
			find_equal_scalars(this_branch, &f_src);
		}
		find_equal_scalars(other_branch, &t_dst);
		find_equal_scalars(this_branch, &f_dst);
		return 0;
	}
	/*
	 * ptr == 0 / ptr != 0 on a maybe-null pointer settles every copy on both sides. Only the
	 * immediate form counts, as in the kernel.
	 */
	if (!is32 && (op == BPF_JEQ || op == BPF_JNE) && BPF_SRC(insn->code) == BPF_K &&
	    insn->imm == 0 && (dst_reg->type & PTR_MAYBE_NULL) && dst_reg->id) {
		u32 id = dst_reg->id, ref = dst_reg->ref_obj_id;

		mark_ptr_or_null_regs(env, other_branch, id, ref, op == BPF_JEQ);
		mark_ptr_or_null_regs(env, this_branch, id, ref, op == BPF_JNE);
		return 0;
	}
	try_match_pkt_pointers(insn, dst_reg, &src_reg, this_branch, other_branch);
	return 0;
}
