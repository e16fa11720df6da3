// SPDX-License-Identifier: GPL-2.0
/*
 * Conditional jumps: decide the branch when the operands' bounds allow (is_branch_taken), else
 * explore both sides with the scalar operands' bounds refined by the condition on each side
 * (reg_set_min_max) and carried to every register linked to them (sync_linked_regs), a null
 * check turning a maybe-null pointer into a pointer or zero on every copy
 * (mark_ptr_or_null_regs), and packet pointer comparisons proving a readable range on every
 * pointer of the same origin (find_good_pkt_pointers) or placing a pointer at or beyond pkt_end
 * (mark_pkt_end).
 *
 * A side whose refined bounds hold no value is still explored, as the kernel explores it: only
 * is_branch_taken decides a branch, so that netbpf walks the paths the kernel walks.
 */
#include <string.h>

#include "bpf/verifier/verifier.h"

/* The condition that holds on the fall-through side of a jump (the kernel's rev_opcode). */
u8 rev_opcode(u8 op)
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
	case BPF_JSET: return NB_JNSET;
	default: return BPF_JSET;	/* NB_JNSET */
	}
}

/* The same condition with its operands swapped: a > b is b < a (the kernel's flip_opcode). */
static u8 flip_opcode(u8 op)
{
	switch (op) {
	case BPF_JGT: return BPF_JLT;
	case BPF_JLT: return BPF_JGT;
	case BPF_JGE: return BPF_JLE;
	case BPF_JLE: return BPF_JGE;
	case BPF_JSGT: return BPF_JSLT;
	case BPF_JSLT: return BPF_JSGT;
	case BPF_JSGE: return BPF_JSLE;
	case BPF_JSLE: return BPF_JSGE;
	default: return op;	/* JEQ, JNE, JSET, NB_JNSET are symmetric */
	}
}

static bool is_reg_const(const struct nb_reg_state *reg, bool is32)
{
	return reg->type == SCALAR_VALUE && reg_is_const(reg, is32);
}

#define SWAP_REGS(a, b)                                                                    \
	do {                                                                               \
		typeof(a) t_ = (a);                                                        \
		(a) = (b);                                                                 \
		(b) = t_;                                                                  \
	} while (0)

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

static bool tnum_overlap(struct tnum a, struct tnum b)
{
	return !((a.value ^ b.value) & ~(a.mask | b.mask));
}

/* Two scalars that differ whatever values they hold: no range or known bit in common. */
static bool scalars_differ(const struct nb_reg_state *r1, const struct nb_reg_state *r2,
			   bool is32)
{
	struct cmp_view a = view_of(r1, is32), b = view_of(r2, is32);

	if (!tnum_overlap(a.t, b.t))
		return true;
	if (a.umin > b.umax || a.umax < b.umin || a.smin > b.smax || a.smax < b.smin)
		return true;
	/* Inconclusive 64-bit ranges: the 32-bit halves may still tell. */
	return !is32 && (r1->u32_min_value > r2->u32_max_value ||
			 r1->u32_max_value < r2->u32_min_value ||
			 r1->s32_min_value > r2->s32_max_value ||
			 r1->s32_max_value < r2->s32_min_value);
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
		return scalars_differ(r1, r2, is32) ? 0 : -1;
	case BPF_JNE:
		if (tnum_is_const(a.t) && tnum_is_const(b.t))
			return a.t.value != b.t.value;
		return scalars_differ(r1, r2, is32) ? 1 : -1;
	case BPF_JSET:
	case NB_JNSET: {
		int set;

		/* Decided only against a known mask. */
		if (!is_reg_const(r2, is32)) {
			SWAP_REGS(a, b);
			if (!is_reg_const(r1, is32))
				return -1;
		}
		if (a.t.value & b.t.value)
			set = 1;
		else if (!((a.t.value | a.t.mask) & b.t.value))
			set = 0;
		else
			return -1;
		return op == BPF_JSET ? set : !set;
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
		if (a.umax < b.umin)
			return 1;
		if (a.umin >= b.umax)
			return 0;
		return -1;
	case BPF_JLE:
		if (a.umax <= b.umin)
			return 1;
		if (a.umin > b.umax)
			return 0;
		return -1;
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
		if (a.smax < b.smin)
			return 1;
		if (a.smin >= b.smax)
			return 0;
		return -1;
	case BPF_JSLE:
		if (a.smax <= b.smin)
			return 1;
		if (a.smin > b.smax)
			return 0;
		return -1;
	}
	return -1;
}

/*
 * Pointers that are never NULL once checked or made, as the kernel's reg_not_null lists them:
 * the context, the stack and packet pointers are not among them, so comparing one with zero
 * explores both sides.
 */
static bool reg_not_null(const struct nb_reg_state *reg)
{
	u32 t = base_type(reg->type);

	if (reg->type & PTR_MAYBE_NULL)
		return false;
	/* a kernel struct pointer is, once trusted: held by reference, or vouched for */
	if (t == PTR_TO_BTF_ID)
		return reg->ref_obj_id || (reg->type & PTR_TRUSTED);
	return t == PTR_TO_MAP_VALUE || t == PTR_TO_MAP_KEY || t == CONST_PTR_TO_MAP ||
	       t == PTR_TO_MEM || t == PTR_TO_SOCKET || t == PTR_TO_SOCK_COMMON ||
	       t == PTR_TO_TCP_SOCK;
}

/* A packet pointer compared with pkt_end after an earlier comparison placed it (mark_pkt_end). */
static int is_pkt_ptr_branch_taken(const struct nb_reg_state *dst, const struct nb_reg_state *src,
				   u8 op)
{
	const struct nb_reg_state *pkt;

	if (src->type == PTR_TO_PACKET_END) {
		pkt = dst;
	} else if (dst->type == PTR_TO_PACKET_END) {
		pkt = src;
		op = flip_opcode(op);
	} else {
		return -1;
	}
	if (pkt->range >= 0)
		return -1;
	switch (op) {
	case BPF_JLE:	/* pkt <= pkt_end */
	case BPF_JGT:	/* pkt > pkt_end */
		if (pkt->range == BEYOND_PKT_END)
			return op == BPF_JGT;
		break;
	case BPF_JLT:	/* pkt < pkt_end */
	case BPF_JGE:	/* pkt >= pkt_end */
		if (pkt->range == BEYOND_PKT_END || pkt->range == AT_PKT_END)
			return op == BPF_JGE;
		break;
	}
	return -1;
}

int is_branch_taken(const struct nb_reg_state *r1, const struct nb_reg_state *r2, u8 op,
		    bool is32)
{
	if (reg_is_pkt_pointer_any(r1) && reg_is_pkt_pointer_any(r2) && !is32)
		return is_pkt_ptr_branch_taken(r1, r2, op);
	if (reg_is_pointer(r1) || reg_is_pointer(r2)) {
		/* Only a pointer that cannot be NULL against the constant zero. */
		if (!is_reg_const(r2, is32)) {
			op = flip_opcode(op);
			SWAP_REGS(r1, r2);
		}
		/*
		 * The kernel decides 32-bit comparisons of a pointer with zero too; but the
		 * low half of a valid address may be zero, so netbpf leaves them undecided.
		 */
		if (is32 || !is_reg_const(r2, is32) || !reg_not_null(r1) ||
		    reg_const_value(r2, is32) != 0)
			return -1;
		if (op == BPF_JEQ)
			return 0;
		if (op == BPF_JNE)
			return 1;
		return -1;
	}
	return is_scalar_branch_taken(r1, r2, op, is32);
}

static void refine32(struct nb_reg_state *r1, struct nb_reg_state *r2, u8 op)
{
	struct tnum t;
	u32 val;

	switch (op) {
	case BPF_JEQ:
		r1->u32_min_value = max_t(u32, r1->u32_min_value, r2->u32_min_value);
		r1->u32_max_value = min_t(u32, r1->u32_max_value, r2->u32_max_value);
		r1->s32_min_value = max_t(s32, r1->s32_min_value, r2->s32_min_value);
		r1->s32_max_value = min_t(s32, r1->s32_max_value, r2->s32_max_value);
		r2->u32_min_value = r1->u32_min_value;
		r2->u32_max_value = r1->u32_max_value;
		r2->s32_min_value = r1->s32_min_value;
		r2->s32_max_value = r1->s32_max_value;
		t = tnum_intersect(tnum_subreg(r1->var_off), tnum_subreg(r2->var_off));
		r1->var_off = tnum_with_subreg(r1->var_off, t);
		r2->var_off = tnum_with_subreg(r2->var_off, t);
		break;
	case BPF_JNE:
		/* Only a constant at the very edge of the other's range tells something. */
		if (!is_reg_const(r2, true))
			SWAP_REGS(r1, r2);
		if (!is_reg_const(r2, true))
			break;
		val = reg_const_value(r2, true);
		if (r1->u32_min_value == val)
			r1->u32_min_value++;
		if (r1->u32_max_value == val)
			r1->u32_max_value--;
		if (r1->s32_min_value == (s32)val)
			r1->s32_min_value++;
		if (r1->s32_max_value == (s32)val)
			r1->s32_max_value--;
		break;
	case BPF_JSET:
		if (!is_reg_const(r2, true))
			SWAP_REGS(r1, r2);
		if (!is_reg_const(r2, true))
			break;
		val = reg_const_value(r2, true);
		/* Some bit of a mask is set: known only for a single bit. */
		if (!val || (val & (val - 1)))
			break;
		t = tnum_or(tnum_subreg(r1->var_off), tnum_const(val));
		r1->var_off = tnum_with_subreg(r1->var_off, t);
		break;
	case NB_JNSET:
		if (!is_reg_const(r2, true))
			SWAP_REGS(r1, r2);
		if (!is_reg_const(r2, true))
			break;
		val = reg_const_value(r2, true);
		/* Ranges forgotten before the bits narrow, so a dead side stays consistent. */
		mark_reg_unbounded(r1);
		t = tnum_and(tnum_subreg(r1->var_off), tnum_const(~val));
		r1->var_off = tnum_with_subreg(r1->var_off, t);
		break;
	case BPF_JLE:
		r1->u32_max_value = min_t(u32, r1->u32_max_value, r2->u32_max_value);
		r2->u32_min_value = max_t(u32, r1->u32_min_value, r2->u32_min_value);
		break;
	case BPF_JLT:
		r1->u32_max_value = min_t(u32, r1->u32_max_value, r2->u32_max_value - 1);
		r2->u32_min_value = max_t(u32, r1->u32_min_value + 1, r2->u32_min_value);
		break;
	case BPF_JSLE:
		r1->s32_max_value = min_t(s32, r1->s32_max_value, r2->s32_max_value);
		r2->s32_min_value = max_t(s32, r1->s32_min_value, r2->s32_min_value);
		break;
	case BPF_JSLT:
		r1->s32_max_value = min_t(s32, r1->s32_max_value, (s32)((u32)r2->s32_max_value - 1));
		r2->s32_min_value = max_t(s32, (s32)((u32)r1->s32_min_value + 1), r2->s32_min_value);
		break;
	}
}

static void refine64(struct nb_reg_state *r1, struct nb_reg_state *r2, u8 op)
{
	u64 val;

	switch (op) {
	case BPF_JEQ:
		r1->umin_value = max_t(u64, r1->umin_value, r2->umin_value);
		r1->umax_value = min_t(u64, r1->umax_value, r2->umax_value);
		r1->smin_value = max_t(s64, r1->smin_value, r2->smin_value);
		r1->smax_value = min_t(s64, r1->smax_value, r2->smax_value);
		r2->umin_value = r1->umin_value;
		r2->umax_value = r1->umax_value;
		r2->smin_value = r1->smin_value;
		r2->smax_value = r1->smax_value;
		r1->var_off = tnum_intersect(r1->var_off, r2->var_off);
		r2->var_off = r1->var_off;
		break;
	case BPF_JNE:
		if (!is_reg_const(r2, false))
			SWAP_REGS(r1, r2);
		if (!is_reg_const(r2, false))
			break;
		val = reg_const_value(r2, false);
		if (r1->umin_value == val)
			r1->umin_value++;
		if (r1->umax_value == val)
			r1->umax_value--;
		if (r1->smin_value == (s64)val)
			r1->smin_value++;
		if (r1->smax_value == (s64)val)
			r1->smax_value--;
		break;
	case BPF_JSET:
		if (!is_reg_const(r2, false))
			SWAP_REGS(r1, r2);
		if (!is_reg_const(r2, false))
			break;
		val = reg_const_value(r2, false);
		if (!val || (val & (val - 1)))
			break;
		r1->var_off = tnum_or(r1->var_off, tnum_const(val));
		break;
	case NB_JNSET:
		if (!is_reg_const(r2, false))
			SWAP_REGS(r1, r2);
		if (!is_reg_const(r2, false))
			break;
		val = reg_const_value(r2, false);
		mark_reg_unbounded(r1);
		r1->var_off = tnum_and(r1->var_off, tnum_const(~val));
		break;
	case BPF_JLE:
		r1->umax_value = min_t(u64, r1->umax_value, r2->umax_value);
		r2->umin_value = max_t(u64, r1->umin_value, r2->umin_value);
		break;
	case BPF_JLT:
		r1->umax_value = min_t(u64, r1->umax_value, r2->umax_value - 1);
		r2->umin_value = max_t(u64, r1->umin_value + 1, r2->umin_value);
		break;
	case BPF_JSLE:
		r1->smax_value = min_t(s64, r1->smax_value, r2->smax_value);
		r2->smin_value = max_t(s64, r1->smin_value, r2->smin_value);
		break;
	case BPF_JSLT:
		r1->smax_value = min_t(s64, r1->smax_value, (s64)((u64)r2->smax_value - 1));
		r2->smin_value = max_t(s64, (s64)((u64)r1->smin_value + 1), r2->smin_value);
		break;
	}
}

/*
 * Narrow r1 and r2 to the values for which "r1 op r2" holds, as the kernel's regs_refine_cond_op
 * does (a wrapping edge refines nothing). Returns false when no values are left: the side is
 * dead, though the walk still explores it as the kernel does.
 */
bool regs_refine_cond_op(struct nb_reg_state *r1, struct nb_reg_state *r2, u8 op, bool is32)
{
	/* a > b is b < a: one rule for each pair. */
	switch (op) {
	case BPF_JGE: case BPF_JGT: case BPF_JSGE: case BPF_JSGT:
		op = flip_opcode(op);
		SWAP_REGS(r1, r2);
		break;
	}
	if (is32)
		refine32(r1, r2, op);
	else
		refine64(r1, r2, op);
	reg_bounds_sync(r1);
	reg_bounds_sync(r2);
	return reg_bounds_sane(r1) && reg_bounds_sane(r2);
}

/*
 * A side whose bounds became inconsistent cannot run; its registers are made unbounded (the
 * kernel's reg_bounds_sanity_check) so that the walk goes on with states that mean something.
 */
static void reg_bounds_sanitize(struct nb_reg_state *reg)
{
	if (!reg_bounds_sane(reg)) {
		mark_reg_unbounded(reg);
		reg_bounds_sync(reg);
	}
}

/* Both sides of "r1 op r2" with scalars: true_* on the jump, false_* on the fall-through. */
static void reg_set_min_max(struct nb_reg_state *true_r1, struct nb_reg_state *true_r2,
			    struct nb_reg_state *false_r1, struct nb_reg_state *false_r2, u8 op,
			    bool is32)
{
	if (false_r1->type != SCALAR_VALUE || false_r2->type != SCALAR_VALUE)
		return;
	regs_refine_cond_op(false_r1, false_r2, rev_opcode(op), is32);
	regs_refine_cond_op(true_r1, true_r2, op, is32);
	reg_bounds_sanitize(true_r1);
	reg_bounds_sanitize(true_r2);
	reg_bounds_sanitize(false_r1);
	reg_bounds_sanitize(false_r2);
}

/*
 * Every register linked to known (the same base id, in any frame, spilled ones included) takes
 * its bounds: the same value, or the value moved by the difference of their constants (r1 =
 * r2 + 4 learns r2's bound plus 4). push_linked_regs left the id to at most LINKED_REGS_MAX of
 * them, as the kernel's collect_linked_regs does.
 */
static void sync_linked_regs(struct nb_verifier_state *vstate, const struct nb_reg_state *known)
{
	struct nb_reg_state *reg;

	for_each_reg_in_state(vstate, reg, {
		struct nb_reg_state delta;
		u32 id = reg->id;
		s32 off = reg->off;

		if (reg->type != SCALAR_VALUE || reg == known || !id ||
		    (id & ~NB_ADD_CONST) != (known->id & ~NB_ADD_CONST))
			continue;
		if ((!(id & NB_ADD_CONST) && !(known->id & NB_ADD_CONST)) || off == known->off) {
			*reg = *known;
			continue;
		}
		/* reg = known + (reg's constant - known's constant), in the link's width */
		*reg = *known;
		reg->id = id;
		reg->off = off;
		mark_reg_known(&delta, (u64)((s64)off - (s64)known->off));
		scalar_add_const(reg, &delta);
		if ((id | known->id) & NB_ADD_CONST32)
			zext_32_to_64(reg);
		reg_bounds_sync(reg);
	});
}

static void mark_ptr_not_null_reg(struct nb_reg_state *reg)
{
	reg->type &= ~PTR_MAYBE_NULL;
	/* A map-in-map lookup's inner map: its id names it, for its timers' bpf_timer_init. */
	if (reg->type == CONST_PTR_TO_MAP) {
		if (reg->map_ptr->timer_off >= 0)
			reg->map_uid = reg->id;
		return;
	}
	/* A socket map's lookup yields the socket. */
	if (reg->type == PTR_TO_MAP_VALUE &&
	    (reg->map_ptr->map_type == BPF_MAP_TYPE_SOCKMAP ||
	     reg->map_ptr->map_type == BPF_MAP_TYPE_SOCKHASH))
		reg->type = PTR_TO_SOCKET;
}

static void mark_ptr_or_null_reg(struct nb_reg_state *reg, u32 id, bool is_null)
{
	if (!(reg->type & PTR_MAYBE_NULL) || reg->id != id)
		return;
	if (is_null) {
		mark_reg_known_zero(reg);
		return;
	}
	mark_ptr_not_null_reg(reg);
	/*
	 * The id served the null check; ringbuf memory keeps its reference id. A value with a
	 * bpf_spin_lock keeps it: it names the lock the unlock must match.
	 */
	if (!(reg->type == PTR_TO_MAP_VALUE && reg->map_ptr->spin_lock_off >= 0))
		reg->id = 0;
}

/* The twin of mark_ptr_or_null_regs: the comparison settles every copy of the pointer. */
static void mark_ptr_or_null_regs(struct nb_verifier_state *vstate, u32 id, u32 ref_obj_id,
				  bool is_null)
{
	struct nb_reg_state *reg;

	for_each_reg_in_state(vstate, reg, mark_ptr_or_null_reg(reg, id, is_null));
	if (is_null && ref_obj_id && ref_obj_id == id) {
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
	s32 new_range;

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
			reg->range = max_t(s32, reg->range, new_range);
	});
}

/*
 * The pointer in regno of the current frame is at least at pkt_end (beyond it when the
 * comparison was strict): a later comparison of it with pkt_end is decided.
 */
static void mark_pkt_end(struct nb_verifier_state *vstate, u32 regno, bool range_open)
{
	struct nb_reg_state *reg = &vstate->frame[vstate->curframe]->regs[regno];

	if (reg->type != PTR_TO_PACKET)
		return;
	reg->range = range_open ? BEYOND_PKT_END : AT_PKT_END;
}

/* A packet pointer with no offset of any kind: where the packet starts. */
static bool reg_is_init_pkt_pointer(const struct nb_reg_state *reg, u32 type)
{
	return reg->type == type && reg->off == 0 && tnum_equals_const(reg->var_off, 0);
}

/*
 * pkt' against pkt_end, or pkt_meta' against the packet's start: the lower pointer is the one
 * whose range a comparison may prove.
 */
static bool pkt_below(const struct nb_reg_state *low, const struct nb_reg_state *high)
{
	return (low->type == PTR_TO_PACKET && high->type == PTR_TO_PACKET_END) ||
	       (low->type == PTR_TO_PACKET_META && reg_is_init_pkt_pointer(high, PTR_TO_PACKET));
}

/*
 * this_branch: the condition is false (fall through); other_branch: it is true (jump).
 * "dst op src" with dst the lower pointer: a range when the true side means dst' <= end
 * (right-open for <); with src the lower pointer, the same with the sides swapped.
 */
static void try_match_pkt_pointers(const struct bpf_insn *insn,
				   const struct nb_reg_state *dst_reg,
				   const struct nb_reg_state *src_reg,
				   struct nb_verifier_state *this_branch,
				   struct nb_verifier_state *other_branch)
{
	bool dst_low = pkt_below(dst_reg, src_reg), src_low = pkt_below(src_reg, dst_reg);

	if (BPF_SRC(insn->code) != BPF_X || insn_class(insn) == BPF_JMP32)
		return;
	switch (BPF_OP(insn->code)) {
	case BPF_JGT:
		if (dst_low) {		/* pkt' > end: false side pkt' <= end */
			find_good_pkt_pointers(this_branch, dst_reg, dst_reg->type, false);
			mark_pkt_end(other_branch, insn->dst_reg, true);
		} else if (src_low) {	/* end > pkt': true side pkt' < end */
			find_good_pkt_pointers(other_branch, src_reg, src_reg->type, true);
			mark_pkt_end(this_branch, insn->src_reg, false);
		}
		break;
	case BPF_JLT:
		if (dst_low) {		/* pkt' < end */
			find_good_pkt_pointers(other_branch, dst_reg, dst_reg->type, true);
			mark_pkt_end(this_branch, insn->dst_reg, false);
		} else if (src_low) {	/* end < pkt': false side pkt' <= end */
			find_good_pkt_pointers(this_branch, src_reg, src_reg->type, false);
			mark_pkt_end(other_branch, insn->src_reg, true);
		}
		break;
	case BPF_JGE:
		if (dst_low) {		/* pkt' >= end: false side pkt' < end */
			find_good_pkt_pointers(this_branch, dst_reg, dst_reg->type, true);
			mark_pkt_end(other_branch, insn->dst_reg, false);
		} else if (src_low) {	/* end >= pkt' */
			find_good_pkt_pointers(other_branch, src_reg, src_reg->type, false);
			mark_pkt_end(this_branch, insn->src_reg, true);
		}
		break;
	case BPF_JLE:
		if (dst_low) {		/* pkt' <= end */
			find_good_pkt_pointers(other_branch, dst_reg, dst_reg->type, false);
			mark_pkt_end(this_branch, insn->dst_reg, true);
		} else if (src_low) {	/* end <= pkt': false side pkt' < end */
			find_good_pkt_pointers(this_branch, src_reg, src_reg->type, true);
			mark_pkt_end(other_branch, insn->src_reg, false);
		}
		break;
	}
}

/*
 * may_goto: the loop it bounds may end at any turn. The current path takes the jump (out of
 * the loop); another turn is pushed, one may_goto deeper, with the scalars nothing depends on
 * that changed since the previous turn made unknown, so that the turns converge.
 */
static int check_may_goto(struct nb_verifier_env *env, const struct bpf_insn *insn,
			  u32 *insn_idx)
{
	struct nb_verifier_state *parent = env->cur->parent, *prev = NULL, *next_turn;

	if (parent)
		prev = find_prev_entry(env, parent, *insn_idx);
	next_turn = push_stack(env, *insn_idx + 1, *insn_idx);
	if (!next_turn)
		return -ENOMEM;
	next_turn->may_goto_depth++;
	if (prev)
		widen_imprecise_scalars(env, prev, next_turn);
	*insn_idx += insn->off;
	return 0;
}

int check_cond_jmp_op(struct nb_verifier_env *env, struct bpf_insn *insn, u32 *insn_idx)
{
	struct nb_verifier_state *this_branch = env->cur, *other_branch;
	struct nb_reg_state *regs = cur_regs(env), *dst_reg, *src_reg, *o_regs;
	struct nb_reg_state fake_src, o_fake_src;
	bool is32 = insn_class(insn) == BPF_JMP32;
	u32 flags = 0;
	bool is_x = BPF_SRC(insn->code) == BPF_X;
	u8 op = BPF_OP(insn->code);
	int pred, err;

	if (insn_is_may_goto(insn))
		return check_may_goto(env, insn, insn_idx);
	err = check_reg_arg_read(env, insn->dst_reg);
	if (err)
		return err;
	dst_reg = &regs[insn->dst_reg];
	if (is_x) {
		err = check_reg_arg_read(env, insn->src_reg);
		if (err)
			return err;
		src_reg = &regs[insn->src_reg];
	} else {
		mark_reg_known(&fake_src, is32 ? (u64)(u32)insn->imm : (u64)(s64)insn->imm);
		src_reg = &fake_src;
	}
	/* Comparisons of stack pointers need no precision (backtracking skips them). */
	if (dst_reg->type == PTR_TO_STACK)
		flags |= NB_INSN_F_DST_REG_STACK;
	if (is_x && src_reg->type == PTR_TO_STACK)
		flags |= NB_INSN_F_SRC_REG_STACK;
	if (flags) {
		err = push_jmp_history(env, this_branch, flags, 0);
		if (err)
			return err;
	}

	pred = is_branch_taken(dst_reg, src_reg, op, is32);
	if (pred >= 0) {
		/* The operands' values decided the branch: they must be matched exactly. */
		if (dst_reg->type == SCALAR_VALUE)
			err = mark_chain_precision(env, insn->dst_reg);
		if (!err && is_x && src_reg->type == SCALAR_VALUE)
			err = mark_chain_precision(env, insn->src_reg);
		if (err)
			return err;
	}
	if (pred == 1) {
		*insn_idx += insn->off;
		return 0;
	}
	if (pred == 0)
		return 0;

	/* The scalars a refinement moves, recorded before the state is copied. */
	err = push_linked_regs(env, dst_reg, is_x ? src_reg : NULL);
	if (err)
		return err;

	other_branch = push_stack(env, *insn_idx + insn->off + 1, *insn_idx);
	if (!other_branch)
		return -ENOMEM;
	o_regs = other_branch->frame[other_branch->curframe]->regs;
	if (is_x) {
		reg_set_min_max(&o_regs[insn->dst_reg], &o_regs[insn->src_reg], dst_reg, src_reg,
				op, is32);
	} else {
		o_fake_src = fake_src;
		reg_set_min_max(&o_regs[insn->dst_reg], &o_fake_src, dst_reg, &fake_src, op, is32);
	}
	if (is_x && src_reg->type == SCALAR_VALUE && src_reg->id) {
		sync_linked_regs(this_branch, src_reg);
		sync_linked_regs(other_branch, &o_regs[insn->src_reg]);
	}
	if (dst_reg->type == SCALAR_VALUE && dst_reg->id) {
		sync_linked_regs(this_branch, dst_reg);
		sync_linked_regs(other_branch, &o_regs[insn->dst_reg]);
	}

	/*
	 * One maybe-null pointer compared with a pointer that is not: equal means not null.
	 */
	if (!is32 && is_x && reg_is_pointer(dst_reg) && reg_is_pointer(src_reg) &&
	    reg_type_may_be_null(dst_reg->type) != reg_type_may_be_null(src_reg->type) &&
	    (op == BPF_JEQ || op == BPF_JNE)) {
		struct nb_reg_state *eq_regs = op == BPF_JEQ ? o_regs : regs;
		u32 maybe_null = reg_type_may_be_null(src_reg->type) ? insn->src_reg
								     : insn->dst_reg;

		mark_ptr_not_null_reg(&eq_regs[maybe_null]);
	}
	/*
	 * ptr == 0 / ptr != 0 on a maybe-null pointer settles every copy on both sides. Only the
	 * immediate form counts, as in the kernel.
	 */
	if (!is32 && (op == BPF_JEQ || op == BPF_JNE) && !is_x && insn->imm == 0 &&
	    (dst_reg->type & PTR_MAYBE_NULL)) {
		u32 id = dst_reg->id, ref = dst_reg->ref_obj_id;

		if (!id) {
			/* No copies to settle: only the register compared. */
			mark_ptr_or_null_reg(&o_regs[insn->dst_reg], 0, op == BPF_JEQ);
			mark_ptr_or_null_reg(dst_reg, 0, op == BPF_JNE);
			return 0;
		}
		mark_ptr_or_null_regs(other_branch, id, ref, op == BPF_JEQ);
		mark_ptr_or_null_regs(this_branch, id, ref, op == BPF_JNE);
		return 0;
	}
	try_match_pkt_pointers(insn, dst_reg, src_reg, this_branch, other_branch);
	return 0;
}
