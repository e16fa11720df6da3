// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 JIT: every instruction the interpreter runs, with the interpreter's results.
 *
 * Registers follow the kernel's x86-64 JIT, so that r1..r5 already sit in the SysV argument
 * registers at a helper call and r6..r9 in callee-saved ones:
 *
 *   r0 rax  r1 rdi  r2 rsi  r3 rdx  r4 rcx  r5 r8  r6 rbx  r7 r13  r8 r14  r9 r15  r10 rbp
 *
 * r9, r10 and r11 are scratch; r12 points to the run's struct nb_jit_env (where the run's
 * tail calls are counted; in checked mode also the native stack pointer to unwind to, the
 * bounds, budget and fault report).
 *
 * Verified programs run on frames as the kernel's JIT makes them (layout of an unchecked image):
 *
 *   entry      u64 fn(r1, r2), the main function's prologue: saves the SysV callee-saved
 *              registers the program uses (rbp, r12, and rbx, r13..r15 for r6..r9), puts the
 *              env below them (r12) with the tail-call count and may_goto budget when the
 *              program has them, sets rbp (BPF r10) there and subtracts the main function's
 *              stack as the verifier proved it (rounded up to 16), if any
 *   body       the main function's code, whose exit unwinds the entry; then each other BPF
 *              function: push rbp, rbx, r13, r14, r15; rbp = rsp; sub rsp, its stack; code;
 *              exit: rsp = rbp, pop the five, return (a failing LD_ABS exits so with r0 = 0)
 *   shared     exit_all (checked faults end the run); the tail entry, the entry again with
 *              the run's count from r10/r11: a tail call unwinds its function's frame and
 *              saves as a return would and jumps there, so each program of a chain runs with
 *              its own saves and frame size, and returns where the function would have (from
 *              a subprogram: to its caller, whose frames stay, and whose env keeps counting);
 *              the tail call's interpreter fallback; one entry per callback, u64 fn(r1..r5),
 *              shaped as the main one but calling its function
 *
 * Checked mode (NB_PROG_LOAD_CHECKED) keeps every BPF frame in the env, where its bounds
 * checks find them: the image starts with the entry fn(r1, r2, env), which calls the main
 * function; every function's prologue pushes the five and takes 512 bytes off rbp; the
 * fault handlers and one stub per possible fault (recording the instruction) end the image.
 *
 * Jumps between instructions start short and become long, for good, when a pass finds their
 * displacement out of reach; passes repeat until no offset moves (sizes only grow, so this ends).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf/helpers.h"
#include "bpf/jit.h"
#include "bpf/jit_x86_64_emit.h"
#include "bpf/map.h"
#include "bpf/percpu_tls.h"
#include "bpf/prog_type.h"

static const u8 reg_map[NB_MAX_BPF_REG] = {
	[BPF_REG_0] = RAX, [BPF_REG_1] = RDI, [BPF_REG_2] = RSI, [BPF_REG_3] = RDX,
	[BPF_REG_4] = RCX, [BPF_REG_5] = R8,  [BPF_REG_6] = RBX, [BPF_REG_7] = R13,
	[BPF_REG_8] = R14, [BPF_REG_9] = R15, [BPF_REG_10] = RBP,
};

#define ADDR R9 /* address of a checked access or an atomic */
#define AUX  R10
#define AUX2 R11
#define ENV  R12

#define ENV_OFF(field) ((s32)offsetof(struct nb_jit_env, field))

#define BPF_STACK_BYTES (NB_MAX_CALL_FRAMES * NB_STACK_SIZE)
/* Bytes of sub rsp, imm32: the fixed-length end of every unchecked function's prologue. */
#define SUB_RSP_LEN	7
#define STUB_LEN	15
#define MAX_PASSES	40

struct jit_stub {
	u32 insn;
	u8 kind;
	u8 size;
};

struct jit_ctx {
	struct x86_buf b;
	const struct nb_prog *prog;
	bool checked;
	bool first_pass;
	bool changed;		/* a jump became long in this pass */
	u32 *addrs;		/* this pass: offset of each instruction's code; [len]: body end */
	u32 *prev;		/* the previous pass */
	u8 *long_jmp;		/* sticky: the instruction's jump needs a 32-bit displacement */
	bool *func_start;	/* a BPF function starts here: its prologue precedes the code */
	bool *jump_target;	/* some jump or call lands here */
	struct jit_stub *stubs;
	u32 nstubs, stub_cap;
	u32 stub_base, prev_stub_base;
	u32 exit_all, abort0, tail_interp, fault[NB_JIT_FAULT_MAX];
	u32 *cb_entry;		/* native entry of each callback (prog->callbacks) */
	u32 prologue_len;
	bool in_main;		/* emitting the main function (unchecked: the entry's frame) */
	bool main_called;	/* a call or callback targets insn 0: no unchecked entry frame */
	bool has_may_goto;	/* calls keep the caller's may_goto budget */
	bool has_tail_call;	/* the run's tail-call count is read */
	u32 main_entry;		/* unchecked: the native entry, just before insn 0 */
	u32 tail_entry;		/* unchecked: where tail calls into this program land */
	u32 body_start;		/* unchecked: the main function's frame set-up */
	/* Unchecked entries: the SysV callee-saved registers this program uses, the env's room. */
	u8 saved[6];
	u32 nsaved;
	s32 reserve;
	s32 this_cpu_off;	/* the worker index, from the thread pointer */
};

/* Native entry into another image by tail call, or the interpreter for a program without one. */
static __thread const struct nb_prog *tail_pending;

static const void *tail_call_target(struct nb_map *map, u32 index, const void *interp_stub)
{
	struct nb_prog *const *slot;
	const struct nb_prog *next;

	if (index >= map->max_entries)
		return NULL;
	slot = map->ops->map_lookup_elem(map, &index);
	next = slot ? READ_ONCE(*slot) : NULL;
	if (!next)
		return NULL;
	if (next->jited)
		return next->jit_tail_entry;
	tail_pending = next;
	return interp_stub;
}

/*
 * The target has no native code: interpret it in this frame, with the run's count so that the
 * whole run makes at most NB_MAX_TAIL_CALLS calls; its r0 returns to where the tail call
 * returns. cnt is the count to go on with, NULL when the target starts the run's count anew
 * from count (a tail call from a main function that kept the count itself).
 */
static u64 tail_call_interp(u64 ctx, u64 count, u32 *cnt)
{
	u32 own = (u32)count;

	return nb_interp_run_chain(tail_pending, ctx, cnt ? cnt : &own);
}

static enum x86_alu alu_op(u8 bpf_op)
{
	switch (bpf_op) {
	case BPF_ADD:
		return ALU_ADD;
	case BPF_SUB:
		return ALU_SUB;
	case BPF_AND:
		return ALU_AND;
	case BPF_OR:
		return ALU_OR;
	default:
		return ALU_XOR;
	}
}

static enum x86_cc jmp_cc(u8 bpf_op)
{
	switch (bpf_op) {
	case BPF_JEQ:
		return CC_E;
	case BPF_JGT:
		return CC_A;
	case BPF_JGE:
		return CC_AE;
	case BPF_JLT:
		return CC_B;
	case BPF_JLE:
		return CC_BE;
	case BPF_JSGT:
		return CC_G;
	case BPF_JSGE:
		return CC_GE;
	case BPF_JSLT:
		return CC_L;
	case BPF_JSLE:
		return CC_LE;
	default: /* BPF_JNE, BPF_JSET */
		return CC_NE;
	}
}

/* Checked mode: the address of a new fault stub for insn (as laid out by the previous pass). */
static u32 fault_stub(struct jit_ctx *c, u32 insn, enum nb_jit_fault kind, u32 size)
{
	if (c->nstubs == c->stub_cap) {
		u32 cap = c->stub_cap ? c->stub_cap * 2 : 256;
		struct jit_stub *s = realloc(c->stubs, cap * sizeof(*s));

		if (!s) {
			c->b.nomem = true;
			return 0;
		}
		c->stubs = s;
		c->stub_cap = cap;
	}
	c->stubs[c->nstubs] = (struct jit_stub){ .insn = insn, .kind = kind, .size = size };
	return c->prev_stub_base + STUB_LEN * c->nstubs++;
}

static const u8 func_saved[] = { RBP, RBX, R13, R14, R15 };

/* Registers the caller does not pass read as zero, as in the interpreter. */
static const u8 cleared[] = { RAX, RBX, R13, R14, R15, RDX, RCX, R8 };

/*
 * Stack bytes of the function starting at insn start: what the verifier proved, rounded up to
 * 16 so that helper calls find rsp aligned; a whole BPF frame for unverified programs.
 */
static u32 func_stack(const struct jit_ctx *c, u32 start)
{
	const struct nb_prog *prog = c->prog;

	for (u32 k = 0; k < prog->func_cnt; k++)
		if (prog->funcs[k].start == start)
			return (prog->funcs[k].stack_depth + 15) & ~15U;
	return NB_STACK_SIZE;
}

/* sub rsp, imm32: always 7 bytes, so that prologues and tail entries have a fixed length. */
static void emit_sub_rsp32(struct x86_buf *b, u32 bytes)
{
	emit_rr(b, X86_W64, 0x81, 5, RSP);
	emit4(b, bytes);
}

/*
 * A BPF function called by bpf-to-bpf call or a callback entry: save what it must keep for its
 * caller (r6..r10). Checked mode carves a 512-byte frame from the env's stack; unchecked code
 * keeps the frame on the native stack, sized by the verifier: rbp = the frame's top.
 */
static void emit_prologue(struct jit_ctx *c, u32 stack)
{
	struct x86_buf *b = &c->b;

	for (u32 i = 0; i < ARRAY_SIZE(func_saved); i++)
		emit_push(b, func_saved[i]);
	if (c->checked) {
		emit_rr(b, X86_W64, 0x81, 5, RBP);
		emit4(b, NB_STACK_SIZE);
		return;
	}
	emit_mov(b, X86_W64, RBP, RSP);
	emit_sub_rsp32(b, stack);
}

/*
 * The SysV callee-saved registers an unchecked entry saves: rbp (r10), r12 (the env), and rbx
 * and r13..r15 only when r6..r9 appear in the program (as the kernel's JIT pushes only the
 * callee-saved registers a program uses; LD_ABS reads its ctx from r6, which the program set).
 * Below them the env's 24 bytes (up to loops), and 8 more when needed to leave rsp 16-byte
 * aligned.
 */
static void choose_saved(struct jit_ctx *c)
{
	const struct nb_prog *prog = c->prog;
	bool used[NB_MAX_BPF_REG] = { false };

	for (u32 i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insns[i];

		used[insn->dst_reg % NB_MAX_BPF_REG] = true;
		if (!insn_is_ldimm64(insn))
			used[insn->src_reg % NB_MAX_BPF_REG] = true;
	}
	c->nsaved = 0;
	if (used[BPF_REG_6] || c->checked || !prog->verified)
		c->saved[c->nsaved++] = RBX;
	c->saved[c->nsaved++] = RBP;
	c->saved[c->nsaved++] = R12;
	for (u32 r = BPF_REG_7; r <= BPF_REG_9; r++)
		if (used[r] || c->checked || !prog->verified)
			c->saved[c->nsaved++] = reg_map[r];
	/* The return address and the saves leave rsp 8 off alignment when their count is even. */
	c->reserve = c->nsaved % 2 ? 32 : 24;
}

static void emit_saves(struct jit_ctx *c)
{
	for (u32 i = 0; i < c->nsaved; i++)
		emit_push(&c->b, c->saved[i]);
}

static void emit_restores(struct jit_ctx *c)
{
	for (u32 i = c->nsaved; i-- > 0;)
		emit_pop(&c->b, c->saved[i]);
}

/* The unchecked entry's way out: drop the frame down to the saves, restore them, return. */
static void emit_entry_exit(struct jit_ctx *c, int frame_top)
{
	emit_lea(&c->b, RSP, frame_top, c->reserve);
	emit_restores(c);
	emit_ret(&c->b);
}

static void emit_epilogue(struct jit_ctx *c)
{
	struct x86_buf *b = &c->b;

	if (!c->checked && c->in_main) {
		/* The main function lives in the entry's frame: rbp is the env. */
		emit_entry_exit(c, RBP);
		return;
	}
	if (!c->checked)
		emit_mov(b, X86_W64, RSP, RBP);
	for (u32 i = ARRAY_SIZE(func_saved); i-- > 0;)
		emit_pop(b, func_saved[i]);
	emit_ret(b);
}

/*
 * The run's tail-call count starts here, in this env, at 0; may_goto's budget is whole. Each
 * only in a program that reads it, as the kernel's JIT sets up the tail-call count only when
 * a tail call is reachable.
 */
static void emit_own_tail_call_cnt(struct jit_ctx *c)
{
	struct x86_buf *b = &c->b;

	if (c->has_tail_call) {
		emit_store_imm(b, 8, ENV, ENV_OFF(tail_calls), 0); /* and depth */
		emit_lea(b, AUX, ENV, ENV_OFF(tail_calls));
		emit_store(b, 8, ENV, ENV_OFF(tail_call_cnt), AUX);
	}
	if (c->has_may_goto)
		emit_store_imm(b, 4, ENV, ENV_OFF(loops), NB_MAX_LOOPS);
}

/*
 * The unchecked native entry u64 fn(r1, r2), which the main function's code follows: save the
 * callee-saved registers the program uses, put the env below them (r12), and make the main
 * function's frame right there (rbp = env, then its verified depth), as the kernel's JIT makes
 * one frame per program. A tail call unwinds its caller's frame and saves completely and lands
 * on the target's tail entry (emit_tail_entry), which makes the target's own.
 */
static void emit_main_entry(struct jit_ctx *c, u32 stack)
{
	struct x86_buf *b = &c->b;

	c->main_entry = b->len;
	emit_saves(c);
	emit_alu_imm(b, X86_W64, ALU_SUB, RSP, c->reserve);
	emit_mov(b, X86_W64, ENV, RSP);
	emit_own_tail_call_cnt(c);
	/* The verifier proves nothing reads them; unproven code finds them zero. */
	if (!c->prog->verified)
		for (u32 i = 0; i < ARRAY_SIZE(cleared); i++)
			emit_zero(b, cleared[i]);
	c->body_start = b->len;
	emit_mov(b, X86_W64, RBP, RSP);
	/* The main function's frame has no fixed length: calls land on other functions. */
	if (stack)
		emit_sub_rsp32(b, stack);
}

/*
 * Where a tail call lands, as if called from where the tail call returns to: the same saves
 * and env, then the main function's frame. The run's count comes in r11, a pointer into the
 * env of a program further down the stack (a tail call from a subprogram, or from a program
 * that was so entered), or NULL: then the count is r10 and lives in this env.
 */
static void emit_tail_entry(struct jit_ctx *c)
{
	struct x86_buf *b = &c->b;
	u32 shared;

	c->tail_entry = b->len;
	emit_saves(c);
	emit_alu_imm(b, X86_W64, ALU_SUB, RSP, c->reserve);
	emit_mov(b, X86_W64, ENV, RSP);
	/* As emit_own_tail_call_cnt: each only in a program that reads it. */
	if (c->has_tail_call) {
		emit_store(b, 8, ENV, ENV_OFF(tail_calls), AUX); /* and depth 0 */
		emit_alu(b, X86_W64, ALU_TEST, AUX2, AUX2);
		shared = emit_jcc8_fwd(b, CC_NE);
		emit_lea(b, AUX2, ENV, ENV_OFF(tail_calls));
		bind8(b, shared);
		emit_store(b, 8, ENV, ENV_OFF(tail_call_cnt), AUX2);
	}
	if (c->has_may_goto)
		emit_store_imm(b, 4, ENV, ENV_OFF(loops), NB_MAX_LOOPS);
	emit_jmp32(b, c->body_start);
}

/*
 * A native entry that calls the BPF function at insn target: the checked main entry
 * fn(r1, r2, env) and the callback entries fn(r1..r5). Save the SysV callee-saved registers,
 * set up the env (checked: the caller's, with the BPF stack in it), clear the registers the
 * caller does not pass, call.
 */
static void emit_entry(struct jit_ctx *c, u32 target, bool main)
{
	struct x86_buf *b = &c->b;

	emit_saves(c);
	if (c->checked) {
		emit_alu_imm(b, X86_W64, ALU_SUB, RSP, 8);
		emit_mov(b, X86_W64, ENV, RDX);
		emit_lea(b, RBP, ENV, ENV_OFF(stack) + BPF_STACK_BYTES + NB_STACK_SIZE);
		emit_store(b, 8, ENV, ENV_OFF(saved_rsp), RSP);
	} else {
		emit_alu_imm(b, X86_W64, ALU_SUB, RSP, c->reserve);
		emit_mov(b, X86_W64, ENV, RSP);
		emit_own_tail_call_cnt(c);
	}
	/* Verified code reads no register it did not get (nor could it: r7..r9 may be unsaved). */
	if (c->checked || !c->prog->verified)
		for (u32 i = 0; i < (main ? ARRAY_SIZE(cleared) : 5); i++)
			emit_zero(b, cleared[i]);
	emit_call_rel(b, c->prev[target] - c->prologue_len);
}

/*
 * exit_all, the code shared by all instructions and the callback entries; in checked mode the
 * main entry first (unchecked, the main entry starts the image and the main function's code
 * follows it).
 */
static void emit_shared(struct jit_ctx *c)
{
	const struct nb_prog *prog = c->prog;
	struct x86_buf *b = &c->b;

	if (c->checked) {
		emit_entry(c, 0, true);
		c->exit_all = b->len;
		emit_load(b, 8, RSP, ENV, ENV_OFF(saved_rsp));
		emit_alu_imm(b, X86_W64, ALU_ADD, RSP, 8);
		emit_restores(c);
		emit_ret(b);
	} else {
		/* The env sits right below the entry's saves, whatever the depth. */
		c->exit_all = b->len;
		emit_entry_exit(c, ENV);
		emit_tail_entry(c);
	}

	/* Ends the whole run with r0 = 0, from any call depth. */
	c->abort0 = b->len;
	emit_zero(b, RAX);
	emit_jmp32(b, c->exit_all);

	if (!c->checked) {
		/*
		 * The tail call unwound its caller as a return would: the interpreter's result
		 * goes straight back to the chain's caller.
		 */
		c->tail_interp = b->len;
		emit_mov(b, 0, RSI, AUX);
		emit_mov(b, X86_W64, RDX, AUX2);
		emit_mov_imm64(b, AUX2, (u64)(uintptr_t)tail_call_interp);
		emit_jmp_reg(b, AUX2);
	}

	if (c->checked) {
		/* Fault handlers: the stub put the instruction in esi and the size in edx. */
		for (u32 kind = NB_JIT_FAULT_MEM; kind < NB_JIT_FAULT_MAX; kind++) {
			c->fault[kind] = b->len;
			emit_store(b, 4, ENV, ENV_OFF(fault_insn), RSI);
			emit_store(b, 4, ENV, ENV_OFF(fault_size), RDX);
			emit_store(b, 8, ENV, ENV_OFF(fault_addr), ADDR);
			emit_store_imm(b, 4, ENV, ENV_OFF(fault_kind), kind);
			emit_jmp32(b, c->abort0);
		}
		return;
	}
	/* Callbacks (bpf_loop, for_each_map_elem): helpers enter them from C with r1..r5. */
	for (u32 k = 0; k < prog->callback_cnt; k++) {
		c->cb_entry[k] = b->len;
		emit_entry(c, prog->callbacks[k].insn_off, false);
		emit_jmp32(b, c->exit_all);
	}
}

static void emit_stubs(struct jit_ctx *c)
{
	struct x86_buf *b = &c->b;

	c->stub_base = b->len;
	for (u32 i = 0; i < c->nstubs; i++) {
		emit_mov_imm32(b, RSI, c->stubs[i].insn);
		emit_mov_imm32(b, RDX, c->stubs[i].size);
		emit_jmp32(b, c->fault[c->stubs[i].kind]);
	}
}

/* A jump to instruction target: short while it reaches, long once it did not. */
static void emit_insn_jump(struct jit_ctx *c, u32 i, int cc, u32 target)
{
	struct x86_buf *b = &c->b;
	u32 to = c->prev[target];

	if (!c->first_pass && !c->long_jmp[i] && !is_s8((s64)to - (b->len + 2))) {
		c->long_jmp[i] = 1;
		c->changed = true;
	}
	if (c->first_pass || !c->long_jmp[i]) {
		emit1(b, cc < 0 ? 0xeb : 0x70 | cc);
		emit1(b, c->first_pass ? 0 : (u8)(to - (b->len + 1)));
	} else if (cc < 0) {
		emit_jmp32(b, to);
	} else {
		emit_jcc32(b, cc, to);
	}
}

static void emit_div_by_zero(struct x86_buf *b, unsigned int w, bool mod, int dst)
{
	if (!mod)
		emit_zero(b, dst);
	else if (!w)
		emit_mov(b, 0, dst, dst); /* dst % 0 = dst, zero-extended */
}

static void emit_div_by_minus1(struct x86_buf *b, unsigned int w, bool mod, int dst)
{
	if (mod)
		emit_zero(b, dst);
	else
		emit_neg(b, w, dst); /* INT_MIN / -1 wraps to INT_MIN */
}

/* dst = dst / r11 (or %), with rax and rdx (BPF r0 and r3) preserved. */
static void emit_div_core(struct x86_buf *b, unsigned int w, bool sign, bool mod, int dst)
{
	emit_mov(b, X86_W64, AUX, RDX);
	emit_mov(b, X86_W64, ADDR, RAX);
	if (dst != RAX)
		emit_mov(b, X86_W64, RAX, dst);
	if (sign)
		emit_cqo(b, w);
	else
		emit_zero(b, RDX);
	emit_div(b, w, sign, AUX2);
	emit_mov(b, X86_W64, AUX2, mod ? RDX : RAX);
	emit_mov(b, X86_W64, RAX, ADDR);
	emit_mov(b, X86_W64, RDX, AUX);
	emit_mov(b, w, dst, AUX2);
}

/* BPF division never faults: x / 0 = 0, x % 0 = x, sdiv by -1 negates, smod by -1 is 0. */
static void emit_divmod(struct x86_buf *b, const struct bpf_insn *insn)
{
	unsigned int w = BPF_CLASS(insn->code) == BPF_ALU64 ? X86_W64 : 0;
	bool mod = BPF_OP(insn->code) == BPF_MOD, sign = insn->off == 1;
	int dst = reg_map[insn->dst_reg];
	u32 l_zero, l_neg1 = 0, l_done, l_done2 = 0;

	if (BPF_SRC(insn->code) == BPF_K) {
		if (insn->imm == 0)
			emit_div_by_zero(b, w, mod, dst);
		else if (sign && insn->imm == -1)
			emit_div_by_minus1(b, w, mod, dst);
		else {
			if (w)
				emit_mov_imm64(b, AUX2, (u64)(s64)insn->imm);
			else
				emit_mov_imm32(b, AUX2, insn->imm);
			emit_div_core(b, w, sign, mod, dst);
		}
		return;
	}
	emit_mov(b, w, AUX2, reg_map[insn->src_reg]);
	emit_alu(b, w, ALU_TEST, AUX2, AUX2);
	l_zero = emit_jcc8_fwd(b, CC_E);
	if (sign) {
		emit_alu_imm(b, w, ALU_CMP, AUX2, -1);
		l_neg1 = emit_jcc8_fwd(b, CC_E);
	}
	emit_div_core(b, w, sign, mod, dst);
	l_done = emit_jmp8_fwd(b);
	bind8(b, l_zero);
	emit_div_by_zero(b, w, mod, dst);
	if (sign) {
		l_done2 = emit_jmp8_fwd(b);
		bind8(b, l_neg1);
		emit_div_by_minus1(b, w, mod, dst);
		bind8(b, l_done2);
	}
	bind8(b, l_done);
}

/* Shift by a register: x86 takes the count in cl (BPF r4) and masks it as BPF does. */
static void emit_shift_reg(struct x86_buf *b, unsigned int w, enum x86_shift op, int dst, int src)
{
	if (src == RCX) {
		emit_shift_cl(b, w, op, dst);
		return;
	}
	emit_mov(b, X86_W64, AUX2, RCX);
	emit_mov(b, X86_W64, RCX, src);
	if (dst == RCX) {
		emit_shift_cl(b, w, op, AUX2);
		emit_mov(b, X86_W64, RCX, AUX2);
		return;
	}
	emit_shift_cl(b, w, op, dst);
	emit_mov(b, X86_W64, RCX, AUX2);
}

static void emit_alu_insn(struct x86_buf *b, const struct bpf_insn *insn)
{
	bool is64 = BPF_CLASS(insn->code) == BPF_ALU64;
	unsigned int w = is64 ? X86_W64 : 0;
	bool is_x = BPF_SRC(insn->code) == BPF_X;
	int dst = reg_map[insn->dst_reg], src = reg_map[insn->src_reg];
	s32 imm = insn->imm;
	u8 op = BPF_OP(insn->code);

	switch (op) {
	case BPF_ADD:
	case BPF_SUB:
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		if (is_x)
			emit_alu(b, w, alu_op(op), dst, src);
		else
			emit_alu_imm(b, w, alu_op(op), dst, imm);
		break;
	case BPF_MOV:
		if (!is_x && is64)
			emit_mov_imm64(b, dst, (u64)(s64)imm);
		else if (!is_x)
			emit_mov_imm64(b, dst, (u32)imm);
		else if (insn->off == 0)
			emit_mov(b, w, dst, src);
		else
			emit_movsx(b, w, insn->off, dst, src);
		break;
	case BPF_MUL:
		if (is_x)
			emit_imul(b, w, dst, src);
		else
			emit_imul_imm(b, w, dst, imm);
		break;
	case BPF_DIV:
	case BPF_MOD:
		emit_divmod(b, insn);
		break;
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH: {
		enum x86_shift sh = op == BPF_LSH ? SH_SHL : op == BPF_RSH ? SH_SHR : SH_SAR;

		if (is_x) {
			emit_shift_reg(b, w, sh, dst, src);
		} else if (imm & (is64 ? 63 : 31)) {
			emit_shift_imm(b, w, sh, dst, imm & (is64 ? 63 : 31));
		} else if (!is64) {
			emit_mov(b, 0, dst, dst); /* a 32-bit shift by 0 still zero-extends */
		}
		break;
	}
	case BPF_NEG:
		emit_neg(b, w, dst);
		break;
	default: { /* BPF_END: ALU64 always swaps; ALU swaps for to_be on this little-endian host */
		bool swap = is64 || BPF_SRC(insn->code) == BPF_TO_BE;

		if (imm == 16) {
			if (swap)
				emit_ror16_8(b, dst);
			emit_movzx16(b, dst, dst);
		} else if (imm == 32) {
			if (swap)
				emit_bswap(b, 0, dst);
			else
				emit_mov(b, 0, dst, dst);
		} else if (swap) {
			emit_bswap(b, X86_W64, dst);
		}
		break;
	}
	}
}

/* Checked mode: r9 = base + off if [r9, r9 + size) lies in the stack or the memory block. */
static void emit_check_access(struct jit_ctx *c, u32 i, int base, s16 off, u32 size)
{
	struct x86_buf *b = &c->b;
	u32 stub, l_ok;

	emit_lea(b, ADDR, base, off);
	/* Stack: addr - lo <= stack size - size, unsigned (below lo wraps to a huge value). */
	emit_mov(b, X86_W64, AUX, ADDR);
	emit_alu_load(b, X86_W64, ALU_SUB, AUX, ENV, ENV_OFF(stack_lo));
	emit_alu_imm(b, X86_W64, ALU_CMP, AUX, BPF_STACK_BYTES - size);
	l_ok = emit_jcc8_fwd(b, CC_BE);
	/* Memory block: addr - lo + size <= len, without carry. */
	stub = fault_stub(c, i, NB_JIT_FAULT_MEM, size);
	emit_mov(b, X86_W64, AUX, ADDR);
	emit_alu_load(b, X86_W64, ALU_SUB, AUX, ENV, ENV_OFF(mem_lo));
	emit_alu_imm(b, X86_W64, ALU_ADD, AUX, size);
	emit_jcc32(b, CC_B, stub);
	emit_alu_load(b, X86_W64, ALU_CMP, AUX, ENV, ENV_OFF(mem_len));
	emit_jcc32(b, CC_A, stub);
	bind8(b, l_ok);
}

/* Atomic read-modify-write at [r9]; fetch forms return the old value in src (cmpxchg: r0). */
static void emit_atomic(struct x86_buf *b, const struct bpf_insn *insn, u32 size)
{
	unsigned int w = size == 8 ? X86_W64 : 0;
	int src = reg_map[insn->src_reg];
	u32 loop;

	switch (insn->imm) {
	case BPF_ADD:
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		emit_lock_alu(b, size, alu_op(insn->imm), ADDR, 0, src);
		break;
	case BPF_ADD | BPF_FETCH:
		emit_lock_xadd(b, size, ADDR, 0, src);
		break;
	case BPF_XCHG:
		emit_xchg(b, size, ADDR, 0, src);
		break;
	case BPF_CMPXCHG:
		emit_lock_cmpxchg(b, size, ADDR, 0, src);
		if (size == 4)
			emit_mov(b, 0, RAX, RAX); /* a successful cmpxchg leaves rax's top alone */
		break;
	default: /* and/or/xor with fetch: a compare-and-exchange loop through rax */
		emit_mov(b, X86_W64, AUX, RAX);
		emit_load(b, size, RAX, ADDR, 0);
		loop = b->len;
		emit_mov(b, X86_W64, AUX2, src == RAX ? AUX : src);
		emit_alu(b, w, alu_op(insn->imm & ~BPF_FETCH), AUX2, RAX);
		emit_lock_cmpxchg(b, size, ADDR, 0, AUX2);
		emit_jcc8_back(b, CC_NE, loop);
		if (src != RAX) {
			emit_mov(b, w, src, RAX);
			emit_mov(b, X86_W64, RAX, AUX);
		}
		break;
	}
}

static void emit_mem_insn(struct jit_ctx *c, u32 i, const struct bpf_insn *insn)
{
	struct x86_buf *b = &c->b;
	u32 size = insn_size_bytes(insn);
	bool load = BPF_CLASS(insn->code) == BPF_LDX;
	int base = reg_map[load ? insn->src_reg : insn->dst_reg];
	s32 off = insn->off;

	if (c->checked || insn_is_atomic(insn)) {
		if (c->checked)
			emit_check_access(c, i, base, off, size);
		else
			emit_lea(b, ADDR, base, off);
		base = ADDR;
		off = 0;
	}
	switch (BPF_CLASS(insn->code)) {
	case BPF_LDX:
		if (BPF_MODE(insn->code) == BPF_MEMSX)
			emit_load_sx(b, size, reg_map[insn->dst_reg], base, off);
		else
			emit_load(b, size, reg_map[insn->dst_reg], base, off);
		break;
	case BPF_ST:
		emit_store_imm(b, size, base, off, insn->imm);
		break;
	default:
		if (BPF_MODE(insn->code) == BPF_MEM) {
			emit_store(b, size, base, off, reg_map[insn->src_reg]);
			break;
		}
		if (c->checked) {
			emit_test8_imm(b, ADDR, size - 1);
			emit_jcc32(b, CC_NE, fault_stub(c, i, NB_JIT_FAULT_ALIGN, size));
		}
		emit_atomic(b, insn, size);
		break;
	}
}

/*
 * The in-line LD_ABS / LD_IND of a verified program on a packet with linear data
 * (ops->ld_abs_linear): with off >= 0 and off + size <= len, r0 = data[off, off + size) in host
 * order, touching only r0 and the scratch registers. Anything else jumps to the returned label,
 * the call to ops->ld_abs, which decides (negative offsets) or fails. The verifier proved r6 is
 * the ctx; unverified and checked programs always call.
 */
static u32 emit_ld_abs_inline(struct jit_ctx *c, const struct bpf_insn *insn, u32 *slow2)
{
	const struct nb_prog_type_ops *ops = c->prog->ops;
	struct x86_buf *b = &c->b;
	u32 size = insn_size_bytes(insn);
	u32 slow;

	*slow2 = 0;
	if (BPF_MODE(insn->code) == BPF_IND) {
		/* AUX = off, computed in 32 bits as the interpreter does; negative: slow. */
		emit_mov(b, 0, AUX, reg_map[insn->src_reg]);
		emit_alu_imm(b, 0, ALU_ADD, AUX, insn->imm);
		*slow2 = emit_jcc8_fwd(b, CC_S);
		/*
		 * AUX2 = linear length - off, in 64 bits (all zero-extended): below size is out
		 * of the linear part. ADDR, unused by unchecked code here, holds the fragments'.
		 */
		emit_load(b, 4, AUX2, RBX, ops->ld_abs_len_off);
		if (ops->ld_abs_data_len_off) {
			emit_load(b, 4, ADDR, RBX, ops->ld_abs_data_len_off);
			emit_alu(b, X86_W64, ALU_SUB, AUX2, ADDR);
		}
		emit_alu(b, X86_W64, ALU_SUB, AUX2, AUX);
		emit_alu_imm(b, X86_W64, ALU_CMP, AUX2, size);
		slow = emit_jcc8_fwd(b, CC_L);
		emit_load(b, 8, AUX2, RBX, ops->ld_abs_data_off);
		emit_alu(b, X86_W64, ALU_ADD, AUX2, AUX);
		emit_load(b, size, RAX, AUX2, 0);
	} else {
		/* off is the immediate, 0 <= off <= INT32_MAX - 4 (the caller checked). */
		emit_load(b, 4, AUX, RBX, ops->ld_abs_len_off);
		if (ops->ld_abs_data_len_off) {
			emit_load(b, 4, AUX2, RBX, ops->ld_abs_data_len_off);
			emit_alu(b, 0, ALU_SUB, AUX, AUX2);
		}
		emit_alu_imm(b, 0, ALU_CMP, AUX, insn->imm + (s32)size);
		slow = emit_jcc8_fwd(b, CC_B);
		emit_load(b, 8, AUX, RBX, ops->ld_abs_data_off);
		emit_load(b, size, RAX, AUX, insn->imm);
	}
	/* Network to host order; the loads zero-extended, and these keep the upper bits. */
	if (size == 4)
		emit_bswap(b, 0, RAX);
	else if (size == 2)
		emit_ror16_8(b, RAX);
	return slow;
}

/*
 * LD_ABS / LD_IND: r0 = ops->ld_abs(r6, off, size); a failure returns 0 from the function, as
 * the kernel's gen_ld_abs does with its hidden exit.
 */
static void emit_ld_abs(struct jit_ctx *c, const struct bpf_insn *insn)
{
	static const u8 kept[] = { RDI, RSI, RDX, RCX, R8 };
	struct x86_buf *b = &c->b;
	bool in_line = c->prog->ops->ld_abs_linear && c->prog->verified && !c->checked &&
		       (BPF_MODE(insn->code) == BPF_IND ||
			(insn->imm >= 0 && insn->imm <= INT32_MAX - 4));
	u32 slow = 0, slow2 = 0, done = 0, loaded;
	/*
	 * The interpreter keeps r1..r5; the verifier proves nobody reads them after LD_ABS, so
	 * only unproven programs pay for keeping them. Five pushes and the result slot, or the
	 * slot and padding, keep rsp aligned.
	 */
	bool keep = c->checked || !c->prog->verified;
	s32 slot = keep ? 8 : 16;

	if (in_line) {
		slow = emit_ld_abs_inline(c, insn, &slow2);
		done = emit_jmp8_fwd(b);
		bind8(b, slow);
		if (slow2)
			bind8(b, slow2);
	}
	if (keep)
		for (u32 i = 0; i < ARRAY_SIZE(kept); i++)
			emit_push(b, kept[i]);
	emit_alu_imm(b, X86_W64, ALU_SUB, RSP, slot);
	if (BPF_MODE(insn->code) == BPF_IND) {
		emit_mov(b, 0, RSI, reg_map[insn->src_reg]);
		emit_alu_imm(b, 0, ALU_ADD, RSI, insn->imm);
	} else {
		emit_mov_imm32(b, RSI, insn->imm);
	}
	emit_mov(b, X86_W64, RDI, RBX);
	emit_mov_imm32(b, RDX, insn_size_bytes(insn));
	emit_mov(b, X86_W64, RCX, RSP);
	emit_call_abs(b, c->prog->ops->ld_abs);
	emit_alu(b, 0, ALU_TEST, RAX, RAX);
	loaded = emit_jcc8_fwd(b, CC_NS);
	emit_alu_imm(b, X86_W64, ALU_ADD, RSP, slot);
	if (keep)
		for (u32 i = ARRAY_SIZE(kept); i-- > 0;)
			emit_pop(b, kept[i]);
	emit_zero(b, RAX);
	emit_epilogue(c);
	bind8(b, loaded);
	emit_load(b, 4, RAX, RSP, 0);
	emit_alu_imm(b, X86_W64, ALU_ADD, RSP, slot);
	if (keep)
		for (u32 i = ARRAY_SIZE(kept); i-- > 0;)
			emit_pop(b, kept[i]);
	if (in_line)
		bind8(b, done);
}

/*
 * The map in r1 at the helper call insn i, when an ldimm64 of a map sets r1 earlier in the same
 * straight-line code (nothing jumps in between, nothing else writes r1); NULL otherwise.
 */
static const struct nb_map *known_map_arg(const struct jit_ctx *c, u32 i)
{
	const struct bpf_insn *insns = c->prog->insns;

	for (u32 k = i; k-- > 0;) {
		const struct bpf_insn *insn = &insns[k];

		if (c->jump_target[k + 1])
			return NULL;
		if (k > 0 && insn->code == 0 && insn_is_ldimm64(&insns[k - 1]))
			insn = &insns[--k];
		if (insn_is_ldimm64(insn)) {
			if (insn->dst_reg != BPF_REG_1)
				continue;
			if (insn->src_reg != BPF_PSEUDO_MAP_FD || c->jump_target[k + 1])
				return NULL;
			return (const struct nb_map *)(uintptr_t)insn_ldimm64_val(insn);
		}
		switch (insn_class(insn)) {
		case BPF_ALU:
		case BPF_ALU64:
		case BPF_LDX:
			if (insn->dst_reg == BPF_REG_1)
				return NULL;
			break;
		case BPF_ST:
			break;
		case BPF_STX:
			if (insn_is_atomic(insn) && (insn->imm & BPF_FETCH) &&
			    insn->src_reg == BPF_REG_1)
				return NULL;
			break;
		default: /* jumps, calls, exits, LD_ABS: stop looking */
			return NULL;
		}
	}
	return NULL;
}

/* Is helper the one a call of id reaches in programs of c's type? */
static bool helper_is(const struct jit_ctx *c, nb_helper_fn helper, enum bpf_func_id id)
{
	const struct nb_prog_type_ops *ops = c->prog->ops;
	const struct nb_func_proto *proto;

	if (!ops || !ops->get_func_proto)
		return false;
	proto = ops->get_func_proto(id, c->prog);
	return proto && proto->func == helper;
}

/*
 * The generic map helpers and bpf_redirect_map only dispatch through map->ops: with the map
 * known, call its operation directly, as the kernel's fixup does (bpf_redirect_map's imm becomes
 * ops->map_redirect; its arguments, map, key and flags in r1..r3, are the operation's).
 */
static const void *direct_map_op(const struct jit_ctx *c, u32 i, nb_helper_fn helper)
{
	const struct nb_map *map;
	bool redirect = false;

	if (helper != nb_map_lookup_elem_proto.func && helper != nb_map_update_elem_proto.func &&
	    helper != nb_map_delete_elem_proto.func &&
	    !(redirect = helper_is(c, helper, BPF_FUNC_redirect_map)))
		return NULL;
	map = known_map_arg(c, i);
	if (!map)
		return NULL;
	if (redirect)
		/* A map without the operation: the helper's own answer (XDP_ABORTED). */
		return map->ops->map_redirect ? (const void *)map->ops->map_redirect : NULL;
	if (helper == nb_map_lookup_elem_proto.func)
		/* Map-in-map lookups return the inner map, not the slot: the helper knows. */
		return map->inner_map_meta ? NULL : (const void *)map->ops->map_lookup_elem;
	if (helper == nb_map_update_elem_proto.func)
		return (const void *)map->ops->map_update_elem;
	return (const void *)map->ops->map_delete_elem;
}

static void emit_helper_call(struct jit_ctx *c, u32 i, const struct bpf_insn *insn)
{
	static const u8 kept[] = { RDI, RSI, RDX, RCX, R8, R8 };
	nb_helper_fn helper = c->prog->helpers[insn->imm];
	const void *direct = direct_map_op(c, i, helper);
	struct x86_buf *b = &c->b;

	/*
	 * Verified programs never read r1..r5 after a call; unverified ones may, and the
	 * interpreter leaves them untouched. Six pushes keep rsp aligned.
	 */
	if (c->checked)
		for (u32 k = 0; k < ARRAY_SIZE(kept); k++)
			emit_push(b, kept[k]);
	emit_call_abs(b, direct ? direct : (const void *)helper);
	if (c->checked)
		for (u32 k = ARRAY_SIZE(kept); k-- > 0;)
			emit_pop(b, kept[k]);
}

static void emit_pseudo_call(struct jit_ctx *c, u32 i, const struct bpf_insn *insn)
{
	struct x86_buf *b = &c->b;
	u32 target = i + 1 + insn->imm;

	if (c->checked) {
		emit_alu_mem_imm(b, 0, ALU_CMP, ENV, ENV_OFF(depth), NB_MAX_CALL_FRAMES - 1);
		emit_jcc32(b, CC_AE, fault_stub(c, i, NB_JIT_FAULT_DEPTH, 0));
		emit_alu_mem_imm(b, 0, ALU_ADD, ENV, ENV_OFF(depth), 1);
	}
	/*
	 * Each call has a whole may_goto budget, the caller's waits on the stack (twice, so
	 * that rsp stays 16-byte aligned), as the kernel gives each function its own count.
	 */
	if (c->has_may_goto) {
		emit_load(b, 4, AUX, ENV, ENV_OFF(loops));
		emit_push(b, AUX);
		emit_push(b, AUX);
		emit_store_imm(b, 4, ENV, ENV_OFF(loops), NB_MAX_LOOPS);
	}
	emit_call_rel(b, c->prev[target] - c->prologue_len);
	if (c->has_may_goto) {
		emit_pop(b, AUX);
		emit_pop(b, AUX);
		emit_store(b, 4, ENV, ENV_OFF(loops), AUX);
	}
	if (c->checked)
		emit_alu_mem_imm(b, 0, ALU_SUB, ENV, ENV_OFF(depth), 1);
}

/*
 * bpf_tail_call(ctx, map, index): on a hit below the run's limit, unwind this function's frame
 * and saves and jump to the target's tail entry, which makes its own (the kernel's JIT does the
 * same); on a miss continue with the next instruction. From the main function the target
 * returns to the program's caller; from a subprogram to the subprogram's caller, whose frames
 * stay below and whose env keeps the run's count (r11 hands the target a pointer to it).
 */
static void emit_tail_call(struct jit_ctx *c)
{
	struct x86_buf *b = &c->b;
	u32 l_limit, l_miss, l_shared;

	emit_load(b, 8, AUX, ENV, ENV_OFF(tail_call_cnt));
	emit_alu_mem_imm(b, 0, ALU_CMP, AUX, 0, NB_MAX_TAIL_CALLS);
	l_limit = emit_jcc8_fwd(b, CC_AE);
	emit_push(b, RDI);
	emit_push(b, RDI);
	emit_mov(b, X86_W64, RDI, RSI);
	emit_mov(b, 0, RSI, RDX);
	emit_lea_rip(b, RDX, c->tail_interp);
	emit_call_abs(b, tail_call_target);
	emit_pop(b, RDI);
	emit_pop(b, RDI);
	emit_alu(b, X86_W64, ALU_TEST, RAX, RAX);
	l_miss = emit_jcc8_fwd(b, CC_E);
	/* Count the call where the run counts; rdi keeps the ctx through the unwinding. */
	emit_load(b, 8, AUX2, ENV, ENV_OFF(tail_call_cnt));
	emit_alu_mem_imm(b, 0, ALU_ADD, AUX2, 0, 1);
	emit_load(b, 4, AUX, AUX2, 0);
	if (c->in_main) {
		/* The count in this env dies with the frame: the target keeps it (r11 = NULL). */
		emit_lea(b, ADDR, ENV, ENV_OFF(tail_calls));
		emit_alu(b, X86_W64, ALU_CMP, AUX2, ADDR);
		l_shared = emit_jcc8_fwd(b, CC_NE);
		emit_alu(b, 0, ALU_XOR, AUX2, AUX2);
		bind8(b, l_shared);
		emit_lea(b, RSP, RBP, c->reserve);
		emit_restores(c);
	} else {
		emit_mov(b, X86_W64, RSP, RBP);
		for (u32 i = ARRAY_SIZE(func_saved); i-- > 0;)
			emit_pop(b, func_saved[i]);
	}
	emit_jmp_reg(b, RAX);
	bind8(b, l_limit);
	bind8(b, l_miss);
}

static void emit_jmp_insn(struct jit_ctx *c, u32 i, const struct bpf_insn *insn)
{
	struct x86_buf *b = &c->b;
	unsigned int w = BPF_CLASS(insn->code) == BPF_JMP32 ? 0 : X86_W64;
	int dst = reg_map[insn->dst_reg];
	u8 op = BPF_OP(insn->code);

	switch (op) {
	case BPF_JA:
		emit_insn_jump(c, i, -1, i + 1 + insn_jmp_off(insn));
		return;
	case BPF_CALL:
		if (insn->src_reg == BPF_PSEUDO_CALL)
			emit_pseudo_call(c, i, insn);
		else
			emit_helper_call(c, i, insn);
		return;
	case BPF_EXIT:
		emit_epilogue(c);
		return;
	case BPF_OP(NB_OP_TAIL_CALL):
		emit_tail_call(c);
		return;
	case BPF_JCOND:
		/* may_goto: out when the run's budget is spent, else one more turn. */
		emit_alu_mem_imm(b, 0, ALU_CMP, ENV, ENV_OFF(loops), 0);
		emit_insn_jump(c, i, CC_E, i + 1 + insn->off);
		emit_alu_mem_imm(b, 0, ALU_SUB, ENV, ENV_OFF(loops), 1);
		return;
	}
	if (BPF_SRC(insn->code) == BPF_X)
		emit_alu(b, w, op == BPF_JSET ? ALU_TEST : ALU_CMP, dst, reg_map[insn->src_reg]);
	else if (op == BPF_JSET)
		emit_alu_imm(b, w, ALU_TEST, dst, insn->imm);
	else if (insn->imm == 0)
		emit_alu(b, w, ALU_TEST, dst, dst); /* same flags as cmp dst, 0 */
	else
		emit_alu_imm(b, w, ALU_CMP, dst, insn->imm);
	emit_insn_jump(c, i, jmp_cc(op), i + 1 + insn->off);
}

static void emit_body(struct jit_ctx *c)
{
	const struct nb_prog *prog = c->prog;
	struct x86_buf *b = &c->b;

	for (u32 i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insns[i];

		if (c->func_start[i]) {
			c->in_main = i == 0;
			if (i == 0 && !c->checked)
				emit_main_entry(c, func_stack(c, 0));
			else
				emit_prologue(c, func_stack(c, i));
		}
		c->addrs[i] = b->len;
		if (c->checked) {
			/* One unit of budget per instruction, spent before it runs. */
			emit_alu_mem_imm(b, X86_W64, ALU_SUB, ENV, ENV_OFF(budget), 1);
			emit_jcc32(b, CC_B, fault_stub(c, i, NB_JIT_FAULT_BUDGET, 0));
		}
		switch (BPF_CLASS(insn->code)) {
		case BPF_ALU:
		case BPF_ALU64:
			emit_alu_insn(b, insn);
			break;
		case BPF_LDX:
		case BPF_ST:
		case BPF_STX:
			emit_mem_insn(c, i, insn);
			break;
		case BPF_LD:
			if (insn_is_ldimm64(insn)) {
				emit_mov_imm64(b, reg_map[insn->dst_reg], insn_ldimm64_val(insn));
				c->addrs[++i] = b->len;
			} else if (insn->code == NB_OP_THIS_CPU) {
				emit_load_fs32(b, reg_map[insn->dst_reg], c->this_cpu_off);
			} else {
				emit_ld_abs(c, insn);
			}
			break;
		default:
			emit_jmp_insn(c, i, insn);
			break;
		}
	}
	c->addrs[prog->len] = b->len;
}

/* Function starts: insn 0, every target of a bpf-to-bpf call, every callback. */
static void mark_functions(struct jit_ctx *c)
{
	const struct nb_prog *prog = c->prog;

	c->func_start[0] = true;
	for (u32 i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insns[i];
		s64 target = (s64)i + 1 + insn->imm;

		if (insn_is_pseudo_call(insn) && target >= 0 && target < prog->len) {
			c->func_start[target] = c->jump_target[target] = true;
			c->main_called |= target == 0;
		}
		c->has_may_goto |= insn_is_may_goto(insn);
		c->has_tail_call |= insn->code == NB_OP_TAIL_CALL;
		if (insn_is_ja(insn) || insn_is_cond_jmp(insn)) {
			target = (s64)i + 1 + insn_jmp_off(insn);
			if (target >= 0 && target < prog->len)
				c->jump_target[target] = true;
		}
		if (insn_is_ldimm64(insn))
			i++;
	}
	for (u32 k = 0; k < prog->callback_cnt; k++) {
		if (prog->callbacks[k].insn_off < prog->len)
			c->func_start[prog->callbacks[k].insn_off] =
				c->jump_target[prog->callbacks[k].insn_off] = true;
		c->main_called |= prog->callbacks[k].insn_off == 0;
	}
}

static int install_image(struct nb_prog *prog, struct jit_ctx *c, struct nb_log *log)
{
	size_t size = (c->b.len + getpagesize() - 1) & ~((size_t)getpagesize() - 1);
	void *image = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (image == MAP_FAILED) {
		nb_log_printf(log, "JIT: no memory for %u bytes of code\n", c->b.len);
		return -ENOMEM;
	}
	memcpy(image, c->b.p, c->b.len);
	/* W^X: the code is never writable and executable at once. */
	if (mprotect(image, size, PROT_READ | PROT_EXEC)) {
		munmap(image, size);
		nb_log_printf(log, "JIT: cannot make the code executable\n");
		return -errno;
	}
	prog->jit_image = image;
	prog->jit_size = c->b.len;
	prog->jit_insn_offs = c->addrs;
	c->addrs = NULL;
	if (c->checked) {
		prog->jited_checked = (nb_jited_checked_fn)image;
		return 0;
	}
	for (u32 k = 0; k < prog->callback_cnt; k++)
		prog->callbacks[k].jited = (nb_callback_fn)((u8 *)image + c->cb_entry[k]);
	prog->jit_tail_entry = (u8 *)image + c->tail_entry;
	prog->jited = (nb_jited_fn)((u8 *)image + c->main_entry);
	return 0;
}

int nb_jit_x86_64_compile(struct nb_prog *prog, struct nb_log *log)
{
	struct jit_ctx c = {
		.prog = prog,
		.checked = prog->load_flags & NB_PROG_LOAD_CHECKED,
	};
	struct x86_buf scratch = { 0 };
	bool converged = false;
	int err = -ENOMEM;

	c.addrs = calloc(prog->len + 1, sizeof(*c.addrs));
	c.prev = calloc(prog->len + 1, sizeof(*c.prev));
	c.long_jmp = calloc(prog->len, 1);
	c.func_start = calloc(prog->len, sizeof(*c.func_start));
	c.jump_target = calloc(prog->len, sizeof(*c.jump_target));
	c.cb_entry = calloc(prog->callback_cnt + 1, sizeof(*c.cb_entry));
	if (!c.addrs || !c.prev || !c.long_jmp || !c.func_start || !c.jump_target ||
	    !c.cb_entry)
		goto out;
	if (!is_s32(nb_this_cpu_tp_offset())) {
		nb_log_printf(log, "JIT: the worker index is out of reach of the thread pointer\n");
		err = -EOPNOTSUPP;
		goto out;
	}
	c.this_cpu_off = (s32)nb_this_cpu_tp_offset();
		scratch = c.b;
	emit_prologue(&c, 0);
	c.prologue_len = c.b.len;
	free(c.b.p);
	c.b = scratch;
	mark_functions(&c);
	choose_saved(&c);
	if (!c.checked && c.main_called) {
		/* Only unproven code calls its own entry: the interpreter runs it. */
		nb_log_printf(log, "JIT: a call or callback targets the main function\n");
		err = -EOPNOTSUPP;
		goto out;
	}

	for (u32 pass = 0; pass < MAX_PASSES && !converged; pass++) {
		u32 *t;

		c.b.len = 0;
		c.nstubs = 0;
		c.changed = false;
		c.first_pass = pass == 0;
		/*
		 * Unchecked code starts with the main entry, so the shared code follows the body
		 * and the body reaches it at the previous pass's offsets, as it reaches later
		 * instructions (always with 32-bit displacements: sizes do not depend on them).
		 */
		if (c.checked)
			emit_shared(&c);
		emit_body(&c);
		if (!c.checked)
			emit_shared(&c);
		emit_stubs(&c);
		if (c.b.nomem)
			goto out;
		converged = !c.first_pass && !c.changed && c.stub_base == c.prev_stub_base &&
			    !memcmp(c.addrs, c.prev, (prog->len + 1) * sizeof(*c.addrs));
		if (converged)
			break;
		t = c.prev;
		c.prev = c.addrs;
		c.addrs = t;
		c.prev_stub_base = c.stub_base;
	}
	if (!converged) {
		nb_log_printf(log, "JIT: code size did not converge in %d passes\n", MAX_PASSES);
		err = -EFAULT;
		goto out;
	}
	err = install_image(prog, &c, log);
out:
	free(c.b.p);
	free(c.addrs);
	free(c.prev);
	free(c.long_jmp);
	free(c.func_start);
	free(c.jump_target);
	free(c.cb_entry);
	free(c.stubs);
	return err;
}
