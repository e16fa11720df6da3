// SPDX-License-Identifier: GPL-2.0
/*
 * The string helpers of kernel/bpf/helpers.c: bpf_strtol and bpf_strtoul read an integer from
 * a buffer as the kernel's kstrtox parser does (leading white space, one minus sign, base 0
 * guessing 8, 10 or 16 from the prefix, at most 63 characters looked at, overflow an error), and
 * bpf_strncmp compares a buffer with a read-only string.
 */
#include <errno.h>
#include <string.h>

#include "bpf/helpers.h"

/* BPF_STRTOX_BASE_MASK: the base is the low 5 bits of flags, nothing else may be set. */
#define STRTOX_BASE_MASK 0x1f
/* The kernel parses a copy of at most this many characters (its str[64] with the NUL). */
#define STRTOX_MAX_CHARS 63

/* The kernel's isspace: its ctype table also counts Latin-1's no-break space. */
static bool k_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static bool k_isxdigit(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/*
 * __bpf_strtoull: the characters used (white space, sign and prefix included), *res the value
 * and *negative the sign; -EINVAL for no digits or bad flags, -ERANGE for overflow.
 */
static int strtoull_common(const char *buf, size_t buf_len, u64 flags, u64 *res, bool *negative)
{
	unsigned int base = flags & STRTOX_BASE_MASK, digits = 0;
	const char *cur = buf, *end = buf + buf_len;
	char str[STRTOX_MAX_CHARS + 1];
	bool overflow = false;
	size_t consumed, len;
	const char *s;
	u64 val = 0;

	if (!buf_len)
		return -EINVAL;
	if (base != 0 && base != 8 && base != 10 && base != 16)
		return -EINVAL;
	if (flags & ~(u64)STRTOX_BASE_MASK)
		return -EINVAL;
	while (cur < end && k_isspace((unsigned char)*cur))
		cur++;
	*negative = cur < end && *cur == '-';
	if (*negative)
		cur++;
	consumed = (size_t)(cur - buf);
	len = buf_len - consumed;
	if (!len)
		return -EINVAL;
	if (len > STRTOX_MAX_CHARS)
		len = STRTOX_MAX_CHARS;
	memcpy(str, cur, len);
	str[len] = 0;
	s = str;
	/* _parse_integer_fixup_radix */
	if (!base) {
		if (s[0] == '0')
			base = (s[1] | 0x20) == 'x' && k_isxdigit((unsigned char)s[2]) ? 16 : 8;
		else
			base = 10;
	}
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	/* _parse_integer: every digit is taken, an overflow is only noted */
	for (;; s++, digits++) {
		unsigned char c = (unsigned char)*s, lc = c | 0x20;
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (lc >= 'a' && lc <= 'f')
			d = lc - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if ((val >> 60) && val > (~0ULL - d) / base)
			overflow = true;
		val = val * base + d;
	}
	*res = val;
	if (overflow)
		return -ERANGE;
	if (!digits)
		return -EINVAL;
	return (int)(consumed + (size_t)(s - str));
}

static u64 bpf_strtol(u64 buf, u64 buf_len, u64 flags, u64 res, u64 r5)
{
	s64 *out = (s64 *)(uintptr_t)res;
	bool negative;
	u64 val;
	int ret;

	*out = 0;
	ret = strtoull_common((const char *)(uintptr_t)buf, buf_len, flags, &val, &negative);
	if (ret < 0)
		return (u64)(s64)ret;
	if (negative) {
		if ((s64)-val > 0)
			return (u64)-ERANGE;
		*out = (s64)-val;
	} else {
		if ((s64)val < 0)
			return (u64)-ERANGE;
		*out = (s64)val;
	}
	(void)r5;
	return (u64)ret;
}

static u64 bpf_strtoul(u64 buf, u64 buf_len, u64 flags, u64 res, u64 r5)
{
	u64 *out = (u64 *)(uintptr_t)res;
	bool negative;
	u64 val;
	int ret;

	*out = 0;
	ret = strtoull_common((const char *)(uintptr_t)buf, buf_len, flags, &val, &negative);
	if (ret < 0)
		return (u64)(s64)ret;
	if (negative)
		return (u64)-EINVAL;
	*out = val;
	(void)r5;
	return (u64)ret;
}

const struct nb_func_proto nb_strtol_proto = {
	.func = bpf_strtol,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE, NB_ARG_ANYTHING, NB_ARG_PTR_TO_LONG },
};

const struct nb_func_proto nb_strtoul_proto = {
	.func = bpf_strtoul,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE, NB_ARG_ANYTHING, NB_ARG_PTR_TO_LONG },
};

/* The kernel's strncmp (lib/string.c): -1, 0 or 1, not the C library's difference. */
static u64 bpf_strncmp(u64 s1, u64 s1_sz, u64 s2, u64 r4, u64 r5)
{
	const unsigned char *a = (const unsigned char *)(uintptr_t)s1;
	const unsigned char *b = (const unsigned char *)(uintptr_t)s2;

	(void)r4;
	(void)r5;
	for (u32 n = (u32)s1_sz; n; n--, a++, b++) {
		if (*a != *b)
			return *a < *b ? (u64)-1 : 1;
		if (!*a)
			break;
	}
	return 0;
}

const struct nb_func_proto nb_strncmp_proto = {
	.func = bpf_strncmp,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE, NB_ARG_CONST_STR },
};
