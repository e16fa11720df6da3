// SPDX-License-Identifier: GPL-2.0
/*
 * The interpreter: every instruction of RFC 9669 including cpu v4, with the kernel's semantics
 * (___bpf_prog_run's twin).
 *
 * One loop serves two modes. Verified programs run unchecked: the verifier proved every access.
 * Programs loaded with NB_PROG_LOAD_CHECKED (netbpf vm run, fuzzing) have no proof, so every
 * memory access is bounded to the stack and the caller's memory block, the call depth and the
 * instruction count are limited, and a violation ends the run with an error naming the
 * instruction. The mode is a constant argument of an always-inlined function, so the unchecked
 * loop carries no trace of the checks.
 */
#include <errno.h>
#include <string.h>

#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "bpf/map.h"
#include "bpf/jit.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif

struct interp_frame {
	u64 callee_saved[4];		/* r6..r9 of the caller */
	u64 fp;				/* the caller's r10 */
	const struct bpf_insn *ret;	/* instruction after the call */
	const struct nb_prog *prog;	/* the caller's program, changed by tail calls */
	u32 loops;			/* the caller's may_goto budget */
};

struct interp_checked {
	u64 mem_lo, mem_hi;
	u64 stack_lo, stack_hi;
	u64 budget;
	const char *fault;		/* NULL while the run is sound */
	u32 fault_insn;
	u64 fault_addr;
	u32 fault_size;
};

static __always_inline u64 load_mem(u64 addr, u32 size)
{
	const void *p = (const void *)(uintptr_t)addr;
	u8 v8;
	u16 v16;
	u32 v32;
	u64 v64;

	/* memcpy: BPF allows unaligned access, C does not. Compiles to one move. */
	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

static __always_inline u64 load_mem_sx(u64 addr, u32 size)
{
	u64 v = load_mem(addr, size);

	switch (size) {
	case 1:
		return (u64)(s64)(s8)v;
	case 2:
		return (u64)(s64)(s16)v;
	default:
		return (u64)(s64)(s32)v;
	}
}

static __always_inline void store_mem(u64 addr, u32 size, u64 v)
{
	void *p = (void *)(uintptr_t)addr;
	u8 v8 = v;
	u16 v16 = v;
	u32 v32 = v;

	switch (size) {
	case 1:
		memcpy(p, &v8, 1);
		break;
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	default:
		memcpy(p, &v, 8);
		break;
	}
}

static u64 atomic_op64(u64 addr, s32 op, u64 src, u64 *r0)
{
	u64 *p = (u64 *)(uintptr_t)addr;

	switch (op & ~BPF_FETCH) {
	case BPF_ADD:
		return __atomic_fetch_add(p, src, __ATOMIC_SEQ_CST);
	case BPF_OR:
		return __atomic_fetch_or(p, src, __ATOMIC_SEQ_CST);
	case BPF_AND:
		return __atomic_fetch_and(p, src, __ATOMIC_SEQ_CST);
	case BPF_XOR:
		return __atomic_fetch_xor(p, src, __ATOMIC_SEQ_CST);
	case BPF_XCHG & ~BPF_FETCH:
		return __atomic_exchange_n(p, src, __ATOMIC_SEQ_CST);
	default: { /* BPF_CMPXCHG: r0 holds the expected value and receives the old one */
		u64 expected = *r0;

		__atomic_compare_exchange_n(p, &expected, src, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		return expected;
	}
	}
}

static u32 atomic_op32(u64 addr, s32 op, u32 src, u64 *r0)
{
	u32 *p = (u32 *)(uintptr_t)addr;

	switch (op & ~BPF_FETCH) {
	case BPF_ADD:
		return __atomic_fetch_add(p, src, __ATOMIC_SEQ_CST);
	case BPF_OR:
		return __atomic_fetch_or(p, src, __ATOMIC_SEQ_CST);
	case BPF_AND:
		return __atomic_fetch_and(p, src, __ATOMIC_SEQ_CST);
	case BPF_XOR:
		return __atomic_fetch_xor(p, src, __ATOMIC_SEQ_CST);
	case BPF_XCHG & ~BPF_FETCH:
		return __atomic_exchange_n(p, src, __ATOMIC_SEQ_CST);
	default: {
		u32 expected = (u32)*r0;

		__atomic_compare_exchange_n(p, &expected, src, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		return expected;
	}
	}
}

static __cold void set_fault(struct interp_checked *env, const struct nb_prog *prog,
			     const struct bpf_insn *insn, const char *why, u64 addr, u32 size)
{
	env->fault = why;
	env->fault_insn = insn - prog->insns;
	env->fault_addr = addr;
	env->fault_size = size;
}

static __always_inline bool access_ok(const struct interp_checked *env, u64 addr, u32 size)
{
	u64 end = addr + size;

	if (end < addr)
		return false;
	return (addr >= env->stack_lo && end <= env->stack_hi) ||
	       (addr >= env->mem_lo && end <= env->mem_hi);
}

/*
 * Division and modulo with the kernel's definitions: by zero, div gives 0 and mod leaves dst;
 * signed INT_MIN / -1 wraps and INT_MIN % -1 is 0. 32-bit callers pass zero-extended operands
 * and truncate the result; signed 32-bit operands are sign-extended first.
 */
static __always_inline u64 alu_div(u64 dst, u64 src, bool sign, bool is64)
{
	if (sign && !is64) {
		dst = (u64)(s64)(s32)dst;
		src = (u64)(s64)(s32)src;
	}
	if (src == 0)
		return 0;
	if (!sign)
		return dst / src;
	if ((s64)src == -1)
		return -dst;
	return (u64)((s64)dst / (s64)src);
}

static __always_inline u64 alu_mod(u64 dst, u64 src, bool sign, bool is64)
{
	if (sign && !is64) {
		dst = (u64)(s64)(s32)dst;
		src = (u64)(s64)(s32)src;
	}
	if (src == 0)
		return dst;
	if (!sign)
		return dst % src;
	if ((s64)src == -1)
		return 0;
	return (u64)((s64)dst % (s64)src);
}

static __always_inline u64 alu_end(u64 dst, s32 width, bool swap)
{
	switch (width) {
	case 16:
		return swap ? __builtin_bswap16((u16)dst) : (u16)dst;
	case 32:
		return swap ? __builtin_bswap32((u32)dst) : (u32)dst;
	default:
		return swap ? __builtin_bswap64(dst) : dst;
	}
}

static __always_inline u64 alu_movsx(u64 src, s16 bits)
{
	switch (bits) {
	case 8:
		return (u64)(s64)(s8)src;
	case 16:
		return (u64)(s64)(s16)src;
	case 32:
		return (u64)(s64)(s32)src;
	default:
		return src;
	}
}

static __always_inline bool jmp_taken(u8 op, u64 a, u64 b, bool is32)
{
	if (is32) {
		a = (u32)a;
		b = (u32)b;
	}
	switch (op) {
	case BPF_JEQ:
		return a == b;
	case BPF_JNE:
		return a != b;
	case BPF_JGT:
		return a > b;
	case BPF_JGE:
		return a >= b;
	case BPF_JLT:
		return a < b;
	case BPF_JLE:
		return a <= b;
	case BPF_JSET:
		return a & b;
	}
	if (is32) {
		s32 sa = (s32)a, sb = (s32)b;

		switch (op) {
		case BPF_JSGT:
			return sa > sb;
		case BPF_JSGE:
			return sa >= sb;
		case BPF_JSLT:
			return sa < sb;
		default:
			return sa <= sb;
		}
	}
	switch (op) {
	case BPF_JSGT:
		return (s64)a > (s64)b;
	case BPF_JSGE:
		return (s64)a >= (s64)b;
	case BPF_JSLT:
		return (s64)a < (s64)b;
	default:
		return (s64)a <= (s64)b;
	}
}

/*
 * One ALU operation. is64 is a constant at every call site: ALU64 passes the registers, ALU
 * passes their low halves zero-extended and keeps the low half of the result, which is exact
 * for every operation once shifts mask to 31 and signed ones look at 32 bits.
 */
static __always_inline u64 alu_op(u8 op, u64 dst, u64 src, s16 off, bool is64)
{
	u32 shift = src & (is64 ? 63 : 31);

	switch (op) {
	case BPF_ADD:
		return dst + src;
	case BPF_SUB:
		return dst - src;
	case BPF_MUL:
		return dst * src;
	case BPF_DIV:
		return alu_div(dst, src, off == 1, is64);
	case BPF_MOD:
		return alu_mod(dst, src, off == 1, is64);
	case BPF_OR:
		return dst | src;
	case BPF_AND:
		return dst & src;
	case BPF_XOR:
		return dst ^ src;
	case BPF_LSH:
		return dst << shift;
	case BPF_RSH:
		return dst >> shift;
	case BPF_ARSH:
		return (u64)((is64 ? (s64)dst : (s64)(s32)dst) >> shift);
	case BPF_NEG:
		return -dst;
	default: /* BPF_MOV */
		return alu_movsx(src, off);
	}
}

/*
 * Under AddressSanitizer the stack bytes outside every active frame's verified depth are
 * poisoned while a verified program runs, so that an access the verifier should have refused
 * below a frame is reported where it happens instead of landing in a neighbouring frame (the
 * JIT sizes its native frames by the same depths: there it would corrupt the thread's stack).
 * Frames lie NB_STACK_SIZE apart, the main function's at the top. Checked runs bound the whole
 * stack themselves; unverified programs have no depths.
 */
#ifdef __SANITIZE_ADDRESS__
static u32 frame_depth(const struct nb_prog *prog, const struct bpf_insn *start)
{
	u32 idx = start - prog->insns;

	for (u32 k = 0; k < prog->func_cnt; k++)
		if (prog->funcs[k].start == idx)
			return prog->funcs[k].stack_depth;
	return NB_STACK_SIZE;
}

/*
 * The function starting at start gets the frame below fp: its verified depth is open, the rest
 * of the stack below fp is poisoned. A program without depths (unverified) keeps it all open.
 */
static void frame_open(const struct nb_prog *prog, const struct bpf_insn *start, u8 *stack,
		       u64 fp)
{
	u8 *top = (u8 *)(uintptr_t)fp;
	u32 depth = frame_depth(prog, start);

	if (!prog->funcs) {
		ASAN_UNPOISON_MEMORY_REGION(stack, top - stack);
		return;
	}
	ASAN_POISON_MEMORY_REGION(stack, top - depth - stack);
	ASAN_UNPOISON_MEMORY_REGION(top - depth, depth);
}

/* Back in the function whose frame ends at fp: the frames below it are gone. */
static void frame_close(const struct nb_prog *prog, u8 *stack, u64 fp)
{
	if (prog->funcs)
		ASAN_POISON_MEMORY_REGION(stack, (u8 *)(uintptr_t)fp - NB_STACK_SIZE - stack);
}

static void stack_release(u8 *stack, size_t size)
{
	ASAN_UNPOISON_MEMORY_REGION(stack, size);
}
#else
static inline void frame_open(const struct nb_prog *prog, const struct bpf_insn *start,
			      u8 *stack, u64 fp)
{
}

static inline void frame_close(const struct nb_prog *prog, u8 *stack, u64 fp)
{
}

static inline void stack_release(u8 *stack, size_t size)
{
}
#endif

#define CHECK_ACCESS(addr, size)                                                            \
	do {                                                                                \
		if (checked && unlikely(!access_ok(env, addr, size))) {                     \
			set_fault(env, prog, insn, "invalid memory access", addr, size);    \
			return 0;                                                           \
		}                                                                           \
	} while (0)

static u64 interp_tail_target(const struct nb_prog *prog, u64 ctx, u32 *tail_calls);

/*
 * Run prog from insn with r1..r5 = args: the program's entry, or a callback subprogram.
 * *tail_calls counts the tail calls of the whole run: a program tail-called from a subprogram
 * returns to that subprogram's caller, which may tail-call again (the kernel's shared count).
 */
static __always_inline u64 interp(const struct nb_prog *prog, const struct bpf_insn *insn,
				  const u64 *args, u32 *tail_calls, const bool checked,
				  struct interp_checked *env)
{
	u8 stack[NB_MAX_CALL_FRAMES * NB_STACK_SIZE] __attribute__((aligned(16)));
	struct interp_frame frames[NB_MAX_CALL_FRAMES];
	u32 depth = 0, loops = NB_MAX_LOOPS;	/* may_goto's budget, per function call */
	u64 regs[NB_MAX_BPF_REG];

	memset(regs, 0, sizeof(regs));
	memcpy(&regs[BPF_REG_1], args, 5 * sizeof(u64));
	regs[BPF_REG_10] = (u64)(uintptr_t)(stack + sizeof(stack));
	if (checked) {
		/* Unverified code may read stack it never wrote: make that deterministic. */
		memset(stack, 0, sizeof(stack));
		env->stack_lo = (u64)(uintptr_t)stack;
		env->stack_hi = env->stack_lo + sizeof(stack);
	} else {
		frame_open(prog, insn, stack, regs[BPF_REG_10]);
	}

	for (;; insn++) {
		u8 code = insn->code;
		u64 *dst = &regs[insn->dst_reg];
		u64 src = BPF_SRC(code) == BPF_X ? regs[insn->src_reg] : (u64)(s64)insn->imm;

		if (checked && unlikely(env->budget-- == 0)) {
			set_fault(env, prog, insn, "instruction limit exceeded", 0, 0);
			return 0;
		}
		switch (BPF_CLASS(code)) {
		case BPF_ALU64:
			if (BPF_OP(code) == BPF_END)
				*dst = alu_end(*dst, insn->imm, true);
			else
				*dst = alu_op(BPF_OP(code), *dst, src, insn->off, true);
			continue;
		case BPF_ALU:
			if (BPF_OP(code) == BPF_END)
				*dst = alu_end(*dst, insn->imm, BPF_SRC(code) == BPF_TO_BE);
			else
				*dst = (u32)alu_op(BPF_OP(code), (u32)*dst, (u32)src, insn->off,
						   false);
			continue;
		case BPF_LDX: {
			u64 addr = regs[insn->src_reg] + insn->off;
			u32 size = insn_size_bytes(insn);

			CHECK_ACCESS(addr, size);
			*dst = BPF_MODE(code) == BPF_MEMSX ? load_mem_sx(addr, size)
							   : load_mem(addr, size);
			continue;
		}
		case BPF_ST:
		case BPF_STX: {
			u64 addr = *dst + insn->off;
			u32 size = insn_size_bytes(insn);
			u64 val = BPF_CLASS(code) == BPF_ST ? (u64)(s64)insn->imm
							    : regs[insn->src_reg];

			CHECK_ACCESS(addr, size);
			if (BPF_MODE(code) == BPF_MEM) {
				store_mem(addr, size, val);
				continue;
			}
			if (checked && unlikely(addr & (size - 1))) {
				set_fault(env, prog, insn, "misaligned atomic access", addr, size);
				return 0;
			}
			/* BPF_ATOMIC: the fetched value goes to src (cmpxchg: to r0). */
			if (size == 8)
				val = atomic_op64(addr, insn->imm, val, &regs[BPF_REG_0]);
			else
				val = atomic_op32(addr, insn->imm, (u32)val, &regs[BPF_REG_0]);
			if (insn->imm == BPF_CMPXCHG)
				regs[BPF_REG_0] = val;
			else if (insn->imm & BPF_FETCH)
				regs[insn->src_reg] = val;
			continue;
		}
		case BPF_LD: {
			u32 val;
			s32 off;

			if (insn_is_ldimm64(insn)) {
				*dst = insn_ldimm64_val(insn);
				insn++;
				continue;
			}
			if (code == NB_OP_THIS_CPU) {
				*dst = nb_this_cpu();
				continue;
			}
			/*
			 * LD_ABS / LD_IND read the packet behind r6; a failure returns 0 from the
			 * function (the kernel's gen_ld_abs ends with an exit).
			 */
			off = insn->imm;
			if (BPF_MODE(code) == BPF_IND)
				off = (s32)((u32)regs[insn->src_reg] + (u32)insn->imm);
			if (prog->ops->ld_abs((const void *)(uintptr_t)regs[BPF_REG_6], off,
					      insn_size_bytes(insn), &val) < 0) {
				regs[BPF_REG_0] = 0;
				goto func_exit;
			}
			regs[BPF_REG_0] = val;
			continue;
		}
		default: /* BPF_JMP, BPF_JMP32 */
			break;
		}

		switch (BPF_OP(code)) {
		case BPF_JA:
			insn += insn_jmp_off(insn);
			continue;
		case BPF_CALL:
			if (insn->src_reg == BPF_PSEUDO_CALL) {
				struct interp_frame *f;

				if (checked && unlikely(depth + 1 >= NB_MAX_CALL_FRAMES)) {
					set_fault(env, prog, insn, "call stack too deep", 0, 0);
					return 0;
				}
				f = &frames[depth++];
				memcpy(f->callee_saved, &regs[BPF_REG_6], sizeof(f->callee_saved));
				f->fp = regs[BPF_REG_10];
				f->ret = insn + 1;
				f->prog = prog;
				f->loops = loops;
				loops = NB_MAX_LOOPS;
				regs[BPF_REG_10] -= NB_STACK_SIZE;
				insn += insn->imm;
				if (!checked)
					frame_open(prog, insn + 1, stack, regs[BPF_REG_10]);
				continue;
			}
			regs[BPF_REG_0] = prog->helpers[insn->imm](regs[1], regs[2], regs[3],
								   regs[4], regs[5]);
			continue;
		case BPF_EXIT: {
			struct interp_frame *f;
func_exit:
			if (depth == 0)
				goto out;
			f = &frames[--depth];
			memcpy(&regs[BPF_REG_6], f->callee_saved, sizeof(f->callee_saved));
			regs[BPF_REG_10] = f->fp;
			prog = f->prog;
			loops = f->loops;
			insn = f->ret - 1;
			if (!checked)
				frame_close(prog, stack, regs[BPF_REG_10]);
			continue;
		}
		case BPF_JCOND: /* may_goto */
			if (loops == 0)
				insn += insn->off;
			else
				loops--;
			continue;
		case BPF_OP(NB_OP_TAIL_CALL): {
			struct nb_map *map = (struct nb_map *)(uintptr_t)regs[BPF_REG_2];
			u32 index = (u32)regs[BPF_REG_3];
			struct nb_prog *const *slot;
			const struct nb_prog *next;

			/* A miss or the chain limit falls through to the next instruction. */
			if (index >= map->max_entries || *tail_calls >= NB_MAX_TAIL_CALLS)
				continue;
			slot = map->ops->map_lookup_elem(map, &index);
			next = slot ? READ_ONCE(*slot) : NULL;
			if (!next)
				continue;
			(*tail_calls)++;
			if (depth) {
				/*
				 * From a subprogram: the target replaces this function and its
				 * r0 returns to the caller, whose frames stay.
				 */
				regs[BPF_REG_0] = interp_tail_target(next, regs[BPF_REG_1],
								     tail_calls);
				goto func_exit;
			}
			prog = next;
			insn = prog->insns - 1;
			loops = NB_MAX_LOOPS;	/* the target starts its own run, as in the JIT */
			if (!checked)
				frame_open(prog, prog->insns, stack, regs[BPF_REG_10]);
			continue;
		}
		default:
			if (jmp_taken(BPF_OP(code), *dst, src, BPF_CLASS(code) == BPF_JMP32))
				insn += insn->off;
			continue;
		}
	}
out:
	if (!checked)
		stack_release(stack, sizeof(stack));
	return regs[BPF_REG_0];
}

u64 nb_interp_run(const struct nb_prog *prog, u64 r1, u64 r2)
{
	const u64 args[5] = { r1, r2 };

	u32 tail_calls = 0;

	return interp(prog, prog->insns, args, &tail_calls, false, NULL);
}

/* A tail call's target run from a subprogram: its own frames, the run's count. */
static __attribute__((noinline)) u64 interp_tail_target(const struct nb_prog *prog, u64 ctx,
							u32 *tail_calls)
{
	const u64 args[5] = { ctx };

	return interp(prog, prog->insns, args, tail_calls, false, NULL);
}

/* A JIT-compiled program tail-called this one: the run's count goes on in *tail_calls. */
u64 nb_interp_run_chain(const struct nb_prog *prog, u64 r1, u32 *tail_calls)
{
	return interp_tail_target(prog, r1, tail_calls);
}

/* Callbacks (callback.h): a verified subprogram entered with r1..r5, on a stack of its own. */
u64 nb_interp_run_at(const struct nb_prog *prog, u32 insn_off, u64 r1, u64 r2, u64 r3, u64 r4,
		     u64 r5)
{
	const u64 args[5] = { r1, r2, r3, r4, r5 };
	u32 tail_calls = 0;

	return interp(prog, prog->insns + insn_off, args, &tail_calls, false, NULL);
}

int nb_prog_run_checked(const struct nb_prog *prog, void *mem, size_t len, __u64 *r0,
			struct nb_log *log)
{
	struct interp_checked env = {
		.mem_lo = (u64)(uintptr_t)mem,
		.mem_hi = (u64)(uintptr_t)mem + (mem ? len : 0),
		.budget = NB_CHECKED_INSN_BUDGET,
	};
	u64 ret;

	if (!(prog->load_flags & NB_PROG_LOAD_CHECKED)) {
		nb_log_printf(log, "program %s was not loaded for checked runs\n", prog->name);
		return -EINVAL;
	}
	if (prog->jited_checked)
		return nb_jit_run_checked(prog, mem, len, r0, log);
	const u64 args[5] = { (u64)(uintptr_t)(len ? mem : NULL), len };
	u32 tail_calls = 0;

	ret = interp(prog, prog->insns, args, &tail_calls, true, &env);
	if (env.fault) {
		if (env.fault_size)
			nb_log_printf(log, "insn %u: %s: %u bytes at 0x%llx\n", env.fault_insn,
				      env.fault, env.fault_size,
				      (unsigned long long)env.fault_addr);
		else
			nb_log_printf(log, "insn %u: %s\n", env.fault_insn, env.fault);
		return -EFAULT;
	}
	*r0 = ret;
	return 0;
}
