// SPDX-License-Identifier: GPL-2.0
/*
 * The program's BTF function and line information, as the kernel's verifier uses it
 * (check_btf_func, check_btf_line, btf_prepare_func_args, btf_check_func_arg_match):
 *   - func_info must name one BTF_KIND_FUNC per function, at the function's first instruction;
 *     its linkage says which functions are global (verified once, on their own, from their
 *     prototype) and which static (verified in their caller's context);
 *   - a global function's prototype gives each argument a verifier type: an int or enum is a
 *     scalar, a pointer to the program type's context struct (or one tagged arg:ctx) is the
 *     context, any other pointer is memory of the pointee's size that may be NULL (arg:nonnull:
 *     may not); a caller must pass what the prototype says, and the function must return a
 *     scalar;
 *   - line_info names the source line of instructions, for the log.
 * Without func_info the kernel refuses tail calls and LD_ABS in subprograms, whose early
 * returns it cannot type; with it, only in functions that do not return an int.
 */
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf/btf_object.h"
#include "bpf/verifier/verifier.h"

enum arg_tag {
	ARG_TAG_CTX = 1 << 0,
	ARG_TAG_NONNULL = 1 << 1,
	ARG_TAG_NULLABLE = 1 << 2,
};

/* Tags the kernel knows and netbpf does not: they need the kernel's own BTF or an arena. */
static const char *const kernel_only_tags[] = { "trusted", "untrusted", "arena" };

static const char *btf_kind_str(const struct btf_type *t)
{
	static const char *const names[] = {
		[BTF_KIND_UNKN] = "UNKNOWN",	[BTF_KIND_INT] = "INT",
		[BTF_KIND_PTR] = "PTR",		[BTF_KIND_ARRAY] = "ARRAY",
		[BTF_KIND_STRUCT] = "STRUCT",	[BTF_KIND_UNION] = "UNION",
		[BTF_KIND_ENUM] = "ENUM",	[BTF_KIND_FWD] = "FWD",
		[BTF_KIND_TYPEDEF] = "TYPEDEF", [BTF_KIND_VOLATILE] = "VOLATILE",
		[BTF_KIND_CONST] = "CONST",	[BTF_KIND_RESTRICT] = "RESTRICT",
		[BTF_KIND_FUNC] = "FUNC",	[BTF_KIND_FUNC_PROTO] = "FUNC_PROTO",
		[BTF_KIND_VAR] = "VAR",		[BTF_KIND_DATASEC] = "DATASEC",
		[BTF_KIND_FLOAT] = "FLOAT",	[BTF_KIND_DECL_TAG] = "DECL_TAG",
		[BTF_KIND_TYPE_TAG] = "TYPE_TAG", [BTF_KIND_ENUM64] = "ENUM64",
	};
	u16 kind = btf_kind(t);

	return kind < ARRAY_SIZE(names) && names[kind] ? names[kind] : "UNKNOWN";
}

static const char *type_name(const struct nb_btf *btf, const struct btf_type *t)
{
	const char *name = nb_btf_str(btf, t->name_off);

	return name ? name : "";
}

const char *subprog_name(const struct nb_verifier_env *env, u32 subprog)
{
	const struct btf_type *t;

	if (!env->prog->btf || !env->subprog[subprog].btf_id)
		return "";
	t = nb_btf_type(env->prog->btf, env->subprog[subprog].btf_id);
	return t ? type_name(env->prog->btf, t) : "";
}

/* An int that fits a register (btf_type_is_small_int), or an enum: a scalar return. */
static bool is_scalar_return(const struct nb_btf *btf, const struct btf_type *proto)
{
	const struct btf_type *t = nb_btf_skip_modifiers(btf, proto->type, true, NULL);

	return t && ((btf_is_int(t) && t->size <= sizeof(u64)) || btf_is_any_enum(t));
}

/* Without func_info: the kernel cannot tell how a subprogram's early exits return. */
static int check_abnormal_return(struct nb_verifier_env *env)
{
	for (u32 i = 1; i < env->subprog_cnt; i++) {
		if (env->subprog[i].has_ld_abs) {
			verbose(env, "LD_ABS is not allowed in subprogs without BTF\n");
			return -EINVAL;
		}
		if (env->subprog[i].has_tail_call) {
			verbose(env, "tail_call is not allowed in subprogs without BTF\n");
			return -EINVAL;
		}
	}
	return 0;
}

/* check_btf_func_early and check_btf_func: the records, then the functions they describe. */
static int check_btf_func(struct nb_verifier_env *env)
{
	const struct nb_prog *prog = env->prog;
	const struct nb_btf *btf = prog->btf;

	if (!prog->func_info_cnt)
		return check_abnormal_return(env);
	for (u32 i = 0; i < prog->func_info_cnt; i++) {
		const struct bpf_func_info *fi = &prog->func_info[i];
		const struct btf_type *t = nb_btf_type(btf, fi->type_id), *proto;

		if (i == 0 && fi->insn_off) {
			verbose(env, "nonzero insn_off %u for the first func info record\n",
				fi->insn_off);
			return -EINVAL;
		}
		if (i && fi->insn_off <= prog->func_info[i - 1].insn_off) {
			verbose(env, "same or smaller insn offset (%u) than previous func info "
				"record (%u)\n", fi->insn_off, prog->func_info[i - 1].insn_off);
			return -EINVAL;
		}
		if (!fi->type_id || !t || !btf_is_func(t)) {
			verbose(env, "invalid type id %u in func info\n", fi->type_id);
			return -EINVAL;
		}
		proto = nb_btf_type(btf, t->type);
		if (!proto || !btf_is_func_proto(proto)) {
			verbose(env, "func info record %u: function %s has no prototype\n", i,
				type_name(btf, t));
			return -EINVAL;
		}
	}
	if (prog->func_info_cnt != env->subprog_cnt) {
		verbose(env, "number of funcs in func_info doesn't match number of subprogs\n");
		return -EINVAL;
	}
	for (u32 i = 0; i < env->subprog_cnt; i++) {
		const struct bpf_func_info *fi = &prog->func_info[i];
		struct nb_subprog_info *sub = &env->subprog[i];
		const struct btf_type *t = nb_btf_type(btf, fi->type_id);
		bool scalar_return = is_scalar_return(btf, nb_btf_type(btf, t->type));

		if (sub->start != fi->insn_off) {
			verbose(env, "func_info BTF section doesn't match subprog layout in BPF "
				"program\n");
			return -EINVAL;
		}
		sub->btf_id = fi->type_id;
		sub->is_global = btf_vlen(t) == BTF_FUNC_GLOBAL; /* a FUNC's vlen is its linkage */
		if (i && !scalar_return && sub->has_ld_abs) {
			verbose(env, "LD_ABS is only allowed in functions that return 'int'.\n");
			return -EINVAL;
		}
		if (i && !scalar_return && sub->has_tail_call) {
			verbose(env, "tail_call is only allowed in functions that return 'int'.\n");
			return -EINVAL;
		}
	}
	return 0;
}

/* check_btf_line: increasing records on instructions, one at every function's start. */
static int check_btf_line(struct nb_verifier_env *env)
{
	const struct nb_prog *prog = env->prog;
	u32 s = 0;

	for (u32 i = 0; i < prog->nr_linfo; i++) {
		const struct bpf_line_info *li = &prog->linfo[i];
		u32 prev = i ? prog->linfo[i - 1].insn_off : 0;

		if ((i && li->insn_off <= prev) || li->insn_off >= env->len) {
			verbose(env, "Invalid line_info[%u].insn_off:%u (prev_offset:%u "
				"prog->len:%u)\n", i, li->insn_off, prev, env->len);
			return -EINVAL;
		}
		if (!env->insns[li->insn_off].code) {
			verbose(env, "Invalid insn code at line_info[%u].insn_off\n", i);
			return -EINVAL;
		}
		if (!nb_btf_str(prog->btf, li->line_off) ||
		    !nb_btf_str(prog->btf, li->file_name_off)) {
			verbose(env, "Invalid line_info[%u].line_off or .file_name_off\n", i);
			return -EINVAL;
		}
		if (s != env->subprog_cnt) {
			if (li->insn_off == env->subprog[s].start) {
				s++;
			} else if (env->subprog[s].start < li->insn_off) {
				verbose(env, "missing bpf_line_info for func#%u\n", s);
				return -EINVAL;
			}
		}
	}
	if (prog->nr_linfo && s != env->subprog_cnt) {
		verbose(env, "missing bpf_line_info for %u funcs starting from func#%u\n",
			env->subprog_cnt - s, s);
		return -EINVAL;
	}
	return 0;
}

int check_btf_info(struct nb_verifier_env *env)
{
	int err = check_btf_func(env);

	return err ? err : check_btf_line(env);
}

/* The arg:NAME declaration tags on argument arg of the function with BTF id fn_id. */
static int scan_decl_tags(struct nb_verifier_env *env, u32 fn_id, u32 arg, bool is_global,
			  u32 *tags)
{
	const struct nb_btf *btf = env->prog->btf;
	u32 cnt = btf__type_cnt(btf->btf);

	for (u32 id = 1; id < cnt; id++) {
		const struct btf_type *t = nb_btf_type(btf, id);
		const char *name;
		bool known = false;

		if (!t || !btf_is_decl_tag(t) || t->type != fn_id ||
		    btf_decl_tag(t)->component_idx != (int)arg)
			continue;
		name = nb_btf_str(btf, t->name_off);
		if (!name || strncmp(name, "arg:", 4))
			continue;
		if (!is_global) {
			verbose(env, "arg#%u type tag is not supported in static functions\n", arg);
			return -EOPNOTSUPP;
		}
		name += 4;
		for (u32 k = 0; k < ARRAY_SIZE(kernel_only_tags); k++) {
			if (!strcmp(name, kernel_only_tags[k])) {
				verbose(env, "arg#%u tag arg:%s is not supported by netbpf (it "
					"needs the kernel's own types)\n", arg, name);
				return -EOPNOTSUPP;
			}
		}
		if (!strcmp(name, "ctx")) {
			*tags |= ARG_TAG_CTX;
			known = true;
		} else if (!strcmp(name, "nonnull")) {
			*tags |= ARG_TAG_NONNULL;
			known = true;
		} else if (!strcmp(name, "nullable")) {
			*tags |= ARG_TAG_NULLABLE;
			known = true;
		}
		if (!known) {
			verbose(env, "arg#%u has unsupported set of tags\n", arg);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/*
 * btf_is_prog_ctx_type: a pointer to a struct named as the program type's context, or as the
 * kernel struct behind it (struct sk_buff * for tc).
 */
static bool is_prog_ctx_type(struct nb_verifier_env *env, const struct btf_type *ptr, u32 arg)
{
	const struct nb_btf *btf = env->prog->btf;
	const struct btf_type *t = nb_btf_skip_modifiers(btf, ptr->type, true, NULL);
	const char *name;

	if (!t || !btf_is_composite(t) || !env->ops->ctx_btf_name)
		return false;
	name = type_name(btf, t);
	if (!*name) {
		verbose(env, "arg#%u struct doesn't have a name\n", arg);
		return false;
	}
	return !strcmp(name, env->ops->ctx_btf_name) ||
	       (env->ops->kern_ctx_btf_name && !strcmp(name, env->ops->kern_ctx_btf_name));
}

/* btf_validate_prog_ctx_type: what an arg:ctx argument may point to. */
static int validate_ctx_tag(struct nb_verifier_env *env, const struct btf_type *ptr, u32 arg)
{
	const struct nb_btf *btf = env->prog->btf;
	const struct btf_type *t = nb_btf_skip_modifiers(btf, ptr->type, true, NULL);
	const char *name;

	if (!t) {
		verbose(env, "arg#%u type cannot be resolved\n", arg);
		return -EINVAL;
	}
	if (btf_is_void(t))
		return 0;
	name = type_name(btf, t);
	if (!*name) {
		verbose(env, "arg#%u type doesn't have a name\n", arg);
		return -EINVAL;
	}
	if (!env->ops->ctx_btf_name) {
		verbose(env, "arg#%u should be void pointer\n", arg);
		return -EINVAL;
	}
	if (!btf_is_composite(t) || strcmp(name, env->ops->ctx_btf_name)) {
		verbose(env, "arg#%u should be `struct %s *`\n", arg, env->ops->ctx_btf_name);
		return -EINVAL;
	}
	return 0;
}

/* One argument's verifier type; static functions fail quietly on what only globals may use. */
static int prepare_arg(struct nb_verifier_env *env, u32 subprog, const char *fname, u32 arg,
		       const struct btf_param *param, struct nb_subprog_arg *out)
{
	const struct nb_btf *btf = env->prog->btf;
	struct nb_subprog_info *sub = &env->subprog[subprog];
	const struct btf_type *t, *ref;
	u32 tags = 0, ref_id;
	s64 size;
	int err;

	err = scan_decl_tags(env, sub->btf_id, arg, sub->is_global, &tags);
	if (err)
		return err;
	t = nb_btf_skip_modifiers(btf, param->type, true, NULL);
	if (!t) {
		if (!sub->is_global)
			return -EINVAL;
		verbose(env, "Arg#%u type of %s() cannot be resolved\n", arg, fname);
		return -EINVAL;
	}
	if (btf_is_ptr(t)) {
		if ((tags & ARG_TAG_CTX) || is_prog_ctx_type(env, t, arg)) {
			if (tags & ~ARG_TAG_CTX) {
				verbose(env, "arg#%u has invalid combination of tags\n", arg);
				return -EINVAL;
			}
			if ((tags & ARG_TAG_CTX) && validate_ctx_tag(env, t, arg))
				return -EINVAL;
			out->type = NB_SUBPROG_ARG_CTX;
			return 0;
		}
		if (!sub->is_global)
			return -EINVAL;
		if (tags & ARG_TAG_NULLABLE) {
			verbose(env, "arg#%u has invalid combination of tags\n", arg);
			return -EINVAL;
		}
		ref = nb_btf_skip_modifiers(btf, t->type, false, &ref_id);
		size = ref ? btf__resolve_size(btf->btf, ref_id) : -EINVAL;
		if (size < 0 || size > UINT32_MAX) {
			verbose(env, "arg#%u reference type('%s %s') size cannot be determined: "
				"%lld\n", arg, ref ? btf_kind_str(ref) : "UNKNOWN",
				ref ? type_name(btf, ref) : "",
				size < 0 ? (long long)size : -E2BIG);
			return -EINVAL;
		}
		out->type = NB_SUBPROG_ARG_MEM;
		out->nullable = !(tags & ARG_TAG_NONNULL);
		out->mem_size = size;
		return 0;
	}
	if (tags) {
		verbose(env, "arg#%u has pointer tag, but is not a pointer type\n", arg);
		return -EINVAL;
	}
	if (btf_is_int(t) || btf_is_any_enum(t)) {
		out->type = NB_SUBPROG_ARG_SCALAR;
		return 0;
	}
	if (!sub->is_global)
		return -EINVAL;
	verbose(env, "Arg#%u type %s in %s() is not supported yet.\n", arg, btf_kind_str(t),
		fname);
	return -EINVAL;
}

/*
 * btf_prepare_func_args: the verifier types of a function's arguments from its prototype,
 * computed once. -EFAULT when the BTF cannot describe a global function at all.
 */
int btf_prepare_func_args(struct nb_verifier_env *env, u32 subprog)
{
	struct nb_subprog_info *sub = &env->subprog[subprog];
	const struct nb_btf *btf = env->prog->btf;
	struct nb_subprog_arg args[NB_MAX_BPF_FUNC_ARGS] = { 0 };
	const struct btf_type *fn, *proto;
	const struct btf_param *params;
	const char *fname;
	u32 nargs;
	int err;

	if (sub->args_cached)
		return 0;
	if (!sub->btf_id) {
		if (!sub->is_global)
			return -EINVAL;
		verbose(env, "Global functions need valid BTF\n");
		return -EFAULT;
	}
	fn = nb_btf_type(btf, sub->btf_id);
	if (!fn || !btf_is_func(fn)) {
		verbose(env, "BTF of func#%u doesn't point to KIND_FUNC\n", subprog);
		return -EFAULT;
	}
	fname = type_name(btf, fn);
	proto = nb_btf_type(btf, fn->type);
	if (!proto || !btf_is_func_proto(proto)) {
		verbose(env, "Invalid type of function %s()\n", fname);
		return -EFAULT;
	}
	nargs = btf_vlen(proto);
	if (nargs > NB_MAX_BPF_FUNC_ARGS) {
		if (!sub->is_global)
			return -EINVAL;
		verbose(env, "Global function %s() with %u > %d args. Buggy compiler.\n", fname,
			nargs, NB_MAX_BPF_FUNC_ARGS);
		return -EINVAL;
	}
	if (!is_scalar_return(btf, proto)) {
		if (!sub->is_global)
			return -EINVAL;
		verbose(env, "Global function %s() doesn't return scalar. Only those are "
			"supported.\n", fname);
		return -EINVAL;
	}
	params = btf_params(proto);
	for (u32 i = 0; i < nargs; i++) {
		err = prepare_arg(env, subprog, fname, i, &params[i], &args[i]);
		if (err)
			return err;
	}
	memcpy(sub->args, args, sizeof(args));
	sub->arg_cnt = nargs;
	sub->args_cached = true;
	return 0;
}

/*
 * __check_ptr_off_reg for an argument: a pointer handed on whole, at its start (pointers to
 * memory may point inside it).
 */
static int check_arg_reg_off(struct nb_verifier_env *env, const struct nb_reg_state *reg,
			     u32 regno)
{
	switch (reg->type) {
	case SCALAR_VALUE:
	case PTR_TO_STACK:
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_MAP_KEY:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MEM:
	case PTR_TO_MEM | MEM_RDONLY:
	case PTR_TO_MEM | MEM_RINGBUF:
		return 0;
	}
	return check_ptr_off_reg(env, reg, regno);
}

/*
 * check_mem_reg: mem_size bytes behind the argument may be read and written by the callee, as
 * if it were not NULL. The register is the caller's: the check sees it non-NULL for a moment.
 */
static int check_mem_arg(struct nb_verifier_env *env, u32 regno, u32 mem_size)
{
	struct nb_reg_state *reg = &cur_regs(env)[regno];
	struct nb_reg_state saved = *reg;
	int err;

	if (register_is_null(reg))
		return 0;
	reg->type &= ~PTR_MAYBE_NULL;
	err = check_helper_mem_access(env, regno, mem_size, true, false);
	if (!err)
		err = check_helper_mem_access(env, regno, mem_size, true, true);
	*reg = saved;
	return err;
}

/* btf_check_func_arg_match: the caller's registers against the prototype. */
static int check_func_arg_match(struct nb_verifier_env *env, u32 subprog,
				const struct nb_reg_state *regs)
{
	struct nb_subprog_info *sub = &env->subprog[subprog];
	int err = btf_prepare_func_args(env, subprog);

	if (err)
		return err;
	for (u32 i = 0; i < sub->arg_cnt; i++) {
		const struct nb_subprog_arg *arg = &sub->args[i];
		u32 regno = i + 1;
		const struct nb_reg_state *reg = &regs[regno];

		switch (arg->type) {
		case NB_SUBPROG_ARG_SCALAR:
			if (reg->type != SCALAR_VALUE) {
				verbose(env, "R%u is not a scalar\n", regno);
				return -EINVAL;
			}
			break;
		case NB_SUBPROG_ARG_CTX:
			err = check_arg_reg_off(env, reg, regno);
			if (err)
				return err;
			if (reg->type != PTR_TO_CTX) {
				verbose(env, "arg#%u expects pointer to ctx\n", i);
				return -EINVAL;
			}
			break;
		case NB_SUBPROG_ARG_MEM:
			err = check_arg_reg_off(env, reg, regno);
			if (err)
				return err;
			if (check_mem_arg(env, regno, arg->mem_size))
				return -EINVAL;
			if (!arg->nullable &&
			    (reg_type_may_be_null(reg->type) || register_is_null(reg))) {
				verbose(env, "arg#%u is expected to be non-NULL\n", i);
				return -EINVAL;
			}
			break;
		}
	}
	return 0;
}

/*
 * btf_check_subprog_call: may a call with these registers enter the function as its
 * prototype says? -EFAULT ends the verification; any other error marks the prototype
 * unreliable (which matters only for global functions: the caller refuses the call).
 */
int btf_check_subprog_call(struct nb_verifier_env *env, u32 subprog,
			   const struct nb_reg_state *regs)
{
	struct nb_subprog_info *sub = &env->subprog[subprog];
	int err;

	if (!env->prog->func_info_cnt)
		return -EINVAL;
	if (!sub->btf_id)
		return -EFAULT;
	if (sub->unreliable)
		return -EINVAL;
	err = check_func_arg_match(env, subprog, regs);
	if (err)
		sub->unreliable = true;
	return err;
}

/*
 * verbose_linfo: "; <source line> @ <file>:<line>" before the first instruction of each line,
 * as the kernel's log shows it.
 */
void print_insn_source(struct nb_verifier_env *env, u32 insn_idx)
{
	const struct bpf_line_info *li = nb_prog_find_linfo(env->prog, insn_idx);
	const char *line, *file, *base;

	if (!li || li == env->prev_linfo)
		return;
	env->prev_linfo = li;
	line = nb_btf_str(env->prog->btf, li->line_off);
	file = nb_btf_str(env->prog->btf, li->file_name_off);
	if (!line || !file)
		return;
	while (*line == ' ' || *line == '\t')
		line++;
	base = strrchr(file, '/');
	nb_log_printf(env->log, "; %s @ %s:%u\n", line, base ? base + 1 : file,
		      BPF_LINE_INFO_LINE_NUM(li->line_col));
}
