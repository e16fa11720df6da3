// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel structs read through the kernel's BTF: a map pointer's struct bpf_map (and the map
 * type's struct around it), and PTR_TO_BTF_ID pointers to kernel structs. The twin of the
 * kernel's check_ptr_to_map_access, check_ptr_to_btf_access and btf_struct_access: a read must
 * fall inside one member of the struct as vmlinux BTF lays it out (/sys/kernel/btf/vmlinux, the
 * running kernel's); a scalar member (or bytes of an array of scalars) gives an unknown
 * scalar, a pointer member read whole a PTR_TO_BTF_ID to its struct, anything else is refused
 * with the kernel's words. Nothing is ever written.
 *
 * At run time (fixup.c): a map pointer's read reads the map's image of its kernel struct
 * (bpf/map_kstruct.c), which the verifier lays out here; a read through a PTR_TO_BTF_ID gives
 * 0. netbpf has no kernel structs to point to: every PTR_TO_BTF_ID it hands a program (a
 * pointer member of a map's image, a bpf_skc_to_* result) is NULL when the program runs, and a
 * read through NULL gives 0, as the kernel's faulting load (BPF_PROBE_MEM) does. Anything that
 * ever makes such a pointer non-NULL must make those reads real, checked loads.
 */
#include <string.h>

#include <bpf/btf.h>

#include "bpf/vmlinux_btf.h"
#include "bpf/verifier/verifier.h"

enum walk_result {
	WALK_SCALAR = 0,
	WALK_PTR,
	WALK_STRUCT,
};

const char *btf_ptr_type_name(u32 btf_id)
{
	const struct nb_btf *btf = nb_vmlinux_btf(NULL);
	const struct btf_type *t = btf ? nb_btf_type(btf, btf_id) : NULL;

	return t ? nb_btf_str(btf, t->name_off) ?: "" : "";
}

/*
 * __btf_resolve_size: the type behind id with modifiers and typedefs followed and arrays of
 * arrays flattened. An array gives the array (*size its whole size) with *elem_type, *elem_id
 * its innermost element and *nelems their count; else the type itself. *res_id: its id.
 */
static const struct btf_type *resolve_size(const struct nb_btf *btf, u32 id, u32 *size,
					   const struct btf_type **elem_type, u32 *elem_id,
					   u32 *nelems, u32 *res_id)
{
	const struct btf_type *t = nb_btf_type(btf, id), *array = NULL;
	u32 array_id = 0, n = 1;

	for (int depth = 0; t && depth < 32; depth++) {
		if (btf_is_mod(t) || btf_is_typedef(t)) {
			id = t->type;
		} else if (btf_is_array(t)) {
			if (!array) {
				array = t;
				array_id = id;
			}
			n *= btf_array(t)->nelems;
			id = btf_array(t)->type;
		} else {
			break;
		}
		t = nb_btf_type(btf, id);
	}
	if (!t)
		return NULL;
	if (btf_is_ptr(t))
		*size = sizeof(void *);
	else if (btf_is_int(t) || btf_is_any_enum(t) || btf_is_composite(t) ||
		 btf_is_float(t))
		*size = t->size;
	else
		return NULL;
	if (!array) {
		*res_id = id;
		return t;
	}
	*elem_type = t;
	*elem_id = id;
	*nelems = n;
	*size *= n;
	*res_id = array_id;
	return array;
}

/* btf_struct_walk: what the bytes off..off+size-1 of struct t are. */
static int struct_walk(struct nb_verifier_env *env, const struct nb_btf *btf,
		       const struct btf_type *t, int off, int size, u32 *next_id, u32 *flag)
{
	const struct btf_type *mtype, *elem_type = NULL;
	u32 moff, mtrue_end, msize = 0, nelems = 0, elem_id = 0, mid;
	const struct btf_member *member;
	const char *tname, *mname;
	u16 vlen;

again:
	tname = nb_btf_str(btf, t->name_off) ?: "";
	if (!btf_is_composite(t)) {
		verbose(env, "Type '%s' is not a struct\n", tname);
		return -EINVAL;
	}
	vlen = btf_vlen(t);
	if ((u32)off + size > t->size) {
		/* Beyond the end: only into a last member that is an array of structs of no size. */
		const struct btf_type *last;

		if (!vlen)
			goto beyond;
		member = btf_members(t) + vlen - 1;
		last = nb_btf_skip_modifiers(btf, member->type, false, NULL);
		if (!last || !btf_is_array(last) || btf_array(last)->nelems)
			goto beyond;
		moff = btf_member_bit_offset(t, vlen - 1) / 8;
		if ((u32)off < moff)
			goto beyond;
		last = nb_btf_skip_modifiers(btf, btf_array(last)->type, false, NULL);
		if (!last || !btf_is_composite(last) || !last->size)
			goto beyond;
		t = last;
		off = (off - moff) % t->size;
		goto again;
beyond:
		verbose(env, "access beyond struct %s at off %u size %u\n", tname, off, size);
		return -EACCES;
	}
	member = btf_members(t);
	for (u16 i = 0; i < vlen; i++, member++) {
		u32 bitfield = btf_member_bitfield_size(t, i);

		moff = btf_member_bit_offset(t, i) / 8;
		if ((u32)off + size <= moff)
			break;	/* the members beyond are further still */
		if (bitfield) {
			u32 end_bit = btf_member_bit_offset(t, i) + bitfield;

			/* a read covering the whole bitfield (clang leaves out anonymous ones) */
			if ((u32)off <= moff && (end_bit + 7) / 8 <= (u32)off + size)
				return WALK_SCALAR;
			continue;
		}
		if ((u32)off < moff)
			break;	/* a hole */
		mname = nb_btf_str(btf, member->name_off) ?: "";
		mtype = resolve_size(btf, member->type, &msize, &elem_type, &elem_id, &nelems,
				     &mid);
		if (!mtype) {
			verbose(env, "field %s doesn't have size\n", mname);
			return -EFAULT;
		}
		mtrue_end = moff + msize;
		if ((u32)off >= mtrue_end)
			continue;
		if (btf_is_array(mtype)) {
			/* an array reads as its elements laid one after the other */
			if (moff == mtrue_end)
				continue;
			msize /= nelems;
			moff += ((u32)off - moff) / msize * msize;
			mtype = elem_type;
			mid = elem_id;
		}
		if (btf_is_composite(mtype)) {
			if ((u32)off == moff) {
				*next_id = mid;
				return WALK_STRUCT;
			}
			t = mtype;
			off -= moff;
			goto again;
		}
		if (btf_is_ptr(mtype)) {
			const struct btf_type *tag, *stype;
			u32 id;

			if (msize != (u32)size || (u32)off != moff) {
				verbose(env, "cannot access ptr member %s with moff %u in struct %s "
					"with off %u size %u\n", mname, moff, tname, off, size);
				return -EACCES;
			}
			tag = nb_btf_type(btf, mtype->type);
			if (tag && btf_is_type_tag(tag)) {
				const char *v = nb_btf_str(btf, tag->name_off) ?: "";

				if (!strcmp(v, "user"))
					*flag = MEM_USER;
				else if (!strcmp(v, "percpu"))
					*flag = MEM_PERCPU;
			}
			stype = nb_btf_skip_modifiers(btf, mtype->type, true, &id);
			if (stype && btf_is_composite(stype)) {
				*next_id = id;
				return WALK_PTR;
			}
		}
		/* within a scalar, or an array of them: any bytes up to the member's end */
		if ((u32)off + size > mtrue_end) {
			verbose(env, "access beyond the end of member %s (mend:%u) in struct %s with "
				"off %u size %u\n", mname, mtrue_end, tname, off, size);
			return -EACCES;
		}
		return WALK_SCALAR;
	}
	verbose(env, "struct %s doesn't have field at offset %d\n", tname, off);
	return -EINVAL;
}

/* btf_struct_access: SCALAR_VALUE, or PTR_TO_BTF_ID with *next_id and *flag; <0: refused. */
static int struct_access(struct nb_verifier_env *env, const struct nb_btf *btf, u32 id, int off,
			 int size, u32 *next_id, u32 *flag)
{
	const struct btf_type *t = nb_btf_type(btf, id);

	while (t) {
		int res = struct_walk(env, btf, t, off, size, next_id, flag);

		switch (res) {
		case WALK_PTR:
			return PTR_TO_BTF_ID;
		case WALK_SCALAR:
			return SCALAR_VALUE;
		case WALK_STRUCT:
			t = nb_btf_type(btf, *next_id);
			off = 0;
			break;
		default:
			return res;
		}
	}
	return -EINVAL;
}

/* mark_btf_ld_reg: the register a read of a kernel struct's member loads. */
static void mark_btf_ld_reg(struct nb_verifier_env *env, struct nb_reg_state *reg, int type,
			    u32 btf_id, u32 flag)
{
	if (type == SCALAR_VALUE) {
		mark_reg_unknown(reg);
		return;
	}
	mark_pointer(reg, PTR_TO_BTF_ID | flag);
	reg->btf_id = btf_id;
	if (flag & PTR_MAYBE_NULL)
		reg->id = ++env->id_gen;
}

int check_ptr_to_map_access(struct nb_verifier_env *env, u32 regno, int off, int size,
			    enum nb_access_type t, int value_regno)
{
	struct nb_reg_state *regs = cur_regs(env);
	struct nb_map *map = regs[regno].map_ptr;
	const char *tname = nb_map_kstruct_name(map->map_type), *why = NULL;
	const struct nb_btf *btf = nb_vmlinux_btf(&why);
	u32 type_id, btf_id = 0, flag = 0;
	int ret;

	if (!btf) {
		verbose(env, "map_ptr access not supported without CONFIG_DEBUG_INFO_BTF (%s)\n",
			why);
		return -EOPNOTSUPP;
	}
	type_id = tname ? nb_btf_find_struct(btf, tname) : 0;
	if (!type_id) {
		verbose(env, "map_ptr access not supported for map type %d\n", map->map_type);
		return -EOPNOTSUPP;
	}
	if (off < 0) {
		verbose(env, "R%u is %s invalid negative access: off=%d\n", regno, tname, off);
		return -EACCES;
	}
	if (t != NB_READ) {
		verbose(env, "only read from %s is supported\n", tname);
		return -EACCES;
	}
	ret = struct_access(env, btf, type_id, off, size, &btf_id, &flag);
	if (ret < 0)
		return ret;
	/* What the program will read when it runs. */
	if (nb_map_kstruct_init(map, btf, type_id)) {
		verbose(env, "cannot lay out struct %s for map %s\n", tname, map->name);
		return -ENOMEM;
	}
	if (value_regno >= 0)
		mark_btf_ld_reg(env, &regs[value_regno], ret, btf_id, flag);
	return 0;
}

int check_ptr_to_btf_access(struct nb_verifier_env *env, u32 regno, int off, int size,
			    enum nb_access_type t, int value_regno)
{
	struct nb_reg_state *regs = cur_regs(env), *reg = &regs[regno];
	const struct nb_btf *btf = nb_vmlinux_btf(NULL);
	const char *tname = btf_ptr_type_name(reg->btf_id);
	u32 btf_id = 0, flag = 0;
	int ret;

	if (!btf)
		return -EFAULT;	/* no such pointer is made without it */
	if (!env->prog->gpl_compatible) {
		verbose(env, "Cannot access kernel 'struct %s' from non-GPL compatible program\n",
			tname);
		return -EINVAL;
	}
	if (off < 0) {
		verbose(env, "R%u is ptr_%s invalid negative access: off=%d\n", regno, tname, off);
		return -EACCES;
	}
	if (!tnum_is_const(reg->var_off) || reg->var_off.value) {
		char tn[48];

		tnum_strn(tn, sizeof(tn), reg->var_off);
		verbose(env, "R%u is ptr_%s invalid variable offset: off=%d, var_off=%s\n", regno,
			tname, off, tn);
		return -EACCES;
	}
	if (reg->type & MEM_USER) {
		verbose(env, "R%u is ptr_%s access user memory: off=%d\n", regno, tname, off);
		return -EACCES;
	}
	if (reg->type & MEM_PERCPU) {
		verbose(env, "R%u is ptr_%s access percpu memory: off=%d\n", regno, tname, off);
		return -EACCES;
	}
	if (t != NB_READ) {
		verbose(env, "only read is supported\n");
		return -EACCES;
	}
	ret = struct_access(env, btf, reg->btf_id, off, size, &btf_id, &flag);
	if (ret < 0)
		return ret;
	/* Pointers walked from an untrusted one stay untrusted; from others, plain. */
	if (ret == PTR_TO_BTF_ID && (reg->type & PTR_UNTRUSTED))
		flag |= PTR_UNTRUSTED;
	if (value_regno >= 0)
		mark_btf_ld_reg(env, &regs[value_regno], ret, btf_id, flag);
	return 0;
}

int btf_ptr_struct_id(struct nb_verifier_env *env, const char *name, u32 *id)
{
	const char *why = NULL;
	const struct nb_btf *btf = nb_vmlinux_btf(&why);

	*id = btf ? nb_btf_find_struct(btf, name) : 0;
	if (*id)
		return 0;
	if (!btf)
		verbose(env, "struct %s needs the kernel's BTF: %s\n", name, why);
	else
		verbose(env, "the kernel's BTF has no struct %s\n", name);
	return -EOPNOTSUPP;
}

/*
 * btf_struct_ids_match: struct id, at off, is struct need_id or begins with it, however deep
 * (struct tcp_sock begins with inet_connection_sock, ..., sock, sock_common).
 */
static bool struct_ids_match(struct nb_verifier_env *env, const struct nb_btf *btf, u32 id,
			     int off, u32 need_id)
{
	u32 flag = 0;

	if (!off && id == need_id)
		return true;
	for (int depth = 0; depth < 32; depth++) {
		const struct btf_type *t = nb_btf_type(btf, id);

		if (!t || struct_walk(env, btf, t, off, 1, &id, &flag) != WALK_STRUCT)
			return false;
		if (id == need_id)
			return true;
		off = 0;
	}
	return false;
}

int check_btf_sock_arg(struct nb_verifier_env *env, u32 regno)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	const struct nb_btf *btf = nb_vmlinux_btf(NULL);
	u32 need_id;
	int err;

	err = check_ptr_fixed_off_reg(env, reg, regno);
	if (err)
		return err;
	err = btf_ptr_struct_id(env, "sock_common", &need_id);
	if (err)
		return err;
	if (btf && struct_ids_match(env, btf, reg->btf_id, reg->off, need_id))
		return 0;
	verbose(env, "R%u is of type %s but sock_common is expected\n", regno,
		btf_ptr_type_name(reg->btf_id));
	return -EACCES;
}
