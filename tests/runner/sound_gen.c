// SPDX-License-Identifier: GPL-2.0
/*
 * The soundness fuzzer's program generator; see sound_gen.h for what the programs contain.
 *
 * A program is a main function and up to four subprograms, each a block of statements. A
 * statement that needs a proof (a null check, a packet range, a bound on a scalar) opens a
 * nested block guarded by the conditional jump that gives it, and the jump skips the block.
 * The model (struct frame) follows what the verifier would know: register kinds, packet
 * ranges, scalar bounds, stack slots. After a block the model keeps only what holds on both
 * paths, since the verifier walks them separately and the code after the block must be
 * valid for each.
 *
 * Register roles: r6 holds the context in every function that has one and is never written;
 * r10 is the frame pointer. A loop's counter is locked for its body.
 */
#include <string.h>
#include <stddef.h>

#include "bpf_asm.h"
#include "sound_gen.h"

enum kind {
	K_NONE,		/* uninitialised or unusable after a join */
	K_SCALAR,
	K_CTX,
	K_PKT,		/* data + var + off; the proven range is frame.range[vid] */
	K_PKT_END,
	K_PKT_META,	/* data_meta + off; proven up to frame.meta_range */
	K_MAPVAL,	/* a map value, non-null */
	K_STACK,	/* r10 + off (off < 0) in this function's frame */
	K_MEM,		/* size bytes: a ringbuf reservation, a caller's stack, a map key */
};

#define UNKNOWN		(~0ULL)
#define NSLOTS		64
#define MAX_VIDS	32
#define MAX_FUNCS	SG_MAX_FUNCS
#define MAX_DEPTH	3
#define MAX_FIXUPS	64
#define MAX_GUARD_JUMPS	4
#define NB_STACK_SIZE_GEN 512

struct sreg {
	u8 kind;
	u8 map;		/* K_MAPVAL: index into opts->maps */
	u8 vid;		/* K_PKT: range id, 0 for fixed offsets from data */
	bool taint;	/* scalar that may carry pointer bits */
	bool ro;	/* K_MEM: read only (a map key) */
	bool ringbuf;	/* K_MEM: a reservation that must be submitted */
	s32 off;	/* fixed offset */
	u32 var;	/* pointers: largest variable offset added */
	u32 size;	/* K_MEM: bytes from the start of the region */
	u64 umax;	/* K_SCALAR: largest value as u64, UNKNOWN when it may be anything */
};

enum slot_state {
	S_EMPTY,	/* never written: reads as an unknown scalar (privileged) */
	S_MISC,		/* scalar bytes */
	S_SPILL,	/* an 8-byte spill of spill */
	S_MIXED,	/* a pointer on one path, something else on another: not filled */
};

struct slot {
	u8 st;
	u8 written;	/* bytes written on every path (bit k: byte k from the slot's start) */
	bool ptr_ever;	/* held a pointer once: its bytes may be an address */
	struct sreg spill;
};

struct frame {
	struct sreg r[11];
	struct slot s[NSLOTS];	/* s[i] covers fp-8*(i+1) .. fp-8*i-1 */
	s32 range[MAX_VIDS];
	s32 meta_range;
	u16 locked;		/* registers a loop body must not write */
	bool in_loop;
};

enum func_kind { F_MAIN, F_PLAIN, F_LOOP_CB, F_EACH_CB };

struct func {
	u8 kind;
	u8 parent;
	bool has_ctx;
	bool called;
	/* F_PLAIN: what r1 holds (K_SCALAR, K_CTX, K_MEM, K_MAPVAL or K_PKT), r2 a scalar */
	u8 arg;
	u8 map;
	u32 size;	/* K_MEM: bytes; K_PKT: bytes proven */
	u64 umax2;
	u32 start;
};

struct gen {
	const u8 *data;
	size_t len, pos;
	u64 rng;
	const struct sg_opts *o;
	struct bpf_insn *out;
	u32 n;
	bool full;
	struct frame f;
	u32 depth;
	u32 stmts;		/* statements left in the current function */
	u32 nvid;
	u32 probes;
	bool leaky;
	u32 cur;
	struct func funcs[MAX_FUNCS];
	u32 nfuncs;
	struct { u32 at, fn; } fix[MAX_FIXUPS];
	u32 nfix;
	bool xdp, tc, sock;
	int ringbuf_map, prog_array_map;
	int inner_call;		/* a call the next lookup or packet check must make inside */
	/* stack bytes each function may use: a call chain's frames share 512 */
	s32 frame_bytes;
};

/* ---- choices ---- */

static u64 splitmix(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number below n: the next input byte while there are some, then the seeded generator. */
static u32 pick(struct gen *g, u32 n)
{
	u32 v;

	if (n <= 1)
		return 0;
	if (g->pos < g->len) {
		v = g->data[g->pos++];
		if (n > 256 && g->pos < g->len)
			v = v << 8 | g->data[g->pos++];
		return v % n;
	}
	return (u32)(splitmix(&g->rng) % n);
}

static bool chance(struct gen *g, u32 one_in)
{
	return pick(g, one_in) == 0;
}

/* A deliberate step past what the model proved: the verifier must refuse the program. */
static bool probe(struct gen *g)
{
	if (!chance(g, 40))
		return false;
	g->probes++;
	return true;
}

static s32 edge_imm(struct gen *g)
{
	static const s32 edges[] = {
		0, 1, -1, 2, 7, 8, 14, 15, 16, 31, 32, 63, 64, 0x7f, 0x80, 0xff, 0x100, 0x7fff,
		0x8000, 0xffff, INT32_MAX, INT32_MIN, -8, -14, -16, -128, 0x10000,
	};

	switch (pick(g, 3)) {
	case 0:
		return edges[pick(g, ARRAY_SIZE(edges))];
	case 1:
		return (s32)pick(g, 80) - 8;
	default:
		return (s32)splitmix(&g->rng);
	}
}

/* ---- output ---- */

static void forget_pointer_copy(struct gen *g, struct bpf_insn insn);

static void put(struct gen *g, struct bpf_insn insn)
{
	forget_pointer_copy(g, insn);
	if (g->n < g->o->max_insns)
		g->out[g->n++] = insn;
	else
		g->full = true;
}

static void put2(struct gen *g, const struct bpf_insn insn[2])
{
	put(g, insn[0]);
	put(g, insn[1]);
}

static void put_ld_map(struct gen *g, u8 reg, u32 map)
{
	const struct bpf_insn ld[2] = { NB_LD_MAP_IDX(reg, map) };

	put2(g, ld);
}

static void put_call_fixup(struct gen *g, u32 fn, bool func_ref, u8 reg)
{
	if (g->nfix >= MAX_FIXUPS) {
		g->full = true;
		return;
	}
	g->fix[g->nfix].at = g->n;
	g->fix[g->nfix++].fn = fn;
	if (func_ref) {
		const struct bpf_insn ld[2] = { NB_LD_FUNC(reg, 0) };

		put2(g, ld);
	} else {
		put(g, NB_CALL_REL(0));
	}
	g->funcs[fn].called = true;
}

/* ---- the model ---- */

static struct sreg *R(struct gen *g, u8 r)
{
	return &g->f.r[r];
}

static void set_scalar(struct gen *g, u8 r, u64 umax, bool taint)
{
	*R(g, r) = (struct sreg){ .kind = K_SCALAR, .umax = umax, .taint = taint };
}

static bool is_ptr(const struct sreg *r)
{
	return r->kind != K_NONE && r->kind != K_SCALAR;
}

/*
 * A register set from r10 or a pointer (an argument being set up) no longer holds what the
 * model had there: it is forgotten, so that a scalar chosen later in the same statement is
 * not that pointer (passed on as a scalar, byte-swapped and returned, an address leaks into
 * the results, which then differ between engines). Code that knows what it wrote says so
 * after the put.
 */
static void forget_pointer_copy(struct gen *g, struct bpf_insn insn)
{
	if (insn.code != (BPF_ALU64 | BPF_MOV | BPF_X) || insn.dst_reg > BPF_REG_9)
		return;
	if (insn.src_reg == BPF_REG_10 || (insn.src_reg < BPF_REG_10 && is_ptr(R(g, insn.src_reg))))
		R(g, insn.dst_reg)->kind = K_NONE;
}

static bool has_ctx(const struct gen *g)
{
	return g->funcs[g->cur].has_ctx;
}

/* Registers a statement may overwrite. */
static u16 writable(const struct gen *g)
{
	u16 m = 0x3ff & ~(1U << BPF_REG_10);

	if (has_ctx(g))
		m &= ~(1U << BPF_REG_6);
	return m & ~g->f.locked;
}

/* A register to write: mostly one that holds nothing or a scalar, so pointers live on. */
static int pick_dst(struct gen *g)
{
	u16 m = writable(g), cheap = 0;
	u8 regs[11], n = 0;

	for (u8 r = 0; r < 10; r++)
		if ((m & (1U << r)) && (R(g, r)->kind == K_NONE || R(g, r)->kind == K_SCALAR))
			cheap |= 1U << r;
	if (cheap && !chance(g, 8))
		m = cheap;
	for (u8 r = 0; r < 10; r++)
		if (m & (1U << r))
			regs[n++] = r;
	return n ? regs[pick(g, n)] : -1;
}

/* A register of kind, -1 when none. */
static int pick_kind(struct gen *g, u8 kind)
{
	u8 regs[11], n = 0;

	for (u8 r = 0; r < 11; r++)
		if (R(g, r)->kind == kind)
			regs[n++] = r;
	return n ? regs[pick(g, n)] : -1;
}

static int pick_scalar(struct gen *g)
{
	return pick_kind(g, K_SCALAR);
}

/* Calls clobber r1..r5; r0 is the caller's to set. */
static void clobber_caller_saved(struct gen *g)
{
	for (u8 r = BPF_REG_1; r <= BPF_REG_5; r++)
		R(g, r)->kind = K_NONE;
}

static bool reg_equal(const struct sreg *a, const struct sreg *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case K_NONE:
	case K_SCALAR:
	case K_CTX:
	case K_PKT_END:
		return true;
	case K_MEM:
		return a->off == b->off && a->size == b->size && a->ro == b->ro &&
		       a->ringbuf == b->ringbuf;
	default:
		return a->off == b->off && a->var == b->var && a->map == b->map &&
		       a->vid == b->vid;
	}
}

static void reg_merge(struct sreg *into, const struct sreg *other)
{
	if (!reg_equal(into, other)) {
		into->kind = K_NONE;
		return;
	}
	if (into->kind == K_SCALAR) {
		into->umax = into->umax > other->umax ? into->umax : other->umax;
		into->taint |= other->taint;
	}
}

/* The code after a join must hold on both paths: keep what both agree on. */
static void frame_merge(struct frame *into, const struct frame *other)
{
	for (u8 r = 0; r < 11; r++)
		reg_merge(&into->r[r], &other->r[r]);
	for (u32 i = 0; i < NSLOTS; i++) {
		struct slot *a = &into->s[i];
		const struct slot *b = &other->s[i];

		a->ptr_ever |= b->ptr_ever;
		a->written &= b->written;
		if (a->st == b->st && a->st != S_SPILL)
			continue;
		/* unwritten on one path: whatever the engine left there, or a spill */
		if (a->st == S_EMPTY || b->st == S_EMPTY) {
			if (a->st == S_MISC || b->st == S_MISC) {
				a->st = S_EMPTY;
			} else {
				a->st = S_MIXED;
				a->ptr_ever = true;
			}
			continue;
		}
		if (a->st == S_SPILL && b->st == S_SPILL && reg_equal(&a->spill, &b->spill)) {
			reg_merge(&a->spill, &b->spill);
			continue;
		}
		if (a->st == S_SPILL || b->st == S_SPILL || a->st == S_MIXED || b->st == S_MIXED)
			a->st = S_MIXED;
		else
			a->st = S_MISC;
	}
	for (u32 v = 0; v < MAX_VIDS; v++)
		if (other->range[v] < into->range[v])
			into->range[v] = other->range[v];
	if (other->meta_range < into->meta_range)
		into->meta_range = other->meta_range;
}

/* ---- guarded blocks ---- */

struct guard {
	u32 at[MAX_GUARD_JUMPS];
	u32 n;
	struct frame saved;
};

static void guard_begin(struct gen *g, struct guard *gd)
{
	gd->n = 0;
	gd->saved = g->f;
}

/* A conditional jump (or JA) whose target is the end of the block. */
static void guard_jump(struct gen *g, struct guard *gd, struct bpf_insn jmp)
{
	if (gd->n < MAX_GUARD_JUMPS)
		gd->at[gd->n++] = g->n;
	put(g, jmp);
}

static void guard_end(struct gen *g, struct guard *gd)
{
	for (u32 i = 0; i < gd->n && !g->full; i++) {
		struct bpf_insn *j = &g->out[gd->at[i]];

		j->off = (s16)(g->n - gd->at[i] - 1);
	}
	frame_merge(&g->f, &gd->saved);
}

static void gen_block(struct gen *g, u32 len);
static void gen_call(struct gen *g, u32 fn_idx);

/*
 * A loop body runs again from the state its last iteration left: it must not overwrite a
 * spilled pointer that it (or the code after it) may fill again.
 */
static bool stack_write_ok(const struct gen *g, s32 fp_off, u32 bytes)
{
	if (!g->f.in_loop)
		return true;
	for (s32 b = fp_off; b < fp_off + (s32)bytes; b++) {
		int i = b < 0 && b >= -NB_STACK_SIZE_GEN ? (-b - 1) / 8 : -1;

		if (i >= 0 && g->f.s[i].st == S_SPILL && g->f.s[i].spill.kind != K_SCALAR)
			return false;
	}
	return true;
}

/* ---- scalars ---- */

static u64 size_max(u32 size)
{
	return size >= 8 ? UNKNOWN : (1ULL << (8 * size)) - 1;
}

static const u8 size_codes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };

static u32 code_bytes(u8 code)
{
	return code == BPF_B ? 1 : code == BPF_H ? 2 : code == BPF_W ? 4 : 8;
}

static u8 bytes_code(u32 bytes)
{
	return bytes == 1 ? BPF_B : bytes == 2 ? BPF_H : bytes == 4 ? BPF_W : BPF_DW;
}

static void gen_const(struct gen *g)
{
	int d = pick_dst(g);
	s32 imm = edge_imm(g);

	if (d < 0)
		return;
	switch (pick(g, 3)) {
	case 0:
		put(g, NB_MOV64_IMM(d, imm));
		set_scalar(g, d, imm < 0 ? UNKNOWN : (u64)imm, false);
		break;
	case 1:
		put(g, NB_MOV32_IMM(d, imm));
		set_scalar(g, d, (u32)imm, false);
		break;
	default: {
		u64 v = (u64)(u32)edge_imm(g) << 32 | (u32)imm;
		const struct bpf_insn ld[2] = { NB_LD_IMM64(d, v) };

		put2(g, ld);
		set_scalar(g, d, v, false);
	}
	}
}

/* The ALU result's bound, as far as the generator bothers to follow it. */
static u64 alu_bound(u8 op, u64 a, u64 b, bool is64)
{
	u64 lim = is64 ? UNKNOWN : 0xffffffffULL, r;

	switch (op) {
	case BPF_AND:
		r = a < b ? a : b;
		break;
	case BPF_ADD:
		r = a + b < a ? UNKNOWN : a + b;
		break;
	case BPF_MUL:
		r = a && b > UNKNOWN / a ? UNKNOWN : a * b;
		break;
	case BPF_OR:
	case BPF_XOR: {
		u64 m = a | b;

		r = m;
		for (u32 s = 1; s < 64; s <<= 1)
			r |= r >> s;
		break;
	}
	case BPF_RSH:
		r = b < 64 ? a >> b : UNKNOWN;
		break;
	case BPF_DIV:
		r = a;
		break;
	case BPF_MOD:
		r = b && b != UNKNOWN ? b - 1 : UNKNOWN;
		break;
	case BPF_LSH:
		r = b < 64 && a <= (UNKNOWN >> b) ? a << b : UNKNOWN;
		break;
	default:
		r = UNKNOWN;
	}
	return r > lim ? lim : r;
}

static void gen_alu(struct gen *g)
{
	static const u8 ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR, BPF_AND, BPF_LSH,
				  BPF_RSH, BPF_NEG, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH, BPF_END,
				  BPF_AND, BPF_AND, BPF_RSH, BPF_MOD };
	int d = pick_scalar(g), s;
	u8 op = ops[pick(g, ARRAY_SIZE(ops))];
	bool is64 = pick(g, 3), sdiv = false;
	u8 cls = is64 ? BPF_ALU64 : BPF_ALU;
	struct sreg *dr;
	u64 b;

	if (d < 0 || !(writable(g) & (1U << d)))
		return;
	dr = R(g, d);
	if (op == BPF_NEG) {
		put(g, NB_INSN(cls | BPF_NEG | BPF_K, d, 0, 0, 0));
		dr->umax = is64 ? UNKNOWN : 0xffffffffULL;
		return;
	}
	if (op == BPF_END) {
		static const s32 widths[] = { 16, 32, 64 };
		s32 w = widths[pick(g, 3)];

		if (is64)
			put(g, NB_BSWAP(d, w));
		else
			put(g, NB_ENDIAN(pick(g, 2) ? BPF_TO_BE : BPF_TO_LE, d, w));
		dr->umax = w == 64 ? (is64 || dr->umax > 0xffffffffULL ? UNKNOWN : dr->umax)
				   : size_max(w / 8);
		if (!is64 && w == 64)
			dr->umax = UNKNOWN;
		return;
	}
	if ((op == BPF_DIV || op == BPF_MOD) && chance(g, 3))
		sdiv = true;
	s = chance(g, 2) ? pick_scalar(g) : -1;
	if (op == BPF_MOV && s >= 0 && chance(g, 3)) {
		/* sign extension: the result may be negative */
		static const s16 bits[] = { 8, 16, 32 };
		s16 b8 = bits[pick(g, is64 ? 3 : 2)];

		put(g, NB_INSN(cls | BPF_MOV | BPF_X, d, s, b8, 0));
		set_scalar(g, d, is64 ? UNKNOWN : 0xffffffffULL, R(g, s)->taint);
		return;
	}
	if (s >= 0) {
		put(g, NB_INSN(cls | op | BPF_X, d, s, sdiv, 0));
		b = R(g, s)->umax;
		dr->taint |= R(g, s)->taint;
	} else {
		s32 imm = edge_imm(g);

		if (op == BPF_AND && chance(g, 2))
			imm = (1 << pick(g, 9)) - 1;	/* a mask: the usual way to bound */
		if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) && !chance(g, 64))
			imm = pick(g, is64 ? 64 : 32);
		put(g, NB_INSN(cls | op | BPF_K, d, 0, sdiv, imm));
		b = is64 ? (u64)(s64)imm : (u32)imm;
	}
	if (op == BPF_MOV)
		dr->umax = is64 ? b : (b > 0xffffffffULL ? 0xffffffffULL : b);
	else if (sdiv || op == BPF_SUB || op == BPF_ARSH)
		dr->umax = is64 ? UNKNOWN : 0xffffffffULL;
	else
		dr->umax = alu_bound(op, is64 ? dr->umax : (dr->umax > 0xffffffffULL
							    ? 0xffffffffULL : dr->umax),
				     b, is64);
}

/* ---- memory: where an access of size bytes may go ---- */

/* Room from the register's pointer for an access: [lo, hi) of the insn offset; false if none. */
static bool access_room(struct gen *g, const struct sreg *r, bool write, s32 *lo, s32 *hi)
{
	switch (r->kind) {
	case K_PKT:
		if (write && g->sock)
			return false;
		/* a range counts from data plus the pointer's variable part, as reg->off does */
		*lo = -r->off;
		*hi = g->f.range[r->vid] - r->off;
		return *hi > *lo || probe(g);
	case K_PKT_META:
		*lo = -r->off;
		*hi = g->f.meta_range - r->off;
		return *hi > *lo || probe(g);
	case K_MAPVAL: {
		const struct sg_map *m = &g->o->maps[r->map];

		*lo = -r->off;
		*hi = (s32)m->value_size - r->off - (s32)r->var;
		return *hi > *lo;
	}
	case K_STACK:
		*lo = -g->frame_bytes - r->off;
		*hi = -r->off - (s32)r->var;
		return *hi > *lo;
	case K_MEM:
		if (write && r->ro)
			return false;
		*lo = -r->off;
		*hi = (s32)r->size - r->off - (s32)r->var;
		return *hi > *lo;
	default:
		return false;
	}
}

/* The bytes a load through packet or map value pointer r may read from it, without probing. */
static s32 read_room(struct gen *g, const struct sreg *r)
{
	if (r->kind == K_PKT)
		return g->f.range[r->vid] - r->off;
	return (s32)g->o->maps[r->map].value_size - r->off - (s32)r->var;
}

/* An instruction offset for an access of bytes in [lo, hi), aligned when asked. */
static s32 access_off(struct gen *g, s32 lo, s32 hi, u32 bytes, bool align)
{
	s32 span = hi - lo - (s32)bytes, off;

	if (span < 0 || probe(g)) {
		/* past the end or before the start by a little, or anywhere */
		switch (pick(g, 3)) {
		case 0:
			return hi - (s32)bytes + 1 + (s32)pick(g, 8);
		case 1:
			return lo - 1 - (s32)pick(g, 8);
		default:
			return (s32)(s16)splitmix(&g->rng);
		}
	}
	off = lo + (s32)pick(g, span + 1);
	if (align)
		off -= ((off % (s32)bytes) + (s32)bytes) % (s32)bytes;
	if (off < lo)
		off += bytes;
	return off;
}

/* The stack slot an fp-relative byte offset falls in, -1 outside the frame. */
static int slot_of(s32 fp_off)
{
	if (fp_off >= 0 || fp_off < -NB_STACK_SIZE_GEN)
		return -1;
	return (-fp_off - 1) / 8;
}

/* A write of bytes at fp + fp_off (var: up to var more) of a value described by v. */
static void stack_written(struct gen *g, s32 fp_off, u32 bytes, u32 var, const struct sreg *v)
{
	int first = slot_of(fp_off + (s32)var + (s32)bytes - 1), last = slot_of(fp_off);

	if (first < 0 || last < 0)
		return;
	for (int i = first; i <= last; i++) {
		struct slot *s = &g->f.s[i];

		if (v && bytes == 8 && !var && fp_off % 8 == 0) {
			s->st = S_SPILL;
			s->spill = *v;
			s->ptr_ever |= is_ptr(v);
		} else {
			s->st = s->st == S_MIXED ? S_MIXED : S_MISC;
		}
	}
	/* a variable offset writes some of its range: none of it counts as written */
	for (s32 b = fp_off; !var && b < fp_off + (s32)bytes; b++)
		if (slot_of(b) >= 0)
			g->f.s[slot_of(b)].written |= 1U << (b + 8 * (slot_of(b) + 1));
}

static bool byte_written(const struct gen *g, s32 b)
{
	int i = slot_of(b);

	return i >= 0 && (g->f.s[i].written & (1U << (b + 8 * (i + 1))));
}

/*
 * Whether bytes read from the stack at [fp_off, fp_off + bytes) may differ between engines:
 * an address once spilled there, or bytes never written (whatever the engine left there; the
 * harness also runs the interpreter over two kinds of such garbage and compares the engines
 * only when those runs agree).
 */
static bool stack_may_leak(const struct gen *g, s32 fp_off, u32 bytes)
{
	for (s32 b = fp_off; b < fp_off + (s32)bytes; b += 1) {
		int i = slot_of(b);

		if (i >= 0 && (g->f.s[i].ptr_ever || !byte_written(g, b)))
			return true;
	}
	return false;
}

/*
 * Give never-written slots of [fp_off, fp_off + bytes) a value before something reads them:
 * the engines leave different bytes there, and a run that depends on them cannot be compared.
 */
static void init_stack(struct gen *g, s32 fp_off, u32 bytes)
{
	for (s32 b = fp_off & ~7; b < fp_off + (s32)bytes; b += 8) {
		int i = slot_of(b);
		struct slot *sl = i >= 0 ? &g->f.s[i] : NULL;

		if (!sl || sl->written == 0xff || sl->st == S_SPILL || sl->st == S_MIXED)
			continue;
		if (!sl->written) {
			put(g, NB_ST_MEM(BPF_DW, BPF_REG_10, -8 * (i + 1), 0));
		} else {
			for (s32 k = 0; k < 8; k++)
				if (!(sl->written & (1U << k)))
					put(g, NB_ST_MEM(BPF_B, BPF_REG_10, -8 * (i + 1) + k, 0));
		}
		sl->written = 0xff;
		sl->st = S_MISC;
	}
}

/* A read of bytes no engine defines: mostly skipped, else the run is not compared. */
static bool nondet_read_ok(struct gen *g, bool nondet)
{
	if (!nondet)
		return true;
	if (!chance(g, 8))
		return false;
	g->leaky = true;
	return true;
}

static void gen_access(struct gen *g)
{
	static const u8 ptr_kinds[] = { K_PKT, K_PKT, K_MAPVAL, K_MAPVAL, K_STACK, K_MEM,
					K_PKT_META };
	u8 want = ptr_kinds[pick(g, ARRAY_SIZE(ptr_kinds))];
	int p = pick_kind(g, want), d, s;
	u32 bytes = code_bytes(size_codes[pick(g, 4)]);
	bool write = chance(g, 2), atomic = false;
	struct sreg *pr;
	s32 lo, hi, off;

	if (p < 0)
		return;
	pr = R(g, p);
	if (!access_room(g, pr, write, &lo, &hi))
		return;
	if (write && chance(g, 5) && (pr->kind == K_MAPVAL || pr->kind == K_STACK ||
				      (pr->kind == K_MEM && !pr->ro))) {
		atomic = true;
		bytes = chance(g, 2) ? 4 : 8;
	}
	off = access_off(g, lo, hi, bytes, atomic);
	if (!nondet_read_ok(g, (pr->kind == K_STACK &&
				stack_may_leak(g, pr->off + off, bytes + pr->var)) ||
			       (pr->kind == K_MEM && pr->ringbuf)))
		return;
	if (!write) {
		bool sx = bytes < 8 && chance(g, 5);

		d = pick_dst(g);
		if (d < 0)
			return;
		if (sx)
			put(g, NB_LDX_MEMSX(bytes_code(bytes), d, p, off));
		else
			put(g, NB_LDX_MEM(bytes_code(bytes), d, p, off));
		if (pr->kind == K_STACK && !pr->var && bytes == 8 && (pr->off + off) % 8 == 0 &&
		    slot_of(pr->off + off) >= 0) {
			const struct slot *sl = &g->f.s[slot_of(pr->off + off)];

			if (sl->st == S_SPILL) {
				*R(g, d) = sl->spill;
				return;
			}
			if (sl->st == S_MIXED) {
				R(g, d)->kind = K_NONE;
				return;
			}
		}
		set_scalar(g, d, sx ? UNKNOWN : size_max(bytes),
			   (pr->kind == K_STACK && stack_may_leak(g, pr->off + off, bytes + pr->var)) ||
			   (pr->kind == K_MEM && pr->ringbuf));
		return;
	}
	if (atomic) {
		static const s32 ops[] = {
			BPF_ADD, BPF_AND, BPF_OR, BPF_XOR, BPF_ADD | BPF_FETCH,
			BPF_AND | BPF_FETCH, BPF_OR | BPF_FETCH, BPF_XOR | BPF_FETCH, BPF_XCHG,
			BPF_CMPXCHG,
		};
		s32 op = ops[pick(g, ARRAY_SIZE(ops))];

		s = pick_scalar(g);
		if (s < 0 || (op == BPF_CMPXCHG && R(g, 0)->kind != K_SCALAR))
			return;
		if (((op & BPF_FETCH) || op == BPF_CMPXCHG) && !(writable(g) & (1U << s)))
			return;
		if (pr->kind == K_STACK && !stack_write_ok(g, pr->off + off, bytes + pr->var))
			return;
		if (op == BPF_CMPXCHG && !(writable(g) & 1))
			return;
		put(g, NB_ATOMIC_OP(bytes_code(bytes), op, p, s, off));
		if (op == BPF_CMPXCHG)
			set_scalar(g, 0, size_max(bytes), false);
		else if (op & BPF_FETCH)
			set_scalar(g, s, size_max(bytes), false);
		if (pr->kind == K_STACK)
			stack_written(g, pr->off + off, bytes, pr->var, NULL);
		return;
	}
	s = chance(g, 3) ? -1 : pick_kind(g, K_SCALAR);
	if (pr->kind == K_STACK && chance(g, 3)) {
		/* a spill: any register, pointers included */
		u8 r = pick(g, 10);

		if (R(g, r)->kind != K_NONE)
			s = r;
		bytes = 8;
		if (!pr->var && (pr->off + off) % 8 && slot_of(pr->off + off) >= 0)
			off -= ((pr->off + off) % 8 + 8) % 8;
		if (pr->off + off < -g->frame_bytes)
			off += 8;
		if (pr->off + off + 8 > 0)
			off -= 8;
		if (s >= 0 && g->f.in_loop && is_ptr(R(g, s)))
			s = -1;
	}
	if (pr->kind == K_STACK && !stack_write_ok(g, pr->off + off, bytes + pr->var))
		return;
	if (s >= 0 && pr->kind != K_STACK && (is_ptr(R(g, s)) || R(g, s)->taint)) {
		if (!probe(g))
			return;
		g->leaky = true;
	}
	if (s >= 0)
		put(g, NB_STX_MEM(bytes_code(bytes), p, s, off));
	else
		put(g, NB_ST_MEM(bytes_code(bytes), p, off, edge_imm(g)));
	if (pr->kind == K_STACK)
		stack_written(g, pr->off + off, bytes, pr->var, s >= 0 ? R(g, s) : NULL);
	if (s >= 0 && (pr->kind == K_MEM || pr->kind == K_PKT || pr->kind == K_MAPVAL) &&
	    R(g, s)->taint)
		g->leaky = true;
}

/* ---- context ---- */

struct ctx_field {
	u16 off;
	u8 size;
	bool writable;
};

static const struct ctx_field skb_fields[] = {
	{ offsetof(struct __sk_buff, len), 4, false },
	{ offsetof(struct __sk_buff, pkt_type), 4, false },
	{ offsetof(struct __sk_buff, mark), 4, true },
	{ offsetof(struct __sk_buff, queue_mapping), 4, true },
	{ offsetof(struct __sk_buff, protocol), 4, false },
	{ offsetof(struct __sk_buff, vlan_present), 4, false },
	{ offsetof(struct __sk_buff, vlan_tci), 4, false },
	{ offsetof(struct __sk_buff, priority), 4, true },
	{ offsetof(struct __sk_buff, ingress_ifindex), 4, false },
	{ offsetof(struct __sk_buff, ifindex), 4, false },
	{ offsetof(struct __sk_buff, tc_index), 4, true },
	{ offsetof(struct __sk_buff, cb[0]), 4, true },
	{ offsetof(struct __sk_buff, cb[3]), 4, true },
	{ offsetof(struct __sk_buff, hash), 4, false },
	{ offsetof(struct __sk_buff, tc_classid), 4, true },
	{ offsetof(struct __sk_buff, wire_len), 4, false },
	{ offsetof(struct __sk_buff, gso_segs), 4, false },
	{ offsetof(struct __sk_buff, tstamp), 8, true },
};

static const struct ctx_field xdp_fields[] = {
	{ offsetof(struct xdp_md, ingress_ifindex), 4, false },
	{ offsetof(struct xdp_md, rx_queue_index), 4, false },
};

static void gen_ctx_access(struct gen *g)
{
	const struct ctx_field *fields = g->xdp ? xdp_fields : skb_fields;
	u32 cnt = g->xdp ? ARRAY_SIZE(xdp_fields) : ARRAY_SIZE(skb_fields);
	const struct ctx_field *f = &fields[pick(g, cnt)];
	bool write = f->writable && chance(g, 3) && !(g->sock && f->off != 48);
	u32 bytes = f->size;
	s32 off = f->off;
	int d, s;

	if (!has_ctx(g))
		return;
	if (probe(g)) {
		off = (s32)pick(g, g->xdp ? 28 : 200);
		bytes = code_bytes(size_codes[pick(g, 4)]);
	} else if (!write && bytes == 4 && !g->xdp && chance(g, 4)) {
		bytes = chance(g, 2) ? 1 : 2;	/* narrow reads */
	}
	if (write) {
		s = pick_scalar(g);
		if (s >= 0 && !R(g, s)->taint)
			put(g, NB_STX_MEM(bytes_code(bytes), BPF_REG_6, s, off));
		else
			put(g, NB_ST_MEM(bytes_code(bytes), BPF_REG_6, off, edge_imm(g)));
		return;
	}
	d = pick_dst(g);
	if (d < 0)
		return;
	put(g, NB_LDX_MEM(bytes_code(bytes), d, BPF_REG_6, off));
	set_scalar(g, d, size_max(bytes), false);
}

/* Packet pointers from the context. */
static int load_pkt_reg(struct gen *g, u8 kind)
{
	s32 off;
	int d;

	if (!has_ctx(g) || g->sock)
		return -1;
	d = pick_dst(g);
	if (d < 0)
		return -1;
	if (g->xdp)
		off = kind == K_PKT ? offsetof(struct xdp_md, data)
		      : kind == K_PKT_END ? offsetof(struct xdp_md, data_end)
		      : offsetof(struct xdp_md, data_meta);
	else
		off = kind == K_PKT ? offsetof(struct __sk_buff, data)
		      : kind == K_PKT_END ? offsetof(struct __sk_buff, data_end)
		      : offsetof(struct __sk_buff, data_meta);
	put(g, NB_LDX_MEM(BPF_W, d, BPF_REG_6, off));
	*R(g, d) = (struct sreg){ .kind = kind };
	return d;
}

static int get_pkt_end(struct gen *g)
{
	int e = pick_kind(g, K_PKT_END);

	return e >= 0 && !chance(g, 6) ? e : load_pkt_reg(g, K_PKT_END);
}

/* ---- guards ---- */

/* if (ptr + n > data_end) skip; then the block may read n bytes from ptr. */
static void gen_pkt_check(struct gen *g)
{
	int p = chance(g, 4) ? -1 : pick_kind(g, K_PKT), e, t, call = g->inner_call;
	s32 n = 1 + (s32)pick(g, 64);
	struct guard gd;
	struct sreg pr;

	g->inner_call = -1;
	if (chance(g, 8))
		n = 1 + (s32)pick(g, 1600);
	if (call >= 0) {
		p = -1;
		n = (s32)g->funcs[call].size;
	}
	if (p < 0)
		p = load_pkt_reg(g, K_PKT);
	if (p < 0)
		return;
	pr = *R(g, p);
	/* the range base is the pointer's own place, its var counted: keep it simple */
	e = get_pkt_end(g);
	if (e < 0 || R(g, p)->kind != K_PKT)
		return;
	t = pick_dst(g);
	if (t < 0 || t == e || t == p)
		return;
	put(g, NB_MOV64_REG(t, p));
	put(g, NB_ALU64_IMM(BPF_ADD, t, n));
	*R(g, t) = pr;
	R(g, t)->off += n;
	guard_begin(g, &gd);
	switch (call >= 0 ? 0 : pick(g, 5)) {
	case 0:
		guard_jump(g, &gd, NB_JMP_REG(BPF_JGT, t, e, 0));
		break;
	case 1:
		guard_jump(g, &gd, NB_JMP_REG(BPF_JLT, e, t, 0));
		break;
	case 2:
		guard_jump(g, &gd, NB_JMP_REG(BPF_JGE, t, e, 0));	/* one byte short */
		break;
	case 3:
		/* if (t <= end) goto in; goto skip; in: */
		put(g, NB_JMP_REG(BPF_JLE, t, e, 1));
		guard_jump(g, &gd, NB_JA(0));
		break;
	default:
		if (probe(g))	/* a 32-bit comparison of pointers proves nothing */
			guard_jump(g, &gd, NB_JMP32_REG(BPF_JGT, t, e, 0));
		else
			guard_jump(g, &gd, NB_JMP_REG(BPF_JLE, e, t, 0)); /* end <= t: skip */
		break;
	}
	if (g->f.range[pr.vid] < pr.off + n)
		g->f.range[pr.vid] = pr.off + n + (call < 0 && probe(g) ? 1 : 0);
	if (call >= 0)
		gen_call(g, call);
	else
		gen_block(g, 1 + pick(g, 6));
	guard_end(g, &gd);
}

/* Metadata: if (data_meta + n > data) skip. */
static void gen_meta_check(struct gen *g)
{
	int m = load_pkt_reg(g, K_PKT_META), d, t;
	s32 n = 1 + (s32)pick(g, 32);
	struct guard gd;

	if (m < 0)
		return;
	d = load_pkt_reg(g, K_PKT);
	t = pick_dst(g);
	if (d < 0 || t < 0 || t == m || t == d || R(g, m)->kind != K_PKT_META)
		return;
	put(g, NB_MOV64_REG(t, m));
	put(g, NB_ALU64_IMM(BPF_ADD, t, n));
	*R(g, t) = (struct sreg){ .kind = K_PKT_META, .off = n };
	guard_begin(g, &gd);
	guard_jump(g, &gd, NB_JMP_REG(BPF_JGT, t, d, 0));
	if (g->f.meta_range < n)
		g->f.meta_range = n + (probe(g) ? 1 : 0);
	gen_block(g, 1 + pick(g, 4));
	guard_end(g, &gd);
}

/* A bound on a scalar from a comparison; the block sees scalar <= k. */
static void gen_bound(struct gen *g)
{
	int s = pick_scalar(g), t;
	u64 k = pick(g, 3) ? pick(g, 65) : pick(g, 4096);
	struct guard gd;
	u64 believed = k;

	if (s < 0)
		return;
	guard_begin(g, &gd);
	switch (pick(g, 9)) {
	case 0:
		guard_jump(g, &gd, NB_JMP_IMM(BPF_JGT, s, (s32)k, 0));
		break;
	case 1:
		guard_jump(g, &gd, NB_JMP_IMM(BPF_JGE, s, (s32)k + 1, 0));
		break;
	case 2: /* signed: both ends */
		guard_jump(g, &gd, NB_JMP_IMM(BPF_JSGT, s, (s32)k, 0));
		if (!probe(g))
			guard_jump(g, &gd, NB_JMP_IMM(BPF_JSLT, s, 0, 0));
		break;
	case 3: /* 32-bit: bounds the low half only */
		guard_jump(g, &gd, NB_JMP32_IMM(BPF_JGT, s, (s32)k, 0));
		if (R(g, s)->umax > 0xffffffffULL)
			believed = probe(g) ? k : R(g, s)->umax;
		break;
	case 4: /* register against register */
		t = pick_dst(g);
		if (t < 0 || t == s)
			return;
		put(g, NB_MOV64_IMM(t, (s32)k));
		set_scalar(g, t, k, false);
		if (chance(g, 2))
			guard_jump(g, &gd, NB_JMP_REG(BPF_JGT, s, t, 0));
		else
			guard_jump(g, &gd, NB_JMP_REG(BPF_JLT, t, s, 0));
		break;
	case 5: /* if (s < k + 1) goto in; goto skip; in: */
		put(g, NB_JMP_IMM(BPF_JLT, s, (s32)k + 1, 1));
		guard_jump(g, &gd, NB_JA(0));
		break;
	case 6: { /* JSET: no bit above the mask */
		u32 bits = pick(g, 12);

		k = (1ULL << bits) - 1;
		believed = k;
		guard_jump(g, &gd, NB_JMP_IMM(BPF_JSET, s, (s32)~(u32)k, 0));
		break;
	}
	case 7: /* 32-bit signed on a value known to fit */
		guard_jump(g, &gd, NB_JMP32_IMM(BPF_JSGT, s, (s32)k, 0));
		guard_jump(g, &gd, NB_JMP32_IMM(BPF_JSLT, s, 0, 0));
		if (R(g, s)->umax > 0xffffffffULL)
			believed = R(g, s)->umax;
		break;
	default: /* the off-by-one every bounds bug starts with */
		guard_jump(g, &gd, NB_JMP_IMM(BPF_JGT, s, (s32)k + (probe(g) ? 1 : 0), 0));
		break;
	}
	if (R(g, s)->kind == K_SCALAR && believed < R(g, s)->umax)
		R(g, s)->umax = believed;
	gen_block(g, 1 + pick(g, 5));
	guard_end(g, &gd);
}

/* ---- pointer arithmetic ---- */

static void gen_ptr_arith(struct gen *g)
{
	static const u8 kinds[] = { K_PKT, K_MAPVAL, K_STACK, K_PKT, K_MEM };
	int p = pick_kind(g, kinds[pick(g, ARRAY_SIZE(kinds))]), s;
	struct sreg *pr;

	if (p < 0 || !(writable(g) & (1U << p)))
		return;
	pr = R(g, p);
	if (pr->ringbuf)
		return;
	if (chance(g, 2)) {
		s32 imm = (s32)pick(g, 24) - 8;

		if (pr->kind == K_STACK)
			imm = -(s32)pick(g, 9) * 8 + (s32)pick(g, 2) * 4;
		put(g, NB_ALU64_IMM(BPF_ADD, p, imm));
		pr->off += imm;
		return;
	}
	s = pick_scalar(g);
	if (s < 0 || R(g, s)->umax >= (1U << 16)) {
		if (s < 0 || !probe(g))
			return;
	}
	if (pr->kind == K_STACK && !chance(g, 4))
		return;
	if (chance(g, 12) && probe(g))
		put(g, NB_ALU64_REG(BPF_SUB, p, s));
	else
		put(g, NB_ALU64_REG(BPF_ADD, p, s));
	pr->var += R(g, s)->umax < (1U << 16) ? (u32)R(g, s)->umax : 0xffff;
	if (pr->kind == K_PKT) {
		/* a new range id; what was proven for the old base no longer counts */
		pr->vid = g->nvid < MAX_VIDS - 1 ? ++g->nvid : MAX_VIDS - 1;
		g->f.range[pr->vid] = 0;
		pr->var = 0;	/* ranges count from data + var */
	}
}

/* pkt_end - pkt: a scalar, the packet's length or what is left of it */
static void gen_pkt_len(struct gen *g)
{
	int p = pick_kind(g, K_PKT), e = pick_kind(g, K_PKT_END), d;

	if (p < 0 || e < 0)
		return;
	d = pick_dst(g);
	if (d < 0 || d == p)
		return;
	put(g, NB_MOV64_REG(d, e));
	put(g, NB_ALU64_REG(BPF_SUB, d, p));
	set_scalar(g, d, UNKNOWN, false);
}

/* ---- spills and fills ---- */

static void gen_spill(struct gen *g)
{
	u8 r = pick(g, 10);
	s32 off = -8 * (1 + (s32)pick(g, g->frame_bytes / 8));
	u32 bytes = 8;

	if (R(g, r)->kind == K_NONE)
		return;
	if (g->f.in_loop && is_ptr(R(g, r)))
		return;
	if (R(g, r)->kind == K_SCALAR && chance(g, 4))
		bytes = chance(g, 2) ? 4 : 2;	/* narrow spills keep scalar bounds */
	if (!stack_write_ok(g, off, bytes))
		return;
	put(g, NB_STX_MEM(bytes_code(bytes), BPF_REG_10, r, off));
	stack_written(g, off, bytes, 0, R(g, r));
}

static void gen_fill(struct gen *g)
{
	u32 i = pick(g, g->frame_bytes / 8);
	const struct slot *s = &g->f.s[i];
	s32 off = -8 * (s32)(i + 1);
	u32 bytes = 8;
	int d;

	if (s->st == S_MIXED)
		return;
	if (!nondet_read_ok(g, s->st != S_SPILL && (s->ptr_ever || s->written != 0xff)))
		return;
	if (s->st == S_SPILL && is_ptr(&s->spill) && chance(g, 10) && probe(g))
		bytes = 4;	/* half a pointer */
	else if (s->st != S_SPILL && chance(g, 3))
		bytes = code_bytes(size_codes[pick(g, 3)]);
	d = pick_dst(g);
	if (d < 0)
		return;
	put(g, NB_LDX_MEM(bytes_code(bytes), d, BPF_REG_10, off));
	if (s->st == S_SPILL && bytes == 8)
		*R(g, d) = s->spill;
	else
		set_scalar(g, d, size_max(bytes), s->ptr_ever || s->written != 0xff);
}

/* ---- maps ---- */

static int pick_map(struct gen *g, bool (*ok)(const struct sg_map *m))
{
	u32 cand[16], n = 0;

	for (u32 i = 0; i < g->o->map_cnt && n < ARRAY_SIZE(cand); i++)
		if (ok(&g->o->maps[i]))
			cand[n++] = i;
	return n ? (int)cand[pick(g, n)] : -1;
}

static bool map_has_values(const struct sg_map *m)
{
	switch (m->type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
		return true;
	default:
		return false;
	}
}

static bool map_is_ringbuf(const struct sg_map *m)
{
	return m->type == BPF_MAP_TYPE_RINGBUF;
}

/* Write a key for map m at fp + off (8-byte aligned): a constant or a scalar. */
static void store_key(struct gen *g, const struct sg_map *m, s32 off)
{
	int s = pick_scalar(g);
	u32 bytes = m->key_size >= 8 ? 8 : 4;

	if (s >= 0 && !R(g, s)->taint && chance(g, 2))
		put(g, NB_STX_MEM(bytes_code(bytes), BPF_REG_10, s, off));
	else
		put(g, NB_ST_MEM(bytes_code(bytes), BPF_REG_10, off,
				 chance(g, 2) ? (s32)pick(g, m->max_entries + 1) : edge_imm(g)));
	if (m->key_size > 8)
		put(g, NB_ST_MEM(BPF_DW, BPF_REG_10, off + 8, (s32)pick(g, 4)));
	stack_written(g, off, m->key_size > 8 ? 16 : bytes, 0, NULL);
}

/* r0 = bpf_map_lookup_elem(map, key); if (!r0) skip; the block has the value. */
static void gen_lookup(struct gen *g)
{
	int mi = pick_map(g, map_has_values), d, call = g->inner_call;
	const struct sg_map *m;
	s32 koff = -8 * (2 + (s32)pick(g, 8));
	struct guard gd;

	g->inner_call = -1;
	if (call >= 0)
		mi = g->funcs[call].map;
	if (mi < 0 || (g->f.locked & 0x3f))
		return;
	m = &g->o->maps[mi];
	store_key(g, m, koff);
	put_ld_map(g, BPF_REG_1, mi);
	put(g, NB_MOV64_REG(BPF_REG_2, BPF_REG_10));
	put(g, NB_ALU64_IMM(BPF_ADD, BPF_REG_2, koff));
	put(g, NB_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	clobber_caller_saved(g);
	R(g, 0)->kind = K_NONE;
	if (call < 0 && probe(g)) {
		/* no null check */
		*R(g, 0) = (struct sreg){ .kind = K_MAPVAL, .map = (u8)mi };
		return;
	}
	guard_begin(g, &gd);
	if (chance(g, 2)) {
		guard_jump(g, &gd, NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	} else {
		put(g, NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 1));
		guard_jump(g, &gd, NB_JA(0));
	}
	*R(g, 0) = (struct sreg){ .kind = K_MAPVAL, .map = (u8)mi };
	d = pick_dst(g);
	if (d > 0 && d != BPF_REG_0 && chance(g, 2)) {
		put(g, NB_MOV64_REG(d, BPF_REG_0));
		*R(g, d) = *R(g, 0);
	}
	if (call >= 0)
		gen_call(g, call);
	else
		gen_block(g, 1 + pick(g, 6));
	guard_end(g, &gd);
}

/* ---- helpers ---- */

/*
 * Put a pointer with at least bytes of room (writable if asked) into r, from a register of
 * the model or a fresh stack buffer. Returns its kind, K_NONE when there is none.
 */
static u8 mem_arg(struct gen *g, u8 r, u32 bytes, bool write, s32 *fp_off)
{
	static const u8 kinds[] = { K_STACK, K_STACK, K_MAPVAL, K_PKT, K_MEM };
	u8 want = kinds[pick(g, ARRAY_SIZE(kinds))];
	int p = pick_kind(g, want);
	s32 lo, hi;

	*fp_off = 1;
	if (p >= 0 && !R(g, p)->ringbuf && access_room(g, R(g, p), write, &lo, &hi) && lo <= 0 &&
	    hi >= (s32)bytes) {
		if (R(g, p)->kind == K_STACK &&
		    (R(g, p)->var || (write && !stack_write_ok(g, R(g, p)->off, bytes))))
			return K_NONE;
		if (R(g, p)->kind == K_STACK && !write)
			init_stack(g, R(g, p)->off, bytes);
		if (R(g, p)->kind == K_MEM && R(g, p)->ringbuf && !write)
			g->leaky = true;
		put(g, NB_MOV64_REG(r, p));
		if (R(g, p)->kind == K_STACK)
			*fp_off = R(g, p)->off;
		return R(g, p)->kind;
	}
	if ((s32)bytes > g->frame_bytes)
		return K_NONE;
	*fp_off = -(s32)bytes - 8 * (s32)pick(g, (g->frame_bytes - bytes) / 8 + 1);
	*fp_off &= ~7;
	if (*fp_off < -g->frame_bytes)
		*fp_off = -g->frame_bytes;
	if (write && !stack_write_ok(g, *fp_off, bytes))
		return K_NONE;
	if (!write)
		init_stack(g, *fp_off, bytes);
	put(g, NB_MOV64_REG(r, BPF_REG_10));
	put(g, NB_ALU64_IMM(BPF_ADD, r, *fp_off));
	return K_STACK;
}

/*
 * A size argument in r: a constant or a bounded scalar of at most max, at least 1. Returns
 * the constant, 0 when the size is only known at run time.
 */
static u32 size_arg(struct gen *g, u8 r, u32 max, bool zero_ok)
{
	int s = pick_scalar(g);
	s32 imm;

	if (s >= 0 && s != r && chance(g, 3) && R(g, s)->umax <= max &&
	    (zero_ok || probe(g))) {
		put(g, NB_MOV64_REG(r, s));
		return 0;
	}
	if (s >= 0 && s != r && chance(g, 4)) {
		/* bound it here: r = s & mask, mask < max */
		u32 mask = 1;

		while (mask * 2 <= max)
			mask *= 2;
		put(g, NB_MOV64_REG(r, s));
		put(g, NB_ALU64_IMM(BPF_AND, r, (s32)(mask - 1)));
		if (!zero_ok)
			put(g, NB_ALU64_IMM(BPF_ADD, r, 1));
		return 0;
	}
	imm = (s32)(zero_ok ? pick(g, max + 1) : 1 + pick(g, max)) + (probe(g) ? 1 : 0);
	put(g, NB_MOV64_IMM(r, imm));
	return (u32)imm;
}

static void after_helper(struct gen *g, u64 r0_max)
{
	clobber_caller_saved(g);
	set_scalar(g, 0, r0_max, false);
}

/* The stack a helper read: bytes that held pointers make the results address-dependent. */
static void helper_read_stack(struct gen *g, u8 kind, s32 fp_off, u32 bytes)
{
	if ((kind == K_STACK && stack_may_leak(g, fp_off, bytes)) || kind == K_MEM)
		g->leaky = true;
}

static void helper_wrote_stack(struct gen *g, u8 kind, s32 fp_off, u32 bytes)
{
	if (kind == K_STACK && fp_off <= 0)
		stack_written(g, fp_off, bytes, 0, NULL);
}

/* Every packet pointer dies when a helper may move the data (clear_all_pkt_pointers). */
static void invalidate_pkt(struct gen *g)
{
	bool keep_stale = probe(g);

	for (u8 r = 0; r < 11; r++) {
		u8 k = R(g, r)->kind;

		if ((k == K_PKT || k == K_PKT_END || k == K_PKT_META) && !keep_stale)
			R(g, r)->kind = K_NONE;
	}
	for (u32 i = 0; i < NSLOTS; i++) {
		struct slot *s = &g->f.s[i];
		u8 k = s->spill.kind;

		if (s->st == S_SPILL && (k == K_PKT || k == K_PKT_END || k == K_PKT_META) &&
		    !keep_stale)
			s->st = S_MIXED;
	}
}

static void gen_helper_mem(struct gen *g)
{
	u32 bytes = 1 + pick(g, 64);
	s32 fo, fo2;
	u8 k, k2;
	int mi;

	switch (pick(g, 9)) {
	case 0: /* bpf_skb_load_bytes / bpf_xdp_load_bytes(ctx, off, to, len) */
		if (!has_ctx(g))
			return;
		k = mem_arg(g, BPF_REG_3, bytes, true, &fo);
		if (k == K_NONE)
			return;
		put(g, NB_MOV64_REG(BPF_REG_1, BPF_REG_6));
		put(g, NB_MOV64_IMM(BPF_REG_2, (s32)pick(g, 80)));
		put(g, NB_MOV64_IMM(BPF_REG_4, (s32)bytes + (probe(g) ? 1 : 0)));
		put(g, NB_CALL_HELPER(g->xdp ? BPF_FUNC_xdp_load_bytes : BPF_FUNC_skb_load_bytes));
		/* skb_load_bytes clears the buffer when it fails; xdp_load_bytes leaves it */
		if (!g->xdp)
			helper_wrote_stack(g, k, fo, bytes);
		after_helper(g, UNKNOWN);
		return;
	case 1: /* bpf_skb_store_bytes / bpf_xdp_store_bytes(ctx, off, from, len[, flags]) */
		if (!has_ctx(g) || g->sock || g->f.in_loop)
			return;
		k = mem_arg(g, BPF_REG_3, bytes, false, &fo);
		if (k == K_NONE)
			return;
		helper_read_stack(g, k, fo, bytes);
		put(g, NB_MOV64_REG(BPF_REG_1, BPF_REG_6));
		put(g, NB_MOV64_IMM(BPF_REG_2, (s32)pick(g, 80)));
		size_arg(g, BPF_REG_4, bytes, false);
		put(g, NB_MOV64_IMM(BPF_REG_5, 0));
		put(g, NB_CALL_HELPER(g->xdp ? BPF_FUNC_xdp_store_bytes
				      : BPF_FUNC_skb_store_bytes));
		if (g->tc)
			invalidate_pkt(g);
		after_helper(g, UNKNOWN);
		return;
	case 2: /* bpf_csum_diff(from, from_size, to, to_size, seed) */
		if (g->sock)
			return;
		bytes = 4 * (1 + pick(g, 16));
		k = mem_arg(g, BPF_REG_1, bytes, false, &fo);
		if (k == K_NONE)
			return;
		helper_read_stack(g, k, fo, bytes);
		put(g, NB_MOV64_IMM(BPF_REG_2, (s32)bytes));
		k2 = mem_arg(g, BPF_REG_3, bytes, false, &fo2);
		if (k2 == K_NONE)
			return;
		helper_read_stack(g, k2, fo2, bytes);
		put(g, NB_MOV64_IMM(BPF_REG_4, (s32)bytes));
		put(g, NB_MOV64_IMM(BPF_REG_5, edge_imm(g)));
		put(g, NB_CALL_HELPER(BPF_FUNC_csum_diff));
		after_helper(g, UNKNOWN);
		return;
	case 3: /* bpf_probe_read_kernel(dst, size, src) from a map value or the packet */
		k = mem_arg(g, BPF_REG_1, bytes, true, &fo);
		if (k == K_NONE || k == K_PKT)
			return;
		{
			u32 most = bytes;	/* a size known only at run time is at most this */
			int src;

			bytes = size_arg(g, BPF_REG_2, most, true);
			src = chance(g, 2) ? pick_kind(g, K_MAPVAL) : pick_kind(g, K_PKT);
			if (src < 0)
				return;
			/*
			 * The helper reads any address, so the bytes past the source's room are
			 * whatever follows it: the next pool element of a hash map, a freed one.
			 */
			if ((s32)(bytes ?: most) > read_room(g, R(g, src)))
				g->leaky = true;
			put(g, NB_MOV64_REG(BPF_REG_3, src));
		}
		put(g, NB_CALL_HELPER(BPF_FUNC_probe_read_kernel));
		helper_wrote_stack(g, k, fo, bytes);
		after_helper(g, UNKNOWN);
		return;
	case 4: /* bpf_map_update_elem(map, key, value, flags) */
		mi = pick_map(g, map_has_values);
		if (mi < 0)
			return;
		fo = -8 * (2 + (s32)pick(g, 8));
		store_key(g, &g->o->maps[mi], fo);
		k = mem_arg(g, BPF_REG_3, g->o->maps[mi].value_size, false, &fo2);
		if (k == K_NONE)
			return;
		helper_read_stack(g, k, fo2, g->o->maps[mi].value_size);
		put_ld_map(g, BPF_REG_1, mi);
		put(g, NB_MOV64_REG(BPF_REG_2, BPF_REG_10));
		put(g, NB_ALU64_IMM(BPF_ADD, BPF_REG_2, fo));
		put(g, NB_MOV64_IMM(BPF_REG_4, (s32)pick(g, 3)));
		put(g, NB_CALL_HELPER(BPF_FUNC_map_update_elem));
		after_helper(g, UNKNOWN);
		return;
	case 5: /* bpf_map_delete_elem(map, key) */
		mi = pick_map(g, map_has_values);
		if (mi < 0)
			return;
		fo = -8 * (2 + (s32)pick(g, 8));
		store_key(g, &g->o->maps[mi], fo);
		put_ld_map(g, BPF_REG_1, mi);
		put(g, NB_MOV64_REG(BPF_REG_2, BPF_REG_10));
		put(g, NB_ALU64_IMM(BPF_ADD, BPF_REG_2, fo));
		put(g, NB_CALL_HELPER(BPF_FUNC_map_delete_elem));
		after_helper(g, UNKNOWN);
		return;
	case 6: /* bpf_ringbuf_output(map, data, size, flags) */
		mi = pick_map(g, map_is_ringbuf);
		if (mi < 0)
			return;
		k = mem_arg(g, BPF_REG_2, bytes, false, &fo);
		if (k == K_NONE)
			return;
		helper_read_stack(g, k, fo, bytes);
		size_arg(g, BPF_REG_3, bytes, true);
		put_ld_map(g, BPF_REG_1, mi);
		put(g, NB_MOV64_IMM(BPF_REG_4, 0));
		put(g, NB_CALL_HELPER(BPF_FUNC_ringbuf_output));
		after_helper(g, UNKNOWN);
		return;
	case 7: /* bpf_l3_csum_replace(ctx, off, from, to, size) on tc */
		if (!g->tc || !has_ctx(g) || g->f.in_loop)
			return;
		put(g, NB_MOV64_REG(BPF_REG_1, BPF_REG_6));
		put(g, NB_MOV64_IMM(BPF_REG_2, (s32)pick(g, 64)));
		put(g, NB_MOV64_IMM(BPF_REG_3, edge_imm(g)));
		put(g, NB_MOV64_IMM(BPF_REG_4, edge_imm(g)));
		put(g, NB_MOV64_IMM(BPF_REG_5, chance(g, 2) ? 2 : 4));
		put(g, NB_CALL_HELPER(chance(g, 2) ? BPF_FUNC_l3_csum_replace
				      : BPF_FUNC_l4_csum_replace));
		invalidate_pkt(g);
		after_helper(g, UNKNOWN);
		return;
	default: /* bpf_skb_load_bytes into a map value with a variable length */
		if (!has_ctx(g) || g->xdp)
			return;
		k = mem_arg(g, BPF_REG_3, bytes, true, &fo);
		if (k == K_NONE)
			return;
		put(g, NB_MOV64_REG(BPF_REG_1, BPF_REG_6));
		put(g, NB_MOV64_IMM(BPF_REG_2, (s32)pick(g, 40)));
		bytes = size_arg(g, BPF_REG_4, bytes, false);
		put(g, NB_CALL_HELPER(BPF_FUNC_skb_load_bytes));
		helper_wrote_stack(g, k, fo, bytes);
		after_helper(g, UNKNOWN);
		return;
	}
}

/* Helpers that move packet data: every packet pointer dies. */
static void gen_pkt_move(struct gen *g)
{
	if (!has_ctx(g) || g->sock || g->f.in_loop)
		return;
	put(g, NB_MOV64_REG(BPF_REG_1, BPF_REG_6));
	if (g->xdp) {
		static const int ids[] = { BPF_FUNC_xdp_adjust_head, BPF_FUNC_xdp_adjust_tail,
					   BPF_FUNC_xdp_adjust_meta };
		static const s32 deltas[] = { -4, 4, -14, 14, -32, -64, 64, -256, 300, -1, 1 };

		put(g, NB_MOV64_IMM(BPF_REG_2, deltas[pick(g, ARRAY_SIZE(deltas))]));
		put(g, NB_CALL_HELPER(ids[pick(g, ARRAY_SIZE(ids))]));
	} else {
		switch (pick(g, 6)) {
		case 0:
			put(g, NB_MOV64_IMM(BPF_REG_2, chance(g, 2) ? 0x8100 : 0x88a8));
			put(g, NB_MOV64_IMM(BPF_REG_3, edge_imm(g)));
			put(g, NB_CALL_HELPER(BPF_FUNC_skb_vlan_push));
			break;
		case 1:
			put(g, NB_CALL_HELPER(BPF_FUNC_skb_vlan_pop));
			break;
		case 2:
			put(g, NB_MOV64_IMM(BPF_REG_2, (s32)pick(g, 100)));
			put(g, NB_CALL_HELPER(BPF_FUNC_skb_pull_data));
			break;
		case 3:
			put(g, NB_MOV64_IMM(BPF_REG_2, (s32)pick(g, 200)));
			put(g, NB_MOV64_IMM(BPF_REG_3, 0));
			put(g, NB_CALL_HELPER(BPF_FUNC_skb_change_tail));
			break;
		case 4:
			put(g, NB_MOV64_IMM(BPF_REG_2, (s32)pick(g, 64)));
			put(g, NB_MOV64_IMM(BPF_REG_3, 0));
			put(g, NB_CALL_HELPER(BPF_FUNC_skb_change_head));
			break;
		default:
			put(g, NB_MOV64_IMM(BPF_REG_2, (s32)pick(g, 64) - 32));
			put(g, NB_MOV64_IMM(BPF_REG_3, (s32)pick(g, 2)));	/* MAC or NET */
			put(g, NB_MOV64_IMM(BPF_REG_4, 0));
			put(g, NB_CALL_HELPER(BPF_FUNC_skb_adjust_room));
			break;
		}
	}
	invalidate_pkt(g);
	after_helper(g, UNKNOWN);
}

/* r0 = ringbuf_reserve(map, n, 0); if (!r0) skip; accesses; submit or discard. */
static void gen_ringbuf(struct gen *g)
{
	int mi = pick_map(g, map_is_ringbuf), d;
	u32 size = 8 * (1 + pick(g, 8)), cnt = 1 + pick(g, 4);
	struct guard gd;

	if (mi < 0 || (g->f.locked & 0x3f))
		return;
	put_ld_map(g, BPF_REG_1, mi);
	put(g, NB_MOV64_IMM(BPF_REG_2, (s32)size));
	put(g, NB_MOV64_IMM(BPF_REG_3, 0));
	put(g, NB_CALL_HELPER(BPF_FUNC_ringbuf_reserve));
	after_helper(g, UNKNOWN);
	R(g, 0)->kind = K_NONE;
	guard_begin(g, &gd);
	guard_jump(g, &gd, NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	d = BPF_REG_7 + pick(g, 3);
	if (!(writable(g) & (1U << d)))
		d = BPF_REG_0;
	if (d != BPF_REG_0)
		put(g, NB_MOV64_REG(d, BPF_REG_0));
	*R(g, d) = (struct sreg){ .kind = K_MEM, .size = size, .ringbuf = true };
	g->f.locked |= 1U << d;
	for (u32 i = 0; i < cnt; i++)
		gen_access(g);
	g->f.locked &= ~(1U << d);
	if (probe(g)) {
		/* the reference leaks: the verifier must refuse */
	} else {
		put(g, NB_MOV64_REG(BPF_REG_1, d));
		put(g, NB_MOV64_IMM(BPF_REG_2, 0));
		put(g, NB_CALL_HELPER(chance(g, 2) ? BPF_FUNC_ringbuf_submit
				      : BPF_FUNC_ringbuf_discard));
	}
	after_helper(g, UNKNOWN);
	R(g, d)->kind = K_NONE;
	guard_end(g, &gd);
}

/* ---- control flow ---- */

/*
 * for (c = 0; c < n; c++) body, with c a bounded index for the body; or
 * for (c = 0; c < n && can_loop; c++), which may_goto may end at any turn.
 */
static void gen_loop(struct gen *g)
{
	u8 c = BPF_REG_7 + pick(g, 3);
	u32 n = 1 + pick(g, 8), top, exit_at, may_goto_at = 0;
	bool can_loop = chance(g, 3);
	struct frame before;

	if (g->f.in_loop || g->depth >= MAX_DEPTH || !(writable(g) & (1U << c)) ||
	    is_ptr(R(g, c)))
		return;
	put(g, NB_MOV64_IMM(c, 0));
	set_scalar(g, c, n - 1, false);
	before = g->f;
	/* the body starts from the state of any iteration: no assumptions on what it writes */
	for (u8 r = 0; r <= BPF_REG_5; r++)
		R(g, r)->kind = K_NONE;
	for (u8 r = 0; r < 10; r++)
		if (R(g, r)->kind == K_SCALAR && r != c)
			R(g, r)->umax = UNKNOWN;
	for (u32 i = 0; i < NSLOTS; i++)
		if (g->f.s[i].st == S_SPILL && g->f.s[i].spill.kind == K_SCALAR)
			g->f.s[i].spill.umax = UNKNOWN;
	for (u8 r = 0; r < 10; r++)
		if (is_ptr(R(g, r)))
			g->f.locked |= 1U << r;
	g->f.locked |= 1U << c;
	g->f.in_loop = true;
	top = g->n;
	if (can_loop) {
		may_goto_at = g->n;
		put(g, NB_MAY_GOTO(0));
	}
	exit_at = g->n;
	if (chance(g, 2))
		put(g, NB_JMP_IMM(BPF_JGE, c, (s32)n, 0));
	else
		put(g, NB_JMP32_IMM(BPF_JGE, c, (s32)n, 0));
	g->depth++;
	gen_block(g, 1 + pick(g, 4));
	g->depth--;
	put(g, NB_ALU64_IMM(BPF_ADD, c, 1));
	put(g, NB_JA((s32)top - (s32)g->n - 1));
	if (!g->full) {
		g->out[exit_at].off = (s16)(g->n - exit_at - 1);
		if (can_loop)
			g->out[may_goto_at].off = (s16)(g->n - may_goto_at - 1);
	}
	g->f.locked = before.locked;
	g->f.in_loop = before.in_loop;
	frame_merge(&g->f, &before);
	R(g, c)->kind = K_SCALAR;
	R(g, c)->umax = n;
}

/* Can the current function produce r1 for function fn? Emits the set-up when it can. */
static bool call_args(struct gen *g, const struct func *fn, s32 *fp_off)
{
	int p;

	*fp_off = 1;
	switch (fn->arg) {
	case K_CTX:
		if (!has_ctx(g))
			return false;
		put(g, NB_MOV64_REG(BPF_REG_1, BPF_REG_6));
		break;
	case K_MEM: {
		/* an area without spills: the callee writes scalars there */
		s32 start = -(s32)fn->size - 8 * (s32)pick(g, 4);
		bool found = false;

		for (*fp_off = start & ~7; *fp_off >= -g->frame_bytes && !found; *fp_off -= 8) {
			found = true;
			for (s32 b = *fp_off; b < *fp_off + (s32)fn->size; b += 8)
				if (g->f.s[slot_of(b)].st == S_SPILL ||
				    g->f.s[slot_of(b)].st == S_MIXED)
					found = false;
			if (found)
				break;
		}
		if (!found)
			return false;
		init_stack(g, *fp_off, fn->size);
		put(g, NB_MOV64_REG(BPF_REG_1, BPF_REG_10));
		put(g, NB_ALU64_IMM(BPF_ADD, BPF_REG_1, *fp_off));
		break;
	}
	case K_MAPVAL:
		p = pick_kind(g, K_MAPVAL);
		if (p < 0 || R(g, p)->map != fn->map || R(g, p)->off || R(g, p)->var)
			return false;
		put(g, NB_MOV64_REG(BPF_REG_1, p));
		break;
	case K_PKT: {
		s32 lo, hi;

		p = pick_kind(g, K_PKT);
		if (p < 0 || !access_room(g, R(g, p), true, &lo, &hi) || lo > 0 ||
		    hi < (s32)fn->size)
			return false;
		put(g, NB_MOV64_REG(BPF_REG_1, p));
		break;
	}
	default:
		put(g, NB_MOV64_IMM(BPF_REG_1, edge_imm(g)));
		break;
	}
	return true;
}

static void gen_call(struct gen *g, u32 fn_idx)
{
	const struct func *fn = &g->funcs[fn_idx];
	s32 fo;
	int s;

	if (fn->parent != g->cur || (g->f.locked & 0x3f) || !call_args(g, fn, &fo))
		return;
	if (fn->kind == F_PLAIN) {
		s = pick_scalar(g);
		if (s >= 0 && R(g, s)->umax <= fn->umax2 && !R(g, s)->taint)
			put(g, NB_MOV64_REG(BPF_REG_2, s));
		else
			put(g, NB_MOV64_IMM(BPF_REG_2, (s32)pick(g, (u32)fn->umax2 + 1)));
		if (fn->has_ctx)
			put(g, NB_MOV64_REG(BPF_REG_3, BPF_REG_6));
		put_call_fixup(g, fn_idx, false, 0);
	} else if (fn->kind == F_LOOP_CB) {
		/* bpf_loop(n, callback, ctx, 0): r1 was set to the ctx area, move it to r3 */
		put(g, NB_MOV64_REG(BPF_REG_3, BPF_REG_1));
		put(g, NB_MOV64_IMM(BPF_REG_1, (s32)(1 + pick(g, 8))));
		put_call_fixup(g, fn_idx, true, BPF_REG_2);
		put(g, NB_MOV64_IMM(BPF_REG_4, 0));
		put(g, NB_CALL_HELPER(BPF_FUNC_loop));
	} else {
		/* bpf_for_each_map_elem(map, callback, ctx, 0) */
		put(g, NB_MOV64_REG(BPF_REG_3, BPF_REG_1));
		put_ld_map(g, BPF_REG_1, fn->map);
		put_call_fixup(g, fn_idx, true, BPF_REG_2);
		put(g, NB_MOV64_IMM(BPF_REG_4, 0));
		put(g, NB_CALL_HELPER(BPF_FUNC_for_each_map_elem));
	}
	if (fo <= 0)
		helper_wrote_stack(g, K_STACK, fo, fn->size);
	after_helper(g, UNKNOWN);
	R(g, 0)->umax = fn->kind == F_PLAIN ? UNKNOWN : 0xffffffffULL;
}

static void gen_any_call(struct gen *g)
{
	u32 fn = g->cur + 1 + pick(g, MAX_FUNCS);

	if (fn < g->nfuncs)
		gen_call(g, fn);
}

static void gen_tail_call(struct gen *g)
{
	if (g->cur != 0 || g->prog_array_map < 0 || g->f.locked & 0x3f)
		return;
	put(g, NB_MOV64_REG(BPF_REG_1, BPF_REG_6));
	put_ld_map(g, BPF_REG_2, g->prog_array_map);
	put(g, NB_MOV64_IMM(BPF_REG_3, (s32)pick(g, 3)));
	put(g, NB_CALL_HELPER(BPF_FUNC_tail_call));
	after_helper(g, UNKNOWN);
	R(g, 0)->kind = K_NONE;
}

static void gen_ld_abs(struct gen *g)
{
	static const u8 sizes[] = { BPF_B, BPF_H, BPF_W };
	int s;

	if (g->cur != 0 || g->xdp || (g->f.locked & 0x3f) || g->nfuncs > 1)
		return;
	if (chance(g, 2)) {
		put(g, NB_LD_ABS(sizes[pick(g, 3)], (s32)pick(g, 80)));
	} else {
		s = pick_scalar(g);
		if (s < 0 || s > BPF_REG_5)
			return;
		put(g, NB_LD_IND(sizes[pick(g, 3)], s, (s32)pick(g, 40)));
	}
	after_helper(g, 0xffffffffULL);
}

/*
 * A statement that calls: its call clobbers r1-r5, and one that gave up after setting some of
 * them up (a second argument it could not make) left them holding what the model does not
 * know (a stack pointer where the model still has a scalar). Either way they are forgotten.
 */
static void gen_calling(struct gen *g, void (*stmt)(struct gen *g))
{
	u32 n = g->n;

	stmt(g);
	if (g->n != n)
		clobber_caller_saved(g);
}

static void gen_statement(struct gen *g)
{
	u32 k = pick(g, 100);

	if (g->stmts == 0 || g->full)
		return;
	g->stmts--;
	if (k < 6)
		gen_const(g);
	else if (k < 18)
		gen_access(g);
	else if (k < 30)
		gen_alu(g);
	else if (k < 34)
		gen_ctx_access(g);
	else if (k < 44)
		g->depth < MAX_DEPTH ? gen_bound(g) : gen_alu(g);
	else if (k < 54)
		g->depth < MAX_DEPTH ? gen_pkt_check(g) : gen_access(g);
	else if (k < 56)
		g->depth < MAX_DEPTH ? gen_meta_check(g) : gen_access(g);
	else if (k < 62)
		gen_ptr_arith(g);
	else if (k < 64)
		gen_pkt_len(g);
	else if (k < 70)
		g->depth < MAX_DEPTH ? gen_calling(g, gen_lookup) : gen_access(g);
	else if (k < 75)
		gen_spill(g);
	else if (k < 80)
		gen_fill(g);
	else if (k < 86)
		gen_calling(g, gen_helper_mem);
	else if (k < 88)
		gen_calling(g, gen_pkt_move);
	else if (k < 90)
		gen_loop(g);
	else if (k < 94)
		gen_calling(g, gen_any_call);
	else if (k < 95)
		gen_calling(g, gen_tail_call);
	else if (k < 97)
		gen_calling(g, gen_ringbuf);
	else if (k < 98)
		gen_calling(g, gen_ld_abs);
	else
		gen_access(g);
}

static void gen_block(struct gen *g, u32 len)
{
	g->depth++;
	for (u32 i = 0; i < len && g->stmts && !g->full; i++)
		gen_statement(g);
	g->depth--;
}

/* ---- functions ---- */

static void plan_funcs(struct gen *g)
{
	u32 n = 1 + (pick(g, 3) ? pick(g, MAX_FUNCS) : 0);
	int mi;

	g->funcs[0] = (struct func){ .kind = F_MAIN, .has_ctx = true };
	for (u32 j = 1; j < n; j++) {
		struct func *f = &g->funcs[j];

		f->parent = (u8)pick(g, j);
		f->kind = pick(g, 4) ? F_PLAIN : pick(g, 2) ? F_LOOP_CB : F_EACH_CB;
		f->size = 8 * (1 + pick(g, 8));
		if (f->kind == F_EACH_CB) {
			mi = pick_map(g, map_has_values);
			if (mi < 0)
				f->kind = F_LOOP_CB;
			else
				f->map = (u8)mi;
		}
		if (f->kind != F_PLAIN) {
			f->arg = K_MEM;
			continue;
		}
		f->has_ctx = g->funcs[f->parent].has_ctx && pick(g, 2);
		f->umax2 = pick(g, 64);
		switch (pick(g, 5)) {
		case 0:
			f->arg = g->funcs[f->parent].has_ctx ? K_CTX : K_SCALAR;
			break;
		case 1:
			f->arg = K_MEM;
			break;
		case 2:
			mi = pick_map(g, map_has_values);
			f->arg = mi < 0 ? K_MEM : K_MAPVAL;
			f->map = mi < 0 ? 0 : (u8)mi;
			break;
		case 3:
			f->arg = g->sock || !g->funcs[f->parent].has_ctx ? K_SCALAR : K_PKT;
			f->size = 1 + pick(g, 32);
			break;
		default:
			f->arg = K_SCALAR;
		}
	}
	g->nfuncs = n;
	g->frame_bytes = n == 1 ? 512 : (512 / (s32)n) & ~31;
}

/* The state a function starts in. */
static void enter_func(struct gen *g, u32 idx)
{
	const struct func *f = &g->funcs[idx];

	memset(&g->f, 0, sizeof(g->f));
	g->cur = idx;
	g->nvid = 0;
	switch (f->kind) {
	case F_MAIN:
		put(g, NB_MOV64_REG(BPF_REG_6, BPF_REG_1));
		g->f.r[BPF_REG_6].kind = K_CTX;
		return;
	case F_LOOP_CB:
		set_scalar(g, BPF_REG_1, 0xffffffffULL, false);
		g->f.r[BPF_REG_2] = (struct sreg){ .kind = K_MEM, .size = f->size };
		return;
	case F_EACH_CB:
		g->f.r[BPF_REG_2] = (struct sreg){ .kind = K_MEM, .ro = true,
						   .size = g->o->maps[f->map].key_size };
		g->f.r[BPF_REG_3] = (struct sreg){ .kind = K_MAPVAL, .map = f->map };
		g->f.r[BPF_REG_4] = (struct sreg){ .kind = K_MEM, .size = f->size };
		return;
	default:
		break;
	}
	if (f->has_ctx) {
		put(g, NB_MOV64_REG(BPF_REG_6, BPF_REG_3));
		g->f.r[BPF_REG_6].kind = K_CTX;
	}
	set_scalar(g, BPF_REG_2, f->umax2, false);
	switch (f->arg) {
	case K_CTX:
		g->f.r[BPF_REG_1].kind = K_CTX;
		break;
	case K_MEM:
		g->f.r[BPF_REG_1] = (struct sreg){ .kind = K_MEM, .size = f->size };
		break;
	case K_MAPVAL:
		g->f.r[BPF_REG_1] = (struct sreg){ .kind = K_MAPVAL, .map = f->map };
		break;
	case K_PKT:
		g->f.r[BPF_REG_1] = (struct sreg){ .kind = K_PKT, .vid = 1 };
		g->f.range[1] = (s32)f->size;
		g->nvid = 1;
		break;
	default:
		set_scalar(g, BPF_REG_1, UNKNOWN, false);
	}
}

/* r0 at exit: a mix of scalars without addresses, in range for callbacks. */
static void gen_exit(struct gen *g)
{
	const struct func *f = &g->funcs[g->cur];
	bool any = false;

	for (u8 r = 0; r < 10; r++) {
		if (R(g, r)->kind != K_SCALAR || R(g, r)->taint)
			continue;
		if (!any)
			put(g, NB_MOV64_REG(BPF_REG_0, r));
		else
			put(g, NB_ALU64_REG(BPF_XOR, BPF_REG_0, r));
		any = true;
	}
	if (!any)
		put(g, NB_MOV64_IMM(BPF_REG_0, edge_imm(g)));
	if (f->kind == F_LOOP_CB || f->kind == F_EACH_CB)
		put(g, NB_ALU64_IMM(BPF_AND, BPF_REG_0, 1));
	else if (f->kind == F_MAIN && g->xdp)
		put(g, NB_ALU64_IMM(BPF_AND, BPF_REG_0, 3));
	put(g, NB_EXIT());
}

static void gen_func(struct gen *g, u32 idx)
{
	g->funcs[idx].start = g->n;
	enter_func(g, idx);
	/* a few initialised slots, as compilers leave them */
	for (u32 i = 0, n = pick(g, 4); i < n; i++) {
		s32 off = -8 * (1 + (s32)pick(g, g->frame_bytes / 8));

		put(g, NB_ST_MEM(BPF_DW, BPF_REG_10, off, edge_imm(g)));
		stack_written(g, off, 8, 0, NULL);
	}
	g->stmts = idx == 0 ? 8 + pick(g, 40) : 3 + pick(g, 16);
	g->depth = 0;
	while (g->stmts && !g->full)
		gen_statement(g);
	/* every planned child must be called once, or its code is unreachable */
	for (u32 j = idx + 1; j < g->nfuncs; j++) {
		for (u32 tries = 0; g->funcs[j].parent == idx && !g->funcs[j].called &&
				    tries < 4 && !g->full; tries++) {
			g->inner_call = (int)j;
			if (g->funcs[j].kind == F_PLAIN && g->funcs[j].arg == K_MAPVAL)
				gen_lookup(g);
			else if (g->funcs[j].kind == F_PLAIN && g->funcs[j].arg == K_PKT)
				gen_pkt_check(g);
			else
				gen_call(g, j);
			g->inner_call = -1;
		}
	}
	gen_exit(g);
}

struct sg_prog sg_gen(const u8 *data, size_t len, const struct sg_opts *opts,
		      struct bpf_insn *insns)
{
	struct gen *g, gs = { .data = data, .len = len, .o = opts, .out = insns };
	struct sg_prog res = { 0 };

	g = &gs;
	for (size_t i = 0; i < len; i++)
		g->rng = (g->rng ^ data[i]) * 0x100000001b3ULL;
	g->xdp = opts->prog_type == BPF_PROG_TYPE_XDP;
	g->sock = opts->prog_type == BPF_PROG_TYPE_SOCKET_FILTER;
	g->tc = !g->xdp && !g->sock;
	g->ringbuf_map = g->prog_array_map = g->inner_call = -1;
	for (u32 i = 0; i < opts->map_cnt; i++)
		if (opts->maps[i].type == BPF_MAP_TYPE_PROG_ARRAY)
			g->prog_array_map = (int)i;
	plan_funcs(g);
	for (u32 i = 0; i < g->nfuncs && !g->full; i++)
		gen_func(g, i);
	for (u32 j = 1; j < g->nfuncs; j++)
		if (!g->funcs[j].called)
			return res;	/* unreachable code: not what we test here */
	if (g->full)
		return res;
	for (u32 i = 0; i < g->nfix; i++) {
		struct bpf_insn *insn = &insns[g->fix[i].at];

		insn->imm = (s32)g->funcs[g->fix[i].fn].start - (s32)g->fix[i].at - 1;
	}
	for (u32 i = 0; i < g->nfuncs; i++)
		res.func_start[i] = g->funcs[i].start;
	res.func_cnt = g->nfuncs;
	res.cnt = g->n;
	res.probes = g->probes;
	res.leaks_addresses = g->leaky;
	return res;
}
