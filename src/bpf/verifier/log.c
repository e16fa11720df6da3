// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier log in the kernel's words: reasons as the kernel prints them, register states
 * in print_verifier_state's shape ("R1=ctx() R2=pkt(off=14,r=14) R10=fp0"), and in verbose
 * mode the instructions of the failing path with the register each one wrote.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/dynptr.h"
#include "bpf/disasm.h"
#include "bpf/verifier/verifier.h"

#define NB_TRACE_MAX (1u << 16)	/* entries of the failing path kept in verbose mode */

void nb_vlog(struct nb_verifier_env *env, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nb_log_vprintf(&env->msg, fmt, ap);
	va_end(ap);
}

const char *reg_type_str(u32 type)
{
	static const char *const names[] = {
		[NOT_INIT] = "?",
		[SCALAR_VALUE] = "scalar",
		[PTR_TO_CTX] = "ctx",
		[CONST_PTR_TO_MAP] = "map_ptr",
		[PTR_TO_MAP_VALUE] = "map_value",
		[PTR_TO_MAP_KEY] = "map_key",
		[PTR_TO_STACK] = "fp",
		[PTR_TO_PACKET_META] = "pkt_meta",
		[PTR_TO_PACKET] = "pkt",
		[PTR_TO_PACKET_END] = "pkt_end",
		[PTR_TO_MEM] = "mem",
		[PTR_TO_FUNC] = "func",
		[PTR_TO_SOCKET] = "sock",
		[PTR_TO_SOCK_COMMON] = "sock_common",
		[PTR_TO_TCP_SOCK] = "tcp_sock",
		[PTR_TO_BTF_ID] = "ptr_",
	};
	/* Composed names live in a small ring: a log line may hold a few of them. */
	static __thread char ring[4][48];
	static __thread unsigned int next;
	u32 base = base_type(type);
	char *buf;

	if (base >= ARRAY_SIZE(names) || !names[base])
		return "unknown";
	if (type == base)
		return names[base];
	buf = ring[next++ % ARRAY_SIZE(ring)];
	snprintf(buf, sizeof(ring[0]), "%s%s%s%s%s%s", type & MEM_RDONLY ? "rdonly_" : "",
		 type & MEM_RINGBUF ? "ringbuf_" : "", type & PTR_UNTRUSTED ? "untrusted_" : "",
		 type & PTR_TRUSTED ? "trusted_" : "", names[base],
		 !(type & PTR_MAYBE_NULL) ? "" : base == PTR_TO_BTF_ID ? "or_null_" : "_or_null");
	return buf;
}

static void log_add(struct nb_log *log, bool *first, const char *fmt, ...) __printf(3, 4);
static void log_add(struct nb_log *log, bool *first, const char *fmt, ...)
{
	va_list ap;

	if (!*first)
		nb_log_printf(log, ",");
	*first = false;
	va_start(ap, fmt);
	nb_log_vprintf(log, fmt, ap);
	va_end(ap);
}

/* Bounds that say more than the type's defaults, comma separated. */
static void print_bounds(struct nb_log *log, const struct nb_reg_state *reg, bool *first)
{
	char tn[48];

	if (reg->smin_value != LLONG_MIN && reg->smin_value != (s64)reg->umin_value)
		log_add(log, first, "smin=%lld", (long long)reg->smin_value);
	if (reg->smax_value != LLONG_MAX && reg->smax_value != (s64)reg->umax_value)
		log_add(log, first, "smax=%lld", (long long)reg->smax_value);
	if (reg->umin_value != 0)
		log_add(log, first, "umin=%llu", (unsigned long long)reg->umin_value);
	if (reg->umax_value != ULLONG_MAX)
		log_add(log, first, "umax=%llu", (unsigned long long)reg->umax_value);
	if (reg->s32_min_value != INT_MIN && reg->s32_min_value != (s32)reg->u32_min_value)
		log_add(log, first, "smin32=%d", reg->s32_min_value);
	if (reg->s32_max_value != INT_MAX && reg->s32_max_value != (s32)reg->u32_max_value)
		log_add(log, first, "smax32=%d", reg->s32_max_value);
	if (reg->u32_min_value != 0 && reg->u32_min_value != reg->umin_value)
		log_add(log, first, "umin32=%u", reg->u32_min_value);
	if (reg->u32_max_value != UINT_MAX && reg->u32_max_value != reg->umax_value)
		log_add(log, first, "umax32=%u", reg->u32_max_value);
	if (!tnum_is_unknown(reg->var_off)) {
		tnum_strn(tn, sizeof(tn), reg->var_off);
		log_add(log, first, "var_off=%s", tn);
	}
}

static void print_reg_to(struct nb_log *log, const struct nb_reg_state *reg)
{
	bool first = true;
	u32 base = base_type(reg->type);

	if (reg->type == NOT_INIT) {
		nb_log_printf(log, "?");
		return;
	}
	/* A scalar an explored state must match exactly (precision.c), as the kernel marks it. */
	if (reg->type == SCALAR_VALUE && reg->precise)
		nb_log_printf(log, "P");
	if (reg->type == SCALAR_VALUE && tnum_is_const(reg->var_off) && !reg->id) {
		nb_log_printf(log, "%lld", (long long)reg->var_off.value);
		return;
	}
	if (base == PTR_TO_STACK && tnum_equals_const(reg->var_off, 0) && !reg->id) {
		nb_log_printf(log, "fp%d", reg->off);
		return;
	}
	nb_log_printf(log, "%s", reg_type_str(reg->type));
	/* The kernel names the struct after "ptr_": ptr_tcp_sock(...) */
	if (base == PTR_TO_BTF_ID)
		nb_log_printf(log, "%s", btf_ptr_type_name(reg->btf_id));
	nb_log_printf(log, "(");
	if (reg->id & NB_ADD_CONST)
		log_add(log, &first, "id=%u%+d", reg->id & ~NB_ADD_CONST, reg->off);
	else if (reg->id)
		log_add(log, &first, "id=%u", reg->id);
	if (reg->ref_obj_id)
		log_add(log, &first, "ref_obj_id=%u", reg->ref_obj_id);
	if (base != SCALAR_VALUE && reg->off)
		log_add(log, &first, "off=%d", reg->off);
	if (base == PTR_TO_PACKET || base == PTR_TO_PACKET_META)
		log_add(log, &first, "r=%d", reg->range);
	if (reg->map_ptr && (base == PTR_TO_MAP_VALUE || base == PTR_TO_MAP_KEY ||
			     base == CONST_PTR_TO_MAP))
		log_add(log, &first, "map=%s,ks=%u,vs=%u", reg->map_ptr->name,
			reg->map_ptr->key_size, reg->map_ptr->value_size);
	if (base == PTR_TO_MEM)
		log_add(log, &first, "sz=%u", reg->mem_size);
	if (base == PTR_TO_STACK && reg->frameno)
		log_add(log, &first, "frame=%u", reg->frameno);
	if (base == SCALAR_VALUE || !tnum_equals_const(reg->var_off, 0))
		print_bounds(log, reg, &first);
	nb_log_printf(log, ")");
}

void print_reg_state(struct nb_verifier_env *env, const struct nb_reg_state *reg)
{
	print_reg_to(env->log, reg);
}

void verbose_invalid_scalar(struct nb_verifier_env *env, const struct nb_reg_state *reg,
			    s32 min, s32 max, const char *ctx)
{
	bool unknown = true;

	verbose(env, "%s the register R0 has", ctx);
	/* the bounds that are known only, as the kernel words it */
	if (reg->smin_value > LLONG_MIN) {
		verbose(env, " smin=%lld", (long long)reg->smin_value);
		unknown = false;
	}
	if (reg->smax_value < LLONG_MAX) {
		verbose(env, " smax=%lld", (long long)reg->smax_value);
		unknown = false;
	}
	if (unknown)
		verbose(env, " unknown scalar value");
	verbose(env, " should have been in [%d, %d]\n", min, max);
}

void print_verifier_state(struct nb_verifier_env *env, const struct nb_func_state *state)
{
	static const char marks[] = { [STACK_INVALID] = '?', [STACK_SPILL] = 'r',
				      [STACK_MISC] = 'm', [STACK_ZERO] = '0',
				      [STACK_DYNPTR] = 'd' };

	if (state->frameno)
		nb_log_printf(env->log, " frame%u:", state->frameno);
	for (int i = 0; i < NB_MAX_BPF_REG; i++) {
		if (state->regs[i].type == NOT_INIT)
			continue;
		nb_log_printf(env->log, " R%d=", i);
		print_reg_to(env->log, &state->regs[i]);
	}
	for (u32 spi = 0; spi < state->allocated_stack / NB_REG_SIZE; spi++) {
		const struct nb_stack_slot *slot = &state->stack[spi];
		char bytes[NB_REG_SIZE + 1];
		bool any = false;

		for (int i = 0; i < NB_REG_SIZE; i++) {
			/* Printed highest address first, as the kernel does. */
			bytes[i] = marks[slot->slot_type[NB_REG_SIZE - 1 - i]];
			any |= slot->slot_type[i] != STACK_INVALID;
		}
		bytes[NB_REG_SIZE] = 0;
		if (!any)
			continue;
		/* A dynptr prints once, at its first (higher) slot, as the kernel's log does. */
		if (slot->slot_type[0] == STACK_DYNPTR) {
			if (!slot->spilled_ptr.dynptr_first_slot)
				continue;
			nb_log_printf(env->log, " fp%d=dynptr_%s(ref_id=%u)",
				      -(int)(spi + 1) * NB_REG_SIZE,
				      slot->spilled_ptr.dynptr_type == NB_DYNPTR_TYPE_RINGBUF ? "ringbuf" : "local",
				      slot->spilled_ptr.ref_obj_id);
			continue;
		}
		nb_log_printf(env->log, " fp%d=", -(int)(spi + 1) * NB_REG_SIZE);
		if (slot_has_spill(slot) && slot->slot_type[7] == STACK_SPILL)
			print_reg_to(env->log, &slot->spilled_ptr);
		else
			nb_log_printf(env->log, "%s", bytes);
	}
	nb_log_printf(env->log, "\n");
}

void print_insn(struct nb_verifier_env *env, u32 idx)
{
	char buf[128];

	nb_disasm_insn(&env->insns[idx], env->len - idx, buf, sizeof(buf));
	nb_log_printf(env->log, "%u: (%02x) %s", idx, env->insns[idx].code, buf);
}

/* Verbose mode: remember the instruction just walked and the register it wrote. */
void trace_push(struct nb_verifier_env *env, s32 regno)
{
	struct nb_trace_entry *e;

	if (env->trace_len >= env->trace_cap) {
		u32 cap = env->trace_cap ? env->trace_cap * 2 : 256;
		struct nb_trace_entry *t;

		if (cap > NB_TRACE_MAX) {
			env->trace_overflow = true;
			return;
		}
		t = realloc(env->trace, cap * sizeof(*t));
		if (!t) {
			env->trace_overflow = true;
			return;
		}
		env->trace = t;
		env->trace_cap = cap;
	}
	e = &env->trace[env->trace_len++];
	e->insn_idx = env->insn_idx;
	e->regno = regno;
	e->frameno = env->cur->curframe;
	if (regno >= 0)
		e->reg = cur_regs(env)[regno];
}

void print_failing_path(struct nb_verifier_env *env)
{
	nb_log_printf(env->log, "path to the failure:\n");
	if (env->trace_overflow)
		nb_log_printf(env->log, "(the path is longer than the trace: only its first %u "
			      "instructions are shown)\n", NB_TRACE_MAX);
	for (u32 i = 0; i < env->trace_len; i++) {
		const struct nb_trace_entry *e = &env->trace[i];

		print_insn_source(env, e->insn_idx);
		print_insn(env, e->insn_idx);
		if (e->regno >= 0) {
			if (e->frameno)
				nb_log_printf(env->log, "\t; frame%u: R%d=", e->frameno, e->regno);
			else
				nb_log_printf(env->log, "\t; R%d=", e->regno);
			print_reg_to(env->log, &e->reg);
		}
		nb_log_printf(env->log, "\n");
	}
	nb_log_printf(env->log, "state at the failure:\n");
	for (u32 fr = 0; fr <= env->cur->curframe; fr++)
		print_verifier_state(env, env->cur->frame[fr]);
}
