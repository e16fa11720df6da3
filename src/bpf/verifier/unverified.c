// SPDX-License-Identifier: GPL-2.0
/*
 * The fixups of a program loaded without a proof (NB_PROG_LOAD_UNSAFE_NO_VERIFY): the engines
 * run what the verifier's fixup makes of a program, and the context rewrite above all needs to
 * know which loads and stores go through the context pointer, which the verifier learns as it
 * walks the paths. Without it, this pass learns only that: a forward dataflow over every
 * function to a fixed point, tracking in each register and 8-byte stack slot whether it holds
 * the context pointer (with its offset), a frame pointer, or something else; calls between
 * functions carry r1..r5 in and r0 out (merged over every call site), helpers clobber r0..r5,
 * callbacks start with nothing. An access through the unmodified context pointer on every path
 * is rewritten as the verifier would rewrite it; one that is the context on some paths only, or
 * through a moved context pointer, is an error, as the kernel would refuse it. Map pointers are
 * followed the same way, from the ldimm64 that names a map and from a lookup in a map of maps
 * (its inner map, known by its template): a read through one reads the map's kernel struct
 * (map_kstruct.c), rewritten as the verifier's fixup rewrites it, not netbpf's own struct
 * behind the pointer, and a read through what such a read gave gives 0 (the kernel pointers
 * there are NULL in netbpf, btf_ptr.c); a read through a pointer that is a map on some paths
 * only, or through a moved one, and any store through one, are errors.
 *
 * No safety is checked: the program is as unsafe as the flag says. But a program the verifier
 * would accept runs here exactly as it runs verified (tests/kernel/test_diff_kernel.c compares
 * the two on every packet program).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/map.h"
#include "bpf/vmlinux_btf.h"
#include "bpf/verifier/verifier.h"

#define STACK_SLOTS (NB_STACK_SIZE / 8)

enum val_kind {
	V_OTHER = 0,	/* not a pointer this pass follows */
	V_CTX,		/* the context pointer plus off */
	V_FP,		/* this frame's r10 plus off */
	V_TOP,		/* the context on some paths, something else on others */
	V_MAP,		/* the map prog->used_maps[off] */
	V_INNER,	/* an inner map of the map of maps prog->used_maps[off] */
	V_KPTR,		/* read from a map's kernel struct (plus off): NULL if a pointer */
	V_MAP_TOP,	/* one of those on some paths, something else on others; a moved map */
};

struct val {
	u8 kind;
	s32 off;
};

struct dstate {
	bool reached;
	struct val regs[NB_MAX_BPF_REG];
	struct val stack[STACK_SLOTS];	/* slot i: fp - 8 * (i + 1) */
};

struct func {
	u32 start, end;
	struct dstate entry;		/* merged over every call site */
	struct val ret;			/* r0 at its exits, merged */
	bool ret_reached;
	bool is_callback;
};

struct uenv {
	struct nb_verifier_env *env;
	struct dstate *in;		/* state at each instruction */
	struct func funcs[NB_MAX_SUBPROGS];
	u32 func_cnt;
	u32 *work;
	bool *queued;
	u32 work_cnt;
};

static bool same_val(struct val a, struct val b)
{
	return a.kind == b.kind && a.off == b.off;
}

static bool is_map_val(struct val v)
{
	return v.kind == V_MAP || v.kind == V_INNER || v.kind == V_KPTR || v.kind == V_MAP_TOP;
}

/* The map whose kernel struct a read through v reads: an inner map's template stands for it. */
static struct nb_map *struct_map(const struct nb_prog *prog, struct val v)
{
	if (v.kind == V_MAP)
		return prog->used_maps[v.off];
	if (v.kind == V_INNER)
		return prog->used_maps[v.off]->inner_map_meta;
	return NULL;
}

static struct val join_val(const struct nb_prog *prog, struct val a, struct val b)
{
	if (same_val(a, b))
		return a;
	if (a.kind == V_CTX || b.kind == V_CTX || a.kind == V_TOP || b.kind == V_TOP)
		return (struct val){ .kind = V_TOP };
	/* A template and an inner map of it: any of its inner maps, as the verifier sees it. */
	if (struct_map(prog, a) && struct_map(prog, a) == struct_map(prog, b))
		return a.kind == V_INNER ? a : b;
	if (is_map_val(a) || is_map_val(b))
		return (struct val){ .kind = V_MAP_TOP };
	return (struct val){ .kind = V_OTHER };
}

/* Merge s into d; true when d changed. */
static bool join_state(const struct nb_prog *prog, struct dstate *d, const struct dstate *s)
{
	bool changed = false;

	if (!d->reached) {
		*d = *s;
		return true;
	}
	for (int r = 0; r < NB_MAX_BPF_REG; r++) {
		struct val v = join_val(prog, d->regs[r], s->regs[r]);

		changed |= !same_val(v, d->regs[r]);
		d->regs[r] = v;
	}
	for (int i = 0; i < STACK_SLOTS; i++) {
		struct val v = join_val(prog, d->stack[i], s->stack[i]);

		changed |= !same_val(v, d->stack[i]);
		d->stack[i] = v;
	}
	return changed;
}

static void push(struct uenv *u, u32 idx)
{
	if (idx >= u->env->len || u->queued[idx])
		return;
	u->queued[idx] = true;
	u->work[u->work_cnt++] = idx;
}

static void flow(struct uenv *u, u32 idx, const struct dstate *s)
{
	if (idx < u->env->len && join_state(u->env->prog, &u->in[idx], s))
		push(u, idx);
}

static struct func *func_at(struct uenv *u, u32 start)
{
	for (u32 i = 0; i < u->func_cnt; i++)
		if (u->funcs[i].start == start)
			return &u->funcs[i];
	return NULL;
}

static struct func *func_of(struct uenv *u, u32 idx)
{
	for (u32 i = 0; i < u->func_cnt; i++)
		if (idx >= u->funcs[i].start && idx < u->funcs[i].end)
			return &u->funcs[i];
	return NULL;
}

static int slot_of(struct val fp, s16 off, int size)
{
	s32 at = fp.off + off;

	if (fp.kind != V_FP || size != 8 || at >= 0 || at < -NB_STACK_SIZE || at % 8)
		return -1;
	return -at / 8 - 1;
}

/* A store of size bytes at fp + off: what the slots it touches hold now. */
static void stack_store(struct dstate *s, struct val base, s16 off, int size, struct val v)
{
	int slot = slot_of(base, off, size);
	s32 at = base.off + off;

	if (base.kind != V_FP)
		return;
	if (slot >= 0) {
		s->stack[slot] = v;
		return;
	}
	/* A narrower store overwrites part of a slot: whatever was spilled there is gone. */
	for (s32 b = at; b < at + size; b++)
		if (b < 0 && b >= -NB_STACK_SIZE)
			s->stack[(-b - 1) / 8] = (struct val){ .kind = V_OTHER };
}

static void mark_ctx_access(struct uenv *u, u32 idx)
{
	u->env->aux[idx].ptr_type = PTR_TO_CTX;
}

/*
 * A read of a map's kernel struct, which the fixup makes a read of the map's image of it (an
 * inner map's: the template's stands for it); no verifier checked the bytes it reads, so they
 * are checked here to lie in the struct.
 */
static int map_access(struct uenv *u, u32 idx, struct val base)
{
	struct nb_verifier_env *env = u->env;
	const struct bpf_insn *insn = &env->insns[idx];
	struct nb_map *map;
	int size;

	if (base.kind == V_MAP_TOP) {
		verbose(env, "insn %u: a map pointer, or what one read, reaches this access on some "
			"paths only, or moved: without the verifier netbpf cannot rewrite it\n", idx);
		return -EINVAL;
	}
	if (insn_class(insn) != BPF_LDX) {
		verbose(env, "insn %u: only read from a map's kernel struct is supported\n", idx);
		return -EACCES;
	}
	if (base.kind == V_KPTR) {
		env->aux[idx].ptr_type = PTR_TO_BTF_ID;
		return 0;
	}
	map = struct_map(env->prog, base);
	size = nb_map_kstruct_layout(map);
	if (size == -ENOENT) {
		const char *why = "";

		nb_vmlinux_btf(&why);
		verbose(env, "insn %u: map %s: no kernel struct to read through its pointer%s%s\n",
			idx, map->name, *why ? ": " : "", why);
		return -EOPNOTSUPP;
	}
	if (size < 0)
		return size;
	if (insn->off < 0 || insn->off + insn_size_bytes(insn) > (u32)size) {
		verbose(env, "insn %u: read of %u bytes at %d outside map %s's kernel struct (%d "
			"bytes)\n", idx, insn_size_bytes(insn), insn->off, map->name, size);
		return -EACCES;
	}
	env->aux[idx].ptr_type = CONST_PTR_TO_MAP;
	record_insn_map(env, idx, map);
	return 0;
}

/* The memory operand of a load or store: through the context, or a map? */
static int check_access(struct uenv *u, u32 idx, struct val base)
{
	struct nb_verifier_env *env = u->env;

	if (is_map_val(base))
		return map_access(u, idx, base);
	/* A type whose context is its own memory (netbpf vm's) has nothing to rewrite. */
	if (!env->ops->convert_ctx_access)
		return 0;
	if (base.kind == V_TOP) {
		verbose(env, "insn %u: the context pointer reaches this access on some paths "
			"only: without the verifier netbpf cannot rewrite it\n", idx);
		return -EINVAL;
	}
	if (base.kind != V_CTX)
		return 0;
	if (base.off) {
		verbose(env, "insn %u: dereference of modified ctx ptr off=%d disallowed\n", idx,
			base.off);
		return -EACCES;
	}
	mark_ctx_access(u, idx);
	return 0;
}

/* The map an ldimm64 loads (its address), one of the program's. */
static struct val map_val(const struct nb_prog *prog, u64 addr)
{
	for (u32 i = 0; i < prog->used_map_cnt; i++)
		if ((uintptr_t)prog->used_maps[i] == addr)
			return (struct val){ .kind = V_MAP, .off = i };
	return (struct val){ .kind = V_MAP_TOP };
}

static void clobber_call(struct dstate *s)
{
	for (int r = BPF_REG_0; r <= BPF_REG_5; r++)
		s->regs[r] = (struct val){ .kind = V_OTHER };
}

static int step_alu(struct dstate *s, const struct bpf_insn *insn)
{
	struct val *dst = &s->regs[insn->dst_reg];
	bool is64 = insn_class(insn) == BPF_ALU64, src_k = BPF_SRC(insn->code) == BPF_K;
	u8 op = BPF_OP(insn->code);

	if (op == BPF_MOV && is64 && !src_k && !insn->off) {
		*dst = s->regs[insn->src_reg];
		return 0;
	}
	/*
	 * A pointer moved by a constant stays followed while its offset fits; anything else loses
	 * it (the program is unverified: any offset may come).
	 */
	if ((dst->kind == V_CTX || dst->kind == V_FP || dst->kind == V_KPTR) && is64 && src_k &&
	    (op == BPF_ADD || op == BPF_SUB)) {
		s64 off = (s64)dst->off + (op == BPF_ADD ? (s64)insn->imm : -(s64)insn->imm);

		if (off >= INT32_MIN && off <= INT32_MAX) {
			dst->off = (s32)off;
			return 0;
		}
	}
	dst->kind = dst->kind == V_CTX || dst->kind == V_TOP ? V_TOP :
		    is_map_val(*dst) && dst->kind != V_KPTR ? V_MAP_TOP : V_OTHER;
	if (op == BPF_MOV)
		dst->kind = V_OTHER;
	dst->off = 0;
	return 0;
}

/* One instruction: its effect on s, and the successors it flows to. */
static int step(struct uenv *u, u32 idx)
{
	struct nb_verifier_env *env = u->env;
	const struct bpf_insn *insn = &env->insns[idx];
	struct dstate s = u->in[idx];
	u8 cls = insn_class(insn);
	int err;

	env->aux[idx].seen = true;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		step_alu(&s, insn);
		break;
	case BPF_LDX:
		err = check_access(u, idx, s.regs[insn->src_reg]);
		if (err)
			return err;
		{
			int slot = slot_of(s.regs[insn->src_reg], insn->off,
					   insn_size_bytes(insn));

			if (is_map_val(s.regs[insn->src_reg]))
				s.regs[insn->dst_reg] = (struct val){ .kind = V_KPTR };
			else
				s.regs[insn->dst_reg] =
					slot >= 0 && BPF_MODE(insn->code) == BPF_MEM ?
					s.stack[slot] : (struct val){ .kind = V_OTHER };
		}
		break;
	case BPF_ST:
	case BPF_STX:
		err = check_access(u, idx, s.regs[insn->dst_reg]);
		if (err)
			return err;
		if (cls == BPF_STX && BPF_MODE(insn->code) == BPF_ATOMIC) {
			stack_store(&s, s.regs[insn->dst_reg], insn->off, insn_size_bytes(insn),
				    (struct val){ .kind = V_OTHER });
			if (insn->imm & BPF_FETCH)
				s.regs[insn->src_reg] = (struct val){ .kind = V_OTHER };
			if (insn->imm == BPF_CMPXCHG)
				s.regs[BPF_REG_0] = (struct val){ .kind = V_OTHER };
			break;
		}
		stack_store(&s, s.regs[insn->dst_reg], insn->off, insn_size_bytes(insn),
			    cls == BPF_STX ? s.regs[insn->src_reg] :
					     (struct val){ .kind = V_OTHER });
		break;
	case BPF_LD:
		if (insn_is_ldimm64(insn)) {
			s.regs[insn->dst_reg] = insn->src_reg == BPF_PSEUDO_MAP_FD ?
						map_val(env->prog, insn_ldimm64_val(insn)) :
						(struct val){ .kind = V_OTHER };
			flow(u, idx + 2, &s);
			return 0;
		}
		/* LD_ABS / LD_IND: the context is r6; r0..r5 are clobbered. */
		clobber_call(&s);
		break;
	default:
		switch (BPF_OP(insn->code)) {
		case BPF_EXIT: {
			struct func *f = func_of(u, idx);

			if (f && !f->is_callback && f != &u->funcs[0]) {
				struct val r0 = s.regs[BPF_REG_0];

				if (f->ret_reached)
					r0 = join_val(env->prog, f->ret, r0);
				if (!f->ret_reached || r0.kind != f->ret.kind ||
				    r0.off != f->ret.off) {
					f->ret = r0;
					f->ret_reached = true;
					/* Every call of f continues with the new r0. */
					for (u32 c = 0; c < env->len; c++)
						if (u->in[c].reached &&
						    insn_is_pseudo_call(&env->insns[c]) &&
						    c + env->insns[c].imm + 1 == f->start)
							push(u, c);
				}
			}
			return 0;
		}
		case BPF_CALL:
			if (insn_is_pseudo_call(insn)) {
				struct func *f = func_at(u, idx + insn->imm + 1);
				struct dstate callee = { .reached = true };

				if (!f) {
					verbose(env, "insn %u: call into the middle of a "
						"function\n", idx);
					return -EINVAL;
				}
				for (int r = BPF_REG_1; r <= BPF_REG_5; r++)
					callee.regs[r] = s.regs[r];
				callee.regs[BPF_REG_10] = (struct val){ .kind = V_FP };
				if (join_state(env->prog, &f->entry, &callee))
					flow(u, f->start, &f->entry);
				if (!f->ret_reached)
					return 0;	/* continues once f returns */
				clobber_call(&s);
				s.regs[BPF_REG_0] = f->ret;
			} else {
				struct val map = s.regs[BPF_REG_1];

				clobber_call(&s);
				/* A lookup in a map of maps gives its inner map (or NULL). */
				if (insn->imm == BPF_FUNC_map_lookup_elem && map.kind == V_MAP &&
				    env->prog->used_maps[map.off]->inner_map_meta)
					s.regs[BPF_REG_0] = (struct val){ .kind = V_INNER,
									  .off = map.off };
			}
			break;
		case BPF_JA:
			flow(u, idx + insn_jmp_off(insn) + 1, &s);
			return 0;
		default:
			flow(u, idx + insn_jmp_off(insn) + 1, &s);
			break;
		}
	}
	flow(u, idx + 1, &s);
	return 0;
}

/* Functions: the main one, every bpf-to-bpf call target, every callback. */
static int find_funcs(struct uenv *u)
{
	struct nb_verifier_env *env = u->env;
	u32 starts[NB_MAX_SUBPROGS];
	bool callback[NB_MAX_SUBPROGS] = { false };
	u32 n = 1;

	starts[0] = 0;
	for (u32 i = 0; i < env->len; i++) {
		const struct bpf_insn *insn = &env->insns[i];
		bool cb = insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC;
		u32 target = i + insn->imm + 1, k;

		if (insn_is_pseudo_call(insn) || cb) {
			for (k = 0; k < n && starts[k] != target; k++)
				;
			if (k == n) {
				if (n >= NB_MAX_SUBPROGS) {
					verbose(env, "too many subprograms\n");
					return -E2BIG;
				}
				starts[n++] = target;
			}
			callback[k] |= cb;
		}
		if (insn_is_ldimm64(insn))
			i++;
	}
	for (u32 i = 0; i < n; i++) {
		u32 end = env->len;

		for (u32 j = 0; j < n; j++)
			if (starts[j] > starts[i] && starts[j] < end)
				end = starts[j];
		u->funcs[i] = (struct func){ .start = starts[i], .end = end,
					     .is_callback = callback[i] };
	}
	u->func_cnt = n;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The verifier's subprogram table, which the fixup and the JIT read; without a proof of how
 * deep each function's stack goes, each gets a whole BPF frame.
 */
static void record_subprogs(struct uenv *u)
{
	struct nb_verifier_env *env = u->env;
	u32 starts[NB_MAX_SUBPROGS];

	for (u32 i = 0; i < u->func_cnt; i++)
		starts[i] = u->funcs[i].start;
	qsort(starts, u->func_cnt, sizeof(starts[0]), cmp_u32);
	for (u32 i = 0; i < u->func_cnt; i++) {
		env->subprog[i].start = starts[i];
		env->subprog[i].stack_depth = NB_STACK_SIZE;
	}
	env->subprog[u->func_cnt].start = env->len;
	env->subprog_cnt = u->func_cnt;
}

static int analyse(struct uenv *u)
{
	struct dstate entry = { .reached = true };
	int err = find_funcs(u);

	if (err)
		return err;
	entry.regs[BPF_REG_1] = (struct val){ .kind = V_CTX };
	entry.regs[BPF_REG_10] = (struct val){ .kind = V_FP };
	flow(u, 0, &entry);
	for (u32 i = 1; i < u->func_cnt; i++) {
		struct dstate cb = { .reached = true };

		if (!u->funcs[i].is_callback)
			continue;
		cb.regs[BPF_REG_10] = (struct val){ .kind = V_FP };
		flow(u, u->funcs[i].start, &cb);
	}
	while (u->work_cnt) {
		u32 idx = u->work[--u->work_cnt];

		u->queued[idx] = false;
		err = step(u, idx);
		if (err)
			return err;
	}
	record_subprogs(u);
	return 0;
}

int nb_fixup_unverified(struct nb_prog *prog, struct nb_log *log)
{
	struct nb_verifier_env *env = calloc(1, sizeof(*env));
	struct uenv *u = calloc(1, sizeof(*u));
	int err = -ENOMEM;

	if (!env || !u)
		goto out;
	env->prog = prog;
	env->ops = prog->ops;
	env->insns = prog->insns;
	env->len = prog->len;
	env->log = log;
	env->aux = calloc(env->len, sizeof(*env->aux));
	u->env = env;
	u->in = calloc(env->len, sizeof(*u->in));
	u->work = calloc(env->len, sizeof(*u->work));
	u->queued = calloc(env->len, sizeof(*u->queued));
	if (!env->aux || !u->in || !u->work || !u->queued)
		goto out;
	err = analyse(u);
	if (!err)
		err = fixup_insns(env);
	if (env->msg.len)
		nb_log_printf(log, "%s", nb_log_text(&env->msg));
	if (!err)
		err = nb_resolve_helpers(prog, log);
out:
	if (env) {
		nb_log_free(&env->msg);
		free(env->aux);
	}
	if (u) {
		free(u->in);
		free(u->work);
		free(u->queued);
	}
	free(u);
	free(env);
	return err;
}
