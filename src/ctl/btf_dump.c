// SPDX-License-Identifier: GPL-2.0
/*
 * BTF-typed map data (btf_dump.h), in the forms bpftool's dumper gives each kind, so that
 * `map dump -j`'s "formatted" member reads as bpftool's does for the same map: the same numbers,
 * the same strings, the same hex for bitfields and 128-bit integers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "ctl/btf_dump.h"

static int dump_type(struct nb_json *j, const char *name, const struct btf *btf, __u32 type_id,
		     unsigned int bit_offset, const unsigned char *data, bool plain);

/*
 * An integer of 1, 2, 4 or 8 bytes at data, little-endian as a map holds it, sign-extended or
 * not into *v; false for any other size.
 */
static bool read_int(const unsigned char *data, unsigned int size, bool sign, __u64 *v)
{
	unsigned int shift = 64 - size * 8;
	__u64 u = 0;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return false;
	memcpy(&u, data, size);
	*v = sign ? (__u64)((__s64)(u << shift) >> shift) : u;
	return true;
}

/*
 * A bitfield or an integer of odd width: its nr_bits from bit_offset on (little-endian), in hex,
 * a JSON string but bare in the plain form (bpftool's, which is not quite JSON).
 */
static void dump_bits(struct nb_json *j, const char *name, unsigned int nr_bits,
		      unsigned int bit_offset, const unsigned char *data, bool plain)
{
	const char *quote = plain ? "" : "\"";

	unsigned int bytes = (bit_offset + nr_bits + 7) / 8;
	unsigned __int128 v = 0;
	unsigned long long hi, lo;
	char buf[64];

	if (bytes > sizeof(v))
		bytes = sizeof(v);
	memcpy(&v, data, bytes);
	v >>= bit_offset;
	if (nr_bits < 128)
		v &= ((unsigned __int128)1 << nr_bits) - 1;
	hi = (unsigned long long)(v >> 64);
	lo = (unsigned long long)v;
	if (hi)
		snprintf(buf, sizeof(buf), "%s0x%llx%016llx%s", quote, hi, lo, quote);
	else
		snprintf(buf, sizeof(buf), "%s0x%llx%s", quote, lo, quote);
	nb_json_raw(j, name, buf);
}

static int dump_int(struct nb_json *j, const char *name, const struct btf_type *t,
		    unsigned int bit_offset, const unsigned char *data, bool plain)
{
	unsigned int nr_bits = btf_int_bits(t), total = bit_offset + btf_int_offset(t);
	char buf[32];

	if (total || nr_bits % 8) {
		dump_bits(j, name, nr_bits, total % 8, data + total / 8, plain);
		return 0;
	}
	if (nr_bits == 128) {
		dump_bits(j, name, 128, 0, data, plain);
		return 0;
	}
	switch (btf_int_encoding(t)) {
	case 0:
	case BTF_INT_SIGNED: {
		bool sign = btf_int_encoding(t) == BTF_INT_SIGNED;
		__u64 v;

		if (!read_int(data, nr_bits / 8, sign, &v)) {	/* 24, 40, ... bits */
			dump_bits(j, name, nr_bits, 0, data, plain);
			return 0;
		}
		if (sign)
			snprintf(buf, sizeof(buf), "%lld", (long long)v);
		else
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		nb_json_raw(j, name, buf);
		return 0;
	}
	case BTF_INT_CHAR:
		/* a string of it, escaped where JSON must escape it ('"', '\\'); bare hex in plain */
		if (isprint(data[0])) {
			nb_json_printf(j, name, "%c", data[0]);
			return 0;
		}
		snprintf(buf, sizeof(buf), plain ? "0x%x" : "\"\\u00%02x\"", data[0]);
		nb_json_raw(j, name, buf);
		return 0;
	case BTF_INT_BOOL: {
		bool any = false;

		for (unsigned int i = 0; i < t->size; i++)
			any |= data[i] != 0;
		nb_json_bool(j, name, any);
		return 0;
	}
	default:
		return -EINVAL;
	}
}

/* A char array holding a NUL-terminated printable string prints as that string. */
static bool is_string(const struct btf *btf, const struct btf_array *arr,
		      const unsigned char *s)
{
	const struct btf_type *elem = btf__type_by_id(btf, arr->type);

	if (!arr->nelems)
		return false;
	/* modifiers skipped, typedefs not: a typedef of char is no string */
	while (elem && btf_is_mod(elem))
		elem = btf__type_by_id(btf, elem->type);
	if (!elem || !btf_is_int(elem) || elem->size != 1)
		return false;
	if (btf_int_encoding(elem) != BTF_INT_CHAR &&
	    strcmp(btf__name_by_offset(btf, elem->name_off), "char"))
		return false;
	for (__u32 i = 0; i < arr->nelems; i++) {
		if (!s[i])
			return true;
		if (s[i] <= 0x1f || s[i] >= 0x7f)
			return false;
	}
	return false;
}

static int dump_array(struct nb_json *j, const char *name, const struct btf *btf,
		      const struct btf_type *t, const unsigned char *data, bool plain)
{
	const struct btf_array *arr = btf_array(t);
	long long elem_size;
	int err = 0;

	if (is_string(btf, arr, data)) {
		nb_json_string(j, name, (const char *)data);
		return 0;
	}
	elem_size = btf__resolve_size(btf, arr->type);
	if (elem_size < 0)
		return (int)elem_size;
	nb_json_start_array(j, name);
	for (__u32 i = 0; i < arr->nelems && !err; i++)
		err = dump_type(j, NULL, btf, arr->type, 0, data + i * elem_size, plain);
	nb_json_end_array(j);
	return err;
}

static int dump_struct(struct nb_json *j, const char *name, const struct btf *btf,
		       const struct btf_type *t, const unsigned char *data, bool plain)
{
	const struct btf_member *m = btf_members(t);
	int err = 0;

	nb_json_start_object(j, name);
	for (unsigned int i = 0; i < btf_vlen(t) && !err; i++) {
		const char *mname = btf__name_by_offset(btf, m[i].name_off);
		unsigned int off = btf_member_bit_offset(t, i);
		unsigned int size = btf_member_bitfield_size(t, i);

		if (size)
			dump_bits(j, mname, size, off % 8, data + off / 8, plain);
		else
			err = dump_type(j, mname, btf, m[i].type, off % 8, data + off / 8, plain);
	}
	nb_json_end_object(j);
	return err;
}

static int dump_enum(struct nb_json *j, const char *name, const struct btf *btf,
		     const struct btf_type *t, const unsigned char *data)
{
	__u64 u;
	__s64 v;

	if (!read_int(data, t->size, true, &u))
		return -EINVAL;
	v = (__s64)u;
	for (unsigned int i = 0; i < btf_vlen(t); i++) {
		if (btf_is_enum(t) ? v == btf_enum(t)[i].val :
				     (__u64)v == btf_enum64_value(btf_enum64(t) + i)) {
			nb_json_string(j, name, btf__name_by_offset(btf, btf_is_enum(t) ?
						btf_enum(t)[i].name_off :
						btf_enum64(t)[i].name_off));
			return 0;
		}
	}
	nb_json_int(j, name, v);
	return 0;
}

static int dump_datasec(struct nb_json *j, const char *name, const struct btf *btf,
			const struct btf_type *t, const unsigned char *data, bool plain)
{
	const struct btf_var_secinfo *vsi = btf_var_secinfos(t);
	int err = 0;

	nb_json_start_object(j, name);
	nb_json_start_array(j, btf__name_by_offset(btf, t->name_off));
	for (unsigned int i = 0; i < btf_vlen(t) && !err; i++)
		err = dump_type(j, NULL, btf, vsi[i].type, 0, data + vsi[i].offset, plain);
	nb_json_end_array(j);
	nb_json_end_object(j);
	return err;
}

static int dump_type(struct nb_json *j, const char *name, const struct btf *btf, __u32 type_id,
		     unsigned int bit_offset, const unsigned char *data, bool plain)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	char buf[32];
	int id, err;

	if (!t)
		return -EINVAL;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		return dump_int(j, name, t, bit_offset, data, plain);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return dump_struct(j, name, btf, t, data, plain);
	case BTF_KIND_ARRAY:
		return dump_array(j, name, btf, t, data, plain);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return dump_enum(j, name, btf, t, data);
	case BTF_KIND_PTR: {
		unsigned long v;

		memcpy(&v, data, sizeof(v));
		/* the plain form prints the address as printf's %p does */
		if (plain && !v)
			snprintf(buf, sizeof(buf), "(nil)");
		else
			snprintf(buf, sizeof(buf), plain ? "0x%lx" : "%lu", v);
		nb_json_raw(j, name, buf);
		return 0;
	}
	case BTF_KIND_UNKN:
		nb_json_raw(j, name, "(unknown)");
		return 0;
	case BTF_KIND_FWD:
		nb_json_raw(j, name, "(fwd-kind-invalid)");
		return -EINVAL;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
		id = btf__resolve_type(btf, type_id);
		if (id < 0)
			return id;
		return dump_type(j, name, btf, id, bit_offset, data, plain);
	case BTF_KIND_VAR:
		nb_json_start_object(j, name);
		err = dump_type(j, btf__name_by_offset(btf, t->name_off), btf, t->type, bit_offset,
				data, plain);
		nb_json_end_object(j);
		return err;
	case BTF_KIND_DATASEC:
		return dump_datasec(j, name, btf, t, data, plain);
	case BTF_KIND_FLOAT:
		/* bpftool has no form for floats (it leaves its JSON broken): numbers here */
		if (t->size == sizeof(float) || t->size == sizeof(double)) {
			float f;
			double d;

			if (t->size == sizeof(float)) {
				memcpy(&f, data, sizeof(f));
				d = f;
			} else {
				memcpy(&d, data, sizeof(d));
			}
			if (d != d || d - d != 0)	/* NaN, infinity: no JSON number */
				snprintf(buf, sizeof(buf), "\"%g\"", d);
			else
				snprintf(buf, sizeof(buf), "%.17g", d);
			nb_json_raw(j, name, buf);
			return 0;
		}
		/* fall through */
	default:	/* tags, functions: nothing a map holds */
		nb_json_string(j, name, "(unsupported-kind)");
		return -EINVAL;
	}
}

int nb_ctl_btf_dump(struct nb_json *j, const char *name, const struct btf *btf, __u32 type_id,
		    const void *data, bool plain)
{
	return dump_type(j, name, btf, type_id, 0, data, plain);
}
