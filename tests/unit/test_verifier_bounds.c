// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's arithmetic on abstract values: tnum operations, scalar ALU bounds and branch
 * refinement. Known results for hand-picked cases, then randomized soundness checks: concrete
 * values inside an abstract value, run through an operation, land inside the abstract result;
 * a branch called always (never) taken is so for every concrete pair; a refined side holds
 * every pair for which its condition holds.
 */
#include "test.h"

#include "bpf/verifier/verifier.h"

/* xorshift64*: deterministic, so a failure reproduces. */
static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* Random values biased towards small, edge and sign-boundary numbers. */
static u64 rnd_val(void)
{
	switch (rnd() % 6) {
	case 0:
		return rnd() % 64;
	case 1:
		return -(rnd() % 64);
	case 2:
		return (u64)(s32)rnd();
	case 3:
		return (u32)rnd();
	case 4:
		return (1ULL << (rnd() % 64)) + rnd() % 3 - 1;
	default:
		return rnd();
	}
}

static struct tnum rnd_tnum(void)
{
	u64 mask = rnd_val() & rnd_val();

	if (rnd() % 4 == 0)
		mask = 0;
	return TNUM(rnd_val() & ~mask, mask);
}

static u64 tnum_pick(struct tnum t)
{
	return t.value | (rnd() & t.mask);
}

NB_TEST(verifier_tnum_known)
{
	struct tnum t = tnum_range(16, 31);

	NB_ASSERT_EQ(t.value, 16);
	NB_ASSERT_EQ(t.mask, 15);
	t = tnum_add(tnum_const(3), TNUM(0, 4));	/* 3 + {0,4} = {3,7} */
	NB_ASSERT_EQ(t.value, 3);
	NB_ASSERT_EQ(t.mask, 4);
	t = tnum_and(tnum_unknown, tnum_const(0xff));
	NB_ASSERT_EQ(t.value, 0);
	NB_ASSERT_EQ(t.mask, 0xff);
	t = tnum_or(TNUM(0, 0xf), tnum_const(0x10));
	NB_ASSERT_EQ(t.value, 0x10);
	NB_ASSERT_EQ(t.mask, 0xf);
	t = tnum_mul(tnum_const(6), tnum_const(7));
	NB_ASSERT(tnum_equals_const(t, 42));
	t = tnum_lshift(TNUM(1, 2), 4);
	NB_ASSERT_EQ(t.value, 0x10);
	NB_ASSERT_EQ(t.mask, 0x20);
	t = tnum_arshift(tnum_const(0x80000000), 4, 32);
	NB_ASSERT_EQ(t.value, 0xf8000000);
	NB_ASSERT(tnum_in(tnum_unknown, tnum_const(5)));
	NB_ASSERT(!tnum_in(tnum_const(5), tnum_unknown));
	NB_ASSERT(tnum_is_aligned(TNUM(8, 0x10), 8));
	NB_ASSERT(!tnum_is_aligned(TNUM(8, 0x4), 8));
	t = tnum_range(0, ULLONG_MAX);
	NB_ASSERT(tnum_is_unknown(t));
}

static bool tnum_has(struct tnum t, u64 v)
{
	return (v & ~t.mask) == t.value;
}

NB_TEST(verifier_tnum_sound)
{
	for (int i = 0; i < 200000; i++) {
		struct tnum a = rnd_tnum(), b = rnd_tnum();
		u64 x = tnum_pick(a), y = tnum_pick(b);
		u8 sh = rnd() % 64;
		u64 lo = rnd_val(), hi = rnd_val();

#define CHECK(expr, val)                                                                    \
	do {                                                                                \
		if (!tnum_has(expr, val))                                                   \
			NB_FAIL("%s: a=(%#llx;%#llx) b=(%#llx;%#llx) x=%#llx y=%#llx",      \
				#expr, (unsigned long long)a.value,                         \
				(unsigned long long)a.mask, (unsigned long long)b.value,    \
				(unsigned long long)b.mask, (unsigned long long)x,          \
				(unsigned long long)y);                                     \
	} while (0)
		CHECK(tnum_add(a, b), x + y);
		CHECK(tnum_sub(a, b), x - y);
		CHECK(tnum_mul(a, b), x * y);
		CHECK(tnum_and(a, b), x & y);
		CHECK(tnum_or(a, b), x | y);
		CHECK(tnum_xor(a, b), x ^ y);
		CHECK(tnum_neg(a), -x);
		CHECK(tnum_lshift(a, sh), x << sh);
		CHECK(tnum_rshift(a, sh), x >> sh);
		CHECK(tnum_arshift(a, sh, 64), (u64)((s64)x >> sh));
		CHECK(tnum_arshift(a, sh % 32, 32), (u32)((s32)x >> (sh % 32)));
		CHECK(tnum_cast(a, 2), (u16)x);
		CHECK(tnum_union(a, b), x);
		CHECK(tnum_union(a, b), y);
		if (lo > hi) {
			u64 tmp = lo;

			lo = hi;
			hi = tmp;
		}
		CHECK(tnum_range(lo, hi), lo);
		CHECK(tnum_range(lo, hi), hi);
		CHECK(tnum_range(lo, hi), lo + (hi - lo) / 2);
		if (tnum_has(b, x))
			CHECK(tnum_intersect(a, b), x);
#undef CHECK
	}
}

#define NSAMPLES 4

/* An abstract scalar: the hull of some samples in every view, with their common bits. */
struct abs_val {
	struct nb_reg_state reg;
	u64 v[NSAMPLES];
};

static void make_abs(struct abs_val *a, bool constant)
{
	struct tnum t = rnd_tnum();
	struct nb_reg_state *r = &a->reg;

	mark_reg_unknown(r);
	for (int i = 0; i < NSAMPLES; i++)
		a->v[i] = constant ? t.value : tnum_pick(t);
	r->var_off = t;
	r->smin_value = LLONG_MAX;
	r->smax_value = LLONG_MIN;
	r->umin_value = ULLONG_MAX;
	r->umax_value = 0;
	r->s32_min_value = INT_MAX;
	r->s32_max_value = INT_MIN;
	r->u32_min_value = UINT_MAX;
	r->u32_max_value = 0;
	for (int i = 0; i < NSAMPLES; i++) {
		u64 v = a->v[i];

		r->smin_value = min_t(s64, r->smin_value, (s64)v);
		r->smax_value = max_t(s64, r->smax_value, (s64)v);
		r->umin_value = min_t(u64, r->umin_value, v);
		r->umax_value = max_t(u64, r->umax_value, v);
		r->s32_min_value = min_t(s32, r->s32_min_value, (s32)v);
		r->s32_max_value = max_t(s32, r->s32_max_value, (s32)v);
		r->u32_min_value = min_t(u32, r->u32_min_value, (u32)v);
		r->u32_max_value = max_t(u32, r->u32_max_value, (u32)v);
	}
	if (constant)
		r->var_off = tnum_const(t.value);
	reg_bounds_sync(r);
}

static bool reg_has(const struct nb_reg_state *r, u64 v)
{
	return tnum_has(r->var_off, v) && (s64)v >= r->smin_value && (s64)v <= r->smax_value &&
	       v >= r->umin_value && v <= r->umax_value && (s32)v >= r->s32_min_value &&
	       (s32)v <= r->s32_max_value && (u32)v >= r->u32_min_value &&
	       (u32)v <= r->u32_max_value;
}

static void print_reg(const char *what, const struct nb_reg_state *r)
{
	fprintf(stderr, "%s: var_off=(%#llx;%#llx) s=[%lld,%lld] u=[%#llx,%#llx] s32=[%d,%d] "
		"u32=[%#x,%#x]\n", what, (unsigned long long)r->var_off.value,
		(unsigned long long)r->var_off.mask, (long long)r->smin_value,
		(long long)r->smax_value, (unsigned long long)r->umin_value,
		(unsigned long long)r->umax_value, r->s32_min_value, r->s32_max_value,
		r->u32_min_value, r->u32_max_value);
}

NB_TEST(verifier_bounds_sync_sound)
{
	for (int i = 0; i < 100000; i++) {
		struct abs_val a;

		make_abs(&a, false);
		for (int k = 0; k < NSAMPLES; k++) {
			if (!reg_has(&a.reg, a.v[k])) {
				print_reg("reg", &a.reg);
				NB_FAIL("sample %#llx lost by reg_bounds_sync",
					(unsigned long long)a.v[k]);
			}
		}
	}
}

static u64 concrete_alu(u8 op, bool alu64, u64 x, u64 y)
{
	if (!alu64) {
		u32 a = x, b = y;

		switch (op) {
		case BPF_ADD: return (u32)(a + b);
		case BPF_SUB: return (u32)(a - b);
		case BPF_MUL: return (u32)(a * b);
		case BPF_AND: return a & b;
		case BPF_OR: return a | b;
		case BPF_XOR: return a ^ b;
		case BPF_LSH: return (u32)(a << (b & 31));
		case BPF_RSH: return a >> (b & 31);
		case BPF_ARSH: return (u32)((s32)a >> (b & 31));
		default: return (u32)-a;	/* BPF_NEG */
		}
	}
	switch (op) {
	case BPF_ADD: return x + y;
	case BPF_SUB: return x - y;
	case BPF_MUL: return x * y;
	case BPF_AND: return x & y;
	case BPF_OR: return x | y;
	case BPF_XOR: return x ^ y;
	case BPF_LSH: return x << (y & 63);
	case BPF_RSH: return x >> (y & 63);
	case BPF_ARSH: return (u64)((s64)x >> (y & 63));
	default: return -x;
	}
}

NB_TEST(verifier_bounds_alu_sound)
{
	static const u8 ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_AND, BPF_OR, BPF_XOR,
				  BPF_LSH, BPF_RSH, BPF_ARSH, BPF_NEG };

	for (int i = 0; i < 200000; i++) {
		u8 op = ops[rnd() % ARRAY_SIZE(ops)];
		bool alu64 = rnd() & 1, shift = op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH;
		struct bpf_insn insn = { .code = (u8)((alu64 ? BPF_ALU64 : BPF_ALU) | op | BPF_X) };
		struct abs_val a, b;
		struct nb_reg_state res;

		make_abs(&a, false);
		make_abs(&b, shift);
		if (shift) {
			u64 sh = rnd() % (alu64 ? 64 : 32);

			mark_reg_known(&b.reg, sh);
			for (int k = 0; k < NSAMPLES; k++)
				b.v[k] = sh;
		}
		res = a.reg;
		if (op == BPF_NEG) {
			/* The verifier computes -x as 0 - x. */
			mark_reg_known(&res, 0);
			insn.code = (u8)((alu64 ? BPF_ALU64 : BPF_ALU) | BPF_SUB | BPF_X);
			adjust_scalar_min_max_vals(NULL, &insn, &res, a.reg);
		} else {
			adjust_scalar_min_max_vals(NULL, &insn, &res, b.reg);
		}
		for (int k = 0; k < NSAMPLES; k++) {
			for (int m = 0; m < NSAMPLES; m++) {
				u64 r = concrete_alu(op, alu64, a.v[k], b.v[m]);

				if (reg_has(&res, r))
					continue;
				print_reg("dst", &a.reg);
				print_reg("src", &b.reg);
				print_reg("result", &res);
				NB_FAIL("op %#x alu%d: %#llx op %#llx = %#llx is outside the result",
					op, alu64 ? 64 : 32, (unsigned long long)a.v[k],
					(unsigned long long)b.v[m], (unsigned long long)r);
			}
		}
	}
}

/* BPF_END on x86's little endian: to_le truncates, to_be and bswap swap then truncate. */
static u64 concrete_end(bool alu64, bool to_be, int bits, u64 x)
{
	bool swap = alu64 || to_be;

	switch (bits) {
	case 16:
		return swap ? __builtin_bswap16((u16)x) : (u16)x;
	case 32:
		return swap ? __builtin_bswap32((u32)x) : (u32)x;
	default:
		return swap ? __builtin_bswap64(x) : x;
	}
}

NB_TEST(verifier_bounds_end_sound)
{
	static const int widths[] = { 16, 32, 64 };

	for (int i = 0; i < 100000; i++) {
		bool alu64 = rnd() & 1, to_be = rnd() & 1;
		int bits = widths[rnd() % 3];
		struct bpf_insn insn = {
			.code = (u8)((alu64 ? BPF_ALU64 : BPF_ALU) | BPF_END |
				     (alu64 || !to_be ? BPF_TO_LE : BPF_TO_BE)),
			.imm = bits,
		};
		struct abs_val a;
		struct nb_reg_state res;

		make_abs(&a, rnd() % 8 == 0);
		res = a.reg;
		adjust_scalar_min_max_vals(NULL, &insn, &res, res);
		for (int k = 0; k < NSAMPLES; k++) {
			u64 r = concrete_end(alu64, to_be, bits, a.v[k]);

			if (reg_has(&res, r))
				continue;
			print_reg("src", &a.reg);
			print_reg("result", &res);
			NB_FAIL("end%d %s: %#llx gives %#llx, outside the result", bits,
				alu64 ? "bswap" : to_be ? "be" : "le", (unsigned long long)a.v[k],
				(unsigned long long)r);
		}
	}
}

/* movsx and ldsx: the low bytes sign-extended, in 64 bits or within the subregister. */
NB_TEST(verifier_bounds_sign_extension_sound)
{
	static const int sizes[] = { 1, 2, 4 };

	for (int i = 0; i < 100000; i++) {
		int size = sizes[rnd() % 3];
		bool sub = size < 4 && (rnd() & 1);
		struct abs_val a;
		struct nb_reg_state res;

		make_abs(&a, rnd() % 8 == 0);
		res = a.reg;
		if (sub) {
			coerce_subreg_to_size_sx(&res, size);
			zext_32_to_64(&res);
			reg_bounds_sync(&res);
		} else {
			coerce_reg_to_size_sx(&res, size);
		}
		for (int k = 0; k < NSAMPLES; k++) {
			u64 x = a.v[k];
			s64 v = size == 1 ? (s8)x : size == 2 ? (s16)x : (s32)x;
			u64 r = sub ? (u32)v : (u64)v;

			if (reg_has(&res, r))
				continue;
			print_reg("src", &a.reg);
			print_reg("result", &res);
			NB_FAIL("sign extension of %d bytes%s: %#llx gives %#llx, outside the result",
				size, sub ? " in the subregister" : "", (unsigned long long)x,
				(unsigned long long)r);
		}
	}
}

static bool concrete_cond(u8 op, bool is32, u64 x, u64 y)
{
	if (is32) {
		x = (u32)x;
		y = (u32)y;
		switch (op) {
		case BPF_JSGT: return (s32)x > (s32)y;
		case BPF_JSGE: return (s32)x >= (s32)y;
		case BPF_JSLT: return (s32)x < (s32)y;
		case BPF_JSLE: return (s32)x <= (s32)y;
		}
	}
	switch (op) {
	case BPF_JEQ: return x == y;
	case BPF_JNE: return x != y;
	case BPF_JGT: return x > y;
	case BPF_JGE: return x >= y;
	case BPF_JLT: return x < y;
	case BPF_JLE: return x <= y;
	case BPF_JSET: return x & y;
	case NB_JNSET: return !(x & y);
	case BPF_JSGT: return (s64)x > (s64)y;
	case BPF_JSGE: return (s64)x >= (s64)y;
	case BPF_JSLT: return (s64)x < (s64)y;
	default: return (s64)x <= (s64)y;	/* BPF_JSLE */
	}
}

NB_TEST(verifier_bounds_branch_sound)
{
	static const u8 ops[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE, BPF_JSET,
				  NB_JNSET, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE };

	for (int i = 0; i < 200000; i++) {
		u8 op = ops[rnd() % ARRAY_SIZE(ops)];
		bool is32 = rnd() & 1;
		struct abs_val a, b;
		struct nb_reg_state ra, rb;
		int taken;
		bool live;

		make_abs(&a, false);
		make_abs(&b, rnd() % 2);
		taken = is_branch_taken(&a.reg, &b.reg, op, is32);
		ra = a.reg;
		rb = b.reg;
		live = regs_refine_cond_op(&ra, &rb, op, is32);
		for (int k = 0; k < NSAMPLES; k++) {
			for (int m = 0; m < NSAMPLES; m++) {
				bool c = concrete_cond(op, is32, a.v[k], b.v[m]);

				if (taken >= 0 && c != taken) {
					print_reg("a", &a.reg);
					print_reg("b", &b.reg);
					NB_FAIL("op %#x jmp%d: %#llx ? %#llx is %d, predicted %d", op,
						is32 ? 32 : 64, (unsigned long long)a.v[k],
						(unsigned long long)b.v[m], c, taken);
				}
				if (!c)
					continue;
				if (!live || !reg_has(&ra, a.v[k]) || !reg_has(&rb, b.v[m])) {
					print_reg("a", &a.reg);
					print_reg("b", &b.reg);
					print_reg("refined a", &ra);
					print_reg("refined b", &rb);
					NB_FAIL("op %#x jmp%d: %#llx ? %#llx holds but the refinement "
						"(live %d) lost it", op, is32 ? 32 : 64,
						(unsigned long long)a.v[k], (unsigned long long)b.v[m],
						live);
				}
			}
		}
	}
}
